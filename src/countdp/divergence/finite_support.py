"""The pmfs of a discrete pair over P's support: the pairs that
:class:`countdp.divergence.loss_cgf.FiniteLossCgf` sums exactly instead of integrating."""

from __future__ import annotations

import mpmath

from ..laws import Law

__all__ = ["finite_support_pmfs"]


def finite_support_pmfs(P: Law, Q: Law, tail):
    """(p list, q list, tail_p, tail_q) over P's support, or None if not a discrete pair."""
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


def _pmf_values(Q: Law, ks) -> list:
    if Q.integer:
        ks = list(ks)
        if not ks:
            return []
        return Q.mp_pmf_range(ks[0], ks[-1]) if ks == list(range(ks[0], ks[-1] + 1)) else [Q.mp_pmf(k) for k in ks]
    qa = Q.atoms()
    return [qa.get(mpmath.mpf(k), mpmath.mpf(0)) for k in ks]
