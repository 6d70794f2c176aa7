"""The Airy law: the symmetric density of least Fisher information at fixed E|X|.

    f(x) = Ai(|x| + a1')^2 / Z,   a1' = first zero of Ai' (~ -1.0187929716),
    Z = 2 |a1'| Ai(a1')^2.

Write ``z = |x| + a1'`` and ``R(z) = -Ai'(z)/Ai(z)``.  Then the score is
``s(x) = -(log f)'(x) = 2 sign(x) R(z)``, the Riccati equation ``R' = R^2 - z`` holds
(because ``Ai'' = z Ai``), and ``s'(x) = 2 R'(z) > 0`` for ``x > 0``: f is log-concave.

Closed forms (antiderivatives of ``Ai^2``, ``z Ai^2``, ``z^2 Ai^2`` and ``Ai'^2``, all vanishing at
``+inf``, evaluated at ``a1'`` where ``Ai' = 0``)::

    int Ai^2       = z Ai^2 - Ai'^2
    int z Ai^2     = (z^2 Ai^2 - z Ai'^2 + Ai Ai') / 3
    int z^2 Ai^2   = (z^3 Ai^2 - z^2 Ai'^2 + 2 z Ai Ai' - Ai^2) / 5
    int Ai'^2      = Ai Ai' - int z Ai^2

give, with ``A = |a1'|``:  ``Z = 2 A Ai(a1')^2``, ``m = E|X| = 2A/3``, ``I = E s^2 = 4A/3``,
``E X^2 = 1/(5A) + 8A^2/15`` and ``m^2 I / 2 = 8 A^3 / 27 ~ 0.3133170606``.

Two independent routes to the constants: :func:`airy_constants` (the closed forms of
:mod:`countdp.formulas.airy`, a1' from ``mpmath.airyaizero``) and
:func:`airy_constants_by_quadrature` (a1' by Newton's method on ``Ai'``, then ``mpmath.quad`` of
the density, ``|x| f``, ``s^2 f`` and ``x^2 f``).

Float64 numerics.  For ``z < 12`` the values come from ``scipy.special.airy``; for
``z >= 12`` from the large-z asymptotic series (DLMF 9.7.5-9.7.6, ``zeta = 2/3 z^{3/2}``)::

    Ai(z)  = exp(-zeta) / (2 sqrt(pi) z^{1/4}) * U,   U = sum_k (-1)^k u_k zeta^{-k}
    Ai'(z) = -z^{1/4} exp(-zeta) / (2 sqrt(pi)) * V,  V = sum_k (-1)^k v_k zeta^{-k}

with 22 terms (the first omitted term is < 1e-19 at z = 12, and for real z the error is below
it), so ``log f``, the score ``2 sqrt(z) V/U`` and the survival function
``sf = (Ai'^2 - z Ai^2)/Z = exp(-2 zeta) sqrt(z) (V - U)(V + U) / (4 pi Z)`` are computed without
overflow, underflow or cancellation for any |x| up to ~1e200 (``scipy.special.airye`` itself
returns NaN beyond z = 2^20 ~ 1.05e6).  Below z = 12 the survival function is the difference
``Ai'^2 - z Ai^2``, which loses about ``log10(2 z^{3/2})`` (<= 2) digits: relative error
< ~1e-13 there (5e-14 observed).  Near x = 0 the score uses the Taylor series of R about
a1' (|x| < 0.1), which keeps relative accuracy that rounding z = |x| + a1' would lose.

mpmath numerics (``mp_*``) work at the current ``mpmath.mp`` precision.  Their Airy values come
from python-flint's arb ball arithmetic, accepted once certified to that precision (much faster
than ``mpmath.airyai``, which is the fallback without flint).  Expectations E g(X):
:func:`mp_expect` (tanh-sinh) and :class:`MpGaussLegendre` (many g on one set of nodes); the
score CGF in float64: :func:`score_cgf_float`.

As a law: :class:`AiryLaw` (``b X + t``, a :class:`countdp.laws.ContinuousLaw`) whose density
names its location family :data:`STANDARD`, so that the divergence engine evaluates a pair of
translates by its location evaluator (:mod:`countdp.divergence.location`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from mpmath import mp
import numpy as np
from scipy import special as _sc

from .. import formulas
from ..numerics import validate
from ..numerics.contexts import to_arb
from ..numerics.estimate import Estimate
from ..numerics.quadrature import GL10, GL16, log_window_integral, panel_nodes
from .base import ContinuousLaw, Density
from .symmetric import check_dps, half_line_quad, symmetric_score_cgf

try:  # optional fast certified Airy evaluation (see _airy_pair_eval)
    import flint as _flint
except ImportError:  # pragma: no cover
    _flint = None

__all__ = [
    "AiryConstants",
    "airy_constants",
    "airy_constants_by_quadrature",
    "pdf",
    "logpdf",
    "score",
    "cdf",
    "sf",
    "logsf",
    "ppf",
    "mp_pdf",
    "mp_logpdf",
    "mp_score",
    "mp_cdf",
    "mp_sf",
    "abs_moment",
    "second_moment",
    "score_moment",
    "score_moment_ratio",
    "score_cgf",
    "sample",
    "sampler_acceptance_rate",
    "score_prime",
    "mp_expect",
    "MpGaussLegendre",
    "mp_gauss_legendre",
    "fold_edges",
    "score_cgf_float",
    "StandardAiry",
    "STANDARD",
    "AiryDensity",
    "AiryLaw",
]

# ============================================================================================
# High-precision constants
# ============================================================================================


def _check_dps(dps) -> int:
    return check_dps(dps)


def _value_error(e: Estimate) -> tuple:
    return e.value, e.error


@lru_cache(maxsize=None)
def _mp_base(prec: int):
    """(a1', Ai(a1'), Z, log Z) at binary precision ``prec`` (the closed forms of
    :mod:`countdp.formulas.airy`; a1' from mpmath.airyaizero, checked to be a zero of Ai': a wrong
    zero raises rather than define a density that is not the Airy law)."""
    with mp.workprec(prec + 20):
        a = formulas.airy_prime_zero()
        if not abs(mp.airyai(a, derivative=1)) < mp.mpf(2) ** (-(prec // 2)):
            raise ValueError(f"a1' = {mp.nstr(a, 15)} is not a zero of Ai' (Ai' = "
                             f"{mp.nstr(mp.airyai(a, derivative=1), 5)}): the Airy law is undefined")
        ai = mp.airyai(a)
        Z = formulas.airy_normaliser(a)
        logZ = mp.log(Z)
    return a, ai, Z, logZ


def _cur():
    return _mp_base(mp.prec)


@dataclass(frozen=True)
class AiryConstants:
    """Constants of the standard Airy law (mean 0).

    ``a1p`` = a1', ``ai_a1p`` = Ai(a1'), ``Z`` = normaliser, ``mean_abs`` = m = E|X|,
    ``fisher`` = I = E s(X)^2, ``second_moment`` = E X^2 (= variance), ``m2I_half`` = m^2 I / 2.
    Values are mpmath numbers (``dps`` an int) or floats (``dps`` None).  ``route`` names how
    they were computed; ``error`` is the largest absolute quadrature error estimate (quadrature
    route only).
    """

    a1p: object
    ai_a1p: object
    Z: object
    mean_abs: object
    fisher: object
    second_moment: object
    m2I_half: object
    dps: int | None
    route: str
    error: object = None

    @property
    def var(self):
        return self.second_moment


def _closed_form_mp(dps: int) -> AiryConstants:
    with mp.workdps(dps):
        a, ai, Z, _ = _cur()
        return AiryConstants(
            a1p=+a,
            ai_a1p=+ai,
            Z=+Z,
            mean_abs=formulas.airy_mean_abs(a),
            fisher=formulas.airy_fisher(a),
            second_moment=formulas.airy_second_moment(a),
            m2I_half=formulas.airy_limit_constant(a),
            dps=dps,
            route="closed form (antiderivatives of z^k Ai^2, a1' = mpmath.airyaizero)",
        )


@lru_cache(maxsize=None)
def _float_constants() -> AiryConstants:
    c = _closed_form_mp(30)
    return AiryConstants(
        a1p=float(c.a1p), ai_a1p=float(c.ai_a1p), Z=float(c.Z), mean_abs=float(c.mean_abs),
        fisher=float(c.fisher), second_moment=float(c.second_moment), m2I_half=float(c.m2I_half),
        dps=None, route=c.route,
    )


def airy_constants(dps=None) -> AiryConstants:
    """Closed-form constants (see module docstring); floats if ``dps`` is None, else mpmath
    numbers computed at ``dps`` decimal digits."""
    if dps is None:
        return _float_constants()
    return _closed_form_mp(_check_dps(dps))


def airy_constants_by_quadrature(dps=30) -> AiryConstants:
    """Constants by an independent route: a1' by Newton's method on Ai' (Ai'' = z Ai) from -1,
    then ``mpmath.quad`` (tanh-sinh, :func:`countdp.laws.symmetric.half_line_quad`) of

        Z = 2 int_0^inf Ai(x+a1')^2,  m = 2 int x Ai^2 / Z,  I = 2 int s^2 Ai^2 / Z,
        E X^2 = 2 int x^2 Ai^2 / Z,

    with ``s = -2 Ai'/Ai``.  ``error`` is the largest propagated quadrature error estimate."""
    dps = _check_dps(dps)
    with mp.workdps(dps + 10):
        a = mp.findroot(lambda z: mp.airyai(z, derivative=1), mp.mpf(-1),
                        df=lambda z: z * mp.airyai(z), solver="newton")

        def ai2(x):
            return _mp_airy_pair(x + a)[0] ** 2

        def logai2(x):
            return 2 * mp.log(_mp_airy_pair(x + a)[0])

        def s2ai2(x):
            ai, aip = _mp_airy_pair(x + a)
            return (2 * aip / ai) ** 2 * ai**2

        def logs2ai2(x):
            ai, aip = _mp_airy_pair(x + a)
            return 2 * mp.log(2 * abs(aip)) if aip != 0 else mp.ninf

        h0, e0 = _value_error(half_line_quad(ai2, logai2, dps))
        h1, e1 = _value_error(half_line_quad(lambda x: x * ai2(x), lambda x: mp.log(x) + logai2(x), dps))
        h2, e2 = _value_error(half_line_quad(lambda x: x**2 * ai2(x), lambda x: 2 * mp.log(x) + logai2(x), dps))
        hs, es = _value_error(half_line_quad(s2ai2, logs2ai2, dps))
        Z = 2 * h0
        m = h1 / h0
        ex2 = h2 / h0
        fisher = hs / h0
        # first-order propagation of the absolute quadrature errors
        rel0 = e0 / h0
        err = max(e1 / h0 + m * rel0, e2 / h0 + ex2 * rel0, es / h0 + fisher * rel0, 2 * e0)
        ai_a = mp.airyai(a)
    with mp.workdps(dps):
        return AiryConstants(
            a1p=+a, ai_a1p=+ai_a, Z=+Z, mean_abs=+m, fisher=+fisher, second_moment=+ex2,
            m2I_half=m**2 * fisher / 2, dps=dps,
            route="mpmath.quad of Ai(x+a1')^2, x Ai^2, s^2 Ai^2, x^2 Ai^2 (a1' by Newton on Ai')",
            error=+err,
        )


# ============================================================================================
# mpmath density, score, cdf
# ============================================================================================

_MP_AIRY_CACHE: dict = {}


def _airy_pair_eval(z):
    """(Ai(z), Ai'(z)) rounded to the current mpmath precision.

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


def _mp_airy_pair(z):
    """(Ai(z), Ai'(z)) at the current precision, memoised (quadratures revisit the same nodes)."""
    key = (z, mp.prec)
    v = _MP_AIRY_CACHE.get(key)
    if v is None:
        if len(_MP_AIRY_CACHE) > 200_000:
            _MP_AIRY_CACHE.clear()
        v = _airy_pair_eval(mp.mpf(z))
        _MP_AIRY_CACHE[key] = v
    return v


def _mp_real(name, x):
    x = mp.mpf(x)
    if mp.isnan(x):
        raise ValueError(f"{name} must be a real number (not NaN), got NaN")
    return x


def mp_logpdf(x):
    """log f(x) = 2 log Ai(|x| + a1') - log Z, at the current mpmath precision."""
    x = _mp_real("x", x)
    if mp.isinf(x):
        return mp.ninf
    a, _, _, logZ = _cur()
    return 2 * mp.log(_mp_airy_pair(abs(x) + a)[0]) - logZ


def mp_pdf(x):
    """f(x) = Ai(|x| + a1')^2 / Z, at the current mpmath precision."""
    x = _mp_real("x", x)
    if mp.isinf(x):
        return mp.zero
    a, _, Z, _ = _cur()
    return _mp_airy_pair(abs(x) + a)[0] ** 2 / Z


def mp_score(x):
    """s(x) = -(log f)'(x) = -2 sign(x) Ai'(z)/Ai(z), z = |x| + a1' (s(0) = 0)."""
    x = _mp_real("x", x)
    if mp.isinf(x):
        return mp.inf if x > 0 else mp.ninf
    if x == 0:
        return mp.zero
    t = abs(x)
    if t < _MP_T_TAYLOR:
        # s(x) ~ 2|a1'| x near 0; the Taylor series in t avoids rounding z = t + a1'
        r = _mp_ratio_coeffs(mp.prec)
        with mp.workprec(mp.prec + 20):
            v = mp.zero
            for c in reversed(r):
                v = v * t + c
        return 2 * mp.sign(x) * v
    a = _cur()[0]
    ai, aip = _mp_airy_pair(t + a)
    return -2 * mp.sign(x) * aip / ai


_MP_T_TAYLOR = mp.mpf(1) / 16


@lru_cache(maxsize=None)
def _mp_ratio_coeffs(prec: int):
    """Taylor coefficients of R(a1' + t) (see _ratio_taylor_coefficients) at precision prec;
    prec/4 + 16 terms make the truncation < 2^-prec for t < 1/16 (radius of convergence 1.32)."""
    n = prec // 4 + 16
    with mp.workprec(prec + 20):
        a = _mp_base(prec)[0]
        r = [mp.zero] * (n + 1)
        for k in range(n):
            sq = mp.fsum(r[i] * r[k - i] for i in range(k + 1))
            r[k + 1] = (sq - (a if k == 0 else 0) - (1 if k == 1 else 0)) / (k + 1)
    return tuple(r)


def mp_sf(x):
    """P(X > x).  For x >= 0: (Ai'(z)^2 - z Ai(z)^2) / Z with z = x + a1' (from
    int Ai^2 = z Ai^2 - Ai'^2); the cancellation (~ 2 z^{3/2}) is absorbed by extra precision.
    For x < 0: 1 - sf(-x)."""
    x = _mp_real("x", x)
    if x < 0:
        return 1 - mp_sf(-x)
    if mp.isinf(x):
        return mp.zero
    prec = mp.prec
    a = _cur()[0]
    z = x + a
    extra = 30 + (int(1.5 * float(mp.log(z, 2))) if z > 1 else 0)
    with mp.workprec(prec + extra):
        a, _, Z, _ = _cur()
        z = mp.mpf(x) + a
        ai, aip = _mp_airy_pair(z)
        v = (aip**2 - z * ai**2) / Z
    return +v


def mp_cdf(x):
    """P(X <= x) = 1 - mp_sf(x)."""
    x = _mp_real("x", x)
    return mp_sf(-x)


# ============================================================================================
# float64 density, score, cdf
# ============================================================================================

_C = _float_constants()
_A1P = _C.a1p
_LOGZ = math.log(_C.Z)
_Z_ASYM = 12.0
_NTERMS = 22
_LOG_2SQRTPI = math.log(2 * math.sqrt(math.pi))


def _series_coefficients(n):
    """Signed coefficients of U, V - U, V + U as polynomials in w = 1/zeta.
    u_0 = 1, u_k = u_{k-1} (6k-5)(6k-3)(6k-1) / (216 k (2k-1)), v_k = -u_k (6k+1)/(6k-1)."""
    u = [1.0]
    for k in range(1, n):
        u.append(u[-1] * (6 * k - 5) * (6 * k - 3) * (6 * k - 1) / (216 * k * (2 * k - 1)))
    cu = np.array([(-1) ** k * u[k] for k in range(n)])
    cvmu = np.array([0.0] + [(-1) ** k * (-u[k] * 12 * k / (6 * k - 1)) for k in range(1, n)])
    cvpu = np.array([2.0] + [(-1) ** k * (-2 * u[k] / (6 * k - 1)) for k in range(1, n)])
    return cu, cvmu, cvpu


_CU, _CVMU, _CVPU = _series_coefficients(_NTERMS)


def _ratio_taylor_coefficients(n):
    """Taylor coefficients r_k of R(a1' + t) = sum r_k t^k from the Riccati equation
    R' = R^2 - z, R(a1') = 0:  (k+1) r_{k+1} = [R^2]_k - a1' [k=0] - [k=1].  Radius of
    convergence 1.32 (the pole at the first zero of Ai, -2.338); used for t < 0.1, where 16 terms
    give < 1e-17 relative and the rounding of z = t + a1' (which costs relative accuracy ~1e-16/t
    in the direct route) is avoided."""
    r = [0.0] * (n + 1)
    for k in range(n):
        sq = sum(r[i] * r[k - i] for i in range(k + 1))
        r[k + 1] = (sq - (_A1P if k == 0 else 0.0) - (1.0 if k == 1 else 0.0)) / (k + 1)
    return np.array(r)


_RT = _ratio_taylor_coefficients(16)
_T_TAYLOR = 0.1


def _as_x(x) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if np.isnan(x).any():
        raise ValueError("x must be real numbers (not NaN); got NaN")
    return x


def _logai_and_ratio(t: np.ndarray, want_ratio: bool):
    """For t = |x| >= 0 (array): log Ai(z) and R(z) = -Ai'(z)/Ai(z) with z = t + a1'."""
    z = t + _A1P
    logai = np.empty_like(z)
    ratio = np.empty_like(z) if want_ratio else None
    small = z < _Z_ASYM
    if small.any():
        ai, aip, _, _ = _sc.airy(z[small])
        logai[small] = np.log(ai)
        if want_ratio:
            ratio[small] = -aip / ai
            near = t < _T_TAYLOR
            if near.any():
                ratio[near] = np.polynomial.polynomial.polyval(t[near], _RT)
    big = ~small
    if big.any():
        zb = z[big]
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            rz = np.sqrt(zb)
            zeta = (2.0 / 3.0) * zb * rz
            w = 1.0 / zeta
            U = np.polynomial.polynomial.polyval(w, _CU)
            logai[big] = -zeta - _LOG_2SQRTPI - 0.25 * np.log(zb) + np.log(U)
            if want_ratio:
                V = U + np.polynomial.polynomial.polyval(w, _CVMU)
                ratio[big] = rz * V / U
        inf = np.isinf(zb)
        if inf.any():
            tmp = logai[big]
            tmp[inf] = -np.inf
            logai[big] = tmp
            if want_ratio:
                tmp = ratio[big]
                tmp[inf] = np.inf
                ratio[big] = tmp
    return logai, ratio


def logpdf(x):
    """log f(x) = 2 log Ai(|x| + a1') - log Z, float64, stable for |x| up to ~1e200."""
    x = _as_x(x)
    la, _ = _logai_and_ratio(np.abs(x).ravel(), False)
    out = (2 * la - _LOGZ).reshape(x.shape)
    return out[()] if out.ndim == 0 else out


def pdf(x):
    """f(x) = exp(logpdf(x))."""
    return np.exp(logpdf(x))


def score(x):
    """s(x) = -(log f)'(x) = 2 sign(x) R(|x| + a1'), R = -Ai'/Ai; s ~ 2 sqrt|x| for large |x|."""
    x = _as_x(x)
    _, r = _logai_and_ratio(np.abs(x).ravel(), True)
    out = (2 * np.sign(x.ravel()) * r).reshape(x.shape)
    out = np.where(x == 0, 0.0, out)
    return out[()] if out.ndim == 0 else out


def score_prime(x):
    """s'(x) = s(x)^2/2 - 2(|x| + a1') (the Riccati equation R' = R^2 - z with s = 2 sign(x) R):
    the curvature of -log f, positive (f is log-concave)."""
    s = score(x)
    return 0.5 * s * s - 2.0 * (np.abs(x) + _A1P)


def _logsf_nonneg(t: np.ndarray) -> np.ndarray:
    """log P(X > t) for t >= 0 (array)."""
    z = t + _A1P
    out = np.empty_like(z)
    small = z < _Z_ASYM
    if small.any():
        zs = z[small]
        ai, aip, _, _ = _sc.airy(zs)
        out[small] = np.log(aip * aip - zs * ai * ai) - _LOGZ
    big = ~small
    if big.any():
        zb = z[big]
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            rz = np.sqrt(zb)
            zeta = (2.0 / 3.0) * zb * rz
            w = 1.0 / zeta
            vmu = np.polynomial.polynomial.polyval(w, _CVMU)
            vpu = np.polynomial.polynomial.polyval(w, _CVPU)
            v = (-2 * zeta + 0.5 * np.log(zb) + np.log(vmu * vpu) - math.log(4 * math.pi)) - _LOGZ
        v = np.where(np.isinf(zb), -np.inf, v)
        out[big] = v
    return out


def logsf(x):
    """log P(X > x); for x >= 0 from sf = (Ai'^2 - z Ai^2)/Z = Ai(z)^2 R'(z)/Z (see module
    docstring), for x < 0 as log1p(-sf(-x))."""
    x = _as_x(x)
    xf = x.ravel()
    out = np.empty_like(xf)
    pos = xf >= 0
    out[pos] = _logsf_nonneg(xf[pos])
    neg = ~pos
    if neg.any():
        out[neg] = np.log1p(-np.exp(_logsf_nonneg(-xf[neg])))
    out = out.reshape(x.shape)
    return out[()] if out.ndim == 0 else out


def sf(x):
    """P(X > x) (survival function), accurate in relative terms in the far right tail."""
    x = _as_x(x)
    xf = x.ravel()
    out = np.empty_like(xf)
    pos = xf >= 0
    out[pos] = np.exp(_logsf_nonneg(xf[pos]))
    neg = ~pos
    out[neg] = -np.expm1(_logsf_nonneg(-xf[neg]))
    out = out.reshape(x.shape)
    return out[()] if out.ndim == 0 else out


def cdf(x):
    """P(X <= x) = sf(-x) (symmetry), accurate in relative terms in the far left tail."""
    x = _as_x(x)
    return sf(-x)


def ppf(p):
    """Quantile: the x with cdf(x) = p.  With q = min(p, 1-p), solves log sf(x) = log q for
    x >= 0 by Newton's method from x = 0; log sf is concave and decreasing (f log-concave), so
    the iterates decrease monotonically to the root after the first step.  Stops at a step
    below 4 ulp (relative); p = 0 -> -inf, p = 1 -> inf."""
    p = np.asarray(p, dtype=float)
    if np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise ValueError("p must lie in [0, 1] (no NaN)")
    pf = p.ravel()
    q = np.where(pf < 0.5, pf, 1.0 - pf)
    x = np.zeros_like(q)
    active = q < 0.5
    zero_q = q == 0
    active &= ~zero_q
    with np.errstate(divide="ignore"):
        logq = np.log(q)
    for _ in range(200):
        if not active.any():
            break
        xa = x[active]
        ls = _logsf_nonneg(xa)
        lp = logpdf(xa)
        step = (ls - logq[active]) / np.exp(lp - ls)  # h / |h'|, h = logsf - log q
        xn = xa + step
        done = np.abs(step) <= 4 * np.finfo(float).eps * np.maximum(xn, 1e-300)
        x[active] = xn
        idx = np.flatnonzero(active)
        active[idx[done]] = False
    x = np.where(zero_q, np.inf, x)
    out = np.where(pf < 0.5, -x, x).reshape(p.shape)
    return out[()] if out.ndim == 0 else out


# ============================================================================================
# Expectations under the law: mpmath (tanh-sinh) and float64 (folded Gauss-Legendre)
# ============================================================================================

_DYADIC = (0.5, 1, 2, 4, 8, 16, 32, 64)


def mp_expect(g: Callable, extra_breaks=(), half: bool = False) -> Estimate:
    """E g(X) = int g(x) f(x) dx by mpmath tanh-sinh on the line split at 0, +-0.5, +-1, ...,
    +-64 and ``extra_breaks`` (kinks of g); ``half``: integrate over x >= 0 only.  The Airy
    values are memoised, so integrands sharing the breaks reuse them."""
    pts = {mp.mpf(0)}
    for d in _DYADIC:
        pts.add(mp.mpf(d))
        if not half:
            pts.add(mp.mpf(-d))
    for b in extra_breaks:
        b = mp.mpf(b)
        if (not half or b > 0) and abs(b) < 64:
            pts.add(b)
    nodes = ([] if half else [-mp.inf]) + sorted(pts) + [mp.inf]
    v, e = mp.quad(lambda x: g(x) * mp_pdf(x), nodes, error=True)
    return Estimate(v, abs(e) + 10 * mp.eps * abs(v))


class MpGaussLegendre:
    """Composite Gauss-Legendre rules (24 and 12 points per panel, mpmath's nodes) on panels of
    [-32, 32] (width 1/2 up to |x| = 8, then 1; a break at 0, where f is only C^2), with
    w_i f(x_i) precomputed at one binary precision: E g(X) for many g (e.g. e^{bX} for many b)
    then costs one pass over the nodes.  The tails |x| > 32 (mass ~ e^-241) are left out; callers
    check ``f(32) e^{32 b}`` against the precision (:meth:`tail_ok`).  Get one with
    :func:`mp_gauss_legendre` (cached per precision)."""

    X_MAX = 32

    def __init__(self, prec: int):
        from mpmath.calculus.quadrature import GaussLegendre

        self.prec = prec
        with mp.workprec(prec):
            gl = GaussLegendre(mp)
            self.base = {24: gl.calc_nodes(4, prec), 12: gl.calc_nodes(3, prec)}
            pos = [mp.mpf(k) / 2 for k in range(0, 17)] + [mp.mpf(k) for k in range(9, self.X_MAX + 1)]
            self.edges = sorted({-p for p in pos} | set(pos))
            self.panels = {n: [self._panel(a, b, n) for a, b in zip(self.edges[:-1], self.edges[1:])]
                           for n in self.base}

    def _panel(self, a, b, n):
        half, mid = (b - a) / 2, (b + a) / 2
        xs = [mid + half * x for x, _ in self.base[n]]
        ws = [half * w * mp_pdf(x) for x, (_, w) in zip(xs, self.base[n])]
        return a, b, xs, ws

    def tail_ok(self, b) -> bool:
        """Whether f(32) e^{32 |b|} is below the precision (the left-out tails of E e^{bX})."""
        with mp.workprec(self.prec):
            return bool(mp_pdf(self.X_MAX) * mp.exp(abs(mp.mpf(b)) * self.X_MAX)
                        < mp.mpf(2) ** (-self.prec - 10))

    @lru_cache(maxsize=64)
    def nodes(self, n: int, split=None):
        """Flattened (xs, ws) of the n-point rule, the panel holding ``split`` split there."""
        xs, ws = [], []
        with mp.workprec(self.prec):
            for a, b, px, pw in self.panels[n]:
                if split is not None and a < split < b:
                    for _, _, qx, qw in (self._panel(a, split, n), self._panel(split, b, n)):
                        xs += qx
                        ws += qw
                else:
                    xs += px
                    ws += pw
        return xs, ws

    def expect(self, g: Callable, split=None, error: bool = True) -> list[Estimate]:
        """E g(X) for a function g of one mpf returning a tuple of values (several expectations
        in one pass), by the 24-point rule, with error |24-point - 12-point| + rounding when
        ``error`` (else 0); ``split``: a point where g jumps (its panel is split there)."""
        with mp.workprec(self.prec):
            xs, ws = self.nodes(24, split)
            v24 = [mp.fdot(ws, col) for col in zip(*[g(x) for x in xs])]
            if not error:
                return [Estimate(v, mp.zero) for v in v24]
            xs, ws = self.nodes(12, split)
            v12 = [mp.fdot(ws, col) for col in zip(*[g(x) for x in xs])]
            return [Estimate(a, abs(a - b) + 100 * mp.eps * abs(a)) for a, b in zip(v24, v12)]

    @lru_cache(maxsize=64)
    def _ball_nodes(self, n: int, split=None) -> tuple[list, list, list]:
        """The n-point rule's nodes and weights as Arb balls (exact: the grid's binary numbers)
        and the sign of x - split at each node."""
        xs, ws = self.nodes(n, split)
        with _flint.ctx.workprec(self.prec + 32):
            xa, wa = [to_arb(x) for x in xs], [to_arb(w) for w in ws]
        signs = [1 if split is None or x > split else -1 for x in xs]
        return xa, wa, signs

    def tilted_sign_moments(self, b, split, error: bool = True) -> tuple[Estimate, Estimate]:
        """E[expm1(bX) sign(X - split)] and E[X e^{bX} sign(X - split)] by the 24-point rule
        (error |24-point - 12-point| + rounding when ``error``, else 0), the sums in Arb balls
        at this grid's precision + 20 bits: the same rule as :meth:`expect` with g = (sign *
        expm1(bx), sign * x e^{bx}), about 15x faster than mpmath's scalar arithmetic."""
        if _flint is None:  # pragma: no cover - python-flint is a dependency
            raise RuntimeError("python-flint is needed for tilted_sign_moments")

        def sums(n):
            xa, wa, signs = self._ball_nodes(n, split)
            with _flint.ctx.workprec(self.prec + 20):
                bb = to_arb(b)
                h, d = _flint.arb(0), _flint.arb(0)
                for x, w, sg in zip(xa, wa, signs):
                    e = (bb * x).expm1()
                    t, u = w * e, w * x * (e + 1)
                    if sg > 0:
                        h, d = h + t, d + u
                    else:
                        h, d = h - t, d - u
                return (mp.mpf(h.mid().str(int(self.prec / 3.32) + 12, radius=False)),
                        mp.mpf(d.mid().str(int(self.prec / 3.32) + 12, radius=False)))

        with mp.workprec(self.prec):
            b = mp.mpf(b)
            if split is not None:
                split = mp.mpf(split)
            v24 = sums(24)
            if not error:
                return tuple(Estimate(v, mp.zero) for v in v24)
            v12 = sums(12)
            return tuple(Estimate(a, abs(a - c) + 100 * mp.eps * abs(a)) for a, c in zip(v24, v12))


@lru_cache(maxsize=8)
def mp_gauss_legendre(prec: int) -> MpGaussLegendre:
    """The :class:`MpGaussLegendre` grid at binary precision ``prec`` (built once)."""
    return MpGaussLegendre(prec)


FOLD_WINDOW = 24.0  # f(24) ~ e^-157: the folded float64 integrals stop there
# relative error floor of float64 quantities built on the score: scipy's Ai, Ai' carry ~1e-15
# relative error, which s' = s^2/2 - 2z amplifies to < 1e-13 (7.9e-14 observed at x = 3)
FOLD_FLOOR = 2e-13


def fold_edges(delta: float = 0.0) -> np.ndarray:
    """Panel edges on [0, FOLD_WINDOW] for folded integrals over x >= 0 (width 1/4 below 4, then
    1/2), with ``delta`` added as an edge (the kink of f(x - delta))."""
    e = list(np.arange(0.0, 4.0, 0.25)) + list(np.arange(4.0, FOLD_WINDOW + 1e-9, 0.5))
    if 0 < delta < FOLD_WINDOW:
        e.append(delta)
    return np.array(sorted(set(round(v, 15) for v in e)))


@lru_cache(maxsize=512)
def score_cgf_float(u: float) -> Estimate:
    """K_s(u) = log E exp(u s(X)) in float64.  u <= 1: folded
    ``log1p(int_0^inf f (e^{us} + e^{-us} - 2))`` on [0, FOLD_WINDOW]; u > 1: the log-window
    integral around the peak x ~ u/2 of f e^{us}.  Cross-checked against :func:`score_cgf`."""
    u = float(validate.real("u", u, lo=0))
    if u <= 1.0:
        vals = []
        for rule in (GL16, GL10):
            x, w = panel_nodes(fold_edges(0.0), rule)
            g = 4.0 * np.sinh(u * score(x) / 2) ** 2 * np.exp(logpdf(x))
            vals.append(float(g @ w))
        J, J10 = vals
        return Estimate(math.log1p(J), abs(J - J10) / (1 + J) + 1e-15 * math.log1p(J))

    def ell(x):
        s = score(x)
        return logpdf(x) + u * s + np.log1p(np.exp(-2 * u * s))

    y0 = max(u / 2, 0.5)
    return log_window_integral(ell, y0, max(1.0, y0 ** 0.25), lo=0.0)


class StandardAiry:
    """The standard Airy law as a symmetric log-concave location family: what the divergence
    engine's location evaluator (:mod:`countdp.divergence.location`) needs of it."""

    name = "Airy"
    fold_floor = FOLD_FLOOR

    logpdf = staticmethod(logpdf)
    score = staticmethod(score)
    score_prime = staticmethod(score_prime)
    mp_logpdf = staticmethod(mp_logpdf)
    mp_expect = staticmethod(mp_expect)
    score_cgf = staticmethod(score_cgf_float)
    fold_edges = staticmethod(fold_edges)

    def __repr__(self) -> str:
        return "<the standard Airy law>"


STANDARD = StandardAiry()


# ============================================================================================
# Airy moments and score CGF
# ============================================================================================


def abs_moment(k, dps=30, *, error=False):
    """E|X|^k = 2 int_0^inf x^k f(x) dx by mpmath quadrature (k >= 0 real); with ``error`` an
    :class:`Estimate`."""
    dps = _check_dps(dps)
    k = validate.real("k", k, lo=0, lo_open=False)
    with mp.workdps(dps + 5):
        k = mp.mpf(k)

        def fun(x):
            return x**k * mp_pdf(x) if k else mp_pdf(x)

        def lw(x):
            if k == 0:
                return mp_logpdf(x)
            return k * mp.log(x) + mp_logpdf(x) if x > 0 else mp.ninf

        h = half_line_quad(fun, lw, dps)
    with mp.workdps(dps):
        return Estimate(+(2 * h.value), +(2 * h.error)) if error else +(2 * h.value)


def second_moment(dps=30, *, error=False):
    """E X^2 by quadrature (closed form: 1/(5|a1'|) + 8 a1'^2/15)."""
    return abs_moment(2, dps, error=error)


def score_moment(k, dps=30, *, error=False):
    """E s(X)^{2k} = 2 int_0^inf s(x)^{2k} f(x) dx by mpmath quadrature (k >= 1 integer; with
    ``error`` an :class:`Estimate`).  Note the exponent is 2k: score_moment(1) = I."""
    dps = _check_dps(dps)
    k = validate.count("k", k, lo=1)
    with mp.workdps(dps + 5):

        def fun(x):
            return mp_score(x) ** (2 * k) * mp_pdf(x)

        def lw(x):
            s = mp_score(x)
            return 2 * k * mp.log(s) + mp_logpdf(x) if s > 0 else mp.ninf

        h = half_line_quad(fun, lw, dps)
    with mp.workdps(dps):
        return Estimate(+(2 * h.value), +(2 * h.error)) if error else +(2 * h.value)


def score_moment_ratio(k, dps=30, *, error=False):
    """E s^{2k} / ((2k-1)!! I^k) with I = 4|a1'|/3 (closed form: formulas.airy_score_moment_bound);
    equals 1 at k = 1 and for
    every k for a Gaussian; < 1 for all k is a sufficient condition for strict
    sub-Gaussianity of the score (with ``error`` an :class:`Estimate`)."""
    dps = _check_dps(dps)
    k = validate.count("k", k, lo=1)
    M = score_moment(k, dps, error=True)
    with mp.workdps(dps + 5):
        den = formulas.airy_score_moment_bound(k)
        r, er = M.value / den, M.error / den
    with mp.workdps(dps):
        return Estimate(+r, +er) if error else +r


def score_cgf(u, dps=30, *, error=False):
    """K_s(u) = log E exp(u s(X)) for the Airy law (see :func:`symmetric_score_cgf`, which this
    calls with the normalised Airy log-density, so both laws go through the same code)."""
    return symmetric_score_cgf(mp_logpdf, mp_score, u, dps, normalised=True, error=error)


# ============================================================================================
# Exact sampler: log-concave rejection from a tangent-line envelope
# ============================================================================================

# tangent points for |X| (chosen by hand: acceptance 0.9883; any set would be exact)
_TANGENT_POINTS = (0.0, 0.45, 0.9, 1.35, 1.85, 2.4, 3.05, 3.85, 4.9)
_ENVELOPE_MARGIN = 1e-12  # log-scale slack that absorbs float error in the tangent lines


@dataclass(frozen=True)
class _Envelope:
    y: np.ndarray       # tangent points
    l: np.ndarray       # log g(y_i), g = density of |X| = 2 f on [0, inf)
    d: np.ndarray       # slopes (log g)'(y_i) = -s(y_i)
    b: np.ndarray       # segment boundaries b_0 = 0 < b_1 < ... < b_n < b_{n+1} = inf
    cum: np.ndarray     # cumulative segment probabilities
    total: float        # int envelope = 1 / acceptance


@lru_cache(maxsize=None)
def _envelope() -> _Envelope:
    y = np.array(_TANGENT_POINTS)
    l = math.log(2) + logpdf(y)
    d = -score(y)
    d[0] = 0.0
    # tangent i is the minimum on [b_i, b_{i+1}]; b_{i+1} solves l_i + d_i(x-y_i) = l_{i+1} + ...
    inner = (l[1:] - l[:-1] - d[1:] * y[1:] + d[:-1] * y[:-1]) / (d[:-1] - d[1:])
    b = np.concatenate([[0.0], inner, [np.inf]])
    if not np.all(np.diff(b) > 0):
        raise RuntimeError("tangent-line envelope is not ordered")
    L = np.diff(b)
    start = l + d * (b[:-1] - y)  # log envelope at the left end of each segment
    area = np.empty_like(L)
    for i in range(len(L)):
        if d[i] == 0.0:
            area[i] = math.exp(start[i]) * L[i]
        elif np.isinf(L[i]):
            area[i] = math.exp(start[i]) / (-d[i])
        else:
            area[i] = math.exp(start[i]) * math.expm1(d[i] * L[i]) / d[i]
    total = float(area.sum())
    cum = np.cumsum(area) / total
    cum[-1] = 1.0
    return _Envelope(y=y, l=l, d=d, b=b, cum=cum, total=total)


def _log_envelope(yv: np.ndarray) -> np.ndarray:
    """log of the (unnormalised) envelope at points yv >= 0 (for tests)."""
    env = _envelope()
    seg = np.searchsorted(env.b, yv, side="right") - 1
    seg = np.clip(seg, 0, len(env.y) - 1)
    return env.l[seg] + env.d[seg] * (yv - env.y[seg]) + _ENVELOPE_MARGIN


def sampler_acceptance_rate() -> float:
    """Acceptance probability of :func:`sample`'s rejection step = 1 / int envelope (0.9883)."""
    return 1.0 / _envelope().total


def _propose_abs(rng: np.random.Generator, n: int):
    env = _envelope()
    u1 = rng.random(n)
    v = rng.random(n)
    u2 = rng.random(n)
    neg = rng.random(n) < 0.5
    seg = np.minimum(np.searchsorted(env.cum, u1, side="right"), len(env.y) - 1)
    d = env.d[seg]
    L = env.b[seg + 1] - env.b[seg]
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        flat = d == 0.0
        tail = np.isinf(L)
        t = np.where(flat, v * np.where(tail, 0.0, L), 0.0)
        mid = ~flat & ~tail
        t = np.where(mid, np.log1p(v * np.expm1(d * np.where(mid, L, 0.0))) / np.where(mid, d, 1.0), t)
        t = np.where(tail, np.log1p(-v) / np.where(tail, d, -1.0), t)
    yv = env.b[seg] + t
    log_env = env.l[seg] + d * (yv - env.y[seg])
    with np.errstate(divide="ignore"):
        accept = np.log(u2) <= (math.log(2) + logpdf(yv)) - log_env - _ENVELOPE_MARGIN
    return yv, neg, accept


def sample(rng: np.random.Generator, size) -> np.ndarray:
    """Exact draws of X ~ f: |X| by rejection from the tangent-line envelope of the log-concave
    density 2 f on [0, inf) (tangents at 0, 0.45, ..., 4.9; a proposal is accepted when
    U <= g(y)/envelope(y)), then an independent fair sign.  Vectorised in batches; the
    acceptance rate is 1/int envelope = 0.9883 (see :func:`sampler_acceptance_rate`), so about
    1.02 proposals per draw.  Deterministic given the generator's state."""
    rng = validate.rng(rng)
    shape = _size_shape(size)
    n = int(np.prod(shape, dtype=np.int64))
    out = np.empty(n)
    filled = 0
    acc = sampler_acceptance_rate()
    while filled < n:
        need = n - filled
        batch = int(need / acc * 1.02) + 64
        yv, neg, ok = _propose_abs(rng, batch)
        got = np.where(neg, -yv, yv)[ok][:need]
        out[filled:filled + got.size] = got
        filled += got.size
    return out.reshape(shape)


def _size_shape(size) -> tuple:
    size = validate.size(size)
    return size if isinstance(size, tuple) else (size,)


# ============================================================================================
# The law of b X + t
# ============================================================================================


class AiryDensity(Density):
    """The density f((y - t)/b)/b of ``Y = b X + t`` (X standard Airy); a kink at t.  Its
    ``location_family`` (the standard law, :data:`STANDARD`) with ``loc`` = t and ``scale`` = b
    lets the divergence engine treat two such densities of one scale as a location pair."""

    location_family = STANDARD

    def __init__(self, b=1.0, t=0.0):
        self.scale = validate.real("b", b, lo=0)  # as given (an mpmath number stays exact)
        self.loc = validate.real("t", t)
        self.b, self.t = float(self.scale), float(self.loc)
        self.breakpoints = (self.t,)

    def mp_logpdf(self, y):
        y = _mp_real("y", y)
        b = mp.mpf(self.scale)
        return mp_logpdf((y - mp.mpf(self.loc)) / b) - mp.log(b)

    def logpdf(self, y):
        y = np.asarray(y, dtype=float)
        return logpdf((y - self.t) / self.b) - math.log(self.b)

    def t_center_scale(self):
        return mp.mpf(self.t), mp.mpf(self.b)


class AiryLaw(ContinuousLaw):
    """The law of ``Y = b X + t`` with X the standard Airy law (density Ai(|x|+a1')^2/Z).

    ``pdf(y) = f((y-t)/b)/b``; ``score(y) = -(log p)'(y) = s((y-t)/b)/b``.  Properties:
    ``mean = t``, ``var = b^2 E X^2``, ``mean_abs = E|Y - t| = b E|X|``, ``fisher = I/b^2``
    (for b = 1, t = 0 these are the standardised X's constants; ``constants`` gives X's).
    A :class:`countdp.laws.ContinuousLaw`: two of one scale are a location pair for
    :func:`countdp.divergence.tight_rho.tight_rho`.
    """

    def __init__(self, b=1.0, t=0.0):
        density = AiryDensity(b, t)
        self.b, self.t = density.b, density.t
        super().__init__(density, name=f"Airy(b {self.b:g}, t {self.t:g})")

    def __repr__(self):
        return f"AiryLaw(b={self.b!r}, t={self.t!r})"

    def _std(self, y):
        y = np.asarray(y, dtype=float)
        if np.isnan(y).any():
            raise ValueError("y must be real numbers (not NaN); got NaN")
        return (y - self.t) / self.b

    # float64
    def pdf(self, y):
        return pdf(self._std(y)) / self.b

    def logpdf(self, y):
        return logpdf(self._std(y)) - math.log(self.b)

    def cdf(self, y):
        return cdf(self._std(y))

    def sf(self, y):
        return sf(self._std(y))

    def logsf(self, y):
        return logsf(self._std(y))

    def ppf(self, p):
        return self.t + self.b * ppf(p)

    def score(self, y):
        return score(self._std(y)) / self.b

    def sample(self, rng: np.random.Generator, size) -> np.ndarray:
        return self.t + self.b * sample(rng, size)

    # mpmath, at the current precision
    def _mp_std(self, y):
        y = _mp_real("y", y)
        return (y - mp.mpf(self.t)) / mp.mpf(self.b)

    def mp_logpdf(self, y):
        return mp_logpdf(self._mp_std(y)) - mp.log(mp.mpf(self.b))

    def mp_pdf(self, y):
        return mp_pdf(self._mp_std(y)) / mp.mpf(self.b)

    def mp_score(self, y):
        return mp_score(self._mp_std(y)) / mp.mpf(self.b)

    def mp_cdf(self, y):
        return mp_cdf(self._mp_std(y))

    def mp_sf(self, y):
        return mp_sf(self._mp_std(y))

    # moments
    @property
    def constants(self) -> AiryConstants:
        """Float constants of the standard law X (b = 1, t = 0)."""
        return airy_constants()

    @property
    def mean(self) -> float:
        return self.t

    @property
    def var(self) -> float:
        return self.b**2 * _C.second_moment

    @property
    def mean_abs(self) -> float:
        return self.b * _C.mean_abs

    @property
    def fisher(self) -> float:
        return _C.fisher / self.b**2
