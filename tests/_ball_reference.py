"""mpmath at 50 digits as the independent reference for the certified (Arb ball) tests: every
certified ball must contain the mpmath value, and deliberately false claims must never come out
PROVED_TRUE."""

from __future__ import annotations

import mpmath
from flint import arb, ctx, fmpq, fmpz

from countdp import formulas
from countdp.arb.verdicts import Verdict, to_fmpq

DPS = 50
TRUE, FALSE, UND = Verdict.PROVED_TRUE, Verdict.PROVED_FALSE, Verdict.UNDECIDED
R0, CC = fmpq(1, 4), 1  # the certificates' design: sigma ~ 0.157


def exact(x) -> arb:
    """The mpmath number x as an exact arb: its own binary value, whatever the working precision
    (anything else is first made an mpf at the working precision)."""
    sign, man, e, _bc = (x if isinstance(x, mpmath.mpf) else mpmath.mpf(x))._mpf_
    with ctx.workprec(600):
        return (-1) ** sign * arb(fmpz(int(man))) * arb(2) ** int(e)


def mpq(x):
    """Exact rational (fmpq / str / int) as an mpmath number at the working dps."""
    q = to_fmpq(x)
    return mpmath.mpf(int(q.p)) / int(q.q)


def contains(ball: arb, x) -> bool:
    with ctx.workprec(600):
        return ball.contains(exact(x))


def sigma_ball() -> arb:
    """The design's sigma (eq 3 at r0 = 1/4, c = 1) as a ball at the current precision."""
    return formulas.sigma.ball(R0, CC)


def mp_sigma(r0, c):
    """eq (3) in mpmath, written from the statement: Phi^{-1}(1/2 + r0/(2(1+c)))."""
    with mpmath.workdps(DPS):
        return mpmath.sqrt(2) * mpmath.erfinv(2 * (mpmath.mpf(1) / 2 + mpmath.mpf(r0) / (2 * (1 + mpmath.mpf(c)))) - 1)


with mpmath.workdps(DPS):
    MP_S = mp_sigma(mpmath.mpf(1) / 4, 1)


def record_bisections(monkeypatch, module) -> list:
    """The first box of every range bisection ``module`` runs from now on (its ``bisect``
    wrapped), to check that a certificate decides the whole range it states."""
    boxes = []
    real = module.bisect

    def recording(box, *args, **kwargs):
        boxes.append(box)
        return real(box, *args, **kwargs)

    monkeypatch.setattr(module, "bisect", recording)
    return boxes
