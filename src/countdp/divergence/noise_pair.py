"""One noise law at two locations, in the noise's own coordinate: the sup engine's route for
pairs of laws ``loc + scale X`` (Gaussian laws) and ``exp(loc + scale X) - c``, clipped at 0 or
not (every count mechanism in log space, eqs 4 and 10), whatever the noise X.

Standardising.  With ``t = x`` (a Gaussian law) or ``t = log(y + c)`` (log space) and
``z = (t - loc_P)/scale``, the map y -> z is a bijection of the support, so every divergence of
the pair is that of

    P_z = law of max(X, z0) - z0,    Q_z = law of max(X + d, z0) - z0,    d = (loc_Q - loc_P)/scale,

with ``z0 = (log c - loc_P)/scale`` the clip point (an unclipped pair is X vs X + d): the
densities ``g(v + z0)`` and ``g(v + z0 - d)`` on ``v > 0`` and the atoms ``G(z0)``, ``G(z0 - d)``
at exactly 0 (d and z0 in mpmath with 64 guard bits; measuring from the clip point keeps
the support's end exact, so no mass moves between the atom and the density).  In this coordinate the quadrature sees neither
the scale (1e-200 and 1e200 alike) nor the location (log(n + c) at any n).

The large-alpha end.  Clipping is post-processing, so each bound below, proved for the
unclipped pair, holds for the clipped one too.  A noise may declare (see
:class:`countdp.laws.LogShiftDensity`, the protocol a user implements):

* ``noise_log_lipschitz = Lip``: |log g(z) - log g(z')| <= Lip |z - z'|.  Then the privacy loss
  is bounded, |L| <= Lip |d| (the atoms' log-ratio log G(z0)/G(z0 - d) too), so
  ``D_inf <= Lip |d|`` and ``sup_{alpha >= A} D_alpha/alpha <= Lip |d| / A``, which falls below
  any KL > 0; the loss range ``2 Lip |d|`` feeds the engine's second-order cell bound;
* ``noise_score_subgaussian = S`` (g log-concave): E exp(u s(X)) <= exp(S u^2/2) for the score
  ``s = -(log g)'`` and every real u.  Log-concavity gives ``L(z) <= -d s(z - d)``, hence
  ``(alpha - 1) D_alpha <= log E exp(-alpha d s(X)) <= S alpha^2 d^2/2`` and
  ``sup_{alpha >= A} D_alpha/alpha <= S d^2 A / (2 (A - 1))`` (for the Gaussian, S = 1 and the
  bound tends to rho* = d^2/2 itself).

Without either constant the end falls back to the numerical sup of the log-ratio over a grid
(:class:`~countdp.divergence.loss_cgf.DensityLossCgf`), and says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
import numpy as np

from ..laws import ContinuousLaw, Law, LogShiftDensity, MixedLaw
from ..laws.base import CallableDensity
from ..laws.gaussian import GaussianDensity
from ..laws.log_shift import ClippedAtZero, LogShiftedGaussianDensity
from .loss_cgf import MACH, DensityLossCgf, LargeAlphaEnd

__all__ = ["NoisePair", "noise_pair", "NoisePairLossCgf"]

# the standard normal noise, as the log-space Gaussian density implements it (one place)
_NORMAL = LogShiftedGaussianDensity(0, 1, 1)
_PROBES = ("-2.5", "-0.75", "0", "0.4", "1.9")  # where two noises must agree to count as one


@dataclass(frozen=True)
class NoisePair:
    """A pair in the noise coordinate: ``P``, ``Q`` (laws of max(X, z0) - z0 and max(X + d, z0) - z0,
    or of X and X + d unclipped), the shift ``d``, the noise (the object carrying the protocol)."""

    P: Law
    Q: Law
    shift: object
    noise: object
    origin: object    # z0 for a clipped pair (the laws are measured from it), 0 for an unclipped one

    @property
    def clipped(self) -> bool:
        return self.P.atoms() != {}


def _parts(L: Law):
    """(noise, loc, scale, coordinate, clip point in t or None) of a law the route knows, else None."""
    if isinstance(L, ClippedAtZero):
        d = L.base.density
        if d.lo_mp != -d.c:
            return None
        return d, d.mu, d.s, ("log", d.c), mpmath.log(d.c)
    if L.atoms() or L.integer or not isinstance(L, ContinuousLaw):
        return None
    d = L.density
    if isinstance(d, LogShiftDensity) and d.lo_mp == -d.c:
        return d, d.mu, d.s, ("log", d.c), None
    if type(d) is GaussianDensity and d.lo == -np.inf and d.hi == np.inf:
        return _NORMAL, d.mu, d.s, ("identity",), None
    return None


def _same_noise(a, b) -> bool:
    """One standard noise law: the same class, the same declared parameters, the same log density
    at a few points (a guard against a subclass with a parameter it did not declare)."""
    if type(a) is not type(b) or getattr(a, "noise_parameters", ()) != getattr(b, "noise_parameters", ()):
        return False
    return all(a.mp_noise_logpdf(mpmath.mpf(z)) == b.mp_noise_logpdf(mpmath.mpf(z)) for z in _PROBES)


def _standardised(noise, shift, z0, name: str) -> Law:
    """The law of max(X + shift, z0) - z0 (z0 None: X + shift): measured from the clip point, so
    that the density's support starts at exactly 0 (a float z0 would move mass between the
    atom and the density by g(z0) times its rounding)."""
    o = mpmath.mpf(0) if z0 is None else z0
    off = o - shift                        # the density at v is g(v + o - shift)
    off_f = float(off)
    dens = CallableDensity(lambda v: noise.mp_noise_logpdf(v + off),
                           lo=-np.inf if z0 is None else 0.0, center=-off_f, scale=1.0,
                           mass=None if z0 is None else noise.mp_noise_sf(off),
                           np_logpdf=lambda v: noise.noise_logpdf(np.asarray(v, dtype=float) + off_f))
    if z0 is None:
        return ContinuousLaw(dens, name=name)
    return MixedLaw({0: noise.mp_noise_cdf(off)}, dens, name=name)


def noise_pair(P: Law, Q: Law) -> NoisePair | None:
    """P and Q as one noise law at two locations of one scale, in the noise coordinate, or None
    when they are not such a pair (different noises, scales, shifts c, or clipping)."""
    # 64 guard bits: d, z0 and the atoms are those of the laws given, not rounded once more
    with mpmath.workprec(mpmath.mp.prec + 64):
        a, b = _parts(P), _parts(Q)
        if a is None or b is None:
            return None
        (nP, locP, sP, keyP, clipP), (nQ, locQ, sQ, keyQ, clipQ) = a, b
        if keyP != keyQ or sP != sQ or (clipP is None) != (clipQ is None) or not _same_noise(nP, nQ):
            return None
        d = (locQ - locP) / sP
        z0 = None if clipP is None else (clipP - locP) / sP
        Pz = _standardised(nP, mpmath.mpf(0), z0, "max(X, z0) - z0")
        Qz = _standardised(nP, d, z0, "max(X + d, z0) - z0")
        return NoisePair(Pz, Qz, d, nP, mpmath.mpf(0) if z0 is None else z0)


class NoisePairLossCgf(DensityLossCgf):
    """F(alpha) of a :class:`NoisePair`: the density quadrature in the noise coordinate, with the
    large-alpha end and the loss range from the noise's declared constants (module docstring).
    The quadrature splits at the noise's kinks in both laws (``noise_kinks``); breakpoints given
    in the laws' own coordinate have no meaning here and are not used."""

    def __init__(self, pair: NoisePair):
        kinks = tuple(getattr(pair.noise, "noise_kinks", ()))
        o = pair.origin
        bps = [float(k - o) for k in kinks] + [float(k + pair.shift - o) for k in kinks]
        super().__init__(pair.P, pair.Q, bps)
        self.route = ("quadrature in the noise's coordinate z = (t - loc)/scale"
                      + (" (+ the atoms at the clip point)" if pair.clipped else ""))
        self.shift = abs(pair.shift)
        self.lipschitz = getattr(pair.noise, "noise_log_lipschitz", None)
        self.subgaussian = getattr(pair.noise, "noise_score_subgaussian", None)
        self.end_bounds_cells = self.lipschitz is not None or self.subgaussian is not None
        if self.lipschitz is None:
            # an unbounded loss: no second-order cell bound, so the chords of a flat curve close
            # slowly; past a few hundred orders more splitting narrows the bracket little
            self.max_evals = 1200
        self.built_prec = mpmath.mp.prec

    def finite_at_every_order(self) -> str | None:
        if self.lipschitz is not None or self.subgaussian is not None:
            return ("the noise's declared constant bounds (alpha - 1) D_alpha at every order "
                    "(large_alpha_end)")
        return super().finite_at_every_order()

    def _check_precision(self):
        """The pair's shift and clip point were rounded when it was built: read at more bits,
        the precise route's error bar would be that of the new precision, not of the pair's."""
        if mpmath.mp.prec > self.built_prec:
            raise ValueError(f"this noise pair was built at {self.built_prec} bits and is read at "
                             f"{mpmath.mp.prec}: build it again at the precision it is read at")

    def mp_F(self, alpha):
        self._check_precision()
        return super().mp_F(alpha)

    def kl(self):
        self._check_precision()
        return super().kl()

    def loss_range(self):
        if self.lipschitz is not None:
            return 2 * mpmath.mpf(self.lipschitz) * self.shift * (1 + 8 * mpmath.eps)
        return super().loss_range()

    def large_alpha_end(self, order: float) -> LargeAlphaEnd:
        A, d = float(order), float(self.shift)
        ends = []
        if self.lipschitz is not None:
            dinf = float(self.lipschitz) * d
            ends.append(LargeAlphaEnd(A, dinf / A * (1 + 8 * MACH),
                                      f"the noise's log density is {self.lipschitz}-Lipschitz: D_inf <= "
                                      f"{self.lipschitz} |d| = {dinf:.6g}; sup over alpha >= {A:.4g} is at "
                                      f"most D_inf/alpha = {dinf / A:.4g}"))
        if self.subgaussian is not None and A > 1:
            bound = float(self.subgaussian) * d * d * A / (2 * (A - 1)) * (1 + 8 * MACH)
            ends.append(LargeAlphaEnd(A, bound,
                                      f"the noise's score is sub-Gaussian (S = {self.subgaussian}, log-concave "
                                      f"law): (alpha - 1) D_alpha <= S alpha^2 d^2/2; sup over alpha >= "
                                      f"{A:.4g} is at most {bound:.6g}"))
        if not ends:
            return super().large_alpha_end(order)
        return min(ends, key=lambda e: e.bound)
