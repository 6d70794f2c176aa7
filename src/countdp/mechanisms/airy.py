"""The Airy log-mechanism: the shifted-log release with Airy noise (beyond the paper; C* note).

    Y = [ (n + c) exp(b X + t) - c ]_+ ,     X ~ f(x) = Ai(|x| + a1')^2 / Z,

X the *standard* Airy law of :mod:`countdp.airy` (symmetric, unit "scale": E|X| = m = 2|a1'|/3
~ 0.6792, Fisher information I_X = 4|a1'|/3 ~ 1.3584, E X^2 = 1/(5|a1'|) + 8 a1'^2/15 ~ 0.7498),
which is the least-Fisher-information law at fixed E|X| (see
``experiments/cstar/README.md``).  In ``w = log(Y + c)`` the unclipped release is
``w = log(n + c) + t + b X``: neighbouring counts give translates by
``delta_n = log((n + c)/(n - 1 + c))`` (Section 5's log gap), and clipping/rounding is
postprocessing.

Calibration (the analogue of eq (3) and of the drift -sigma^2 of Section 4.1).  The drift t
minimises ``e(b, t) = E|exp(b X + t) - 1|``; its t-derivative is
``E[e^{bX+t} sign(e^{bX+t} - 1)] = e^t E[e^{bX} sign(X - k)]`` with ``k = -t/b``, so the minimiser
makes k the *median of the exponentially tilted law* ``e^{bx} f(x) / E e^{bX}``, and there the
e^t-bracket of e(b, t) vanishes, leaving the minimal error ``2 F(k) - 1`` (F the cdf of X).
Hence "minimal error = rho := r0/(1+c)" is equivalent to

    k = q(rho) := F^{-1}((1 + rho)/2)     and     H(b) := E[expm1(b X) sign(X - q)] = rho,

(``E[sign(X - q)] = -rho`` was moved to the right; no cancellation at small rho), one root-find in
b (:func:`calibrate`), then ``t = -b q``.  Independent routes for the checks:
:func:`optimal_drift` (Newton on the t-derivative by quadrature) and :func:`drift_error`
(quadrature of |exp(bX+t) - 1|).  Small rho: ``b = rho/m (1 + O(rho^2))``, ``t ~ -b^2 m/(2 f(0))``.

Budget.  ``v(n) = sup_{alpha > 1} D_alpha(f || f(. - Delta)) / alpha`` with ``Delta = delta_n / b``
(both directions are equal: f is even), ``v(0) = v(1)``.  The supremum is found numerically
(:func:`shift_sup`): a log grid of alpha - 1 with the KL end, and a bound for the end
``alpha >= A`` from the score CGF.  For a symmetric log-concave f (score s nondecreasing),
``log f(x) - log f(x - Delta) <= -Delta s(x - Delta)``, so

    (alpha - 1) D_alpha(f || f_Delta) <= K_s(alpha Delta)     (K_s the CGF of s(X)),

and, if ``K_s(u)/u^2`` is nonincreasing (checked on a grid by claim cstar.airy.subgaussian, not
proved), ``sup_{alpha >= A} D_alpha/alpha <= Delta^2 [K_s(u_A)/u_A^2] A/(A-1)``, ``u_A = A Delta``.
The log-ratio is unbounded (``s ~ 2 sqrt|x|``), so D_inf = inf and the interpolation/D_inf bounds
of :mod:`countdp.tight_rho` cannot close that end; this bound does.

Float64 evaluation of F(alpha) = (alpha - 1) D_alpha without cancellation at small shifts: fold
the line onto x >= 0 with ``E(x) = 2 lf(x) - lf(x+Delta) - lf(x-Delta) >= 0`` (lf = log f, even
and concave) and ``O(x) = lf(x+Delta) - lf(x-Delta)``; then

    E_f[expm1(a L)] = int_0^inf 2 f(x) [expm1(a E/2) cosh(a O/2) + 2 sinh(a O/4)^2] dx,
    KL = int_0^inf f E,   E_f L^2 = int_0^inf f (E^2 + O^2)/2,     (L = lf(x) - lf(x - Delta))

with E and O for small Delta from ``E = int_{-D}^{D} (D - |h|) s'(x + h) dh`` and
``O = -int_{x-D}^{x+D} s`` (Gauss-Legendre; ``s' = s^2/2 - 2(|x| + a1')`` by the Riccati
equation of :mod:`countdp.airy`), so every term is positive or exactly odd-free.  Larger
``(alpha - 1) Delta`` use a log-sum-exp over a window placed at the peak of the integrand.
Quadrature error: Gauss-Legendre 16 vs 10 points on the same panels.  The precise KL
(:func:`mp_kl_shift`) is mpmath at ``dps + 2 log10(1/Delta) + 10`` digits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import mpmath
from mpmath import mp
import numpy as np

from ..laws import airy
from ..numerics import validate
from ..laws import ClippedAtZero, ContinuousLaw, LogShiftDensity
from .count import CountMechanism, stochastic_round
from ..formulas import log_gap

__all__ = [
    "Calibration", "calibrate", "error_quantile", "tilt_balance", "drift_error",
    "drift_error_derivative", "optimal_drift", "min_error",
    "LogShiftedAiryDensity", "LogShiftedAiry", "ClippedLogShiftedAiry",
    "ShiftSup", "shift_sup", "shift_renyi", "shift_kl", "mp_kl_shift", "mp_shift_renyi",
    "score_cgf_float", "score_cgf_tail_bound",
    "AiryLogMechanism", "airy_limit_constant", "ALPHA_TO_ONE", "standard_shift_pair",
    "generalised_gaussian", "generalised_gaussian_shift_pair", "equal_mean_abs_gaussian_sd",
    "richardson", "budget_ratio_vs_gaussian", "limit_ratio", "crossover_rho", "VsGaussian",
    "compare_with_gaussian",
]

ALPHA_TO_ONE = "alpha -> 1"
_C = airy.airy_constants()
_A1P = float(_C.a1p)


def _rho(r0, c):
    return mpmath.mpf(r0) / (1 + mpmath.mpf(c))


def airy_limit_constant(dps=None):
    """8 |a1'|^3 / 27 = m^2 I / 2 (closed form, airy_constants)."""
    return airy.airy_constants(dps).m2I_half


# ============================================================================================
# mpmath quadrature against the Airy density
# ============================================================================================

_DYADIC = [0.5, 1, 2, 4, 8, 16, 32, 64]


def _mp_expect(g, extra_breaks=(), half=False):
    """(value, error) of E g(X) = int g(x) f(x) dx by mpmath tanh-sinh on the line split at 0,
    +-0.5, +-1, ..., +-64 and ``extra_breaks`` (kinks of g); ``half``: integrate over x >= 0
    only.  The Airy values are memoised by :mod:`countdp.airy`, so integrands sharing the breaks
    reuse them."""
    pts = {mpmath.mpf(0)}
    for d in _DYADIC:
        pts.add(mpmath.mpf(d))
        if not half:
            pts.add(mpmath.mpf(-d))
    for b in extra_breaks:
        b = mpmath.mpf(b)
        if (not half or b > 0) and abs(b) < 64:
            pts.add(b)
    nodes = ([] if half else [-mpmath.inf]) + sorted(pts) + [mpmath.inf]

    def fun(x):
        return g(x) * airy.mp_pdf(x)

    v, e = mpmath.quad(fun, nodes, error=True)
    return v, abs(e) + 10 * mpmath.eps * abs(v)


def error_quantile(rho):
    """q(rho) = F^{-1}((1 + rho)/2): the point with 2 F(q) - 1 = P(|X| <= q) = rho (0 < rho < 1).
    Newton on ``2 int_0^q f - rho`` (no cancellation at small rho), float start airy.ppf."""
    rho = mpmath.mpf(validate.real("rho", rho, lo=0, hi=1))
    q = mpmath.mpf(float(airy.ppf(0.5 + float(rho) / 2)))
    if q <= 0:
        q = rho / (2 * airy.mp_pdf(0))
    for _ in range(60):
        mass = 2 * mpmath.quad(airy.mp_pdf, [0, q]) if q < 1 else 1 - 2 * airy.mp_sf(q)
        step = (mass - rho) / (2 * airy.mp_pdf(q))
        q -= step
        if abs(step) <= 4 * mpmath.eps * abs(q):
            break
    return q


class _MpGrid:
    """Composite Gauss-Legendre rules (24 and 12 points per panel, mpmath's nodes) on panels of
    [-32, 32] (width 1/2 up to |x| = 8, then 1; a break at 0, where f is only C^2), with
    w_i f(x_i) precomputed at one precision: E g(X) for many g (e.g. e^{bX} for many b) then
    costs one pass over the nodes.  The tails |x| > 32 (mass ~ e^-241) are left out; callers
    check ``f(32) e^{32 b}`` against the precision (:meth:`tail_ok`)."""

    X_MAX = 32

    def __init__(self, prec: int):
        from mpmath.calculus.quadrature import GaussLegendre

        self.prec = prec
        with mp.workprec(prec):
            gl = GaussLegendre(mp)
            self.base = {24: gl.calc_nodes(4, prec), 12: gl.calc_nodes(3, prec)}
            pos = [mpmath.mpf(k) / 2 for k in range(0, 17)] + [mpmath.mpf(k) for k in range(9, self.X_MAX + 1)]
            self.edges = sorted({-p for p in pos} | set(pos))
            self.panels = {n: [self._panel(a, b, n) for a, b in zip(self.edges[:-1], self.edges[1:])]
                           for n in self.base}

    def _panel(self, a, b, n):
        half, mid = (b - a) / 2, (b + a) / 2
        xs = [mid + half * x for x, _ in self.base[n]]
        ws = [half * w * airy.mp_pdf(x) for x, (_, w) in zip(xs, self.base[n])]
        return a, b, xs, ws

    def tail_ok(self, b) -> bool:
        with mp.workprec(self.prec):
            return bool(airy.mp_pdf(self.X_MAX) * mpmath.exp(abs(mpmath.mpf(b)) * self.X_MAX)
                        < mpmath.mpf(2) ** (-self.prec - 10))

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

    def expect(self, g, split=None, error=True):
        """E g(X) for a function g of one mpf returning a tuple of values (several expectations
        in one pass), by the 24-point rule, with error |24-point - 12-point| + rounding when
        ``error`` (else 0); ``split``: a point where g jumps (its panel is split there).
        Returns a list of (value, error)."""
        with mp.workprec(self.prec):
            xs, ws = self.nodes(24, split)
            vals = [g(x) for x in xs]
            v24 = [mpmath.fdot(ws, col) for col in zip(*vals)]
            if not error:
                return [(v, mpmath.mpf(0)) for v in v24]
            xs, ws = self.nodes(12, split)
            vals = [g(x) for x in xs]
            v12 = [mpmath.fdot(ws, col) for col in zip(*vals)]
            return [(a, abs(a - b_) + 100 * mpmath.eps * abs(a)) for a, b_ in zip(v24, v12)]


@lru_cache(maxsize=8)
def _mp_grid(prec: int) -> _MpGrid:
    return _MpGrid(prec)


def tilt_balance(b, q, error=True):
    """H(b) = E[expm1(b X) sign(X - q)] and dH/db = E[X e^{bX} sign(X - q)] by composite
    Gauss-Legendre at the current precision (mpmath.quad when |b| is too large for the grid's
    window): (H, error, H', error)."""
    b, q = mpmath.mpf(b), mpmath.mpf(q)
    grid = _mp_grid(mp.prec)
    if grid.tail_ok(b):
        def g(x):
            sh = mpmath.sinh(b * x / 2)
            e = 2 * sh * (sh + mpmath.sqrt(1 + sh * sh))  # expm1(bx) (mpmath's expm1 is slow)
            return (e, x * (e + 1)) if x > q else (-e, -x * (e + 1))
        (h, eh), (d, ed) = grid.expect(g, split=q, error=error)
        return h, eh, d, ed

    def sgn(x):
        return 1 if x > q else -1

    h, eh = _mp_expect(lambda x: mpmath.expm1(b * x) * sgn(x), [q])
    d, ed = _mp_expect(lambda x: x * mpmath.exp(b * x) * sgn(x), [q])
    return h, eh, d, ed


@dataclass(frozen=True)
class Calibration:
    """The calibrated scale and drift for error target rho = r0/(1+c).

    ``b``: noise scale; ``t``: drift (= -b q); ``q``: the error quantile F^{-1}((1+rho)/2) (the
    tilted median at the optimum); ``residual``: H(b) - rho at the returned b; ``error``: the
    quadrature error of H; ``b_error``: (|residual| + error)/H'(b), a bound on |b - b_exact| to
    first order.  mpmath numbers at ``dps`` digits."""

    rho: object
    b: object
    t: object
    q: object
    residual: object
    error: object
    b_error: object
    iterations: int
    dps: int


def _calibrate_float(rho: float, q: float) -> float:
    """Float64 start for the Newton iteration of :func:`calibrate`: H(b) = rho by Newton on
    Gauss-Legendre panels of [-32, 32] split at q."""
    edges = sorted(set(np.r_[np.arange(-32.0, 33.0, 0.5), q]))
    x, w = _panel_nodes(edges, _GL16)
    fw = np.exp(airy.logpdf(x)) * w
    sg = np.where(x > q, 1.0, -1.0)
    b = rho / float(_C.mean_abs)
    for _ in range(50):
        h = float(fw @ (np.expm1(b * x) * sg))
        d = float(fw @ (x * np.exp(b * x) * sg))
        step = (h - rho) / d
        b -= step
        if abs(step) < 1e-15 * b:
            break
    return b


@lru_cache(maxsize=256)
def _calibrate_cached(rho_str: str, dps: int) -> Calibration:
    with mp.workdps(dps + 10):
        rho = mpmath.mpf(rho_str)
        q = error_quantile(rho)
        b = mpmath.mpf(_calibrate_float(float(rho), float(q)))
        it = 0
        for it in range(1, 60):
            h, eh, d, _ = tilt_balance(b, q, error=False)
            step = (h - rho) / d
            b -= step
            if abs(step) <= mpmath.mpf(10) ** (-(dps + 3)) * b:
                break
        h, eh, d, _ = tilt_balance(b, q)
        res = h - rho
        berr = (abs(res) + eh) / d
    with mp.workdps(dps):
        return Calibration(rho=+rho, b=+b, t=-b * q, q=+q, residual=+res, error=+eh,
                           b_error=+berr, iterations=it, dps=dps)


def _C_mp():
    return airy.airy_constants(mp.dps)


def calibrate(rho, dps=None) -> Calibration:
    """Scale b and drift t with min_t E|exp(bX + t) - 1| = rho (see the module docstring):
    Newton in b on H(b) = rho at q = q(rho), then t = -b q.  Cached per (rho, dps)."""
    rho = validate.real("rho", rho, lo=0, hi=1)
    dps = mp.dps if dps is None else validate.count("dps", dps, lo=10)
    with mp.workdps(dps + 10):
        key = mpmath.nstr(mpmath.mpf(rho), dps + 8)
    return _calibrate_cached(key, dps)


def drift_error(b, t):
    """e(b, t) = E|exp(b X + t) - 1| by mpmath quadrature (kink at x = -t/b): (value, error)."""
    b = mpmath.mpf(validate.real("b", b, lo=0))
    t = mpmath.mpf(validate.real("t", t))
    return _mp_expect(lambda x: abs(mpmath.expm1(b * x + t)), [-t / b])


def drift_error_derivative(b, t):
    """d/dt E|exp(bX + t) - 1| = E[e^{bX+t} sign(bX + t)] by quadrature: (value, error)."""
    b = mpmath.mpf(validate.real("b", b, lo=0))
    t = mpmath.mpf(validate.real("t", t))
    k = -t / b
    return _mp_expect(lambda x: mpmath.exp(b * x + t) * (1 if x > k else -1), [k])


def optimal_drift(b, t0=None, tol=None):
    """The minimiser t*(b) of E|exp(bX + t) - 1|, by Newton's method on the derivative
    D(t) = E[e^{bX+t} sign(bX+t)] (quadrature), with D'(t) = D(t) + 2 f(-t/b)/b (the sign jump
    at x = -t/b).  Start: t0 or the small-b value -b^2 m/(2 f(0)).  Returns (t, |last step|,
    D(t) at the end, its quadrature error)."""
    b = mpmath.mpf(validate.real("b", b, lo=0))
    t = mpmath.mpf(t0) if t0 is not None else -b * b * _C_mp().mean_abs / (2 * airy.mp_pdf(0))
    tol = mpmath.mpf(10) ** (-(mp.dps - 3)) * max(abs(t), b * b) if tol is None else mpmath.mpf(tol)
    step = mpmath.inf
    for _ in range(60):
        D, _e = drift_error_derivative(b, t)
        dD = D + 2 * airy.mp_pdf(-t / b) / b
        step = D / dD
        t -= step
        if abs(step) <= tol:
            break
    D, e = drift_error_derivative(b, t)
    return t, abs(step), D, e


def min_error(b):
    """min_t E|exp(bX + t) - 1| via :func:`optimal_drift` and :func:`drift_error`: (value, error, t)."""
    t, _, _, _ = optimal_drift(b)
    v, e = drift_error(b, t)
    return v, e, t


# ============================================================================================
# Output laws (countdp.laws)
# ============================================================================================


class LogShiftedAiryDensity(LogShiftDensity):
    """Density of ``U = exp(W) - c`` with ``W = mu + b X`` (X standard Airy), restricted to
    ``U > lo`` (lo = -c: the whole law; lo = 0: the part left by clipping).  The log-shift
    coordinate ``w = log(u + c)`` and its bookkeeping come from ``countdp.laws.LogShiftDensity``."""

    def __init__(self, mu, b, c, lo=None):
        super().__init__(mu, b, c, lo, scale_name="b")

    @property
    def b(self):
        return self.s

    def mp_noise_logpdf(self, z):
        return airy.mp_logpdf(z)

    def noise_logpdf(self, z):
        return airy.logpdf(z)

    def mp_noise_sf(self, z):
        return airy.mp_sf(z)

    def mp_noise_cdf(self, z):
        return airy.mp_cdf(z)


class LogShiftedAiry(ContinuousLaw):
    """The unclipped release ``U_n = exp(mu + b X) - c`` (mu = log(n + c) + t)."""

    def __init__(self, mu, b, c):
        self.mu, self.b, self.c = mpmath.mpf(mu), mpmath.mpf(b), mpmath.mpf(c)
        super().__init__(LogShiftedAiryDensity(mu, b, c), name="exp(mu + b X_Airy) - c")

    def mp_cdf(self, x):
        x = mpmath.mpf(x)
        if x <= -self.c:
            return mpmath.mpf(0)
        return airy.mp_cdf((mpmath.log(x + self.c) - self.mu) / self.b)

    def cdf(self, x):
        x = np.asarray(x, dtype=float)
        ok = x > -float(self.c)
        y = np.where(ok, x + float(self.c), 1.0)
        return np.where(ok, airy.cdf((np.log(y) - float(self.mu)) / float(self.b)), 0.0)

    def sample(self, rng, size):
        return np.exp(float(self.mu) + float(self.b) * airy.sample(rng, size)) - float(self.c)


class ClippedLogShiftedAiry(ClippedAtZero):
    """The released ``[U_n]_+``: atom ``P(U_n <= 0) = F((log c - mu)/b)`` at 0 plus U_n's
    density on ``(0, inf)`` (the construction of ``countdp.laws.ClippedAtZero``)."""

    def __init__(self, base: LogShiftedAiry):
        super().__init__(base, name="[exp(mu + b X_Airy) - c]_+")


# ============================================================================================
# Float64 quadrature helpers
# ============================================================================================

_GL16 = np.polynomial.legendre.leggauss(16)
_GL10 = np.polynomial.legendre.leggauss(10)
_GLH = np.polynomial.legendre.leggauss(16)      # inner rule for E(x), O(x)
_W0 = 24.0                                       # folded window [0, W0]: f(24) ~ e^-157
_DROP = 110.0                                    # log-drop defining a window's ends
# relative error floor of the folded float64 quantities: scipy's Ai, Ai' carry ~1e-15 relative
# error, which s' = s^2/2 - 2z amplifies to < 1e-13 (7.9e-14 observed at x = 3 against mpmath)
_FLOOR = 2e-13


def _panel_nodes(edges, rule):
    """Nodes and weights of a Gauss-Legendre rule on consecutive panels given by ``edges``."""
    e = np.asarray(edges, dtype=float)
    a, b = e[:-1], e[1:]
    x0, w0 = rule
    half = 0.5 * (b - a)
    mid = 0.5 * (b + a)
    x = (mid[:, None] + half[:, None] * x0[None, :]).ravel()
    w = (half[:, None] * w0[None, :]).ravel()
    return x, w


def _folded_edges(delta):
    e = list(np.arange(0.0, 4.0, 0.25)) + list(np.arange(4.0, _W0 + 1e-9, 0.5))
    if 0 < delta < _W0:
        e.append(delta)
    e = sorted(set(round(v, 15) for v in e))
    return np.array(e)


def _score_prime(y):
    """s'(y) = s(y)^2/2 - 2(|y| + a1') (Riccati: R' = R^2 - z with s = 2 sign(y) R)."""
    s = airy.score(y)
    return 0.5 * s * s - 2.0 * (np.abs(y) + _A1P)


def _even_odd(x, delta):
    """E(x) = 2 lf(x) - lf(x+D) - lf(x-D) and O(x) = lf(x+D) - lf(x-D) for x >= 0 (float)."""
    x = np.asarray(x, dtype=float)
    if delta > 0.5:
        lf0, lfp, lfm = airy.logpdf(x), airy.logpdf(x + delta), airy.logpdf(x - delta)
        return 2 * lf0 - lfp - lfm, lfp - lfm
    h0, hw = _GLH
    # offsets h from x (interval lengths exact; x +- delta would round them at 1e-16 |x|)
    lo, zero, hi = np.full_like(x, -delta), np.zeros_like(x), np.full_like(x, delta)
    kink = np.clip(-x, -delta, 0.0)          # h where x + h = 0 (s'' jumps there)
    # O = -int_{-D}^{D} s(x + h) dh, split at the kink
    O = np.zeros_like(x)
    for a, b in ((lo, kink), (kink, hi)):
        half = 0.5 * (b - a)
        h = 0.5 * (a + b)[:, None] + half[:, None] * h0[None, :]
        O -= half * (airy.score(x[:, None] + h) @ hw)
    # E = int_{-D}^{D} (D - |h|) s'(x + h) dh, split at the kink and at h = 0
    E = np.zeros_like(x)
    for a, b in ((lo, kink), (kink, zero), (zero, hi)):
        half = 0.5 * (b - a)
        h = 0.5 * (a + b)[:, None] + half[:, None] * h0[None, :]
        E += half * (((delta - np.abs(h)) * _score_prime(x[:, None] + h)) @ hw)
    return E, O


class _Folded:
    """Folded nodes on [0, W0] with f, E, O for both Gauss-Legendre rules (16 and 10 points)."""

    def __init__(self, delta):
        edges = _folded_edges(delta)
        self.rules = []
        for rule in (_GL16, _GL10):
            x, w = _panel_nodes(edges, rule)
            E, O = _even_odd(x, delta)
            fw = np.exp(airy.logpdf(x)) * w
            self.rules.append((x, fw, E, O))
        x, fw, E, O = self.rules[0]
        self.Lmax = float(np.max(np.abs(np.r_[(E + O) / 2, (E - O) / 2])))

    def moments(self):
        """(KL, E L^2, errors) on the folded nodes."""
        out = []
        for x, fw, E, O in self.rules:
            out.append((float(fw @ E), float(fw @ (0.5 * (E * E + O * O)))))
        (k16, m16), (k10, m10) = out
        return k16, m16, abs(k16 - k10) + _FLOOR * abs(k16), abs(m16 - m10) + _FLOOR * abs(m16)

    def S(self, a1):
        """E_f[expm1(a1 L)] (rules 16 and 10) for an array of a1."""
        a1 = np.asarray(a1, dtype=float)[:, None]
        vals = []
        for x, fw, E, O in self.rules:
            g = 2.0 * (np.expm1(a1 * E / 2) * np.cosh(a1 * O / 2) + 2.0 * np.sinh(a1 * O / 4) ** 2)
            vals.append(g @ fw)
        return vals[0], np.abs(vals[0] - vals[1]) + _FLOOR * np.abs(vals[0])


def _log_quad(ell, y0, width, lo=-np.inf, hi=np.inf, anchors=()):
    """(log int_lo^hi exp(ell(y)) dy, absolute error of that log) for a unimodal float ell
    (vectorised), peak near y0 with curvature width ``width``: the window where ell is within
    _DROP of its max is found by outward doubling; Gauss-Legendre 16 vs 10 on ~96 panels."""
    yv = np.array([y0])
    top = float(ell(yv)[0])
    ends = []
    for sgn, lim in ((-1, lo), (1, hi)):
        step = width
        y = y0
        for _ in range(200):
            cand = y0 + sgn * step
            if (sgn < 0 and cand <= lim) or (sgn > 0 and cand >= lim):
                y = lim
                break
            v = float(ell(np.array([cand]))[0])
            if v > top:
                top = v
            if v < top - _DROP:
                y = cand
                break
            step *= 2
        else:
            raise RuntimeError("log-integrand does not decay: window not found")
        ends.append(y)
    a, b = ends
    if not (np.isfinite(a) and np.isfinite(b)):
        raise RuntimeError("log-integrand window reaches an infinite end")
    n_p = 96
    edges = list(np.linspace(a, b, n_p + 1)) + [p for p in anchors if a < p < b]
    edges = np.array(sorted(set(edges)))
    vals = []
    for rule in (_GL16, _GL10):
        x, w = _panel_nodes(edges, rule)
        lv = ell(x)
        M = float(np.max(lv))
        vals.append((M, float(np.exp(lv - M) @ w)))
    (M, s16), (M10, s10) = vals
    s10 = s10 * math.exp(M10 - M)
    return M + math.log(s16), abs(s16 - s10) / s16 + 1e-15 * (abs(M) + 1)


# ============================================================================================
# Score CGF in float64 (for the large-alpha bound)
# ============================================================================================


@lru_cache(maxsize=512)
def score_cgf_float(u: float) -> tuple[float, float]:
    """K_s(u) = log E exp(u s(X)) in float64: (value, error estimate).  u <= 1: folded
    ``log1p(int_0^inf f (e^{us} + e^{-us} - 2))`` on [0, W0]; u > 1: log-sum-exp over the window
    around the peak x ~ u/2 of f e^{us}.  Cross-checked against :func:`countdp.airy.score_cgf`."""
    u = float(validate.real("u", u, lo=0))
    if u <= 1.0:
        edges = _folded_edges(0.0)
        vals = []
        for rule in (_GL16, _GL10):
            x, w = _panel_nodes(edges, rule)
            g = 4.0 * np.sinh(u * airy.score(x) / 2) ** 2 * np.exp(airy.logpdf(x))
            vals.append(float(g @ w))
        J, J10 = vals
        return math.log1p(J), abs(J - J10) / (1 + J) + 1e-15 * math.log1p(J)

    def ell(x):
        s = airy.score(x)
        return airy.logpdf(x) + u * s + np.log1p(np.exp(-2 * u * s))

    y0 = max(u / 2, 0.5)
    v, e = _log_quad(ell, y0, max(1.0, y0 ** 0.25), lo=0.0, anchors=())
    return v, e


def score_cgf_tail_bound(delta: float, kl: float, kl_err: float = 0.0, margin: float = 1e-9):
    """Bound for ``sup_{alpha >= A} D_alpha(f||f_delta)/alpha`` (module docstring):
    ``delta^2 K_s(u)/u^2 * A/(A-1)`` with ``A = u/delta``, ``u`` the first dyadic 2^j > 2 delta
    whose bound is below ``kl - kl_err - margin kl``.  Returns (A, bound, u, K_s error)."""
    j = math.ceil(math.log2(2 * delta)) if delta > 0 else -30
    last = None
    for _ in range(80):
        u = 2.0 ** j
        K, eK = score_cgf_float(u)
        A = u / delta
        bound = delta ** 2 * (K + eK) / u ** 2 * A / (A - 1)
        last = (A, bound, u, eK)
        if bound < kl - kl_err - margin * kl:
            return last
        j += 1
    return last


# ============================================================================================
# D_alpha(f || f(. - delta)) for the standard Airy law: float scan, mpmath values
# ============================================================================================


class _ShiftEngine:
    """F(alpha) = (alpha - 1) D_alpha(f || f_delta) in float64 (see the module docstring)."""

    def __init__(self, delta: float):
        self.delta = float(validate.real("delta", delta, lo=0))
        self.folded = _Folded(self.delta)
        kl, m2, ekl, em2 = self.folded.moments()
        self.kl, self.kl_err = kl, ekl
        self.second, self.second_err = m2, em2

    def _peak(self, alpha):
        """Peak y* < 0 of ell(y) = alpha lf(y) - (alpha-1) lf(y - delta) and its curvature width."""
        a1 = alpha - 1.0
        d = self.delta

        def dl(y):
            return -alpha * airy.score(y) + a1 * airy.score(y - d)

        lo = -1.0
        while float(dl(np.array([lo]))[0]) <= 0:
            lo *= 2
            if lo < -1e12:
                break
        hi = 0.0
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if float(dl(np.array([mid]))[0]) > 0:
                lo = mid
            else:
                hi = mid
            if hi - lo <= 1e-12 * max(1.0, abs(mid)):
                break
        y = 0.5 * (lo + hi)
        curv = alpha * float(_score_prime(np.array([y]))[0]) - a1 * float(_score_prime(np.array([y - d]))[0])
        width = 1.0 / math.sqrt(curv) if curv > 0 else 1.0
        return y, min(max(width, 1e-3), 1e3)

    def F(self, alpha):
        """(F(alpha), error) for a scalar alpha > 1."""
        a1 = float(alpha) - 1.0
        if a1 * self.folded.Lmax <= 30.0:
            S, eS = self.folded.S(np.array([a1]))
            S, eS = float(S[0]), float(eS[0])
            return math.log1p(S), eS / (1 + S) + 1e-15 * abs(math.log1p(S))
        d = self.delta

        def ell(y):
            return alpha * airy.logpdf(y) - a1 * airy.logpdf(y - d)

        y, w = self._peak(float(alpha))
        F, e = _log_quad(ell, y, w, anchors=(0.0, d))
        lf = np.abs(airy.logpdf(np.array([y, y - d])))
        return F, e + 1e-14 * (float(alpha) * lf[0] + a1 * lf[1] + 1.0)

    def ratio(self, alpha):
        F, e = self.F(alpha)
        den = float(alpha) * (float(alpha) - 1.0)
        return F / den, e / den


@dataclass
class ShiftSup:
    """sup_{alpha>1} D_alpha(f||f_delta)/alpha for the standard Airy law.

    ``value``/``error``: the supremum (float); ``alpha``: its location (``ALPHA_TO_ONE`` when the
    KL end is the largest); ``kl``/``kl_error``; ``alphas``/``ratios``/``ratio_errors``: the scan;
    ``max_excess``: max over the scan of (D_alpha/alpha - KL)/KL (negative: every scanned order is
    below the KL end); ``first_order``/``first_cell``: the smallest scanned alpha and D_alpha
    there (D nondecreasing, so it bounds D_alpha/alpha on (1, first_order]); ``A``, ``tail_bound``,
    ``tail_u``: the score-CGF bound for alpha >= A; ``slope_at_one`` = Var(L)/2 - KL, the
    derivative of D_alpha/alpha at alpha = 1 (with ``slope_error``)."""

    delta: float
    value: float
    error: float
    alpha: object
    kl: float
    kl_error: float
    alphas: np.ndarray
    ratios: np.ndarray
    ratio_errors: np.ndarray
    max_excess: float
    first_order: float
    first_cell: float
    A: float
    tail_bound: float
    tail_u: float
    slope_at_one: float
    slope_error: float
    notes: list = field(default_factory=list)

    @property
    def attained_at_one(self) -> bool:
        return self.alpha == ALPHA_TO_ONE

    @property
    def upper(self) -> float:
        """max(scan maxima + errors, first cell, tail bound): the numerical upper end."""
        return float(max(np.max(self.ratios + self.ratio_errors), self.first_cell, self.tail_bound,
                         self.value + self.error))


@lru_cache(maxsize=4096)
def _shift_sup_cached(delta: float, points_per_decade: int, a1_min: float) -> ShiftSup:
    eng = _ShiftEngine(delta)
    kl, ekl = eng.kl, eng.kl_err
    A, tail, u_A, _ = score_cgf_tail_bound(delta, kl, ekl)
    lo, hi = math.log10(a1_min), math.log10(max(A - 1.0, 10 * a1_min))
    n = max(int(math.ceil((hi - lo) * points_per_decade)) + 1, 4)
    a1s = 10.0 ** np.linspace(lo, hi, n)
    alphas = 1.0 + a1s
    R = np.empty(n)
    Re = np.empty(n)
    fold = a1s * eng.folded.Lmax <= 30.0
    if np.any(fold):
        S, eS = eng.folded.S(a1s[fold])
        F = np.log1p(S)
        den = alphas[fold] * a1s[fold]
        R[fold] = F / den
        Re[fold] = (eS / (1 + S) + 1e-15 * np.abs(F)) / den
    for i in np.flatnonzero(~fold):
        R[i], Re[i] = eng.ratio(alphas[i])
    first_cell = float(R[0] * alphas[0])  # D at the first order
    i = int(np.argmax(R))
    notes = []
    if R[i] - Re[i] <= kl + ekl:
        value, err, where = kl, ekl, ALPHA_TO_ONE
    else:
        # refine by golden section on log(alpha - 1) between the neighbours
        la, lb = math.log(a1s[max(i - 1, 0)]), math.log(a1s[min(i + 1, n - 1)])
        g = (math.sqrt(5) - 1) / 2
        c1, c2 = lb - g * (lb - la), la + g * (lb - la)
        f1, f2 = eng.ratio(1 + math.exp(c1))[0], eng.ratio(1 + math.exp(c2))[0]
        for _ in range(60):
            if f1 >= f2:
                lb, c2, f2 = c2, c1, f1
                c1 = lb - g * (lb - la)
                f1 = eng.ratio(1 + math.exp(c1))[0]
            else:
                la, c1, f1 = c1, c2, f2
                c2 = la + g * (lb - la)
                f2 = eng.ratio(1 + math.exp(c2))[0]
        best = max((f1, c1), (f2, c2), (R[i], math.log(a1s[i])))
        value, where = best[0], 1 + math.exp(best[1])
        err = float(Re[i])
        notes.append(f"sup at alpha = {where:.6g}, above the KL end by {(value - kl) / kl:.3e} (relative)")
    if tail >= value:
        notes.append(f"the score-CGF bound {tail:.6g} for alpha >= {A:.4g} does not close the end")
    var = eng.second - kl * kl
    slope = var / 2 - kl
    slope_err = eng.second_err / 2 + ekl * (1 + 2 * kl) + 1e-16 * (abs(eng.second) + abs(kl))
    return ShiftSup(delta=float(delta), value=float(value), error=float(err), alpha=where, kl=kl,
                    kl_error=ekl, alphas=alphas, ratios=R, ratio_errors=Re,
                    max_excess=float(np.max((R - kl) / kl)), first_order=float(alphas[0]),
                    first_cell=first_cell, A=float(A), tail_bound=float(tail), tail_u=float(u_A),
                    slope_at_one=float(slope), slope_error=float(slope_err), notes=notes)


def shift_sup(delta, points_per_decade: int = 8, a1_min: float = 1e-8) -> ShiftSup:
    """sup over alpha > 1 of D_alpha(f || f(. - delta))/alpha for the standard Airy law f
    (both directions coincide: f is even).  Scan: ``points_per_decade`` orders per decade of
    alpha - 1 from ``a1_min`` to A - 1, A from :func:`score_cgf_tail_bound`; the KL end; golden
    refinement when an interior order beats KL.  Float64 (see the module docstring)."""
    delta = float(validate.real("delta", delta, lo=0))
    validate.count("points_per_decade", points_per_decade, lo=2)
    a1_min = float(validate.real("a1_min", a1_min, lo=0, hi=1))
    return _shift_sup_cached(delta, int(points_per_decade), a1_min)


def shift_renyi(delta, alpha) -> tuple[float, float]:
    """D_alpha(f || f(. - delta)) in float64: (value, error)."""
    delta = float(validate.real("delta", delta, lo=0))
    alpha = float(validate.order(alpha))
    F, e = _ShiftEngine(delta).F(alpha)
    return F / (alpha - 1), e / (alpha - 1)


def shift_kl(delta) -> tuple[float, float]:
    """KL(f || f(. - delta)) in float64 (folded form): (value, error)."""
    eng = _ShiftEngine(float(validate.real("delta", delta, lo=0)))
    return eng.kl, eng.kl_err


def _mp_prec_for(delta) -> int:
    lost = max(0.0, -2 * math.log10(float(delta))) if delta > 0 else 0.0
    return mp.dps + int(math.ceil(lost)) + 10


def mp_kl_shift(delta):
    """KL(f || f(. - delta)) = int_0^inf f(x) [2 lf(x) - lf(x+delta) - lf(x-delta)] dx by mpmath
    at dps + 2 log10(1/delta) + 10 digits (the second difference loses ~2 log10(1/delta)).
    Returns (value, error) at the current precision."""
    delta = mpmath.mpf(validate.real("delta", delta, lo=0))
    dps = mp.dps
    with mp.workdps(_mp_prec_for(delta)):
        d = mpmath.mpf(delta)

        def g(x):
            return 2 * airy.mp_logpdf(x) - airy.mp_logpdf(x + d) - airy.mp_logpdf(x - d)

        v, e = _mp_expect(g, [d] if d < 64 else (), half=True)
    with mp.workdps(dps):
        return +v, +(e + abs(v) * mpmath.mpf(10) ** (-dps))


def mp_shift_renyi(delta, alpha):
    """D_alpha(f || f(. - delta)) by mpmath over the float engine's window: (value, error)."""
    delta = float(validate.real("delta", delta, lo=0))
    alpha = mpmath.mpf(validate.order(alpha))
    dps = mp.dps
    with mp.workdps(_mp_prec_for(delta)):
        a1 = alpha - 1
        d = mpmath.mpf(delta)

        def ell(y):
            return alpha * airy.mp_logpdf(y) - a1 * airy.mp_logpdf(y - d)

        eng = _ShiftEngine(delta)
        y0, w = eng._peak(float(alpha))
        M = ell(mpmath.mpf(y0))
        pts = sorted({y0 + k * w for k in (-64, -16, -4, -1, 0, 1, 4, 16, 64)} | {0.0, delta})
        nodes = [-mpmath.inf] + [mpmath.mpf(p) for p in pts] + [mpmath.inf]
        v, e = mpmath.quad(lambda y: mpmath.exp(ell(y) - M), nodes, error=True)
        F = M + mpmath.log(v)
        D = F / a1
        err = (abs(e) / v + 10 * mpmath.eps) / a1
    with mp.workdps(dps):
        return +D, +err


# ============================================================================================
# The mechanism
# ============================================================================================


class AiryLogMechanism(CountMechanism):
    """The Airy log-mechanism for ``0 < r0 < r <= 1`` (r optional) and ``c > 0``.

    ``drift``: None for the optimal drift t = -b q (the default); a number to build a perturbed
    mechanism (negative controls).  ``rho_override``: calibrate b to this error target instead
    of r0/(1+c) (negative controls only).  Laws: :meth:`unclipped_law`, :meth:`released_law`
    (clipping); stochastic rounding is available in :meth:`release` (postprocessing), not as an
    exact integer law."""

    def __init__(self, r0, c, r=None, drift=None, rho_override=None):
        super().__init__(r0, c, r)
        self._drift = None if drift is None else mpmath.mpf(validate.real("drift", drift))
        self._rho_override = None if rho_override is None else validate.real("rho_override", rho_override, lo=0, hi=1)

    def __repr__(self):
        return f"AiryLogMechanism(r0={self.r0!r}, c={self.c!r}, r={self.r!r})"

    # ---- calibration ------------------------------------------------------------------------
    @property
    def rho(self):
        """The error target r0/(1+c) (mpmath)."""
        if self._rho_override is not None:
            return mpmath.mpf(self._rho_override)
        return _rho(self.r0, self.c)

    def calibration(self) -> Calibration:
        return calibrate(self.rho, mp.dps)

    def mp_b(self):
        return self.calibration().b

    def mp_t(self):
        return self.calibration().t if self._drift is None else self._drift

    @property
    def b(self) -> float:
        with mp.workdps(30):
            return float(self.mp_b())

    @property
    def t(self) -> float:
        with mp.workdps(30):
            return float(self.mp_t())

    def error_factor(self):
        """E|exp(bX + t) - 1| by quadrature (= rho at the calibrated b and optimal drift):
        (value, error)."""
        return drift_error(self.mp_b(), self.mp_t())

    # ---- budget -----------------------------------------------------------------------------
    def delta(self, n):
        """Delta_n = log((n+c)/(n-1+c))/b, the edge n-1 <-> n as a shift of X (n = 0: edge 0-1)."""
        n = validate.count("n", n)
        return log_gap(n, self.c) / self.mp_b()

    def limit_n2v(self):
        """lim_{n->inf} n^2 v(n) = I_X / (2 b^2) (mpmath)."""
        return _C_mp().fisher / (2 * self.mp_b() ** 2)

    def budget(self, n, points_per_decade: int = 8) -> ShiftSup:
        """The sup over alpha of D_alpha/alpha on edge n-1 <-> n (float64 scan, :func:`shift_sup`)."""
        d = self.delta(n)
        return shift_sup(float(d), points_per_decade)

    def v(self, n) -> float:
        """v(n) (float64), v(0) = v(1)."""
        return self.budget(n).value

    def v_array(self, ns) -> np.ndarray:
        ns = validate.counts("n", ns)
        return np.array([self.v(int(k)) for k in np.ravel(ns)]).reshape(np.shape(ns))

    def mp_v(self, n):
        """v(n) at the working precision: the location of the sup from the float scan, the value
        by mpmath (KL by :func:`mp_kl_shift` at alpha -> 1, else :func:`mp_shift_renyi`/alpha).
        Returns (value, error, ShiftSup)."""
        s = self.budget(n)
        d = self.delta(n)
        if s.attained_at_one:
            v, e = mp_kl_shift(d)
        else:
            D, e = mp_shift_renyi(float(d), s.alpha)
            v, e = D / s.alpha, e / s.alpha
        return v, e, s

    # ---- laws -------------------------------------------------------------------------------
    def log_mean(self, n):
        """mu_n = log(n + c) + t: the location of log(U_n + c)."""
        return mpmath.log(n + mpmath.mpf(self.c)) + self.mp_t()

    def unclipped_law(self, n) -> LogShiftedAiry:
        n = validate.count("n", n)
        return LogShiftedAiry(self.log_mean(n), self.mp_b(), self.c)

    def released_law(self, n) -> ClippedLogShiftedAiry:
        return ClippedLogShiftedAiry(self.unclipped_law(n))

    # ---- errors -----------------------------------------------------------------------------
    def expected_abs_error_unclipped(self, n):
        """E|U_n - n| = (n + c) E|exp(bX+t) - 1| (exact scaling; the factor by quadrature)."""
        n = validate.count("n", n)
        v, e = self.error_factor()
        k = n + mpmath.mpf(self.c)
        return k * v, k * e

    def expected_abs_error_released(self, n):
        """E|Y - n| for the released law by mpmath quadrature in w = log(y + c):
        n P(Y = 0) + int_{log c}^{inf} |e^w - c - n| f((w - mu)/b)/b dw, split at the kink
        w = log(n + c) and at the Airy kink w = mu.  Returns (value, error)."""
        n = validate.count("n", n)
        law = self.released_law(n)
        d = law.density
        mu, b, c = d.mu, d.b, d.c
        lo = mpmath.log(c)
        brk = {mu + b * k for k in (-64, -16, -8, -4, -2, -1, 0, 1, 2, 4, 8, 16, 64)}
        brk.add(mpmath.log(n + c))
        inner = sorted(p for p in brk if p > lo)
        nodes = [lo] + inner + [mpmath.inf]

        def g(w):
            return abs(mpmath.exp(w) - c - n) * mpmath.exp(airy.mp_logpdf((w - mu) / b)) / b

        v, e = mpmath.quad(g, nodes, error=True)
        v += n * law.atom_mass
        return v, abs(e) + 10 * mpmath.eps * abs(v)

    # ---- sampling ---------------------------------------------------------------------------
    def release(self, counts, rng: np.random.Generator, clip: bool = True, rounding: bool = False):
        """Release a histogram: ``[(n + c) exp(b X + t) - c]_+`` per coordinate, X from the exact
        Airy sampler; ``rounding`` applies stochastic rounding (postprocessing)."""
        x = validate.counts("counts", counts).astype(float)
        y = (x + float(self.c)) * np.exp(self.b * airy.sample(rng, x.shape) + self.t) - float(self.c)
        if clip or rounding:
            y = np.maximum(y, 0.0)
        if rounding:
            y = stochastic_round(y, rng)
        return y


# ============================================================================================
# Laws for the generic engines (tight_rho, check_score_subgaussian) and comparison laws
# ============================================================================================


def standard_shift_pair(delta):
    """(f, f(. - delta)) for the standard Airy law as identity-coordinate ContinuousLaws
    (float and mpmath log-densities, the kink of each at its centre as a ``breakpoints``
    attribute), for :func:`countdp.tight_rho.tight_rho` and :func:`countdp.renyi.renyi`."""
    from ..laws import CallableDensity

    delta = float(validate.real("delta", delta, lo=0, lo_open=False))

    def law(shift):
        mp_shift = mpmath.mpf(shift)
        d = CallableDensity(lambda x: airy.mp_logpdf(x - mp_shift), center=shift, scale=1.0,
                            np_logpdf=lambda x: airy.logpdf(np.asarray(x, dtype=float) - shift))
        d.breakpoints = (shift,)
        return ContinuousLaw(d, sampler=lambda rng, size: shift + airy.sample(rng, size),
                             name=f"Airy(shift {shift:g})")

    return law(0.0), law(delta)


def generalised_gaussian(p):
    """The symmetric law f_p(x) = exp(-|x|^p) / (2 Gamma(1 + 1/p)) (p = 2: a Gaussian with
    variance 1/2): (mp_logpdf, np_logpdf, mp_score) with score p |x|^{p-1} sign(x).  For p > 2 the
    score is not sub-Gaussian (K_s(u) grows like u^p), the comparison law of the negative
    controls."""
    p_mp = mpmath.mpf(validate.real("p", p, lo=1))
    p_f = float(p_mp)
    logZ_f = math.log(2 * math.gamma(1 + 1 / p_f))

    def mp_logpdf(x):
        with mp.workprec(mp.prec + 10):
            logZ = mpmath.log(2 * mpmath.gamma(1 + 1 / p_mp))
            return -abs(mpmath.mpf(x)) ** p_mp - logZ

    def np_logpdf(x):
        return -np.abs(np.asarray(x, dtype=float)) ** p_f - logZ_f

    def mp_score(x):
        x = mpmath.mpf(x)
        return p_mp * abs(x) ** (p_mp - 1) * mpmath.sign(x)

    return mp_logpdf, np_logpdf, mp_score


def generalised_gaussian_shift_pair(p, delta):
    """(f_p, f_p(. - delta)) as ContinuousLaws (see :func:`generalised_gaussian`)."""
    from ..laws import CallableDensity

    mp_lf, np_lf, _ = generalised_gaussian(p)
    p_f = float(p)
    delta = float(validate.real("delta", delta, lo=0, lo_open=False))

    def law(shift):
        mp_shift = mpmath.mpf(shift)
        d = CallableDensity(lambda x: mp_lf(x - mp_shift), center=shift, scale=1.0,
                            np_logpdf=lambda x: np_lf(np.asarray(x, dtype=float) - shift))
        d.breakpoints = (shift,)
        return ContinuousLaw(d, name=f"exp(-|x|^{p_f:g}) (shift {shift:g})")

    return law(0.0), law(delta)


def equal_mean_abs_gaussian_sd():
    """The sd s of the centred Gaussian with E|X| = m (the Airy law's): s = m sqrt(pi/2); its
    Fisher information 1/s^2 = 2/(pi m^2) gives m^2 I/2 = 1/pi."""
    return float(_C.mean_abs) * math.sqrt(math.pi / 2)


def richardson(hs, values, powers):
    """Extrapolate v(h) = L + a_1 h^{p_1} + a_2 h^{p_2} + ... to h -> 0 (Richardson with the
    known exponents ``powers``, one per level): T[i][j] = T[i][j-1] + (T[i][j-1] - T[i-1][j-1]) /
    ((h_{i-1}/h_i)^{p_j} - 1), exact for geometric steps.  Returns (estimate, error), the error
    being the larger of |T[-1][-1] - T[-1][-2]| (the last correction) and |T[-1][-1] - T[-2][-1]|."""
    n = len(values)
    if n != len(hs) or n < 2:
        raise ValueError("hs and values must have the same length >= 2")
    T = [[v] for v in values]
    for i in range(1, n):
        q = hs[i - 1] / hs[i]
        for j in range(1, min(i, len(powers)) + 1):
            T[i].append(T[i][j - 1] + (T[i][j - 1] - T[i - 1][j - 1]) / (q ** powers[j - 1] - 1))
    last = T[-1]
    est = last[-1]
    err = max(abs(last[-1] - last[-2]), abs(est - T[-2][-1]))
    return est, err


# ============================================================================================
# Against the shifted log-Gaussian mechanism (same r, r0, c)
# ============================================================================================


def limit_ratio(rho):
    """lim_n v_Airy(n)/v_Gauss(n) = I_X sigma^2 / b^2 at error target rho (sigma of eq (3) with
    rho = r0/(1+c), b from :func:`calibrate`); -> pi m^2 I/2 = 8 pi |a1'|^3/27 as rho -> 0."""
    from ..numerics.normal import mp_Phi_inv

    rho = mpmath.mpf(validate.real("rho", rho, lo=0, hi=1))
    sigma = mp_Phi_inv(mpmath.mpf(1) / 2 + rho / 2)
    return _C_mp().fisher * sigma ** 2 / calibrate(rho).b ** 2


def crossover_rho(lo="0.2", hi="0.45"):
    """The error target rho* with limit_ratio(rho*) = 1 (secant/Illinois on [lo, hi]): below it
    the Airy mechanism's large-n budget is the smaller one."""
    f = lambda x: limit_ratio(x) - 1  # noqa: E731
    return mpmath.findroot(f, (mpmath.mpf(lo), mpmath.mpf(hi)), solver="anderson",
                           tol=mpmath.mpf(10) ** (-(mp.dps // 2)))


@dataclass
class VsGaussian:
    """Budgets of the two mechanisms at the same (r, r0, c): ``ratios[n] = v_Airy(n)/v_Gauss(n)``
    (float64), ``limit`` = I sigma^2/b^2, ``monotone``: the sampled ratios increase with n,
    ``gauss_wins_from``: the first n >= 1 with ratio >= 1 (None: Airy's budget is smaller at every
    sampled n and in the limit), found by bisection between sampled points; ``all_at_one``: every
    Airy budget evaluated had its sup over alpha at alpha -> 1; ``shifts``: (min, max) of the
    shifts Delta_n evaluated."""

    r: object
    r0: object
    c: object
    rho: object
    b: object
    t: object
    sigma: object
    limit: object
    ratios: dict
    monotone: bool
    gauss_wins_from: int | None
    all_at_one: bool = True
    shifts: tuple = ()


def compare_with_gaussian(r0, c, r=None, ns=(1, 2, 3, 5, 10, 30, 100, 1000, 10**4, 10**5, 10**6)) -> VsGaussian:
    """Tabulate v_Airy(n)/v_Gauss(n) (see :class:`VsGaussian`)."""
    from .log_gaussian import ShiftedLogGaussian

    A = AiryLogMechanism(r0, c, r=r)
    G = ShiftedLogGaussian(r0, c, r=r)
    ns = sorted(set(validate.count("n", n, lo=1) for n in ns))

    seen = []

    def ratio(n):
        s = A.budget(n)
        seen.append(s)
        return s.value / G.v(n)

    ratios = {n: ratio(n) for n in ns}
    vals = [ratios[n] for n in ns]
    monotone = all(b_ >= a_ for a_, b_ in zip(vals[:-1], vals[1:]))
    first = None
    for i, n in enumerate(ns):
        if ratios[n] >= 1:
            lo_n = ns[i - 1] if i > 0 else 0
            hi_n = n
            while hi_n - lo_n > 1:
                mid = (lo_n + hi_n) // 2
                if ratio(mid) >= 1:
                    hi_n = mid
                else:
                    lo_n = mid
            first = hi_n
            break
    sigma = G.mp_sigma()
    return VsGaussian(r=r, r0=r0, c=c, rho=A.rho, b=A.mp_b(), t=A.mp_t(), sigma=sigma,
                      limit=_C_mp().fisher * sigma ** 2 / A.mp_b() ** 2, ratios=ratios,
                      monotone=monotone, gauss_wins_from=first,
                      all_at_one=all(x.attained_at_one for x in seen),
                      shifts=(min(x.delta for x in seen), max(x.delta for x in seen)))


def budget_ratio_vs_gaussian(r0, c, n, r=None) -> float:
    """v_Airy(n)/v_Gauss(n) at the same parameters (float64)."""
    from .log_gaussian import ShiftedLogGaussian

    return AiryLogMechanism(r0, c, r=r).v(n) / ShiftedLogGaussian(r0, c, r=r).v(n)
