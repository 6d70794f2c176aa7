"""countdp.divergence.ball and countdp.arb.gaussian_renyi: the rigorous Arb Renyi routes
(``renyi(..., method="ball" / "ball-closed")``) -- coverage, exact mechanism laws vs stored
parameters, infinite cases, the error bar as a bound, and negative controls."""

import mpmath
import pytest
from flint import arb, ctx

from countdp import formulas
from countdp.arb import gaussian_renyi
from countdp.arb.gaussian_renyi import GaussianPair, density_part, pair_renyi
from countdp.divergence.ball import _mpf_to_arb, ball_route_applies, to_divergence_parts
from countdp.divergence.renyi import gaussian_renyi as gaussian_closed, renyi
from countdp.laws import FinitePmf, Gaussian, LogShiftedGaussian, PointMass
from countdp.laws.reference import Laplace
from countdp.mechanisms import ShiftedLogGaussian
from countdp.mechanisms.log_laplace import LogLaplaceMechanism
from countdp.numerics.contexts import Undecided

pytestmark = pytest.mark.mp_dps(30)


@pytest.mark.parametrize("method", ["ball", "ball-closed"])
@pytest.mark.parametrize("mu_q,s_q,alpha", [(1.0, 1.0, 2), (0.3, 1.3, 1.5), (-2.0, 1.1, 7), (0.0, 2.0, 1.01)])
def test_gaussian_pairs_match_the_closed_forms(method, mu_q, s_q, alpha):
    d = renyi(Gaussian(0.2, 1.0), Gaussian(mu_q, s_q), alpha, method=method)
    closed = gaussian_closed(alpha, 0.2, 1.0, mu_q, s_q)
    assert abs(d.value - closed.value) <= d.error + abs(closed.value) * mpmath.mpf(10) ** -28
    assert d.error <= abs(d.value) * mpmath.mpf(10) ** -29


@pytest.mark.parametrize("method", ["ball", "ball-closed"])
def test_past_the_margin_of_eq_34_the_divergence_is_infinite(method):
    d = renyi(Gaussian(0, 2), Gaussian(0, 1), 3, method=method)
    assert not d.finite and "eq 34" in d.reason


@pytest.mark.parametrize("n,m,alpha", [(0, 1, 2), (999_999, 10**6, 100), (3, 10, 1.01), (10, 1000, 20)])
def test_unclipped_laws_give_eq_12(n, m, alpha):
    mech = ShiftedLogGaussian(0.45, 0.1)
    closed = formulas.renyi_counts(alpha, n, m, 0.1, mech.mp_sigma())
    for method in ("ball", "ball-closed"):
        d = renyi(mech.unclipped_law(n), mech.unclipped_law(m), alpha, method=method)
        # the stored sigma is eq (3) rounded to 30 digits: allow that rounding in the closed form
        assert abs(d.value - closed) <= d.error + closed * mpmath.mpf(10) ** -28
        assert d.error <= abs(d.value) * mpmath.mpf(10) ** -29


def test_released_below_unclipped_and_both_directions_differ():
    mech = ShiftedLogGaussian(0.05, 0.1, r=0.1)
    fwd = renyi(mech.released_law(0), mech.released_law(1), 5, method="ball")
    rev = renyi(mech.released_law(1), mech.released_law(0), 5, method="ball")
    unclipped = renyi(mech.unclipped_law(0), mech.unclipped_law(1), 5, method="ball")
    assert fwd.value + fwd.error < unclipped.value - unclipped.error
    assert abs(fwd.value - rev.value) > fwd.error + rev.error


def test_exact_mechanism_laws_vs_stored_parameters():
    """With the mechanism's construction the ball is of the exact laws; the stored (rounded)
    parameters give a ball of slightly different laws, within the quadrature's location
    conditioning of it, and (at n = 10^6) not within the ball's own tiny radius."""
    mech = ShiftedLogGaussian(0.025, 1.0)
    P, Q = mech.unclipped_law(999_999), mech.unclipped_law(10**6)
    exact = renyi(P, Q, 2, method="ball")
    stripped = [LogShiftedGaussian(L.mu, L.s, L.c) for L in (P, Q)]
    stored = renyi(*stripped, 2, method="ball")
    assert "origin" in exact.method and "stored" in stored.method
    quad = renyi(P, Q, 2, method="quadrature")
    assert abs(stored.value - exact.value) <= quad.error
    assert abs(stored.value - exact.value) > exact.error + stored.error
    # the exact laws' value is eq (12) with sigma and the log gap at full accuracy
    with mpmath.workdps(60):
        truth = formulas.renyi_counts(2, 10**6, 999_999, 1.0, formulas.sigma(0.025, 1.0))
    assert abs(exact.value - truth) <= exact.error


def test_error_is_a_bound_on_the_distance_to_a_higher_precision_ball():
    mech = ShiftedLogGaussian(0.45, 2.0)
    P, Q = mech.released_law(4), mech.released_law(5)
    d = renyi(P, Q, 20, method="ball")
    with mpmath.workdps(60):
        hi = renyi(P, Q, 20, method="ball-closed")
        assert abs(hi.value - d.value) <= d.error + hi.error
        assert hi.error < d.error * mpmath.mpf(10) ** -20


def test_to_divergence_parts_rounds_and_bounds():
    with ctx.workprec(200):
        D = arb(1) / 3 + arb(0, 2.0 ** -150)
    value, err = to_divergence_parts(D)
    with ctx.workprec(600):  # sup |D - value| = |mid - value| + rad, exactly
        sup = abs(arb(D.mid()) - _mpf_to_arb(value)) + D.rad()
        assert sup.is_exact() and _mpf_to_arb(err) >= sup
        assert _mpf_to_arb(err) <= sup * (1 + arb(2) ** -90)


def test_support_mismatch_and_pairs_not_covered():
    mech = ShiftedLogGaussian(0.45, 1.0)
    d = renyi(mech.released_law(1), mech.unclipped_law(1), 2, method="ball")
    assert not d.finite and "atom at 0" in d.reason
    d = renyi(mech.unclipped_law(1), mech.released_law(1), 2, method="ball")
    assert not d.finite and "support mismatch" in d.reason
    assert not ball_route_applies(Laplace(0, 1), Laplace(1, 1))
    lap = LogLaplaceMechanism(0.2, 1.0)
    for P, Q in ((Laplace(0, 1), Laplace(1, 1)), (PointMass(0), PointMass(0)),
                 (FinitePmf({0: 1}), FinitePmf({0: 1})), (lap.released_law(1), lap.released_law(2)),
                 (Gaussian(0, 1), mech.unclipped_law(1)),
                 (ShiftedLogGaussian(0.45, 1.0).unclipped_law(1), ShiftedLogGaussian(0.45, 2.0).unclipped_law(1))):
        with pytest.raises(ValueError, match="no ball route"):
            renyi(P, Q, 2, method="ball")


def test_negative_control_the_ball_excludes_a_neighbouring_edge():
    mech = ShiftedLogGaussian(0.225, 1.0)
    d = renyi(mech.released_law(9), mech.released_law(10), 2, method="ball")
    e = renyi(mech.released_law(10), mech.released_law(11), 2, method="ball")
    assert abs(d.value - e.value) > d.error + e.error


def test_a_wrong_expansion_is_caught_before_integrating(monkeypatch):
    """The ellipse bounds come from the expansion; if it were not the written integrand, the
    consistency check refuses (Undecided) instead of returning a wrong ball."""
    real = gaussian_renyi.expansion

    def wrong(pair, m):
        A0, A1, A2 = real(pair, m)
        return A0, A1, A2 * (1 + arb(2) ** -20)

    monkeypatch.setattr(gaussian_renyi, "expansion", wrong)
    pair = GaussianPair(arb(20), arb(1), arb("0.3"), arb(-1))
    with pytest.raises(Undecided, match="expanded log-integrand"):
        density_part(pair, integral=True)


def test_small_divergences_keep_their_relative_accuracy():
    """n = 10^6: I - 1 ~ 10^-9, so log(I)/(alpha - 1) needs guard bits; the relative bar stays
    at the working precision, at 30 and at 50 digits."""
    mech = ShiftedLogGaussian(0.45, 2.0)
    for dps in (30, 50):
        with mpmath.workdps(dps):
            P, Q = mech.released_law(999_999), mech.released_law(10**6)
            d = renyi(P, Q, 1.01, method="ball")
            assert d.value < mpmath.mpf(10) ** -10
            assert d.error <= d.value * mpmath.mpf(10) ** -(dps - 1)


def test_pair_renyi_reports_its_passes():
    with ctx.workprec(100):
        res = pair_renyi(lambda: GaussianPair(arb(2), arb(1), arb("0.5"), arb(-3)), integral=True)
    assert res.passes == 1 and res.work_prec > 100 and res.goal_bits >= 100
    assert res.divergence.rad() < abs(res.divergence.mid()) * arb(2) ** -98


def test_a_pass_too_wide_is_repeated_with_more_bits():
    """A shift of 1e-12: D ~ 1e-24, and log(I) loses more bits than the first pass's guard; the
    second pass reaches the working precision (relative radius below 2^-(prec - 2))."""
    with ctx.workprec(128):
        for uc in (None, -2):
            res = pair_renyi(lambda: GaussianPair(arb("1.5"), arb(1), arb("1e-12"),
                                                  None if uc is None else arb(uc)))
            assert res.passes == 2
            assert res.divergence.rad() <= abs(res.divergence.mid()) * arb(2) ** -126


def test_the_threshold_of_eq_34_is_decided_exactly():
    """At alpha = s_P^2/(s_P^2 - s_Q^2) the margin of eq (34) is exactly 0 (infinite divergence);
    rho = 5/3 as a ball would straddle it, so the sign is decided in rationals."""
    P, Q = Gaussian(0, 5), Gaussian(1, 3)
    for method in ("ball", "ball-closed"):
        d = renyi(P, Q, 25 / 16, method=method)
        assert not d.finite and "eq 34" in d.reason
        assert renyi(P, Q, 1.5, method=method).finite


def test_bare_integral_is_the_route_s_own_call():
    """The benchmark's bare acb.integral call integrates the route's normalised integrand: a
    finite positive ball, and the route itself succeeds on the same pair."""
    from countdp.divergence.ball import bare_integral

    mech = ShiftedLogGaussian(0.05, 1, r=0.1)
    P, Q = mech.released_law(9), mech.released_law(10)
    with mpmath.workdps(30):
        val = bare_integral(P, Q, 5)()
        assert val.real.is_finite() and val.real > 0 and val.imag.contains(0)
        assert renyi(P, Q, 5, method="ball").finite


def test_laws_of_two_mechanisms_keep_their_own_scales_in_the_ball_route():
    """U_5 of the mechanisms r0 = 0.1 and r0 = 0.3 (c = 1): two families, two sigmas, so the
    Gaussian pair has scale ratio s_P/s_Q != 1; the ball equals the closed form (eq 34) in both
    orders."""
    import mpmath

    from countdp.divergence.renyi import renyi
    from countdp.mechanisms import ShiftedLogGaussian

    a, b = ShiftedLogGaussian(0.1, 1.0), ShiftedLogGaussian(0.3, 1.0)
    with mpmath.workdps(30):
        for P, Q in ((a.released_law(5).base, b.released_law(5).base),
                     (b.released_law(5).base, a.released_law(5).base)):
            x, y = renyi(P, Q, 1.5, method="ball"), renyi(P, Q, 1.5, method="closed")
            if mpmath.isinf(y.value):   # the wider law first: infinite (eq 34), in both routes
                assert mpmath.isinf(x.value)
            else:
                assert abs(x.value - y.value) <= x.error + 1e-25


def test_which_pairs_the_ball_route_covers():
    """Gaussians with Gaussians only; log-shift laws (unclipped or released) with one c; a
    normal density restricted to an interval (not a Gaussian law) is not covered."""
    from countdp.laws import ContinuousLaw
    from countdp.laws.gaussian import GaussianDensity

    one, other = ShiftedLogGaussian(0.45, 1.0), ShiftedLogGaussian(0.45, 2.0)
    covered = [(Gaussian(0, 1), Gaussian(1, 2)), (one.unclipped_law(1), one.unclipped_law(2)),
               (one.released_law(1), one.released_law(2)), (one.released_law(1), one.unclipped_law(3)),
               (LogShiftedGaussian(0, 1, 1), LogShiftedGaussian(1, 1, 1))]
    not_covered = [(Gaussian(0, 1), one.unclipped_law(1)), (one.released_law(1), Gaussian(0, 1)),
                   (one.unclipped_law(1), other.unclipped_law(1)),
                   (LogShiftedGaussian(0, 1, 1), LogShiftedGaussian(0, 1, 2)),
                   (ContinuousLaw(GaussianDensity(0, 1, lo=0)), Gaussian(0, 1)),
                   (Gaussian(0, 1), PointMass(0))]
    assert all(ball_route_applies(P, Q) for P, Q in covered)
    assert not any(ball_route_applies(P, Q) for P, Q in not_covered)


def test_an_unbounded_ball_is_undecided_and_zero_is_exact():
    with pytest.raises(Undecided, match="not finite"):
        to_divergence_parts(arb(0, float("inf")))
    assert to_divergence_parts(arb(0)) == (0, 0)
    assert _mpf_to_arb(mpmath.mpf(0)) == 0 and _mpf_to_arb(mpmath.mpf(-3)) == -3


def test_the_pair_route_refuses_what_it_cannot_decide():
    """alpha <= 1 (either pass), a margin alpha + (1 - alpha) rho^2 whose sign a ball leaves
    open: Undecided; a margin past zero: the reason of eq (34), no ball, on both routes."""
    from countdp.arb.gaussian_renyi import integral_setup

    for guard in (True, False):
        with pytest.raises(Undecided, match="alpha > 1 required"):
            pair_renyi(lambda: GaussianPair(arb(1), arb(1), arb("0.5")), guard=guard)
        out = pair_renyi(lambda: GaussianPair(arb(3), arb(2), arb("0.5")), guard=guard)
        assert out.divergence is None and "eq 34" in out.reason
    # rho^2 = 1.5 = alpha/(alpha - 1) at alpha = 3, inside a ball of width 1e-10: undecided
    straddle = GaussianPair(arb(3), arb("1.5").sqrt() + arb(0, 1e-10), arb("0.5"))
    with pytest.raises(Undecided, match="sign of alpha"):
        density_part(straddle)
    assert integral_setup(GaussianPair(arb(3), arb(2), arb("0.5"))) is None
    assert density_part(GaussianPair(arb(3), arb(2), arb("0.5")), integral=True) is None


def test_the_one_pass_route_matches_the_guarded_one():
    """guard=False: one pass at the caller's precision; its ball contains the guarded one's."""
    with ctx.workprec(80):
        one = pair_renyi(lambda: GaussianPair(arb(2), arb(1), arb("0.5"), arb(-3)), guard=False)
        full = pair_renyi(lambda: GaussianPair(arb(2), arb(1), arb("0.5"), arb(-3)))
    assert one.passes == 1 and one.work_prec == 80
    assert one.divergence.overlaps(full.divergence)
    assert one.divergence.rad() < abs(one.divergence.mid()) * arb(2) ** -60


@pytest.mark.parametrize("cs", [(2, 1), (1, 2)])
def test_the_ball_route_refuses_log_shift_laws_of_two_shifts_in_either_order(cs):
    """The ball route builds one clip point from P's c: laws with c_P != c_Q must be refused,
    whichever is larger (a refusal for c_P < c_Q only would enclose a wrong pair's divergence)."""
    from countdp.divergence.ball import ball_renyi
    from countdp.laws import ClippedAtZero, LogShiftedGaussian
    P, Q = LogShiftedGaussian(0, 0.5, cs[0]), LogShiftedGaussian(0.1, 0.5, cs[1])
    for pair in ((P, Q), (ClippedAtZero(P), ClippedAtZero(Q))):
        with pytest.raises(ValueError, match="different shifts c"):
            ball_renyi(*pair, 2)
