"""countdp.divergence.lattice_dual: the shooting's start solves its equation on the branch u < 0
for each kind, the one-sided kind (Newton's method) included, which no check runs."""

from __future__ import annotations

import math

import pytest

from countdp.divergence.lattice_dual import start_ratio


@pytest.mark.parametrize("g", [1e-3, 0.5, 3.0, 40.0])
def test_start_ratio_is_the_negative_root(g):
    equations = {"symmetric": lambda u: 1 - math.cosh(u) + g,
                 "dirichlet": lambda u: 2 - 2 * math.cosh(u / 2) + g,
                 "one-sided": lambda u: math.expm1(u) - u - g}
    for kind, eq in equations.items():
        u = start_ratio(kind, g)
        assert u < 0, kind
        assert abs(eq(u)) <= 1e-12 * (1 + g), kind
