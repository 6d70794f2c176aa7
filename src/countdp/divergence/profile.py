"""The exact privacy profile of a pair of output laws and the eps it gives at a delta
(Definition 2.1; Section 5.1).

The profile is the hockey-stick divergence ``delta_{P||Q}(eps) = int (dP - e^eps dQ)_+``
(:func:`hockey_stick`), computed

* in closed form for equal-variance Gaussians (and log-shifted Gaussians with one shift c, by the
  bijection u -> log(u + c) of eq 10): with ``mu = |shift| / s``,
  ``delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu)``
  (:func:`countdp.formulas.gaussian_profile`, :func:`gaussian_hockey_stick`);
* otherwise from the laws' atoms (exact sums) and densities (mpmath quadrature in the density's
  integration coordinate, split at the crossing points p = e^eps q found by root-finding, so that
  every integrand is nonnegative and smooth).

``eps_of_delta(P, Q, delta)`` inverts the profile by root-finding in eps and takes the larger of
the two orderings (Definition 2.1 bounds both directions).

Every function raises ValueError naming a bad parameter and its range.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

import mpmath
import numpy as np

from .. import formulas
from ..laws import Density, Gaussian, Law, LogShiftedGaussian, PointMass
from ..laws.base import check_law
from ..numerics import validate
from ..numerics.estimate import Estimate
from ..numerics.precision import guard_digits
from ..numerics.quadrature import smooth_quad
from ..numerics.roots import newton_decreasing, root_tolerance, solve_decreasing
from ..numerics.tolerance import working_precision
from .renyi import kink_nodes, log_density_pair
from .standardise import standardised

INF = mpmath.mpf("inf")

#: the largest standardised argument given to the normal cdf (mpmath's erfc fails near 1e154)
_Z_MAX = mpmath.mpf("1e100")

# ============================================================================================
# The hockey-stick divergence
# ============================================================================================


@dataclass(frozen=True)
class Profile(Estimate):
    """``delta_{P||Q}(eps) = int (dP - e^eps dQ)_+`` (``value``) with its absolute ``error``, the
    method, the crossings p = e^eps q found, and (when asked for) ``p_mass`` = P(A) of the set
    A = {p > e^eps q}, which gives the slope d delta/d eps = -(P(A) - delta)."""

    method: str = ""
    eps: object = None
    crossings: list = field(default_factory=list)
    p_mass: object = None


def gaussian_hockey_stick(mu, eps):
    """Closed form for N(0, s^2) vs N(shift, s^2) with ``mu = |shift|/s`` (either ordering):
    ``delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu)``; 0 for mu = 0."""
    mu = mpmath.mpf(validate.real("mu", mu, lo=0, lo_open=False))
    eps = mpmath.mpf(validate.real("eps", eps, lo=0, lo_open=False))
    if mu == 0:
        return mpmath.mpf(0)
    if mu / 2 + eps / mu > _Z_MAX:  # mpmath's erfc overflows a float beyond |z| ~ 1e154
        raise ValueError(f"mu and eps must keep mu/2 + eps/mu <= 1e100 (the normal cdf's range), "
                         f"got mu = {mpmath.nstr(mu, 6)}, eps = {mpmath.nstr(eps, 6)}")
    with guard_digits(20):  # guard digits against the cancellation
        val = formulas.gaussian_profile(mu, eps)
    return +max(val, mpmath.mpf(0))


def gaussian_eps_of_delta(mu, delta):
    """The eps at which :func:`gaussian_hockey_stick` equals delta (root-finding on the closed form)."""
    mu = mpmath.mpf(validate.real("mu", mu, lo=0, hi=_Z_MAX ** 0.5, lo_open=False, hi_open=False))
    delta = mpmath.mpf(validate.real("delta", delta, lo=0, hi=1))
    if gaussian_hockey_stick(mu, 0) <= delta:
        return mpmath.mpf(0)
    target = mpmath.log(delta)

    def f(e):
        d = gaussian_hockey_stick(mu, e)
        return (mpmath.log(d) if d > 0 else -INF) - target

    hi = mu * mu / 2 + mu * mpmath.sqrt(2 * mpmath.log(1 / delta)) + 1
    while f(hi) > 0:
        hi *= 2
    return solve_decreasing(f, 0, hi, root_tolerance(hi))


def _closed_rounding(mu, eps):
    """The rounding of the closed form at the working precision (unit u): mu = |shift|/s rounded
    twice (d delta/d mu = phi(mu/2 - eps/mu)), each of the two terms (at most Phi(mu/2 - eps/mu))
    at 20 guard digits, and the value rounded (at most u Phi(mu/2 - eps/mu) too)."""
    if mu == 0:
        return mpmath.mpf(0)
    u, guard = mpmath.mpf(2) ** -mpmath.mp.prec, mpmath.mpf(10) ** -(mpmath.mp.dps + 18)
    with mpmath.workprec(64):
        a = mpmath.mpf(mu) / 2 - mpmath.mpf(eps) / mu
        return +(2 * u * mu * mpmath.npdf(a) + (u + 2 * guard) * mpmath.ncdf(a))


def _closed_profile(P: Law, Q: Law, eps) -> Profile | None:
    pair = None
    if type(P) is Gaussian and type(Q) is Gaussian and P.s == Q.s:
        pair = (P.mu, Q.mu, P.s, "closed form (equal-variance Gaussians)")
    elif type(P) is LogShiftedGaussian and type(Q) is LogShiftedGaussian and P.s == Q.s and P.c == Q.c:
        pair = (P.mu, Q.mu, P.s, "closed form (equal-variance Gaussians in log(u + c), eq 10)")
    if pair is not None:
        mu = abs(pair[0] - pair[1]) / pair[2]
        return Profile(gaussian_hockey_stick(mu, eps), _closed_rounding(mu, eps), pair[3], eps)
    if isinstance(P, PointMass) and isinstance(Q, PointMass):
        val = mpmath.mpf(0) if P.x == Q.x else mpmath.mpf(1)
        return Profile(val, mpmath.mpf(0), "point masses", eps)
    return None


def hockey_stick(P: Law, Q: Law, eps, method: str = "auto", with_mass: bool = False) -> Profile:
    """The exact privacy profile ``delta_{P||Q}(eps) = int (dP - e^eps dQ)_+`` for eps >= 0.

    ``method``: ``"auto"`` (closed form when known, else atoms + quadrature), ``"closed"``,
    ``"quadrature"`` (never the closed form: an independent route).  ``with_mass`` also returns
    ``P(A)`` for the optimal set A (quadrature route only; it gives the slope in eps)."""
    check_law("P", P), check_law("Q", Q)
    eps = mpmath.mpf(validate.real("eps", eps, lo=0, lo_open=False))
    validate.choice("method", method, ("auto", "closed", "quadrature"))
    if method in ("auto", "closed"):
        closed = _closed_profile(P, Q, eps)
        if closed is not None:
            return closed
        if method == "closed":
            raise ValueError(f"no closed form known for {P.describe()} vs {Q.describe()}")
    return _profile_by_quadrature(P, Q, eps, with_mass)


@dataclass(frozen=True)
class _AtomPart:
    """The atoms' share of a profile: sum_x (p_x - e^eps q_x)_+, its error (the integer window's
    tail and the terms' rounding), the P-mass of the atoms where p > e^eps q, and how it was computed."""

    value: object
    error: object
    p_mass: object
    method: str | None


def _atom_table(L: Law, lo: int | None = None, hi: int | None = None) -> dict:
    if L.integer and not hasattr(L, "table"):
        return {mpmath.mpf(k): L.mp_pmf(k) for k in range(lo, hi + 1)}
    return L.atoms()


def _atom_part(P: Law, Q: Law, eps) -> _AtomPart:
    """Atoms of P against Q (integer laws are summed over a window with a proven tail bound)."""
    err, method = mpmath.mpf(0), None
    if P.integer or Q.integer:
        tail = working_precision(0)
        wins = [L.window(tail) for L in (P, Q) if L.integer]
        lo = min(w[0] for w in wins)
        hi = max(w[1] for w in wins)
        p_atoms = _atom_table(P, lo, hi) if P.integer else P.atoms()
        q_atoms = _atom_table(Q, lo, hi) if Q.integer else Q.atoms()
        if P.integer and not hasattr(P, "table"):
            err += tail  # P's mass outside the window bounds what was left out
        method = f"exact pmf sum over {lo}..{hi}"
    else:
        p_atoms, q_atoms = P.atoms(), Q.atoms()
        if p_atoms:
            method = "exact sum over atoms"
    total, mass, size = mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(0)
    with guard_digits(20):  # p - e^eps q cancels where the two are close
        gamma = mpmath.exp(eps)
        for x, p in p_atoms.items():
            gq = gamma * q_atoms.get(x, mpmath.mpf(0))
            size += p + gq
            d = p - gq
            if d > 0:
                total += d
                mass += p
        # each p - e^eps q rounded at the guard precision (e^eps too), and near 0 its sign with it
        rounding = 4 * mpmath.eps * size
    total = +total
    return _AtomPart(total, err + rounding + mpmath.eps * total, mass, method)


def _profile_by_quadrature(P: Law, Q: Law, eps, with_mass: bool = False) -> Profile:
    std = standardised(P, Q)  # a scale far from 1: the same profile at scale 1
    if std is not None:
        prof = _profile_by_quadrature(*std[:2], eps, with_mass)
        c, s = std[2:]
        return replace(prof, crossings=[c + s * u for u in prof.crossings])
    atoms = _atom_part(P, Q, eps)
    total, err, mass = atoms.value, atoms.error, atoms.p_mass
    methods = [atoms.method] if atoms.method else []
    pd = None if P.integer else P.density
    qd = None if Q.integer else Q.density
    crossings = []
    if pd is not None and pd.mass() > 0:
        if qd is None or qd.mass() == 0:
            total += pd.mass()
            mass += pd.mass()
            methods.append("P's density part (Q has none) counted whole")
        else:
            dens = _density_profile(pd, qd, eps, with_mass)
            total += dens.value
            err += dens.error
            crossings = dens.crossings
            mass = mass + dens.p_mass if dens.p_mass is not None else None
            methods.append("mpmath quadrature of (p - e^eps q)_+ split at the crossings")
    return Profile(total, err, " plus ".join(methods) or "empty", eps, crossings,
                   mass if with_mass else None)


def _log_parts(pd: Density, qd: Density):
    """:func:`countdp.divergence.renyi.log_density_pair`, kept per (t, precision): the sign scan,
    the profile's quadrature and the P-mass quadrature meet at the same nodes."""
    pair = log_density_pair(pd, qd)
    values = {}

    def parts(t):
        key = (t, mpmath.mp.prec)
        if key not in values:
            values[key] = pair(t)
        return values[key]

    return parts


@dataclass(frozen=True)
class _Window:
    """P's integration range [T_lo, T_hi] and the centres and scales of P and Q in it."""

    T_lo: object
    T_hi: object
    cp: object
    sp: object
    cq: object
    sq: object

    @property
    def scale(self):
        return max(self.sp, self.sq)

    def span(self, width: int) -> tuple:
        """The ends of ``width`` scales about both centres, clipped to the support."""
        return (max(self.T_lo, min(self.cp, self.cq) - width * self.scale),
                min(self.T_hi, max(self.cp, self.cq) + width * self.scale))


def _window(pd: Density, qd: Density) -> _Window:
    t_lo, t_hi = pd.t_range()
    mp_lo = getattr(pd, "mp_t_lo", lambda: None)()
    T_lo = mp_lo if mp_lo is not None else (mpmath.mpf(t_lo) if np.isfinite(t_lo) else -INF)
    T_hi = mpmath.mpf(t_hi) if np.isfinite(t_hi) else INF
    cp, sp = (mpmath.mpf(v) for v in pd.t_center_scale())
    try:
        cq, sq = (mpmath.mpf(v) for v in qd.t_center_scale()) if pd.same_coordinate(qd) else (cp, sp)
    except NotImplementedError:
        cq, sq = cp, sp
    return _Window(T_lo, T_hi, cp, sp, cq, sq)


def _crossings(D: Callable, win: _Window, width: int, points: int) -> list:
    """The sign changes of D on ``points`` nodes over ``width`` scales around both centres
    (clipped to the support), each refined by root-finding."""
    scale = win.scale
    a, b = win.span(width)
    grid = [a + (b - a) * k / (points - 1) for k in range(points)]
    if win.T_lo > -INF:
        grid[0] = win.T_lo + (grid[1] - win.T_lo) * mpmath.mpf(10) ** -12
    vals = [D(t) for t in grid]

    def sgn(v):
        return 1 if v > 0 else -1

    out = []
    for i in range(points - 1):
        if sgn(vals[i]) != sgn(vals[i + 1]):
            s0 = sgn(vals[i])
            out.append(solve_decreasing(lambda t: s0 * D(t), grid[i], grid[i + 1],
                                         root_tolerance(grid[i + 1]) * (1 + scale)))
    return out


def _representative(lo, hi, win: _Window):
    """A finite interior point of the piece [lo, hi] (to read off the sign of D there)."""
    if lo > -INF and hi < INF:
        return (lo + hi) / 2
    if lo > -INF:
        return lo + win.scale
    if hi < INF:
        return hi - win.scale
    return win.cp


@dataclass(frozen=True)
class _DensityProfile:
    """int (p - e^eps q)_+ over the density parts, its error, the crossings, and P(A) (or None)."""

    value: object
    error: object
    crossings: list
    p_mass: object


def _merged(points, gap) -> list:
    """The sorted points, each closer than ``gap`` to the last one kept dropped (two laws with
    nearly equal centres would otherwise split the quadrature into slivers)."""
    out = []
    for x in sorted(points):
        if not out or x - out[-1] >= gap:
            out.append(x)
    return out


def _rule(pd: Density, qd: Density) -> str:
    """mpmath's quadrature rule for the pieces: Gauss-Legendre when neither density declares a
    kink (``breakpoints``), so that p (1 - e^{-D}) is smooth between the crossings; tanh-sinh
    otherwise."""
    kinked = any(getattr(d, "breakpoints", ()) for d in (pd, qd))
    return "tanh-sinh" if kinked else "gauss-legendre"


def _positive_pieces(parts: Callable, D: Callable, win: _Window, crossings: list, eps,
                     with_mass: bool, rule: str = "tanh-sinh", kinks=()) -> _DensityProfile:
    """Integrate p (1 - e^{-D}) >= 0 over the pieces between the crossings where D > 0, with the
    P-mass of those pieces (0 unless ``with_mass``), by the quadrature ``rule`` (both integrals
    on the same nodes, so the mass reuses the profile's density values).  The densities'
    ``kinks`` are nodes, never merged away (Laplace(-163, 77.5) against Laplace(-12, 77.5): with
    P's mode merged into a node 4 away, the kinked piece came out 1.4e-9 off, its estimate 1e-9)."""
    ends = [win.T_lo] + crossings + [win.T_hi]
    total, err, pmass = mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(0)
    ks = (-16, -8, -4, -2, -1, 0, 1, 2, 4, 8, 16)
    anchors = _merged({win.cp + k * win.sp for k in ks} | {win.cq + k * win.sq for k in ks}, win.scale / 8)
    anchors = sorted(set(anchors) | {mpmath.mpf(k) for k in kinks})

    def f(t):
        lp, lq = parts(t)
        if lp == -INF:
            return mpmath.mpf(0)
        if lq == -INF:
            return mpmath.exp(lp)
        return mpmath.exp(lp) * -mpmath.expm1(eps + lq - lp)

    def g(t):
        lp = parts(t)[0]
        return mpmath.mpf(0) if lp == -INF else mpmath.exp(lp)

    for lo, hi in zip(ends[:-1], ends[1:]):
        if not D(_representative(lo, hi, win)) > 0:
            continue
        inner = sorted(x for x in anchors if lo < x < hi)
        if lo > -INF and hi < INF and hi - lo > 0:
            inner = sorted(set(inner) | {lo + (hi - lo) * k / 8 for k in range(1, 8)})
        nodes = [lo] + inner + [hi]
        val, e, used = smooth_quad(f, nodes, rel_enough=working_precision(6), rule=rule)
        total += val
        # mpmath's estimate covers the discretisation; the integrand itself carries the rounding
        # of log p - log q (terms of size ~(t - mu)^2/s^2), seen at ~10^-(dps-4) relative: add
        # a working-precision term 10^-(dps-6) |val|
        err += abs(e) + working_precision(6) * abs(val)
        if with_mass:
            pmass += mpmath.quad(g, nodes, maxdegree=10, method=used)
    return _DensityProfile(total, err, crossings, pmass)


def _rounding_of_D(D: Callable, win: _Window, crossings: list, eps):
    """A bound on the rounding of D = log p - log q - eps itself (log p, log q are differences of
    large, nearly equal terms far out, e.g. ((t - mu)/s)^2 with t ~ mu ~ log n): measured by
    re-evaluating D with 15 guard digits at the centres and crossings, times 4 for safety."""
    dD = mpmath.mpf(0)
    for t in [win.cp, win.cq] + crossings:
        if win.T_lo < t < win.T_hi:
            d0 = D(t)
            if mpmath.isinf(d0):
                continue
            with guard_digits(15):
                d1 = D(t)
            dD = max(dD, abs(d1 - d0))
    return 4 * (dD + mpmath.eps * (1 + abs(eps)))


def _beyond_the_window(parts: Callable, win: _Window, width: int, eps):
    """P's mass plus e^eps times Q's outside the window of ``width`` scales about both centres
    (mpmath quadrature of the log-densities in P's coordinate, with its error estimate)."""
    a, b = win.span(width)

    def f(t):
        lp, lq = parts(t)
        return (mpmath.exp(lp) if lp > -INF else 0) + mpmath.exp(eps) * (mpmath.exp(lq) if lq > -INF else 0)

    total = mpmath.mpf(0)
    for lo, hi in ((win.T_lo, a), (b, win.T_hi)):
        if hi > lo:
            val, e = mpmath.quad(f, [lo, hi], error=True)
            total += abs(val) + abs(e)
    return total


def _density_profile(pd: Density, qd: Density, eps, with_mass: bool = False, width: int = 40,
                     points: int = 201) -> _DensityProfile:
    """int (p - e^eps q)_+ over the density parts, with its error, the crossings and (with
    ``with_mass``) the P-mass of the positive set.

    The sign of D(t) = log p - log q - eps is scanned on ``points`` nodes over the window of
    ``width`` scales around both laws' centres (clipped to the support); every sign change is
    refined by root-finding and the positive pieces are integrated (integrand p (1 - e^{-D}) >= 0).
    Sign changes of D beyond the window are not searched for: a positive part missed there is at
    most P's mass beyond the window, a negative part taken for positive at most e^eps times Q's,
    and both masses (by quadrature) enter the error (N(0, 1) against N(0, 0.999) at eps = 3 has
    its crossings at +-54.7 and delta = 6e-656, given before as 0 +- 0).  The integrand
    p (1 - e^{-D}) errs by at most p |dD| where dD is the rounding of D, so the integral by
    max|dD| * P(A) <= max|dD|."""
    parts = _log_parts(pd, qd)

    def D(t):
        lp, lq = parts(t)
        if lp == -INF:
            return -INF
        if lq == -INF:
            return INF
        return lp - lq - eps

    win = _window(pd, qd)
    crossings = _crossings(D, win, width, points)
    pieces = _positive_pieces(parts, D, win, crossings, eps, with_mass, _rule(pd, qd), kink_nodes(pd, qd))
    err = pieces.error + _beyond_the_window(parts, win, width, eps)
    if pieces.value > 0:
        dD = _rounding_of_D(D, win, crossings, eps)
        err += dD * (pieces.p_mass if with_mass else min(pd.mass(), mpmath.mpf(1)))
    return _DensityProfile(pieces.value, err, crossings, pieces.p_mass if with_mass else None)


# ============================================================================================
# eps from delta
# ============================================================================================


@dataclass(frozen=True)
class Epsilon(Estimate):
    """The eps at which the exact profile equals ``delta`` (max over the orderings, ``value``),
    with an ``error``, the eps of each ordering, and why it is infinite when it is."""

    delta: object = None
    by_ordering: dict = field(default_factory=dict)
    reason: str | None = None


@dataclass(frozen=True)
class _OneWay:
    """eps for one ordering (P, Q), its error, and why it is infinite when it is."""

    value: object
    error: object
    reason: str | None = None


@dataclass(frozen=True)
class _LogProfilePoint:
    """g = log delta_{P||Q}(eps) - log(target delta) at one eps, its slope in eps (None when not
    known), and the profile it came from."""

    g: object
    slope: object
    profile: Profile


def _log_profile(P: Law, Q: Law, target, method: str) -> Callable[[object], _LogProfilePoint]:
    """eps -> g = log delta_{P||Q}(eps) - target with its exact slope g' = -(P(A) - delta)/delta
    (A = {p > e^eps q}; envelope theorem) on the quadrature route."""
    closed = method != "quadrature" and _closed_profile(P, Q, mpmath.mpf(0)) is not None

    def F(e) -> _LogProfilePoint:
        if closed:
            pr = hockey_stick(P, Q, e, method=method)
            v = pr.value
            return _LogProfilePoint((mpmath.log(v) if v > 0 else -INF) - target, None, pr)
        pr = hockey_stick(P, Q, e, method=method, with_mass=True)
        v = pr.value
        if v <= 0:
            return _LogProfilePoint(-INF, None, pr)
        return _LogProfilePoint(mpmath.log(v) - target, -(pr.p_mass - v) / v, pr)

    return F


def _eps_one_way(P: Law, Q: Law, delta, method, rel_tol) -> _OneWay:
    """Safeguarded Newton on g(eps) = log delta_{P||Q}(eps) - log delta, with the exact slope
    (see :func:`_log_profile`; :func:`countdp.numerics.roots.newton_decreasing`)."""
    F = _log_profile(P, Q, mpmath.log(delta), method)
    start = F(mpmath.mpf(0))
    if start.g <= 0:
        return _OneWay(mpmath.mpf(0), start.profile.error)
    root = newton_decreasing(F, mpmath.mpf(0), rel_tol, start=start)
    if root.x == INF:
        return _OneWay(INF, mpmath.mpf(0), f"the profile stays above delta = {mpmath.nstr(delta, 6)} "
                       "for every eps (an atom of P where Q has none)")
    # error: the last step (an upper bound once Newton converges quadratically) plus the
    # profile's own error turned into eps through the slope d log(delta)/d eps
    err, dx, px = root.last_step, root.point.slope, root.point.profile
    if dx is not None and dx < 0 and px.value > 0:
        err += px.error / px.value / abs(dx)
    elif root.hi is not None and root.hi > root.lo:
        err += root.hi - root.lo
    return _OneWay(root.x, err)


def eps_of_delta(P: Law, Q: Law, delta, method: str = "auto", both: bool = True,
                 rel_tol=1e-14) -> Epsilon:
    """The smallest eps with ``hockey_stick(P, Q, eps) <= delta``, by root-finding on eps; with
    ``both`` (default) the larger over the orderings (P, Q) and (Q, P), as Definition 2.1 needs.

    ``error`` covers the root-finding and the profile's quadrature error, for the laws *as
    represented*: a law stores its parameters at the working precision, and for an edge at large
    n the gap log((n+c)/(n-1+c)) between two stored means carries a relative error of about
    10^-dps log(n)/gap ~ 10^-dps n log n; choose dps so that this is negligible (30 digits leave
    ~20 at n = 10^6).  ``reason`` explains an infinite eps (an atom of P where Q has none)."""
    check_law("P", P), check_law("Q", Q)
    delta = mpmath.mpf(validate.real("delta", delta, lo=0, hi=1))
    rel_tol = validate.real("rel_tol", rel_tol, lo=0, hi=1)
    validate.choice("method", method, ("auto", "closed", "quadrature"))
    orders = {"P||Q": (P, Q)}
    if both:
        orders["Q||P"] = (Q, P)
    out, reason, best, best_err = {}, None, mpmath.mpf(-1), mpmath.mpf(0)
    for name, (A, B) in orders.items():
        one = _eps_one_way(A, B, delta, method, rel_tol)
        out[name] = one.value
        if one.reason:
            reason = one.reason
        if one.value > best:
            best, best_err = one.value, one.error
    return Epsilon(best, best_err, delta, out, reason)


__all__ = ["Profile", "hockey_stick", "gaussian_hockey_stick", "gaussian_eps_of_delta", "Epsilon", "eps_of_delta"]
