"""Closed forms of the limits, rates and constants of Section 5.1, eq (13), eq (32) and
Section 8, each written once.

Section 5.1 (the large-count coefficient ``lim_n r^2 n^2 v(n)`` and how it behaves as r -> 0):
Theorem 3.1(iii) gives ``lim_n r^2 n^2 v(n) = r^2 / (2 sigma^2)``; with c fixed and r0/r -> 1 it
tends to ``(1+c)^2/pi``, because ``sigma ~ (r/(1+c)) sqrt(pi/2)``; the boundary cost behaves
as ``v(1) ~ (1+c)^2/(pi r^2) log^2((1+c)/c)``, of order ``r^-2 log^2(1/r)`` when c = r.
Eq (13): ``Phi^{-1}((1+r)/2) = r sqrt(pi/2) + O(r^3)`` with the r^3 coefficient
``sqrt(pi/2) pi/12``, and the budget ``1/(pi r^2 n^2)``.  Eq (32): the upper constant ``1/pi`` and
the ratio ``4 e^2/pi^2`` of the bounds on C*.  Section 8: the second-order term of the
multiplicative noise, ``E|exp(sigma Z - sigma^2) - 1 - sigma Z| / sigma^2 -> E|Z^2/2 - 1|``.

No parameter checks here: the callers validate.
"""

from __future__ import annotations

from ..numerics.contexts import formula
from .mechanism import sigma

# ---------------------------------------------------------------------------------------------
# Section 5.1: the large-count coefficient and its r -> 0 limits
# ---------------------------------------------------------------------------------------------


@formula
def large_count_coefficient(ctx, r, r0, c):
    """Theorem 3.1(iii): lim_n r^2 n^2 v(n) = r^2 / (2 sigma^2), sigma of eq (3)
    (n log((n+c)/(n-1+c)) -> 1 in eq 6).  With r0 = r and c = 0 it is the limit
    r^2 / (2 Phi^{-1}((1+r)/2)^2) of Section 5.1's second regime (r0 -> r, c -> 0)."""
    r = ctx.convert(r)
    s = sigma(ctx, r0, c)
    return r * r / (2 * s * s)


@formula
def fixed_shift_constant(ctx, c):
    """Section 5.1: for a fixed shift c, lim_{r -> 0} lim_n r^2 n^2 v(n) = (1+c)^2/pi along
    r0/r -> 1 (4/pi at c = 1)."""
    return (1 + ctx.convert(c)) ** 2 / ctx.pi


@formula
def small_r_sigma(ctx, r, c):
    """Section 5.1: sigma ~ (r/(1+c)) sqrt(pi/2) as r -> 0 with r0/r -> 1."""
    return ctx.convert(r) / (1 + ctx.convert(c)) * ctx.sqrt(ctx.pi / 2)


@formula
def boundary_budget_asymptote(ctx, r, c):
    """Section 5.1: the boundary cost v(1) ~ (1+c)^2/(pi r^2) log^2((1+c)/c) as r -> 0."""
    r, c = ctx.convert(r), ctx.convert(c)
    return (1 + c) ** 2 / (ctx.pi * r * r) * ctx.log((1 + c) / c) ** 2


@formula
def diagonal_boundary_order(ctx, r):
    """Section 5.1: with the diagonal choice c = r, v(1) is of order r^-2 log^2(1/r)."""
    r = ctx.convert(r)
    return ctx.log(1 / r) ** 2 / (r * r)


# ---------------------------------------------------------------------------------------------
# eq (13): the expansion of Phi^{-1}((1+r)/2)
# ---------------------------------------------------------------------------------------------


@formula
def inverse_half_remainder(ctx, r):
    """eq (13): the remainder Phi^{-1}((1+r)/2) - r sqrt(pi/2) (of order r^3; the difference
    cancels about 2 log10(1/r) digits, so evaluate it with guard digits)."""
    r = ctx.convert(r)
    return ctx.ncdf_inv_half(r) - r * ctx.sqrt(ctx.pi / 2)


@formula
def small_error_budget(ctx, n, r):
    """eq (13): with r0 -> r and c -> 0, then r -> 0, the large-count budget approaches
    1/(pi r^2 n^2)."""
    r, n = ctx.convert(r), ctx.convert(n)
    return 1 / (ctx.pi * r * r * n * n)


@formula
def inverse_half_cubic_coefficient(ctx):
    """eq (13): the r^3 coefficient sqrt(pi/2) pi/12 of Phi^{-1}((1+r)/2) = sqrt(2) erfinv(r)."""
    return ctx.sqrt(ctx.pi / 2) * ctx.pi / 12


# ---------------------------------------------------------------------------------------------
# eq (32) and Table 2: the upper constant and the ratio of the bounds on C*
# ---------------------------------------------------------------------------------------------


@formula
def log_gaussian_upper_constant(ctx):
    """eq (32) and Table 2: the constant 1/pi reached by the shifted log-Gaussian family
    r0 = r(1 - r), c = r."""
    return 1 / ctx.pi


@formula
def upper_to_lower_ratio(ctx):
    """eq (32): (1/pi) / (pi/(4 e^2)) = 4 e^2/pi^2 (about 2.995)."""
    return 4 * ctx.e ** 2 / ctx.pi ** 2


# ---------------------------------------------------------------------------------------------
# Section 8: the small-noise expansion of the multiplicative noise
# ---------------------------------------------------------------------------------------------


@formula
def small_noise_remainder_limit(ctx):
    """Section 8: the sigma -> 0 limit of E|exp(sigma Z - sigma^2) - 1 - sigma Z| / sigma^2: the
    second-order term is sigma^2 (Z^2/2 - 1), and E|Z^2/2 - 1| = 1/2 + 2 (sqrt(2) phi(sqrt(2))
    - Phi(-sqrt(2)))."""
    a = ctx.sqrt(2)
    return ctx.fraction(1, 2) + 2 * (a * ctx.npdf(a) - ctx.ncdf(-a))


@formula
def small_noise_remainder_piece(ctx, a, b, sigma):
    """Section 8: int_a^b g phi for g(z) = exp(sigma z - sigma^2) - 1 - sigma z:
    e^{-sigma^2/2} (Phi(b - sigma) - Phi(a - sigma)) - (Phi(b) - Phi(a)) + sigma (phi(b) - phi(a))
    (e^{sigma z} phi(z) = e^{sigma^2/2} phi(z - sigma), z phi(z) = -phi'(z))."""
    s, a, b = ctx.convert(sigma), ctx.convert(a), ctx.convert(b)
    return (ctx.exp(-s * s / 2) * (ctx.ncdf(b - s) - ctx.ncdf(a - s)) - (ctx.ncdf(b) - ctx.ncdf(a))
            + s * (ctx.npdf(b) - ctx.npdf(a)))
