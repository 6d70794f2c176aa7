"""Closed forms of the Airy law f(x) = Ai(|x| + a1')^2 / Z and of its log-mechanism, each written
once (the C* research note beyond the paper).

``a1'`` is the first zero of Ai' (~ -1.0187929716); write ``A = |a1'|``.  The antiderivatives of
``Ai^2``, ``z Ai^2``, ``z^2 Ai^2`` and ``Ai'^2`` (vanishing at +inf, evaluated at a1' where
Ai' = 0) give the normaliser ``Z = 2 A Ai(a1')^2``, the mean absolute value ``m = 2A/3``, the
Fisher information ``I = 4A/3``, the second moment ``E X^2 = 1/(5A) + 8A^2/15`` and the
constant of the iterated limit ``m^2 I/2 = 8A^3/27``, against the Gaussian's ``1/pi`` (eq 32).
The statements about the law's score and the mechanism built on it are written here too: the
sub-Gaussian bound ``K_s(u) <= I u^2/2`` and the Gaussian score moments ``(2k-1)!! I^k`` it is
compared through, the drift ``t = -b q`` of the calibration, and the large-n limit
``n^2 v(n) -> I/(2 b^2)`` of the budget.

Every formula takes ``a1p`` (a1') as an optional argument: by default the number system's own
zero of Ai' (``ctx.airy_ai_prime_zero``); a certificate passes an independently certified
enclosure instead, so that the constants are always evaluated by these bodies.
"""

from __future__ import annotations

from ..numerics.contexts import formula


def _abs_zero(ctx, a1p):
    return abs(airy_prime_zero(ctx) if a1p is None else ctx.convert(a1p))


@formula
def airy_prime_zero(ctx):
    """a1' = the first (largest) zero of Ai' (~ -1.0187929716; DLMF 9.9)."""
    return ctx.airy_ai_prime_zero(1)


@formula
def airy_normaliser(ctx, a1p=None):
    """Z = 2 |a1'| Ai(a1')^2 = int Ai(|x| + a1')^2 dx (int Ai^2 = z Ai^2 - Ai'^2)."""
    a = airy_prime_zero(ctx) if a1p is None else ctx.convert(a1p)
    ai = ctx.airy_ai(a)
    return 2 * abs(a) * ai * ai


@formula
def airy_mean_abs(ctx, a1p=None):
    """m = E|X| = 2|a1'|/3 for the Airy law."""
    return 2 * _abs_zero(ctx, a1p) / 3


@formula
def airy_fisher(ctx, a1p=None):
    """I = E s(X)^2 = 4|a1'|/3, the Fisher information of the Airy law (location)."""
    return 4 * _abs_zero(ctx, a1p) / 3


@formula
def airy_second_moment(ctx, a1p=None):
    """E X^2 = 1/(5|a1'|) + 8 a1'^2/15 (the variance: the law is centred)."""
    a = _abs_zero(ctx, a1p)
    return 1 / (5 * a) + 8 * a * a / 15


@formula
def airy_limit_constant(ctx, a1p=None):
    """m^2 I / 2 = 8|a1'|^3/27 (~ 0.3133170606): the limit of r^2 n^2 v(n) for the Airy
    log-mechanism, an upper constant for C* below the paper's 1/pi (eq 32)."""
    a = _abs_zero(ctx, a1p)
    return 8 * a ** 3 / 27


@formula
def airy_gaussian_limit_ratio(ctx, a1p=None):
    """8 pi |a1'|^3 / 27 (~ 0.98431): the limit, as the error target r0/(1+c) -> 0, of the
    large-n budget ratio v_Airy(n)/v_Gauss(n) = I sigma^2/b^2 (sigma of eq (3)); pi times
    :func:`airy_limit_constant`."""
    return ctx.pi * airy_limit_constant(ctx, a1p)


@formula
def equal_mean_abs_gaussian_sd(ctx, a1p=None):
    """The sd s = m sqrt(pi/2) of the centred Gaussian with the Airy law's E|X| = m; its Fisher
    information 1/s^2 = 2/(pi m^2) gives m^2 I/2 = 1/pi."""
    return airy_mean_abs(ctx, a1p) * ctx.sqrt(ctx.pi / 2)


@formula
def airy_score_cgf_bound(ctx, u, a1p=None):
    """I u^2/2 (I = 4|a1'|/3): the bound K_s(u) = log E exp(u s(X)) <= I u^2/2 of a strictly
    sub-Gaussian score, attained as u -> 0 (K_s(u) = I u^2/2 + O(u^4)); for the Gaussian it is
    the score CGF itself."""
    u = ctx.convert(u)
    return airy_fisher(ctx, a1p) * u * u / 2


@formula
def airy_score_moment_bound(ctx, k, a1p=None):
    """(2k-1)!! I^k: the moment E s^{2k} of a Gaussian score with the Airy law's Fisher information
    I; the Airy score's moments below it for every k >= 2 (equal at k = 1, E s^2 = I) give the
    sub-Gaussian bound termwise."""
    k = int(k)
    odd = ctx.convert(1)
    for j in range(1, k + 1):
        odd = odd * (2 * j - 1)
    return odd * airy_fisher(ctx, a1p) ** k


@formula
def airy_drift(ctx, b, q):
    """t = -b q: the drift minimising E|exp(bX + t) - 1| puts k = -t/b at the median of the
    tilted law e^{bx} f(x)/E e^{bX}, and the error target rho = 2F(k) - 1 makes k the error
    quantile q = F^{-1}((1 + rho)/2)."""
    return -ctx.convert(b) * ctx.convert(q)


@formula
def airy_n2v_limit(ctx, b, a1p=None):
    """lim_{n -> inf} n^2 v(n) = I/(2 b^2) for the Airy log-mechanism of noise scale b: the edge
    is a shift Delta_n ~ 1/(n b) of X and v ~ KL ~ I Delta^2/2 (the sup over alpha at alpha -> 1)."""
    b = ctx.convert(b)
    return airy_fisher(ctx, a1p) / (2 * b * b)
