"""Privacy accounting for count-dependent budgets: zCDP -> (eps, delta), exact privacy profiles,
composition (Sections 5.1 and 8 of the paper).

Conversions of a rho-zCDP guarantee (``D_alpha(P||Q) <= alpha rho`` for every alpha > 1):

* Bun-Steinke (2016, Prop. 1.3; quoted in Section 5.1):
  ``eps = rho + 2 sqrt(rho log(1/delta))``                               :func:`zcdp_to_approx_dp`
* Canonne-Kamath-Steinke (2020, the Renyi -> approximate-DP conversion applied to D_alpha = alpha rho):
  ``delta(eps) = inf_{alpha>1} exp((alpha-1)(alpha rho - eps)) / (alpha-1) * (1 - 1/alpha)^alpha``
  with alpha optimised continuously; the log of the bracket is strictly convex in alpha with
  derivative ``(2 alpha - 1) rho - eps + log(1 - 1/alpha)``, so the optimum is that root.
                                                                      :func:`cks_delta`, :func:`cks_eps`

The exact privacy profile of a pair of output laws is the hockey-stick divergence
``delta_{P||Q}(eps) = int (dP - e^eps dQ)_+`` (:func:`hockey_stick`), computed

* in closed form for equal-variance Gaussians (and log-shifted Gaussians with one shift c, by the
  bijection u -> log(u + c) of eq 10): with ``mu = |shift| / s``,
  ``delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu)``   (:func:`gaussian_hockey_stick`);
* otherwise from the laws' atoms (exact sums) and densities (mpmath quadrature in the density's
  integration coordinate, split at the crossing points p = e^eps q found by root-finding, so that
  every integrand is nonnegative and smooth).

``eps_of_delta(P, Q, delta)`` inverts the profile by root-finding in eps and takes the larger of
the two orderings (Definition 2.1 bounds both directions).

Composition (Section 8): zCDP budgets add pointwise, ``v_tot(n) = sum_t v_t(n)``
(:func:`compose_budgets`); :func:`joint_renyi_2d` computes the Renyi divergence of a product of two
laws by a genuinely two-dimensional quadrature of the joint law (an independent route), and
:func:`log_likelihood_ratio` gives the privacy-loss variable for Monte Carlo of joint releases.

Every function raises ValueError naming a bad parameter and its range.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import mpmath
import numpy as np

from ..numerics import validate
from ..laws import Density, Gaussian, GaussianDensity, Law, LogShiftedGaussian, LogShiftedGaussianDensity, \
    PointMass

INF = mpmath.mpf("inf")

# ============================================================================================
# Small numerical tools
# ============================================================================================


def _solve_decreasing(f: Callable, lo, hi, xtol, max_iter: int = 400):
    """A root of a decreasing function on [lo, hi] with f(lo) > 0 > f(hi) (values may be +-inf).

    Illinois-modified regula falsi, with a bisection step whenever an end value is infinite or
    the previous step did not halve the bracket; stops when the bracket is narrower than ``xtol``
    (absolute).  Returns (root, lo, hi, f_lo, f_hi)."""
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    flo, fhi = f(lo), f(hi)
    side, bisect = 0, False
    for _ in range(max_iter):
        width = hi - lo
        if width <= xtol:
            break
        if bisect or mpmath.isinf(flo) or mpmath.isinf(fhi) or flo == fhi:
            x = (lo + hi) / 2
        else:
            x = (lo * fhi - hi * flo) / (fhi - flo)
            if not (lo < x < hi):
                x = (lo + hi) / 2
        fx = f(x)
        if fx == 0:
            return x, x, x, fx, fx
        if fx > 0:
            lo, flo = x, fx
            if side == 1 and not mpmath.isinf(fhi):
                fhi /= 2
            side = 1
        else:
            hi, fhi = x, fx
            if side == -1 and not mpmath.isinf(flo):
                flo /= 2
            side = -1
        bisect = (hi - lo) > width / 2
    x = (lo + hi) / 2
    return x, lo, hi, flo, fhi


def _xtol(x_scale, rel=None):
    rel = mpmath.mpf(10) ** (-(mpmath.mp.dps - 5)) if rel is None else mpmath.mpf(rel)
    return rel * (1 + abs(mpmath.mpf(x_scale)))


# ============================================================================================
# zCDP -> approximate DP
# ============================================================================================


def zcdp_to_approx_dp(rho, delta):
    """Bun-Steinke conversion quoted in Section 5.1: rho-zCDP implies
    ``(rho + 2 sqrt(rho log(1/delta)), delta)``-DP for every 0 < delta < 1."""
    rho = validate.real("rho", rho, lo=0, lo_open=False)
    delta = validate.real("delta", delta, lo=0, hi=1)
    rho, delta = mpmath.mpf(rho), mpmath.mpf(delta)
    return rho + 2 * mpmath.sqrt(rho * mpmath.log(1 / delta))


def cks_alpha(rho, eps):
    """The optimal Renyi order of the CKS conversion: the root in alpha > 1 of
    ``(2 alpha - 1) rho - eps + log(1 - 1/alpha) = 0`` (the derivative of the log-bound)."""
    rho = mpmath.mpf(validate.real("rho", rho, lo=0))
    eps = mpmath.mpf(validate.real("eps", eps, lo=0, lo_open=False))

    def h(a):  # increasing in a: -inf at 1+, +inf at infinity
        return (2 * a - 1) * rho - eps + mpmath.log(1 - 1 / a)

    lo = mpmath.mpf(2)
    while h(lo) >= 0:
        lo = 1 + (lo - 1) / 16
    hi = mpmath.mpf(2)
    while h(hi) <= 0:
        hi *= 4
    root, *_ = _solve_decreasing(lambda a: -h(a), lo, hi, _xtol(hi) * mpmath.mpf(10) ** -3)
    return root


def cks_log_delta(rho, eps):
    """log of the CKS bound ``inf_alpha exp((alpha-1)(alpha rho - eps))/(alpha-1) (1-1/alpha)^alpha``
    (before capping at delta <= 1); ``-inf`` for rho = 0 (identical laws)."""
    rho = mpmath.mpf(validate.real("rho", rho, lo=0, lo_open=False))
    eps = mpmath.mpf(validate.real("eps", eps, lo=0, lo_open=False))
    if rho == 0:
        return -INF
    a = cks_alpha(rho, eps)
    return (a - 1) * (a * rho - eps) - mpmath.log(a - 1) + a * mpmath.log(1 - 1 / a)


def cks_delta(rho, eps):
    """Canonne-Kamath-Steinke: rho-zCDP gives (eps, delta)-DP with this delta (capped at 1)."""
    ld = cks_log_delta(rho, eps)
    return mpmath.mpf(1) if ld >= 0 else mpmath.exp(ld)


def cks_eps(rho, delta):
    """The smallest eps with ``cks_delta(rho, eps) <= delta`` (root-finding; the log-bound is
    decreasing in eps with slope ``-(alpha* - 1)``).  Never above :func:`zcdp_to_approx_dp`."""
    rho = mpmath.mpf(validate.real("rho", rho, lo=0, lo_open=False))
    delta = mpmath.mpf(validate.real("delta", delta, lo=0, hi=1))
    if rho == 0:
        return mpmath.mpf(0)
    target = mpmath.log(delta)
    if cks_log_delta(rho, 0) <= target:
        return mpmath.mpf(0)
    hi = zcdp_to_approx_dp(rho, delta)
    while cks_log_delta(rho, hi) > target:  # not expected: CKS <= BS at every alpha
        hi *= 2
    root, *_ = _solve_decreasing(lambda e: cks_log_delta(rho, e) - target, 0, hi, _xtol(hi))
    return root


# ============================================================================================
# Exact privacy profiles: the hockey-stick divergence
# ============================================================================================


@dataclass
class Profile:
    """``delta_{P||Q}(eps) = int (dP - e^eps dQ)_+`` with its absolute error and method."""

    value: mpmath.mpf
    error: mpmath.mpf
    method: str
    eps: object = None
    crossings: list = field(default_factory=list)
    p_mass: object = None  # P(A) of the set A = {p > e^eps q} (when computed): d delta/d eps = -(P(A) - delta)

    def __float__(self) -> float:
        return float(self.value)


def gaussian_hockey_stick(mu, eps):
    """Closed form for N(0, s^2) vs N(shift, s^2) with ``mu = |shift|/s`` (either ordering):
    ``delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu)``; 0 for mu = 0."""
    mu = mpmath.mpf(validate.real("mu", mu, lo=0, lo_open=False))
    eps = mpmath.mpf(validate.real("eps", eps, lo=0, lo_open=False))
    if mu == 0:
        return mpmath.mpf(0)
    with mpmath.workdps(mpmath.mp.dps + 20):  # guard digits against the cancellation
        val = mpmath.ncdf(mu / 2 - eps / mu) - mpmath.exp(eps) * mpmath.ncdf(-mu / 2 - eps / mu)
    return +max(val, mpmath.mpf(0))


def gaussian_eps_of_delta(mu, delta):
    """The eps at which :func:`gaussian_hockey_stick` equals delta (root-finding on the closed form)."""
    mu = mpmath.mpf(validate.real("mu", mu, lo=0, lo_open=False))
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
    root, *_ = _solve_decreasing(f, 0, hi, _xtol(hi))
    return root


def _closed_profile(P: Law, Q: Law, eps) -> Profile | None:
    pair = None
    if type(P) is Gaussian and type(Q) is Gaussian and P.s == Q.s:
        pair = (P.mu, Q.mu, P.s, "closed form (equal-variance Gaussians)")
    elif type(P) is LogShiftedGaussian and type(Q) is LogShiftedGaussian and P.s == Q.s and P.c == Q.c:
        pair = (P.mu, Q.mu, P.s, "closed form (equal-variance Gaussians in log(u + c), eq 10)")
    if pair is not None:
        mu = abs(pair[0] - pair[1]) / pair[2]
        return Profile(gaussian_hockey_stick(mu, eps), mpmath.mpf(0), pair[3], eps)
    if isinstance(P, PointMass) and isinstance(Q, PointMass):
        val = mpmath.mpf(0) if P.x == Q.x else mpmath.mpf(1)
        return Profile(val, mpmath.mpf(0), "point masses", eps)
    return None


def hockey_stick(P: Law, Q: Law, eps, method: str = "auto", with_mass: bool = False) -> Profile:
    """The exact privacy profile ``delta_{P||Q}(eps) = int (dP - e^eps dQ)_+`` for eps >= 0.

    ``method``: ``"auto"`` (closed form when known, else atoms + quadrature), ``"closed"``,
    ``"quadrature"`` (never the closed form: an independent route).  ``with_mass`` also returns
    ``P(A)`` for the optimal set A (quadrature route only; it gives the slope in eps)."""
    eps = mpmath.mpf(validate.real("eps", eps, lo=0, lo_open=False))
    if method not in ("auto", "closed", "quadrature"):
        raise ValueError(f"method must be 'auto', 'closed' or 'quadrature', got {method!r}")
    if not isinstance(P, Law) or not isinstance(Q, Law):
        raise ValueError("P and Q must be countdp.laws.Law objects")
    if method in ("auto", "closed"):
        closed = _closed_profile(P, Q, eps)
        if closed is not None:
            return closed
        if method == "closed":
            raise ValueError(f"no closed form known for {P.describe()} vs {Q.describe()}")
    return _profile_by_quadrature(P, Q, eps, with_mass)


def _atom_table(L: Law, lo: int | None = None, hi: int | None = None) -> dict:
    if L.integer and not hasattr(L, "table"):
        return {mpmath.mpf(k): L.mp_pmf(k) for k in range(lo, hi + 1)}
    return L.atoms()


def _profile_by_quadrature(P: Law, Q: Law, eps, with_mass: bool = False) -> Profile:
    gamma = mpmath.exp(eps)
    total, err, mass = mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(0)
    methods = []
    # -- atoms (integer laws are summed over a window with a proven tail bound) --
    if P.integer or Q.integer:
        tail = mpmath.mpf(10) ** (-mpmath.mp.dps)
        wins = [L.window(tail) for L in (P, Q) if L.integer]
        lo = min(w[0] for w in wins)
        hi = max(w[1] for w in wins)
        p_atoms = _atom_table(P, lo, hi) if P.integer else P.atoms()
        q_atoms = _atom_table(Q, lo, hi) if Q.integer else Q.atoms()
        if P.integer and not hasattr(P, "table"):
            err += tail  # P's mass outside the window bounds what was left out
        methods.append(f"exact pmf sum over {lo}..{hi}")
    else:
        p_atoms, q_atoms = P.atoms(), Q.atoms()
        if p_atoms:
            methods.append("exact sum over atoms")
    for x, p in p_atoms.items():
        q = q_atoms.get(x, mpmath.mpf(0))
        d = p - gamma * q
        if d > 0:
            total += d
            mass += p
    # -- densities --
    pd = None if P.integer else P.density
    qd = None if Q.integer else Q.density
    crossings = []
    if pd is not None and pd.mass() > 0:
        if qd is None or qd.mass() == 0:
            total += pd.mass()
            mass += pd.mass()
            methods.append("P's density part (Q has none) counted whole")
        else:
            val, e, crossings, pm = _density_profile(pd, qd, eps, with_mass)
            total += val
            err += e
            mass = mass + pm if pm is not None else None
            methods.append("mpmath quadrature of (p - e^eps q)_+ split at the crossings")
    return Profile(total, err, " plus ".join(methods) or "empty", eps, crossings,
                   mass if with_mass else None)


def _log_parts(pd: Density, qd: Density):
    """t -> (log p, log q) per unit of P's integration coordinate t."""
    shared = pd.same_coordinate(qd)

    def parts(t):
        lp = pd.mp_log_integrand_t(t)
        if shared:
            lq = qd.mp_log_integrand_t(t)
        else:
            lq = qd.mp_logpdf(pd.to_x(t)) + pd.mp_log_dx_dt(t)
        return lp, lq

    return parts


def _density_profile(pd: Density, qd: Density, eps, with_mass: bool = False, width: int = 40,
                     points: int = 201):
    """(value, error, crossings, P-mass of the positive set or None) of int (p - e^eps q)_+ over
    the density parts.

    The sign of D(t) = log p - log q - eps is scanned on ``points`` nodes over the window of
    ``width`` scales around both laws' centres (clipped to the support); every sign change is
    refined by root-finding and the positive pieces are integrated (integrand p (1 - e^{-D}) >= 0).
    Sign changes of D beyond the window are not searched for: there P's and Q's densities are
    below e^{-width^2/2} of their peaks (the error this could cause is of that order)."""
    parts = _log_parts(pd, qd)

    def D(t):
        lp, lq = parts(t)
        if lp == -INF:
            return -INF
        if lq == -INF:
            return INF
        return lp - lq - eps

    t_lo, t_hi = pd.t_range()
    mp_lo = getattr(pd, "mp_t_lo", lambda: None)()
    T_lo = mp_lo if mp_lo is not None else (mpmath.mpf(t_lo) if np.isfinite(t_lo) else -INF)
    T_hi = mpmath.mpf(t_hi) if np.isfinite(t_hi) else INF
    cp, sp = (mpmath.mpf(v) for v in pd.t_center_scale())
    try:
        cq, sq = (mpmath.mpf(v) for v in qd.t_center_scale()) if pd.same_coordinate(qd) else (cp, sp)
    except NotImplementedError:
        cq, sq = cp, sp
    scale = max(sp, sq)
    a = max(T_lo, min(cp, cq) - width * scale)
    b = min(T_hi, max(cp, cq) + width * scale)
    grid = [a + (b - a) * k / (points - 1) for k in range(points)]
    if T_lo > -INF:
        grid[0] = T_lo + (grid[1] - T_lo) * mpmath.mpf(10) ** -12
    vals = [D(t) for t in grid]

    def sgn(v):
        return 1 if v > 0 else -1

    crossings = []
    for i in range(points - 1):
        if sgn(vals[i]) != sgn(vals[i + 1]):
            s0 = sgn(vals[i])
            root, *_ = _solve_decreasing(lambda t: s0 * D(t), grid[i], grid[i + 1],
                                         _xtol(grid[i + 1]) * (1 + scale))
            crossings.append(root)
    ends = [T_lo] + crossings + [T_hi]
    total, err, pmass = mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(0)
    anchors = {cp + k * sp for k in (-16, -8, -4, -2, -1, 0, 1, 2, 4, 8, 16)} | \
              {cq + k * sq for k in (-16, -8, -4, -2, -1, 0, 1, 2, 4, 8, 16)}
    for lo, hi in zip(ends[:-1], ends[1:]):
        # the sign on this piece, at a finite interior point
        if lo > -INF and hi < INF:
            rep = (lo + hi) / 2
        elif lo > -INF:
            rep = lo + scale
        elif hi < INF:
            rep = hi - scale
        else:
            rep = cp
        if not D(rep) > 0:
            continue
        inner = sorted(x for x in anchors if lo < x < hi)
        if lo > -INF and hi < INF and hi - lo > 0:
            inner = sorted(set(inner) | {lo + (hi - lo) * k / 8 for k in range(1, 8)})
        nodes = [lo] + inner + [hi]

        def f(t):
            lp, lq = parts(t)
            if lp == -INF:
                return mpmath.mpf(0)
            if lq == -INF:
                return mpmath.exp(lp)
            return mpmath.exp(lp) * -mpmath.expm1(eps + lq - lp)

        val, e = mpmath.quad(f, nodes, error=True, maxdegree=10)
        total += val
        # mpmath's estimate covers the discretisation; the integrand itself carries the rounding
        # of log p - log q (terms of size ~(t - mu)^2/s^2), seen at ~10^-(dps-4) relative: add
        # a working-precision term 10^-(dps-6) |val|
        err += abs(e) + mpmath.mpf(10) ** (-(mpmath.mp.dps - 6)) * abs(val)
        if with_mass:
            def g(t):
                lp = parts(t)[0]
                return mpmath.mpf(0) if lp == -INF else mpmath.exp(lp)
            pmass += mpmath.quad(g, nodes, maxdegree=10)
    # rounding of D = log p - log q - eps itself (log p, log q are differences of large, nearly
    # equal terms far out, e.g. ((t - mu)/s)^2 with t ~ mu ~ log n): measured by re-evaluating D
    # with 15 guard digits at the centres and crossings; the integrand p (1 - e^{-D}) errs by at
    # most p |dD|, so the integral by max|dD| * P(A) <= max|dD| (times 4 for safety).
    if total > 0:
        dD = mpmath.mpf(0)
        for t in [cp, cq] + crossings:
            if T_lo < t < T_hi:
                d0 = D(t)
                if mpmath.isinf(d0):
                    continue
                with mpmath.workdps(mpmath.mp.dps + 15):
                    d1 = D(t)
                dD = max(dD, abs(d1 - d0))
        dD = 4 * (dD + mpmath.eps * (1 + abs(eps)))
        err += dD * (pmass if with_mass else min(pd.mass(), mpmath.mpf(1)))
    return total, err, crossings, (pmass if with_mass else None)


# ============================================================================================
# eps from delta
# ============================================================================================


@dataclass
class Epsilon:
    """The eps at which the exact profile equals delta (max over the orderings), with an error."""

    value: mpmath.mpf
    error: mpmath.mpf
    delta: mpmath.mpf
    by_ordering: dict = field(default_factory=dict)
    reason: str | None = None

    def __float__(self) -> float:
        return float(self.value)


def _eps_one_way(P: Law, Q: Law, delta, method, rel_tol):
    """Safeguarded Newton on g(eps) = log delta_{P||Q}(eps) - log delta, with the exact slope
    g'(eps) = -(P(A) - delta(eps)) / delta(eps) (A = {p > e^eps q}; envelope theorem); a bisection
    step whenever Newton leaves the bracket.  Returns (eps, error, reason-if-infinite)."""
    target = mpmath.log(delta)
    closed = method != "quadrature" and _closed_profile(P, Q, mpmath.mpf(0)) is not None

    def F(e):
        if closed:
            pr = hockey_stick(P, Q, e, method=method)
            v = pr.value
            g = (mpmath.log(v) if v > 0 else -INF) - target
            return g, None, pr
        pr = hockey_stick(P, Q, e, method=method, with_mass=True)
        v = pr.value
        if v <= 0:
            return -INF, None, pr
        return mpmath.log(v) - target, -(pr.p_mass - v) / v, pr

    g0, d0, p0 = F(mpmath.mpf(0))
    if g0 <= 0:
        return mpmath.mpf(0), p0.error, None
    lo, hi = mpmath.mpf(0), None
    x, gx, dx, px = lo, g0, d0, p0
    last_step = INF
    slope_info = None
    for _ in range(200):
        cand = None
        if dx is not None and dx < 0 and not mpmath.isinf(gx):
            cand = x - gx / dx
        if hi is None:
            if cand is None or not cand > lo:
                cand = 2 * lo + 1
            if cand > 1e6 * (1 + lo):
                cand = 2 * lo + 1
        elif cand is None or not (lo < cand < hi):
            cand = (lo + hi) / 2
        if hi is None and cand > mpmath.mpf(2) ** 70:
            return INF, mpmath.mpf(0), (f"the profile stays above delta = {mpmath.nstr(delta, 6)} for "
                                        "every eps (an atom of P where Q has none)")
        gc, dc, pc = F(cand)
        last_step = abs(cand - x)
        x, gx, dx, px = cand, gc, dc, pc
        if gc > 0:
            lo = cand
        else:
            hi = cand
        if gc == 0:
            break
        tol = mpmath.mpf(rel_tol) * (1 + abs(x))
        if last_step <= tol or (hi is not None and hi - lo <= tol):
            break
        if dc is not None and dc < 0 and not mpmath.isinf(gc) and abs(gc / dc) <= tol / 4:
            slope_info = (gc, dc)
            x = x - gc / dc
            last_step = abs(gc / dc)
            break
    # error: the last step (an upper bound once Newton converges quadratically) plus the
    # profile's own error turned into eps through the slope d log(delta)/d eps
    err = last_step
    if dx is not None and dx < 0 and px.value > 0:
        err += px.error / px.value / abs(dx)
    elif hi is not None and hi > lo:
        err += hi - lo
    return x, err, None


def eps_of_delta(P: Law, Q: Law, delta, method: str = "auto", both: bool = True,
                 rel_tol=1e-14) -> Epsilon:
    """The smallest eps with ``hockey_stick(P, Q, eps) <= delta``, by root-finding on eps; with
    ``both`` (default) the larger over the orderings (P, Q) and (Q, P), as Definition 2.1 needs.

    ``error`` covers the root-finding and the profile's quadrature error, for the laws *as
    represented*: a law stores its parameters at the working precision, and for an edge at large
    n the gap log((n+c)/(n-1+c)) between two stored means carries a relative error of about
    10^-dps log(n)/gap ~ 10^-dps n log n; choose dps so that this is negligible (30 digits leave
    ~20 at n = 10^6).  ``reason`` explains an infinite eps (an atom of P where Q has none)."""
    delta = mpmath.mpf(validate.real("delta", delta, lo=0, hi=1))
    rel_tol = validate.real("rel_tol", rel_tol, lo=0, hi=1)
    if method not in ("auto", "closed", "quadrature"):
        raise ValueError(f"method must be 'auto', 'closed' or 'quadrature', got {method!r}")
    orders = {"P||Q": (P, Q)}
    if both:
        orders["Q||P"] = (Q, P)
    out, reason, best, best_err = {}, None, mpmath.mpf(-1), mpmath.mpf(0)
    for name, (A, B) in orders.items():
        v, e, why = _eps_one_way(A, B, delta, method, rel_tol)
        out[name] = v
        if why:
            reason = why
        if v > best:
            best, best_err = v, e
    return Epsilon(best, best_err, delta, out, reason)


# ============================================================================================
# Composition (Section 8)
# ============================================================================================


def compose_budgets(*budgets: Callable) -> Callable:
    """Section 8: releases with budgets v_1, ..., v_T compose to ``v_tot(n) = sum_t v_t(n)``.
    Each budget is a callable n -> v_t(n) (e.g. ``mech.mp_v``)."""
    if not budgets:
        raise ValueError("budgets must hold at least one budget function")
    for i, b in enumerate(budgets):
        if not callable(b):
            raise ValueError(f"budgets[{i}] must be a callable n -> v(n), got {b!r}")

    def v_tot(n):
        n = validate.count("n", n)
        return mpmath.fsum(b(n) for b in budgets)

    return v_tot


def composed_budget(mechanisms: Sequence, n):
    """``sum_t v_t(n)`` for mechanisms with an ``mp_v`` method (the shifted log-Gaussian)."""
    if len(mechanisms) == 0:
        raise ValueError("mechanisms must hold at least one mechanism")
    return compose_budgets(*(m.mp_v for m in mechanisms))(n)


def _float_log_t(d: Density) -> Callable:
    """float64 log of the density per unit of its integration coordinate t (scalar in, scalar out)."""
    import math

    if isinstance(d, (LogShiftedGaussianDensity, GaussianDensity)):
        mu, s = float(d.mu), float(d.s)
        if isinstance(d, LogShiftedGaussianDensity):
            t0 = -math.inf if d.lo_mp == -d.c else float(mpmath.log(d.lo_mp + d.c))
            t1 = math.inf
        else:
            t0, t1 = float(d.lo), float(d.hi)
        k = math.log(s) + 0.5 * math.log(2 * math.pi)

        def f(t):
            if not (t0 < t < t1):
                return -math.inf
            z = (t - mu) / s
            return -0.5 * z * z - k

        return f
    return lambda t: float(d.mp_log_integrand_t(mpmath.mpf(t)))


def _split(L: Law):
    if L.integer:
        raise ValueError("joint_renyi_2d handles atoms + densities, not integer laws")
    return L.atoms(), (L.density if L.density is not None and L.density.mass() > 0 else None)


def joint_renyi_2d(Ps: Sequence[Law], Qs: Sequence[Law], alpha, width: float = 12.0,
                   epsrel: float = 1e-10) -> tuple[float, float]:
    """``D_alpha(P_1 x P_2 || Q_1 x Q_2)`` by a two-dimensional quadrature of the joint law.

    The joint law of two independent releases with atoms and densities has four parts
    (atom x atom, atom x density, density x atom, density x density).  The density x density part
    is integrated by scipy ``dblquad`` of ``p(t1,t2)^alpha q(t1,t2)^(1-alpha)`` with the joint
    log-densities (float64, box of ``width`` scales around the peak; the Gaussian tails outside are
    below e^{-width^2/2}); the line parts by ``quad``.  No additivity is used: the integrand is the
    joint density.  Component densities of P_i and Q_i must share their integration coordinate.
    Returns (value, error estimate)."""
    import math

    from scipy import integrate

    alpha = float(validate.order(alpha))
    if len(Ps) != 2 or len(Qs) != 2:
        raise ValueError("Ps and Qs must each hold exactly two laws")
    (pa1, pd1), (pa2, pd2) = _split(Ps[0]), _split(Ps[1])
    (qa1, qd1), (qa2, qd2) = _split(Qs[0]), _split(Qs[1])
    for pd, qd, i in ((pd1, qd1, 1), (pd2, qd2, 2)):
        if pd is not None and (qd is None or not pd.same_coordinate(qd)):
            raise ValueError(f"component {i}: P's density needs a Q density in the same coordinate")

    def box(pd, qd):
        cp, sp = (float(v) for v in pd.t_center_scale())
        cq, _ = (float(v) for v in qd.t_center_scale())
        peak = alpha * cp + (1 - alpha) * cq
        t_lo, t_hi = pd.t_range()
        return max(t_lo, min(cp, cq, peak) - width * sp), min(t_hi, max(cp, cq, peak) + width * sp), peak

    total, err = 0.0, 0.0
    # atom x atom
    for x1, p1 in pa1.items():
        q1 = qa1.get(x1, mpmath.mpf(0))
        for x2, p2 in pa2.items():
            q2 = qa2.get(x2, mpmath.mpf(0))
            if q1 * q2 == 0:
                return float("inf"), 0.0
            total += float((p1 * p2) ** alpha * (q1 * q2) ** (1 - alpha))
    # atom x density and density x atom (a line of the joint law)
    for atoms_p, atoms_q, pd, qd in ((pa1, qa1, pd2, qd2), (pa2, qa2, pd1, qd1)):
        if pd is None:
            continue
        lp, lq = _float_log_t(pd), _float_log_t(qd)
        a, b, peak = box(pd, qd)
        for x, p in atoms_p.items():
            q = atoms_q.get(x, mpmath.mpf(0))
            if q == 0:
                return float("inf"), 0.0
            la, lb = float(mpmath.log(p)), float(mpmath.log(q))
            g = (lambda t: math.exp(alpha * (la + lp(t)) + (1 - alpha) * (lb + lq(t))))
            pts = [t for t in (peak,) if a < t < b]
            v, e = integrate.quad(g, a, b, points=pts or None, epsabs=0, epsrel=epsrel, limit=200)
            total += v
            err += e
    # density x density: the joint density on the plane
    if pd1 is not None and pd2 is not None:
        lp1, lq1, lp2, lq2 = _float_log_t(pd1), _float_log_t(qd1), _float_log_t(pd2), _float_log_t(qd2)
        a1, b1, _ = box(pd1, qd1)
        a2, b2, _ = box(pd2, qd2)

        def joint(t2, t1):  # dblquad integrates func(y, x)
            log_p = lp1(t1) + lp2(t2)
            log_q = lq1(t1) + lq2(t2)
            if log_p == -math.inf:
                return 0.0
            return math.exp(alpha * log_p + (1 - alpha) * log_q)

        v, e = integrate.dblquad(joint, a1, b1, a2, b2, epsabs=0, epsrel=epsrel)
        total += v
        err += e
    if total <= 0:
        return float("inf"), 0.0
    value = float(np.log(total) / (alpha - 1))
    return value, float(err / total / (alpha - 1) + 1e-13 * (1 + abs(value)))


def log_likelihood_ratio(P: Law, Q: Law, y) -> np.ndarray:
    """The privacy-loss variable ``log(dP/dQ)(y)`` (float64, vectorised) for laws made of atoms and a
    density (points equal to an atom use the atom masses, the rest the densities).  ``+inf`` where
    Q has no mass, ``-inf`` where P has none."""
    if P.integer or Q.integer:
        raise ValueError("log_likelihood_ratio handles atoms + densities, not integer laws")
    y = np.asarray(y, dtype=float)
    out = np.empty_like(y)
    on_atom = np.zeros(y.shape, dtype=bool)
    qa = {float(k): v for k, v in Q.atoms().items()}
    for x, p in P.atoms().items():
        xf = float(x)
        m = y == xf
        q = qa.get(xf, mpmath.mpf(0))
        out[m] = float(mpmath.log(p) - mpmath.log(q)) if q > 0 else np.inf
        on_atom |= m
    for xf, q in qa.items():
        m = (y == xf) & ~on_atom
        out[m] = -np.inf
        on_atom |= m
    rest = ~on_atom
    if np.any(rest):
        if P.density is None:
            out[rest] = -np.inf
        elif Q.density is None:
            out[rest] = np.inf
        else:
            out[rest] = P.density.logpdf(y[rest]) - Q.density.logpdf(y[rest])
    return out


__all__ = [
    "zcdp_to_approx_dp", "cks_alpha", "cks_log_delta", "cks_delta", "cks_eps",
    "Profile", "hockey_stick", "gaussian_hockey_stick", "gaussian_eps_of_delta",
    "Epsilon", "eps_of_delta",
    "compose_budgets", "composed_budget", "joint_renyi_2d", "log_likelihood_ratio",
]
