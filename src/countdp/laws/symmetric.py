"""Symmetric laws given by mpmath log-density callables: quadrature on the half line with
automatic breakpoints, the Fisher information, the score's cumulant generating function and
the check of its strict sub-Gaussianity ``K_s(u) < I u^2/2``.

The same code serves the Airy law (:mod:`countdp.laws.airy`) and the comparison laws of the
negative controls (:mod:`countdp.laws.generalised_gaussian`), so that a control exercises
exactly the comparison the claim makes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

from mpmath import mp

from ..numerics import validate
from ..numerics.estimate import Estimate
from ..numerics.precision import at_dps, guard_digits

__all__ = ["half_line_quad", "symmetric_fisher_information", "symmetric_score_cgf", "CgfRow", "CgfCheck",
           "check_score_subgaussian"]

#: guard digits of the quadratures: tanh-sinh sums many rounded terms, and an integrand such as
#: sinh(u s)^2 at |u s| ~ 1e5 loses 5 digits to rounding its argument
QUAD_GUARD_DIGITS = 5


# ============================================================================================
# Quadrature on the half line with automatic breakpoints
# ============================================================================================


def _to_float(v) -> float:
    try:
        f = float(v)
    except (TypeError, ValueError, OverflowError):
        return -math.inf
    return -math.inf if math.isnan(f) else f


def _breakpoints(logw: Callable, drop: float) -> tuple[list[float], float]:
    """(breakpoints, max logw) for int_0^inf exp(logw(x)) dx, logw unimodal on (0, inf), its
    bulk between 2^-8 and 2^600 in scale (anything from a density to a CGF integrand at u = 1e4).

    At 15 digits: scan x = 0, 2^-8, 2^-7, ... for the bulk, refine the peak x* by golden
    section, walk out (doubling) from x* until logw has dropped by ``drop``, and lay a dyadic
    lattice of 8-16 cells over that window (dyadic, so that integrands with similar shapes share
    nodes and the Airy cache is reused).  The last point is +inf."""
    with mp.workdps(15):
        def F(x: float) -> float:
            try:
                return _to_float(logw(mp.mpf(x)))
            except (ZeroDivisionError, ValueError):
                return -math.inf

        xs = [0.0] + [2.0**k for k in range(-8, 700)]
        vals: list[float] = []
        best = 0
        for i, x in enumerate(xs):
            vals.append(F(x))
            if vals[i] > vals[best]:
                best = i
            if i > best and vals[best] > -math.inf and vals[i] < vals[best] - drop:
                break
        else:
            raise RuntimeError("could not locate the bulk of the integrand")
        left = xs[max(best - 1, 0)]
        right = xs[min(best + 1, len(vals) - 1)]
        g = (math.sqrt(5) - 1) / 2
        c, d = right - g * (right - left), left + g * (right - left)
        fc, fd = F(c), F(d)
        for _ in range(40):
            if fc >= fd:
                right, d, fd = d, c, fc
                c = right - g * (right - left)
                fc = F(c)
            else:
                left, c, fc = c, d, fd
                d = left + g * (right - left)
                fd = F(d)
        cands = [(vals[best], xs[best]), (fc, c), (fd, d)]
        fstar, xstar = max(cands)
        step = max(xstar, 1.0) / 16
        while F(xstar + step) > fstar - drop:
            step *= 2
        hi = xstar + step
        lo = 0.0
        if xstar > 0:
            step = max(xstar, 1.0) / 16
            while xstar - step > 0 and F(xstar - step) > fstar - drop:
                step *= 2
            lo = max(xstar - step, 0.0)
    h = 2.0 ** math.floor(math.log2((hi - lo) / 8))
    j0, j1 = math.floor(lo / h), math.ceil(hi / h)
    pts = [j * h for j in range(j0, j1 + 1)]
    if pts[0] > 0:
        pts.insert(0, 0.0)
    pts.append(math.inf)
    return pts, fstar


def half_line_quad(func: Callable, logw: Callable) -> Estimate:
    """int_0^inf func(x) dx (with mpmath.quad's error estimate) to the ambient precision, by
    tanh-sinh with :data:`QUAD_GUARD_DIGITS` guard digits; breakpoints from log|func| = logw (a
    function of an mpf).

    The integrand is divided by exp(max logw) before integrating: mpmath.quad's convergence test
    and error estimate are absolute (eps/8), which is meaningless for integrands of size
    e^{+-30000} (score CGF at u = 1e3, high score moments); scaled, they are relative."""
    dps = mp.dps
    drop = (dps + 10) * math.log(10)
    pts, fstar = _breakpoints(logw, drop)
    with guard_digits(QUAD_GUARD_DIGITS):
        scale = mp.exp(mp.mpf(fstar))
        v, e = mp.quad(lambda x: func(x) / scale, [mp.mpf(p) for p in pts], error=True)
        v, e = v * scale, e * scale
        # floor: the rounding of the integrand at the guarded precision (e.g. |u s| ~ 1e5 at
        # u = 1e3 costs 5 digits)
        e = max(e, abs(v) * mp.mpf(10) ** (-dps))
    return Estimate(v, e)


# ============================================================================================
# Generic symmetric log-densities: Fisher information and score CGF
# ============================================================================================


def _mp_log2sinh2(y):
    """log(2 sinh(y)^2), y >= 0 (mpmath numbers do not overflow, so no rescaling needed)."""
    return mp.log(2) + 2 * mp.log(mp.sinh(y))


def _normaliser(logf, normalised: bool) -> Estimate:
    """2 int_0^inf e^{logf} (1 exactly when ``normalised``), at the ambient precision."""
    if normalised:
        return Estimate(mp.one, mp.zero)
    Z = half_line_quad(lambda x: mp.exp(logf(x)), logf)
    with guard_digits(QUAD_GUARD_DIGITS):
        return Estimate(2 * Z.value, 2 * Z.error)


def _over_normaliser(h: Estimate, Z: Estimate) -> tuple:
    """(2 h / Z, its error): a half-line integral over the normaliser, at the guarded precision."""
    with guard_digits(QUAD_GUARD_DIGITS):
        v = 2 * h.value / Z.value
        return v, 2 * h.error / Z.value + v * Z.error / Z.value


def symmetric_fisher_information(logf: Callable, score_fn: Callable, dps=None, *,
                                 normalised=False, error=False):
    """I = E s(X)^2 = 2 int_0^inf s^2 e^{logf} / (2 int_0^inf e^{logf}) for a symmetric law, at
    the ambient precision (or ``dps`` digits).

    ``logf(x)``, ``score_fn(x)``: mpmath callables on x >= 0 (log-density, possibly unnormalised
    unless ``normalised``; score s = -(log f)').  Returns I, or with ``error`` an
    :class:`Estimate`; error estimates here and below are mpmath.quad's, floored at 10^-dps
    relative (the rounding of the integrand at the guarded precision)."""
    with at_dps(dps):
        Z = _normaliser(logf, normalised)

        def fun(x):
            return score_fn(x) ** 2 * mp.exp(logf(x))

        def lw(x):
            s = score_fn(x)
            return 2 * mp.log(abs(s)) + logf(x) if s != 0 else mp.ninf

        I, err = _over_normaliser(half_line_quad(fun, lw), Z)
        return Estimate(+I, +err) if error else +I


def symmetric_score_cgf(logf: Callable, score_fn: Callable, u, dps=None, *, normalised=False,
                        error=False):
    """K_s(u) = log E exp(u s(X)) for a symmetric law (s odd), in the expm1 form

        K_s(u) = log1p(J),  J = 2 int_0^inf f(x) * 2 sinh(u s(x)/2)^2 dx,

    (E e^{us} = 2 int_0^inf f cosh(us), and cosh - 1 = 2 sinh^2), so K_s(u)/u^2 keeps full
    relative accuracy as u -> 0.  Breakpoints follow the peak of f e^{us} (x ~ u/2 for the Airy
    law).  ``logf``/``score_fn`` as in :func:`symmetric_fisher_information`, the precision too.
    Returns K, or with ``error`` an :class:`Estimate`."""
    u = validate.real("u", u, lo=0)
    with at_dps(dps):
        with guard_digits(QUAD_GUARD_DIGITS):
            u = mp.mpf(u)
        Z = _normaliser(logf, normalised)

        def fun(x):
            return 2 * mp.sinh(u * score_fn(x) / 2) ** 2 * mp.exp(logf(x))

        def lw(x):
            s = score_fn(x)
            return _mp_log2sinh2(u * abs(s) / 2) + logf(x) if s != 0 else mp.ninf

        J, eJ = _over_normaliser(half_line_quad(fun, lw), Z)
        with guard_digits(QUAD_GUARD_DIGITS):
            K = mp.log1p(J)
            err = eJ / (1 + J)
        # + the rounding of K to the working precision: K = 197 at u = 35 was 5e-30 off at 30
        # digits under a bar of 1e-30 without it
        return Estimate(+K, +(err + mp.eps * abs(K))) if error else +K


@dataclass(frozen=True)
class CgfRow:
    """One u of a sub-Gaussianity check: ratio = K_s(u)/u^2 vs half_fisher = I/2.
    ``holds``: ratio + tol < I/2; ``violated``: ratio - tol > I/2 (tol = summed error
    estimates); neither means undecided at this precision.  slack = I/2 - ratio."""

    u: object
    ratio: object
    half_fisher: object
    slack: object
    tol: object
    holds: bool
    violated: bool


@dataclass(frozen=True)
class CgfCheck:
    """Result of :func:`check_score_subgaussian`; ``holds`` iff every row holds."""

    fisher: object
    fisher_error: object
    rows: list = field(default_factory=list)

    @property
    def holds(self) -> bool:
        return all(r.holds for r in self.rows)

    @property
    def violations(self) -> list:
        return [r.u for r in self.rows if r.violated]


def check_score_subgaussian(logf: Callable, score_fn: Callable, us, dps=None, *,
                            normalised=False) -> CgfCheck:
    """Compare K_s(u)/u^2 with I/2 for each u in ``us`` (strict sub-Gaussianity of the score is
    K_s(u) <= I u^2 / 2 for all u), at the ambient precision (or ``dps`` digits).  Same
    quadrature code for any symmetric log-density."""
    rows = []
    with at_dps(dps):
        fisher = symmetric_fisher_information(logf, score_fn, normalised=normalised, error=True)
        I, eI = fisher.value, fisher.error
        for u in us:
            cgf = symmetric_score_cgf(logf, score_fn, u, normalised=normalised, error=True)
            K, eK = cgf.value, cgf.error
            u = mp.mpf(u)
            ratio = K / u**2
            half = I / 2
            tol = eK / u**2 + eI / 2 + 8 * mp.eps * half
            rows.append(CgfRow(u=u, ratio=ratio, half_fisher=half, slack=half - ratio, tol=tol,
                               holds=bool(ratio + tol < half), violated=bool(ratio - tol > half)))
    return CgfCheck(fisher=I, fisher_error=eI, rows=rows)
