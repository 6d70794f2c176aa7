"""Mechanisms: the shifted log-Gaussian of the paper and the other mechanisms the checks compare
with it (log-Laplace, Airy, the unequal-variance Gaussian, constant releases, the companion
paper's eps-DP mechanisms), each in its own module; and :mod:`~countdp.mechanisms.accounting`, the
shifted log-Gaussian in dp_accounting's terms (the optional extra ``countdp[accounting]``).

A count mechanism ``Y = [(n + c) exp(noise) - c]_+`` is a :class:`CountMechanism`; one whose
budget is eqs (5)-(6) with a noise scale s is a :class:`LogScaleBudget` (give
``mp_noise_scale``).  ``released_law(n)`` is the law the divergence engines compare.  The names
are imported lazily, on first use.
"""

from ..numerics.lazy import lazy_exports

EXPORTS = {
    "count": ("CountMechanism", "LogScaleBudget", "stochastic_round"),
    "log_gaussian": ("ShiftedLogGaussian", "RoundedLogGaussian"),
    "log_laplace": ("LogLaplaceMechanism", "LogShiftedLaplaceDensity"),
    "airy": ("AiryLogMechanism", "LogShiftedAiry", "LogShiftedAiryDensity", "ClippedLogShiftedAiry", "calibrate"),
    "unequal_variance": ("UnequalVarianceGaussian",),
    "constant_release": ("DataIndependentRelease",),
    "epsilon_dp": ("laplace_pair", "krr_law", "krr_pair", "rappor_pair", "two_point_pair", "privacy_loss"),
    "large_count": ("scaled_budget", "large_count_limit"),
}
__getattr__, __dir__, __all__ = lazy_exports(__name__, EXPORTS)
