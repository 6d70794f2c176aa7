"""Mechanisms: the shifted log-Gaussian of the paper and the other mechanisms the checks compare
with it."""

from .count import CountMechanism, stochastic_round  # noqa: F401
from .log_gaussian import RoundedLogGaussian, ShiftedLogGaussian  # noqa: F401
