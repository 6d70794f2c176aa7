"""countdp.arb.airy_groundstate: the ingredients of (8) are certified; the negative controls (a1 and a1'
swapped, a wrong maximiser, a wrong constant) are rejected."""

from __future__ import annotations

from fractions import Fraction

import mpmath
from flint import arb, ctx

from _ball_reference import exact
from countdp import formulas
from countdp.arb.airy_groundstate import (certified_ai_zero, certify_ground_state, decide_best_k,
                                          decide_ground_state_positive, decide_zero_order)
from countdp.arb.verdicts import Verdict


def test_the_certificate_is_proved_and_its_zeros_contain_mpmath():
    cert = certify_ground_state(prec=128)
    assert cert.verdict is Verdict.PROVED_TRUE
    assert all(item["verdict"] is Verdict.PROVED_TRUE for item in cert.items())
    with mpmath.workdps(50):
        a1, a1p = mpmath.airyaizero(1), mpmath.airyaizero(1, derivative=1)
    with ctx.workprec(600):
        assert cert.a1.contains(exact(a1)) and cert.a1p.contains(exact(a1p))
    assert float(cert.a1.rad()) < 1e-30 and float(cert.a1p.rad()) < 1e-30
    with ctx.workprec(128):
        assert cert.maximum.overlaps(formulas.airy_limit_constant.ball(cert.a1p) / 2)


def test_the_zero_is_the_largest_zero_of_ai():
    with ctx.workprec(96):
        z = certified_ai_zero()
        assert not z.contains(arb.airy_ai_zero(2))


def test_swapped_zeros_are_rejected(monkeypatch):
    from countdp.arb import airy_groundstate as gs
    original = gs.certified_zeros
    monkeypatch.setattr(gs, "certified_zeros", lambda: original()[::-1])   # the fault the claim will carry
    swapped = certify_ground_state(prec=96)
    assert swapped.verdict is Verdict.PROVED_FALSE and swapped.zero_order is Verdict.PROVED_FALSE
    monkeypatch.undo()
    with ctx.workprec(96):
        cert = certify_ground_state(prec=96)
        assert decide_zero_order(cert.a1p, cert.a1) is Verdict.PROVED_FALSE
        assert decide_ground_state_positive(cert.a1p, cert.a1) is Verdict.PROVED_FALSE
        # a1 in place of a1': phi would vanish at x = 0 (Ai(a1) = 0), never certified positive
        assert decide_ground_state_positive(cert.a1, cert.a1) is not Verdict.PROVED_TRUE


def test_the_best_k_identity_and_wrong_maximisers():
    assert decide_best_k() is Verdict.PROVED_TRUE
    assert decide_best_k((Fraction(1), Fraction(4, 27))) is Verdict.PROVED_FALSE      # s* = A/M
    assert decide_best_k((Fraction(2, 3), Fraction(8, 27))) is Verdict.PROVED_FALSE   # c0 in place of c0/2
    # the maximum is the sup: h(s) <= h(s*) on a grid of exact rationals (A = M = 1)
    A, M = Fraction(1), Fraction(1)
    s_star = Fraction(2, 3) * A / M
    h = lambda s: A * s * s - M * s ** 3
    assert all(h(Fraction(k, 97)) <= h(s_star) for k in range(0, 400))
