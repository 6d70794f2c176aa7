"""Closed forms of the mean of a release: the bias of the shifted log-Gaussian mechanism
(Section 8) and the error of the constant release (Proposition 2.3), each written once.

Notation as in :mod:`countdp.formulas.mechanism`: ``U_n = (n+c) e^W - c`` with
``W = sigma Z + drift`` (the paper's drift is ``-sigma^2``), released as ``[U_n]_+``.
"""

from __future__ import annotations

from ..numerics.contexts import formula
from .mechanism import negative_part


@formula
def unclipped_bias(ctx, n, c, sigma, drift=None):
    """Section 8: E U_n - n = (n+c) e^{drift + sigma^2/2} - c - n (E e^{sigma Z} = e^{sigma^2/2});
    for the paper's drift -sigma^2 this is (n+c)(e^{-sigma^2/2} - 1) < 0, and the mean-one drift
    -sigma^2/2 is unbiased."""
    s, c, n = ctx.convert(sigma), ctx.convert(c), ctx.convert(n)
    m = -s * s if drift is None else ctx.convert(drift)
    return (n + c) * ctx.exp(m + s * s / 2) - c - n


@formula
def released_bias(ctx, n, c, sigma, drift=None):
    """Section 8: E[U_n]_+ - n = (E U_n - n) - E[U_n 1{U_n < 0}], the unclipped bias minus the
    negative part that clipping removes (a lognormal partial expectation, see
    :func:`countdp.formulas.mechanism.negative_part`)."""
    return unclipped_bias(ctx, n, c, sigma, drift) - negative_part(ctx, n, c, sigma, drift)

