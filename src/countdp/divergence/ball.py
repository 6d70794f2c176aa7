"""Rigorous Renyi divergences in Arb balls through the generic API:
``renyi(P, Q, alpha, method="ball")`` and ``method="ball-closed"``.

Covered law pairs (Gaussian noise; everything else raises ``ValueError`` so the caller can fall
back to quadrature):

* Gaussians N(mu_p, s_p^2), N(mu_q, s_q^2) (any variances; infinite past eq 34's margin);
* the unclipped log-shifted Gaussians U = exp(N(mu, s^2)) - c of eq (10), one c;
* the released laws [U]_+ (eq 4: an atom at 0 plus the density on y > 0), one c.

Laplace and Airy noises are not covered (their pairs keep the mpmath route).

The two methods are two routes to the same ball (:mod:`countdp.arb.gaussian_renyi`):

* ``"ball"``: ``acb.integral`` of p^alpha q^(1-alpha) evaluated from the two densities as written,
  on a window around its peak, plus the proven Gaussian tails (Q+), plus the atoms: a numerical
  integration like the mpmath route, but with a rigorous error bar;
* ``"ball-closed"``: the density part's exact closed form in Phi (the integrand is a Gaussian in
  the log coordinate, truncated at the clip point), plus the atoms.

Which laws: when a law carries its mechanism's construction (``density.origin``, e.g.
``ShiftedLogGaussian.unclipped_law``: mu = log(n + c) - sigma^2 with sigma of eq 3 from the exact
r0, c), the ball encloses the divergence between the *exact* mechanism laws, its parameters
recomputed in balls at the working precision (the location gap as log1p((n_q - n_p)/(n_p + c)),
free of the cancellation that costs the stored locations 7 digits at n = 10^6); otherwise the
law's stored binary parameters are taken as exact.  ``value`` is the ball's midpoint rounded to
the working precision and ``error`` bounds |D - value| rigorously (radius plus that rounding).
"""

from __future__ import annotations

import mpmath
from flint import acb, arb, ctx

from .. import formulas
from ..arb.gaussian_renyi import GaussianPair, integral_setup, pair_renyi
from ..laws import ClippedAtZero, ContinuousLaw, Gaussian, Law, LogShiftedGaussianDensity
from ..numerics.contexts import Undecided, to_arb, to_fmpq
from .value import Divergence, infinite as _infinite

__all__ = ["ball_renyi", "ball_route_applies", "to_divergence_parts", "bare_integral"]


def _gaussian_params(L: Law):
    """(kind, density) for a law this engine covers, else None."""
    if type(L) is Gaussian:
        d = L.density
        if d.lo == -float("inf") and d.hi == float("inf"):
            return "gaussian", d
        return None
    if isinstance(L, ClippedAtZero) and type(L.base.density) is LogShiftedGaussianDensity:
        return "clipped", L.base.density
    if isinstance(L, ContinuousLaw) and type(L.density) is LogShiftedGaussianDensity \
            and L.density.lo_mp == -L.density.c:
        return "log-shift", L.density
    return None


def ball_route_applies(P: Law, Q: Law) -> bool:
    """Whether ``method="ball"`` covers the pair (P, Q)."""
    a, b = _gaussian_params(P), _gaussian_params(Q)
    if a is None or b is None:
        return False
    if a[0] == "gaussian" or b[0] == "gaussian":
        return a[0] == b[0]
    return a[1].c == b[1].c


def _pair_maker(alpha, kind: str, dp, dq):
    al = to_arb(alpha)
    op, oq = (None, None) if kind == "gaussian" else (dp.origin, dq.origin)
    exact = op is not None and oq is not None

    def make() -> GaussianPair:
        if exact:
            s_p, s_q = op.scale(), oq.scale()
            mu_p = op.mu()
            gap = op.location_gap(oq)
            c = op.shift()
        else:
            s_p, s_q = to_arb(dp.s), to_arb(dq.s)
            mu_p = to_arb(dp.mu)
            gap = to_arb(dq.mu) - mu_p
            c = to_arb(dp.c) if kind != "gaussian" else None
        rho = arb(1) if (s_p.is_exact() and s_q.is_exact() and s_p == s_q) or (exact and op.family == oq.family) \
            else s_p / s_q
        uc = (c.log() - mu_p) / s_p if kind == "clipped" else None
        return GaussianPair(al, rho, gap / s_q, uc)

    return make, exact


def to_divergence_parts(D: arb):
    """(value, error) in mpmath at the working precision: value = the midpoint rounded, error an
    upper bound of |D - value| (the radius plus that rounding, rounded up)."""
    if not D.is_finite():
        raise Undecided("the enclosure of D is not finite")
    m, e = D.mid().man_exp()
    with mpmath.workprec(max(mpmath.mp.prec, int(m).bit_length() + 8)):
        exact_mid = mpmath.mpf((int(m), int(e)))
    value = +exact_mid  # rounded to the working precision
    with ctx.workprec(max(ctx.prec, int(m).bit_length() + 8)):
        gap = abs(D - _mpf_to_arb(value))
        up = gap.upper()
        um, ue = up.mid().man_exp()
    err = mpmath.mpf((int(um), int(ue)))
    return value, err * (1 + mpmath.mpf(2) ** (2 - mpmath.mp.prec))


def bare_integral(P: Law, Q: Law, alpha):
    """The single ``acb.integral`` call the ball route makes for D_alpha(P || Q), as a function
    of no arguments, its integrand, window, tolerances and precision set up as the route's last
    pass had them: what a benchmark times as the practical limit of the route."""
    (kind, dp), (_, dq) = _gaussian_params(P), _gaussian_params(Q)
    make, _ = _pair_maker(mpmath.mpf(alpha), kind, dp, dq)
    with ctx.workprec(mpmath.mp.prec):
        res = pair_renyi(make, integral=True)
    with ctx.workprec(res.work_prec):
        st = integral_setup(make(), res.goal_bits)

    def run():
        with ctx.workprec(res.work_prec):
            return acb.integral(st.f, st.lo, st.hi, rel_tol=st.rel_tol, abs_tol=st.abs_tol)

    return run


def _mpf_to_arb(x) -> arb:
    sign, man, exp, _ = x._mpf_
    if man == 0:
        return arb(0)
    v = arb(int(man)) * arb(2) ** int(exp)
    return -v if sign else v


def ball_renyi(P: Law, Q: Law, alpha, closed: bool = False):
    """D_alpha(P || Q) (alpha > 1, an mpmath number) as a :class:`Divergence` with a rigorous
    error bar; ``closed``: the closed-form route, else acb.integral (see the module docstring).
    ``ValueError`` when the pair is not covered."""

    alpha = mpmath.mpf(alpha)
    a, b = _gaussian_params(P), _gaussian_params(Q)
    if a is None or b is None or (a[0] == "gaussian") != (b[0] == "gaussian"):
        raise ValueError(f"no ball route for {P.describe()} vs {Q.describe()} "
                         "(Gaussian, log-shifted Gaussian or released log-shifted Gaussian pairs only)")
    (kp, dp), (kq, dq) = a, b
    if kp != "gaussian" and dp.c != dq.c:
        raise ValueError("no ball route for log-shift laws with different shifts c")
    if kp == "clipped" and kq == "log-shift":
        return _infinite("support mismatch: P has an atom at 0 where Q has no mass", alpha)
    if kp == "log-shift" and kq == "clipped":
        return _infinite("support mismatch: P's density lives on (-c, inf), Q's on (0, inf)", alpha)
    make, exact = _pair_maker(alpha, kp, dp, dq)
    if not exact and dp.s != dq.s:
        # unequal variances: finite iff alpha s_Q^2 + (1-alpha) s_P^2 > 0 (eq 34), decided in
        # exact rationals (the stored parameters are exact binary numbers), so that the
        # threshold itself is not left to a ball that straddles 0
        margin = formulas.gaussian_renyi_margin.exact(to_fmpq(alpha), to_fmpq(dp.s), to_fmpq(dq.s))
        if margin <= 0:
            shown = mpmath.nstr(mpmath.mpf(margin.numerator) / margin.denominator, 6)
            return _infinite(f"alpha s_Q^2 + (1-alpha) s_P^2 = {shown} "
                             "<= 0: p^alpha q^(1-alpha) grows in the tails (eq 34)", alpha,
                             "exact rational arithmetic (eq 34's margin)")
    with ctx.workprec(mpmath.mp.prec):
        res = pair_renyi(make, integral=not closed)
    route = ("closed form in Phi of the truncated Gaussian integral" if closed
             else "acb.integral of the densities as written plus proven tails (Q+)")
    what = "exact mechanism laws (origin)" if exact else "the laws' stored parameters"
    method = f"Arb ball: {route}{' plus atoms' if kp == 'clipped' else ''}; {what}"
    if res.infinite:
        return _infinite(res.reason, alpha, method)
    value, err = to_divergence_parts(res.divergence)
    return Divergence(value, err, method, alpha)
