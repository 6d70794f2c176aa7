"""Privacy accounting for count-dependent budgets: zCDP -> (eps, delta) and composition
(Sections 5.1 and 8 of the paper).

Conversions of a rho-zCDP guarantee (``D_alpha(P||Q) <= alpha rho`` for every alpha > 1); the
closed forms are :func:`countdp.formulas.bun_steinke_epsilon`,
:func:`countdp.formulas.cks_log_delta_at` and :func:`countdp.formulas.cks_log_delta_slope`:

* Bun-Steinke (2016, Prop. 1.3; quoted in Section 5.1):
  ``eps = rho + 2 sqrt(rho log(1/delta))``                               :func:`zcdp_to_approx_dp`
* Canonne-Kamath-Steinke (2020, the Renyi -> approximate-DP conversion applied to D_alpha = alpha rho):
  ``delta(eps) = inf_{alpha>1} exp((alpha-1)(alpha rho - eps)) / (alpha-1) * (1 - 1/alpha)^alpha``
  with alpha optimised continuously; the log of the bracket is strictly convex in alpha with
  derivative ``(2 alpha - 1) rho - eps + log(1 - 1/alpha)``, so the optimum is that root.
                                                                      :func:`cks_delta`, :func:`cks_eps`

The exact privacy profile of a pair of laws, and eps(delta) from it, are in
:mod:`countdp.divergence.profile`; the Renyi divergence of a product law in
:mod:`countdp.divergence.product`.

Composition (Section 8): zCDP budgets add pointwise, ``v_tot(n) = sum_t v_t(n)``
(:func:`compose_budgets`); :func:`log_likelihood_ratio` gives the privacy-loss variable for Monte
Carlo of joint releases.

Every function raises ValueError naming a bad parameter and its range.
"""

from __future__ import annotations

from typing import Callable, Sequence

import mpmath
import numpy as np

from .. import formulas
from ..laws import Law
from ..laws.base import check_law
from ..numerics import validate
from ..numerics.estimate import Estimate
from ..numerics.optimize import maximise
from ..numerics.roots import root_tolerance, solve_decreasing
from ..numerics.tolerance import working_precision

INF = mpmath.mpf("inf")

# ============================================================================================
# zCDP -> approximate DP
# ============================================================================================


def zcdp_to_approx_dp(rho, delta):
    """Bun-Steinke conversion quoted in Section 5.1: rho-zCDP implies
    ``(rho + 2 sqrt(rho log(1/delta)), delta)``-DP for every 0 < delta < 1."""
    rho = validate.real("rho", rho, lo=0, lo_open=False, big_ok=True)  # mpmath only: any size
    delta = validate.real("delta", delta, lo=0, hi=1)
    return formulas.bun_steinke_epsilon(mpmath.mpf(rho), mpmath.mpf(delta))


def chernoff_log_tail(rho, eps):
    """The proof of the Bun-Steinke conversion, numerically: the privacy loss L of a pair with
    ``D_alpha = alpha rho`` has ``E exp((alpha-1) L) = exp((alpha-1) alpha rho)``, so Markov gives
    ``log P(L > eps) <= (alpha-1)(alpha rho - eps)`` for every alpha > 1.  Returns the best such
    bound, minimised over alpha numerically (grid, golden section, Newton on the numerical
    derivative) on (1, eps/rho], outside which the bound is >= 0; no closed form of the optimum
    is used.  0 (no information) for eps <= rho."""
    rho = mpmath.mpf(validate.real("rho", rho, lo=0))
    eps = mpmath.mpf(validate.real("eps", eps, lo=0, lo_open=False))
    if eps <= rho:
        return mpmath.mpf(0)
    best = maximise(lambda a: -(a - 1) * (a * rho - eps), 1, eps / rho, grid=64)
    return min(-best.value, mpmath.mpf(0))


def chernoff_epsilon(rho, delta):
    """The eps at which :func:`chernoff_log_tail` equals log(delta): the conversion that the
    proof's algebra gives, by root-finding in eps (the tail bound decreases in eps).  An
    independent route to :func:`zcdp_to_approx_dp` (equal to it exactly in exact arithmetic)."""
    rho = mpmath.mpf(validate.real("rho", rho, lo=0))
    delta = mpmath.mpf(validate.real("delta", delta, lo=0, hi=1))
    target = mpmath.log(delta)
    hi = 2 * rho + 1
    while chernoff_log_tail(rho, hi) > target:
        hi *= 2
    return solve_decreasing(lambda e: chernoff_log_tail(rho, e) - target, rho, hi,
                             root_tolerance(hi, working_precision(8)))


def cks_alpha(rho, eps):
    """The optimal Renyi order of the CKS conversion: the root in alpha > 1 of
    ``(2 alpha - 1) rho - eps + log(1 - 1/alpha) = 0`` (the derivative of the log-bound)."""
    rho = mpmath.mpf(validate.real("rho", rho, lo=0))
    eps = mpmath.mpf(validate.real("eps", eps, lo=0, lo_open=False))

    def h(a):  # increasing in a: -inf at 1+, +inf at infinity
        return formulas.cks_log_delta_slope(rho, eps, a)

    lo = mpmath.mpf(2)
    while h(lo) >= 0:
        lo = 1 + (lo - 1) / 16
    hi = mpmath.mpf(2)
    while h(hi) <= 0:
        hi *= 4
    return solve_decreasing(lambda a: -h(a), lo, hi, root_tolerance(hi) * mpmath.mpf(10) ** -3)


def cks_log_delta(rho, eps):
    """log of the CKS bound ``inf_alpha exp((alpha-1)(alpha rho - eps))/(alpha-1) (1-1/alpha)^alpha``
    (before capping at delta <= 1); ``-inf`` for rho = 0 (identical laws)."""
    rho = mpmath.mpf(validate.real("rho", rho, lo=0, lo_open=False))
    eps = mpmath.mpf(validate.real("eps", eps, lo=0, lo_open=False))
    if rho == 0:
        return -INF
    return formulas.cks_log_delta_at(rho, eps, cks_alpha(rho, eps))


def cks_delta(rho, eps):
    """Canonne-Kamath-Steinke: rho-zCDP gives (eps, delta)-DP with this delta (capped at 1)."""
    ld = cks_log_delta(rho, eps)
    return mpmath.mpf(1) if ld >= 0 else mpmath.exp(ld)


def cks_eps(rho, delta):
    """The smallest eps with ``cks_delta(rho, eps) <= delta`` (root-finding; the log-bound is
    decreasing in eps with slope ``-(alpha* - 1)``).  Never above :func:`zcdp_to_approx_dp`."""
    rho = mpmath.mpf(validate.real("rho", rho, lo=0, lo_open=False))
    delta = mpmath.mpf(validate.real("delta", delta, lo=0, hi=1))
    if rho == 0:
        return mpmath.mpf(0)
    target = mpmath.log(delta)
    if cks_log_delta(rho, 0) <= target:
        return mpmath.mpf(0)
    hi = zcdp_to_approx_dp(rho, delta)
    while cks_log_delta(rho, hi) > target:  # not expected: CKS <= BS at every alpha
        hi *= 2
    return solve_decreasing(lambda e: cks_log_delta(rho, e) - target, 0, hi, root_tolerance(hi))

# ============================================================================================
# Composition (Section 8)
# ============================================================================================


def compose_budgets(*budgets: Callable) -> Callable:
    """Section 8: releases with budgets v_1, ..., v_T compose to ``v_tot(n) = sum_t v_t(n)``.
    Each budget is a callable n -> v_t(n) (e.g. ``mech.mp_v``), a number or an
    :class:`~countdp.numerics.estimate.Estimate`; with any Estimate among them the sum is an
    Estimate too (the values added, the errors added), so mechanisms of any kind compose."""
    if not budgets:
        raise ValueError("budgets must hold at least one budget function")
    for i, b in enumerate(budgets):
        if not callable(b):
            raise ValueError(f"budgets[{i}] must be a callable n -> v(n), got {b!r}")

    def v_tot(n):
        n = validate.count("n", n)
        terms = [_budget_term(i, b(n)) for i, b in enumerate(budgets)]
        total = mpmath.fsum(t.value if isinstance(t, Estimate) else t for t in terms)
        if not any(isinstance(t, Estimate) for t in terms):
            return total
        return Estimate(total, mpmath.fsum(t.error for t in terms if isinstance(t, Estimate)))

    return v_tot


def _budget_term(i: int, v):
    """One v_t(n): a real number, or an :class:`Estimate` (a budget computed numerically, e.g.
    the Airy mechanism's); anything else is refused naming budgets[i]."""
    if isinstance(v, Estimate):
        return Estimate(mpmath.mpf(v.value), mpmath.mpf(v.error))
    if isinstance(v, (int, float, mpmath.mpf, np.floating, np.integer)) and not isinstance(v, bool):
        return mpmath.mpf(v)
    raise validate.ParameterTypeError(f"budgets[{i}] must return a real number or an Estimate, got "
                                      f"{type(v).__name__}")


def composed_budget(mechanisms: Sequence, n):
    """``sum_t v_t(n)`` for mechanisms with an ``mp_v`` method, of any kinds at once (the shifted
    log-Gaussian's is a number, the Airy mechanism's an Estimate: see :func:`compose_budgets`)."""
    if isinstance(mechanisms, (str, bytes)) or not isinstance(mechanisms, Sequence):
        raise validate.ParameterTypeError(f"mechanisms must be a list of mechanisms, got "
                                          f"{type(mechanisms).__name__}")
    if len(mechanisms) == 0:
        raise ValueError("mechanisms must hold at least one mechanism")
    for i, m in enumerate(mechanisms):
        if not callable(getattr(m, "mp_v", None)):
            raise validate.ParameterTypeError(f"mechanisms[{i}] must have an mp_v(n) method, got "
                                              f"{type(m).__name__}")
    return compose_budgets(*(m.mp_v for m in mechanisms))(n)


def log_likelihood_ratio(P: Law, Q: Law, y) -> np.ndarray:
    """The privacy-loss variable ``log(dP/dQ)(y)`` (float64, vectorised) for laws made of atoms and a
    density (points equal to an atom use the atom masses, the rest the densities).  ``+inf`` where
    Q has no mass, ``-inf`` where P has none; ``y`` must hold finite reals."""
    check_law("P", P), check_law("Q", Q)
    if P.integer or Q.integer:
        raise ValueError("log_likelihood_ratio handles atoms + densities, not integer laws")
    y = validate.reals("y", y)  # NaN and inf refused, naming y
    out = np.empty_like(y)
    on_atom = np.zeros(y.shape, dtype=bool)
    qa = {float(k): v for k, v in Q.atoms().items()}
    for x, p in P.atoms().items():
        xf = float(x)
        m = y == xf
        q = qa.get(xf, mpmath.mpf(0))
        out[m] = float(mpmath.log(p) - mpmath.log(q)) if q > 0 else np.inf
        on_atom |= m
    for xf, q in qa.items():
        m = (y == xf) & ~on_atom
        out[m] = -np.inf
        on_atom |= m
    rest = ~on_atom
    if np.any(rest):
        if P.density is None:
            out[rest] = -np.inf
        elif Q.density is None:
            out[rest] = np.inf
        else:
            out[rest] = P.density.logpdf(y[rest]) - Q.density.logpdf(y[rest])
    return out


__all__ = [
    "zcdp_to_approx_dp", "chernoff_log_tail", "chernoff_epsilon", "cks_alpha", "cks_log_delta", "cks_delta",
    "cks_eps", "compose_budgets", "composed_budget", "log_likelihood_ratio",
]
