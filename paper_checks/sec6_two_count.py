"""Section 6 (first half) of the paper: pathwise group privacy and the two-count lower bound.

Claims lem6.1 (a chain of k edges costs alpha k^2 rho), prop6.2 (eq 14 for every n and its
liminf (15)), prop6.2.steps (the proof's algebra, Markov, total-variation, KL and Pinsker steps,
measured on three concrete admissible mechanisms).
"""

from fractions import Fraction

import mpmath
import numpy as np

from countdp import bounds as B
from countdp import formulas
from countdp import mechanisms as M
from countdp.harness.claims import claim
from countdp.laws import Gaussian
from countdp.divergence.renyi import kl, renyi

TITLE = "Section 6.1: pathwise group privacy (Lemma 6.1) and the two-count bound (Proposition 6.2)"

R = Fraction(1, 10)  # the paper's running example, exactly


def mechanisms(r):
    """Admissible mechanisms for E_m|Y - m| <= r m: the paper's default (r0 = r/2, c = 1), a
    second calibration of the same family, and the log-Laplace mechanism."""
    rf = float(r)
    return {
        "shifted log-Gaussian r0=r/2 c=1": M.ShiftedLogGaussian(rf / 2, 1, r=rf),
        "shifted log-Gaussian r0=0.9r c=0.25": M.ShiftedLogGaussian(0.9 * rf, 0.25, r=rf),
        "log-Laplace r0=r/2 c=1": B.LogLaplaceMechanism(rf / 2, 1, r=rf),
    }


# ---------------------------------------------------------------------------------------------
# Lemma 6.1
# ---------------------------------------------------------------------------------------------

GAUSS_CHAINS = [(1.0, 0.25), (0.5, 1.0)]  # (s, delta): P_j = N(j delta, s^2), exact binary deltas


@claim("lem6.1", routes=[
    "closed form eq (11) of D_alpha for the Gaussian chain (renyi method='closed')",
    "mpmath quadrature of D_alpha from the densities and atoms (renyi method='quadrature')",
    "the lemma's bound alpha k^2 rho, rho = the largest edge budget on the chain"])
def pathwise_group_privacy(c):
    ks = [1, 3] if c.quick else [1, 2, 3, 5, 10]
    alphas = [2.0] if c.quick else [1.5, 2.0, 8.0]
    chains = GAUSS_CHAINS[:1] if c.quick else GAUSS_CHAINS
    worst_gauss = mpmath.mpf(0)
    for s, delta in chains:
        rho = formulas.renyi_equal_variance(1, 0, delta, s)  # per-edge D_alpha / alpha, every alpha
        for k in ks:
            for alpha in alphas:
                for direction, (P, Q) in {"forward": (Gaussian(0, s), Gaussian(k * delta, s)),
                                          "reverse": (Gaussian(k * delta, s), Gaussian(0, s))}.items():
                    closed = renyi(P, Q, alpha, method="closed")
                    quad = renyi(P, Q, alpha, method="quadrature")
                    p = {"chain": "Gaussian", "sigma": s, "delta": delta, "k": k, "alpha": alpha,
                         "direction": direction}
                    c.compare(p, quad.value, "==", closed.value, tol=quad.error,
                              route="quadrature vs closed form")
                    c.compare(p, quad.value, "<=", alpha * k ** 2 * rho, tol=quad.error,
                              route="quadrature vs alpha k^2 rho")
                    c.compare(p, quad.value, "==", alpha * k ** 2 * rho, tol=quad.error,
                              route="equality for the Gaussian")
                    worst_gauss = max(worst_gauss, abs(quad.value - alpha * k ** 2 * rho))
    # the released shifted log-Gaussian mechanism (clipped at 0): a non-Gaussian chain
    mechs = [(M.ShiftedLogGaussian(0.05, 1, r=0.1), "r0=0.05 c=1")]
    if not c.quick:
        mechs.append((M.ShiftedLogGaussian(0.45, 0.25, r=0.5), "r0=0.45 c=0.25"))
    cases = [(1, 2, 2.0), (20, 5, 8.0)] if c.quick else \
        [(1, 2, 2.0), (1, 3, 8.0), (5, 3, 2.0), (20, 5, 8.0), (50, 10, 1.5)]
    ratios = []
    for mech, label in mechs:
        for n, k, alpha in cases:
            rho = mech.mp_v(n + 1)  # edges n+1, ..., n+k: v nonincreasing, so max is v(n+1)
            P, Q = mech.released_law(n), mech.released_law(n + k)
            for direction, (A, Bq) in {"forward": (P, Q), "reverse": (Q, P)}.items():
                d = renyi(A, Bq, alpha, method="quadrature")
                p = {"mechanism": label, "n": n, "k": k, "alpha": alpha, "direction": direction}
                c.compare(p, d.value, "<=", alpha * k ** 2 * rho, tol=d.error,
                          route="released-law quadrature vs alpha k^2 v(n+1)")
                c.compare(p, d.value, "<=", alpha * k ** 2 * mech.mp_v(n), tol=d.error,
                          route="released-law quadrature vs alpha k^2 v(n) (as used in Prop 6.2)")
                ratios.append((d.value / (alpha * k ** 2 * rho), label, n, k, alpha, direction))
    lo = min(ratios, key=lambda t: t[0])
    hi = max(ratios, key=lambda t: t[0])
    c.finding(what="D_alpha(released) / (alpha k^2 v(n+1)) over the mechanism cases",
              smallest=lo[0], at_smallest=str(lo[1:]), largest=hi[0], at_largest=str(hi[1:]))
    # negative control: the linear rule alpha k rho, on the Gaussian chain where the lemma is tight
    s, delta = GAUSS_CHAINS[0]
    rho = formulas.renyi_equal_variance(1, 0, delta, s)
    d = renyi(Gaussian(0, s), Gaussian(3 * delta, s), 2.0, method="quadrature")
    c.control("linear group privacy alpha k rho instead of alpha k^2 rho (Gaussian, k = 3, alpha = 2)",
              d.value, "<=", 2.0 * 3 * rho, tol=d.error)
    c.slack(f"Gaussian chains: |D_alpha - alpha k^2 rho| <= {mpmath.nstr(worst_gauss, 3)} (equality); "
            f"released mechanism: D_alpha / (alpha k^2 v(n+1)) in [{mpmath.nstr(lo[0], 4)}, "
            f"{mpmath.nstr(hi[0], 4)}]")


# ---------------------------------------------------------------------------------------------
# Proposition 6.2: eqs (14) and (15)
# ---------------------------------------------------------------------------------------------


@claim("prop6.2", routes=[
    "eq (14) from exact integer arithmetic for ceil(C_r n), and vectorised float64",
    "the budgets v(n) of three admissible mechanisms over every n = 1..10^5 (shifted log-Gaussian "
    "eq (6) at two calibrations, log-Laplace eps_n^2/2)",
    "limit (15) as the limit of n^2 x (14) along n = 10^k, with an explicit remainder bound"])
def two_count_bound(c):
    N = 10 ** 4 if c.quick else 10 ** 5
    ns = np.arange(1, N + 1)
    rs = [R] if c.quick else [R, Fraction(1, 2), Fraction(1, 100)]
    # (a) the vectorised float64 bound against the exact rational one, at every n
    arr = B.two_count_bound_array(ns, R)
    step = 1 if not c.quick else 7
    worst = max(abs(Fraction(float(arr[i])) - B.two_count_bound_exact(int(ns[i]), R))
                / B.two_count_bound_exact(int(ns[i]), R) for i in range(0, N, step))
    c.compare({"r": R, "n": f"1..{N}" + (" step 7" if step > 1 else "")}, float(worst), "<=",
              B.TWO_COUNT_ARRAY_RTOL, route="float64 array vs exact rational (relative error)")
    m_exact = B.two_count_m_array(ns, R)
    m_float_r = B.two_count_m_array(ns, 0.1)
    tight = int(np.sum(m_exact * 81 == 169 * ns))  # C_r n integer: m = C_r n exactly
    c.finding(what="ceil(C_r n) for r = 1/10 exactly vs the binary double nearest 0.1",
              n_range=f"1..{N}", differing_n=int(np.sum(m_exact != m_float_r)),
              n_with_C_r_n_integer=tight,
              note="C_r = 169/81: at n = 81 j, C_r n is an integer and the Markov sum equals (1+r)/2; "
                   "the double 0.1 is slightly above 1/10, so there m is one larger")
    # (b) admissible mechanisms sit above (14) at every n
    worst_ratio = None
    for r in rs:
        bound = B.two_count_bound_array(ns, r)
        for label, mech in mechanisms(r).items():
            v = mech.v_array(ns)
            ratio = v / bound
            i = int(np.argmin(ratio))
            n_star = int(ns[i])
            c.compare({"mechanism": label, "r": r, "n": f"1..{N} (min of v/bound)"}, float(ratio[i]),
                      ">=", 1, tol=1e-12, route="float64 v(n) / (14)")
            c.compare({"mechanism": label, "r": r, "n": n_star}, mech.mp_v(n_star), ">=",
                      B.two_count_bound(n_star, r), tol=0, route="mpmath at the tightest n")
            if worst_ratio is None or ratio[i] < worst_ratio[0]:
                worst_ratio = (float(ratio[i]), label, r, n_star)
            c.finding(mechanism=label, r=r, min_v_over_bound=float(ratio[i]), at_n=n_star,
                      v_over_bound_at_N=float(ratio[-1]))
    # (c) limit (15): n^2 x (14) -> (1-r)^6/(128 r^2 (1+r)^2), within the explicit remainder
    n_seq = [10 ** k for k in range(1, 6 if c.quick else 9)]
    for r in rs:
        lim = B.two_count_limit(r)
        seq = []
        for n in n_seq:
            val = mpmath.mpf(n) ** 2 * B.two_count_bound(n, r)
            rem = B.two_count_limit_remainder(n, r)
            eps = mpmath.mpf(10) ** (-c.dps + 5)
            c.compare({"r": r, "n": n}, lim - val, ">=", 0, tol=eps, route="(15) - n^2 (14) >= 0")
            c.compare({"r": r, "n": n}, lim - val, "<=", rem, tol=eps, route="(15) - n^2 (14) <= remainder")
            seq.append(val)
        c.note(f"r = {r}: n^2 x (14) at n = 10^1..10^{len(n_seq)}: "
               + ", ".join(mpmath.nstr(v, 10) for v in seq) + f"; (15) = {mpmath.nstr(lim, 10)}")
        for label, mech in mechanisms(r).items():
            n_big = 10 ** 6
            c.compare({"mechanism": label, "r": r, "n": n_big}, mpmath.mpf(n_big) ** 2 * mech.mp_v(n_big),
                      ">=", lim, tol=0, route="mechanism's n^2 v(n) vs (15)")
    n_last = n_seq[-1]
    val = mpmath.mpf(n_last) ** 2 * B.two_count_bound(n_last, R)
    wrong = B.two_count_limit(R) * 128 / 127
    c.control(f"limit (15) with 128 replaced by 127 (r = 1/10, n = {n_last})", wrong - val, "<=",
              B.two_count_limit_remainder(n_last, R), tol=mpmath.mpf(10) ** (-c.dps + 5))
    c.slack(f"smallest v(n)/(14) over the mechanisms and n <= {N}: {worst_ratio[0]:.4g} "
            f"({worst_ratio[1]}, r = {worst_ratio[2]}, n = {worst_ratio[3]}); no violation of (14)")


# ---------------------------------------------------------------------------------------------
# Proposition 6.2: the proof's steps
# ---------------------------------------------------------------------------------------------


def _kl_released(mech, n, m):
    P, Q = mech.released_law(n), mech.released_law(m)
    if isinstance(mech, B.LogLaplaceMechanism):
        return B.kl_divergence(P, Q)
    d = kl(P, Q, method="quadrature")
    return d.value, d.error


@claim("prop6.2.steps", routes=[
    "exact rational arithmetic and mpmath at high precision for the algebra (C_r - 1, the Markov sum)",
    "exact tail probabilities (closed-form cdf, and quadrature of the density) of concrete mechanisms",
    "mpmath quadrature of d_TV (split at the density crossing) and KL against their closed forms",
    "the proof's bounds: Markov, d_TV >= (1-r)/2, KL <= (m-n)^2 v(n), Pinsker"])
def proof_steps(c):
    tol = mpmath.mpf(10) ** (-c.dps + 5)
    # (a) C_r - 1 = 8 r (1 + r)/(1 - r)^2, exactly and at high precision
    grid = [Fraction(k, 40) for k in range(1, 40)] if c.quick else [Fraction(k, 400) for k in range(1, 400)]
    grid += [Fraction(0.1), Fraction(0.37), Fraction(1, 3)]
    worst_exact = max(abs(B.C_r_exact(r) - 1 - 8 * r * (1 + r) / (1 - r) ** 2) for r in grid)
    c.compare({"r": f"{len(grid)} values in (0,1)"}, float(worst_exact), "==", 0, tol=0,
              route="exact rationals: max |C_r - 1 - 8r(1+r)/(1-r)^2|")
    worst_mp = max(abs(B.C_r(r) - 1 - B.C_r_minus_one(r)) / B.C_r_minus_one(r) for r in grid)
    c.compare({"r": f"{len(grid)} values in (0,1)"}, worst_mp, "<=", tol, route="mpmath, relative")
    # (b) the Markov sum r(q+1)/(q-1) <= (1+r)/2, and equals rn/(t-n) + rm/(m-t)
    r_grid = [Fraction(k, 20) for k in range(1, 20)] if c.quick else [Fraction(k, 200) for k in range(1, 200)]
    n_grid = range(1, 61) if c.quick else range(1, 301)
    worst_gap, worst_split, n_tight = None, mpmath.mpf(0), 0
    for r in r_grid:
        half = (1 + mpmath.mpf(r.numerator) / r.denominator) / 2
        for n in n_grid:
            m = B.two_count_m(n, r)
            s = B.markov_sum(n, r, m)
            gap = s - half
            if worst_gap is None or gap > worst_gap[0]:
                worst_gap = (gap, r, n)
            n_tight += abs(gap) <= tol
            if n <= 20:
                t, b1, b2 = B.markov_bounds(n, m, r)
                worst_split = max(worst_split, abs(b1 + b2 - s) / s)
    c.compare({"r": f"{len(r_grid)} values", "n": f"1..{n_grid[-1]}"}, worst_gap[0], "<=", 0, tol=tol,
              route="max over the grid of r(q+1)/(q-1) - (1+r)/2")
    c.compare({"r": f"{len(r_grid)} values", "n": "1..20"}, worst_split, "<=", tol,
              route="rn/(t-n) + rm/(m-t) = r(q+1)/(q-1) (relative)")
    c.finding(what="Markov sum at its worst over the grid", gap=worst_gap[0], r=worst_gap[1], n=worst_gap[2],
              tight_points=n_tight, note="tight (equal to (1+r)/2) exactly where C_r n is an integer")
    # (c) the chain on concrete admissible mechanisms
    if c.quick:
        plan = [(R, "shifted log-Gaussian r0=r/2 c=1", 1), (R, "shifted log-Gaussian r0=0.9r c=0.25", 7),
                (R, "log-Laplace r0=r/2 c=1", 2)]
    else:
        plan = [(r, label, n) for r, ns in ((R, (1, 3, 40, 300)), (Fraction(1, 2), (1, 40)))
                for label in mechanisms(r) for n in ns]
    slack_tv = []
    for r, label, n in plan:
        mech = mechanisms(r)[label]
        rm = mpmath.mpf(r.numerator) / r.denominator
        m = B.two_count_m(n, r)
        t, b1, b2 = B.markov_bounds(n, m, r)
        p = {"mechanism": label, "r": r, "n": n, "m": m}
        P, Q = mech.released_law(n), mech.released_law(m)
        # utility at the two counts (admissibility), by quadrature
        for cnt, law in ((n, P), (m, Q)):
            e, ee = B.expected_abs(law, cnt)
            c.compare({**p, "count": cnt}, e, "<=", rm * cnt, tol=ee, route="E|Y - count| <= r count (quadrature)")
        # exact tail probabilities, two routes, then Markov
        Fn_closed = B.released_cdf(mech, n, t)
        Fn_quad, en = B.probability_at_most(P, t)
        Fm_closed = B.released_cdf(mech, m, t)
        Fm_quad, em = B.probability_at_most(Q, t)
        c.compare({**p, "quantity": "P_n(Y <= t)"}, Fn_quad, "==", Fn_closed, tol=en + tol, route="quadrature vs closed cdf")
        c.compare({**p, "quantity": "P_m(Y <= t)"}, Fm_quad, "==", Fm_closed, tol=em + tol, route="quadrature vs closed cdf")
        c.compare({**p, "quantity": "P_n(Y > t)"}, 1 - Fn_closed, "<=", b1, tol=tol, route="Markov rn/(t-n)")
        c.compare({**p, "quantity": "P_m(Y <= t)"}, Fm_closed, "<=", b2, tol=tol, route="Markov rm/(m-t)")
        c.compare({**p, "quantity": "Markov sum"}, b1 + b2, "<=", (1 + rm) / 2, tol=tol, route="sum <= (1+r)/2")
        # total variation (eq 16)
        tv, etv = B.total_variation(P, Q)
        gap_A = Fn_closed - Fm_closed
        c.compare({**p, "quantity": "d_TV"}, tv, "==", B.unclipped_pair_tv(mech, n, m), tol=etv + tol,
                  route="TV quadrature vs closed form (crossing above the clip)")
        c.compare({**p, "quantity": "d_TV"}, tv, ">=", gap_A, tol=etv + tol, route="d_TV >= P_n(A) - P_m(A)")
        c.compare({**p, "quantity": "P_n(A) - P_m(A)"}, gap_A, ">=", (1 - rm) / 2, tol=tol, route="eq (16)")
        # KL and Pinsker
        kv, ke = _kl_released(mech, n, m)
        c.compare({**p, "quantity": "KL"}, kv, "<=", B.unclipped_pair_kl(mech, n, m), tol=ke + tol,
                  route="released KL (quadrature) <= unclipped closed form (data processing)")
        c.compare({**p, "quantity": "KL"}, kv, "<=", (m - n) ** 2 * mech.mp_v(n), tol=ke + tol,
                  route="KL <= (m-n)^2 v(n) (Lemma 6.1, alpha -> 1)")
        c.compare({**p, "quantity": "KL"}, kv, ">=", B.pinsker_lower(tv), tol=ke + 4 * etv + tol, route="Pinsker")
        c.compare({**p, "quantity": "v(n)"}, mech.mp_v(n), ">=", B.two_count_bound(n, r), tol=0,
                  route="the chain's conclusion (14)")
        slack_tv.append(tv - (1 - rm) / 2)
    # why the alternative mechanism is log-Laplace and not Y = n + Laplace(b n): count-proportional
    # scales are unequal, and D_alpha(P_{n+1} || P_n) is infinite for alpha >= n + 1 (the exponent
    # y ((alpha-1)/n - alpha/(n+1))/b of the Renyi integrand stops decaying); the library's tail
    # analysis finds it, so that mechanism violates definition 2.1 (like Section 7's Gaussian)
    for n in (1, 3):
        lap = renyi(B.laplace_law(n + 1, 0.1 * (n + 1)), B.laplace_law(n, 0.1 * n), n + 1.5, method="quadrature")
        c.finding(what="count-proportional Laplace Y = n + Laplace(0.1 n) is not admissible", n=n,
                  alpha=n + 1.5, D_alpha_reverse=lap.value, reason=lap.reason)
    # negative control: a smaller C_r makes the Markov sum exceed (1+r)/2 somewhere
    shrunk = B.C_r_exact(R) * Fraction(999, 1000)
    worst = None
    for n in range(1, 3001):
        s = B.markov_sum(n, R, B.two_count_m(n, R, C=shrunk))
        gap = s - (1 + mpmath.mpf(1) / 10) / 2
        worst = gap if worst is None or gap > worst else worst
    c.control("Markov sum with m = ceil(0.999 C_r n) stays <= (1+r)/2 (r = 1/10, n <= 3000)",
              worst, "<=", 0, tol=tol)
    c.slack(f"Markov sum: worst r(q+1)/(q-1) - (1+r)/2 = {mpmath.nstr(worst_gap[0], 3)} (tight at "
            f"{n_tight} grid points where C_r n is an integer); d_TV - (1-r)/2 >= "
            f"{mpmath.nstr(min(slack_tv), 4)} on the mechanisms")


if __name__ == "__main__":
    from countdp.harness.runner import script_main

    raise SystemExit(script_main(__file__))
