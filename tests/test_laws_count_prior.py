"""Tests of countdp.laws.count_prior: the shape-3 prior's table, its one-sided shift divergence (float
series, mpmath series, closed-form bound) and the infinite other direction."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from countdp import formulas
from countdp.laws.count_prior import CountPrior, count_prior_for_excess


def test_prior_divergence_series_and_bound():
    prior = CountPrior(10, 0.9)
    kl = prior.shift_kl()
    with mpmath.workdps(30):
        assert kl == pytest.approx(float(prior.mp_shift_kl()), rel=1e-12, abs=0)
    assert kl <= formulas.prior_shift_kl_bound.fp(0.9)
    assert prior.reverse_shift_kl() == float("inf")
    ns, ps = prior.table()
    assert ps.sum() == pytest.approx(1, abs=1e-15) and np.sum(ns * ps) == pytest.approx(prior.mean, rel=1e-12, abs=0)
    with pytest.raises(ValueError):
        CountPrior(0, 0.5)


def test_prior_for_excess_has_that_mean():
    prior = count_prior_for_excess(50, 25)
    assert prior.mean == pytest.approx(75, rel=1e-14, abs=0)


@pytest.mark.parametrize("rho", [1e-6, 0.1, 0.5, 0.9, 0.999])
@pytest.mark.parametrize("tail", [1e-17, 1e-6, 0.5])
def test_table_is_the_shortest_with_its_tail_below_the_cut(rho, tail):
    """The table stops at the least excess j with P(J > j) <= tail: one count less leaves more."""
    from scipy import special
    ns, ps = CountPrior(7, rho).table(tail)
    j = int(ns[-1]) - 7
    assert ns[0] == 7 and len(ns) == j + 1
    assert special.nbdtrc(j, 3, 1 - rho) <= tail
    assert j == 0 or special.nbdtrc(j - 1, 3, 1 - rho) > tail
