"""countdp.numerics.series: power-series products, reciprocals and reversion (erfinv from erf)."""

from __future__ import annotations

import mpmath
import pytest

from countdp.numerics.series import erf_series, inverse_half_series, reverse_series, series_reciprocal


pytestmark = pytest.mark.mp_dps(30)


def test_series_reversion():
    exp_m1 = [mpmath.mpf(0)] + [1 / mpmath.factorial(k) for k in range(1, 8)]
    log1p = reverse_series(exp_m1, 7)
    for k in range(1, 8):
        assert abs(log1p[k] - mpmath.mpf((-1) ** (k + 1)) / k) < 1e-25
    s = inverse_half_series(5)
    assert abs(s[3] - mpmath.sqrt(mpmath.pi / 2) * mpmath.pi / 12) < 1e-25
    taylor = mpmath.taylor(lambda x: mpmath.sqrt(2) * mpmath.erfinv(x), 0, 5)
    for k in range(6):
        assert abs(s[k] - taylor[k]) < 1e-10
    with pytest.raises(ValueError):
        reverse_series([1, 1], 3)


def test_erf_series_and_reciprocal():
    b = erf_series(7)
    taylor = mpmath.taylor(mpmath.erf, 0, 7)
    assert all(abs(x - y) < 1e-25 for x, y in zip(b, taylor))
    geometric = series_reciprocal([1, -1], 6)  # 1/(1 - x)
    assert geometric == [1] * 7
    with pytest.raises(ValueError):
        series_reciprocal([0, 1], 3)
