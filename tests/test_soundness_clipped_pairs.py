"""Laws with atoms and a density, against closed forms: Gaussians clipped to an interval (the
mass beyond each end collapsed onto it, as a release clipped at 0 is).

For N(m1, s1^2) and N(m2, s2^2) clipped to [lo, hi] the Renyi integral is the atoms' sum
p^a q^(1-a) at each finite end plus the integral over (lo, hi) of exp(-A x^2 + B x + C), a
Gaussian integral in closed form (A > 0); the privacy profile at eps of two clipped laws of one
s is the atoms' (p - e^eps q)_+ plus the Gaussian masses beyond the single crossing.  Here
both are written from mpmath's normal cdf, nothing of the library's, at 40 digits."""

from __future__ import annotations

import math

import mpmath
import pytest

from _three_routes import assert_routes_cover
from countdp.divergence.profile import hockey_stick
from countdp.laws import MixedLaw
from countdp.laws.gaussian import GaussianDensity


def _upper(z):
    """P(N(0, 1) > z), without cancellation."""
    return mpmath.ncdf(-z)


def _mass(m, s, a, b):
    """P(a < N(m, s^2) < b) without cancellation in either tail."""
    za, zb = (a - m) / s, (b - m) / s
    return mpmath.ncdf(zb) - mpmath.ncdf(za) if za < 0 else _upper(za) - _upper(zb)


def clipped(m, s, lo, hi) -> MixedLaw:
    m, s = mpmath.mpf(m), mpmath.mpf(s)
    atoms = {}
    if lo > -math.inf:
        atoms[lo] = mpmath.ncdf((lo - m) / s)
    if hi < math.inf:
        atoms[hi] = _upper((hi - m) / s)
    return MixedLaw(atoms, GaussianDensity(m, s, lo, hi))


def renyi_closed(m1, s1, m2, s2, lo, hi, alpha):
    m1, s1, m2, s2, a = (mpmath.mpf(v) for v in (m1, s1, m2, s2, alpha))
    total = mpmath.mpf(0)
    for end, side in ((lo, -1), (hi, 1)):
        if abs(end) < math.inf:
            p = mpmath.ncdf(side * (m1 - end) / s1)
            q = mpmath.ncdf(side * (m2 - end) / s2)
            total += p ** a * q ** (1 - a)
    density = density_part_closed(m1, s1, m2, s2, lo, hi, a)
    return math.inf if density == math.inf else mpmath.log(total + density) / (a - 1)


def density_part_closed(m1, s1, m2, s2, lo, hi, a):
    """int over (lo, hi) of p^a q^(1-a) for the two Gaussian densities."""
    m1, s1, m2, s2, a = (mpmath.mpf(v) for v in (m1, s1, m2, s2, a))
    A = a / (2 * s1 ** 2) + (1 - a) / (2 * s2 ** 2)
    B = a * m1 / s1 ** 2 + (1 - a) * m2 / s2 ** 2
    C = -a * m1 ** 2 / (2 * s1 ** 2) - (1 - a) * m2 ** 2 / (2 * s2 ** 2) - a * mpmath.log(s1) \
        - (1 - a) * mpmath.log(s2) - mpmath.log(2 * mpmath.pi) / 2
    if A <= 0:
        return math.inf  # every case below with A <= 0 has an infinite end
    centre, width = B / (2 * A), 1 / mpmath.sqrt(2 * A)
    scale = mpmath.exp(C + B ** 2 / (4 * A)) * mpmath.sqrt(mpmath.pi / A)
    return scale * _mass(centre, width, mpmath.mpf(lo), mpmath.mpf(hi))


def profile_closed(m1, m2, s, lo, hi, eps):
    """The profile and P(A), A the set where p > e^eps q."""
    m1, m2, s, eps = (mpmath.mpf(v) for v in (m1, m2, s, eps))
    E, lo, hi = mpmath.exp(eps), mpmath.mpf(lo), mpmath.mpf(hi)
    total = p_mass = mpmath.mpf(0)
    for end, side in ((lo, -1), (hi, 1)):
        if abs(end) < math.inf:
            p, q = mpmath.ncdf(side * (m1 - end) / s), mpmath.ncdf(side * (m2 - end) / s)
            if p > E * q:
                total, p_mass = total + p - E * q, p_mass + p
    # p > e^eps q beyond t: above it when m1 > m2, below it when m1 < m2
    t = eps * s ** 2 / (m1 - m2) + (m1 + m2) / 2
    a, b = (max(lo, t), hi) if m1 > m2 else (lo, min(hi, t))
    if a < b:
        total += _mass(m1, s, a, b) - E * _mass(m2, s, a, b)
        p_mass += _mass(m1, s, a, b)
    return total, p_mass


# (m1, s1, m2, s2, lo, hi): one end, two ends, wider and narrower P; the first makes the density
# part 2e-7 of the atom's at alpha = 20 (an engine dropping it is off by 10^-8 in D)
PAIRS = [(0, 1, 1, 1, 0, math.inf), (-2, 1, 1, 1, -1, 1), (0, 2, 0, 1, 0, math.inf),
         (0.5, 1, 0, 2, -math.inf, 0), (2, 0.5, 0, 1, 0, 5), (-5, 1, -4, 1, 2, math.inf),
         (-1000, 1, -999, 1, 0, math.inf)]  # (the density part 1000 sds out: see LOG_SHIFT_PAIRS)


@pytest.mark.parametrize("m1, s1, m2, s2, lo, hi", PAIRS)
@pytest.mark.parametrize("alpha", [1.01, 2, 20])
def test_clipped_gaussian_renyi_against_the_closed_form(m1, s1, m2, s2, lo, hi, alpha):
    with mpmath.workdps(40):
        exact = renyi_closed(m1, s1, m2, s2, lo, hi, alpha)
        assert_routes_cover(clipped(m1, s1, lo, hi), clipped(m2, s2, lo, hi), alpha, exact,
                            rounding=1e-14)


@pytest.mark.parametrize("m, lo, hi", [(-100, 0, math.inf), (-1000, 0, math.inf), (1000, -math.inf, 0),
                                       (-10 ** 6, 0, math.inf)])
@pytest.mark.parametrize("alpha", [1.5, 2])
def test_a_density_part_far_beyond_its_centre_is_integrated_where_it_lives(m, lo, hi, alpha):
    """N(m, 1) and N(m + 1, 1) restricted to a half-line starting 100 to 10^6 sds from m: the
    integral of p^alpha q^(1-alpha) there, about e^-5000 .. e^-5e11, against its closed form.
    The peak search looked within 60 sds of the centres only, found no point of the support and
    took its -1e300 sentinel as the integrand's height: the integral came out 18664, D_2 = 9.83
    for a truth of 0 (+ e^-5000).  Placed at the support's end, the integrand falls there like
    e^{-10^6 t}: the nodes stopped at 40 widths, and the e^-40 = 4e-18 of the mass beyond, in one
    infinite panel, was missed under a bar of 1e-38; they now go on until the tail is negligible,
    and the bar carries the rounding of the log-integrand."""
    from countdp.divergence.renyi import density_renyi_integral

    with mpmath.workdps(40):
        P, Q = clipped(m, 1, lo, hi), clipped(m + 1, 1, lo, hi)
        exact = density_part_closed(m, 1, m + 1, 1, lo, hi, alpha)
        val, err, why = density_renyi_integral(P.density, Q.density, alpha)
        # the bar: quadrature and the rounding of a log-integrand near -5e11 (12 of the 40 digits)
        assert why is None and abs(val - exact) <= err < mpmath.mpf(10) ** -25 * exact, (val, err, exact)


def test_the_closed_form_counts_the_density_beside_a_heavy_atom():
    """The control: the atoms' share alone is 1e-8 off D at alpha = 20 for the first pair, 10^6
    times the routes' bars, so a route that lost the density part would fail above."""
    with mpmath.workdps(40):
        atoms_only = mpmath.log(mpmath.mpf(1) / 2 ** 20 * mpmath.ncdf(-1) ** -19) / 19
        exact = renyi_closed(0, 1, 1, 1, 0, math.inf, 20)
        assert abs(exact - atoms_only) > mpmath.mpf("1e-9")
        with pytest.raises(AssertionError):
            assert_routes_cover(clipped(0, 1, 0, math.inf), clipped(1, 1, 0, math.inf), 20, atoms_only)


@pytest.mark.parametrize("m1, m2, s, lo, hi", [(1, 0, 1, 0, math.inf), (-1, 0, 1, 0, math.inf), (-2, 1, 1, -1, 1), (5, -5, 2, -1, 1),
                                               (0.25, 0, 1, 0, 5), (-4, -3, 1, 2, math.inf)])
@pytest.mark.parametrize("eps", [0, 1, 3])
def test_clipped_gaussian_profile_against_the_closed_form(m1, m2, s, lo, hi, eps):
    with mpmath.workdps(40):
        exact, p_mass = profile_closed(m1, m2, s, lo, hi, eps)
        got = hockey_stick(clipped(m1, s, lo, hi), clipped(m2, s, lo, hi), eps, with_mass=True)
        assert abs(got.value - exact) <= got.error + mpmath.mpf(10) ** -35 * (1 + exact), (got, exact)
        # P(A) (the slope of the profile in eps is -e^eps Q(A) = delta - P(A)) carries no bar of its
        # own: it comes from the quadrature whose bar on delta is below 1e-30 here, so 1e-20 is loose
        assert got.error < mpmath.mpf(10) ** -30
        assert abs(got.p_mass - p_mass) <= mpmath.mpf(10) ** -20, (got.p_mass, p_mass)


# log-shifted Gaussians exp(N(m, s^2)) - c: in t = log(y + c) the pair is a Gaussian pair, and
# clipped at y = 0 it is the Gaussian pair clipped to [log c, inf) -- the same closed forms.
# The last release sits at y = -9 with sd 0.01: its density part on y > 0 (mass e^-26000) lies
# 230 sds from the centre, past the engine's float table of 60, which used to crash on finding no
# point there (numpy's max of nothing); such a pair now goes to the per-order fallback
LOG_SHIFT_PAIRS = [(0, 1, 0.5, 1, 1), (0, 1, 0, 2, 0.5), (-3, 0.3, -2.5, 0.35, 10), (0, 0.01, 0.001, 0.01, 10)]


@pytest.mark.parametrize("m1, s1, m2, s2, c", LOG_SHIFT_PAIRS)
@pytest.mark.parametrize("alpha", [1.01, 5])
@pytest.mark.parametrize("clip", [False, True])
def test_log_shifted_gaussian_renyi_against_the_closed_form(m1, s1, m2, s2, c, alpha, clip):
    from countdp.laws import ClippedAtZero, LogShiftedGaussian

    with mpmath.workdps(40):
        lo = float(mpmath.log(c)) if clip else -math.inf
        exact = renyi_closed(m1, s1, m2, s2, lo, math.inf, alpha)
        P, Q = LogShiftedGaussian(m1, s1, c), LogShiftedGaussian(m2, s2, c)
        if clip:
            P, Q = ClippedAtZero(P), ClippedAtZero(Q)
        assert_routes_cover(P, Q, alpha, exact, rounding=1e-13)


def _laplace_renyi_closed(m1, m2, b, t0, alpha):
    """D_alpha between Laplace(m1, b) and Laplace(m2, b) laws of t, clipped below at t0 (None:
    not clipped): the atoms' term plus p^a q^(1-a) = exp(k t + c0) integrated on each piece
    between the clip point and the two locations."""
    m1, m2, b, a = (mpmath.mpf(v) for v in (m1, m2, b, alpha))

    def cdf(t, m):
        z = (t - m) / b
        return mpmath.exp(z) / 2 if z < 0 else 1 - mpmath.exp(-z) / 2

    total, lo = mpmath.mpf(0), -mpmath.inf
    if t0 is not None:
        lo = mpmath.mpf(t0)
        total += cdf(lo, m1) ** a * cdf(lo, m2) ** (1 - a)
    ends = sorted({lo, mpmath.inf} | {m for m in (m1, m2) if m > lo})
    for x, y in zip(ends, ends[1:]):
        mid = y - 1 if x == -mpmath.inf else (x + 1 if y == mpmath.inf else (x + y) / 2)
        s1, s2 = (1 if mid > m1 else -1), (1 if mid > m2 else -1)
        k = -(a * s1 + (1 - a) * s2) / b
        c0 = (a * s1 * m1 + (1 - a) * s2 * m2) / b - mpmath.log(2 * b)
        if (x == -mpmath.inf and k <= 0) or (y == mpmath.inf and k >= 0):
            return math.inf
        total += (mpmath.exp(k * y + c0) if y < mpmath.inf else 0) / k - \
            (mpmath.exp(k * x + c0) if x > -mpmath.inf else 0) / k
    return mpmath.log(total) / (a - 1)


# log-shifted Laplace laws exp(Laplace(m, b)) - c: at m = -50 the kink's x-value e^-50 - 1 rounds
# onto -c = -1 in float64, and renyi, placing nodes at the x-values, lost the kink: D_2 came out
# 2.9e-10 off under a bar of 6.7e-11 (the kinks are now placed in t = log(x + c) directly)
@pytest.mark.parametrize("m1, m2, b, c", [(0, 0.3, 1, 1), (2, 2.5, 0.2, 10), (-50, -49.5, 1, 1), (1, 0, 0.7, 0.5)])
@pytest.mark.parametrize("alpha", [1.01, 2, 30])
@pytest.mark.parametrize("clip", [False, True])
def test_log_shifted_laplace_renyi_against_the_closed_form(m1, m2, b, c, alpha, clip):
    from countdp.laws import ClippedAtZero, ContinuousLaw
    from countdp.mechanisms.log_laplace import LogShiftedLaplaceDensity

    with mpmath.workdps(40):
        exact = _laplace_renyi_closed(m1, m2, b, mpmath.log(c) if clip else None, alpha)
        P, Q = (ContinuousLaw(LogShiftedLaplaceDensity(m, b, c)) for m in (m1, m2))
        if clip:
            P, Q = ClippedAtZero(P), ClippedAtZero(Q)
        assert_routes_cover(P, Q, alpha, exact, rounding=1e-13)
