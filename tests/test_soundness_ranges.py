"""Soundness of countdp.arb.ranges: a statement over boxes is proved only when every box is.

Branch and bound with boxes still undecided when the box budget runs out must report
UNDECIDED (never PROVED_TRUE); a statement false on one box must report PROVED_FALSE whatever
the other boxes say; ``tally`` and ``merge`` follow the same rules; the boxes a split makes cover
the range.  A sign-change bracket is returned only with both signs decided, in the direction asked."""

from __future__ import annotations

import pytest
from flint import arb, ctx, fmpq
from hypothesis import example, given
from hypothesis import strategies as st

from countdp.arb.airy import certified_prime_zero
from countdp.arb.ranges import (RangeResult, bisect, merge, sign_change_bracket, split_at_midpoint, split_boxes,
                               tally)
from countdp.arb.verdicts import Undecided, Verdict, decide_gt, interval

T, F, U = Verdict.PROVED_TRUE, Verdict.PROVED_FALSE, Verdict.UNDECIDED


def _positive(bx):
    """x^2 - 1/4 > 0 on the box: false near +-1/2 only as a ball, never provable there."""
    x = interval(bx[0], bx[1])
    return decide_gt(x * x - arb(1) / 4, 0)


def test_undecided_at_the_box_limit_is_undecided():
    # x^2 - 1/4 > 0 on [1/2, 1] is false at x = 1/2 exactly, but no box containing 1/2 is ever
    # decided (the left box's ball always contains 0): the budget runs out with boxes undecided
    res = bisect((arb(1) / 2, arb(1)), _positive, split_at_midpoint, max_boxes=40)
    assert res.verdict is U
    assert res.undecided >= 1 and res.disproved == 0
    assert res.first_bad is not None
    assert res.extra["evaluations"] <= 40 + 1


def test_a_statement_true_everywhere_is_proved():
    res = bisect((arb(1), arb(2)), _positive, split_at_midpoint, max_boxes=40)
    assert res.verdict is T and res.proved == res.boxes and res.undecided == 0


def test_a_statement_that_needs_splitting_is_proved_with_enough_boxes():
    res = bisect((arb(0.6), arb(3)), _positive, split_at_midpoint, max_boxes=200)
    assert res.verdict is T and res.boxes > 1 and res.undecided == 0


def _above_third(bx):
    return decide_gt(interval(bx[0], bx[1]), arb(1) / 3)


def test_false_on_one_box_is_disproved():
    # x > 1/3 on [0, 1]: false on the boxes left of 1/3, undecided only on boxes around 1/3
    res = bisect((arb(0), arb(1)), _above_third, split_at_midpoint, max_boxes=400)
    assert res.verdict is F
    assert res.disproved >= 1 and res.proved >= 1
    assert float(res.first_bad[0].mid()) <= 1 / 3 + 1e-12  # not a box where the statement holds

    def decide(box):  # false on [3, 4] alone: [0, 4] -> [0, 2], [2, 4] -> [2, 3], [3, 4]
        lo, hi = box[0], box[1]
        return F if lo >= 3 else T if hi <= 3 and hi - lo <= 2 else U
    res = bisect((arb(0), arb(4)), decide, split_at_midpoint, 64)
    assert (res.proved, res.disproved, res.undecided) == (2, 1, 0)
    assert res.verdict is F and res.first_bad[0] == 3


def test_false_on_one_box_beats_undecided_boxes():
    # a budget of 5: the box [1/4, 1/2] is left undecided, but [0, 1/4] is already false
    res = bisect((arb(0), arb(1)), _above_third, split_at_midpoint, max_boxes=5)
    assert res.undecided >= 1 and res.disproved >= 1
    assert res.verdict is F


def test_a_box_that_cannot_be_split_stays_undecided():
    # a split that returns nothing (a degenerate box) used to drop the box: nothing left to
    # decide, the statement came out PROVED_TRUE without the box ever being decided
    res = bisect((arb(0), arb(1)), lambda bx: U, lambda bx: [], max_boxes=10)
    assert res.verdict is U and res.undecided == 1
    halves = bisect((arb(0), arb(1)), lambda bx: T if bx[0] >= arb(1) / 2 else U,
                    lambda bx: [] if bx[1] - bx[0] < arb(1) / 4 else split_at_midpoint(bx), max_boxes=50)
    assert halves.verdict is U and halves.proved >= 1


def test_a_budget_of_one_box_never_proves_an_undecided_box():
    res = bisect((arb(0.3), arb(3)), _positive, split_at_midpoint, max_boxes=1)
    assert res.verdict is U and res.proved == 0 and res.undecided == 1


verdicts = st.sampled_from([T, F, U])


@given(st.lists(verdicts, max_size=12))
@example([])
@example([T, T])
@example([T, U])
@example([T, U, F])
def test_tally_by_truth_table(vs):
    res = tally(enumerate(vs))
    expected = F if F in vs else (T if vs and all(v is T for v in vs) else U)
    assert res.verdict is expected
    assert (res.proved, res.disproved, res.undecided) == (vs.count(T), vs.count(F), vs.count(U))
    assert res.boxes == len(vs)
    bad = [i for i, v in enumerate(vs) if v is not T]
    assert res.first_bad == (bad[0] if bad else None)


@given(st.lists(st.lists(verdicts, max_size=5), max_size=5))
@example([[T], [T]])
@example([[T], [U]])
@example([[T], [U], [F]])
def test_merge_by_truth_table(parts):
    results = [tally(enumerate(p)) for p in parts]
    flat = [v for p in parts for v in p]
    # a part with no box is undecided (it proves nothing): merged, it keeps the whole undecided
    expected = F if F in flat else (T if results and all(p and all(v is T for v in p) for p in parts) else U)
    assert merge(results).verdict is expected
    assert merge(results).boxes == len(flat)


def test_merge_of_nothing_is_undecided():
    assert merge([]).verdict is U
    assert tally([]).verdict is U


def test_merge_keeps_an_undecided_part_undecided():
    parts = [RangeResult(T, 3, proved=3), RangeResult(U, 2, proved=1, undecided=1)]
    assert merge(parts).verdict is U


def test_merge_of_a_proved_part_and_an_empty_one_is_undecided():
    # the empty part (no box decided) was reported PROVED_TRUE by the merge: a proof of nothing
    assert merge([tally([("x", T)]), tally([])]).verdict is U
    assert merge([tally([])]).verdict is U
    assert merge([RangeResult(T, 1, proved=1), RangeResult(U, 0)]).verdict is U
    assert merge([RangeResult(T, 1, proved=1), RangeResult(F, 0)]).verdict is F


@pytest.mark.parametrize("decide,expected", [
    (lambda bx: T, T), (lambda bx: F, F), (lambda bx: U, U),
])
def test_bisect_constant_deciders(decide, expected):
    assert bisect((arb(0), arb(1)), decide, split_at_midpoint, max_boxes=8).verdict is expected


def test_split_boxes_cover_the_range():
    boxes = split_boxes(fmpq(-1, 3), 2, 7)
    assert len(boxes) == 7
    assert boxes[0][0] == fmpq(-1, 3) and boxes[-1][1] == 2
    assert all(a[1] == b[0] for a, b in zip(boxes, boxes[1:]))


def test_split_at_midpoint_covers_the_box():
    halves = split_at_midpoint((arb(0), arb(3), "tag"))
    assert len(halves) == 2
    assert halves[0][0] == 0 and halves[1][1] == 3 and halves[0][1] == halves[1][0]
    assert all(h[2] == "tag" for h in halves)


def test_the_sign_change_bracket_widens_from_a_start_off_the_zero():
    """From a start 1000 ulps below a1' the bracket [z - d, z + d] is widened 4-fold from
    d = 2^-prec until Ai' changes sign across it: at d = 4^5 ulps (the first above 1000), so it
    holds a1' and is 2 * 4^5 ulps wide.  A change of the wrong direction is not taken (Ai'
    falls through a1': asked for - to +, the same start is Undecided), nor one that is not
    there (a start 1 away from every zero) once the 40 tries are spent."""

    def f(x):
        return x.airy_ai(derivative=1)

    with ctx.workprec(128):
        ulp = arb(2) ** -128
        a1 = certified_prime_zero()
        for sign in (0, -1):
            lo, hi = sign_change_bracket(f, a1.mid() - 1000 * ulp, "Ai'", sign)
            assert lo < a1 < hi
            assert 2 * 4 ** 5 * ulp <= hi - lo < 2 * 4 ** 5 * ulp * arb("1.001")
        with pytest.raises(Undecided, match="Ai' not certified"):
            sign_change_bracket(f, a1.mid() - 1000 * ulp, "Ai'", +1)
        with pytest.raises(Undecided, match="Ai' not certified"):
            sign_change_bracket(f, a1.mid() + 1, "Ai'")
        # guard bits start the half-width 2^10 ulps wide: a start 2^9 ulps off is found at once
        lo, hi = sign_change_bracket(f, a1.mid() - 2 ** 9 * ulp, "Ai'", guard_bits=10, tries=1)
        assert lo < a1 < hi


def test_the_sign_change_bracket_takes_a_rising_change_either_way_and_keeps_the_root_inside():
    """Ai rises through a1: asked for - to + or for any change it is bracketed, asked for + to -
    it is Undecided.  For a line through 0 at either end of the first try, f = 0 there is not a
    decided sign: the bracket is widened once more, so the root lies strictly inside."""
    with ctx.workprec(128):
        ulp = arb(2) ** -128
        z = arb.airy_ai_zero(1)
        for sign in (0, 1):
            lo, hi = sign_change_bracket(lambda x: x.airy_ai(), z.mid(), "Ai", sign)
            assert lo < arb(z.mid()) < hi and lo.airy_ai() < 0 < hi.airy_ai()
        with pytest.raises(Undecided, match="Ai not certified"):
            sign_change_bracket(lambda x: x.airy_ai(), z.mid(), "Ai", -1)
        start = arb("0.5")
        for end in (start - ulp, start + ulp):          # the first try's ends, exact
            for sign in (1, -1):
                lo, hi = sign_change_bracket(lambda x: sign * (x - end), start, "a line", sign)
                assert lo < end < hi and hi - lo == 8 * ulp
