"""countdp.arb.ranges: a statement over a range is proved only when every box is; a box still
undecided at the box limit, or one false box, keeps it from being proved."""

from __future__ import annotations

from flint import arb, fmpq

from countdp.arb.ranges import bisect, merge, split_at_midpoint, split_boxes, tally
from countdp.arb.verdicts import Verdict, decide_gt, decide_lt

TRUE, FALSE, UND = Verdict.PROVED_TRUE, Verdict.PROVED_FALSE, Verdict.UNDECIDED


def _x_sq_positive(box):
    """x^2 > 0 on the box: true on every box off 0, undecided on every box touching 0."""
    x = arb(box[0]).union(arb(box[1]))
    return decide_gt(x * x, 0)


def test_bisect_proves_a_true_statement():
    res = bisect((arb(1), arb(2)), lambda b: decide_gt(arb(b[0]).union(arb(b[1])), 0),
                 split_at_midpoint, 50)
    assert res.verdict is TRUE and res.proved == res.boxes and res.undecided == 0


def test_bisect_undecided_at_the_box_limit():
    res = bisect((arb(-1), arb(1)), _x_sq_positive, split_at_midpoint, 40)
    assert res.verdict is UND and res.undecided >= 1 and res.disproved == 0
    assert res.first_bad is not None


def test_bisect_false_on_one_box():
    def decide(box):  # false on [3, 4] alone: [0, 4] -> [0, 2], [2, 4] -> [2, 3], [3, 4]
        lo, hi = box[0], box[1]
        return FALSE if lo >= 3 else TRUE if hi <= 3 and hi - lo <= 2 else UND
    res = bisect((arb(0), arb(4)), decide, split_at_midpoint, 64)
    assert (res.proved, res.disproved, res.undecided) == (2, 1, 0)
    assert res.verdict is FALSE and res.first_bad[0] == 3


def test_tally_truth_table():
    assert tally([]).verdict is UND
    assert tally([(1, TRUE), (2, TRUE)]).verdict is TRUE
    assert tally([(1, TRUE), (2, UND)]).verdict is UND
    res = tally([(1, TRUE), (2, UND), (3, FALSE)])
    assert res.verdict is FALSE and res.first_bad == 2 and (res.proved, res.undecided,
                                                             res.disproved) == (1, 1, 1)


def test_merge_truth_table():
    t, u, f = tally([(1, TRUE)]), tally([(2, UND)]), tally([(3, FALSE)])
    assert merge([]).verdict is UND
    assert merge([t, t]).verdict is TRUE
    assert merge([t, u]).verdict is UND
    assert merge([t, u, f]).verdict is FALSE and merge([t, u, f]).boxes == 3


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
