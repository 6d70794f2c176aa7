"""Tests of the one precision convention (countdp.numerics.precision): the Airy path computes at
the ambient mpmath precision, a ``dps`` argument means the same as setting it, and a bad ``dps``
is refused by one rule (countdp.numerics.validate.dps) wherever it is given."""

from __future__ import annotations

import argparse

import mpmath
import pytest
from mpmath import mp

from countdp.harness import cli
from countdp.laws import airy, symmetric
from countdp.mechanisms.airy import calibrate
from countdp.numerics import precision, validate


def _limit_constant_reference():
    """8|a1'|^3/27 from mpmath's own a1' at 60 digits."""
    with mp.workdps(60):
        return 8 * abs(mp.airyaizero(1, derivative=1)) ** 3 / 27


def test_airy_constants_follow_the_ambient_precision():
    ref = _limit_constant_reference()
    with mp.workdps(50):
        closed, quad = airy.airy_constants(), airy.airy_constants_by_quadrature()
        assert closed.dps == quad.dps == 50
        assert abs(closed.m2I_half - ref) < mpmath.mpf("1e-49")
        assert abs(quad.m2I_half - ref) < mpmath.mpf("1e-45") and quad.error < mpmath.mpf("1e-45")
    with mp.workdps(30):
        assert abs(airy.airy_constants().m2I_half - ref) > mpmath.mpf("1e-45")  # 30 digits are not 50


def test_the_subgaussian_route_follows_the_ambient_precision():
    """The quadratures of the claims' sub-Gaussianity route carry 50 digits at workdps(50)."""
    with mp.workdps(50):
        fisher = airy.airy_constants().fisher
        chk = symmetric.check_score_subgaussian(airy.mp_logpdf, airy.mp_score, [mpmath.mpf(1)], normalised=True)
        assert abs(chk.fisher - fisher) < mpmath.mpf("1e-44") and chk.fisher_error < mpmath.mpf("1e-44")
        one = airy.score_moment_ratio(1, error=True)
        assert abs(one.value - 1) < mpmath.mpf("1e-44") and one.error < mpmath.mpf("1e-44")
        assert calibrate(mpmath.mpf("0.1")).dps == 50
    with mp.workdps(30):
        assert symmetric.symmetric_fisher_information(airy.mp_logpdf, airy.mp_score, normalised=True,
                                                      error=True).error > mpmath.mpf("1e-40")


def test_a_dps_argument_is_the_ambient_precision_for_the_call():
    with mp.workdps(40):
        ambient = airy.score_cgf(mpmath.mpf("0.5"), error=True)
        assert mp.dps == 40
    assert airy.score_cgf(mpmath.mpf("0.5"), 40, error=True) == ambient
    with mp.workdps(40):
        assert airy.abs_moment(1) == airy.abs_moment(1, 40)
        assert precision.FLOAT_DPS == 30 and airy.float_constants().fisher == float(airy.airy_constants(30).fisher)


def _refusals(bad):
    """The message each entry point gives for dps = ``bad``."""
    calls = {
        "airy_constants": lambda: airy.airy_constants(bad),
        "airy_constants_by_quadrature": lambda: airy.airy_constants_by_quadrature(bad),
        "abs_moment": lambda: airy.abs_moment(1, bad),
        "score_moment_ratio": lambda: airy.score_moment_ratio(2, bad),
        "score_cgf": lambda: airy.score_cgf(1, bad),
        "check_score_subgaussian": lambda: symmetric.check_score_subgaussian(
            airy.mp_logpdf, airy.mp_score, [1], bad, normalised=True),
        "calibrate": lambda: calibrate(0.1, bad),
    }
    messages = {}
    for name, call in calls.items():
        with pytest.raises(ValueError) as info:
            call()
        messages[name] = str(info.value)
    with pytest.raises(argparse.ArgumentTypeError) as info:
        cli._dps(str(bad))
    messages["--dps"] = str(info.value)
    return messages


def test_a_bad_dps_is_refused_by_one_rule(monkeypatch):
    assert set(_refusals(4).values()) == {"dps must be an integer in [5, 100], got 4"}
    assert set(_refusals(101).values()) == {"dps must be an integer in [5, 100], got 101"}
    monkeypatch.setattr(validate, "DPS_MAX", 60)  # the range is stated once: every entry point follows
    assert set(_refusals(70).values()) == {"dps must be an integer in [5, 60], got 70"}
