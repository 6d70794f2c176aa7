"""Section 7 of the paper: why the unequal-variance Gaussian fails.  Claims lem7.1, sec7.boundary, eq35.

Lemma 7.1: for Gaussians P = N(mu_P, s_P^2), Q = N(mu_Q, s_Q^2) and alpha > 1, D_alpha(P || Q) is
finite iff alpha s_Q^2 + (1 - alpha) s_P^2 > 0 (eq 34), infinite at equality.  For the tempting
mechanism X_n ~ N(n, r^2 n^2) (eq 33), the boundary edge has X_0 = delta_0 and D_alpha(X_1||X_0) =
inf at every order, and the reverse divergence D_alpha(X_{n+1} || X_n) is finite iff
alpha < (n+1)^2/(2n+1) (eq 35).  The shifted log-Gaussian mechanism (equal variances in log
space) stays finite at the same orders.

Routes: the closed form of the two-Gaussian divergence, the divergence engine's quadrature of
the densities (renyi(..., method="quadrature"), never the closed form), and truncated Renyi
integrals over [-T, T] computed from the densities, with rigorous bounds: a convex sandwich
that grows with T at and above the threshold, a concave tail remainder below it.
The threshold of eq (35) is located by bisection on the sign of the quadratic coefficient of
log(p^alpha q^(1-alpha)) measured from the two log-densities -- independent of the algebra of
eq (35), but resting on the integrability criterion of Lemma 7.1 (checked in lem7.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
from flint import fmpq, fmpq_mpoly, fmpq_mpoly_ctx

from countdp import formulas
from countdp.arb.gaussian_integrals import divergence_growth, gaussian_mass_above, gaussian_renyi_enclosure
from countdp.arb.ranges import RangeResult, tally
from countdp.arb.verdicts import (Verdict, ball_str, control_verdict, decide_contains, decide_gt, to_arb,
                                  to_fmpq, verdict_all)
from countdp.divergence import truncation
from countdp.divergence.atoms import indicator_pushforward, renyi_atoms
from countdp.divergence.renyi import gaussian_renyi, renyi
from countdp.harness.claims import certificate, claim
from countdp.harness.faults import fault, replace_body, set_attribute, swap_arguments
from countdp.harness.results import fmt
from countdp.laws import Gaussian, PointMass, moments
from countdp.mechanisms import ShiftedLogGaussian
from countdp.mechanisms.unequal_variance import UnequalVarianceGaussian
from countdp.numerics.contexts import Context
from countdp.numerics.rational import mpf_at_least, mpf_below, to_fraction

from _common import PREC, ENCLOSED
from figures import sec7_unequal_variance as plots

TITLE = "Section 7: the unequal-variance Gaussian fails the definition (Lemma 7.1, eq 35)"
FAULTS = []  # the fault catalogue: each claim block below adds its own faults

# (label, mu_P, s_P, mu_Q, s_Q); s_P^2 - s_Q^2 divides a power of two times s_P^2, so the
# threshold s_P^2/(s_P^2 - s_Q^2) is a dyadic rational: exactly representable, so "at the
# threshold" is exactly at it.
PAIRS_QUICK = [("A", 0, 5, 1, 3), ("D", 0, 1, 1, 2)]
PAIRS_FULL = PAIRS_QUICK + [("B", Fraction(1, 2), 3, 0, 1), ("C", 1, Fraction(17, 8), -1, Fraction(15, 8))]
R = Fraction(1, 2)                         # the tolerance r of X_n ~ N(n, r^2 n^2)
N_BISECT_QUICK = [1, 2, 3, 4, 5, 7, 10, 20, 50, 100, 200, 500, 1000]
N_ENGINE_QUICK = [1, 1000]
N_ENGINE_FULL = [1, 2, 3, 10, 100, 1000]
CONVERGED = mpmath.mpf("1e-20")           # "the truncated integrals have converged": R(T)/I(T) <= this


def _mp(x):
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def _gauss(mu, s):
    return Gaussian(_mp(mu), _mp(s))


def _windows(P, Q, alpha, quick):
    """A sequence of truncation windows T: from a multiple of the laws' scales, growing by 4x,
    and (where the integrand has an interior peak) reaching 40 peak widths beyond the peak."""
    scales = [abs(L.mu) + 8 * L.s for L in (P, Q)]
    t0 = max(scales)
    ts = [t0 * 4 ** j for j in range(3 if quick else 4)]
    quad = truncation.quadratic_coefficient(P, Q, alpha)
    if quad.integrable:
        reach = abs(quad.b / (2 * quad.k)) + 40 / mpmath.sqrt(2 * quad.k)
        if reach > ts[-1]:
            ts.append(reach)
    return ts


def _mech(r):
    return ShiftedLogGaussian(float(r) / 2, 1.0, r=float(r))


def _location_rounding(M, n, value):
    """The part of a divergence's error that no quadrature estimate sees: the released laws at n
    and n+1 carry log-space means mu = log(n + c) - sigma^2 rounded to working precision, and D
    scales like (mu_{n+1} - mu_n)^2, so its relative error is up to 2 x (2 ulps of |mu|) / |gap|;
    16 ulps are allowed for the logarithm itself.  (At n = 1000, dps 30 this is ~1e-27 relative.)"""
    mu1, mu0 = M.log_mean(n + 1), M.log_mean(n)
    return abs(value) * 16 * mpmath.eps * max(abs(mu1), abs(mu0)) / abs(mu1 - mu0)


# --------------------------------------------------------------------------------------------


@dataclass
class _Lemma71Tally:
    """What the lem7.1 cases accumulate for the summary comparisons and the controls."""

    total: int = 0
    agree: int = 0
    disagree_swapped: int = 0
    worst_finite: mpmath.mpf = field(default_factory=lambda: mpmath.mpf(0))
    growth_notes: list = field(default_factory=list)
    at_threshold: tuple | None = None


def eq34_finite(margin) -> bool:
    """Lemma 7.1's criterion as the paper states it: D_alpha(P || Q) < inf iff the margin
    alpha s_Q^2 + (1 - alpha) s_P^2 of eq (34) is positive; at 0 (the threshold itself) the
    divergence is infinite too."""
    return margin > 0


BESIDE = Fraction(1, 2**40)  # "just beside" the threshold: alpha* (1 -+ 2^-40), dyadic like alpha*


def _orders(a_star, quick):
    """The orders tried for a pair: around the exact threshold alpha* when s_P > s_Q (below, at,
    above), else (``a_star`` None) a spread of orders (finite at every one); exact rationals."""
    if a_star is None:
        return ([Fraction(2), Fraction(100)] if quick else
                [Fraction(2), Fraction(10), Fraction(100), Fraction(10**4)])
    assert to_fraction("a*", _mp(a_star)) == a_star  # dyadic: exact in mpf
    fr_below = ["1/2"] if quick else ["1/2", "9/10"]
    fr_above = ["2"] if quick else ["5/4", "2"]
    return ([1 + (a_star - 1) * Fraction(f) for f in fr_below] + [a_star]
            + [a_star * Fraction(f) for f in fr_above])


@claim("lem7.1", routes=[
    "closed form of the two-Gaussian divergence (eq 34 criterion and value)",
    "divergence engine: mpmath quadrature of p^alpha q^(1-alpha) from the densities with its tail "
    "analysis (renyi(..., method='quadrature'))",
    "truncated integrals I(T) over [-T, T] from the densities: concave tail remainder below the "
    "threshold; convex sandwich e^{g(T)}(1-e^{-2Tg'(T)})/g'(T) <= I(T) <= 2T e^{max g(+-T)} at and above",
    "quadratic coefficient of log(p^alpha q^(1-alpha)) from second differences of the log-densities",
    "exact rational margin of eq (34) at the threshold s_P^2/(s_P^2 - s_Q^2) and 2^-40 beside it",
])
def unequal_gaussians(check):
    t = _Lemma71Tally()
    for pair in (PAIRS_QUICK if check.quick else PAIRS_FULL):
        label, mu_p, s_p, mu_q, s_q = pair
        P, Q = _gauss(mu_p, s_p), _gauss(mu_q, s_q)
        a_star = None
        if Fraction(s_p) ** 2 > Fraction(s_q) ** 2:
            a_star = formulas.gaussian_renyi_threshold.exact(s_p, s_q)
            _at_and_beside_the_threshold(check, pair, a_star)
        for alpha_q in _orders(a_star, check.quick):
            alpha = _mp(alpha_q)
            _lemma71_case(check, t, pair, alpha_q)
            if a_star is not None and alpha_q == a_star and t.at_threshold is None:
                t.at_threshold = (label, P, Q, alpha, _windows(P, Q, alpha, check.quick)[-1])
    check.compare({"cases": f"{t.total} (pair, alpha)"}, lhs=t.total - t.agree, relation="==", rhs=0, tol=0,
                  route="eq (34) predicts the engine's finite/infinite verdict: number of disagreements")
    check.note("at and above the threshold the sandwich pins log I(T) to max g(+-T) within log(2T) + "
               "|log g'(T)|, so it grows like -k T^2 (k < 0 above) or like b T (k = 0 at the threshold): "
               + " | ".join(t.growth_notes))
    # negative controls
    label, P, Q, alpha, T = t.at_threshold
    logI = truncation.truncated_renyi_integral(P, Q, alpha, T).value
    rem = truncation.tail_remainder(P, Q, alpha, T)
    check.control(f"finite at the threshold itself (pair {label}, alpha = s_P^2/(s_P^2 - s_Q^2) = "
                  f"{fmt(alpha, 8)}): the truncated integrals have converged",
                  lhs=rem / mpmath.exp(logI), relation="<=", rhs=CONVERGED,
                  detail=f"no tail remainder exists at the threshold (g is linear, increasing outward): "
                         f"R(T)/I(T) = {fmt(rem / mpmath.exp(logI))}; log I(T) = {fmt(logI, 8)} at T = {fmt(T, 6)}")
    check.control("eq (34) with the roles of P and Q swapped (alpha s_P^2 + (1-alpha) s_Q^2 > 0) predicts the "
                  "engine's verdicts (number of disagreements)", lhs=t.disagree_swapped, relation="==", rhs=0,
                  tol=0, detail=f"{t.disagree_swapped} of {t.total} verdicts disagree with the engine (eq (34) "
                                f"itself: {t.total - t.agree})")
    check.slack(f"finite side: worst |route - closed| = {fmt(t.worst_finite, 3)}; infinite side: log I(T) "
                f"sandwiched and increasing at every T; eq (34) agreed with the engine's finite/inf verdict in "
                f"{t.agree} cases; at alpha* (1 -+ 2^-40) the exact margin and the densities' quadratic "
                f"coefficient change sign together")


def _at_and_beside_the_threshold(check, pair, a_star):
    """At alpha* = s_P^2/(s_P^2 - s_Q^2) the exact margin of eq (34) is 0; at alpha* (1 -+ 2^-40)
    eq (34)'s verdict (finite, infinite) is the sign of the quadratic coefficient measured from
    the densities, and the engine's tail analysis finds the divergence infinite just above.  (Just
    below, the engine's quadrature is slow and its error estimate is not reliable within ~10^-3 of
    alpha*: the finite side is compared from 1/2 of the way on, in _lemma71_case.)"""
    label, mu_p, s_p, mu_q, s_q = pair
    P, Q = _gauss(mu_p, s_p), _gauss(mu_q, s_q)
    pp = {"mu_P": mu_p, "s_P": s_p, "mu_Q": mu_q, "s_Q": s_q}
    check.compare({**pp, "alpha": a_star}, lhs=formulas.gaussian_renyi_margin.exact(a_star, s_p, s_q),
                  relation="==", rhs=0, tol=0,
                  route="eq (34) margin at alpha* = s_P^2/(s_P^2 - s_Q^2), exact rational")
    for where, alpha_q in (("2^-40 below", a_star * (1 - BESIDE)), ("at", a_star),
                           ("2^-40 above", a_star * (1 + BESIDE))):
        margin = formulas.gaussian_renyi_margin.exact(alpha_q, s_p, s_q)
        quad = truncation.quadratic_coefficient(P, Q, _mp(alpha_q))
        check.compare({**pp, "alpha": alpha_q}, lhs=int(eq34_finite(margin)), relation="==",
                      rhs=int(quad.integrable), tol=0,
                      route=f"{where} alpha*: eq (34) verdict from the exact margin vs the sign of the "
                            "quadratic coefficient from the densities (1 = finite)",
                      note=f"exact margin {float(margin):.3e}; k = {fmt(quad.k, 3)} (noise {fmt(quad.noise, 2)})")
    above = _mp(a_star * (1 + BESIDE))
    eng = renyi(P, Q, above, method="quadrature")
    check.compare({**pp, "alpha": above}, lhs=eng.value, relation="==", rhs=mpmath.inf,
                  route="engine's tail analysis 2^-40 above alpha*", note=eng.reason)


def _lemma71_case(check, t: _Lemma71Tally, pair, alpha_q):
    """One (pair, order): the proof's step (quadratic coefficient vs eq (34)), the verdicts, and
    the finite or the divergent side by every route."""
    label, mu_p, s_p, mu_q, s_q = pair
    P, Q, alpha = _gauss(mu_p, s_p), _gauss(mu_q, s_q), _mp(alpha_q)
    p = {"mu_P": mu_p, "s_P": s_p, "mu_Q": mu_q, "s_Q": s_q, "alpha": alpha}
    margin = formulas.gaussian_renyi_margin(alpha, P.s, Q.s)
    closed = gaussian_renyi(alpha, P.mu, P.s, Q.mu, Q.s)
    engine = renyi(P, Q, alpha, method="quadrature")
    quad = truncation.quadratic_coefficient(P, Q, alpha)
    # the proof's step: the quadratic coefficient times 2 s_P^2 s_Q^2 is the eq (34) quantity
    check.compare(p, lhs=2 * quad.k * P.s ** 2 * Q.s ** 2, relation="==", rhs=margin,
                  tol=2 * quad.noise * P.s ** 2 * Q.s ** 2 + 100 * mpmath.eps * (abs(margin) + 1),
                  route="quadratic coefficient from the densities x 2 s_P^2 s_Q^2 vs eq (34)")
    predicted = eq34_finite(formulas.gaussian_renyi_margin.exact(alpha_q, s_p, s_q))
    check.compare(p, lhs=int(predicted), relation="==", rhs=int(engine.finite), tol=0,
                  route="eq (34) verdict from the exact margin vs the engine's tail analysis (1 = finite)",
                  note=engine.reason)
    t.total += 1
    t.agree += int(predicted == engine.finite)
    swapped = eq34_finite(formulas.gaussian_renyi_margin.exact(alpha_q, s_q, s_p))
    t.disagree_swapped += int(swapped != engine.finite)
    if predicted:
        _finite_side(check, t, P, Q, alpha, p, closed, engine)
    else:
        _divergent_side(check, t, P, Q, alpha, p, closed, engine, label, quad)


def _finite_side(check, t, P, Q, alpha, p, closed, engine):
    check.compare(p, lhs=engine.value, relation="==", rhs=closed.value,
                  tol=engine.error + 100 * mpmath.eps * (abs(closed.value) + 1),
                  route="engine quadrature vs closed form")
    T = _windows(P, Q, alpha, check.quick)[-1]
    trunc = truncation.renyi_from_truncation(P, Q, alpha, T)
    logI = truncation.truncated_renyi_integral(P, Q, alpha, T).value
    rem = truncation.tail_remainder(P, Q, alpha, T) / mpmath.exp(logI)
    check.compare({**p, "T": T}, lhs=rem, relation="<=", rhs=CONVERGED,
                  route="truncated integrals converged: concave tail remainder R(T)/I(T)")
    check.compare({**p, "T": T}, lhs=trunc.value, relation="==", rhs=closed.value,
                  tol=trunc.error + 100 * mpmath.eps * (abs(closed.value) + 1),
                  route="truncated integral + remainder vs closed form")
    t.worst_finite = max(t.worst_finite, abs(engine.value - closed.value), abs(trunc.value - closed.value))


def _divergent_side(check, t, P, Q, alpha, p, closed, engine, label, quad):
    check.compare(p, lhs=closed.value, relation="==", rhs=mpmath.inf, route="closed form", note=closed.reason)
    check.compare(p, lhs=engine.value, relation="==", rhs=mpmath.inf, route="engine quadrature",
                  note=engine.reason)
    prev = None
    seq = []
    for T in _windows(P, Q, alpha, check.quick):
        logI = truncation.truncated_renyi_integral(P, Q, alpha, T)
        sandwich = truncation.truncated_bounds_convex(P, Q, alpha, T)
        tol = logI.error + sandwich.rounding
        check.compare({**p, "T": T}, lhs=sandwich.lower, relation="<=", rhs=logI.value, tol=tol,
                      route="convex sandwich, lower (tangent at an end)")
        check.compare({**p, "T": T}, lhs=logI.value, relation="<=", rhs=sandwich.upper, tol=tol,
                      route="convex sandwich, upper (2T e^{max g(+-T)})")
        if prev is not None:
            check.compare({**p, "T": T}, lhs=logI.value, relation=">", rhs=prev, tol=tol,
                          route="log I(T) increases with T")
        prev = logI.value
        seq.append((T, logI.value))
    t.growth_notes.append(f"{label} alpha={fmt(alpha, 6)} k={fmt(quad.k, 3)}: " + ", ".join(
        f"T={fmt(T, 4)}: log I={fmt(v, 6)}" for T, v in seq))


FINITE_CASES = [(2, 0, 1, 1, fmpq(6, 5)), (fmpq(3, 2), 0, 1, fmpq(1, 2), fmpq(4, 5)),
                (10, 1, 1, 0, 2), (fmpq(17, 10), 3, fmpq(3, 2), 2, 1)]       # (alpha, mu_P, s_P, mu_Q, s_Q)
DIVERGENT_CASES = [(3, 0, 2, 1, fmpq(3, 2)), (fmpq(9, 5), 3, fmpq(3, 2), 2, 1), (2, 2, 1, 1, fmpq(1, 2))]


@certificate("lem7.1", scope="instance")
def finite_side_integral_encloses_the_closed_form(cert):
    """Where the exact margin of eq (34) is positive, the certified integral of p^alpha
    q^(1-alpha) (tails by (Q+)) encloses exp((alpha - 1) D) of the closed form, and excludes the
    closed form without its log(s_Q^2/s_a^2) term (control)."""
    with cert.precision(PREC):
        for case in FINITE_CASES:
            enc = gaussian_renyi_enclosure(*case)
            with cert.precision(PREC + 64):
                al, mu_p, s_p, mu_q, s_q = map(to_arb, case)
                closed = formulas.gaussian_renyi_divergence.ball(al, mu_p, s_p, mu_q, s_q)
                closed_integral = ((al - 1) * closed).exp()
                s_a2 = formulas.gaussian_renyi_margin.ball(al, s_p, s_q)
                wrong = (s_q / s_p).log() + al * (mu_p - mu_q) ** 2 / (2 * s_a2)
            margin = formulas.gaussian_renyi_margin.exact(case[0], case[2], case[4])
            ctrl = decide_contains(enc.divergence, wrong)
            vd = verdict_all([decide_contains(enc.integral, closed_integral),
                              decide_contains(enc.divergence, closed),
                              Verdict.PROVED_TRUE if eq34_finite(margin) else Verdict.PROVED_FALSE,
                              control_verdict(ctrl)])
            cert.record("D_alpha(N(%s, (%s)^2)||N(%s, (%s)^2)), alpha=%s" % (case[1], case[2], case[3],
                                                                              case[4], case[0]),
                        "margin alpha s_Q^2 + (1-alpha) s_P^2 > 0 (exact); certified integral "
                        "of p^alpha q^(1-alpha) (tails (Q+)) encloses exp((alpha-1) D) with "
                        "the closed-form D; " + ENCLOSED + "; control: D without the "
                        "log(s_Q^2/s_a^2) term excluded", enc.integral, vd, D=ball_str(enc.divergence),
                        margin=str(margin), control=ctrl.value)


@certificate("lem7.1", scope="instance")
def divergent_side_truncations_grow(cert):
    """Where the exact margin of eq (34) is <= 0 the integrand is >= K exp(Bx + C) (so D = inf);
    certified lower bounds of truncated integrals exceed 10^j for j = 1..levels."""
    levels = 4 if cert.quick else 8
    with cert.precision(PREC):
        for case in DIVERGENT_CASES:
            res = divergence_growth(*case, levels=levels)
            last = res.extra.pop("last")
            cert.record("int_-T^T p^alpha q^(1-alpha) > 10^j, P=N(%s, (%s)^2), "
                        "Q=N(%s, (%s)^2), alpha=%s, j=1..%d"
                        % (case[1], case[2], case[3], case[4], case[0], levels),
                        "margin alpha s_Q^2 + (1-alpha) s_P^2 <= 0 (exact; = 0 is the eq 34 "
                        "threshold) so the integrand is >= K exp(Bx + C), whose integral over "
                        "R is infinite: D_alpha = inf; evidence: certified lower bounds of "
                        "the truncated integrals exceed 10^j at increasing T_j (listed in "
                        "the detail; a lower bound, so no enclosure is reported)",
                        None, res.verdict, boxes=res.boxes,
                        last_lower_bound=ball_str(last) if last is not None else "", **res.extra)


def _miscopied_divergence(log_ratio=1, spread=True, over_alpha_minus_1=True, mean_alpha=True):
    """A body for Lemma 7.1's divergence log(s_Q/s_P) + log(s_Q^2/s_a^2)/(2(alpha-1))
    + alpha (mu_P-mu_Q)^2/(2 s_a^2) with one part miscopied."""
    def body(ctx, alpha, mu_p, s_p, mu_q, s_q):
        a = ctx.convert(alpha)
        mu_p, s_p, mu_q, s_q = (ctx.convert(x) for x in (mu_p, s_p, mu_q, s_q))
        s_a2 = formulas.gaussian_renyi_margin(ctx, a, s_p, s_q)
        out = log_ratio * ctx.log(s_q / s_p) + (a if mean_alpha else 1) * (mu_p - mu_q) ** 2 / (2 * s_a2)
        if spread:
            out = out + ctx.log(s_q ** 2 / s_a2) / (2 * (a - 1) if over_alpha_minus_1 else 2)
        return out
    return body


def _margin(sq_weight=1, power=2):
    """A body for eq (34)'s margin alpha s_Q^2 + (1 - alpha) s_P^2 miscopied: the sign of (1 - alpha)
    (``sq_weight`` -1) or the power of the scales."""
    def body(ctx, alpha, s_p, s_q):
        a, s_p, s_q = ctx.convert(alpha), ctx.convert(s_p), ctx.convert(s_q)
        return a * s_q ** power + sq_weight * (1 - a) * s_p ** power
    return body


FAULTS += [
    fault("lem7.1", "eq (34) with s_P and s_Q swapped: alpha s_P^2 + (1-alpha) s_Q^2", "swapped arguments",
          swap_arguments(formulas.gaussian_renyi_margin, "s_p", "s_q")),
    fault("lem7.1", "finite iff the margin of eq (34) is >= 0 (the equality case taken as finite)", "inequality",
          set_attribute(__name__, "eq34_finite", lambda margin: margin >= 0)),
    fault("lem7.1", "eq (34) with (alpha - 1) for (1 - alpha)", "sign",
          replace_body(formulas.gaussian_renyi_margin, _margin(sq_weight=-1))),
    fault("lem7.1", "eq (34) with the scales for the variances: alpha s_Q + (1-alpha) s_P", "exponent",
          replace_body(formulas.gaussian_renyi_margin, _margin(power=1))),
    fault("lem7.1", "D without its log(s_Q^2/s_a^2)/(2(alpha-1)) term", "dropped term",
          replace_body(formulas.gaussian_renyi_divergence, _miscopied_divergence(spread=False))),
    fault("lem7.1", "D with log(s_Q^2/s_a^2)/2: the 1/(alpha-1) factor dropped", "factor",
          replace_body(formulas.gaussian_renyi_divergence, _miscopied_divergence(over_alpha_minus_1=False))),
    fault("lem7.1", "D with log(s_P/s_Q) for log(s_Q/s_P)", "sign",
          replace_body(formulas.gaussian_renyi_divergence, _miscopied_divergence(log_ratio=-1))),
    fault("lem7.1", "D's mean term without its alpha: (mu_P - mu_Q)^2/(2 s_a^2)", "factor",
          replace_body(formulas.gaussian_renyi_divergence, _miscopied_divergence(mean_alpha=False))),
    fault("lem7.1", "threshold s_P^2/(s_P^2 + s_Q^2) for s_P^2/(s_P^2 - s_Q^2)", "sign",
          replace_body(formulas.gaussian_renyi_threshold,
                       lambda ctx, s_p, s_q: ctx.convert(s_p) ** 2 / (ctx.convert(s_p) ** 2 + ctx.convert(s_q) ** 2))),
]


@claim("sec7.boundary", routes=[
    "divergence engine (support analysis, reason reported)",
    "data processing to 1{X != 0}: two-point pushforward masses by quadrature, D_alpha from the "
    "definition on atoms",
    "X_0 from eq (33) at n = 0: its mass off 0 and E|X_0| from its atoms (delta_0: both exactly 0)",
    "P(X_1 > 0) by quadrature of the mechanism's X_1 vs the closed form Phi(1/r) of N(1, r^2); data "
    "processing to 1{X > 0} with those masses, D_alpha from the definition on atoms",
])
def boundary_edge(check):
    rs = [Fraction(1, 2)] if check.quick else [Fraction(1, 10), Fraction(1, 2), Fraction(1)]
    alphas = ([mpmath.mpf(1) + mpmath.mpf("1e-6"), mpmath.mpf(2), mpmath.mpf(10) ** 6] if check.quick else
              [mpmath.mpf(1) + mpmath.mpf("1e-6"), mpmath.mpf("1.5"), mpmath.mpf(2), mpmath.mpf(10),
               mpmath.mpf(1000), mpmath.mpf(10) ** 6])
    reasons = set()
    for r in rs:
        X = UnequalVarianceGaussian(_mp(r))
        X0, X1 = X.law(0), X.law(1)
        above = _boundary_laws(check, X0, X1, r)
        push, push0 = indicator_pushforward(X1, 0), indicator_pushforward(X0, 0)
        for alpha in alphas:
            p = {"r": r, "n": 1, "alpha": alpha}
            d = renyi(X1, X0, alpha)
            reasons.add(d.reason)
            check.compare(p, lhs=d.value, relation="==", rhs=mpmath.inf, route="engine", note=d.reason)
            dp = renyi_atoms(push.masses, push0.masses, alpha)
            check.compare(p, lhs=dp.value, relation="==", rhs=mpmath.inf, route="pushforward to 1{X != 0}",
                          note=f"P(X_1 != 0) = {fmt(push.masses[1], 8)}, P(X_0 != 0) = "
                               f"{fmt(push0.masses[1], 8)}; {dp.reason}")
            da = renyi_atoms(above[1], above[0], alpha)
            check.compare(p, lhs=da.value, relation="==", rhs=mpmath.inf,
                          route="pushforward to 1{X > 0} with P(X_1 > 0) = Phi(1/r)", note=da.reason)
    check.note("X_0 = N(0, 0) is the point mass delta_0 (UnequalVarianceGaussian.law(0)); engine reasons: "
               + " | ".join(sorted(x for x in reasons if x)))
    # negative control: the same comparison on the log-space mechanism's boundary edge (atom at 0 in
    # both laws, so X_1 << X_0 on the atoms and the densities share a support): finite
    M = _mech(R)
    for alpha in (mpmath.mpf(2), mpmath.mpf(10)):
        d = renyi(M.released_law(1), M.released_law(0), alpha)
        check.control(f"the shifted log-Gaussian (r0 = r/2, c = 1) boundary edge is infinite too, "
                      f"alpha = {fmt(alpha)}", lhs=d.value, relation="==", rhs=mpmath.inf,
                      detail=f"D_alpha = {fmt(d.value, 10)} +/- {fmt(d.error, 2)} ({d.method}), finite")
    check.slack("no slack: every (r, alpha) is infinite by every route; P(X_1 != 0) = 1 and P(X_1 > 0) = "
                "Phi(1/r) > 1/2 against 0")


def _boundary_laws(check, X0, X1, r) -> tuple:
    """X_0 is delta_0 (no mass off 0, E|X_0| = 0) and X_1 = N(1, r^2) has the mass Phi(1/r) on
    (0, inf), where X_0 has none.  Returns the laws of 1{X > 0} under X_0 and X_1 (closed form)."""
    p = {"r": r, "n": 0}
    off, e0 = moments.mass_off(X0, 0), moments.expected_distance(X0)
    check.compare(p, lhs=off.value, relation="==", rhs=0, tol=off.error, route="X_0 = delta_0: P(X_0 != 0)")
    check.compare(p, lhs=e0.value, relation="==", rhs=0, tol=e0.error, route="X_0 = delta_0: E|X_0|")
    closed = formulas.normal_mass_above(1, _mp(r), 0)
    quad = 1 - moments.probability_at_most(X1, 0).value
    err = moments.probability_at_most(X1, 0).error
    q = {"r": r, "n": 1}
    check.compare(q, lhs=quad, relation="==", rhs=closed, tol=err + 100 * mpmath.eps,
                  route="P(X_1 > 0): quadrature of the mechanism's X_1 vs Phi(1/r) of N(1, r^2)")
    zero = 1 - moments.probability_at_most(X0, 0).value
    check.compare(q, lhs=closed, relation=">", rhs=zero, tol=err,
                  route="P(X_1 > 0) = Phi(1/r) > P(X_0 > 0) (= 0: mass where X_0 has none)")
    return {0: 1 - zero, 1: zero}, {0: 1 - closed, 1: closed}


@certificate("sec7.boundary", scope="instance")
def boundary_law_has_mass_where_delta0_has_none(cert):
    """X_0 of eq (33) has scale r 0 = 0 exactly (X_0 = delta_0), and X_1 = N(1, (r 1)^2) has
    certified positive mass on (0, inf), where X_0 has none."""
    with cert.precision(PREC):
        for r in ((Fraction(1, 10), Fraction(1, 2), 1, 2) if not cert.quick else (Fraction(1, 2), 2)):
            s0 = formulas.unequal_variance_scale.exact(0, r)
            mass = gaussian_mass_above(1, formulas.unequal_variance_scale.ball(1, r))
            with cert.precision(PREC + 64):
                ref = formulas.normal_mass_above.ball(1, r, 0)
            vd = verdict_all([Verdict.PROVED_TRUE if s0 == 0 else Verdict.PROVED_FALSE,
                              decide_gt(mass.lower, 0), decide_contains(mass.enclosure, ref)])
            cert.record(f"X_0 = delta_0 and P(X_1 > 0) > 0 for X_1 = N(1, r^2), r={r}",
                        "eq (33)'s scale at n = 0 is exactly 0 (X_0 = delta_0); certified lower "
                        "bound int_0^X of the N(1, r^2) density > 0 (balls separate) and the "
                        "enclosure with the (Q+) tail contains Phi(1/r). "
                        "X_0 = delta_0 gives (0, inf) mass 0, so X_1 is not absolutely "
                        "continuous w.r.t. X_0 and D_alpha(X_1||X_0) = inf for every "
                        "alpha > 1 (the density ratio is infinite on a set of positive "
                        "X_1-mass); likewise D_alpha(X_0||X_1) = inf ({0} has X_1-mass 0)",
                        mass.enclosure, vd, lower_bound=ball_str(mass.lower), scale_at_0=str(s0))


_EQ33_LAW = UnequalVarianceGaussian.law


def _x0_is_delta1(self, n):
    """eq (33)'s law with the boundary point mass put at 1 (the fault "X_0 = delta_1")."""
    return PointMass(1) if n == 0 else _EQ33_LAW(self, n)


FAULTS += [
    fault("sec7.boundary", "X_0 = delta_1 (the edge's other end) for delta_0", "index",
          set_attribute(UnequalVarianceGaussian, "law", _x0_is_delta1)),
    fault("sec7.boundary", "eq (33)'s scale r for r n (X_0 = N(0, r^2), not delta_0)", "exponent",
          replace_body(formulas.unequal_variance_scale, lambda ctx, n, r: ctx.convert(r))),
    fault("sec7.boundary", "eq (33)'s variance r^2 n^2 taken as the scale (X_1 = N(1, r^4))", "exponent",
          replace_body(formulas.unequal_variance_scale, lambda ctx, n, r: (ctx.convert(r) * ctx.convert(n)) ** 2)),
    fault("sec7.boundary", "P(X_1 > 0) = Phi(-1/r), the mass below 0", "sign",
          replace_body(formulas.normal_mass_above,
                       lambda ctx, mu, s, x0: ctx.ncdf((ctx.convert(x0) - ctx.convert(mu)) / ctx.convert(s)))),
    fault("sec7.boundary", "P(X_1 > 0) taken as 0 (X_1 read as the point mass at 0)", "other",
          replace_body(formulas.normal_mass_above, lambda ctx, mu, s, x0: ctx.convert(0))),
]


def finite_by_eq35(alpha, n) -> bool:
    """eq (35) as the paper states it: D_alpha(X_{n+1} || X_n) < inf iff alpha < (n+1)^2/(2n+1)
    (at the threshold itself it is infinite)."""
    return alpha < formulas.unequal_variance_threshold.exact(n)


@claim("eq35", routes=[
    "formula (n+1)^2/(2n+1) of eq (35), exact rational",
    "Lemma 7.1's verdict from the exact margin of eq (34) for s_P = r(n+1), s_Q = r n at eq (35)'s "
    "threshold and 2^-40 beside it",
    "bisection on alpha of the sign of the quadratic coefficient of log(p^alpha q^(1-alpha)) measured "
    "from the log-densities of X_{n+1}, X_n (uses Lemma 7.1's criterion, not eq (35))",
    "divergence engine quadrature and closed form just below, at and above the formula's threshold",
    "truncated integrals over [-T, T] at the threshold (convex sandwich, growth with T)",
    "shifted log-Gaussian released laws: engine quadrature vs the closed-form budget alpha v(n+1) (eq 12)",
])
def reverse_threshold(check):
    X = UnequalVarianceGaussian(_mp(R))
    M = _mech(R)
    _exact_verdicts_at_and_beside(check, check.quick)
    worst, rtol = _bisection_against_the_formula(check, X)
    for n in (N_ENGINE_QUICK if check.quick else N_ENGINE_FULL):
        _engine_around_the_threshold(check, X, M, n)
    for n in ([10] if check.quick else [1, 10, 1000]):
        _growth_at_the_threshold(check, X, n)
    # negative controls
    check.control("threshold (n+1)^2/(2n) instead of (n+1)^2/(2n+1)", lhs=worst["(n+1)^2/(2n)"], relation="<=",
                  rhs=1, detail=f"max |located - (n+1)^2/(2n)| / bracket = {fmt(worst['(n+1)^2/(2n)'], 4)}")
    check.control("threshold n^2/(2n+1) instead of (n+1)^2/(2n+1)", lhs=worst["n^2/(2n+1)"], relation="<=",
                  rhs=1, detail=f"max |located - n^2/(2n+1)| / bracket = {fmt(worst['n^2/(2n+1)'], 4)}")
    n = N_ENGINE_QUICK[0]
    P, Q = X.law(n + 1), X.law(n)
    a_at = mpf_at_least(X.order_threshold(n))
    T = _windows(P, Q, a_at, True)[-1]
    logI = truncation.truncated_renyi_integral(P, Q, a_at, T).value
    rem = truncation.tail_remainder(P, Q, a_at, T)
    check.control(f"D_alpha(X_{n + 1} || X_{n}) finite at the threshold itself: truncated integrals converged",
                  lhs=rem / mpmath.exp(logI), relation="<=", rhs=CONVERGED)
    d = renyi(M.released_law(n + 1), M.released_law(n), a_at)
    check.control("the log-space mechanism is infinite at the same order too", lhs=d.value, relation="==",
                  rhs=mpmath.inf, detail=f"D = {fmt(d.value, 10)} +/- {fmt(d.error, 2)}: finite")
    check.note("the bisection measures the quadratic coefficient from X_{n+1}'s and X_n's log-densities; it "
               "does not use eq (35), but its finite/infinite reading is Lemma 7.1's criterion (checked in "
               "lem7.1 by the engine and by truncated integrals). The engine cases place alpha by the formula "
               "and compare the engine's own finite/infinite verdict (tail analysis of the densities) with "
               "eq (35)'s; the exact cases compare eq (35)'s verdict with Lemma 7.1's margin at the "
               "threshold and 2^-40 beside it.")
    check.slack(f"located thresholds within {fmt(worst['eq35'], 3)} brackets of eq (35) (bracket rtol "
                f"{fmt(rtol, 2)}); wrong formulas miss by {fmt(worst['(n+1)^2/(2n)'], 3)} and "
                f"{fmt(worst['n^2/(2n+1)'], 3)} brackets")


def _exact_verdicts_at_and_beside(check, quick):
    """eq (35)'s verdict against Lemma 7.1's, both exact: at alpha* = (n+1)^2/(2n+1) the margin of
    eq (34) for s_P = r(n+1), s_Q = r n is exactly 0 (infinite), and at alpha* (1 -+ 2^-40) its sign
    agrees with "alpha < alpha*".  Per n at the shown counts; in full mode also counted over
    n = 1..1000."""
    def verdicts(n):
        a, s_p, s_q = formulas.unequal_variance_threshold.exact(n), R * (n + 1), R * n
        out = []
        for where, alpha in (("2^-40 below", a * (1 - BESIDE)), ("at", a), ("2^-40 above", a * (1 + BESIDE))):
            lemma = eq34_finite(formulas.gaussian_renyi_margin.exact(alpha, s_p, s_q))
            out.append((where, alpha, finite_by_eq35(alpha, n), lemma))
        return formulas.gaussian_renyi_margin.exact(a, s_p, s_q), out

    for n in N_BISECT_QUICK:
        margin, out = verdicts(n)
        check.compare({"n": n, "r": R}, lhs=margin, relation="==", rhs=0, tol=0,
                      route="eq (34) margin at eq (35)'s threshold, exact rational")
        for where, alpha, eq35, lemma in out:
            check.compare({"n": n, "alpha": float(alpha)}, lhs=int(eq35), relation="==", rhs=int(lemma), tol=0,
                          route=f"{where} alpha*: eq (35)'s verdict vs Lemma 7.1's from the exact margin (1 = finite)")
    if not quick:
        bad = 0
        for n in range(1, 1001):
            margin, out = verdicts(n)
            bad += int(margin != 0) + sum(int(eq35 != lemma) for _, _, eq35, lemma in out)
        check.compare({"n": "1..1000"}, lhs=bad, relation="==", rhs=0, tol=0,
                      route="eq (35) vs Lemma 7.1, exact, at and 2^-40 beside the threshold: number of "
                            "disagreements")


def _bisection_against_the_formula(check, X):
    """The order located by bisection on the densities against eq (35) and two wrong formulas.
    Returns the worst |located - formula| / bracket per formula and the bracket's rtol."""
    ns = N_BISECT_QUICK if check.quick else list(range(1, 1001))
    rtol = mpmath.mpf("1e-20") if check.quick else mpmath.mpf("1e-12")
    shown = set(N_BISECT_QUICK)
    worst = {"eq35": mpmath.mpf(0), "(n+1)^2/(2n)": mpmath.mpf(0), "n^2/(2n+1)": mpmath.mpf(0)}
    for n in ns:
        bracket = truncation.locate_order_threshold(X.law(n + 1), X.law(n), rtol=rtol)
        mid = bracket.mid
        thr = _mp(X.order_threshold(n))
        tol = bracket.half_width + 10 * mpmath.eps * thr
        if n in shown:
            check.compare({"n": n}, lhs=mid, relation="==", rhs=thr, tol=tol, route="bisection vs eq (35)",
                          note=f"bracket [{fmt(bracket.lo, 25)}, {fmt(bracket.hi, 25)}] after "
                               f"{bracket.iterations} halvings")
        for name, val in (("eq35", thr), ("(n+1)^2/(2n)", mpmath.mpf((n + 1) ** 2) / (2 * n)),
                          ("n^2/(2n+1)", mpmath.mpf(n ** 2) / (2 * n + 1))):
            worst[name] = max(worst[name], abs(mid - val) / tol)
    check.compare({"n": f"{ns[0]}..{ns[-1]} ({len(ns)} counts)"}, lhs=worst["eq35"], relation="<=", rhs=1,
                  route="bisection vs eq (35), all counts: max |located - formula| / bracket")
    return worst, rtol


def _engine_around_the_threshold(check, X, M, n):
    """The engine and the closed form just below, at and above eq (35)'s order (the engine's
    verdict against eq (35)'s), the log-space mechanism at the same orders, and the closed form
    one ulp below the threshold."""
    P, Q = X.law(n + 1), X.law(n)
    thr_q = X.order_threshold(n)
    a_at = mpf_at_least(thr_q)
    a_below = 1 + (_mp(thr_q) - 1) * mpmath.mpf("0.99")
    for alpha, where in ((a_below, "below"), (a_at, "at"), (2 * a_at, "above")):
        p = {"n": n, "alpha": alpha}
        eng = renyi(P, Q, alpha, method="quadrature")
        cf = gaussian_renyi(alpha, P.mu, P.s, Q.mu, Q.s)
        check.compare(p, lhs=int(eng.finite), relation="==", rhs=int(finite_by_eq35(to_fraction("alpha", alpha), n)),
                      tol=0, route=f"engine's finite/infinite verdict {where} the threshold vs eq (35)'s (1 = finite)",
                      note=eng.reason)
        if where == "below":
            check.compare(p, lhs=eng.value, relation="==", rhs=cf.value,
                          tol=eng.error + 100 * mpmath.eps * (abs(cf.value) + 1),
                          route="finite just below (0.99 of the way): engine vs closed form")
            continue
        check.compare(p, lhs=eng.value, relation="==", rhs=mpmath.inf, route=f"engine {where} the threshold",
                      note=eng.reason)
        check.compare(p, lhs=cf.value, relation="==", rhs=mpmath.inf, route=f"closed form {where} the threshold",
                      note=cf.reason)
        # the contrast: the log-space mechanism at the same order, both directions
        for direction, (A, B) in (("reverse", (M.released_law(n + 1), M.released_law(n))),
                                  ("forward", (M.released_law(n), M.released_law(n + 1)))):
            d = renyi(A, B, alpha)
            bound = alpha * M.mp_v(n + 1)
            check.compare({**p, "direction": direction}, lhs=d.value, relation="<=", rhs=bound,
                          tol=d.error + _location_rounding(M, n, bound),
                          route="log-space mechanism: engine D_alpha <= alpha v(n+1) (finite)",
                          note="tol = engine error + rounding of the laws' log-space means")
    # one ulp below the threshold: a finite but astronomically large closed form
    a_ulp = mpf_below(thr_q)
    cf_ulp = gaussian_renyi(a_ulp, P.mu, P.s, Q.mu, Q.s)
    check.finding(n=n, alpha_one_ulp_below=a_ulp, closed_form_there=cf_ulp.value,
                  note="exactly, D is finite there but of order 1/ulp; the closed form decides finiteness by "
                       "the sign of alpha s_Q^2 + (1-alpha) s_P^2 computed in floating point, so within a few "
                       "ulps of the threshold its verdict is set by rounding")


def _growth_at_the_threshold(check, X, n):
    """The truncated integrals at the threshold (rounded up to the next mpf) grow with T inside
    the convex sandwich."""
    P, Q = X.law(n + 1), X.law(n)
    a_at = mpf_at_least(X.order_threshold(n))
    quad = truncation.quadratic_coefficient(P, Q, a_at)
    prev, seq = None, []
    for T in _windows(P, Q, a_at, check.quick):
        logI = truncation.truncated_renyi_integral(P, Q, a_at, T)
        sandwich = truncation.truncated_bounds_convex(P, Q, a_at, T)
        p = {"n": n, "alpha": a_at, "T": T}
        check.compare(p, lhs=sandwich.lower, relation="<=", rhs=logI.value, tol=logI.error + sandwich.rounding,
                      route="convex sandwich, lower",
                      note="at the threshold g is linear: the tangent bound is exact up to rounding")
        check.compare(p, lhs=logI.value, relation="<=", rhs=sandwich.upper, tol=logI.error + sandwich.rounding,
                      route="convex sandwich, upper")
        if prev is not None:
            check.compare(p, lhs=logI.value, relation=">", rhs=prev[1], tol=logI.error + prev[2],
                          route="log I(T) increases")
            seq.append((T, (logI.value - prev[1]) / (quad.b * (T - prev[0]))))
        prev = (T, logI.value, logI.error)
    check.finding(n=n, alpha=a_at, quadratic_coefficient=quad.k, quadratic_noise=quad.noise,
                  linear_coefficient_b=quad.b,
                  growth_over_linear_exponent=", ".join(f"T={fmt(T, 4)}: {fmt(v, 6)}" for T, v in seq))


# --------------------------------------------------------------------------------------------
# eq (35) in exact arithmetic: the margin of eq (34) for the edge n <-> n+1 vanishes at the
# threshold and decreases in alpha, for each n = 1..N and, as an identity, for every n


@dataclass(frozen=True)
class _RationalFunction:
    """num/den, two polynomials in n over Q (fmpq_mpoly); ``num == 0`` decides equality with 0."""

    num: fmpq_mpoly
    den: fmpq_mpoly

    @staticmethod
    def _parts(other):
        return (other.num, other.den) if isinstance(other, _RationalFunction) else (other, 1)

    def __add__(self, other):
        n, d = self._parts(other)
        return _RationalFunction(self.num * d + n * self.den, self.den * d)

    __radd__ = __add__

    def __neg__(self):
        return _RationalFunction(-self.num, self.den)

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, other):
        n, d = self._parts(other)
        return _RationalFunction(self.num * n, self.den * d)

    __rmul__ = __mul__

    def __truediv__(self, other):
        n, d = self._parts(other)
        if n == 0:
            raise ZeroDivisionError("division by the zero rational function")
        return _RationalFunction(self.num * d, self.den * n)

    def __pow__(self, k: int):
        return _RationalFunction(self.num ** k, self.den ** k)

    def is_zero(self) -> bool:
        return self.num.is_zero()


class _RationalFunctionsOfN(Context):
    """Rational functions of one variable n over Q as a number system: a formula evaluated here
    at the generator n is evaluated for every n at once, so "== 0" is an identity in n."""

    name = "rational functions of n"

    def __init__(self):
        self.ring = fmpq_mpoly_ctx.get(("n",))

    def variable(self) -> _RationalFunction:
        return _RationalFunction(self.ring.gens()[0], self.ring.constant(1))

    def convert(self, x):
        if isinstance(x, _RationalFunction):
            return x
        return _RationalFunction(self.ring.constant(to_fmpq(x)), self.ring.constant(1))

    def fraction(self, p, q):
        return self.convert(fmpq(p, q))


def threshold_identity() -> Verdict:
    """With the library's formulas evaluated on rational functions of n: the margin
    alpha n^2 + (1-alpha)(n+1)^2 of eq (34) (s_P = n+1, s_Q = n) vanishes at alpha = eq (35)'s
    (n+1)^2/(2n+1), and its slope in alpha is n^2 - (n+1)^2 = -(2n+1), for every n."""
    ctx = _RationalFunctionsOfN()
    n = ctx.variable()
    at_threshold = formulas.gaussian_renyi_margin(ctx, formulas.unequal_variance_threshold(ctx, n), n + 1, n)
    slope = formulas.gaussian_renyi_margin(ctx, 1, n + 1, n) - formulas.gaussian_renyi_margin(ctx, 0, n + 1, n)
    ok = at_threshold.is_zero() and (slope + (2 * n + 1)).is_zero()
    return Verdict.PROVED_TRUE if ok else Verdict.PROVED_FALSE


def margin_vanishes_at_threshold(n_max: int) -> RangeResult:
    """For n = 1..n_max in exact rationals, with alpha* = (n+1)^2/(2n+1) (eq 35) and the margin
    f(alpha) = alpha n^2 + (1-alpha)(n+1)^2 of eq (34) for s_P = r(n+1), s_Q = r n (the common
    r^2 > 0 dropped): f(alpha*) = 0, slope f(1) - f(0) < 0 and alpha* > 1, so
    D_alpha(X_{n+1} || X_n) < inf iff alpha < alpha* (Lemma 7.1)."""
    def gen():
        for n in range(1, n_max + 1):
            a = formulas.unequal_variance_threshold.exact(n)
            f = formulas.gaussian_renyi_margin.exact(a, n + 1, n)
            slope = formulas.gaussian_renyi_margin.exact(1, n + 1, n) - formulas.gaussian_renyi_margin.exact(0, n + 1, n)
            ok = f == 0 and slope < 0 and a > 1
            yield n, Verdict.PROVED_TRUE if ok else Verdict.PROVED_FALSE
    return tally(gen())


@certificate("eq35", scope="claim")
def threshold_is_where_the_margin_vanishes(cert):
    """eq (35) from eq (34) in exact arithmetic: at every n = 1..N and as an identity in n."""
    n_max = 1000 if cert.quick else 10_000
    res = margin_vanishes_at_threshold(n_max)
    identity = threshold_identity()
    cert.record(f"alpha < (n+1)^2/(2n+1) threshold, n = 1..{n_max}",
                "exact rational zero and sign of alpha n^2 + (1-alpha)(n+1)^2; identity "
                "in n " + identity.value, None, verdict_all([res.verdict, identity]), boxes=res.boxes)


def _threshold(body):
    return replace_body(formulas.unequal_variance_threshold, lambda ctx, n: body(ctx.convert(n)))


FAULTS += [
    fault("eq35", "(n+1)^2/(2n-1) for (n+1)^2/(2n+1)", "sign", _threshold(lambda n: (n + 1) ** 2 / (2 * n - 1))),
    fault("eq35", "(n+1)^2/(2n): the + 1 of the denominator dropped", "dropped term",
          _threshold(lambda n: (n + 1) ** 2 / (2 * n))),
    fault("eq35", "n^2/(2n+1): n for n + 1 in the numerator", "index", _threshold(lambda n: n ** 2 / (2 * n + 1))),
    fault("eq35", "(n+1)/(2n+1): the square dropped", "exponent", _threshold(lambda n: (n + 1) / (2 * n + 1))),
    fault("eq35", "finite iff alpha <= (n+1)^2/(2n+1) (the threshold itself taken as finite)", "inequality",
          set_attribute(__name__, "finite_by_eq35",
                        lambda alpha, n: alpha <= formulas.unequal_variance_threshold.exact(n))),
    fault("eq35", "eq (33)'s variance r^2 n^2 taken as the scale", "exponent",
          replace_body(formulas.unequal_variance_scale, lambda ctx, n, r: (ctx.convert(r) * ctx.convert(n)) ** 2)),
]


def figures(settings):
    """This script's figures (made by figures/sec7_unequal_variance.py)."""
    return plots.make(settings, _mp(R))


if __name__ == "__main__":
    from countdp.harness.cli import script_main

    raise SystemExit(script_main(__file__))
