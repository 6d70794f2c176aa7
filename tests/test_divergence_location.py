"""Tests of countdp.divergence.location: the engine's evaluator for location pairs of a symmetric
log-concave law (the Airy law), against its own mpmath route, against the generic density
quadrature, and the score-CGF bound of the large-alpha end.

Tolerances: the float64 evaluator is compared with mpmath at 1e-13 relative (its stated floor is
2e-13: scipy's Airy functions)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from countdp.divergence import location
from countdp.divergence.tight_rho import mp_renyi, renyi_curve, tight_rho
from countdp.laws import Gaussian, airy

I_HALF = airy.float_constants().fisher / 2
SCAN = dict(alpha_min=Fraction(1) + Fraction(1, 10**8), points_per_decade=4, refine=False, precise=False)


pytestmark = pytest.mark.mp_dps(30)


def pair(delta):
    return airy.AiryLaw(), airy.AiryLaw(t=delta)


def test_location_pair_detection():
    fam, shift = location.location_pair(airy.AiryLaw(2.0, 1.0), airy.AiryLaw(2.0, 0.5))
    assert fam is airy.STANDARD and shift == mpmath.mpf("0.25")
    assert location.location_pair(airy.AiryLaw(2.0, 1.0), airy.AiryLaw(1.0, 0.5)) is None  # scales differ
    assert location.location_pair(airy.AiryLaw(), Gaussian(0, 1)) is None


@pytest.mark.parametrize("delta", [1e-5, 0.01, 1.0, 30.0])
@pytest.mark.slow
def test_float_kl_vs_mpmath(delta):
    d = location.location_loss_cgf(airy.STANDARD, mpmath.mpf(delta))
    kl, e = d.kl_float().value, d.kl_float().error
    kl_mp = mp_renyi(*pair(delta), 1)
    assert abs(kl - float(kl_mp.value)) <= 1e-13 * kl
    assert e >= abs(kl - float(kl_mp.value)) * 0.5 or abs(kl - float(kl_mp.value)) < 1e-15 * kl
    # the precise KL carries a bar: at least its relative floor 10^-dps, and small
    assert mpmath.mpf(10) ** -30 * kl_mp.value <= kl_mp.error <= mpmath.mpf(10) ** -20 * kl_mp.value


@pytest.mark.parametrize("delta,alpha", [(0.01, 30.0), (1.0, 3.0), (1.0, 1.001)])
def test_float_renyi_vs_mpmath(delta, alpha):
    D = renyi_curve(*pair(delta), [alpha])
    Dm = mp_renyi(*pair(delta), alpha)
    assert abs(D.value[0] - float(Dm.value)) <= 1e-12 * D.value[0] + D.error[0]


@pytest.mark.parametrize("delta,alpha", [(0.3, 2.0), (1.0, 40.0), (4.0, 200.0)])
def test_location_and_density_evaluators_agree(delta, alpha):
    a = renyi_curve(*pair(delta), [alpha])
    b = renyi_curve(*pair(delta), [alpha], location=False)
    assert abs(a.value[0] - b.value[0]) <= a.error[0] + b.error[0] + 1e-13 * a.value[0]


def test_both_directions_are_one():
    r = tight_rho(pair(0.2), **SCAN)
    forward, reverse = r.directions
    assert forward.label == "P||Q" and reverse.label == "Q||P" and "equal to P||Q" in reverse.route
    assert forward.value == reverse.value
    back = tight_rho(pair(0.2)[::-1], **SCAN)
    assert back.value == r.value


@settings(max_examples=8, deadline=None)
@given(delta=st.floats(min_value=1e-4, max_value=20.0))
def test_sup_at_kl_end_and_below_fisher_bound(delta):
    s = tight_rho(pair(delta), **SCAN).best()
    assert s.attained_at_one
    assert float(np.max(s.ratios)) <= float(s.kl) * (1 + 1e-12)
    assert s.end.bound < s.kl
    assert float(s.kl) / delta ** 2 <= I_HALF * (1 + 1e-12)
    assert s.slope_at_one.value < 0


def test_tail_bound_is_a_bound():
    # (alpha - 1) D_alpha <= K_s(alpha delta) at a few orders
    for delta, alpha in ((0.3, 5.0), (1.0, 2.0), (0.01, 200.0)):
        D = renyi_curve(*pair(delta), [alpha])
        K = airy.score_cgf_float(alpha * delta)
        assert (alpha - 1) * D.value[0] <= K.value * (1 + 1e-12)


def test_natural_end_and_its_bound():
    d = location.location_loss_cgf(airy.STANDARD, mpmath.mpf("0.1"))
    kl, e = d.kl_float().value, d.kl_float().error
    A = d.natural_alpha_max(kl, e)
    assert A == pytest.approx(20.0, rel=1e-6, abs=0) and d.large_alpha_end(A).bound < kl
    assert d.large_alpha_end(A / 4).bound > kl            # the bound closes the end only from A on
    assert np.isinf(float(d.d_inf().value)) and "unbounded" in d.d_inf().how


def test_bad_shift():
    with pytest.raises(ValueError, match="^t "):
        pair(float("nan"))


@pytest.mark.parametrize("delta", ["0.05", "0.5"])
def test_the_folded_second_moment_of_the_loss_matches_the_quadrature_on_the_line(delta):
    """E_f L^2 (L = log f(x) - log f(x - Delta)) on the folded nodes, (E^2 + O^2)/2, against
    mpmath quadrature of f L^2 on the line at 30 digits (split at the kinks 0 and Delta)."""
    d = location.location_loss_cgf(airy.STANDARD, mpmath.mpf(delta))
    m2 = d.second_moment()
    D = mpmath.mpf(delta)
    with mpmath.workdps(30):
        def g(x):
            lp = airy.mp_logpdf(x)
            return mpmath.exp(lp) * (lp - airy.mp_logpdf(x - D)) ** 2
        ref = mpmath.quad(g, [-mpmath.inf, -8, 0, D, 8, mpmath.inf])
    assert abs(m2.value - float(ref)) <= m2.error + 1e-13 * float(ref)


@pytest.mark.parametrize("delta", [1e-5, 0.01, 1.0])
@pytest.mark.slow
def test_the_float_cgf_error_bar_is_relative_to_the_cgf(delta):
    """F = log1p(S) carries the error e_S of S as e_S / (1 + S): near alpha = 1 and at small
    shifts, where S ~ 1e-13, the bar stays ~1e-13 of F (measured at most 4e-13; allowed 1e-11)
    and alone covers the mpmath value at 30 digits."""
    alphas = np.array([1.001, 2.0, 5.0])
    F = location.location_loss_cgf(airy.STANDARD, mpmath.mpf(delta)).F(alphas)
    assert np.all(F.error <= 1e-11 * F.value)
    for a, v, e in zip(alphas, F.value, F.error):
        ref = float((a - 1) * mp_renyi(*pair(delta), a).value)
        assert abs(v - ref) <= e


@pytest.mark.parametrize("delta, alpha", [(1.4019244678379865, 19.300456138487036),
                                          (1.4019244678379865, 1.003252228165792),
                                          (8.808243229929916, 3.5720227902950215)])
@pytest.mark.slow
def test_the_precise_F_of_a_location_pair_carries_its_rounding(delta, alpha):
    """F(alpha) of the Airy location pair, taken with 10 guard digits, had as its bar only the
    guarded quadrature's (2e-40): F = 126 rounded to 30 digits was 4e-30 off.  Every value of
    a 30- and 31-digit sweep missed so; the bar now has eps |F|.  Reference: 70 digits."""
    from countdp.mechanisms.airy import standard_shift_pair
    ev = location.location_loss_cgf(*location.location_pair(*standard_shift_pair(delta)))
    assert isinstance(ev, location.LocationLossCgf)
    with mpmath.workdps(30):
        got = ev.mp_F(alpha)
    with mpmath.workdps(70):
        ref = ev.mp_F(alpha)
        assert abs(got.value - ref.value) <= got.error
