"""countdp.divergence.tight_rho: the bracket [lo, hi] of rho* = sup D_alpha/alpha contains the true
supremum when the supremum sits inside a cell of a coarse scan, inside the first cell (1, alpha_0],
and beyond the scan's last order -- each bound of the bracket has to do its work there; and the
engine's bad options are refused."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from countdp.divergence.tight_rho import _chord_bound, tight_rho
from countdp.laws import Gaussian
from countdp.mechanisms import epsilon_dp

pytestmark = pytest.mark.mp_dps(30)

EPS, K = 1, 10   # 10-ary randomized response at eps = 1: the supremum sits at alpha ~ 2.3


def _ratio(alpha):
    """D_alpha/alpha of k-RR in closed form: log((e^{eps a} + e^{eps (1-a)} + k-2)/(e^eps + k-1))
    / (a (a-1))."""
    a, e = mpmath.mpf(alpha), mpmath.mpf(EPS)
    s = (mpmath.exp(e * a) + mpmath.exp(e * (1 - a)) + K - 2) / (mpmath.exp(e) + K - 1)
    return mpmath.log(s) / (a * (a - 1))


def _true_sup():
    best = minimize_scalar(lambda a: -float(_ratio(a)), bounds=(1.01, 20), method="bounded",
                           options={"xatol": 1e-10})
    return _ratio(best.x), best.x


@pytest.mark.parametrize("where, options", [
    ("inside a cell", {"points_per_decade": 2}),
    ("inside the first cell", {"alpha_min": 6, "points_per_decade": 2}),
    ("beyond the last order", {"alpha_max": "1.05", "points_per_decade": 8}),
])
def test_bracket_contains_the_supremum(where, options):
    true, alpha = _true_sup()
    assert 1.5 < alpha < 3.5
    r = tight_rho(epsilon_dp.krr_pair(EPS, K), refine=False, precise=False,
                  **{k: (mpmath.mpf(v) if isinstance(v, str) else v) for k, v in options.items()})
    assert r.lo <= true * (1 + mpmath.mpf(10) ** -9), where
    assert r.hi >= true * (1 - mpmath.mpf(10) ** -9), where


@pytest.mark.parametrize("a, b", [(1.5, 3.0), (2.0, 4.2), (3.0, 11.0), (1.01, 1.2)])
def test_chord_bound_dominates_the_curve_on_its_cell(a, b):
    """F(alpha) = (alpha - 1) D_alpha is convex with F(1) = 0: the chord's bound of the cell is at
    least D_alpha/alpha at every order of the cell (a dense grid of them)."""
    def F(x):
        return float(_ratio(x)) * x * (x - 1)
    bound = _chord_bound(a, b, F(a), F(b))
    assert bound >= max(float(_ratio(x)) for x in np.linspace(a, b, 401)) * (1 - 1e-12)


@pytest.mark.parametrize("rel_tol", [0, -1e-3, 1, 1.5])
def test_rel_tol_must_lie_in_zero_one(rel_tol):
    with pytest.raises(ValueError, match="rel_tol"):
        tight_rho((Gaussian(0, 1), Gaussian(1, 1)), rel_tol=rel_tol)
