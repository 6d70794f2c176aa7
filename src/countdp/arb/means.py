"""Certified means of the shifted log-Gaussian release (Section 8's bias), by integration.

With ``U_n(z) = (n+c) e^{sigma z - sigma^2} - c`` (eq 4 before clipping) and ``Z ~ N(0, 1)``:

* ``E U_n = int U_n phi`` on [-T, T] (T = sigma + t0) plus the tails: ``|U_n| <= (n+c)
  e^{-sigma^2} e^{sigma z} + c``, bounded by (G+)/(G-) with b = sigma and (N) with k = 0 (signed);
* ``E[U_n]_+ = int_{z_c}^inf U_n phi`` (U_n >= 0 exactly there), z_c the clip point; right tail
  in [0, (n+c) e^{-sigma^2} (G+)], and the piece below -T when z_c < -T as in the clipped error.
"""

from __future__ import annotations

from flint import arb

from .integrals import gauss_tail_lower, gauss_tail_upper, integrate, normal_moment_tail, sqrt_2pi
from .integrals import tail_width, upper_point
from .verdicts import nonneg_interval, sym_interval, to_arb
from .log_gaussian import clip_start


def _integrand(n_: arb, c_: arb, s: arb):
    ss = s * s
    return lambda z: ((n_ + c_) * (s * z - ss).exp() - c_) * (-z * z / 2).exp()


def unclipped_mean(n, c, sig) -> arb:
    """Certified E U_n (the unclipped release of eq 4)."""
    s, n_, c_ = to_arb(sig), to_arb(n), to_arb(c)
    T = upper_point(s + tail_width())
    core = integrate(_integrand(n_, c_, s), -T, T)
    tails = ((n_ + c_) * (-s * s).exp() * (gauss_tail_upper(T, s) + gauss_tail_lower(-T, s))
             + c_ * normal_moment_tail(T, 0))
    return (core + sym_interval(tails)) / sqrt_2pi()


def released_mean(n, c, sig) -> arb:
    """Certified E[U_n]_+ (the released value of eq 4)."""
    s, n_, c_ = to_arb(sig), to_arb(n), to_arb(c)
    T = upper_point(s + tail_width())
    clip = clip_start(n_, c_, s, T)
    lo, below = clip.start, clip.cut_off
    core = integrate(_integrand(n_, c_, s), lo, T)
    right = nonneg_interval((n_ + c_) * (-s * s).exp() * gauss_tail_upper(T, s))
    return (core + right + below) / sqrt_2pi()
