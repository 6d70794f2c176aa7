"""countdp.formulas.zcdp: the conversions of zCDP to approximate DP and the Gaussian privacy
profile -- three number systems, and against their definitions."""

from __future__ import annotations

import mpmath
import pytest

from _number_systems import assert_fp_mp_ball_agree
from countdp import formulas

CASES = [
    (formulas.bun_steinke_epsilon, ("0.01", "1e-6")),
    (formulas.bun_steinke_delta, ("0.01", "1.3")),
    (formulas.bun_steinke_delta, ("0.5", "0.25")),
    (formulas.cks_log_delta_at, ("0.1", "1.3", "3.5")),
    (formulas.cks_log_delta_slope, ("0.1", "1.3", "3.5")),
    (formulas.gaussian_profile, ("0.7", "0.25")),
]


@pytest.mark.parametrize("f, args", CASES, ids=[f"{f.__name__}{args}" for f, args in CASES])
def test_fp_mp_ball_agree(f, args):
    assert_fp_mp_ball_agree(f, args)


def test_bun_steinke_delta_inverts_its_eps():
    """delta(eps(delta)) = delta, and 1 at eps <= rho."""
    with mpmath.workdps(30):
        rho, delta = mpmath.mpf("0.01"), mpmath.mpf("1e-6")
        eps = formulas.bun_steinke_epsilon(rho, delta)
        assert abs(formulas.bun_steinke_delta(rho, eps) / delta - 1) < 1e-25
        assert formulas.bun_steinke_delta(rho, rho / 2) == 1


def test_cks_slope_is_the_derivative():
    with mpmath.workdps(30):
        rho, eps, a = mpmath.mpf("0.1"), mpmath.mpf("1.3"), mpmath.mpf("3.5")
        d = mpmath.diff(lambda x: formulas.cks_log_delta_at(rho, eps, x), a)
        assert abs(d - formulas.cks_log_delta_slope(rho, eps, a)) < 1e-20


def test_gaussian_profile_is_the_hockey_stick_integral():
    """int (phi(x) - e^eps phi(x - mu))_+ dx against the closed form."""
    with mpmath.workdps(30):
        mu, eps = mpmath.mpf("0.7"), mpmath.mpf("0.25")
        cross = mu / 2 - eps / mu  # p > e^eps q  iff  x < mu/2 - eps/mu
        ref = mpmath.quad(lambda x: mpmath.npdf(x) - mpmath.exp(eps) * mpmath.npdf(x - mu), [-mpmath.inf, cross])
        assert abs(formulas.gaussian_profile(mu, eps) - ref) < 1e-25
