"""The least unit-shift divergence of a law on a lattice Z + theta at a fixed mean absolute value.

For a law p on the points x_k = k + theta (k in Z, 0 <= theta < 1) and its unit shift
p1(x) = p(x - 1), three convex problems at ``sum_k |x_k| p_k <= M``:

* ``"symmetric"``:  phi_theta(M)  = min J(p)/2,  J = KL(p1 || p) + KL(p || p1);
* ``"one-sided"``:  phi1_theta(M) = min KL(p1 || p);
* ``"dirichlet"``:  e_theta(M)    = min E(sqrt p),  E(psi) = sum_k (psi_k - psi_{k-1})^2.

Coordinates.  A positive sequence is written by its log-ratios u_k = log(p_{k-1}/p_k)
(p = psi^2 for the Dirichlet form).  Each objective F is 1-homogeneous in p, and its gradient at
site k is a function of (u_k, u_{k+1}) only (:func:`site_gradient`):

    symmetric:  W(k) = (u_{k+1} - u_k + 2 - e^{-u_{k+1}} - e^{u_k}) / 2
    one-sided:  W(k) = u_{k+1} + 1 - e^{u_k}
    dirichlet:  W(k) = 2 - e^{u_k/2} - e^{-u_{k+1}/2}     (-Delta psi / psi)

so F(p) = sum_k p_k W(k) (Euler).  For lam > 0 the minimiser of F(p) + lam sum |x_k| p_k over
laws solves the KKT system W(k) + lam |x_k| = mu for every k, and then F = mu - lam M (the
minimum at M = its mean absolute value: the Lagrange multiplier lam picks M).

Weak duality, for *any* real sequence u (constant for |k| large): termwise Fenchel-Young
(a log(a/b) - a + b >= u a - (e^u - 1) b) gives F(p) >= sum_k p_k W_u(k) for every law p in the
two KL problems, and the ground-state representation (E(psi) - sum_k W_u(k) psi_k^2 =
sum_k g_k g_{k-1} (psi_k/g_k - psi_{k-1}/g_{k-1})^2 >= 0 for g > 0 with log(g_{k-1}/g_k)^2 = u_k)
gives it for the Dirichlet form.  Hence

    min F at mean absolute value M  >=  inf_k (W_u(k) + lam |x_k|) - lam M:

a certificate (:mod:`countdp.divergence.lattice_dual` builds such sequences,
:mod:`countdp.arb.lattice_shift` decides them in balls).

This module computes the minimisers (the primal route): Newton on the KKT system on a window with
the end log-ratios continued outside (geometric tails, all sums in closed form) for the two KL
problems, the lowest eigenvector of the tridiagonal -Delta + lam |x| for the Dirichlet form, and
a fixed-point iteration on lam to reach a requested M.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special
from scipy.linalg import eigh_tridiagonal, solve_banded

from .. import formulas
from ..laws.lattice import LatticeLaw
from ..numerics import validate

__all__ = ["KINDS", "site_gradient", "tail_sums", "LatticeMinimum", "kkt_solution",
           "dirichlet_ground_state", "lattice_minimum", "continuum_guess", "window_for"]

KINDS = ("symmetric", "one-sided", "dirichlet")
WINDOW_SCALES = 10.0   # the window reaches 10 continuum lengths: p ~ exp(-(4/3) 10^1.5) ~ 5e-19


def _kind(kind: str) -> str:
    return validate.choice("kind", kind, KINDS)


_GRADIENTS = {"symmetric": formulas.symmetric_site_gradient, "one-sided": formulas.one_sided_site_gradient,
              "dirichlet": formulas.dirichlet_site_gradient}


def site_gradient(kind: str, u0, u1):
    """W(k) = dF/dp_k as a function of u_k = ``u0`` and u_{k+1} = ``u1`` (float64, numpy): the
    closed forms of :mod:`countdp.formulas.lower_bound_cstar`."""
    if kind not in _GRADIENTS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    return _GRADIENTS[kind].fp(np.asarray(u0, dtype=float), np.asarray(u1, dtype=float))


def _site_gradient_derivatives(kind: str, u0, u1):
    """(dW/du_k, dW/du_{k+1})."""
    if kind == "symmetric":
        return -0.5 * (1 + np.exp(u0)), 0.5 * (1 + np.exp(-u1))
    if kind == "one-sided":
        return -np.exp(u0), np.ones_like(u1)
    return -0.5 * np.exp(u0 / 2), 0.5 * np.exp(-u1 / 2)


def tail_sums(kind: str, law: LatticeLaw) -> tuple[float, float, float]:
    """(sum p, sum |x| p, F(p)) of the whole sequence, p = exp(-(V - min V)): the window summed
    termwise, the two geometric tails in closed form.  Needs a decaying sequence (left end
    ratio u < 0, right end u > 0) and x < 0 at the left end, x > 0 at the right end."""
    V = law.V - law.V.min()
    p, x, (uL, uR) = np.exp(-V), law.x, law.end_ratios
    if not (uL < 0 < uR and x[0] < 0 < x[-1]):
        raise ValueError("tail_sums needs a law decaying at both ends of a window around 0")
    rl, rr = math.exp(uL), math.exp(-uR)       # ratios moving away from the window
    mass = p.sum() + p[0] * rl / (1 - rl) + p[-1] * rr / (1 - rr)
    first = (np.sum(np.abs(x) * p) + p[0] * (abs(x[0]) * rl / (1 - rl) + rl / (1 - rl) ** 2)
             + p[-1] * (x[-1] * rr / (1 - rr) + rr / (1 - rr) ** 2))
    a, b = p[:-1], p[1:]
    if kind == "symmetric":
        inner = np.sum(0.5 * (a - b) * np.diff(V))
        tails = 0.5 * (-uL * p[0] + uR * p[-1])
    elif kind == "one-sided":
        inner = np.sum(formulas.one_sided_summand.fp(a, b))
        tails = (p[0] * (rl * math.log(rl) - rl + 1) / (1 - rl)
                 + p[-1] * (-math.log(rr) - 1 + rr) / (1 - rr))
    else:
        inner = np.sum(formulas.hellinger_summand.fp(a, b))
        sl, sr = math.sqrt(rl), math.sqrt(rr)
        tails = p[0] * (1 - sl) / (1 + sl) + p[-1] * (1 - sr) / (1 + sr)
    return float(mass), float(first), float(inner + tails)


@dataclass(frozen=True)
class LatticeMinimum:
    """The minimiser at one Lagrange multiplier: ``value`` = F(p)/sum p (the primal value, an upper
    bound on the minimum at mean absolute value ``M``), the KKT constant ``mu`` (so that the dual
    value is mu - lam M), and the law."""

    kind: str
    theta: float
    M: float
    value: float
    lam: float
    mu: float
    law: LatticeLaw
    iterations: int

    @property
    def dual_value(self) -> float:
        return self.mu - self.lam * self.M


def window_for(kind: str, lam: float) -> int:
    """Half-width of the window: 10 continuum lengths (plus 20 sites)."""
    ell = lam ** (-1 / 3) if kind == "dirichlet" else (2 / lam) ** (1 / 3)
    return int(WINDOW_SCALES * ell) + 20


def continuum_guess(kind: str, theta: float, lam: float, K: int) -> LatticeLaw:
    """V = -log p of the continuum minimiser on k = -K .. K: p = Ai(|x|/l + a1')^2 with
    l = (2/lam)^(1/3) (KL problems: -2 psi'' + lam |x| psi = mu psi) or lam^(-1/3) (Dirichlet)."""
    a1p = float(special.ai_zeros(1)[1][0])
    ell = lam ** (-1 / 3) if kind == "dirichlet" else (2 / lam) ** (1 / 3)
    z = np.abs(np.arange(-K, K + 1) + theta) / ell + a1p
    ai, _, _, _ = special.airye(np.maximum(z, 0))
    logai = np.where(z > 0, np.log(ai) - (2 / 3) * np.maximum(z, 0) ** 1.5, np.log(special.airy(z)[0]))
    return LatticeLaw(float(theta), -K, -2 * logai)


def _newton_system(kind, law: LatticeLaw, lam, mu):
    """Residuals W(k) + lam|x_k| - mu on the window (end ratios continued) and the banded Jacobian
    in V: row k has dW/dV_{k-1} = -dW/du_k, dW/dV_{k+1} = dW/du_{k+1}, the diagonal minus both."""
    V = law.V
    Vx = np.concatenate(([2 * V[0] - V[1]], V, [2 * V[-1] - V[-2]]))
    u = np.diff(Vx)
    u0, u1 = u[:-1], u[1:]
    F = site_gradient(kind, u0, u1) + lam * np.abs(law.x) - mu
    d0, d1 = _site_gradient_derivatives(kind, u0, u1)
    dm, dn = -d0, d1
    diag, up, lo = -(dm + dn), dn[:-1].copy(), dm[1:].copy()
    diag[0] += 2 * dm[0]
    up[0] -= dm[0]
    diag[-1] += 2 * dn[-1]
    lo[-1] -= dn[-1]
    return F, diag, up, lo


def _bordered_solve(diag, up, lo, rhs, c: int):
    """Solve T' z = rhs, T' = the tridiagonal (diag, up, lo) with column c replaced by -1 (the mu
    column): Sherman-Morrison on T + e_c e_c^T s (grounded, nonsingular)."""
    n = len(diag)
    ab = np.zeros((3, n))
    ab[0, 1:], ab[1], ab[2, :-1] = up, diag, lo
    s = -abs(diag[c]) - 1.0
    ab[1, c] += s
    col = np.zeros(n)                      # column c of T
    col[c] = diag[c]
    if c > 0:
        col[c - 1] = up[c - 1]
    if c < n - 1:
        col[c + 1] = lo[c]
    w = -np.ones(n) - col
    w[c] -= s
    y = solve_banded((1, 1), ab, rhs)
    z = solve_banded((1, 1), ab, w)
    return y - z * (y[c] / (1 + z[c]))


def kkt_solution(kind: str, theta, lam, law: LatticeLaw | None = None, mu=None,
                 max_iter: int = 60) -> LatticeMinimum:
    """Newton on W(k) + lam |x_k| = mu (a KL problem) on the window of ``law`` (default: the
    continuum guess on :func:`window_for`), V fixed at the window centre, mu unknown; stops when
    the step is below 1e-13 on the sites that carry mass and mu has settled."""
    kind = _kind(kind)
    if kind == "dirichlet":
        raise ValueError("the Dirichlet problem is linear: use dirichlet_ground_state")
    theta = validate.real("theta", theta, lo=0, hi=1, lo_open=False)
    lam = validate.real("lam", lam, lo=0)
    if law is None:
        law = continuum_guess(kind, theta, lam, window_for(kind, lam))
    c = len(law.V) // 2
    V = law.V - law.V[c]
    if mu is None:                         # the KKT constant of the guess at the window centre
        u = np.diff(V)
        mu = float(site_gradient(kind, u[c - 1], u[c]) + lam * abs(law.x[c]))
    for it in range(1, max_iter + 1):
        cur = LatticeLaw(law.theta, law.k0, V)
        F, diag, up, lo = _newton_system(kind, cur, lam, mu)
        d = _bordered_solve(diag, up, lo, -F, c)
        dmu, d[c] = d[c], 0.0
        V, mu = V + d, mu + dmu
        heavy = V - V.min() < 70
        if np.max(np.abs(d[heavy])) < 1e-13 and abs(dmu) <= 1e-14 * abs(mu):
            break
    out = LatticeLaw(law.theta, law.k0, V)
    mass, first, F = tail_sums(kind, out)
    return LatticeMinimum(kind, law.theta, first / mass, F / mass, lam, mu, out, it)


def dirichlet_ground_state(theta, lam, K: int | None = None) -> LatticeMinimum:
    """The lowest eigenpair of the tridiagonal -Delta + lam |x_k| on k = -K .. K (LAPACK): psi > 0,
    mu its eigenvalue, the law p = psi^2 normalised, value E(psi) (tails continued)."""
    theta = validate.real("theta", theta, lo=0, hi=1, lo_open=False)
    lam = validate.real("lam", lam, lo=0)
    K = window_for("dirichlet", lam) if K is None else K
    x = np.arange(-K, K + 1) + theta
    w, v = eigh_tridiagonal(2 + lam * np.abs(x), -np.ones(2 * K), select="i", select_range=(0, 0))
    psi = np.abs(v[:, 0])
    law = LatticeLaw(float(theta), -K, -2 * np.log(psi))
    mass, first, E = tail_sums("dirichlet", law)
    return LatticeMinimum("dirichlet", float(theta), first / mass, E / mass, lam, float(w[0]), law, 1)


def _solve(kind, theta, lam, previous: LatticeMinimum | None):
    if kind == "dirichlet":
        return dirichlet_ground_state(theta, lam)
    if previous is not None and len(previous.law.V) == 2 * window_for(kind, lam) + 1:
        return kkt_solution(kind, theta, lam, previous.law, previous.mu)
    return kkt_solution(kind, theta, lam)


def lattice_minimum(kind: str, theta, M, rtol: float = 1e-11, max_iter: int = 40) -> LatticeMinimum:
    """The minimiser whose mean absolute value is ``M`` (relative ``rtol``): lam from the continuum
    scaling M ~ lam^(-1/3), then secant steps on log M against log lam (M is decreasing in lam; the
    first step, and any step whose slope is not negative, uses the continuum exponent -1/3: at small
    M, where the law sits on a few sites, the slope is far from it)."""
    kind = _kind(kind)
    M = validate.real("M", M, lo=0)
    theta = validate.real("theta", theta, lo=0, hi=1, lo_open=False)
    if not M > min(theta, 1 - theta):
        raise ValueError(f"M must exceed the least |x| on Z + theta, {min(theta, 1 - theta)}, got {M}")
    m_airy = float(formulas.airy_mean_abs.fp())
    lam = (m_airy / M) ** 3 * (1 if kind == "dirichlet" else 2)
    sol, prev = None, None
    for _ in range(max_iter):
        sol = _solve(kind, theta, lam, sol)
        if abs(sol.M / M - 1) < rtol:
            return sol
        x, y = math.log(lam), math.log(sol.M)
        slope = -1 / 3
        if prev is not None and x != prev[0] and (y - prev[1]) / (x - prev[0]) < 0:
            slope = (y - prev[1]) / (x - prev[0])
        prev = (x, y)
        lam = math.exp(x + max(min((math.log(M) - y) / slope, 5.0), -5.0))
    raise ArithmeticError(f"lattice_minimum({kind}, theta={theta}, M={M}): M(lam) not reached, "
                          f"last M = {sol.M!r}")
