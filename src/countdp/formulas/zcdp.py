"""Closed forms of zCDP accounting (Section 5.1): the conversions of a rho-zCDP guarantee to
approximate differential privacy, and the privacy profile of two equal-variance Gaussians.

* Bun-Steinke: rho-zCDP gives ``(rho + 2 sqrt(rho log(1/delta)), delta)``-DP; inverted, the
  delta at a given eps is ``exp(-(eps - rho)^2 / (4 rho))`` for eps > rho (1 below).
* Canonne-Kamath-Steinke, applied to ``D_alpha = alpha rho``: for every order ``alpha > 1``,
  ``delta(eps) <= exp((alpha-1)(alpha rho - eps)) / (alpha-1) * (1 - 1/alpha)^alpha``; the log of
  the bound and its derivative in ``alpha`` are closed forms (the optimisation over ``alpha`` is
  done in :mod:`countdp.divergence.zcdp`).
* The hockey-stick divergence of N(0, s^2) and N(shift, s^2), ``mu = |shift| / s``:
  ``delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu)``.

No parameter checks here: :mod:`countdp.divergence.zcdp` validates its inputs.
"""

from __future__ import annotations

from ..numerics.contexts import formula


@formula
def bun_steinke_epsilon(ctx, rho, delta):
    """Bun-Steinke conversion (quoted in Section 5.1): rho-zCDP implies
    (rho + 2 sqrt(rho log(1/delta)), delta)-DP for 0 < delta < 1."""
    rho = ctx.convert(rho)
    return rho + 2 * ctx.sqrt(rho * ctx.log(1 / ctx.convert(delta)))


@formula
def bun_steinke_delta(ctx, rho, eps):
    """The Bun-Steinke conversion inverted: the delta at which rho-zCDP (rho > 0) gives eps,
    exp(-(eps - rho)_+^2 / (4 rho)) (solving eps = rho + 2 sqrt(rho log(1/delta)); 1 for eps <= rho)."""
    rho = ctx.convert(rho)
    gap = ctx.pos(ctx.convert(eps) - rho)
    return ctx.exp(-gap * gap / (4 * rho))


@formula
def cks_log_delta_at(ctx, rho, eps, alpha):
    """Canonne-Kamath-Steinke at the order alpha > 1: the log of
    exp((alpha-1)(alpha rho - eps)) / (alpha-1) * (1 - 1/alpha)^alpha."""
    a, rho, eps = ctx.convert(alpha), ctx.convert(rho), ctx.convert(eps)
    return (a - 1) * (a * rho - eps) - ctx.log(a - 1) + a * ctx.log(1 - 1 / a)


@formula
def cks_log_delta_slope(ctx, rho, eps, alpha):
    """d/dalpha of :func:`cks_log_delta_at`: (2 alpha - 1) rho - eps + log(1 - 1/alpha)
    (increasing in alpha, from -inf at 1+ to +inf: its root is the optimal order)."""
    a, rho, eps = ctx.convert(alpha), ctx.convert(rho), ctx.convert(eps)
    return (2 * a - 1) * rho - eps + ctx.log(1 - 1 / a)


@formula
def gaussian_profile(ctx, mu, eps):
    """The privacy profile (hockey-stick divergence) of N(0, s^2) vs N(shift, s^2), mu = |shift|/s > 0,
    either ordering: delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu)."""
    mu, eps = ctx.convert(mu), ctx.convert(eps)
    return ctx.ncdf(mu / 2 - eps / mu) - ctx.exp(eps) * ctx.ncdf(-mu / 2 - eps / mu)
