"""Tests of countdp.formulas.lower_bound_cstar: each closed form agrees in fp / mp / ball to
rounding, and the identities between them hold (summands = ratios x Hellinger term, the margin =
y x its slope, the assembled bound tends to its limit)."""

from __future__ import annotations

import mpmath
import pytest

from _number_systems import assert_fp_mp_ball_agree
from countdp import formulas
import countdp.formulas.lower_bound_cstar
from countdp.numerics.contexts import Formula

pytestmark = pytest.mark.mp_dps(30)

FORMULAS = [f for f in vars(countdp.formulas.lower_bound_cstar).values()
            if isinstance(f, Formula) and f.__module__ == "countdp.formulas.lower_bound_cstar"]

ARGS = {
    "one_sided_summand": ("0.3", "0.7"), "symmetric_summand": ("0.3", "0.7"), "hellinger_summand": ("0.3", "0.7"),
    "symmetric_site_gradient": ("-0.2", "0.3"), "one_sided_site_gradient": ("-0.2", "0.3"),
    "dirichlet_site_gradient": ("-0.2", "0.3"), "one_sided_ratio": ("0.6",), "one_sided_constant": ("0.9",),
    "symmetric_ratio": ("0.4",), "discrete_laplace_mean_abs": ("0.5",), "continuum_dirichlet_minimum": ("3",),
    "interpolation_bound": ("0.01", "5"), "lattice_dirichlet_bound": ("5",), "interpolation_margin": ("0.25",),
    "interpolation_margin_slope": ("0.25",), "prior_mean_excess": ("0.9",), "prior_shift_kl_bound": ("0.9",),
    "assembled_bound": (100, "0.1", "0.9", "0.95"), "assembled_limit": ("0.01", "0.5", "0.5"),
}


# R(s) and kappa(q) lose about 2 log10(1/|s - 1|) digits to cancellation near s = 1 (documented in the
# formula), so the fp comparison uses ratios away from 1; the checks evaluate them in mpmath at extra digits


def test_every_formula_has_arguments():
    assert {f.__name__ for f in FORMULAS} == set(ARGS)


@pytest.mark.parametrize("f", FORMULAS, ids=lambda f: f.__name__)
def test_fp_mp_ball_agree(f):
    assert_fp_mp_ball_agree(f, ARGS[f.__name__])


@pytest.mark.parametrize("a,b", [("0.3", "0.7"), ("2", "1e-3"), ("1.0001", "1")])
def test_summands_are_ratios_times_the_hellinger_term(a, b):
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    h = formulas.hellinger_summand(a, b)
    y = mpmath.log(a / b) / 4
    assert formulas.symmetric_summand(a, b) == pytest.approx(4 * h * formulas.symmetric_ratio(y), rel=1e-25, abs=0)
    s = mpmath.sqrt(a / b)
    assert formulas.one_sided_summand(a, b) == pytest.approx(2 * h * formulas.one_sided_ratio(s), rel=1e-20, abs=0)


def test_margin_is_y_times_its_slope():
    for y in ("0.01", "0.2", "0.5"):
        y = mpmath.mpf(y)
        assert formulas.interpolation_margin(y) == pytest.approx(y * formulas.interpolation_margin_slope(y), rel=1e-25, abs=0)


def test_site_gradients_sum_to_the_objective():
    # Euler: F(p) = sum_k p_k W(k) for a geometric law p_k ~ e^{-u|k|} (u_k = -u left of 0, +u right)
    u = mpmath.mpf("0.3")
    ks = range(-200, 201)
    p = [mpmath.exp(-u * abs(k)) for k in ks]
    logs = [-u * abs(k) for k in ks]
    for kind, summand in (("symmetric", lambda a, b: formulas.symmetric_summand(a, b) / 2),
                          ("one-sided", formulas.one_sided_summand)):
        grad = {"symmetric": formulas.symmetric_site_gradient, "one-sided": formulas.one_sided_site_gradient}[kind]
        F = mpmath.fsum(summand(p[i - 1], p[i]) for i in range(1, len(p)))
        W = mpmath.fsum(p[i] * grad(logs[i - 1] - logs[i], logs[i] - logs[i + 1]) for i in range(1, len(p) - 1))
        assert F == pytest.approx(W, rel=1e-20, abs=0), kind


def test_assembled_bound_tends_to_its_limit():
    r, eps, q = mpmath.mpf("0.1"), mpmath.mpf("0.5"), mpmath.mpf("0.9")
    N = mpmath.mpf(10) ** 16
    rho = eps * N / (eps * N + 3)
    val = r * r * N * N * formulas.assembled_bound(N, r, q, rho)
    assert val == pytest.approx(formulas.assembled_limit(r, eps, q), rel=1e-12, abs=0)


@pytest.mark.parametrize("E, M", [("0.01", "5"), ("0.5", "2"), ("3", "0.5"), ("5.9", "40")])
def test_the_interpolation_bound_is_the_continuum_minimum_rescaled(E, M):
    """The interpolated psi~ has mass m0 = 1 - E/6 and int |x| psi~^2 <= M + 1: normalised,
    int phi'^2 = E/m0 and int |x| phi^2 <= (M + 1)/m0, so the continuum minimum gives
    E/m0 >= c0 m0^2 / (2 (M+1)^2), i.e. 2E >= 2 m0 c0/(2 ((M+1)/m0)^2) = c0 m0^3/(M+1)^2."""
    with mpmath.workdps(40):
        E, M = mpmath.mpf(E), mpmath.mpf(M)
        m0 = 1 - E / 6
        scaled = 2 * m0 * formulas.continuum_dirichlet_minimum.mp((M + 1) / m0)
        assert abs(formulas.interpolation_bound.mp(E, M) / scaled - 1) < mpmath.mpf(10) ** -35
