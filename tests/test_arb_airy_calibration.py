"""countdp.arb.airy_calibration: the certified calibration bracket holds the mechanism's calibrated b;
a halved or dropped remainder is not certified."""

from __future__ import annotations

import mpmath
import pytest
from flint import arb, ctx

from countdp import formulas
from countdp.arb.airy_calibration import (calibration_bracket, certify_calibration, error_bounds,
                                          error_target)
from countdp.arb.verdicts import Verdict
from countdp.mechanisms.airy import airy_drift_error, calibrate

RS = ("0.01", "0.0001")


@pytest.fixture(scope="module")
def brackets():
    rhos = [error_target(arb(r) * (1 - arb(r)), arb(r)) for r in RS]
    out, _ = certify_calibration(rhos, prec=96)
    return dict(zip(RS, out))


def test_brackets_are_certified_and_hold_the_calibrated_scale(brackets):
    for r, br in brackets.items():
        assert br.verdict is Verdict.PROVED_TRUE
        rho = mpmath.mpf(r) * (1 - mpmath.mpf(r)) / (1 + mpmath.mpf(r))
        b = calibrate(rho, 30).b
        assert mpmath.mpf(br.b_lo.str(25, radius=False)) <= b <= mpmath.mpf(br.b_hi.str(25, radius=False))
        # the remainder is O(rho): about rho itself
        assert float(br.remainder.upper()) < 1.1 * float(br.rho.upper())


def test_the_coefficient_bracket_shrinks_to_c0(brackets):
    c0 = float(formulas.airy_limit_constant())
    widths = []
    for r, br in brackets.items():
        lo, hi = br.coefficient(arb(r))
        assert float(lo.upper()) < float(hi.lower())
        widths.append(float(hi.upper()) - float(lo.lower()))
        if r == "0.0001":
            assert float(lo.lower()) < c0 * 1.0005 and c0 < float(hi.upper())
    assert widths[1] < widths[0] / 50


def test_the_lemma_brackets_the_minimal_error():
    with mpmath.workdps(30):
        cal = calibrate(mpmath.mpf("0.025"), 30)
        e = airy_drift_error(cal.b, cal.t).value
    with ctx.workprec(96):
        lo, hi = error_bounds(arb(mpmath.nstr(cal.b, 28)), arb.airy_ai_zero(1, derivative=1))
    assert float(lo.upper()) <= float(e) <= float(hi.lower()) * (1 + 1e-12)


def test_a_halved_or_dropped_remainder_is_not_certified(brackets):
    for r, br in brackets.items():
        with ctx.workprec(96):
            assert calibration_bracket(br.rho, remainder=br.remainder).verdict is Verdict.PROVED_TRUE
            assert calibration_bracket(br.rho, remainder=br.remainder / 2).verdict is not Verdict.PROVED_TRUE
            assert calibration_bracket(br.rho, remainder=br.rho ** 3 / 1000).verdict is not Verdict.PROVED_TRUE


def test_bad_rho_raises():
    with pytest.raises(ValueError, match="rho"):
        calibration_bracket(arb("1.5"))
    with pytest.raises(ValueError, match="r0 and c"):
        error_target(arb(0), arb(1))
