"""Probability laws on the real line: point masses, continuous, mixed (atoms plus a density) and
integer laws; the Gaussian, log-shift and clipped laws of the mechanism; reference laws."""

from .base import (CallableDensity, ContinuousLaw, Density, FinitePmf, IntegerLaw, Law,  # noqa: F401
                   MixedLaw, PointMass)
from .gaussian import Gaussian, GaussianDensity  # noqa: F401
from .log_shift import (ClippedAtZero, LogShiftDensity, LogShiftedGaussian,  # noqa: F401
                        LogShiftedGaussianDensity)
