"""The constants of the standard Airy law f(x) = Ai(|x| + a1')^2 / Z.

a1' (~ -1.0187929716) is the first zero of Ai'; with ``A = |a1'|`` the antiderivatives of
``Ai^2``, ``z Ai^2``, ``z^2 Ai^2`` and ``Ai'^2`` (all vanishing at ``+inf``, evaluated at a1'
where ``Ai' = 0``)::

    int Ai^2       = z Ai^2 - Ai'^2
    int z Ai^2     = (z^2 Ai^2 - z Ai'^2 + Ai Ai') / 3
    int z^2 Ai^2   = (z^3 Ai^2 - z^2 Ai'^2 + 2 z Ai Ai' - Ai^2) / 5
    int Ai'^2      = Ai Ai' - int z Ai^2

give ``Z = 2 A Ai(a1')^2``, ``m = E|X| = 2A/3``, ``I = E s^2 = 4A/3``,
``E X^2 = 1/(5A) + 8A^2/15`` and ``m^2 I / 2 = 8 A^3 / 27 ~ 0.3133170606`` (the closed forms of
:mod:`countdp.formulas.airy`).  :func:`airy_constants` evaluates them at the ambient precision
(a1' from ``mpmath.airyaizero``); the independent quadrature route is
:func:`countdp.laws.airy.moments.airy_constants_by_quadrature`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from mpmath import mp

from ... import formulas
from ...numerics.precision import FLOAT_DPS, at_dps

__all__ = ["AiryConstants", "airy_constants", "float_constants"]


class DefiningConstants(NamedTuple):
    """What the density needs: a1', Ai(a1'), the normaliser Z and log Z."""

    a1p: object
    ai_a1p: object
    Z: object
    logZ: object


@lru_cache(maxsize=None)
def defining_constants(prec: int) -> DefiningConstants:
    """(a1', Ai(a1'), Z, log Z) at binary precision ``prec`` (computed with 20 guard bits; a1'
    from mpmath.airyaizero, checked to be a zero of Ai': a wrong zero raises rather than define a
    density that is not the Airy law)."""
    with mp.workprec(prec + 20):
        a = formulas.airy_prime_zero()
        if not abs(mp.airyai(a, derivative=1)) < mp.mpf(2) ** (-(prec // 2)):
            raise ValueError(f"a1' = {mp.nstr(a, 15)} is not a zero of Ai' (Ai' = "
                             f"{mp.nstr(mp.airyai(a, derivative=1), 5)}): the Airy law is undefined")
        ai = mp.airyai(a)
        Z = formulas.airy_normaliser(a)
        return DefiningConstants(a, ai, Z, mp.log(Z))


def ambient_defining_constants() -> DefiningConstants:
    """:func:`defining_constants` at the ambient precision."""
    return defining_constants(mp.prec)


@dataclass(frozen=True)
class AiryConstants:
    """Constants of the standard Airy law (mean 0).

    ``a1p`` = a1', ``ai_a1p`` = Ai(a1'), ``Z`` = normaliser, ``mean_abs`` = m = E|X|,
    ``fisher`` = I = E s(X)^2, ``second_moment`` = E X^2 (= variance), ``m2I_half`` = m^2 I / 2.
    Values are mpmath numbers computed at ``dps`` digits, or floats (``dps`` None).  ``route``
    names how they were computed; ``error`` is the largest absolute quadrature error estimate
    (quadrature route only).
    """

    a1p: object
    ai_a1p: object
    Z: object
    mean_abs: object
    fisher: object
    second_moment: object
    m2I_half: object
    dps: int | None
    route: str
    error: object = None

    @property
    def var(self):
        return self.second_moment


def airy_constants(dps=None) -> AiryConstants:
    """The closed-form constants (see the module docstring) as mpmath numbers at the ambient
    precision (or ``dps`` digits)."""
    with at_dps(dps):
        base = ambient_defining_constants()
        a = base.a1p
        return AiryConstants(
            a1p=+a,
            ai_a1p=+base.ai_a1p,
            Z=+base.Z,
            mean_abs=formulas.airy_mean_abs(a),
            fisher=formulas.airy_fisher(a),
            second_moment=formulas.airy_second_moment(a),
            m2I_half=formulas.airy_limit_constant(a),
            dps=mp.dps,
            route="closed form (antiderivatives of z^k Ai^2, a1' = mpmath.airyaizero)",
        )


@lru_cache(maxsize=None)
def float_constants() -> AiryConstants:
    """The closed-form constants as floats (rounded from :data:`FLOAT_DPS` digits)."""
    c = airy_constants(FLOAT_DPS)
    return AiryConstants(
        a1p=float(c.a1p), ai_a1p=float(c.ai_a1p), Z=float(c.Z), mean_abs=float(c.mean_abs),
        fisher=float(c.fisher), second_moment=float(c.second_moment), m2I_half=float(c.m2I_half),
        dps=None, route=c.route,
    )
