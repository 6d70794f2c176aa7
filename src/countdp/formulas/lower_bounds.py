"""Closed forms of the lower bounds (Section 6) and of the small-r coefficients (Section 8,
Table 2), each written once.

Chains (Lemma 6.1): the group-privacy bound alpha k^2 rho.
Two counts (Proposition 6.2): ``C_r = ((1+3r)/(1-r))^2``, ``m = ceil(C_r n)``,
``q = sqrt(m/n)``; the Markov sum ``r(q+1)/(q-1)``; the bound (14) and its limit (15).
Many counts (Lemma 6.3, Theorem 6.4, Corollaries 6.5 and 6.7): the information bounds (17),
(22), (19); the uniform prior (23)-(25); fine quantization (26)-(28) and its explicit
remainders; the truncated-Gaussian prior (29)-(31).

The two-count bound is rational in r: ``m`` is always computed exactly (exact rational
arithmetic for a rational r -- a float is taken at its exact binary value -- and a decided
ceiling for a ball), and so is ``(1 - r)^2``; the quotient is then evaluated in the caller's
number system (in float64 it is rounded at most twice: :data:`TWO_COUNT_BOUND_FP_RTOL`).
"""

from __future__ import annotations

import math

import numpy as np

from ..numerics.contexts import ExactContext, exact, formula

# ---------------------------------------------------------------------------------------------
# Chains: Lemma 6.1
# ---------------------------------------------------------------------------------------------


@formula
def group_privacy_bound(ctx, alpha, k, rho):
    """Lemma 6.1: along a chain of k edges, each rho-zCDP in both directions, the end laws have
    max(D_alpha(P_0||P_k), D_alpha(P_k||P_0)) <= alpha k^2 rho."""
    k = ctx.convert(k)
    return ctx.convert(alpha) * k * k * ctx.convert(rho)


# ---------------------------------------------------------------------------------------------
# Two counts: Proposition 6.2
# ---------------------------------------------------------------------------------------------


@formula
def two_count_ratio_root(ctx, r):
    """Proof of Proposition 6.2: q0 = sqrt(C_r) = (1 + 3r)/(1 - r), the smallest q = sqrt(m/n) at
    which the Markov sum r (q + 1)/(q - 1) reaches (1 + r)/2."""
    r = ctx.convert(r)
    return (1 + 3 * r) / (1 - r)


@formula
def two_count_ratio(ctx, r):
    """Proposition 6.2: C_r = ((1 + 3r)/(1 - r))^2."""
    return two_count_ratio_root(ctx, r) ** 2


@formula
def two_count_ratio_excess(ctx, r):
    """Proof of Proposition 6.2: C_r - 1 = 8 r (1 + r)/(1 - r)^2."""
    r = ctx.convert(r)
    return 8 * r * (1 + r) / (1 - r) ** 2


@formula
def two_count_partner(ctx, n, r):
    """Proposition 6.2: the partner count m = ceil(C_r n) of n (exact in ``exact`` and decided in
    ``ball``; a float ceiling in mp/fp is only as good as the rounding of C_r n)."""
    return ctx.ceil(two_count_ratio(ctx, r) * n)


class _ExactCounts(ExactContext):
    """Exact rationals, with an array of counts as an object array of exact integers: the
    partner formula runs once over every count (its one body, so a patched body reaches the
    array evaluation too), and each ceiling or floor is taken exactly."""

    name = "exact (array of counts)"

    def convert(self, x):
        if isinstance(x, np.ndarray):
            return x.astype(object)
        return super().convert(x)

    def ceil(self, x):
        if isinstance(x, np.ndarray):
            return np.array([math.ceil(v) for v in x.ravel()], dtype=np.int64).reshape(x.shape)
        return super().ceil(x)

    def floor(self, x):
        if isinstance(x, np.ndarray):
            return np.array([math.floor(v) for v in x.ravel()], dtype=np.int64).reshape(x.shape)
        return super().floor(x)


_EXACT_COUNTS = _ExactCounts()


def exact_partner(ctx, n, r) -> int:
    """m = ceil(C_r n) as an exact integer: by rational arithmetic when r is rational (int,
    Fraction, decimal string, float or mpf at their exact values), otherwise (r a ball) by a
    decided ceiling in ``ctx``.  An array of counts gives an int64 array."""
    if isinstance(n, np.ndarray):
        try:
            return two_count_partner(_EXACT_COUNTS, np.asarray(n, dtype=np.int64).astype(object), r)
        except TypeError:
            return np.array([exact_partner(ctx, int(k), r) for k in n.ravel()],
                            dtype=np.int64).reshape(n.shape)
    try:
        return int(two_count_partner(exact, n, r))
    except TypeError:
        return int(two_count_partner(ctx, n, r).unique_fmpz())


#: relative rounding error of ``two_count_bound.fp`` while ceil(C_r n) - n < 2^26: (1 - r)^2 is
#: exact and rounded once to float64, 2 (m - n)^2 is then exact, and one division rounds again.
TWO_COUNT_BOUND_FP_RTOL = 3 * 2.0 ** -53


@formula
def two_count_bound(ctx, n, r):
    """eq (14): v(n) >= (1 - r)^2 / (2 (ceil(C_r n) - n)^2) for every admissible mechanism
    (m and, for a rational r, (1 - r)^2 exact; the quotient in ``ctx``)."""
    gap = ctx.convert(exact_partner(ctx, n, r) - n)
    try:
        numerator = ctx.convert((1 - exact.convert(r)) ** 2)  # rational r: rounded once
    except TypeError:
        numerator = (1 - ctx.convert(r)) ** 2
    return numerator / (2 * gap * gap)


@formula
def two_count_threshold(ctx, n, m):
    """Proof of Proposition 6.2: the test threshold t = sqrt(m n) = n q, q = sqrt(m/n)."""
    return ctx.sqrt(ctx.convert(n) * ctx.convert(m))


@formula
def two_count_limit(ctx, r):
    """eq (15): liminf n^2 v(n) >= (1 - r)^6 / (128 r^2 (1 + r)^2)."""
    r = ctx.convert(r)
    return (1 - r) ** 6 / (128 * r * r * (1 + r) ** 2)


@formula
def two_count_limit_remainder(ctx, n, r):
    """An explicit bound on (15) - n^2 (14) >= 0: since m - n = (C_r - 1) n + theta with
    0 <= theta < 1, n^2 (14) lies in ((1-r)^2 / (2 (C_r - 1 + 1/n)^2), (15)]."""
    r = ctx.convert(r)
    low = (1 - r) ** 2 / (2 * (two_count_ratio_excess(ctx, r) + 1 / ctx.convert(n)) ** 2)
    return two_count_limit(ctx, r) - low


@formula
def markov_sum(ctx, r, q):
    """Proof of Proposition 6.2: with m = n q^2 and the threshold t = n q, the two Markov bounds
    r n/(t - n) + r m/(m - t) add up to r (q + 1)/(q - 1)."""
    r, q = ctx.convert(r), ctx.convert(q)
    return r * (q + 1) / (q - 1)


@formula
def markov_exceedance(ctx, n, t, r):
    """Markov's inequality in the proof of Proposition 6.2: P_n(Y > t) <= E|Y - n|/(t - n)
    <= r n/(t - n) for t > n."""
    n = ctx.convert(n)
    return ctx.convert(r) * n / (ctx.convert(t) - n)


@formula
def markov_shortfall(ctx, m, t, r):
    """Markov's inequality in the proof of Proposition 6.2: P_m(Y <= t) <= r m/(m - t) for t < m."""
    m = ctx.convert(m)
    return ctx.convert(r) * m / (m - ctx.convert(t))


@formula
def markov_sum_limit(ctx, r):
    """Proof of Proposition 6.2: the Markov sum must stay at most (1 + r)/2, so that the test
    {Y > t} separates P_n from P_m by 1 - (1 + r)/2 (eq 16)."""
    return (1 + ctx.convert(r)) / 2


@formula
def total_variation_floor(ctx, r):
    """eq (16): d_TV(P_n, P_m) >= 1 - (1 + r)/2 = (1 - r)/2."""
    return (1 - ctx.convert(r)) / 2


@formula
def pinsker_kl_floor(ctx, tv):
    """Pinsker's inequality: KL >= 2 d_TV^2."""
    tv = ctx.convert(tv)
    return 2 * tv * tv


@formula
def gaussian_shift_total_variation(ctx, delta, s):
    """Proof of Proposition 6.2 on the shifted log-Gaussian mechanism: d_TV(N(mu, s^2),
    N(mu + delta, s^2)) = 2 Phi(|delta|/(2s)) - 1 (the densities cross at the midpoint)."""
    return 2 * ctx.ncdf(abs(ctx.convert(delta)) / (2 * ctx.convert(s))) - 1


@formula
def laplace_shift_total_variation(ctx, delta, b):
    """Proof of Proposition 6.2 on the log-Laplace mechanism: d_TV(Laplace(mu, b),
    Laplace(mu + delta, b)) = 1 - exp(-|delta|/(2b))."""
    return -ctx.expm1(-abs(ctx.convert(delta)) / (2 * ctx.convert(b)))


# ---------------------------------------------------------------------------------------------
# Many counts: Lemma 6.3 and Theorem 6.4
# ---------------------------------------------------------------------------------------------


@formula
def information_floor(ctx, entropy, abs_error):
    """eq (17): I(J; Y) >= H(J) - log(2e(D + 1/4)) for an estimator with E|J - Jt(Y)| = D."""
    return ctx.convert(entropy) - ctx.log(2 * ctx.e * (ctx.convert(abs_error) + ctx.fraction(1, 4)))


@formula
def utility_information_floor(ctx, entropy, mean, n, r):
    """eq (22): I(J; Y) >= H(J) - log(2e(r(n + EJ) + 1/4)) for a mechanism meeting eq (2)."""
    d = ctx.convert(r) * (ctx.convert(n) + ctx.convert(mean))
    return ctx.convert(entropy) - ctx.log(2 * ctx.e * (d + ctx.fraction(1, 4)))


@formula
def many_count_bound(ctx, entropy, mean, second_moment, n, r):
    """eq (19): v(n) >= [H(J) - log(2e(r(n + EJ) + 1/4))]_+ / E(J - j*)^2."""
    d = ctx.convert(r) * (ctx.convert(n) + ctx.convert(mean))
    bracket = ctx.convert(entropy) - ctx.log(2 * ctx.e * (d + ctx.fraction(1, 4)))
    return ctx.pos(bracket) / ctx.convert(second_moment)


@formula
def laplace_entropy(ctx, d):
    """Lemma 6.3: the largest entropy of a law with E|W| = d, log(2 e d) (the Laplace law)."""
    return ctx.log(2 * ctx.e * ctx.convert(d))


@formula
def gaussian_entropy_at_abs_mean(ctx, d):
    """Lemma 6.3, comparison: the entropy log(pi d) + 1/2 of N(0, s^2) with E|W| = d
    (s = d sqrt(pi/2)), below log(2 e d)."""
    return ctx.log(ctx.pi * ctx.convert(d)) + ctx.fraction(1, 2)


@formula
def uniform_entropy_at_abs_mean(ctx, d):
    """Lemma 6.3, comparison: the entropy log(4 d) of the uniform law on [-2d, 2d] (E|W| = d),
    below log(2 e d)."""
    return ctx.log(4 * ctx.convert(d))


@formula
def dither_abs_mean(ctx):
    """Lemma 6.3: E|U| = 1/4 for the dither U uniform on [-1/2, 1/2] (the 1/4 of eq 17)."""
    return ctx.fraction(1, 4)


# ---------------------------------------------------------------------------------------------
# Corollary 6.5: the uniform prior
# ---------------------------------------------------------------------------------------------


@formula
def uniform_prior_bound(ctx, n, K, r):
    """eq (23): v(n) >= 12/(K^2 - 1) [log(K / (2e(r(n + (K-1)/2) + 1/4)))]_+ for odd K >= 3."""
    K = ctx.convert(K)
    d = ctx.convert(r) * (ctx.convert(n) + (K - 1) / 2) + ctx.fraction(1, 4)
    return 12 * ctx.pos(ctx.log(K / (2 * ctx.e * d))) / (K * K - 1)


@formula
def uniform_prior_tail(ctx, K, r):
    """An upper bound on eq (23) at every odd K' >= K (any n): 12/(K^2 - 1) decreases and
    r(n + (K'-1)/2) + 1/4 > r (K'-1)/2, so the bracket is below log(2K'/(2e r (K'-1))), which
    decreases in K'; hence (23) <= 12/(K^2 - 1) [log(K/(e r (K - 1)))]_+."""
    K = ctx.convert(K)
    return 12 * ctx.pos(ctx.log(K / (ctx.e * ctx.convert(r) * (K - 1)))) / (K * K - 1)


@formula
def uniform_prior_limit(ctx, a, r):
    """eq (24): liminf r^2 n^2 v(n) >= (12/a^2) [log(a / (2e(1 + a r/2)))]_+ for K_n/(r n) -> a
    (r = 0: the small-r template (12/a^2)[log(a/(2e))]_+ whose maximum is eq 25)."""
    a, r = ctx.convert(a), ctx.convert(r)
    return 12 * ctx.pos(ctx.log(a / (2 * ctx.e * (1 + a * r / 2)))) / (a * a)


@formula
def uniform_prior_limit_slope(ctx, a):
    """The derivative of eq (24) at r = 0 where its bracket is positive (a > 2e):
    (12/a^3)(1 - 2 log(a/(2e)))."""
    a = ctx.convert(a)
    return 12 / a ** 3 * (1 - 2 * ctx.log(a / (2 * ctx.e)))


@formula
def uniform_prior_best_scale(ctx):
    """eq (25): the maximiser a = 2 e^{3/2} of (12/a^2) log(a/(2e))."""
    return 2 * ctx.exp(ctx.fraction(3, 2))


@formula
def uniform_prior_constant(ctx):
    """eq (25) and Table 2: the maximum 3/(2 e^3) of (12/a^2) log(a/(2e))."""
    return 3 / (2 * ctx.e ** 3)


@formula
def uniform_over_two_count(ctx):
    """Section 6: (3/(2e^3)) / (1/128) = 192/e^3 (about 9.56)."""
    return 192 / ctx.e ** 3


# ---------------------------------------------------------------------------------------------
# Lemma 6.6: fine quantization Q_S = round(S Z)
# ---------------------------------------------------------------------------------------------


@formula
def quantized_entropy(ctx, S, entropy):
    """eq (26): H(Q_S) = log S + h(Z) + o(1); the main term log S + h(Z)."""
    return ctx.log(ctx.convert(S)) + ctx.convert(entropy)


@formula
def quantized_mean(ctx, S, mean):
    """eq (27): E Q_S = S E Z + O(1); the main term S E Z."""
    return ctx.convert(S) * ctx.convert(mean)


@formula
def quantized_second_moment(ctx, S, second_moment):
    """eq (28): E Q_S^2 = S^2 E Z^2 + O(S); the main term S^2 E Z^2."""
    S = ctx.convert(S)
    return S * S * ctx.convert(second_moment)


@formula
def quantized_mean_remainder(ctx):
    """Proof of Lemma 6.6: the O(1) of eq (27) is at most 1/2, since |Q_S - S Z| <= 1/2."""
    return ctx.fraction(1, 2)


@formula
def quantized_second_moment_remainder(ctx, S, zmax):
    """Proof of Lemma 6.6: the O(S) of eq (28) is at most S max|Z| + 1/4, since with
    Q_S = S Z + Delta, |Delta| <= 1/2, |2 S Z Delta + Delta^2| <= S max|Z| + 1/4."""
    return ctx.convert(S) * ctx.convert(zmax) + ctx.fraction(1, 4)


# ---------------------------------------------------------------------------------------------
# Corollary 6.7: the truncated Gaussian prior
# ---------------------------------------------------------------------------------------------


@formula
def truncated_normal_mass(ctx, a, b):
    """P(a <= N(0,1) <= b) = Phi(b) - Phi(a)."""
    return ctx.ncdf_diff(a, b)


@formula
def truncated_normal_mean(ctx, a, b):
    """E Z for Z = N(0,1) conditioned on [a, b]: (phi(a) - phi(b)) / (Phi(b) - Phi(a))."""
    return (ctx.npdf(a) - ctx.npdf(b)) / ctx.ncdf_diff(a, b)


@formula
def truncated_normal_variance(ctx, a, b):
    """Var Z for Z = N(0,1) conditioned on [a, b]: 1 + (a phi(a) - b phi(b))/M - (E Z)^2 with
    M = Phi(b) - Phi(a); on [-L, L] it is tau_L^2 = 1 - 2 L phi(L)/(2 Phi(L) - 1)."""
    a, b = ctx.convert(a), ctx.convert(b)
    mean = truncated_normal_mean(ctx, a, b)
    return 1 + (a * ctx.npdf(a) - b * ctx.npdf(b)) / ctx.ncdf_diff(a, b) - mean * mean


@formula
def truncated_normal_entropy(ctx, a, b):
    """h(Z) for Z = N(0,1) conditioned on [a, b]: log(sqrt(2 pi e) M) + (a phi(a) - b phi(b))/(2M)
    with M = Phi(b) - Phi(a); on [-L, L] it is h_L."""
    a, b = ctx.convert(a), ctx.convert(b)
    M = ctx.ncdf_diff(a, b)
    return ctx.log(ctx.sqrt(2 * ctx.pi * ctx.e) * M) + (a * ctx.npdf(a) - b * ctx.npdf(b)) / (2 * M)


@formula
def standard_normal_entropy(ctx):
    """Corollary 6.7: h(N(0,1)) = log(2 pi e)/2, the limit of h_L as L -> infinity."""
    return ctx.log(2 * ctx.pi * ctx.e) / 2


@formula
def gaussian_prior_bracket(ctx, x, entropy):
    """The bracket of eq (30) at r = 0: log x + h - log(2e)."""
    return ctx.log(ctx.convert(x)) + ctx.convert(entropy) - ctx.log(2 * ctx.e)


@formula
def gaussian_prior_bound(ctx, x, entropy, variance, L, r):
    """eq (30): [log x + h - log(2e) - log(1 + L x r)]_+ / (x^2 tau^2) for a prior of entropy h and
    variance tau^2 on [-L, L] (r = 0: its small-r template)."""
    x = ctx.convert(x)
    bracket = gaussian_prior_bracket(ctx, x, entropy) - ctx.log(1 + ctx.convert(L) * x * ctx.convert(r))
    return ctx.pos(bracket) / (x * x * ctx.convert(variance))


@formula
def gaussian_prior_best_scale(ctx, entropy):
    """Corollary 6.7: the optimal scale x = 2 e^{3/2 - h}, where the bracket of eq (30) is 1/2."""
    return 2 * ctx.exp(ctx.fraction(3, 2) - ctx.convert(entropy))


@formula
def prior_coefficient(ctx, entropy, variance):
    """eq (31): the value e^{2h} / (8 e^3 tau^2) of eq (30) at its optimal scale (r -> 0)."""
    return ctx.exp(2 * ctx.convert(entropy)) / (8 * ctx.e ** 3 * ctx.convert(variance))


@formula
def gaussian_prior_constant(ctx):
    """eq (29) and Table 2: pi/(4 e^2) = e^{2h}/(8 e^3) at the Gaussian h = log(2 pi e)/2."""
    return ctx.pi / (4 * ctx.e ** 2)


@formula
def gaussian_prior_constant_remainder(ctx, L):
    """A bound on |eq (31) at [-L, L] - pi/(4e^2)|, valid while u = 2 L phi(L)/Z < 1
    (Z = 2 Phi(L) - 1; L >= 1 suffices): eq (31)/(pi/(4e^2)) = Z^2 e^{-u}/(1 - u) and
    1 <= e^{-u}/(1 - u) <= 1 + u^2/(2(1 - u)), so the ratio minus 1 lies in
    [Z^2 - 1, u^2/(2(1 - u))]."""
    L = ctx.convert(L)
    Z = truncated_normal_mass(ctx, -L, L)
    u = 2 * L * ctx.npdf(L) / Z
    return gaussian_prior_constant(ctx) * ctx.maximum(1 - Z * Z, u * u / (2 * (1 - u)))


# ---------------------------------------------------------------------------------------------
# Section 8: the two-count template and Table 2
# ---------------------------------------------------------------------------------------------


@formula
def two_count_template(ctx, a, theta):
    """Section 8: (2/a^2) (1 - 1/(a theta (1 - theta)))_+^2, the small-r limit of the two-count
    argument with m - n = a r n and threshold n + theta (m - n); largest at theta = 1/2, a = 8."""
    a, theta = ctx.convert(a), ctx.convert(theta)
    bracket = ctx.pos(1 - 1 / (a * theta * (1 - theta)))
    return 2 * bracket * bracket / (a * a)


@formula
def two_count_constant(ctx):
    """Table 2: the two-count coefficient 1/128 (the r -> 0 limit of r^2 times eq 15)."""
    return ctx.fraction(1, 128)
