"""The working precision ``arb.gaussian_renyi.pair_renyi`` chooses: a 64-bit pass estimates the
bits the pair's cancellations cost (alpha l(m) + (1 - alpha) l(zq) at the integrand's centre,
and log I ~ 0 when D is small), so that one pass at the working precision meets the caller's
2^-(prec - 2) relative goal; when the inputs themselves are balls wider than that, a second pass
that does not narrow the result ends the work.  Enclosure is guaranteed at any precision; what
these tests hold is that the estimate is enough and that no pass is spent for nothing."""

from __future__ import annotations

import itertools

import pytest
from flint import arb, ctx

from countdp.arb.gaussian_renyi import GaussianPair, pair_renyi

PREC = 128


def maker(alpha, rho, delta, uc=None, rad=0.0):
    """The pair built at the caller's working precision (exact binary inputs unless ``rad``)."""
    def make():
        return GaussianPair(arb(alpha), arb(rho, rad) if rad else arb(rho), arb(delta),
                            None if uc is None else arb(uc))
    return make


# delta = 1e-3: D is small and log I ~ 0 loses bits of its own
PAIRS = [p for p in itertools.product((1.01, 2.0, 30.0), (1.0, 0.8, 1.25), (1e-3, 1.0, 30.0), (None, -1.0, 2.0))]


@pytest.mark.parametrize("alpha, rho, delta, uc", PAIRS)
def test_one_pass_at_the_estimated_precision_meets_the_relative_goal(alpha, rho, delta, uc):
    with ctx.workprec(PREC):
        res = pair_renyi(maker(alpha, rho, delta, uc))
        if res.infinite:  # alpha rho^2 ... <= 0 (eq 34): nothing to size
            assert alpha * 1 + (1 - alpha) * rho * rho <= 0
            assert res.passes == 0 and res.divergence is None    # no pass at the working precision
            return
        D = res.divergence
        assert res.passes == 1
        assert D.rad() <= abs(D.mid()) * arb(2) ** -(PREC - 2)
    # and not far more than needed: the fewest guard bits one unguarded pass meets the goal with
    # (measured 1 .. 31 on this grid; the estimate adds 10 .. 35)
    assert res.work_prec - PREC <= fewest_guard_bits(maker(alpha, rho, delta, uc)) + 40


def fewest_guard_bits(make) -> int:
    for g in range(0, 200):
        with ctx.workprec(PREC + g):
            D = pair_renyi(make, guard=False).divergence
            if D.rad() <= abs(D.mid()) * arb(2) ** -(PREC - 2):
                return g
    raise AssertionError("no precision up to PREC + 200 meets the goal")


# delta = 1e-3 and 1e-4: D ~ 1e-6 and 1e-8 lose ~20 and ~27 bits in log I ~ 0, which the
# integral's goal (target + those bits + 8) must ask of acb.integral for one pass to do
@pytest.mark.parametrize("alpha, rho, delta, uc", [(2.0, 1.0, 1.0, None), (30.0, 0.8, 30.0, 2.0),
                                                   (1.01, 1.25, 1.0, -1.0), (2.0, 1.0, 1e-3, None),
                                                   (1.01, 0.8, 1e-4, 2.0)])
def test_the_integral_route_meets_the_goal_in_one_pass_too(alpha, rho, delta, uc):
    with ctx.workprec(PREC):
        res = pair_renyi(maker(alpha, rho, delta, uc), integral=True)
        D = res.divergence
        assert res.passes == 1
        assert D.rad() <= abs(D.mid()) * arb(2) ** -(PREC - 2)


def test_inputs_wider_than_the_goal_end_the_work_after_a_pass_that_did_not_narrow_it():
    # rho known to 2^-60: D's radius is set by it (~1e-17 relative), not by the precision
    with ctx.workprec(PREC):
        res = pair_renyi(maker(2.0, 1.25, 1.0, rad=2.0 ** -60))
        assert res.passes == 2
        assert 1e-19 < float(res.divergence.rad()) / float(res.divergence.mid()) < 1e-15


@pytest.mark.parametrize("alpha, rho, margin", [(1.125, 3, "0"), (2, 1.5, "-0.25"), (2, 3, "-7")])
@pytest.mark.parametrize("integral", [False, True])
def test_a_decided_nonpositive_margin_is_divergence_not_undecided(alpha, rho, margin, integral):
    """alpha + (1 - alpha) rho^2 = 0 exactly, or decided below 0 by any amount: the density part
    diverges (eq 34), reported as None, never as an undecided sign."""
    from countdp.arb.gaussian_renyi import density_part
    with ctx.workprec(PREC):
        make = maker(alpha, rho, 0.5)
        pair = make()
        assert pair.alpha + (1 - pair.alpha) * pair.rho ** 2 == arb(margin)
        assert density_part(pair, integral=integral) is None
        res = pair_renyi(make, integral=integral)
        assert res.infinite and res.divergence is None and res.reason
