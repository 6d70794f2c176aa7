"""countdp.arb.verdicts: a comparison of balls is proved only when the balls separate.

Negative controls: deliberately false claims come out PROVED_FALSE or UNDECIDED, never
PROVED_TRUE."""

from __future__ import annotations

import mpmath
import pytest
from flint import arb, fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from countdp import formulas
from countdp.arb.verdicts import (Verdict, control_verdict, decide_contains, decide_decimal,
                                  decide_eq_enclosure, decide_ge, decide_gt, decide_le, decide_lt,
                                  enclosure, to_fmpq, verdict_all)

TRUE, FALSE, UND = Verdict.PROVED_TRUE, Verdict.PROVED_FALSE, Verdict.UNDECIDED


def test_verdict_has_no_truth_value():
    with pytest.raises(TypeError):
        bool(UND)
    with pytest.raises(TypeError):
        if TRUE:  # noqa: SIM108 - the point is that this raises
            pass


def test_decide_basic():
    assert decide_lt(1, 2) is TRUE
    assert decide_lt(2, 1) is FALSE
    assert decide_lt(1, 1) is FALSE
    assert decide_le(1, 1) is TRUE
    assert decide_le(arb("1 +/- 0.5"), arb("1.2")) is UND
    assert decide_gt(arb("1 +/- 0.5"), 2) is FALSE
    assert decide_ge(3, arb("2 +/- 0.5")) is TRUE
    assert verdict_all([TRUE, UND]) is UND
    assert verdict_all([TRUE, FALSE, UND]) is FALSE
    assert verdict_all([]) is UND
    # equality between irrational balls is never provable
    assert decide_eq_enclosure(arb.pi(), arb.pi()) is UND
    assert decide_eq_enclosure(arb(fmpq(1, 128)), fmpq(1, 128)) is TRUE
    assert decide_contains(arb("1 +/- 0.1"), fmpq(21, 20)) is TRUE
    assert decide_contains(arb("1 +/- 0.1"), 2) is FALSE


def test_a_control_must_be_disproved():
    assert control_verdict(FALSE) is TRUE
    assert control_verdict(TRUE) is FALSE
    assert control_verdict(UND) is UND


@settings(max_examples=60, deadline=None)
@given(st.fractions(min_value=-10, max_value=10), st.fractions(min_value=-10, max_value=10),
       st.floats(min_value=0, max_value=1), st.floats(min_value=0, max_value=1))
def test_decide_never_true_on_false_claims(a, b, ra, rb):
    A = arb(to_fmpq(a)) + arb(0, ra) if ra else arb(to_fmpq(a))
    B = arb(to_fmpq(b)) + arb(0, rb) if rb else arb(to_fmpq(b))
    if a > b:
        assert decide_le(A, B) is not TRUE
        assert decide_lt(A, B) is not TRUE
    if a >= b:
        assert decide_lt(A, B) is not TRUE
    if a != b:
        assert decide_eq_enclosure(A, B) is not TRUE


def test_decimals_of_the_table_2_constants():
    assert decide_decimal(formulas.uniform_prior_constant.ball(), "0.0746806") is TRUE
    assert decide_decimal(formulas.uniform_prior_constant.ball(), "0.0746807") is FALSE
    assert decide_decimal(formulas.two_count_constant.ball(), "0.00782") is FALSE
    assert decide_decimal(formulas.gaussian_prior_constant.ball(), "0.1062921") is TRUE


def test_enclosure_covers_the_ball():
    with mpmath.workdps(30):
        mid, rad = enclosure(arb.pi())
        assert abs(mid - mpmath.pi) <= rad
