"""Closed forms of the log-Laplace mechanism Y = [(n + c) exp(b L) - c]_+ (L standard Laplace,
density e^{-|l|}/2): a second admissible mechanism for the two-count chain of Proposition 6.2.

Its budget is eq (6)'s closed form with b in place of sigma (``formulas.budget(n, b, c)``):
on the edge n-1 <-> n the log-likelihood ratio is at most eps_n = log((n+c)/(n-1+c))/b, so the
edge is eps_n-DP and hence (eps_n^2/2)-zCDP, and eps_n^2/2 = log^2((n+c)/(n-1+c))/(2 b^2).
"""

from __future__ import annotations

from ..numerics.contexts import formula


@formula
def laplace_multiplicative_error(ctx, b):
    """E|e^{bL} - 1| = b/(1 - b^2) for L standard Laplace and 0 < b < 1."""
    b = ctx.convert(b)
    return b / (1 - b * b)


@formula
def log_laplace_scale(ctx, r0, c):
    """The Laplace scale b in (0, 1) with (1 + c) b/(1 - b^2) = r0, i.e. E|U_n - n| =
    (n + c) r0/(1 + c): b = 2 kappa / (1 + sqrt(1 + 4 kappa^2)) with kappa = r0/(1 + c)."""
    kappa = ctx.convert(r0) / (1 + ctx.convert(c))
    return 2 * kappa / (1 + ctx.sqrt(1 + 4 * kappa * kappa))
