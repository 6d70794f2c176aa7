"""countdp.numerics.multistart: multistart Nelder-Mead and the Newton polish."""

from __future__ import annotations

import mpmath
import pytest

from countdp.numerics.multistart import maximise_from_starts


@pytest.fixture(autouse=True)
def _precision():
    with mpmath.workdps(30):
        yield


def test_maximise_one_and_two_variables():
    opt = maximise_from_starts(lambda x: x * mpmath.exp(-x), [(0.5,), (3.0,)], [(0, 50)])
    assert abs(opt.argmax[0] - 1) < 1e-20 and abs(opt.value - mpmath.exp(-1)) <= opt.error
    assert [f.start for f in opt.found] == [(0.5,), (3.0,)]
    f = lambda x, y: -(x - 1) ** 2 - 2 * (y + mpmath.mpf(1) / 3) ** 2 + 5  # noqa: E731
    opt = maximise_from_starts(f, [(0.0, 0.0), (3.0, -2.0)], [(-10, 10), (-10, 10)], digits_lost=8)
    assert abs(opt.argmax[0] - 1) < 1e-20 and abs(opt.argmax[1] + mpmath.mpf(1) / 3) < 1e-20
    assert abs(opt.value - 5) <= opt.error
    assert all(abs(fd.argmax[0] - 1) < 1e-6 for fd in opt.found)
