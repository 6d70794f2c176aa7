"""countdp.numerics.montecarlo: streamed, seeded Monte Carlo means with their intervals."""

import math

import numpy as np
import pytest

from countdp.numerics.montecarlo import mc_mean


def test_mc_mean_streams_and_is_deterministic():
    f = (lambda g, m: g.standard_normal(m) + 3.0)
    a = mc_mean(f, np.random.default_rng(1), 100_000, chunk=7_000)
    b = mc_mean(f, np.random.default_rng(1), 100_000, chunk=7_000)
    assert a == b and a.draws == 100_000
    assert abs(a.mean - 3.0) < a.halfwidth and a.se == pytest.approx(1 / math.sqrt(100_000), rel=0.05, abs=0)
