"""Tests of countdp.formulas.airy: each closed form agrees in fp / mp / ball to rounding, the
values are the known ones, and an enclosure of a1' passed in gives a ball of the constant."""

from __future__ import annotations

import flint
import mpmath
import pytest

from _number_systems import assert_fp_mp_ball_agree
from countdp import formulas
import countdp.formulas.airy
from countdp.numerics.contexts import Formula

FORMULAS = [f for f in vars(countdp.formulas.airy).values() if isinstance(f, Formula)]
A1P_LITERAL = "-1.01879297164747108901732478339974382"  # DLMF 9.9


ARGS = {"airy_score_cgf_bound": ("0.3",), "airy_score_moment_bound": (4,), "airy_drift": ("0.5", "0.25"),
        "airy_n2v_limit": ("0.05",)}


@pytest.mark.parametrize("f", FORMULAS, ids=lambda f: f.__name__)
def test_fp_mp_ball_agree(f):
    assert_fp_mp_ball_agree(f, ARGS.get(f.__name__, ()))


def test_values():
    with mpmath.workdps(30):
        a = formulas.airy_prime_zero()
        assert abs(a - mpmath.mpf(A1P_LITERAL)) < mpmath.mpf("1e-28")
        A = -a
        assert abs(formulas.airy_limit_constant() - 8 * A ** 3 / 27) < mpmath.mpf("1e-29")
        m, I = formulas.airy_mean_abs(), formulas.airy_fisher()
        assert abs(formulas.airy_limit_constant() - m ** 2 * I / 2) < mpmath.mpf("1e-29")
        assert abs(formulas.airy_normaliser() - 2 * A * mpmath.airyai(a) ** 2) < mpmath.mpf("1e-29")
        assert abs(formulas.airy_gaussian_limit_ratio() - mpmath.pi * formulas.airy_limit_constant()) < mpmath.mpf("1e-29")
        s = formulas.equal_mean_abs_gaussian_sd()
        assert abs(m ** 2 * (1 / s ** 2) / 2 - 1 / mpmath.pi) < mpmath.mpf("1e-29")
        assert float(formulas.airy_limit_constant()) == pytest.approx(0.3133170606, abs=1e-10)


def test_enclosure_of_the_zero_gives_a_ball():
    with flint.ctx.workprec(100):
        z = formulas.airy_prime_zero.ball()
        wide = z + flint.arb(0, 1e-10)
        c = formulas.airy_limit_constant.ball(wide)
        assert c.contains(formulas.airy_limit_constant.ball()) and c.rad() > 1e-11


def test_score_and_mechanism_statements():
    with mpmath.workdps(30):
        I = formulas.airy_fisher()
        u = mpmath.mpf("0.3")
        assert abs(formulas.airy_score_cgf_bound(u) - I * u ** 2 / 2) < mpmath.mpf("1e-29")
        for k in (1, 2, 5):
            gaussian = mpmath.fac2(2 * k - 1) * I ** k
            assert abs(formulas.airy_score_moment_bound(k) / gaussian - 1) < mpmath.mpf("1e-28")
        assert formulas.airy_score_moment_bound(1) == I
        assert formulas.airy_drift("0.5", "0.25") == mpmath.mpf("-0.125")
        assert abs(formulas.airy_n2v_limit("0.1") - 50 * I) < mpmath.mpf("1e-27")
