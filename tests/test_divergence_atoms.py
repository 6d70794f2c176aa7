"""Tests of countdp.divergence.atoms: D_alpha of atom tables from the definition, and the
pushforward to the indicator 1{X != x}."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from countdp.divergence.atoms import indicator_pushforward, renyi_atoms
from countdp.divergence.renyi import renyi
from countdp.laws import FinitePmf, Gaussian, PointMass
from countdp.mechanisms.unequal_variance import UnequalVarianceGaussian


pytestmark = pytest.mark.mp_dps(30)


def _mp(q: Fraction):
    return mpmath.mpf(q.numerator) / q.denominator


@given(st.lists(st.integers(1, 50), min_size=1, max_size=5), st.lists(st.integers(1, 50), min_size=1, max_size=5),
       st.sampled_from([2, 3, Fraction(3, 2)]))
@settings(max_examples=30, deadline=None)
def test_renyi_atoms_matches_engine(pw, qw, alpha):
    k = max(len(pw), len(qw))
    pw = pw + [0] * (k - len(pw))
    qw = qw + [1] * (k - len(qw))
    p = {i: Fraction(w, sum(pw)) for i, w in enumerate(pw)}
    q = {i: Fraction(w, sum(qw)) for i, w in enumerate(qw)}
    with mpmath.workdps(30):
        d = renyi_atoms(p, q, alpha)
        eng = renyi(FinitePmf(p), FinitePmf(q), _mp(Fraction(alpha)))
        assert d.reason is None and d.value >= -1e-25
        assert abs(d.value - eng.value) <= 1e-20


def test_renyi_atoms_support_mismatch_and_identity():
    d = renyi_atoms({0: 1}, {0: 1}, 2)
    assert d.value == 0 and d.reason is None and d.finite
    d = renyi_atoms({0: Fraction(1, 2), 1: Fraction(1, 2)}, {0: 1}, 2)
    assert mpmath.isinf(d.value) and "support mismatch" in d.reason


def test_indicator_pushforward():
    push = indicator_pushforward(Gaussian(1, 1))
    assert abs(push.masses[1] - 1) < 1e-25 and abs(push.masses[0]) < 1e-25
    assert indicator_pushforward(PointMass(0)).masses == {0: 1, 1: 0}


def test_boundary_edge_is_infinite_by_both_routes():
    X = UnequalVarianceGaussian(0.5)
    for alpha in (mpmath.mpf("1.01"), 2, 100):
        assert mpmath.isinf(renyi(X.law(1), X.law(0), alpha).value)
        push = indicator_pushforward(X.law(1))
        assert mpmath.isinf(renyi_atoms(push.masses, {0: 1, 1: 0}, alpha).value)


@pytest.mark.parametrize("call,name", [
    (lambda: renyi_atoms({0: 1}, {0: 1}, 1), "alpha"),
    (lambda: renyi_atoms({}, {0: 1}, 2), "p"),
    (lambda: renyi_atoms({0: 1}, {0: -1}, 2), "q"),
])
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_a_point_of_p_with_mass_zero_is_no_support_mismatch():
    """A table may list a point with mass 0: where Q has none it is no mismatch (P puts nothing
    there) and the divergence is that of the table without it."""
    p = {0: Fraction(1, 2), 1: Fraction(1, 2), 2: Fraction(0)}
    q = {0: Fraction(1, 4), 1: Fraction(3, 4)}
    for alpha in (2, Fraction(3, 2)):
        d = renyi_atoms(p, q, alpha)
        assert d.value == renyi_atoms({0: p[0], 1: p[1]}, q, alpha).value and mpmath.isfinite(d.value)


@pytest.mark.parametrize("exact", [True, False], ids=["fractions", "floats"])
@pytest.mark.parametrize("gap", [Fraction(1, 10 ** 12), Fraction(1, 10 ** 20)])
def test_two_close_laws_keep_their_divergence_and_carry_its_rounding(exact, gap):
    """(1/2 + g, 1/2 - g) against (1/2, 1/2): D_2 = log(1 + 4 g^2) = 4e-24 at g = 1e-12, 4e-40 at
    1e-20; the sum p^2/q rounded to 1 gave 0 +- 0 (an error of 0 claimed for a value it lost).
    Against the same sum at 80 digits: within the bar, and the bar relative (it decides)."""
    p = {0: Fraction(1, 2) + gap, 1: Fraction(1, 2) - gap}
    q = {0: Fraction(1, 2), 1: Fraction(1, 2)}
    alpha = 2 if exact else Fraction(3, 2)
    if not exact:  # binary masses that still hold the gap (40 digits)
        with mpmath.workdps(40):
            p = {k: mpmath.mpf(v.numerator) / v.denominator for k, v in p.items()}
    d = renyi_atoms(p, q, alpha)
    with mpmath.workdps(80):
        pm = {k: mpmath.mpf(v) if isinstance(v, mpmath.mpf) else mpmath.mpf(v.numerator) / v.denominator
              for k, v in p.items()}
        a = mpmath.mpf(alpha.numerator) / alpha.denominator if isinstance(alpha, Fraction) else mpmath.mpf(alpha)
        ref = mpmath.log(mpmath.fsum(pm[k] ** a * mpmath.mpf(q[k]) ** (1 - a) for k in pm)) / (a - 1)
    assert ref > 0 and abs(d.value - ref) <= d.error <= mpmath.mpf(10) ** -10 * ref
