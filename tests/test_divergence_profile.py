"""countdp.divergence.profile: the exact privacy profile (hockey-stick divergence) and eps from
delta."""

from __future__ import annotations

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from _densities import UnplacedNormal
from countdp import formulas
from countdp.mechanisms import ShiftedLogGaussian
from countdp.divergence import profile
from countdp.laws import Gaussian, PointMass
from countdp.laws.reference import Laplace


pytestmark = pytest.mark.mp_dps(30)
INF = mpmath.inf


@pytest.mark.parametrize("bad", [
    lambda: profile.gaussian_hockey_stick(-1, 0), lambda: profile.gaussian_eps_of_delta(1, 0),
    lambda: profile.hockey_stick(Gaussian(0, 1), Gaussian(1, 1), -0.5),
    lambda: profile.hockey_stick(Gaussian(0, 1), Gaussian(1, 1), 0.5, method="magic"),
    lambda: profile.hockey_stick("P", Gaussian(1, 1), 0.5),
    lambda: profile.hockey_stick(Gaussian(0, 1), Gaussian(1, 2), 0.5, method="closed"),
    lambda: profile.eps_of_delta(Gaussian(0, 1), Gaussian(1, 1), 2),
])
def test_bad_input_raises_value_error(bad):
    with pytest.raises(ValueError):
        bad()


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="eps"):
        profile.hockey_stick(Gaussian(0, 1), Gaussian(1, 1), -1)


# ============================================================================================
# the exact privacy profile
# ============================================================================================


def test_gaussian_profile_at_zero_is_total_variation():
    mu = mpmath.mpf("0.7")
    assert abs(profile.gaussian_hockey_stick(mu, 0) - (2 * mpmath.ncdf(mu / 2) - 1)) < 1e-28


@pytest.mark.parametrize("mu,eps", [(0.3, 0.0), (0.3, 0.2), (1.5, 1.0), (4.0, 9.0)])
def test_profile_quadrature_matches_closed_form(mu, eps):
    P, Q = Gaussian(0, 1), Gaussian(mu, 1)
    for A, B in ((P, Q), (Q, P)):
        q = profile.hockey_stick(A, B, eps, method="quadrature")
        closed = profile.hockey_stick(A, B, eps)
        assert closed.method.startswith("closed form")
        assert abs(q.value - closed.value) <= q.error + 1e-25


def test_released_profile_below_unclipped_and_rounded_below_released():
    mech = ShiftedLogGaussian(0.45, 1.0)
    n = 1
    U = profile.hockey_stick(mech.unclipped_law(n - 1), mech.unclipped_law(n), 3.0)
    R = profile.hockey_stick(mech.released_law(n - 1), mech.released_law(n), 3.0)
    K = profile.hockey_stick(mech.rounded_law(n - 1), mech.rounded_law(n), 3.0)
    assert R.value <= U.value + R.error
    assert K.value <= R.value + K.error + R.error
    assert R.value < U.value  # at eps = 3 the crossing lies below log c: clipping strictly helps


def test_profile_with_mass_gives_the_slope_in_eps():
    """d delta/d eps = -(P(A) - delta) (envelope theorem): a finite difference agrees."""
    P, Q = Gaussian(0, 1), Gaussian(1, 1)
    eps, h = mpmath.mpf("0.4"), mpmath.mpf("1e-8")
    pr = profile.hockey_stick(P, Q, eps, method="quadrature", with_mass=True)
    fd = (profile.gaussian_hockey_stick(1, eps + h) - profile.gaussian_hockey_stick(1, eps - h)) / (2 * h)
    assert abs(fd + (pr.p_mass - pr.value)) < 1e-12
    assert pr.crossings and abs(pr.crossings[0] - (mpmath.mpf(1) / 2 - eps)) < 1e-20


@settings(max_examples=15, deadline=None)
@given(st.floats(0.05, 3.0), st.floats(0.0, 3.0), st.floats(0.01, 1.0))
def test_profile_decreases_in_eps(mu, eps, step):
    a = profile.gaussian_hockey_stick(mu, eps)
    b = profile.gaussian_hockey_stick(mu, eps + step)
    assert 0 <= b <= a <= 1


def test_point_masses_and_support_mismatch():
    assert profile.hockey_stick(PointMass(0.5), PointMass(0.5), 0).value == 0
    assert profile.hockey_stick(PointMass(0), PointMass(1), 3).value == 1
    e = profile.eps_of_delta(PointMass(0), Gaussian(0, 1), 1e-3)
    assert mpmath.isinf(e.value) and e.reason


def test_eps_of_delta_quadrature_matches_closed_form_both_orderings():
    mech = ShiftedLogGaussian(0.3, 1.0)
    n = 100
    delta = mpmath.mpf("1e-6")
    e = profile.eps_of_delta(mech.unclipped_law(n), mech.unclipped_law(n - 1), delta, method="quadrature")
    g = profile.gaussian_eps_of_delta(formulas.log_gap(n, 1.0) / mech.mp_sigma(), delta)
    assert abs(e.value - g) <= e.error + 1e-20
    a, b = e.by_ordering.values()
    assert abs(a - b) <= e.error + 1e-20  # equal-variance Gaussians: symmetric


@pytest.mark.parametrize("crossing", ["1e-4", "1e-3", "0.05"])
def test_a_crossing_just_inside_a_finite_end_of_the_support_is_found(crossing):
    """P = N(0,1) on [0, 2] against the uniform law on [0, 2]: p/q falls from its value at 0, so
    at e^eps = p(x*)/q the optimal set is [0, x*]; with x* next to the support's end the sign scan
    must still see the crossing (the profile is then tiny, not 0): against quadrature of
    p - e^eps q over [0, x*]."""
    from countdp.divergence.profile import hockey_stick
    from countdp.laws.reference import TruncatedGaussian, Uniform

    with mpmath.workdps(30):
        z = mpmath.ncdf(2) - mpmath.ncdf(0)
        xs = mpmath.mpf(crossing)
        eps = mpmath.log(2 * mpmath.npdf(xs) / z)
        exact = mpmath.quad(lambda x: mpmath.npdf(x) / z - mpmath.exp(eps) / 2, [0, xs])
        h = hockey_stick(TruncatedGaussian(0, 2), Uniform(0, 2), eps, method="quadrature")
        assert exact > 0 and abs(h.value - exact) <= exact * mpmath.mpf(10) ** -12, (h.value, exact)


def test_an_eps_of_zero_keeps_the_error_of_the_profile_that_decided_it():
    """delta above the profile at eps = 0 in both orders: eps = 0, decided by the quadrature of
    delta(0), whose error is the error of the answer (not 0)."""
    from countdp.laws.reference import Laplace

    P, Q = Laplace(0, 1), Laplace(1, 1)
    e = profile.eps_of_delta(P, Q, 0.9, method="quadrature")
    h = profile.hockey_stick(P, Q, 0, method="quadrature")
    assert e.value == 0 and e.error > 0
    assert e.error >= h.error / 2     # (the one-way search evaluates the same quadrature with P(A))


@pytest.mark.mp_dps(30)
def test_eps_of_a_tiny_delta_for_a_finite_pair_ends_on_the_zero_of_the_profile():
    """k-RR (eps = 2, k = 5): delta(eps) falls linearly to 0 at eps = D_inf = 2, so eps(1e-30) is
    2 to within 1e-30; the bracket ends where the profile is 0 (no slope there), and the error is
    the bracket's width plus the last step, at the root-finding's tolerance."""
    from countdp.mechanisms import epsilon_dp

    r = profile.eps_of_delta(*epsilon_dp.krr_pair(2.0, 5), mpmath.mpf("1e-30"))
    assert abs(r.value - 2) <= r.error and r.error < 1e-12


def test_the_log_shift_closed_form_is_taken_for_one_shift_c_only():
    """Equal-variance log-shifted Gaussians with one c: the profile is the Gaussian one of their
    locations (eq 10), and the quadrature agrees.  With different c the laws are not a location
    pair in any one coordinate: the closed form of their locations would be wrong (0 here, for
    equal locations), and the profile comes from the quadrature of the densities."""
    from countdp.laws import LogShiftedGaussian

    half, eps = mpmath.mpf("0.5"), mpmath.mpf("0.1")
    same = (LogShiftedGaussian(0, half, 1), LogShiftedGaussian(mpmath.mpf("0.3"), half, 1))
    closed = profile.hockey_stick(*same, eps)
    assert "eq 10" in closed.method
    assert abs(closed.value - profile.gaussian_hockey_stick(mpmath.mpf("0.6"), eps)) < mpmath.mpf(10) ** -28
    quad = profile.hockey_stick(*same, eps, method="quadrature")
    assert abs(quad.value - closed.value) <= quad.error + mpmath.mpf(10) ** -25
    for P, Q in ((LogShiftedGaussian(0, 0.5, 1), LogShiftedGaussian(0, 0.5, 2)),
                 (LogShiftedGaussian(0, 0.5, 2), LogShiftedGaussian(0, 0.5, 1))):
        d = profile.hockey_stick(P, Q, 0.1)
        assert not d.method.startswith("closed form")
        ref = profile.hockey_stick(P, Q, 0.1, method="quadrature")
        assert d.value == ref.value and d.value > mpmath.mpf("0.05")


def test_the_profile_where_only_p_has_mass():
    """P = U(0, 2), Q = U(-2, 1): on (1, 2) only P has mass (1/2 of it), on (0, 1) the densities
    are 1/2 and 1/3: delta(eps) = 1/2 + (1/2 - e^eps/3)_+; the other way, Q alone on (-2, 0)."""
    from countdp.laws.reference import Uniform

    P, Q = Uniform(0, 2), Uniform(-2, 1)
    eps = mpmath.mpf("0.1")
    want = mpmath.mpf(1) / 2 + (mpmath.mpf(1) / 2 - mpmath.exp(eps) / 3)
    d = profile.hockey_stick(P, Q, eps)
    assert abs(d.value - want) <= d.error + mpmath.mpf(10) ** -25
    back = profile.hockey_stick(Q, P, eps)   # (-2, 0): 2/3; (0, 1): (1/3 - e^eps/2)_+ = 0
    assert abs(back.value - mpmath.mpf(2) / 3) <= back.error + mpmath.mpf(10) ** -25


def test_identical_laws_have_a_zero_profile_above_eps_zero():
    """log p - log q - eps = -eps < 0 everywhere: no crossing, one piece, delta = 0."""
    d = profile.hockey_stick(Gaussian(0, 1), Gaussian(0, 1), mpmath.mpf("0.5"), method="quadrature")
    assert d.value == 0 and d.crossings == []


def test_a_q_without_centre_and_scale_has_the_gaussian_profile():
    from countdp.laws import ContinuousLaw

    eps = mpmath.mpf("0.3")
    d = profile.hockey_stick(Gaussian(0, 1), ContinuousLaw(UnplacedNormal()), eps)
    assert abs(d.value - profile.gaussian_hockey_stick(1, eps)) <= d.error + mpmath.mpf(10) ** -25


def test_eps_of_delta_by_the_closed_profile():
    delta = mpmath.mpf("1e-5")
    e = profile.eps_of_delta(Gaussian(0, 1), Gaussian(mpmath.mpf("0.5"), 1), delta)
    assert abs(e.value - profile.gaussian_eps_of_delta(mpmath.mpf("0.5"), delta)) <= e.error + mpmath.mpf(10) ** -25


def test_the_gaussian_closed_form_refuses_arguments_beyond_the_normal_cdfs_range():
    """delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu) is evaluated while
    mu/2 + eps/mu <= 1e100 and refused beyond, naming both (by either term); at the edge the
    value is the total variation 2 Phi(mu/2) - 1 = 1 (eps = 0) or 0 (a tiny mu)."""
    assert profile.gaussian_hockey_stick(mpmath.mpf("1.9e100"), 0) == 1
    assert profile.gaussian_hockey_stick(mpmath.mpf("1e-3"), mpmath.mpf("0.9e97")) == 0
    for mu, eps in (("2.2e100", 0), ("3e100", "1"), ("1e-3", "1.1e97")):
        with pytest.raises(ValueError, match=r"mu and eps must keep mu/2 \+ eps/mu <= 1e100"):
            profile.gaussian_hockey_stick(mpmath.mpf(mu), mpmath.mpf(eps))


# ---- the pieces of the density profile, each against its own contract -------------------------

def test_the_quadrature_rule_is_gauss_legendre_unless_a_density_declares_a_kink():
    from countdp.laws.reference import Laplace
    smooth, kinked = Gaussian(0, 1).density, Laplace(0, 1).density
    assert profile._rule(smooth, smooth) == "gauss-legendre"
    assert profile._rule(kinked, smooth) == "tanh-sinh"
    assert profile._rule(smooth, kinked) == "tanh-sinh"
    assert profile._rule(kinked, kinked) == "tanh-sinh"


@pytest.mark.parametrize("where", [1e-3, 0.5, 1 - 1e-3])
def test_the_sign_scan_finds_a_crossing_in_every_cell_of_its_grid_the_last_one_included(where):
    # D decreasing with its root at a fraction `where` of the last of the 200 cells of the window
    win = profile._Window(-INF, INF, mpmath.mpf(0), mpmath.mpf(1), mpmath.mpf(0), mpmath.mpf(1))
    a, b, points = mpmath.mpf(-40), mpmath.mpf(40), 201
    root = b - (b - a) / (points - 1) * (1 - mpmath.mpf(where))
    found = profile._crossings(lambda t: root - t, win, 40, points)
    assert len(found) == 1 and abs(found[0] - root) < mpmath.mpf(10) ** -20


def test_the_sign_scan_starts_just_inside_a_finite_lower_end():
    win = profile._Window(mpmath.mpf(0), INF, mpmath.mpf(1), mpmath.mpf(1), mpmath.mpf(1), mpmath.mpf(1))
    seen = []

    def D(t):
        seen.append(t)
        return 1 - t
    profile._crossings(D, win, 40, 201)
    assert 0 < seen[0] < mpmath.mpf(10) ** -10 and min(seen) == seen[0]


def test_the_rounding_bound_of_d_is_four_times_its_measured_change_plus_an_ulp():
    win = profile._Window(mpmath.mpf(-5), mpmath.mpf(5), mpmath.mpf(0), mpmath.mpf(1), mpmath.mpf(1),
                          mpmath.mpf(1))
    eps = mpmath.mpf(3)
    floor = 4 * mpmath.eps * (1 + eps)
    # D exact at every precision: only the floor of one ulp of (1 + eps), four times
    assert profile._rounding_of_D(lambda t: mpmath.mpf(1) / 4, win, [], eps) == floor
    # D that moves by 10^5 ulps with 15 more digits, read at the centres and crossings inside
    # the window (the points beyond and at its ends are not read)
    read = []

    def D(t):
        read.append(t)
        return mpmath.mpf(10) ** (5 - mpmath.mp.dps)
    bound = profile._rounding_of_D(D, win, [mpmath.mpf(v) for v in (2, 7, 5, -5)], eps)
    change = mpmath.mpf(10) ** (5 - mpmath.mp.dps) - mpmath.mpf(10) ** (5 - mpmath.mp.dps - 15)
    assert bound >= 4 * change and bound <= 4 * change * (1 + mpmath.mpf(10) ** -6) + floor
    assert not {mpmath.mpf(7), mpmath.mpf(5), mpmath.mpf(-5)} & set(read) and {mpmath.mpf(0), mpmath.mpf(1), mpmath.mpf(2)} <= set(read)


@pytest.mark.parametrize("n, sigma, c, eps", [(10, 0.4336339016964433, 6.802847627867152, 5), (0, 1.3, 0.58, 0),
                                              (3, 0.05, 1, 2)])
def test_the_closed_profile_carries_its_rounding(n, sigma, c, eps):
    """At 50 digits the closed form of two log-shifted Gaussians is 1.5e-357 off a 100-digit
    evaluation at delta = 1.6e-309 (mu = |mu_1 - mu_2|/s rounded, the value rounded): its bar must
    cover that, not claim exactness, and stay within a few hundred ulps of the value."""
    from countdp.laws import LogShiftedGaussian
    with mpmath.workdps(50):
        mu1, mu2 = mpmath.log(n + c) - sigma ** 2, mpmath.log(n + 1 + c) - sigma ** 2
        P, Q = LogShiftedGaussian(mu1, sigma, c), LogShiftedGaussian(mu2, sigma, c)
        h = profile.hockey_stick(P, Q, eps)
        with mpmath.workdps(100):
            exact = formulas.gaussian_profile(abs(mpmath.mpf(P.mu) - Q.mu) / P.s, eps)
        assert h.method.startswith("closed form")
        assert abs(h.value - exact) <= h.error
        assert 0 < h.error <= mpmath.mpf(10) ** -46 * h.value


@pytest.mark.parametrize("eps", ["0.7", "2/7"])
def test_the_atoms_share_of_a_profile_carries_its_rounding(eps):
    """Three atoms, two of them with p = e^eps q up to rounding (q stored as p e^-eps, one
    nudged by 1e-29): at 30 digits the sum of (p - e^eps q)_+ came out 3.6e-32 off its 80-digit
    value under a bar of 0.  With guard digits the share keeps its digits and its bar decides."""
    from countdp.laws import FinitePmf
    with mpmath.workdps(30):
        e = mpmath.mpf(2) / 7 if eps == "2/7" else mpmath.mpf(eps)
        p = {0: mpmath.mpf(1) / 3, 1: mpmath.mpf(1) / 7}
        p[2] = 1 - p[0] - p[1]
        q = {0: p[0] * mpmath.exp(-e), 1: p[1] * mpmath.exp(-e) * (1 + mpmath.mpf(10) ** -29)}
        q[2] = 1 - q[0] - q[1]
        h = profile.hockey_stick(FinitePmf(p), FinitePmf(q), e)
        with mpmath.workdps(80):
            ref = mpmath.fsum(max(p[k] - mpmath.exp(e) * q[k], 0) for k in p)
        assert ref > 0 and abs(h.value - ref) <= h.error <= mpmath.mpf(10) ** -40


def _laplace_profile(d, eps):
    """delta(eps) of Laplace(0, 1) against Laplace(d, 1), d > 0: L = |x - d| - |x| > eps exactly
    for x < (d - eps)/2, so delta = F_P(x0) - e^eps F_Q(x0) there (0 for eps >= d)."""
    d, eps = mpmath.mpf(d), mpmath.mpf(eps)
    if eps >= d:
        return mpmath.mpf(0)
    x0 = (d - eps) / 2

    def F(x):
        return mpmath.exp(x) / 2 if x < 0 else 1 - mpmath.exp(-x) / 2
    return F(x0) - mpmath.exp(eps) * F(x0 - d)


@pytest.mark.parametrize("m, b, d, eps", [(-163.22666363404446, 77.52023396188905, 151.007315451773, 0.01951710586498614),
                                          (3.0, 0.2, 0.1, 0.2), (-40.0, 12.0, 30.0, 1.0), (0.0, 5.0, 0.01, 0.0)])
def test_a_laplace_profile_has_its_kinks_as_nodes(m, b, d, eps):
    """The Laplace modes are nodes of the positive piece's quadrature: the first pair's mode was
    merged into the node cq - 2 sq, 4 away, and the kinked piece came out 1.4e-9 off under a bar
    of 1e-9 at every precision (mpmath's estimate of a rule across a kink)."""
    P, Q = Laplace(m, b), Laplace(m + d, b)
    with mpmath.workdps(30):
        with mpmath.workdps(90):
            exact = _laplace_profile((Q.density.mu - P.density.mu) / P.density.b, eps)
        got = profile.hockey_stick(P, Q, eps, method="quadrature")
        assert abs(got.value - exact) <= got.error <= mpmath.mpf(10) ** -15
