"""countdp.formulas.mechanism: each closed form of Sections 3-5 agrees with itself in float64,
mpmath and Arb balls (rounding level), and the Section 4.1 closed form agrees with quadrature."""

import mpmath
import pytest

from _number_systems import assert_fp_mp_ball_agree
from countdp import formulas
from countdp.formulas import mechanism
from countdp.laws import Gaussian
from countdp.laws.expectation import quad_expectation

# binary-exact arguments, so that float64, mpmath and balls evaluate at the same point
POINTS = {
    "sigma": [(0.25, 1.0), (0.0625, 0.125), (0.75, 2.0)],
    "unclipped_release": [(0, 1.0, 0.25, 0.5), (10, 0.125, 0.5, -1.5), (1000, 2.0, 0.125, 3.0)],
    "boundary_budget": [(0.25, 1.0), (0.5, 0.125)],
    "budget_leading": [(7, 0.5), (10**6, 0.125)],
    "gap_leading": [(8,), (10**6,)],
    "corollary_sigma": [(0.25,), (0.0625,)],
    "corollary_budget": [(0, 0.25), (7, 0.5), (10**6, 0.125)],
    "round_up_probability": [(2.25,), (7.75,), (3.0,)],
    "drift_argmin": [(0.5,), (3.0,)],
    "mean_one_drift": [(0.5,), (3.0,)],
    "log_variance": [(0.25,), (2.0,)],
    "log_gap": [(0, 1.0), (1, 0.125), (10, 2.0), (10**6, 0.5)],
    "budget": [(0, 0.25, 1.0), (7, 0.5, 0.125), (10**6, 0.125, 2.0)],
    "error_bound": [(0, 0.25, 1.0), (10, 0.125, 0.5)],
    "target": [(0, 0.5), (12, 0.25)],
    "multiplicative_error": [(0.125,), (1.5,)],
    "half_expectation": [(0.125,), (3.0,)],
    "unclipped_error": [(0, 1.0, 0.25), (10, 0.125, 0.5)],
    "drift_error": [(0.5, 0.25), (0.5, 0.125), (2.0, 0.0), (0.25, 1.0)],
    "drift_error_derivative": [(0.5, 0.125), (2.0, 8.0)],
    "atom_mass": [(0, 1.0, 0.25), (3, 0.125, 0.5)],
    "negative_part": [(0, 0.125, 0.75), (2, 1.0, 0.5)],
    "released_error": [(0, 0.125, 0.75), (10, 1.0, 0.25)],
    "log_mean": [(0, 1.0, 0.25), (999, 0.5, 0.125)],
    "renyi_equal_variance": [(2.0, 0.0, 1.0, 0.5), (1.5, 0.25, -0.75, 2.0)],
    "renyi_counts": [(2.0, 1, 0, 1.0, 0.25), (1.5, 999999, 1000000, 0.125, 0.5), (10.0, 3, 10, 2.0, 0.75)],
}
CASES = [(name, args) for name, pts in POINTS.items() for args in pts]


def test_every_formula_of_the_module_is_exercised():
    defined = {name for name, obj in vars(mechanism).items() if isinstance(obj, type(formulas.sigma))}
    assert defined == set(POINTS)


@pytest.mark.parametrize("name, args", CASES, ids=[f"{n}{a}" for n, a in CASES])
def test_fp_mp_ball_agree(name, args):
    assert_fp_mp_ball_agree(getattr(formulas, name), args, scale=1 if name == "round_up_probability" else 0)


def test_statements_of_the_paper_agree_with_the_general_formulas():
    """eq (5) as stated is the budget at n = 0, 1; Corollary 3.2 is eqs (3), (5)-(6) at c = 1;
    eq (4)'s map of z is the quantile map of eq (10)'s law; rounding has conditional mean y."""
    with mpmath.workdps(30):
        s = formulas.sigma("0.25", 1)
        for c in ("0.1", 1, 2):
            sc = formulas.sigma("0.25", c)
            for n in (0, 1):
                assert abs(formulas.boundary_budget(sc, c) / formulas.budget(n, sc, c) - 1) < mpmath.mpf(10) ** -28
        assert abs(formulas.corollary_sigma("0.25") / s - 1) < mpmath.mpf(10) ** -28
        for n in (0, 1, 2, 10, 10**6):
            assert abs(formulas.corollary_budget(n, s) / formulas.budget(n, s, 1) - 1) < mpmath.mpf(10) ** -28
        for n, c, z in ((0, "0.1", -2), (10, 1, "0.5"), (10**6, 2, 3)):
            mu = formulas.log_mean(n, c, s)
            u = formulas.unclipped_release(n, c, s, z)
            assert abs(u - (mpmath.exp(mu + s * mpmath.mpf(z)) - mpmath.mpf(c))) < mpmath.mpf(10) ** -25 * (n + 1)
    from fractions import Fraction
    for y in (Fraction(0), Fraction(22, 7), Fraction(5), Fraction(99, 10)):
        up = formulas.round_up_probability.exact(y)
        assert (1 - up) * (y.numerator // y.denominator) + up * (y.numerator // y.denominator + 1) == y


@pytest.mark.slow
def test_drift_error_closed_form_against_quadrature():
    with mpmath.workdps(30):
        for s, a in [(0.3, 0.09), (0.3, 0.045), (1.5, 0.2), (0.01, 0.0)]:
            q, err = quad_expectation(Gaussian(-a, s), lambda w: abs(mpmath.exp(w) - 1), breaks=[0])
            assert abs(q - formulas.drift_error(s, a)) <= err + mpmath.mpf(10) ** -25
        assert abs(formulas.drift_error(0.7, mpmath.mpf(0.49)) - formulas.multiplicative_error(0.7)) < mpmath.mpf(10) ** -25
