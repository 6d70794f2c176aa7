"""F(alpha) = (alpha - 1) D_alpha(P||Q) = log E_P[exp((alpha - 1) L)], L = log(dP/dQ): the
cumulant generating function of the privacy loss, evaluated by the kind of pair.

Each evaluator has a float64 route (``F``, vectorised over alpha, with an error per value) for
the scan of :func:`countdp.divergence.tight_rho.tight_rho` and an mpmath route (``mp_F``,
``kl``) for the reported values:

* :class:`FiniteLossCgf` -- finite discrete laws (FinitePmf, laws with finitely many atoms and
  no density), and IntegerLaw subclasses summed over their proven ``window(tail)`` (the
  window's tail mass enters the error): exact sums; ``E_P[expm1((alpha-1)L)]`` where
  ``(alpha-1)|L| <= 1`` (no cancellation as alpha -> 1), a log-sum-exp otherwise.  D_inf = max L
  exactly.  A second route to :func:`countdp.divergence.renyi.renyi` (which sums the same pmfs
  by its own code);
* :class:`DensityLossCgf` -- laws with a density in the identity coordinate (ContinuousLaw,
  CallableDensity, MixedLaw with atoms): double-exponential quadrature split at the densities'
  kinks (``breakpoints`` attribute of a Density, or the ``breakpoints`` argument) and at the
  peak of the integrand; float64 with the h versus h/2 difference as the error, mpmath.quad on
  the same pieces for the precise values.  D_inf = sup of the log-ratio over a grid refined by a
  bounded optimiser, with outward doubling (halving toward a finite end) to detect an unbounded
  ratio.  The float route calls
  the Density's numpy ``logpdf``: give a CallableDensity its ``np_logpdf`` (without it every
  node is an mpmath call and the scan is very slow);
* anything else (e.g. densities in a log coordinate): the fallback of
  :mod:`countdp.divergence.fallback_loss_cgf`, the library's own Renyi divergence at every alpha
  (slow; a coarser grid).

Location pairs of a symmetric log-concave law have their own evaluator
(:mod:`countdp.divergence.location`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

import mpmath
import numpy as np
from scipy import optimize

from ..laws import Law
from ..numerics.double_exponential import MACH, node_rounding, piece_nodes
from ..numerics.estimate import Estimate, at_two_precisions
from .tail_growth import Unresolved, grows_in_mpmath, growing_tail, tail_side

INF = mpmath.mpf("inf")


@dataclass(frozen=True)
class DInfinity:
    """D_inf(P||Q) = log ess sup dP/dQ and how it was obtained."""

    value: object
    how: str


@dataclass(frozen=True)
class LargeAlphaEnd:
    """How the supremum over the orders alpha >= ``order`` is bounded: D_alpha/alpha <= ``bound``
    there (inf: not bounded), and why (``how``)."""

    order: float
    bound: float
    how: str

    @property
    def bounded(self) -> bool:
        return math.isfinite(self.bound)


class LossCgf:
    """F(alpha) = log E_P[exp((alpha-1) L)] along alpha for one ordered pair (P, Q), in float64
    (``F``, vectorised over alpha: values and errors) and in mpmath (``mp_F``), with the ends
    alpha -> 1 (``kl``) and alpha -> inf (``d_inf``, :meth:`large_alpha_end`)."""

    route = ""
    infinite_reason: str | None = None
    beyond_float: str | None = None  # why the float table cannot hold this pair (the fallback must)
    end_bounds_cells = False   # large_alpha_end(a) is cheap and may bound the cells beyond a too
    default_ppd = 16
    max_evals = 4000

    def F(self, alphas: np.ndarray) -> Estimate:
        """F at each order (arrays of values and errors, float64)."""
        raise NotImplementedError

    def mp_F(self, alpha) -> Estimate:
        raise NotImplementedError

    def kl(self) -> Estimate:
        raise NotImplementedError

    def kl_float(self) -> Estimate:
        """KL by the float64 route; by default the precise route, rounded."""
        k = self.kl()
        return Estimate(float(k.value), float(k.error))

    def second_moment(self) -> Estimate | None:
        """E_P L^2 (float64) with its error when the evaluator has it, else None."""
        return None

    def d_inf(self) -> DInfinity:
        raise NotImplementedError

    def natural_alpha_max(self, kl: float, kl_error: float) -> float | None:
        """An order beyond which the large-alpha bound is below the KL end, when the evaluator
        knows one (None: use the caller's alpha_max)."""
        return None

    def large_alpha_end(self, order: float) -> LargeAlphaEnd:
        """D_alpha is nondecreasing with limit D_inf, so sup_{alpha >= A} D_alpha/alpha <= D_inf/A."""
        dinf = self.d_inf()
        dinf_f = float(dinf.value)
        if not np.isfinite(dinf_f):
            return LargeAlphaEnd(order, math.inf, dinf.how)
        bound = float(dinf_f / order)
        return LargeAlphaEnd(order, bound, f"D_inf = {mpmath.nstr(dinf.value, 10)} finite: D_alpha/alpha <= "
                                           f"D_inf/alpha -> 0; sup over alpha >= {order:.4g} is at most {bound:.4g}")

    def loss_range(self):
        """An upper bound of max L - min L over P's support (inf when unknown)."""
        return INF


def _lse_rows(x: np.ndarray) -> np.ndarray:
    m = np.max(x, axis=1)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(under="ignore"):
        return m + np.log(np.sum(np.exp(x - m[:, None]), axis=1))


class FiniteLossCgf(LossCgf):
    """P, Q with finitely many atoms (or an integer law summed over a proven window)."""

    def __init__(self, p_mp: Sequence, q_mp: Sequence, tail_p=0, tail_q=0, route=""):
        self.route = route or "exact sums over the pmfs (mpmath; float64 for the scan)"
        # the pmf values as given: the precise route rounds them at the precision it is read at
        self._given = [(p, q) for p, q in zip(p_mp, q_mp) if p > 0]
        if not self._given:
            raise ValueError("P has no mass on the given support")
        bad = [p for p, q in self._given if q <= 0]
        if bad:
            self.infinite_reason = (f"support mismatch: P puts mass {mpmath.nstr(mpmath.mpf(bad[0]), 6)} "
                                    "where Q has none (D_alpha = inf for every alpha > 1)")
            return
        self._by_prec: dict[int, tuple] = {}
        mp_p, mp_logp, mp_L, dinf = self._mp()
        self.p = np.array([float(p) for p in mp_p])
        self.logp = np.array([float(v) for v in mp_logp])
        self.L = np.array([float(v) for v in mp_L])
        self.Lmax = float(np.max(np.abs(self.L)))
        self.n = len(self._given)
        self.tail_p = mpmath.mpf(tail_p)
        self.tail_q = mpmath.mpf(tail_q)
        self._dinf_float = float(dinf)

    def _mp(self) -> tuple:
        """(p, log p, L = log p/q, max L) at the working precision, so that an error bar of
        eps's size is one of the values it is read with, whatever precision built the object."""
        prec = mpmath.mp.prec
        if prec not in self._by_prec:
            ps = [mpmath.mpf(p) for p, _ in self._given]
            logp = [mpmath.log(p) for p in ps]
            L = [lp - mpmath.log(mpmath.mpf(q)) for lp, (_, q) in zip(logp, self._given)]
            self._by_prec[prec] = (ps, logp, L, max(L))
        return self._by_prec[prec]

    # float64 route -------------------------------------------------------------------------
    def F(self, alphas):
        a1 = np.asarray(alphas, dtype=float) - 1.0
        t = a1[:, None] * self.L[None, :]
        small = a1 * self.Lmax <= 1.0
        out = np.empty(len(a1))
        err = np.empty(len(a1))
        if np.any(small):
            terms = self.p[None, :] * np.expm1(t[small])
            s = terms.sum(axis=1)
            out[small] = np.log1p(s)
            err[small] = 4 * self.n * MACH * np.abs(terms).sum(axis=1) / (1 + s) + 4 * MACH * np.abs(out[small])
        big = ~small
        if np.any(big):
            x = self.logp[None, :] + t[big]
            out[big] = _lse_rows(x)
            err[big] = 4 * MACH * (np.max(np.abs(x), axis=1) + self.n)
        if self.tail_p > 0:
            # mass of P outside the window, times the largest ratio: relative error of E_P[.]
            log_tail = float(mpmath.log(self.tail_p)) + a1 * self._dinf_float - out
            err = err + np.exp(np.minimum(log_tail, 700.0))
        return Estimate(out, err)

    # mpmath route --------------------------------------------------------------------------
    def mp_F(self, alpha):
        mp_p, mp_logp, mp_L, dinf = self._mp()
        a1 = mpmath.mpf(alpha) - 1
        if a1 * mpmath.mpf(self.Lmax) <= 1:
            terms = [p * mpmath.expm1(a1 * L) for p, L in zip(mp_p, mp_L)]
            s = mpmath.fsum(terms)
            val = mpmath.log1p(s)
            err = self.n * mpmath.eps * mpmath.fsum(abs(t) for t in terms) / (1 + s)
        else:
            xs = [lp + a1 * L for lp, L in zip(mp_logp, mp_L)]
            m = max(xs)
            val = m + mpmath.log(mpmath.fsum(mpmath.exp(x - m) for x in xs))
            err = self.n * mpmath.eps * (abs(m) + 1)
        if self.tail_p > 0:
            err += mpmath.exp(mpmath.log(self.tail_p) + a1 * dinf - val)
        return Estimate(val, err)

    def kl(self):
        mp_p, _, mp_L, dinf = self._mp()
        terms = [p * L for p, L in zip(mp_p, mp_L)]
        val = mpmath.fsum(terms)
        err = self.n * mpmath.eps * mpmath.fsum(abs(t) for t in terms)
        err += self.tail_p * abs(dinf) + self.tail_q
        return Estimate(val, err)

    def loss_range(self):
        """max L - min L over P's support (bounds every cumulant of the tilted losses)."""
        _, _, mp_L, dinf = self._mp()
        return dinf - min(mp_L)

    def d_inf(self):
        how = "exact: max over the support of log(p/q)"
        if self.tail_p > 0:
            how += " (over the proven window; the ratio beyond it is taken not to exceed it)"
        return DInfinity(self._mp()[3], how)


class DensityLossCgf(LossCgf):
    """P, Q with densities in the identity coordinate, optionally with atoms (mixed laws)."""

    def __init__(self, P: Law, Q: Law, breakpoints: Iterable = ()):
        self.route = "double-exponential quadrature of the densities split at kinks and peak (+ atoms)"
        pd, qd = P.density, Q.density
        self.pd, self.qd = pd, qd
        qa = Q.atoms()
        self._atom_pq = []  # (P's mass, Q's mass) at each atom of P, as the laws give them
        for x, p in P.atoms().items():
            if p <= 0:
                continue
            q = qa.get(x, mpmath.mpf(0))
            if q <= 0:
                self.infinite_reason = (f"support mismatch: P has an atom at {mpmath.nstr(x, 8)} where "
                                        "Q has none (D_alpha = inf for every alpha > 1)")
                return
            self._atom_pq.append((p, q))
        self.atoms = self._mp_atoms()
        self.has_density = pd is not None and pd.mass() > 0
        if not self.has_density:
            self._finite = FiniteLossCgf([p for p, _ in self._atom_pq], [q for _, q in self._atom_pq])
            self.infinite_reason = self._finite.infinite_reason
            return
        if qd is None or qd.mass() <= 0:
            self.infinite_reason = "support mismatch: P has a density part, Q has none"
            return
        self.lo, self.hi = float(pd.lo), float(pd.hi)
        if self.lo < float(qd.lo) or self.hi > float(qd.hi):
            self.infinite_reason = (f"support mismatch: P's density lives on ({pd.lo}, {pd.hi}), "
                                    f"Q's on ({qd.lo}, {qd.hi})")
            return
        bps = set(float(b) for b in breakpoints)
        bps |= set(float(b) for b in getattr(pd, "breakpoints", ()))
        bps |= set(float(b) for b in getattr(qd, "breakpoints", ()))
        self.bps = sorted(b for b in bps if self.lo < b < self.hi)
        cp, sp = (float(v) for v in pd.t_center_scale())
        try:
            cq, sq = (float(v) for v in qd.t_center_scale())
        except NotImplementedError:
            cq, sq = cp, sp
        self.scale = min(sp, sq)
        self.cp, self.cq = cp, cq
        span = max([abs(cp - cq)] + [abs(b - cp) for b in self.bps])
        w_lo, w_hi = min([cp, cq] + self.bps) - 60 * max(sp, sq), max([cp, cq] + self.bps) + 60 * max(sp, sq)
        w_lo, w_hi = max(w_lo, self.lo), min(w_hi, self.hi)
        grid = np.linspace(w_lo, w_hi, 4001)
        near = [b + d * self.scale * f for b in self.bps for d in (-1, 1) for f in (1e-9, 1e-6, 1e-3)]
        grid = np.unique(np.concatenate([grid, np.array(self.bps + near, dtype=float)]))
        grid = grid[(grid > self.lo) & (grid < self.hi)]
        self.X = grid
        self.LP, self.LQ = self._logs(grid)
        live = np.isfinite(self.LP)
        if np.any(live & ~np.isfinite(self.LQ)):
            self.infinite_reason = "support mismatch: Q's density vanishes where P's does not"
            return
        if not np.any(live):
            self.beyond_float = "no point of the float grid (60 scales about the centres) where P's density is positive"
            return
        self.LL = np.where(live, self.LP - np.where(np.isfinite(self.LQ), self.LQ, 0.0), -np.inf)
        top = np.max(self.LP[live])
        rel = live & (self.LP >= top - 60)
        self.Lrange = float(np.max(np.abs(self.LL[rel])))
        if self.atoms:
            self.Lrange = max(self.Lrange, max(abs(float(L)) for _, L in self.atoms))
        self.Lrange = max(self.Lrange, 1e-300)
        self._span = span
        self._dinf_cache = None

    # helpers ---------------------------------------------------------------------------------
    def _mp_atoms(self) -> list:
        """(p, L = log p/q) at each atom of P, at the working precision."""
        return [(mpmath.mpf(p), mpmath.log(p) - mpmath.log(q)) for p, q in self._atom_pq]

    def _logs(self, x):
        x = np.asarray(x, dtype=float)
        with np.errstate(all="ignore"):
            lp = np.asarray(self.pd.logpdf(x), dtype=float)
            lq = np.asarray(self.qd.logpdf(x), dtype=float)
        return lp, lq

    def _g(self, a1, x):
        lp, lq = self._logs(x)
        with np.errstate(all="ignore"):
            return np.where(np.isfinite(lp), lp + a1 * (lp - lq), -np.inf)

    def _peak(self, a1: float) -> tuple[float, float]:
        """(x*, width) of the log-integrand lp + a1 (lp - lq) for alpha - 1 = a1."""
        with np.errstate(all="ignore"):
            G = np.where(np.isfinite(self.LP), self.LP + a1 * self.LL, -np.inf)
        i = int(np.argmax(G))
        x = float(self.X[i])
        step = self.scale
        # an integrand still rising at the window's edge: follow it outward
        for direction, at_edge, bound in ((1, i == len(self.X) - 1, self.hi), (-1, i == 0, self.lo)):
            if not at_edge:
                continue
            g0 = float(self._g(a1, [x])[0])
            for _ in range(200):
                nxt = x + direction * step
                if not (self.lo < nxt < self.hi):
                    break
                g1 = float(self._g(a1, [nxt])[0])
                if not g1 > g0:
                    break
                x, g0, step = nxt, g1, step * 2
            lo_b, hi_b = sorted((max(x - step, self.lo + 1e-300), min(x + step, self.hi - 1e-300)))
            res = optimize.minimize_scalar(lambda t: -float(self._g(a1, [t])[0]), bounds=(lo_b, hi_b),
                                           method="bounded", options={"xatol": 1e-10 * max(1.0, abs(x))})
            if np.isfinite(res.fun) and -res.fun >= g0:
                x = float(res.x)
        h = self.scale * 1e-3
        gs = self._g(a1, [x - h, x, x + h])
        gpp = (gs[0] - 2 * gs[1] + gs[2]) / (h * h)
        width = 1 / math.sqrt(-gpp) if np.isfinite(gpp) and gpp < 0 else self.scale
        width = min(max(width, self.scale * 1e-8), self.scale * 1e4)
        return x, width

    def _splits(self, x_star: float, width: float, factors=(1, 4, 16, 64)) -> list[float]:
        pts = set(self.bps) | {x_star}
        for f in factors:
            pts |= {x_star - f * width, x_star + f * width}
        pts = sorted(p for p in pts if self.lo < p < self.hi)
        # drop splits closer than 1e-12 relative (they would make empty pieces)
        out = []
        for p in pts:
            if not out or p - out[-1] > 1e-12 * max(1.0, abs(p)):
                out.append(p)
        return [self.lo] + out + [self.hi]

    def _integrate(self, a1: float, kind: str, M: float = 0.0,
                   edges: str = "all") -> tuple[float, float, float]:
        """(I_h/2, |I_h/2 - I_h|, outermost contribution) of the density part of
        E_P[expm1(a1 L)] (kind 'expm1'), E_P[exp(a1 L - M)] ('exp') or E_P[L] ('kl').  The
        outermost contribution is the largest |f w| over the last three nodes of an infinite tail
        and the three nodes nearest a finite end of the support (``edges`` = 'ends': those only):
        an integrand unbounded at a finite end leaves mass closer to it than float64 nodes reach."""
        x_star, width = self._peak(a1 if kind != "kl" else 0.0)
        ends = self._splits(x_star, width)
        xs, ws, cs, tails = [], [], [], []
        for a, b in zip(ends[:-1], ends[1:]):
            finite = np.isfinite(a) and np.isfinite(b)
            x, w, coarse = piece_nodes(a, b, 1.0 if finite else max(width, self.scale))
            xs.append(x)
            ws.append(w)
            cs.append(coarse)
            tail = np.zeros(len(x), bool)
            if not finite and edges == "all":
                tail[-3:] = True
            for end in (a, b):
                if np.isfinite(end) and end in (self.lo, self.hi):
                    tail[np.argsort(np.abs(x - end), kind="stable")[:3]] = True
            tails.append(tail)
        x, w, coarse, tail = (np.concatenate(v) for v in (xs, ws, cs, tails))
        lp, lq = self._logs(x)
        with np.errstate(all="ignore"):
            ok = np.isfinite(lp)
            L = np.where(ok, lp - lq, 0.0)
            if kind == "kl":
                f = np.where(ok, np.exp(lp) * L, 0.0)
                dfdL = np.where(ok, np.exp(lp), 0.0)
            elif kind == "expm1":
                z = a1 * L
                f = np.where(ok, np.where(z > 0.5, np.exp(lp + z) - np.exp(lp), np.exp(lp) * np.expm1(z)), 0.0)
                dfdL = np.where(ok, a1 * np.exp(lp + z), 0.0)
            else:
                f = np.where(ok, np.exp(lp + a1 * L - M), 0.0)
                dfdL = a1 * f
            # rounding of the log-densities (relative ~ MACH each) moves L by ~MACH (|lp| + |lq|)
            dL = 4 * MACH * np.where(ok, np.abs(lp) + np.abs(np.where(np.isfinite(lq), lq, 0.0)) + 1, 0.0)
        f = np.where(np.isfinite(f), f, np.inf if kind == "exp" else np.nan)
        fw = f * w
        total = float(np.sum(fw))
        coarse_total = 2.0 * float(np.sum(fw[coarse]))
        edge = float(np.max(np.abs(fw[tail]))) if np.any(tail) else 0.0
        # discretisation (h vs 2h), the rounding of the sum of |terms| (cancellation included),
        # the propagated rounding of the log-ratio, and the rounding of the nodes themselves
        with np.errstate(all="ignore"):
            prop = float(np.nansum(np.abs(dfdL * dL * w)))
        origin = max(getattr(d, "float_origin", 0.0) for d in (self.pd, self.qd))
        err = abs(total - coarse_total) + 64 * MACH * float(np.sum(np.abs(fw))) + prop + node_rounding(x, f, origin)
        return total, err, edge

    # float64 route ---------------------------------------------------------------------------
    def F(self, alphas):
        if not self.has_density:
            return self._finite.F(alphas)
        out, err = [], []
        for alpha in np.asarray(alphas, dtype=float):
            v, e = self._F1(alpha - 1.0)
            out.append(v)
            err.append(e)
        return Estimate(np.array(out), np.array(err))

    def _F1(self, a1: float) -> tuple[float, float]:
        if a1 * self.Lrange <= 1.0:
            dens, e, edge = self._integrate(a1, "expm1")
            atoms = sum(float(p) * math.expm1(a1 * float(L)) for p, L in self.atoms)
            s = dens + atoms
            if not np.isfinite(s) or edge > 1e-12 * max(abs(s), 1e-300) + 1e-300:
                return self._unresolved(a1)
            scale = sum(float(p) * abs(math.expm1(a1 * float(L))) for p, L in self.atoms) + abs(dens)
            return math.log1p(s), (e + 64 * MACH * scale) / (1 + s) + 4 * MACH * abs(math.log1p(s))
        x_star, _ = self._peak(a1)
        M = float(self._g(a1, [x_star])[0])
        atom_logs = [float(mpmath.log(p)) + a1 * float(L) for p, L in self.atoms]
        M = max([M] + atom_logs)
        dens, e, edge = self._integrate(a1, "exp", M)
        s = dens + sum(math.exp(v - M) for v in atom_logs)
        # an error beyond the integral itself: nothing is resolved (an integrand growing without
        # bound, whose 'peak' the search placed 1e60 out, gave Laplace || N(0, 1) F = 2.6e120)
        if not np.isfinite(s) or s <= 0 or edge > 1e-12 * s or not e <= s:
            return self._unresolved(a1)
        val = M + math.log(s)
        # the log-ratio at the peak must be resolved: where a1 times its rounding is not small
        # against F, the peak itself is misplaced (at alpha = 1e50 a Gaussian pair's F came out
        # 1e-84 of its value, inside a bar that did not cover it)
        lp, lq = self._logs([x_star])
        peak_round = a1 * 4 * MACH * (abs(float(lp[0])) + abs(float(lq[0])) + 1)
        if not peak_round <= 1e-3 * max(1.0, abs(val)):
            raise Unresolved(1 + a1, f"a1 times the rounding of the log-ratio at the integrand's peak is "
                                     f"{peak_round:.3g}, F would be {val:.3g}")
        return val, e / s + 16 * MACH * (abs(M) + 1)

    def _unresolved(self, a1: float) -> tuple[float, float]:
        """The quadrature did not resolve F at alpha = 1 + a1: F = inf (error 0) only where the
        integral of p^alpha q^(1 - alpha) is shown to diverge (:meth:`divergence`) and F is not
        known finite at every order (:meth:`finite_at_every_order`); otherwise
        :class:`Unresolved` -- a convergent integral the float rule could not place is never
        reported as infinite."""
        known = self.finite_at_every_order()
        if not known and self.divergence(a1):
            return math.inf, 0.0
        raise Unresolved(1 + a1, f"F is finite there ({known})" if known else "the integral is not shown to diverge")

    def finite_at_every_order(self) -> str | None:
        """Why F(alpha) < inf at every order, when that is known (D_alpha <= D_inf < inf), else None."""
        dinf = self.d_inf().value
        return f"D_alpha <= D_inf = {mpmath.nstr(dinf, 6)} at every order" if mpmath.isfinite(dinf) else None

    def divergence(self, a1: float) -> str | None:
        """The tail in which int p^alpha q^(1 - alpha) is shown to diverge, else None
        (:func:`countdp.divergence.tail_growth.growing_tail` from P's centre; toward an infinite
        end confirmed in mpmath, :func:`~countdp.divergence.tail_growth.grows_in_mpmath`)."""
        why = growing_tail(self._logs, a1, self.cp, self.scale, self.lo, self.hi)
        if why is None or np.isfinite(self.hi if tail_side(why) > 0 else self.lo):
            return why
        logs = lambda x: (self.pd.mp_logpdf(x), self.qd.mp_logpdf(x))  # noqa: E731
        return why if grows_in_mpmath(logs, a1, self.cp, self.scale, tail_side(why)) else None

    # mpmath route ----------------------------------------------------------------------------
    def _mp_pieces(self, a1: float):
        x_star, width = self._peak(a1)
        ends = self._splits(x_star, width, factors=(8,))
        return [mpmath.mpf(e) if np.isfinite(e) else (INF if e > 0 else -INF) for e in ends]

    def _mp_lp_L(self, x):
        lp = self.pd.mp_logpdf(x)
        if lp == -INF:
            return lp, mpmath.mpf(0)
        return lp, lp - self.qd.mp_logpdf(x)

    def _location_bits(self) -> int:
        """Guard bits for the mpmath quadrature of densities far out in units of their scale:
        mpmath rounds its nodes to the working precision, off by eps |x|, which at 1e12 scales
        from 0 moved D by 8 of its error bars; 0 within 2^10 scales (nothing changes there)."""
        far = max(abs(self.cp), abs(self.cq)) / self.scale
        return 0 if not far >= 1024 else int(math.ceil(math.log2(far))) + 8

    def _guarded(self, route) -> Estimate:
        """``route`` (an mpmath quadrature) by :func:`at_two_precisions`, 32 bits apart, both
        with the location's guard bits.  The difference catches the cancellation in
        L = lp - lq (a Laplace pair 0.006 apart was 4000 ulps off under a bar of 100) and a
        tanh-sinh tail that stalls; the rounding floor a large F's own rounding (F = 6.5e5 at 30
        digits had a bar of 2e-28)."""
        return at_two_precisions(route, guard_bits=self._location_bits(), apart_bits=32)

    def mp_F(self, alpha):
        if not self.has_density:
            return self._finite.mp_F(alpha)
        a1 = float(alpha) - 1
        if self.finite_at_every_order() is None and self.divergence(a1):
            return Estimate(INF, mpmath.mpf(0))     # shown divergent: no quadrature can say otherwise
        if self._unresolved_at_an_end(a1):
            # mpmath's nodes stop short of the end too: its error estimate does not see the mass there
            raise Unresolved(float(alpha), "the integrand is not negligible at the nodes nearest a finite end "
                                           "of the support, and the integral is not shown to diverge")
        return self._guarded(lambda: self._mp_F(alpha))

    def _unresolved_at_an_end(self, a1: float) -> bool:
        """Whether the float rule's nodes nearest a finite end of P's support carry more than
        1e-12 of int exp(g - g(x*)) (g the log-integrand, x* its peak): an integrand unbounded
        there, whose mass next to the end no rule with rounded nodes reaches."""
        if np.isinf(self.lo) and np.isinf(self.hi):
            return False
        x_star, _ = self._peak(a1)
        M = float(self._g(a1, [x_star])[0])
        dens, _, edge = self._integrate(a1, "exp", M, edges="ends")
        return not (np.isfinite(dens) and edge <= 1e-12 * dens)

    def kl(self):
        if not self.has_density:
            return self._finite.kl()
        return self._guarded(self._kl)

    def _mp_F(self, alpha):
        a1 = mpmath.mpf(alpha) - 1
        nodes = self._mp_pieces(float(a1))
        if a1 * mpmath.mpf(self.Lrange) <= 1:
            def f(x):
                lp, L = self._mp_lp_L(x)
                return mpmath.mpf(0) if lp == -INF else mpmath.exp(lp) * mpmath.expm1(a1 * L)
            dens, e = mpmath.quad(f, nodes, error=True)
            s = dens + mpmath.fsum(p * mpmath.expm1(a1 * L) for p, L in self._mp_atoms())
            return Estimate(mpmath.log1p(s), (abs(e) + 1000 * mpmath.eps * abs(dens)) / (1 + s))
        x_star, _ = self._peak(float(a1))
        lp0, L0 = self._mp_lp_L(mpmath.mpf(x_star))
        M = lp0 + a1 * L0
        atom_logs = [mpmath.log(p) + a1 * L for p, L in self._mp_atoms()]
        M = max([M] + atom_logs)

        def g(x):
            lp, L = self._mp_lp_L(x)
            return mpmath.mpf(0) if lp == -INF else mpmath.exp(lp + a1 * L - M)
        dens, e = mpmath.quad(g, nodes, error=True)
        s = dens + mpmath.fsum(mpmath.exp(v - M) for v in atom_logs)
        return Estimate(M + mpmath.log(s), (abs(e) + 1000 * mpmath.eps * abs(dens)) / s)

    def _kl(self):
        nodes = self._mp_pieces(0.0)

        def f(x):
            lp, L = self._mp_lp_L(x)
            return mpmath.mpf(0) if lp == -INF else mpmath.exp(lp) * L
        val, e = mpmath.quad(f, nodes, error=True)
        val += mpmath.fsum(p * L for p, L in self._mp_atoms())
        return Estimate(val, abs(e) + 1000 * mpmath.eps * abs(val))

    def kl_float(self):
        if not self.has_density:
            return self._finite.kl_float()
        v, e, _ = self._integrate(0.0, "kl")
        return Estimate(v + sum(float(p) * float(L) for p, L in self.atoms), e)

    def _extreme(self, sign: int):
        """sup (sign = 1) or inf (sign = -1) of L = log p/q over P's support: (value, x, how)."""
        live = np.isfinite(self.LL)
        i = int(np.argmax(np.where(live, sign * self.LL, -np.inf)))
        best_x, best = float(self.X[i]), float(sign * self.LL[i])
        lo_b = float(self.X[max(i - 1, 0)])
        hi_b = float(self.X[min(i + 1, len(self.X) - 1)])
        if hi_b > lo_b:
            def neg(t):
                lp, lq = self._logs([t])
                v = sign * (lp[0] - lq[0])
                return -v if np.isfinite(v) else 1e300
            res = optimize.minimize_scalar(neg, bounds=(lo_b, hi_b), method="bounded",
                                           options={"xatol": 1e-12 * max(1.0, abs(best_x))})
            if -res.fun > best:
                best, best_x = -float(res.fun), float(res.x)
        # outward doubling to an infinite end, halving the distance to a finite one: does the
        # log-ratio keep growing (sign = 1) / falling there?  (Q's density may vanish at a
        # finite end of P's support: uniform against triangular on one interval has D_inf = inf.)
        for out, end in ((1, self.hi), (-1, self.lo)):
            base = self.X[-1] if out > 0 else self.X[0]
            if np.isfinite(end):
                gap = abs(end - base) * 2.0 ** -np.arange(1, 1100)
                xs = end - out * gap[gap > 1e-280]
                xs = xs[(xs > self.lo) & (xs < self.hi)]
                xs = xs[np.r_[True, np.diff(xs) != 0]]     # next to the end, x stops at its ulp
            else:
                xs = base + out * self.scale * 2.0 ** np.arange(1, 31)
            lp, lq = self._logs(xs)
            with np.errstate(invalid="ignore"):  # -inf - -inf far out: not finite, dropped below
                L = sign * (lp - lq)
                # far out lp, lq ~ -x^2/2 round by far more than L: a probe counts only where
                # L is resolved past the growth test's threshold, and enters the sup only where
                # it is resolved to 1e-12, with its rounding on the upper side
                dL = 4 * MACH * (np.abs(lp) + np.abs(lq) + 1)
                ok = np.isfinite(L) & (dL <= 1e-6 * (1 + np.abs(L)))
            if not np.any(ok):
                continue
            Lok = L[ok]
            grow = np.diff(Lok[-6:])
            if len(grow) >= 3 and np.all(grow > 1e-6 * (1 + np.abs(Lok[-6:-1]))):
                where = "tail" if not np.isfinite(end) else f"end {end:.6g}"
                return INF, None, (f"inf: the log-ratio keeps {'growing' if sign > 0 else 'falling'} "
                                   f"toward the {'upper' if out > 0 else 'lower'} {where} (reaches "
                                   f"{sign * Lok[-1]:.4g} at x = {xs[ok][-1]:.4g})")
            sharp = ok & (dL <= 1e-12 * (1 + np.abs(L)))
            if np.any(sharp):
                best = max(best, float(np.max(L[sharp] + dL[sharp])))
        atoms_ext = max((sign * L for _, L in self._mp_atoms()), default=-INF)
        lp, L = self._mp_lp_L(mpmath.mpf(best_x))
        val = max(mpmath.mpf(best), sign * L if lp != -INF else -INF, atoms_ext)
        return val, best_x, "sup of the log-ratio over a grid refined by a bounded optimiser"

    def d_inf(self):
        if not self.has_density:
            return self._finite.d_inf()
        if self._dinf_cache is None:
            v, _, how = self._extreme(1)
            self._dinf_cache = DInfinity(v, how)
        return self._dinf_cache

    def loss_range(self):
        if not self.has_density:
            return self._finite.loss_range()
        top = self.d_inf().value
        bottom = self._extreme(-1)[0]
        return top + bottom

