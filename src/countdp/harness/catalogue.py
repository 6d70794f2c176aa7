"""The claim catalogue: every claim id (verbatim), its place in the paper and its statement.

This is the one place where claim ids meet the paper's labels: the library below the harness
knows neither.  Sections: the main paper, the companion paper, and the project's own claims
beyond the paper (the open constant C*).
"""

from __future__ import annotations

from dataclasses import dataclass

PAPER = "paper"
COMPANION = "companion"
BEYOND = "beyond"

SECTION_TITLES = {
    PAPER: 'Main paper: "Better Privacy Guarantees for Larger Groups"',
    COMPANION: "Companion paper: exact zCDP characterizations (Harrison and Manurangsi, 2025)",
    BEYOND: "Beyond the paper: the open constant C*",
}


@dataclass(frozen=True)
class ClaimInfo:
    id: str
    paper: str
    section: str
    statement: str


def _entry(id: str, paper: str, statement: str, section: str = PAPER) -> ClaimInfo:
    return ClaimInfo(id, paper, section, statement)


CATALOGUE: dict[str, ClaimInfo] = {
    entry.id: entry
    for entry in [
        # Section 2
        _entry("prop2.2a", "Proposition 2.2 (first part)", "no law satisfies eq (1) at count 0"),
        _entry("prop2.2b", "Proposition 2.2 (second part)",
           "weak eq (1) with finite two-sided Renyi divergence on edge 0<->1 is impossible"),
        _entry("prop2.3", "Proposition 2.3", "at r = 1 the release 1/2 meets eq (2) with v = 0"),
        # Section 3
        _entry("eq3", "eq (3)", "sigma = Phi^-1(1/2 + r0/(2(1+c))) is positive and finite"),
        _entry("eq4", "eq (4)", "release [(n+c) exp(sigma Z - sigma^2) - c]_+"),
        _entry("thm3.1.i", "Theorem 3.1(i)", "E|xhat - n| <= r0 (n+c)/(1+c) < r max(n,1)"),
        _entry("thm3.1.ii", "Theorem 3.1(ii), eqs (5)-(6)",
           "released output is count-dependent zCDP with v(n) of eqs (5)-(6), v nonincreasing"),
        _entry("thm3.1.iii", "Theorem 3.1(iii), eq (7)", "v(n) = 1/(2 sigma^2 n^2) + O(n^-3)"),
        _entry("cor3.2", "Corollary 3.2", "c = 1: sigma = Phi^-1(1/2 + r0/4), v(n) = log^2(1+1/n)/(2 sigma^2)"),
        _entry("cor3.2.round", "Corollary 3.2 (stochastic rounding)",
           "rounding is postprocessing and keeps the conditional error |y - n|"),
        _entry("thm1.1", "Theorem 1.1", "the optimal group-size rate n^-2 and the r = 1 endpoint"),
        # Section 4
        _entry("lem4.1", "Lemma 4.1", "E|exp(sigma Z - sigma^2) - 1| = 2 Phi(sigma) - 1"),
        _entry("eq8", "eq (8)", "E[exp(sigma Z - sigma^2) 1{Z <= sigma}] = exp(-sigma^2/2)/2 (and on Z > sigma)"),
        _entry("eq9", "eq (9)", "E|U_n - n| = (n+c) r0/(1+c); clipping cannot increase the error"),
        _entry("sec4.1.deriv", "Section 4.1, derivative",
           "d/da E|exp(sigma Z - a) - 1| = exp(sigma^2/2 - a)(2 Phi(a/sigma - sigma) - 1)"),
        _entry("sec4.1.argmin", "Section 4.1, minimiser", "a = sigma^2 uniquely minimises E|exp(sigma Z - a) - 1|"),
        # Section 5
        _entry("eq10", "eq (10)", "log(U_n + c) ~ N(log(n+c) - sigma^2, sigma^2)"),
        _entry("eq11", "eq (11)", "D_alpha(N(mu,s^2)||N(nu,s^2)) = alpha (mu-nu)^2/(2 s^2)"),
        _entry("eq12", "eq (12)", "D_alpha(U_n||U_m) = alpha log^2((n+c)/(m+c))/(2 sigma^2), both directions"),
        _entry("sec5.post", "Section 5, postprocessing",
           "clipping and rounding keep the released D_alpha on edge n-1<->n below alpha v(n)"),
        _entry("sec5.mono", "Section 5, monotonicity", "log(1 + 1/(n-1+c)) decreases in n and is 1/n + O(n^-2)"),
        _entry("sec5.product", "Section 5, product argument", "the histogram release has the single-coordinate budget"),
        _entry("sec5.1.conv", "Section 5.1, conversion", "rho-zCDP gives (rho + 2 sqrt(rho log(1/delta)), delta)-DP"),
        _entry("sec5.1.limit_c", "Section 5.1, fixed-c limit", "lim r^2 n^2 v(n) = (1+c)^2/pi"),
        _entry("sec5.1.c_equals_r", "Section 5.1, c = r", "v(1) of order r^-2 log^2(1/r)"),
        _entry("eq13", "eq (13)", "Phi^-1((1+r)/2) = r sqrt(pi/2) + O(r^3); budget -> 1/(pi r^2 n^2)"),
        # Section 6
        _entry("lem6.1", "Lemma 6.1", "k-edge chain: D_alpha(P_0||P_k) <= alpha k^2 rho"),
        _entry("prop6.2", "Proposition 6.2, eqs (14)-(15)", "two-count rate lower bound"),
        _entry("prop6.2.steps", "Proposition 6.2 (proof steps), eq (16)", "Markov, TV, KL and Pinsker steps"),
        _entry("lem6.3", "Lemma 6.3, eq (17)", "absolute error forces information"),
        _entry("thm6.4", "Theorem 6.4, eqs (19)-(22)", "many-count inequality"),
        _entry("cor6.5", "Corollary 6.5, eqs (23)-(25)", "uniform many-count bound, constant 3/(2e^3)"),
        _entry("lem6.6", "Lemma 6.6, eqs (26)-(28)", "fine integer quantization"),
        _entry("cor6.7", "Corollary 6.7, eqs (29)-(31)", "truncated Gaussian prior, constant pi/(4e^2)"),
        _entry("eq32", "eq (32)", "pi/(4e^2) <= C* <= 1/pi"),
        # Section 7
        _entry("lem7.1", "Lemma 7.1, eq (34)", "unequal-variance Gaussian D_alpha finite iff alpha s_Q^2 + (1-alpha) s_P^2 > 0"),
        _entry("sec7.boundary", "Section 7, boundary edge", "D_alpha(X_1||X_0) = inf for X_0 = delta_0"),
        _entry("eq35", "eq (35)", "reverse divergence finite iff alpha < (n+1)^2/(2n+1)"),
        # Section 8
        _entry("sec8.two_count", "Section 8, two-count template", "maximised at theta = 1/2, a = 8, value 1/128"),
        _entry("table2", "Table 2", "small-r coefficients 1/128, 3/(2e^3), pi/(4e^2), 1/pi"),
        _entry("sec8.small_r", "Section 8, small r", "exp(sigma Z - sigma^2) - 1 = sigma Z + O_L1(sigma^2)"),
        _entry("sec8.composition", "Section 8, composition", "budgets add pointwise under composition"),
        _entry("sec8.bias", "Section 8, bias", "the mechanism is biased (drift -sigma^2)"),
        # Companion paper
        _entry("hm.laplace", "Harrison-Manurangsi: Laplace", "tight rho = eps + e^-eps - 1", COMPANION),
        _entry("hm.discrete_laplace", "Harrison-Manurangsi: discrete Laplace", "tight rho of discrete Laplace", COMPANION),
        _entry("hm.krr", "Harrison-Manurangsi: k-RR", "tight rho of k-ary randomized response, k <= 6", COMPANION),
        _entry("hm.rappor", "Harrison-Manurangsi: RAPPOR", "tight rho = eps tanh(eps/4)", COMPANION),
        _entry("hm.bounded_range", "Harrison-Manurangsi: bounded range", "tight rho of eta-bounded range", COMPANION),
        # Beyond the paper
        _entry("cstar.airy.constants", "C* research note: Airy constants", "Z, m, I and m^2 I/2 = 8|a1'|^3/27", BEYOND),
        _entry("cstar.airy.subgaussian", "C* research note: sub-Gaussian score", "K_s(u)/u^2 <= I/2", BEYOND),
        _entry("cstar.airy.utility", "C* research note: utility", "E|Y - n| < r max(n,1)", BEYOND),
        _entry("cstar.airy.budget", "C* research note: budget", "sup_alpha D_alpha/alpha at alpha -> 1; n^2 v(n) limit", BEYOND),
        _entry("cstar.airy.limit", "C* research note: limit", "r^2 n^2 v(n) -> 8|a1'|^3/27", BEYOND),
        _entry("cstar.airy.vs_gaussian", "C* research note: versus the Gaussian", "ratio of budgets -> 8 pi |a1'|^3/27", BEYOND),
        _entry("cstar.lower.coupling", "C* lower bound: step 1, shift coupling",
               "KL(G(.-1)||G) <= KL(pi(.-1)||pi) + v(N+1)", BEYOND),
        _entry("cstar.lower.fibres", "C* lower bound: step 2, fibres",
               "divergence and mean |e| disintegrate over theta", BEYOND),
        _entry("cstar.lower.dirichlet", "C* lower bound: step 3, pointwise",
               "(a-b) log(a/b) >= 4 (sqrt a - sqrt b)^2", BEYOND),
        _entry("cstar.lower.lattice", "C* lower bound: step 4, lattice",
               "2 min E >= c0 (1 - E/6)^3/(M+1)^2; M^2 min phi -> c0", BEYOND),
        _entry("cstar.lower.jensen", "C* lower bound: step 5, Jensen", "c0/(M+2)^2 convex, decreasing; mixing", BEYOND),
        _entry("cstar.lower.assembled", "C* lower bound: step 6, assembled",
               "r^2 N^2 v(N) >= bound -> 8|a1'|^3/27", BEYOND),
        _entry("cstar.value", "C* value", "C* = 8|a1'|^3/27", BEYOND),
    ]
}

MAIN_PAPER_IDS = tuple(i for i, info in CATALOGUE.items() if info.section == PAPER)
