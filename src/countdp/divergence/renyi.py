"""Renyi divergence between output laws, by closed form or by quadrature, with its error.

    D_alpha(P || Q) = 1/(alpha - 1) log( sum_atoms p^alpha q^(1-alpha) + int p^alpha q^(1-alpha) )

for alpha > 1, and the KL divergence ``int p log(p/q)`` as the limit alpha -> 1.

* Closed forms the engine knows: equal-variance Gaussians (eq 11), unequal-variance Gaussians
  (finite iff ``alpha s_Q^2 + (1-alpha) s_P^2 > 0``, eq 34), log-shifted Gaussians with a common
  shift c (eq 12, by the bijection u -> log(u + c) of eq 10).
* Quadrature: mpmath tanh-sinh at the current precision over a partition placed around the
  peak of the log-integrand (found numerically) in the laws' integration coordinate; the error
  reported is mpmath's estimate propagated to D (plus the proven window tail for integer laws).
* Infinite divergences are returned as ``inf`` with a reason: a support mismatch (an atom or a
  density part of P where Q has none) or an integrand that does not decay in a tail.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import mpmath
import numpy as np
from scipy import optimize

from ..numerics import validate
from ..numerics.contexts import to_fmpq
from ..numerics.estimate import at_two_precisions
from ..numerics.quadrature import smooth_quad
from ..laws import Density, Gaussian, Law, LogShiftedGaussian, PointMass
from .. import formulas
from ..laws.base import check_law

from .standardise import standardised
from .value import INF, Divergence, infinite as _infinite  # noqa: F401 (the result type)
_QUAD_METHOD = "tanh-sinh"
MAX_TERMS = 50_000  # integer laws: the most pmf terms a divergence sum may enumerate
PROBE_AFTER = 2_000  # ... and the count after which its tails are first probed for divergence


class SumNotConverged(ValueError):
    """A pmf sum for D_alpha needs more than MAX_TERMS integers and is not shown divergent: no
    value is known at that order (the sup-over-alpha engine leaves such an order out)."""


# ============================================================================================
# Public entry points
# ============================================================================================


def renyi(P: Law, Q: Law, alpha, method: str = "auto") -> Divergence:
    """D_alpha(P || Q) for alpha > 1 (``alpha = inf`` is not handled here).

    ``method``: ``"auto"`` (closed form when known, else quadrature), ``"closed"`` (closed form
    or ValueError), ``"quadrature"`` (never the closed form: an independent route), ``"ball"``
    (rigorous: Arb's acb.integral of the densities plus proven tails and the atoms, error = a
    proven bound) and ``"ball-closed"`` (rigorous: the closed form in Phi, in Arb balls); the
    two ball methods cover Gaussian-noise pairs -- Gaussians, log-shifted Gaussians and their
    releases clipped at 0 -- and raise ValueError otherwise (:mod:`countdp.divergence.ball`)."""
    check_law("P", P), check_law("Q", Q)
    alpha = mpmath.mpf(validate.order(alpha))
    validate.choice("method", method, ("auto", "closed", "quadrature", "ball", "ball-closed"))
    if method in ("ball", "ball-closed"):
        from .ball import ball_renyi

        return ball_renyi(P, Q, alpha, closed=method == "ball-closed")
    if method in ("auto", "closed"):
        closed = _closed_form(P, Q, alpha)
        if closed is not None:
            return closed
        if method == "closed":
            raise ValueError(f"no closed form known for {P.describe()} vs {Q.describe()}")
    return _by_summation_and_quadrature(P, Q, alpha)


def kl(P: Law, Q: Law, method: str = "auto") -> Divergence:
    """KL(P || Q) = lim_{alpha -> 1} D_alpha(P || Q)."""
    check_law("P", P), check_law("Q", Q)
    validate.choice("method", method, ("auto", "closed", "quadrature"))
    if method in ("auto", "closed"):
        closed = _closed_form(P, Q, mpmath.mpf(1))
        if closed is not None:
            return closed
        if method == "closed":
            raise ValueError(f"no closed form known for {P.describe()} vs {Q.describe()}")
    return _by_summation_and_quadrature(P, Q, mpmath.mpf(1))


def gaussian_renyi(alpha, mu_p, s_p, mu_q, s_q) -> Divergence:
    """Closed form for Gaussians P = N(mu_p, s_p^2), Q = N(mu_q, s_q^2) (Lemma 7.1).

    Finite iff the margin ``alpha s_q^2 + (1 - alpha) s_p^2`` of eq (34) is positive (decided in
    exact rationals: the parameters are binary numbers), then
    :func:`countdp.formulas.gaussian_renyi_divergence`; equal variances reduce to eq (11).
    ``alpha = 1`` gives the KL divergence.  The error is the formula's rounding
    (:func:`_with_guard_digits`): its terms cancel where the variances are close or the margin small."""
    a = mpmath.mpf(validate.real("alpha", alpha, lo=1, lo_open=False))
    mu_p, mu_q = (mpmath.mpf(validate.real(k, v)) for k, v in (("mu_p", mu_p), ("mu_q", mu_q)))
    s_p, s_q = (mpmath.mpf(validate.real(k, v, lo=0)) for k, v in (("s_p", s_p), ("s_q", s_q)))
    if a == 1:
        return Divergence(*_with_guard_digits(formulas.gaussian_kl, mu_p, s_p, mu_q, s_q),
                          "closed form (Gaussian KL)", a)
    if s_p == s_q:
        return Divergence(*_with_guard_digits(formulas.renyi_equal_variance, a, mu_p, mu_q, s_p),
                          "closed form eq (11)", a)
    if formulas.gaussian_renyi_margin.exact(to_fmpq(a), to_fmpq(s_p), to_fmpq(s_q)) <= 0:
        s_a2 = formulas.gaussian_renyi_margin(a, s_p, s_q)
        return _infinite(f"alpha s_Q^2 + (1-alpha) s_P^2 = {mpmath.nstr(s_a2, 6)} <= 0: "
                         "p^alpha q^(1-alpha) grows in the tails (eq 34)", a, "closed form eq (34)")
    return Divergence(*_with_guard_digits(formulas.gaussian_renyi_divergence, a, mu_p, s_p, mu_q, s_q),
                      "closed form (unequal-variance Gaussians)", a)


def _with_guard_digits(formula, *args) -> tuple:
    """(value, error) of a closed form at the working precision, by :func:`at_two_precisions`
    with 67 guard bits and 67 more (about 20 and 40 digits; the route's own error is 0): the
    difference is what 20 guard digits leave of any cancellation among the terms, and 20 more
    leave 10^-20 of that."""
    est = at_two_precisions(lambda: (formula(*args), 0), guard_bits=67, apart_bits=67)
    return est.value, est.error


# ============================================================================================
# Closed forms
# ============================================================================================


def _closed_form(P: Law, Q: Law, alpha) -> Divergence | None:
    if type(P) is Gaussian and type(Q) is Gaussian:
        return gaussian_renyi(alpha, P.mu, P.s, Q.mu, Q.s)
    if type(P) is LogShiftedGaussian and type(Q) is LogShiftedGaussian and P.c == Q.c:
        d = gaussian_renyi(alpha, P.mu, P.s, Q.mu, Q.s)
        method = d.method.replace("eq (11)", "eq (12)") + " via the bijection u -> log(u+c) (eq 10)"
        error = d.error + location_conditioning(P.mu, Q.mu) * abs(d.value) if d.finite else d.error
        return replace(d, error=error, method=method)
    if isinstance(P, PointMass) and isinstance(Q, PointMass):
        if P.x == Q.x:
            return Divergence(mpmath.mpf(0), mpmath.mpf(0), "identical point masses", alpha)
        return _infinite(f"support mismatch: P = {P.describe()} puts mass where Q = {Q.describe()} has none",
                         alpha)
    return None


# ============================================================================================
# Atoms + density by summation and quadrature
# ============================================================================================


def _by_summation_and_quadrature(P: Law, Q: Law, alpha) -> Divergence:
    if P.integer or Q.integer:
        return _integer_laws(P, Q, alpha)
    std = standardised(P, Q)  # a scale far from 1: the same divergence at scale 1
    if std is not None:
        P, Q = std[:2]
    is_kl = alpha == 1
    total = mpmath.mpf(0)
    err = mpmath.mpf(0)
    q_atoms = Q.atoms()
    for x, p in P.atoms().items():
        q = q_atoms.get(x, mpmath.mpf(0))
        if q == 0:
            return _infinite(f"support mismatch: P has an atom at {mpmath.nstr(x, 8)} of mass "
                             f"{mpmath.nstr(p, 6)} where Q has no mass", alpha)
        term = p * mpmath.log(p / q) if is_kl else p ** alpha * q ** (1 - alpha)
        total += term
        # its rounding: log(p/q) is off by ~2 eps absolute (a released pair's KL, 1e-7 after the
        # atom's 2e-5 and the density's -2e-5 cancel, was 1.4e-41 off under 5e-43 at 40 digits)
        err += 4 * mpmath.eps * (abs(term) + p) if is_kl else 4 * (alpha + 1) * mpmath.eps * term
    method = "exact sum over atoms"
    pd, qd = P.density, Q.density
    if pd is not None and pd.mass() > 0:
        if qd is None:
            return _infinite("support mismatch: P has a continuous part, Q has none "
                             "(P is not absolutely continuous with respect to Q)", alpha)
        if pd.lo < qd.lo or pd.hi > qd.hi:
            return _infinite(f"support mismatch: P's density lives on ({pd.lo}, {pd.hi}), "
                             f"Q's on ({qd.lo}, {qd.hi})", alpha)
        val, e, why = density_renyi_integral(pd, qd, alpha)
        if why is not None:
            return _infinite(why, alpha, "quadrature tail analysis")
        total += val
        err += e
        method = "mpmath tanh-sinh quadrature of the densities" + (" plus atoms" if P.atoms() else "")
    cond = mpmath.mpf(0)
    if pd is not None and qd is not None and pd.same_coordinate(qd):
        try:
            cond = location_conditioning(pd.t_center_scale()[0], qd.t_center_scale()[0])
        except NotImplementedError:
            cond = mpmath.mpf(0)
    if is_kl:
        return Divergence(total, err + cond * abs(total), method, alpha)
    if total <= 0:
        return _infinite("P and Q are mutually singular (the Renyi integral vanishes)", alpha)
    value = mpmath.log(total) / (alpha - 1)
    return Divergence(value, err / total / (alpha - 1) + cond * abs(value), method, alpha)


def location_conditioning(mu_p, mu_q):
    """Relative error that rounding of two locations carries into a divergence of their shift.

    The laws store their locations (e.g. log(n+c) - sigma^2) rounded to the working precision;
    a divergence driven by the shift mu_p - mu_q (quadratic in it for small shifts) inherits a
    relative error of about 2 * 2 eps max(|mu_p|, |mu_q|) / |mu_p - mu_q|, which at n = 10^6
    is ~10^7 eps.  Zero for equal locations."""
    mu_p, mu_q = mpmath.mpf(mu_p), mpmath.mpf(mu_q)
    if mu_p == mu_q:
        return mpmath.mpf(0)
    return 4 * mpmath.eps * max(abs(mu_p), abs(mu_q), 1) / abs(mu_p - mu_q)


def log_density_pair(pd: Density, qd: Density):
    """t -> (log p, log q) per unit of P's integration coordinate t (Q's density read in P's
    coordinate when they differ); (-inf, -inf) where p vanishes."""
    shared = pd.same_coordinate(qd)

    def parts(t):
        lp = pd.mp_log_integrand_t(t)
        if lp == -INF:
            return lp, lp
        lq = qd.mp_log_integrand_t(t) if shared else qd.mp_logpdf(pd.to_x(t)) + pd.mp_log_dx_dt(t)
        return lp, lq

    return parts


def log_integrand(pd: Density, qd: Density, alpha):
    """g(t) = alpha lp + (1 - alpha) lq in P's coordinate t (lp alone for alpha = 1, the KL's
    weight): +inf where Q's density vanishes and P's does not, -inf where P's does."""
    is_kl = alpha == 1
    parts = log_density_pair(pd, qd)

    def g(t):
        lp, lq = parts(t)
        if lp == -INF:
            return -INF
        if lq == -INF:
            return INF  # P has mass where Q has none
        return lp if is_kl else alpha * lp + (1 - alpha) * lq

    return g


def density_renyi_integral(pd: Density, qd: Density, alpha):
    """(integral, error, reason-if-infinite) of p^alpha q^(1-alpha) (or p log p/q when alpha = 1)."""
    is_kl = alpha == 1
    parts = log_density_pair(pd, qd)
    g = log_integrand(pd, qd, alpha)
    peak = locate_peak(g, pd, qd, alpha)
    if peak is None:
        return INF, mpmath.mpf(0), "support mismatch: Q's density vanishes where P's does not"
    why = _nondecaying_tail(g, pd, peak)
    if why is not None:
        return INF, mpmath.mpf(0), why
    nodes = _quadrature_nodes(pd, qd, peak, g)
    if not -1e299 < peak.log_height:  # no point of the search had g finite: nothing to place on
        raise ValueError(f"the log-integrand of D_alpha is -inf wherever the peak search looked (about "
                         f"t = {peak.t:.6g} in P's coordinate): the integral cannot be placed")
    g_ref = mpmath.mpf(peak.log_height) if np.isfinite(peak.log_height) else mpmath.mpf(0)
    unreached = mpmath.mpf(0)
    if not is_kl:
        why, unreached = _end_shells(g, pd, peak, g_ref)
        if why is not None:
            return INF, mpmath.mpf(0), why

    if is_kl:
        def f(t):
            lp, lq = parts(t)
            if lp == -INF:
                return mpmath.mpf(0)
            # lp - lq = log p(x) - log q(x): the Jacobian terms cancel in the ratio
            return mpmath.exp(lp - g_ref) * (lp - lq)
    else:
        def f(t):
            v = g(t)
            return mpmath.mpf(0) if v == -INF else mpmath.exp(v - g_ref)

    kinked = any(getattr(d, "breakpoints", ()) for d in (pd, qd))

    def route():
        v, e, _ = smooth_quad(f, nodes, rel_enough=1000 * mpmath.eps, rule=_QUAD_METHOD if kinked else "gauss-legendre")
        # mpmath's estimate covers discretisation; add the rounding of ~10^3 summed nodes and
        # that of the log-integrand itself (eps |g| near the peak: 5e11 ulps from 10^6 sds out)
        return v, abs(e) + (1000 + 4 * abs(g_ref)) * mpmath.eps * abs(v)
    # at two precisions: mpmath's estimate can be short (generalised Gaussians, p = 1.69, 0.11
    # apart: D at alpha = 1.0016 was 1.5e-25 off at 30, 31 and 32 digits under 1e-26 .. 1e-27);
    # then the mass next to a finite end that the nodes do not reach
    est = at_two_precisions(route)
    val, err = est.value, est.error + unreached
    scale_f = mpmath.exp(g_ref)
    return val * scale_f, err * scale_f, None


@dataclass(frozen=True)
class _Peak:
    """Where the log-integrand peaks (in P's integration coordinate), its width from the
    curvature there and its value there (float: placement only, the integral is in mpmath)."""

    t: float
    width: float
    log_height: float


def locate_peak(g, pd: Density, qd: Density, alpha) -> _Peak | None:
    """The peak of the log-integrand ``g``: a 97-point grid around the laws' centres and the
    tilted centre, refined by a bounded scalar minimiser; None when Q's density vanishes where
    P's does not (g = +inf somewhere on the grid)."""
    t_lo, t_hi = pd.t_range()
    cp, sp = pd.t_center_scale()
    try:
        cq, sq = qd.t_center_scale() if pd.same_coordinate(qd) else (cp, sp)
    except NotImplementedError:
        cq, sq = cp, sp
    cp, sp, cq, sq = (float(v) for v in (cp, sp, cq, sq))
    scale = min(sp, sq)
    cands = [cp, cq, cp if alpha == 1 else float(alpha) * cp + (1 - float(alpha)) * cq]
    a_lo = max(t_lo, min(cands) - 60 * scale)
    a_hi = min(t_hi, max(cands) + 60 * scale)
    if not a_lo < a_hi:  # the support lies beyond 60 scales of every centre: search from its near end
        above = max(cands) < t_lo
        a_lo, a_hi = (t_lo, min(t_hi, t_lo + 120 * scale)) if above else (max(t_lo, t_hi - 120 * scale), t_hi)

    def neg_g(t):
        v = g(mpmath.mpf(t))
        return 1e300 if v == -INF else (-1e300 if v == INF else -float(v))

    grid = np.linspace(a_lo, a_hi, 97)  # both finite: cut at 60 scales from the centres
    vals = np.array([neg_g(t) for t in grid])
    if np.any(vals <= -1e300):
        return None
    i = int(np.argmin(vals))
    best_t, best_v = float(grid[i]), vals[i]
    lo_b, hi_b = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    if i in (0, len(grid) - 1) and len(grid) > 1:
        best_t, best_v, lo_b, hi_b = _walk_out(neg_g, best_t, best_v, -1 if i == 0 else 1,
                                               abs(grid[1] - grid[0]), t_lo, t_hi)
    if hi_b > lo_b:
        res = optimize.minimize_scalar(neg_g, bounds=(lo_b, hi_b), method="bounded",
                                       options={"xatol": scale * 1e-9})
        t_star = float(res.x) if res.fun <= best_v else best_t
    else:
        t_star = best_t
    # width from the curvature of the log-integrand
    h = scale * 1e-3
    g0 = -neg_g(t_star)
    gpp = (-neg_g(t_star + h) - 2 * g0 + -neg_g(t_star - h)) / (h * h)
    width = 1 / np.sqrt(-gpp) if np.isfinite(gpp) and gpp < 0 else scale
    width = float(min(max(width, scale * 1e-6), 1e6 * scale))
    return _Peak(t_star, width, g0)


def _walk_out(neg_g, t, v, out: int, step: float, t_lo, t_hi) -> tuple:
    """From a best grid point at the window's edge, steps doubling outward while -g falls: a
    tilted peak far beyond the centres (GG(4) against GG(4) shifted by 5 at alpha = 10 peaks at
    t = -140, the window ending at -105).  Returns the best point, its -g and the bracket around
    it for the bounded minimiser."""
    prev = t
    for _ in range(60):  # at most 2^60 grid steps out: further, divergence is the tails' question
        nxt = t + out * step
        if not t_lo < nxt < t_hi:
            break
        v_new = neg_g(nxt)
        if not v_new < v:
            break
        prev, t, v, step = t, nxt, v_new, 2 * step
    nxt = min(max(t + out * step, t_lo), t_hi)
    return t, v, min(prev, nxt), max(prev, nxt)


def _nondecaying_tail(g, pd: Density, peak: _Peak) -> str | None:
    """The reason the divergence is infinite when the integrand does not decay in an infinite
    tail (the log-integrand, plus log|t|, nondecreasing far out); None when both tails decay."""
    t_lo, t_hi = pd.t_range()
    for end, sign in ((t_hi, 1), (t_lo, -1)):
        if np.isfinite(end):
            continue
        far = [peak.t + sign * peak.width * 2.0 ** k for k in range(8, 40, 4)]
        gv = [g(mpmath.mpf(t)) + mpmath.log(abs(mpmath.mpf(t)) + 1) for t in far]
        if all(gv[j + 1] >= gv[j] for j in range(len(gv) - 3, len(gv) - 1)):
            side = "upper" if sign > 0 else "lower"
            return (f"the integrand does not decay in the {side} tail "
                    "(log-integrand nondecreasing far out): not integrable")
    return None


def _end_shells(g, pd: Density, peak: _Peak, g_ref) -> tuple[str | None, object]:
    """At each finite end e of P's range, the integrand exp(g) near e at distances
    d_k = |e - t*| 2^-k down to 2^-(prec - 8) of that (t* the peak): locally exp(g) ~ d^-beta
    with beta the slope of -g against log d over the last two probes.  beta >= 1 (to half the
    working digits): not integrable at e, the reason returned.  beta < 1: the mass within the last distance, d exp(g) / (1 - beta)
    (exact for a power, relative to exp(g_ref)), which the quadrature's nodes do not reach, is
    returned to be added to the error (0 where the integrand vanishes at the end)."""
    t_lo, t_hi = pd.t_range()
    K = mpmath.mp.prec - 8
    unreached = mpmath.mpf(0)
    for end in (t_lo, t_hi):
        if not np.isfinite(end):
            continue
        e = mpmath.mpf(end)
        span = abs(e - mpmath.mpf(peak.t))
        d = [span * mpmath.mpf(2) ** -k for k in (K - 1, K)]
        gv = [g(e + d_k if e < peak.t else e - d_k) for d_k in d]
        if gv[1] == -INF or gv[0] == -INF:
            continue
        if gv[1] == INF:
            return f"the integrand is infinite next to the end {mpmath.nstr(e, 8)}: not integrable", INF
        beta = (gv[1] - gv[0]) / mpmath.log(2)
        if beta >= 1 - mpmath.mpf(10) ** -(mpmath.mp.dps // 2):   # 1 up to the rounding of g
            return (f"the integrand grows like distance^-{mpmath.nstr(beta, 4)} toward the end "
                    f"{mpmath.nstr(e, 8)} (exponent >= 1): not integrable"), INF
        unreached += d[1] * mpmath.exp(gv[1] - g_ref) / (1 - beta)
    return None, unreached


def kink_nodes(pd: Density, qd: Density) -> set:
    """The kinks of either density (their ``breakpoints``, in x) in P's integration coordinate t:
    a quadrature over t must have them as nodes, its rule and its error estimate assume a smooth
    integrand between nodes."""
    pts = set()
    for dens in (pd, qd):
        if hasattr(dens, "t_breakpoints") and dens.same_coordinate(pd):  # exact in t
            pts |= {float(t) for t in dens.t_breakpoints()}
            continue
        for b in getattr(dens, "breakpoints", ()):
            if pd.lo < float(b) < pd.hi:
                pts.add(float(pd.to_t(mpmath.mpf(b))))
    return pts


def _quadrature_nodes(pd: Density, qd: Density, peak: _Peak, g=None) -> list:
    """Nodes in P's coordinate: the peak +- (0..40) widths -- and on, by factors 1.5, while the
    log-integrand ``g`` there is within dps ln 10 + 20 of the peak's (a tail falling like e^-t/w
    holds e^-40 of the mass beyond 40 widths, which one infinite panel's rule need not see) --,
    the kinks of either density, and the ends of P's range."""
    t_lo, t_hi = pd.t_range()
    mp_lo = getattr(pd, "mp_t_lo", lambda: None)()
    steps = [0.0, 2, 4, 7, 11, 17, 26, 40]
    pts = {peak.t + s * peak.width for s in steps} | {peak.t - s * peak.width for s in steps}
    floor = peak.log_height - (mpmath.mp.dps * math.log(10) + 20)
    for side in (1, -1) if g is not None else ():
        s = 40.0
        while s < 1e8 and t_lo < peak.t + side * s * peak.width < t_hi and \
                g(mpmath.mpf(peak.t + side * s * peak.width)) > floor:
            s *= 1.5
            pts.add(peak.t + side * s * peak.width)
    pts |= kink_nodes(pd, qd)
    inner = sorted(p for p in pts if t_lo < p < t_hi)
    ends_lo = mp_lo if mp_lo is not None else (mpmath.mpf(t_lo) if np.isfinite(t_lo) else -INF)
    ends_hi = mpmath.mpf(t_hi) if np.isfinite(t_hi) else INF
    return [ends_lo] + [mpmath.mpf(p) for p in inner] + [ends_hi]


# ============================================================================================
# Integer laws
# ============================================================================================


def _integer_laws(P: Law, Q: Law, alpha) -> Divergence:
    """Sum over the integers; the window is widened until the terms have decayed by e^-60 at both
    ends, and the rest is charged 2 len(terms) e^-60 of the largest term.  That covers a tail
    falling at least geometrically from the edge (log-concave terms: the discrete Laplace, finite
    laws); the rounded log-shifted Gaussian's terms are log-convex far out, where the rest beyond
    an edge term t at k is about t k s / z in log space (z = sqrt(120)), still a factor
    min(2 z^2, 2 z / s) below the charge -- and the reach check refuses every s near 20."""
    is_kl = alpha == 1
    mismatch = _continuous_part_mismatch(P, Q)
    if mismatch:
        return _infinite(mismatch, alpha)
    _refuse_if_too_far(P, Q, alpha)
    pmf_p = _pmf_fn(P)
    pmf_q = _pmf_fn(Q)
    lo_p, hi_p = _window(P)
    lo_q, hi_q = _window(Q)
    lo, hi = min(lo_p, lo_q), max(hi_p, hi_q)

    def term(k):
        p = pmf_p(k)
        if p == 0:
            return mpmath.mpf(0), None
        q = pmf_q(k)
        if q == 0:
            return None, f"support mismatch: P has mass {mpmath.nstr(p, 6)} at {k} where Q has none"
        return (p * mpmath.log(p / q) if is_kl else p ** alpha * q ** (1 - alpha)), None

    terms = {}
    for k in range(lo, hi + 1):
        t, why = term(k)
        if why:
            return _infinite(why, alpha)
        terms[k] = t
    # widen while the edge terms are not negligible relative to the largest
    bounded_lo = _support_lo(P)
    bounded_hi = _support_hi(P)
    probed = False
    for _ in range(200):
        if len(terms) > MAX_TERMS or (len(terms) > PROBE_AFTER and not probed):
            probed = True  # once early (a divergent sum need not be enumerated to the cap), once at it
            why = _long_sum(pmf_p, pmf_q, alpha, terms, bounded_lo, bounded_hi)
            if why:
                return _infinite(why, alpha, "summation tail analysis")
        biggest = max((abs(v) for v in terms.values()), default=mpmath.mpf(0))
        cut = biggest * mpmath.exp(-60)
        grow = False
        k_lo, k_hi = min(terms), max(terms)
        if (bounded_lo is None or k_lo > bounded_lo) and abs(terms[k_lo]) > cut:
            step = max(1, (k_hi - k_lo) // 4)
            for k in range(max(k_lo - step, bounded_lo if bounded_lo is not None else k_lo - step), k_lo):
                t, why = term(k)
                if why:
                    return _infinite(why, alpha)
                terms[k] = t
            grow = True
        if (bounded_hi is None or k_hi < bounded_hi) and abs(terms[k_hi]) > cut:
            step = max(1, (k_hi - k_lo) // 4)
            top = k_hi + step if bounded_hi is None else min(k_hi + step, bounded_hi)
            for k in range(k_hi + 1, top + 1):
                t, why = term(k)
                if why:
                    return _infinite(why, alpha)
                terms[k] = t
            grow = True
        if not grow:
            break
    else:
        return _infinite("the series does not converge within 200 widenings of the window", alpha,
                         "summation tail analysis")
    total = mpmath.fsum(terms.values())
    biggest = max(abs(v) for v in terms.values())
    tail = biggest * mpmath.exp(-60) * 2 * len(terms) if (bounded_lo is None or bounded_hi is None) else 0
    rounding = mpmath.eps * len(terms) * biggest
    err = tail + rounding
    method = f"exact pmf summed over {len(terms)} integers"
    if is_kl:
        return Divergence(total, err, method, alpha)
    return Divergence(mpmath.log(total) / (alpha - 1), err / total / (alpha - 1), method, alpha)


def _continuous_part_mismatch(P: Law, Q: Law):
    """Why D(P || Q) is infinite when one of an integer pair has a continuous part, else None."""
    if not P.integer and P.density is not None and P.density.mass() > 0:
        return "support mismatch: P has a continuous part, Q is an integer law"
    if not Q.integer and Q.density is not None and Q.density.mass() > 0 and P.integer:
        return ("support mismatch: P is an integer law, Q has a continuous part "
                "(P is not absolutely continuous with respect to Q)")
    return None


def _refuse_if_too_far(P: Law, Q: Law, alpha):
    """Integer laws that round a log-shifted Gaussian know the law of log(Y + c); the tilted law
    p^alpha q^(1-alpha) then peaks near exp(alpha mu_P + (1-alpha) mu_Q) in count space.  Refuse
    up front (ValueError) when that lies beyond what an enumeration can reach."""
    fp, fq = getattr(P, "log_center_scale", None), getattr(Q, "log_center_scale", None)
    if fp is None or fq is None:
        return
    (mp_, sp), (mq, sq) = fp(), fq()
    centre = mp_ if alpha == 1 else alpha * mp_ + (1 - alpha) * mq
    reach = mpmath.exp(centre + 12 * max(sp, sq))
    if reach > MAX_TERMS:
        raise SumNotConverged(f"the pmf sum for D_alpha (alpha = {mpmath.nstr(alpha, 6)}) would need about "
                         f"{mpmath.nstr(reach, 3)} integers (> {MAX_TERMS}): the tilted law sits too far out to "
                         "enumerate")


def _long_sum(pmf_p, pmf_q, alpha, terms: dict, bounded_lo, bounded_hi) -> str | None:
    """A pmf sum past PROBE_AFTER terms: why it diverges (:func:`_integer_terms_grow`), else None
    -- or, past MAX_TERMS, :class:`SumNotConverged`."""
    why = None if alpha == 1 else _integer_terms_grow(pmf_p, pmf_q, alpha, min(terms), max(terms),
                                                      bounded_lo, bounded_hi)
    if why is None and len(terms) > MAX_TERMS:
        raise SumNotConverged(f"the pmf sum for D_alpha (alpha = {mpmath.nstr(alpha, 6)}) has not converged within "
                              f"{MAX_TERMS} integers: the tilted law p^alpha q^(1-alpha) sits too far out to enumerate")
    return why


def _integer_terms_grow(pmf_p, pmf_q, alpha, k_lo: int, k_hi: int, bounded_lo, bounded_hi) -> str | None:
    """Why sum_k p_k^alpha q_k^(1-alpha) diverges, or None: the terms probed at k_hi + 2^j and
    k_lo - 2^j (an unbounded side only) pass :func:`countdp.divergence.tail_growth.growing_tail`'s
    test -- the blocks of 2^j integers between probes hold ever more (DLap(0, a = 1) against
    DLap(0, a = 2) at alpha = 2: every term the same).  A series whose terms fall, however
    slowly, is not shown divergent."""
    from .tail_growth import growing_tail

    def logs(xs):
        def one(pmf, k):
            v = pmf(k)
            return float(mpmath.log(v)) if v > 0 else -np.inf
        ks = [int(x) for x in xs]
        return np.array([one(pmf_p, k) for k in ks]), np.array([one(pmf_q, k) for k in ks])

    a1 = float(alpha) - 1
    for side, edge, bounded in ((1, k_hi, bounded_hi), (-1, k_lo, bounded_lo)):
        if bounded is not None:
            continue
        lo, hi = (float(edge), np.inf) if side > 0 else (-np.inf, float(edge))
        why = growing_tail(logs, a1, float(edge), 1.0, lo, hi)
        if why:
            return f"the terms p^alpha q^(1-alpha) do not decay: {why.replace('integrand', 'sum')} (probed beyond k = {edge})"
    return None


def _pmf_fn(L: Law):
    if L.integer:
        return L.mp_pmf
    atoms = L.atoms()

    def pmf(k):
        return atoms.get(mpmath.mpf(k), mpmath.mpf(0))

    return pmf


def _window(L: Law):
    if L.integer:
        return L.window(mpmath.mpf(10) ** -16)
    xs = [int(x) for x in L.atoms()]
    return min(xs), max(xs)


def _support_lo(L: Law):
    if L.integer:
        return L.support_lo
    return min(int(x) for x in L.atoms())


def _support_hi(L: Law):
    if L.integer:
        return L.support_hi
    return max(int(x) for x in L.atoms())


__all__ = ["Divergence", "renyi", "kl", "gaussian_renyi", "density_renyi_integral", "log_density_pair", "INF",
           "SumNotConverged", "locate_peak"]
