"""Where sup_alpha D_alpha/alpha sits for a swap-symmetric pair: D_alpha/alpha as a chord slope.

**The chord lemma.**  Let (P, Q) be a pair with an involution sigma of the outputs, P o sigma = Q
(k-RR: swap the values 0 and 1; discrete Laplace with shift Delta: k -> Delta - k; Laplace:
x -> eps - x).  With ``gamma = sqrt(p q)`` and ``L = log(p/q)`` (``gamma o sigma = gamma``,
``L o sigma = -L``), ``t = alpha - 1/2`` and ``w = t^2``::

    E_Q (p/q)^alpha = sum gamma e^{t L} = sum gamma cosh(t L) = G(w),
    G(w) = sum gamma cosh(sqrt(w) L) = sum_n mu_n w^n / (2n)!,   mu_n = sum gamma L^{2n},

``G(1/4) = sum (p + q)/2 = 1`` and ``alpha (alpha - 1) = w - 1/4``, so

    D_alpha / alpha = (log G(w) - log G(1/4)) / (w - 1/4):

the slope of the chord of ``log G`` from ``1/4`` to ``w``, the same in both directions (sigma).
If ``log G`` is concave on ``[1/4, inf)``, the slope is nonincreasing in w, i.e. in alpha > 1,
and ``sup_{alpha > 1} D_alpha/alpha = lim_{alpha -> 1} = (log G)'(1/4) = KL``.  Concavity means
``G'^2 - G G'' >= 0``, whose Taylor coefficients are

    T_N = (1/2) sum_{i + j = N} b_i b_j (N - (i - j)^2),    b_n = mu_n / (2n)!     (w^{N-2}),

(``T_0 = T_1 = 0``).  Sufficient: ``T_N >= 0`` for every ``N >= 2``.  The signs do not change when
L is rescaled, so the moments are taken of ``l = L/eps`` (and of gamma up to a positive factor).

**The families** (normalised moments; ``y = eps sqrt(w)``):

* k-RR: atoms ``l = +-1`` and ``l = 0`` (k - 2 outputs), ``G ~ cosh y + b``,
  ``b = (k-2) e^{-eps/2}/2`` (:func:`countdp.formulas.krr_chord_weight`): ``mu_0 = 1 + b``,
  ``mu_n = 1``, and ``4 T_N = (4^{N-1} - 2b(N-1))/(2N-1)!`` (:func:`krr_family_lemma`), which is
  ``>= 0`` for ``b <= 2`` because ``4^n >= 4n`` (n >= 1, induction).  For k <= 6, ``b < 2`` at
  every eps > 0: the KL is the tight rho.  Binary RR (b = 0) gives RAPPOR (a product of two binary
  RR pairs at eps/2: D_alpha adds) and discrete Laplace with Delta = 1 (b = 0) and Delta = 2
  (b = m/2 <= 1/2).
* Laplace: Mironov's ``E_Q (p/q)^alpha = e^{-eps/2} (cosh y + c sinh(y)/y)``, ``c = eps/2``
  (:func:`countdp.formulas.laplace_chord_weight`): ``mu_n = 1 + c/(2n+1)``, and
  ``4 T_N = 4^{N-1}/(2N-1)! + c 4^N (2N-2)/(2N+1)! + c^2 4^N (2N-2)/(2N+2)!`` (from
  ``sinh(2y)/2 - y``, ``y cosh 2y + 2y - (3/2) sinh 2y`` and ``(y/2) sinh 2y + y^2 - (cosh 2y - 1)``
  times ``y^{-3}``; :func:`laplace_family_lemma`): every coefficient ``>= 0`` for every c >= 0.
* Discrete Laplace with shift Delta: atoms ``l = 1 - 2j/Delta`` (j = 0..Delta) with masses 1 at the
  ends and ``m = 1 - e^{-eps/Delta}`` inside (:func:`countdp.formulas.discrete_laplace_chord_weight`),
  ``mu_n = 2 + m sum_{j=1}^{Delta-1} (1 - 2j/Delta)^{2n}``: :func:`discrete_laplace_lemma` decides
  ``T_N >= 0`` for m in [0, 1] (every eps > 0) and N <= N1 on balls, and for all N > N1 by
  (TAIL) below.

(TAIL)  If ``mu_n = M_e + e_n`` with ``0 <= e_n <= M_i lam^{2n}`` (``lam < 1``), then with
``|N - (i - j)^2| <= N^2`` and ``sum_j C(2N, 2j) x^{2j} = ((1+x)^{2N} + (1-x)^{2N})/2``::

    4^{-N} (2N)! T_N >= (N^2/2) [M_e^2/(4N) - M_e M_i (q_+^{2N} + q_-^{2N}) - M_i^2 lam^{2N}/2],

``q_+- = (1 +- lam)/2`` (the first term is T_N of ``mu_n = M_e``, ``M_e^2 4^{N-2}/(2N-1)!``).  Each
``N x^{2N}`` (x < 1) decreases once ``N >= 1/(2 log(1/x))``, so the bracket stays positive for every
N' >= N once it is at N and N is past those points (:func:`coefficient_tail`).

**Beyond the lemma: k-RR with b > 2** (k >= 7 at small eps).  With ``v = y^2`` and
``Psi(v) = log(cosh sqrt(v) + b)``, ``D_alpha/alpha = eps^2 S(v)``, ``S(v) = (Psi(v) - Psi(v0))/(v - v0)``,
``v0 = eps^2/4``.  ``Psi''`` has the sign of ``-P_b(y)``, ``P_b = sum_{j>=1} (4^j - 2bj) y^{2j+1}/(2j+1)!``,
whose coefficients change sign once: by Descartes' rule of signs (power series) P_b has one
positive zero y_c, so Psi is convex then concave.  ``S' = N(v)/(v - v0)^2`` with
``N = Psi'(v)(v - v0) - Psi(v) + Psi(v0)``, ``N(v0) = 0``, ``N' = Psi''(v)(v - v0)``: N rises until
v_c and falls after, so S has one maximiser v* (where ``N = 0`` and ``S = Psi'``), found by
bisection on the sign of N (:func:`krr_sup_bracket`).  The sup is ``eps^2 Psi'(v*)``; between a
point with N > 0 and one with N < 0 it is bracketed by ``S`` (below) and ``Psi'`` (above).

**Two-point pairs** (eta-bounded range; not swap-symmetric).  ``P = (p, 1-p)``, ``Q = (q, 1-q)``
with ``log(p/q) = c + eta``, ``log((1-p)/(1-q)) = c``: ``sum p^alpha q^{1-alpha} = e^{alpha c}(1 - q + q
e^{alpha eta})``, so with ``K(s) = log(1 - q + q e^s)`` (``c = -K(eta)``) and ``s = alpha eta``::

    (alpha - 1) D_alpha(P||Q) = K(s) - alpha K(eta),    D_alpha/alpha = eta^2 (J(s) - J(eta))/(s - eta),

``J = K/s``: a chord slope of J from eta.  ``J'' = g(s)/s^3`` with ``g = s^2 K'' - 2s K' + 2K``,
``g' = s^2 K^(3)``, and ``K^(3) = pi(1 - pi)(1 - 2pi)`` (``pi = sigma(r + logit q)``) is > 0 for
``r < -logit q`` and < 0 after: from ``g(0) = 0`` g rises then falls to ``2 log q < 0`` (``K ~ s + log q``),
so J is convex then concave with one inflection (concave throughout when q >= 1/2).  ``g(eta) < 0``: the sup is the
KL ``eta K'(eta) - K(eta)``; else :func:`two_point_sup_bracket` brackets it like k-RR.  The reverse
direction is the same family with ``q -> 1 - p`` (the high ratio is then on the other point).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from flint import arb, fmpq, fmpq_poly

from .. import formulas
from .ranges import RangeResult, bisect, split_at_midpoint, tally
from .verdicts import (Undecided, Verdict, decide_gt, decide_le, decide_lt, decided_sign, interval, to_arb,
                       verdict_all)

__all__ = ["chord_coefficient", "krr_family_lemma", "laplace_family_lemma", "coefficient_tail",
           "discrete_laplace_lemma", "chord_kl", "laplace_chord", "ChordSup", "krr_sup_bracket",
           "two_point_sup_bracket", "krr_threshold_bracket"]


def chord_coefficient(b: list, N: int):
    """T_N = (1/2) sum_{i+j=N} b_i b_j (N - (i-j)^2), in whatever ring the b_n live (fmpq_poly,
    arb); ``b`` must hold b_0 .. b_N.  The terms i and N - i are equal and taken once."""
    total = b[0] * b[N] * (N - N * N)
    for i in range(1, (N + 1) // 2):
        total += b[i] * b[N - i] * (N - (N - 2 * i) ** 2)
    if N % 2 == 0:
        total += b[N // 2] * b[N // 2] * N / 2
    return total


def _b_from_moments(mu, n_max: int) -> list:
    return [mu(n) / math.factorial(2 * n) for n in range(n_max + 1)]


def krr_family_lemma(n_terms: int = 40) -> Verdict:
    """k-RR (mu_0 = 1 + b, mu_n = 1): T_N(b) equals (4^{N-1} - 2b(N-1))/(4 (2N-1)!) exactly as a
    polynomial in b for N = 2..n_terms, and 4^{N-1} >= 4(N-1) there (so T_N >= 0 for b <= 2;
    every N by induction, module docstring)."""
    bvar = fmpq_poly([0, 1])
    b = _b_from_moments(lambda n: 1 + bvar if n == 0 else fmpq_poly([1]), n_terms)
    ok = True
    for N in range(2, n_terms + 1):
        closed = (4 ** (N - 1) - 2 * (N - 1) * bvar) / (4 * math.factorial(2 * N - 1))
        ok &= chord_coefficient(b, N) == closed and 4 ** (N - 1) >= 4 * (N - 1)
    return Verdict.PROVED_TRUE if ok else Verdict.UNDECIDED   # a failed step of a proof disproves nothing


def laplace_family_lemma(n_terms: int = 40) -> Verdict:
    """Laplace (mu_n = 1 + c/(2n+1)): T_N(c) equals the closed form of the module docstring
    exactly as a polynomial in c for N = 2..n_terms; its three coefficients are >= 0 for every N."""
    cvar = fmpq_poly([0, 1])
    b = _b_from_moments(lambda n: 1 + cvar / (2 * n + 1), n_terms)
    ok = True
    for N in range(2, n_terms + 1):
        f = math.factorial
        closed = (fmpq(4 ** (N - 1), f(2 * N - 1)) + cvar * fmpq(4 ** N * (2 * N - 2), f(2 * N + 1))
                  + cvar * cvar * fmpq(4 ** N * (2 * N - 2), f(2 * N + 2))) / 4
        ok &= chord_coefficient(b, N) == closed
    return Verdict.PROVED_TRUE if ok else Verdict.UNDECIDED


def coefficient_tail(M_e, M_i, lam, N: int) -> Verdict:
    """(TAIL): T_N > 0 for every N' >= N, decided at N (module docstring).  A failed condition
    is UNDECIDED (the argument is only sufficient)."""
    M_e, M_i, lam = to_arb(M_e), to_arb(M_i), to_arb(lam)
    xs = [x for x in ((1 + lam) / 2, (1 - lam) / 2, lam) if not x.is_zero()]
    conds = [decide_lt(N * (M_e * M_i * (((1 + lam) / 2) ** (2 * N) + ((1 - lam) / 2) ** (2 * N))
                            + M_i * M_i * lam ** (2 * N) / 2), M_e * M_e / 4)]
    conds += [decide_le(1 / (2 * (1 / x).log()), N) for x in xs]
    vd = verdict_all(conds)
    return Verdict.UNDECIDED if vd is Verdict.PROVED_FALSE else vd


def _bilinear(x: list, y: list, N: int) -> arb:
    """(1/2) sum_{i+j=N} x_i y_j (N - (i-j)^2)."""
    return sum((x[i] * y[N - i] * (N - (2 * i - N) ** 2) for i in range(N + 1)), arb(0)) / 2


def _interior_extent(Delta: int) -> arb:
    """lam = the largest |l| of an interior atom, 1 - 2/Delta (0 when there is none)."""
    return arb(0) if Delta <= 2 else 1 - arb(2) / Delta


def _tail_start(Delta: int, n_max: int) -> int:
    """The first N >= 2 at which (TAIL) holds for discrete Laplace with shift Delta (all m <= 1)."""
    lam = _interior_extent(Delta)
    for N in range(2, n_max + 1):
        if coefficient_tail(2, Delta - 1, lam, N) is Verdict.PROVED_TRUE:
            return N
    raise Undecided(f"(TAIL) does not hold below N = {n_max} for Delta = {Delta}")


def discrete_laplace_lemma(Delta: int, n_max: int = 2000) -> RangeResult:
    """Discrete Laplace with shift Delta: T_N(m) > 0 for every m in [0, 1] (every eps > 0) and every
    N >= 2 -- on balls for 2 <= N < N1 (m-boxes bisected when a ball is too wide), by (TAIL) from
    N1 on.  ``extra['N1']`` records N1."""
    Delta = int(Delta)
    if Delta < 1:
        raise ValueError(f"Delta must be >= 1, got {Delta}")
    N1 = _tail_start(Delta, n_max)
    atoms = [1 - arb(2 * j) / Delta for j in range(1, Delta)]
    fact = [arb(math.factorial(2 * n)) for n in range(N1 + 1)]
    b_end = [2 / fact[n] for n in range(N1 + 1)]
    b_in = [sum((l ** (2 * n) for l in atoms), arb(0)) / fact[n] for n in range(N1 + 1)]

    def rows():
        for N in range(2, N1):
            A, B, C = _bilinear(b_end, b_end, N), 2 * _bilinear(b_end, b_in, N), _bilinear(b_in, b_in, N)
            box = lambda bx: decide_gt(A + B * interval(bx[0], bx[1]) + C * interval(bx[0], bx[1]) ** 2, 0)
            res = bisect((arb(0), arb(1)), box, split_at_midpoint, 64)
            yield N, res.verdict
        yield "tail", coefficient_tail(2, Delta - 1, _interior_extent(Delta), N1)

    res = tally(rows(), note=f"Delta = {Delta}: T_N > 0 on m in [0, 1] for N < {N1} on balls, (TAIL) from {N1}")
    if res.verdict is Verdict.PROVED_FALSE:   # a negative coefficient only defeats the sufficient condition
        res.verdict = Verdict.UNDECIDED
    res.extra["N1"] = N1
    return res


def chord_kl(masses: list, atoms: list, eps) -> arb:
    """(log G)'(1/4) = KL for G(w) = sum_j masses_j cosh(eps sqrt(w) l_j) (the atoms l_j listed with
    their mirror images, or with the masses of both): eps sum m l sinh(eps l/2) / sum m cosh(eps l/2)."""
    e = to_arb(eps)
    num = sum((to_arb(m) * to_arb(l) * (e * to_arb(l) / 2).sinh() for m, l in zip(masses, atoms)), arb(0))
    den = sum((to_arb(m) * (e * to_arb(l) / 2).cosh() for m, l in zip(masses, atoms)), arb(0))
    return e * num / den


def laplace_chord(alpha, eps) -> tuple[arb, arb]:
    """The Laplace pair's chord function at order alpha: ((alpha - 1) D_alpha, KL) =
    (psi(y) - eps/2, eps psi'(eps/2)), psi(y) = log(cosh y + c sinh(y)/y), y = (alpha - 1/2) eps,
    c = formulas.laplace_chord_weight (psi(eps/2) = eps/2 exactly)."""
    e = to_arb(eps)
    c = formulas.laplace_chord_weight.ball(eps)

    def psi(y):
        g = y.cosh() + c * y.sinh() / y
        dg = y.sinh() + c * (y * y.cosh() - y.sinh()) / (y * y)
        return g.log(), dg / g

    z = psi((to_arb(alpha) - arb(1) / 2) * e)[0] - e / 2
    return z, e * psi(e / 2)[1]


@dataclass
class ChordSup:
    """Certified location of sup_{alpha > 1} D_alpha/alpha of one pair whose D_alpha/alpha is
    ``scale`` times the chord slope of a function F from x0 (module docstring)."""

    kl: arb                      # the limit alpha -> 1: scale F'(x0)
    at_one: bool                 # the sup is the KL (alpha -> 1); else the brackets below
    verdict: Verdict             # every step decided (for a finite maximiser: the sup exceeds the KL)
    alpha: tuple = ()            # (lo, hi) bracket of the maximiser alpha*
    sup: tuple = ()              # (lo, hi) bracket of the sup of D_alpha/alpha
    steps: int = 0


def _chord_max(F, x0: arb, scale: arb, to_alpha, rel_width, max_steps: int) -> ChordSup:
    """For F convex then concave on (x0, inf) with F'' > 0 just after x0 (the caller's proof): the
    chord slope S(x) = (F(x) - F(x0))/(x - x0) has one maximiser, the zero of
    N(x) = F'(x)(x - x0) - F(x) + F(x0) (N > 0 before, < 0 after), where S = F'.  Walk out from x0
    to a point with N < 0, bisect on the sign of N; the sup is bracketed by S at the two ends
    (below) and F' on the bracket (above)."""
    f0, df0 = F(x0)
    kl = scale * df0

    def sign_n(x: arb) -> int:
        f, df = F(x)
        n = df * (x - x0) - f + f0
        return decided_sign(n)

    lo = hi = None
    x = arb(x0.upper())
    for _ in range(max_steps):            # walk out to a point with N < 0
        x = arb((x * arb(5) / 4).upper())
        sg = sign_n(x)
        if sg < 0:
            hi = x
            break
        lo = x if sg > 0 else lo
    for j in range(1, max_steps if lo is None and hi is not None else 0):   # N > 0 closer to x0
        x = arb((x0 + (hi - x0) / 2 ** j).upper())
        if sign_n(x) > 0:
            lo = x
            break
    if lo is None or hi is None:
        return ChordSup(kl, False, Verdict.UNDECIDED)
    steps = 0
    while (hi - lo) > rel_width * lo and steps < max_steps:
        mid = arb(((lo + hi) / 2).mid())
        sg = sign_n(mid)
        if sg == 0:
            break
        lo, hi = (mid, hi) if sg > 0 else (lo, mid)
        steps += 1
    s_ends = [(F(x)[0] - f0) / (x - x0) for x in (lo, hi)]
    sup_lo = scale * arb(max(s_ends[0].lower(), s_ends[1].lower()))
    sup_hi = scale * arb(F(interval(lo, hi))[1].upper())
    return ChordSup(kl, False, decide_gt(sup_lo, kl), (to_alpha(lo), to_alpha(hi)), (sup_lo, sup_hi), steps)


def _psi(v: arb, b: arb) -> tuple[arb, arb]:
    """Psi(v) = log(cosh sqrt(v) + b) and Psi'(v) = sinh(y)/(2y (cosh y + b)), y = sqrt(v)."""
    y = v.sqrt()
    d = y.cosh() + b
    return d.log(), y.sinh() / (2 * y * d)


def _p_b(y: arb, b: arb) -> arb:
    """P_b(y) = sinh y cosh y - y - b (y cosh y - sinh y): Psi'' has the sign of -P_b."""
    return y.sinh() * y.cosh() - y - b * (y * y.cosh() - y.sinh())


def krr_sup_bracket(eps, k: int, rel_width=arb(2) ** -44, max_steps: int = 200) -> ChordSup:
    """Where sup_alpha D_alpha/alpha sits for k-RR at (eps, k): at alpha -> 1 when b <= 2 (the lemma)
    or P_b(eps/2) > 0 (Psi concave from v0 on); else (P_b(eps/2) < 0: Psi convex just after v0)
    brackets of alpha* and of the sup, D_alpha/alpha = eps^2 S(v), alpha = sqrt(v)/eps + 1/2."""
    e = to_arb(eps)
    b = formulas.krr_chord_weight.ball(eps, k)
    y0 = e / 2
    F = lambda v: _psi(v, b)          # noqa: E731
    if decide_le(b, 2) is Verdict.PROVED_TRUE or decide_gt(_p_b(y0, b), 0) is Verdict.PROVED_TRUE:
        return ChordSup(e * e * F(y0 * y0)[1], True, Verdict.PROVED_TRUE)
    if decide_lt(_p_b(y0, b), 0) is not Verdict.PROVED_TRUE:
        return ChordSup(e * e * F(y0 * y0)[1], False, Verdict.UNDECIDED)
    return _chord_max(F, y0 * y0, e * e, lambda v: v.sqrt() / e + arb(1) / 2, rel_width, max_steps)


def _two_point_k(s: arb, q: arb) -> tuple[arb, arb, arb]:
    """K(s) = log(1 - q + q e^s), K' = pi, K'' = pi (1 - pi) (pi = q e^s/(1 - q + q e^s))."""
    d = 1 - q + q * s.exp()
    pi = q * s.exp() / d
    return d.log(), pi, pi * (1 - pi)


def _two_point_j(s: arb, q: arb) -> tuple[arb, arb]:
    """J(s) = K(s)/s and J'(s) = (s K' - K)/s^2."""
    k, dk, _ = _two_point_k(s, q)
    return k / s, (s * dk - k) / (s * s)


def two_point_sup_bracket(q, eta, rel_width=arb(2) ** -44, max_steps: int = 200) -> ChordSup:
    """Where sup_alpha D_alpha(P||Q)/alpha sits for the two-point pair with log-likelihood ratios
    c + eta (Q-mass q) and c (module docstring): at alpha -> 1 if g(eta) < 0 (J concave from eta on),
    else brackets, D_alpha/alpha = eta^2 S(s), alpha = s/eta."""
    q, e = to_arb(q), to_arb(eta)
    k, dk, ddk = _two_point_k(e, q)
    g = e * e * ddk - 2 * e * dk + 2 * k
    F = lambda s: _two_point_j(s, q)          # noqa: E731
    kl = e * e * F(e)[1]
    if decide_lt(g, 0) is Verdict.PROVED_TRUE:
        return ChordSup(kl, True, Verdict.PROVED_TRUE)
    if decide_gt(g, 0) is not Verdict.PROVED_TRUE:
        return ChordSup(kl, False, Verdict.UNDECIDED)
    return _chord_max(F, e, e * e, lambda s: s / e, rel_width, max_steps)


def _at_one_sign(eps, k: int) -> int:
    """+1 if the sup of k-RR sits at alpha -> 1 at eps (b <= 2 or P_b(eps/2) > 0 decided), -1 if it
    does not (P_b(eps/2) < 0), 0 undecided."""
    e, b = to_arb(eps), formulas.krr_chord_weight.ball(eps, k)
    if b <= 2:
        return 1
    p = _p_b(e / 2, b)
    return decided_sign(p)


def krr_threshold_bracket(k: int, lo="0.001", hi="20", steps: int = 40):
    """For k >= 7: (eps_lo, eps_hi) with the sup at a finite alpha at eps_lo and at alpha -> 1 at
    eps_hi, bisected ``steps`` times.  The set of eps where the sup is at alpha -> 1 is an interval
    [eps_k, inf) (module docstring: b decreases and y0 = eps/2 grows with eps, and P_b has one
    positive zero), so eps_k lies in the bracket.  None when the ends are not decided as expected."""
    lo, hi = arb(lo), arb(hi)
    if _at_one_sign(lo, k) != -1 or _at_one_sign(hi, k) != 1:
        return None
    for _ in range(steps):
        mid = arb((lo * hi).sqrt().mid())
        sg = _at_one_sign(mid, k)
        if sg == 0:
            break
        lo, hi = (lo, mid) if sg > 0 else (mid, hi)
    return lo, hi
