"""Beyond the paper: the lower bound C* >= 8|a1'|^3/27, steps 4-7, hence C* = 8|a1'|^3/27.

Claims cstar.lower.lattice, cstar.lower.jensen, cstar.lower.assembled, cstar.value; steps 1-3
(the coupling, the fibres, the pointwise inequalities) are checked in cstar_lower_coupling.py.

The argument's last steps (experiments/cstar/lower-bound.md numbers every inequality):

4. lattice.  On Z + theta at mean absolute value M, 2 min E >= c0 (1 - E/6)^3/(M + 1)^2 >=
   c0/(M + 2)^2 (interpolation of the Airy ground state); the exact lattice minima tend to c0/M^2.
5. Jensen.  l(M) = c0/(M + 2)^2 is convex and decreasing: fibre-wise bounds mix into one bound.
6. assembled.  v(N + 1) >= kappa(q) c0/(r (N + 3 rho/(1 - rho)) + 2q/(1 - q^2) + 2)^2 -
   KL(pi(. - 1) || pi), so liminf r^2 N^2 v(N) >= kappa(q) c0/(1 + eps)^2 - 9 r^2/(2 eps^2) -> c0.
7. value.  With the Airy mechanism's upper constant: C* = c0 = 8|a1'|^3/27.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import mpmath
import numpy as np

from countdp import formulas
from countdp.arb import airy_groundstate
from countdp.arb import lattice_shift as lattice_balls
from countdp.arb.airy import certified_limit_constant
from countdp.arb.shift_inequalities import certify_interpolation_margin
from countdp.arb.verdicts import control_verdict, decide_ge, decide_gt, decide_lt, verdict_all
from countdp.divergence.lattice_dual import dual_certificate
from countdp.divergence.lattice_shift import lattice_minimum
from countdp.harness.claims import certificate, claim
from countdp.harness.faults import fault, offset_argument, replace_body, scale, set_attribute, wrap_body
from countdp.harness.results import fmt
from countdp.laws import airy
from countdp.mechanisms.airy import AiryLogMechanism
from countdp.numerics.sequences import fitted_exponent, richardson
from countdp.numerics.tolerance import working_precision

from _lower_bound import MECHANISM, mechanisms, mixture_value
from figures import cstar_lower_lattice as plots

TITLE = "Beyond the paper: the lower bound C* >= 8|a1'|^3/27 (steps 4-7), and C* = 8|a1'|^3/27"
FAULTS = []  # the fault catalogue: each claim block below adds its own faults

# ---- grids ----------------------------------------------------------------------------------
THETA_QUICK = ["0", "0.25", "0.5"]
THETA_FULL = [f"{k / 20:g}" for k in range(11)]        # 0 .. 0.5 (theta and 1 - theta mirror)
M_QUICK = [1, 3, 10, 30, 100]
M_FULL = [1, 3, 10, 30, 100, 300, 1000]
DUAL_M_MAX = {"dirichlet": (30, 100), "symmetric": (30, 30)}   # dual certificates up to this M (quick, full)
RATE_M_QUICK = [10, 20, 40, 80, 160]
RATE_M_FULL = [10, 20, 40, 80, 160, 320, 640, 1280]
ENCLOSURES = [("0", 10), ("0.5", 10), ("0.25", 30)]     # (theta, M) certified in balls

JENSEN_M = [0.5, 2, 7, 20, 60, 200, 900]
JENSEN_MIXTURES_QUICK, JENSEN_MIXTURES_FULL = 6, 24

ASSEMBLED_N_QUICK = [10, 100, 1000]
ASSEMBLED_N_FULL = [10, 30, 100, 300, 1000, 3000, 10_000]
LIMIT_N = [10 ** 3, 10 ** 4, 10 ** 5, 10 ** 6]          # the bound's N -> inf (Richardson in 1/N)
R_LIMIT_QUICK = [3, 4, 5, 6, 7, 8]                      # r = 10^-k for the bound's r -> 0
R_LIMIT_FULL = [3, 4, 5, 6, 7, 8, 9, 10]
R_UPPER_QUICK = [3, 4, 5, 6]                            # the Airy mechanism's r -> 0 (upper end)
R_UPPER_FULL = [3, 4, 5, 6, 7]


def _c0(dps=None) -> mpmath.mpf:
    return formulas.airy_limit_constant()


# =============================================================================================
# step 4: the lattice problem
# =============================================================================================


@claim("cstar.lower.lattice", routes=[
    "the exact lattice minima: the Dirichlet ground state (lowest eigenvector of -Delta + lam |x| on Z + "
    "theta) and min J/2 by Newton on the KKT system, at the requested mean absolute value M",
    "dual certificates by shooting (a lower bound for every law at that M) against the Newton primal value",
    "the interpolation bound c0 (1 - E/6)^3/(M + 1)^2 and c0/(M + 2)^2 (closed forms, c0 = 8|a1'|^3/27)",
    "the piecewise-linear interpolant of the Dirichlet minimiser measured directly (its energy E, mass 1 - E/6, "
    "first moment <= M + 1), and the continuum minimum c0/(2 M^2) rescaled to its mass and moment",
    "the rate: M^2 min_theta phi_theta(M) extrapolated in 1/M^2 to c0, the remainder's exponent fitted",
])
def lattice(check):
    c0 = _c0()
    worst = None
    for th in (THETA_QUICK if check.quick else THETA_FULL):
        for M in (M_QUICK if check.quick else M_FULL):
            duals = [k for k, lims in DUAL_M_MAX.items() if M <= lims[0 if check.quick else 1]]
            margin = _lattice_cases(check, th, M, duals)
            worst = margin if worst is None or margin[0] < worst[0] else worst
    _lattice_rate(check, c0)
    e = lattice_minimum("dirichlet", 0.0, 10)
    check.control("the continuum bound moved to the lattice without the interpolation's + 1: "
                  "2E >= c0 (1 - E/6)^3/M^2 at theta = 0, M = 10", lhs=2 * e.value, relation=">=",
                  rhs=float(formulas.interpolation_bound.fp(e.value, e.M - 1)), tol=1e-14)
    check.slack(f"smallest 2E/(c0 (1 - E/6)^3/(M+1)^2) - 1 = {fmt(worst[0], 4)} at theta = {worst[1]}, M = {worst[2]}")


def _lattice_cases(check, th, M, duals):
    p = {"theta": th, "M": M}
    e = lattice_minimum("dirichlet", float(th), M)
    twoE = 2 * e.value
    bound = float(formulas.interpolation_bound.fp(e.value, e.M))
    check.compare({**p, "quantity": "2E vs interpolation"}, lhs=twoE, relation=">=", rhs=bound, tol=1e-14,
                  route="2 min E >= c0 (1 - E/6)^3/(M + 1)^2")
    _interpolant_cases(check, p, e, bound)
    check.compare({**p, "quantity": "2E vs c0/(M+2)^2"}, lhs=twoE, relation=">=",
                  rhs=float(formulas.lattice_dirichlet_bound.fp(e.M)), tol=1e-14, route="2 min E >= c0/(M + 2)^2")
    sym = lattice_minimum("symmetric", float(th), M)
    check.compare({**p, "quantity": "min J/2 vs 2 min E"}, lhs=sym.value, relation=">=", rhs=twoE,
                  tol=1e-12 * twoE, route="min J/2 >= 2 min E (the pointwise inequality at the minimiser)")
    for kind, sol in (("dirichlet", e), ("symmetric", sym)):
        if kind in duals:
            seq = dual_certificate(kind, float(th), sol.lam)
            check.compare({**p, "kind": kind, "quantity": "dual vs primal"}, lhs=seq.dual_value(sol.M),
                          relation="==", rhs=sol.value, tol=1e-10 * sol.value,
                          route="dual certificate (shooting) vs Newton / eigenvector primal value")
    return twoE / bound - 1, th, M


def interpolant_moments(law) -> tuple[float, float, float]:
    """The piecewise-linear interpolant of psi_k = sqrt(p_k) (sum psi_k^2 = 1) on the sites x_k,
    falling to 0 one site beyond each end: (int psi~'^2, int psi~^2, int |x| psi~^2).  Each
    interval's integral is exact: (b - a)^2, (a^2 + ab + b^2)/3, and the cubic |x| psi~^2 by
    2-point Gauss-Legendre on each side of x = 0."""
    V = law.V - law.V.min()
    psi = np.sqrt(np.exp(-V) / np.exp(-V).sum())
    psi, x = np.r_[0.0, psi, 0.0], np.r_[law.x[0] - 1, law.x, law.x[-1] + 1]
    a, b, x0 = psi[:-1], psi[1:], x[:-1]
    split = np.clip(-x0, 0.0, 1.0)                 # where x = x0 + t crosses 0 (t in [0, 1])
    first = np.zeros_like(a)
    for lo, hi in ((np.zeros_like(split), split), (split, np.ones_like(split))):
        for node in ((1 - 3 ** -0.5) / 2, (1 + 3 ** -0.5) / 2):
            t = lo + (hi - lo) * node
            first += (hi - lo) / 2 * np.abs(x0 + t) * (a + (b - a) * t) ** 2
    return float(np.sum((b - a) ** 2)), float(np.sum((a * a + a * b + b * b) / 3)), float(np.sum(first))


def _interpolant_cases(check, p, e, bound):
    """Step 4's proof on the minimiser itself: its interpolant has energy E, mass m0 = 1 - E/6 and
    first moment M1 <= M + 1; rescaled to mass 1 the continuum minimum gives
    2E >= 2 m0 c0/(2 (M1/m0)^2), and at M1 = M + 1 that is the closed form c0 m0^3/(M + 1)^2."""
    energy, m0, M1 = interpolant_moments(e.law)
    n = len(e.law.V)
    rounding = 64 * n * np.finfo(float).eps      # float sums of n terms of size <= 1
    check.compare({**p, "quantity": "interpolant: int psi'^2 vs E"}, lhs=energy, relation="==", rhs=e.value,
                  tol=rounding * e.value, route="the interpolant's energy vs the minimiser's value")
    check.compare({**p, "quantity": "interpolant: int psi^2 vs 1 - E/6"}, lhs=m0, relation="==",
                  rhs=1 - e.value / 6, tol=rounding, route="the interpolant's mass vs 1 - E/6")
    check.compare({**p, "quantity": "interpolant: int |x| psi^2 vs M + 1"}, lhs=M1, relation="<=", rhs=e.M + 1,
                  tol=rounding * e.M, route="the interpolant's first moment vs M + 1")
    check.compare({**p, "quantity": "2E vs the continuum minimum on the interpolant"}, lhs=2 * e.value,
                  relation=">=", rhs=2 * m0 * float(formulas.continuum_dirichlet_minimum.fp(M1 / m0)),
                  tol=rounding * e.value, route="2E >= 2 m0 c0/(2 (M1/m0)^2) (the continuum minimum, rescaled)")
    check.compare({**p, "quantity": "interpolation bound vs the rescaled continuum minimum"}, lhs=bound,
                  relation="==", rhs=2 * m0 * float(formulas.continuum_dirichlet_minimum.fp((e.M + 1) / m0)),
                  tol=rounding * bound, route="c0 (1 - E/6)^3/(M + 1)^2 vs 2 m0 c0/(2 ((M + 1)/m0)^2)")


def _lattice_rate(check, c0):
    Ms = RATE_M_QUICK if check.quick else RATE_M_FULL
    thetas = THETA_QUICK if check.quick else THETA_FULL
    rows, mins = [], []
    for M in Ms:
        vals = {th: M * M * lattice_minimum("symmetric", float(th), M).value for th in thetas}
        th_min = min(vals, key=vals.get)
        mins.append(mpmath.mpf(vals[th_min]))
        rows.append({"M": M, "theta_min": th_min, "M2_min_phi": fmt(vals[th_min], 14),
                     "remainder_times_M2": fmt((vals[th_min] - float(c0)) * M * M, 6)})
    ext = richardson([mpmath.mpf(1) / M for M in Ms], mins, [2, 4, 6])
    check.compare({"quantity": "lim M^2 min_theta phi_theta(M)"}, lhs=ext.value, relation="==", rhs=c0,
                  tol=ext.error + mpmath.mpf("1e-11"), route="Richardson in 1/M^2 vs 8|a1'|^3/27")
    p = fitted_exponent(Ms, [abs(m - c0) for m in mins])
    check.compare({"quantity": "rate exponent of c0 - M^2 min phi"}, lhs=p, relation="==", rhs=-2, tol="0.05",
                  route="fitted exponent of the remainder over the decades of M")
    check.finding(what="M^2 min_theta phi_theta(M) -> c0", c0=fmt(c0, 12), rows=rows,
                  extrapolated=fmt(ext.value, 13), error=fmt(ext.error, 2), exponent=fmt(p, 5))


@certificate("cstar.lower.lattice", scope="instance")
def lattice_minima_are_enclosed(cert):
    """At sample (theta, M): the lattice minimum enclosed between a dual certificate (a lower bound for
    every law at that mean absolute value) and the primal law's value, both in balls; the lower end
    decided above the interpolation bound (at the ball's largest M), and at theta = 0 the upper end
    decided below the bound without the interpolation's + 1 (its negative control).  Scope: instances."""
    with cert.precision(80):
        for th, M in ENCLOSURES:
            for kind in ("dirichlet", "symmetric"):
                sol = lattice_minimum(kind, float(th), M)
                enc = lattice_balls.minimum_enclosure(kind, sol.law, dual_certificate(kind, float(th), sol.lam))
                Mup = flint.arb(enc.M.upper())
                if kind == "dirichlet":      # the bound decreases in E: B(E) <= B(lower end)
                    lhs, bound = 2 * enc.lower, formulas.interpolation_bound.ball(enc.lower, Mup)
                    what = "2 x lower end >= c0 (1 - E/6)^3/(M + 1)^2"
                else:
                    lhs, bound = enc.lower, formulas.lattice_dirichlet_bound.ball(Mup)
                    what = "lower end of min J/2 >= c0/(M + 2)^2"
                verdict, detail = decide_ge(lhs, bound), {}
                if th == "0" and kind == "dirichlet":
                    ctl = decide_ge(2 * enc.upper, formulas.interpolation_bound.ball(enc.upper, Mup - 1))
                    verdict, detail = verdict_all([verdict, control_verdict(ctl)]), {"control": ctl}
                cert.record(f"{kind} minimum, theta = {th}, M = {M}",
                            f"[dual, primal] enclosure of the lattice minimum; {what}", enc.ball, verdict,
                            bound=bound, consistent=enc.verdict, **detail)


@certificate("cstar.lower.lattice", scope="claim")
def interpolation_bound_gives_shift_two(cert):
    """(1 - c0 y^2/12)^3 - (1 - y)^2 = y Q(y) with Q > 0 on [0, 1/2] (branch and bound): at y =
    1/(M + 2), c0/(M + 2)^2 satisfies the interpolation bound, so 2E >= c0/(M + 2)^2 for every M >= 0."""
    with cert.precision(64):
        res = certify_interpolation_margin(max_boxes=4000)
        cert.record("Q(y) > 0 on [0, 1/2]", "the interpolation bound implies 2E >= c0/(M+2)^2 for every M >= 0",
                    None, res.verdict, boxes=res.boxes)


def _record_ground_state(cert):
    """(8) by ground-state substitution (lower-bound.md, step 4): a1 < a1' in disjoint balls, so
    phi = Ai(k^(1/3)|x| + a1') > 0 on the real line; the best k in exact arithmetic; the maximum
    c0/2 at mean absolute value 1 (countdp.arb.airy_groundstate)."""
    res = airy_groundstate.certify_ground_state(prec=96 if cert.quick else 128)
    for item in res.items():
        cert.record(**item)


@certificate("cstar.lower.lattice", scope="claim")
def continuum_minimum_by_ground_state(cert):
    """The ingredients of (8), int psi'^2 >= c0/(2 M^2) at mean absolute value M: certified."""
    _record_ground_state(cert)


def _zeros_swapped():
    a1, a1p = _CERTIFIED_ZEROS()
    return a1p, a1


_CERTIFIED_ZEROS = airy_groundstate.certified_zeros

FAULTS += [
    fault("cstar.lower.lattice", "a1 and a1' swapped (the ground state Ai(|x| + a1) vanishes)", "swapped arguments",
          set_attribute(airy_groundstate, "certified_zeros", _zeros_swapped)),
    fault("cstar.lower.lattice", "interpolation bound over M^2 (its + 1 dropped)", "shift dropped",
          offset_argument(formulas.interpolation_bound, "M", -1)),
    fault("cstar.lower.lattice", "8|a1'|^3/27 off by 0.1 %", "constant", scale(formulas.airy_limit_constant, "1.001")),
    fault("cstar.lower.lattice", "(1 - E/6) for (1 - E/6)^3 in the interpolation bound", "exponent",
          replace_body(formulas.interpolation_bound, lambda ctx, E, M, a1p=None:
                       formulas.airy_limit_constant.body(ctx, a1p) * (1 - ctx.convert(E) / 6)
                       / ((ctx.convert(M) + 1) * (ctx.convert(M) + 1)))),
    fault("cstar.lower.lattice", "c0/(M + 2) for c0/(M + 2)^2", "exponent",
          replace_body(formulas.lattice_dirichlet_bound, lambda ctx, M, a1p=None:
                       formulas.airy_limit_constant.body(ctx, a1p) / (ctx.convert(M) + 2))),
    fault("cstar.lower.lattice", "Dirichlet site weight with e^{u0} for e^{u0/2}", "factor",
          replace_body(formulas.dirichlet_site_gradient, lambda ctx, u0, u1:
                       -ctx.expm1(ctx.convert(u0)) - ctx.expm1(-ctx.convert(u1) / 2))),
]


# =============================================================================================
# step 5: mixing the fibres (Jensen)
# =============================================================================================

#: step 5: the mixed bound sum nu l(M_theta) stands in this relation to l(sum nu M_theta)
JENSEN_RELATION = ">="


def _l(M):
    return formulas.lattice_dirichlet_bound(M)


@claim("cstar.lower.jensen", routes=[
    "l(M) = c0/(M + 2)^2 by central differences (mpmath) against l' = -2 c0/(M + 2)^3 < 0 and "
    "l'' = 6 c0/(M + 2)^4 > 0",
    "random mixtures of lattice fibres (seeded; theta, M and weights drawn), each at its exact Dirichlet "
    "minimum: sum nu 2E_theta(M_theta) >= sum nu l(M_theta) >= l(sum nu M_theta)",
    "one-lattice mixtures against the lattice value function at the mixture mean (itself convex): "
    "sum nu 2E_theta(M_i) >= 2E_theta(sum nu M_i)",
])
def jensen(check):
    c0 = _c0()
    for M in JENSEN_M:
        M = mpmath.mpf(M)
        h = M * mpmath.mpf("1e-4")
        lm, l0, lp = _l(M - h), _l(M), _l(M + h)
        check.compare({"M": fmt(M, 4), "quantity": "l'"}, lhs=(lp - lm) / (2 * h), relation="==",
                      rhs=-2 * c0 / (M + 2) ** 3, tol=mpmath.mpf("1e-7") * 2 * c0 / (M + 2) ** 3,
                      route="central difference vs -2 c0/(M+2)^3 (< 0: decreasing)")
        check.compare({"M": fmt(M, 4), "quantity": "l''"}, lhs=(lp - 2 * l0 + lm) / h ** 2, relation="==",
                      rhs=6 * c0 / (M + 2) ** 4, tol=mpmath.mpf("1e-6") * 6 * c0 / (M + 2) ** 4,
                      route="second difference vs 6 c0/(M+2)^4 (> 0: convex)")
    spread = None
    for i in range(JENSEN_MIXTURES_QUICK if check.quick else JENSEN_MIXTURES_FULL):
        spread = _mixture_cases(check, i, same_lattice=(i % 2 == 1)) or spread
    nu, Ms = spread
    check.control("Jensen reversed: l(sum nu M) >= sum nu l(M) on the most spread mixture",
                  lhs=_l(mixture_value(nu, Ms)), relation=">=", rhs=mixture_value(nu, [_l(M) for M in Ms]),
                  tol=working_precision(5))


def _mixture_cases(check, i, same_lattice: bool):
    rng = check.rng("mixture", i)
    k = int(rng.integers(2, 6))
    thetas = np.full(k, rng.choice(THETA_QUICK)) if same_lattice else rng.choice(THETA_FULL, size=k)
    Ms = np.exp(rng.uniform(0, math.log(900), size=k))     # M in [1, 900]
    nu = rng.dirichlet(np.ones(k))
    sols = [lattice_minimum("dirichlet", float(th), float(M)) for th, M in zip(thetas, Ms)]
    Ms = [s.M for s in sols]
    p = {"mixture": i, "fibres": k, "theta": ",".join(str(t) for t in thetas)}
    total = mixture_value(nu, [2 * s.value for s in sols])
    fibre_bound = mixture_value(nu, [_l(M) for M in Ms])
    Mbar = mixture_value(nu, Ms)
    check.compare({**p, "quantity": "fibre bounds"}, lhs=total, relation=">=", rhs=fibre_bound, tol=1e-14,
                  route="sum nu 2E_theta(M_theta) >= sum nu l(M_theta)")
    check.compare({**p, "quantity": "Jensen"}, lhs=fibre_bound, relation=JENSEN_RELATION, rhs=_l(Mbar), tol=1e-15,
                  route="sum nu l(M_theta) >= l(sum nu M_theta)")
    if same_lattice:
        at_mean = 2 * lattice_minimum("dirichlet", float(thetas[0]), Mbar).value
        check.compare({**p, "quantity": "value function"}, lhs=total, relation=">=", rhs=at_mean, tol=1e-12 * at_mean,
                      route="sum nu 2E(M_i) >= 2E(sum nu M_i) (convex value function)")
    return (list(nu), Ms) if max(Ms) / min(Ms) > 10 else None


@certificate("cstar.lower.jensen", scope="claim")
def bound_is_convex_and_decreasing(cert):
    """With y = 1/(M + 2) in (0, 1/2]: l = c0 y^2, l' = -2 c0 y^3, l'' = 6 c0 y^4, so l is decreasing
    and convex on [0, inf) exactly when c0 > 0 (c0 at the certified a1')."""
    with cert.precision(64):
        c0 = certified_limit_constant()
        cert.record("c0 > 0", "l' = -2 c0 y^3 < 0 and l'' = 6 c0 y^4 > 0 for y = 1/(M+2) > 0", c0, decide_gt(c0, 0))


FAULTS += [
    fault("cstar.lower.jensen", "Jensen's inequality reversed", "inequality", set_attribute(__name__, "JENSEN_RELATION", "<=")),
    fault("cstar.lower.jensen", "c0/(M + 2) for c0/(M + 2)^2", "exponent",
          replace_body(formulas.lattice_dirichlet_bound, lambda ctx, M, a1p=None:
                       formulas.airy_limit_constant.body(ctx, a1p) / (ctx.convert(M) + 2))),
    fault("cstar.lower.jensen", "c0/(M - 2)^2 for c0/(M + 2)^2", "sign",
          replace_body(formulas.lattice_dirichlet_bound, lambda ctx, M, a1p=None:
                       formulas.airy_limit_constant.body(ctx, a1p) / (ctx.convert(M) - 2) ** 2)),
]


# =============================================================================================
# step 6: the assembled bound
# =============================================================================================

Q_GRID = ["0.5", "0.9", "0.99"]
EPS_GRID = ["0.05", "0.1", "0.2", "0.5", "1", "2"]
LIMIT_AT = ("0.1", "0.5", "0.9")                       # (r, eps, q) of the N -> inf check


def best_finite_bound(N, r):
    """max over the (q, eps) grid of the assembled bound on v(N + 1) (prior mean excess eps N)."""
    best = None
    for q in Q_GRID:
        for eps in EPS_GRID:
            excess = mpmath.mpf(eps) * N
            rho = excess / (excess + 3)
            b = formulas.assembled_bound(N, r, mpmath.mpf(q), rho)
            if best is None or b > best[0]:
                best = (b, q, eps)
    return best


def limit_schedule(r):
    """(eps, q) for the bound's r -> 0 limit: eps = (9 r^2/(2 c0))^(1/3), q = 1 - r."""
    r = mpmath.mpf(r)
    return mpmath.cbrt(9 * r * r / (2 * formulas.airy_limit_constant())), 1 - r


def bound_limit(r, a1p=None):
    """The bound's N -> inf limit at r on the schedule, with guard digits: kappa(q) at q = 1 - r loses
    about 2 log10(1/r) digits to cancellation."""
    with mpmath.workdps(mpmath.mp.dps + 30):
        eps, q = limit_schedule(r)
        val = formulas.assembled_limit(r, eps, q, a1p)
    return +val


@claim("cstar.lower.assembled", routes=[
    "r^2 N^2 v(N + 1) of three admissible mechanisms (their own budgets: the Gaussian's closed form, the Airy "
    "law's tight-rho scan, log-Laplace's eps_n^2/2) against r^2 N^2 times the best finite-N bound",
    "r^2 N^2 times the finite-N bound along N -> inf against the closed-form limit "
    "kappa(q) c0/(1 + eps)^2 - 9 r^2/(2 eps^2) (remainder O(log N / N), its exponent fitted)",
    "the limit along r -> 0 (eps = (9 r^2/(2 c0))^(1/3), q = 1 - r), Richardson in r^(1/3), against m^2 I/2 from "
    "quadrature of the Airy density",
    "the Airy mechanism's limit coefficient r^2 I/(2 b^2) (calibrated b, quadrature I) above the bound's limit",
])
def assembled(check):
    r = mpmath.mpf(MECHANISM[2])
    for name, mech in mechanisms():
        for N in (ASSEMBLED_N_QUICK if check.quick else ASSEMBLED_N_FULL):
            b, q, eps = best_finite_bound(N, r)
            v = mpmath.mpf(mech.v(N + 1))
            check.compare({"mechanism": name, "N": N, "q": q, "eps": eps}, lhs=r * r * N * N * v, relation=">=",
                          rhs=r * r * N * N * b, tol=0, route="r^2 N^2 v(N+1) >= r^2 N^2 x the finite-N bound")
    _n_limit_cases(check)
    quad = airy.airy_constants_by_quadrature()
    ext = _r_limit_cases(check, quad)
    upper = _upper_cases(check, quad)
    L6 = bound_limit(mpmath.mpf("1e-6"), a1p=-mpmath.cbrt(27 / (8 * mpmath.pi)))
    check.control("the bound with 1/pi (the Gaussian's constant) in place of 8|a1'|^3/27 holds for the Airy "
                  "mechanism at r = 1e-6", lhs=upper[mpmath.mpf("1e-6")], relation=">=", rhs=L6, tol=0)
    check.slack(f"bound's r -> 0 limit {fmt(ext.value, 12)} (bar {fmt(ext.error, 2)}) vs m^2 I/2 = "
                f"{fmt(quad.m2I_half, 12)}; at r = 1e-6 the bound's limit is {fmt(bound_limit('1e-6'), 8)} and the "
                f"Airy mechanism's {fmt(upper[mpmath.mpf('1e-6')], 8)}")


def _n_limit_cases(check):
    r, eps, q = (mpmath.mpf(x) for x in LIMIT_AT)
    target = formulas.assembled_limit(r, eps, q)
    Ns = [mpmath.mpf(10) ** k for k in (6, 8, 10, 12, 14)]
    rem = []
    for N in Ns:
        excess = eps * N
        val = r * r * N * N * formulas.assembled_bound(N, r, q, excess / (excess + 3))
        rem.append(abs(val - target))
        check.compare({"N": fmt(N, 3), "r": LIMIT_AT[0], "eps": LIMIT_AT[1], "q": LIMIT_AT[2]}, lhs=val, relation="==",
                      rhs=target, tol=200 * mpmath.log(N) / N, route="r^2 N^2 x bound(N) -> the closed-form limit")
    p = fitted_exponent(Ns, rem)
    check.compare({"quantity": "exponent of the N-remainder"}, lhs=p, relation="==", rhs=-1, tol="0.1",
                  route="remainder ~ log N / N")


def _r_limit_cases(check, quad):
    rs = [mpmath.mpf(10) ** -k for k in (R_LIMIT_QUICK if check.quick else R_LIMIT_FULL)]
    vals = [bound_limit(r) for r in rs]
    ext = richardson([mpmath.cbrt(r) for r in rs], vals, [2, 3, 4, 5, 6])
    check.compare({"quantity": "lim_{r->0} of the bound"}, lhs=ext.value, relation="==", rhs=quad.m2I_half,
                  tol=ext.error + quad.m2I_half * mpmath.mpf("1e-20"),
                  route="Richardson in r^(1/3) vs m^2 I/2 (quadrature of the Airy density)")
    p = fitted_exponent(rs, [quad.m2I_half - v for v in vals])
    check.compare({"quantity": "exponent of c0 - bound"}, lhs=p, relation="==", rhs=mpmath.mpf(2) / 3, tol="0.05",
                  route="the bound approaches c0 like r^(2/3)")
    check.finding(what="the bound's limit along r -> 0", rows=[{"r": fmt(r, 2), "bound_limit": fmt(v, 12)}
                                                               for r, v in zip(rs, vals)])
    return ext


def airy_coefficient(r, fisher):
    """r^2 I/(2 b^2): the Airy mechanism's lim_n r^2 n^2 v(n) at r (r0 = r(1 - r), c = r)."""
    r = mpmath.mpf(r)
    b = AiryLogMechanism(r * (1 - r), r, r=r).mp_b()
    return r * r * fisher / (2 * b * b)


def _upper_cases(check, quad):
    out = {}
    for k in (R_UPPER_QUICK if check.quick else R_UPPER_FULL) + [6]:
        r = mpmath.mpf(10) ** -k
        if r in out:
            continue
        out[r] = airy_coefficient(r, quad.fisher)
        check.compare({"r": fmt(r, 2)}, lhs=out[r], relation=">=", rhs=bound_limit(r), tol=0,
                      route="Airy mechanism's r^2 I/(2 b^2) >= the bound's limit at r")
    return out


@certificate("cstar.lower.assembled", scope="instance")
def gaussian_mechanism_is_above_the_bound(cert):
    """The paper's mechanism's budget v(N + 1) (closed form in balls) decided above the finite-N bound
    (in balls, at the grid's best q and eps) at the check's N.  Scope: an instance of the bound."""
    r0, c, r = MECHANISM
    with cert.precision(96):
        s = formulas.sigma.ball(r0, c)
        for N in (ASSEMBLED_N_QUICK if cert.quick else ASSEMBLED_N_FULL):
            with mpmath.workdps(30):
                _, q, eps = best_finite_bound(N, mpmath.mpf(r))
            excess = Fraction(eps) * N
            bound = formulas.assembled_bound.ball(N, r, q, excess / (excess + 3))
            v = formulas.budget.ball(N + 1, s, c)
            cert.record(f"Gaussian v({N + 1}) >= bound", f"v(N+1) >= the assembled bound at q = {q}, eps = {eps}",
                        v, decide_ge(v, bound), bound=bound)


FAULTS += [
    fault("cstar.lower.assembled", "prior divergence bound halved", "factor", scale(formulas.prior_shift_kl_bound, "0.5")),
    fault("cstar.lower.assembled", "the bound's limit without its 1/(1 + eps)^2", "dropped term",
          replace_body(formulas.assembled_limit, lambda ctx, r, eps, q, a1p=None:
                       formulas.one_sided_constant.body(ctx, q) * formulas.airy_limit_constant.body(ctx, a1p)
                       - 9 * ctx.convert(r) ** 2 / (2 * ctx.convert(eps) ** 2))),
    fault("cstar.lower.assembled", "8|a1'|^3/27 off by 0.1 %", "constant", scale(formulas.airy_limit_constant, "1.001")),
    fault("cstar.lower.assembled", "the prior's divergence added instead of subtracted", "sign",
          wrap_body(formulas.assembled_bound, lambda ctx, f, N, r, q, rho, a1p=None:
                    f(ctx, N, r, q, rho, a1p) + 2 * formulas.prior_shift_kl_bound.body(ctx, rho))),
]


# =============================================================================================
# the value
# =============================================================================================

#: what C* = c0 rests on, step by step (experiments/cstar/lower-bound.md, "The value", and the upper
#: bound assembled in experiments/cstar/README.md): (kind, step, how)
STEPS = [
    ("proved", "(1)-(5), (9), (10), (12)-(14): coupling, fibres, crossing, Jensen, assembly",
     "by hand; each checked by its claim cstar.lower.*"),
    ("certified", "(6), (7): the pointwise inequalities", "proved by hand, certified over the whole range "
     "(cstar.lower.dirichlet)"),
    ("certified", "(8): the continuum minimum c0/(2 M^2)", "proved by ground-state substitution; its "
     "ingredients certified (a1 < a1' in disjoint balls, Ai > 0 on [a1', inf), the best k exactly)"),
    ("certified", "(11): Q > 0 on [0, 1/2]", "proved by hand, certified by branch and bound"),
    ("certified", "c0 inside (pi/(4e^2), 1/pi)", "Arb enclosure of a1'"),
    ("proved", "upper end: utility, a nonincreasing budget, n^2 v(n) -> I/(2b^2)", "by hand (U1-U4)"),
    ("certified", "upper end: K_s(u) < I u^2/2 for every u", "computer-assisted (cstar.airy.subgaussian)"),
    ("certified", "upper end: b(rho)/rho -> 1/m", "proved with an explicit remainder (U5), certified at the "
     "checked rho (cstar.airy.limit)"),
]


@claim("cstar.value", routes=[
    "lower end: the assembled bound's limit along r -> 0, extrapolated",
    "upper end: the Airy mechanism's coefficient r^2 I/(2 b^2) along r -> 0, extrapolated",
    "the lattice: M^2 min_theta phi_theta(M) extrapolated in 1/M^2",
    "m^2 I/2 by quadrature of the Airy density, and the closed form 8|a1'|^3/27",
])
def value(check):
    quad = airy.airy_constants_by_quadrature()
    c0 = _c0()
    check.compare({"quantity": "8|a1'|^3/27 vs m^2 I/2"}, lhs=c0, relation="==", rhs=quad.m2I_half,
                  tol=working_precision(8), route="closed form vs quadrature")
    ks = R_UPPER_QUICK if check.quick else R_UPPER_FULL
    rs = [mpmath.mpf(10) ** -k for k in ks]
    up = [airy_coefficient(r, quad.fisher) for r in rs]
    lo_rs = [mpmath.mpf(10) ** -k for k in (R_LIMIT_QUICK if check.quick else R_LIMIT_FULL)]
    lo = [bound_limit(r) for r in lo_rs]
    for r, u in zip(rs, up):
        check.compare({"r": fmt(r, 2)}, lhs=bound_limit(r), relation="<=", rhs=u, tol=0,
                      route="lower end <= upper end at every r")
    ext_up = richardson(rs, up, [1, 2, 3])
    ext_lo = richardson([mpmath.cbrt(r) for r in lo_rs], lo, [2, 3, 4, 5, 6])
    for name, ext in (("upper end", ext_up), ("lower end", ext_lo)):
        check.compare({"quantity": name}, lhs=ext.value, relation="==", rhs=quad.m2I_half,
                      tol=ext.error + working_precision(8), route=f"{name} extrapolated vs m^2 I/2")
    lat = _lattice_value(check)
    check.compare({"quantity": "lattice"}, lhs=lat.value, relation="==", rhs=quad.m2I_half,
                  tol=lat.error + mpmath.mpf("1e-11"), route="lattice minima extrapolated vs m^2 I/2")
    check.control("C* = 1/pi (the paper's upper end)", lhs=ext_up.value, relation="==", rhs=1 / mpmath.pi,
                  tol=ext_up.error + working_precision(8))
    check.control("C* = pi/(4 e^2) (the paper's lower end)", lhs=ext_lo.value, relation="==",
                  rhs=mpmath.pi / (4 * mpmath.e ** 2), tol=ext_lo.error + working_precision(8))
    for kind, step, how in STEPS:
        check.step(step, kind, how)
    check.slack(f"C* = {fmt(quad.m2I_half, 15)}: upper end {fmt(ext_up.value, 15)} (bar {fmt(ext_up.error, 2)}), "
                f"lower end {fmt(ext_lo.value, 12)} (bar {fmt(ext_lo.error, 2)}), lattice {fmt(lat.value, 12)}")
    check.note("the extrapolated agreements of both ends and of the lattice route with m^2 I/2 are "
               "corroboration, not steps of the argument: the steps are listed with what each rests on")


def _lattice_value(check):
    Ms = RATE_M_QUICK if check.quick else RATE_M_FULL
    mins = [min(M * M * lattice_minimum("symmetric", float(th), M).value for th in THETA_QUICK) for M in Ms]
    return richardson([mpmath.mpf(1) / M for M in Ms], [mpmath.mpf(v) for v in mins], [2, 4, 6])


@certificate("cstar.value", scope="instance")
def value_inside_the_bracket(cert):
    """c0 = 8|a1'|^3/27 at the certified a1' lies strictly inside the paper's bracket (pi/(4e^2), 1/pi).
    Scope: an instance (the value is certified; that it is C* rests on the steps above)."""
    with cert.precision(96):
        c0 = certified_limit_constant()
        lo, hi = flint.arb.pi() / (4 * flint.arb(1).exp() ** 2), 1 / flint.arb.pi()
        cert.record("pi/(4e^2) < c0 < 1/pi", "the value lies inside the paper's bracket", c0,
                    verdict_all([decide_gt(c0, lo), decide_lt(c0, hi)]))


@certificate("cstar.value", scope="claim")
def continuum_minimum_of_the_value(cert):
    """Step (8) of the lower end, certified as for cstar.lower.lattice."""
    _record_ground_state(cert)


FAULTS += [
    fault("cstar.value", "a1 and a1' swapped (the ground state Ai(|x| + a1) vanishes)", "swapped arguments",
          set_attribute(airy_groundstate, "certified_zeros", _zeros_swapped)),
    fault("cstar.value", "8|a1'|^3/27 off by 0.1 %", "constant", scale(formulas.airy_limit_constant, "1.001")),
    fault("cstar.value", "8|a1'|^2/27 for 8|a1'|^3/27", "exponent",
          wrap_body(formulas.airy_limit_constant, lambda ctx, f, a1p=None:
                    f(ctx, a1p) / abs(formulas.airy_prime_zero.body(ctx) if a1p is None else ctx.convert(a1p)))),
    fault("cstar.value", "the value 1/pi (the Gaussian's constant)", "other",
          replace_body(formulas.airy_limit_constant, lambda ctx, a1p=None: 1 / ctx.pi)),
]


def figures(settings):
    """This script's figures (made by figures/cstar_lower_lattice.py)."""
    return plots.make(settings, airy_coefficient, bound_limit)


if __name__ == "__main__":
    from countdp.harness.cli import script_main

    raise SystemExit(script_main(__file__))
