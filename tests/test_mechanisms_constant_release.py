"""Tests of countdp.mechanisms.constant_release: the data-independent release of Proposition 2.3."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from countdp import formulas
from countdp.divergence.renyi import renyi
from countdp.mechanisms.constant_release import DataIndependentRelease


def test_constant_release_exact_errors_and_zero_budget():
    rel = DataIndependentRelease()
    assert rel.exact_error(0) == Fraction(1, 2)
    assert rel.exact_error(5) == Fraction(9, 2)
    assert rel.v(3) == 0
    assert rel.released_law(0).x == rel.released_law(10**6).x == mpmath.mpf("0.5")
    out = rel.release(np.array([[0, 3], [9, 1]]))
    assert out.shape == (2, 2) and np.all(out == 0.5)
    assert renyi(rel.released_law(1), rel.released_law(0), 3).value == 0


def test_constant_release_margins():
    rel = DataIndependentRelease()
    m = rel.margins(1, 10**5)
    assert m.min_margin == Fraction(1, 2) and m.violations == 0 and m.first_violation is None
    lit = rel.margins(1, 10, literal=True)
    assert lit.first_violation == 0 and lit.min_margin == Fraction(-1, 2)
    low = rel.margins(Fraction(99, 100), 1000)
    # r n - (n - 1/2) <= 0 iff n >= 50
    assert low.first_violation == 50 and low.violations == 1000 - 50 + 1


def test_margins_below_r_equal_one_fail_at_the_right_count():
    """prop2.3's control: at r = 9999/10000 the same exact sweep finds violations."""
    rel = DataIndependentRelease()
    low = rel.margins(Fraction(9999, 10000), 10**6)
    assert low.min_margin <= 0
    assert low.first_violation == 5000
    assert rel.margins(1, 10**6).min_margin > 0


@given(st.integers(0, 10**4), st.fractions(min_value=Fraction(1, 100), max_value=Fraction(1)),
       st.sampled_from([Fraction(1, 2), Fraction(1, 3), Fraction(5, 2)]))
@settings(max_examples=40, deadline=None)
def test_margins_match_the_formulas_in_exact_arithmetic(n_max, r, value):
    """The integer sweep is the repaired target (eq 2) minus the release's exact error."""
    rel = DataIndependentRelease(value)
    m = rel.margins(r, n_max)
    ns = range(n_max + 1) if n_max < 300 else [0, 1, 2, n_max // 2, n_max]
    margins = {n: formulas.target.exact(n, r) - formulas.constant_release_error.exact(n, value) for n in ns}
    if n_max < 300:
        assert m.min_margin == min(margins.values())
    assert all(m.min_margin <= v for v in margins.values())
    assert m.counts == n_max + 1
    lit = rel.margins(r, min(n_max, 50), literal=True)
    assert lit.min_margin == min(formulas.literal_target.exact(n, r) - formulas.constant_release_error.exact(n, value)
                                 for n in range(min(n_max, 50) + 1))


@pytest.mark.parametrize("call,name", [
    (lambda: DataIndependentRelease("x"), "value"),
    (lambda: DataIndependentRelease().exact_error(1.5), "n"),
    (lambda: DataIndependentRelease().margins(0, 10), "r"),
    (lambda: DataIndependentRelease().margins(1, -1), "n_max"),
    (lambda: DataIndependentRelease().margins(1, 10**19), "n_max"),
    (lambda: DataIndependentRelease().release([1, -2]), "counts"),
])
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
