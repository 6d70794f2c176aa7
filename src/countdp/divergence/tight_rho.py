"""The tight zCDP parameter of a pair (or a finite family of neighbouring pairs) of output laws:
the library's one engine for a supremum over the Renyi orders.

    rho* = sup_{alpha > 1} max(D_alpha(P||Q), D_alpha(Q||P)) / alpha

computed numerically, never assuming where the supremum lies.  Write, for one ordered pair,

    F(alpha) = (alpha - 1) D_alpha(P||Q) = log E_P[exp((alpha - 1) L)],   L = log(dP/dQ),

the cumulant generating function of the privacy loss L under P at ``alpha - 1`` (evaluated by
:mod:`countdp.divergence.loss_cgf` and, for location pairs of a symmetric log-concave law, by
:mod:`countdp.divergence.location`).  Two facts make a rigorous bracket possible:

* F is convex with F(1) = 0 and F'(1) = KL(P||Q); so on a cell [a, b] the chord of F lies above
  F and ``D_alpha/alpha = F/(alpha(alpha-1)) <= chord/(alpha(alpha-1))`` (maximised in closed form
  over the cell); on the first cell (1, a0] the chord from (1, 0) gives ``D_alpha/alpha <= D_a0``;
* D_alpha is nondecreasing with limit D_inf = log ess sup dP/dQ, so for alpha >= A the ratio is
  at most ``D_inf / A`` (the large-alpha end; D_inf = inf leaves that end unbounded and is
  reported, never hidden) -- or the evaluator's own bound (the score-CGF bound of a location
  pair).

The scan: a log grid of ``alpha - 1`` from ``alpha_min - 1`` (1e-6) to ``alpha_max - 1`` (1e4, or
the order where a location pair's large-alpha bound falls below the KL), plus the two ends (the
KL limit alpha -> 1 and the large-alpha tail); then (``refine``) branch and bound -- every cell
whose upper bound exceeds the best value found by more than the tolerance is split (the first
cell by pushing alpha_min toward 1, the tail by pushing alpha_max out) until none is left -- and
a bounded scalar optimiser around the best point.  The best point is recomputed by the precise
route (mpmath at the working precision; ``precise=False`` keeps the float64 route's value); the
bracket [lo, hi] has ``lo = value - its error`` and ``hi = max(cell upper bounds + divergence
errors)``.

Infinite values are ``inf`` with a reason (support mismatch, a non-integrable tail).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Iterable, Sequence

import mpmath
import numpy as np
from scipy import optimize

from ..laws import Law
from ..laws.base import check_law
from ..numerics import validate
from ..numerics.estimate import Estimate
from .location import location_loss_cgf, location_pair
from .noise_pair import NoisePairLossCgf, noise_pair
from .standardise import standardised
from .finite_support import finite_support_pmfs
from .fallback_loss_cgf import LibraryLossCgf
from .loss_cgf import INF, MACH, DensityLossCgf, DInfinity, FiniteLossCgf, LargeAlphaEnd, LossCgf
from .tail_growth import Unresolved

__all__ = ["TightRho", "DirectionSup", "LargeAlphaEnd", "DInfinity", "SupRatio", "tight_rho",
           "renyi_curve", "mp_renyi", "d_infinity", "pmf_sup_ratio", "INF", "Unresolved"]


# ============================================================================================
# Result types
# ============================================================================================


@dataclass(frozen=True)
class DirectionSup:
    """sup_alpha D_alpha(P||Q)/alpha for one ordered pair, with its bracket and curve.

    ``alpha`` is the maximiser, 1.0 when the supremum is the limit alpha -> 1 (then
    ``attained_at_one``; for an infinite value, the smallest order found infinite).  ``alphas``,
    ``ratios``, ``ratio_errors``: the scanned curve D_alpha/alpha (float64 route).
    ``first_bound``: the bound of D_alpha/alpha on (1, alphas[0]]; ``end``: the bound beyond the
    last order; ``slope_at_one``: d/dalpha (D_alpha/alpha) at alpha = 1, Var(L)/2 - KL, when the
    evaluator has E L^2 (else None)."""

    label: str
    value: object                 # mpf (inf when infinite)
    alpha: float
    attained_at_one: bool
    lo: object
    hi: object
    kl: object
    kl_error: object
    d_inf: object
    d_inf_how: str
    tail: str
    bounded: bool
    flat: bool
    alphas: np.ndarray
    ratios: np.ndarray
    ratio_errors: np.ndarray
    evaluations: int
    route: str
    reason: str | None = None     # why the value is infinite
    first_bound: float = math.inf
    end: LargeAlphaEnd | None = None
    slope_at_one: Estimate | None = None

    @property
    def finite(self) -> bool:
        return not mpmath.isinf(self.value)

    @property
    def max_excess(self) -> float:
        """max over the scanned orders of (D_alpha/alpha - KL)/KL (negative: every scanned order
        is below the KL end)."""
        kl = float(self.kl)
        return float(np.max((self.ratios - kl) / kl))


@dataclass(frozen=True)
class TightRho:
    """rho* of a pair or family: value, maximiser, bracket [lo, hi], direction, curve samples."""

    value: object
    alpha: float                  # the maximiser; 1.0 with attained_at_one for alpha -> 1
    attained_at_one: bool
    lo: object
    hi: object
    direction: str
    kl: object                    # KL of the attaining direction
    kl_max: object                # the largest KL over all directions (a lower bound of rho*)
    bounded: bool
    flat: bool
    tail: str
    directions: list[DirectionSup] = field(default_factory=list)
    reason: str | None = None

    @property
    def width(self):
        """hi - lo: the error bar of the value (inf when the large-alpha end is unbounded)."""
        return self.hi - self.lo

    @property
    def excess_over_kl(self):
        """rho* - max KL: zero (within the bracket) exactly when the sup sits at alpha -> 1."""
        return self.value - self.kl_max

    def best(self) -> DirectionSup:
        return next(d for d in self.directions if d.label == self.direction)

    def curve(self, label: str | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(alphas, D_alpha/alpha) samples of a direction (default: the attaining one)."""
        d = self.best() if label is None else next(d for d in self.directions if d.label == label)
        return d.alphas, d.ratios

    def __repr__(self) -> str:
        a = "alpha -> 1" if self.attained_at_one else f"alpha = {self.alpha:.6g}"
        return (f"TightRho({mpmath.nstr(self.value, 15)} in [{mpmath.nstr(self.lo, 15)}, "
                f"{mpmath.nstr(self.hi, 15)}], {a}, {self.direction})")


@dataclass(frozen=True)
class SupRatio:
    """The light float64 supremum of :func:`pmf_sup_ratio` and its maximiser (1.0: alpha -> 1)."""

    value: float
    alpha: float

    @property
    def attained_at_one(self) -> bool:
        return self.alpha == 1.0


# ============================================================================================
# The evaluator of a pair
# ============================================================================================


def _direction(P: Law, Q: Law, breakpoints, tail, location: bool = True) -> LossCgf:
    check_law("P", P), check_law("Q", Q)
    if location:
        loc = location_pair(P, Q)
        if loc is not None:
            return location_loss_cgf(*loc)
    pair = noise_pair(P, Q)
    if pair is not None:
        d = NoisePairLossCgf(pair)
        return d if d.beyond_float is None else LibraryLossCgf(P, Q)
    std = standardised(P, Q)  # a scale far from 1: the same divergences at scale 1
    if std is not None:
        P, Q = std[:2]
    fin = finite_support_pmfs(P, Q, tail)
    if fin is not None:
        ps, qs, tp, tq = fin
        return FiniteLossCgf(ps, qs, tp, tq,
                             route=("exact pmf sums over a proven window" if tp else
                                    "exact sums over the finite pmfs"))
    pd = P.density
    if pd is not None and pd.coordinate_key() == ("identity",) and not P.integer and not Q.integer and \
            (Q.density is None or Q.density.coordinate_key() == ("identity",)):
        d = DensityLossCgf(P, Q, breakpoints)
        return d if d.beyond_float is None else LibraryLossCgf(P, Q)
    return LibraryLossCgf(P, Q)


# ============================================================================================
# The scan and branch and bound for one direction
# ============================================================================================


def _chord_bound(a: float, b: float, Fa: float, Fb: float) -> float:
    """max over alpha in [a, b] of chord(alpha) / (alpha (alpha - 1)) for the chord of F."""
    if not (np.isfinite(Fa) and np.isfinite(Fb)):
        return math.inf
    c1 = (Fb - Fa) / (b - a)
    c0 = Fa - c1 * a
    cands = [a, b]
    # d/dx (c0 + c1 x)/(x^2 - x) = 0  <=>  c1 x^2 + 2 c0 x - c0 = 0
    if c1 != 0:
        disc = c0 * c0 + c1 * c0
        if disc >= 0:
            r = math.sqrt(disc)
            cands += [(-c0 + r) / c1, (-c0 - r) / c1]
    vals = [(c0 + c1 * x) / (x * (x - 1)) for x in cands if a <= x <= b]
    mono = Fb / (b - 1) / a          # D_alpha nondecreasing: D_alpha/alpha <= D_b / a
    return min(max(vals), mono)


def _d_interp_bound(a: float, b: float, Da: float, Db: float, c: float) -> float:
    """max over alpha in [a, b] of (linear interpolant of D + c (alpha-a)(b-alpha)) / alpha.

    With D(alpha) = int_0^1 F'(1 + (alpha-1) t) dt one has D'' = int_0^1 t^2 F'''(.) dt, and the
    third derivative of F is the third central moment of a tilted law of L, at most R^3/4 in
    absolute value for L in a range of length R: |D''| <= R^3/12, so
    D <= interpolant + (alpha-a)(b-alpha) R^3/24 (c = R^3/24).  This bound is second order in
    the cell width without the 1/(alpha-1) of the chord of F, which is what resolves curves
    that are nearly flat near alpha = 1."""
    if not (np.isfinite(Da) and np.isfinite(Db) and np.isfinite(c)):
        return math.inf
    c1 = (Db - Da) / (b - a)
    c0 = Da - c1 * a
    B = c1 + c * (a + b)
    C = c0 - c * a * b
    cands = [a, b]
    if c > 0 and -C / c > 0:
        r = math.sqrt(-C / c)
        if a < r < b:
            cands.append(r)
    return max(-c * x + B + C / x for x in cands)


@dataclass(frozen=True)
class _Options:
    a1_min: float                 # alpha_min - 1 (computed exactly from alpha_min)
    alpha_max: float | None
    ppd: int | None
    rel_tol: float
    max_evals: int | None
    refine: bool
    precise: bool


class _Scan:
    """The evaluated orders of one direction (F and its float error at each alpha) and the bounds
    of D_alpha/alpha on the cells between them, on the first cell and beyond the last order."""

    def __init__(self, d: LossCgf, kl_f: float, kl_ferr: float):
        self.d, self.kl_f, self.kl_ferr = d, kl_f, kl_ferr
        self.pts: dict[float, tuple[float, float]] = {}
        R = float(d.loss_range())
        self.c_interp = R ** 3 / 24 if np.isfinite(R) else math.inf
        self._ends: dict[float, LargeAlphaEnd] = {}
        self.note = ""             # why the tail was not pushed further out (when it was not)
        self.unresolved: list[float] = []   # orders the float route could not evaluate

    def evaluate(self, alphas) -> None:
        """F at each new order; an order the float route cannot resolve (:class:`Unresolved`) is
        left out (the cells' bounds use evaluated orders only, so its neighbours' cell covers it)
        and listed in ``unresolved``."""
        for a in alphas:
            if a in self.pts or a in self.unresolved:
                continue
            try:
                F = self.d.F(np.array([a]))
            except Unresolved:
                self.unresolved.append(a)
                continue
            self.pts[a] = (float(F.value[0]), float(F.error[0]))

    def orders(self) -> list[float]:
        return sorted(self.pts)

    def ratio(self, a: float) -> tuple[float, float]:
        f, e = self.pts[a]
        return f / (a * (a - 1)), e / (a * (a - 1))

    def lower(self) -> float:
        """The best value found minus its error (the KL end included)."""
        return max(self.kl_f - self.kl_ferr, max(v - e for v, e in map(self.ratio, self.pts)))

    def cell_ub(self, a: float, b: float) -> float:
        Fa, Ea = self.pts[a]
        Fb, Eb = self.pts[b]
        Da, Db = (Fa + Ea) / (a - 1), (Fb + Eb) / (b - 1)
        ub = min(_chord_bound(a, b, Fa + Ea, Fb + Eb), _d_interp_bound(a, b, Da, Db, self.c_interp))
        if self.d.end_bounds_cells:  # the evaluator's bound for every order >= a holds on the cell
            ub = min(ub, self.end(a).bound)
        return ub

    def first_ub(self, a0: float) -> float:
        """(1, a0]: D nondecreasing gives D_alpha/alpha <= D_a0; D(1) = KL and |D''| <= R^3/12."""
        F0, E0 = self.pts[a0]
        D0 = (F0 + E0) / (a0 - 1)
        return min(D0, _d_interp_bound(1.0, a0, self.kl_f + self.kl_ferr, D0, self.c_interp))

    def end(self, A: float) -> LargeAlphaEnd:
        A = float(A)
        if A not in self._ends:
            self._ends[A] = self.d.large_alpha_end(A)
        return self._ends[A]


def _branch_and_bound(scan: _Scan, rel_tol: float, max_evals: int) -> None:
    """Split every cell whose upper bound exceeds the best value by more than the tolerance (the
    first cell toward alpha = 1, the tail outward) until none is left or the budget is spent."""
    lower_floor = 1e-13  # alpha - 1 below which the first cell is not split further
    push = True          # the tail is pushed out while the float route can evaluate there
    for _ in range(200):
        xs = scan.orders()
        lo = scan.lower()
        tol = max(rel_tol * abs(lo), 1e-300)
        split = []
        if scan.first_ub(xs[0]) > lo + tol and xs[0] - 1 > lower_floor:
            split.append(1 + (xs[0] - 1) / 10)
        for a, b in zip(xs[:-1], xs[1:]):
            if scan.cell_ub(a, b) > lo + tol and (b - a) > 1e-12 * a:
                split.append(1 + math.sqrt((a - 1) * (b - 1)))
        A = xs[-1]
        end = scan.end(A)
        if not end.bounded:
            # the large-alpha end cannot be bounded: the bracket stays open, refining is moot
            return
        beyond = 1 + (A - 1) * 10
        if push and end.bound > lo + tol and A < 1e15:
            split.append(beyond)
        if not split or len(scan.pts) >= max_evals:
            return
        scan.evaluate(split[: max(1, max_evals - len(scan.pts))])
        if beyond in scan.unresolved or (beyond in scan.pts and not np.isfinite(scan.pts[beyond][0])):
            # D_alpha <= D_inf < inf (or the evaluator's own finite bound) for every alpha >= A:
            # an infinite F out there is the float route failing, not a divergence.  The end
            # stays the (valid, looser) bound at A.
            scan.pts.pop(beyond, None)
            scan.note = (f"the float64 route cannot evaluate alpha = {beyond:.4g}; the end is the "
                         f"bound at alpha >= {A:.4g}")
            push = False


def _tail(scan: _Scan, dinf_how: str) -> tuple[str, bool, float]:
    """(description, bounded, bound) of the large-alpha end beyond the last order."""
    xs = scan.orders()
    A = xs[-1]
    end = scan.end(A)
    if end.bounded:
        return end.how + (f" ({scan.note})" if scan.note else ""), True, end.bound
    r = [scan.ratio(a)[0] for a in xs]
    peak = max(r)
    decay = r[-1] / peak if peak > 0 else 0.0
    text = (f"{dinf_how}; D_alpha/alpha at alpha = {A:.4g} is {r[-1]:.6g} ({decay:.4g} of the max): "
            + ("not decaying -- the sup over larger alpha is not bounded by the scan" if decay > 0.5
               else "decaying, but without a finite D_inf the end is not bounded"))
    return text, False, math.inf


def _locate(scan: _Scan, kl: Estimate, precise: bool) -> tuple:
    """(value, error, alpha, attained_at_one): the KL end when no scanned order beats it within
    the error bars, else the best order refined by a bounded optimiser (its value by the precise
    route, or the float one)."""
    d, xs = scan.d, scan.orders()
    vals = np.array([scan.ratio(a)[0] for a in xs])
    errs = np.array([scan.ratio(a)[1] for a in xs])
    i = int(np.argmax(vals))
    if scan.kl_f + scan.kl_ferr >= vals[i] - errs[i] - 1e-13 * abs(scan.kl_f):
        return kl.value, kl.error, 1.0, True
    a_star = xs[i]
    lo_b, hi_b = xs[max(i - 1, 0)], xs[min(i + 1, len(xs) - 1)]
    if hi_b > lo_b:
        def neg(a):
            return -d.F(np.array([a])).value[0] / (a * (a - 1))
        res = optimize.minimize_scalar(neg, bounds=(lo_b, hi_b), method="bounded",
                                       options={"xatol": 1e-10 * a_star})
        if -res.fun > vals[i]:
            a_star = float(res.x)
    if precise:
        F = d.mp_F(mpmath.mpf(a_star))
    else:
        Ff = d.F(np.array([a_star]))
        F = Estimate(mpmath.mpf(Ff.value[0]), mpmath.mpf(Ff.error[0]))
    den = mpmath.mpf(a_star) * (mpmath.mpf(a_star) - 1)
    return F.value / den, F.error / den, float(a_star), False


def _infinite(d: LossCgf, label: str) -> DirectionSup:
    return DirectionSup(label=label, value=INF, alpha=1.0, attained_at_one=True, lo=INF, hi=INF, kl=INF,
                        kl_error=mpmath.mpf(0), d_inf=INF, d_inf_how="support mismatch", tail="infinite",
                        bounded=False, flat=False, alphas=np.array([]), ratios=np.array([]),
                        ratio_errors=np.array([]), evaluations=0, route=d.route, reason=d.infinite_reason)


def _diverging(scan: _Scan, label: str, kl: Estimate, dinf: DInfinity) -> DirectionSup | None:
    """The result when an order (or the KL) is infinite, else None."""
    infinite_at = [a for a, (f, _) in scan.pts.items() if not np.isfinite(f)]
    if not (infinite_at or not np.isfinite(scan.kl_f)):
        return None
    xs = np.array(scan.orders())
    rs = np.array([scan.ratio(a)[0] for a in xs])
    why = (f"D_alpha = inf from alpha = {min(infinite_at):.6g} on (the Renyi integral does not converge)"
           if infinite_at else "KL = inf")
    return DirectionSup(label=label, value=INF, alpha=min(infinite_at) if infinite_at else 1.0,
                        attained_at_one=not infinite_at, lo=INF, hi=INF, kl=kl.value, kl_error=kl.error,
                        d_inf=dinf.value, d_inf_how=dinf.how, tail=why, bounded=False, flat=False, alphas=xs,
                        ratios=rs, ratio_errors=np.zeros_like(rs), evaluations=len(scan.pts),
                        route=scan.d.route, reason=why)


def _kl_end(d: LossCgf, precise: bool) -> Estimate:
    """The KL by the precise route, or by the float one (as mpmath numbers)."""
    if precise:
        return d.kl()
    k = d.kl_float()
    return Estimate(mpmath.mpf(k.value), mpmath.mpf(k.error))


def _slope_at_one(d: LossCgf, kl_f: float, kl_err: float) -> Estimate | None:
    """Var(L)/2 - KL = E L^2/2 - KL^2/2 - KL, d/dalpha of D_alpha/alpha at 1 (a KL off by e: e (1 + KL + e/2))."""
    m2 = d.second_moment()
    if m2 is None:
        return None
    second, second_err = m2.value, m2.error
    var = second - kl_f * kl_f
    return Estimate(var / 2 - kl_f,
                    second_err / 2 + kl_err * (1 + 2 * abs(kl_f) + kl_err) + 1e-16 * (abs(second) + abs(kl_f)))


def _sup_direction(d: LossCgf, label: str, opt: _Options) -> DirectionSup:
    if d.infinite_reason:
        return _infinite(d, label)
    kl = _kl_end(d, opt.precise)
    kl_f = float(kl.value)
    scan = _Scan(d, kl_f, float(kl.error) + 4 * MACH * abs(kl_f))
    dinf = d.d_inf()
    alpha_max = opt.alpha_max or d.natural_alpha_max(kl_f, float(kl.error)) or 1e4
    u0, u1 = math.log10(opt.a1_min), math.log10(max(alpha_max - 1, 10 * opt.a1_min))
    ppd = opt.ppd or d.default_ppd
    scan.evaluate(list(1 + 10 ** np.linspace(u0, u1, max(int(math.ceil((u1 - u0) * ppd)) + 1, 3))))
    if not scan.pts:
        raise Unresolved(min(scan.unresolved), "no order of the scan could be evaluated")
    out = _diverging(scan, label, kl, dinf)
    if out is not None:
        return out
    if opt.refine:
        _branch_and_bound(scan, opt.rel_tol, opt.max_evals or d.max_evals)
    xs = scan.orders()
    if scan.unresolved and not scan.note:
        scan.note = (f"the float64 route could not evaluate {len(scan.unresolved)} order(s) from alpha = "
                     f"{min(scan.unresolved):.4g}: the cells and the end are bounded from the evaluated orders")
    tail, bounded, ub_tail = _tail(scan, dinf.how)
    ubs = [scan.first_ub(xs[0])] + [scan.cell_ub(a, b) for a, b in zip(xs[:-1], xs[1:])]
    hi_f = max([scan.lower()] + ubs + [ub_tail])
    vals = np.array([scan.ratio(a)[0] for a in xs])
    errs = np.array([scan.ratio(a)[1] for a in xs])
    flat = float(vals.max() - vals.min()) <= 1e-7 * max(abs(float(vals.max())), 1e-300) + 2 * float(errs.max())
    value, verr, alpha, at_one = _locate(scan, kl, opt.precise)
    hi = max(mpmath.mpf(hi_f), value + verr) if bounded else INF
    return DirectionSup(label=label, value=value, alpha=alpha, attained_at_one=at_one, lo=value - verr, hi=hi,
                        kl=kl.value, kl_error=kl.error, d_inf=dinf.value, d_inf_how=dinf.how, tail=tail,
                        bounded=bounded,
                        flat=flat, alphas=np.array(xs), ratios=vals, ratio_errors=errs, evaluations=len(scan.pts),
                        route=d.route, first_bound=float(ubs[0]), end=scan.end(xs[-1]),
                        slope_at_one=_slope_at_one(d, kl_f, float(kl.error)))


# ============================================================================================
# Public entry points
# ============================================================================================


def _as_pairs(pairs) -> list[tuple[Law, Law]]:
    if isinstance(pairs, tuple) and len(pairs) == 2 and all(isinstance(x, Law) for x in pairs):
        return [pairs]
    try:
        out = [tuple(p) for p in pairs]
    except TypeError:
        raise ValueError("pairs must be a (P, Q) tuple of laws or a list of such tuples") from None
    if not out or any(len(p) != 2 or not all(isinstance(x, Law) for x in p) for p in out):
        raise ValueError("pairs must be a (P, Q) tuple of laws or a non-empty list of such tuples")
    return out


def _excess(alpha) -> float:
    """alpha - 1 rounded once (exact rationals and mpmath numbers are not rounded to a float
    alpha first: 1 + 1e-8 as a float has alpha - 1 = 0.99999999392e-8)."""
    if isinstance(alpha, Fraction):
        return float(alpha - 1)
    if isinstance(alpha, np.floating):  # numpy scalars (float32 too) are binary floats already
        alpha = float(alpha)
    return float(mpmath.mpf(alpha) - 1)


def _options(alpha_min, alpha_max, points_per_decade, rel_tol, max_evals, refine, precise) -> _Options:
    validate.real("alpha_min", alpha_min, lo=1, hi=1e6, hi_open=False)  # the start of the scan
    if alpha_max is not None:
        validate.real("alpha_max", alpha_max, lo=float(alpha_min), hi=1e100, hi_open=False)
    validate.real("rel_tol", rel_tol, lo=0, hi=1)
    if points_per_decade is not None:
        validate.count("points_per_decade", points_per_decade, lo=2)
    if max_evals is not None:
        validate.count("max_evals", max_evals, lo=10)
    return _Options(_excess(alpha_min), None if alpha_max is None else float(alpha_max), points_per_decade,
                    float(rel_tol), max_evals, bool(refine), bool(precise))


def _pair_directions(P: Law, Q: Law, name: str, opt: _Options, bps, tail, location: bool) -> list[DirectionSup]:
    """Both directions of one pair; a location pair of a symmetric law has equal divergences in
    the two directions (x -> Delta - x swaps them), so its second direction is the first's."""
    if location and location_pair(P, Q) is not None:
        first = _sup_direction(_direction(P, Q, bps, tail), f"{name}P||Q", opt)
        return [first, replace(first, label=f"{name}Q||P",
                               route=first.route + "; equal to P||Q (a location pair of a symmetric law)")]
    return [_sup_direction(_direction(A, B, bps, tail, location=False), lab, opt)
            for lab, (A, B) in ((f"{name}P||Q", (P, Q)), (f"{name}Q||P", (Q, P)))]


def tight_rho(pairs, *, alpha_min=1 + 1e-6, alpha_max=None, points_per_decade: int | None = None,
              rel_tol=1e-8, breakpoints: Iterable = (), window_tail=None,
              max_evals: int | None = None, labels: Sequence[str] | None = None, refine: bool = True,
              precise: bool = True, location: bool = True) -> TightRho:
    """rho* = sup_{alpha > 1} max over pairs and directions of D_alpha / alpha.

    ``pairs``: a ``(P, Q)`` tuple of laws or a list of them (a family of neighbouring pairs);
    both directions of each pair are scanned.  ``alpha_min`` / ``alpha_max``: ends of the
    initial log grid of ``alpha - 1`` (the branch and bound goes beyond both when needed; an exact
    ``alpha_min`` -- a Fraction or an mpmath number -- gives ``alpha_min - 1`` without rounding;
    ``alpha_max`` None: 1e4, or for a location pair the order where its score-CGF bound falls
    below the KL); ``rel_tol``: relative tolerance of the bracket; ``breakpoints``: kinks of the
    densities (besides the ``breakpoints`` attribute of each Density); ``window_tail``: the tail
    mass for integer laws with infinite support (default ``10^-(dps+5)``); ``max_evals``: the orders
    a direction may evaluate, its initial scan included (default: its evaluator's); ``refine``: run the
    branch and bound (False: the scan and the two ends only); ``precise``: recompute the value
    at the maximiser by the mpmath route (False: the float64 value); ``location``: use the
    location evaluator for translates of one symmetric log-concave law (False: the generic
    density quadrature)."""
    opt = _options(alpha_min, alpha_max, points_per_decade, rel_tol, max_evals, refine, precise)
    plist = _as_pairs(pairs)
    if labels is not None and (isinstance(labels, str) or not isinstance(labels, Sequence) or
                               not all(isinstance(x, str) for x in labels)):
        raise validate.ParameterTypeError(f"labels must be a list of strings (one per pair), got "
                                          f"{type(labels).__name__}")
    if labels is not None and len(labels) != len(plist):
        raise ValueError(f"labels must give one name per pair ({len(plist)}), got {len(labels)}")
    tail = _default_tail() if window_tail is None else \
        mpmath.mpf(validate.real("window_tail", window_tail, lo=0, hi=1))
    bps = _breakpoints(breakpoints)
    results = []
    for i, (P, Q) in enumerate(plist):
        name = labels[i] if labels is not None else (f"pair {i}: " if len(plist) > 1 else "")
        results += _pair_directions(P, Q, name, opt, bps, tail, location)
    best = max(results, key=lambda r: (r.value, -(r.lo if r.finite else 0)))
    return TightRho(value=best.value, alpha=best.alpha, attained_at_one=best.attained_at_one,
                    lo=max(r.lo for r in results), hi=max(r.hi for r in results), direction=best.label,
                    kl=best.kl, kl_max=max(r.kl for r in results), bounded=all(r.bounded for r in results),
                    flat=best.flat, tail=best.tail, directions=results, reason=best.reason)


def _default_tail():
    return mpmath.mpf(10) ** (-(mpmath.mp.dps + 5))


def _breakpoints(bps) -> list[float]:
    """The ``breakpoints`` argument: an iterable of finite real numbers, as floats."""
    if bps is None or isinstance(bps, (str, bytes)) or not isinstance(bps, Iterable):
        raise validate.ParameterTypeError(f"breakpoints must be an iterable of real numbers, got "
                                          f"{type(bps).__name__}")
    return [float(validate.real("breakpoints", b)) for b in bps]


def renyi_curve(P: Law, Q: Law, alphas, breakpoints: Iterable = (), location: bool = True) -> Estimate:
    """D_alpha(P||Q) at the given orders by the engine's float64 route (arrays of values and
    errors); :class:`~countdp.divergence.tail_growth.Unresolved` (an ArithmeticError) at an order
    that route cannot resolve."""
    a = validate.reals("alpha", alphas, lo=1)
    d = _direction(P, Q, _breakpoints(breakpoints), _default_tail(), location)
    if d.infinite_reason:
        return Estimate(np.full(a.shape, np.inf), np.zeros(a.shape))
    F = d.F(a)
    return Estimate(F.value / (a - 1), F.error / (a - 1))


def mp_renyi(P: Law, Q: Law, alpha, breakpoints: Iterable = (), location: bool = True) -> Estimate:
    """D_alpha(P||Q) by the engine's precise (mpmath) route; alpha = 1 gives KL."""
    alpha = mpmath.mpf(validate.real("alpha", alpha, lo=1, lo_open=False))
    d = _direction(P, Q, _breakpoints(breakpoints), _default_tail(), location)
    if d.infinite_reason:
        return Estimate(INF, mpmath.mpf(0))
    if alpha == 1:
        return d.kl()
    F = d.mp_F(alpha)
    return Estimate(F.value / (alpha - 1), F.error / (alpha - 1))


def d_infinity(P: Law, Q: Law, breakpoints: Iterable = (), location: bool = True) -> DInfinity:
    """D_inf(P||Q) = log ess sup dP/dQ, and how it was obtained."""
    d = _direction(P, Q, _breakpoints(breakpoints), _default_tail(), location)
    if d.infinite_reason:
        return DInfinity(INF, d.infinite_reason)
    return d.d_inf()


def pmf_sup_ratio(p: Sequence[float], q: Sequence[float], alpha_max=1e4, points_per_decade=12,
                  refine=True) -> SupRatio:
    """A light float64 version for searches over many finite pairs: the max over both directions
    of sup_alpha D_alpha/alpha and its maximiser (1.0 for alpha -> 1).  Not a bracket: use
    :func:`tight_rho` on the pair it selects."""
    p = validate.reals("p", p, lo=0, lo_open=False)
    q = validate.reals("q", q, lo=0, lo_open=False)
    if p.shape != q.shape or p.ndim != 1 or not p.size or p.sum() == 0 or q.sum() == 0:
        raise ValueError(f"p and q must be nonnegative, nonzero 1-d arrays of one length, got shapes "
                         f"{p.shape}, {q.shape}")
    alpha_max = float(validate.real("alpha_max", alpha_max, lo=1 + 1e-5, hi=1e300))
    points_per_decade = validate.count("points_per_decade", points_per_decade, lo=1, hi=1000)
    best = SupRatio(-math.inf, 1.0)
    alphas = 1 + 10 ** np.linspace(-6, math.log10(alpha_max - 1), int(10 * points_per_decade) + 1)
    for a, b in ((p, q), (q, p)):
        m = a > 0
        if np.any(b[m] <= 0):
            return SupRatio(math.inf, 1.0)
        d = FiniteLossCgf([mpmath.mpf(float(v)) for v in a[m]], [mpmath.mpf(float(v)) for v in b[m]])
        found = _light_sup(d, alphas, refine)
        if found.value > best.value:
            best = found
    return best


def _light_sup(d: FiniteLossCgf, alphas: np.ndarray, refine: bool) -> SupRatio:
    kl = float(np.sum(d.p * d.L))
    r = d.F(alphas).value / (alphas * (alphas - 1))
    i = int(np.argmax(r))
    if kl >= r[i]:
        return SupRatio(kl, 1.0)
    val, at = float(r[i]), float(alphas[i])
    if refine:
        lo_b, hi_b = alphas[max(i - 1, 0)], alphas[min(i + 1, len(alphas) - 1)]
        res = optimize.minimize_scalar(lambda x: -d.F(np.array([x])).value[0] / (x * (x - 1)),
                                       bounds=(lo_b, hi_b), method="bounded")
        if -res.fun > val:
            val, at = float(-res.fun), float(res.x)
    return SupRatio(val, at)
