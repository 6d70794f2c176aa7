"""A computed number with its error bar.

Every numerical route of the library returns an :class:`Estimate` (or a subclass that adds what
the route knows besides): ``value`` and an absolute ``error`` such that the exact quantity lies
in ``[value - error, value + error]`` -- proven for ball arithmetic, the integrator's estimate
for quadrature, a confidence interval of ``Z_BAR`` standard errors for Monte Carlo.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mpmath

Z_BAR = 5.0  # the half-width of every Monte Carlo interval, in standard errors


@dataclass(frozen=True)
class Estimate:
    """``value`` +/- ``error`` (absolute)."""

    value: Any
    error: Any = 0

    def __float__(self) -> float:
        return float(self.value)

    @property
    def interval(self) -> tuple:
        return self.value - self.error, self.value + self.error

    def __repr__(self) -> str:
        def show(x):
            return mpmath.nstr(x, 12) if isinstance(x, mpmath.mpf) else repr(x)
        return f"{type(self).__name__}({show(self.value)} +/- {show(self.error)})"
