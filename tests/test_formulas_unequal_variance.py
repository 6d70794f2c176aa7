"""Tests of countdp.formulas.unequal_variance (Section 7): one formula, three number systems
(fp / mp / ball agree to rounding), exact rationals where the formula is rational, and the
closed-form divergence the engine reports."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from flint import arb, ctx, fmpq

from _number_systems import assert_fp_mp_ball_agree
from countdp import formulas
from countdp.divergence.renyi import gaussian_renyi


pytestmark = pytest.mark.mp_dps(30)


# (formula, arguments): each evaluated in fp, mp and ball
POINTS = [
    (formulas.gaussian_renyi_margin, (Fraction(3, 2), 1, Fraction(4, 5))),
    (formulas.gaussian_renyi_margin, (3, 2, Fraction(3, 2))),
    (formulas.gaussian_renyi_threshold, (5, 3)),
    (formulas.gaussian_renyi_threshold, (Fraction(17, 8), Fraction(15, 8))),
    (formulas.gaussian_renyi_divergence, (2, 0, 1, 1, Fraction(6, 5))),
    (formulas.gaussian_renyi_divergence, (10, 1, 1, 0, 2)),
    (formulas.gaussian_renyi_divergence, (Fraction(17, 10), 3, Fraction(3, 2), 2, 1)),
    (formulas.gaussian_kl, (0, 1, 1, 2)),
    (formulas.gaussian_kl, (Fraction(1, 2), 3, 0, 1)),
    (formulas.unequal_variance_threshold, (1,)),
    (formulas.unequal_variance_threshold, (1000,)),
    (formulas.unequal_variance_error, (4, Fraction(1, 2))),
    (formulas.unequal_variance_scale, (7, Fraction(1, 2))),
    (formulas.normal_mass_above, (1, Fraction(1, 2), 0)),
    (formulas.normal_mass_above, (Fraction(1, 2), 3, 2)),
]


@pytest.mark.parametrize("f,args", POINTS, ids=lambda x: getattr(x, "__name__", None))
def test_fp_mp_ball_agree(f, args):
    assert_fp_mp_ball_agree(f, args)


def test_rational_formulas_are_exact():
    assert formulas.unequal_variance_threshold.exact(3) == Fraction(16, 7)
    assert formulas.gaussian_renyi_threshold.exact(5, 3) == Fraction(25, 16)
    assert formulas.gaussian_renyi_margin.exact(Fraction(25, 16), 5, 3) == 0
    assert formulas.gaussian_renyi_margin.exact(Fraction(3, 2), 1, Fraction(6, 5)) == Fraction(83, 50)
    assert formulas.gaussian_renyi_margin.exact(3, 2, Fraction(3, 2)) == Fraction(-5, 4)
    with pytest.raises(TypeError):
        formulas.gaussian_renyi_divergence.exact(2, 0, 1, 1, 2)


def test_threshold_of_the_mechanism_is_lemma71s_threshold():
    """eq (35) is Lemma 7.1's threshold s_P^2/(s_P^2 - s_Q^2) at s_P = r(n+1), s_Q = r n."""
    r = Fraction(1, 2)
    for n in (1, 2, 10, 999):
        assert (formulas.unequal_variance_threshold.exact(n)
                == formulas.gaussian_renyi_threshold.exact(r * (n + 1), r * n))


def test_scale_of_eq33_vanishes_only_at_zero():
    assert formulas.unequal_variance_scale.exact(0, Fraction(1, 2)) == 0
    assert formulas.unequal_variance_scale.exact(4, Fraction(1, 2)) == 2


def test_mass_above_is_the_gaussian_tail_by_quadrature():
    """An independent route: P(N(mu, s^2) > x0) by mpmath quadrature of the density."""
    with mpmath.workdps(30):
        for mu, s, x0 in ((1, mpmath.mpf("0.5"), 0), (0, 2, 1), (-1, 1, 3)):
            tail = mpmath.quad(lambda x: mpmath.npdf(x, mu, s), [x0, mu, mpmath.inf])
            assert abs(formulas.normal_mass_above(mu, s, x0) - tail) < 1e-25
        assert formulas.normal_mass_above(1, mpmath.mpf("0.5"), 0) > mpmath.mpf("0.97")  # Phi(2)


def test_fp_is_vectorised():
    n = np.arange(1, 6)
    assert np.allclose(formulas.unequal_variance_threshold.fp(n), (n + 1) ** 2 / (2 * n + 1), atol=0)


def test_divergence_reduces_to_eq11_at_equal_variances():
    d = formulas.gaussian_renyi_divergence(3, 1, 2, 0, 2)
    assert abs(d - formulas.renyi_equal_variance(3, 1, 0, 2)) < 1e-28


def test_divergence_is_log_of_the_integral_by_quadrature():
    """An independent route: D = log(int p^alpha q^(1-alpha)) / (alpha - 1) by mpmath quadrature."""
    a, mu_p, s_p, mu_q, s_q = mpmath.mpf(2), 0, 1, 1, mpmath.mpf("1.2")
    integral = mpmath.quad(lambda x: mpmath.npdf(x, mu_p, s_p) ** a * mpmath.npdf(x, mu_q, s_q) ** (1 - a),
                           [-mpmath.inf, -5, 0, 5, mpmath.inf])
    assert abs(formulas.gaussian_renyi_divergence(a, mu_p, s_p, mu_q, s_q) - mpmath.log(integral)) < 1e-25


def test_gaussian_renyi_uses_the_formulas():
    d = gaussian_renyi(2, 0, 1, 1, Fraction(6, 5))
    s_q = mpmath.mpf(6) / 5  # as the route stores it, at the working precision
    with mpmath.workdps(60):  # the formula at 60 digits on the same binary parameters
        ref = formulas.gaussian_renyi_divergence(2, 0, 1, 1, s_q)
        kl_ref = formulas.gaussian_kl(0, 1, 1, 2)
    assert d.finite and abs(d.value - ref) <= d.error <= 4 * mpmath.eps * ref
    kl = gaussian_renyi(1, 0, 1, 1, 2)
    assert abs(kl.value - kl_ref) <= kl.error <= 4 * mpmath.eps * kl_ref
    inf = gaussian_renyi(3, 0, 2, 1, Fraction(3, 2))
    assert not inf.finite and "eq 34" in inf.reason
    # at the exact threshold (dyadic): the margin is exactly 0, infinite
    assert not gaussian_renyi(Fraction(25, 16), 0, 5, 1, 3).finite


def test_ball_of_a_fraction_is_exact_input():
    with ctx.workprec(53):
        b = formulas.unequal_variance_threshold.ball(fmpq(3))
    assert b.contains(arb(fmpq(16, 7)))
