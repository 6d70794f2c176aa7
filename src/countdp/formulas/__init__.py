"""Every closed form of the paper and the companion paper, once, generic over the number system.

The submodules group the formulas by the part of the mathematics they belong to; this package
also holds every formula under its own name (``formulas.sigma``, ``formulas.budget``, ...), and
refuses to import if two submodules define the same name, so that a formula cannot exist twice.
Evaluate with ``formulas.sigma(r0, c)`` (mpmath), ``.fp`` (float64/numpy) or ``.ball`` (Arb).
"""

from __future__ import annotations

from ..numerics.contexts import Formula
from . import (airy, bias, boundary, companion, limits, log_laplace, lower_bound_cstar, lower_bounds,
               mechanism, unequal_variance, zcdp)

_SUBMODULES = (mechanism, lower_bounds, limits, bias, zcdp, boundary, unequal_variance, log_laplace,
               airy, lower_bound_cstar, companion)


def _collect() -> dict[str, Formula]:
    found: dict[str, Formula] = {}
    for module in _SUBMODULES:
        for name, obj in vars(module).items():
            if isinstance(obj, Formula) and obj.__module__ == module.__name__:
                if name in found:
                    raise ImportError(f"formula {name!r} is defined twice: in "
                                      f"{found[name].__module__} and {module.__name__}")
                found[name] = obj
    return found


ALL: dict[str, Formula] = _collect()
globals().update(ALL)
__all__ = sorted(ALL)
