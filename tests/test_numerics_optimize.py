"""Tests of countdp.numerics.optimize: the one-variable maximiser and the multistart one."""

import mpmath
import pytest

from countdp.numerics.optimize import Maximum, maximise, maximise_from_starts


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



pytestmark = pytest.mark.mp_dps(30)


def test_maximise_one_and_two_variables():
    opt = maximise_from_starts(lambda x: x * mpmath.exp(-x), [(0.5,), (3.0,)], [(0, 50)])
    assert abs(opt.argmax[0] - 1) < 1e-20 and abs(opt.value - mpmath.exp(-1)) <= opt.error
    assert [f.start for f in opt.found] == [(0.5,), (3.0,)]
    f = lambda x, y: -(x - 1) ** 2 - 2 * (y + mpmath.mpf(1) / 3) ** 2 + 5  # noqa: E731
    opt = maximise_from_starts(f, [(0.0, 0.0), (3.0, -2.0)], [(-10, 10), (-10, 10)], digits_lost=8)
    assert abs(opt.argmax[0] - 1) < 1e-20 and abs(opt.argmax[1] + mpmath.mpf(1) / 3) < 1e-20
    assert abs(opt.value - 5) <= opt.error
    assert all(abs(fd.argmax[0] - 1) < 1e-6 for fd in opt.found)
