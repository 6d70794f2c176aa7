"""Mechanisms: the shifted log-Gaussian of the paper and the other mechanisms the checks compare
with it (log-Laplace, Airy, the unequal-variance Gaussian, constant releases, the companion
paper's eps-DP mechanisms), each in its own module; and :mod:`~countdp.mechanisms.accounting`, the
shifted log-Gaussian in dp_accounting's terms (the optional extra ``countdp[accounting]``)."""

from .count import CountMechanism, LogScaleBudget, stochastic_round
from .log_gaussian import RoundedLogGaussian, ShiftedLogGaussian

__all__ = ["CountMechanism", "LogScaleBudget", "stochastic_round", "RoundedLogGaussian", "ShiftedLogGaussian"]
