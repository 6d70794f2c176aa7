"""countdp.calculator.counts: the counts of a budget table from a command-line value."""

from __future__ import annotations

import pytest

from countdp.calculator.counts import parse_counts


@pytest.mark.parametrize("text, want", [
    ("10", [10]), ("1e6", [10 ** 6]), ("1,10,100", [1, 10, 100]), ("100,1,10,1", [1, 10, 100]),
    ("1:1e6:log", [10 ** k for k in range(7)]), ("0:1000:log", [0, 1, 10, 100, 1000]),
    ("0:10", list(range(11))), ("0:100:25", [0, 25, 50, 75, 100]), ("5:5", [5]),
    ("2:2000:log", [2, 20, 200, 2000]), ("1:10:log2", [1, 3, 10]), ("1e400", [10 ** 400]),
])
def test_parse_counts(text, want):
    assert parse_counts(text) == want


@pytest.mark.parametrize("text", ["", "x", "1.5", "-1", "1e-3", "10:1", "1:2:0", "1:10:lg", "1,,2",
                                  "1:1e9", "1:2:3:4", "nan", "inf", "1:1e6:log0", ":", "1e100001"])
def test_parse_counts_refuses(text):
    with pytest.raises(ValueError, match="n"):
        parse_counts(text)


def test_the_largest_count_is_below_1e100000_as_the_message_says():
    assert parse_counts("9e99999") == [9 * 10 ** 99999]
    for text in ("1e100000", "10e99999"):
        with pytest.raises(ValueError, match="n must be below 1e100000, got '"):
            parse_counts(text)


def test_a_range_is_limited_by_the_counts_it_holds():
    """At most MAX_ROWS counts: a range of exactly MAX_ROWS counts (every integer or stepped over
    a span far wider than MAX_ROWS) is taken; one more count is refused, naming the range."""
    from countdp.calculator.counts import MAX_ROWS
    assert len(parse_counts(f"1:{MAX_ROWS}")) == MAX_ROWS
    assert len(parse_counts(f"0:{1000 * (MAX_ROWS - 1)}:1000")) == MAX_ROWS
    for text in (f"0:{MAX_ROWS}", f"0:{1000 * MAX_ROWS}:1000"):
        with pytest.raises(ValueError, match=rf"^n: the range '{text}' has more than {MAX_ROWS} counts"):
            parse_counts(text)
    # a log range of exactly MAX_ROWS points (99.991 decades at 100 per decade, the last 10^99.99)
    # is taken; a span of 100 decades holds MAX_ROWS + 1 points and is refused
    assert len(str(parse_counts("1:98e98:log100")[-1])) == 100        # 10^99.99
    with pytest.raises(ValueError, match=rf"^n: the range '1:1e100:log100' has more than {MAX_ROWS} counts"):
        parse_counts("1:1e100:log100")
