"""Number systems, and closed forms written once against them.

A closed form of the paper is written once as a function of a *context* ``ctx`` (the number
system) followed by its parameters, in the way mpmath writes a special function once against
its context::

    @formula
    def log_gap(ctx, n, c):
        '''log((n+c)/(n-1+c)) = log1p(1/(n-1+c)) (Section 5).'''
        return ctx.log1p(1 / (ctx.convert(n) - 1 + ctx.convert(c)))

and is then evaluated in any of three number systems:

* ``log_gap(n, c)`` or ``log_gap.mp(n, c)``: mpmath at the current working precision
  (``mpmath.mp.dps``);
* ``log_gap.fp(n, c)``: float64, vectorised over numpy arrays;
* ``log_gap.ball(n, c)``: python-flint Arb balls at the current ``flint.ctx.prec``; every ball
  provably contains the exact value (inputs given as int, Fraction, decimal string or fmpq are
  taken exactly; a float at its exact binary value);
* ``f.exact(args)``: exact rational arithmetic (``fractions.Fraction``) for the formulas that are
  rational in their parameters, so that a ceiling such as ceil(C_r n) is decided exactly; a
  transcendental operation raises TypeError there.

Inside a body, other formulas are called with the same context first: ``log_gap(ctx, n, c)``.
The three evaluations are one formula at three precisions: comparing them checks rounding, never
the formula (an independent route must not share it).  A :class:`Formula` keeps its body in
one attribute, so that one patch corrupts every evaluation of it at once.

Bodies use only the context's functions below and ``+ - * / **``, ``abs``; a branch on the
sign of a ball must go through :meth:`BallContext.sign_decided` (it raises when the ball does
not decide).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any, Callable

import mpmath
import numpy as np
from flint import acb, arb, fmpq, fmpz
from scipy import special

__all__ = ["Context", "FloatContext", "MpContext", "BallContext", "ExactContext", "fp", "mp",
           "ball", "exact",
           "Formula", "formula", "to_fmpq", "to_arb", "Undecided"]


class Undecided(ArithmeticError):
    """A step that must be decided on balls (a sign, a ceiling, a bracket) is not."""


# ---------------------------------------------------------------------------------------------
# Exact conversions for balls
# ---------------------------------------------------------------------------------------------


def to_fmpq(x) -> fmpq:
    """Exact rational: int/fmpz/fmpq/Fraction, decimal str (exact), float (exact binary value)."""
    if isinstance(x, fmpq):
        return x
    if isinstance(x, (bool, np.bool_)):
        raise TypeError("a bool is not a number here")
    if isinstance(x, (int, fmpz, np.integer)):
        return fmpq(int(x))
    if isinstance(x, (str, float, Fraction, np.floating)):
        f = Fraction(float(x)) if isinstance(x, np.floating) else Fraction(x)
        return fmpq(f.numerator, f.denominator)
    if isinstance(x, mpmath.mpf) and mpmath.isfinite(x):
        sign, man, exp, _ = x._mpf_  # man_exp is unsigned: the sign is kept apart
        q = fmpq(int(man)) * fmpq(2) ** int(exp) if exp >= 0 else fmpq(int(man), 2 ** -int(exp))
        return -q if sign else q
    raise TypeError(f"cannot convert {type(x).__name__} to an exact rational")


def to_arb(x) -> arb:
    """A ball at the current precision containing the exact value of ``x``."""
    if isinstance(x, arb):
        return x
    if isinstance(x, acb):
        if not x.imag.contains(0):
            raise ValueError("complex value with nonzero imaginary part")
        return x.real
    if isinstance(x, (int, fmpz, np.integer)) and not isinstance(x, (bool, np.bool_)):
        return arb(int(x))
    if isinstance(x, (float, np.floating)):
        return arb(float(x))  # exact binary value (a ball only below 53 bits)
    return arb(to_fmpq(x))


# ---------------------------------------------------------------------------------------------
# The contexts
# ---------------------------------------------------------------------------------------------


class Context:
    """The operations a closed form may use.  Subclasses bind them to a number system."""

    name = "abstract"

    def __repr__(self) -> str:
        return f"<countdp number system {self.name}>"

    def convert(self, x):
        raise NotImplementedError

    def fraction(self, p: int, q: int):
        """The exact rational p/q in this number system (rounded once where it must be)."""
        raise NotImplementedError

    # standard normal law, from the error function (all three systems have erf/erfc/erfinv)
    def ncdf(self, x):
        """Phi(x) = erfc(-x/sqrt 2)/2, accurate in both tails."""
        return self.erfc(-self.convert(x) / self.sqrt(2)) / 2

    def ncdf_diff(self, a, b):
        """Phi(b) - Phi(a) for a <= b, on the side of 0 that avoids cancellation (for balls, when
        the sign of a is decided; the plain difference is rigorous anyway)."""
        a, b = self.convert(a), self.convert(b)
        return self.ncdf(-a) - self.ncdf(-b) if a >= 0 else self.ncdf(b) - self.ncdf(a)

    def npdf(self, x):
        """phi(x) = exp(-x^2/2)/sqrt(2 pi)."""
        x = self.convert(x)
        return self.exp(-x * x / 2) / self.sqrt(2 * self.pi)

    def ncdf_inv_half(self, q):
        """Phi^{-1}((1+q)/2) = sqrt(2) erfinv(q) for 0 < q < 1, without forming (1+q)/2."""
        return self.sqrt(2) * self.erfinv(self.convert(q))

    def ncdf_inv(self, p):
        """Phi^{-1}(p) for 0 < p < 1."""
        return self.sqrt(2) * self.erfinv(2 * self.convert(p) - 1)


class FloatContext(Context):
    """float64, vectorised over numpy arrays (scipy's special functions)."""

    name = "fp"
    pi = math.pi
    e = math.e
    inf = math.inf
    sqrt = staticmethod(np.sqrt)
    exp = staticmethod(np.exp)
    expm1 = staticmethod(np.expm1)
    log = staticmethod(np.log)
    log1p = staticmethod(np.log1p)
    erf = staticmethod(special.erf)
    erfc = staticmethod(special.erfc)
    erfinv = staticmethod(special.erfinv)
    gamma = staticmethod(special.gamma)
    ceil = staticmethod(np.ceil)
    floor = staticmethod(np.floor)

    def convert(self, x):
        if isinstance(x, np.ndarray):
            return x.astype(float) if x.dtype.kind in "iub" else x
        if isinstance(x, (list, tuple)):
            return np.asarray(x, dtype=float)
        if isinstance(x, Fraction):
            return x.numerator / x.denominator
        return float(x)

    def fraction(self, p, q):
        return p / q

    def ncdf(self, x):
        return special.ndtr(x)

    def ncdf_diff(self, a, b):
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        upper = special.ndtr(-a) - special.ndtr(-b)
        out = np.where(a >= 0, upper, special.ndtr(b) - special.ndtr(a))
        return out if out.ndim else float(out)

    def ncdf_inv(self, p):
        return special.ndtri(p)

    def pos(self, x):
        """max(x, 0)."""
        return np.maximum(x, 0.0)

    def maximum(self, a, b):
        return np.maximum(a, b)

    def minimum(self, a, b):
        return np.minimum(a, b)

    def sign_decided(self, x) -> int:
        return int(np.sign(x))

    def airy_ai_prime_zero(self, k: int = 1):
        return float(special.ai_zeros(k)[1][k - 1])

    def airy_ai(self, x):
        return special.airy(x)[0]


class MpContext(Context):
    """mpmath at the current working precision (``mpmath.mp.dps``)."""

    name = "mp"
    inf = mpmath.inf
    sqrt = staticmethod(mpmath.sqrt)
    exp = staticmethod(mpmath.exp)
    expm1 = staticmethod(mpmath.expm1)
    log = staticmethod(mpmath.log)
    log1p = staticmethod(mpmath.log1p)
    erf = staticmethod(mpmath.erf)
    erfc = staticmethod(mpmath.erfc)
    erfinv = staticmethod(mpmath.erfinv)
    gamma = staticmethod(mpmath.gamma)
    ceil = staticmethod(mpmath.ceil)
    floor = staticmethod(mpmath.floor)

    @property
    def pi(self):
        return +mpmath.mp.pi

    @property
    def e(self):
        return +mpmath.mp.e

    def convert(self, x):
        if isinstance(x, Fraction):
            return mpmath.mpf(x.numerator) / x.denominator
        if isinstance(x, (np.floating, np.integer)):
            x = x.item()
        if isinstance(x, (fmpq,)):
            return mpmath.mpf(int(x.p)) / int(x.q)
        return mpmath.mpf(x)

    def fraction(self, p, q):
        return mpmath.mpf(p) / q

    def ncdf(self, x):
        return mpmath.ncdf(x)

    def npdf(self, x):
        return mpmath.npdf(x)

    def ncdf_diff(self, a, b):
        from .normal import mp_Phi_diff

        return mp_Phi_diff(a, b)

    def ncdf_inv(self, p):
        from .normal import mp_Phi_inv

        return mp_Phi_inv(p)

    def ncdf_inv_half(self, q):
        from .normal import mp_Phi_inv_half

        return mp_Phi_inv_half(q)

    def pos(self, x):
        return x if x > 0 else mpmath.mpf(0)

    def maximum(self, a, b):
        return max(a, b)

    def minimum(self, a, b):
        return min(a, b)

    def sign_decided(self, x) -> int:
        return int(mpmath.sign(x))

    def airy_ai_prime_zero(self, k: int = 1):
        return mpmath.airyaizero(k, derivative=1)

    def airy_ai(self, x):
        return mpmath.airyai(x)


def _ball(method: str) -> Callable:
    def f(x):
        return getattr(to_arb(x), method)()
    f.__name__ = method
    return staticmethod(f)


class BallContext(Context):
    """python-flint Arb balls at the current ``flint.ctx.prec``: rigorous enclosures."""

    name = "ball"
    inf = arb.pos_inf()
    sqrt = _ball("sqrt")
    exp = _ball("exp")
    expm1 = _ball("expm1")
    log = _ball("log")
    log1p = _ball("log1p")
    erf = _ball("erf")
    erfc = _ball("erfc")
    erfinv = _ball("erfinv")
    gamma = _ball("gamma")

    @property
    def pi(self):
        return arb.pi()

    @property
    def e(self):
        return arb.const_e()

    def convert(self, x):
        return to_arb(x)

    def fraction(self, p, q):
        return arb(fmpq(int(p), int(q)))

    def pos(self, x):
        return to_arb(x).nonnegative_part()

    def maximum(self, a, b):
        return to_arb(a).max(to_arb(b))

    def minimum(self, a, b):
        return to_arb(a).min(to_arb(b))

    def sign_decided(self, x) -> int:
        x = to_arb(x)
        if x > 0:
            return 1
        if x < 0:
            return -1
        if x.is_exact() and x == 0:
            return 0
        raise Undecided(f"the sign of {x} is not decided")

    def ceil(self, x):
        """The exact ceiling: for a ball, only when every point has the same ceiling."""
        if isinstance(x, (int, fmpz, fmpq, Fraction, str)):
            return arb(fmpz(to_fmpq(x).ceil()))
        c = to_arb(x).ceil().unique_fmpz()
        if c is None:
            raise Undecided(f"the ceiling of {x} is not decided")
        return arb(c)

    def floor(self, x):
        if isinstance(x, (int, fmpz, fmpq, Fraction, str)):
            return arb(fmpz(to_fmpq(x).floor()))
        c = to_arb(x).floor().unique_fmpz()
        if c is None:
            raise Undecided(f"the floor of {x} is not decided")
        return arb(c)

    def airy_ai_prime_zero(self, k: int = 1):
        return arb.airy_ai_zero(k, derivative=1)

    def airy_ai(self, x):
        return to_arb(x).airy_ai()


def _not_rational(name: str) -> Callable:
    def f(*args):
        raise TypeError(f"{name} is not a rational operation: evaluate this formula in mp or ball")
    f.__name__ = name
    return staticmethod(f)


class ExactContext(Context):
    """Exact rational arithmetic on ``fractions.Fraction``: ceilings and comparisons are exact."""

    name = "exact"
    sqrt = _not_rational("sqrt")
    exp = _not_rational("exp")
    expm1 = _not_rational("expm1")
    log = _not_rational("log")
    log1p = _not_rational("log1p")
    erf = _not_rational("erf")
    erfc = _not_rational("erfc")
    erfinv = _not_rational("erfinv")
    gamma = _not_rational("gamma")
    airy_ai = _not_rational("airy_ai")

    @property
    def pi(self):
        raise TypeError("pi is not rational: evaluate this formula in mp or ball")

    @property
    def e(self):
        raise TypeError("e is not rational: evaluate this formula in mp or ball")

    def convert(self, x) -> Fraction:
        if isinstance(x, Fraction):
            return x
        if isinstance(x, (bool, np.bool_)) or isinstance(x, (arb, np.ndarray)):
            raise TypeError(f"{type(x).__name__} is not an exact rational")
        q = to_fmpq(x)
        return Fraction(int(q.p), int(q.q))

    def fraction(self, p, q):
        return Fraction(p, q)

    def ceil(self, x) -> int:
        return math.ceil(self.convert(x))

    def floor(self, x) -> int:
        return math.floor(self.convert(x))

    def pos(self, x):
        return max(x, Fraction(0))

    def maximum(self, a, b):
        return max(a, b)

    def minimum(self, a, b):
        return min(a, b)

    def sign_decided(self, x) -> int:
        return (x > 0) - (x < 0)

    def ncdf(self, x):
        raise TypeError("Phi is not a rational operation: evaluate this formula in mp or ball")


fp = FloatContext()
mp = MpContext()
ball = BallContext()
exact = ExactContext()


# ---------------------------------------------------------------------------------------------
# Formulas
# ---------------------------------------------------------------------------------------------


class Formula:
    """A closed form written once against a context; see the module docstring.

    ``f(*args)`` evaluates in mpmath, ``f(ctx, *args)`` in the given context, and ``f.fp``,
    ``f.mp``, ``f.ball``, ``f.exact`` name the systems.  ``f.body`` is the one function all of them
    run."""

    def __init__(self, body: Callable):
        self.body = body
        functools.update_wrapper(self, body)

    def __call__(self, *args, **kwargs):
        if args and isinstance(args[0], Context):
            return self.body(*args, **kwargs)
        return self.body(mp, *args, **kwargs)

    def fp(self, *args, **kwargs):
        return self.body(fp, *args, **kwargs)

    def mp(self, *args, **kwargs):
        return self.body(mp, *args, **kwargs)

    def ball(self, *args, **kwargs):
        return self.body(ball, *args, **kwargs)

    def exact(self, *args, **kwargs):
        return self.body(exact, *args, **kwargs)

    def __repr__(self) -> str:
        return f"<formula {self.__module__}.{self.__qualname__}>"

    def __reduce__(self):  # pickled by reference, like a function
        return _formula_by_name, (self.__module__, self.__qualname__)


def _formula_by_name(module: str, qualname: str) -> Formula:
    import importlib

    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def formula(body: Callable) -> Formula:
    """Decorator: ``body(ctx, *params)`` becomes a :class:`Formula`."""
    return Formula(body)
