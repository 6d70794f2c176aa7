"""countdp.arb.airy_calibration: both calibration brackets hold the mechanism's calibrated b; the lemma's
remainder is O(rho) and the tilt balance's is the true |b m/rho - 1|; a halved remainder is refuted."""

from __future__ import annotations

import mpmath
import pytest
from flint import arb, ctx

from countdp import formulas
from countdp.arb.airy_calibration import (calibration_bracket, certify_calibration, error_bounds, sinh_cosh_moments,
                                          error_target, scale_bracket)
from countdp.arb.verdicts import Verdict
from countdp.numerics.contexts import Undecided
from countdp.mechanisms.airy import airy_drift_error, calibrate

RS = ("0.01", "0.0001")
PREC = 96


def _rho(r):
    return error_target(arb(r) * (1 - arb(r)), arb(r))


@pytest.fixture(scope="module")
def cert():
    with ctx.workprec(PREC):
        rhos = [_rho(r) for r in RS]
    return certify_calibration(rhos, prec=PREC)


def _mp(ball):
    return mpmath.mpf(ball.str(30, radius=False))


@pytest.mark.slow
def test_both_brackets_are_certified_and_hold_the_calibrated_scale(cert):
    assert cert.verdict is Verdict.PROVED_TRUE
    for r, lemma, tight in zip(RS, cert.lemma, cert.tight):
        rho = mpmath.mpf(r) * (1 - mpmath.mpf(r)) / (1 + mpmath.mpf(r))
        with mpmath.workdps(30):
            b = calibrate(rho, 30).b
            assert _mp(lemma.b_lo) <= b <= _mp(lemma.b_hi)
            assert _mp(tight.b_lo) <= b <= _mp(tight.b_hi)
            assert (tight.b_hi - tight.b_lo) < tight.b_lo * arb("1e-14")
        # the lemma's remainder is about rho; the true one is O(rho^2)
        assert float(lemma.remainder.upper()) < 1.1 * float(lemma.rho.upper())
        assert float(tight.remainder.upper()) < 0.2 * float(tight.rho.upper()) ** 2 * 1.01


def test_the_coefficient_bracket_from_the_tight_bracket(cert):
    c0 = float(formulas.airy_limit_constant())
    lo, hi = cert.tight[1].coefficient(arb(RS[1]))
    assert c0 < float(lo.lower()) < float(hi.upper()) < c0 * (1 + 1e-3)
    lo_l, hi_l = cert.lemma[1].coefficient(arb(RS[1]))
    assert lo_l.lower() <= lo.lower() and hi.upper() <= hi_l.upper()


def test_the_lemma_brackets_the_minimal_error():
    with mpmath.workdps(30):
        cal = calibrate(mpmath.mpf("0.025"), 30)
        e = airy_drift_error(cal.b, cal.t).value
    with ctx.workprec(PREC):
        lo, hi = error_bounds(arb(mpmath.nstr(cal.b, 28)), arb.airy_ai_zero(1, derivative=1))
    assert float(lo.upper()) <= float(e) <= float(hi.lower()) * (1 + 1e-12)


def test_a_halved_remainder_is_refuted(cert):
    with ctx.workprec(PREC):
        for lemma, tight in zip(cert.lemma, cert.tight):
            assert scale_bracket(tight.rho, remainder=tight.remainder).verdict is Verdict.PROVED_TRUE
            assert scale_bracket(tight.rho, remainder=tight.remainder / 2).verdict is Verdict.PROVED_FALSE
            assert calibration_bracket(lemma.rho, remainder=lemma.remainder).verdict is Verdict.PROVED_TRUE
            # the lemma's conditions are only sufficient: halved, they fail without refuting anything
            assert calibration_bracket(lemma.rho, remainder=lemma.remainder / 2).verdict is Verdict.UNDECIDED


def test_bad_rho_raises():
    with pytest.raises(ValueError, match="rho"):
        calibration_bracket(arb("1.5"))
    with pytest.raises(ValueError, match="r0 and c"):
        error_target(arb(0), arb(1))


@pytest.mark.parametrize("j", [1, 2])
@pytest.mark.parametrize("b", ["0.3", "1", "2"])
@pytest.mark.slow
def test_the_calibration_tail_bounds_their_tail(j, b):
    """int_X^inf x^j e^{bx} Ai(x + a1')^2 dx (X = 12) by mpmath quadrature at 40 digits lies below
    the proven tail bound [0, U], and U within a factor e^{b X} of it (a bound without its e^{bX}
    would be below the tail)."""
    from countdp.arb.airy_calibration import CUTOFF, _tail

    with mpmath.workdps(40):
        a = mpmath.airyaizero(1, derivative=1)
        bb = mpmath.mpf(b)
        tail = mpmath.quad(lambda x: x ** j * mpmath.exp(bb * x) * mpmath.airyai(x + a) ** 2,
                           [CUTOFF, CUTOFF + 4, CUTOFF + 16, mpmath.inf])
    with ctx.workprec(140):
        bound = _tail(j, arb(b), arb(mpmath.nstr(a, 40)))
    # the bound is the interval [0, U]: U must lie above the tail
    assert float(bound.upper()) >= float(tail) * (1 - 1e-12)
    assert float(bound.upper()) <= float(tail) * float(mpmath.exp(bb * CUTOFF))


@pytest.mark.parametrize("b", ["6.63", "10", "100"])
def test_the_calibration_tail_is_undecided_where_its_bound_does_not_hold(b):
    """The bound needs lam = 2 sqrt(X + a1') - b > 0 (2 sqrt(12 - 1.0188) = 6.627): at and beyond
    it the integral may not even converge, and the bound must not be given."""
    from countdp.arb.airy_calibration import _tail

    with ctx.workprec(80):
        a = arb(mpmath.nstr(mpmath.airyaizero(1, derivative=1), 30))
        with pytest.raises(Undecided, match="2 sqrt"):
            _tail(1, arb(b), a)
        assert _tail(1, arb("6.5"), a).upper() > 0


@pytest.mark.parametrize("j", [1, 2])
@pytest.mark.parametrize("b", ["0.001", "0.3", "2"])
def test_the_calibration_tail_is_its_lemma_exactly(j, b):
    """The step of the tail bound's proof: past X, Ai(x + a1')^2 <= Ai(z0)^2 e^{-2 sqrt(z0) (x - X)}
    (z0 = X + a1'), so the tail is at most Ai(z0)^2 e^{bX} int_X^inf x^j e^{-lam (x - X)} dx with
    lam = 2 sqrt(z0) - b.  The bound divided by Ai(z0)^2 e^{bX} must be that integral (mpmath
    quadrature at 40 digits), not just some number above the tail: the bound has only ~1 % of
    slack, less than its last term (a bound without that term still lies above the tail)."""
    from countdp.arb.airy_calibration import CUTOFF, _tail

    with mpmath.workdps(40):
        a = mpmath.airyaizero(1, derivative=1)
        z0 = CUTOFF + a
        lam = 2 * mpmath.sqrt(z0) - mpmath.mpf(b)
        moment = mpmath.quad(lambda x: x ** j * mpmath.exp(-lam * (x - CUTOFF)), [CUTOFF, mpmath.inf])
        scale = mpmath.airyai(z0) ** 2 * mpmath.exp(mpmath.mpf(b) * CUTOFF)
    with ctx.workprec(140):
        bound = _tail(j, arb(b), arb(mpmath.nstr(a, 40)))
    with mpmath.workdps(40):
        got = mpmath.mpf(bound.upper().str(40, radius=False)) / scale
        # [0, U] is a ball whose radius is an Arb mag (30 bits): U is the bound to 2^-29 relative
        assert moment <= got <= moment * (1 + mpmath.mpf(2) ** -27)


@pytest.mark.parametrize("b", ["0.05", "0.5", "2"])
@pytest.mark.slow
def test_the_sinh_and_cosh_moments_enclose_their_quadratures(b):
    """S(b) = E sinh(b|X|) and C(b) = E cosh(bX) for the density Ai(|x| + a1')^2 / Z, against
    mpmath's quadrature of the same integrals at 25 digits on [0, 40] (Z by quadrature too; beyond 40
    the integrands are below e^-170)."""
    with mpmath.workdps(25):
        a, bm = mpmath.airyaizero(1, derivative=1), mpmath.mpf(b)

        def half(g):
            return 2 * mpmath.quad(lambda x: g(x) * mpmath.airyai(x + a) ** 2, [0, 3, 12, 40])
        Z = half(lambda x: 1)
        S, C = half(lambda x: mpmath.sinh(bm * x)) / Z, half(lambda x: mpmath.cosh(bm * x)) / Z
    with ctx.workprec(PREC):
        s, c = sinh_cosh_moments(arb(b), arb.airy_ai_zero(1, derivative=1))
    for ball, want in ((s, S), (c, C)):
        assert float(ball.rad()) < 1e-10 * float(want)   # the tail bound beyond 12 at b = 2: 1e-12
        assert _mp(arb(ball.lower())) - mpmath.mpf(10) ** -20 <= want <= _mp(arb(ball.upper())) + mpmath.mpf(10) ** -20
