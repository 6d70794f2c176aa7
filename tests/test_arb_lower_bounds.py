"""Tests of countdp.arb.lower_bounds: every certified ball contains an independent mpmath value
(at 50 digits), and deliberately false statements come out PROVED_FALSE or UNDECIDED, never
PROVED_TRUE."""

import mpmath
import pytest
from flint import arb, ctx, fmpq

from _ball_reference import contains, mpq
from countdp import formulas
from countdp.arb.lower_bounds import (certify_markov_sum_at_partner, certify_markov_sum_bound,
                                      certify_two_count_bound, certify_uniform_prior_maximum,
                                      gaussian_chain_divergence, laplace_entropy_integrals,
                                      log_gaussian_chain_divergence, markov_identity,
                                      ratio_excess_identity, truncated_normal_integrals,
                                      uniform_abs_mean_integral)
from countdp.arb.verdicts import (Verdict, decide_contains, decide_ge, decide_gt, decide_le, decide_lt,
                                  to_arb)

TRUE, FALSE = Verdict.PROVED_TRUE, Verdict.PROVED_FALSE


pytestmark = pytest.mark.mp_dps(50)


def test_identities():
    assert ratio_excess_identity() is TRUE
    assert markov_identity() is TRUE


def test_markov_sum_boxes_and_negative_control():
    res = certify_markov_sum_bound(nboxes=64)
    assert res.verdict is TRUE and res.boxes == 64
    assert certify_markov_sum_bound(nboxes=64, slack="0.01").verdict is FALSE


def test_range_certificates_small():
    for r in ("0.05", "0.5", "0.9"):
        assert certify_two_count_bound(500, r).verdict is TRUE
        assert certify_markov_sum_at_partner(500, r).verdict is TRUE


def test_two_count_negative_control():
    """r = 0.05: v(n) ~ 2036/n^2 while eq (14) ~ 2.08/n^2; a bound 10^4 times larger fails."""
    with ctx.workprec(53):
        s = formulas.sigma.ball(fmpq(1, 40), 1)
        for n in (1, 10, 100):
            bound = to_arb(formulas.two_count_bound.exact(n, "0.05"))
            assert decide_ge(formulas.budget.ball(n, s, 1), bound) is TRUE
            assert decide_ge(formulas.budget.ball(n, s, 1), bound * 10 ** 4) is FALSE


def test_uniform_prior_maximum():
    res = certify_uniform_prior_maximum()
    assert res.verdict is TRUE
    assert contains(arb(res.extra["a*"]), 2 * mpmath.e ** mpmath.mpf(1.5))
    assert contains(formulas.uniform_prior_limit.ball(arb(res.extra["a*"]), 0), 3 / (2 * mpmath.e ** 3))
    # negative control: claimed maximiser a = 2e (wrong): g'(2e + small) > 0 there
    assert decide_gt(formulas.uniform_prior_limit_slope.ball(2 * arb.const_e() + 1), 0) is TRUE


def mp_renyi(a, f_p, f_q, pts):
    return mpmath.log(mpmath.quad(lambda x: f_p(x) ** a * f_q(x) ** (1 - a), pts)) / (a - 1)


@pytest.mark.parametrize("alpha,k", [(2, 2), (10, 3), ("3/2", 5)])
def test_gaussian_chain(alpha, k):
    D = gaussian_chain_divergence(alpha, k, fmpq(1, 2), 1)
    a, mu = mpq(alpha), mpmath.mpf(k) / 2
    ctr = (1 - a) * mu
    ref = mp_renyi(a, mpmath.npdf, lambda x: mpmath.npdf(x, mu), [-mpmath.inf, ctr - 12, ctr, ctr + 12, mpmath.inf])
    assert contains(D, ref)
    rho = formulas.renyi_equal_variance.ball(1, 0, fmpq(1, 2), 1)
    assert decide_contains(D, to_arb(alpha) * k * k * rho) is TRUE
    # negative control: the linear-in-k bound alpha k rho
    assert decide_le(D, to_arb(alpha) * k * rho) is FALSE


def test_log_gaussian_chain():
    s = formulas.sigma.ball(fmpq(1, 4), 1)
    mp_s = mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf(1) / 8)
    for n, k in ((1, 2), (10, 5)):
        D = log_gaussian_chain_divergence(2, n, k, 1, s)
        assert contains(D, 2 * mpmath.log(mpmath.mpf(n + k + 1) / (n + 1)) ** 2 / (2 * mp_s ** 2))
        assert decide_lt(D, 2 * k * k * formulas.budget.ball(n + 1, s, 1)) is TRUE
        assert decide_le(D, 2 * k * formulas.budget.ball(n + 1, s, 1)) is FALSE


@pytest.mark.parametrize("L", [2, 8])
def test_truncated_normal_integrals(L):
    with ctx.workprec(120):
        I = truncated_normal_integrals(L)
        Z = mpmath.quad(mpmath.npdf, [-L, 0, L])

        def f(x):
            return mpmath.npdf(x) / Z

        h = mpmath.quad(lambda x: -f(x) * mpmath.log(f(x)), [-L, 0, L])
        tau2 = mpmath.quad(lambda x: x * x * f(x), [-L, 0, L])
        assert contains(I.mass, Z) and contains(I.entropy, h) and contains(I.variance, tau2)
        assert contains(formulas.truncated_normal_entropy.ball(-L, L), h)
        assert contains(formulas.truncated_normal_variance.ball(-L, L), tau2)
        target = formulas.gaussian_prior_constant.ball()
        val = formulas.prior_coefficient.ball(I.entropy, I.variance)
        assert contains(val, mpmath.exp(2 * h) / (8 * mpmath.e ** 3 * tau2))
        assert decide_lt(val, target) is TRUE
        # negative control: a value 10% (L = 2) / 0.1% (L = 8) below the limit is not proved
        assert decide_lt(val, target * (fmpq(9, 10) if L == 2 else fmpq(999, 1000))) is FALSE


def test_lemma_6_3_ingredients():
    Iu = uniform_abs_mean_integral()
    assert contains(Iu, mpmath.quad(abs, [-0.5, 0, 0.5]))
    assert decide_contains(Iu, fmpq(1, 4)) is TRUE
    assert decide_contains(Iu, fmpq(1, 3)) is FALSE
    for d in (1, "1/4"):
        laplace = laplace_entropy_integrals(d)
        dm = mpq(d)

        def f(x):
            return mpmath.exp(-abs(x) / dm) / (2 * dm)

        assert contains(laplace.entropy, mpmath.quad(lambda x: -f(x) * mpmath.log(f(x)), [-mpmath.inf, 0, mpmath.inf]))
        assert contains(laplace.abs_mean, mpmath.quad(lambda x: abs(x) * f(x), [-mpmath.inf, 0, mpmath.inf]))
        assert contains(laplace.entropy, mpmath.log(2 * mpmath.e * dm))
        # negative control: entropy log(2 e d) + 1/1000
        assert decide_contains(laplace.entropy, formulas.laplace_entropy.ball(d) + fmpq(1, 1000)) is FALSE


def test_markov_sum_bound_with_slack_on_either_side_of_the_truth():
    """The sum at q0 equals (1+r)/2 exactly, so sum <= (1+r)/2 - slack holds for every slack < 0
    and fails for every slack > 0 (the sum and (1+r)/2 run from 0.5 to 1 over r in [0.01, 0.99]):
    a negative slack is proved (a small one away from r -> 0, where the ball of the sum at
    q0 -> 1 is wide), a slack of 0.01 or 2 disproved."""
    assert certify_markov_sum_bound(r_lo="0.2", nboxes=64, slack="-0.01").verdict is TRUE
    assert certify_markov_sum_bound(nboxes=16, slack="-3").verdict is TRUE
    for slack in ("0.01", "2"):
        assert certify_markov_sum_bound(nboxes=16, slack=slack).verdict is FALSE
