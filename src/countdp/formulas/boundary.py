"""Closed forms of the zero-count boundary (Section 2), each written once.

The repaired target ``r max(n, 1)`` of eq (2) is :func:`countdp.formulas.mechanism.target`; here
are the literal target of eq (1) and the exact error of the data-independent release of
Proposition 2.3.  Both are rational in their parameters, so ``.exact`` evaluates them exactly.
"""

from __future__ import annotations

from ..numerics.contexts import formula


@formula
def literal_target(ctx, n, r):
    """eq (1): the literal utility target r n (zero at n = 0, which no law can undercut)."""
    return ctx.convert(r) * ctx.convert(n)


@formula
def constant_release_error(ctx, n, value):
    """Proposition 2.3: the release of the constant ``value`` whatever the data errs by exactly
    E|value - n| = |value - n| at count n (1/2 at n = 0 and n - 1/2 at n >= 1 for value 1/2)."""
    return abs(ctx.convert(value) - ctx.convert(n))
