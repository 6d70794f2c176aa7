"""countdp.arb.renyi: certified Renyi divergences (equal-variance Gaussians, the mechanism's
unclipped and released laws, products) against mpmath quadrature, with negative controls."""

from __future__ import annotations

import mpmath
import pytest
from flint import fmpq

from _ball_reference import CC, DPS, FALSE, MP_S, R0, TRUE, contains, mpq, sigma_ball
from countdp import formulas
from countdp.arb.renyi import (clipping_gap, decide_released_budget, equal_variance_renyi, product_renyi,
                               released_renyi, unclipped_renyi)
from countdp.arb.verdicts import decide_contains, decide_le


pytestmark = pytest.mark.mp_dps(DPS)


@pytest.mark.parametrize("alpha,mu,nu,s", [(2, 0, 1, 1), ("3/2", 0, "1/3", "1/2"),
                                           (10, 1, 2, 3), ("1.01", 0, 5, 1)])
def test_equal_variance_renyi(alpha, mu, nu, s):
    res = equal_variance_renyi(alpha, mu, nu, s)
    a, m, n_, sd = (mpq(x) for x in (alpha, mu, nu, s))
    f = lambda x: mpmath.npdf(x, m, sd) ** a * mpmath.npdf(x, n_, sd) ** (1 - a)  # noqa: E731
    assert contains(res.integral, mpmath.quad(f, [-mpmath.inf, m - 20 * sd, n_ + 20 * sd, mpmath.inf]))
    assert contains(res.divergence, a * (m - n_) ** 2 / (2 * sd**2))
    closed = formulas.renyi_equal_variance.ball(alpha, mu, nu, s)
    assert decide_contains(res.divergence, closed) is TRUE
    # negative control: the formula without the 1/2
    assert decide_contains(res.divergence, 2 * closed) is FALSE


def mp_clipped_D(alpha, kp, kq, c, sig):
    """Released-law Renyi divergence from the laws (atom + density in w = log(y + c))."""
    a = mpmath.mpf(alpha)
    mu_p, mu_q = mpmath.log(kp + c) - sig**2, mpmath.log(kq + c) - sig**2
    lc = mpmath.log(c)
    Ap, Aq = mpmath.ncdf((lc - mu_p) / sig), mpmath.ncdf((lc - mu_q) / sig)
    f = lambda w: mpmath.npdf(w, mu_p, sig) ** a * mpmath.npdf(w, mu_q, sig) ** (1 - a)  # noqa: E731
    dens = mpmath.quad(f, [lc, mu_p + 2 * sig, mu_p + 40 * sig * a, mpmath.inf])
    return mpmath.log(Ap**a * Aq ** (1 - a) + dens) / (a - 1)


@pytest.mark.parametrize("alpha,n,direction", [(2, 1, "forward"), (2, 1, "backward"),
                                               (10, 1, "forward"), (2, 3, "backward"),
                                               (2, 50, "forward")])
def test_released_renyi(alpha, n, direction):
    kp, kq = (n, n - 1) if direction == "forward" else (n - 1, n)
    res = released_renyi(alpha, kp, kq, CC, sigma_ball())
    assert contains(res.divergence, mp_clipped_D(alpha, kp, kq, 1, MP_S))
    decision = decide_released_budget(alpha, n, R0, CC, direction)
    assert decision.verdict is TRUE, decision.info


def test_released_budget_large_n_and_negative_control():
    decision = decide_released_budget(2, 1000, R0, CC, "forward")
    assert decision.verdict is TRUE and "gap" in decision.info["route"]
    # clipping negligible at n = 1000: D_clip ~ alpha v(n) > 0.99 alpha v(n)
    for direction in ("forward", "backward"):
        decision = decide_released_budget(2, 1000, R0, CC, direction, factor=fmpq(99, 100))
        assert decision.verdict is FALSE, decision.info


def test_clipping_gap_orders_the_atom_below_the_cut_mass():
    gap = clipping_gap(2, 1000, 999, CC, sigma_ball())
    assert decide_le(gap.atom, gap.unclipped_below) is TRUE


def test_unclipped_renyi_encloses_alpha_v():
    s = sigma_ball()
    for n in (1, 10):
        D = unclipped_renyi(2, n, n - 1, CC, s).divergence
        assert decide_contains(D, 2 * formulas.budget.ball(n, s, CC)) is TRUE
        assert decide_contains(D, formulas.renyi_counts.ball(2, n, n - 1, CC, s)) is TRUE
        assert contains(D, 2 * mpmath.log(mpmath.mpf(n + 1) / n) ** 2 / (2 * MP_S**2))


def mp_log_space_I(a, kp, kq, c, ms):
    mu_p, mu_q = mpmath.log(kp + c) - ms**2, mpmath.log(kq + c) - ms**2
    ctr = mu_p + (1 - a) * (mu_q - mu_p)
    f = lambda w: mpmath.npdf(w, mu_p, ms) ** a * mpmath.npdf(w, mu_q, ms) ** (1 - a)  # noqa: E731
    return mpmath.quad(f, [-mpmath.inf, ctr - 20 * ms, ctr, ctr + 20 * ms, mpmath.inf])


def test_product_renyi():
    s = sigma_ball()
    for alpha, n in ((2, 1), (10, 3)):
        changed = unclipped_renyi(alpha, n, n - 1, 1, s).integral
        identical = unclipped_renyi(alpha, 7, 7, 1, s).integral
        res = product_renyi(alpha, (changed, identical))
        a = mpmath.mpf(alpha)
        ref = mp_log_space_I(a, n, n - 1, 1, MP_S) * mp_log_space_I(a, 7, 7, 1, MP_S)
        assert contains(res.integral, ref)
        assert contains(res.divergence, a * mpmath.log(mpmath.mpf(n + 1) / n) ** 2 / (2 * MP_S**2))
        assert decide_contains(identical, 1) is TRUE
        # negative control: counting the identical coordinate's budget too
        assert decide_contains(res.divergence, 2 * alpha * formulas.budget.ball(n, s, 1)) is FALSE
