"""countdp.arb.drift: the certified drift integrals and the branch and bound on the minimiser."""

from __future__ import annotations

import time

import mpmath
import pytest
from flint import arb

from _ball_reference import CC, DPS, FALSE, MP_S, R0, TRUE, contains, record_bisections
from countdp import formulas
from countdp.arb.drift import (certify_drift_argmin, drift_derivative_integral, drift_error_integral,
                               drift_mean_integral)
from countdp.arb.verdicts import decide_contains, to_arb


pytestmark = pytest.mark.mp_dps(DPS)


def test_derivative_integral_and_argmin():
    s = formulas.sigma.ball(R0, CC)
    for a in (arb("0.01"), to_arb(s) ** 2, arb("0.05")):
        integral = drift_derivative_integral(s, a)
        assert decide_contains(integral, formulas.drift_error_derivative.ball(s, a)) is TRUE
    start = time.perf_counter()
    res = certify_drift_argmin(s)
    assert res.verdict is TRUE
    assert 0 < res.seconds <= time.perf_counter() - start  # its own time, as the report prints


@pytest.mark.parametrize("factor", ["0", "0.5", "1", "2"])
def test_drift_error_and_mean_integrals(factor):
    s = formulas.sigma.ball(R0, CC)
    a = arb(factor) * s * s
    ma = mpmath.mpf(factor) * MP_S**2
    err = drift_error_integral(s, a)
    f = lambda z: abs(mpmath.exp(MP_S * z - ma) - 1) * mpmath.npdf(z)  # noqa: E731
    assert contains(err, mpmath.quad(f, [-mpmath.inf, -10, ma / MP_S, 10, mpmath.inf]))
    assert decide_contains(err, formulas.drift_error.ball(s, a)) is TRUE
    mean = drift_mean_integral(s, a)
    assert contains(mean, mpmath.exp(MP_S**2 / 2 - ma))


def test_mean_one_drift_encloses_one_and_the_paper_drift_does_not():
    s = formulas.sigma.ball(R0, CC)
    assert decide_contains(drift_mean_integral(s, s * s / 2), 1) is TRUE
    assert decide_contains(drift_mean_integral(s, s * s), 1) is FALSE


@pytest.mark.parametrize("sigma", ["0.3", "1", "2.5"])
def test_the_argmin_certificate_covers_the_whole_range_it_states(sigma, monkeypatch):
    """The docstring's statement is about [0, sigma^2 - eps] and [sigma^2 + eps, 4 sigma^2]: the
    two branch-and-bound runs start from exactly those ranges (recorded from the bisection's
    first box), so a proof over a shorter range cannot be reported as one over the stated one."""
    from countdp.arb import drift

    starts = record_bisections(monkeypatch, drift)
    s = arb(sigma)
    assert certify_drift_argmin(s).verdict is TRUE
    (lo0, lo1, sb), (hi0, hi1, sa) = starts
    s2 = s * s
    assert (sb, sa) == (-1, 1) and lo0 == 0
    assert lo1 < s2 < hi0 and (s2 - lo1) < s2 * 1e-5 and (hi0 - s2) < s2 * 1e-5
    assert hi1 >= 4 * s2 and hi1 - 4 * s2 < s2 * 1e-12
