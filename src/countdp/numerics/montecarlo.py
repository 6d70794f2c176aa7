"""Monte Carlo means with confidence intervals of ``Z_BAR`` standard errors, streamed in chunks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import validate
from .estimate import Z_BAR, Estimate


@dataclass(frozen=True)
class MCEstimate(Estimate):
    """A Monte Carlo mean (``value``) with ``error`` = Z_BAR standard errors."""

    se: float = 0.0
    draws: int = 0

    @property
    def mean(self) -> float:
        return self.value

    @property
    def halfwidth(self) -> float:
        return self.error


def mc_mean(draw: Callable[[np.random.Generator, int], np.ndarray], rng: np.random.Generator,
            draws: int = 10**6, chunk: int = 2**17) -> MCEstimate:
    """Mean of ``draw(rng, size)`` over ``draws`` samples streamed in chunks (bounded memory).

    Sums are accumulated around the first chunk's mean (shifted data) so the variance does not
    cancel catastrophically.  ``rng``: a Generator, an integer seed or None; ``draws``: 2 ..
    10^10; a draw that is NaN or infinite is refused (ValueError naming ``draw``)."""
    validate.function("draw", draw)
    rng = validate.rng(rng)
    draws = validate.count("draws", draws, lo=2, hi=validate.MAX_DRAWS)
    chunk = validate.count("chunk", chunk, lo=1, hi=validate.MAX_SAMPLE)
    done, shift = 0, None
    s1 = s2 = 0.0
    while done < draws:
        m = min(chunk, draws - done)
        x = np.asarray(draw(rng, m), dtype=float)
        if not np.all(np.isfinite(x)):
            raise ValueError(f"draw(rng, {m}) returned a NaN or infinite value: the mean is undefined")
        if shift is None:
            shift = float(np.mean(x))
        d = x - shift
        s1 += float(np.sum(d))
        s2 += float(np.sum(d * d))
        done += m
    mean_d = s1 / done
    var = max(s2 / done - mean_d ** 2, 0.0) * done / (done - 1)
    se = float(np.sqrt(var / done))
    return MCEstimate(shift + mean_d, Z_BAR * se, se, done)
