"""countdp.arb.airy: the certified first zero of Ai' and 8|a1'|^3/27 contain mpmath's values."""

from __future__ import annotations

import mpmath
from flint import arb, ctx

from _ball_reference import exact
from countdp.arb.airy import certified_limit_constant, certified_prime_zero


def test_the_certified_zero_and_constant_contain_mpmath():
    with mpmath.workdps(50):
        a1 = mpmath.airyaizero(1, derivative=1)
        const = 8 * abs(a1) ** 3 / 27
    with ctx.workprec(128):
        z = certified_prime_zero()
        k = certified_limit_constant()
    with ctx.workprec(600):
        assert z.contains(exact(a1)) and k.contains(exact(const))
    assert float(z.rad()) < 1e-30 and float(k.rad()) < 1e-30
    assert not z.contains(exact(mpmath.airyaizero(2, derivative=1)))  # the second zero is elsewhere


def test_an_undecided_step_of_the_zero_certificate_raises(monkeypatch):
    """If Ai' < 0 on [a1' + d, 0] is not proved, the certificate raises Undecided: it never
    returns a ball it did not prove."""
    import pytest

    from countdp.arb import airy as airy_cert
    from countdp.arb.verdicts import Undecided, Verdict

    class NotProved:
        verdict = Verdict.UNDECIDED

    monkeypatch.setattr(airy_cert, "bisect", lambda *a, **k: NotProved())
    with pytest.raises(Undecided, match="Ai' < 0 on"):
        certified_prime_zero()


def test_the_negativity_of_ai_prime_is_decided_on_its_sign_not_on_a_bound_above_it():
    """The branch and bound behind a1' being the largest zero: Ai' < 0 is proved on a box of
    [a1', 0] and refused on a box left of a1', where Ai' > 0 (Ai'(-2) = 0.618...) although
    Ai' < 1 there -- a comparison with any constant above 0 would prove it."""
    from countdp.arb.airy import ai_prime_negative
    from countdp.arb.verdicts import Verdict
    assert ai_prime_negative((arb(-0.5), arb(0))) is Verdict.PROVED_TRUE
    assert ai_prime_negative((arb(-2), arb("-1.9"))) is Verdict.PROVED_FALSE
