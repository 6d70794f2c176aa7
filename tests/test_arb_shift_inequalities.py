"""Tests of countdp.arb.shift_inequalities: the pointwise inequalities and the interpolation margin
are certified, and a wrong statement is not."""

from __future__ import annotations

from countdp.arb.shift_inequalities import certify_interpolation_margin, certify_one_sided, certify_symmetric
from countdp.arb.verdicts import Verdict


def test_symmetric_and_one_sided_certified():
    for pieces in (certify_symmetric(max_boxes=4000), certify_one_sided(max_boxes=4000)):
        assert [p.verdict for p in pieces] == [Verdict.PROVED_TRUE] * 3


def test_interpolation_margin_certified_for_c0_but_not_for_a_larger_constant():
    assert certify_interpolation_margin().verdict is Verdict.PROVED_TRUE
    # with |a1'| = 4.1 (c0 ~ 20) the margin's slope Q turns negative inside [0, 1/2]
    assert certify_interpolation_margin(a1p="-4.1", max_boxes=200).verdict is not Verdict.PROVED_TRUE
