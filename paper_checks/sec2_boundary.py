"""Section 2 of the paper: the zero-count boundary.  Claims prop2.2a, prop2.2b, prop2.3.

Proposition 2.2: the literal target E|xhat - x| < r x (eq 1) is impossible at x = 0, and its weak
version with finite two-sided Renyi divergence on the edge 0 <-> 1 forces P_0 = P_1 = delta_0,
whose error at count 1 is 1 > r.  Proposition 2.3: at r = 1 the constant release 1/2 meets the
repaired target E|xhat - x| < r max(x, 1) (eq 2) strictly at every count, with v == 0.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np

from countdp.mechanisms import baselines as B
from countdp.harness.claims import claim
from countdp.harness.results import fmt
from countdp.laws import FinitePmf, Gaussian, PointMass
from countdp.mechanisms import ShiftedLogGaussian
from countdp.divergence.renyi import renyi
from countdp.numerics.estimate import Z_BAR
from countdp.numerics.montecarlo import mc_mean
from countdp.laws.expectation import quad_expectation

TITLE = "Section 2: the zero-count boundary (Propositions 2.2 and 2.3)"

MECH = dict(r0=0.25, c=1.0, r=0.5)  # a shifted log-Gaussian mechanism, as a source of real laws


def _mech():
    return ShiftedLogGaussian(MECH["r0"], MECH["c"], r=MECH["r"])


def laws_at_zero(quick: bool) -> list:
    """Candidate output laws at count 0 (every kind the library has: atoms, densities, mixed)."""
    M = _mech()
    out = [
        ("delta_0", PointMass(0)),
        ("delta_1/2 (Prop 2.3 release)", PointMass(Fraction(1, 2))),
        ("N(0, 1)", Gaussian(0, 1)),
        ("pmf {0: 1/2, 1: 1/2}", FinitePmf({0: Fraction(1, 2), 1: Fraction(1, 2)})),
        ("shifted log-Gaussian released law at n = 0", M.released_law(0)),
    ]
    if not quick:
        out += [
            ("N(0, 10^-6)", Gaussian(0, mpmath.mpf("1e-3"))),
            ("N(1/2, 1/4)", Gaussian(0.5, 0.5)),
            ("pmf {-2: 1/4, 0: 1/2, 3: 1/4}", FinitePmf({-2: Fraction(1, 4), 0: Fraction(1, 2), 3: Fraction(1, 4)})),
            ("pmf {0: 1 - 10^-6, 1: 10^-6}", FinitePmf({0: 1 - Fraction(1, 10**6), 1: Fraction(1, 10**6)})),
        ]
    return out


def nondegenerate_p1(quick: bool) -> list:
    """Candidate laws at count 1 other than delta_0."""
    M = _mech()
    out = [
        ("shifted log-Gaussian released law at n = 1", M.released_law(1)),
        ("N(1, 1/4)", Gaussian(1, 0.5)),
        ("pmf {0: 1/2, 1: 1/2}", FinitePmf({0: Fraction(1, 2), 1: Fraction(1, 2)})),
    ]
    if not quick:
        out += [
            ("shifted log-Gaussian, stochastically rounded, at n = 1", M.rounded_law(1)),
            ("delta_1", PointMass(1)),
            ("pmf {0: 1 - 10^-9, 1: 10^-9}", FinitePmf({0: 1 - Fraction(1, 10**9), 1: Fraction(1, 10**9)})),
        ]
    return out


# --------------------------------------------------------------------------------------------


@claim("prop2.2a", routes=[
    "E|X| from each law's atoms and density (exact atom sums; mpmath quadrature split at 0)",
    "Monte Carlo of |X| from each law's own sampler (5 standard errors, seeded)",
])
def literal_target_at_zero(c):
    """eq (1) at x = 0 asks E|X| < r * 0 = 0; every law has E|X| >= 0."""
    r = Fraction(1, 2)
    draws = 20_000 if c.quick else 200_000
    worst = None
    for name, law in laws_at_zero(c.quick):
        e, err = B.abs_moment(law)
        target = B.literal_target(r, 0)
        c.compare({"law": name, "n": 0, "r": r}, lhs=e, relation=">=", rhs=target, tol=err,
                  route="quadrature", note="eq (1) at n = 0 needs E|X| < 0: it fails iff E|X| >= 0")
        mc = mc_mean(lambda g, m, L=law: np.abs(L.sample(g, m)), c.rng(name), draws)
        c.compare({"law": name, "n": 0, "r": r}, lhs=mc.mean, relation=">=", rhs=target, tol=mc.halfwidth,
                  route="Monte Carlo")
        # the error bar uses the larger of the sample variance and the law's own Var|X| (a rare
        # atom can be missed by every draw, making the sample variance 0)
        m2, _ = quad_expectation(law, lambda x: x * x)
        bar = Z_BAR * max(mc.se, float(mpmath.sqrt(max(m2 - e * e, 0) / draws)))
        c.compare({"law": name, "n": 0}, lhs=mc.mean, relation="==", rhs=e, tol=bar + float(err),
                  route="quadrature vs Monte Carlo (agreement of the routes, 5 standard errors)")
        worst = e if worst is None or e < worst else worst
    c.note("E|X| is an integral of a nonnegative function, so E|X| < 0 is impossible for every law; "
           "the cases exhibit it for point masses, densities, finite pmfs and the mixed released law")
    # negative controls: eq (1) at n = 0 claimed for each law (E|X| < 0), by the same quadrature
    for name, law in laws_at_zero(c.quick):
        e, err = B.abs_moment(law)
        c.control(f"{name} satisfies eq (1) at n = 0 (E|X| < r * 0)", lhs=e, relation="<",
                  rhs=B.literal_target(r, 0), tol=err)
    # and the same comparison against the repaired target r max(0, 1) = r must fail
    # for a law that meets eq (2) at 0 (delta_0 and the mechanism's release at 0 both do)
    for name, law in laws_at_zero(True)[:1] + laws_at_zero(True)[-1:]:
        e, err = B.abs_moment(law)
        c.control(f"eq (2) at n = 0 is impossible too ({name}: E|X| >= r max(0,1) = {r})",
                  lhs=e, relation=">=", rhs=B.repaired_target(r, 0), tol=err)
    c.slack(f"smallest E|X| among the laws tried: {fmt(worst)} (delta_0); the literal target is 0, "
            f"so no law has room below it")


@claim("prop2.2b", routes=[
    "Renyi engine countdp.renyi.renyi (support analysis, reason reported)",
    "data processing to 1{X != 0}: two-point pushforward masses by quadrature/pmf, D_alpha from "
    "the definition on atoms (baselines.renyi_atoms)",
    "E|X| and P(|X| > t) from atoms and densities with Markov's inequality P(|X| > t) <= E|X|/t",
    "exact rational error |0 - 1| against the law expectation E|X - 1| under delta_0",
])
def weak_target_with_finite_divergence(c):
    # (1) the weak target at 0, E|X| <= 0, forces X = 0: every nondegenerate candidate has E|X| > 0
    for name, law in laws_at_zero(c.quick):
        e, err = B.abs_moment(law)
        off, err_off = B.mass_off(law, 0)
        p = {"law": name, "n": 0}
        if off > err_off:
            c.compare(p, lhs=e, relation=">", rhs=0, tol=err, route="E|X| (weak eq (1) at 0 fails)")
            for t in (mpmath.mpf("0.01"), mpmath.mpf(1)):
                tm, err_t = B.tail_mass(law, t)
                c.compare({**p, "x": t}, lhs=tm, relation="<=", rhs=e / t, tol=err_t + err / t,
                          route="Markov: P(|X| > t) <= E|X|/t (E|X| = 0 would empty every tail)")
        else:
            c.compare(p, lhs=e, relation="==", rhs=0, tol=err, route="E|X| of the degenerate law delta_0")
    # (2) finite D_alpha(P_1 || P_0) with P_0 = delta_0 forces P_1 << delta_0, i.e. P_1 = delta_0
    alphas = [2] if c.quick else [mpmath.mpf("1.001"), 2, 10, 1000]
    delta0 = PointMass(0)
    reasons = set()
    for name, P1 in nondegenerate_p1(c.quick):
        push, err_push = B.indicator_pushforward(P1, 0)
        for alpha in alphas:
            d = renyi(P1, delta0, alpha)
            reasons.add(d.reason)
            c.compare({"law": name, "alpha": alpha}, lhs=d.value, relation="==", rhs=mpmath.inf,
                      route="engine", note=d.reason)
            dp, why = B.renyi_atoms(push, {0: 1, 1: 0}, alpha)
            c.compare({"law": name, "alpha": alpha}, lhs=dp, relation="==", rhs=mpmath.inf,
                      route="pushforward to 1{X != 0}", note=f"P_1(X != 0) = {fmt(push[1], 8)}; {why}")
    for alpha in alphas:
        d = renyi(delta0, delta0, alpha)
        da, _ = B.renyi_atoms({0: 1}, {0: 1}, alpha)
        c.compare({"law": "delta_0", "alpha": alpha}, lhs=d.value, relation="==", rhs=da, tol=0,
                  route="engine vs definition: the one finite choice P_1 = delta_0")
    # (3) P_1 = delta_0 has error 1 at count 1, larger than every r < 1
    exact = abs(Fraction(0) - 1)
    e1, err1 = B.abs_moment(delta0, center=1)
    c.compare({"n": 1}, lhs=e1, relation="==", rhs=exact, tol=err1, route="quadrature vs exact rational")
    rs = [Fraction(1, 10), Fraction(1, 2), Fraction(9, 10), Fraction(999, 1000), 1 - Fraction(1, 10**12)]
    for r in rs:
        c.compare({"n": 1, "r": r}, lhs=e1, relation=">", rhs=r, tol=err1,
                  route="error of delta_0 at count 1 exceeds r")
    c.note("engine reasons: " + " | ".join(sorted(x for x in reasons if x)))
    # negative controls
    c.control("the same failure at r = 1 (outside 0 < r < 1): 1 > r", lhs=e1, relation=">", rhs=1, tol=err1)
    d00 = renyi(delta0, delta0, 2)
    c.control("D_2(delta_0 || delta_0) = inf (the engine's inf is not automatic)",
              lhs=d00.value, relation="==", rhs=mpmath.inf)
    c.slack(f"error at count 1 minus r: 1 - r from {fmt(1 - rs[-1])} (r = 1 - 10^-12) to 9/10; "
            "every nondegenerate P_1 has D = inf by both routes")


@claim("prop2.3", routes=[
    "exact integer arithmetic for every n = 0..10^6 (numpy int64 numerators of the margin)",
    "the release itself (DataIndependentRelease.release) on a histogram holding every count 0..10^6",
    "law expectation E|X - n| under the point mass 1/2 (countdp.utility.quad_expectation) and "
    "Fraction arithmetic at sampled n",
    "Renyi engine on the released laws at n and n+1 vs the definition on atoms",
])
def constant_release(c):
    rel = B.DataIndependentRelease(Fraction(1, 2))
    r = Fraction(1)
    n_max = 10**6
    sweep = rel.margins(r, n_max)
    c.compare({"n": f"0..{n_max}", "r": r}, lhs=sweep["min_margin"], relation=">", rhs=0, tol=0,
              route="exact sweep: min over n of r max(n,1) - |1/2 - n|",
              note=f"{sweep['counts']} counts, violations {sweep['violations']}, argmin n = {sweep['argmin']}")
    # the mechanism itself, run on one histogram holding every count 0..10^6 (float64 is exact
    # here: every |1/2 - n| is a half-integer below 2^52)
    counts = np.arange(n_max + 1)
    out = rel.release(counts)
    float_margin = float(np.min(np.maximum(counts, 1) * float(r) - np.abs(out - counts)))
    c.compare({"n": f"0..{n_max}", "r": r}, lhs=float_margin, relation="==", rhs=sweep["min_margin"], tol=0,
              route="release() on a histogram of every count (float64) vs the exact sweep",
              note=f"float64 min margin {float_margin}")
    rng = c.rng("sample")
    ns = [0, 1, 2, 3, 10, 1000, n_max] + [int(x) for x in rng.integers(0, n_max + 1, 5 if c.quick else 200)]
    if not c.quick:
        ns += list(range(4, 101))
    worst_gap = mpmath.mpf(0)
    for n in sorted(set(ns)):
        law = rel.released_law(n)
        e, err = B.abs_moment(law, center=n)
        exact = rel.exact_error(n)
        target = B.repaired_target(r, n)
        worst_gap = max(worst_gap, abs(e - mpmath.mpf(exact.numerator) / exact.denominator))
        c.compare({"n": n, "r": r}, lhs=e, relation="<", rhs=target, tol=err, route="law expectation")
        c.compare({"n": n}, lhs=e, relation="==", rhs=exact, tol=err + 4 * mpmath.eps * (n + 1),
                  route="law expectation vs Fraction")
        if n in (0, 1, n_max):
            c.compare({"n": n}, lhs=target - exact, relation="==", rhs=sweep["min_margin"], tol=0,
                      route="Fraction margin vs the sweep's minimum")
    # v == 0: the released law does not depend on the count
    for alpha in ([2] if c.quick else [mpmath.mpf("1.001"), 2, 10, 10**6]):
        for n in (0, 1, 1000):
            P, Q = rel.released_law(n + 1), rel.released_law(n)
            d = renyi(P, Q, alpha)
            da, _ = B.renyi_atoms({Fraction(1, 2): 1}, {Fraction(1, 2): 1}, alpha)
            c.compare({"n": n + 1, "alpha": alpha}, lhs=d.value, relation="==", rhs=da, tol=d.error,
                      route="engine vs definition on atoms")
            c.compare({"n": n + 1, "alpha": alpha}, lhs=d.value, relation="<=", rhs=alpha * rel.v(n + 1),
                      tol=d.error, route="D_alpha <= alpha v(n) with v == 0")
    # negative controls, judged by the same exact sweep
    lit = rel.margins(r, n_max, literal=True)
    c.control("the literal eq (1) (target r n) holds for the release 1/2 at every n, incl. n = 0",
              lhs=lit["min_margin"], relation=">", rhs=0, tol=0,
              detail=f"min margin {lit['min_margin']} at n = {lit['argmin']} (|1/2 - 0| < 0 fails)")
    r_low = Fraction(9999, 10000)
    low = rel.margins(r_low, n_max)
    c.control(f"the claim also holds at r = {r_low} (just below 1)", lhs=low["min_margin"], relation=">",
              rhs=0, tol=0, detail=f"min margin {low['min_margin']} at n = {low['argmin']}; first "
              f"violation at n = {low['first_violation']} ({low['violations']} of {low['counts']} counts fail)")
    c.slack(f"margin r max(n,1) - |1/2 - n| = {sweep['min_margin']} exactly at every n in 0..{n_max} "
            f"(1/2 at n = 0 and n - (n - 1/2) = 1/2 for n >= 1); quadrature vs Fraction worst "
            f"{fmt(worst_gap, 3)}; divergences exactly 0")


# --------------------------------------------------------------------------------------------

if __name__ == "__main__":
    from countdp.harness.runner import script_main

    raise SystemExit(script_main(__file__))
