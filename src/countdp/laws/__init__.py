"""Probability laws on the real line: point masses, continuous, mixed (atoms plus a density) and
integer laws; the Gaussian, log-shift and clipped laws of the mechanism; reference laws, priors
on counts, lattice laws and the Airy law (:mod:`countdp.laws.airy`).

A law is a :class:`Law`: atoms (a dict) plus a :class:`Density` (or an integer pmf), a sampler
and a name; the divergence engines of :mod:`countdp.divergence` read nothing else.  A noise law
in log space is a :class:`LogShiftDensity` subclass (four methods; see its docstring), released
through :class:`ClippedAtZero`.  The names are imported lazily, on first use.
"""

from ..numerics.lazy import lazy_exports

EXPORTS = {
    "base": ("Law", "Density", "CallableDensity", "ContinuousLaw", "MixedLaw", "IntegerLaw", "FinitePmf",
             "PointMass", "check_law"),
    "gaussian": ("Gaussian", "GaussianDensity"),
    "log_shift": ("LogShiftDensity", "LogShiftOrigin", "LogShiftedGaussian", "LogShiftedGaussianDensity",
                  "ClippedAtZero"),
    "airy": ("AiryLaw",),
    "generalised_gaussian": ("GeneralisedGaussian",),
    "reference": ("Laplace", "Logistic", "RaisedCosine", "Triangular", "TruncatedGaussian", "TruncatedLaplace",
                  "Uniform"),
    "lattice": ("LatticeLaw",),
    "count_prior": ("CountPrior",),
    "priors": ("Pmf", "as_pmf", "binomial_prior", "discrete_laplace_prior", "uniform_prior"),
    "moments": ("LawMoments", "law_moments", "expected_distance", "tail_mass"),
    "symmetric": ("symmetric_fisher_information", "symmetric_score_cgf"),
}
__getattr__, __dir__, __all__ = lazy_exports(__name__, EXPORTS)
