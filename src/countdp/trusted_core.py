"""The trusted core: the modules whose correctness every PROOF and every PASS relies on.

A formula of the paper is checked by two independent routes and a negative control; the code
listed here is what turns those numbers into a verdict, so a mistake in it could let a false
statement through unnoticed.  Each entry maps a module to the one guarantee the rest of the
project takes from it; each is guarded by a soundness test (``tests/test_soundness_*.py``)
that a wrong edit of the guarantee fails.
"""

from __future__ import annotations

TRUSTED_CORE: dict[str, str] = {
    "countdp.arb.verdicts":
        "a comparison of balls is PROVED_TRUE / PROVED_FALSE only when the balls separate "
        "(or are exact and equal); everything else is UNDECIDED, never true",
    "countdp.arb.ranges":
        "a statement over boxes is PROVED_TRUE only when every box is proved; one disproved box "
        "makes it PROVED_FALSE; a box still undecided at the box limit keeps it UNDECIDED; a "
        "sign-change bracket is returned only with both end signs decided, in the direction asked",
    "countdp.arb.integrals":
        "the tail bounds (G+), (G-), (Q+), (N) are upper bounds of their tails, and "
        "`integrate` encloses the integral between ball endpoints",
    "countdp.arb.log_gaussian":
        "the log-Gaussian integrals (Lemma 4.1, eqs 8-10) enclose their exact values for every "
        "cut-off T, the omitted tails entering with their proven bound and sign",
    "countdp.arb.gaussian_renyi":
        "the acb.integral route of int p^alpha q^(1-alpha) encloses the closed form for every "
        "window, the tails (Q+) added on the correct side",
    "countdp.arb.gaussian_integrals":
        "the Gaussian Renyi integral and the mass above x0 enclose their exact values for every "
        "window, tails by (Q+)",
    "countdp.arb.drift":
        "the drift integrals of Section 4.1 enclose their exact values for every cut-off, tails "
        "by (G+) and (G-)",
    "countdp.arb.means":
        "E U_n and E[U_n]_+ enclose their exact values for every cut-off, tails by (G+), (G-), (N)",
    "countdp.arb.small_noise":
        "the small-noise remainder E|e^{sigma Z - sigma^2} - 1 - sigma Z| / sigma^2 is enclosed for "
        "every cut-off",
    "countdp.arb.airy_score":
        "the quadrature tail (R4) is an upper bound of int_T^inf R^{2k} Ai^2",
    "countdp.numerics.tolerance":
        "the relative error bar of a chain of mpmath operations is 10^-(dps - digits lost)",
    "countdp.numerics.estimate":
        "an Estimate's interval is [value - error, value + error]; Monte Carlo intervals are "
        "Z_BAR = 5 standard errors wide on each side; at_two_precisions' bar (the larger "
        "estimate, the two values' difference, the rounding) covers an error that falls with "
        "precision",
    "countdp.numerics.double_exponential":
        "the tanh-sinh / exp-sinh nodes of a piece integrate it, every second node the coarse "
        "rule of the h / 2h error, and node_rounding bounds what rounding the nodes moves a sum",
    "countdp.numerics.montecarlo":
        "mc_mean's value is the sample mean and its error Z_BAR times the standard error, an "
        "interval that covers the true mean",
    "countdp.harness.results":
        "`holds` decides a relation with its error bar exactly as documented (NaN and a "
        "negative tolerance never hold)",
    "countdp.harness.claims":
        "a claim passes only with at least one case, every case ok and every negative control "
        "rejected; a crashing check is an error, never a pass",
    "countdp.harness.certificates":
        "PROOF only when every record is proved and every scope is the claim; a disproved record "
        "fails the claim; an undecided one is a note; a crash is an error",
    "countdp.laws":
        "every law's pdf is exp(logpdf), its cdf's derivative is its pdf, atoms plus density "
        "have mass 1, the float / mpmath / Arb values agree and the sampler draws from the cdf",
    "countdp.mechanisms":
        "the same for every mechanism's output law",
    "countdp.divergence.tight_rho":
        "the bracket [lo, hi] of sup_alpha D_alpha/alpha contains the true supremum, wherever "
        "it sits (alpha -> 1, a finite order, beyond the scan's last order)",
    "countdp.divergence.tail_growth":
        "an integral is reported divergent (F = inf) only when resolved probes show its "
        "log-integrand growing at least linearly in a tail (toward an infinite end in mpmath "
        "too, far past float64's reach); otherwise the order is Unresolved",
    "countdp.divergence.loss_cgf":
        "F(alpha) = (alpha - 1) D_alpha with its error bar, for densities and finite laws (the "
        "precise route at two precisions, their difference in the bar)",
    "countdp.divergence.fallback_loss_cgf":
        "F(alpha) = (alpha - 1) D_alpha from the library's renyi / kl, its bar carried through "
        "alpha - 1; D_inf left unbounded (inf), so the large-alpha end is never cut short; an "
        "order whose pmf sum can be neither finished nor shown divergent is Unresolved",
    "countdp.divergence.finite_support":
        "an integer law of infinite support is summed over its proven window, the mass beyond it "
        "charged at the window's largest ratio p/q, only where that ratio, probed beyond the "
        "window, stays within it; any other pair goes to the fallback",
    "countdp.divergence.noise_pair":
        "one noise at two locations is the same pair in the noise's coordinate (atoms and support "
        "ends exact), and the large-alpha end it declares from a noise's constant is an upper bound",
    "countdp.divergence.standardise":
        "the pair mapped to u = (x - c)/s has the same divergences and profile (crossings mapped "
        "back), and declares |c|/s, whose rounding enters the float route's bar",
}

__all__ = ["TRUSTED_CORE"]
