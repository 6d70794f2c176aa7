"""Tests of countdp.laws.airy.constants and the quadrature route to them: closed forms against
mpmath quadrature (agreeing to 1e-20 at dps 30; quadrature error estimates are ~1e-30), literals,
identities and the float64 constants.
"""

from __future__ import annotations

import pytest
from mpmath import mp

from countdp.laws import airy

A1P_LITERAL = "-1.01879297164747108901732478339974382"  # DLMF 9.9 / A&S table 10.13
C_LITERAL = 0.3133170606


@pytest.fixture(scope="module")
def routes30():
    return airy.airy_constants(30), airy.airy_constants_by_quadrature(30)


def test_closed_form_vs_quadrature_dps30(routes30):
    cf, q = routes30
    assert q.error < mp.mpf("1e-25")
    for name in ("a1p", "ai_a1p", "Z", "mean_abs", "fisher", "second_moment", "m2I_half"):
        diff = abs(getattr(cf, name) - getattr(q, name))
        assert diff < mp.mpf("1e-20"), (name, diff)


def test_constants_literals_and_identities(routes30):
    cf, _ = routes30
    with mp.workdps(30):
        A = -cf.a1p
        assert abs(cf.a1p - mp.mpf(A1P_LITERAL)) < mp.mpf("1e-28")
        assert abs(cf.m2I_half - 8 * A**3 / 27) < mp.mpf("1e-28")
        assert abs(cf.m2I_half - cf.mean_abs**2 * cf.fisher / 2) < mp.mpf("1e-28")
        assert abs(float(cf.m2I_half) - C_LITERAL) < 1e-10
        gap = 1 - cf.m2I_half * mp.pi  # relative gap below the Gaussian's 1/pi
        assert mp.mpf("0.0156") < gap < mp.mpf("0.0158")
    fl = airy.float_constants()
    assert fl.dps is None and isinstance(fl.Z, float)
    for name in ("a1p", "Z", "mean_abs", "fisher", "second_moment", "m2I_half"):
        assert getattr(fl, name) == pytest.approx(float(getattr(cf, name)), rel=1e-15, abs=0)


def test_constants_other_precision():
    c50 = airy.airy_constants(50)
    with mp.workdps(50):
        assert abs(c50.a1p - mp.airyaizero(1, derivative=1)) < mp.mpf("1e-48")
        assert abs(c50.second_moment - airy.second_moment(50)) < mp.mpf("1e-40")


@pytest.mark.parametrize("bits_off", [35, 60])
def test_a_wrong_zero_of_ai_prime_is_refused(monkeypatch, bits_off):
    """The defining constants check that a1' is a zero of Ai' to half the precision (|Ai'| below
    2^-(prec/2)): at prec 136 a zero 2^-35 or 2^-60 off (Ai' about 0.55 times that, above 2^-68)
    is refused, and the message gives Ai' there."""
    from countdp.laws.airy import constants

    with mp.workdps(40):
        assert mp.prec == 136
        true = constants.formulas.airy_prime_zero()
        wrong = true + mp.mpf(2) ** -bits_off
        monkeypatch.setattr(constants.formulas, "airy_prime_zero", lambda: wrong)
        with pytest.raises(ValueError, match="is not a zero of Ai'") as exc:
            constants.defining_constants.__wrapped__(mp.prec)
        shown = mp.mpf(str(exc.value).split("(Ai' = ")[1].split(")")[0])
        assert abs(shown - mp.airyai(wrong, derivative=1)) <= 1e-4 * abs(shown)
        monkeypatch.setattr(constants.formulas, "airy_prime_zero", lambda: true)
        assert constants.defining_constants.__wrapped__(mp.prec).a1p == true
