"""Moments of the Airy law by quadrature, at the ambient precision: E|X|^k, the score moments
E s^{2k} and their ratio to the Gaussian's, the score CGF K_s(u), and the law's constants by a
route independent of the closed forms (a1' by Newton's method, then four integrals).

All go through :func:`countdp.laws.symmetric.half_line_quad` (tanh-sinh with breakpoints), the
code the comparison laws of the negative controls use too.
"""

from __future__ import annotations

from mpmath import mp

from ... import formulas
from ...numerics import validate
from ...numerics.estimate import Estimate
from ...numerics.precision import at_dps, guard_digits
from ..symmetric import QUAD_GUARD_DIGITS, half_line_quad, symmetric_score_cgf
from .constants import AiryConstants
from .mp_values import airy_pair, mp_logpdf, mp_pdf, mp_score

__all__ = ["abs_moment", "second_moment", "score_moment", "score_moment_ratio", "score_cgf",
           "airy_constants_by_quadrature"]

#: guard digits of the quadrature constants: Newton's a1' must converge past the target, and
#: the moments are ratios of integrals whose errors add
CONSTANTS_GUARD_DIGITS = 10


def _twice(h: Estimate, error: bool):
    """2 h (the two half-lines of a symmetric integrand) rounded to the ambient precision."""
    return Estimate(+(2 * h.value), +(2 * h.error)) if error else +(2 * h.value)


def abs_moment(k, dps=None, *, error=False):
    """E|X|^k = 2 int_0^inf x^k f(x) dx by mpmath quadrature (k >= 0 real) at the ambient
    precision (or ``dps`` digits); with ``error`` an :class:`Estimate`."""
    k = validate.real("k", k, lo=0, lo_open=False)
    with at_dps(dps):
        with guard_digits(QUAD_GUARD_DIGITS):
            k = mp.mpf(k)

        def fun(x):
            return x**k * mp_pdf(x) if k else mp_pdf(x)

        def lw(x):
            if k == 0:
                return mp_logpdf(x)
            return k * mp.log(x) + mp_logpdf(x) if x > 0 else mp.ninf

        return _twice(half_line_quad(fun, lw), error)


def second_moment(dps=None, *, error=False):
    """E X^2 by quadrature (closed form: 1/(5|a1'|) + 8 a1'^2/15)."""
    return abs_moment(2, dps, error=error)


def score_moment(k, dps=None, *, error=False):
    """E s(X)^{2k} = 2 int_0^inf s(x)^{2k} f(x) dx by mpmath quadrature (k >= 1 integer) at the
    ambient precision (or ``dps`` digits); with ``error`` an :class:`Estimate`.  Note the
    exponent is 2k: score_moment(1) = I."""
    k = validate.count("k", k, lo=1)
    with at_dps(dps):

        def fun(x):
            return mp_score(x) ** (2 * k) * mp_pdf(x)

        def lw(x):
            s = mp_score(x)
            return 2 * k * mp.log(s) + mp_logpdf(x) if s > 0 else mp.ninf

        return _twice(half_line_quad(fun, lw), error)


def score_moment_ratio(k, dps=None, *, error=False):
    """E s^{2k} / ((2k-1)!! I^k) with I = 4|a1'|/3 (closed form: formulas.airy_score_moment_bound);
    equals 1 at k = 1 and for every k for a Gaussian; < 1 for all k is a sufficient condition for
    strict sub-Gaussianity of the score (with ``error`` an :class:`Estimate`)."""
    k = validate.count("k", k, lo=1)
    with at_dps(dps):
        M = score_moment(k, error=True)
        with guard_digits(QUAD_GUARD_DIGITS):
            den = formulas.airy_score_moment_bound(k)
            r, er = M.value / den, M.error / den
        return Estimate(+r, +er) if error else +r


def score_cgf(u, dps=None, *, error=False):
    """K_s(u) = log E exp(u s(X)) for the Airy law (see :func:`symmetric_score_cgf`, which this
    calls with the normalised Airy log-density, so both laws go through the same code)."""
    return symmetric_score_cgf(mp_logpdf, mp_score, u, dps, normalised=True, error=error)


# ============================================================================================
# The constants by quadrature
# ============================================================================================


def _prime_zero_by_newton():
    """a1' by Newton's method on Ai' (Ai'' = z Ai) from -1, at the ambient precision."""
    return mp.findroot(lambda z: mp.airyai(z, derivative=1), mp.mpf(-1),
                       df=lambda z: z * mp.airyai(z), solver="newton")


def _half_line_integrals(a) -> tuple[Estimate, Estimate, Estimate, Estimate]:
    """int_0^inf of Ai(x + a)^2, x Ai^2, x^2 Ai^2 and s^2 Ai^2 (s = -2 Ai'/Ai), each by
    :func:`half_line_quad` at the ambient precision."""

    def ai2(x):
        return airy_pair(x + a)[0] ** 2

    def logai2(x):
        return 2 * mp.log(airy_pair(x + a)[0])

    def s2ai2(x):
        ai, aip = airy_pair(x + a)
        return (2 * aip / ai) ** 2 * ai**2

    def logs2ai2(x):
        ai, aip = airy_pair(x + a)
        return 2 * mp.log(2 * abs(aip)) if aip != 0 else mp.ninf

    return (half_line_quad(ai2, logai2),
            half_line_quad(lambda x: x * ai2(x), lambda x: mp.log(x) + logai2(x)),
            half_line_quad(lambda x: x**2 * ai2(x), lambda x: 2 * mp.log(x) + logai2(x)),
            half_line_quad(s2ai2, logs2ai2))


def airy_constants_by_quadrature(dps=None) -> AiryConstants:
    """Constants by an independent route, at the ambient precision (or ``dps`` digits): a1' by
    Newton's method on Ai' from -1, then ``mpmath.quad`` (tanh-sinh,
    :func:`countdp.laws.symmetric.half_line_quad`) of

        Z = 2 int_0^inf Ai(x+a1')^2,  m = 2 int x Ai^2 / Z,  I = 2 int s^2 Ai^2 / Z,
        E X^2 = 2 int x^2 Ai^2 / Z,

    with ``s = -2 Ai'/Ai``.  ``error`` is the largest propagated quadrature error estimate."""
    with at_dps(dps):
        with guard_digits(CONSTANTS_GUARD_DIGITS):
            a = _prime_zero_by_newton()
        (h0, e0), (h1, e1), (h2, e2), (hs, es) = ((h.value, h.error) for h in _half_line_integrals(a))
        with guard_digits(CONSTANTS_GUARD_DIGITS):
            Z = 2 * h0
            m = h1 / h0
            ex2 = h2 / h0
            fisher = hs / h0
            # first-order propagation of the absolute quadrature errors
            rel0 = e0 / h0
            err = max(e1 / h0 + m * rel0, e2 / h0 + ex2 * rel0, es / h0 + fisher * rel0, 2 * e0)
            ai_a = mp.airyai(a)
        return AiryConstants(
            a1p=+a, ai_a1p=+ai_a, Z=+Z, mean_abs=+m, fisher=+fisher, second_moment=+ex2,
            m2I_half=m**2 * fisher / 2, dps=mp.dps,
            route="mpmath.quad of Ai(x+a1')^2, x Ai^2, s^2 Ai^2, x^2 Ai^2 (a1' by Newton on Ai')",
            error=+err,
        )
