"""Tests of countdp.arb.shift_inequalities: the pointwise inequalities and the interpolation margin
are certified, and a wrong statement is not."""

from __future__ import annotations

from flint import fmpq

from countdp.arb.shift_inequalities import certify_interpolation_margin, certify_one_sided, certify_symmetric
from countdp.arb.verdicts import Verdict


def test_symmetric_and_one_sided_certified():
    for pieces in (certify_symmetric(max_boxes=4000), certify_one_sided(max_boxes=4000)):
        assert [p.verdict for p in pieces] == [Verdict.PROVED_TRUE] * 3


def test_interpolation_margin_certified_for_c0_but_not_for_a_larger_constant():
    assert certify_interpolation_margin().verdict is Verdict.PROVED_TRUE
    # with |a1'| = 4.1 (c0 ~ 20) the margin's slope Q turns negative inside [0, 1/2]
    assert certify_interpolation_margin(a1p="-4.1", max_boxes=200).verdict is not Verdict.PROVED_TRUE


def test_each_piece_counts_the_boxes_that_decided_it():
    """A piece decided by one comparison (it keeps that ball) took exactly one box; a branch and
    bound piece at least one, and no more than its limit."""
    for pieces in (certify_symmetric(max_boxes=4000), certify_one_sided(max_boxes=4000)):
        single = [p for p in pieces if p.ball is not None]
        assert len(single) == 2 and all(p.boxes == 1 for p in single)
        assert all(1 <= p.boxes <= 4000 for p in pieces)


def test_the_symmetric_tail_piece_needs_its_cut_off_above_one():
    """The piece [Y, inf) rests on y coth y - 1 > y - 1 >= Y - 1 > 0: at Y = 1 or below that
    argument proves nothing (the inequality still holds there, its proof does not)."""
    for Y in (1, fmpq(1, 2)):
        *_, tail = certify_symmetric(Y=Y, max_boxes=200)
        assert tail.verdict is not Verdict.PROVED_TRUE
    assert certify_symmetric(Y=fmpq(17, 16), max_boxes=4000)[2].verdict is Verdict.PROVED_TRUE
