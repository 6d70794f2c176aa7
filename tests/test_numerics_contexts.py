"""countdp.numerics.contexts: number systems and formulas written once against them."""

from __future__ import annotations

import pickle
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from flint import arb, fmpq

from countdp import formulas
from countdp.numerics.contexts import (Formula, Undecided, ball, exact, formula, fp, mp, to_arb,
                                       to_fmpq)


@formula
def square_plus_log(ctx, x):
    """A test formula: x^2 + log(x)."""
    x = ctx.convert(x)
    return x * x + ctx.log(x)


def test_a_formula_runs_in_every_number_system():
    with mpmath.workdps(30):
        v = square_plus_log(2)
        assert isinstance(v, mpmath.mpf)
        assert abs(v - (4 + mpmath.log(2))) < mpmath.mpf(10) ** -28
    assert square_plus_log.fp(2.0) == pytest.approx(4 + np.log(2), rel=1e-15, abs=0)
    np.testing.assert_allclose(square_plus_log.fp(np.array([1.0, 2.0])), [1.0, 4 + np.log(2)])
    b = square_plus_log.ball(2)
    assert isinstance(b, arb) and b.contains(arb(4) + arb(2).log())
    assert square_plus_log(ball, 2).contains(arb(4) + arb(2).log())


def test_exact_context_is_rational_and_refuses_transcendentals():
    @formula
    def half_sum(ctx, a, b):
        return (ctx.convert(a) + ctx.convert(b)) / 2

    assert half_sum.exact("1/3", "1/6") == Fraction(1, 4)
    assert exact.convert(0.1) == Fraction(3602879701896397, 36028797018963968)  # exact binary
    assert exact.ceil(Fraction(7, 2)) == 4 and exact.ceil(Fraction(4)) == 4
    with pytest.raises(TypeError, match="not a rational operation"):
        square_plus_log.exact(2)
    with pytest.raises(TypeError):
        exact.convert(arb(1))


def test_ball_conversions_are_exact_and_ceilings_must_be_decided():
    assert to_arb("0.1").contains(arb(fmpq(1, 10)))
    assert to_fmpq("0.125") == fmpq(1, 8) and to_fmpq(0.5) == fmpq(1, 2)
    assert to_fmpq(mpmath.mpf(0.75)) == fmpq(3, 4)
    assert to_fmpq(mpmath.mpf(-1.25)) == fmpq(-5, 4) and to_fmpq(mpmath.mpf(0)) == 0
    assert exact.convert(mpmath.mpf(-3)) == -3
    assert int(ball.ceil(arb(fmpq(7, 2))).unique_fmpz()) == 4
    with pytest.raises(Undecided):
        ball.ceil(arb(3, 0.5))  # [2.5, 3.5]: ceiling 3 or 4
    with pytest.raises(Undecided):
        ball.sign_decided(arb(0, 1))
    assert ball.sign_decided(arb(-1)) == -1


def test_normal_law_agrees_across_systems():
    with mpmath.workdps(30):
        for x in (-6.0, -1.0, 0.0, 0.5, 3.0):
            ref = mpmath.ncdf(x)
            assert abs(mp.ncdf(x) - ref) < mpmath.mpf(10) ** -28 * max(ref, 1e-300)
            assert fp.ncdf(x) == pytest.approx(float(ref), rel=1e-14, abs=0)
            b = ball.ncdf(x)
            assert abs(float(b.mid()) - float(ref)) <= float(b.rad()) + 1e-16 * float(ref)
        d = ball.ncdf_diff(5, 6)
        assert float(d.rad()) < 1e-13 * float(d.mid())  # no cancellation (else ~1e-9 relative)
        with mpmath.workdps(80):
            ref = mpmath.ncdf(6) - mpmath.ncdf(5)
        assert abs(mp.ncdf_diff(5, 6) - ref) < mpmath.mpf(10) ** -28 * ref
        assert fp.ncdf_diff(5.0, 6.0) == pytest.approx(float(mp.ncdf_diff(5, 6)), rel=1e-14, abs=0)


def test_the_airy_prime_zeros_agree_across_systems_and_the_default_is_the_first():
    """a_k' (zeros of Ai'), k = 1 by default: -1.01879297..., the first (largest) one."""
    with mpmath.workdps(30):
        for k in (None, 1, 2, 3):
            ref = mpmath.airyaizero(k or 1, derivative=1)
            got = [c.airy_ai_prime_zero() if k is None else c.airy_ai_prime_zero(k) for c in (fp, mp, ball)]
            assert got[0] == pytest.approx(float(ref), rel=1e-14, abs=0)
            assert abs(got[1] - ref) < mpmath.mpf(10) ** -28
            lo, hi = (mpmath.mpf(e.str(35, radius=False)) for e in (got[2].lower(), got[2].upper()))
            assert lo <= ref <= hi and hi - lo < 1e-14   # a ball at 53 bits
        assert abs(mp.airy_ai_prime_zero() - mpmath.mpf("-1.0187929716474710890")) < mpmath.mpf(10) ** -19


def test_formulas_pickle_by_reference_and_expose_their_body():
    f = pickle.loads(pickle.dumps(formulas.sigma))
    assert f is formulas.sigma
    assert isinstance(formulas.sigma, Formula) and callable(formulas.sigma.body)


def test_one_patch_of_the_body_corrupts_every_system(monkeypatch):
    """Fault injection relies on this: a formula has one body, whatever the number system."""
    original = formulas.log_gap.body
    monkeypatch.setattr(formulas.log_gap, "body", lambda ctx, n, c: 2 * original(ctx, n, c))
    with mpmath.workdps(30):
        assert abs(formulas.budget(10, 0.5, 1) / (mpmath.log1p(mpmath.mpf(1) / 10) ** 2 / 0.5) - 4) \
            < mpmath.mpf(10) ** -25
    assert formulas.budget.fp(10, 0.5, 1.0) == pytest.approx(4 * np.log1p(0.1) ** 2 / 0.5, rel=1e-6, abs=0)
    assert formulas.budget.ball(10, "0.5", 1).overlaps(8 * arb(fmpq(1, 10)).log1p() ** 2)


def test_a_formula_name_exists_once():
    names = formulas.__all__
    assert len(names) == len(set(names))
    for name in names:
        assert isinstance(getattr(formulas, name), Formula)


@pytest.mark.parametrize("x", [mpmath.inf, -mpmath.inf, mpmath.nan])
def test_an_infinite_or_nan_mpf_has_no_exact_rational(x):
    """inf, -inf and nan are refused (their mantissa is 0: read as a number they would be 0)."""
    with pytest.raises(TypeError):
        to_fmpq(x)
    assert to_fmpq(mpmath.mpf("0.75")) == fmpq(3, 4)


@pytest.mark.parametrize("ctx", [fp, mp, ball, exact], ids=lambda c: c.name)
def test_the_order_primitives_in_every_number_system(ctx):
    """min, max, max(x, 0) and the decided sign, by value in each system (a formula such as a
    clipped bound reads them)."""
    def val(v):   # the values here are dyadic: exact in every system
        if isinstance(v, arb):
            return Fraction(str(v.mid()))
        return Fraction(str(v)) if isinstance(v, mpmath.mpf) else Fraction(v)

    a, b = ctx.convert(Fraction(-3, 2)), ctx.convert(2)
    assert val(ctx.minimum(a, b)) == Fraction(-3, 2) and val(ctx.maximum(a, b)) == 2
    assert val(ctx.minimum(b, a)) == Fraction(-3, 2) and val(ctx.maximum(b, a)) == 2
    assert val(ctx.pos(a)) == 0 and val(ctx.pos(b)) == 2
    assert [ctx.sign_decided(ctx.convert(v)) for v in (-2, 0, 3)] == [-1, 0, 1]
    assert all(type(ctx.sign_decided(ctx.convert(v))) is int for v in (-2, 0, 3))
    assert val(ctx.fraction(1, 4)) == Fraction(1, 4)
    assert repr(ctx) == f"<countdp number system {ctx.name}>"


def test_conversions_between_the_systems():
    """Complex balls with a zero imaginary part are real; exact rationals enter mpmath exactly
    (to the precision); floats and lists become float64 arrays."""
    from flint import acb

    assert to_arb(acb(2, 0)) == 2
    with pytest.raises(ValueError, match="nonzero imaginary part"):
        to_arb(acb(2, 1))
    with mpmath.workdps(30):
        assert mp.convert(fmpq(1, 3)) == mpmath.mpf(1) / 3
        assert mp.convert(np.float64(0.5)) == mpmath.mpf("0.5") and mp.convert(np.int64(7)) == 7
    assert np.array_equal(fp.convert([1, 2]), np.array([1.0, 2.0])) and fp.convert([1, 2]).dtype == float
    assert fp.convert(Fraction(1, 4)) == 0.25
    with pytest.raises(TypeError, match="a bool is not a number"):
        to_fmpq(True)


def test_exact_floors_and_ceilings_of_rationals_and_balls():
    assert ball.floor("7/2") == 3 and ball.ceil("7/2") == 4 and ball.floor(Fraction(-7, 2)) == -4
    assert ball.floor(arb("3.25")) == 3 and ball.ceil(arb("3.25")) == 4
    with pytest.raises(Undecided, match="the floor of"):
        ball.floor(arb(3, 0.5))
    with pytest.raises(Undecided, match="the ceiling of"):
        ball.ceil(arb(3, 0.5))
    assert exact.floor("7/2") == 3 and exact.ceil(Fraction(7, 2)) == 4
    for name in ("pi", "e"):
        with pytest.raises(TypeError, match=f"{name} is not rational"):
            getattr(exact, name)
    with pytest.raises(TypeError, match="Phi is not a rational operation"):
        exact.ncdf(Fraction(1))
