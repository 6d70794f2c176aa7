"""Sections 6.4-6.5 of the paper: the many-count bound under two priors.

Claims cor6.5 (the uniform prior: eq (23), the limit (24), the optimum (25)), lem6.6 (fine
quantization, eqs 26-28) and cor6.7 (the truncated Gaussian prior: eqs (30), (31) and the
constant pi/(4e^2) of eq 29).  The inequality they apply, Theorem 6.4, is checked in
sec6_information.py.

Rates and limits are checked along sequences: a remainder that is O(1/N) is shown by the ratio
N x |remainder| staying bounded over decades, with the stated rule "every later ratio is at
most twice the larger of the first two"; a wrong limit makes that ratio grow like N and fails.

Each claim's block ends with its ``FAULTS``: the transcription mistakes its check must catch
(``countdp faults``).
"""

import math
from fractions import Fraction

import mpmath
import numpy as np
from flint import arb

from countdp import formulas
from countdp.arb.lower_bounds import certify_uniform_prior_maximum, truncated_normal_integrals
from countdp.arb.verdicts import decide_contains, decide_decimal, decide_lt, verdict_all
from countdp.divergence.information import (differential_entropy, many_count_bound_for_prior, prior_moments,
                                            shannon_entropy)
from countdp.harness.claims import certificate, claim
from countdp.harness.faults import fault, offset_argument, replace_body, scale, wrap_body
from countdp.laws.moments import law_moments
from countdp.laws.priors import (best_gaussian_prior_scale, best_uniform_scale, best_uniform_size,
                                 quantized_truncated_gaussian, quantized_truncated_gaussian_prior,
                                 uniform_prior, uniform_size_near)
from countdp.laws.reference import RaisedCosine, Triangular, TruncatedGaussian, TruncatedLaplace, Uniform
from countdp.mechanisms import ShiftedLogGaussian
from countdp.mechanisms.log_laplace import LogLaplaceMechanism
from countdp.numerics.tolerance import working_precision

from _common import PREC, ENCLOSED, R
from _many_count import bounded_ratios, mechanism, ratios_ok, truncated_normal
from figures import sec6_priors as plots

TITLE = "Sections 6.4-6.5: the many-count bound under two priors (Corollaries 6.5 to 6.7)"
FAULTS = []  # the fault catalogue: each claim block below adds its own faults


# ---------------------------------------------------------------------------------------------
# Corollary 6.5
# ---------------------------------------------------------------------------------------------


def _uniform_identities(check, tol):
    """H(J) = log K, EJ = (K-1)/2, E(J - j*)^2 = (K^2-1)/12 from the pmf, and (23) = (19)."""
    for K in ([3, 11] if check.quick else [3, 5, 11, 101, 1001]):
        m = prior_moments(uniform_prior(K), (K - 1) // 2)
        check.compare({"K": K, "quantity": "H(J)"}, m.entropy, "==", mpmath.log(K), tol=tol * K,
                      route="pmf sum vs log K")
        check.compare({"K": K, "quantity": "EJ"}, m.mean, "==", mpmath.mpf(K - 1) / 2, tol=tol * K,
                      route="pmf sum")
        check.compare({"K": K, "quantity": "E(J-j*)^2"}, m.second_moment, "==", (mpmath.mpf(K) ** 2 - 1) / 12,
                      tol=tol * K ** 2, route="pmf sum")
        for n in (1, 10, 1000):
            for r in (R, Fraction(1, 1000)):
                check.compare({"K": K, "n": n, "r": r}, formulas.uniform_prior_bound(n, K, r), "==",
                              many_count_bound_for_prior(uniform_prior(K), (K - 1) // 2, n, r), tol=tol,
                              route="(23) closed form vs (19) from the pmf")


def _best_sizes(check):
    """The best odd K per n against admissible mechanisms, and K/(rn) against the maximiser of
    (24) at the same r."""
    mech = mechanism(R)
    ll = LogLaplaceMechanism(0.05, 1, r=0.1)
    n_dec = [10 ** k for k in range(0, 5 if check.quick else 7)]
    best = []
    for n in n_dec:
        size = best_uniform_size(n, R)
        best.append((n, size.K, float(size.K / (0.1 * n)), size.bound))
        for mname, m in (("shifted log-Gaussian r0=r/2 c=1", mech), ("log-Laplace r0=r/2 c=1", ll)):
            check.compare({"mechanism": mname, "r": R, "n": n, "K": size.K}, m.mp_v(n), ">=", size.bound,
                          tol=0, route="v(n) >= (23) at the best odd K")
    a_r = best_uniform_scale(0.1).argmax
    big = [(n, K) for n, K, _, _ in best if n >= 10]
    bounded_ratios(check, [{"r": R, "n": n, "K": K, "quantity": "K/(rn) vs argmax_a (24) at r"} for n, K in big],
                    [abs(mpmath.mpf(K) / (mpmath.mpf("0.1") * n) - a_r) * n / 10 for n, K in big],
                    "r n |K_n/(rn) - argmax (24)|")
    check.finding(what="best odd K per n (r = 1/10) and K/(rn)", argmax_24_at_r=a_r,
                  table="; ".join(f"n={n}: K={K}, K/(rn)={q:.4f}, (23)={float(v):.4g}" for n, K, q, v in best))


def _limit_24(check, a_star):
    """The limit (24) along K_n/(rn) -> a: O(1/(rn)) by the bounded-ratio rule; returns the
    first target's (a, r, r as mpf, sequence) and the counts, for the negative control."""
    n_seq = [10 ** k for k in range(2, 6 if check.quick else 8)]
    targets = [(a_star, R)] if check.quick else [(a_star, R), (mpmath.mpf(15), R), (a_star, Fraction(1, 100))]
    keep = None
    for a, r in targets:
        rm = mpmath.mpf(r.numerator) / r.denominator
        lim = formulas.uniform_prior_limit(a, rm)
        seq = [rm ** 2 * n ** 2 * formulas.uniform_prior_bound(n, uniform_size_near(a, r, n), r) for n in n_seq]
        ratios = [rm * n * abs(s_ - lim) for n, s_ in zip(n_seq, seq)]
        bounded_ratios(check, [{"a": a, "r": r, "n": n} for n in n_seq], ratios, "r n |r^2 n^2 (23) - (24)|")
        check.note(f"a = {mpmath.nstr(a, 8)}, r = {r}: r^2 n^2 (23) = "
                   + ", ".join(mpmath.nstr(s_, 8) for s_ in seq) + f" -> (24) = {mpmath.nstr(lim, 10)}")
        if keep is None:
            keep = (a, r, rm, seq)
    return keep, n_seq


def _optimum_25(check, a_star, tol):
    """eq (25): the r -> 0 optimum by the numerical maximiser, and the iterated limit r -> 0 of
    the maximiser of (24); returns the r = 0 maximum."""
    best = best_uniform_scale(0)
    constant = formulas.uniform_prior_constant()
    check.compare({"r": 0, "quantity": "argmax_a (24)"}, best.argmax, "==", a_star, tol=best.argmax_error + tol,
                  route="numerical maximiser vs 2e^{3/2}")
    check.compare({"r": 0, "quantity": "max (24)"}, best.value, "==", constant, tol=tol,
                  route="numerical max vs 3/(2e^3)")
    check.compare({"r": 0, "quantity": "3/(2e^3) ~ 0.0746806"}, constant, "==", mpmath.mpf("0.0746806"),
                  tol=mpmath.mpf("5e-8"), route="paper's decimal")
    check.compare({"r": 0, "quantity": "bracket log(a/(2e)) at the optimum"},
                  mpmath.log(best.argmax / (2 * mpmath.e)), "==", mpmath.mpf(1) / 2,
                  tol=best.argmax_error / best.argmax + tol, route="first-order condition")
    r_seq = [mpmath.mpf(10) ** -k for k in range(1, 5 if check.quick else 7)]
    opt = [best_uniform_scale(r) for r in r_seq]
    bounded_ratios(check, [{"r": r, "quantity": "argmax"} for r in r_seq],
                    [abs(o.argmax - a_star) / r for o, r in zip(opt, r_seq)], "|argmax (24) - 2e^{3/2}| / r")
    bounded_ratios(check, [{"r": r, "quantity": "max"} for r in r_seq],
                    [abs(o.value - constant) / r for o, r in zip(opt, r_seq)], "|max (24) - 3/(2e^3)| / r")
    return best


def _over_two_count(check, best, tol):
    """The factor 192/e^3 over the two-count constant; the two-count small-r constant 1/128."""
    tiny = [mpmath.mpf(10) ** -k for k in (3, 6, 9)]
    for r in tiny:
        check.compare({"r": r, "quantity": "r^2 (15)"}, r ** 2 * formulas.two_count_limit(r), "==",
                      formulas.two_count_constant(), tol=8 * r / 128,
                      route="two-count constant as r -> 0 (|remainder| <= 8r/128)")
    ratio = best.value / (tiny[-1] ** 2 * formulas.two_count_limit(tiny[-1]))
    factor = formulas.uniform_over_two_count()
    check.compare({"quantity": "(3/(2e^3)) / (1/128)"}, ratio, "==", factor, tol=8 * tiny[-1] * ratio + tol,
                  route="numerical max / two-count constant vs 192/e^3")
    check.compare({"quantity": "192/e^3 ~ 9.56"}, factor, "==", mpmath.mpf("9.56"), tol=mpmath.mpf("0.005"),
                  route="paper's decimal")


@claim("cor6.5", routes=[
    "eq (23) in closed form",
    "eq (19) with H(J), EJ and E(J - j*)^2 summed from the uniform pmf",
    "the sequence r^2 n^2 (23) along K_n = odd integer nearest a r n, against the limit (24)",
    "numerical maximisation (grid, golden section, root of the numerical derivative) vs eq (25)"])
def uniform_prior_bound(check):
    tol = working_precision(5)
    _uniform_identities(check, tol)
    _best_sizes(check)
    a_star = formulas.uniform_prior_best_scale()
    (a, r, rm, seq), n_seq = _limit_24(check, a_star)
    best = _optimum_25(check, a_star, tol)
    _over_two_count(check, best, tol)
    # negative controls
    check.control("the maximiser of (24) at r -> 0 is e^{3/2} (half of (25)'s)", best.argmax, "==", a_star / 2,
                  tol=best.argmax_error + tol)
    check.control("the maximum of (24) at r -> 0 is 3/e^3 (twice (25)'s)", best.value, "==",
                  2 * formulas.uniform_prior_constant(), tol=tol)
    wrong = formulas.uniform_prior_limit(a, rm) * 12 / mpmath.mpf("12.1")
    ratios = [rm * n * abs(s_ - wrong) for n, s_ in zip(n_seq, seq)]
    ok, last, cap = ratios_ok(ratios)
    check.control_outcome("limit (24) with 12 replaced by 12.1 (a = 2e^{3/2}, r = 1/10): bounded-ratio rule",
                          not ok, f"last ratio {mpmath.nstr(last, 4)} vs cap {mpmath.nstr(cap, 4)}")
    check.slack(f"argmax at r -> 0: |a - 2e^(3/2)| = {mpmath.nstr(abs(best.argmax - a_star), 3)}; "
                f"(3/(2e^3))/(1/128) = {mpmath.nstr(formulas.uniform_over_two_count(), 6)}")


@certificate("cor6.5", scope="claim")
def uniform_prior_maximum_is_certified(cert):
    """The maximiser 2e^{3/2} and maximum 3/(2e^3) of eq (24) at r -> 0 by branch and bound on
    the sign of its slope; the decimal 192/e^3 ~ 9.56."""
    res = certify_uniform_prior_maximum(prec=PREC)
    cert.record("argmax of (12/a^2)log(a/(2e)) is 2e^{3/2}, max 3/(2e^3)", res.note,
                arb(res.extra["g_max_enclosure"]), res.verdict, boxes=res.boxes, **res.extra)
    with cert.precision(PREC):
        factor = formulas.uniform_over_two_count.ball()
        cert.record("192/e^3 ~ 9.56", "|value - decimal| <= half unit in last place", factor,
                    decide_decimal(factor, "9.56"))


def _bound_23(twelve_over_K2=False, half_K=False, factor="2e"):
    """eq (23) rewritten: 12/(K^2 - 1) [log(K / (c (r(n + (K-1)/2) + 1/4)))]_+."""
    def body(ctx, n, K, r):
        K = ctx.convert(K)
        c = 2 * ctx.e if factor == "2e" else ctx.e
        d = ctx.convert(r) * (ctx.convert(n) + ((K if half_K else K - 1) / 2)) + ctx.fraction(1, 4)
        return 12 * ctx.pos(ctx.log(K / (c * d))) / (K * K - (0 if twelve_over_K2 else 1))
    return body


FAULTS += [
    # Corollary 6.5: eqs (23)-(25)
    fault("cor6.5", "eq (23) with 12/K^2 for 12/(K^2 - 1)", "dropped term",
          replace_body(formulas.uniform_prior_bound, _bound_23(twelve_over_K2=True))),
    fault("cor6.5", "eq (23) with K/2 for (K-1)/2", "index",
          replace_body(formulas.uniform_prior_bound, _bound_23(half_K=True))),
    fault("cor6.5", "eq (23) with e for 2e", "constant",
          replace_body(formulas.uniform_prior_bound, _bound_23(factor="e"))),
    fault("cor6.5", "eq (25) a* = 2e^{1/2} for 2e^{3/2}", "exponent",
          replace_body(formulas.uniform_prior_best_scale, lambda ctx: 2 * ctx.exp(ctx.fraction(1, 2)))),
    fault("cor6.5", "eq (25) 3/(2e^2) for 3/(2e^3)", "exponent",
          replace_body(formulas.uniform_prior_constant, lambda ctx: 3 / (2 * ctx.e ** 2))),
    fault("cor6.5", "eq (24) with 1 + ar for 1 + ar/2", "factor",
          replace_body(formulas.uniform_prior_limit, lambda ctx, a, r: 12 * ctx.pos(ctx.log(
              ctx.convert(a) / (2 * ctx.e * (1 + ctx.convert(a) * ctx.convert(r))))) / ctx.convert(a) ** 2)),
    fault("cor6.5", "192/e^2 for 192/e^3", "exponent",
          replace_body(formulas.uniform_over_two_count, lambda ctx: 192 / ctx.e ** 2)),
]


# ---------------------------------------------------------------------------------------------
# Lemma 6.6
# ---------------------------------------------------------------------------------------------

SUPPORTS = [(-3.0, 3.0), (-1.0, 2.5)]  # Z = N(0,1) conditioned on [a, b]: symmetric and skewed


def _quantization_sequence(check, p, seq_name, S_seq, a, b, h, mean, second, zmax):
    """(26) by the bounded-ratio rule and (27), (28) by the proof's pointwise bounds along S_seq."""
    ratios, params, diffs = [], [], []
    for S in S_seq:
        q_S = quantized_truncated_gaussian(S, a, b)
        m = prior_moments(q_S, 0)
        q = {**p, "S": S, "sequence": seq_name}
        check.compare({**q, "quantity": "sum p"}, float(np.sum(q_S.ps)), "==", 1, tol=len(q_S.ks) * 4e-15)
        d = m.entropy - float(formulas.quantized_entropy(S, h))
        diffs.append(d)
        ratios.append(S * abs(d))
        params.append(q)
        check.compare({**q, "quantity": "H(Q_S) - log S - h(Z)"}, d, ">=", 0, tol=1e-13 * (1 + abs(m.entropy)),
                      route="(26) from above: Jensen on each cell gives H(Q_S) >= log S + h(Z)")
        tol_m = 1e-13 * (1 + S * abs(float(mean)))
        check.compare({**q, "quantity": "|E Q_S - S E Z|"}, abs(m.mean - float(formulas.quantized_mean(S, mean))),
                      "<=", formulas.quantized_mean_remainder(), tol=tol_m, route="(27)")
        check.compare({**q, "quantity": "|E Q_S^2 - S^2 E Z^2|"},
                      abs(m.second_moment - float(formulas.quantized_second_moment(S, second))), "<=",
                      formulas.quantized_second_moment_remainder(S, zmax), tol=1e-13 * S * S * second, route="(28)")
    bounded_ratios(check, params, ratios, "S |H(Q_S) - log S - h(Z)|")
    check.compare({**params[-1], "quantity": "|H(Q_S) - log S - h(Z)| shrinks"}, abs(diffs[-1]), "<",
                  abs(diffs[0]) / 10 ** (len(S_seq) - 2), tol=0, route="remainder shrinks over the decades")
    check.note(f"[a, b] = [{a}, {b}], {seq_name}: H(Q_S) - log S - h(Z) along S = "
               + ", ".join(f"{S:g}" for S in S_seq) + ": " + ", ".join(f"{d:.3e}" for d in diffs))


def _truncated_normal_closed_vs_quadrature(check, a, b):
    """h(Z), E Z and Var Z of N(0,1) conditioned on [a, b]: closed forms vs quadrature."""
    law = TruncatedGaussian(a, b)
    h = formulas.truncated_normal_entropy(a, b)
    mean = formulas.truncated_normal_mean(a, b)
    var = formulas.truncated_normal_variance(a, b)
    hq = differential_entropy(law)
    mq = law_moments(law)
    p = {"a": a, "b": b}
    check.compare({**p, "quantity": "h(Z)"}, hq.value, "==", h, tol=hq.error, route="quadrature vs closed form")
    check.compare({**p, "quantity": "E Z"}, mq.mean, "==", mean, tol=mq.error, route="quadrature vs closed form")
    check.compare({**p, "quantity": "Var Z"}, mq.variance, "==", var, tol=mq.error,
                  route="quadrature vs closed form")
    return h, mean, var


def _quantized_uniform(S, lo, hi):
    """The exact pmf of Q_S = round(S Z) for Z uniform on (lo, hi] (rationals; ties at a
    half-integer go up, a null event): {k: P(Q_S = k)}."""
    half = Fraction(1, 2)
    pmf = {}
    for k in range(math.floor(S * lo - half), math.ceil(S * hi + half) + 1):
        a, b = max(lo, (k - half) / S), min(hi, (k + half) / S)
        if b > a:
            pmf[k] = (b - a) / (hi - lo)
    return pmf


def _remainders_attained(check):
    """The explicit remainders of (27) and (28) (from |Q_S - S Z| <= 1/2) are attained: for Z
    uniform on (1/(2S), (1/2 + delta)/S] every S Z sits just above 1/2, Q_S = 1, so
    E Q_S - S E Z = 1/2 - delta/2 and E Q_S^2 - S^2 E Z^2 = 3/4 - delta/2 - delta^2/3, against
    1/2 and S max|Z| + 1/4 = 3/4 + delta.  Exact rationals; returns the smallest ratio."""
    delta = Fraction(1, 1000)
    smallest = None
    for S in (1, 10, 100):
        lo, hi = Fraction(1, 2 * S), (Fraction(1, 2) + delta) / S
        pmf = _quantized_uniform(S, lo, hi)
        EQ = sum(p * k for k, p in pmf.items())
        EQ2 = sum(p * k * k for k, p in pmf.items())
        EZ, EZ2 = (lo + hi) / 2, (lo * lo + lo * hi + hi * hi) / 3
        p = {"Z": "uniform on (1/(2S), (1/2 + 1/1000)/S]", "S": S}
        first = abs(EQ - formulas.quantized_mean.exact(S, EZ))
        second = abs(EQ2 - formulas.quantized_second_moment.exact(S, EZ2))
        for what, gap, cap in (("(27)", first, formulas.quantized_mean_remainder.exact()),
                               ("(28)", second, formulas.quantized_second_moment_remainder.exact(S, hi))):
            check.compare({**p, "quantity": f"{what} remainder"}, float(gap), "<=", float(cap), tol=0,
                          route=f"{what}: the proof's explicit remainder (exact rationals)")
            check.compare({**p, "quantity": f"{what} remainder / its bound"}, float(gap / cap), ">=",
                          float(1 - 2 * delta), tol=0, route=f"{what}: the explicit remainder is attained")
            smallest = min(smallest or 1, gap / cap)
    return smallest


@claim("lem6.6", routes=[
    "the exact pmf of Q_S: mpmath Phi differences and cancellation-free float64 cell integrals",
    "closed forms of h(Z), E Z, E Z^2 for the truncated Gaussian (checked against mpmath quadrature)",
    "sequences over S = 1..10^5: H(Q_S) - log S - h(Z) by the bounded-ratio rule; (27), (28) by the "
    "proof's pointwise bounds |Q_S - S Z| <= 1/2 and |2 S Z Delta + Delta^2| <= S max|Z| + 1/4",
    "exact rationals for Z uniform just above a half-integer cell edge, where those pointwise bounds "
    "are attained"])
def fine_quantization(check):
    S_seq = [10 ** k for k in range(0, 5 if check.quick else 6)]
    for a, b in SUPPORTS:
        h, mean, var = _truncated_normal_closed_vs_quadrature(check, a, b)
        p = {"a": a, "b": b}
        for S in ([1, 10] if check.quick else [1, 10, 100]):
            pm = quantized_truncated_gaussian(S, a, b, "mp").ps
            pf = quantized_truncated_gaussian(S, a, b, "float").ps
            rel = max(abs(float(x) - y) / float(x) for x, y in zip(pm, pf) if x > 0)
            check.compare({**p, "S": S}, rel, "<=", 1e-14,
                          route="float64 cells vs mpmath Phi differences (relative)")
        zmax = max(abs(a), abs(b))
        second = float(var + mean ** 2)
        seqs = {"S = 10^k": S_seq}
        if not check.quick:
            seqs["S = 1.37 x 10^k (cells not aligned with the support)"] = [1.37 * S for S in S_seq]
        for seq_name, seq in seqs.items():
            _quantization_sequence(check, p, seq_name, seq, a, b, h, mean, second, zmax)
    attained = _remainders_attained(check)
    # negative controls: an entropy offset of 10^-3 in (26); the remainder of (27) 1 % too small
    a, b = SUPPORTS[0]
    h = formulas.truncated_normal_entropy(a, b)
    ratios = []
    for S in S_seq:
        H = shannon_entropy(quantized_truncated_gaussian(S, a, b))
        ratios.append(S * abs(H - float(formulas.quantized_entropy(S, h)) - 1e-3))
    ok, last, cap = ratios_ok(ratios)
    check.control_outcome("(26) with h(Z) + 10^-3 as the limit ([-3, 3]): bounded-ratio rule", not ok,
                          f"last ratio {last:.4g} vs cap {cap:.4g}")
    lo, hi = Fraction(1, 2), Fraction(1, 2) + Fraction(1, 1000)
    gap = sum(p * k for k, p in _quantized_uniform(1, lo, hi).items()) - (lo + hi) / 2
    check.control("(27)'s remainder 1 % smaller, 0.99/2 (Z uniform on (1/2, 1/2 + 1/1000], S = 1)",
                  float(gap), "<=", float(formulas.quantized_mean_remainder.exact() * Fraction(99, 100)), tol=0)
    check.slack("S |H(Q_S) - log S - h(Z)| settles at a constant on both supports (remainder O(1/S), and "
                f">= 0 by Jensen); the explicit remainders of (27), (28) attained to a ratio {float(attained):.4f}")


FAULTS += [
    # Lemma 6.6: eqs (26)-(28) and the explicit remainders of the proof
    fault("lem6.6", "eq (26) with log(S + 1) for log S", "index",
          offset_argument(formulas.quantized_entropy, "S", 1)),
    fault("lem6.6", "eq (27) with E Z for S E Z", "factor",
          replace_body(formulas.quantized_mean, lambda ctx, S, mean: ctx.convert(mean))),
    fault("lem6.6", "eq (28) with S E Z^2 for S^2 E Z^2", "exponent",
          replace_body(formulas.quantized_second_moment, lambda ctx, S, m2: ctx.convert(S) * ctx.convert(m2))),
    fault("lem6.6", "the O(1) of (27) bounded by 1/4 for 1/2", "constant",
          scale(formulas.quantized_mean_remainder, "0.5")),
    fault("lem6.6", "the O(S) of (28) without its 1/4", "dropped term",
          replace_body(formulas.quantized_second_moment_remainder, lambda ctx, S, zmax:
                       ctx.convert(S) * ctx.convert(zmax))),
]


# ---------------------------------------------------------------------------------------------
# Corollary 6.7
# ---------------------------------------------------------------------------------------------


def _truncated_prior_optimum(check, L, tol):
    """h_L and tau_L^2 against quadrature; eq (30) at r -> 0 maximised over x: x_L, bracket 1/2,
    value (31); for L >= 2 the quadrature value of (31) within the explicit remainder of
    pi/(4e^2)."""
    h, var = truncated_normal(L)
    law = TruncatedGaussian(-L, L)
    hq = differential_entropy(law)
    mq = law_moments(law)
    check.compare({"L": L, "quantity": "h_L"}, hq.value, "==", h, tol=hq.error, route="quadrature vs closed form")
    check.compare({"L": L, "quantity": "tau_L^2"}, mq.variance, "==", var, tol=mq.error,
                  route="quadrature vs closed form")
    best = best_gaussian_prior_scale(L, 0)
    check.compare({"L": L, "quantity": "argmax_x (30), r -> 0"}, best.argmax, "==",
                  formulas.gaussian_prior_best_scale(h), tol=best.argmax_error + tol,
                  route="numerical maximiser vs x_L")
    check.compare({"L": L, "quantity": "bracket at the optimum"}, formulas.gaussian_prior_bracket(best.argmax, h),
                  "==", mpmath.mpf(1) / 2, tol=best.argmax_error / best.argmax + tol, route="first-order condition")
    check.compare({"L": L, "quantity": "max (30) = (31)"}, best.value, "==", formulas.prior_coefficient(h, var),
                  tol=tol, route="numerical max vs e^{2h_L}/(8e^3 tau_L^2)")
    if L >= 2:
        q = formulas.prior_coefficient(hq.value, mq.variance)
        qe = q * (2 * hq.error + mq.error / mq.variance)
        check.compare({"L": L, "quantity": "|(31) - pi/(4e^2)|"}, abs(q - formulas.gaussian_prior_constant()), "<=",
                      formulas.gaussian_prior_constant_remainder(L), tol=qe + tol,
                      route="quadrature value vs pi/(4e^2), explicit remainder")


def _limit_30_and_small_r(check):
    """(30) as the n -> infinity limit of (19) with the quantized prior (L = 3, r = 0.05,
    x = x_L), and the r -> 0 limit of the maximiser of (30) at L = 3."""
    L, r = 3, Fraction(1, 20)
    rm = mpmath.mpf(1) / 20
    h, var = truncated_normal(L)
    x = formulas.gaussian_prior_best_scale(h)
    lim30 = formulas.gaussian_prior_bound(x, h, var, L, rm)
    n_seq = [10 ** k for k in range(2, 5 if check.quick else 6)]
    seq = []
    for n in n_seq:
        q = quantized_truncated_gaussian_prior(float(x * rm * n), L)
        seq.append(rm ** 2 * n ** 2 * many_count_bound_for_prior(q.pmf, q.offset, n, r))
    bounded_ratios(check, [{"L": L, "r": r, "x": x, "n": n} for n in n_seq],
                    [rm * n * abs(s_ - lim30) for n, s_ in zip(n_seq, seq)], "r n |r^2 n^2 (19) - (30)|")
    check.note("L = 3, r = 1/20, x = x_L: r^2 n^2 (19) = " + ", ".join(mpmath.nstr(s_, 8) for s_ in seq)
               + f" -> (30) = {mpmath.nstr(lim30, 10)}")
    r_seq = [mpmath.mpf(10) ** -k for k in range(2, 5 if check.quick else 7)]
    opt = [best_gaussian_prior_scale(3, r_) for r_ in r_seq]
    bounded_ratios(check, [{"L": 3, "r": r_, "quantity": "argmax"} for r_ in r_seq],
                    [abs(o.argmax - x) / r_ for o, r_ in zip(opt, r_seq)], "|argmax (30) - x_L| / r")
    bounded_ratios(check, [{"L": 3, "r": r_, "quantity": "max"} for r_ in r_seq],
                    [abs(o.value - formulas.prior_coefficient(h, var)) / r_ for o, r_ in zip(opt, r_seq)],
                    "|max (30) - (31)| / r")


def _other_priors_below(check):
    """The Gaussian maximises e^{2h}/(8 e^3 Var): other priors sit strictly below pi/(4e^2);
    returns their coefficients."""
    others = {"uniform(-1, 1)": (Uniform(-1, 1), (), formulas.uniform_prior_constant()),
              "triangular(0, 1)": (Triangular(0, 1), (0,), mpmath.mpf(3) / (4 * mpmath.e ** 2)),
              "raised cosine(1)": (RaisedCosine(1), (), None),
              "truncated Laplace(L=3, b=1)": (TruncatedLaplace(3, 1), (0,), None)}
    limit = formulas.gaussian_prior_constant()
    coeffs = {}
    for name, (law, br, closed) in others.items():
        h = differential_entropy(law, br)
        m = law_moments(law, br)
        q = formulas.prior_coefficient(h.value, m.variance)
        qe = q * (2 * h.error + m.error / m.variance)
        coeffs[name] = q
        check.compare({"prior": name}, q, "<", limit, tol=qe, route="quadrature, strictly below pi/(4e^2)")
        if closed is not None:
            check.compare({"prior": name}, q, "==", closed, tol=qe, route="quadrature vs closed form")
    return coeffs


@claim("cor6.7", routes=[
    "closed forms of h_L, tau_L^2 (truncated Gaussian) and x_L = 2 e^{3/2 - h_L}",
    "mpmath quadrature of h and Var from the prior densities",
    "eq (19) with the exact quantized prior J = B + Q_S, S = x r n, along n -> infinity (eq 30)",
    "numerical maximisation of (30) over x (grid, golden section, root of the numerical derivative)"])
def truncated_gaussian_prior(check):
    tol = working_precision(5)
    limit = formulas.gaussian_prior_constant()
    for L in ([3, 8] if check.quick else [0.5, 1, 2, 3, 5, 8]):
        _truncated_prior_optimum(check, L, tol)
    check.compare({"quantity": "pi/(4e^2) ~ 0.1062921"}, limit, "==", mpmath.mpf("0.1062921"),
                  tol=mpmath.mpf("5e-8"), route="paper's decimal")
    _limit_30_and_small_r(check)
    coeffs = _other_priors_below(check)
    # an admissible family above the constant: r0 = r(1-r), c = r at r = 0.01, n = 10^6
    rr = 0.01
    fam = ShiftedLogGaussian(rr * (1 - rr), rr, r=rr)
    n_big = 10 ** 6
    check.compare({"r": rr, "r0": rr * (1 - rr), "c": rr, "n": n_big},
                  mpmath.mpf(rr) ** 2 * n_big ** 2 * fam.mp_v(n_big), ">=", limit, tol=0,
                  route="an admissible family's r^2 n^2 v(n) sits above pi/(4e^2)")
    # negative controls
    check.control("the uniform prior reaches pi/(4e^2)", coeffs["uniform(-1, 1)"], "==", limit,
                  tol=mpmath.mpf(10) ** -20)
    value_8 = formulas.prior_coefficient(*truncated_normal(8))
    check.control("the L -> infinity limit is pi/(2e^2), twice (29) (L = 8, explicit remainder)",
                  abs(value_8 - 2 * formulas.gaussian_prior_constant()), "<=",
                  formulas.gaussian_prior_constant_remainder(8), tol=tol)
    check.slack("pi/(4e^2) - e^{2h}/(8e^3 Var): " + ", ".join(
        f"{k} {float(limit - v):.4g}" for k, v in coeffs.items())
        + f"; |(31) - pi/(4e^2)| at L = 8: {float(abs(value_8 - limit)):.2g}")


@certificate("cor6.7", scope="claim")
def truncated_gaussian_constant_is_certified(cert):
    """e^{2h}/(8e^3) at the Gaussian entropy is pi/(4e^2); the truncated normal's h_L and tau_L^2
    as enclosed integrals contain their closed forms, and eq (31) stays strictly below
    pi/(4e^2) (at PREC + 64 bits: L = 8 needs ~1e-15 relative accuracy)."""
    with cert.precision(PREC + 64):
        target_hp = formulas.gaussian_prior_constant.ball()
    with cert.precision(PREC):
        lim = formulas.prior_coefficient.ball(formulas.standard_normal_entropy.ball(), 1)
        cert.record("e^{2h}/(8e^3 tau^2) at h = log(2 pi e)/2, tau^2 = 1 is pi/(4e^2)",
                    "the limit value encloses pi/(4e^2) (closed form at +64 bits)",
                    lim, decide_contains(lim, target_hp))
    with cert.precision(PREC + 64):
        target = formulas.gaussian_prior_constant.ball()
        for L in (2, 4, 8):
            integrals = truncated_normal_integrals(L)
            with cert.precision(PREC + 128):
                closed = {"Z": formulas.truncated_normal_mass.ball(-L, L),
                          "tau2": formulas.truncated_normal_variance.ball(-L, L),
                          "h": formulas.truncated_normal_entropy.ball(-L, L)}
            enclosed = {"Z": integrals.mass, "tau2": integrals.variance, "h": integrals.entropy}
            value = formulas.prior_coefficient.ball(integrals.entropy, integrals.variance)
            vd = verdict_all([decide_contains(enclosed[k], closed[k]) for k in ("Z", "tau2", "h")]
                             + [decide_lt(value, target)])
            cert.record(f"truncated Gaussian L={L}: h_L, tau_L^2, e^(2h)/(8e^3 tau^2) < pi/(4e^2)",
                        "acb.integral of -f log f, x^2 f, phi on [-L, L] enclose h_L = "
                        "log(sqrt(2pi) Z_L) + tau_L^2/2, tau_L^2 = 1 - 2L phi(L)/Z_L, Z_L = 2Phi(L) - 1 ("
                        + ENCLOSED + "); eq (31) value strictly below pi/(4e^2) (separated)",
                        integrals.entropy, vd, tau2=integrals.variance, Z=integrals.mass, value=value)


FAULTS += [
    # Corollary 6.7: eqs (29)-(31)
    fault("cor6.7", "eq (29) pi/(4e) for pi/(4e^2)", "exponent",
          replace_body(formulas.gaussian_prior_constant, lambda ctx: ctx.pi / (4 * ctx.e))),
    fault("cor6.7", "eq (29) e/(4 pi^2) for pi/(4e^2)", "pi vs e",
          replace_body(formulas.gaussian_prior_constant, lambda ctx: ctx.e / (4 * ctx.pi ** 2))),
    fault("cor6.7", "eq (31) with 8e^2 for 8e^3", "exponent",
          replace_body(formulas.prior_coefficient, lambda ctx, h, var:
                       ctx.exp(2 * ctx.convert(h)) / (8 * ctx.e ** 2 * ctx.convert(var)))),
    fault("cor6.7", "x_L = 2 e^{1/2 - h_L} for 2 e^{3/2 - h_L}", "exponent",
          replace_body(formulas.gaussian_prior_best_scale, lambda ctx, h:
                       2 * ctx.exp(ctx.fraction(1, 2) - ctx.convert(h)))),
    fault("cor6.7", "h_L with log(sqrt(2 pi) M) for log(sqrt(2 pi e) M)", "dropped term",
          wrap_body(formulas.truncated_normal_entropy, lambda ctx, f, a, b: f(ctx, a, b) - ctx.fraction(1, 2))),
    fault("cor6.7", "eq (30) bracket with log(e) for log(2e)", "constant",
          replace_body(formulas.gaussian_prior_bracket, lambda ctx, x, h:
                       ctx.log(ctx.convert(x)) + ctx.convert(h) - 1)),
]


def figures(settings):
    """This script's figures (made by figures/sec6_priors.py)."""
    return plots.make(settings, R, mechanism(R))


if __name__ == "__main__":
    from countdp.harness.cli import script_main

    raise SystemExit(script_main(__file__))
