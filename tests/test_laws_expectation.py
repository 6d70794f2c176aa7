"""countdp.laws.expectation: expectations under a law by Monte Carlo of its sampler."""

import numpy as np

from countdp.laws.expectation import mc_abs_error
from countdp.mechanisms import ShiftedLogGaussian


def test_mc_abs_error_interval_covers_exact():
    mech = ShiftedLogGaussian(0.45, 1.0, r=0.9)
    est = mc_abs_error(mech.released_law(5), 5, np.random.default_rng(11), 200_000)
    lo, hi = est.interval
    assert lo <= float(mech.expected_abs_error_released(5)) <= hi
