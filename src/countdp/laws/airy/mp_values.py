"""The Airy law's density, score and tail in mpmath, at the ambient precision.

Write ``z = |x| + a1'`` and ``R(z) = -Ai'(z)/Ai(z)``.  Then ``log f(x) = 2 log Ai(z) - log Z``,
the score is ``s(x) = -(log f)'(x) = 2 sign(x) R(z)`` and, from ``int Ai^2 = z Ai^2 - Ai'^2``,
``P(X > x) = (Ai'(z)^2 - z Ai(z)^2) / Z`` for x >= 0.

The Airy values come from python-flint's arb ball arithmetic, accepted once certified to the
ambient precision (much faster than ``mpmath.airyai``, which is the fallback without flint), and
memoised: quadratures revisit the same nodes.  Guard bits: 20 for the Taylor series of the score
near 0 (a sum of ``prec/4 + 16`` terms), ``30 + 1.5 log2 z`` for the tail's cancellation.
"""

from __future__ import annotations

from functools import lru_cache

from mpmath import mp

from .constants import ambient_defining_constants, defining_constants

try:  # optional fast certified Airy evaluation (see _certified_airy_pair)
    import flint as _flint
except ImportError:  # pragma: no cover
    _flint = None

__all__ = ["mp_pdf", "mp_logpdf", "mp_score", "mp_cdf", "mp_sf"]

_AIRY_PAIR_CACHE: dict = {}
_AIRY_PAIR_CACHE_MAX = 200_000
#: below this |x| the score comes from the Taylor series of R about a1'
_MP_TAYLOR_BELOW = mp.mpf(1) / 16


def _certified_airy_pair(z):
    """(Ai(z), Ai'(z)) rounded to the ambient precision.

    With python-flint, evaluated in arb ball arithmetic (~100x faster than mpmath.airyai) and
    accepted only once the ball certifies ``mp.prec`` correct bits (relative for Ai; for Ai',
    relative or below 2^-2prec |Ai| in absolute terms, which covers the zero of Ai' at a1');
    the working precision is doubled until then.  Without flint: mpmath.airyai."""
    prec = mp.prec
    if _flint is None:
        return mp.airyai(z), mp.airyai(z, derivative=1)
    extra = 20
    while True:
        with _flint.ctx.workprec(prec + extra):
            zz = _flint.arb(z)
            ai = zz.airy_ai()
            aip = zz.airy_ai(derivative=1)
            aip_ok = (aip.rel_accuracy_bits() >= prec + 2
                      or aip.rad() <= abs(ai.mid()) * _flint.arb(2) ** (-2 * prec))
        if (ai.rel_accuracy_bits() >= prec + 2 and aip_ok) or extra > 8 * prec:
            break
        extra *= 2
    return mp.mpf(ai), mp.mpf(aip)


def airy_pair(z):
    """(Ai(z), Ai'(z)) at the ambient precision, memoised per (z, precision)."""
    key = (z, mp.prec)
    v = _AIRY_PAIR_CACHE.get(key)
    if v is None:
        if len(_AIRY_PAIR_CACHE) > _AIRY_PAIR_CACHE_MAX:
            _AIRY_PAIR_CACHE.clear()
        v = _certified_airy_pair(mp.mpf(z))
        _AIRY_PAIR_CACHE[key] = v
    return v


def real_mpf(name, x):
    """``x`` as an mpf, refusing NaN (ValueError naming ``name``)."""
    x = mp.mpf(x)
    if mp.isnan(x):
        raise ValueError(f"{name} must be a real number (not NaN), got NaN")
    return x


def mp_logpdf(x):
    """log f(x) = 2 log Ai(|x| + a1') - log Z, at the ambient precision."""
    x = real_mpf("x", x)
    if mp.isinf(x):
        return mp.ninf
    base = ambient_defining_constants()
    return 2 * mp.log(airy_pair(abs(x) + base.a1p)[0]) - base.logZ


def mp_pdf(x):
    """f(x) = Ai(|x| + a1')^2 / Z, at the ambient precision."""
    x = real_mpf("x", x)
    if mp.isinf(x):
        return mp.zero
    base = ambient_defining_constants()
    return airy_pair(abs(x) + base.a1p)[0] ** 2 / base.Z


def mp_score(x):
    """s(x) = -(log f)'(x) = -2 sign(x) Ai'(z)/Ai(z), z = |x| + a1' (s(0) = 0)."""
    x = real_mpf("x", x)
    if mp.isinf(x):
        return mp.inf if x > 0 else mp.ninf
    if x == 0:
        return mp.zero
    t = abs(x)
    if t < _MP_TAYLOR_BELOW:
        # s(x) ~ 2|a1'| x near 0; the Taylor series in t avoids rounding z = t + a1'
        r = _mp_ratio_taylor_coefficients(mp.prec)
        with mp.workprec(mp.prec + 20):
            v = mp.zero
            for c in reversed(r):
                v = v * t + c
        return 2 * mp.sign(x) * v
    ai, aip = airy_pair(t + ambient_defining_constants().a1p)
    return -2 * mp.sign(x) * aip / ai


@lru_cache(maxsize=None)
def _mp_ratio_taylor_coefficients(prec: int):
    """Taylor coefficients of R(a1' + t) (the Riccati recursion of
    :func:`countdp.laws.airy.asymptotics.ratio_taylor_coefficients`) at precision prec;
    prec/4 + 16 terms make the truncation < 2^-prec for t < 1/16 (radius of convergence 1.32)."""
    n = prec // 4 + 16
    with mp.workprec(prec + 20):
        a = defining_constants(prec).a1p
        r = [mp.zero] * (n + 1)
        for k in range(n):
            sq = mp.fsum(r[i] * r[k - i] for i in range(k + 1))
            r[k + 1] = (sq - (a if k == 0 else 0) - (1 if k == 1 else 0)) / (k + 1)
    return tuple(r)


def mp_sf(x):
    """P(X > x).  For x >= 0: (Ai'(z)^2 - z Ai(z)^2) / Z with z = x + a1' (from
    int Ai^2 = z Ai^2 - Ai'^2); the cancellation (~ 2 z^{3/2}) is absorbed by guard bits.
    For x < 0: 1 - sf(-x)."""
    x = real_mpf("x", x)
    if x < 0:
        return 1 - mp_sf(-x)
    if mp.isinf(x):
        return mp.zero
    z = x + ambient_defining_constants().a1p
    extra = 30 + (int(1.5 * float(mp.log(z, 2))) if z > 1 else 0)
    with mp.workprec(mp.prec + extra):
        base = ambient_defining_constants()
        z = mp.mpf(x) + base.a1p
        ai, aip = airy_pair(z)
        v = (aip**2 - z * ai**2) / base.Z
    return +v


def mp_cdf(x):
    """P(X <= x) = 1 - mp_sf(x)."""
    x = real_mpf("x", x)
    return mp_sf(-x)
