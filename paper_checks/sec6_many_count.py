"""Section 6 (second half) of the paper: the many-count information argument.

Claims lem6.3 (absolute error forces information, eq 17), thm6.4 (the many-count inequality
(19) and its two halves (21), (22)), cor6.5 (the uniform prior: eq (23), the limit (24), the
optimum (25)), lem6.6 (fine quantization, eqs 26-28) and cor6.7 (the truncated Gaussian prior:
eqs (30), (31) and the constant pi/(4e^2) of eq 29).

Rates and limits are checked along sequences: a remainder that is O(1/N) is shown by the ratio
N x |remainder| staying bounded over decades, with the stated rule "every later ratio is at
most twice the larger of the first two"; a wrong limit makes that ratio grow like N and fails.
"""

from fractions import Fraction

import mpmath
import numpy as np

from countdp import bounds as B
from countdp import formulas
from countdp import mechanisms as M
from countdp.harness.claims import claim
from countdp.laws import Gaussian
from countdp.laws.expectation import mc_abs_error

TITLE = "Sections 6.2-6.5: the many-count lower bounds (Lemma 6.3 to Corollary 6.7)"

R = Fraction(1, 10)


def _bounded_ratios(c, params_list, ratios, what):
    """Record 'every later ratio <= 2 x max(first two)' (the O(1/N) rule of the module docstring)."""
    cap = 2 * max(ratios[:2])
    for p, q in list(zip(params_list, ratios))[2:]:
        c.compare(p, q, "<=", cap, tol=0, route=f"{what}: ratio <= 2 x max(first two ratios)")
    return cap


def _ratios_ok(ratios):
    cap = 2 * max(ratios[:2])
    return all(q <= cap for q in ratios[2:]), ratios[-1], cap


def _mechanism(r, c=1):
    rf = float(r)
    return M.ShiftedLogGaussian(rf / 2, c, r=rf)


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
        "J + Laplace(0.5)": (lambda j: B.laplace_law(j, 0.5), 0, True, B.laplace_law(0, 0.5)),
        "released mechanism at 5 + J (r = 0.5, r0 = r/2, c = 1)":
            (lambda j, m=_mechanism(Fraction(1, 2)): m.released_law(5 + j), 5, True, None),
    }
    if not quick:
        out.update({
            "J + N(0, 2^2)": (lambda j: Gaussian(j, 2.0), 0, True, Gaussian(0, 2.0)),
            "J + Laplace(0.1)": (lambda j: B.laplace_law(j, 0.1), 0, False, B.laplace_law(0, 0.1)),
            "J + Laplace(2)": (lambda j: B.laplace_law(j, 2.0), 0, True, B.laplace_law(0, 2.0)),
            "released mechanism at 5 + J (r = 0.1, r0 = r/2, c = 1)":
                (lambda j, m=_mechanism(R): m.released_law(5 + j), 5, False, None),
        })
    return out


def _per_count(cname, noise, quick_cache):
    """E|Y_j - (offset + j)| for each j: E|W| by mpmath quadrature of the noise law (the same for
    every j of an additive channel), or the mechanism's exact released error (eq 9 + clipping)."""
    if noise is not None:
        if cname not in quick_cache:
            quick_cache[cname] = B.expected_abs(noise, 0)
        val, err = quick_cache[cname]
        return (lambda j: val), err
    r = Fraction(1, 2) if "r = 0.5" in cname else R
    mech = _mechanism(r)
    return (lambda j: mech.expected_abs_error_released(5 + j)), mpmath.mpf(0)


@claim("lem6.3", routes=[
    "I(J;Y) by composite Gauss-Legendre quadrature of sum_j p_j int f_j log(f_j/f_mix) (error: rule "
    "doubling plus a proven tail bound)",
    "Monte Carlo of E log(f_J(Y)/f_mix(Y)) from the channels' own samplers (5 standard errors)",
    "the bound (17) from H(J) (pmf sum) and D = E|J - Jt(Y)| (mpmath quadrature of the noise law; the "
    "mechanism's exact error)",
    "ingredients: E|U| = 1/4 and h(W) <= log(2e E|W|) by mpmath quadrature and Monte Carlo"])
def absolute_error_forces_information(c):
    draws = 50_000 if c.quick else 200_000
    # ingredient 1: the uniform dither has E|U| = 1/4
    U = B.uniform_law(-0.5, 0.5)
    e, ee = B.expected_abs(U, 0)
    c.compare({"quantity": "E|U|"}, e, "==", B.uniform_dither_abs_mean(), tol=ee, route="quadrature")
    mc = mc_abs_error(U, 0, c.rng("dither"), draws)
    c.compare({"quantity": "E|U|", "draws": draws}, mc.mean, "==", 0.25, tol=mc.halfwidth, route="Monte Carlo")
    # ingredient 2: h(W) <= log(2e E|W|), equality for the Laplace law
    laws = {"Gaussian(0, 1.3)": (Gaussian(0, 1.3), (), "<"),
            "Uniform(-1, 1)": (B.uniform_law(-1, 1), (), "<"),
            "Logistic(0, 0.7)": (B.logistic_law(0, 0.7), (0,), "<"),
            "Triangular(0, 2)": (B.triangular_law(0, 2), (0,), "<"),
            "Laplace(0, 0.8)": (B.laplace_law(0, 0.8), (0,), "==")}
    gaps = {}
    for name, (law, br, rel) in laws.items():
        h, he = B.differential_entropy(law, br)
        a, ae = B.expected_abs(law, 0, br)
        cap = B.max_entropy_at_abs_mean(a)
        c.compare({"law": name, "quantity": "h(W) vs log(2e E|W|)"}, h, rel, cap, tol=he + ae / a,
                  route="quadrature of h and of E|W|")
        gaps[name] = cap - h
    # the lemma on concrete pairs
    priors = {"uniform K=5": B.uniform_prior(5)}
    if not c.quick:
        priors["binomial(8, 0.4)"] = B.binomial_prior(8, 0.4)
    worst = None
    control_case = None
    for pname, prior in priors.items():
        H = B.shannon_entropy(prior)
        cache = {}
        for cname, (ch, offset, use_mc, noise) in _channels(c.quick).items():
            p = {"prior": pname, "channel": cname}
            info = B.mutual_information(prior, ch)
            if use_mc:
                mc = B.mutual_information_mc(prior, ch, c.rng(pname, cname), draws)
                c.compare({**p, "draws": draws}, info.value, "==", mc.mean, tol=mc.halfwidth + info.error,
                          route="quadrature vs Monte Carlo")
            per, per_err = _per_count(cname, noise, cache)
            D, De = B.estimator_error(prior, ch, offset, per_count=per)
            De += per_err
            lb = B.information_lower_bound(H, D)
            c.compare({**p, "D": D}, info.value, ">=", lb, tol=info.error + De / (D + mpmath.mpf(1) / 4),
                      route="I(J;Y) >= H(J) - log(2e(D + 1/4))")
            if worst is None or info.value - lb < worst[0]:
                worst = (info.value - lb, pname, cname)
            if cname == "J + N(0, 0.1^2)" and pname == "uniform K=5":
                control_case = (info, H, D)
    info, H, D = control_case
    c.control("(17) without the dither term: I >= H(J) - log(2e D) (uniform K=5, J + N(0, 0.1^2))",
              info.value, ">=", H - mpmath.log(2 * mpmath.e * D), tol=info.error)
    c.control("(17) with e instead of 2e: I >= H(J) - log(e(D + 1/4)) (same pair)",
              info.value, ">=", H - mpmath.log(mpmath.e * (D + mpmath.mpf(1) / 4)), tol=info.error)
    c.finding(what="log(2e E|W|) - h(W)", **{k: v for k, v in gaps.items()})
    c.slack(f"smallest I(J;Y) - (17) = {float(worst[0]):.4g} ({worst[1]}, {worst[2]}); Laplace "
            f"equality gap {float(gaps['Laplace(0, 0.8)']):.2g}")


# ---------------------------------------------------------------------------------------------
# Theorem 6.4
# ---------------------------------------------------------------------------------------------


def _priors_for_mi(quick):
    ks, ps, Bq = B.quantized_truncated_gaussian_prior(1.5, 3)
    out = {"uniform K=11": (B.uniform_prior(11), 5),
           "quantized truncated Gaussian S=1.5 L=3": ((ks, ps), Bq)}
    if not quick:
        out["binomial(10, 1/2)"] = (B.binomial_prior(10, 0.5), 5)
    return out


@claim("thm6.4", routes=[
    "I(J;Y) by quadrature for the mechanism's released law at count n + J",
    "privacy side: v(n) E(J - j*)^2 (eq 21), the mechanism's v(n) from eq (6)",
    "utility side: H(J) - log(2e(r(n + EJ) + 1/4)) (eq 22), and (17) with the exact error D (eq 9 "
    "plus the clipping term)",
    "eq (19) against the budgets of admissible mechanisms over n = 1..10^5"])
def many_count_inequality(c):
    rs = [Fraction(1, 2), R] if c.quick else [Fraction(1, 2), R, Fraction(1, 100)]
    ns = [5] if c.quick else [2, 5, 20]
    for r in rs:
        mech = _mechanism(r)
        rm = mpmath.mpf(r.numerator) / r.denominator
        for n in ns:
            for pname, (prior, j_star) in _priors_for_mi(c.quick).items():
                def ch(j, mech=mech, n=n):
                    return mech.released_law(n + j)
                p = {"r": r, "r0": float(r) / 2, "c": 1, "n": n, "prior": pname}
                H, EJ, sec = B.prior_moments(prior, j_star)
                info = B.mutual_information(prior, ch)
                up = mech.mp_v(n) * sec
                lo = B.utility_information_bound(H, EJ, n, r)
                D, De = B.estimator_error(prior, ch, n, per_count=lambda j, m=mech, n=n: m.expected_abs_error_released(n + j))
                c.compare(p, info.value, "<=", up, tol=info.error, route="(21) I(J;Y) <= v(n) E(J-j*)^2")
                c.compare(p, info.value, ">=", lo, tol=info.error, route="(22) I(J;Y) >= H - log(2e(r(n+EJ)+1/4))")
                c.compare(p, D, "<=", rm * (n + EJ), tol=De, route="D <= r(n + EJ)")
                c.compare(p, info.value, ">=", B.information_lower_bound(H, D), tol=info.error,
                          route="(17) with the exact D")
                c.compare(p, mech.mp_v(n), ">=", B.many_count_bound(H, EJ, sec, n, r), tol=0,
                          route="(19) v(n) >= bound")
                c.note(f"r={r}, n={n}, {pname}: (22) {float(lo):.4f} <= I = {info.value:.6f} <= (21) {float(up):.4g}")
    # the privacy half is tight for a weak Gaussian chain: rho = 1/(2 s^2) per edge
    s = 20.0
    prior = B.uniform_prior(5)
    H, EJ, sec = B.prior_moments(prior, 2)
    rho = formulas.renyi_equal_variance(1, 0, 1, s)
    info_g = B.mutual_information(prior, lambda j: Gaussian(j, s))
    c.compare({"channel": f"J + N(0, {s}^2)", "prior": "uniform K=5", "rho": rho}, info_g.value, "<=",
              rho * sec, tol=info_g.error, route="(21) on a Gaussian chain (rho = 1/(2 s^2))")
    # eq (19) against admissible mechanisms over decades of n (uniform, binomial, quantized priors)
    n_dec = [1, 10, 100, 1000] if c.quick else [1, 10, 100, 1000, 10 ** 4, 10 ** 5]
    L = 3
    x = B.x_L(L)
    mechs = {"shifted log-Gaussian r0=r/2 c=1": _mechanism(R),
             "log-Laplace r0=r/2 c=1": B.LogLaplaceMechanism(0.05, 1, r=0.1)}
    min_ratio = None
    for n in n_dec:
        K, _ = B.best_odd_K(n, R)
        ks_q, ps_q, Bq = B.quantized_truncated_gaussian_prior(float(x) * 0.1 * n, L)
        priors = {f"uniform K={K}": (B.uniform_prior(K), (K - 1) // 2),
                  f"quantized Gaussian S=x_L r n": ((ks_q, ps_q), Bq)}
        if n <= 100:
            for N in (4, 64):
                priors[f"binomial({N}, 1/2)"] = (B.binomial_prior(N, 0.5), N // 2)
        for pname, (prior, j_star) in priors.items():
            bound = B.many_count_bound_for_prior(prior, j_star, n, R)
            for mname, mech in mechs.items():
                c.compare({"mechanism": mname, "r": R, "n": n, "prior": pname}, mech.mp_v(n), ">=", bound,
                          tol=0, route="(19) over decades of n")
                if bound > 0:
                    q = mech.mp_v(n) / bound
                    if min_ratio is None or q < min_ratio[0]:
                        min_ratio = (q, mname, n, pname)
    # negative controls
    c.control(f"(21) with a factor 0.99: I(J;Y) <= 0.99 rho E(J - j*)^2 (J + N(0, {s}^2), uniform K=5)",
              info_g.value, "<=", mpmath.mpf("0.99") * rho * sec, tol=info_g.error)
    mech = M.ShiftedLogGaussian(0.005, 1, r=0.01)
    prior = B.uniform_prior(11)
    info = B.mutual_information(prior, lambda j: mech.released_law(5 + j))
    H, EJ, _ = B.prior_moments(prior, 5)
    c.control("(22) without the dither term 1/4: I >= H - log(2e r(n + EJ)) (r = 0.01, n = 5, uniform K=11)",
              info.value, ">=", H - mpmath.log(2 * mpmath.e * mpmath.mpf("0.01") * (5 + EJ)), tol=info.error)
    c.slack(f"(21) on the Gaussian chain: I / (rho E(J-j*)^2) = {float(info_g.value / (rho * sec)):.6f}; "
            f"smallest v(n)/(19) among non-vacuous cases: {float(min_ratio[0]):.4g} ({min_ratio[1]}, n = "
            f"{min_ratio[2]}, {min_ratio[3]})")


# ---------------------------------------------------------------------------------------------
# Corollary 6.5
# ---------------------------------------------------------------------------------------------


@claim("cor6.5", routes=[
    "eq (23) in closed form",
    "eq (19) with H(J), EJ and E(J - j*)^2 summed from the uniform pmf",
    "the sequence r^2 n^2 (23) along K_n = odd integer nearest a r n, against the limit (24)",
    "numerical maximisation (grid, golden section, root of the numerical derivative) vs eq (25)"])
def uniform_prior_bound(c):
    tol = mpmath.mpf(10) ** (-c.dps + 5)
    # the three identities of the proof
    for K in ([3, 11] if c.quick else [3, 5, 11, 101, 1001]):
        H, EJ, sec = B.prior_moments(B.uniform_prior(K), (K - 1) // 2)
        c.compare({"K": K, "quantity": "H(J)"}, H, "==", mpmath.log(K), tol=tol * K, route="pmf sum vs log K")
        c.compare({"K": K, "quantity": "EJ"}, EJ, "==", mpmath.mpf(K - 1) / 2, tol=tol * K, route="pmf sum")
        c.compare({"K": K, "quantity": "E(J-j*)^2"}, sec, "==", (mpmath.mpf(K) ** 2 - 1) / 12, tol=tol * K ** 2,
                  route="pmf sum")
        for n in (1, 10, 1000):
            for r in (R, Fraction(1, 1000)):
                c.compare({"K": K, "n": n, "r": r}, B.uniform_bound(n, K, r), "==",
                          B.many_count_bound_for_prior(B.uniform_prior(K), (K - 1) // 2, n, r), tol=tol,
                          route="(23) closed form vs (19) from the pmf")
    # best K per n, and admissible mechanisms above it
    mech = _mechanism(R)
    ll = B.LogLaplaceMechanism(0.05, 1, r=0.1)
    n_dec = [10 ** k for k in range(0, 5 if c.quick else 7)]
    best = []
    for n in n_dec:
        K, val = B.best_odd_K(n, R)
        best.append((n, K, float(K / (0.1 * n)), val))
        for mname, m in (("shifted log-Gaussian r0=r/2 c=1", mech), ("log-Laplace r0=r/2 c=1", ll)):
            c.compare({"mechanism": mname, "r": R, "n": n, "K": K}, m.mp_v(n), ">=", val, tol=0,
                      route="v(n) >= (23) at the best odd K")
    # the discrete search agrees with the continuous maximiser of (24) at the same r
    a_r = B.maximise_uniform_limit(0.1)[0]
    big = [(n, K) for n, K, _, _ in best if n >= 10]
    _bounded_ratios(c, [{"r": R, "n": n, "K": K, "quantity": "K/(rn) vs argmax_a (24) at r"} for n, K in big],
                    [abs(mpmath.mpf(K) / (mpmath.mpf("0.1") * n) - a_r) * n / 10 for n, K in big],
                    "r n |K_n/(rn) - argmax (24)|")
    c.finding(what="best odd K per n (r = 1/10) and K/(rn)", argmax_24_at_r=a_r,
              table="; ".join(f"n={n}: K={K}, K/(rn)={q:.4f}, (23)={float(v):.4g}" for n, K, q, v in best))
    # the limit (24) along K_n / (r n) -> a: O(1/(rn)) by the bounded-ratio rule
    a_star = B.uniform_opt_a()
    n_seq = [10 ** k for k in range(2, 6 if c.quick else 8)]
    targets = [(a_star, R)] if c.quick else [(a_star, R), (mpmath.mpf(15), R), (a_star, Fraction(1, 100))]
    keep = None
    for a, r in targets:
        rm = mpmath.mpf(r.numerator) / r.denominator
        lim = B.uniform_limit(a, rm)
        seq = [rm ** 2 * n ** 2 * B.uniform_bound(n, B.odd_K_near(a, r, n), r) for n in n_seq]
        ratios = [rm * n * abs(s_ - lim) for n, s_ in zip(n_seq, seq)]
        _bounded_ratios(c, [{"a": a, "r": r, "n": n} for n in n_seq], ratios, "r n |r^2 n^2 (23) - (24)|")
        c.note(f"a = {mpmath.nstr(a, 8)}, r = {r}: r^2 n^2 (23) = "
               + ", ".join(mpmath.nstr(s_, 8) for s_ in seq) + f" -> (24) = {mpmath.nstr(lim, 10)}")
        if keep is None:
            keep = (a, r, rm, seq)
    # eq (25): the r -> 0 optimum
    a_num, val_num, a_err = B.maximise_uniform_limit(0)
    c.compare({"r": 0, "quantity": "argmax_a (24)"}, a_num, "==", a_star, tol=a_err + tol, route="numerical maximiser vs 2e^{3/2}")
    c.compare({"r": 0, "quantity": "max (24)"}, val_num, "==", B.uniform_opt_value(), tol=tol, route="numerical max vs 3/(2e^3)")
    c.compare({"r": 0, "quantity": "3/(2e^3) ~ 0.0746806"}, B.uniform_opt_value(), "==", mpmath.mpf("0.0746806"),
              tol=mpmath.mpf("5e-8"), route="paper's decimal")
    c.compare({"r": 0, "quantity": "bracket log(a/(2e)) at the optimum"}, mpmath.log(a_num / (2 * mpmath.e)), "==",
              mpmath.mpf(1) / 2, tol=a_err / a_num + tol, route="first-order condition")
    # the iterated limit r -> 0 of the maximiser of (24)
    r_seq = [mpmath.mpf(10) ** -k for k in range(1, 5 if c.quick else 7)]
    opt = [B.maximise_uniform_limit(r) for r in r_seq]
    _bounded_ratios(c, [{"r": r, "quantity": "argmax"} for r in r_seq], [abs(o[0] - a_star) / r for o, r in zip(opt, r_seq)],
                    "|argmax (24) - 2e^{3/2}| / r")
    _bounded_ratios(c, [{"r": r, "quantity": "max"} for r in r_seq],
                    [abs(o[1] - B.uniform_opt_value()) / r for o, r in zip(opt, r_seq)], "|max (24) - 3/(2e^3)| / r")
    # the factor 192/e^3 over the two-count constant; the two-count small-r constant 1/128
    tiny = [mpmath.mpf(10) ** -k for k in (3, 6, 9)]
    for r in tiny:
        c.compare({"r": r, "quantity": "r^2 (15)"}, r ** 2 * B.two_count_limit(r), "==", mpmath.mpf(1) / 128,
                  tol=8 * r / 128, route="two-count constant as r -> 0 (|remainder| <= 8r/128)")
    ratio = val_num / (tiny[-1] ** 2 * B.two_count_limit(tiny[-1]))
    c.compare({"quantity": "(3/(2e^3)) / (1/128)"}, ratio, "==", B.uniform_over_two_count_factor(),
              tol=8 * tiny[-1] * ratio + tol, route="numerical max / two-count constant vs 192/e^3")
    c.compare({"quantity": "192/e^3 ~ 9.56"}, B.uniform_over_two_count_factor(), "==", mpmath.mpf("9.56"),
              tol=mpmath.mpf("0.005"), route="paper's decimal")
    # negative controls
    c.control("the maximiser of (24) at r -> 0 is e^{3/2}", a_num, "==", mpmath.exp(mpmath.mpf(3) / 2),
              tol=a_err + tol)
    c.control("the maximum of (24) at r -> 0 is 3/e^3", val_num, "==", 3 / mpmath.e ** 3, tol=tol)
    a, r, rm, seq = keep
    wrong = B.uniform_limit(a, rm) * 12 / mpmath.mpf("12.1")
    ratios = [rm * n * abs(s_ - wrong) for n, s_ in zip(n_seq, seq)]
    ok, last, cap = _ratios_ok(ratios)
    c.control_outcome("limit (24) with 12 replaced by 12.1 (a = 2e^{3/2}, r = 1/10): bounded-ratio rule",
                      not ok, f"last ratio {mpmath.nstr(last, 4)} vs cap {mpmath.nstr(cap, 4)}")
    c.slack(f"argmax at r -> 0: |a - 2e^(3/2)| = {mpmath.nstr(abs(a_num - a_star), 3)}; "
            f"(3/(2e^3))/(1/128) = {mpmath.nstr(B.uniform_over_two_count_factor(), 6)}")


# ---------------------------------------------------------------------------------------------
# Lemma 6.6
# ---------------------------------------------------------------------------------------------

SUPPORTS = [(-3.0, 3.0), (-1.0, 2.5)]  # Z = N(0,1) conditioned on [a, b]: symmetric and skewed


def _quantization_sequence(c, p, seq_name, S_seq, a, b, h, mean, second, zmax):
    """(26) by the bounded-ratio rule and (27), (28) by the proof's pointwise bounds along S_seq."""
    ratios, params, diffs = [], [], []
    for S in S_seq:
        ks, ps = B.quantized_truncated_gaussian(S, a, b)
        H, EQ, EQ2 = B.prior_moments((ks, ps), 0)
        nk = len(ks)
        q = {**p, "S": S, "sequence": seq_name}
        c.compare({**q, "quantity": "sum p"}, float(np.sum(ps)), "==", 1, tol=nk * 4e-15)
        d = H - float(mpmath.log(S)) - float(h)
        diffs.append(d)
        ratios.append(S * abs(d))
        params.append(q)
        tol_m = 1e-13 * (1 + S * abs(float(mean)))
        c.compare({**q, "quantity": "|E Q_S - S E Z|"}, abs(EQ - S * float(mean)), "<=", 0.5,
                  tol=tol_m, route="(27)")
        c.compare({**q, "quantity": "|E Q_S^2 - S^2 E Z^2|"}, abs(EQ2 - S * S * second), "<=",
                  S * zmax + 0.25, tol=1e-13 * S * S * second, route="(28)")
    _bounded_ratios(c, params, ratios, "S |H(Q_S) - log S - h(Z)|")
    c.compare({**params[-1], "quantity": "|H(Q_S) - log S - h(Z)| shrinks"}, abs(diffs[-1]), "<",
              abs(diffs[0]) / 10 ** (len(S_seq) - 2), tol=0, route="remainder shrinks over the decades")
    c.note(f"[a, b] = [{a}, {b}], {seq_name}: H(Q_S) - log S - h(Z) along S = "
           + ", ".join(f"{S:g}" for S in S_seq) + ": " + ", ".join(f"{d:.3e}" for d in diffs))


@claim("lem6.6", routes=[
    "the exact pmf of Q_S: mpmath Phi differences and cancellation-free float64 cell integrals",
    "closed forms of h(Z), E Z, E Z^2 for the truncated Gaussian (checked against mpmath quadrature)",
    "sequences over S = 1..10^5: H(Q_S) - log S - h(Z) by the bounded-ratio rule; (27), (28) by the "
    "proof's pointwise bounds |Q_S - S Z| <= 1/2 and |2 S Z Delta + Delta^2| <= S max|Z| + 1/4"])
def fine_quantization(c):
    S_seq = [10 ** k for k in range(0, 5 if c.quick else 6)]
    for a, b in SUPPORTS:
        law = B.truncated_gaussian_law(a, b)
        Z, mean, var, h = B.truncated_gaussian_stats(a, b)
        hq, he = B.differential_entropy(law)
        mq, vq, me = B.law_moments(law)
        p = {"a": a, "b": b}
        c.compare({**p, "quantity": "h(Z)"}, hq, "==", h, tol=he, route="quadrature vs closed form")
        c.compare({**p, "quantity": "E Z"}, mq, "==", mean, tol=me, route="quadrature vs closed form")
        c.compare({**p, "quantity": "Var Z"}, vq, "==", var, tol=me, route="quadrature vs closed form")
        for S in ([1, 10] if c.quick else [1, 10, 100]):
            ks, pm = B.quantized_truncated_gaussian(S, a, b, "mp")
            _, pf = B.quantized_truncated_gaussian(S, a, b, "float")
            rel = max(abs(float(x) - y) / float(x) for x, y in zip(pm, pf) if x > 0)
            c.compare({**p, "S": S}, rel, "<=", 1e-14, route="float64 cells vs mpmath Phi differences (relative)")
        zmax = max(abs(a), abs(b))
        second = float(var + mean ** 2)
        seqs = {"S = 10^k": S_seq}
        if not c.quick:
            seqs["S = 1.37 x 10^k (cells not aligned with the support)"] = [1.37 * S for S in S_seq]
        for seq_name, seq in seqs.items():
            _quantization_sequence(c, p, seq_name, seq, a, b, h, mean, second, zmax)
    # negative control: an entropy offset of 10^-3 in (26)
    a, b = SUPPORTS[0]
    h = B.truncated_gaussian_stats(a, b)[3]
    ratios = []
    for S in S_seq:
        ks, ps = B.quantized_truncated_gaussian(S, a, b)
        ratios.append(S * abs(B.shannon_entropy((ks, ps)) - float(mpmath.log(S)) - float(h) - 1e-3))
    ok, last, cap = _ratios_ok(ratios)
    c.control_outcome("(26) with h(Z) + 10^-3 as the limit ([-3, 3]): bounded-ratio rule", not ok,
                      f"last ratio {last:.4g} vs cap {cap:.4g}")
    c.slack("S |H(Q_S) - log S - h(Z)| settles at a constant on both supports (remainder O(1/S))")


# ---------------------------------------------------------------------------------------------
# Corollary 6.7
# ---------------------------------------------------------------------------------------------


@claim("cor6.7", routes=[
    "closed forms of h_L, tau_L^2 (truncated Gaussian) and x_L = 2 e^{3/2 - h_L}",
    "mpmath quadrature of h and Var from the prior densities",
    "eq (19) with the exact quantized prior J = B + Q_S, S = x r n, along n -> infinity (eq 30)",
    "numerical maximisation of (30) over x (grid, golden section, root of the numerical derivative)"])
def truncated_gaussian_prior(c):
    tol = mpmath.mpf(10) ** (-c.dps + 5)
    Ls = [3, 8] if c.quick else [0.5, 1, 2, 3, 5, 8]
    for L in Ls:
        law = B.truncated_gaussian_law(-L, L)
        hq, he = B.differential_entropy(law)
        mq, vq, ve = B.law_moments(law)
        c.compare({"L": L, "quantity": "h_L"}, hq, "==", B.h_L(L), tol=he, route="quadrature vs closed form")
        c.compare({"L": L, "quantity": "tau_L^2"}, vq, "==", B.tau2_L(L), tol=ve, route="quadrature vs closed form")
        # (30) at r -> 0 maximised over x: x_L, bracket 1/2, value (31)
        x_num, val, x_err = B.maximise_bound30(L, 0)
        c.compare({"L": L, "quantity": "argmax_x (30), r -> 0"}, x_num, "==", B.x_L(L), tol=x_err + tol,
                  route="numerical maximiser vs x_L")
        c.compare({"L": L, "quantity": "bracket at the optimum"}, B.bound30_bracket(x_num, L), "==",
                  mpmath.mpf(1) / 2, tol=x_err / x_num + tol, route="first-order condition")
        c.compare({"L": L, "quantity": "max (30) = (31)"}, val, "==", B.cor67_value(L), tol=tol,
                  route="numerical max vs e^{2h_L}/(8e^3 tau_L^2)")
        if L >= 2:
            # L -> infinity: the quadrature value of (31) within the explicit remainder of pi/(4e^2)
            q = B.prior_coefficient(hq, vq)
            qe = q * (2 * he + ve / vq)
            c.compare({"L": L, "quantity": "|(31) - pi/(4e^2)|"}, abs(q - B.cor67_limit()), "<=",
                      B.cor67_remainder(L), tol=qe + tol, route="quadrature value vs pi/(4e^2), explicit remainder")
    c.compare({"quantity": "pi/(4e^2) ~ 0.1062921"}, B.cor67_limit(), "==", mpmath.mpf("0.1062921"),
              tol=mpmath.mpf("5e-8"), route="paper's decimal")
    # (30) as the n -> infinity limit of (19) with the quantized prior (L = 3, r = 0.05, x = x_L)
    L, r = 3, Fraction(1, 20)
    rm = mpmath.mpf(1) / 20
    x = B.x_L(L)
    lim30 = B.bound30(x, L, rm)
    n_seq = [10 ** k for k in range(2, 5 if c.quick else 6)]
    seq = []
    for n in n_seq:
        ks, ps, Bq = B.quantized_truncated_gaussian_prior(float(x * rm * n), L)
        seq.append(rm ** 2 * n ** 2 * B.many_count_bound_for_prior((ks, ps), Bq, n, r))
    _bounded_ratios(c, [{"L": L, "r": r, "x": x, "n": n} for n in n_seq],
                    [rm * n * abs(s_ - lim30) for n, s_ in zip(n_seq, seq)], "r n |r^2 n^2 (19) - (30)|")
    c.note(f"L = 3, r = 1/20, x = x_L: r^2 n^2 (19) = " + ", ".join(mpmath.nstr(s_, 8) for s_ in seq)
           + f" -> (30) = {mpmath.nstr(lim30, 10)}")
    # r -> 0 of the maximiser of (30) at fixed L
    r_seq = [mpmath.mpf(10) ** -k for k in range(2, 5 if c.quick else 7)]
    opt = [B.maximise_bound30(3, r_) for r_ in r_seq]
    _bounded_ratios(c, [{"L": 3, "r": r_, "quantity": "argmax"} for r_ in r_seq],
                    [abs(o[0] - B.x_L(3)) / r_ for o, r_ in zip(opt, r_seq)], "|argmax (30) - x_L| / r")
    _bounded_ratios(c, [{"L": 3, "r": r_, "quantity": "max"} for r_ in r_seq],
                    [abs(o[1] - B.cor67_value(3)) / r_ for o, r_ in zip(opt, r_seq)], "|max (30) - (31)| / r")
    # the Gaussian maximises e^{2h}/(8 e^3 Var): other priors sit strictly below pi/(4e^2)
    others = {"uniform(-1, 1)": (B.uniform_law(-1, 1), (), B.uniform_opt_value()),
              "triangular(0, 1)": (B.triangular_law(0, 1), (0,), mpmath.mpf(3) / (4 * mpmath.e ** 2)),
              "raised cosine(1)": (B.cosine_law(1), (), None),
              "truncated Laplace(L=3, b=1)": (B.truncated_laplace_law(3, 1), (0,), None)}
    coeffs = {}
    for name, (law, br, closed) in others.items():
        h, he = B.differential_entropy(law, br)
        _, var, ve = B.law_moments(law, br)
        q = B.prior_coefficient(h, var)
        qe = q * (2 * he + ve / var)
        coeffs[name] = q
        c.compare({"prior": name}, q, "<", B.cor67_limit(), tol=qe, route="quadrature, strictly below pi/(4e^2)")
        if closed is not None:
            c.compare({"prior": name}, q, "==", closed, tol=qe, route="quadrature vs closed form")
    # an admissible family above the constant: r0 = r(1-r), c = r at r = 0.01, n = 10^6
    rr = 0.01
    fam = M.ShiftedLogGaussian(rr * (1 - rr), rr, r=rr)
    n_big = 10 ** 6
    c.compare({"r": rr, "r0": rr * (1 - rr), "c": rr, "n": n_big}, mpmath.mpf(rr) ** 2 * n_big ** 2 * fam.mp_v(n_big),
              ">=", B.cor67_limit(), tol=0, route="an admissible family's r^2 n^2 v(n) sits above pi/(4e^2)")
    # negative controls
    q_uni = coeffs["uniform(-1, 1)"]
    c.control("the uniform prior reaches pi/(4e^2)", q_uni, "==", B.cor67_limit(), tol=mpmath.mpf(10) ** -20)
    Lc = 8
    c.control("the L -> infinity limit is pi/(2e^2) (L = 8, explicit remainder)",
              abs(B.cor67_value(Lc) - mpmath.pi / (2 * mpmath.e ** 2)), "<=", B.cor67_remainder(Lc), tol=tol)
    c.slack("pi/(4e^2) - e^{2h}/(8e^3 Var): " + ", ".join(
        f"{k} {float(B.cor67_limit() - v):.4g}" for k, v in coeffs.items())
        + f"; |(31) - pi/(4e^2)| at L = 8: {float(abs(B.cor67_value(8) - B.cor67_limit())):.2g}")


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def figures(settings):
    from countdp.harness.plotting import new_figure, save

    paths = []
    r = R
    mech = _mechanism(r)
    ns = np.unique(np.round(np.logspace(0, 5, 121)).astype(np.int64))
    b14 = B.two_count_bound_array(ns, r)
    b23 = np.array([float(B.best_odd_K(int(n), r)[1]) for n in ns])
    v = mech.v_array(ns)
    fig, ax = new_figure()
    ax.loglog(ns, v, label="shifted log-Gaussian v(n) (r0 = r/2, c = 1)", color="C0")
    ax.loglog(ns, b23, label="uniform many-count bound (23), best odd K", color="C2")
    ax.loglog(ns, b14, label="two-count bound (14)", color="C3")
    ax.set_xlabel("count n")
    ax.set_ylabel("privacy budget")
    ax.set_title("Lower bounds vs the mechanism (r = 0.1)")
    ax.legend()
    paths.append(save(fig, settings.figures_dir, "lower_bounds_vs_mechanism"))

    L = 3
    h = float(B.h_L(L))
    S = np.unique(np.round(np.logspace(0, 4 if settings.quick else 5, 41), 6))
    diffs = []
    for s in S:
        ks, ps = B.quantized_truncated_gaussian(float(s), -L, L)
        diffs.append(B.shannon_entropy((ks, ps)) - np.log(s))
    diffs = np.array(diffs)
    fig, (a1, a2) = new_figure(ncols=2, size=(9.6, 4.0))
    a1.semilogx(S, diffs, "o-", ms=3, label="H(Q_S) - log S")
    a1.axhline(h, color="k", ls="--", label="h(Z_L)")
    a1.set_xlabel("S")
    a1.set_title("Quantized truncated Gaussian (L = 3)")
    a1.legend()
    a2.loglog(S, np.abs(diffs - h), "o-", ms=3)
    a2.set_xlabel("S")
    a2.set_ylabel("|H(Q_S) - log S - h(Z_L)|")
    paths.append(save(fig, settings.figures_dir, "quantization_entropy"))
    return paths


if __name__ == "__main__":
    from countdp.harness.runner import script_main

    raise SystemExit(script_main(__file__))
