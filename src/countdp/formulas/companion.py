"""Closed forms of the companion paper (Harrison and Manurangsi, 2025, "Exact zCDP
Characterizations for Fundamental Differentially Private Mechanisms"), each written once.

Neighbouring pairs: Laplace ``Lap(0, Delta/eps)`` vs ``Lap(Delta, Delta/eps)``; discrete Laplace
``tanh(a/2) e^{-a|k - x|}`` with ``a = eps/Delta`` at x = 0 vs Delta; k-ary randomized response
on values 0 vs 1; one-hot RAPPOR on values 0 vs 1 (two bits differ); pairs of eta-bounded range.
The tight zCDP parameter ``rho* = sup_{alpha > 1} D_alpha/alpha`` is claimed to be the KL of the
pair for the first four (k <= 6 for k-RR).

The hyperbolic functions are written through ``exp``/``expm1`` so that every number system
evaluates them without cancellation: ``tanh(y) = -expm1(-2y)/(1 + e^{-2y})`` for y >= 0 and
``sinh(a) = (expm1(a) - expm1(-a))/2``.
"""

from __future__ import annotations

from ..numerics.contexts import formula


def _tanh(ctx, y):
    """tanh(y) for y >= 0, without cancellation at small y."""
    return -ctx.expm1(-2 * y) / (1 + ctx.exp(-2 * y))


def _sinh(ctx, a):
    """sinh(a), without cancellation at small a (expm1(a) > 0 > expm1(-a))."""
    return (ctx.expm1(a) - ctx.expm1(-a)) / 2


@formula
def laplace_kl(ctx, eps):
    """KL(Lap(0, 1) || Lap(eps, 1)) = eps + e^{-eps} - 1 for eps >= 0 (= KL of the eps-DP Laplace
    mechanism's neighbours); Harrison-Manurangsi: the tight zCDP parameter of the Laplace
    mechanism."""
    e = ctx.convert(eps)
    return e + ctx.expm1(-e)


@formula
def laplace_renyi(ctx, alpha, eps):
    """Mironov (Renyi DP, 2017, Prop. 6): D_alpha(Lap(0, 1) || Lap(eps, 1)) for alpha > 1 and
    eps >= 0,  log(alpha/(2alpha-1) e^{(alpha-1)eps} + (alpha-1)/(2alpha-1) e^{-alpha eps})/(alpha-1),
    written as eps + log(alpha/(2alpha-1) + (alpha-1)/(2alpha-1) e^{-(2alpha-1)eps})/(alpha-1)."""
    a, e = ctx.convert(alpha), ctx.convert(eps)
    a1, d = a - 1, 2 * a - 1
    return e + ctx.log(a / d + a1 / d * ctx.exp(-d * e)) / a1


@formula
def discrete_laplace_kl(ctx, eps, Delta):
    """KL of the discrete Laplace pair (x = 0 vs Delta, a = eps/Delta):
    eps - a (1 - e^{-eps}) / sinh(a) (= eps tanh(eps/2) at Delta = 1)."""
    e = ctx.convert(eps)
    a = e / ctx.convert(Delta)
    return e + a * ctx.expm1(-e) / _sinh(ctx, a)


@formula
def krr_true_prob(ctx, eps, k):
    """k-ary randomized response: P(report the true value) = e^eps / (e^eps + k - 1)."""
    x = ctx.exp(ctx.convert(eps))
    return x / (x + ctx.convert(k) - 1)


@formula
def krr_other_prob(ctx, eps, k):
    """k-ary randomized response: P(report one given other value) = 1 / (e^eps + k - 1)."""
    return 1 / (ctx.exp(ctx.convert(eps)) + ctx.convert(k) - 1)


@formula
def krr_kl(ctx, eps, k):
    """KL of the k-RR pair (true values 0 vs 1): eps (e^eps - 1) / (e^eps + k - 1)."""
    e = ctx.convert(eps)
    return e * ctx.expm1(e) / (ctx.exp(e) + ctx.convert(k) - 1)


@formula
def rappor_flip_prob(ctx, eps):
    """One-hot RAPPOR: each bit is flipped independently with probability 1/(1 + e^{eps/2})."""
    return 1 / (1 + ctx.exp(ctx.convert(eps) / 2))


@formula
def rappor_rho(ctx, eps):
    """Harrison-Manurangsi: the tight zCDP parameter of one-hot RAPPOR, eps tanh(eps/4) (eps >= 0;
    twice the KL of binary randomized response at eps/2)."""
    e = ctx.convert(eps)
    return e * _tanh(ctx, e / 4)


@formula
def bounded_range_rho(ctx, eta):
    """Harrison-Manurangsi: the tight zCDP parameter of an eta-bounded-range mechanism,
    eta/(e^eta - 1) + log((e^eta - 1)/eta) - 1 (< eta^2/8)."""
    h = ctx.convert(eta)
    e1 = ctx.expm1(h)
    return h / e1 + ctx.log(e1 / h) - 1


@formula
def krr_chord_weight(ctx, eps, k):
    """b = (k-2) e^{-eps/2}/2: k-RR's E_Q (p/q)^alpha is proportional to cosh((alpha - 1/2) eps) + b
    (the k - 2 outputs with likelihood ratio 1 against the two with e^{+-eps}); the KL is the
    tight rho when b <= 2 (countdp.arb.renyi_chord), so for every eps > 0 when k <= 6."""
    return (ctx.convert(k) - 2) * ctx.exp(-ctx.convert(eps) / 2) / 2


@formula
def laplace_chord_weight(ctx, eps):
    """c = eps/2: Mironov's E_Q (p/q)^alpha of the Laplace pair is e^{-eps/2} (cosh y + c sinh(y)/y),
    y = (alpha - 1/2) eps (countdp.arb.renyi_chord)."""
    return ctx.convert(eps) / 2


@formula
def discrete_laplace_chord_weight(ctx, eps, Delta):
    """m = 1 - e^{-eps/Delta}: the discrete Laplace pair's sqrt(p q) on the Delta - 1 points strictly
    between the two centres, relative to its value on each end class (countdp.arb.renyi_chord)."""
    return -ctx.expm1(-ctx.convert(eps) / ctx.convert(Delta))


@formula
def bounded_range_worst_q(ctx, eta):
    """q* = (u* - 1)/(e^eta - 1), u* = eta/(1 - e^{-eta}): the Q-mass of the high-ratio point of the
    two-point eta-range pair (log-likelihood ratios c + eta and c) of largest KL; over q the KL is
    A(1 - 1/u) - log u with u = 1 + q(e^eta - 1), A = u*, whose derivative (A - u)/u^2 changes sign
    once, at u = u*, where it equals :func:`bounded_range_rho`."""
    h = ctx.convert(eta)
    u = h / -ctx.expm1(-h)
    return (u - 1) / ctx.expm1(h)


@formula
def bounded_range_worst_p(ctx, eta):
    """p* = (u* - 1)/eta: the P-mass of the high-ratio point of the pair of :func:`bounded_range_worst_q`
    (p* = q* e^{c + eta} with e^{-c} = u*)."""
    h = ctx.convert(eta)
    return (h / -ctx.expm1(-h) - 1) / h
