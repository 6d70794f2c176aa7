"""Sections 6.2-6.3 of the paper: the many-count information argument.

Claims lem6.3 (absolute error forces information, eq 17) and thm6.4 (the many-count inequality
(19) and its two halves (21), (22)).  The priors it is applied to (Corollaries 6.5 and 6.7) are
checked in sec6_priors.py.

Rates and limits are checked along sequences: a remainder that is O(1/N) is shown by the ratio
N x |remainder| staying bounded over decades, with the stated rule "every later ratio is at
most twice the larger of the first two"; a wrong limit makes that ratio grow like N and fails.

Each claim's block ends with its ``FAULTS``: the transcription mistakes its check must catch
(``countdp faults``).
"""

import math
from fractions import Fraction

import mpmath
from flint import fmpq

from countdp import formulas
from countdp.arb.lower_bounds import laplace_entropy_integrals, uniform_abs_mean_integral
from countdp.arb.verdicts import Verdict, decide_contains, decide_lt, verdict_all
from countdp.divergence.information import (differential_entropy, estimator_error,
                                            many_count_bound_for_prior, mutual_information,
                                            mutual_information_mc, prior_moments, shannon_entropy)
from countdp.harness.claims import certificate, claim
from countdp.harness.faults import fault, replace_body, scale, set_attribute
from countdp.laws import Gaussian, PointMass
from countdp.laws.expectation import mc_abs_error
from countdp.laws.moments import expected_distance
from countdp.laws.priors import (best_uniform_size, binomial_prior, discrete_laplace_prior,
                                 quantized_truncated_gaussian_prior, uniform_prior)
from countdp.laws.reference import Laplace, Logistic, Triangular, Uniform
from countdp.mechanisms import ShiftedLogGaussian
from countdp.mechanisms.log_laplace import LogLaplaceMechanism
from countdp.numerics.tolerance import working_precision

from _common import PREC, ENCLOSED, R
from _many_count import bounded_ratios, mechanism, truncated_normal

TITLE = "Sections 6.2-6.3: the many-count information argument (Lemma 6.3, Theorem 6.4)"
FAULTS = []  # the fault catalogue: each claim block below adds its own faults


# ---------------------------------------------------------------------------------------------
# Lemma 6.3
# ---------------------------------------------------------------------------------------------


def _channels(quick):
    """name -> (channel j -> law of Y given J = j, offset of the estimator Y - offset,
    whether Monte Carlo is informative (not for near-noiseless channels, whose confusion events are
    too rare for a 5-SE interval to mean anything), law of the additive noise or None)."""
    out = {
        "J + N(0, 0.1^2)": (lambda j: Gaussian(j, 0.1), 0, False, Gaussian(0, 0.1)),
        "J + N(0, 0.5^2)": (lambda j: Gaussian(j, 0.5), 0, True, Gaussian(0, 0.5)),
        "J + Laplace(0.5)": (lambda j: Laplace(j, 0.5), 0, True, Laplace(0, 0.5)),
        "released mechanism at 5 + J (r = 0.5, r0 = r/2, c = 1)":
            (lambda j, m=mechanism(Fraction(1, 2)): m.released_law(5 + j), 5, True, None),
    }
    if not quick:
        out.update({
            "J + N(0, 2^2)": (lambda j: Gaussian(j, 2.0), 0, True, Gaussian(0, 2.0)),
            "J + Laplace(0.1)": (lambda j: Laplace(j, 0.1), 0, False, Laplace(0, 0.1)),
            "J + Laplace(2)": (lambda j: Laplace(j, 2.0), 0, True, Laplace(0, 2.0)),
            "released mechanism at 5 + J (r = 0.1, r0 = r/2, c = 1)":
                (lambda j, m=mechanism(R): m.released_law(5 + j), 5, False, None),
        })
    return out


def _per_count(cname, noise, quick_cache):
    """E|Y_j - (offset + j)| for each j: E|W| by mpmath quadrature of the noise law (the same for
    every j of an additive channel), or the mechanism's exact released error (eq 9 + clipping)."""
    if noise is not None:
        if cname not in quick_cache:
            quick_cache[cname] = expected_distance(noise, 0)
        est = quick_cache[cname]
        return (lambda j: est.value), est.error
    r = Fraction(1, 2) if "r = 0.5" in cname else R
    mech = mechanism(r)
    return (lambda j: mech.expected_abs_error_released(5 + j)), mpmath.mpf(0)


def _lemma_ingredients(check, draws, U, e):
    """E|U| = 1/4 for the dither U (``e``: E|U| by quadrature), and h(W) <= log(2e E|W|) with
    equality for the Laplace law; returns the gaps log(2e E|W|) - h(W)."""
    check.compare({"quantity": "E|U|"}, e.value, "==", formulas.dither_abs_mean(), tol=e.error,
                  route="quadrature")
    mc = mc_abs_error(U, 0, check.rng("dither"), draws)
    check.compare({"quantity": "E|U|", "draws": draws}, mc.mean, "==", formulas.dither_abs_mean(),
                  tol=mc.halfwidth, route="Monte Carlo")
    laws = {"Gaussian(0, 1.3)": (Gaussian(0, 1.3), (), "<"),
            "Uniform(-1, 1)": (Uniform(-1, 1), (), "<"),
            "Logistic(0, 0.7)": (Logistic(0, 0.7), (0,), "<"),
            "Triangular(0, 2)": (Triangular(0, 2), (0,), "<"),
            "Laplace(0, 0.8)": (Laplace(0, 0.8), (0,), "==")}
    gaps = {}
    for name, (law, br, rel) in laws.items():
        h = differential_entropy(law, br)
        a = expected_distance(law, 0, br)
        cap = formulas.laplace_entropy(a.value)
        check.compare({"law": name, "quantity": "h(W) vs log(2e E|W|)"}, h.value, rel, cap,
                      tol=h.error + a.error / a.value, route="quadrature of h and of E|W|")
        gaps[name] = cap - h.value
    return gaps


def _proof_algebra_17(check, dither, tol):
    """The proof's last line: (17) is H(J) minus the largest entropy log(2e d) (the Laplace law,
    its own formula) at d = D + E|U|, E|U| by quadrature -- (17) and the maximum entropy are
    written from their own displays, so this is an identity between two formulas."""
    for H in (mpmath.log(5), mpmath.mpf("2.5")):
        for D in ("0", "0.01", "0.3", "2", "40"):
            D = mpmath.mpf(D)
            check.compare({"H(J)": H, "D": D}, formulas.information_floor(H, D), "==",
                          H - formulas.laplace_entropy(D + dither.value),
                          tol=dither.error / (D + dither.value) + tol,
                          route="(17) = H(J) - log(2e(D + E|U|)) (maximum entropy at D + E|U|)")


#: the Monte Carlo cross-check of I(J;Y) runs on these many (prior, channel) pairs (not on the
#: near-noiseless channels); the check asserts it never covers fewer
MC_CROSSCHECKED = {True: 3, False: 10}


def _channel_cases(check, draws):
    """(17) on the channels: I(J;Y) by quadrature (and Monte Carlo where informative) against
    H(J) - log(2e(D + 1/4)) at the estimator's exact error D.  Returns the tightest case, the
    near-noiseless case of the controls and the Monte Carlo coverage (done, pairs)."""
    priors = {"uniform K=5": uniform_prior(5)}
    if not check.quick:
        priors["binomial(8, 0.4)"] = binomial_prior(8, 0.4)
    worst, control_case, covered, pairs = None, None, 0, 0
    for pname, prior in priors.items():
        H = shannon_entropy(prior)
        cache = {}
        for cname, (ch, offset, use_mc, noise) in _channels(check.quick).items():
            p = {"prior": pname, "channel": cname}
            info = mutual_information(prior, ch)
            pairs += 1
            if use_mc:
                covered += 1
                mc = mutual_information_mc(prior, ch, check.rng(pname, cname), draws)
                check.compare({**p, "draws": draws}, info.value, "==", mc.mean, tol=mc.halfwidth + info.error,
                              route="quadrature vs Monte Carlo")
            per, per_err = _per_count(cname, noise, cache)
            D = estimator_error(prior, ch, offset, per_count=per)
            D_err = D.error + per_err
            lb = formulas.information_floor(H, D.value)
            check.compare({**p, "D": D.value}, info.value, ">=", lb,
                          tol=info.error + D_err / (D.value + mpmath.mpf(1) / 4),
                          route="I(J;Y) >= H(J) - log(2e(D + 1/4))")
            if worst is None or info.value - lb < worst[0]:
                worst = (info.value - lb, pname, cname)
            if cname == "J + N(0, 0.1^2)" and pname == "uniform K=5":
                control_case = (info, H, D.value)
    return worst, control_case, (covered, pairs)


def laplace_bumps(b, copies=3):
    """The near-extremal instance of (17): J made of ``copies`` discrete Laplace bumps of scale b
    (half-width T = 20 b) side by side, equally likely, and Y the centre of J's bump (a
    deterministic quantizer).  Then I(J;Y) = log(copies), Jt(Y) = Y has error D = E|J - centre|,
    and given Y, X = J + U is close to a Laplace law of scale b: the maximum-entropy step of the
    proof is nearly an equality, and the dither costs log(1 + 1/(4D)) ~ 1/(4b).  Returns
    (prior, channel)."""
    T = int(20 * b)
    bump = discrete_laplace_prior(b, T)
    W = 2 * T + 1
    prior = {i * W + k: p / copies for i in range(copies) for k, p in bump.items()}
    return prior, (lambda j: PointMass((j // W) * W + T))


def _near_extremal_17(check):
    """(17) on the quantized Laplace bumps: I(J;Y) - (17) >= 0 and -> 0 like 1/(4b) (the
    bounded-ratio rule on b (I - (17))); returns the gaps and the b = 25 case for the controls."""
    bs = [5, 10, 25] if check.quick else [5, 10, 25, 50, 100]
    gaps, keep = [], None
    for b in bs:
        prior, ch = laplace_bumps(b)
        info = mutual_information(prior, ch)
        H = shannon_entropy(prior)
        D = estimator_error(prior, ch, 0)
        lb = formulas.information_floor(H, D.value)
        p = {"instance": "3 discrete Laplace bumps, Y = bump centre", "b": b, "D": D.value}
        tol = info.error + D.error / D.value
        check.compare(p, info.value, ">=", lb, tol=tol, route="I(J;Y) >= (17) on the near-extremal instance")
        gaps.append(info.value - lb)
        if b == 25:
            keep = (info, H, D, tol)
    bounded_ratios(check, [{"instance": "Laplace bumps", "b": b} for b in bs],
                    [b * g for b, g in zip(bs, gaps)], "b (I(J;Y) - (17)): (17) attained as b -> oo")
    return dict(zip(bs, gaps)), keep


@claim("lem6.3", routes=[
    "I(J;Y) by composite Gauss-Legendre quadrature of sum_j p_j int f_j log(f_j/f_mix) (error: rule "
    "doubling plus a proven tail bound)",
    "Monte Carlo of E log(f_J(Y)/f_mix(Y)) from the channels' own samplers (5 standard errors)",
    "the bound (17) from H(J) (pmf sum) and D = E|J - Jt(Y)| (mpmath quadrature of the noise law; the "
    "mechanism's exact error)",
    "ingredients: E|U| = 1/4 and h(W) <= log(2e E|W|) by mpmath quadrature and Monte Carlo",
    "the proof's algebra: (17) = H(J) - (maximum entropy log(2e d) at d = D + E|U|)",
    "a near-extremal instance: discrete Laplace bumps through a quantizer, I(J;Y) - (17) -> 0"])
def absolute_error_forces_information(check):
    draws = 50_000 if check.quick else 200_000
    tol = working_precision(5)
    U = Uniform(-0.5, 0.5)
    dither = expected_distance(U, 0)
    _proof_algebra_17(check, dither, tol)
    gaps = _lemma_ingredients(check, draws, U, dither)
    worst, (info, H, D), (covered, pairs) = _channel_cases(check, draws)
    check.compare({"quantity": "(prior, channel) pairs cross-checked by Monte Carlo", "of": pairs}, covered,
                  ">=", MC_CROSSCHECKED[check.quick], tol=0, route="coverage of the Monte Carlo route",
                  monte_carlo=False)
    bump_gaps, (b_info, b_H, b_D, b_tol) = _near_extremal_17(check)
    check.control("(17) without the dither term: I >= H(J) - log(2e D) (uniform K=5, J + N(0, 0.1^2))",
                  info.value, ">=", formulas.information_floor(H, D - formulas.dither_abs_mean()), tol=info.error)
    check.control("(17) with e instead of 2e: I >= (17) + log 2 (same pair)",
                  info.value, ">=", formulas.information_floor(H, D) + mpmath.log(2), tol=info.error)
    check.control("(17) 1 % too strong, 2e -> 1.98e: I >= (17) - log 0.99 (Laplace bumps, b = 25)",
                  b_info.value, ">=", formulas.information_floor(b_H, b_D.value) - mpmath.log(mpmath.mpf("0.99")),
                  tol=b_tol)
    check.control("(17) without the dither term on the Laplace bumps (b = 25): I >= H(J) - log(2e D)",
                  b_info.value, ">=", formulas.information_floor(b_H, b_D.value - formulas.dither_abs_mean()),
                  tol=b_tol)
    check.finding(what="log(2e E|W|) - h(W)", **{k: v for k, v in gaps.items()})
    check.finding(what="I(J;Y) - (17) on the Laplace bumps, by scale b",
                  **{f"b={b}": g for b, g in bump_gaps.items()})
    check.slack(f"(17) attained to {float(bump_gaps[25]):.3g} nats on the Laplace bumps at b = 25 "
                f"({float(min(bump_gaps.values())):.3g} at the largest b); smallest I(J;Y) - (17) on the "
                f"channels = {float(worst[0]):.4g} ({worst[1]}, {worst[2]}); Laplace equality gap "
                f"{float(gaps['Laplace(0, 0.8)']):.2g}; Monte Carlo cross-check on {covered}/{pairs} channel pairs")


@certificate("lem6.3", scope="instance")
def ingredients_are_certified(cert):
    """E|U| = 1/4 and the Laplace law's entropy log(2 e d) at E|W| = d, as enclosed integrals;
    the Gaussian and uniform laws with E|W| = d have strictly smaller entropy."""
    with cert.precision(PREC):
        Iu = uniform_abs_mean_integral()
        exact = Verdict.PROVED_TRUE if 2 * (fmpq(1, 2) ** 2 / 2) == fmpq(1, 4) else Verdict.PROVED_FALSE
        cert.record("E|U| = 1/4, U uniform on [-1/2, 1/2]",
                    "exact antiderivative 2 * (1/2)^2/2 = 1/4 (fmpq) and the certified "
                    "integral of |u| (real_abs, analytic flag) encloses 1/4", Iu,
                    verdict_all([exact, decide_contains(Iu, formulas.dither_abs_mean.ball())]))
        for d in (1, fmpq(1, 4)):
            laplace = laplace_entropy_integrals(d)
            with cert.precision(PREC + 64):
                rhs = formulas.laplace_entropy.ball(d)
            gauss = formulas.gaussian_entropy_at_abs_mean.ball(d)
            unif = formulas.uniform_entropy_at_abs_mean.ball(d)
            vd = verdict_all([decide_contains(laplace.entropy, rhs), decide_contains(laplace.abs_mean, d),
                              decide_lt(gauss, laplace.entropy), decide_lt(unif, laplace.entropy)])
            cert.record(f"Laplace(d) entropy = log(2 e d), d={d}",
                        "certified -int f log f encloses log(2ed) and int |x| f encloses d "
                        "(" + ENCLOSED + "); the Gaussian (log(pi d) + 1/2) and uniform "
                        "(log 4d) laws with E|W| = d have strictly smaller entropy "
                        "(separated)", laplace.entropy, vd, E_abs=laplace.abs_mean)


def _floor_17(factor="2e", dither=(1, 4)):
    """eq (17) rewritten: H(J) - log(c (D + dither)), c = 2e, e or 2 pi; dither None: dropped."""
    def body(ctx, entropy, abs_error):
        c = {"2e": 2 * ctx.e, "e": ctx.e, "2pi": 2 * ctx.pi}[factor]
        d = ctx.convert(abs_error) + (ctx.fraction(*dither) if dither else 0)
        return ctx.convert(entropy) - ctx.log(c * d)
    return body


FAULTS += [
    # Lemma 6.3: eq (17) and its ingredients
    fault("lem6.3", "eq (17) with e for 2e", "constant", replace_body(formulas.information_floor, _floor_17("e"))),
    fault("lem6.3", "eq (17) with 1/4 -> 1/2", "constant",
          replace_body(formulas.information_floor, _floor_17(dither=(1, 2)))),
    fault("lem6.3", "eq (17) with 2 pi for 2e", "pi vs e",
          replace_body(formulas.information_floor, _floor_17("2pi"))),
    fault("lem6.3", "eq (17) without the dither 1/4", "shift dropped",
          replace_body(formulas.information_floor, _floor_17(dither=None))),
    fault("lem6.3", "maximum entropy log(e d) for log(2e d)", "constant",
          replace_body(formulas.laplace_entropy, lambda ctx, d: ctx.log(ctx.e * ctx.convert(d)))),
    fault("lem6.3", "E|U| = 1/2 for the dither", "factor", scale(formulas.dither_abs_mean, 2)),
]


# ---------------------------------------------------------------------------------------------
# Theorem 6.4
# ---------------------------------------------------------------------------------------------


def _priors_for_mi(quick):
    """name -> (prior, j*) for the mutual-information cases."""
    q = quantized_truncated_gaussian_prior(1.5, 3)
    out = {"uniform K=11": (uniform_prior(11), 5),
           "quantized truncated Gaussian S=1.5 L=3": (q.pmf, q.offset)}
    if not quick:
        out["binomial(10, 1/2)"] = (binomial_prior(10, 0.5), 5)
    return out


def _two_halves(check, r, n, pname, prior, j_star):
    """(21) and (22) on the mechanism's released law at count n + J, with (17) at the exact D."""
    mech = mechanism(r)
    rm = mpmath.mpf(r.numerator) / r.denominator

    def channel(j):
        return mech.released_law(n + j)

    p = {"r": r, "r0": float(r) / 2, "c": 1, "n": n, "prior": pname}
    m = prior_moments(prior, j_star)
    info = mutual_information(prior, channel)
    up = mech.mp_v(n) * m.second_moment
    lo = formulas.utility_information_floor(m.entropy, m.mean, n, r)
    D = estimator_error(prior, channel, n, per_count=lambda j: mech.expected_abs_error_released(n + j))
    check.compare(p, info.value, "<=", up, tol=info.error, route="(21) I(J;Y) <= v(n) E(J-j*)^2")
    check.compare(p, info.value, ">=", lo, tol=info.error, route="(22) I(J;Y) >= H - log(2e(r(n+EJ)+1/4))")
    check.compare(p, D.value, "<=", rm * (n + m.mean), tol=D.error, route="D <= r(n + EJ)")
    check.compare(p, info.value, ">=", formulas.information_floor(m.entropy, D.value), tol=info.error,
                  route="(17) with the exact D")
    check.compare(p, mech.mp_v(n), ">=",
                  formulas.many_count_bound(m.entropy, m.mean, m.second_moment, n, r), tol=0,
                  route="(19) v(n) >= bound")
    check.note(f"r={r}, n={n}, {pname}: (22) {float(lo):.4f} <= I = {info.value:.6f} <= (21) {float(up):.4g}")


def _exact_priors():
    """name -> ({k: exact probability}, j*): priors with j* != E J (where E(J - j*)^2 exceeds
    Var J), and the symmetric uniform prior of Corollary 6.5."""
    def uniform(K):
        return {k: Fraction(1, K) for k in range(K)}

    return {"uniform K=5, j*=0": (uniform(5), 0), "uniform K=11, j*=2": (uniform(11), 2),
            "uniform K=11, j*=5": (uniform(11), 5),
            "binomial(8, 1/4), j*=3": ({k: Fraction(math.comb(8, k) * 3 ** (8 - k), 4 ** 8) for k in range(9)}, 3)}


def _proof_identities(check, tol):
    """(22) = (17) at D = r(n + EJ), and (19) = [(22)]_+ / E(J - j*)^2, through the library's
    formulas (each written from its own display) and the library's prior moments, with
    E(J - j*)^2 summed exactly from the rational pmf; the vacuous cases ((22) < 0 at large n) are
    included, where (19) must be 0.  Returns how many of the cases were vacuous."""
    vacuous = 0
    for pname, (pmf, j_star) in _exact_priors().items():
        mp_pmf = {k: mpmath.mpf(v.numerator) / v.denominator for k, v in pmf.items()}
        m = prior_moments(mp_pmf, j_star)
        second = sum(v * (k - j_star) ** 2 for k, v in pmf.items())  # exactly
        second_mp = mpmath.mpf(second.numerator) / second.denominator
        for n in (1, 5, 100, 10 ** 4):
            for r in (Fraction(1, 2), R, Fraction(1, 100)):
                p = {"prior": pname, "n": n, "r": r}
                rm = mpmath.mpf(r.numerator) / r.denominator
                utility = formulas.utility_information_floor(m.entropy, m.mean, n, r)
                check.compare({**p, "quantity": "(22)"}, utility, "==",
                              formulas.information_floor(m.entropy, rm * (n + m.mean)), tol=tol,
                              route="(22) = (17) at D = r(n + EJ)")
                bound = many_count_bound_for_prior(mp_pmf, j_star, n, r)
                check.compare({**p, "quantity": "(19)"}, bound, "==", max(utility, 0) / second_mp,
                              tol=tol * (1 + abs(utility)) / second_mp,
                              route="(19) = [(22)]_+ / E(J - j*)^2 (E(J - j*)^2 exact from the pmf)")
                check.compare({**p, "quantity": "(19), moments given"},
                              formulas.many_count_bound(m.entropy, m.mean, second_mp, n, r), "==", bound,
                              tol=tol * (1 + abs(utility)) / second_mp,
                              route="(19) from the formula and from the pmf")
                vacuous += utility < 0
    return vacuous


def _bound_over_decades(check):
    """eq (19) against admissible mechanisms over decades of n (uniform, binomial, quantized
    priors); returns the smallest v(n)/(19) among non-vacuous cases."""
    n_dec = [1, 10, 100, 1000] if check.quick else [1, 10, 100, 1000, 10 ** 4, 10 ** 5]
    L = 3
    x = formulas.gaussian_prior_best_scale(truncated_normal(L)[0])
    mechs = {"shifted log-Gaussian r0=r/2 c=1": mechanism(R),
             "log-Laplace r0=r/2 c=1": LogLaplaceMechanism(0.05, 1, r=0.1)}
    min_ratio = None
    for n in n_dec:
        K = best_uniform_size(n, R).K
        q = quantized_truncated_gaussian_prior(float(x) * 0.1 * n, L)
        priors = {f"uniform K={K}": (uniform_prior(K), (K - 1) // 2),
                  "quantized Gaussian S=x_L r n": (q.pmf, q.offset)}
        if n <= 100:
            for N in (4, 64):
                priors[f"binomial({N}, 1/2)"] = (binomial_prior(N, 0.5), N // 2)
        for pname, (prior, j_star) in priors.items():
            bound = many_count_bound_for_prior(prior, j_star, n, R)
            for mname, mech in mechs.items():
                check.compare({"mechanism": mname, "r": R, "n": n, "prior": pname}, mech.mp_v(n), ">=",
                              bound, tol=0, route="(19) over decades of n")
                if bound > 0:
                    ratio = mech.mp_v(n) / bound
                    if min_ratio is None or ratio < min_ratio[0]:
                        min_ratio = (ratio, mname, n, pname)
    return min_ratio


@claim("thm6.4", routes=[
    "I(J;Y) by quadrature for the mechanism's released law at count n + J",
    "privacy side: v(n) E(J - j*)^2 (eq 21), the mechanism's v(n) from eq (6)",
    "utility side: H(J) - log(2e(r(n + EJ) + 1/4)) (eq 22), and (17) with the exact error D (eq 9 "
    "plus the clipping term)",
    "eq (19) against the budgets of admissible mechanisms over n = 1..10^5",
    "the proof's algebra: (22) = (17) at D = r(n + EJ), (19) = [(22)]_+ / E(J - j*)^2 with "
    "E(J - j*)^2 summed exactly (priors with j* != EJ)"])
def many_count_inequality(check):
    rs = [Fraction(1, 2), R] if check.quick else [Fraction(1, 2), R, Fraction(1, 100)]
    ns = [5] if check.quick else [2, 5, 20]
    vacuous = _proof_identities(check, working_precision(5))
    for r in rs:
        for n in ns:
            for pname, (prior, j_star) in _priors_for_mi(check.quick).items():
                _two_halves(check, r, n, pname, prior, j_star)
    # the privacy half is tight for a weak Gaussian chain: rho = 1/(2 s^2) per edge
    s = 20.0
    prior = uniform_prior(5)
    sec = prior_moments(prior, 2).second_moment
    rho = formulas.renyi_equal_variance(1, 0, 1, s)
    info_g = mutual_information(prior, lambda j: Gaussian(j, s))
    check.compare({"channel": f"J + N(0, {s}^2)", "prior": "uniform K=5", "rho": rho}, info_g.value, "<=",
                  rho * sec, tol=info_g.error, route="(21) on a Gaussian chain (rho = 1/(2 s^2))")
    min_ratio = _bound_over_decades(check)
    # negative controls
    check.control(f"(21) with a factor 0.99: I(J;Y) <= 0.99 rho E(J - j*)^2 (J + N(0, {s}^2), uniform K=5)",
                  info_g.value, "<=", mpmath.mpf("0.99") * rho * sec, tol=info_g.error)
    mech = ShiftedLogGaussian(0.005, 1, r=0.01)
    prior = uniform_prior(11)
    info = mutual_information(prior, lambda j: mech.released_law(5 + j))
    m = prior_moments(prior, 5)
    utility = formulas.utility_information_floor(m.entropy, m.mean, 5, Fraction(1, 100))
    d = mpmath.mpf("0.01") * (5 + m.mean)
    check.control("(22) without the dither term 1/4: I >= H - log(2e r(n + EJ)) (r = 0.01, n = 5, uniform K=11)",
                  info.value, ">=", utility + mpmath.log(1 + formulas.dither_abs_mean() / d), tol=info.error)
    check.slack(f"(19) = [(22)]_+/E(J-j*)^2 and (22) = (17) at D = r(n+EJ) to working precision ({vacuous} "
                f"vacuous cases, where (19) = 0); "
                f"(21) on the Gaussian chain: I / (rho E(J-j*)^2) = {float(info_g.value / (rho * sec)):.6f}; "
                f"smallest v(n)/(19) among non-vacuous cases: {float(min_ratio[0]):.4g} ({min_ratio[1]}, n = "
                f"{min_ratio[2]}, {min_ratio[3]})")


def _floor_22(factor="2e", dither=(1, 4)):
    """eq (22) rewritten: H(J) - log(c (r(n + EJ) + dither))."""
    def body(ctx, entropy, mean, n, r):
        c = 2 * ctx.e if factor == "2e" else ctx.e
        d = ctx.convert(r) * (ctx.convert(n) + ctx.convert(mean)) + ctx.fraction(*dither)
        return ctx.convert(entropy) - ctx.log(c * d)
    return body


def _bound_19(factor="2e", dither=(1, 4), mean_term=True, positive_part=True):
    """eq (19) rewritten: [H(J) - log(c (r(n + EJ) + dither))]_+ / E(J - j*)^2."""
    def body(ctx, entropy, mean, second_moment, n, r):
        c = 2 * ctx.e if factor == "2e" else ctx.e
        d = ctx.convert(r) * (ctx.convert(n) + (ctx.convert(mean) if mean_term else 0))
        bracket = ctx.convert(entropy) - ctx.log(c * (d + (ctx.fraction(*dither) if dither else 0)))
        return (ctx.pos(bracket) if positive_part else bracket) / ctx.convert(second_moment)
    return body


def _variance_for_squared_deviation(pmf, j):
    """E(J - EJ)^2 = Var J, whatever j* is (the mistake: the privacy cost of (19) read as Var J)."""
    ps = [mpmath.mpf(p) for p in pmf.ps]
    mean = mpmath.fsum(p * k for k, p in zip(pmf.ks, ps))
    return mpmath.fsum(p * (k - mean) ** 2 for k, p in zip(pmf.ks, ps))


FAULTS += [
    # Theorem 6.4: eqs (19) and (22)
    fault("thm6.4", "eq (22) with e for 2e", "constant",
          replace_body(formulas.utility_information_floor, _floor_22("e"))),
    fault("thm6.4", "eq (22) with 1/4 -> 1/2", "constant",
          replace_body(formulas.utility_information_floor, _floor_22(dither=(1, 2)))),
    fault("thm6.4", "eq (19) with e for 2e", "constant", replace_body(formulas.many_count_bound, _bound_19("e"))),
    fault("thm6.4", "eq (19) with 1/4 -> 1/2", "constant",
          replace_body(formulas.many_count_bound, _bound_19(dither=(1, 2)))),
    fault("thm6.4", "eq (19) without the dither 1/4", "shift dropped",
          replace_body(formulas.many_count_bound, _bound_19(dither=None))),
    fault("thm6.4", "eq (19) with r n for r(n + EJ)", "dropped term",
          replace_body(formulas.many_count_bound, _bound_19(mean_term=False))),
    fault("thm6.4", "eq (19) without the positive part", "sign",
          replace_body(formulas.many_count_bound, _bound_19(positive_part=False))),
    fault("thm6.4", "eq (19) with Var J for E(J - j*)^2", "other",
          set_attribute("countdp.divergence.information", "squared_deviation", _variance_for_squared_deviation)),
]


if __name__ == "__main__":
    from countdp.harness.cli import script_main

    raise SystemExit(script_main(__file__))
