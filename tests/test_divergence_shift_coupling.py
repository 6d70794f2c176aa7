"""Tests of countdp.divergence.shift_coupling and countdp.laws.count_prior: the error law is a
probability law with the mechanism's mean absolute error, the fibre grid and the line integral agree,
the coupling inequality holds, smoothing bounds the neighbour ratios, the rounded release's error
pmf matches the library's rounded law, and the error density is that of n - U_n: pointwise, and by
its signed mean (eq (4)'s error), a moment that the mass and the mean |e| do not see."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy.integrate import trapezoid

from countdp import formulas
from countdp.divergence import shift_coupling
from countdp.laws.count_prior import count_prior_for_excess
from countdp.mechanisms import ShiftedLogGaussian
from countdp.mechanisms.airy import AiryLogMechanism
from countdp.mechanisms.log_laplace import LogLaplaceMechanism


@pytest.fixture(scope="module")
def setting():
    mech = ShiftedLogGaussian(0.05, 1.0, r=0.1)
    prior = count_prior_for_excess(30, 15)
    noise = shift_coupling.log_noise(mech, 30)
    return mech, prior, noise, shift_coupling.error_fibres(noise, prior, m=12)


def test_error_law_mass_and_mean(setting):
    mech, prior, _, grid = setting
    assert grid.mass() == pytest.approx(1, abs=1e-12)
    ns, ps = prior.table()
    mean = sum(q * float(mech.expected_abs_error_unclipped(int(n))) for n, q in zip(ns, ps))
    assert grid.mean_abs() == pytest.approx(mean, rel=1e-10, abs=0)


def test_a_narrow_error_law_keeps_its_mass():
    """E|error| about 0.01: the fibre density nu(theta) is near 0 over most of [0, 1), so
    the mass is the weighted sum of nu only (not of the weights alone); 1 to the theta rule's 1e-5."""
    mech = ShiftedLogGaussian(0.001, 1.0, r=0.01)
    grid = shift_coupling.error_fibres(shift_coupling.log_noise(mech, 2), count_prior_for_excess(2, 15), m=48)
    assert grid.fibre_masses().min() < 1e-9
    assert grid.mass() == pytest.approx(1, abs=1e-4)


def test_fibres_and_line_agree_and_the_coupling_holds(setting):
    mech, prior, noise, grid = setting
    kl = grid.shift_kl()
    assert kl == pytest.approx(shift_coupling.line_shift_kl(noise, prior, exact=False), rel=1e-9, abs=0)
    assert grid.shift_j() == pytest.approx(shift_coupling.line_shift_kl(noise, prior, exact=False, symmetric=True),
                                           rel=1e-9, abs=0)
    ns, ps = prior.table()
    edges = shift_coupling.location_kl(noise, ns)
    assert edges[0] == pytest.approx(mech.v(int(ns[0]) + 1), rel=1e-10, abs=0)   # Gaussian: KL = budget
    assert kl <= prior.shift_kl() + float(np.sum(ps * edges)) <= prior.shift_kl() + mech.v(prior.N + 1)


@pytest.mark.slow
def test_the_line_integral_reaches_the_far_end_of_a_wide_error_law():
    """sigma = 0.32 (r0 = 0.5): errors beyond half the largest count carry a share of the KL near
    3e-11 relative; the fibre grid (its own range) and the line integral agree to 3e-16, so a
    line range cut short there shows at 1e-13."""
    mech = ShiftedLogGaussian(0.5, 1.0)
    prior = count_prior_for_excess(30, 5)
    noise = shift_coupling.log_noise(mech, 30)
    grid = shift_coupling.error_fibres(noise, prior, m=12)
    assert grid.shift_kl() == pytest.approx(shift_coupling.line_shift_kl(noise, prior, exact=False),
                                            rel=1e-13, abs=0)


def test_smoothing_bounds_the_neighbour_ratios(setting):
    grid = setting[3].smoothed(0.8)
    lo, hi = grid.ratio_range(floor=1e-10)          # away from the truncated ends of the grid
    assert 0.8 * (1 - 1e-9) <= lo and hi <= 1.25 * (1 + 1e-9)
    assert grid.shift_kl() <= setting[3].shift_kl()       # data processing


def test_rounded_error_pmf_matches_the_rounded_law():
    mech = ShiftedLogGaussian(0.05, 1.0, r=0.1)
    s = float(mech.mp_sigma())
    ks, pk = shift_coupling.rounded_error_pmf(s, -s * s, 1.0, [20], [1.0])
    law = mech.rounded_law(20)
    with mpmath.workdps(30):
        for k, p in zip(ks, pk):
            if p > 1e-12:
                assert p == pytest.approx(float(law.mp_pmf(20 - int(k))), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("n, sigma", [(20, 0.3), (5, 0.01), (0, 0.05), (1000, 0.002)])
def test_rounded_error_pmf_keeps_all_the_mass(n, sigma):
    """The window of counts reaches 12 sigma either side of the centre and one count beyond: the
    pmf has total mass 1 to rounding, also when the law is a few counts wide (n = 5, sigma =
    0.01: three counts), and its rows are probabilities up to the cancellation of the
    differences of Phi (measured down to -3e-14)."""
    ks, pk = shift_coupling.rounded_error_pmf(sigma, -sigma * sigma / 2, 1.0, [n], [1.0])
    assert abs(float(np.sum(pk)) - 1) <= 1e-13
    assert np.all(pk >= -1e-13) and np.all(np.diff(ks) == 1)


@pytest.mark.parametrize("make", [lambda: ShiftedLogGaussian(0.05, 1.0, r=0.1),
                                  lambda: LogLaplaceMechanism(0.05, 1.0),
                                  lambda: AiryLogMechanism(0.05, 1.0)],
                         ids=["log-Gaussian", "log-Laplace", "Airy"])
def test_the_tabulated_log_density_is_the_noise_to_its_stated_order(make):
    """Cubic Hermite on a grid of 1e-3 with fourth-order node slopes: the table differs from the
    noise's own log-density by ~1e-13 (measured 3e-14, 1e-14, 8e-14; the bound allows 1e-12),
    between nodes, at the kink 0 on either side and at the ends (linear interpolation would be
    ~1e-7 off)."""
    noise = shift_coupling.log_noise(make(), 30)
    z = np.random.default_rng(7).uniform(noise.lo, noise.hi, 20001)
    z = np.r_[z, 0.0, -1e-9, 1e-9, noise.lo, noise.hi, 0.0005, -0.0005]
    assert np.max(np.abs(noise.logpdf(z) - noise.exact(z))) < 1e-12
    assert np.all(noise.logpdf(np.array([noise.lo - 3, noise.hi + 3])) == -np.inf)


@pytest.mark.parametrize("exact", [False, True])
def test_error_density_is_the_law_of_n_minus_the_release(setting, exact):
    """G for a point prior at n is the density of e = n - U_n: pdf_{U_n}(n - e), pointwise, on
    both sides of e = 0 (a mirrored error, n + e, has the same mass and |e| but not these values)."""
    mech, _, noise, _ = setting
    n = 30
    e = np.array([-2.5, -1.5, -0.75, 0.0, 0.5, 1.5, 2.5, 3.5])
    g = shift_coupling.error_density(noise, [n], [1.0], e, exact=exact)
    want = mech.unclipped_law(n).pdf(n - e)
    assert np.all(want > 1e-4)
    np.testing.assert_allclose(g, want, rtol=1e-6 if not exact else 1e-10)


@pytest.mark.parametrize("n", [3, 30])
def test_error_density_has_the_signed_mean_of_the_error(n):
    """E[n - U_n] = (n + c)(1 - e^{t + s^2/2}) for the log-Gaussian noise."""
    noise = shift_coupling.log_noise(ShiftedLogGaussian(0.05, 1.0, r=0.1), 30)
    nc = n + noise.c
    # y = n + c - e = (n + c) e^{s X + t}: cover |X| <= 12
    lo, hi = nc - nc * math.exp(noise.t + 12 * noise.s), nc - nc * math.exp(noise.t - 12 * noise.s)
    e = np.linspace(lo, hi, 200_001)
    G = shift_coupling.error_density(noise, [n], [1.0], e)
    assert trapezoid(G, e) == pytest.approx(1, abs=1e-9)
    mean = nc * (1 - math.exp(noise.t + noise.s ** 2 / 2))
    assert trapezoid(e * G, e) == pytest.approx(mean, rel=1e-6, abs=0)
    assert mean > 0


@pytest.mark.parametrize("q", [0.05, 0.5, 0.8, 0.99])
def test_the_discrete_laplace_kernel_is_a_law_with_its_closed_form_variance(q):
    """K_q(j) = (1 - q)/(1 + q) q^|j| sums to 1 and has variance 2q/(1 - q)^2 (the geometric
    series summed in closed form), up to the 1e-18 tail cut; smoothing with it keeps the mass of
    the error law."""
    j, K = shift_coupling.discrete_laplace(q)
    assert K.sum() == pytest.approx(1, abs=1e-13)
    assert np.sum(j * j * K) == pytest.approx(2 * q / (1 - q) ** 2, rel=1e-10, abs=0)
    assert np.array_equal(K, K[::-1]) and np.all(K > 0)


def test_smoothing_keeps_the_mass_of_the_error_law(setting):
    grid = setting[3]
    assert grid.smoothed(0.8).mass() == pytest.approx(grid.mass(), rel=1e-12, abs=0)


@pytest.mark.parametrize("kind", ["one_sided", "symmetric"])
def test_fibre_sums_at_sites_where_a_neighbour_is_zero(kind):
    """Past the noise range G is 0: the one-sided sum there is the limit b of a log(a/b) - a + b
    at a = 0, the symmetric term is dropped, and no 0 log 0 turns the sum into NaN."""
    from countdp.divergence.shift_coupling import _fibre_sums
    G = np.array([[0.0, 0.0, 0.2, 0.5, 0.3, 0.0],
                  [0.0, 0.1, 0.4, 0.4, 0.1, 0.0]])
    summand = getattr(formulas, f"{kind}_summand")
    want = []
    for row in G:
        s = mpmath.mpf(0)
        for a, b in zip(row[:-1], row[1:]):
            if a > 0 and b > 0:
                s += summand(a, b)
            elif kind == "one_sided" and a == 0:
                s += b
        want.append(float(s))
    got = _fibre_sums(G, summand)
    assert np.all(np.isfinite(got))
    assert got == pytest.approx(want, rel=1e-14, abs=1e-15)


def test_smoothing_keeps_the_signed_mean_and_raises_the_mean_absolute_error(setting):
    """K_q is symmetric: on every fibre, sum_k x G(x) is unchanged by G * K_q (x = k + theta on the
    widened grid, which starts J sites lower), and E|X| <= E|X + J| <= E|X| + E|J| (Jensen, then
    the triangle inequality)."""
    grid = setting[3]
    q = 0.8
    sm = grid.smoothed(q)
    assert sm.G.shape[1] > grid.G.shape[1]
    before = np.sum(grid.x * grid.G, axis=1)
    after = np.sum(sm.x * sm.G, axis=1)
    assert np.allclose(after, before, rtol=0, atol=1e-12 * np.abs(grid.x * grid.G).sum(axis=1).max())
    j, K = shift_coupling.discrete_laplace(q)
    assert grid.mean_abs() <= sm.mean_abs() <= grid.mean_abs() + float(np.sum(np.abs(j) * K)) + 1e-12


@pytest.mark.parametrize("make", [lambda: ShiftedLogGaussian(0.05, 1.0, r=0.1), lambda: AiryLogMechanism(0.05, 1.0)],
                         ids=["log-Gaussian", "Airy"])
def test_the_tabulated_log_density_holds_its_order_up_to_the_padded_ends(make):
    """The table runs 2 beyond the noise range on each side (room for the edge shifts): in its
    last two intervals, where the node slopes are the one-sided differences at the far end, it
    is still the noise's log-density to ~1e-12 relative to the log's size."""
    noise = shift_coupling.log_noise(make(), 30)
    tab = noise.logpdf
    ends = [-tab.h * (len(tab.tables[0][0]) - 1), tab.h * (len(tab.tables[1][0]) - 1)]
    z = np.array([e - np.sign(e) * tab.h * f for e in ends for f in (0.0, 0.3, 0.5, 1.0, 1.5, 1.7)])
    exact = noise.exact(z)
    assert np.all(np.isfinite(exact))
    assert np.max(np.abs(tab(z) - exact) / (1 + np.abs(exact))) < 1e-12
