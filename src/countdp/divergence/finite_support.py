"""The pmfs of a discrete pair over P's support: the pairs that
:class:`countdp.divergence.loss_cgf.FiniteLossCgf` sums exactly instead of integrating."""

from __future__ import annotations

import mpmath

from ..laws import Law

__all__ = ["finite_support_pmfs", "ratio_stays_within"]


PROBE_DOUBLINGS = 62  # probes k = hi + 2^j, lo - 2^j beyond a window, j = 0 .. 62


def finite_support_pmfs(P: Law, Q: Law, tail):
    """(p list, q list, tail_p, tail_q) over P's support, or None if not a discrete pair -- or if
    P's support is infinite and the ratio p/q beyond the proven window is not shown to stay
    within its maximum over the window (:func:`ratio_stays_within`), on which the window's
    allowance for the mass it leaves out rests."""
    def is_discrete(L):
        return L.integer or (L.density is None or L.density.mass() == 0)

    if not (is_discrete(P) and is_discrete(Q)):
        return None
    if P.integer and (P.support_lo is None or P.support_hi is None):
        lo, hi = P.window(tail)
        if Q.integer and (Q.support_lo is None or Q.support_hi is None):
            qlo, qhi = Q.window(tail)
            lo, hi = min(lo, qlo), max(hi, qhi)
        if hi - lo > 400000:
            return None
        ks = range(lo, hi + 1)
        ps = P.mp_pmf_range(lo, hi)
        qs = _pmf_values(Q, ks)
        tq = tail if (Q.integer and (Q.support_lo is None or Q.support_hi is None)) else 0
        if not ratio_stays_within(P, Q, lo, hi, ps, qs):
            return None
        return ps, qs, tail, tq
    if P.integer:
        ks = range(P.support_lo, P.support_hi + 1)
        ps = P.mp_pmf_range(P.support_lo, P.support_hi)
        return ps, _pmf_values(Q, ks), 0, 0
    atoms = P.atoms()
    qa = Q.atoms() if not Q.integer else None
    xs = list(atoms)
    ps = [atoms[x] for x in xs]
    if qa is not None:
        qs = [qa.get(x, mpmath.mpf(0)) for x in xs]
    else:
        qs = [Q.mp_pmf(int(x)) if x == int(x) else mpmath.mpf(0) for x in xs]
    return ps, qs, 0, 0


def ratio_stays_within(P: Law, Q: Law, lo: int, hi: int, ps: list, qs: list) -> bool:
    """Whether log(p/q) at the probes k = hi + 2^j and lo - 2^j (j = 0 .. 62, where P has mass)
    stays within its maximum over lo..hi (``ps``, ``qs``), up to half the working digits and the
    rounding of the two logarithms.  The mass of P beyond the window is charged at that maximum ratio, so a ratio
    that grows outside (DLap(0, a = 1) against DLap(0, a = 2): log(p/q) = |k| + const) makes that
    charge, and D_inf read off the window, wrong; a probe where Q's pmf is 0 (or underflows to
    it) counts as not within.  A check at the probes, not a proof between them."""
    inside = [mpmath.log(p) - mpmath.log(q) for p, q in zip(ps, qs) if p > 0 and q > 0]
    if len(inside) < sum(1 for p in ps if p > 0):
        return True  # P has mass where Q has none inside the window: infinite, decided there
    top = max(inside)
    slack = mpmath.mpf(2) ** (-(mpmath.mp.prec // 2)) * (1 + abs(top))
    for k in (k for j in range(PROBE_DOUBLINGS + 1) for k in (hi + 2 ** j, lo - 2 ** j)):
        if (P.support_hi is not None and k > P.support_hi) or (P.support_lo is not None and k < P.support_lo):
            continue
        p = P.mp_pmf(k)
        if not p > 0:
            continue
        q = Q.mp_pmf(k) if Q.integer else Q.atoms().get(mpmath.mpf(k), mpmath.mpf(0))
        if not q > 0:
            return False
        lp, lq = mpmath.log(p), mpmath.log(q)  # far out |log p| is large and so is its rounding
        if lp - lq > top + slack + 8 * mpmath.eps * (abs(lp) + abs(lq)):
            return False
    return True


def _pmf_values(Q: Law, ks) -> list:
    if Q.integer:
        ks = list(ks)
        if not ks:
            return []
        return Q.mp_pmf_range(ks[0], ks[-1]) if ks == list(range(ks[0], ks[-1] + 1)) else [Q.mp_pmf(k) for k in ks]
    qa = Q.atoms()
    return [qa.get(mpmath.mpf(k), mpmath.mpf(0)) for k in ks]
