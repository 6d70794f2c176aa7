"""countdp.numerics.normal: the standard normal law in float64 and in mpmath, against mpmath's
own functions and an 80-digit evaluation."""

import mpmath
import numpy as np
import pytest

from countdp.numerics import normal


def test_normal_float_vs_mpmath():
    xs = np.array([-30.0, -5.0, -1.0, 0.0, 0.3, 2.0, 8.0])
    for x in xs:
        with mpmath.workdps(40):  # log Phi(8) = log(1 - 6.2e-16): 15 digits would round it to 1 - 6.7e-16
            ref = [float(f(x)) for f in (mpmath.ncdf, lambda t: mpmath.log(mpmath.ncdf(t)), mpmath.npdf)]
        assert normal.Phi(x) == pytest.approx(ref[0], rel=1e-12, abs=1e-300)
        assert normal.log_Phi(x) == pytest.approx(ref[1], rel=1e-13, abs=0)
        assert normal.phi(x) == pytest.approx(ref[2], rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("p", ["1e-30", "0.001", "0.4", "0.5", "0.50625", "0.9", "0.999999"])
def test_mp_phi_inv_roundtrip(p):
    with mpmath.workdps(40):
        x = normal.mp_Phi_inv(mpmath.mpf(p))
        assert abs(mpmath.ncdf(x) - mpmath.mpf(p)) <= mpmath.mpf(p) * mpmath.mpf(10) ** -35


def test_phi_diff_no_cancellation():
    with mpmath.workdps(30):
        d = normal.mp_Phi_diff(40, 41)
    with mpmath.workdps(80):
        ref = (mpmath.erfc(40 / mpmath.sqrt(2)) - mpmath.erfc(41 / mpmath.sqrt(2))) / 2
        assert abs(d - ref) / ref < mpmath.mpf(10) ** -25
