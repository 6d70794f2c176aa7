"""Tests of countdp.formulas.log_laplace: the log-Laplace mechanism's closed forms in fp / mp /
ball, and the calibration they encode."""

import mpmath
import pytest
from flint import arb, ctx

from countdp import formulas


@pytest.mark.parametrize("name,args", [("laplace_multiplicative_error", ("0.03",)),
                                       ("laplace_multiplicative_error", ("0.7",)),
                                       ("log_laplace_scale", ("0.05", 1)), ("log_laplace_scale", ("0.45", "0.25"))])
def test_formula_agrees_in_fp_mp_and_ball(name, args):
    f = getattr(formulas, name)
    with mpmath.workdps(40):
        ref = f(*args)
    assert abs(f.fp(*args) - float(ref)) <= 1e-14 * abs(float(ref))
    with ctx.workprec(200):
        enclosure = f.ball(*args)
        assert enclosure.rad() < arb("1e-40")
        with mpmath.workdps(60):
            assert abs(mpmath.mpf(enclosure.mid().str(50, radius=False)) - ref) <= mpmath.mpf(10) ** -35


@pytest.mark.parametrize("r0,c", [("0.05", 1), ("0.45", "0.25"), ("1e-6", 3)])
def test_scale_solves_the_calibration(r0, c):
    with mpmath.workdps(40):
        b = formulas.log_laplace_scale(r0, c)
        assert 0 < b < 1
        assert abs((1 + mpmath.mpf(c)) * formulas.laplace_multiplicative_error(b) - mpmath.mpf(r0)) \
            < mpmath.mpf(10) ** -36 * mpmath.mpf(r0)
