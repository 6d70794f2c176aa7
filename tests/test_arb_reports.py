"""What a range certificate reports besides its verdict: the seconds it took (between 0 and the
wall time around the call) and box counts that add up (proved + disproved + undecided never
exceed the boxes decided).  The report shows both; a wrong sum or sign there is a wrong report."""

from __future__ import annotations

import time

import pytest

from countdp.arb import budget, lower_bounds, rounding

CERTIFICATES = {
    "budget decreasing": lambda: budget.certify_budget_decreasing(6),
    "budget asymptotics": lambda: budget.certify_budget_asymptotics(6),
    "two-count bound": lambda: lower_bounds.certify_two_count_bound(4, "1/2"),
    "Markov sum at the partner": lambda: lower_bounds.certify_markov_sum_at_partner(4, "1/2"),
    "rounding identity": lambda: rounding.certify_rounding_identity(grid=4, n_max=2),
}


@pytest.mark.parametrize("name", sorted(CERTIFICATES))
def test_a_range_certificate_reports_its_seconds_and_counts(name):
    t = time.perf_counter()
    res = CERTIFICATES[name]()
    elapsed = time.perf_counter() - t
    assert 0 <= res.seconds <= elapsed
    assert min(res.proved, res.disproved, res.undecided) >= 0
    assert res.proved + res.disproved + res.undecided <= res.boxes
