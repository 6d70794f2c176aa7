"""Closed forms of the lower bound C* >= 8|a1'|^3/27 (beyond the paper; experiments/cstar/lower-bound.md).

Notation.  c0 = 8|a1'|^3/27 (:func:`countdp.formulas.airy.airy_limit_constant`).  A law p on a
lattice Z + theta, its unit shift p1 = p(. - 1), psi = sqrt(p) and the Dirichlet form
E(psi) = sum_k (psi_k - psi_{k-1})^2.  Termwise, with a = p(k-1) and b = p(k):

* one-sided:  KL(p1 || p) = sum_k [a log(a/b) - a + b]         (:func:`one_sided_summand`),
* symmetric:  J(p) = KL(p1||p) + KL(p||p1) = sum_k (a - b) log(a/b)   (:func:`symmetric_summand`),
* Hellinger:  (sqrt a - sqrt b)^2                                  (:func:`hellinger_summand`).

With s = sqrt(a/b), the one-sided summand is 2 R(s) (sqrt a - sqrt b)^2 where
R(s) = (2 s^2 log s - s^2 + 1)/(2 (s - 1)^2) increases from R(0+) = 1/2 through R(1) = 1
(:func:`one_sided_ratio`); so for ratios q <= a/b <= 1/q the summand is at least
2 kappa(q) (sqrt a - sqrt b)^2 with kappa(q) = R(sqrt q) (:func:`one_sided_constant`).  With
y = log(a/b)/4 the symmetric summand is y coth(y) * 4 (sqrt a - sqrt b)^2 (:func:`symmetric_ratio`).

The Dirichlet minimum on the line at fixed first absolute moment (the Airy ground state) is
c0/(2 M^2) (:func:`continuum_dirichlet_minimum`); piecewise-linear interpolation of a lattice
sequence turns it into 2 E >= c0 (1 - E/6)^3/(M + 1)^2 (:func:`interpolation_bound`), hence
2 E >= c0/(M + 2)^2 for every M >= 0 (:func:`lattice_dirichlet_bound`; the step uses the
polynomial :func:`interpolation_margin` >= 0 on [0, 1/2]).

The assembled bound: a prior pi on the counts {N, N+1, ...} (negative binomial of shape 3,
pi(N + j) = C(j+2, 2) (1 - rho)^3 rho^j: mean excess :func:`prior_mean_excess`, one-sided shift
divergence at most :func:`prior_shift_kl_bound`), the error smoothed by a discrete Laplace law
K_q(j) ~ q^|j| (mean absolute value :func:`discrete_laplace_mean_abs`), and

    v(N+1) >= kappa(q) c0 / (r (N + 3 rho/(1-rho)) + 2q/(1-q^2) + 2)^2 - KL(pi(.-1) || pi)
                                                                            (:func:`assembled_bound`),

whose value times r^2 N^2 tends, with 3 rho/(1-rho) = eps N and N -> inf, to
kappa(q) c0/(1 + eps)^2 - 9 r^2/(2 eps^2) (:func:`assembled_limit`).
"""

from __future__ import annotations

from ..numerics.contexts import formula
from .airy import airy_limit_constant


@formula
def one_sided_summand(ctx, a, b):
    """a log(a/b) - a + b: the summand of KL(p(. - 1) || p) at a = p(k-1), b = p(k) (the
    terms -a + b add to 0 over k; each summand is >= 0)."""
    a, b = ctx.convert(a), ctx.convert(b)
    return a * ctx.log(a / b) - a + b


@formula
def symmetric_summand(ctx, a, b):
    """(a - b) log(a/b): the summand of J = KL(p1||p) + KL(p||p1)."""
    a, b = ctx.convert(a), ctx.convert(b)
    return (a - b) * ctx.log(a / b)


@formula
def hellinger_summand(ctx, a, b):
    """(sqrt a - sqrt b)^2: the summand of the Dirichlet form E(sqrt p)."""
    d = ctx.sqrt(ctx.convert(a)) - ctx.sqrt(ctx.convert(b))
    return d * d


@formula
def symmetric_site_gradient(ctx, u0, u1):
    """dJ/2 / dp_k = (u1 - u0 + 2 - e^{-u1} - e^{u0})/2 at u0 = log(p_{k-1}/p_k), u1 = log(p_k/p_{k+1}):
    also the Fenchel dual weight of site k (J(p)/2 >= sum_k p_k W(k) for every sequence u)."""
    u0, u1 = ctx.convert(u0), ctx.convert(u1)
    return ((u1 - u0) - ctx.expm1(-u1) - ctx.expm1(u0)) / 2


@formula
def one_sided_site_gradient(ctx, u0, u1):
    """dKL(p1||p)/dp_k = u1 + 1 - e^{u0} (u0, u1 as in :func:`symmetric_site_gradient`); also the
    Fenchel dual weight (KL(p1||p) >= sum_k p_k W(k) for every sequence u)."""
    u0, u1 = ctx.convert(u0), ctx.convert(u1)
    return u1 - ctx.expm1(u0)


@formula
def dirichlet_site_gradient(ctx, u0, u1):
    """(-Delta psi/psi)(k) = 2 - e^{u0/2} - e^{-u1/2} for psi = sqrt(p) (u0, u1 as above): the
    ground-state weight (E(psi) >= sum_k psi_k^2 W(k) for every positive sequence)."""
    u0, u1 = ctx.convert(u0), ctx.convert(u1)
    return -ctx.expm1(u0 / 2) - ctx.expm1(-u1 / 2)


@formula
def one_sided_ratio(ctx, s):
    """R(s) = (2 s^2 log s - s^2 + 1) / (2 (s - 1)^2) for s = sqrt(a/b) != 1: the one-sided
    summand over 2 (sqrt a - sqrt b)^2.  Increasing on (0, inf), R(0+) = 1/2, R(1) = 1.  The
    numerator cancels near s = 1: about 2 log10(1/|s - 1|) digits are lost (evaluate with guard
    digits there)."""
    s = ctx.convert(s)
    d = s - 1
    return (2 * s * s * ctx.log(s) - s * s + 1) / (2 * d * d)


@formula
def one_sided_constant(ctx, q):
    """kappa(q) = R(sqrt q), 0 < q < 1: the one-sided summand is >= 2 kappa(q) (sqrt a - sqrt b)^2
    whenever q <= a/b <= 1/q (R increasing); kappa(q) -> 1 as q -> 1."""
    return one_sided_ratio(ctx, ctx.sqrt(ctx.convert(q)))


@formula
def symmetric_ratio(ctx, y):
    """y coth(y) (y != 0): the symmetric summand over 4 (sqrt a - sqrt b)^2 at y = log(a/b)/4;
    at least 1, so (a - b) log(a/b) >= 4 (sqrt a - sqrt b)^2."""
    y = ctx.convert(y)
    return y * (1 + 2 / ctx.expm1(2 * y))


@formula
def discrete_laplace_mean_abs(ctx, q):
    """E|U| = 2q/(1 - q^2) for the discrete Laplace law K_q(j) = (1-q)/(1+q) q^|j| on Z."""
    q = ctx.convert(q)
    return 2 * q / (1 - q * q)


@formula
def continuum_dirichlet_minimum(ctx, M, a1p=None):
    """c0/(2 M^2) = min int psi'^2 over int psi^2 = 1, int |x| psi^2 = M on the line (the Airy
    ground state psi = Ai(|x|/l + a1'), rescaled): the least Fisher information at fixed E|X|,
    I m^2/2 >= c0, written for psi = sqrt(f) (I = 4 int psi'^2)."""
    M = ctx.convert(M)
    return airy_limit_constant(ctx, a1p) / (2 * M * M)


@formula
def interpolation_bound(ctx, E, M, a1p=None):
    """c0 (1 - E/6)^3 / (M + 1)^2: the lower bound on 2E for a lattice sequence with
    sum psi_k^2 = 1 and sum |x_k| psi_k^2 = M (interpolated linearly: int psi~'^2 = E,
    int psi~^2 = 1 - E/6, int |x| psi~^2 <= M + 1), valid while E < 6."""
    E, M = ctx.convert(E), ctx.convert(M)
    m0 = 1 - E / 6
    return airy_limit_constant(ctx, a1p) * m0 * m0 * m0 / ((M + 1) * (M + 1))


@formula
def lattice_dirichlet_bound(ctx, M, a1p=None):
    """c0 / (M + 2)^2: a lower bound on 2 min E on Z + theta at mean absolute value M, for every
    theta and every M >= 0; convex and decreasing in M."""
    M = ctx.convert(M)
    return airy_limit_constant(ctx, a1p) / ((M + 2) * (M + 2))


@formula
def interpolation_margin(ctx, y, a1p=None):
    """(1 - c0 y^2/12)^3 - (1 - y)^2 at y = 1/(M + 2): nonnegative on [0, 1/2] exactly when
    c0/(M + 2)^2 satisfies the interpolation bound, i.e. 2E >= c0/(M+2)^2 follows from it."""
    y = ctx.convert(y)
    t = 1 - airy_limit_constant(ctx, a1p) * y * y / 12
    return t * t * t - (1 - y) * (1 - y)


@formula
def interpolation_margin_slope(ctx, y, a1p=None):
    """Q(y) = 2 - (1 + c0/4) y + c0^2 y^3/48 - c0^3 y^5/1728: :func:`interpolation_margin`
    divided by y (the margin vanishes at y = 0), positive on [0, 1/2]."""
    y = ctx.convert(y)
    c = airy_limit_constant(ctx, a1p)
    return 2 - (1 + c / 4) * y + c * c * y ** 3 / 48 - c ** 3 * y ** 5 / 1728


@formula
def prior_mean_excess(ctx, rho):
    """3 rho/(1 - rho): the mean of j for the prior pi(N + j) = C(j+2, 2) (1-rho)^3 rho^j."""
    rho = ctx.convert(rho)
    return 3 * rho / (1 - rho)


@formula
def prior_shift_kl_bound(ctx, rho):
    """-log rho - (1 - rho) + (1 - rho)^3 log(1/(1 - rho))/rho >= KL(pi(. - 1) || pi) for the
    shape-3 negative binomial prior (KL = -log rho - E log(1 + 2/(J+1)) and
    log(1 + x) >= x - x^2/2); ~ (1 - rho)^2/2 as rho -> 1."""
    rho = ctx.convert(rho)
    e = 1 - rho
    return -ctx.log(rho) - e - e * e * e * ctx.log(e) / rho


@formula
def assembled_bound(ctx, N, r, q, rho, a1p=None):
    """kappa(q) c0 / (r (N + 3 rho/(1-rho)) + 2q/(1-q^2) + 2)^2 - KL bound of the prior: a lower
    bound on v(N+1) (hence on v(N)) for every admissible mechanism at error level r, every
    N >= 1, 0 < q < 1 and 0 < rho < 1."""
    N, r = ctx.convert(N), ctx.convert(r)
    M = r * (N + prior_mean_excess(ctx, rho)) + discrete_laplace_mean_abs(ctx, q) + 2
    return (one_sided_constant(ctx, q) * airy_limit_constant(ctx, a1p) / (M * M)
            - prior_shift_kl_bound(ctx, rho))


@formula
def assembled_limit(ctx, r, eps, q, a1p=None):
    """kappa(q) c0/(1 + eps)^2 - 9 r^2/(2 eps^2): the limit of r^2 N^2 times
    :func:`assembled_bound` as N -> inf with 3 rho/(1 - rho) = eps N; it tends to c0 as r -> 0,
    then eps -> 0 and q -> 1."""
    r, eps = ctx.convert(r), ctx.convert(eps)
    return (one_sided_constant(ctx, q) * airy_limit_constant(ctx, a1p) / ((1 + eps) * (1 + eps))
            - 9 * r * r / (2 * eps * eps))
