"""countdp.mechanisms.accounting: the shifted log-Gaussian in dp_accounting's terms.  The
Gaussian event of an edge against the calculator's exact profile (1 and 10 releases), the
released laws' PLD against the exact profile and its bracket where clipping matters, and a
composition with a Laplace release through dp_accounting's PLDAccountant against an independent
quadrature of the composed hockey-stick divergence."""

from __future__ import annotations

import mpmath
import pytest

from countdp import formulas
from countdp.calculator import budget
from countdp.mechanisms import ShiftedLogGaussian
from countdp.mechanisms import accounting

dpa = pytest.importorskip("dp_accounting")

#: dp_accounting's Gaussian event through the PLD accountant (connect-the-dots at h = 1e-4)
#: is within 1e-8 of the closed form here; the bound leaves room
EVENT_TOL = 1e-6
H = 1e-4  # the released PLD's grid: its eps lies in [exact, exact + k H]


def _exact(r0, c, n, delta, k):
    with mpmath.workdps(20):
        row = budget.guarantee(r0, c, n, delta=delta, releases=k).rows[0]
    return next(cv for cv in row.conversions if cv.method == "exact")


@pytest.mark.parametrize("k", [1, 10])
def test_event_agrees_with_the_exact_profile(k):
    """n = 100, c = 1, r0 = 0.05 (clipping negligible): the accountant's eps at 1e-6 of the
    Gaussian event equals the calculator's exact profile of the released mechanism."""
    m = ShiftedLogGaussian(0.05, 1)
    event = m.dp_event(100, releases=k)
    assert isinstance(event, dpa.SelfComposedDpEvent if k > 1 else dpa.GaussianDpEvent)
    acc = dpa.pld.PLDAccountant()
    acc.compose(event)
    exact = _exact(0.05, 1, 100, 1e-6, k)
    assert not exact.upper_bound
    assert abs(acc.get_epsilon(1e-6) - float(exact.eps)) <= EVENT_TOL * (1 + float(exact.eps))
    if k == 1:
        assert acc.get_epsilon(1e-6) == pytest.approx(1.37361, abs=1e-5)


def test_noise_multiplier_is_sigma_over_the_log_gap():
    m = ShiftedLogGaussian(0.05, 1)
    assert m.dp_event(100).noise_multiplier == pytest.approx(m.sigma / mpmath.log(101 / 100), rel=1e-14, abs=0)
    assert m.dp_event(0).noise_multiplier == m.dp_event(1).noise_multiplier  # edge (0, 1)


@pytest.mark.parametrize("k", [1, 10])
def test_released_pld_agrees_with_the_exact_profile(k):
    m = ShiftedLogGaussian(0.05, 1)
    e = m.pld(100, releases=k).get_epsilon_for_delta(1e-6)
    exact = float(_exact(0.05, 1, 100, 1e-6, k).eps)
    assert exact - 1e-9 <= e <= exact + k * H


@pytest.mark.slow
def test_released_pld_where_clipping_matters():
    """r0 = 0.9, c = 0.3, n = 1, delta = 0.2: one release is the released laws' quadrature;
    for 10 releases the calculator has a bracket [eps_lower, eps_upper], and the released PLD
    lies in it, well below the unclipped Gaussian's upper bound."""
    m = ShiftedLogGaussian(0.9, 0.3)
    one = _exact(0.9, 0.3, 1, 0.2, 1)
    assert "quadrature" in one.how
    e1 = m.pld(1).get_epsilon_for_delta(0.2)
    assert float(one.eps) - 1e-9 <= e1 <= float(one.eps) + H
    ten = _exact(0.9, 0.3, 1, 0.2, 10)
    assert ten.upper_bound
    e10 = m.pld(1, releases=10).get_epsilon_for_delta(0.2)
    assert float(ten.eps_lower) <= e10 <= float(ten.eps) + 10 * H
    assert e10 < float(ten.eps) - 0.5  # the clipped mass is taken into account


def _gaussian_laplace_eps(mu, b, delta):
    """eps at delta of (N(0,1), N(mu,1)) x (Lap(0,b), Lap(1,b)), independently of dp_accounting:
    the Laplace loss is 1/b (mass 1/2), -1/b (mass e^{-1/b}/2) or (1-2x)/b (x in (0,1), density
    e^{-x/b}/(2b)); given it, the Gaussian part's profile at eps - loss is the closed form
    Phi(mu/2 - t/mu) - e^t Phi(-mu/2 - t/mu) (valid for every real t); bisection in eps."""
    inv = 1 / mpmath.mpf(b)

    def gauss(t):
        return mpmath.ncdf(mu / 2 - t / mu) - mpmath.exp(t) * mpmath.ncdf(-mu / 2 - t / mu)

    def delta_at(eps):
        mid = mpmath.quad(lambda x: mpmath.exp(-x * inv) * inv / 2 * gauss(eps - (1 - 2 * x) * inv),
                          [0, 0.5, 1])
        return gauss(eps - inv) / 2 + mpmath.exp(-inv) / 2 * gauss(eps + inv) + mid

    lo, hi = mpmath.mpf(0), mpmath.mpf(50)
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if delta_at(mid) > delta else (lo, mid)
    return hi


@pytest.mark.slow
def test_composition_with_a_laplace_release():
    """The edge at n = 100 composed with a Laplace release of scale 2 (LaplaceDpEvent) through
    the PLDAccountant: eps at 1e-6 within 1e-6 of the independent quadrature (1.8270807...);
    the released PLD composed with dp_accounting's Laplace PLD lies within H above it."""
    m = ShiftedLogGaussian(0.05, 1)
    with mpmath.workdps(20):
        mu = formulas.log_gap(100, 1) / m.mp_sigma()
        want = float(_gaussian_laplace_eps(mu, 2.0, 1e-6))
    acc = dpa.pld.PLDAccountant()
    acc.compose(dpa.ComposedDpEvent([m.dp_event(100), dpa.LaplaceDpEvent(2.0)]))
    assert abs(acc.get_epsilon(1e-6) - want) <= EVENT_TOL
    pld = m.pld(100).compose(dpa.pld.privacy_loss_distribution.from_laplace_mechanism(2.0))
    assert want - 1e-9 <= pld.get_epsilon_for_delta(1e-6) <= want + 2 * H


@pytest.mark.parametrize("bad, name", [
    ({"releases": 0}, "releases"), ({"value_discretization_interval": 0}, "value_discretization_interval"),
    ({"value_discretization_interval": 1e-12}, "value_discretization_interval = 1e-12 gives"),
    ({"value_discretization_interval": 1.5}, r"value_discretization_interval must lie in \(0, 1\), got 1.5"),
    ({"n": -1}, "n")])
def test_bad_parameters_are_named(bad, name):
    m = ShiftedLogGaussian(0.05, 1)
    kw = {"n": 10, **bad}
    with pytest.raises(ValueError, match=name):
        m.pld(**kw) if "value_discretization_interval" in bad else m.dp_event(**kw)


def test_missing_package_names_the_extra(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "dp_accounting", None)
    with pytest.raises(ImportError, match=r"countdp\[accounting\]"):
        accounting.dp_accounting()


def test_an_edge_too_far_apart_for_a_float_grid_is_refused_with_its_mu():
    """gap / sigma above 1e6 (n = 1, c = 1, sigma = 1e-7: mu = log 2 / 1e-7 = 6.93e6): the loss
    does not fit a float64 grid, and the message gives that mu."""
    with pytest.raises(ValueError, match=r"the edge at n = 1 has mu = gap/sigma = 6\.93e\+6 above 1e6"):
        accounting.released_pld(mpmath.mpf("1e-7"), 1, 1)


def test_the_rounded_loss_keeps_all_the_mass_when_the_clip_is_near_the_centre():
    """The pmf of the loss d Z + d^2/2 on Z > z_clip, the clipping atom and the mass counted as
    infinite add up to 1: with d < 0 the largest losses sit just above the clip (here at
    z = -0.7, where phi is large), so the top bucket carries mass of order h phi(0.7) / |d|."""
    h = 1e-3
    for d in (-0.5, 0.5):
        pmf, infinite = accounting._loss_pmf(d, -0.7, 0.3, h)
        assert abs(sum(pmf.values()) + infinite - 1) < 1e-12
