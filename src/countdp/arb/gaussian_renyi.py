"""Certified Renyi integrals of Gaussian-noise pairs, clipped or not: the Arb core of the
released-law divergence (Section 5) and of the ``renyi(..., method="ball")`` engine.

The setting, in P's standard coordinate ``u`` (``w = mu_p + s_p u`` with ``w`` the Gaussian
coordinate: x itself for N(mu, s^2), log(y + c) for the log-shifted laws of eq 10)::

    p(u) = phi(u),     q(u) = rho phi(rho u - delta),     rho = s_p/s_q,  delta = (mu_q - mu_p)/s_q,

both restricted to ``u > u_c`` when the laws are clipped at 0 (eq 4: the clip point
u_c = (log c - mu_p)/s_p), with atoms A_p = Phi(u_c), A_q = Phi(rho u_c - delta) at 0. For alpha > 1

    I = A_p^alpha A_q^(1-alpha) + int_{u_c}^inf p^alpha q^(1-alpha) du,   D_alpha = log(I)/(alpha - 1).

The log-integrand ``g(u) = alpha l(u) + (1-alpha)(l(rho u - delta) + log rho)`` (l = log phi) is a
quadratic in u; at any centre m, from each density's exact Taylor coefficients
(l(z0 + t) = l(z0) - z0 t - t^2/2)::

    g(m + v) = A0 + A1 v + A2 v^2,   A0 = alpha l(m) + (1-alpha)(l(rho m - delta) + log rho),
    A1 = -alpha m - (1-alpha) rho (rho m - delta),   A2 = -(alpha + (1-alpha) rho^2)/2.

Two routes to the density part:

* **closed form**: with a = -2 A2 > 0 (else the integral diverges: eq 34's margin),
  ``int_{v0}^inf exp(A0 + A1 v + A2 v^2) dv = exp(A0 + A1^2/(2a)) sqrt(2 pi/a) Phi(A1/sqrt a - sqrt a v0)``,
  an exact identity (for rho = 1, m = 0: exp(alpha(alpha-1)delta^2/2) Phi((1-alpha)delta - u_c)).
* **integral**: ``acb.integral`` of the integrand evaluated *from the two densities as written*
  (alpha log p + (1 - alpha) log q at each node) on a finite window around its peak, plus the
  tails by the proven bound (Q+) of :mod:`countdp.arb.integrals` applied to the expansion above.
  On the complex ellipses where Arb bounds the Gauss-Legendre error (``analytic`` calls) the same
  function is evaluated in its expanded form, which avoids the dependency blow-up of
  alpha l(u) + (1-alpha) l(u - d) on wide boxes (terms of size alpha u^2 ~ 10^9 at alpha = 100
  that cancel); the two forms are checked to agree (overlapping balls) at the window's ends and
  centre before integrating, so an error in the expansion cannot go unnoticed.

Precision: the caller's ``ctx.prec`` is the target; the work runs at that plus guard bits that
cover the cancellation in the log-integrand (log2(alpha m^2)) and the loss in log(I)/(alpha - 1)
when D is small (n = 10^6: I - 1 ~ 10^-9), raised again when the result is still too wide.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from flint import acb, arb, ctx

from ..numerics.contexts import Undecided, ball
from .integrals import quad_exp_tail_lower, quad_exp_tail_upper

__all__ = ["GaussianPair", "PairRenyi", "IntegralSetup", "pair_renyi", "density_part", "atom_part", "expansion",
           "integral_setup"]


@dataclass(frozen=True)
class GaussianPair:
    """alpha and the pair in P's standard coordinate (see the module docstring); ``uc`` None:
    not clipped (no atoms, the densities on the whole line)."""

    alpha: arb
    rho: arb
    delta: arb
    uc: arb | None = None

    @property
    def equal_scales(self) -> bool:
        return self.rho.is_exact() and self.rho == 1


@dataclass(frozen=True)
class PairRenyi:
    """The certified Renyi integral I (atom and density parts) and D_alpha = log(I)/(alpha - 1),
    at the caller's precision; ``infinite`` with a reason when the density part diverges."""

    integral: arb | None
    divergence: arb | None
    atoms: arb | None = None
    density: arb | None = None
    reason: str | None = None
    prec: int = 0
    work_prec: int = 0   # the precision of the last pass, and its integration goal (bits)
    goal_bits: int = 0
    passes: int = 0      # passes at the working precision (1 unless a result was too wide)

    @property
    def infinite(self) -> bool:
        return self.reason is not None


_LOG_SQRT_2PI = {}


def _log_sqrt_2pi() -> arb:
    p = ctx.prec
    v = _LOG_SQRT_2PI.get(p)
    if v is None:
        v = _LOG_SQRT_2PI[p] = (2 * arb.pi()).log() / 2
    return v


def _log_phi(z, C):
    """log phi(z) = -z^2/2 - log sqrt(2 pi), as written (arb or acb)."""
    return -(z * z) / 2 - C


def expansion(pair: GaussianPair, m: arb) -> tuple[arb, arb, arb]:
    """(A0, A1, A2) of g(m + v) = A0 + A1 v + A2 v^2 from the densities' Taylor coefficients."""
    al, rho, delta = pair.alpha, pair.rho, pair.delta
    C = _log_sqrt_2pi()
    one_m = 1 - al
    zq = rho * m - delta
    log_rho = arb(0) if pair.equal_scales else rho.log()
    A0 = al * _log_phi(m, C) + one_m * (_log_phi(zq, C) + log_rho)
    A1 = -al * m - one_m * rho * zq
    A2 = -(al + one_m * rho * rho) / 2
    return A0, A1, A2


def atom_part(pair: GaussianPair) -> arb:
    """A_p^alpha A_q^(1-alpha), A_p = Phi(u_c), A_q = Phi(rho u_c - delta) (0 when not clipped)."""
    if pair.uc is None:
        return arb(0)
    A_p, A_q = ball.ncdf(pair.uc), ball.ncdf(pair.rho * pair.uc - pair.delta)
    return (pair.alpha * A_p.log() + (1 - pair.alpha) * A_q.log()).exp()


def _exact(x: float) -> arb:
    return arb(float(x))


def _centre(pair: GaussianPair) -> float:
    """The peak of the log-integrand (where A1 = 0), clipped to u_c: a float (any centre is exact)."""
    al, rho, delta = (float(v.mid()) for v in (pair.alpha, pair.rho, pair.delta))
    a = al + (1 - al) * rho * rho
    m = (1 - al) * rho * delta / a if a > 0 else 0.0
    if pair.uc is not None:
        m = max(m, float(pair.uc.mid()))
    return m


def _window(bits: int) -> float:
    """Half-width W of the window: exp(-W^2/2) <= 2^-(bits + 8)."""
    return math.sqrt(2 * (bits + 8) * math.log(2)) + 1.0


@dataclass(frozen=True)
class _Centred:
    """The exponent's expansion A0 + A1 v + A2 v^2 about its (exact, rounded) centre m, a = -2 A2
    (about 0), and the clipped lower end v0 in v = u - m (None when the law is not clipped)."""

    a: arb
    m: arb
    A0: arb
    A1: arb
    A2: arb
    v0: arb | None


def _centred(pair: GaussianPair) -> _Centred | None:
    """The expansion about the centre; None when the density part diverges (a <= 0)."""
    _, _, A2 = expansion(pair, arb(0))
    a = -2 * A2
    if not (a > 0):
        if a <= 0:
            return None
        raise Undecided("sign of alpha + (1 - alpha) rho^2 undecided")
    m = _exact(_centre(pair))
    A0, A1, A2 = expansion(pair, m)
    v0 = None if pair.uc is None else pair.uc - m  # lower end in v (<= 0 up to rounding)
    return _Centred(a, m, A0, A1, A2, v0)


def density_part(pair: GaussianPair, integral: bool = False, bits: int | None = None) -> arb | None:
    """int_{u_c}^inf p^alpha q^(1-alpha) du (whole line if not clipped) as a ball; None when it
    diverges (a <= 0).  ``integral``: by acb.integral of the densities as written plus proven
    tails (goal 2^-bits relative), else by the closed form."""
    bits = ctx.prec if bits is None else bits
    if integral:
        return _density_by_integral(pair, bits)
    cen = _centred(pair)
    if cen is None:
        return None
    a, A0, A1, v0 = cen.a, cen.A0, cen.A1, cen.v0
    sa = a.sqrt()
    tail = arb(1) if v0 is None else ball.ncdf(A1 / sa - sa * v0)
    return (A0 + A1 * A1 / (2 * a)).exp() * (2 * arb.pi() / a).sqrt() * tail


@dataclass(frozen=True)
class IntegralSetup:
    """What :func:`density_part` hands to ``acb.integral``: the integrand ``f(z, analytic)``
    (normalised by exp(g_ref)), the window [lo, hi] in v = u - m and the tolerances; with the
    expansion for the tails.  Exposed so that a benchmark can time the bare ``acb.integral`` of
    the same integrand (the practical limit of this route)."""

    f: Callable
    lo: arb
    hi: arb
    rel_tol: arb
    abs_tol: arb
    g_ref: arb
    B0: arb
    A1: arb
    a: arb
    v0: arb | None
    inside: bool


def integral_setup(pair: GaussianPair, bits: int | None = None) -> IntegralSetup | None:
    """The integrand and window of the ``integral`` route at the current precision (None when
    the density part diverges)."""
    bits = ctx.prec if bits is None else bits
    cen = _centred(pair)
    if cen is None:
        return None
    a, m, A0, A1, A2, v0 = cen.a, cen.m, cen.A0, cen.A1, cen.A2, cen.v0
    al, rho, delta = pair.alpha, pair.rho, pair.delta
    C = _log_sqrt_2pi()
    one_m = 1 - al
    log_rho = arb(0) if pair.equal_scales else rho.log()
    # the window in v, in units of the integrand's width 1/sqrt(a)
    width = 1 / math.sqrt(float(a.mid()))
    W = _window(bits) * width
    # the window starts at the clip point's midpoint (exact, full precision) when that lies
    # inside, so the piece between it and the clip ball is of the ball's width
    inside = v0 is not None and float(v0.mid()) > -W
    lo = arb(v0.mid()) if inside else _exact(-W)
    hi = _exact(W)
    g_ref = arb(A0.mid())  # exact: I_dens = exp(g_ref) int exp(g - g_ref)
    B0 = A0 - g_ref

    def written(u):
        return al * _log_phi(u, C) + one_m * (_log_phi(rho * u - delta, C) + log_rho) - g_ref

    def f(z, analytic):
        if analytic:
            return (B0 + z * (A1 + z * A2)).exp()
        return written(z + m).exp()

    for v in (lo, hi, (lo + hi) / 2):  # the two forms of the same function must agree
        x, y = written(v + m), B0 + v * (A1 + v * A2)
        if not x.overlaps(y):
            raise Undecided("the expanded log-integrand does not match the densities as written")
    # goal 2^-(bits + 4) relative to the integral's size (its closed form, a rough estimate
    # here: it only sets Arb's stopping rule, never the enclosure)
    tol = arb(2) ** -(bits + 4)
    with ctx.workprec(32):
        sa = a.sqrt()
        size = (B0 + A1 * A1 / (2 * a)).exp() * (2 * arb.pi() / a).sqrt() * (
            arb(1) if v0 is None else ball.ncdf(A1 / sa - sa * lo))
        abs_tol = tol * arb(size.mid()) if size.is_finite() and size.mid() > 0 else tol
    return IntegralSetup(f, lo, hi, tol, abs_tol, g_ref, B0, A1, a, v0, inside)


def _density_by_integral(pair: GaussianPair, bits: int) -> arb | None:
    st = integral_setup(pair, bits)
    if st is None:
        return None
    res = acb.integral(st.f, st.lo, st.hi, rel_tol=st.rel_tol, abs_tol=st.abs_tol)
    if not res.is_finite() or not res.imag.contains(0):
        raise Undecided("acb.integral did not return a finite real enclosure")
    core = res.real
    # the tails beyond the window: (Q+) on exp(B0 + A1 v + A2 v^2) = exp(B0) exp(-a v^2/2 + A1 v)
    tails = quad_exp_tail_upper(st.a, st.A1, st.hi)
    if st.v0 is None or not st.inside:  # no clip, or the clip point left of the window
        tails = tails + quad_exp_tail_lower(st.a, st.A1, st.lo)
    elif not st.v0.is_exact():  # int_{v0}^{lo} over the clip ball's width: mean value theorem
        core = core + st.f(acb(st.v0.union(st.lo)), False).real * (st.lo - st.v0)
    total = core + arb(0).union(st.B0.exp() * tails)
    return st.g_ref.exp() * total


def pair_renyi(make_pair: Callable[[], GaussianPair], integral: bool = False,
               extra_bits: int = 0, guard: bool = True) -> PairRenyi:
    """The certified I and D_alpha of the pair built by ``make_pair()`` (called at the working
    precision, so that its parameters are balls as tight as that precision allows), at the
    caller's ``ctx.prec`` bits of relative accuracy where the inputs allow.

    A first pass at 64 bits (closed form) sizes the guard bits; the pass at the working
    precision is repeated (at most twice) with more bits if D's relative radius still exceeds
    2^-(target - 2).  ``guard=False``: one pass at the caller's precision, no guard bits (a ball
    of the width that precision gives, as the certificate functions of
    :mod:`countdp.arb.renyi` return)."""
    target = ctx.prec + extra_bits
    if not guard:
        pair = make_pair()
        if not (pair.alpha > 1):
            raise Undecided("alpha > 1 required")
        dens = density_part(pair, integral=integral, bits=target)
        if dens is None:
            return PairRenyi(None, None, reason=_divergent_reason(pair), prec=target)
        atoms = atom_part(pair)
        I = atoms + dens
        return PairRenyi(I, I.log() / (pair.alpha - 1), atoms, dens, prec=target, work_prec=target,
                         goal_bits=target, passes=1)
    with ctx.workprec(64):
        pair = make_pair()
        if not (pair.alpha > 1):
            raise Undecided("alpha > 1 required")
        dens = density_part(pair)
        if dens is None:
            return PairRenyi(None, None, reason=_divergent_reason(pair), prec=target)
        I0 = atom_part(pair) + dens
        D0 = I0.log() / (pair.alpha - 1)
        al, m = float(pair.alpha.mid()), abs(_centre(pair))
        zq = abs(float(pair.rho.mid()) * m - float(pair.delta.mid()))
        cancel = math.log2(1.0 + al * (m * m + zq * zq))  # alpha l(m) + (1-alpha) l(zq): bits lost
        # bits lost in log(I)/(alpha - 1) when I ~ 1 (capped: D = 0 has no relative accuracy)
        small = min(2.0 * target, math.log2(1.0 + 1.0 / max(abs(float(D0.mid())) * (al - 1), 1e-300)))
    guard = 16 + int(cancel) + int(small)
    goal = target + int(small) + 8
    previous = None
    for passes in range(1, 4):
        with ctx.workprec(target + guard):
            pair = make_pair()
            dens = density_part(pair, integral=integral, bits=goal)
            atoms = atom_part(pair)
            I = atoms + dens
            D = I.log() / (pair.alpha - 1)
        if passes == 3 or (D.is_finite() and (D.rad() == 0 or D.mid() == 0 or
                                              D.rad() <= abs(D.mid()) * arb(2) ** -(target - 2))):
            break
        # more bits did not help: the inputs (e.g. a sigma ball given at low precision) set
        # the width, not the work
        if previous is not None and D.is_finite() and previous.is_finite() and \
                not (D.rad() * 2 ** 16 < previous.rad()):
            break
        previous = D
        guard, goal = guard + 32, goal + 32
    return PairRenyi(I, D, atoms, dens, prec=target, work_prec=target + guard, goal_bits=goal, passes=passes)


def _divergent_reason(pair: GaussianPair) -> str:
    return (f"alpha s_Q^2 + (1-alpha) s_P^2 <= 0 (rho = s_P/s_Q = {pair.rho.mid().str(8, radius=False)}): "
            "p^alpha q^(1-alpha) grows in the tails (eq 34)")
