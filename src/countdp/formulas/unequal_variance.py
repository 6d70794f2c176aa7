"""Closed forms of Section 7: two Gaussians with unequal variances (Lemma 7.1) and the
unequal-variance Gaussian mechanism X_n ~ N(n, r^2 n^2) of eq (33), each written once.

Notation: P = N(mu_P, s_P^2), Q = N(mu_Q, s_Q^2), alpha > 1.  The margin of eq (34) and the
thresholds are rational in their parameters (``.exact`` evaluates them exactly); the divergence
itself is meaningful only where the margin is positive (no check here: the callers decide the
sign first).
"""

from __future__ import annotations

from ..numerics.contexts import formula


@formula
def gaussian_renyi_margin(ctx, alpha, s_p, s_q):
    """eq (34): s_a^2 = alpha s_Q^2 + (1 - alpha) s_P^2.  Lemma 7.1: D_alpha(P || Q) is finite
    iff s_a^2 > 0 (the quadratic coefficient of log(p^alpha q^(1-alpha)) is s_a^2/(2 s_P^2 s_Q^2))."""
    a = ctx.convert(alpha)
    s_p, s_q = ctx.convert(s_p), ctx.convert(s_q)
    return a * s_q ** 2 + (1 - a) * s_p ** 2


@formula
def gaussian_renyi_threshold(ctx, s_p, s_q):
    """Lemma 7.1 solved for the order: for s_P > s_Q the margin of eq (34) vanishes at
    alpha = s_P^2 / (s_P^2 - s_Q^2), is positive below it and negative above."""
    s_p, s_q = ctx.convert(s_p), ctx.convert(s_q)
    return s_p ** 2 / (s_p ** 2 - s_q ** 2)


@formula
def gaussian_renyi_divergence(ctx, alpha, mu_p, s_p, mu_q, s_q):
    """Lemma 7.1 on its finite side (s_a^2 > 0, eq 34): D_alpha(P || Q) = log(s_Q/s_P)
    + log(s_Q^2/s_a^2)/(2(alpha - 1)) + alpha (mu_P - mu_Q)^2/(2 s_a^2); equal variances give
    eq (11).  exp((alpha - 1) D) is the integral of p^alpha q^(1-alpha)."""
    a = ctx.convert(alpha)
    mu_p, s_p, mu_q, s_q = (ctx.convert(x) for x in (mu_p, s_p, mu_q, s_q))
    s_a2 = gaussian_renyi_margin(ctx, a, s_p, s_q)
    return (ctx.log(s_q / s_p) + ctx.log(s_q ** 2 / s_a2) / (2 * (a - 1))
            + a * (mu_p - mu_q) ** 2 / (2 * s_a2))


@formula
def gaussian_kl(ctx, mu_p, s_p, mu_q, s_q):
    """The alpha -> 1 limit of Lemma 7.1's divergence: KL(P || Q) = log(s_Q/s_P)
    + (s_P^2 + (mu_P - mu_Q)^2)/(2 s_Q^2) - 1/2."""
    mu_p, s_p, mu_q, s_q = (ctx.convert(x) for x in (mu_p, s_p, mu_q, s_q))
    return ctx.log(s_q / s_p) + (s_p ** 2 + (mu_p - mu_q) ** 2) / (2 * s_q ** 2) - ctx.fraction(1, 2)


@formula
def unequal_variance_scale(ctx, n, r):
    """eq (33): the standard deviation r n of X_n ~ N(n, r^2 n^2); 0 at n = 0, where X_0 = N(0, 0)
    is the point mass delta_0."""
    return ctx.convert(r) * ctx.convert(n)


@formula
def normal_mass_above(ctx, mu, s, x0):
    """P(N(mu, s^2) > x0) = Phi((mu - x0)/s), s > 0.  For X_1 = N(1, r^2) of eq (33) and x0 = 0:
    Phi(1/r) > 1/2, the mass on (0, inf) where X_0 = delta_0 has none (Section 7's boundary edge)."""
    return ctx.ncdf((ctx.convert(mu) - ctx.convert(x0)) / ctx.convert(s))


@formula
def unequal_variance_threshold(ctx, n):
    """eq (35): D_alpha(X_{n+1} || X_n) for X_n ~ N(n, r^2 n^2), n >= 1, is finite iff
    alpha < (n+1)^2/(2n+1) (eq 34 with s_P = r(n+1), s_Q = r n; the factor r^2 cancels)."""
    n = ctx.convert(n)
    return (n + 1) ** 2 / (2 * n + 1)


@formula
def unequal_variance_error(ctx, n, r):
    """eq (33): E|X_n - n| = r n sqrt(2/pi) for X_n ~ N(n, r^2 n^2) (the scale of eq 2 at n >= 1)."""
    return ctx.convert(r) * ctx.convert(n) * ctx.sqrt(2 / ctx.pi)
