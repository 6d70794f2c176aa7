"""countdp.divergence.product: the Renyi divergence of a product law by quadrature of the joint
law, with the float64 (scipy) and mpmath integrators."""

from __future__ import annotations

import math

import pytest

from countdp.mechanisms import ShiftedLogGaussian
from countdp.divergence.product import FloatIntegrator, MpIntegrator, renyi_product
from countdp.divergence.renyi import renyi
from countdp.laws import Gaussian, PointMass


pytestmark = pytest.mark.mp_dps(30)


@pytest.mark.parametrize("bad", [
    lambda: renyi_product([Gaussian(0, 1)], [Gaussian(1, 1)], 2, FloatIntegrator()),
    lambda: renyi_product([Gaussian(0, 1)] * 2, [Gaussian(1, 1)] * 2, 1, FloatIntegrator()),
])
def test_bad_input_raises_value_error(bad):
    with pytest.raises(ValueError):
        bad()


INTEGRATORS = [pytest.param(FloatIntegrator(), id="float"), pytest.param(MpIntegrator(), id="mpmath")]


@pytest.mark.parametrize("integrator", INTEGRATORS)
@pytest.mark.slow
def test_joint_2d_of_unclipped_pair_is_the_sum_of_budgets(integrator):
    m1, m2 = ShiftedLogGaussian(0.2, 1.0), ShiftedLogGaussian(0.45, 2.0)
    n, alpha = 5, 3
    J = renyi_product([m1.unclipped_law(n), m2.unclipped_law(n)],
                      [m1.unclipped_law(n - 1), m2.unclipped_law(n - 1)], alpha, integrator)
    target = float(alpha * (m1.mp_v(n) + m2.mp_v(n)))
    assert abs(J.value - target) <= J.error + 1e-12 * target


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_joint_2d_of_released_pair_is_the_sum_of_1d_divergences(integrator):
    """Atoms x atoms, atom lines and the plane together: additivity over independent coordinates."""
    m1, m2 = ShiftedLogGaussian(0.2, 1.0), ShiftedLogGaussian(0.45, 1.0)
    n, alpha = 3, 2
    J = renyi_product([m1.released_law(n), m2.released_law(n)],
                      [m1.released_law(n - 1), m2.released_law(n - 1)], alpha, integrator)
    d1 = renyi(m1.released_law(n), m1.released_law(n - 1), alpha, method="quadrature")
    d2 = renyi(m2.released_law(n), m2.released_law(n - 1), alpha, method="quadrature")
    assert abs(J.value - float(d1.value + d2.value)) <= J.error + float(d1.error + d2.error) + 1e-12


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_joint_2d_with_an_atom_missing_from_q_is_infinite(integrator):
    J = renyi_product([PointMass(0), Gaussian(0, 1)], [PointMass(1), Gaussian(0, 1)], 2, integrator)
    assert math.isinf(J.value) and J.reason


def test_the_two_integrators_agree_on_a_released_histogram():
    """The float64 and mpmath integrators of the one split agree within their error bars."""
    m = ShiftedLogGaussian(0.45, 1.0)
    Ps, Qs = [m.released_law(1), m.released_law(5)], [m.released_law(0), m.released_law(5)]
    f, g = renyi_product(Ps, Qs, 2, FloatIntegrator()), renyi_product(Ps, Qs, 2, MpIntegrator())
    assert abs(f.value - float(g.value)) <= f.error + float(g.error)


def test_a_density_part_missing_from_q_is_infinite():
    J = renyi_product([Gaussian(0, 1), PointMass(0)], [PointMass(0), PointMass(0)], 2, MpIntegrator())
    assert math.isinf(J.value) and "density" in J.reason


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_the_product_error_bar_is_relative_to_the_value_not_the_integral(integrator):
    """Two Gaussian coordinates: D_2 = 2 (d1^2 + d2^2)/2 in closed form; the error bar is the
    quadrature's relative error over alpha - 1 plus the float floor, tiny -- never of the size of
    the integral itself (a tolerance that large would accept any value)."""
    Ps, Qs = [Gaussian(0, 1), Gaussian(0, 2)], [Gaussian(1, 1), Gaussian(1, 2)]
    d = renyi_product(Ps, Qs, 2, integrator)
    exact = 2 * (1 + 0.25) / 2
    assert abs(float(d.value) - exact) <= float(d.error)
    assert float(d.error) < 1e-9


@pytest.mark.parametrize("integrator", [FloatIntegrator, MpIntegrator])
@pytest.mark.parametrize("alpha", [1.5, 2, 5])
def test_the_integral_error_is_carried_into_the_divergence(integrator, alpha):
    """D = log(I)/(alpha - 1): an error e of I moves D by about e / (I (alpha - 1)), measured here
    as the change of D itself; the bar covers it and is not more than 1 % above it (plus the
    float floor 1e-13 (1 + |D|) of the float route)."""
    total, err = 3.0, 1e-6
    d = integrator.divergence(total, err, alpha)
    moved = abs(float(integrator.divergence(total + err, 0, alpha).value) - float(d.value))
    floor = 1e-13 * (1 + abs(float(d.value))) if integrator is FloatIntegrator else 0
    assert moved <= float(d.error) <= 1.01 * moved + floor


@pytest.mark.slow
def test_the_product_of_two_logistic_pairs_is_additive():
    """Densities read through their generic log density: D_alpha of the product is the sum of
    the two 1-D divergences by the mpmath integrator.  The float64 one cuts at 12 scales, which
    is negligible for Gaussian tails only: for these it lost 1.5e-5 of D against an estimate of
    1e-13, and it refuses them."""
    from countdp.laws.reference import Logistic

    alpha = 2
    P1, Q1, P2, Q2 = Logistic(0, 1), Logistic(0.5, 1), Logistic(0, 0.5), Logistic(0.3, 0.5)
    J = renyi_product([P1, P2], [Q1, Q2], alpha, MpIntegrator())
    d1, d2 = renyi(P1, Q1, alpha), renyi(P2, Q2, alpha)
    assert abs(J.value - (d1.value + d2.value)) <= J.error + d1.error + d2.error
    assert J.error < 1e-11   # the plane at half the working precision: 10^-12
    with pytest.raises(ValueError, match="component 1: the float64 integrator cuts the densities at 12 "
                                         "scales, negligible for Gaussian tails only"):
        renyi_product([P1, P2], [Q1, Q2], alpha, FloatIntegrator())
    with pytest.raises(ValueError, match="component 2: the float64 integrator cuts"):
        renyi_product([Gaussian(0, 1), P2], [Gaussian(1, 1), Q2], alpha, FloatIntegrator())


def test_a_line_integral_beyond_the_margin_makes_the_product_infinite():
    """An atom in one coordinate, Gaussians of variances 4 and 1 in the other: at alpha = 3 the
    line's integrand grows in the tails (eq 34), so D is infinite, saying why."""
    J = renyi_product([PointMass(0), Gaussian(0, 2)], [PointMass(0), Gaussian(0, 1)], 3, MpIntegrator())
    assert math.isinf(J.value) and "tail" in J.reason


@pytest.mark.parametrize("value", [1e-3, 1.0, 50.0, 600.0])
def test_the_float_divergence_bar_keeps_its_relative_floor_at_every_size(value):
    """log(total)/(alpha - 1) from float64 sums carries at least 10^-13 of its value (and of 1)
    whatever the size of D: a bar falling like 1/D above D = 1 would be below the rounding."""
    alpha = 2.0
    d = FloatIntegrator.divergence(math.exp(value * (alpha - 1)), 0.0, alpha)
    assert d.value == pytest.approx(value, rel=1e-12, abs=1e-15)
    assert d.error >= 1e-13 * max(1.0, abs(d.value)) and d.error <= 1e-12 * (1 + abs(d.value))


@pytest.mark.parametrize("law", [
    pytest.param(lambda: ShiftedLogGaussian(0.45, 1.0).released_law(3).density.restricted_to_positive(),
                 id="log-shift cut at log c"),
    pytest.param(lambda: ShiftedLogGaussian(0.45, 1.0).unclipped_law(3).density, id="log-shift uncut"),
    pytest.param(lambda: Gaussian(0.5, 2.0).density, id="gaussian"),
])
def test_float_log_density_of_t_is_the_laws_own(law):
    """The float integrand of the t coordinate is the density's mpmath one, -inf below its cut."""
    from countdp.divergence.product import _float_log_t
    d = law()
    f = _float_log_t(d)
    t_lo = d.t_range()[0]
    ts = [t_lo - 1.0, t_lo - 1e-9, t_lo, t_lo + 1e-9, t_lo + 0.5] if math.isfinite(t_lo) else [-5.0, 0.0, 2.0]
    for t in ts:
        want = float(d.mp_log_integrand_t(t))
        got = f(t)
        assert got == want if math.isinf(want) else got == pytest.approx(want, rel=1e-12, abs=1e-12), t
