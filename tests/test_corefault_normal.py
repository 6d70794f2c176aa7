"""countdp.numerics.normal: Phi(b) - Phi(a) on each side of 0 and across it, against the plain
difference of mpmath's ncdf at 150 digits (no cancellation left at 50)."""

from __future__ import annotations

import mpmath
import pytest

from countdp.numerics.normal import mp_Phi_diff


@pytest.mark.parametrize("a, b", [(-3, -1), (-40, -39), ("-0.5", 2), (1, 3), (0, 0), (-2, 0)])
def test_phi_diff_on_both_sides(a, b):
    with mpmath.workdps(50):
        a, b = mpmath.mpf(a), mpmath.mpf(b)
        with mpmath.workdps(150):
            ref = mpmath.ncdf(b) - mpmath.ncdf(a)
        got = mp_Phi_diff(a, b)
        assert got >= 0 and abs(got - ref) <= mpmath.mpf(10) ** -45 * max(ref, mpmath.mpf(10) ** -300)
