"""The Airy mechanism's budget is finite and nonincreasing: the certified side of U2-U3 (README of
experiments/cstar, "The upper bound assembled").

The budget is ``v(n) = V(Delta_n)``, ``V(Delta) = sup_{alpha > 1} D_alpha(f || f(. - Delta))/alpha`` at the
standardised shift ``Delta_n = log((n + c)/(n - 1 + c))/b`` (:func:`countdp.formulas.log_gap`; ``v(0) = v(1)``).

* Finite (U2): ``(alpha - 1) D_alpha <= K_s(alpha Delta) <= I alpha^2 Delta^2/2`` (log-concavity and the
  certified sub-Gaussian score, :mod:`countdp.arb.airy_score`), so ``v(n) <= 2 I Delta_n^2``
  (:func:`budget_bound`); the envelope ``v~(n) = sup_{m >= n} v(m)`` obeys the same bound, since
  ``Delta_m <= Delta_n`` for ``m >= n``, and ``n^2 v~(n) -> I/(2 b^2)`` like ``n^2 v(n)``.
* Nonincreasing (U3): for a symmetric log-concave f, ``D_alpha(f || f(. - Delta))`` is nondecreasing in
  ``Delta >= 0`` for every alpha (proof in the README), so v is nonincreasing wherever ``Delta_n`` is:
  :func:`decide_shifts_decreasing` decides that at given counts.
* On finitely many values (a scan of the budget), :func:`decide_nonincreasing` decides the order and
  :func:`running_envelope` is the envelope over the listed values (each value replaced by the
  largest at or after it; an upper bound of the list, nonincreasing by construction).
"""

from __future__ import annotations

from typing import Sequence

from flint import arb

from .. import formulas
from .verdicts import Verdict, decide_ge, decide_gt, to_arb, verdict_all

__all__ = ["standard_shift", "budget_bound", "decide_shifts_decreasing", "decide_nonincreasing",
           "running_envelope", "decide_below_bound"]


def standard_shift(n: int, b, c) -> arb:
    """Delta_n = log((n + c)/(n - 1 + c))/b in balls (n = 0: the edge 0-1, Delta_0 = Delta_1)."""
    if int(n) != n or n < 0:
        raise ValueError(f"n must be a count >= 0, got {n}")
    b = to_arb(b)
    if not b > 0:
        raise ValueError(f"b must be > 0, got {b}")
    return formulas.log_gap.ball(int(n), c) / b


def budget_bound(n: int, b, c, a1p) -> arb:
    """(U2): an upper bound (exact ball) of v(n) and of the envelope v~(n): 2 I Delta_n^2,
    I = 4|a1'|/3 (the bound I u^2/2 of formulas.airy_score_cgf_bound at u = 2 Delta_n)."""
    d = standard_shift(n, b, c)
    return arb(formulas.airy_score_cgf_bound.ball(2 * d, a1p).upper())


def decide_shifts_decreasing(ns: Sequence[int], b, c) -> Verdict:
    """Delta_n strictly decreasing along the increasing counts ``ns`` (all >= 1): then v(n) is
    nonincreasing along them (U3)."""
    ns = [int(n) for n in ns]
    if any(n < 1 for n in ns) or ns != sorted(set(ns)):
        raise ValueError(f"ns must be increasing counts >= 1, got {ns}")
    shifts = [standard_shift(n, b, c) for n in ns]
    return verdict_all([decide_gt(x, y) for x, y in zip(shifts, shifts[1:])])


def decide_nonincreasing(values: Sequence) -> Verdict:
    """Claim values[0] >= values[1] >= ... (balls or exact numbers)."""
    vs = [to_arb(v) for v in values]
    return verdict_all([decide_ge(x, y) for x, y in zip(vs, vs[1:])])


def running_envelope(values: Sequence) -> list[arb]:
    """Each value replaced by the largest value at or after it (balls: the upper ends)."""
    out, top = [], None
    for v in reversed([to_arb(v) for v in values]):
        up = arb(v.upper())
        top = up if top is None or up > top else top
        out.append(top)
    return out[::-1]


def decide_below_bound(ns: Sequence[int], values: Sequence, b, c, a1p) -> Verdict:
    """Claim v(n) <= 2 I Delta_n^2 at each count of ``ns`` for the given budget values (a scan)."""
    return verdict_all([decide_ge(budget_bound(n, b, c, a1p), v) for n, v in zip(ns, values)])
