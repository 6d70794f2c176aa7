"""Tests of countdp.laws.airy.moments: the normalisation, moments and score moments by quadrature
against the closed forms (1e-25 at dps 30), the score moment ratios and the small-u expansion of the
score CGF.
"""

from __future__ import annotations

import pytest
from mpmath import mp

from countdp.laws import airy


def test_normalisation_and_moments_by_quadrature():
    c = airy.airy_constants(30)
    one = airy.abs_moment(0, 30, error=True)
    assert abs(one.value - 1) < mp.mpf("1e-25") and one.error < mp.mpf("1e-25")
    assert abs(airy.abs_moment(1, 30) - c.mean_abs) < mp.mpf("1e-25")
    assert abs(airy.second_moment(30) - c.second_moment) < mp.mpf("1e-25")
    assert abs(airy.score_moment(1, 30) - c.fisher) < mp.mpf("1e-25")


@pytest.mark.slow
def test_score_moment_ratios_below_one_and_decreasing():
    ratios = []
    for k in range(2, 31):
        r = airy.score_moment_ratio(k, 20, error=True)
        assert r.value + r.error < 1
        ratios.append(r.value)
    assert all(b < a for a, b in zip(ratios, ratios[1:]))
    assert abs(airy.score_moment_ratio(1, 20) - 1) < mp.mpf("1e-18")
    # small-u expansion: K/u^2 = I/2 + kappa4 u^2 / 24, kappa4 = E s^4 - 3 I^2 < 0
    c = airy.airy_constants(20)
    with mp.workdps(20):
        kappa4 = (ratios[0] - 1) * 3 * c.fisher**2
        u = mp.mpf("1e-3")
        K = airy.score_cgf(u, 20)
        assert abs((K / u**2 - c.fisher / 2) / (kappa4 * u**2 / 24) - 1) < mp.mpf("1e-4")


def test_fractional_and_high_absolute_moments_match_a_plain_quadrature():
    """E|X|^k for k off the integers and far out (the log-weight k log x + log f places the
    splits and scales the integrand): against mpmath's quadrature of 2 x^k f(x) on the dyadic
    splits 0, 1/4, ..., 64 at 40 digits (the tail beyond 64 is below e^-400), within the stated
    bar and 1e-25 relative."""
    for k in (mp.mpf(1) / 2, mp.mpf(15) / 2, 20, 40):
        got = airy.abs_moment(k, 30, error=True)
        with mp.workdps(40):
            splits = [0] + [mp.mpf(2) ** j for j in range(-2, 7)]
            ref = 2 * mp.quad(lambda x: x ** k * airy.mp_pdf(x), splits)
        assert abs(got.value - ref) <= got.error + ref * mp.mpf("1e-25"), k
        assert got.error <= ref * mp.mpf("1e-25"), k


def test_the_score_moment_ratio_starts_at_k_1():
    """k counts the even moments E s^{2k} from k = 1 (k = 0 would be the mass, not a moment ratio)."""
    import pytest

    for k in (0, -1, 1.5):
        with pytest.raises(ValueError, match="k must be"):
            airy.score_moment_ratio(k, 15)


@pytest.mark.slow
def test_a_large_score_cgf_carries_its_own_rounding():
    """K_s(35.4) = 197 at 30 digits was 5e-30 off under a bar of 1e-30: the bar had the
    quadrature's relative error of J, not the rounding of K = log1p(J) to the working
    precision (eps K = 4e-29).  Reference: the same at 70 digits."""
    import mpmath
    for u in (35.38303567235913, 164.64387277881497, 291.2616380888086):
        with mpmath.workdps(30):
            got = airy.score_cgf(u, error=True)
        with mpmath.workdps(70):
            ref = airy.score_cgf(u, error=True)
            assert abs(got.value - ref.value) <= got.error, u
