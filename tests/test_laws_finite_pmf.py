"""countdp.laws.FinitePmf: a table {k: p_k} read exactly (decimal strings and floats by their
shortest decimal, mpmath numbers by their binary value), normalised exactly, its support, its
atoms and its sampler."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy import stats

from countdp.laws import FinitePmf


def test_values_are_read_exactly_and_normalised_exactly():
    assert FinitePmf({0: "0.3", 1: "0.7"})._exact == {0: Fraction(3, 10), 1: Fraction(7, 10)}
    # 0.1 + 0.2 + 0.7 is not 1 in binary; read as decimals the table sums to 1 exactly
    p = FinitePmf({0: 0.1, 1: 0.2, 2: 0.7})
    assert p._exact == {0: Fraction(1, 10), 1: Fraction(1, 5), 2: Fraction(7, 10)}
    third = mpmath.mpf(1) / 3                   # a binary number, not 1/3
    q = FinitePmf({0: third, 1: 1 - third})
    b0, b1 = (Fraction(int(v.man_exp[0])) * Fraction(2) ** int(v.man_exp[1]) for v in (third, 1 - third))
    assert q._exact == {0: b0 / (b0 + b1), 1: b1 / (b0 + b1)} and q._exact[0] != Fraction(1, 3)
    # within 1e-9 of 1 the table is accepted and divided by its sum
    r = FinitePmf({0: Fraction(1, 2), 1: Fraction(1, 2) + Fraction(1, 10 ** 10)})
    assert sum(r._exact.values()) == 1 and r._exact[0] < Fraction(1, 2)
    assert FinitePmf({0: np.int64(1)})._exact == {0: 1}


@pytest.mark.parametrize("table, words", [
    ({0: 0.5, 1: 0.4}, "must sum to 1, got 0.9"),
    ({0: 0, 1: 0}, "must sum to 1, got 0.0"),
    ({0: Fraction(1, 2), 1: Fraction(1, 2) + Fraction(2, 10 ** 9)}, "must sum to 1"),
    ({0: "1/0"}, "numbers or decimal strings"),
    ({0: "x"}, "numbers or decimal strings"),
    ({0: float("inf")}, "must be finite"),
    ({0: mpmath.inf}, "must be finite"),
    ({0: 1.5, 1: -0.5}, "must be >= 0"),
])
def test_bad_tables_are_refused_with_the_reason(table, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        FinitePmf(table)


def test_support_atoms_and_pmf():
    p = FinitePmf({5: 0.25, -3: 0.75, 9: 0})
    assert (p.support_lo, p.support_hi) == (-3, 5)      # a zero entry is not in the support
    assert p.window(1e-9) == (-3, 5)
    assert p.atoms() == {mpmath.mpf(-3): mpmath.mpf("0.75"), mpmath.mpf(5): mpmath.mpf("0.25")}
    assert [p.mp_pmf(k) for k in (-3, 0, 5, 9)] == [mpmath.mpf("0.75"), 0, mpmath.mpf("0.25"), 0]
    assert p.mp_logpmf(0) == -mpmath.inf and p.mp_logpmf(5) == mpmath.log(mpmath.mpf("0.25"))
    assert p.describe() == "finite pmf" and FinitePmf({1: 1}, name="one").describe() == "one"


def test_the_sampler_draws_the_table():
    """A chi-square test of 40 000 seeded draws at level 1e-6, and the same draws for the same seed."""
    p = FinitePmf({-1: "0.2", 0: "0.5", 4: "0.3"})
    x = p.sample(np.random.default_rng(11), 40_000)
    assert np.array_equal(x, p.sample(np.random.default_rng(11), 40_000))
    assert set(np.unique(x)) == {-1, 0, 4}
    counts = [np.sum(x == k) for k in (-1, 0, 4)]
    assert stats.chisquare(counts, [0.2 * 40_000, 0.5 * 40_000, 0.3 * 40_000]).pvalue > 1e-6
