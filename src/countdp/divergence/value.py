"""The value of a divergence: an :class:`Estimate` that may be infinite, with how it was
obtained and, when infinite, why."""

from __future__ import annotations

from dataclasses import dataclass

import mpmath

from ..numerics.estimate import Estimate

__all__ = ["INF", "Divergence", "infinite"]

INF = mpmath.mpf("inf")


@dataclass(frozen=True)
class Divergence(Estimate):
    """A divergence ``value`` with its absolute ``error``, the ``method`` that produced it, the
    order ``alpha`` and, for an infinite value, the ``reason``."""

    method: str = ""
    alpha: object = None
    reason: str | None = None

    @property
    def finite(self) -> bool:
        return not mpmath.isinf(self.value)

    def __repr__(self) -> str:
        if not self.finite:
            return f"Divergence(inf, reason={self.reason!r})"
        return f"Divergence({mpmath.nstr(self.value, 12)} +/- {mpmath.nstr(self.error, 3)}, {self.method})"


def infinite(reason: str, alpha, method: str = "support analysis") -> Divergence:
    """An infinite divergence and the reason it is infinite."""
    return Divergence(INF, mpmath.mpf(0), method, alpha, reason)
