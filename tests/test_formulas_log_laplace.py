"""Tests of countdp.formulas.log_laplace: the log-Laplace mechanism's closed forms in fp / mp /
ball, and the calibration they encode."""

import mpmath
import pytest

from _number_systems import assert_fp_mp_ball_agree
from countdp import formulas


@pytest.mark.parametrize("name,args", [("laplace_multiplicative_error", ("0.03",)),
                                       ("laplace_multiplicative_error", ("0.7",)),
                                       ("log_laplace_scale", ("0.05", 1)), ("log_laplace_scale", ("0.45", "0.25"))])
def test_fp_mp_ball_agree(name, args):
    assert_fp_mp_ball_agree(getattr(formulas, name), args)


@pytest.mark.parametrize("r0,c", [("0.05", 1), ("0.45", "0.25"), ("1e-6", 3)])
def test_scale_solves_the_calibration(r0, c):
    with mpmath.workdps(40):
        b = formulas.log_laplace_scale(r0, c)
        assert 0 < b < 1
        assert abs((1 + mpmath.mpf(c)) * formulas.laplace_multiplicative_error(b) - mpmath.mpf(r0)) \
            < mpmath.mpf(10) ** -36 * mpmath.mpf(r0)
