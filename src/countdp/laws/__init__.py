"""Probability laws on the real line: point masses, continuous, mixed (atoms plus a density) and
integer laws; the Gaussian, log-shift and clipped laws of the mechanism; reference laws."""

from .base import CallableDensity, ContinuousLaw, Density, FinitePmf, IntegerLaw, Law, MixedLaw, PointMass
from .gaussian import Gaussian, GaussianDensity
from .log_shift import ClippedAtZero, LogShiftDensity, LogShiftedGaussian, LogShiftedGaussianDensity

__all__ = ["CallableDensity", "ContinuousLaw", "Density", "FinitePmf", "IntegerLaw", "Law", "MixedLaw",
           "PointMass", "Gaussian", "GaussianDensity", "ClippedAtZero", "LogShiftDensity",
           "LogShiftedGaussian", "LogShiftedGaussianDensity"]
