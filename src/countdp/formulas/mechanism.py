"""Closed forms of the shifted log-Gaussian mechanism (Sections 3-5), each written once.

Every function takes a number system ``ctx`` first (see :mod:`countdp.numerics.contexts`):
``f(args)`` is mpmath, ``f.fp(args)`` float64/numpy, ``f.ball(args)`` Arb balls.  No parameter
checks here: the mechanism classes and the command line validate their inputs.

Notation: ``sigma`` of eq (3), ``c > 0`` the shift, ``n`` a count, ``W = sigma Z + drift`` the
log-space noise (the paper's drift is ``-sigma^2``).
"""

from __future__ import annotations

from ..numerics.contexts import formula


@formula
def sigma(ctx, r0, c):
    """eq (3): sigma = Phi^{-1}(1/2 + r0/(2(1+c))), evaluated as sqrt(2) erfinv(r0/(1+c)) so that
    a tiny r0 keeps its relative accuracy."""
    return ctx.ncdf_inv_half(ctx.convert(r0) / (1 + ctx.convert(c)))


@formula
def unclipped_release(ctx, n, c, sigma, z, drift=None):
    """eq (4) before clipping, as a map of the standard normal draw z:
    U_n = (n+c) exp(sigma z - sigma^2) - c (``drift`` replaces -sigma^2 for a negative control),
    evaluated as n + (n+c) expm1(sigma z - sigma^2): no cancellation when c >> n."""
    s, c, n = ctx.convert(sigma), ctx.convert(c), ctx.convert(n)
    m = -s * s if drift is None else ctx.convert(drift)
    return n + (n + c) * ctx.expm1(s * ctx.convert(z) + m)


@formula
def log_gap(ctx, n, c):
    """The log-space length of the edge n-1 <-> n: log((n+c)/(n-1+c)) = log1p(1/(n-1+c)) for
    n >= 1 (Section 5); n = 0 gives the boundary gap log((1+c)/c) of eq (5)."""
    n = ctx.maximum(ctx.convert(n), 1)
    return ctx.log1p(1 / (n - 1 + ctx.convert(c)))


@formula
def budget(ctx, n, sigma, c):
    """eqs (5)-(6): v(n) = log^2((n+c)/(n-1+c)) / (2 sigma^2) for n >= 1, v(0) = v(1)."""
    s = ctx.convert(sigma)
    return log_gap(ctx, n, c) ** 2 / (2 * s * s)


@formula
def boundary_budget(ctx, sigma, c):
    """eq (5) as stated: v(0) = v(1) = log^2((1+c)/c) / (2 sigma^2)."""
    s, c = ctx.convert(sigma), ctx.convert(c)
    return ctx.log((1 + c) / c) ** 2 / (2 * s * s)


@formula
def budget_leading(ctx, n, sigma):
    """eq (7): the leading term 1/(2 sigma^2 n^2) of v(n) (Theorem 3.1(iii))."""
    s, n = ctx.convert(sigma), ctx.convert(n)
    return 1 / (2 * s * s * n * n)


@formula
def gap_leading(ctx, n):
    """Section 5: the leading term 1/n of log(1 + 1/(n-1+c))."""
    return 1 / ctx.convert(n)


@formula
def corollary_sigma(ctx, r0):
    """Corollary 3.2 (c = 1): sigma = Phi^{-1}(1/2 + r0/4)."""
    return ctx.ncdf_inv(ctx.fraction(1, 2) + ctx.convert(r0) / 4)


@formula
def corollary_budget(ctx, n, sigma):
    """Corollary 3.2 (c = 1): v(n) = log^2(1 + 1/n)/(2 sigma^2) for n >= 1 and
    v(0) = v(1) = log^2 2/(2 sigma^2)."""
    s = ctx.convert(sigma)
    n = ctx.maximum(ctx.convert(n), 1)
    return ctx.log1p(1 / n) ** 2 / (2 * s * s)


@formula
def round_up_probability(ctx, y):
    """Corollary 3.2: stochastic rounding sends y >= 0 to ceil(y) = floor(y) + 1 with
    probability y - floor(y), to floor(y) otherwise (conditional mean y)."""
    y = ctx.convert(y)
    return y - ctx.floor(y)


@formula
def error_bound(ctx, n, r0, c):
    """Theorem 3.1(i): the bound r0 (n+c)/(1+c) on E|xhat - n|."""
    c = ctx.convert(c)
    return ctx.convert(r0) * (ctx.convert(n) + c) / (1 + c)


@formula
def target(ctx, n, r):
    """eq (2): the repaired utility target r max(n, 1)."""
    return ctx.convert(r) * ctx.maximum(ctx.convert(n), 1)


@formula
def multiplicative_error(ctx, sigma):
    """Lemma 4.1: E|exp(sigma Z - sigma^2) - 1| = 2 Phi(sigma) - 1 = erf(sigma/sqrt 2)."""
    return ctx.erf(ctx.convert(sigma) / ctx.sqrt(2))


@formula
def half_expectation(ctx, sigma):
    """eq (8): E[exp(sigma Z - sigma^2) 1{Z <= sigma}] = exp(-sigma^2/2)/2 (the same on Z > sigma)."""
    s = ctx.convert(sigma)
    return ctx.exp(-s * s / 2) / 2


@formula
def unclipped_error(ctx, n, c, sigma):
    """eq (9): E|U_n - n| = (n + c)(2 Phi(sigma) - 1) for U_n = (n+c) exp(sigma Z - sigma^2) - c."""
    return (ctx.convert(n) + ctx.convert(c)) * multiplicative_error(ctx, sigma)


@formula
def drift_error(ctx, sigma, a):
    """Section 4.1: E|exp(sigma Z - a) - 1| = e^{sigma^2/2 - a}(2 Phi(sigma - a/sigma) - 1)
    + 2 Phi(a/sigma) - 1 (split at Z = a/sigma; E[e^{sigma Z} 1{Z > k}] = e^{sigma^2/2}
    Phi(sigma - k))."""
    s, a = ctx.convert(sigma), ctx.convert(a)
    return ctx.exp(s * s / 2 - a) * (2 * ctx.ncdf(s - a / s) - 1) + 2 * ctx.ncdf(a / s) - 1


@formula
def drift_error_derivative(ctx, sigma, a):
    """Section 4.1: d/da E|exp(sigma Z - a) - 1| = exp(sigma^2/2 - a)(2 Phi(a/sigma - sigma) - 1)."""
    s, a = ctx.convert(sigma), ctx.convert(a)
    return ctx.exp(s * s / 2 - a) * (2 * ctx.ncdf(a / s - s) - 1)


@formula
def drift_argmin(ctx, sigma):
    """Section 4.1: the drift a = sigma^2 minimising E|exp(sigma Z - a) - 1|."""
    s = ctx.convert(sigma)
    return s * s


@formula
def mean_one_drift(ctx, sigma):
    """Section 4.1: the drift a = sigma^2/2 with E exp(sigma Z - a) = 1."""
    s = ctx.convert(sigma)
    return s * s / 2


@formula
def atom_mass(ctx, n, c, sigma, drift=None):
    """Section 5: the mass clipping puts at 0, P(U_n <= 0) = Phi((log(c/(n+c)) - drift)/sigma);
    with the paper's drift -sigma^2 it is Phi((log(c/(n+c)) + sigma^2)/sigma)."""
    s, c = ctx.convert(sigma), ctx.convert(c)
    m = -s * s if drift is None else ctx.convert(drift)
    return ctx.ncdf((ctx.log(c / (ctx.convert(n) + c)) - m) / s)


@formula
def negative_part(ctx, n, c, sigma, drift=None):
    """E[U_n 1{U_n < 0}] for U_n = (n+c) e^W - c, W ~ N(drift, sigma^2): with w0 = log(c/(n+c)),
    (n+c) e^{drift + sigma^2/2} Phi((w0 - drift - sigma^2)/sigma) - c Phi((w0 - drift)/sigma)
    (E[e^W 1{W < w}] = e^{m + s^2/2} Phi((w - m - s^2)/s)).  Clipping at 0 adds exactly this to
    the unclipped error of a count n >= 0."""
    s, c = ctx.convert(sigma), ctx.convert(c)
    m = -s * s if drift is None else ctx.convert(drift)
    nc = ctx.convert(n) + c
    w0 = ctx.log(c / nc)
    return nc * ctx.exp(m + s * s / 2) * ctx.ncdf((w0 - m - s * s) / s) - c * ctx.ncdf((w0 - m) / s)


@formula
def released_error(ctx, n, c, sigma):
    """E|[U_n]_+ - n| exactly (Theorem 3.1(i)): eq (9) plus the clipped negative part."""
    return unclipped_error(ctx, n, c, sigma) + negative_part(ctx, n, c, sigma)


@formula
def log_mean(ctx, n, c, sigma):
    """eq (10): the mean log(n+c) - sigma^2 of log(U_n + c) ~ N(log(n+c) - sigma^2, sigma^2)."""
    s = ctx.convert(sigma)
    return ctx.log(ctx.convert(n) + ctx.convert(c)) - s * s


@formula
def log_variance(ctx, sigma):
    """eq (10): the variance sigma^2 of log(U_n + c)."""
    s = ctx.convert(sigma)
    return s * s


@formula
def renyi_equal_variance(ctx, alpha, mu, nu, s):
    """eq (11): D_alpha(N(mu, s^2) || N(nu, s^2)) = alpha (mu - nu)^2 / (2 s^2)."""
    s = ctx.convert(s)
    d = ctx.convert(mu) - ctx.convert(nu)
    return ctx.convert(alpha) * d * d / (2 * s * s)


@formula
def renyi_counts(ctx, alpha, n, m, c, sigma):
    """eq (12): D_alpha(U_n || U_m) = alpha log^2((n+c)/(m+c)) / (2 sigma^2), both directions;
    log((n+c)/(m+c)) is evaluated as log1p((n-m)/(m+c)), accurate for neighbouring counts."""
    n, m = ctx.convert(n), ctx.convert(m)
    gap = ctx.log1p((n - m) / (m + ctx.convert(c)))
    s = ctx.convert(sigma)
    return ctx.convert(alpha) * gap * gap / (2 * s * s)
