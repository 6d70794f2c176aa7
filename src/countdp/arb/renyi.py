"""Certified Renyi divergences: equal-variance Gaussians, the mechanism's unclipped and released
laws, and products of independent coordinates.

Every function encloses the Renyi integral I = int p^alpha q^(1-alpha) (alpha > 1) as a ball,
from the densities as written (``acb.integral`` on a window around the peak plus the proven tails (Q+)
of :mod:`countdp.arb.integrals`, see :mod:`countdp.arb.gaussian_renyi`), and returns it with
D_alpha = log(I)/(alpha - 1), at the caller's precision.  The
closed forms eqs (11)-(12) and v(n) of eqs (5)-(6) they are compared with are the formulas
``renyi_equal_variance``, ``renyi_counts`` and ``budget`` (``.ball``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from flint import arb, ctx

from .. import formulas
from ..numerics.contexts import ball
from .gaussian_renyi import GaussianPair, pair_renyi
from .integrals import gauss_tail_upper, integrate, sqrt_2pi, tail_width, upper_point
from .log_gaussian import Decision
from .verdicts import Undecided, Verdict, ball_str, decide_le, nonneg_interval, to_arb, to_fmpq

__all__ = ["RenyiBall", "ClippingGap", "equal_variance_renyi", "unclipped_renyi",
           "released_renyi", "clipping_gap", "product_renyi", "decide_released_budget"]


@dataclass(frozen=True)
class RenyiBall:
    """The certified Renyi integral I = int p^alpha q^(1-alpha) and D_alpha = log(I)/(alpha - 1)."""

    integral: arb
    divergence: arb


@dataclass(frozen=True)
class ClippingGap:
    """The two terms whose order decides D_alpha(clipped) <= D_alpha(unclipped): the atom term
    A_p^alpha A_q^(1-alpha) and the unclipped Renyi integrand's mass below the clip point."""

    atom: arb
    unclipped_below: arb


def _renyi_ball(integral: arb, alpha: arb) -> RenyiBall:
    return RenyiBall(integral, integral.log() / (alpha - 1))


def equal_variance_renyi(alpha, mu, nu, s) -> RenyiBall:
    """Certified D_alpha(N(mu, s^2) || N(nu, s^2)) (eq 11), alpha > 1.

    In u = (x - mu)/s the integrand is phi(u)^alpha phi(u - d)^(1-alpha), d = (nu - mu)/s,
    evaluated from the densities as written at the nodes of ``acb.integral`` on a window around
    its peak (1-alpha) d, with the tails bounded by (Q+) (:mod:`countdp.arb.gaussian_renyi`).
    """
    def make() -> GaussianPair:
        al, m, n_, sd = map(to_arb, (alpha, mu, nu, s))
        return GaussianPair(al, arb(1), (n_ - m) / sd)

    return _from_pair(make)


def _from_pair(make) -> RenyiBall:
    # at the caller's precision, as the balls these are compared with (containment verdicts)
    res = pair_renyi(make, integral=True, guard=False)
    if res.infinite:
        raise Undecided(res.reason)
    return RenyiBall(res.integral, res.divergence)


def _count_pair(alpha, k_p, k_q, c, sigma, clipped: bool):
    """The released (or unclipped) laws at counts k_p, k_q in P's standard coordinate, from the
    log means of eq (10): d = (mu_q - mu_p)/sigma, the clip point u_c = (log c - mu_p)/sigma."""
    def make() -> GaussianPair:
        al, s, c_ = to_arb(alpha), to_arb(sigma), to_arb(c)
        mu_p = formulas.log_mean.ball(k_p, c_, s)
        d = (formulas.log_mean.ball(k_q, c_, s) - mu_p) / s
        uc = (c_.log() - mu_p) / s if clipped else None
        return GaussianPair(al, arb(1), d, uc)

    return make


def unclipped_renyi(alpha, k_p, k_q, c, sigma) -> RenyiBall:
    """Certified D_alpha(U_{k_p} || U_{k_q}) between the unclipped outputs: by the bijection
    u -> log(u + c) (eq 10) the equal-variance Gaussians N(log(k + c) - sigma^2, sigma^2)."""
    return _from_pair(_count_pair(alpha, k_p, k_q, c, sigma, clipped=False))


@dataclass(frozen=True)
class _ClippedSetting:
    alpha: arb
    d: arb   # (mu_q - mu_p)/sigma
    uc: arb  # the clip point (log c - mu_p)/sigma in P's standard coordinate
    b: arb   # (1 - alpha) d, the slope of the Gaussian integrand's exponent
    k: arb   # exp(-(1 - alpha) d^2/2)


def _clipped_setting(alpha, k_p, k_q, c, sigma) -> _ClippedSetting:
    al, s, c_ = to_arb(alpha), to_arb(sigma), to_arb(c)
    mu_p = formulas.log_mean.ball(k_p, c_, s)
    mu_q = formulas.log_mean.ball(k_q, c_, s)
    d = (mu_q - mu_p) / s
    return _ClippedSetting(al, d, (c_.log() - mu_p) / s, (1 - al) * d, (-(1 - al) * d * d / 2).exp())


def _atom_term(st: _ClippedSetting) -> arb:
    """A_p^alpha A_q^(1-alpha) with the atoms A_p = Phi(u_c), A_q = Phi(u_c - d) at 0."""
    A_p, A_q = ball.ncdf(st.uc), ball.ncdf(st.uc - st.d)
    return (st.alpha * A_p.log() + (1 - st.alpha) * A_q.log()).exp()


def released_renyi(alpha, k_p, k_q, c, sigma) -> RenyiBall:
    """Certified D_alpha(P || Q) for the released (clipped) laws P, Q of
    Y = [(k + c) e^{sigma Z - sigma^2} - c]_+ at counts k_p, k_q (Section 5).

    Each law: atom at 0 of mass Phi((log(c/(k+c)) + sigma^2)/sigma), and on y > 0 (w = log(y+c)
    > log c) the N(log(k+c) - sigma^2, sigma^2) density in w. Hence
    I = A_p^alpha A_q^(1-alpha) + int_{w > log c} p^alpha q^(1-alpha) dw. In u = (w - mu_p)/sigma
    the density part is int_{u_c}^inf of the integrand of :func:`equal_variance_renyi` with
    d = (mu_q - mu_p)/sigma, u_c = (log c - mu_p)/sigma: ``acb.integral`` of the densities as
    written from u_c (or the window's start, the rest bounded by (Q+)) to the window's end
    around the peak, plus the right tail by (Q+) (:mod:`countdp.arb.gaussian_renyi`). The
    ``sigma`` ball given sets the width of the result; the work runs with guard bits.
    """
    return _from_pair(_count_pair(alpha, k_p, k_q, c, sigma, clipped=True))


def clipping_gap(alpha, k_p, k_q, c, sigma) -> ClippingGap:
    """The atom term and the unclipped mass below the clip point, for the gap certificate.

    I_unclip - I_clip = int_{-inf}^{u_c} g(u) du - A_p^alpha A_q^(1-alpha) with g the Gaussian
    integrand of :func:`equal_variance_renyi`; the density part on u > u_c is identical in both
    and cancels exactly. The left integral is computed with relative accuracy as
    k' int_0^L exp(-(b - u_c) s - s^2/2) ds (u = u_c - s, k' = k exp(-u_c^2/2 + b u_c)) plus the
    tail s > L bounded by exp(-L^2/2 - (b - u_c) L)/(L + b - u_c) ((G+) with b' = u_c - b),
    needing L + b - u_c > 0; L = max(0, u_c - b) + t0.
    """
    st = _clipped_setting(alpha, k_p, k_q, c, sigma)
    beta = st.b - st.uc  # exponent slope in s
    L = upper_point(arb(max(0.0, -float(beta.mid()))) + tail_width())
    kk = st.k * (-st.uc * st.uc / 2 + st.b * st.uc).exp()
    core = integrate(lambda t: (-beta * t - t * t / 2).exp(), 0, L)
    left = kk * (core + nonneg_interval(gauss_tail_upper(L, -beta))) / sqrt_2pi()
    return ClippingGap(_atom_term(st), left)


def product_renyi(alpha, integrals: Iterable) -> RenyiBall:
    """Product laws P = prod P_t, Q = prod Q_t (independent coordinates): by Fubini-Tonelli
    (nonnegative integrand) int prod p_t^alpha q_t^(1-alpha) = prod_t I_t, so
    D_alpha(P || Q) = log(prod I_t)/(alpha - 1) = sum_t D_alpha(P_t || Q_t)."""
    I = arb(1)
    for x in integrals:
        I = I * to_arb(x)
    return _renyi_ball(I, to_arb(alpha))


def decide_released_budget(alpha, n: int, r0, c, direction: str = "forward", factor=1,
                           precs: Iterable[int] = (53, 128, 256), sigma=None) -> Decision:
    """D_alpha(released law at n || at n-1) (``forward``; ``backward`` swaps) <= factor alpha v(n),
    n >= 1, with sigma of eq (3) recomputed at each precision (or the given ball ``sigma``, then
    r0 is ignored).

    Route 1 (direct): full certified D_clip vs the ball factor*alpha*v(n), by separation.
    Route 2 (only for factor == 1, when route 1 is undecided because clipping is negligible):
    D_clip <= D_unclip iff atom term <= unclipped mass below the clip point (:func:`clipping_gap`),
    decided by separation with relative accuracy; D_unclip = alpha v(n) is eqs (11)-(12)
    (whose certified enclosure is checked separately). Precision is raised through ``precs``.
    """
    k_p, k_q = (n, n - 1) if direction == "forward" else (n - 1, n)
    info: dict = {}
    verdict = Verdict.UNDECIDED
    exact_one = (not isinstance(factor, arb)) and to_fmpq(factor) == 1
    for p in precs:
        with ctx.workprec(p):
            s = formulas.sigma.ball(r0, c) if sigma is None else to_arb(sigma)
            D = released_renyi(alpha, k_p, k_q, c, s).divergence
            bound = to_arb(factor) * to_arb(alpha) * formulas.budget.ball(n, s, c)
            verdict = decide_le(D, bound)
            info.update(prec=p, D=ball_str(D), bound=ball_str(bound), route="direct separation")
            if verdict is not Verdict.UNDECIDED:
                return Decision(verdict, info)
            if exact_one:
                gap = clipping_gap(alpha, k_p, k_q, c, s)
                g = decide_le(gap.atom, gap.unclipped_below)
                info.update(atom=ball_str(gap.atom), unclipped_below_clip=ball_str(gap.unclipped_below),
                            route="gap certificate (D_clip <= D_unclip, eq 11)")
                if g is not Verdict.UNDECIDED:
                    return Decision(g, info)
    return Decision(verdict, info)
