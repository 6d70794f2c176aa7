"""Tests of countdp.numerics.optimize.maximise."""

import mpmath
import pytest

from countdp.numerics.optimize import Maximum, maximise


def test_maximise_a_parabola():
    with mpmath.workdps(30):
        best = maximise(lambda t: -(t - mpmath.mpf(2) / 3) ** 2 + 1, 0, 5)
        assert isinstance(best, Maximum)
        assert abs(best.argmax - mpmath.mpf(2) / 3) < 1e-20 and abs(best.value - 1) < 1e-25
        assert best.argmax_error < 1e-10


def test_maximise_at_the_end_of_the_interval_falls_back_to_the_bracket():
    with mpmath.workdps(30):
        best = maximise(lambda t: t, 0, 1)
        assert abs(best.argmax - 1) <= best.argmax_error + 1e-20


def test_bad_interval_raises():
    with pytest.raises(ValueError, match="lo must be < hi"):
        maximise(lambda x: x, 2, 1)
