"""The Airy law as a :class:`countdp.laws.ContinuousLaw`: ``Y = b X + t`` with X the standard Airy
law, whose density names its location family :data:`STANDARD` so that the divergence engine
evaluates a pair of translates by its location evaluator (:mod:`countdp.divergence.location`).
"""

from __future__ import annotations

import math

from mpmath import mp
import numpy as np

from ...numerics import validate
from ..base import ContinuousLaw, Density
from .constants import AiryConstants, float_constants
from .expectation import FOLD_FLOOR, fold_edges, mp_expect, score_cgf_float
from .float_values import cdf, logpdf, logsf, pdf, ppf, score, score_prime, sf
from .mp_values import mp_cdf, mp_logpdf, mp_pdf, mp_score, mp_sf, real_mpf
from .sampler import sample

__all__ = ["StandardAiry", "STANDARD", "AiryDensity", "AiryLaw"]

_FLOAT_CONSTANTS = float_constants()


class StandardAiry:
    """The standard Airy law as a symmetric log-concave location family: what the divergence
    engine's location evaluator (:mod:`countdp.divergence.location`) needs of it."""

    name = "Airy"
    fold_floor = FOLD_FLOOR

    logpdf = staticmethod(logpdf)
    score = staticmethod(score)
    score_prime = staticmethod(score_prime)
    mp_logpdf = staticmethod(mp_logpdf)
    mp_expect = staticmethod(mp_expect)
    score_cgf = staticmethod(score_cgf_float)
    fold_edges = staticmethod(fold_edges)

    def __repr__(self) -> str:
        return "<the standard Airy law>"


STANDARD = StandardAiry()


class AiryDensity(Density):
    """The density f((y - t)/b)/b of ``Y = b X + t`` (X standard Airy); a kink at t.  Its
    ``location_family`` (the standard law, :data:`STANDARD`) with ``loc`` = t and ``scale`` = b
    lets the divergence engine treat two such densities of one scale as a location pair."""

    location_family = STANDARD

    def __init__(self, b=1.0, t=0.0):
        self.scale = validate.real("b", b, lo=0)  # as given (an mpmath number stays exact)
        self.loc = validate.real("t", t)
        self.b, self.t = float(self.scale), float(self.loc)
        self.breakpoints = (self.t,)

    def mp_logpdf(self, y):
        y = real_mpf("y", y)
        b = mp.mpf(self.scale)
        return mp_logpdf((y - mp.mpf(self.loc)) / b) - mp.log(b)

    def logpdf(self, y):
        y = np.asarray(y, dtype=float)
        return logpdf((y - self.t) / self.b) - math.log(self.b)

    def t_center_scale(self):
        return mp.mpf(self.t), mp.mpf(self.b)


class AiryLaw(ContinuousLaw):
    """The law of ``Y = b X + t`` with X the standard Airy law (density Ai(|x|+a1')^2/Z).

    ``pdf(y) = f((y-t)/b)/b``; ``score(y) = -(log p)'(y) = s((y-t)/b)/b``.  Properties:
    ``mean = t``, ``var = b^2 E X^2``, ``mean_abs = E|Y - t| = b E|X|``, ``fisher = I/b^2``
    (for b = 1, t = 0 these are the standardised X's constants; ``constants`` gives X's).
    A :class:`countdp.laws.ContinuousLaw`: two of one scale are a location pair for
    :func:`countdp.divergence.tight_rho.tight_rho`.
    """

    def __init__(self, b=1.0, t=0.0):
        density = AiryDensity(b, t)
        self.b, self.t = density.b, density.t
        super().__init__(density, name=f"Airy(b {self.b:g}, t {self.t:g})")

    def __repr__(self):
        return f"AiryLaw(b={self.b!r}, t={self.t!r})"

    def _standardised(self, y):
        y = np.asarray(y, dtype=float)
        if np.isnan(y).any():
            raise ValueError("y must be real numbers (not NaN); got NaN")
        return (y - self.t) / self.b

    # float64
    def pdf(self, y):
        return pdf(self._standardised(y)) / self.b

    def logpdf(self, y):
        return logpdf(self._standardised(y)) - math.log(self.b)

    def cdf(self, y):
        return cdf(self._standardised(y))

    def sf(self, y):
        return sf(self._standardised(y))

    def logsf(self, y):
        return logsf(self._standardised(y))

    def ppf(self, p):
        return self.t + self.b * ppf(p)

    def score(self, y):
        return score(self._standardised(y)) / self.b

    def sample(self, rng: np.random.Generator, size) -> np.ndarray:
        return self.t + self.b * sample(rng, size)

    # mpmath, at the current precision
    def _mp_standardised(self, y):
        y = real_mpf("y", y)
        return (y - mp.mpf(self.t)) / mp.mpf(self.b)

    def mp_logpdf(self, y):
        return mp_logpdf(self._mp_standardised(y)) - mp.log(mp.mpf(self.b))

    def mp_pdf(self, y):
        return mp_pdf(self._mp_standardised(y)) / mp.mpf(self.b)

    def mp_score(self, y):
        return mp_score(self._mp_standardised(y)) / mp.mpf(self.b)

    def mp_cdf(self, y):
        return mp_cdf(self._mp_standardised(y))

    def mp_sf(self, y):
        return mp_sf(self._mp_standardised(y))

    # moments
    @property
    def constants(self) -> AiryConstants:
        """Float constants of the standard law X (b = 1, t = 0)."""
        return float_constants()

    @property
    def mean(self) -> float:
        return self.t

    @property
    def var(self) -> float:
        return self.b**2 * _FLOAT_CONSTANTS.second_moment

    @property
    def mean_abs(self) -> float:
        return self.b * _FLOAT_CONSTANTS.mean_abs

    @property
    def fisher(self) -> float:
        return _FLOAT_CONSTANTS.fisher / self.b**2
