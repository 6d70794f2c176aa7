"""countdp.calculator.histogram: reading a histogram of counts (CSV or JSON), writing the
released one, and the checks of the paths -- each rule by the text it accepts and refuses."""

from __future__ import annotations

import json

import pytest

from countdp.calculator.histogram import (_count, _read_csv, _read_json, check_output_path,
                                          histogram_format, histogram_text, read_histogram)


def test_the_format_is_the_one_given_else_the_suffix():
    assert histogram_format("a.txt", "json") == "json"
    assert histogram_format("data/A.CSV", None) == "csv" and histogram_format("h.json", None) == "json"
    for path, words in (("h.txt", "suffix 'txt'"), ("h", "suffix '\\(none\\)'")):
        with pytest.raises(ValueError, match=words):
            histogram_format(path, None, flag="--output")


@pytest.mark.parametrize("value, count", [(3, 3), ("7", 7), (" 12 ", 12), ("4.0", 4), (5.0, 5), (0, 0),
                                          (2 ** 63 - 1, 2 ** 63 - 1)])
def test_a_count_is_a_nonnegative_integer(value, count):
    got = _count("here", value)
    assert got == count and type(got) is int


@pytest.mark.parametrize("value, words", [
    (True, "got True"), (None, "got None"), ("x", "got 'x'"), ("2.5", "got 2.5"), (2.5, "got 2.5"),
    (float("inf"), "got inf"), (float("nan"), "got nan"), (-1, "got -1"), (2 ** 63, "below 2\\^63"),
    ([1], "got list"),
])
def test_a_count_that_is_not_one_is_refused_naming_where(value, words):
    with pytest.raises(ValueError, match=f"^here: count must be an integer >= 0.*{words}"):
        _count("here", value)


def test_csv_comments_header_and_columns():
    h = _read_csv("# a comment\nCount , Group\n5,a\n\n# another\n0,b\n", "f.csv")
    assert (h.groups, h.counts) == (["a", "b"], [5, 0])
    for text, words in (("", "empty"), ("# only a comment\n", "empty"),
                        ("group,n\na,1\n", "line 1: the header row must name the columns group and count"),
                        ("group,count\na,1,2\n", "line 2: 3 fields, the header has 2"),
                        ("group,count\na,-4\n", "line 2 \\(group 'a'\\): count must be")):
        with pytest.raises(ValueError, match=f"--input f.csv: {words}"):
            _read_csv(text, "f.csv")


def test_json_objects_only():
    h = _read_json('{"x": 2, "y": 3.0}', "f.json")
    assert (h.groups, h.counts) == (["x", "y"], [2, 3])
    for text, words in (("{", "not JSON"), ("[1, 2]", "a JSON histogram is an object \\{group: count\\}, got list"),
                        ('{"x": NaN}', "group 'x': count must be an integer >= 0, got nan")):
        with pytest.raises(ValueError, match=f"--input f.json: {words}"):
            _read_json(text, "f.json")


def test_a_file_needs_groups_each_once(tmp_path):
    p = tmp_path / "h.csv"
    p.write_text("group,count\n")
    with pytest.raises(ValueError, match="holds no group"):
        read_histogram(str(p), "csv")
    p.write_text("group,count\na,1\nb,2\na,3\n")
    with pytest.raises(ValueError, match="the group 'a' appears twice"):
        read_histogram(str(p), "csv")
    with pytest.raises(ValueError, match="cannot be read"):
        read_histogram(str(tmp_path / "missing.csv"), "csv")
    (tmp_path / "bad.csv").write_bytes(b"group,count\n\xff,1\n")
    with pytest.raises(ValueError, match="cannot be read"):
        read_histogram(str(tmp_path / "bad.csv"), "csv")


def test_the_released_histogram_as_csv_and_as_json():
    csv_text = histogram_text(["a", "b,c"], [3, 0.5], "csv", ["seed 1", "rho 0.1"])
    assert csv_text == '# seed 1\n# rho 0.1\ngroup,count\na,3\n"b,c",0.5\n'
    # a float keeps every digit: the text reads back as the same number
    assert _read_csv(histogram_text(["a"], [7], "csv", []), "-").counts == [7]
    js = histogram_text(["a", "é"], [3, 0.1 + 0.2], "json", ["ignored"])
    assert json.loads(js) == {"a": 3, "é": 0.1 + 0.2} and "é" in js and js.endswith("\n")


def test_an_output_path_is_checked_before_computing(tmp_path):
    assert check_output_path("--output", str(tmp_path / "out.csv")) == tmp_path / "out.csv"
    for path, words in ((str(tmp_path), "is a directory"), ("", "is a directory"),
                        (str(tmp_path / "no" / "out.csv"), "the folder .* does not exist")):
        with pytest.raises(ValueError, match=f"^--plot .*{words}"):
            check_output_path("--plot", path)
