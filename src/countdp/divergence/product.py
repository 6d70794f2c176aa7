"""The Renyi divergence of a product law, ``D_alpha(P1 x P2 || Q1 x Q2)``, by quadrature of the
joint law: the two-group histogram of Section 5 and two composed releases of Section 8.

Each coordinate's law is atoms plus a density, so the joint law has four parts; with
``w_i(x) = p_i(x)^alpha q_i(x)^(1-alpha)`` for an atom x of coordinate i,

    sum_{x1, x2} w_1(x1) w_2(x2)                                            atom x atom (exact)
  + sum_{x1} int (p_1(x1) p_2(t))^alpha (q_1(x1) q_2(t))^(1-alpha) dt       atom x density: a line per atom
  + sum_{x2} int (p_1(t) p_2(x2))^alpha (q_1(t) q_2(x2))^(1-alpha) dt       density x atom
  + int int (p_1 p_2)^alpha (q_1 q_2)^(1-alpha) dt1 dt2                     density x density: the plane

and ``D_alpha = log(total) / (alpha - 1)``.  The plane is a genuinely two-dimensional integral of
the joint density (never factorised), so the route does not assume that D adds over coordinates.

The split is written once (:func:`renyi_product`); the lines and the plane are integrated by an
integrator, in its own number system, with its own error estimate:

* :class:`FloatIntegrator`: float64, scipy ``quad`` on each line and ``dblquad`` on the plane over a
  box around the tilted peak beyond which the integrand is e^{-0.9 width^2/2} down (for Gaussian
  tails, ``width`` widths of it); Gaussian-tailed densities only (others: ValueError);
* :class:`MpIntegrator`: mpmath at the working precision; a line is the atom's weight times the
  1-D quadrature of the densities (:func:`countdp.divergence.renyi.density_renyi_integral`), the
  plane a 2-D Gauss-Legendre rule (tanh-sinh when a density has a kink, or where its estimate is
  smaller) at half the working precision, whose rounding enters the error.

An atom of P_i where Q_i has none, or a density part of P_i where Q_i has none, makes D infinite.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Sequence

import mpmath
import numpy as np

from ..laws import Density, GaussianDensity, Law, LogShiftedGaussianDensity
from ..laws.base import check_law
from .. import formulas
from ..numerics import validate
from ..numerics.contexts import to_fmpq
from ..numerics.estimate import Estimate
from ..numerics.quadrature import smooth_quad
from .renyi import density_renyi_integral, kink_nodes, locate_peak, log_density_pair, log_integrand
from .value import INF, Divergence, infinite

__all__ = ["renyi_product", "FloatIntegrator", "MpIntegrator"]


# ============================================================================================
# The four-way split
# ============================================================================================


@dataclass(frozen=True)
class _Coordinate:
    """One coordinate of the product: its atoms (x -> (p_x, q_x)) and its density parts (P's is
    None when it has no mass)."""

    atoms: dict
    pd: Density | None
    qd: Density | None


def _coordinate(name: str, P: Law, Q: Law) -> _Coordinate:
    if P.integer or Q.integer:
        raise ValueError(f"{name}: renyi_product takes laws with atoms and densities, not integer laws")
    qa = Q.atoms()
    atoms = {x: (p, qa.get(x, mpmath.mpf(0))) for x, p in P.atoms().items()}
    pd = P.density if P.density is not None and P.density.mass() > 0 else None
    return _Coordinate(atoms, pd, Q.density)


def _laws(Ps: Sequence[Law], Qs: Sequence[Law]) -> tuple[_Coordinate, _Coordinate]:
    for name, laws in (("Ps", Ps), ("Qs", Qs)):
        if not isinstance(laws, Sequence) or len(laws) != 2:
            raise ValueError(f"{name} must hold exactly two laws")
        for i, law in enumerate(laws):
            check_law(f"{name}[{i}]", law)
    return _coordinate("coordinate 1", Ps[0], Qs[0]), _coordinate("coordinate 2", Ps[1], Qs[1])


def _mismatch(c1: _Coordinate, c2: _Coordinate) -> str | None:
    """Why D is infinite when P puts mass where Q has none (in either coordinate), else None."""
    for i, c in ((1, c1), (2, c2)):
        if any(q == 0 for _, q in c.atoms.values()):
            return f"support mismatch: an atom of P_{i} where Q_{i} has no mass"
        if c.pd is not None and c.qd is None:
            return f"support mismatch: P_{i} has a density part, Q_{i} has none"
    return None


def renyi_product(Ps: Sequence[Law], Qs: Sequence[Law], alpha, integrator) -> Divergence:
    """``D_alpha(Ps[0] x Ps[1] || Qs[0] x Qs[1])`` for alpha > 1 from the four parts of the joint
    law (module docstring), the lines and the plane integrated by ``integrator``
    (:class:`FloatIntegrator` or :class:`MpIntegrator`); value and error in its number system."""
    alpha = integrator.order(alpha)
    c1, c2 = _laws(Ps, Qs)
    integrator.check(c1, c2)
    why = _mismatch(c1, c2)
    if why is not None:
        return infinite(why, alpha)
    w1 = [p ** alpha * q ** (1 - alpha) for p, q in c1.atoms.values()]
    w2 = [p ** alpha * q ** (1 - alpha) for p, q in c2.atoms.values()]
    parts = [Estimate(integrator.number(mpmath.fsum(w1) * mpmath.fsum(w2)), integrator.number(0))]
    for at, dens in ((c1, c2), (c2, c1)):
        if dens.pd is not None:
            lines = integrator.lines(at.atoms, dens.pd, dens.qd, alpha)
            if isinstance(lines, str):
                return infinite(lines, alpha)
            parts.append(lines)
    if c1.pd is not None and c2.pd is not None:
        plane = integrator.plane(c1, c2, alpha)
        if isinstance(plane, str):
            return infinite(plane, alpha)
        parts.append(plane)
    total = sum(p.value for p in parts)
    err = sum(p.error for p in parts)
    if total <= 0:
        return infinite("P and Q are mutually singular (the Renyi integral vanishes)", alpha)
    return integrator.divergence(total, err, alpha)


# ============================================================================================
# float64: scipy quad and dblquad
# ============================================================================================


#: the densities whose tails the float64 box cuts negligibly (Gaussian in the coordinate t)
_GAUSSIAN_TAILED = (LogShiftedGaussianDensity, GaussianDensity)


def _float_log_t(d: Density):
    """float64 log of a Gaussian-tailed density per unit of its integration coordinate t (scalar
    in, scalar out)."""
    mu, s = float(d.mu), float(d.s)
    t0, t1 = (float(v) for v in d.t_range())
    k = math.log(s) + 0.5 * math.log(2 * math.pi)

    def f(t):
        if not (t0 < t < t1):
            return -math.inf
        z = (t - mu) / s
        return -0.5 * z * z - k

    return f


@dataclass(frozen=True)
class _Box:
    """The integration interval [lo, hi] of one coordinate and the peak of p^alpha q^(1-alpha)."""

    lo: float
    hi: float
    peak: float


def tilted_peak(pd: Density, qd: Density, alpha):
    """Where p^alpha q^(1-alpha) of one coordinate peaks, and its width there, located as the 1-D
    route does (for two scales the tilted centre can lie hundreds of scales from either law's)."""
    peak = locate_peak(log_integrand(pd, qd, mpmath.mpf(alpha)), pd, qd, mpmath.mpf(alpha))
    if peak is None:
        raise ValueError("the plane's integrand is infinite: Q's density vanishes where P's does not")
    return peak


def _box(pd: Density, qd: Density, alpha: float, width: float) -> _Box:
    """The interval of one coordinate outside which p^alpha q^(1-alpha) is at least
    e^{-0.9 width^2/2} below its peak: each end starts ``width`` widths from the peak and steps
    out, its distance doubling, until the integrand is that far down or the support ends.  (A
    peak on the support's end, a release at count 0 against count 1, has no curvature width: the
    width read there is 10^-6 of the law's scale, over which the integrand decays.)  Infinite
    by eq (34) when the tilt grows in an infinite tail."""
    t_lo, t_hi = pd.t_range()
    if (not (np.isfinite(t_lo) and np.isfinite(t_hi))
            and formulas.gaussian_renyi_margin.exact(to_fmpq(alpha), to_fmpq(pd.s), to_fmpq(qd.s)) < 0):
        raise _NotIntegrable("alpha s_Q^2 + (1 - alpha) s_P^2 < 0 in the coordinate t: p^alpha q^(1-alpha) "
                             "grows in its infinite tails (eq 34)")
    peak = tilted_peak(pd, qd, alpha)
    lp, lq = _float_log_t(pd), _float_log_t(qd)

    def g(t):
        a = lp(t)
        return -math.inf if a == -math.inf else alpha * a + (1 - alpha) * lq(t)

    level = g(peak.t) - 0.9 * width * width / 2  # a Gaussian is 72 down at 12 widths: no step
    ends = []
    for out, end in ((-1, t_lo), (1, t_hi)):
        step = width * peak.width
        for _ in range(64):
            if not (out * (end - (peak.t + out * step)) > 0 and g(peak.t + out * step) > level):
                break
            step *= 2
        else:  # 2^64 boxes out and still not down (alpha s_Q^2 + (1 - alpha) s_P^2 = 0): refused
            raise ValueError("the float64 box found no end where p^alpha q^(1-alpha) is down within 2^64 "
                             "widths of its peak; use MpIntegrator")
        ends.append(peak.t + out * step)
    return _Box(max(t_lo, ends[0]), min(t_hi, ends[1]), peak.t)


@contextmanager
def _float_range():
    """An integrand beyond float64 (p^alpha q^(1-alpha) > 1.8e308 somewhere, so (alpha - 1) D
    of about 709 or more) is refused with a ValueError, not an OverflowError from inside scipy."""
    try:
        yield
    except OverflowError as e:
        raise ValueError("p^alpha q^(1-alpha) exceeds float64's range (1.8e308) somewhere ((alpha - 1) D "
                         "of about 709 or more): use MpIntegrator") from e


class _NotIntegrable(ValueError):
    """The tilted integrand of a coordinate grows in a tail: D is infinite (the float integrator's
    lines and plane return the reason)."""


@dataclass(frozen=True)
class FloatIntegrator:
    """float64 integrals: scipy ``quad`` per line, ``dblquad`` on the plane, each over a box of
    ``width`` scales around the peak, to the relative tolerance ``epsrel``.  The densities of P_i
    and Q_i must share their integration coordinate."""

    width: float = 12.0
    epsrel: float = 1e-10

    @staticmethod
    def order(alpha) -> float:
        return float(validate.order(alpha))

    @staticmethod
    def number(x) -> float:
        return float(x)

    def check(self, c1: _Coordinate, c2: _Coordinate):
        for i, c in ((1, c1), (2, c2)):
            if c.pd is not None and c.qd is not None and not c.pd.same_coordinate(c.qd):
                raise ValueError(f"component {i}: P's density needs a Q density in the same coordinate")
            for d in (c.pd, c.qd):
                # the box's cut is negligible for Gaussian tails only (a logistic pair lost 1.5e-5
                # of D outside 12 scales, against an error estimate of 1e-13)
                if d is not None and not isinstance(d, _GAUSSIAN_TAILED):
                    raise ValueError(f"component {i}: the float64 integrator cuts the densities at {self.width:g} "
                                     f"scales, negligible for Gaussian tails only; {type(d).__name__} needs "
                                     "MpIntegrator")

    def lines(self, atoms: dict, pd: Density, qd: Density, alpha: float) -> Estimate | str:
        """The lines {x} x R: per atom x of one coordinate, quad of the joint integrand over the
        other coordinate's density part."""
        from scipy import integrate

        lp, lq = _float_log_t(pd), _float_log_t(qd)
        try:
            box = _box(pd, qd, alpha, self.width)
        except _NotIntegrable as e:
            return str(e)
        total, err = 0.0, 0.0
        for p, q in atoms.values():
            la, lb = float(mpmath.log(p)), float(mpmath.log(q))

            def g(t, la=la, lb=lb):
                return math.exp(alpha * (la + lp(t)) + (1 - alpha) * (lb + lq(t)))

            pts = [t for t in (box.peak,) if box.lo < t < box.hi]
            with _float_range():
                v, e = integrate.quad(g, box.lo, box.hi, points=pts or None, epsabs=0, epsrel=self.epsrel, limit=200)
            total += v
            err += e
        return Estimate(total, err)

    def plane(self, c1: _Coordinate, c2: _Coordinate, alpha: float) -> Estimate | str:
        """The density x density part: scipy dblquad of the joint density on the plane."""
        from scipy import integrate

        lp1, lq1 = _float_log_t(c1.pd), _float_log_t(c1.qd)
        lp2, lq2 = _float_log_t(c2.pd), _float_log_t(c2.qd)
        try:
            b1, b2 = _box(c1.pd, c1.qd, alpha, self.width), _box(c2.pd, c2.qd, alpha, self.width)
        except _NotIntegrable as e:
            return str(e)

        def joint(t2, t1):  # dblquad integrates func(y, x)
            log_p = lp1(t1) + lp2(t2)
            log_q = lq1(t1) + lq2(t2)
            if log_p == -math.inf:
                return 0.0
            return math.exp(alpha * log_p + (1 - alpha) * log_q)

        with _float_range():
            v, e = integrate.dblquad(joint, b1.lo, b1.hi, b2.lo, b2.hi, epsabs=0, epsrel=self.epsrel)
        return Estimate(v, e)

    @staticmethod
    def divergence(total: float, err: float, alpha: float) -> Divergence:
        """log(total)/(alpha - 1), its error propagated plus 10^-13 relative for the float64 sums."""
        value = float(np.log(total) / (alpha - 1))
        return Divergence(value, float(err / total / (alpha - 1) + 1e-13 * (1 + abs(value))),
                          "2-D scipy quadrature of the joint law", alpha)


# ============================================================================================
# mpmath at the working precision
# ============================================================================================


def _tilted_log(parts, alpha):
    """t -> alpha log p + (1 - alpha) log q of one coordinate (None where p vanishes)."""
    one_minus = 1 - alpha

    def h(t):
        lp, lq = parts(t)
        if lp == -INF:
            return None
        return alpha * lp + one_minus * lq

    return h


def _memo(f):
    """f with its values kept per argument (an mpf node), at the precision of the first call."""
    values = {}

    def g(t):
        v = values.get(t)
        if v is None:
            v = values[t] = f(t)
        return v

    return g


def _nodes(pd: Density, qd: Density, alpha):
    """A coarse partition in P's coordinate around the peak of the coordinate's tilted integrand
    p^alpha q^(1-alpha), located and sized as the 1-D route does (the tilted centre of two scales
    can lie hundreds of scales from either law's), with the kinks of either density as nodes (the
    2-D rule and its error estimate assume a smooth integrand on each panel)."""
    peak = tilted_peak(pd, qd, alpha)
    t_lo, t_hi = pd.t_range()
    mp_lo = getattr(pd, "mp_t_lo", lambda: None)()
    inner = sorted({peak.t + k * peak.width for k in (-9, -3, 0, 3, 9)} | kink_nodes(pd, qd))
    inner = [mpmath.mpf(p) for p in inner if t_lo < p < t_hi]
    lo = mp_lo if mp_lo is not None else (mpmath.mpf(t_lo) if np.isfinite(t_lo) else -INF)
    hi = mpmath.mpf(t_hi) if np.isfinite(t_hi) else INF
    return [lo] + inner + [hi]


@dataclass(frozen=True)
class MpIntegrator:
    """mpmath integrals at the working precision: the lines by the 1-D Renyi quadrature of the
    densities, the plane by a 2-D rule at half the working precision (its rounding in the error)."""

    @staticmethod
    def order(alpha):
        return mpmath.mpf(validate.order(alpha))

    @staticmethod
    def number(x):
        return mpmath.mpf(x)

    @staticmethod
    def check(c1: _Coordinate, c2: _Coordinate):
        """Any pair of densities: Q's is read in P's integration coordinate when they differ."""

    @staticmethod
    def lines(atoms: dict, pd: Density, qd: Density, alpha) -> Estimate | str:
        """The lines {x} x R: the atom's weight p_x^alpha q_x^(1-alpha) times the 1-D integral of
        the densities (or why that integral is infinite)."""
        val, e, why = density_renyi_integral(pd, qd, alpha)
        if why is not None:
            return why
        total, err = mpmath.mpf(0), mpmath.mpf(0)
        for p, q in atoms.values():
            w = p ** alpha * q ** (1 - alpha)
            total += w * val
            err += w * e
        return Estimate(total, err)

    @staticmethod
    def plane(c1: _Coordinate, c2: _Coordinate, alpha) -> Estimate:
        """The density x density part: exp(h1(t1) + h2(t2)), h_i = alpha log p_i + (1-alpha) log q_i,
        at every pair of the 2-D rule (not factorised), h_i kept per node (the tensor rule visits
        each node of one coordinate once per node of the other)."""
        h1 = _memo(_tilted_log(log_density_pair(c1.pd, c1.qd), alpha))
        h2 = _memo(_tilted_log(log_density_pair(c2.pd, c2.qd), alpha))
        n1, n2 = _nodes(c1.pd, c1.qd, alpha), _nodes(c2.pd, c2.qd, alpha)
        zero = mpmath.mpf(0)

        def g(t1, t2):
            a, b = h1(t1), h2(t2)
            if a is None or b is None:
                return zero
            return mpmath.exp(a + b)

        low_dps = max(15, mpmath.mp.dps // 2)
        rounding = mpmath.mpf(10) ** (-low_dps + 3)
        kinked = any(getattr(d, "breakpoints", ()) for d in (c1.pd, c2.pd, c1.qd, c2.qd))
        with mpmath.workdps(low_dps):
            v, e, _ = smooth_quad(g, n1, n2, rel_enough=rounding, rule="tanh-sinh" if kinked else "gauss-legendre",
                                  maxdegree=5, gl_maxdegree=5)
        # the 2-D rule runs at half the working precision: its rounding enters the error bar
        return Estimate(v, abs(e) + abs(v) * rounding)

    @staticmethod
    def divergence(total, err, alpha) -> Divergence:
        """log(total)/(alpha - 1), its error propagated plus the rounding of the log and of the
        division (1.5 ulp, within 2 eps |D|)."""
        value = mpmath.log(total) / (alpha - 1)
        return Divergence(value, err / total / (alpha - 1) + 2 * mpmath.eps * abs(value),
                          "2-D mpmath quadrature of the joint law", alpha)
