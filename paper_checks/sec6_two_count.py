"""Section 6.1 of the paper: the two-count lower bound.

Claims prop6.2 (eq 14 for every n and its liminf (15)) and prop6.2.steps (the proof's algebra,
Markov, total-variation, KL and Pinsker steps, measured on three concrete admissible
mechanisms).  The group privacy it applies (Lemma 6.1) is checked in sec6_group_privacy.py.

Each claim's block ends with its ``FAULTS``: the transcription mistakes its check must catch
(``countdp faults``).
"""

import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np

from countdp import formulas
from countdp.arb.lower_bounds import (certify_markov_sum_at_partner, certify_markov_sum_bound,
                                      certify_two_count_bound, ratio_excess_identity)
from countdp.divergence.information import total_variation
from countdp.formulas.lower_bounds import TWO_COUNT_BOUND_FP_RTOL, exact_partner
from countdp.divergence.renyi import kl, renyi
from countdp.harness.claims import certificate, claim
from countdp.harness.faults import fault, offset_argument, replace_body, scale
from countdp.laws import FinitePmf, MixedLaw
from countdp.laws.moments import expected_distance, probability_at_most
from countdp.laws.reference import Laplace
from countdp.mechanisms import ShiftedLogGaussian
from countdp.mechanisms.log_laplace import LogLaplaceMechanism
from countdp.numerics.contexts import exact
from countdp.numerics.tolerance import working_precision

from _common import PREC, R

TITLE = "Section 6.1: the two-count bound (Proposition 6.2)"
FAULTS = []  # the fault catalogue: each claim block below adds its own faults


def mechanisms(r):
    """Admissible mechanisms for E_m|Y - m| <= r m: the paper's default (r0 = r/2, c = 1), a
    second calibration of the same family, and the log-Laplace mechanism."""
    rf = float(r)
    return {
        "shifted log-Gaussian r0=r/2 c=1": ShiftedLogGaussian(rf / 2, 1, r=rf),
        "shifted log-Gaussian r0=0.9r c=0.25": ShiftedLogGaussian(0.9 * rf, 0.25, r=rf),
        "log-Laplace r0=r/2 c=1": LogLaplaceMechanism(rf / 2, 1, r=rf),
    }


# ---------------------------------------------------------------------------------------------
# Proposition 6.2: eqs (14) and (15)
# ---------------------------------------------------------------------------------------------


def _relative_error(approx: float, value: Fraction) -> Fraction:
    """|approx - value| / value, exactly (approx at its binary value)."""
    return abs(Fraction(approx) - value) / value


def _bound_precision_and_partners(check, ns):
    """The float64 evaluation of (14) against its exact rational evaluation (a precision check of
    the one formula), and what the exact ceiling ceil(C_r n) changes against the double 0.1."""
    N = len(ns)
    arr = formulas.two_count_bound.fp(ns, R)
    step = 1 if not check.quick else 7
    worst = max(_relative_error(float(arr[i]), formulas.two_count_bound.exact(int(ns[i]), R))
                for i in range(0, N, step))
    check.compare({"r": R, "n": f"1..{N}" + (" step 7" if step > 1 else "")}, float(worst), "<=",
                  TWO_COUNT_BOUND_FP_RTOL,
                  route="float64 vs exact rational evaluation of (14) (relative rounding error)")
    m_exact = exact_partner(exact, ns, R)
    m_float_r = exact_partner(exact, ns, 0.1)
    tight = int(np.sum(m_exact * 81 == 169 * ns))  # C_r n integer: m = C_r n exactly
    check.finding(what="ceil(C_r n) for r = 1/10 exactly vs the binary double nearest 0.1",
                  n_range=f"1..{N}", differing_n=int(np.sum(m_exact != m_float_r)),
                  n_with_C_r_n_integer=tight,
                  note="C_r = 169/81: at n = 81 j, C_r n is an integer and the Markov sum equals (1+r)/2; "
                       "the double 0.1 is slightly above 1/10, so there m is one larger")


# The proof's chain, met with equality.  At n = j x (denominator of C_r), C_r n is an integer, so
# m = C_r n and q = sqrt(m/n) = q0 = (1+3r)/(1-r): the Markov sum is exactly (1+r)/2.  Two-point
# laws that put all their error budget on the threshold meet both Markov bounds (with equality up
# to the offset EPS n of P_n's upper atom), so P_n(A) - P_m(A) is (1-r)/2 to within EPS: the step
# (16) is attained, and the chain's value 2 (P_n(A) - P_m(A))^2 / (m-n)^2 is (14) to within EPS.
EPS = mpmath.mpf(10) ** -12  # the upper atom of P_n sits at t + EPS n (strictly above t)
ATTAINED = mpmath.mpf(10) ** -6  # relative window in which a near-extremal pair attains a bound


@dataclass(frozen=True)
class MarkovPair:
    """Laws P_n, P_m ({point: mass}, mpmath) at the counts n, m = ceil(C_r n), threshold t."""

    n: int
    m: int
    t: object
    P: dict
    Q: dict

    def error(self, law, count):
        """E|Y - count| under ``law``."""
        return mpmath.fsum(w * abs(y - count) for y, w in law.items())

    def at_most(self, law, x):
        """P(Y <= x) under ``law``."""
        return mpmath.fsum(w for y, w in law.items() if y <= x)

    @property
    def separation(self):
        """P_n(A) - P_m(A) for the proof's test A = {Y <= t}."""
        return self.at_most(self.P, self.t) - self.at_most(self.Q, self.t)

    @property
    def masses(self):
        return list(self.P.values()) + list(self.Q.values())


def markov_pair(n, r) -> MarkovPair:
    """P_n = (1-a) delta_n + a delta_{t+EPS n}, a = rn/(t + EPS n - n), and P_m = b delta_t +
    (1-b) delta_m, b = rm/(m-t), at m = ceil(C_r n) and t = sqrt(mn): E_n|Y-n| = rn and
    E_m|Y-m| = rm (admissible with equality), P_n(Y > t) = a -> rn/(t-n), P_m(Y <= t) = rm/(m-t)."""
    m = formulas.two_count_partner.exact(n, r)
    t = formulas.two_count_threshold(n, m)
    rm = mpmath.mpf(r.numerator) / r.denominator
    hi = t + EPS * n
    a = rm * n / (hi - n)
    b = rm * m / (m - t)
    return MarkovPair(n, m, t, {mpmath.mpf(n): 1 - a, hi: a}, {t: b, mpmath.mpf(m): 1 - b})


def pair_counts(r, quick):
    """(n, tight): the first multiples of the denominator of C_r (tight: C_r n an integer) and a
    few counts where C_r n is not an integer."""
    den = formulas.two_count_ratio.exact(r).denominator
    others = [1, 2, 7] if quick else [1, 2, 3, 7, 40, 300]
    return [(den, True), (2 * den, True)] + [(n, False) for n in others if n % den]


def _admissible_pair(check, p, pair, r, tol):
    """The two laws are probability laws meeting E_k|Y - k| <= r k with equality."""
    rm = mpmath.mpf(r.numerator) / r.denominator
    check.compare({**p, "quantity": "smallest mass"}, min(pair.masses), ">=", 0, tol=0,
                  route="the two-point laws are probability laws")
    for cnt, law in ((pair.n, pair.P), (pair.m, pair.Q)):
        check.compare({**p, "count": cnt}, pair.error(law, cnt), "==", rm * cnt, tol=tol * cnt,
                      route="E|Y - count| = r count (the utility constraint met with equality)")


def _chain_on_markov_pairs(check, rs, tol):
    """(14) against what the proof's chain gives on the near-extremal pairs: 2 (P_n(A) -
    P_m(A))^2 / (m - n)^2 (Pinsker at the pair's separation over the KL factor of Lemma 6.1);
    equal to (14) up to EPS where C_r n is an integer.  Returns the smallest chain value / (14)
    at a tight count and its case."""
    tightest = None
    for r in rs:
        for n, tight in pair_counts(r, check.quick):
            pair = markov_pair(n, r)
            p = {"r": r, "n": n, "m": pair.m, "C_r n integer": tight}
            _admissible_pair(check, p, pair, r, tol)
            chain = formulas.pinsker_kl_floor(pair.separation) / (pair.m - n) ** 2
            bound = formulas.two_count_bound(n, r)
            check.compare(p, bound, "<=", chain, tol=tol * chain,
                          route="(14) <= 2 (P_n(A) - P_m(A))^2/(m-n)^2 on an admissible pair (the proof's chain)")
            if tight:
                check.compare(p, chain / bound - 1, "<=", ATTAINED, tol=tol,
                              route="(14) attained by the chain on the near-extremal pair (relative gap)")
                if tightest is None or chain / bound < tightest[0]:
                    tightest = (chain / bound, r, n, chain)
    return tightest


def _defined(f, *args):
    """``f(*args)``, or None where it divides by zero (a formula undefined at that point)."""
    try:
        return f(*args)
    except ZeroDivisionError:
        return None


def _exact_algebra(check, rs):
    """The proof's algebra as exact rationals: (14) = 2((1-r)/2)^2/(m-n)^2 (Pinsker at the floor
    (16) over the KL factor (m-n)^2) for every n <= N; (15) = the same over (C_r - 1)^2 with
    C_r - 1 = 8r(1+r)/(1-r)^2, and (15) = n^2 (14) wherever C_r n is an integer (there m - n =
    (C_r - 1) n exactly: the limit (15) is reached along those n, from below elsewhere)."""
    N = 2000 if check.quick else 20_000
    for r in rs:
        p = {"r": r, "n": f"1..{N}"}
        ratio = formulas.two_count_ratio.exact(r)
        partners = {n: formulas.two_count_partner.exact(n, r) for n in range(1, N + 1)}
        check.compare(p, sum(not (Fraction(m - 1, n) < ratio <= Fraction(m, n)) for n, m in partners.items()),
                      "==", 0, tol=0, route="exact rationals: m = ceil(C_r n), i.e. (m-1)/n < C_r <= m/n")
        bounds = {n: _defined(formulas.two_count_bound.exact, n, r) for n in partners}
        check.compare(p, sum(b is None for b in bounds.values()), "==", 0, tol=0,
                      route="exact rationals: (14) is defined (finite) at every n")
        kl_floor = formulas.pinsker_kl_floor.exact(formulas.total_variation_floor.exact(r))
        worst = max(abs(b - kl_floor / (partners[n] - n) ** 2) for n, b in bounds.items()
                    if b is not None and partners[n] != n)
        check.compare(p, float(worst), "==", 0, tol=0,
                      route="exact rationals: max |(14) - 2((1-r)/2)^2/(m-n)^2|")
        limit = formulas.two_count_limit.exact(r)
        excess = formulas.two_count_ratio_excess.exact(r)
        check.compare({"r": r, "quantity": "(15)"}, float(abs(limit - kl_floor / excess ** 2)), "==", 0, tol=0,
                      route="exact rationals: (15) - 2((1-r)/2)^2/(C_r - 1)^2")
        den = formulas.two_count_ratio.exact(r).denominator
        for n in (den, 2 * den, 7 * den):
            check.compare({"r": r, "n": n, "quantity": "n^2 (14)"},
                          float(abs(n * n * formulas.two_count_bound.exact(n, r) - limit)), "==", 0, tol=0,
                          route="exact rationals: n^2 (14) - (15) where C_r n is an integer")


def _mechanisms_above_the_bound(check, ns, rs):
    """Every admissible mechanism's v(n) sits above (14) at every n; returns the tightest case."""
    worst_ratio = None
    for r in rs:
        bound = formulas.two_count_bound.fp(ns, r)
        for label, mech in mechanisms(r).items():
            ratio = mech.v_array(ns) / bound
            i = int(np.argmin(ratio))
            n_star = int(ns[i])
            check.compare({"mechanism": label, "r": r, "n": f"1..{len(ns)} (min of v/bound)"},
                          float(ratio[i]), ">=", 1, tol=1e-12, route="float64 v(n) / (14)")
            check.compare({"mechanism": label, "r": r, "n": n_star}, mech.mp_v(n_star), ">=",
                          formulas.two_count_bound(n_star, r), tol=0, route="mpmath at the tightest n")
            if worst_ratio is None or ratio[i] < worst_ratio[0]:
                worst_ratio = (float(ratio[i]), label, r, n_star)
            check.finding(mechanism=label, r=r, min_v_over_bound=float(ratio[i]), at_n=n_star,
                          v_over_bound_at_N=float(ratio[-1]))
    return worst_ratio


def _limit_15(check, rs, n_seq):
    """n^2 x (14) -> (1-r)^6/(128 r^2 (1+r)^2) from below, within the explicit remainder."""
    eps = working_precision(5)
    for r in rs:
        lim = formulas.two_count_limit(r)
        seq = []
        for n in n_seq:
            val = mpmath.mpf(n) ** 2 * formulas.two_count_bound(n, r)
            rem = formulas.two_count_limit_remainder(n, r)
            check.compare({"r": r, "n": n}, lim - val, ">=", 0, tol=eps, route="(15) - n^2 (14) >= 0")
            check.compare({"r": r, "n": n}, lim - val, "<=", rem, tol=eps,
                          route="(15) - n^2 (14) <= remainder")
            seq.append(val)
        check.note(f"r = {r}: n^2 x (14) at n = 10^1..10^{len(n_seq)}: "
                   + ", ".join(mpmath.nstr(v, 10) for v in seq) + f"; (15) = {mpmath.nstr(lim, 10)}")
        for label, mech in mechanisms(r).items():
            n_big = 10 ** 6
            check.compare({"mechanism": label, "r": r, "n": n_big}, mpmath.mpf(n_big) ** 2 * mech.mp_v(n_big),
                          ">=", lim, tol=0, route="mechanism's n^2 v(n) vs (15)")


@claim("prop6.2", routes=[
    "eq (14) with ceil(C_r n) by exact integer arithmetic (its float64 evaluation checked "
    "against the exact rational one)",
    "the budgets v(n) of three admissible mechanisms over every n = 1..10^5 (shifted log-Gaussian "
    "eq (6) at two calibrations, log-Laplace eps_n^2/2)",
    "limit (15) as the limit of n^2 x (14) along n = 10^k, with an explicit remainder bound",
    "the proof's chain on near-extremal two-point pairs (Markov bounds met with equality): "
    "2 (P_n(A) - P_m(A))^2/(m-n)^2 against (14)",
    "exact rational algebra: (14) = Pinsker at (16) over (m-n)^2, (15) = the same over (C_r-1)^2 "
    "and = n^2 (14) where C_r n is an integer"])
def two_count_bound(check):
    N = 10 ** 4 if check.quick else 10 ** 5
    ns = np.arange(1, N + 1)
    rs = [R] if check.quick else [R, Fraction(1, 2), Fraction(1, 100)]
    tol = working_precision(5)
    _exact_algebra(check, [R, Fraction(1, 2), Fraction(1, 100)])
    _bound_precision_and_partners(check, ns)
    tightest = _chain_on_markov_pairs(check, rs, tol)
    worst_ratio = _mechanisms_above_the_bound(check, ns, rs)
    n_seq = [10 ** k for k in range(1, 6 if check.quick else 9)]
    _limit_15(check, rs, n_seq)
    n_last = n_seq[-1]
    val = mpmath.mpf(n_last) ** 2 * formulas.two_count_bound(n_last, R)
    wrong = formulas.two_count_limit(R) * 128 / 127
    check.control(f"limit (15) with 128 replaced by 127 (r = 1/10, n = {n_last})", wrong - val, "<=",
                  formulas.two_count_limit_remainder(n_last, R), tol=working_precision(5))
    ratio, r_t, n_t, chain = tightest
    check.control(f"(14) 1 % too strong against the chain on the near-extremal pair (r = {r_t}, n = {n_t})",
                  formulas.two_count_bound(n_t, r_t) * mpmath.mpf("1.01"), "<=", chain, tol=tol * chain)
    check.slack(f"(14) is the chain's value on a near-extremal two-point pair to a relative "
                f"{mpmath.nstr(ratio - 1, 3)} (r = {r_t}, n = {n_t}); smallest v(n)/(14) over the mechanisms "
                f"and n <= {N}: {worst_ratio[0]:.4g} ({worst_ratio[1]}, r = {worst_ratio[2]}, n = {worst_ratio[3]})")


@certificate("prop6.2", scope="instance")
def budget_above_two_count_bound(cert):
    """v(n) >= eq (14) by ball separation and n^2 (14) <= eq (15) exactly, n = 1..N."""
    N = 1000 if cert.quick else 10_000
    for rr in ("0.05", "0.1", "0.25", "0.5", "0.9"):
        res = certify_two_count_bound(N, rr, prec=PREC)
        cert.record(f"v(n) >= eq14 bound, r={rr}, r0=r/2, c=1, n = 1..{N}",
                    "ball v(n) >= exact rational bound; n^2 bound <= eq15 limit",
                    None, res.verdict, boxes=res.boxes)


def _two_count_bound_miscopied(keep_n=True, power=2):
    """eq (14) rewritten with the gap ceil(C_r n) - n (or, wrongly, ceil(C_r n)) and (1 - r)^power."""
    def body(ctx, n, r):
        m = exact_partner(ctx, n, r)
        gap = ctx.convert(m - n if keep_n else m)
        try:
            num = ctx.convert((1 - exact.convert(r)) ** power)
        except TypeError:
            num = (1 - ctx.convert(r)) ** power
        return num / (2 * gap * gap)
    return body


def _two_count_limit_miscopied(power=6, sixteen_eights=128, r_power=2):
    def body(ctx, r):
        r = ctx.convert(r)
        return (1 - r) ** power / (sixteen_eights * r ** r_power * (1 + r) ** 2)
    return body


FAULTS += [
    # Proposition 6.2: eqs (14) and (15)
    fault("prop6.2", "eq (14) twice too strong", "factor", scale(formulas.two_count_bound, 2)),
    fault("prop6.2", "eq (14) 100x too strong", "factor", scale(formulas.two_count_bound, 100)),
    fault("prop6.2", "C_r with 3r -> 2r", "constant",
          replace_body(formulas.two_count_ratio_root, lambda ctx, r:
                       (1 + 2 * ctx.convert(r)) / (1 - ctx.convert(r)))),
    fault("prop6.2", "C_r without its square", "exponent",
          replace_body(formulas.two_count_ratio, lambda ctx, r: formulas.two_count_ratio_root(ctx, r))),
    fault("prop6.2", "m = floor(C_r n) for ceil(C_r n)", "index",
          replace_body(formulas.two_count_partner, lambda ctx, n, r:
                       ctx.floor(formulas.two_count_ratio(ctx, r) * n))),
    fault("prop6.2", "ceil(C_r n) - n -> ceil(C_r n) in eq (14)", "dropped term",
          replace_body(formulas.two_count_bound, _two_count_bound_miscopied(keep_n=False))),
    fault("prop6.2", "(1 - r)^2 -> (1 - r) in eq (14)", "exponent",
          replace_body(formulas.two_count_bound, _two_count_bound_miscopied(power=1))),
    fault("prop6.2", "n - 1 for n in eq (14)", "index", offset_argument(formulas.two_count_bound, "n", -1)),
    fault("prop6.2", "eq (15) with 128 -> 64", "factor",
          replace_body(formulas.two_count_limit, _two_count_limit_miscopied(sixteen_eights=64))),
    fault("prop6.2", "eq (15) with (1-r)^6 -> (1-r)^4", "exponent",
          replace_body(formulas.two_count_limit, _two_count_limit_miscopied(power=4))),
    fault("prop6.2", "eq (15) with r^2 -> r", "exponent",
          replace_body(formulas.two_count_limit, _two_count_limit_miscopied(r_power=1))),
]


# ---------------------------------------------------------------------------------------------
# Proposition 6.2: the proof's steps
# ---------------------------------------------------------------------------------------------


def _markov_sum_at_partner(n, r):
    """(m, r(q+1)/(q-1)) at m = ceil(C_r n), q = sqrt(m/n)."""
    m = formulas.two_count_partner.exact(n, r)
    return m, formulas.markov_sum(r, mpmath.sqrt(mpmath.mpf(m) / n))


def _ratio_identity(check, tol):
    """C_r - 1 = 8 r (1 + r)/(1 - r)^2, exactly and at high precision."""
    grid = [Fraction(k, 40) for k in range(1, 40)] if check.quick else [Fraction(k, 400) for k in range(1, 400)]
    grid += [Fraction(0.1), Fraction(0.37), Fraction(1, 3)]
    worst_exact = max(abs(formulas.two_count_ratio.exact(r) - 1 - formulas.two_count_ratio_excess.exact(r))
                      for r in grid)
    check.compare({"r": f"{len(grid)} values in (0,1)"}, float(worst_exact), "==", 0, tol=0,
                  route="exact rationals: max |C_r - 1 - 8r(1+r)/(1-r)^2|")
    worst_mp = max(abs(formulas.two_count_ratio(r) - 1 - formulas.two_count_ratio_excess(r))
                   / formulas.two_count_ratio_excess(r) for r in grid)
    check.compare({"r": f"{len(grid)} values in (0,1)"}, worst_mp, "<=", tol, route="mpmath, relative")


def _markov_sums(check, tol):
    """The Markov sum r(q+1)/(q-1) <= (1+r)/2 over a grid of (r, n), and equals
    rn/(t-n) + rm/(m-t); returns (worst gap, its r, its n) and the number of tight points."""
    r_grid = [Fraction(k, 20) for k in range(1, 20)] if check.quick else [Fraction(k, 200) for k in range(1, 200)]
    n_grid = range(1, 61) if check.quick else range(1, 301)
    worst_gap, worst_split, n_tight = None, mpmath.mpf(0), 0
    for r in r_grid:
        limit = formulas.markov_sum_limit(r)
        for n in n_grid:
            m, s = _markov_sum_at_partner(n, r)
            gap = s - limit
            if worst_gap is None or gap > worst_gap[0]:
                worst_gap = (gap, r, n)
            n_tight += abs(gap) <= tol
            if n <= 20:
                t = formulas.two_count_threshold(n, m)
                split = formulas.markov_exceedance(n, t, r) + formulas.markov_shortfall(m, t, r)
                worst_split = max(worst_split, abs(split - s) / s)
    check.compare({"r": f"{len(r_grid)} values", "n": f"1..{n_grid[-1]}"}, worst_gap[0], "<=", 0, tol=tol,
                  route="max over the grid of r(q+1)/(q-1) - (1+r)/2")
    check.compare({"r": f"{len(r_grid)} values", "n": "1..20"}, worst_split, "<=", tol,
                  route="rn/(t-n) + rm/(m-t) = r(q+1)/(q-1) (relative)")
    check.finding(what="Markov sum at its worst over the grid", gap=worst_gap[0], r=worst_gap[1],
                  n=worst_gap[2], tight_points=n_tight,
                  note="tight (equal to (1+r)/2) exactly where C_r n is an integer")
    return worst_gap, n_tight


def _log_distance(mech, n, m):
    """log((m + c)/(n + c)): the translation between log(U_n + c) and log(U_m + c)."""
    cc = mpmath.mpf(mech.c)
    return mpmath.log((m + cc) / (n + cc))


def _unclipped_pair_tv(mech, n, m):
    """d_TV(U_n, U_m) in closed form: log(U + c) is a translate by log((m+c)/(n+c)) of an
    equal-variance Gaussian (eq 10) or an equal-scale Laplace law.  The released (clipped) pair
    has the same value whenever the densities cross above the clip point (the clipped region
    lies where the lower count's law dominates)."""
    delta = _log_distance(mech, n, m)
    if isinstance(mech, LogLaplaceMechanism):
        return formulas.laplace_shift_total_variation(delta, mech.mp_b())
    return formulas.gaussian_shift_total_variation(delta, mech.mp_sigma())


def _unclipped_pair_kl(mech, n, m):
    """KL(U_n || U_m) in closed form: eq (12) at alpha = 1, or the Laplace KL |D| - 1 + e^{-|D|} of
    D = log((m+c)/(n+c))/b.  An upper bound for the released pair (clipping is postprocessing)."""
    if isinstance(mech, LogLaplaceMechanism):
        return formulas.laplace_kl(_log_distance(mech, n, m) / mech.mp_b())
    return formulas.renyi_counts(1, n, m, mech.c, mech.mp_sigma())


def _released_cdf(mech, n, y):
    """P_n(Y <= y), y >= 0, from the mechanism's closed-form cdf."""
    if isinstance(mech, LogLaplaceMechanism):
        return mech.mp_cdf_released(n, y)
    return mech.released_law(n).base.mp_cdf(y)


def _chain_plan(quick):
    """(r, mechanism label, n) of the concrete chains."""
    if quick:
        return [(R, "shifted log-Gaussian r0=r/2 c=1", 1), (R, "shifted log-Gaussian r0=0.9r c=0.25", 7),
                (R, "log-Laplace r0=r/2 c=1", 2)]
    return [(r, label, n) for r, ns in ((R, (1, 3, 40, 300)), (Fraction(1, 2), (1, 40)))
            for label in mechanisms(r) for n in ns]


def _tails_and_markov(check, p, mech, P, Q, n, m, r, tol):
    """Admissibility at n and m, the exact tails at t = sqrt(mn) by two routes, and Markov;
    returns P_n(Y <= t) and P_m(Y <= t)."""
    rm = mpmath.mpf(r.numerator) / r.denominator
    t = formulas.two_count_threshold(n, m)
    for cnt, law in ((n, P), (m, Q)):
        e = expected_distance(law, cnt)
        check.compare({**p, "count": cnt}, e.value, "<=", rm * cnt, tol=e.error,
                      route="E|Y - count| <= r count (quadrature)")
    Fn, Fm = _released_cdf(mech, n, t), _released_cdf(mech, m, t)
    Fn_quad, Fm_quad = probability_at_most(P, t), probability_at_most(Q, t)
    check.compare({**p, "quantity": "P_n(Y <= t)"}, Fn_quad.value, "==", Fn, tol=Fn_quad.error + tol,
                  route="quadrature vs closed cdf")
    check.compare({**p, "quantity": "P_m(Y <= t)"}, Fm_quad.value, "==", Fm, tol=Fm_quad.error + tol,
                  route="quadrature vs closed cdf")
    b1, b2 = formulas.markov_exceedance(n, t, r), formulas.markov_shortfall(m, t, r)
    check.compare({**p, "quantity": "P_n(Y > t)"}, 1 - Fn, "<=", b1, tol=tol, route="Markov rn/(t-n)")
    check.compare({**p, "quantity": "P_m(Y <= t)"}, Fm, "<=", b2, tol=tol, route="Markov rm/(m-t)")
    check.compare({**p, "quantity": "Markov sum"}, b1 + b2, "<=", formulas.markov_sum_limit(r), tol=tol,
                  route="sum <= (1+r)/2")
    return Fn, Fm


def _chain_on_mechanisms(check, tol):
    """The proof's chain on concrete admissible mechanisms; returns d_TV - (1-r)/2 per case."""
    slack_tv = []
    for r, label, n in _chain_plan(check.quick):
        mech = mechanisms(r)[label]
        m = formulas.two_count_partner.exact(n, r)
        p = {"mechanism": label, "r": r, "n": n, "m": m}
        P, Q = mech.released_law(n), mech.released_law(m)
        Fn, Fm = _tails_and_markov(check, p, mech, P, Q, n, m, r, tol)
        # total variation (eq 16)
        tv = total_variation(P, Q)
        floor = formulas.total_variation_floor(r)
        check.compare({**p, "quantity": "d_TV"}, tv.value, "==", _unclipped_pair_tv(mech, n, m),
                      tol=tv.error + tol, route="TV quadrature vs closed form (crossing above the clip)")
        check.compare({**p, "quantity": "d_TV"}, tv.value, ">=", Fn - Fm, tol=tv.error + tol,
                      route="d_TV >= P_n(A) - P_m(A)")
        check.compare({**p, "quantity": "P_n(A) - P_m(A)"}, Fn - Fm, ">=", floor, tol=tol, route="eq (16)")
        # KL and Pinsker
        d = kl(P, Q, method="quadrature")
        check.compare({**p, "quantity": "KL"}, d.value, "<=", _unclipped_pair_kl(mech, n, m), tol=d.error + tol,
                      route="released KL (quadrature) <= unclipped closed form (data processing)")
        check.compare({**p, "quantity": "KL"}, d.value, "<=", (m - n) ** 2 * mech.mp_v(n), tol=d.error + tol,
                      route="KL <= (m-n)^2 v(n) (Lemma 6.1, alpha -> 1)")
        check.compare({**p, "quantity": "KL"}, d.value, ">=", formulas.pinsker_kl_floor(tv.value),
                      tol=d.error + 4 * tv.error + tol, route="Pinsker")
        check.compare({**p, "quantity": "v(n)"}, mech.mp_v(n), ">=", formulas.two_count_bound(n, r), tol=0,
                      route="the chain's conclusion (14)")
        slack_tv.append(tv.value - floor)
    return slack_tv


def _steps_on_markov_pairs(check, rs, tol):
    """The proof's steps on the near-extremal two-point pairs: Markov's bounds met (to EPS) and
    (16) attained where C_r n is an integer, d_TV >= P_n(A) - P_m(A) by the library's d_TV;
    returns the separation / (16) at the first tight pair, and that pair."""
    first = None
    for r in rs:
        floor = formulas.total_variation_floor(r)
        for n, tight in pair_counts(r, check.quick):
            pair = markov_pair(n, r)
            p = {"r": r, "n": n, "m": pair.m, "C_r n integer": tight}
            _admissible_pair(check, p, pair, r, tol)
            over = 1 - pair.at_most(pair.P, pair.t)
            under = pair.at_most(pair.Q, pair.t)
            bound_over = formulas.markov_exceedance(n, pair.t, r)
            check.compare({**p, "quantity": "P_n(Y > t)"}, over, "<=", bound_over, tol=tol,
                          route="Markov rn/(t-n) on the pair")
            check.compare({**p, "quantity": "P_n(Y > t)"}, 1 - over / bound_over, "<=", ATTAINED, tol=tol,
                          route="Markov rn/(t-n) attained (relative gap)")
            check.compare({**p, "quantity": "P_m(Y <= t)"}, under, "==", formulas.markov_shortfall(pair.m, pair.t, r),
                          tol=tol, route="Markov rm/(m-t) attained")
            sep = pair.separation
            check.compare({**p, "quantity": "P_n(A) - P_m(A)"}, sep, ">=", floor, tol=tol,
                          route="eq (16) on an admissible pair")
            if tight:
                check.compare({**p, "quantity": "P_n(A) - P_m(A)"}, sep / floor - 1, "<=", ATTAINED, tol=tol,
                              route="eq (16) attained on the near-extremal pair (relative gap)")
                first = first or (sep / floor, pair, r)
            tv = total_variation(MixedLaw(pair.P, None), MixedLaw(pair.Q, None))
            check.compare({**p, "quantity": "d_TV"}, tv.value, ">=", sep, tol=tv.error + tol,
                          route="d_TV >= P_n(A) - P_m(A) (library d_TV of the pair)")
    return first


def _bernoulli(eps):
    """Ber(1/2 + eps) and Ber(1/2 - eps), exactly."""
    half = Fraction(1, 2)
    return FinitePmf({0: half - eps, 1: half + eps}), FinitePmf({0: half + eps, 1: half - eps})


def _pinsker_attained(check, tol):
    """Pinsker's KL >= 2 d_TV^2 is attained as d_TV -> 0: for Ber(1/2 + eps) vs Ber(1/2 - eps),
    KL / (2 d_TV^2) = 2 artanh(2 eps)/(2 eps) = 1 + 4 eps^2/3 + 16 eps^4/5 + ... <= 1 + 2 eps^2
    (eps <= 1/10); KL and d_TV by the library (summation over the atoms).  Returns the pair at
    eps = 1/100 with its KL and d_TV, for the control."""
    keep = None
    for eps in (Fraction(1, 10), Fraction(1, 100), Fraction(1, 1000)):
        P, Q = _bernoulli(eps)
        d, tv = kl(P, Q, method="quadrature"), total_variation(P, Q)
        floor = formulas.pinsker_kl_floor(tv.value)
        p = {"pair": "Ber(1/2 + eps) vs Ber(1/2 - eps)", "eps": eps}
        err = d.error + 4 * tv.error + tol * d.value
        check.compare(p, d.value, ">=", floor, tol=err, route="Pinsker: KL >= 2 d_TV^2")
        check.compare(p, d.value, "<=", floor * (1 + 2 * mpmath.mpf(eps) ** 2), tol=err,
                      route="Pinsker attained as d_TV -> 0: KL <= (1 + 2 eps^2) 2 d_TV^2")
        if eps == Fraction(1, 100):
            keep = (d, tv)
    return keep


def _proportional_laplace_not_admissible(check):
    """Why the alternative mechanism is log-Laplace and not Y = n + Laplace(b n): count-proportional
    scales are unequal, and D_alpha(P_{n+1} || P_n) is infinite for alpha >= n + 1 (the exponent
    y ((alpha-1)/n - alpha/(n+1))/b of the Renyi integrand stops decaying); the library's tail
    analysis finds it, so that mechanism violates definition 2.1 (like Section 7's Gaussian)."""
    for n in (1, 3):
        lap = renyi(Laplace(n + 1, 0.1 * (n + 1)), Laplace(n, 0.1 * n), n + 1.5, method="quadrature")
        check.finding(what="count-proportional Laplace Y = n + Laplace(0.1 n) is not admissible", n=n,
                      alpha=n + 1.5, D_alpha_reverse=lap.value, reason=lap.reason)


@claim("prop6.2.steps", routes=[
    "exact rational arithmetic and mpmath at high precision for the algebra (C_r - 1, the Markov sum)",
    "exact tail probabilities (closed-form cdf, and quadrature of the density) of concrete mechanisms",
    "mpmath quadrature of d_TV (split at the density crossing) and KL against their closed forms",
    "the proof's bounds: Markov, d_TV >= (1-r)/2, KL <= (m-n)^2 v(n), Pinsker",
    "near-extremal instances: two-point pairs meeting both Markov bounds (16 attained where C_r n "
    "is an integer), and Bernoulli pairs where Pinsker is attained as d_TV -> 0"])
def proof_steps(check):
    tol = working_precision(5)
    _ratio_identity(check, tol)
    worst_gap, n_tight = _markov_sums(check, tol)
    rs = [R, Fraction(1, 2)] if check.quick else [R, Fraction(1, 2), Fraction(1, 100)]
    sep_ratio, pair, r_pair = _steps_on_markov_pairs(check, rs, tol)
    d, tv = _pinsker_attained(check, tol)
    slack_tv = _chain_on_mechanisms(check, tol)
    _proportional_laplace_not_admissible(check)
    check.control(f"eq (16) 1 % too strong on the near-extremal pair (r = {r_pair}, n = {pair.n})",
                  pair.separation, ">=", formulas.total_variation_floor(r_pair) * mpmath.mpf("1.01"), tol=tol)
    check.control("Pinsker 1 % too strong, KL >= 1.01 x 2 d_TV^2 (Ber(1/2 +- 1/100))",
                  d.value, ">=", formulas.pinsker_kl_floor(tv.value) * mpmath.mpf("1.01"), tol=d.error + 4 * tv.error)
    # negative control: a smaller C_r makes the Markov sum exceed (1+r)/2 somewhere
    shrunk = formulas.two_count_ratio.exact(R) * Fraction(999, 1000)
    worst = None
    for n in range(1, 3001):
        m = math.ceil(shrunk * n)
        gap = formulas.markov_sum(R, mpmath.sqrt(mpmath.mpf(m) / n)) - formulas.markov_sum_limit(R)
        worst = gap if worst is None or gap > worst else worst
    check.control("Markov sum with m = ceil(0.999 C_r n) stays <= (1+r)/2 (r = 1/10, n <= 3000)",
                  worst, "<=", 0, tol=tol)
    check.slack(f"Markov sum: worst r(q+1)/(q-1) - (1+r)/2 = {mpmath.nstr(worst_gap[0], 3)} (tight at "
                f"{n_tight} grid points where C_r n is an integer); (16) attained to a relative "
                f"{mpmath.nstr(sep_ratio - 1, 3)} on a two-point pair (r = {r_pair}, n = {pair.n}); Pinsker's "
                f"KL / 2 d_TV^2 = {mpmath.nstr(d.value / formulas.pinsker_kl_floor(tv.value), 8)} at eps = 1/100; "
                f"d_TV - (1-r)/2 >= {mpmath.nstr(min(slack_tv), 4)} on the mechanisms")


@certificate("prop6.2.steps", scope="claim")
def markov_step_is_certified(cert):
    """The Markov sum at the partner count for every n <= N, the identity C_r - 1 =
    8r(1+r)/(1-r)^2, and the Markov sum bound for every q >= q0(r) on boxes of r."""
    N = 1000 if cert.quick else 10_000
    with cert.precision(PREC):
        for rr in ("0.05", "0.1", "0.25", "0.5", "0.9"):
            res = certify_markov_sum_at_partner(N, rr, prec=PREC)
            cert.record(f"Markov sum at q = sqrt(ceil(C_r n)/n), r={rr}, n = 1..{N}",
                        "q >= q0 exact; r(q+1)/(q-1) <= (1+r)/2 decided", None, res.verdict,
                        boxes=res.boxes)
        cert.record("C_r - 1 = 8r(1+r)/(1-r)^2", "exact polynomial identity (fmpq_mpoly)", None,
                    ratio_excess_identity())
        res = certify_markov_sum_bound(nboxes=64 if cert.quick else 256, prec=PREC)
        cert.record("r(q+1)/(q-1) <= (1+r)/2 for q >= q0(r), r in [0.01, 0.99]",
                    "exact identity + signs decided on r-boxes", None, res.verdict, boxes=res.boxes)


FAULTS += [
    # Proposition 6.2: the proof's steps
    fault("prop6.2.steps", "Markov sum r(q+1)/(q-1) -> r(q+1)/(q+1)", "sign",
          replace_body(formulas.markov_sum, lambda ctx, r, q:
                       ctx.convert(r) * (ctx.convert(q) + 1) / (ctx.convert(q) + 1))),
    fault("prop6.2.steps", "Pinsker's factor 2 dropped: KL >= d_TV^2", "factor",
          replace_body(formulas.pinsker_kl_floor, lambda ctx, tv: ctx.convert(tv) ** 2)),
    fault("prop6.2.steps", "eq (16) floor (1-r)/2 -> 1 - r", "factor", scale(formulas.total_variation_floor, 2)),
    fault("prop6.2.steps", "eq (16) floor 1 - (1+r)/2 -> (1+r)/2", "sign",
          replace_body(formulas.total_variation_floor, lambda ctx, r: (1 + ctx.convert(r)) / 2)),
    fault("prop6.2.steps", "C_r - 1 = 4r(1+r)/(1-r)^2 (8 -> 4)", "factor",
          scale(formulas.two_count_ratio_excess, "0.5")),
    fault("prop6.2.steps", "C_r - 1 = 8r(1+r)/(1-r) (square dropped)", "exponent",
          replace_body(formulas.two_count_ratio_excess, lambda ctx, r:
                       8 * ctx.convert(r) * (1 + ctx.convert(r)) / (1 - ctx.convert(r)))),
    fault("prop6.2.steps", "Markov rn/(t-n) -> rn/t", "dropped term",
          replace_body(formulas.markov_exceedance, lambda ctx, n, t, r:
                       ctx.convert(r) * ctx.convert(n) / ctx.convert(t))),
    fault("prop6.2.steps", "threshold t = (m+n)/2 for sqrt(mn)", "other",
          replace_body(formulas.two_count_threshold, lambda ctx, n, m: (ctx.convert(n) + ctx.convert(m)) / 2)),
    fault("prop6.2.steps", "Markov sum limit (1-r)/2 for (1+r)/2", "sign",
          replace_body(formulas.markov_sum_limit, lambda ctx, r: (1 - ctx.convert(r)) / 2)),
    fault("prop6.2.steps", "C_r with 3r -> 2r", "constant",
          replace_body(formulas.two_count_ratio_root, lambda ctx, r:
                       (1 + 2 * ctx.convert(r)) / (1 - ctx.convert(r)))),
]


if __name__ == "__main__":
    from countdp.harness.cli import script_main

    raise SystemExit(script_main(__file__))
