"""The shifted log-Gaussian mechanism in the terms of Google's ``dp_accounting`` (the optional
extra ``countdp[accounting]``), so that it composes there with any other mechanism.

Each edge is a Gaussian mechanism in log space.  In ``w = log(y + c)`` the unclipped releases
at the counts of ``edge(n)`` are ``N(log(n-1+c) - sigma^2, sigma^2)`` and ``N(log(n+c) - sigma^2,
sigma^2)`` (eq 10): a sensitivity-1 Gaussian mechanism with noise multiplier
``sigma / log((n+c)/(n-1+c))`` (eq 6's gap; the edge (0, 1) has ``log((1+c)/c)``, eq 5).  The
map w -> [exp(w) - c]_+ is post-processing, so that event (:func:`gaussian_event`) bounds the
released mechanism, exactly when the mass clipped to 0 is negligible.

The released laws' own privacy-loss distribution (:func:`released_pld`).  For an ordered pair
(A, B) of the edge's two releases, standardise ``Z = (w - m_A)/sigma`` under A; with
``d = (m_A - m_B)/sigma`` (= +-mu, mu = gap/sigma) the loss ``log(dA/dB)`` is ``d Z + d^2/2``
where the release is positive (``Z > z_A = (log c - m_A)/sigma``), and on the atom at 0 it is
``log Phi(z_A) - log Phi(z_A + d)``, of mass ``Phi(z_A)``.  Both orders are built (they differ
when clipping matters).  The loss is rounded up to the grid ``h Z`` (pessimistic, as
dp_accounting's own Gaussian), and the masses of ``|Z| > 11`` (under 4e-28) are counted as an
infinite loss: the PLD's eps at delta is an upper bound on the released mechanism's, above it by
at most h per composed release.
"""

from __future__ import annotations

import mpmath
import numpy as np
from scipy.special import ndtr

from .. import formulas
from ..numerics import validate

__all__ = ["dp_accounting", "noise_multiplier", "gaussian_event", "released_pld",
           "MAX_PLD_POINTS"]

#: the standardised range the PLD's grid covers; the mass beyond goes to the infinite loss
_Z_CUT = 11.0
#: the most grid points one direction of :func:`released_pld` holds
MAX_PLD_POINTS = 5 * 10 ** 6


def dp_accounting():
    """The ``dp_accounting`` package, imported on first use; ImportError naming the extra
    when it is not installed."""
    try:
        import dp_accounting as dpa
    except ImportError as exc:
        raise ImportError("the dp_accounting interface needs the optional dependency "
                          "dp-accounting: pip install 'countdp[accounting]'") from exc
    return dpa


def noise_multiplier(sigma, c, n) -> float:
    """``sigma / log((n+c)/(n-1+c))``: the noise multiplier of the Gaussian mechanism that the edge
    at n is in log space (edge (0, 1) for n = 0)."""
    n = validate.count("n", n)
    with mpmath.workdps(30):
        return validate.to_float(f"the noise multiplier at n = {n}",
                                 mpmath.mpf(sigma) / formulas.log_gap(n, c),
                                 "it leaves float64: dp_accounting works in float64")


def gaussian_event(sigma, c, n, releases: int = 1):
    """dp_accounting's ``GaussianDpEvent`` of the edge at n (an upper bound on the released
    mechanism: clipping is post-processing), self-composed when ``releases`` > 1."""
    releases = validate.count("releases", releases, lo=1)
    dpa = dp_accounting()
    event = dpa.GaussianDpEvent(noise_multiplier(sigma, c, n))
    return event if releases == 1 else dpa.SelfComposedDpEvent(event, releases)


def _loss_pmf(d: float, z_clip: float, atom_loss: float, h: float):
    """The rounded pmf {k: mass} of the loss ``d Z + d^2/2`` on ``Z > z_clip`` (k = ceil(loss/h)),
    the atom ``Phi(z_clip)`` at ``atom_loss`` added, and the mass counted as infinite loss."""
    lo = max(z_clip, -_Z_CUT)
    hi = max(lo, _Z_CUT)
    ends = sorted((d * lo + d * d / 2, d * hi + d * d / 2))
    k_lo, k_hi = int(np.ceil(ends[0] / h)), int(np.ceil(ends[1] / h))
    if k_hi - k_lo + 1 > MAX_PLD_POINTS:
        raise ValueError(f"value_discretization_interval = {h!r} gives {k_hi - k_lo + 1} grid "
                         f"points (at most {MAX_PLD_POINTS}); use a larger one")
    ks = np.arange(k_lo, k_hi + 1)
    # the bucket ((k-1) h, k h] of the loss, as an interval of Z, clipped to (lo, hi]
    za = np.clip(((ks - 1) * h - d * d / 2) / d, lo, hi)
    zb = np.clip((ks * h - d * d / 2) / d, lo, hi)
    za, zb = np.minimum(za, zb), np.maximum(za, zb)
    mass = np.where(za > 0, ndtr(-za) - ndtr(-zb), ndtr(zb) - ndtr(za))
    pmf = {int(k): float(m) for k, m in zip(ks, mass) if m > 0}
    atom = float(ndtr(z_clip))
    if atom > 0:
        k = int(np.ceil(atom_loss / h))
        pmf[k] = pmf.get(k, 0.0) + atom
    infinite = float(ndtr(-hi)) + max(float(ndtr(lo) - ndtr(z_clip)), 0.0)
    return pmf, infinite


def _direction(mean_a, mean_b, sigma, c, h: float):
    """The rounded pmf and the infinite mass of the loss log(dA/dB), A and B the releases whose
    log(y + c) has mean ``mean_a``, ``mean_b`` before clipping."""
    z_a = (mpmath.log(c) - mean_a) / sigma
    d = (mean_a - mean_b) / sigma
    atom_loss = mpmath.log(mpmath.ncdf(z_a)) - mpmath.log(mpmath.ncdf(z_a + d))
    return _loss_pmf(float(d), float(z_a), float(atom_loss), h)


def released_pld(sigma, c, n, releases: int = 1, value_discretization_interval: float = 1e-4,
                 drift=None):
    """dp_accounting's ``PrivacyLossDistribution`` of the released laws on the edge at n (both
    orders; see the module docstring), self-composed ``releases`` times.  ``drift``: the log
    drift (default -sigma^2, the paper's)."""
    releases = validate.count("releases", releases, lo=1)
    h = validate.real("value_discretization_interval", value_discretization_interval, lo=0, hi=1)
    n = validate.count("n", n)
    dpa = dp_accounting()
    with mpmath.workdps(30):
        sigma, c = mpmath.mpf(sigma), mpmath.mpf(c)
        drift = -sigma ** 2 if drift is None else mpmath.mpf(drift)
        lo, hi = (0, 1) if n == 0 else (n - 1, n)
        m_lo, m_hi = mpmath.log(lo + c) + drift, mpmath.log(hi + c) + drift
        if (m_hi - m_lo) / sigma > 1e6:
            raise ValueError(f"the edge at n = {n} has mu = gap/sigma = "
                             f"{mpmath.nstr((m_hi - m_lo) / sigma, 3)} above 1e6: its loss does "
                             "not fit a grid of float64 values")
        pmf_r, inf_r = _direction(m_hi, m_lo, sigma, c, h)
        pmf_a, inf_a = _direction(m_lo, m_hi, sigma, c, h)
    pld = dpa.pld.privacy_loss_distribution.PrivacyLossDistribution.create_from_rounded_probability(
        pmf_r, inf_r, h, pessimistic_estimate=True, rounded_probability_mass_function_add=pmf_a,
        infinity_mass_add=inf_a, symmetric=False)
    return pld if releases == 1 else pld.self_compose(releases)
