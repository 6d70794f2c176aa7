"""The Airy log-mechanism: the shifted-log release with Airy noise (beyond the paper: the C*
research note).

    Y = [ (n + c) exp(b X + t) - c ]_+ ,     X ~ f(x) = Ai(|x| + a1')^2 / Z,

X the *standard* Airy law of :mod:`countdp.laws.airy` (symmetric, unit "scale": E|X| = m =
2|a1'|/3 ~ 0.6792, Fisher information I_X = 4|a1'|/3 ~ 1.3584, E X^2 = 1/(5|a1'|) + 8 a1'^2/15
~ 0.7498; :mod:`countdp.formulas.airy`), which is the least-Fisher-information law at fixed
E|X|.  In ``w = log(Y + c)`` the unclipped release is ``w = log(n + c) + t + b X``: neighbouring
counts give translates by ``delta_n = log((n + c)/(n - 1 + c))`` (Section 5's log gap,
``formulas.log_gap``), and clipping/rounding is postprocessing.

Calibration (the analogue of eq (3) and of the drift -sigma^2 of Section 4.1).  The drift t
minimises ``e(b, t) = E|exp(b X + t) - 1|``; its t-derivative is
``E[e^{bX+t} sign(e^{bX+t} - 1)] = e^t E[e^{bX} sign(X - k)]`` with ``k = -t/b``, so the minimiser
makes k the *median of the exponentially tilted law* ``e^{bx} f(x) / E e^{bX}``, and there the
e^t-bracket of e(b, t) vanishes, leaving the minimal error ``2 F(k) - 1`` (F the cdf of X).
Hence "minimal error = rho := r0/(1+c)" is equivalent to

    k = q(rho) := F^{-1}((1 + rho)/2)     and     H(b) := E[expm1(b X) sign(X - q)] = rho,

(``E[sign(X - q)] = -rho`` was moved to the right; no cancellation at small rho), one root-find in
b (:func:`calibrate`), then ``t = -b q`` (``formulas.airy_drift``).  Independent routes for the checks:
:func:`optimal_drift` (Newton on the t-derivative by quadrature) and :func:`airy_drift_error`
(quadrature of |exp(bX+t) - 1|).  Small rho: ``b = rho/m (1 + O(rho^2))``, ``t ~ -b^2 m/(2 f(0))``.

Budget.  ``v(n) = sup_{alpha > 1} D_alpha(f || f(. - Delta)) / alpha`` with ``Delta = delta_n / b``
(both directions are equal: f is even), ``v(0) = v(1)``: the library's sup-over-alpha engine
(:func:`countdp.divergence.tight_rho.tight_rho`) on the standardised location pair, whose
evaluator (:mod:`countdp.divergence.location`) folds the line for a cancellation-free float64
scan and bounds the orders beyond the scan by the score CGF.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import mpmath
from mpmath import mp
import numpy as np

from .. import formulas
from ..divergence.tight_rho import TightRho, mp_renyi, tight_rho
from ..laws import ClippedAtZero, ContinuousLaw, LogShiftDensity, airy
from ..numerics import validate
from ..numerics.estimate import Estimate, at_two_precisions
from ..numerics.precision import FLOAT_DPS, at_dps, guard_digits
from ..numerics.quadrature import GL16, panel_nodes
from .count import CountMechanism, stochastic_round

__all__ = [
    "Calibration", "calibrate", "error_quantile", "TiltBalance", "tilt_balance", "airy_drift_error",
    "airy_drift_error_derivative", "OptimalDrift", "optimal_drift",
    "LogShiftedAiryDensity", "LogShiftedAiry", "ClippedLogShiftedAiry", "AiryLogMechanism",
    "standard_shift_pair",
]


def _rho(r0, c):
    return mpmath.mpf(r0) / (1 + mpmath.mpf(c))


# ============================================================================================
# Calibration
# ============================================================================================


def error_quantile(rho):
    """q(rho) = F^{-1}((1 + rho)/2): the point with 2 F(q) - 1 = P(|X| <= q) = rho (0 < rho < 1).
    Newton on ``2 int_0^q f - rho`` (no cancellation at small rho), float start airy.ppf."""
    rho = mpmath.mpf(validate.real("rho", rho, lo=0, hi=1))
    q = mpmath.mpf(float(airy.ppf(0.5 + float(rho) / 2)))
    if q <= 0:
        q = rho / (2 * airy.mp_pdf(0))
    for _ in range(60):
        mass = 2 * mpmath.quad(airy.mp_pdf, [0, q]) if q < 1 else 1 - 2 * airy.mp_sf(q)
        step = (mass - rho) / (2 * airy.mp_pdf(q))
        q -= step
        if abs(step) <= 4 * mpmath.eps * abs(q):
            break
    return q


@dataclass(frozen=True)
class TiltBalance:
    """H(b) = E[expm1(b X) sign(X - q)] and its b-derivative H'(b) = E[X e^{bX} sign(X - q)]."""

    value: Estimate
    slope: Estimate


def tilt_balance(b, q, error=True) -> TiltBalance:
    """H(b) and H'(b) (see :class:`TiltBalance`) by composite Gauss-Legendre at the current
    precision (mpmath.quad when |b| is too large for the grid's window); ``error``: estimate the
    quadrature errors (else 0)."""
    b, q = mpmath.mpf(b), mpmath.mpf(q)
    grid = airy.mp_gauss_legendre(mp.prec)
    if grid.tail_ok(b):
        h, d = grid.tilted_sign_moments(b, q, error=error)
        return TiltBalance(h, d)

    def sgn(x):
        return 1 if x > q else -1

    return TiltBalance(airy.mp_expect(lambda x: mpmath.expm1(b * x) * sgn(x), [q]),
                       airy.mp_expect(lambda x: x * mpmath.exp(b * x) * sgn(x), [q]))


@dataclass(frozen=True)
class Calibration:
    """The calibrated scale and drift for error target rho = r0/(1+c).

    ``b``: noise scale; ``t``: drift (= -b q); ``q``: the error quantile F^{-1}((1+rho)/2) (the
    tilted median at the optimum); ``residual``: H(b) - rho at the returned b; ``error``: the
    quadrature error of H; ``b_error``: (|residual| + error)/H'(b), a bound on |b - b_exact| to
    first order.  mpmath numbers at ``dps`` digits."""

    rho: object
    b: object
    t: object
    q: object
    residual: object
    error: object
    b_error: object
    iterations: int
    dps: int


def _calibrate_float(rho: float, q: float) -> float:
    """Float64 start for the Newton iteration of :func:`calibrate`: H(b) = rho by Newton on
    Gauss-Legendre panels of [-32, 32] split at q."""
    edges = sorted(set(np.r_[np.arange(-32.0, 33.0, 0.5), q]))
    x, w = panel_nodes(edges, GL16)
    fw = np.exp(airy.logpdf(x)) * w
    sg = np.where(x > q, 1.0, -1.0)
    b = rho / float(formulas.airy_mean_abs.fp())
    # H(0) = 0 < rho; at large rho (q large) H first decreases, below 0, then grows past rho once:
    # H(b) <= rho means b is left of the root.  Newton where it stays inside that bracket (it
    # went backwards, to NaN, from the small-b start at rho = 0.999), else bisection/doubling.
    lo, hi = 0.0, math.inf
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(400):
            h = float(fw @ (np.expm1(b * x) * sg))
            d = float(fw @ (x * np.exp(b * x) * sg))
            if not math.isfinite(h) or h > rho:
                hi = b
            else:
                lo = b
            new = b - (h - rho) / d if math.isfinite(h) and math.isfinite(d) and d > 0 else math.nan
            if abs(new - b) < 1e-15 * b:   # converged: a step below an ulp can land on the end b
                return new                 # just set, which the bracket test below would reject
            if not lo < new < hi:
                new = (lo + hi) / 2 if math.isfinite(hi) else 2 * b
                if abs(new - b) < 1e-15 * b:
                    return new
            b = new
    return b


#: guard digits of the calibration: Newton's iteration in b must converge 3 digits past the
#: target, through quadratures of a tilted sign that cancel
CALIBRATION_GUARD_DIGITS = 10


@lru_cache(maxsize=256)
def _calibrate_cached(rho_str: str, dps: int) -> Calibration:
    """The calibration at ``dps`` digits (cached per precision: the argument is the cache key)."""
    with mp.workdps(dps):
        with guard_digits(CALIBRATION_GUARD_DIGITS):
            rho = mpmath.mpf(rho_str)
            q = error_quantile(rho)
            b = mpmath.mpf(_calibrate_float(float(rho), float(q)))
            it = 0
            for it in range(1, 60):
                tb = tilt_balance(b, q, error=False)
                step = (tb.value.value - rho) / tb.slope.value
                b -= step
                if abs(step) <= mpmath.mpf(10) ** (-(dps + 3)) * b:
                    break
            tb = tilt_balance(b, q)
            res = tb.value.value - rho
            berr = (abs(res) + tb.value.error) / tb.slope.value
        return Calibration(rho=+rho, b=+b, t=formulas.airy_drift(b, q), q=+q, residual=+res, error=+tb.value.error,
                           b_error=+berr, iterations=it, dps=dps)


def calibrate(rho, dps=None) -> Calibration:
    """Scale b and drift t with min_t E|exp(bX + t) - 1| = rho (see the module docstring):
    Newton in b on H(b) = rho at q = q(rho), then t = -b q, at the ambient precision (or ``dps``
    digits).  Cached per (rho, precision)."""
    rho = validate.real("rho", rho, lo=0, hi=1)
    with at_dps(dps):
        target = mp.dps
        with guard_digits(CALIBRATION_GUARD_DIGITS):
            key = mpmath.nstr(mpmath.mpf(rho), target + 8)
    return _calibrate_cached(key, target)


# ============================================================================================
# The drift by an independent route
# ============================================================================================


def airy_drift_error(b, t) -> Estimate:
    """e(b, t) = E|exp(b X + t) - 1| by mpmath quadrature (kink at x = -t/b)."""
    b = mpmath.mpf(validate.real("b", b, lo=0))
    t = mpmath.mpf(validate.real("t", t))
    return airy.mp_expect(lambda x: abs(mpmath.expm1(b * x + t)), [-t / b])


def airy_drift_error_derivative(b, t) -> Estimate:
    """d/dt E|exp(bX + t) - 1| = E[e^{bX+t} sign(bX + t)] by quadrature."""
    b = mpmath.mpf(validate.real("b", b, lo=0))
    t = mpmath.mpf(validate.real("t", t))
    k = -t / b
    return airy.mp_expect(lambda x: mpmath.exp(b * x + t) * (1 if x > k else -1), [k])


@dataclass(frozen=True)
class OptimalDrift:
    """The minimiser ``t`` of E|exp(bX + t) - 1|, the size ``step`` of Newton's last step, and the
    t-derivative at t (with its quadrature error)."""

    t: object
    step: object
    derivative: Estimate


def optimal_drift(b, t0=None, tol=None) -> OptimalDrift:
    """The minimiser t*(b) of E|exp(bX + t) - 1|, by Newton's method on the derivative
    D(t) = E[e^{bX+t} sign(bX+t)] (quadrature), with D'(t) = D(t) + 2 f(-t/b)/b (the sign jump
    at x = -t/b).  Start: t0 or the small-b value -b^2 m/(2 f(0))."""
    b = mpmath.mpf(validate.real("b", b, lo=0))
    t = mpmath.mpf(t0) if t0 is not None else -b * b * formulas.airy_mean_abs() / (2 * airy.mp_pdf(0))
    tol = mpmath.mpf(10) ** (-(mp.dps - 3)) * max(abs(t), b * b) if tol is None else mpmath.mpf(tol)
    step = mpmath.inf
    for _ in range(60):
        D = airy_drift_error_derivative(b, t).value
        step = D / (D + 2 * airy.mp_pdf(-t / b) / b)
        t -= step
        if abs(step) <= tol:
            break
    return OptimalDrift(t, abs(step), airy_drift_error_derivative(b, t))


# ============================================================================================
# Output laws (countdp.laws)
# ============================================================================================


class LogShiftedAiryDensity(LogShiftDensity):
    """Density of ``U = exp(W) - c`` with ``W = mu + b X`` (X standard Airy), restricted to
    ``U > lo`` (lo = -c: the whole law; lo = 0: the part left by clipping).  The log-shift
    coordinate ``w = log(u + c)`` and its bookkeeping come from ``countdp.laws.LogShiftDensity``.

    The noise is log-concave with a strictly sub-Gaussian score, K_s(u) < I u^2/2 with
    I = 4|a1'|/3 (certified in :mod:`countdp.arb.airy_score`), which closes the tight-rho
    bracket of two released laws (:mod:`countdp.divergence.noise_pair`)."""

    #: I = 4|a1'|/3 = 1.358390..., rounded up (a float above the certified constant)
    noise_score_subgaussian = 1.3584
    #: log f = 2 log Ai(|z| + a1') - log Z is C^2 at 0 (Ai'(a1') = 0, Ai'' = x Ai); its third
    #: derivative jumps there, from -2 to 2
    noise_kinks = (0,)

    def __init__(self, mu, b, c, lo=None, origin=None):
        super().__init__(mu, b, c, lo, scale_name="b", origin=origin)

    @property
    def b(self):
        return self.s

    def mp_noise_logpdf(self, z):
        return airy.mp_logpdf(z)

    def noise_logpdf(self, z):
        return airy.logpdf(z)

    def mp_noise_sf(self, z):
        return airy.mp_sf(z)

    def mp_noise_cdf(self, z):
        return airy.mp_cdf(z)


class LogShiftedAiry(ContinuousLaw):
    """The unclipped release ``U_n = exp(mu + b X) - c`` (mu = log(n + c) + t)."""

    def __init__(self, mu, b, c):
        self.mu, self.b, self.c = mpmath.mpf(mu), mpmath.mpf(b), mpmath.mpf(c)
        super().__init__(LogShiftedAiryDensity(mu, b, c), name="exp(mu + b X_Airy) - c")

    def mp_cdf(self, x):
        x = mpmath.mpf(x)
        if x <= -self.c:
            return mpmath.mpf(0)
        return airy.mp_cdf((mpmath.log(x + self.c) - self.mu) / self.b)

    def cdf(self, x):
        x = np.asarray(x, dtype=float)
        ok = x > -float(self.c)
        y = np.where(ok, x + float(self.c), 1.0)
        return np.where(ok, airy.cdf((np.log(y) - float(self.mu)) / float(self.b)), 0.0)

    def sample(self, rng, size):
        return np.exp(float(self.mu) + float(self.b) * airy.sample(rng, size)) - float(self.c)


class ClippedLogShiftedAiry(ClippedAtZero):
    """The released ``[U_n]_+``: atom ``P(U_n <= 0) = F((log c - mu)/b)`` at 0 plus U_n's
    density on ``(0, inf)`` (the construction of ``countdp.laws.ClippedAtZero``)."""

    def __init__(self, base: LogShiftedAiry):
        super().__init__(base, name="[exp(mu + b X_Airy) - c]_+")


# ============================================================================================
# The budget: the sup-over-alpha engine on the standardised location pair
# ============================================================================================


def standard_shift_pair(delta) -> tuple[airy.AiryLaw, airy.AiryLaw]:
    """(X, X + delta) for the standard Airy law X: a location pair of the engine."""
    delta = validate.real("delta", delta, lo=0, lo_open=False)
    return airy.AiryLaw(), airy.AiryLaw(t=delta)


SCAN_ALPHA_MIN = Fraction(1) + Fraction(1, 10**8)  # the budget scan starts at alpha - 1 = 1e-8
#: the shifts Delta the float64 budget engine handles (measured: 1e-150 gives v ~ 7e-301, 1e12 gives
#: v ~ 1.3e18; 1e13 overflows)
SHIFT_RANGE = (mpmath.mpf("1e-150"), mpmath.mpf("1e12"))


@lru_cache(maxsize=4096)
def _budget_at_shift(delta: float, points_per_decade: int) -> TightRho:
    """sup_alpha D_alpha(f || f(. - delta))/alpha by the engine: the float64 scan from
    alpha - 1 = 1e-8 to the order where the score-CGF bound is below the KL, no branch and bound
    (the curve is smooth; the scan and both ends are reported), the float64 value."""
    return tight_rho(standard_shift_pair(delta), alpha_min=SCAN_ALPHA_MIN, points_per_decade=points_per_decade,
                     refine=False, precise=False)


# ============================================================================================
# The mechanism
# ============================================================================================


class AiryLogMechanism(CountMechanism):
    """The Airy log-mechanism for ``0 < r0 < r <= 1`` (r optional) and ``c > 0``.

    ``drift``: None for the optimal drift t = -b q (the default); a number to build a perturbed
    mechanism (negative controls).  ``rho_override``: calibrate b to this error target instead
    of r0/(1+c) (negative controls only).  Laws: :meth:`unclipped_law`, :meth:`released_law`
    (clipping); stochastic rounding is available in :meth:`release` (postprocessing), not as an
    exact integer law."""

    def __init__(self, r0, c, r=None, drift=None, rho_override=None):
        super().__init__(r0, c, r)
        self._drift = None if drift is None else mpmath.mpf(validate.real("drift", drift))
        self._rho_override = None if rho_override is None else validate.real("rho_override", rho_override, lo=0, hi=1)

    def __repr__(self):
        return f"AiryLogMechanism(r0={self.r0!r}, c={self.c!r}, r={self.r!r})"

    # ---- calibration ------------------------------------------------------------------------
    @property
    def rho(self):
        """The error target r0/(1+c) (mpmath)."""
        if self._rho_override is not None:
            return mpmath.mpf(self._rho_override)
        return _rho(self.r0, self.c)

    def calibration(self) -> Calibration:
        return calibrate(self.rho)

    def mp_b(self):
        return self.calibration().b

    def mp_t(self):
        return self.calibration().t if self._drift is None else self._drift

    @property
    def b(self) -> float:
        """The scale as a float; refused when float64 cannot hold it (mp_b() has it)."""
        with mp.workdps(FLOAT_DPS):
            return validate.to_float(f"b for r0 = {self.r0}, c = {self.c}", self.mp_b(),
                                     "mp_b() returns it at full precision")

    @property
    def t(self) -> float:
        """The drift as a float; refused when float64 cannot hold it (mp_t() has it)."""
        with mp.workdps(FLOAT_DPS):
            return validate.to_float(f"t for r0 = {self.r0}, c = {self.c}", self.mp_t(),
                                     "mp_t() returns it at full precision")

    def error_factor(self) -> Estimate:
        """E|exp(bX + t) - 1| by quadrature (= rho at the calibrated b and optimal drift)."""
        return airy_drift_error(self.mp_b(), self.mp_t())

    # ---- budget -----------------------------------------------------------------------------
    def delta(self, n):
        """Delta_n = log((n+c)/(n-1+c))/b, the edge n-1 <-> n as a shift of X (n = 0: edge 0-1)."""
        n = validate.count("n", n)
        return formulas.log_gap(n, self.c) / self.mp_b()

    def limit_n2v(self):
        """lim_{n->inf} n^2 v(n) = I_X / (2 b^2) (mpmath)."""
        return formulas.airy_n2v_limit(self.mp_b())

    def budget(self, n, points_per_decade: int = 8) -> TightRho:
        """The sup over alpha of D_alpha/alpha on edge n-1 <-> n (the engine's float64 scan of the
        standardised pair, shift Delta_n).  The float64 engine covers shifts Delta_n in
        [1e-150, 1e12] (v from about 1e-300 to 1e18); beyond them (n above about 1e149 / b, or a
        tiny b, i.e. r0 below about 1e-12 (1 + c)) ValueError says so."""
        n = validate.count("n", n)
        ppd = validate.count("points_per_decade", points_per_decade, lo=2, hi=1000)
        d = self.delta(n)
        if not SHIFT_RANGE[0] <= d <= SHIFT_RANGE[1]:
            why = (f"as n -> inf, n^2 v(n) -> limit_n2v() = {mpmath.nstr(self.limit_n2v(), 8)}"
                   if d < SHIFT_RANGE[0] else f"r0 = {self.r0} makes b = {mpmath.nstr(self.mp_b(), 6)}")
            raise ValueError(f"n = {validate._show(n)}: the Airy budget engine (float64) needs the "
                             f"shift Delta_n = log((n+c)/(n-1+c))/b in [1e-150, 1e12], got "
                             f"{mpmath.nstr(d, 6)}; {why}")
        return _budget_at_shift(float(d), ppd)

    def v(self, n) -> float:
        """v(n) (float64), v(0) = v(1); refused (ValueError) outside the engine's range (see
        :meth:`budget`)."""
        n = validate.count("n", n)
        return validate.to_float(f"v({validate._show(n)})", self.budget(n).value,
                                 "outside the float64 budget engine")

    def v_array(self, ns) -> np.ndarray:
        ns = validate.counts("n", ns)
        return np.array([self.v(int(k)) for k in np.ravel(ns)]).reshape(np.shape(ns))

    def mp_v(self, n) -> Estimate:
        """v(n) at the working precision: the location of the sup from the float scan, the value
        by the engine's mpmath route (the KL at alpha -> 1, else D_alpha/alpha) on the pair with
        the exact shift Delta_n; refused outside the engine's range, like :meth:`budget`."""
        s = self.budget(n)
        P, Q = standard_shift_pair(self.delta(n))
        if s.attained_at_one:
            return mp_renyi(P, Q, 1)
        D = mp_renyi(P, Q, s.alpha)
        return Estimate(D.value / s.alpha, D.error / s.alpha)

    # ---- laws -------------------------------------------------------------------------------
    def log_mean(self, n):
        """mu_n = log(n + c) + t: the location of log(U_n + c)."""
        n = validate.count("n", n)
        return mpmath.log(n + mpmath.mpf(self.c)) + self.mp_t()

    def unclipped_law(self, n) -> LogShiftedAiry:
        n = validate.count("n", n)
        return LogShiftedAiry(self.log_mean(n), self.mp_b(), self.c)

    def released_law(self, n) -> ClippedLogShiftedAiry:
        return ClippedLogShiftedAiry(self.unclipped_law(n))

    # ---- errors -----------------------------------------------------------------------------
    def expected_abs_error_unclipped(self, n) -> Estimate:
        """E|U_n - n| = (n + c) E|exp(bX+t) - 1| (exact scaling; the factor by quadrature)."""
        n = validate.count("n", n)
        f = self.error_factor()
        k = n + mpmath.mpf(self.c)
        return Estimate(k * f.value, k * f.error)

    def expected_abs_error_released(self, n) -> Estimate:
        """E|Y - n| for the released law by mpmath quadrature in w = log(y + c):
        n P(Y = 0) + int_{log c}^{inf} |e^w - c - n| f((w - mu)/b)/b dw, split at the kink
        w = log(n + c) and at the Airy kink w = mu.  The law and the integral at two precisions
        (:func:`at_two_precisions`): mpmath's estimate alone was short, and |e^w - c - n| rounds
        to eps (c + n), more than 10 eps of the value where the law sits near its clip point
        (both 1.6 x at 31 digits, n = 0, c = 16.7)."""
        n = validate.count("n", n)

        def route():
            law = self.released_law(n)
            d = law.density
            mu, b, c = d.mu, d.b, d.c
            lo = mpmath.log(c)
            brk = {mu + b * k for k in (-64, -16, -8, -4, -2, -1, 0, 1, 2, 4, 8, 16, 64)}
            brk.add(mpmath.log(n + c))
            inner = sorted(p for p in brk if p > lo)
            nodes = [lo] + inner + [mpmath.inf]

            def g(w):
                return abs(mpmath.exp(w) - c - n) * mpmath.exp(airy.mp_logpdf((w - mu) / b)) / b

            v, e = mpmath.quad(g, nodes, error=True)
            v += n * law.atom_mass
            return v, abs(e) + 10 * mpmath.eps * abs(v)
        return at_two_precisions(route)

    # ---- sampling ---------------------------------------------------------------------------
    def release(self, counts, rng: np.random.Generator, clip: bool = True, rounding: bool = False):
        """Release a histogram: ``[(n + c) exp(b X + t) - c]_+`` per coordinate, X from the exact
        Airy sampler; ``rounding`` applies stochastic rounding (postprocessing).  ``rng``: a
        Generator, an integer seed or None."""
        x = validate.counts("counts", counts).astype(float)
        rng = validate.rng(rng)
        b, t = float(self.mp_b()), float(self.mp_t())
        # (x+c) e^W - c written as x + (x+c) expm1(W): no cancellation when c >> x
        y = x + (x + float(self.c)) * np.expm1(b * airy.sample(rng, x.shape) + t)
        if clip or rounding:
            y = np.maximum(y, 0.0)
        if rounding:
            y = stochastic_round(y, rng)
        return y
