"""Beyond the paper: the Airy log-mechanism and an upper constant for C* below 1/pi.

Claims cstar.airy.utility, cstar.airy.budget, cstar.airy.limit, cstar.airy.vs_gaussian (the law
itself, its constants and its score: cstar_airy_law.py).

The paper brackets the best small-error coefficient pi/(4e^2) <= C* <= 1/pi (eq 32), the upper
end coming from the shifted log-Gaussian mechanism.  Replacing the Gaussian noise in log space by
the Airy law f(x) = Ai(|x| + a1')^2/Z (least Fisher information at fixed E|X|, experiments/cstar/lower-bound.md (8)) gives the mechanism

    Y = [(n + c) exp(b X + t) - c]_+ ,   t = the error-minimising drift,  b: E|e^{bX+t} - 1| = r0/(1+c),

which meets the utility target like Theorem 3.1(i), has budget v(n) = KL of a shift by
delta_n/b of X (checked: the sup over alpha sits at alpha -> 1), and in the iterated limit
r^2 n^2 v(n) -> m^2 I/2 = 8|a1'|^3/27 ~ 0.31332 < 1/pi ~ 0.31831: an upper constant for C*
1.57 % below the paper's.  The closed forms are in countdp.formulas.airy, the law in
countdp.laws.airy, the mechanism in countdp.mechanisms.airy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import flint
import mpmath
import numpy as np

from countdp import formulas
from countdp.arb.airy import certified_prime_zero
from countdp.arb import airy_calibration
from countdp.arb.airy_budget_envelope import budget_bound, decide_below_bound, decide_shifts_decreasing
from countdp.divergence import renyi
from countdp.divergence.tight_rho import mp_renyi, tight_rho
from countdp.harness.claims import certificate, claim
from countdp.harness.faults import fault, offset_argument, replace_body, scale, set_attribute, uncatchable
from countdp.harness.results import fmt
from countdp.laws import airy
from countdp.laws.expectation import mc_abs_error
from countdp.laws.generalised_gaussian import GeneralisedGaussian
from countdp.laws.priors import best_uniform_size
from countdp.mechanisms import ShiftedLogGaussian
from countdp.mechanisms.airy import (SCAN_ALPHA_MIN, AiryLogMechanism, calibrate, airy_drift_error,
                                     optimal_drift, standard_shift_pair)
from countdp.numerics.estimate import Estimate

from _airy_common import _extrapolate, _first_zero_of_ai, _limit_constant_squared, _mp, _rounding
from figures import cstar_airy as plots

TITLE = "Beyond the paper: the Airy log-mechanism, C* <= 8|a1'|^3/27 < 1/pi"
FAULTS = []  # the fault catalogue: each claim block below adds its own faults

# ---- grids ----------------------------------------------------------------------------------
UTIL_QUICK = [("0.1", "0.05", "1"), ("0.5", "0.45", "0.1")]
UTIL_FULL = UTIL_QUICK + [("0.01", "0.009", "0.01"), ("0.9", "0.81", "1")]
N_UTIL_QUICK = [0, 1, 2, 10, 10**6]
N_UTIL_FULL = [0, 1, 2, 10, 100, 10**3, 10**4, 10**5, 10**6]
DRAWS_QUICK, DRAWS_FULL = 100_000, 200_000

DELTAS_QUICK = [1.0, 0.1, 0.01]
DELTAS_FULL = [1.0, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01]
TIGHT_QUICK = [1.0]
TIGHT_FULL = [1.0, 0.1, 0.01]
NLIM_QUICK = [("0.1", "0.05", "1")]
NLIM_FULL = NLIM_QUICK + [("0.01", "0.009", "0.01"), ("0.5", "0.45", "0.1")]

R_LIMIT_QUICK = [2, 3, 4, 5]          # r = 10^-k
R_LIMIT_FULL = [2, 3, 4, 5, 6, 7]
RHO_SEQ_QUICK = [1, 2, 3, 4]          # rho = 10^-k
RHO_SEQ_FULL = [1, 2, 3, 4, 5, 6]
VS_QUICK = [("0.01", "0.5", "1"), ("0.5", "0.9", "0.1")]          # (r, r0/r, c)
VS_FULL = [(r, f, cc) for r in ("0.01", "0.05", "0.1", "0.25", "0.5", "0.9")
           for f in ("0.5", "0.9") for cc in ("0.1", "1")]
VS_NS_QUICK = (1, 2, 3, 10, 100, 10**4, 10**5, 10**6)
VS_NS_FULL = (1, 2, 3, 5, 10, 30, 100, 1000, 10**4, 10**5, 10**6)



# =============================================================================================
# utility
# =============================================================================================


@claim("cstar.airy.utility", routes=[
    "mpmath quadrature of E|Y - n| from the released law (atom at 0 plus the density in w = log(y + c))",
    "Monte Carlo of the mechanism's release with the exact Airy sampler (seeded, 5 s.e.)",
    "the calibration re-derived independently: Newton on d/dt E|exp(bX + t) - 1| (quadrature) for the "
    "drift, then quadrature of E|exp(bX + t) - 1| against r0/(1+c)",
    "the bound is attained: the unclipped release's E|U_n - n| = (n + c) E|exp(bX + t) - 1| (quadrature) "
    "against r0 (n+c)/(1+c) at every n",
])
def utility(check):
    margins, tight = [], []
    ctrl_tight = ctrl_drift = None
    for r, r0, cc in (UTIL_QUICK if check.quick else UTIL_FULL):
        mech = AiryLogMechanism(_mp(r0), _mp(cc), r=_mp(r))
        p0 = {"r": r, "r0": r0, "c": cc}
        e0 = _calibration_cases(check, mech, p0)
        factor = mech.error_factor()
        if ctrl_drift is None:
            ctrl_drift = (p0, e0, mech.rho)
        rng = check.rng(r, r0, cc)
        ns = N_UTIL_QUICK if check.quick else N_UTIL_FULL
        for n in ns:
            p = {**p0, "n": n}
            E, margin = _error_cases(check, mech, n, p, rng, factor)
            margins.append((margin, p))
            if n == ns[-1]:
                tight.append((E.value / mech.error_bound(n), p))
                if ctrl_tight is None:
                    ctrl_tight = (p, E, mech.error_bound(n))
    p, E, bound = ctrl_tight
    check.control(f"E|Y - n| <= 0.99 r0 (n+c)/(1+c) at {p}", lhs=E.value, relation="<=",
                  rhs=mpmath.mpf("0.99") * bound, tol=E.error)
    p0, e0, rho = ctrl_drift
    check.control(f"drift 0 instead of the optimal one still meets E|exp(bX) - 1| <= r0/(1+c) at {p0}",
                  lhs=e0.value, relation="<=", rhs=rho, tol=e0.error)
    lo = min(margins, key=lambda m: m[0])
    check.slack(f"smallest relative margin (r max(n,1) - E|Y-n|)/(r max(n,1)) = {fmt(lo[0], 4)} at {lo[1]}; "
                "at the largest n E|Y-n| / (r0 (n+c)/(1+c)) = "
                + ", ".join(fmt(t, 12) for t, _ in tight) + " (the bound is attained up to the clipped atom)")


FAULTS += [
    fault("cstar.airy.utility", "utility bound r0 n (c dropped from r0 (n+c)/(1+c))", "shift dropped",
          replace_body(formulas.error_bound, lambda ctx, n, r0, c: ctx.convert(r0) * ctx.convert(n))),
    fault("cstar.airy.utility", "utility bound r0 (n-1+c)/(1+c)", "index",
          offset_argument(formulas.error_bound, "n", -1)),
    fault("cstar.airy.utility", "utility bound 1 % weaker", "constant", scale(formulas.error_bound, "1.01")),
    fault("cstar.airy.utility", "drift t = +b q (the tilted-median condition with the wrong sign)", "sign",
          replace_body(formulas.airy_drift, lambda ctx, b, q: ctx.convert(b) * ctx.convert(q))),
    fault("cstar.airy.utility", "target r n for r max(n, 1)", "other",
          replace_body(formulas.target, lambda ctx, n, r: ctx.convert(r) * ctx.convert(n))),
]


def _calibration_cases(check, mech: AiryLogMechanism, p0: dict):
    """The drift by Newton on its derivative against t = -b q, and the minimal error against
    r0/(1+c); returns the error at drift 0 (for the control)."""
    cal = mech.calibration()
    opt = optimal_drift(cal.b)
    check.compare({**p0, "quantity": "drift t"}, lhs=opt.t, relation="==", rhs=cal.t,
                  tol=opt.step + 2 * opt.derivative.error * cal.b / airy.mp_pdf(cal.q) + _rounding(cal.t),
                  route="drift: Newton on the derivative vs t = -b q")
    e_opt = airy_drift_error(cal.b, opt.t)
    check.compare({**p0, "quantity": "min_t E|exp(bX+t)-1|"}, lhs=e_opt.value, relation="==", rhs=mech.rho,
                  tol=e_opt.error + _rounding(mech.rho), route="minimal error (quadrature) equals r0/(1+c)")
    e0 = airy_drift_error(cal.b, 0)
    check.finding(r=p0["r"], r0=p0["r0"], c=p0["c"], rho=mech.rho, b=cal.b, t=cal.t, q=cal.q,
                  error_at_drift_0=e0.value, relative_excess_drift_0=(e0.value - mech.rho) / mech.rho)
    return e0


def _error_cases(check, mech: AiryLogMechanism, n: int, p: dict, rng, factor: Estimate):
    """E|Y - n| by quadrature against the bound and the target, and by Monte Carlo; the bound
    against the unclipped error (n + c) E|exp(bX + t) - 1| (``factor``), which attains it; returns
    the quadrature value and the relative margin to the target."""
    draws = DRAWS_QUICK if check.quick else DRAWS_FULL
    E = mech.expected_abs_error_released(n)
    bound, target = mech.error_bound(n), mech.target(n)
    k = n + mpmath.mpf(mech.c)
    check.compare(p, lhs=k * factor.value, relation="==", rhs=bound, tol=k * factor.error + _rounding(bound),
                  route="unclipped E|U_n - n| = (n+c) E|exp(bX+t) - 1| (quadrature) attains r0 (n+c)/(1+c)")
    check.compare(p, lhs=E.value, relation="<=", rhs=bound, tol=E.error, route="quadrature E|Y-n| <= r0 (n+c)/(1+c)")
    check.compare(p, lhs=E.value, relation="<", rhs=target, tol=E.error, route="quadrature E|Y-n| < r max(n, 1)")
    est = mc_abs_error(mech.released_law(n), n, rng, draws)
    check.compare({**p, "k": draws}, lhs=est.mean, relation="<", rhs=target, tol=est.halfwidth,
                  route="Monte Carlo E|Y-n| < r max(n, 1) (5 s.e.)", monte_carlo=True)
    check.compare({**p, "k": draws}, lhs=est.mean, relation="==", rhs=E.value, tol=est.halfwidth + E.error,
                  route="Monte Carlo vs quadrature (5 s.e.)", monte_carlo=True)
    return E, (target - E.value) / target


# =============================================================================================
# budget
# =============================================================================================


@claim("cstar.airy.budget", routes=[
    "the sup-over-alpha engine on the standardised location pair (X, X + shift): a cancellation-free "
    "folded float64 scan of D_alpha/alpha, the KL end, and the score-CGF bound for alpha >= A",
    "the same engine with the generic density quadrature instead (double-exponential quadrature of the "
    "two densities, both directions): an independent evaluation of every D_alpha and of the KL",
    "mpmath KL of the location pair at extra digits, and the library's Renyi divergence on the "
    "mechanism's own unclipped laws in w = log(y + c)",
    "n^2 v(n) along n = 10^k, Richardson in 1/n, against I_X/(2 b^2)",
    "the paper's mechanism-independent lower bounds (14) and (23) at the same r",
])
def budget(check):
    rows, worst_excess = _scan_cases(check)
    _density_route_cases(check)
    check.finding(what="sup over alpha of D_alpha(f || f(. - shift))/alpha for the standard Airy law "
                       "(shift = delta_n / b)", rows=rows)
    # control: the same scan comparison for a law whose score is super-Gaussian (exponent 4)
    res4 = tight_rho((GeneralisedGaussian(4), GeneralisedGaussian(4, 0.5)), alpha_max=100, points_per_decade=4)
    mx4 = max(float(np.max(x.ratios)) for x in res4.directions)
    check.control("the exponent-4 law exp(-|x|^4): max scanned D_alpha/alpha <= KL at shift 0.5 (sup at alpha -> 1)",
                  lhs=mx4, relation="<=", rhs=res4.kl_max,
                  tol=max(float(np.max(x.ratio_errors)) for x in res4.directions) + 1e-12,
                  detail=f"max D_alpha/alpha over (1, 100] = {mx4:.6g} at alpha = "
                         f"{'alpha -> 1' if res4.attained_at_one else res4.alpha} vs KL = {float(res4.kl_max):.6g}")
    limits = _n2v_limit_cases(check)
    _library_kl_cases(check)
    margins = _lower_bound_cases(check)
    check.note("smallest v(n)/bound over n (r: (14), (23)): "
               + "; ".join(f"r = {rf:g}: {m14:.4g}, {m23:.4g}" for rf, m14, m23 in margins))
    check.slack(f"largest (D_alpha/alpha - KL)/KL over all scanned orders and shifts: {worst_excess:.3e} "
                "(negative: every order below the KL end); n^2 v(n) extrapolations agree with I_X/(2 b^2) to "
                + ", ".join(fmt(abs(e - lim) / lim, 3) for e, lim in limits))


#: the counts at which the scanned budget is certified below its finite bound
BUDGET_NS = (1, 2, 3, 5, 10, 100, 1000, 10 ** 6)


@certificate("cstar.airy.budget", scope="instance")
def budget_finite_and_nonincreasing(cert):
    """v(n) <= 2 I Delta_n^2 (U2: the score-CGF bound, given the sub-Gaussian certificate) at the
    scanned counts, and Delta_n = log((n + c)/(n - 1 + c))/b decreasing along them (U3: v is
    nonincreasing there), at r = 0.1, r0 = 0.05, c = 1."""
    mech = AiryLogMechanism(r0=0.05, c=1, r=0.1)
    values = [mech.v(n) for n in BUDGET_NS]
    with cert.precision(96):
        a, b = certified_prime_zero(), flint.arb(str(mech.b))
        cert.record("v(n) <= 2 I Delta_n^2", "the scanned budget below its finite bound (U2)",
                    budget_bound(BUDGET_NS[0], b, mech.c, a), decide_below_bound(BUDGET_NS, values, b, mech.c, a))
        cert.record("Delta_n decreasing", "the shifts decrease along the scanned counts: v nonincreasing (U3)",
                    None, decide_shifts_decreasing(BUDGET_NS, b, mech.c))


def _log_gap_forward(ctx, n, c):
    return ctx.log1p(ctx.convert(n) / (1 + ctx.convert(c)))


def _n2v_limit_over_b(ctx, b, a1p=None):
    return formulas.airy_fisher(ctx, a1p) / (2 * ctx.convert(b))   # I/(2b) for I/(2b^2)


FAULTS += [
    fault("cstar.airy.budget", "log gap log((n+c)/(n+c-1)) read as log((n+1+c)/(n+c)) (n+c for n-1+c)", "index",
          offset_argument(formulas.log_gap, "n", 1)),
    fault("cstar.airy.budget", "n^2 v(n) -> I/b^2 (the 1/2 dropped)", "factor", scale(formulas.airy_n2v_limit, 2)),
    fault("cstar.airy.budget", "n^2 v(n) -> I/(2b) (b for b^2)", "exponent",
          replace_body(formulas.airy_n2v_limit, _n2v_limit_over_b)),
    fault("cstar.airy.budget", "Fisher information I off by 1 %", "constant", scale(formulas.airy_fisher, "1.01")),
    fault("cstar.airy.budget", "score-CGF bound I u^2/10 for I u^2/2 (below the KL)", "factor",
          scale(formulas.airy_score_cgf_bound, "0.2")),
    fault("cstar.airy.budget", "log gap log(1 + n/(1+c)) for log(1 + 1/(n-1+c))", "index",
          replace_body(formulas.log_gap, _log_gap_forward)),
    uncatchable("cstar.airy.budget", "the envelope sup_{m >= n} v(m) dropped", "dropped term",
                "v is proved nonincreasing (U3), so the envelope equals v: dropping it changes no number"),
]


def _scan_cases(check):
    """The engine's scan at a few shifts: every scanned order below the KL end, the score-CGF bound
    below the KL, the float64 KL against the mpmath KL."""
    rows = []
    worst_excess = -math.inf
    for d in (DELTAS_QUICK if check.quick else DELTAS_FULL):
        P, Q = standard_shift_pair(d)
        s = tight_rho((P, Q), alpha_min=SCAN_ALPHA_MIN, points_per_decade=8, refine=False, precise=False).best()
        p = {"shift": d}
        check.compare(p, lhs=float(np.max(s.ratios)), relation="<=", rhs=s.kl,
                      tol=float(np.max(s.ratio_errors)) + s.kl_error,
                      route=f"scan: max over {len(s.alphas)} orders in (1, {s.end.order:.4g}] of D_alpha/alpha <= KL")
        check.compare(p, lhs=s.end.bound, relation="<", rhs=s.kl, tol=s.kl_error,
                      route=f"score-CGF bound for alpha >= A = {s.end.order:.4g} below KL")
        kl_mp = mp_renyi(P, Q, 1)
        check.compare(p, lhs=s.kl, relation="==", rhs=kl_mp.value, tol=s.kl_error + kl_mp.error,
                      route="float64 KL vs mpmath KL")
        worst_excess = max(worst_excess, s.max_excess)
        rows.append({"shift": d, "KL": fmt(kl_mp.value, 15), "KL_over_delta2": fmt(kl_mp.value / _mp(d) ** 2, 12),
                     "slope_at_alpha_1": f"{s.slope_at_one.value:.6g} +- {s.slope_at_one.error:.2g}",
                     "max_scan_excess_over_KL": f"{s.max_excess:.3e}", "A": f"{s.end.order:.4g}",
                     "tail_bound_over_KL": f"{s.end.bound / float(s.kl):.6f}",
                     "D_at_first_order_over_KL": f"{s.first_bound / float(s.kl):.12f}",
                     "sup_at": "alpha -> 1" if s.attained_at_one else s.alpha})
    return rows, worst_excess


def _density_route_cases(check):
    """The engine with the generic density quadrature on the same pair (both directions)."""
    for d in (TIGHT_QUICK if check.quick else TIGHT_FULL):
        P, Q = standard_shift_pair(d)
        res = tight_rho((P, Q), points_per_decade=4 if check.quick else 8, location=False)
        kl_mp = mp_renyi(P, Q, 1)
        mx = max(float(np.max(x.ratios)) for x in res.directions)
        mxe = max(float(np.max(x.ratio_errors)) for x in res.directions)
        where = "alpha -> 1" if res.attained_at_one else f"alpha = {res.alpha:.6g}"
        check.compare({"shift": d}, lhs=mx, relation="<=", rhs=kl_mp.value,
                      tol=mxe + kl_mp.error + 1e-15 * float(kl_mp.value),
                      route="density quadrature: max scanned D_alpha/alpha over both directions <= KL",
                      note=f"sup at {where}; large-alpha end: {res.tail[:80]}...")
        check.compare({"shift": d}, lhs=res.value, relation="==", rhs=kl_mp.value,
                      tol=res.best().kl_error + kl_mp.error,
                      route="density-quadrature KL end vs the location pair's mpmath KL")
        check.compare({"shift": d}, lhs=1 if res.attained_at_one else 0, relation="==", rhs=1,
                      route="the density-quadrature scan locates the sup at alpha -> 1")


def _n2v_limit_cases(check):
    """n^2 v(n) -> I_X/(2 b^2) by Richardson in 1/n; the sup at alpha -> 1 along the sequence."""
    ex2 = airy.airy_constants().second_moment
    ks = range(2, 7) if check.quick else range(2, 8)
    limits = []
    for r, r0, cc in (NLIM_QUICK if check.quick else NLIM_FULL):
        mech = AiryLogMechanism(_mp(r0), _mp(cc), r=_mp(r))
        b = mech.mp_b()
        ns = [10**k for k in ks]
        sups = [mech.budget(n) for n in ns]
        vals = [n * n * float(s.value) for n, s in zip(ns, sups)]
        errs = [n * n * float(s.value - s.lo) for n, s in zip(ns, sups)]
        ext = _extrapolate([1.0 / n for n in ns], vals, [1, 2, 3])
        lim = formulas.airy_n2v_limit(b)
        p = {"r": r, "r0": r0, "c": cc, "n": f"10^{ks[0]}..10^{ks[-1]}"}
        tol = ext.error + 2 * max(errs) + 1e-12 * float(lim)
        check.compare(p, lhs=ext.value, relation="==", rhs=lim, tol=tol, route="Richardson of n^2 v(n) vs I_X/(2 b^2)")
        check.compare(p, lhs=1 if all(s.attained_at_one for s in sups) else 0, relation="==", rhs=1,
                      route="the scan puts the sup at alpha -> 1 at every n of the sequence")
        limits.append((p, ext.value, tol, b, lim))
        check.finding(r=r, r0=r0, c=cc, b=b, limit_I_over_2b2=lim, extrapolated=ext.value,
                      extrapolation_error=ext.error, n2v=[f"n=10^{k}: {v:.15g}" for k, v in zip(ks, vals)])
    p, est, tol, b, _ = limits[0]
    check.control(f"n^2 v(n) -> 1/(2 b^2 E X^2) (the equal-variance Gaussian's limit) at {p}", lhs=est,
                  relation="==", rhs=1 / (2 * b ** 2 * ex2), tol=tol)
    return [(est, lim) for _, est, _, _, lim in limits]


def _library_kl_cases(check):
    """The mechanism's own laws (log-shift coordinate) through the library's Renyi divergence."""
    r, r0, cc = NLIM_QUICK[0]
    mech = AiryLogMechanism(_mp(r0), _mp(cc), r=_mp(r))
    for n in ([10] if check.quick else [1, 10, 1000]):
        P, Q = mech.unclipped_law(n), mech.unclipped_law(n - 1)
        dv = renyi.kl(P, Q)
        s = mech.budget(n)
        v = float(s.value)
        check.compare({"r": r, "r0": r0, "c": cc, "n": n}, lhs=v, relation="==", rhs=dv.value,
                      tol=float(s.value - s.lo) + dv.error + 1e-15 * v,
                      route="v(n) (engine, standardised pair) vs the library's KL of U_n, U_{n-1} (w = log(y+c))")
        if not check.quick:
            dq = renyi.kl(Q, P)
            check.compare({"r": r, "r0": r0, "c": cc, "n": n, "direction": "reverse"}, lhs=dq.value,
                          relation="==", rhs=dv.value, tol=dq.error + dv.error + 1e-15 * v,
                          route="both directions equal (the library's KL)")


def _lower_bound_cases(check):
    """The Airy mechanism is admissible, so the paper's mechanism-independent lower bounds (14) and
    (23) (best odd K) must sit below its budget at every count; a violation would refute either
    the calibration here or Section 6."""
    margins = []
    for r in (("1/10", "1/1000") if check.quick else ("1/10", "1/100", "1/1000")):
        rf = float(Fraction(r))
        mech = AiryLogMechanism(rf * (1 - rf), rf, r=rf)
        ns = np.unique(np.logspace(0, 4 if check.quick else 5, 25 if check.quick else 60).astype(np.int64))
        vs = mech.v_array(ns)
        b14 = formulas.two_count_bound.fp(ns, Fraction(r))
        b23 = np.array([float(best_uniform_size(int(n), r).bound) for n in ns])
        for n, v, lo14, lo23 in zip(ns, vs, b14, b23):
            p = {"r": rf, "r0": rf * (1 - rf), "c": rf, "n": int(n)}
            check.compare(p, v, ">=", lo14, 1e-10 * v, route="v(n) >= eq (14), the two-count lower bound")
            check.compare(p, v, ">=", lo23, 1e-10 * v, route="v(n) >= eq (23) at the best odd K")
        margins.append((rf, float(np.min(vs / b14)), float(np.min(vs / np.where(b23 > 0, b23, np.nan)))))
    return margins


# =============================================================================================
# limit
# =============================================================================================


@claim("cstar.airy.limit", routes=[
    "n-limit I_X/(2 b^2) (b calibrated by quadrature at the working precision), times r^2 along r = 10^-k "
    "with r0 = r(1-r), c = r (and c = r^2), Richardson in r -> 0",
    "r^2 n^2 v(n) from the divergence scan at n = ceil(10^j/b), Richardson in 1/n, against r^2 I_X/(2 b^2)",
    "closed form 8|a1'|^3/27 (and its Arb ball, claim cstar.airy.constants), against m^2 I/2 from the "
    "quadrature m and I (a1' by Newton on Ai')",
])
def limit(check):
    target = formulas.airy_limit_constant()
    q = airy.airy_constants_by_quadrature()
    check.compare({"quantity": "8|a1'|^3/27"}, lhs=target, relation="==", rhs=q.m2I_half,
                  tol=3 * q.error + _rounding(target), route="closed form vs m^2 I/2 from the quadrature m and I")
    ks = R_LIMIT_QUICK if check.quick else R_LIMIT_FULL
    families = [("c = r", lambda r: r)] + ([] if check.quick else [("c = r^2", lambda r: r * r)])
    results = []
    for name, c_of in families:
        rs, Ls, table = [], [], []
        for k in ks:
            r = mpmath.mpf(10) ** (-k)
            r0, cc = r * (1 - r), c_of(r)
            mech = AiryLogMechanism(r0, cc, r=r)
            b = mech.mp_b()
            L = r ** 2 * formulas.airy_n2v_limit(b)
            rs.append(r)
            Ls.append(L)
            table.append({"r": fmt(r, 3), "rho": fmt(mech.rho, 10), "b": fmt(b, 15), "r2_I_over_2b2": fmt(L, 15),
                          "relative_gap_to_constant": fmt((L - target) / target, 6)})
            if k <= (3 if check.quick else 5):
                _scan_limit_case(check, mech, r, r0, cc, L)
        ext = _extrapolate(rs, Ls, [1, 2, 3, 4])
        tol = ext.error + _rounding()
        check.compare({"family": name, "r": f"10^-{ks[0]}..10^-{ks[-1]}"}, lhs=ext.value, relation="==",
                      rhs=target, tol=tol, route="Richardson in r of r^2 I_X/(2 b^2) vs 8|a1'|^3/27")
        results.append((name, ext.value, tol))
        check.finding(family=name, r0="r(1-r)", sequence=table, extrapolated=ext.value, extrapolation_error=ext.error)
    name, est, tol = results[0]
    check.control(f"the limit ({name}) is the Gaussian's 1/pi", lhs=est, relation="==", rhs=1 / mpmath.pi, tol=tol)
    check.control(f"the limit ({name}) is 8|a1'|^3/27 (1 + 10^-6) (a small perturbation)", lhs=est, relation="==",
                  rhs=target * (1 + mpmath.mpf("1e-6")), tol=tol)
    check.note("iterated limit: n -> inf first (I_X/(2 b^2), shown by route 2 and claim cstar.airy.budget), then "
               "r -> 0 with r0/r = 1 - r -> 1 and c = r (or r^2) -> 0; the convergence in r is O(r)")
    check.slack("extrapolated limits minus 8|a1'|^3/27: " + "; ".join(
        f"{n}: {fmt(e - target, 3)} (bar {fmt(t, 3)})" for n, e, t in results)
        + f"; gap to 1/pi: {fmt(1 / mpmath.pi - target, 6)}")


#: the r at which the calibration lemma's bracket and the tight bracket of b(rho) are certified
CALIBRATION_RS = ("1e-2", "1e-4", "1e-7")


@certificate("cstar.airy.limit", scope="instance")
def calibration_brackets(cert):
    """b(rho) bracketed at r0 = r(1 - r), c = r: by the calibration lemma's explicit O(rho)
    remainder (U5, the route of b(rho)/rho -> 1/m) and by the tight tilt-balance bracket; r^2 I/(2b^2)
    certified between the tight ends."""
    with cert.precision(96):
        rs = [flint.arb(r) for r in CALIBRATION_RS]
        res = airy_calibration.certify_calibration([airy_calibration.error_target(r * (1 - r), r) for r in rs],
                                                   prec=96)
        for r, lemma, tight in zip(CALIBRATION_RS, res.lemma, res.tight):
            cert.record(**lemma.item())
            cert.record(**tight.item())
            lo, hi = tight.coefficient(flint.arb(r))
            cert.record(f"r^2 I/(2b^2) at r = {r}", "between the tight bracket's ends", lo.union(hi), tight.verdict)


_SCALE_BRACKET = airy_calibration.scale_bracket


def _remainder_halved(rho, a1p=None, remainder=None):
    return _SCALE_BRACKET(rho, a1p, remainder=_SCALE_BRACKET(rho, a1p).remainder / 2)


FAULTS += [
    fault("cstar.airy.limit", "the calibration bracket's remainder halved", "factor",
          set_attribute(airy_calibration, "scale_bracket", _remainder_halved)),
    fault("cstar.airy.limit", "8|a1'|^3/9 for 8|a1'|^3/27", "factor", scale(formulas.airy_limit_constant, 3)),
    fault("cstar.airy.limit", "8|a1'|^2/27 for 8|a1'|^3/27", "exponent",
          replace_body(formulas.airy_limit_constant, _limit_constant_squared)),
    fault("cstar.airy.limit", "a1 (first zero of Ai) for a1' (first zero of Ai')", "constant",
          replace_body(formulas.airy_prime_zero, _first_zero_of_ai)),
    fault("cstar.airy.limit", "Fisher information I off by 1 %", "constant", scale(formulas.airy_fisher, "1.01")),
    fault("cstar.airy.limit", "8|a1'|^3/27 off by 0.1 %", "constant", scale(formulas.airy_limit_constant, "1.001")),
]


def _scan_limit_case(check, mech: AiryLogMechanism, r, r0, cc, L):
    """r^2 n^2 v(n) from the engine's scan at n = ceil(10^j/b), Richardson in 1/n, against L."""
    b = mech.mp_b()
    ns = [int(mpmath.ceil(mpmath.mpf(10) ** j / b)) for j in (1, 2, 3, 4)]
    sups = [mech.budget(n) for n in ns]
    vals = [float(r) ** 2 * n * n * float(s.value) for n, s in zip(ns, sups)]
    ext = _extrapolate([1.0 / n for n in ns], vals, [1, 2, 3])
    errs = [float(r) ** 2 * n * n * float(s.value - s.lo) for n, s in zip(ns, sups)]
    check.compare({"r": r, "r0": r0, "c": cc, "n": f"{ns[0]}..{ns[-1]}"}, lhs=ext.value, relation="==", rhs=L,
                  tol=ext.error + 2 * max(errs) + 1e-12 * float(L),
                  route="Richardson of r^2 n^2 v(n) (scan) vs r^2 I_X/(2 b^2)")


# =============================================================================================
# versus the Gaussian
# =============================================================================================


def _limit_ratio(rho):
    """lim_n v_Airy(n)/v_Gauss(n) = I_X sigma^2 / b^2 at error target rho = r0/(1+c): sigma of
    eq (3) (a function of rho alone: formulas.sigma(rho, 0)), b from the calibration."""
    rho = mpmath.mpf(rho)
    return formulas.airy_fisher() * formulas.sigma(rho, 0) ** 2 / calibrate(rho).b ** 2


def _crossover_rho(lo="0.2", hi="0.45"):
    """The error target rho* with limit ratio 1 (secant/Illinois on [lo, hi]): below it the Airy
    mechanism's large-n budget is the smaller one."""
    return mpmath.findroot(lambda x: _limit_ratio(x) - 1, (mpmath.mpf(lo), mpmath.mpf(hi)), solver="anderson",
                           tol=mpmath.mpf(10) ** (-(mpmath.mp.dps // 2)))


@dataclass
class VsGaussian:
    """Budgets of the two mechanisms at the same (r, r0, c): ``ratios[n] = v_Airy(n)/v_Gauss(n)``
    (float64), ``limit`` = I sigma^2/b^2, ``monotone``: the sampled ratios increase with n,
    ``gauss_wins_from``: the first n >= 1 with ratio >= 1 (None: Airy's budget is smaller at every
    sampled n and in the limit), found by bisection between sampled points; ``all_at_one``: every
    Airy budget evaluated had its sup over alpha at alpha -> 1; ``shifts``: (min, max) of the
    shifts Delta_n evaluated."""

    rho: object
    b: object
    t: object
    sigma: object
    limit: object
    ratios: dict
    monotone: bool
    gauss_wins_from: int | None
    all_at_one: bool
    shifts: tuple


def compare_with_gaussian(r0, c, r, ns) -> VsGaussian:
    """Tabulate v_Airy(n)/v_Gauss(n) (see :class:`VsGaussian`)."""
    A = AiryLogMechanism(r0, c, r=r)
    G = ShiftedLogGaussian(r0, c, r=r)
    ns = sorted(set(int(n) for n in ns))
    seen = []

    def ratio(n):
        seen.append((A.budget(n), float(A.delta(n))))
        return float(seen[-1][0].value) / G.v(n)

    ratios = {n: ratio(n) for n in ns}
    vals = [ratios[n] for n in ns]
    first = None
    for i, n in enumerate(ns):
        if ratios[n] >= 1:
            lo_n, hi_n = (ns[i - 1] if i > 0 else 0), n
            while hi_n - lo_n > 1:
                mid = (lo_n + hi_n) // 2
                lo_n, hi_n = (lo_n, mid) if ratio(mid) >= 1 else (mid, hi_n)
            first = hi_n
            break
    sigma = G.mp_sigma()
    return VsGaussian(rho=A.rho, b=A.mp_b(), t=A.mp_t(), sigma=sigma,
                      limit=formulas.airy_fisher() * sigma ** 2 / A.mp_b() ** 2, ratios=ratios,
                      monotone=all(b_ >= a_ for a_, b_ in zip(vals[:-1], vals[1:])), gauss_wins_from=first,
                      all_at_one=all(s.attained_at_one for s, _ in seen),
                      shifts=(min(d for _, d in seen), max(d for _, d in seen)))


@claim("cstar.airy.vs_gaussian", routes=[
    "limit ratio I_X sigma^2/b^2 (sigma of eq (3), b calibrated by quadrature) along rho = r0/(1+c) = 10^-k, "
    "Richardson in rho^2, against 8 pi |a1'|^3/27",
    "v_Airy(n)/v_Gauss(n) from the divergence scan (Airy) and eq (6) (Gaussian) at large n, against the "
    "limit ratio",
    "closed form 8 pi |a1'|^3/27",
])
def vs_gaussian(check):
    target = formulas.airy_gaussian_limit_ratio()
    ks = RHO_SEQ_QUICK if check.quick else RHO_SEQ_FULL
    rhos = [mpmath.mpf(10) ** (-k) for k in ks]
    lims = [_limit_ratio(rho) for rho in rhos]
    ext = _extrapolate(rhos, lims, [2, 4, 6])
    tol = ext.error + _rounding()
    check.compare({"rho": f"10^-{ks[0]}..10^-{ks[-1]}"}, lhs=ext.value, relation="==", rhs=target, tol=tol,
                  route="Richardson in rho^2 of I sigma^2/b^2 vs 8 pi |a1'|^3/27")
    check.finding(what="limit ratio along rho = 10^-k",
                  sequence=[{"rho": fmt(r, 3), "limit_ratio": fmt(v, 15)} for r, v in zip(rhos, lims)],
                  extrapolated=ext.value, extrapolation_error=ext.error)
    check.control("the limit ratio is 1 (no gain over the Gaussian)", lhs=ext.value, relation="==", rhs=1, tol=tol)
    table, shifts = _budget_ratio_cases(check)
    wins_all = [w for w in table if w["gaussian_budget_smaller_from_n"] is None]
    loses = [w for w in table if w["gaussian_budget_smaller_from_n"] is not None]
    check.finding(what="v_Airy(n)/v_Gauss(n) at the same (r, r0, c): below 1 = the Airy mechanism spends less",
                  rows=table)
    check.finding(what="summary",
                  airy_smaller_at_every_n=[f"r={w['r']}, r0={w['r0']}, c={w['c']}" for w in wins_all],
                  gaussian_smaller_from_some_n=[f"r={w['r']}, r0={w['r0']}, c={w['c']}: from n = "
                                                f"{w['gaussian_budget_smaller_from_n']}" for w in loses],
                  v1_ratio_range=f"{min(float(w['ratio_n1']) for w in table):.4f} .. "
                                 f"{max(float(w['ratio_n1']) for w in table):.4f}",
                  shifts_evaluated=f"{shifts[0]:.3g} .. {shifts[1]:.3g}, sup at alpha -> 1 at all")
    if not check.quick:
        check.finding(what="crossover of the large-n ratio: I sigma^2/b^2 < 1 iff r0/(1+c) < rho*",
                      rho_star=_crossover_rho())
    check.slack(f"extrapolated limit ratio {fmt(ext.value, 12)} vs 8 pi |a1'|^3/27 = {fmt(target, 12)} "
                f"(bar {fmt(tol, 3)}); gap to 1 is {fmt(1 - target, 5)}")


FAULTS += [
    fault("cstar.airy.vs_gaussian", "8 |a1'|^3/27 for 8 pi |a1'|^3/27 (pi dropped)", "factor",
          replace_body(formulas.airy_gaussian_limit_ratio,
                       lambda ctx, a1p=None: formulas.airy_limit_constant(ctx, a1p))),
    fault("cstar.airy.vs_gaussian", "8 e |a1'|^3/27 for 8 pi |a1'|^3/27", "pi vs e",
          replace_body(formulas.airy_gaussian_limit_ratio,
                       lambda ctx, a1p=None: ctx.e * formulas.airy_limit_constant(ctx, a1p))),
    fault("cstar.airy.vs_gaussian", "Fisher information I off by 1 %", "constant", scale(formulas.airy_fisher, "1.01")),
    fault("cstar.airy.vs_gaussian", "8 pi |a1'|^3/27 off by 0.1 %", "constant",
          scale(formulas.airy_gaussian_limit_ratio, "1.001")),
]
def _budget_ratio_cases(check) -> tuple[list[dict], tuple]:
    """v_Airy/v_Gauss at the largest n against the limit ratio, and the sup at alpha -> 1 for every
    Airy budget evaluated, over the (r, r0/r, c) grid; returns the table rows and the range of
    the shifts evaluated."""
    table = []
    shifts = (math.inf, 0.0)
    ns = VS_NS_QUICK if check.quick else VS_NS_FULL
    for r, f, cc in (VS_QUICK if check.quick else VS_FULL):
        cmp_ = compare_with_gaussian(_mp(r) * _mp(f), _mp(cc), _mp(r), ns)
        big, prev = cmp_.ratios[ns[-1]], cmp_.ratios[ns[-2]]
        p = {"r": r, "r0": f"{f} r", "c": cc, "n": ns[-1]}
        check.compare(p, lhs=big, relation="==", rhs=cmp_.limit, tol=abs(big - prev) + 1e-12,
                      route="v_Airy/v_Gauss at large n vs I sigma^2/b^2 (bar: the last decade's change)")
        check.compare({**p, "n": f"{ns[0]}..{ns[-1]}"}, lhs=1 if cmp_.all_at_one else 0, relation="==", rhs=1,
                      route=f"every Airy budget evaluated (shifts {cmp_.shifts[0]:.3g} .. {cmp_.shifts[1]:.3g}) "
                            "has its sup at alpha -> 1")
        table.append({"r": r, "r0": f"{f} r", "c": cc, "rho": fmt(cmp_.rho, 6), "b": fmt(cmp_.b, 10),
                      "t": fmt(cmp_.t, 10), "sigma": fmt(cmp_.sigma, 10), "limit_ratio": fmt(cmp_.limit, 10),
                      "ratio_n1": f"{cmp_.ratios[1]:.6f}", "ratio_n10": f"{cmp_.ratios[10]:.6f}",
                      "ratio_n100": f"{cmp_.ratios[100]:.6f}", "ratio_n1e6": f"{cmp_.ratios[ns[-1]]:.8f}",
                      "ratio_increasing_in_n": cmp_.monotone,
                      "airy_budget_smaller_at_every_n": cmp_.gauss_wins_from is None,
                      "gaussian_budget_smaller_from_n": cmp_.gauss_wins_from})
        shifts = (min(shifts[0], cmp_.shifts[0]), max(shifts[1], cmp_.shifts[1]))
    return table, shifts


def figures(settings):
    """This script's figures (made by figures/cstar_airy.py)."""
    return plots.make(settings, compare_with_gaussian)


if __name__ == "__main__":
    from countdp.harness.cli import script_main

    raise SystemExit(script_main(__file__))
