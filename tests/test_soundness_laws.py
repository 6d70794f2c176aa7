"""Soundness of every law and every mechanism's output law, in one parametrised test each:

* pdf = exp(logpdf) in float64 and in mpmath, and the float64 log-density agrees with mpmath's;
* the cdf's derivative is the pdf (mpmath.diff of ``mp_cdf`` at 30 digits; a central difference
  of the float64 ``cdf``), the cdf is the integral of the pdf (mpmath quadrature), and the
  float64 cdf agrees with ``mp_cdf``;
* atoms plus the density's integral (mpmath quadrature, independent of any cdf) have mass 1,
  and the density's integral is its stated ``mass()``;
* the sampler matches the law: a seeded chi-square goodness-of-fit test on ten bins (plus one
  category per atom), bin probabilities by quadrature of the density, and for a continuous law
  with a cdf a Kolmogorov-Smirnov test against it, at the level p > 1e-6. With 200,000 draws
  the KS test rejects a sampler whose cdf is off by more than about 0.006 anywhere: a Laplace
  sampler 5 % too wide, a Gaussian one 3 % too wide or shifted by 0.02 scales (each tried; at
  20,000 draws the 5 % Laplace error passed).

* Arb: a mechanism's law that carries its exact construction (``density.origin``) has its
  location, scale, shift and log-density as balls that agree with mpmath and float64 (the laws'
  other Arb counterparts are the formulas' ``.ball`` evaluations, tested in
  tests/test_formulas_*.py, and the enclosures of countdp.arb, in test_soundness_tails.py).

Every Law subclass defined in the two packages must appear in LAWS (a test discovers them)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy import stats

import countdp.laws
import countdp.mechanisms
from countdp.laws import ClippedAtZero, FinitePmf, Gaussian, LogShiftedGaussian, PointMass
from countdp.laws.airy import AiryLaw
from countdp.laws.base import ContinuousLaw, IntegerLaw, Law, MixedLaw
from countdp.laws.generalised_gaussian import GeneralisedGaussian
from countdp.laws.reference import (Laplace, Logistic, RaisedCosine, Triangular, TruncatedGaussian,
                                    TruncatedLaplace, Uniform)
from countdp.mechanisms.airy import AiryLogMechanism
from countdp.mechanisms.constant_release import DataIndependentRelease
from countdp.mechanisms.epsilon_dp import DiscreteLaplace
from countdp.mechanisms.log_gaussian import ShiftedLogGaussian
from countdp.mechanisms.log_laplace import LogLaplaceMechanism
from countdp.mechanisms.unequal_variance import UnequalVarianceGaussian

P_MIN = 1e-6       # the goodness-of-fit level
DRAWS = 200_000
SEED = 20260715


def _laws():
    lg = ShiftedLogGaussian(Fraction(1, 4), 1)
    ll = LogLaplaceMechanism(Fraction(1, 4), 1)
    airy = AiryLogMechanism(Fraction(1, 4), 1)
    return {
        "Gaussian": Gaussian(0.5, 2.0),
        "GeneralisedGaussian p=4": GeneralisedGaussian(4, 0.5),
        "Laplace": Laplace(0.25, 1.5),
        "Uniform": Uniform(-1, 2),
        "Logistic": Logistic(0.5, 0.75),
        "Triangular": Triangular(0.5, 2),
        # the ends as stored: 5 -+ 0.01 are 0.0099999999999998 from 5, not w; 1.5 -+ 0.7 lie 0.7
        # and 0.7000000000000002 from it (the density must have mass 1 for the ends as stored)
        "Triangular, ends rounded": Triangular(5, 0.01),
        "Triangular, ends rounded unevenly": Triangular(1.5, 0.7),
        "RaisedCosine": RaisedCosine(1.5),
        "TruncatedLaplace": TruncatedLaplace(2, 1),
        "TruncatedGaussian": TruncatedGaussian(-1, 2),
        "LogShiftedGaussian": LogShiftedGaussian(0.5, 0.4, 1.0),
        "ClippedAtZero(log-Gaussian)": ClippedAtZero(LogShiftedGaussian(0.25, 0.8, 1.0)),
        "AiryLaw": AiryLaw(1.5, 0.25),
        "PointMass": PointMass(2),
        "FinitePmf": FinitePmf({0: Fraction(1, 4), 1: Fraction(1, 2), 3: Fraction(1, 4)}),
        "DiscreteLaplace": DiscreteLaplace(2, 0.7),
        "ShiftedLogGaussian unclipped n=3": lg.unclipped_law(3),
        "ShiftedLogGaussian released n=0": lg.released_law(0),
        "ShiftedLogGaussian released n=4": lg.released_law(4),
        "ShiftedLogGaussian rounded n=2": lg.rounded_law(2),
        "LogLaplace unclipped n=3": ll.unclipped_law(3),
        "LogLaplace released n=1": ll.released_law(1),
        "LogShiftedAiry unclipped n=3": airy.unclipped_law(3),
        "LogShiftedAiry released n=1": airy.released_law(1),
        "UnequalVarianceGaussian n=5": UnequalVarianceGaussian(Fraction(1, 2)).law(5),
        "DataIndependentRelease": DataIndependentRelease().released_law(3),
    }


with mpmath.workdps(30):  # a law may fix constants at the precision it is built at
    LAWS = _laws()
NAMES = sorted(LAWS)


def _is_integer(law):
    return isinstance(law, IntegerLaw)


def _density(law):
    return getattr(law, "density", None)


def _has_sampler(law) -> bool:
    try:
        law.sample(np.random.default_rng(0), 1)
    except NotImplementedError:
        return False
    return True


def _edges(law) -> list[float]:
    """Ten bins from a pilot sample's deciles (a different seed than the test's sample); for a
    law without a sampler, nine points around its centre."""
    if not _has_sampler(law):
        d = _density(law)
        c, sc = (float(v) for v in d.t_center_scale())
        return [x for x in (c + sc * np.linspace(-2, 2, 9)).tolist() if d.lo < x < d.hi]
    pilot = np.asarray(law.sample(np.random.default_rng(1), DRAWS), dtype=float)
    atoms = [float(x) for x in law.atoms()]
    cont = pilot[~np.isin(pilot, atoms)]
    if cont.size < 100:
        return []
    return sorted(set(np.quantile(cont, np.linspace(0.1, 0.9, 9)).tolist()))


def _piece(d, a, b):
    lo, hi = max(a, d.lo), min(b, d.hi)
    if not lo < hi:
        return mpmath.mpf(0)
    kinks = [*d.breakpoints, d.to_x(d.t_center_scale()[0])]  # a symmetric law's kink: its centre
    pts = {lo, hi, *[float(x) for x in kinks if lo < float(x) < hi]}
    if mpmath.isinf(lo) and mpmath.isinf(hi):
        pts |= {-4.0, -1.0, 0.0, 1.0, 4.0}
    elif mpmath.isinf(lo):
        pts |= {hi - 1, hi - 4, hi - 16}
    elif mpmath.isinf(hi):
        pts |= {lo + 1, lo + 4, lo + 16}
    else:
        pts.add((lo + hi) / 2)
    return mpmath.quad(d.mp_pdf, sorted(pts))


def _bins(law):
    """Categories (predicate on samples) with their probabilities (mpmath)."""
    cats = []
    if _is_integer(law):
        lo, hi = law.window(mpmath.mpf(10) ** -12)
        ks = [k for k in range(lo, hi + 1) if law.mp_pmf(k) * DRAWS >= 5]
        for k in ks:
            cats.append((lambda x, k=k: x == k, law.mp_pmf(k)))
        rest = 1 - sum(p for _, p in cats)
        outside = (lambda x, ks=tuple(ks): ~np.isin(x, ks))
        if rest * DRAWS >= 5:
            cats.append((outside, rest))
        else:  # too rare for a category of its own: joined to the last one
            last, p = cats.pop()
            cats.append((lambda x, last=last: last(x) | outside(x), p + rest))
        return cats
    for x, m in law.atoms().items():
        cats.append((lambda s, x=float(x): s == x, m))
    d = _density(law)
    if d is not None:
        atoms = [float(x) for x in law.atoms()]
        e = [-mpmath.inf, *_edges(law), mpmath.inf]
        for a, b in zip(e[:-1], e[1:]):
            cats.append((lambda s, a=a, b=b: (s > a) & (s <= b) & ~np.isin(s, atoms), _piece(d, a, b)))
    return cats


@pytest.mark.parametrize("name", NAMES)
def test_atoms_plus_density_have_mass_one(name):
    law = LAWS[name]
    with mpmath.workdps(30):
        if _is_integer(law):
            lo, hi = law.window(mpmath.mpf(10) ** -25)
            total = mpmath.fsum(law.mp_pmf(k) for k in range(lo, hi + 1))
            assert abs(total - 1) < 1e-20, total
            return
        atoms = mpmath.fsum(law.atoms().values())
        d = _density(law)
        dens = mpmath.fsum(p for _, p in _bins(law)) - atoms
        if d is None:
            assert atoms == 1
            return
        assert abs(dens - d.mass()) < 1e-15 * 10 ** 3, (dens, d.mass())
        assert abs(atoms + dens - 1) < 1e-20, atoms + dens


@pytest.mark.parametrize("name", [n for n in LAWS if _is_integer(LAWS[n])])
@pytest.mark.parametrize("tail", ["1e-3", "1e-12", "1e-25"])
def test_an_integer_window_lies_in_the_support_and_leaves_at_most_its_tail(name, tail):
    """window(tail) = (lo, hi): integers of the support (never below support_lo or above
    support_hi), with P(K < lo) + P(K > hi) <= tail (by the pmf summed at 30 digits)."""
    law = LAWS[name]
    with mpmath.workdps(30):
        lo, hi = law.window(mpmath.mpf(tail))
        assert lo <= hi
        if law.support_lo is not None:
            assert lo >= law.support_lo, (lo, law.support_lo)
        if law.support_hi is not None:
            assert hi <= law.support_hi, (hi, law.support_hi)
        inside = mpmath.fsum(law.mp_pmf(k) for k in range(lo, hi + 1))
        assert 1 - inside <= mpmath.mpf(tail) * (1 + mpmath.mpf(10) ** -20), (lo, hi, 1 - inside)


@pytest.mark.parametrize("name", NAMES)
def test_pdf_is_exp_logpdf_in_float_and_mpmath(name):
    law = LAWS[name]
    if _is_integer(law):
        with mpmath.workdps(30):
            lo, hi = law.window(mpmath.mpf(10) ** -8)
            for k in range(lo, hi + 1):
                if law.mp_pmf(k) > 0:
                    assert abs(law.mp_logpmf(k) - mpmath.log(law.mp_pmf(k))) < 1e-25
        return
    d = _density(law)
    if d is None:
        return  # a point mass: no density
    xs = np.array([x for x in _edges(law) if d.lo < x < d.hi])
    lp = d.logpdf(xs)
    assert np.allclose(d.pdf(xs), np.exp(lp), rtol=1e-13, atol=0)
    if isinstance(law, ContinuousLaw):
        assert np.allclose(law.pdf(xs), np.exp(law.logpdf(xs)), rtol=1e-13, atol=0)
        assert np.allclose(law.logpdf(xs), lp, rtol=1e-13, atol=1e-13)
    with mpmath.workdps(30):
        for x, l_fp, p_fp in zip(xs, lp, d.pdf(xs)):
            l_mp = d.mp_logpdf(mpmath.mpf(float(x)))
            assert abs(d.mp_pdf(x) - mpmath.exp(l_mp)) <= 1e-25 * mpmath.exp(l_mp)
            assert abs(l_fp - l_mp) <= 1e-12 * max(1, abs(l_mp)), (x, l_fp, l_mp)
            assert abs(p_fp - mpmath.exp(l_mp)) <= 1e-12 * mpmath.exp(l_mp), (x, p_fp, l_mp)


def _cdfs(law):
    """(float cdf, mpmath cdf, its density) where the law has them (for a clipped law: the base)."""
    base = getattr(law, "base", law)
    if isinstance(law, MixedLaw) and base is law:
        return None, None, None
    fp = getattr(base, "cdf", None)
    mp = getattr(base, "mp_cdf", None)
    d = _density(base)
    if fp is not None:
        try:
            fp(np.array([0.0]))
        except NotImplementedError:
            fp = None
    return fp, mp, d


#: the cdf against the quadrature of the density from -inf (split at the density's kinks and at the
#: centre of its law, mapped back from the integration coordinate): relative agreement of the
#: mpmath cdf at 30 digits, and of the float64 cdf
CDF_REL, CDF_REL_FLOAT = 1e-18, 1e-12


@pytest.mark.parametrize("name", NAMES)
def test_the_cdf_is_the_integral_of_the_pdf_and_its_derivative(name):
    law = LAWS[name]
    fp, mp, d = _cdfs(law)
    if d is None or (fp is None and mp is None):
        return  # no cdf: the goodness-of-fit test below uses the density alone
    xs = [x for x in _edges(getattr(law, "base", law)) if d.lo < x < d.hi]
    for x in xs:
        with mpmath.workdps(30):
            integral = _piece(d, -mpmath.inf, x)
        rel = CDF_REL
        if fp is not None:
            assert float(fp(np.array([x]))[0]) == pytest.approx(float(integral), rel=CDF_REL_FLOAT, abs=1e-14), x
        if mp is not None:
            with mpmath.workdps(30):
                assert abs(mp(x) - integral) <= rel * integral, (x, mp(x), integral)
                der = mpmath.diff(mp, mpmath.mpf(x))
                assert abs(der - d.mp_pdf(x)) <= 1e-20 * d.mp_pdf(x), (x, der, d.mp_pdf(x))
                if fp is not None:
                    assert abs(float(fp(np.array([x]))[0]) - mp(x)) <= 1e-12
        if fp is not None:
            h = 1e-4 * (1 + abs(x))
            der = (float(fp(np.array([x + h]))[0]) - float(fp(np.array([x - h]))[0])) / (2 * h)
            assert der == pytest.approx(float(d.mp_pdf(x)), rel=1e-6, abs=0)


@pytest.mark.parametrize("name", NAMES)
def test_the_sampler_matches_the_law(name):
    law = LAWS[name]
    if not _has_sampler(law):
        return  # a law without a sampler (used for its density only)
    with mpmath.workdps(20):
        cats = _bins(law)
    x = np.asarray(law.sample(np.random.default_rng(SEED), DRAWS), dtype=float)
    assert x.shape == (DRAWS,)
    counts = np.array([int(np.sum(pred(x))) for pred, _ in cats])
    probs = np.array([float(p) for _, p in cats])
    assert counts.sum() == DRAWS, "the categories must cover every draw once"
    if len(cats) == 1:
        assert probs[0] == pytest.approx(1, abs=1e-12)
        return
    assert probs.sum() == pytest.approx(1, abs=1e-9)
    p = stats.chisquare(counts, probs / probs.sum() * DRAWS).pvalue
    assert p > P_MIN, (name, counts, probs * DRAWS)
    fp, _, _ = _cdfs(law)
    if fp is not None and isinstance(law, ContinuousLaw) and getattr(law, "base", law) is law:
        assert stats.kstest(x, lambda t: fp(np.asarray(t))).pvalue > P_MIN, name  # against the cdf


def _law_classes():
    found = set()
    for pkg in (countdp.laws, countdp.mechanisms):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            mod = importlib.import_module(info.name)
            for _, cls in inspect.getmembers(mod, inspect.isclass):
                if issubclass(cls, Law) and cls.__module__ == mod.__name__ and not cls.__name__.startswith("_"):
                    found.add(cls)
    return found


def test_every_law_class_is_tested():
    abstract = {Law, IntegerLaw}
    tested = set()
    for law in LAWS.values():
        tested.update(c for c in type(law).__mro__ if issubclass(c, Law))
    missing = sorted(c.__qualname__ for c in _law_classes() - abstract - tested)
    assert not missing, f"laws with no soundness test: {missing}"


@pytest.mark.parametrize("name", NAMES)
def test_mpmath_values_carry_the_working_precision(name):
    """The mpmath log-density (log-pmf) at 30 digits is the one at 60 digits to 1e-27: a law's
    constants are not held at a lower precision than the caller's."""
    law = LAWS[name]
    if _is_integer(law):
        with mpmath.workdps(30):
            lo, hi = law.window(mpmath.mpf(10) ** -6)
        points, f = list(range(lo, hi + 1)), law.mp_logpmf
    elif _density(law) is not None:
        d = _density(law)
        points, f = [x for x in _edges(law) if d.lo < x < d.hi], d.mp_logpdf
    else:
        return  # a point mass
    for x in points:
        with mpmath.workdps(30):
            v30 = f(mpmath.mpf(x))
        with mpmath.workdps(60):
            v60 = f(mpmath.mpf(x))
            if mpmath.isinf(v60):  # outside the support (a zero of a pmf)
                assert v30 == v60
                continue
            assert abs(v30 - v60) <= mpmath.mpf(10) ** -27 * (1 + abs(v60)), (x, v30, v60)


@pytest.mark.parametrize("name", [n for n in NAMES if getattr(_density(LAWS[n]), "origin", None) is not None])
def test_the_arb_construction_agrees_with_mpmath_and_float(name):
    """A law built by a mechanism carries its exact construction (LogShiftOrigin): its location,
    scale and shift as Arb balls at 200 bits must contain the mpmath values at 50 digits (those
    the law was built from) and agree with float64; and the Arb log-density built from them
    agrees with the mpmath one."""
    from flint import arb, ctx

    d = _density(LAWS[name])
    o = d.origin
    with ctx.workprec(200), mpmath.workdps(50):
        mu, s, c = o.mu(), o.scale(), o.shift()
        for ball, mp_value in ((mu, d.mu), (s, d.s), (c, d.c)):
            assert abs(mpmath.mpf(ball.mid().str(60, radius=False)) - mp_value) <= 1e-25 * (1 + abs(mp_value))
            assert float(ball.mid()) == pytest.approx(float(mp_value), rel=1e-15, abs=1e-300)
        for x in [x for x in _edges(LAWS[name]) if d.lo < x < d.hi][:4]:
            w = (arb(x) + c).log()
            z = (w - mu) / s
            arb_lp = -z * z / 2 - (2 * arb.pi()).sqrt().log() - s.log() - w  # exp(W) - c, W ~ N(mu, s^2)
            mp_lp = d.mp_logpdf(mpmath.mpf(x))
            assert abs(mpmath.mpf(arb_lp.mid().str(60, radius=False)) - mp_lp) <= 1e-25 * (1 + abs(mp_lp))


@pytest.mark.parametrize("name", NAMES)
def test_the_cdf_is_zero_below_the_support_and_one_above(name):
    """Outside its support a law's cdf is exactly 0 (below) or 1 (above), in every number system
    it has, never a value computed from outside the formula's domain."""
    law = LAWS[name]
    fp, mp, d = _cdfs(law)
    if d is None or (fp is None and mp is None):
        return
    below = [d.lo - 1, d.lo - 10, d.lo] if np.isfinite(float(d.lo)) else []
    above = [d.hi, d.hi + 1] if np.isfinite(float(d.hi)) else []
    for x in below:
        if mp is not None:
            assert mp(x) == 0, (x, mp(x))
        if fp is not None:
            assert float(fp(np.array([float(x)]))[0]) == 0, x
    for x in above:
        if mp is not None:
            assert mp(x) == pytest.approx(1, abs=1e-25), (x, mp(x))


@pytest.mark.parametrize("p", [1.5, 2, 3, 4])
def test_the_generalised_gaussian_score_at_its_centre_is_zero(p):
    """s(x) = p |x - loc|^(p-1) sign(x - loc) is 0 at x = loc (and odd about it)."""
    from countdp.laws.generalised_gaussian import GeneralisedGaussianDensity

    dens = GeneralisedGaussianDensity(p)
    assert dens.mp_score(0) == 0
    for x in ("0.5", "2"):
        assert dens.mp_score(x) == -dens.mp_score("-" + x) > 0


def test_the_location_gap_of_two_mechanisms_origins_is_the_difference_of_their_locations():
    """Two laws of one mechanism (one family): mu_q - mu_p without cancellation; of two different
    mechanisms, in either order: the plain difference of their locations (their drifts differ)."""
    from flint import ctx

    a, b = ShiftedLogGaussian(0.05, 1.0), ShiftedLogGaussian(0.2, 1.0)
    with ctx.workprec(128):
        pairs = [(a.unclipped_law(3), a.unclipped_law(5)), (a.unclipped_law(3), b.unclipped_law(5)),
                 (b.unclipped_law(5), a.unclipped_law(3))]
        for p, q in pairs:
            op, oq = p.density.origin, q.density.origin
            gap, plain = op.location_gap(oq), oq.mu() - op.mu()
            assert abs(gap - plain) < mpmath.mpf(2) ** -100, (op, oq)


def test_the_airy_samplers_envelope_segments_have_the_areas_of_their_exponentials():
    """The rejection sampler's envelope: each segment's probability is the integral of its
    exponential piece, the unbounded last one included (a wrong weight biases the sample where
    a goodness-of-fit test has too few draws to see it)."""
    from countdp.laws.airy import sampler

    env = sampler._envelope()
    lengths = np.diff(env.bounds)
    start = env.log_values + env.slopes * (env.bounds[:-1] - env.points)
    areas = sampler._segment_areas(start, env.slopes, lengths)
    for i, (s0, d, lo, hi) in enumerate(zip(start, env.slopes, env.bounds[:-1], env.bounds[1:])):
        exact = mpmath.quad(lambda x: mpmath.exp(s0 + d * (x - lo)), [lo, hi if np.isfinite(hi) else mpmath.inf])
        assert float(areas[i]) == pytest.approx(float(exact), rel=1e-12, abs=0), i
    assert env.total == pytest.approx(float(areas.sum()), rel=1e-15, abs=0)


def test_a_density_vanishing_at_a_finite_end_keeps_its_digits_next_to_it():
    """Triangular and raised-cosine densities vanish at their ends; their log-densities next to an
    end agree with the closed form taken at 80 digits (w - |x - mu| and 1 + cos(pi x / w) would
    lose every digit there: the uniform-triangular divergence came out 612 instead of log 2)."""
    from countdp.laws.reference import RaisedCosine, Triangular
    tri, cos_ = Triangular(0.5, 0.5), RaisedCosine(1.0)
    with mpmath.workdps(80):
        for x in (1e-20, 1e-200, 1 - 2.0 ** -45):
            ref = mpmath.log(4 * min(mpmath.mpf(x), 1 - mpmath.mpf(x)))
            assert abs(float(tri.density.logpdf(np.array([x]))[0]) - float(ref)) < 1e-12 * abs(ref)
        for x in (-1 + 2.0 ** -40, 1 - 2.0 ** -30):
            ref = mpmath.log1p(mpmath.cos(mpmath.pi * mpmath.mpf(x))) - mpmath.log(2)
            assert abs(float(cos_.density.logpdf(np.array([x]))[0]) - float(ref)) < 1e-12 * abs(ref)
    for x in (mpmath.mpf(10) ** -40, 1 - mpmath.mpf(2) ** -45):
        ref = mpmath.log(4 * min(x, 1 - x))
        assert abs(tri.density.mp_logpdf(x) - ref) < mpmath.mpf(10) ** -12 * abs(ref)
    x = -1 + mpmath.mpf(10) ** -12
    with mpmath.workdps(80):
        ref = mpmath.log1p(mpmath.cos(mpmath.pi * x)) - mpmath.log(2)
    assert abs(cos_.density.mp_logpdf(x) - ref) < mpmath.mpf(10) ** -12 * abs(ref)


@pytest.mark.parametrize("name", [n for n in NAMES if _density(LAWS[n]) is not None and not _is_integer(LAWS[n])])
def test_the_placement_centre_and_scale_are_those_of_the_law_in_t(name):
    """t_center_scale places every route's quadrature nodes: its centre lies within 2 standard
    deviations of the mean of t (the density part, normalised) and its scale within a factor 2 of
    that standard deviation (measured: 0.55 for the logistic law .. 1.74 for a released
    log-Gaussian at count 0)."""
    d = _density(LAWS[name])
    with mpmath.workdps(20):
        c, s = (mpmath.mpf(v) for v in d.t_center_scale())
        lo, hi = (mpmath.mpf(v) for v in d.t_range())
        kinks = [d.to_t(mpmath.mpf(b)) for b in d.breakpoints]
        pts = sorted({lo, hi, *[t for t in [c + s * k for k in (-16, -4, -1, 0, 1, 4, 16)] + kinks if lo < t < hi]})

        def f(t):
            return mpmath.exp(d.mp_log_integrand_t(t))

        m0 = mpmath.quad(f, pts)
        mean = mpmath.quad(lambda t: t * f(t), pts) / m0
        sd = mpmath.sqrt(mpmath.quad(lambda t: (t - mean) ** 2 * f(t), pts) / m0)
    assert abs(c - mean) <= 2 * sd
    assert sd / 2 <= s <= 2 * sd
