"""Statements certified over many points or boxes: tallies and branch and bound.

A statement over a range is PROVED_TRUE only when every point or box is decided true; one
PROVED_FALSE box makes it false; anything left undecided (after bisection up to a budget of
boxes) keeps it UNDECIDED.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from flint import arb, ctx, fmpq

from .verdicts import Undecided, Verdict, to_fmpq

__all__ = ["RangeResult", "tally", "merge", "split_boxes", "split_at_midpoint", "bisect",
           "sign_change_bracket"]


@dataclass
class RangeResult:
    """Outcome of a statement certified over many points/boxes."""

    verdict: Verdict
    boxes: int
    proved: int = 0
    disproved: int = 0
    undecided: int = 0
    seconds: float = 0.0
    note: str = ""
    first_bad: object = None
    extra: dict = field(default_factory=dict)


def tally(results: Iterable[tuple[object, Verdict]], note: str = "") -> RangeResult:
    t = time.perf_counter()
    proved = disproved = undecided = 0
    first_bad = None
    for key, vd in results:
        if vd is Verdict.PROVED_TRUE:
            proved += 1
        elif vd is Verdict.PROVED_FALSE:
            disproved += 1
            if first_bad is None:
                first_bad = key
        else:
            undecided += 1
            if first_bad is None:
                first_bad = key
    n = proved + disproved + undecided
    verdict = (Verdict.PROVED_FALSE if disproved else
               Verdict.PROVED_TRUE if undecided == 0 and n > 0 else Verdict.UNDECIDED)
    return RangeResult(verdict, n, proved, disproved, undecided, time.perf_counter() - t,
                       note, first_bad)


def merge(parts: list[RangeResult], note: str = "") -> RangeResult:
    """The conjunction of the parts: PROVED_TRUE only when every part is (a part with no box
    proves nothing), PROVED_FALSE when one part is."""
    proved = sum(p.proved for p in parts)
    disproved = sum(p.disproved for p in parts)
    undecided = sum(p.undecided for p in parts)
    first_bad = next((p.first_bad for p in parts if p.first_bad is not None), None)
    verdict = (Verdict.PROVED_FALSE if disproved or any(p.verdict is Verdict.PROVED_FALSE for p in parts) else
               Verdict.PROVED_TRUE if undecided == 0 and parts and
               all(p.verdict is Verdict.PROVED_TRUE for p in parts) else Verdict.UNDECIDED)
    return RangeResult(verdict, proved + disproved + undecided, proved, disproved, undecided,
                       note=note, first_bad=first_bad)


def split_boxes(lo, hi, nboxes: int) -> list[tuple[fmpq, fmpq]]:
    lo, hi = to_fmpq(lo), to_fmpq(hi)
    w = (hi - lo) / nboxes
    return [(lo + i * w, lo + (i + 1) * w) for i in range(nboxes)]


def split_at_midpoint(bx):
    """Split a 1-D box (lo, hi, *tag) with exact arb endpoints at an exact midpoint."""
    lo, hi = bx[0], bx[1]
    m = arb(((lo + hi) / 2).mid())
    return [(lo, m) + tuple(bx[2:]), (m, hi) + tuple(bx[2:])]


def bisect(box, decide: Callable, split: Callable, max_boxes: int) -> RangeResult:
    """Branch and bound: decide each box; split undecided ones (until ``max_boxes`` work).  A box
    that ``split`` returns no parts for counts as undecided (it was never shown true)."""
    stack = [box]
    proved = disproved = undecided = 0
    work = 0
    first_bad = None
    while stack:
        b = stack.pop()
        work += 1
        vd = decide(b)
        if vd is Verdict.PROVED_TRUE:
            proved += 1
        elif vd is Verdict.PROVED_FALSE:
            disproved += 1
            first_bad = first_bad or b
        elif work + len(stack) < max_boxes and (parts := list(split(b))):
            stack.extend(parts)
        else:  # the budget is spent, or the box cannot be split: it stays undecided
            undecided += 1
            first_bad = first_bad or b
    verdict = (Verdict.PROVED_FALSE if disproved else
               Verdict.PROVED_TRUE if undecided == 0 else Verdict.UNDECIDED)
    return RangeResult(verdict, proved + disproved + undecided, proved, disproved, undecided,
                       first_bad=first_bad, extra={"evaluations": work})


def sign_change_bracket(f: Callable, z, what: str, sign: int = 0, guard_bits: int = 0,
                        tries: int = 40) -> tuple[arb, arb]:
    """Exact endpoints lo < z < hi across which ``f`` changes sign, both signs decided (from - to
    + for ``sign`` > 0, + to - for ``sign`` < 0, either way for 0): a root of a continuous f lies
    between them.  The half-width starts at 2^-(prec - guard_bits) and grows 4-fold per try;
    after ``tries`` tries :class:`Undecided` ("``what`` not certified"), never a bracket whose
    signs were not decided."""
    d = arb(2) ** (guard_bits - ctx.prec)
    for _ in range(tries):
        lo, hi = arb((z - d).lower()), arb((z + d).upper())
        f_lo, f_hi = f(lo), f(hi)
        if (sign >= 0 and f_lo < 0 and f_hi > 0) or (sign <= 0 and f_lo > 0 and f_hi < 0):
            return lo, hi
        d = d * 4
    raise Undecided(f"{what} not certified")
