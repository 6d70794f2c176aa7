"""Tests of countdp.laws.symmetric: the Fisher information, the score CGF and the check of strict
sub-Gaussianity of the score, on the Airy law (holds), the exponent-3 law (violated) and the
Gaussian (the borderline K_s(u) = I u^2/2)."""

from __future__ import annotations

import math

import pytest
from mpmath import mp

from countdp.laws import airy, symmetric
from countdp.laws.generalised_gaussian import GeneralisedGaussianDensity
from countdp.numerics.estimate import Estimate


US = [1e-4, 1e-3, 1e-2, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0]


@pytest.mark.slow
def test_airy_score_is_strictly_subgaussian():
    check = symmetric.check_score_subgaussian(airy.mp_logpdf, airy.mp_score, US, dps=20, normalised=True)
    assert abs(check.fisher - airy.airy_constants(20).fisher) < mp.mpf("1e-18")
    assert check.holds and not check.violations
    slacks = [r.slack for r in check.rows]
    assert all(b > a for a, b in zip(slacks, slacks[1:]))  # slack grows with u
    # large u: K(u) ~ (4u/3) sqrt(u/2) (Laplace at the peak x = u/2)
    big = check.rows[-1]
    assert abs(big.ratio / (mp.mpf(4) / 3 * mp.sqrt(big.u / 2) / big.u) - 1) < mp.mpf("0.01")
    assert airy.score_cgf(1.0, 20) == check.rows[US.index(1.0)].ratio


def test_negative_control_generalised_gaussian_p3_is_caught():
    check = symmetric.check_score_subgaussian(lambda x: -x**3, lambda x: 3 * x**2, US, dps=20)
    with mp.workdps(20):  # I = 9 E x^4 = 9 Gamma(5/3) / Gamma(1/3)
        assert abs(check.fisher - 9 * mp.gamma(mp.mpf(5) / 3) / mp.gamma(mp.mpf(1) / 3)) < mp.mpf("1e-18")
    assert not check.holds
    assert len(check.violations) > 0


def test_gaussian_is_the_borderline():
    # K_s(u) = u^2/2 = I u^2/2 exactly: neither holds nor violated, at any u
    check = symmetric.check_score_subgaussian(lambda x: -x**2 / 2, lambda x: x, [1e-3, 1.0, 50.0], dps=20)
    assert abs(check.fisher - 1) < mp.mpf("1e-18")
    for r in check.rows:
        assert abs(r.slack) <= r.tol and not r.holds and not r.violated


def test_estimates_and_plain_values():
    f = symmetric.symmetric_fisher_information(airy.mp_logpdf, airy.mp_score, 20, normalised=True, error=True)
    assert f.value == symmetric.symmetric_fisher_information(airy.mp_logpdf, airy.mp_score, 20, normalised=True)
    assert 0 < f.error < mp.mpf("1e-15")
    k = symmetric.symmetric_score_cgf(airy.mp_logpdf, airy.mp_score, 0.5, 20, normalised=True, error=True)
    assert k.value == airy.score_cgf(0.5, 20) and 0 < k.error < mp.mpf("1e-15")


def test_generalised_gaussian_density_as_control_law():
    # exp(-|x|^3) normalised: the same check with the library's control density
    cubic = GeneralisedGaussianDensity(3)
    check = symmetric.check_score_subgaussian(cubic.mp_logpdf, cubic.mp_score, [1, 10, 100], dps=20,
                                              normalised=True)
    with mp.workdps(20):
        assert abs(check.fisher - 9 * mp.gamma(mp.mpf(5) / 3) / mp.gamma(mp.mpf(1) / 3)) < mp.mpf("1e-18")
    assert check.violations


def test_half_line_quad_error_is_floored_at_the_working_precision():
    """mpmath's estimate can be far below the rounding of the integrand (a Gaussian converges at
    once); the bar is floored at 10^-dps of the value, at 30 and at 60 digits."""
    for dps in (30, 60):
        with mp.workdps(dps):
            est = symmetric.half_line_quad(lambda x: mp.exp(-x * x / 2), lambda x: -x * x / 2)
            assert abs(est.value - mp.sqrt(mp.pi / 2)) <= est.error
            assert est.error >= mp.mpf("0.99") * mp.mpf(10) ** -dps * est.value  # (rounded at dps)
            assert est.error < mp.mpf(10) ** (-dps + 2) * est.value


def test_half_line_quad_finds_a_bulk_past_a_stretch_where_the_integrand_vanishes():
    """log|f| = -inf on [0, 0.01], a normal bump at 5 beyond: the breakpoint scan must walk past
    the zeros to the bulk (stopping at the first scan point after the best would leave every
    breakpoint in [0, 2^-8]); the integral is P(Z > 0.01 - 5), within its stated error."""
    from countdp.laws.symmetric import half_line_quad

    with mp.workdps(30):
        def logw(x):
            return -mp.inf if x < mp.mpf("0.01") else -(x - 5) ** 2 / 2 - mp.log(2 * mp.pi) / 2

        e = half_line_quad(lambda x: mp.exp(logw(x)), logw)
        assert abs(e.value - mp.ncdf(5 - mp.mpf("0.01"))) <= e.error < mp.mpf(10) ** -8


def test_an_unnormalised_density_gives_the_same_information_and_relative_bar_at_any_scale():
    """I = 2 int s^2 f / (2 int f) does not change when f is multiplied by K, nor does its
    relative error bar (the bars of both integrals are relative): a Gaussian, I = 1, with K from
    1e-3 to 1e3 at 30 digits; the bar covers |I - 1| and stays within 10^-(dps-1)."""
    bars = []
    with mp.workdps(30):
        for K in ("1e-3", "1", "3", "1e3"):
            lk = mp.log(mp.mpf(K))
            est = symmetric.symmetric_fisher_information(lambda x: -x * x / 2 + lk, lambda x: x, error=True)
            assert abs(est.value - 1) <= est.error <= mp.mpf(10) ** -29, (K, est.value, est.error)
            bars.append(est.error / est.value)
    assert max(bars) <= 1.5 * min(bars), bars


#: (peak m, width s) of a normal log-integrand -((x - m)/s)^2/2: peaks just left and just right of
#: a scan point (1.8, 2.2 around 2), narrow ones (the scan stops one point past the peak), a
#: monotone one (m = 0), one below the scan's first scale, and bulks at 1e5 and 2^500
BULKS = [(0.0, 1.0), (1.8, 0.3), (2.2, 0.3), (1.8, 0.01), (2.2, 0.01), (3e-3, 1e-3), (0.7, 2.0),
         (3.0, 1.0), (50.0, 1.0), (1e5, 10.0), (1e5, 3e3), (2.0**500, 2.0**495)]


@pytest.mark.parametrize("m, s", BULKS)
def test_breakpoints_find_the_peak_and_a_dyadic_window_that_is_neither_short_nor_loose(m, s):
    """The breakpoints of half_line_quad: 0, a lattice of 8-16 cells of width h = 2^k over the
    window where logw is within ``drop`` of its maximum, +inf.  Checked against the known peak
    (the maximum is 0, found to 1e-6), the window's ends (logw has dropped by ``drop`` at both,
    unless it reaches 0) and its extent: the walk out from x* starts at T = max(x*, 1)/16 and
    doubles, so each side reaches at most max(2 d, T) + h past x*, d = s sqrt(2 drop) being
    where the drop is reached."""
    drop = 50.0
    d = s * math.sqrt(2 * drop)

    def logw(x):
        return -((x - m) / s) ** 2 / 2

    pts, fstar = symmetric._breakpoints(logw, drop)
    F = [float(logw(mp.mpf(p))) for p in pts[:-1]]
    assert pts[0] == 0.0 and pts[-1] == math.inf
    assert all(a < b for a, b in zip(pts, pts[1:])), pts
    assert -1e-6 < fstar <= 1e-12, fstar
    h = pts[-2] - pts[-3]
    assert h == 2.0 ** round(math.log2(h)) and all(p % h == 0 for p in pts[1:-1]), (h, pts)
    cells = round((pts[-2] - pts[1]) / h)  # j1 - j0, or one fewer when the lattice starts at h
    assert 7 <= cells <= 17, (cells, pts)
    assert F[-1] <= fstar - drop, (pts[-2], F[-1])               # the window's right end
    assert pts[1] == h or F[1] <= fstar - drop, (pts[1], F[1])   # its left end (or it reaches 0)
    reach = max(2 * d, max(m, 1.0) / 16) + h
    assert pts[-2] - m <= reach * (1 + 1e-9), (pts[-2], reach)
    assert m - (pts[1] if pts[1] > h else 0.0) <= reach + h, (pts[1], reach)
    assert d / 16 <= h, (h, d)


def test_breakpoints_of_a_skewed_bulk_that_vanishes_at_zero():
    """logw = 3 log x - x (the Gamma(4) kernel): -inf at 0, peak 3 log 3 - 3 at x = 3."""
    drop = 40.0

    def logw(x):
        return 3 * mp.log(x) - x if x > 0 else -mp.inf

    pts, fstar = symmetric._breakpoints(logw, drop)
    assert abs(fstar - (3 * math.log(3) - 3)) < 1e-9
    assert float(logw(mp.mpf(pts[-2]))) <= fstar - drop
    assert pts[0] == 0.0 and all(a < b for a, b in zip(pts, pts[1:]))


def _fake_cgf_check(monkeypatch, fisher, rows):
    """check_score_subgaussian with the Fisher information and the score CGF replaced by given
    Estimates: rows is [(u, K/u^2, error of K)], so the decision alone is under test."""
    cgf = {mp.mpf(u): Estimate(mp.mpf(r) * mp.mpf(u) ** 2, mp.mpf(e)) for u, r, e in rows}
    monkeypatch.setattr(symmetric, "symmetric_fisher_information",
                        lambda logf, score, normalised=False, error=False: fisher)
    monkeypatch.setattr(symmetric, "symmetric_score_cgf",
                        lambda logf, score, u, normalised=False, error=False: cgf[mp.mpf(u)])
    return symmetric.check_score_subgaussian(None, None, [u for u, _, _ in rows], dps=30)


def test_subgaussianity_verdicts_need_the_gap_to_exceed_the_summed_error_bars(monkeypatch):
    """I/2 = 1 exactly; a row holds iff K/u^2 + tol < 1 and is violated iff K/u^2 - tol > 1,
    tol = e_K/u^2 + e_I/2 + 8 eps (I/2).  Every comparison below is exact in binary, one ulp
    of a margin either side of each threshold."""
    with mp.workdps(30):
        eps, d = mp.eps, mp.mpf(2) ** -40
        # rounding allowance alone: 8 eps
        chk = _fake_cgf_check(monkeypatch, Estimate(mp.mpf(2), mp.zero), [
            (1, 1 + 8 * eps, 0), (2, 1 + 9 * eps, 0), (3, 1 - 8 * eps, 0), (4, 1 - 9 * eps, 0)])
        assert chk.fisher == 2 and chk.fisher_error == 0
        assert [(r.holds, r.violated) for r in chk.rows] == [
            (False, False), (False, True), (False, False), (True, False)]
        assert [r.tol for r in chk.rows] == [8 * eps] * 4
        assert chk.rows[1].slack == -9 * eps and chk.rows[3].slack == 9 * eps
        assert not chk.holds and chk.violations == [2]
        # the Fisher bar counts half: e_I = 2 d gives tol = d (+ 8 eps)
        chk = _fake_cgf_check(monkeypatch, Estimate(mp.mpf(2), 2 * d), [
            (1, 1 - d * 3 / 2, 0), (2, 1 - d * 3 / 4, 0), (3, 1 + d * 3 / 4, 0),
            (4, 1 + d * 3 / 2, 0)])
        assert [(r.holds, r.violated) for r in chk.rows] == [
            (True, False), (False, False), (False, False), (False, True)]
        # the CGF bar counts over u^2: e_K = 4 d at u = 2 gives d
        chk = _fake_cgf_check(monkeypatch, Estimate(mp.mpf(2), mp.zero), [
            (2, 1 - d * 3 / 2, 4 * d)])
        assert chk.holds and chk.rows[0].tol == d + 8 * eps
        chk = _fake_cgf_check(monkeypatch, Estimate(mp.mpf(2), mp.zero), [
            (2, 1 - d * 3 / 4, 4 * d), (2 ** -3, 1 - d * 3 / 4, d * 2 ** -6)])
        assert [(r.holds, r.violated) for r in chk.rows] == [(False, False)] * 2
        assert not chk.holds and chk.violations == []


def test_a_ratio_over_the_normaliser_carries_both_error_bars():
    """2 h / Z's error covers the worst corner of h +- e_h, Z -/+ e_Z to first order, and is
    no looser than that corner."""
    with mp.workdps(30):
        for hv, eh, zv, ez in [(1, 1e-10, 2, 1e-10), (3, 0, 0.5, 1e-12), (0.25, 1e-12, 1, 0)]:
            h, Z = Estimate(mp.mpf(hv), mp.mpf(eh)), Estimate(mp.mpf(zv), mp.mpf(ez))
            v, err = symmetric._over_normaliser(h, Z)
            assert v == 2 * h.value / Z.value
            corner = 2 * (h.value + h.error) / (Z.value - Z.error) - v
            assert corner * (1 - mp.mpf(1e-6)) <= err <= corner * (1 + mp.mpf(1e-6))
