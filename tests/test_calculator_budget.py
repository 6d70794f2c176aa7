"""countdp.calculator.budget, the budget calculator behind ``countdp budget``: checked against
independent closed forms written here in float64 (scipy), the exact Gaussian profile, a float64
quadrature of the released laws, and round trips of the inverse."""

from __future__ import annotations

import doctest
import math

import mpmath
import pytest
from scipy import integrate, optimize, special, stats

from countdp.calculator import budget, counts
from countdp.calculator.budget import Unreachable, guarantee, solve_r0


# ---- independent float64 closed forms --------------------------------------------------------


def sigma_f(r0, c):
    return math.sqrt(2) * special.erfinv(r0 / (1 + c))


def v_f(n, r0, c):
    """eqs (5)-(6) with v(0) = v(1)."""
    m = max(n, 1)
    return math.log1p(1 / (m - 1 + c)) ** 2 / (2 * sigma_f(r0, c) ** 2)


def gauss_delta_f(mu, eps):
    return stats.norm.cdf(mu / 2 - eps / mu) - math.exp(eps) * stats.norm.cdf(-mu / 2 - eps / mu)


def gauss_eps_f(mu, delta):
    if gauss_delta_f(mu, 0.0) <= delta:
        return 0.0
    return optimize.brentq(lambda e: gauss_delta_f(mu, e) - delta, 0.0, mu * mu + 10 * mu + 10,
                           xtol=1e-14, rtol=1e-14)


def released_delta_f(r0, c, lo, hi, eps):
    """delta(eps) of the released laws at counts lo, hi (both orders), by scipy quadrature in
    w = log(y + c): the atoms at 0 plus int (p - e^eps q)_+ over w > log c."""
    s = sigma_f(r0, c)
    mus = {k: math.log(k + c) - s * s for k in (lo, hi)}
    atoms = {k: stats.norm.cdf((math.log(c) - mus[k]) / s) for k in (lo, hi)}
    best = 0.0
    for a, b in ((lo, hi), (hi, lo)):
        def f(w):
            return max(stats.norm.pdf(w, mus[a], s) - math.exp(eps) * stats.norm.pdf(w, mus[b], s), 0.0)
        pts = sorted({mus[a], mus[b], (mus[a] + mus[b]) / 2})
        val = integrate.quad(f, math.log(c), max(mus.values()) + 40 * s, points=[p for p in pts if p > math.log(c)],
                             limit=400, epsabs=1e-14)[0]
        best = max(best, val + max(atoms[a] - math.exp(eps) * atoms[b], 0.0))
    return best


# ---- the documented examples ----------------------------------------------------------------


@pytest.mark.slow
def test_doctests():
    res = [doctest.testmod(m, optionflags=doctest.ELLIPSIS) for m in (budget, counts)]
    assert sum(r.attempted for r in res) >= 10 and sum(r.failed for r in res) == 0


def test_the_documented_example():
    """r0 = 0.05, c = 1, n = 10, delta = 1e-6: exact 18.48 < CKS 19.56 < Bun-Steinke 20.61."""
    row = guarantee(0.05, 1, 10, delta=1e-6).rows[0]
    assert [cv.method for cv in row.conversions] == ["exact", "cks", "bun-steinke"]
    assert [round(float(cv.eps), 2) for cv in row.conversions] == [18.48, 19.56, 20.61]
    assert row.eps == row.conversions[0].eps and row.edge == (9, 10)


# ---- forward: against independent closed forms ------------------------------------------------


@pytest.mark.parametrize("r0, c", [(0.05, 1.0), (0.45, 0.1), (0.01, 10.0)])
@pytest.mark.parametrize("n", [0, 1, 2, 10, 1000, 10 ** 6])
def test_v_and_bun_steinke_against_closed_forms(r0, c, n):
    row = guarantee(r0, c, n, delta=1e-6, releases=3).rows[0]
    v = v_f(n, r0, c)
    assert float(row.v) == pytest.approx(v, rel=1e-12, abs=0)
    assert float(row.rho) == pytest.approx(3 * v, rel=1e-12, abs=0)
    bs = next(cv for cv in row.conversions if cv.method == "bun-steinke")
    rho = 3 * v
    assert float(bs.eps) == pytest.approx(rho + 2 * math.sqrt(rho * math.log(1e6)), rel=1e-12, abs=0)


@pytest.mark.parametrize("r0, c, n", [(0.05, 1.0, 10), (0.05, 1.0, 1000), (0.3, 0.5, 5),
                                      (0.01, 10.0, 100)])
@pytest.mark.parametrize("k", [1, 4])
def test_exact_is_the_gaussian_profile_where_clipping_is_negligible(r0, c, n, k):
    """Where the atom at 0 is negligible the exact profile is the Gaussian one in log(y + c),
    distance mu = sqrt(k) log((n+c)/(n-1+c))/sigma: eps(delta) and delta(eps) against scipy."""
    mu = math.sqrt(k) * math.log1p(1 / (n - 1 + c)) / sigma_f(r0, c)
    row = guarantee(r0, c, n, delta=1e-6, eps=1.0, releases=k).rows[0]
    ex = next(cv for cv in row.conversions if cv.method == "exact")
    assert not ex.upper_bound and ex.how.startswith("closed form")
    assert float(ex.eps) == pytest.approx(gauss_eps_f(mu, 1e-6), rel=1e-9, abs=1e-12)
    assert float(ex.delta) == pytest.approx(gauss_delta_f(mu, 1.0), rel=1e-9, abs=1e-15)


@pytest.mark.slow
def test_exact_by_quadrature_where_clipping_matters():
    """r0 = 0.9, c = 0.05: at n = 1 and 2 the release at the lower count is clipped with large mass;
    the calculator integrates the released laws; scipy's float64 quadrature agrees."""
    for n in (1, 2):
        row = guarantee(0.9, 0.05, n, eps=1.0, delta=1e-3).rows[0]
        ex = next(cv for cv in row.conversions if cv.method == "exact")
        assert "quadrature" in ex.how and not ex.upper_bound
        lo, hi = budget.edge(n)
        assert float(ex.delta) == pytest.approx(released_delta_f(0.9, 0.05, lo, hi, 1.0), rel=1e-7, abs=0)
        # the eps at delta is where that profile crosses delta
        d = released_delta_f(0.9, 0.05, lo, hi, float(ex.eps))
        assert d == pytest.approx(1e-3, rel=1e-5, abs=0)
        # and clipping can only help: below the Gaussian profile
        mu = math.log1p(1 / (n - 1 + 0.05)) / sigma_f(0.9, 0.05)
        assert float(ex.eps) <= gauss_eps_f(mu, 1e-3) + 1e-9


@pytest.mark.parametrize("r0, c", [(0.05, 1.0), (0.45, 0.1), (0.9, 0.05), (0.01, 100.0)])
@pytest.mark.slow
def test_conversions_are_ordered_tightest_first(r0, c):
    for row in guarantee(r0, c, "0:1e5:log2", delta=1e-5, eps=0.5).rows:
        eps = [float(cv.eps) for cv in row.conversions]
        assert eps == sorted(eps)
        by = {cv.method: cv for cv in row.conversions}
        assert float(by["exact"].eps) <= float(by["cks"].eps) * (1 + 1e-12) + 1e-12
        assert float(by["cks"].eps) <= float(by["bun-steinke"].eps) * (1 + 1e-12) + 1e-12
        assert float(by["exact"].delta) <= float(by["cks"].delta) * (1 + 1e-9) + 1e-15
        assert float(by["cks"].delta) <= float(by["bun-steinke"].delta) * (1 + 1e-12) + 1e-15


def test_bun_steinke_delta_inverts_its_eps():
    row = guarantee(0.05, 1, 100, delta=1e-6).rows[0]
    bs = next(cv for cv in row.conversions if cv.method == "bun-steinke")
    row2 = guarantee(0.05, 1, 100, eps=bs.eps).rows[0]
    bs2 = next(cv for cv in row2.conversions if cv.method == "bun-steinke")
    assert float(bs2.delta) == pytest.approx(1e-6, rel=1e-10, abs=0)


def test_composition_with_a_large_clipped_mass_is_an_upper_bound():
    row = guarantee(0.9, 0.05, 1, delta=1e-6, releases=3).rows[0]
    ex = next(cv for cv in row.conversions if cv.method == "exact")
    assert ex.upper_bound and ex.eps_lower <= ex.eps and "upper bound" in ex.label
    mu = math.sqrt(3) * math.log1p(1 / 0.05) / sigma_f(0.9, 0.05)
    assert float(ex.eps) == pytest.approx(gauss_eps_f(mu, 1e-6), rel=1e-9, abs=0)


def test_expected_error_against_quadrature():
    """E|Y - n| of the released count (scipy quadrature in z) and the bound of Theorem 3.1(i)."""
    r0, c = 0.45, 0.1
    s = sigma_f(r0, c)
    for n in (0, 1, 3, 50):
        row = guarantee(r0, c, n).rows[0]

        def g(z):
            y = max((n + c) * math.exp(s * z - s * s) - c, 0.0)
            return abs(y - n) * stats.norm.pdf(z)
        val = integrate.quad(g, -40, 40, points=[(math.log(c / (n + c)) + s * s) / s, s], limit=200)[0]
        assert float(row.expected_error) == pytest.approx(val, rel=1e-8, abs=1e-12)
        assert float(row.expected_error) <= float(row.error_bound) * (1 + 1e-15)
        assert float(row.error_bound) == pytest.approx(r0 * (n + c) / (1 + c), rel=1e-14, abs=0)


def test_full_range_and_no_inf():
    row = guarantee(1e-300, 1, 10, delta=1e-6).rows[0]
    assert mpmath.nstr(row.v, 5) == "1.1566e+598"
    assert row.eps > 10 ** 597 and [cv.method for cv in row.conversions][0] == "bun-steinke"
    assert {cv.method for cv in row.conversions if cv.eps is None} == {"exact", "cks"}
    row = guarantee(0.1, 1, 10 ** 400, delta=1e-6).rows[0]
    assert row.eps == 0 and mpmath.nstr(row.v, 3) == "1.27e-798"
    row = guarantee(0.1, 1e300, 10, delta=1e-6).rows[0]  # c >> n: no cancellation in the atom mass
    ex = next(cv for cv in row.conversions if cv.method == "exact")
    mu = math.log1p(1 / (9 + 1e300)) / sigma_f(0.1, 1e300)
    assert float(ex.eps) == pytest.approx(gauss_eps_f(mu, 1e-6), rel=1e-9, abs=0)


# ---- the inverse -----------------------------------------------------------------------------


@pytest.mark.parametrize("n, c, k, rho", [(10, 1.0, 1, 0.5), (100, 1.0, 4, 0.5), (1000, 0.1, 1, 0.5),
                                          (0, 5.0, 2, 2.0)])
def test_solve_target_rho_closed_form(n, c, k, rho):
    s = solve_r0(n, c, target_rho=rho, releases=k)
    sigma = math.log1p(1 / (max(n, 1) - 1 + c)) / math.sqrt(2 * rho / k)
    assert float(s.sigma) == pytest.approx(sigma, rel=1e-12, abs=0)
    assert float(s.r0) == pytest.approx((1 + c) * special.erf(sigma / math.sqrt(2)), rel=1e-12, abs=0)
    assert float(s.row.rho) == pytest.approx(rho, rel=1e-20, abs=0)
    assert float(s.row.error_bound) == pytest.approx(float(s.r0) * (n + c) / (1 + c), rel=1e-14, abs=0)


@pytest.mark.parametrize("via", ["exact", "cks", "bun-steinke"])
@pytest.mark.parametrize("n, k", [(100, 1), (1000, 3)])
def test_solve_target_eps_round_trip(via, n, k):
    s = solve_r0(n, 1.0, target_eps=1.0, delta=1e-6, releases=k, via=via)
    row = guarantee(s.r0, 1.0, n, delta=1e-6, releases=k).rows[0]
    got = next(cv for cv in row.conversions if cv.method == via)
    # r0 is rounded to the working 15 digits and eps(r0) amplifies that a few times
    assert float(got.eps) == pytest.approx(1.0, rel=1e-13, abs=0)
    if via == "bun-steinke":  # independent: rho = (sqrt(L + eps) - sqrt(L))^2
        L = math.log(1e6)
        assert float(row.rho) == pytest.approx((math.sqrt(L + 1) - math.sqrt(L)) ** 2, rel=1e-12, abs=0)
    if via == "exact":  # independent: the Gaussian profile
        mu = math.sqrt(2 * float(row.rho))
        assert gauss_delta_f(mu, 1.0) == pytest.approx(1e-6, rel=1e-8, abs=0)
    assert row.eps <= got.eps  # the tightest is at most the one solved with


def test_solve_tightest_needs_least_noise():
    """The same target: the exact profile needs the smallest r0 (least error), Bun-Steinke the largest."""
    r = {v: float(solve_r0(100, 1.0, target_eps=1.0, delta=1e-6, via=v).r0)
         for v in ("exact", "cks", "bun-steinke")}
    assert r["exact"] < r["cks"] < r["bun-steinke"]


def test_unreachable_targets():
    with pytest.raises(Unreachable, match="target unreachable.*r0 must stay below r = 0.1.*best"):
        solve_r0(10, 1.0, target_rho=0.01, r=0.1)
    with pytest.raises(ValueError, match="needs r0 = 2"):
        solve_r0(1, 1.0, target_eps=0.1, delta=1e-6)
    with pytest.raises(ValueError, match="exactly one"):
        solve_r0(1, 1.0)
    with pytest.raises(ValueError, match="needs delta"):
        solve_r0(1, 1.0, target_eps=1)


@pytest.mark.parametrize("via", ["exact", "cks", "bun-steinke"])
def test_an_unreachable_target_names_the_best_an_admissible_r0_reaches(via):
    """The message's best guarantee is the one at r0 -> r (here r = 0.1, two releases): rho, and
    eps by the conversion asked for, against guarantee() just below r (the message shows 5 digits)."""
    near = guarantee(0.1 * (1 - 1e-12), 1.0, 10, delta=1e-6, releases=2).rows[0]
    with pytest.raises(Unreachable) as exc:
        solve_r0(10, 1.0, target_rho=0.001, r=0.1, releases=2)
    best = float(str(exc.value).split("reaches there is rho = ")[1].split(" ")[0])
    assert best == pytest.approx(float(near.rho), rel=1e-4, abs=0)
    with pytest.raises(Unreachable) as exc:
        solve_r0(10, 1.0, target_eps=0.01, delta=1e-6, r=0.1, releases=2, via=via)
    best = float(str(exc.value).split("reaches there is eps = ")[1].split(" ")[0])
    want = next(cv for cv in near.conversions if cv.method == via)
    assert best == pytest.approx(float(want.eps), rel=1e-4, abs=0)


def test_the_parameters_checks_are_the_library_s():
    """releases, delta, eps and the targets: one check each, which guarantee and solve_r0 run."""
    assert budget.check_releases(3) == 3 and budget.check_delta(0.5) == 0.5 and budget.check_eps(0) == 0
    for bad, name in ((lambda: guarantee(0.05, 1, 10, releases=0), "releases"),
                      (lambda: guarantee(0.05, 1, 10, releases=10 ** 9 + 1), "releases"),
                      (lambda: guarantee(0.05, 1, 10, delta=1), "delta"),
                      (lambda: guarantee(0.05, 1, 10, eps=-1), "eps"),
                      (lambda: solve_r0(10, 1, target_rho=0), "target_rho"),
                      (lambda: solve_r0(10, 1, target_eps=0, delta=1e-6), "target_eps"),
                      (lambda: solve_r0(10, -0.5, target_rho=0.5), "c"),
                      (lambda: solve_r0(10, 0, target_rho=0.5), "c")):
        with pytest.raises(ValueError, match=f"^{name} must"):
            bad()


def test_precision_is_the_ambient_one():
    """dps=None (the default) computes at mpmath's working precision, and records it."""
    with mpmath.workdps(40):
        b = guarantee(0.05, 1, 10, delta=1e-6)
        s = solve_r0(100, 1, target_rho=0.5)
    assert b.dps == 40 and s.budget.dps == 40
    assert guarantee(0.05, 1, 10, delta=1e-6, dps=40).rows[0].eps == b.rows[0].eps


@pytest.mark.parametrize("n", [1, 2])
def test_delta_at_eps_alone_is_integrated_where_clipping_matters(n):
    """The same clipped releases with eps alone asked for (no delta): the clipped mass keeps the
    Gaussian profile from being the answer on its own, so delta comes from the quadrature too,
    with a non-negative error bar that covers scipy's value."""
    row = guarantee(0.9, 0.05, n, eps=1.0).rows[0]
    ex = next(cv for cv in row.conversions if cv.method == "exact")
    assert "quadrature" in ex.how
    lo, hi = budget.edge(n)
    assert ex.delta_error >= 0
    assert float(ex.delta) == pytest.approx(released_delta_f(0.9, 0.05, lo, hi, 1.0), rel=1e-7, abs=0)


def test_the_edge_of_a_count_is_the_pair_below_it_and_zero_ones_is_zero_one():
    assert budget.edge(0) == (0, 1)
    assert [budget.edge(n) for n in (1, 2, 10)] == [(0, 1), (1, 2), (9, 10)]
