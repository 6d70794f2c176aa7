"""Tests of countdp.formulas.boundary (Section 2): fp / mp / ball agree to rounding, and the
targets and the constant release's error are exact rationals."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from _number_systems import assert_fp_mp_ball_agree
from countdp import formulas

POINTS = [
    (formulas.literal_target, (7, Fraction(1, 2))),
    (formulas.literal_target, (0, Fraction(1, 3))),
    (formulas.constant_release_error, (0, Fraction(1, 2))),
    (formulas.constant_release_error, (10**6, Fraction(1, 2))),
    (formulas.constant_release_error, (3, Fraction(7, 3))),
]


@pytest.mark.parametrize("f,args", POINTS, ids=lambda x: getattr(x, "__name__", None))
def test_fp_mp_ball_agree(f, args):
    assert_fp_mp_ball_agree(f, args)


def test_exact_values():
    assert formulas.literal_target.exact(0, Fraction(1, 2)) == 0
    assert formulas.literal_target.exact(4, Fraction(1, 2)) == 2
    assert formulas.target.exact(0, Fraction(1, 2)) == Fraction(1, 2)  # eq (2) lives in formulas.mechanism
    assert formulas.target.exact(7, 1) == 7
    assert formulas.constant_release_error.exact(0, Fraction(1, 2)) == Fraction(1, 2)
    assert formulas.constant_release_error.exact(5, Fraction(1, 2)) == Fraction(9, 2)
    assert formulas.constant_release_error.exact(5, "1/2") == Fraction(9, 2)  # a string, taken exactly
    assert formulas.constant_release_error.exact(1, 0) == 1  # delta_0 at count 1


def test_fp_is_vectorised():
    assert np.allclose(formulas.constant_release_error.fp(np.arange(4), 0.5), [0.5, 0.5, 1.5, 2.5], atol=0)
    assert np.allclose(formulas.literal_target.fp(np.arange(3), 0.5), [0, 0.5, 1], atol=0)
