"""Divergences between laws: Renyi divergences at one order, the tight zCDP parameter (the
supremum over the orders), privacy profiles (eps of delta), zCDP conversions and composition,
information measures, and the certified (Arb ball) route for the Gaussian-noise pairs.

Every engine takes two laws of :mod:`countdp.laws` (any mixture of atoms and a density, or
integer laws) and returns a value with an error bound (:class:`~countdp.numerics.Estimate`):

* ``renyi.renyi`` / :func:`kl` -- D_alpha(P||Q) by closed form, summation and quadrature, or in
  balls (``method="ball"``); :class:`Divergence` is its result;
* ``tight_rho.tight_rho`` -- rho* = sup_alpha max(D_alpha(P||Q), D_alpha(Q||P))/alpha, with a
  rigorous bracket; :func:`renyi_curve`, :func:`mp_renyi`, :func:`d_infinity` for one ordered pair;
* :func:`eps_of_delta`, :func:`hockey_stick` -- the privacy profile;
* :func:`zcdp_to_approx_dp`, :func:`cks_eps`, :func:`chernoff_epsilon`, :func:`composed_budget`;
* :func:`mutual_information`, :func:`total_variation`, :func:`differential_entropy`, ...

``renyi`` and ``tight_rho`` are the modules (the package attribute of a submodule is the
module, so the function of the same name is ``renyi.renyi``: ``from countdp.divergence import
renyi; renyi.renyi(P, Q, 2)``).  The names are imported lazily, on first use.

A new noise law in log space (a :class:`~countdp.laws.LogShiftDensity`) gets all of these with
no further code, and a closed tight-rho bracket once it declares one proven constant
(:mod:`~countdp.divergence.noise_pair`); see the researcher's guide in the documentation.
Pairs at any scale are evaluated in their own standardised coordinate
(:mod:`~countdp.divergence.standardise`, :mod:`~countdp.divergence.noise_pair`).
"""

from ..numerics.lazy import lazy_exports

EXPORTS = {
    "renyi": ("kl", "gaussian_renyi", "density_renyi_integral"),
    "value": ("Divergence",),
    "atoms": ("renyi_atoms",),
    "product": ("renyi_product",),
    "ball": ("ball_renyi", "ball_route_applies"),
    "tight_rho": ("TightRho", "DirectionSup", "SupRatio", "renyi_curve", "mp_renyi", "d_infinity", "pmf_sup_ratio"),
    "loss_cgf": ("LossCgf", "DInfinity", "LargeAlphaEnd"),
    "location": ("SymmetricLogConcave", "location_pair", "location_loss_cgf"),
    "noise_pair": ("NoisePair", "NoisePairLossCgf"),
    "standardise": ("standardised", "AffineDensity"),
    "profile": ("eps_of_delta", "hockey_stick", "Profile", "Epsilon", "gaussian_eps_of_delta",
                "gaussian_hockey_stick"),
    "zcdp": ("zcdp_to_approx_dp", "chernoff_epsilon", "cks_eps", "cks_delta", "compose_budgets", "composed_budget",
             "log_likelihood_ratio"),
    "information": ("shannon_entropy", "differential_entropy", "total_variation", "mutual_information",
                    "mutual_information_mc", "estimator_error", "Information"),
    "truncation": ("renyi_from_truncation", "truncated_renyi_integral"),
    "lattice_shift": ("lattice_minimum", "LatticeMinimum"),
    "shift_coupling": ("LogNoise", "log_noise", "line_shift_kl", "location_kl"),
}
__getattr__, __dir__, __all__ = lazy_exports(__name__, EXPORTS, modules=("renyi", "tight_rho"))
