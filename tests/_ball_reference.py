"""mpmath at 50 digits as the independent reference for the certified (Arb ball) tests: every
certified ball must contain the mpmath value, and deliberately false claims must never come out
PROVED_TRUE."""

from __future__ import annotations

import mpmath as mp
from flint import arb, ctx, fmpq, fmpz

from countdp.arb.verdicts import Verdict, to_fmpq

DPS = 50
TRUE, FALSE, UND = Verdict.PROVED_TRUE, Verdict.PROVED_FALSE, Verdict.UNDECIDED
R0, CC = fmpq(1, 4), 1  # the certificates' design: sigma ~ 0.157


def exact(x) -> arb:
    """The mpmath number x as an exact arb (its binary value)."""
    sign, man, e, _bc = mp.mpf(x)._mpf_
    with ctx.workprec(600):
        return (-1) ** sign * arb(fmpz(int(man))) * arb(2) ** int(e)


def mpq(x):
    """Exact rational (fmpq / str / int) as an mpmath number at the working dps."""
    q = to_fmpq(x)
    return mp.mpf(int(q.p)) / int(q.q)


def contains(ball: arb, x) -> bool:
    with ctx.workprec(600):
        return ball.contains(exact(x))


def mp_sigma(r0, c):
    """eq (3) in mpmath, written from the statement: Phi^{-1}(1/2 + r0/(2(1+c)))."""
    with mp.workdps(DPS):
        return mp.sqrt(2) * mp.erfinv(2 * (mp.mpf(1) / 2 + mp.mpf(r0) / (2 * (1 + mp.mpf(c)))) - 1)


with mp.workdps(DPS):
    MP_S = mp_sigma(mp.mpf(1) / 4, 1)
