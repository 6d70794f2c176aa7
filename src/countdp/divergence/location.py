"""F(alpha) = (alpha - 1) D_alpha(f || f(. - Delta)) for a location pair of a symmetric
log-concave law f, without cancellation at small shifts: the evaluator the sup engine
(:func:`countdp.divergence.tight_rho.tight_rho`) uses for such pairs (e.g. the Airy
log-mechanism's budget, where Delta ~ 1/n).

The law is given as a *family* (:class:`SymmetricLogConcave`): the standard density in float64
(``logpdf``, the score ``s = -(log f)'`` and its derivative ``score_prime``) and in mpmath
(``mp_logpdf``, ``mp_expect``), its score CGF ``K_s(u) = log E exp(u s(X))`` in float64, and the
panel edges of its folded integrals.  Two laws ``loc + scale X`` of one scale are a location pair
with standardised shift ``Delta = |loc_P - loc_Q|/scale``; both directions have the same
divergences (f is even: x -> Delta - x swaps them).

Float64 evaluation.  Fold the line onto x >= 0 with ``E(x) = 2 lf(x) - lf(x+Delta) -
lf(x-Delta) >= 0`` (lf = log f, even and concave) and ``O(x) = lf(x+Delta) - lf(x-Delta)``; then

    E_f[expm1(a L)] = int_0^inf 2 f(x) [expm1(a E/2) cosh(a O/2) + 2 sinh(a O/4)^2] dx,
    KL = int_0^inf f E,   E_f L^2 = int_0^inf f (E^2 + O^2)/2,     (L = lf(x) - lf(x - Delta))

with E and O for small Delta from ``E = int_{-D}^{D} (D - |h|) s'(x + h) dh`` and
``O = -int_{x-D}^{x+D} s`` (Gauss-Legendre), so every term is positive or exactly odd-free.
Larger ``(alpha - 1) Delta`` use a log-window integral at the peak of the integrand.  Quadrature
error: Gauss-Legendre 16 vs 10 points on the same panels, plus the family's relative floor.

mpmath evaluation: the KL as ``int_0^inf f E`` at ``dps + 2 log10(1/Delta) + 10`` digits (the
second difference loses ~2 log10(1/Delta)), D_alpha by mpmath.quad over the float peak window.

The large-alpha end.  For a symmetric log-concave f (score nondecreasing)
``log f(x) - log f(x - Delta) <= -Delta s(x - Delta)``, so

    (alpha - 1) D_alpha(f || f_Delta) <= K_s(alpha Delta),

and, if ``K_s(u)/u^2`` is nonincreasing (checked on a grid for the Airy law, not proved),
``sup_{alpha >= A} D_alpha/alpha <= Delta^2 [K_s(u_A)/u_A^2] A/(A-1)``, ``u_A = A Delta``.  (Without
the monotonicity, the certified ``K_s(u) < I u^2/2`` of the Airy score gives the weaker
``(I/2) Delta^2 A/(A-1)``: :func:`countdp.arb.airy_score.large_alpha_bound`.)  The
log-ratio is unbounded when the score is (the Airy law: s ~ 2 sqrt|x|), so D_inf = inf and the
generic D_inf bound cannot close that end; this bound does.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable, Protocol

import mpmath
from mpmath import mp
import numpy as np

from ..laws import Law
from ..numerics.estimate import Estimate
from ..numerics.quadrature import GL10, GL16, log_window_integral, panel_nodes
from .loss_cgf import INF, DInfinity, LargeAlphaEnd, LossCgf

__all__ = ["SymmetricLogConcave", "location_pair", "LocationLossCgf", "location_loss_cgf", "score_cgf_end"]

_GLH = np.polynomial.legendre.leggauss(16)   # inner rule for E(x), O(x)
_FOLD_LIMIT = 30.0                            # (alpha - 1) max|L| up to which the fold is used


class SymmetricLogConcave(Protocol):
    """What the location evaluator needs of a standard symmetric log-concave law f."""

    name: str
    fold_floor: float                     # relative error floor of the float64 values

    def logpdf(self, x) -> np.ndarray: ...
    def score(self, x) -> np.ndarray: ...
    def score_prime(self, x) -> np.ndarray: ...
    def mp_logpdf(self, x): ...
    def mp_expect(self, g: Callable, extra_breaks=(), half: bool = False) -> Estimate: ...
    def score_cgf(self, u: float) -> Estimate: ...
    def fold_edges(self, delta: float = 0.0) -> np.ndarray: ...


def location_pair(P: Law, Q: Law):
    """(family, standardised shift |loc_P - loc_Q|/scale) when P and Q are ``loc + scale X`` of
    one family and one scale with no atoms, else None.  The shift is an mpmath number (exact for
    exact locations and scale, at the working precision otherwise)."""
    dp, dq = P.density, Q.density
    fam = getattr(dp, "location_family", None)
    if fam is None or getattr(dq, "location_family", None) is not fam or P.atoms() or Q.atoms():
        return None
    if P.integer or Q.integer or mpmath.mpf(dp.scale) != mpmath.mpf(dq.scale):
        return None
    return fam, abs(mpmath.mpf(dp.loc) - mpmath.mpf(dq.loc)) / mpmath.mpf(dp.scale)


# ---------------------------------------------------------------------------------------------
# Folded float64 quadrature
# ---------------------------------------------------------------------------------------------


def _second_difference(fam: SymmetricLogConcave, x: np.ndarray, delta: float):
    """E = int_{-D}^{D} (D - |h|) s'(x + h) dh and O = -int_{-D}^{D} s(x + h) dh (offsets h from
    x, so interval lengths are exact), split at the kink x + h = 0 and at h = 0."""
    h0, hw = _GLH
    lo, zero, hi = np.full_like(x, -delta), np.zeros_like(x), np.full_like(x, delta)
    kink = np.clip(-x, -delta, 0.0)
    O = np.zeros_like(x)
    for a, b in ((lo, kink), (kink, hi)):
        half = 0.5 * (b - a)
        h = 0.5 * (a + b)[:, None] + half[:, None] * h0[None, :]
        O -= half * (fam.score(x[:, None] + h) @ hw)
    E = np.zeros_like(x)
    for a, b in ((lo, kink), (kink, zero), (zero, hi)):
        half = 0.5 * (b - a)
        h = 0.5 * (a + b)[:, None] + half[:, None] * h0[None, :]
        E += half * (((delta - np.abs(h)) * fam.score_prime(x[:, None] + h)) @ hw)
    return E, O


def _even_odd(fam: SymmetricLogConcave, x, delta: float):
    """E(x) = 2 lf(x) - lf(x+D) - lf(x-D) and O(x) = lf(x+D) - lf(x-D) for x >= 0 (float64)."""
    x = np.asarray(x, dtype=float)
    if delta > 0.5:
        lf0, lfp, lfm = fam.logpdf(x), fam.logpdf(x + delta), fam.logpdf(x - delta)
        return 2 * lf0 - lfp - lfm, lfp - lfm
    return _second_difference(fam, x, delta)


class _Folded:
    """Folded nodes on the family's window with f, E, O for both Gauss-Legendre rules."""

    def __init__(self, fam: SymmetricLogConcave, delta: float):
        self.floor = fam.fold_floor
        edges = fam.fold_edges(delta)
        self.rules = []
        for rule in (GL16, GL10):
            x, w = panel_nodes(edges, rule)
            E, O = _even_odd(fam, x, delta)
            fw = np.exp(fam.logpdf(x)) * w
            self.rules.append((x, fw, E, O))
        _, _, E, O = self.rules[0]
        self.Lmax = float(np.max(np.abs(np.r_[(E + O) / 2, (E - O) / 2])))

    def moments(self) -> tuple[Estimate, Estimate]:
        """(KL, E L^2) on the folded nodes."""
        (k16, m16), (k10, m10) = [(float(fw @ E), float(fw @ (0.5 * (E * E + O * O))))
                                  for _, fw, E, O in self.rules]
        return (Estimate(k16, abs(k16 - k10) + self.floor * abs(k16)),
                Estimate(m16, abs(m16 - m10) + self.floor * abs(m16)))

    def expm1_moment(self, a1) -> tuple[np.ndarray, np.ndarray]:
        """E_f[expm1(a1 L)] (rule 16) and its error (vs rule 10) for an array of a1."""
        a1 = np.asarray(a1, dtype=float)[:, None]
        vals = []
        for _, fw, E, O in self.rules:
            g = 2.0 * (np.expm1(a1 * E / 2) * np.cosh(a1 * O / 2) + 2.0 * np.sinh(a1 * O / 4) ** 2)
            vals.append(g @ fw)
        return vals[0], np.abs(vals[0] - vals[1]) + self.floor * np.abs(vals[0])


# ---------------------------------------------------------------------------------------------
# The large-alpha end: the score-CGF bound
# ---------------------------------------------------------------------------------------------


def _score_cgf_bound(fam: SymmetricLogConcave, delta: float, order: float) -> Estimate:
    """Delta^2 (K_s(u) + error)/u^2 * A/(A - 1) at u = A Delta (value; the K_s error is the
    Estimate's error)."""
    u = order * delta
    K = fam.score_cgf(u)
    return Estimate(delta ** 2 * (K.value + K.error) / u ** 2 * order / (order - 1), K.error)


def score_cgf_end(fam: SymmetricLogConcave, delta: float, kl: float, kl_error: float = 0.0,
                  margin: float = 1e-9) -> float:
    """The order A = u/Delta for the first dyadic u = 2^j > 2 Delta at which the score-CGF bound
    is below ``kl - kl_error - margin kl`` (the last tried after 80 doublings)."""
    j = math.ceil(math.log2(2 * delta)) if delta > 0 else -30
    order = 2.0 ** j / delta
    for _ in range(80):
        order = 2.0 ** j / delta
        if _score_cgf_bound(fam, delta, order).value < kl - kl_error - margin * kl:
            return order
        j += 1
    return order


# ---------------------------------------------------------------------------------------------
# The evaluator
# ---------------------------------------------------------------------------------------------


class LocationLossCgf(LossCgf):
    """F(alpha) for the pair (f, f(. - delta)) of a symmetric log-concave family (see the module
    docstring).  ``default_ppd`` 8 orders per decade: the curve is smooth and the scan is cheap."""

    default_ppd = 8

    def __init__(self, fam: SymmetricLogConcave, delta):
        self.fam, self.mp_delta, self.delta = fam, mpmath.mpf(delta), float(delta)
        self.route = (f"folded Gauss-Legendre quadrature of the {fam.name} location pair (shift "
                      f"{self.delta:.6g}; mpmath at the reported orders)")
        self.folded = _Folded(fam, self.delta)
        self._kl, self._second = self.folded.moments()

    # float64 route ---------------------------------------------------------------------------
    def F(self, alphas):
        a1 = np.asarray(alphas, dtype=float) - 1.0
        out, err = np.empty(len(a1)), np.empty(len(a1))
        fold = a1 * self.folded.Lmax <= _FOLD_LIMIT
        if np.any(fold):
            S, eS = self.folded.expm1_moment(a1[fold])
            out[fold] = np.log1p(S)
            err[fold] = eS / (1 + S) + 1e-15 * np.abs(out[fold])
        for i in np.flatnonzero(~fold):
            out[i], err[i] = self._F_window(float(a1[i]) + 1.0)
        return Estimate(out, err)

    def _peak(self, alpha: float) -> tuple[float, float]:
        """Peak y* < 0 of ell(y) = alpha lf(y) - (alpha-1) lf(y - delta) (bisection on its
        derivative) and its curvature width."""
        a1, d, fam = alpha - 1.0, self.delta, self.fam

        def dl(y):
            return float(-alpha * fam.score(np.array([y]))[0] + a1 * fam.score(np.array([y - d]))[0])

        lo = -1.0
        while dl(lo) <= 0 and lo >= -1e12:
            lo *= 2
        hi = 0.0
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if dl(mid) > 0:
                lo = mid
            else:
                hi = mid
            if hi - lo <= 1e-12 * max(1.0, abs(mid)):
                break
        y = 0.5 * (lo + hi)
        curv = (alpha * float(fam.score_prime(np.array([y]))[0])
                - a1 * float(fam.score_prime(np.array([y - d]))[0]))
        width = 1.0 / math.sqrt(curv) if curv > 0 else 1.0
        return y, min(max(width, 1e-3), 1e3)

    def _F_window(self, alpha: float) -> tuple[float, float]:
        a1, d, fam = alpha - 1.0, self.delta, self.fam

        def ell(y):
            return alpha * fam.logpdf(y) - a1 * fam.logpdf(y - d)

        y, w = self._peak(alpha)
        F = log_window_integral(ell, y, w, anchors=(0.0, d))
        lf = np.abs(fam.logpdf(np.array([y, y - d])))
        return F.value, F.error + 1e-14 * (alpha * lf[0] + a1 * lf[1] + 1.0)

    def kl_float(self):
        return self._kl

    def second_moment(self):
        return self._second

    # mpmath route ----------------------------------------------------------------------------
    def _mp_digits(self) -> int:
        lost = max(0.0, -2 * math.log10(self.delta)) if self.delta > 0 else 0.0
        return mp.dps + int(math.ceil(lost)) + 10

    def kl(self):
        """int_0^inf f(x) [2 lf(x) - lf(x+delta) - lf(x-delta)] dx by mpmath at
        dps + 2 log10(1/delta) + 10 digits; (value, error) at the current precision."""
        dps, fam = mp.dps, self.fam
        with mp.workdps(self._mp_digits()):
            d = +self.mp_delta

            def g(x):
                return 2 * fam.mp_logpdf(x) - fam.mp_logpdf(x + d) - fam.mp_logpdf(x - d)

            est = fam.mp_expect(g, [d] if d < 64 else (), half=True)
        with mp.workdps(dps):
            return Estimate(+est.value, +(est.error + abs(est.value) * mpmath.mpf(10) ** (-dps)))

    def mp_F(self, alpha):
        """(alpha - 1) D_alpha by mpmath.quad over the float peak window."""
        alpha = mpmath.mpf(alpha)
        dps, fam = mp.dps, self.fam
        with mp.workdps(self._mp_digits()):
            a1, d = alpha - 1, +self.mp_delta

            def ell(y):
                return alpha * fam.mp_logpdf(y) - a1 * fam.mp_logpdf(y - d)

            y0, w = self._peak(float(alpha))
            M = ell(mpmath.mpf(y0))
            pts = sorted({y0 + k * w for k in (-64, -16, -4, -1, 0, 1, 4, 16, 64)} | {0.0, self.delta})
            nodes = [-mpmath.inf] + [mpmath.mpf(p) for p in pts] + [mpmath.inf]
            v, e = mpmath.quad(lambda y: mpmath.exp(ell(y) - M), nodes, error=True)
            F = M + mpmath.log(v)
            err = abs(e) / v + 10 * mpmath.eps
        with mp.workdps(dps):
            # + F's rounding to the working precision (F = 126 was 4e-30 off under 2e-40 at 30 digits)
            return Estimate(+F, +(err + mpmath.eps * abs(F)))

    # the ends --------------------------------------------------------------------------------
    def d_inf(self):
        return DInfinity(INF, f"inf: the log-ratio of a shifted pair of the {self.fam.name} law is unbounded "
                              "(its score is)")

    def natural_alpha_max(self, kl, kl_error):
        return score_cgf_end(self.fam, self.delta, kl, kl_error)

    def large_alpha_end(self, order):
        if self.delta == 0:
            return LargeAlphaEnd(order, 0.0, "shift 0: every divergence is 0")
        b = _score_cgf_bound(self.fam, self.delta, order)
        return LargeAlphaEnd(order, float(b.value),
                             f"score-CGF bound Delta^2 K_s(A Delta)/(A Delta)^2 A/(A-1) (K_s(u)/u^2 "
                             f"nonincreasing): sup over alpha >= A = {order:.4g} is at most {b.value:.4g}")


@lru_cache(maxsize=4096)
def location_loss_cgf(fam: SymmetricLogConcave, delta) -> LocationLossCgf:
    """The (cached) evaluator of a location pair: its folded nodes are reused across calls."""
    return LocationLossCgf(fam, delta)
