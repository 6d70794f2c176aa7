"""Soundness of the sup-over-alpha engine (countdp.divergence.tight_rho on
countdp.divergence.loss_cgf): its bracket [lo, hi] contains the true sup_alpha D_alpha/alpha,
computed independently, for pairs whose supremum sits at alpha -> 1, at a finite order, beyond
the scan's last order, and on a flat curve (Gaussian location pair: D_alpha/alpha constant).

The true value of a pair of finite laws: log sum p^alpha q^(1-alpha) / (alpha (alpha - 1)) in
mpmath at 40 digits, maximised over a log grid of alpha - 1 from 1e-9 to 1e6 and refined by a
golden-section search, in both directions, with the KL (the alpha -> 1 limit).  For k-ary
randomized response, whose D_alpha/alpha has a closed form, the bracket of a coarse scan with
the supremum inside a cell, inside the first cell or beyond the last order, and the chord bound
of a cell against the curve on it."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from countdp.divergence.loss_cgf import FiniteLossCgf
from countdp.divergence.tail_growth import Unresolved
from countdp.divergence.tight_rho import _chord_bound, _d_interp_bound, pmf_sup_ratio, tight_rho
from countdp.laws import FinitePmf, Gaussian
from countdp.mechanisms import epsilon_dp

DPS = 40


def _ratio(p, q, alpha):
    return mpmath.log(mpmath.fsum(a ** alpha * b ** (1 - alpha) for a, b in zip(p, q))) / (alpha * (alpha - 1))


def _kl(p, q):
    return mpmath.fsum(a * mpmath.log(a / b) for a, b in zip(p, q) if a > 0)


def _golden(f, a, b, steps=120):
    g = (mpmath.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    for _ in range(steps):
        if f(c) > f(d):
            b = d
        else:
            a = c
        c, d = b - g * (b - a), a + g * (b - a)
    return f((a + b) / 2), (a + b) / 2


def true_sup(p, q):
    """(sup, maximiser) over both directions; maximiser 1 for the KL limit."""
    with mpmath.workdps(DPS):
        p = [mpmath.mpf(x.numerator) / x.denominator for x in p]
        q = [mpmath.mpf(x.numerator) / x.denominator for x in q]
        best = (mpmath.mpf(-1), None)
        for a, b in ((p, q), (q, p)):
            best = max(best, (_kl(a, b), mpmath.mpf(1)))
            grid = [1 + mpmath.mpf(10) ** (e / mpmath.mpf(40)) for e in range(-360, 241)]
            vals = [_ratio(a, b, x) for x in grid]
            i = max(range(len(grid)), key=lambda j: vals[j])
            if 0 < i < len(grid) - 1:
                best = max(best, _golden(lambda x: _ratio(a, b, x), grid[i - 1], grid[i + 1]))
            else:
                best = max(best, (vals[i], grid[i]))
        return best


def _pmf(values):
    return FinitePmf({k: v for k, v in enumerate(values)})


def _f(*xs):
    return [Fraction(x) for x in xs]


PAIRS = {
    # (p, q, alpha_max of the scan, where the supremum sits)
    "at alpha -> 1": (_f("0.107", "0.62", "0.273"), _f("0.273", "0.334", "0.393"), None, "one"),
    "at a finite order": (_f("0.5", "0.5"), _f("0.25", "0.75"), None, "finite"),
    "beyond the scan's last order": (_f("0.9", "0.1"), _f("0.99", "0.01"), 2, "beyond"),
    "far beyond the scan's last order": (_f("0.999", "0.001"), _f("0.999999", "0.000001"), 1.5, "beyond"),
}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_the_bracket_contains_the_true_supremum(name):
    p, q, alpha_max, where = PAIRS[name]
    truth, at = true_sup(p, q)
    if where == "one":
        assert at == 1
    elif where == "beyond":
        assert at > alpha_max
    else:
        assert 1 < at < 10
    kw = {} if alpha_max is None else {"alpha_max": alpha_max}
    with mpmath.workdps(30):
        res = tight_rho((_pmf(p), _pmf(q)), **kw)
        lo, hi = mpmath.mpf(res.lo), mpmath.mpf(res.hi)
        slack = mpmath.mpf(10) ** -25 * abs(truth)
        assert lo - slack <= truth <= hi + slack, (name, lo, truth, hi)
        assert res.lo <= res.value <= res.hi
        assert hi - lo <= 1e-6 * abs(truth), "the bracket is tight"
    if where == "one":
        assert res.attained_at_one
    else:
        assert not res.attained_at_one and res.alpha == pytest.approx(float(at), rel=1e-2, abs=0)


@pytest.mark.parametrize("delta", [0.5, 2.0])
def test_a_flat_curve_gaussian_location_pair(delta):
    """D_alpha(N(0,1) || N(delta,1)) / alpha = delta^2/2 for every alpha: the bracket contains it
    by the location route and by the generic density quadrature.  D_inf is infinite here, so the
    large-alpha end is unbounded: hi must say so (inf), never a finite number below the truth."""
    truth = mpmath.mpf(delta) ** 2 / 2
    for location in (True, False):
        res = tight_rho((Gaussian(0, 1), Gaussian(delta, 1)), location=location, points_per_decade=3)
        assert res.lo <= truth * (1 + 1e-12) and truth * (1 - 1e-12) <= res.hi, (location, res.lo, res.hi)
        assert res.value == pytest.approx(float(truth), rel=1e-9, abs=0)
        assert res.bounded or res.hi == float("inf")


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_a_bracket_one_percent_low_is_detected(name):
    """The check above is sharp: the bracket moved down by 1 % of the value misses the truth."""
    p, q, alpha_max, _ = PAIRS[name]
    truth, _ = true_sup(p, q)
    kw = {} if alpha_max is None else {"alpha_max": alpha_max}
    with mpmath.workdps(30):
        res = tight_rho((_pmf(p), _pmf(q)), **kw)
        hi = mpmath.mpf(res.hi) * mpmath.mpf("0.99")
    assert not truth <= hi


@pytest.mark.parametrize("name", sorted(PAIRS))
@pytest.mark.parametrize("ppd", [2, 3])
def test_a_coarse_scan_still_brackets_the_supremum(name, ppd):
    """Without the branch and bound, on a scan of two or three orders per decade the best point
    misses the maximiser: then only the cell bounds (chords, the first cell, the large-alpha end)
    keep hi above the truth -- a wrong cell bound shows here."""
    p, q, alpha_max, _ = PAIRS[name]
    truth, _ = true_sup(p, q)
    kw = {} if alpha_max is None else {"alpha_max": alpha_max}
    with mpmath.workdps(30):
        res = tight_rho((_pmf(p), _pmf(q)), refine=False, points_per_decade=ppd, **kw)
        slack = mpmath.mpf(10) ** -25 * abs(truth)
        assert mpmath.mpf(res.lo) - slack <= truth <= mpmath.mpf(res.hi) + slack, (name, res.lo, truth, res.hi)


def test_a_supremum_inside_the_first_cell_is_bracketed():
    """The scan starting at alpha = 2 leaves the maximiser (alpha ~ 1.49) inside the first cell
    (1, 2]: only the first cell's bound keeps hi above the truth."""
    p, q, _, _ = PAIRS["at a finite order"]
    truth, at = true_sup(p, q)
    assert 1 < at < 2
    with mpmath.workdps(30):
        res = tight_rho((_pmf(p), _pmf(q)), alpha_min=2, refine=False, points_per_decade=3)
        assert mpmath.mpf(res.lo) <= truth <= mpmath.mpf(res.hi), (res.lo, truth, res.hi)
        assert mpmath.mpf(res.value) < truth  # the scan alone misses it: the bound is what counts


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_the_loss_cgf_of_finite_laws(name):
    """F(alpha) = (alpha - 1) D_alpha = log sum p^alpha q^(1-alpha), both routes (float64 with its
    error bar, mpmath), against the sum at 40 digits, from alpha - 1 = 1e-6 to 1e4."""
    p, q, _, _ = PAIRS[name]
    with mpmath.workdps(30):
        d = FiniteLossCgf([mpmath.mpf(x.numerator) / x.denominator for x in p],
                          [mpmath.mpf(x.numerator) / x.denominator for x in q])
    alphas = [1 + 1e-6, 1.5, 3.0, 40.0, 1e4]
    est = d.F(alphas)
    with mpmath.workdps(DPS):
        pm = [mpmath.mpf(x.numerator) / x.denominator for x in p]
        qm = [mpmath.mpf(x.numerator) / x.denominator for x in q]
        for a, v, e in zip(alphas, est.value, est.error):
            true = mpmath.log(mpmath.fsum(x ** a * y ** (1 - a) for x, y in zip(pm, qm)))
            assert abs(v - true) <= e + 1e-300, (a, v, true, e)
            assert e <= 1e-12 * (abs(true) + 1e-6)
    with mpmath.workdps(30):
        for a in (mpmath.mpf(3) / 2, mpmath.mpf(40)):
            mp = d.mp_F(a)
            true = mpmath.log(mpmath.fsum(x ** a * y ** (1 - a) for x, y in zip(pm, qm)))
            assert abs(mp.value - true) <= mp.error + mpmath.mpf(10) ** -28 * abs(true)


EPS, K = 1, 10   # 10-ary randomized response at eps = 1: the supremum sits at alpha ~ 2.3


def _krr_ratio(alpha):
    """D_alpha/alpha of k-RR in closed form: log((e^{eps a} + e^{eps (1-a)} + k-2)/(e^eps + k-1))
    / (a (a-1))."""
    a, e = mpmath.mpf(alpha), mpmath.mpf(EPS)
    s = (mpmath.exp(e * a) + mpmath.exp(e * (1 - a)) + K - 2) / (mpmath.exp(e) + K - 1)
    return mpmath.log(s) / (a * (a - 1))


@pytest.mark.mp_dps(30)
@pytest.mark.parametrize("where, options", [
    ("inside a cell", {"points_per_decade": 2}),
    ("inside the first cell", {"alpha_min": 6, "points_per_decade": 2}),
    ("beyond the last order", {"alpha_max": "1.05", "points_per_decade": 8}),
])
def test_the_krr_bracket_contains_the_supremum(where, options):
    best = minimize_scalar(lambda a: -float(_krr_ratio(a)), bounds=(1.01, 20), method="bounded",
                           options={"xatol": 1e-10})
    true = _krr_ratio(best.x)
    assert 1.5 < best.x < 3.5
    r = tight_rho(epsilon_dp.krr_pair(EPS, K), refine=False, precise=False,
                  **{k: (mpmath.mpf(v) if isinstance(v, str) else v) for k, v in options.items()})
    assert r.lo <= true * (1 + mpmath.mpf(10) ** -9), where
    assert r.hi >= true * (1 - mpmath.mpf(10) ** -9), where


@pytest.mark.mp_dps(30)
@pytest.mark.parametrize("a, b", [(1.5, 3.0), (2.0, 4.2), (3.0, 11.0), (1.01, 1.2)])
def test_chord_bound_dominates_the_curve_on_its_cell(a, b):
    """F(alpha) = (alpha - 1) D_alpha is convex with F(1) = 0: the chord's bound of the cell is at
    least D_alpha/alpha at every order of the cell (a dense grid of them)."""
    def F(x):
        return float(_krr_ratio(x)) * x * (x - 1)
    bound = _chord_bound(a, b, F(a), F(b))
    assert bound >= max(float(_krr_ratio(x)) for x in np.linspace(a, b, 401)) * (1 - 1e-12)


@pytest.mark.parametrize("bound, which", [(_chord_bound, 0), (_chord_bound, 1),
                                          (_d_interp_bound, 0), (_d_interp_bound, 1), (_d_interp_bound, 2)])
@pytest.mark.parametrize("bad", [math.inf, -math.inf, math.nan])
def test_a_cell_with_an_infinite_or_undefined_end_is_unbounded(bound, which, bad):
    """A cell bound is a finite number only from finite ends (and a finite curvature constant):
    any infinite or NaN input gives inf itself, never a NaN or a finite value from inf - inf."""
    args = [0.2, 0.5, 1.0 / 24][: 2 if bound is _chord_bound else 3]
    args[which] = bad
    assert bound(1.5, 3.0, *args) == math.inf


@pytest.mark.mp_dps(30)
@pytest.mark.parametrize("a, b", [(1.01, 1.2), (1.5, 3.0), (2.0, 4.2), (3.0, 11.0)])
def test_interpolation_bound_dominates_the_curve_on_its_cell_and_is_second_order(a, b):
    """D_alpha of k-ary randomized response against the interpolant of its ends plus
    (alpha - a)(b - alpha) R^3/24, R = 2 eps the loss range: at least D_alpha/alpha at every
    order of the cell, and above the largest end ratio by at most (b - a)^2 R^3/96 / a."""
    def D(x):
        return float(_krr_ratio(x)) * x
    c = (2 * EPS) ** 3 / 24
    bound = _d_interp_bound(a, b, D(a), D(b), c)
    curve = [float(_krr_ratio(x)) for x in np.linspace(a, b, 401)]
    assert bound >= max(curve) * (1 - 1e-12)
    assert bound <= max(D(a) / a, D(b) / b) + (b - a) ** 2 * c / 4 / a + 1e-12


# --------------------------------------------------------------------------------------------
# Orders the float route cannot resolve: never an infinite or a misplaced F
# --------------------------------------------------------------------------------------------

def _gauss_evaluator(s_p=1, s_q=1, shift=1):
    from countdp.divergence.tight_rho import _breakpoints, _default_tail, _direction
    return _direction(Gaussian(0, s_p), Gaussian(shift, s_q), _breakpoints(()), _default_tail(), True)


def test_a_scan_past_what_float64_resolves_keeps_a_true_bracket():
    """N(0, 1) vs N(1, 1): D_alpha/alpha = 1/2 at every order.  Scanned to alpha = 1e8, F at
    alpha >= 3e6 is beyond the float route (the log-ratio at the peak rounds by more than it is
    worth); those orders are left out and the bracket still holds 1/2.  Before, they read as
    F = inf and the pair was reported infinite: 'inf in [inf, inf]'."""
    r = tight_rho((Gaussian(0, 1), Gaussian(1, 1)), alpha_max=1e8, refine=False, precise=False)
    assert r.lo <= 0.5 <= r.hi and r.hi < 0.51
    assert "could not evaluate" in r.directions[0].tail
    # the largest alpha_max accepted, 1e100, two orders a decade: 0.5 in [0.49999999999998, 0.65]
    r = tight_rho((Gaussian(0, 1), Gaussian(1, 1)), alpha_max=1e100, refine=False, precise=False,
                  points_per_decade=2)
    assert r.lo <= 0.5 <= r.hi < 0.7


@pytest.mark.parametrize("alpha", [1e9, 1e20, 1e50])
def test_an_unresolved_order_raises_and_never_returns_a_value(alpha):
    """At alpha = 1e50 the float route once returned F = 9e15 +- 5e16 (true: 5e99): the peak of
    the integrand was misplaced where the log-ratio rounds by more than F.  Now Unresolved; the
    location pair's sub-Gaussian score says F is finite at every order, so never inf either."""
    ev = _gauss_evaluator()
    assert ev.finite_at_every_order() and _gauss_evaluator(s_p=2).finite_at_every_order() is None
    with pytest.raises(Unresolved, match="not resolved by the float quadrature"):
        ev.F(np.array([alpha]))


@pytest.mark.parametrize("alpha", [3e6, 1e9])
def test_a_far_peak_is_not_read_as_divergence(alpha):
    """N(0, 1) vs N(1, 1) written out as bare densities (no declared constants, D_inf = inf):
    at alpha = 3e6 the integrand's peak x = -a1 lies beyond what float64 resolves and the
    resolved probes only see g rise toward it; before, F read inf there (a false 'infinite')."""
    from countdp.divergence.loss_cgf import DensityLossCgf
    from countdp.laws import CallableDensity, ContinuousLaw

    def bare(mu):
        d = Gaussian(mu, 1).density
        return ContinuousLaw(CallableDensity(d.mp_logpdf, np_logpdf=d.logpdf, center=float(mu), scale=1.0))
    ev = DensityLossCgf(bare(0), bare(1))
    assert ev.finite_at_every_order() is None and ev.divergence(alpha - 1) is None
    with pytest.raises(Unresolved, match="the integral is not shown to diverge"):
        ev.F(np.array([alpha]))


@pytest.mark.parametrize("s_p, alpha, diverges", [
    (1, 10.0, False), (1, 100.0, False),     # N(0, 1) vs N(1, 1): finite at every order
    (1, 2e4 + 1, False),                     # its peak (x = -2e4) among the last resolved probes
    (2, 2.0, True), (2, 1.5, True),          # N(0, 4) vs N(1, 1): infinite from alpha = 4/3 on
    (2, 1.2, False)])
def test_the_divergence_of_gaussian_pairs(s_p, alpha, diverges):
    """int p^alpha q^(1 - alpha) for N(0, s_p^2) vs N(1, 1) converges iff alpha / s_p^2 > alpha - 1."""
    assert bool(_gauss_evaluator(s_p=s_p).divergence(alpha - 1)) is diverges


@pytest.mark.parametrize("alpha, infinite", [(1.2, False), (2.0, True)])
def test_an_integral_the_rule_cannot_place_is_infinite_only_where_it_diverges(monkeypatch, alpha, infinite):
    """The quadrature made to fail (its outermost node carries all the mass): F = inf where the
    integral diverges (alpha = 2 for N(0, 4) vs N(1, 1)), Unresolved where it converges (1.2)."""
    from countdp.divergence.loss_cgf import DensityLossCgf
    monkeypatch.setattr(DensityLossCgf, "_integrate", lambda self, a1, kind, M=0.0: (1.0, 0.0, 1.0))
    ev = _gauss_evaluator(s_p=2)
    if infinite:
        assert ev.F(np.array([alpha])).value[0] == math.inf
    else:
        with pytest.raises(Unresolved, match="the integral is not shown to diverge"):
            ev.F(np.array([alpha]))
    # a pair with a bounded log-ratio (Laplace, D_inf = 1) is finite at every order: never inf
    from countdp.divergence.tight_rho import _breakpoints, _default_tail, _direction
    from countdp.laws import Laplace
    lap = _direction(Laplace(0, 1), Laplace(1, 1), _breakpoints(()), _default_tail(), False)
    with pytest.raises(Unresolved, match="D_alpha <= D_inf = 1.0 at every order"):
        lap.F(np.array([alpha]))


def test_a_divergent_pair_is_still_reported_infinite_from_the_right_order():
    r = tight_rho((Gaussian(0, 2), Gaussian(0, 1)), refine=False, precise=False)
    assert r.value == math.inf and r.directions[0].alpha >= 4 / 3


def test_growing_tail_probes_a_finite_end_geometrically():
    """On (1, 2) with lp = log((x - 1)^(-1/2)/2) (Beta(1/2, 1) moved to 1) against the uniform
    q, the integrand exp(lp + a1 (lp - lq)) ~ (x - 1)^(-(1 + a1)/2) is integrable at 1 exactly
    when a1 < 1: the probes must close in on the finite end 1 (e + |e - c| 2^-k) to see it grow,
    and see nothing at a1 = 1/2 ((x - 1)^(-3/4), integrable)."""
    from countdp.divergence.tail_growth import growing_tail

    def logs(x):
        x = np.asarray(x, dtype=float)
        return -0.5 * np.log(x - 1) - math.log(2), np.zeros_like(x)

    assert growing_tail(logs, 2.0, 1.5, 0.1, 1.0, 2.0) == "the integrand grows in the lower tail"
    assert growing_tail(logs, 0.5, 1.5, 0.1, 1.0, 2.0) is None


def test_a_cell_bound_takes_each_end_at_its_value_plus_its_error():
    """The bound of D_alpha/alpha on a cell [a, b] must cover the largest value the evaluated ends
    allow, (F_b + E_b)/(b (b - 1)) at b: for F = alpha (alpha - 1)/2 (D/alpha = 1/2, a nearly
    flat curve whose interpolation bound is the smaller one) with an error at b, the
    bound is at least the upper end value and at least the bound without errors."""
    from countdp.divergence.tight_rho import _Scan

    class Flat:
        end_bounds_cells = False

        def loss_range(self):
            return 0.1

    a, b = 2.0, 3.0
    exact = _Scan(Flat(), 0.5, 0.0)
    exact.pts = {a: (a * (a - 1) / 2, 0.0), b: (b * (b - 1) / 2, 0.0)}
    noisy = _Scan(Flat(), 0.5, 0.0)
    noisy.pts = {a: (a * (a - 1) / 2, 0.0), b: (b * (b - 1) / 2, 1e-3)}
    top = (b * (b - 1) / 2 + 1e-3) / (b * (b - 1))
    assert noisy.cell_ub(a, b) >= top > 0.5
    assert noisy.cell_ub(a, b) > exact.cell_ub(a, b) >= 0.5


def test_refining_the_light_sup_never_lowers_the_best_grid_value():
    """pmf_sup_ratio's refinement keeps the grid's best ratio unless the optimiser beats it: with
    the true maximiser (alpha = 1.467 for p = (1/2, 1/2), q = (0.9, 0.1)) beyond alpha_max the
    grid's best is its last order, which the bounded optimiser only approaches from inside."""
    p, q = [0.5, 0.5], [0.9, 0.1]
    for alpha_max in (1.2, 1.4, 3.0):
        refined = pmf_sup_ratio(p, q, alpha_max=alpha_max, refine=True)
        grid = pmf_sup_ratio(p, q, alpha_max=alpha_max, refine=False)
        assert refined.value >= grid.value


def test_the_float_route_counts_the_atoms_at_orders_near_one():
    """The released laws at n = 1 and 2 (an atom at 0 on both) by the float route and by the
    mpmath route agree within their summed error bars, at orders where a1 L_range <= 1 (the
    expm1 form of F, the atoms' terms p expm1(a1 L)) and beyond it."""
    from countdp.divergence.tight_rho import mp_renyi, renyi_curve
    from countdp.mechanisms import ShiftedLogGaussian
    mech = ShiftedLogGaussian(r0=0.5, c=1)
    P, Q = mech.released_law(1), mech.released_law(2)
    assert P.atoms() and Q.atoms()
    for alpha in (1.001, 1.05, 1.3):
        fl, mp_ = renyi_curve(P, Q, [alpha]), mp_renyi(P, Q, alpha)
        assert abs(fl.value[0] - float(mp_.value)) <= fl.error[0] + float(mp_.error)


def test_far_out_densities_carry_the_rounding_of_their_location():
    """Laplace(10^6, 1) against Laplace(10^6 + 1, 1), not moved to the origin, D_2 =
    log(2e/3 + e^-2/3) exactly: the mpmath route, run with guard bits for a location 10^6 scales
    out, covers the truth and adds at least the base precision's rounding of its value to the
    quadrature's error."""
    from countdp.divergence.tight_rho import mp_renyi
    from countdp.laws import Laplace
    est = mp_renyi(Laplace(10 ** 6, 1), Laplace(10 ** 6 + 1, 1), 2, location=False)
    exact = mpmath.log(2 * mpmath.e / 3 + mpmath.exp(-2) / 3)
    assert abs(est.value - exact) <= est.error
    assert est.error >= mpmath.eps * abs(est.value)


# ---- finite ends: Q's density vanishing at a finite end of P's support ----
# P uniform, Q triangular on one interval: q = 4 min(x - lo, hi - x)/|I|^2, so p/q is unbounded at
# both ends (D_inf = inf) and int p^alpha q^(1 - alpha) = 2^(1 - alpha)/(2 - alpha) for alpha < 2,
# inf from alpha = 2 on: D_alpha = -log 2 - log(2 - alpha)/(alpha - 1).

def _uniform_against_triangular():
    from countdp.laws.reference import Triangular, Uniform
    return [(Uniform(0, 1), Triangular(0.5, 0.5)), (Uniform(-1, 1), Triangular(0, 1))]


def _d_uniform_triangular(alpha):
    return -math.log(2) - math.log(2 - alpha) / (alpha - 1) if alpha < 2 else math.inf


def test_d_inf_is_infinite_where_q_vanishes_at_a_finite_end():
    """The log-ratio is probed toward a finite end too (to 1e-280 from an end at 0, to the ulp
    of an end at -1): uniform against triangular has D_inf = inf, the reverse pair log 2."""
    from countdp.divergence.tight_rho import d_infinity
    for P, Q in _uniform_against_triangular():
        top = d_infinity(P, Q)
        assert top.value == mpmath.inf and "end" in top.how
        assert abs(d_infinity(Q, P).value - mpmath.log(2)) < 1e-12


def test_an_integrand_unbounded_at_a_finite_end_never_gets_a_finite_value_it_does_not_cover():
    """At alpha = 1.5 and 1.9 the integrand q^(1 - alpha) is unbounded at the ends but integrable:
    rounded nodes cannot reach the mass next to an end (at 1.9 it moved D by 0.026, ten float
    error bars, and the mpmath route by 0.011, 27 of its bars), so each route either covers the
    closed form or is Unresolved (renyi, which carries that mass, covers it).  From alpha = 2 on
    the integral diverges: every route gives inf."""
    from _three_routes import assert_routes_cover
    for P, Q in _uniform_against_triangular():
        for alpha in (1.5, 1.9, 2.5, 3.0):
            assert_routes_cover(P, Q, alpha, _d_uniform_triangular(alpha), unresolved_if_infinite=False)

def test_the_precise_route_says_unresolved_where_its_nodes_cannot_reach_an_end():
    """The documented outcome at alpha = 1.5 and 1.9 (integrable, unbounded at the ends) is
    Unresolved, not a value: the check of the nodes nearest an end decides it.  The route's two
    precisions would also widen its bar over that mass, so the covering test above no longer
    fails when the check is dropped; this one does."""
    from countdp.divergence.tail_growth import Unresolved
    from countdp.divergence.tight_rho import mp_renyi
    for P, Q in _uniform_against_triangular():
        for alpha in (1.5, 1.9):
            with pytest.raises(Unresolved):
                mp_renyi(P, Q, alpha)


def test_growing_tail_reaches_an_end_at_zero_without_leaving_the_normal_floats():
    """The same Beta(1/2, 1) against the uniform on (0, 1): probes toward 0 stop 1e-280 from it
    (the slopes between subnormal probes overflow), and the divergence at a1 = 2 is still shown."""
    from countdp.divergence.tail_growth import growing_tail

    def logs(x):
        x = np.asarray(x, dtype=float)
        return -0.5 * np.log(x) - math.log(2), np.zeros_like(x)

    assert growing_tail(logs, 2.0, 0.5, 0.1, 0.0, 1.0) == "the integrand grows in the lower tail"
    assert growing_tail(logs, 0.5, 0.5, 0.1, 0.0, 1.0) is None


def test_growing_tail_counts_each_rounded_probe_once_at_its_rounded_distance():
    """Toward the end 1 from a centre 1.3 away, e + 1.3 2^-k rounds to the few floats above 1:
    the same float met twice is one probe, and its distance is the rounded one (x - 1, not
    1.3 2^-k); otherwise the last probes repeat a shell and the divergence at a1 = 2 is missed."""
    from countdp.divergence.tail_growth import growing_tail

    def logs(x):
        x = np.asarray(x, dtype=float)
        return -0.5 * np.log(x - 1) - math.log(2), np.zeros_like(x)

    for centre in (2.3, 1.7, 2.1):
        assert growing_tail(logs, 2.0, centre, 0.1, 1.0, 3.0) == "the integrand grows in the lower tail"



def test_the_library_fallback_carries_renyi_s_bar_through_alpha_minus_one_and_leaves_d_inf_open():
    """N(0, 1) against N(1/2, 1) by the fallback evaluator: F(alpha) = (alpha - 1) alpha / 8
    covered by both routes at orders near 1 and far from it, KL = 1/8, and D_inf left inf so the
    sup engine never bounds the large-alpha end by it."""
    from countdp.divergence.fallback_loss_cgf import LibraryLossCgf
    d = LibraryLossCgf(Gaussian(0, 1), Gaussian(0.5, 1))
    alphas = np.array([1.001, 2.0, 30.0])
    fl = d.F(alphas)
    assert np.all(np.abs(fl.value - (alphas - 1) * alphas / 8) <= fl.error)
    for a in (1.001, 30):
        mp_ = d.mp_F(a)
        assert abs(mp_.value - (mpmath.mpf(a) - 1) * a / 8) <= mp_.error
    assert abs(d.kl().value - mpmath.mpf(1) / 8) <= d.kl().error
    assert d.d_inf().value == mpmath.inf


def test_the_initial_grid_runs_from_alpha_min_to_alpha_max():
    """alpha_min and alpha_max are the ends of the scan's initial log grid (the docstring's
    contract): unrefined, the orders scanned start at alpha_min and stop at alpha_max, also where
    alpha_max - 1 is below 10 (a grid pushed out to alpha = 11 there would only look further)."""
    from countdp.laws import FinitePmf

    P, Q = FinitePmf({0: "0.6", 1: "0.4"}), FinitePmf({0: "0.4", 1: "0.6"})
    for alpha_max in (3, 50):
        d = tight_rho((P, Q), alpha_max=alpha_max, refine=False).directions[0]
        assert d.alphas.min() == pytest.approx(1 + 1e-6, rel=1e-12, abs=0)
        assert d.alphas.max() == pytest.approx(alpha_max, rel=1e-12, abs=0)


@pytest.mark.parametrize("number_system", ["float", "mpmath"])
def test_a_concave_rise_toward_a_peak_out_of_reach_is_not_growth(number_system):
    """N(0, 1) || N(1, 1): g = -x^2/2 - a1 x + const peaks at x = -a1.  At a1 = 1e8 the float
    probes resolve to |x| ~ 1500 only, where g still rises toward the peak: the shells grow, but
    g bends down (concave), which is what tells this from divergence; likewise in mpmath at 256
    more bits with the peak at -1e60 (a1 = 1e60, resolved to |x| ~ 1e15)."""
    from countdp.divergence.tail_growth import growing_tail, grows_in_mpmath
    from countdp.laws.gaussian import GaussianDensity
    P, Q = GaussianDensity(0, 1), GaussianDensity(1, 1)
    if number_system == "float":
        # the float probes see the rise: without the bend the shells alone would call it growth
        assert growing_tail(lambda x: (P.logpdf(x), Q.logpdf(x)), 1e8, 0.0, 1.0, -np.inf, np.inf) is None
    else:
        assert grows_in_mpmath(lambda x: (P.mp_logpdf(x), Q.mp_logpdf(x)), mpmath.mpf(10) ** 60, 0, 1, -1) is False
    # a straight fall (a Laplace law against itself: g = -|x| - log 2, slopes constant) is not
    # growth either: the shells e^{-x} x shrink
    from countdp.laws.reference import LaplaceDensity
    L = LaplaceDensity(0, 1)
    assert growing_tail(lambda x: (L.logpdf(x), L.logpdf(x)), 1.0, 0.0, 1.0, -np.inf, np.inf) is None
    assert grows_in_mpmath(lambda x: (L.mp_logpdf(x), L.mp_logpdf(x)), 1, 0, 1, 1) is False
    # the control: a pair whose integral diverges (Q narrower: g convex) is growth in both
    R = GaussianDensity(0, 0.5)
    assert growing_tail(lambda x: (P.logpdf(x), R.logpdf(x)), 1.0, 0.0, 1.0, -np.inf, np.inf) is not None
    assert grows_in_mpmath(lambda x: (P.mp_logpdf(x), R.mp_logpdf(x)), 1, 0, 1, 1) is True


@pytest.mark.parametrize("a1", [1, 1000])
def test_the_mpmath_probes_carry_the_rounding_of_g_and_stop_where_it_reaches_resolved(monkeypatch, a1):
    """grows_in_mpmath hands the growth test only probes whose g is resolved: each probe's noise
    is at least 4 eps (a1 (|lp| + |lq| + 1) + |lp| + 1) at the raised precision, at most RESOLVED,
    and the probes stop because the next one out would not be resolved (not at the loop's end)."""
    from countdp.divergence import tail_growth

    seen = {}
    real = tail_growth._shells_grow

    def recording(xs, gs, hs, ns):
        seen.update(xs=xs, ns=ns)
        return real(xs, gs, hs, ns)

    monkeypatch.setattr(tail_growth, "_shells_grow", recording)
    from countdp.laws.gaussian import GaussianDensity
    P, Q = GaussianDensity(0, 1), GaussianDensity(1, 1)

    def logs(x):
        return P.mp_logpdf(x), Q.mp_logpdf(x)

    assert tail_growth.grows_in_mpmath(logs, a1, 0, 1, 1) is False
    with mpmath.workprec(mpmath.mp.prec + 256):
        eps = mpmath.eps

        def noise(x):
            lp, lq = logs(x)
            return 4 * eps * (a1 * (abs(lp) + abs(lq) + 1) + abs(lp) + 1)

        assert len(seen["xs"]) >= tail_growth.PROBES
        for x, n in zip(seen["xs"], seen["ns"]):
            assert noise(x) * (1 - mpmath.mpf(10) ** -20) <= n <= tail_growth.RESOLVED
        assert noise(2 * seen["xs"][-1]) > tail_growth.RESOLVED


@pytest.mark.parametrize("drop, grows", [(0.5e-3, True), (2e-3, False)])
def test_the_convexity_of_the_shells_allows_each_slope_its_own_rounding(drop, grows):
    """_shells_grow's convexity test: the slope between probes j+1 and j+2 may fall by the rounding
    of its own two probes (n_{j+1} + n_{j+2}) / dx, no more (and none of the earlier slopes' when
    their probes are exact): a fall of half that allowance is still convex, twice it is not."""
    from countdp.divergence import tail_growth

    k = tail_growth.PROBES
    xs = [float(j) for j in range(k)]
    gs = [float(j) for j in range(k)]
    gs[-1] -= drop
    hs = [2.0 * j for j in range(k)]            # the shells rise by 2 at every step, far beyond the noise
    ns = [0.0] * (k - 1) + [1e-3]               # only the last probe carries rounding
    assert tail_growth._shells_grow(xs, gs, hs, ns) is grows
