"""countdp.calculator.output: the JSON of a budget (numbers as JSON numbers at the working
precision, the parameters echoed)."""

from __future__ import annotations

import json
import math
from decimal import Decimal

import mpmath
import pytest

from countdp.calculator import output
from countdp.calculator.budget import guarantee


def test_json_numbers_and_parameters():
    b = guarantee(0.05, 1, [1, 10], delta=1e-6, releases=2, r=0.1, dps=40)
    text = output.json_text(output.to_json(b))
    data = json.loads(text)
    assert data["parameters"] == {"r0": 0.05, "c": 1, "r": 0.1, "n": [1, 10], "delta": 1e-6,
                                  "eps": None, "releases": 2, "dps": 40}
    row = data["rows"][1]
    assert isinstance(row["v"], float) and isinstance(row["conversions"][0]["eps"], float)
    exact = json.loads(text, parse_float=Decimal)["rows"][1]["v"]
    with mpmath.workdps(40):
        assert abs(mpmath.mpf(str(exact)) - b.rows[1].v) < mpmath.mpf(10) ** -40 * b.rows[1].v * 10


def test_the_header_of_several_releases_shows_the_single_and_the_composed_v0():
    """Under a "10 releases" header, v(0) is labelled as one release's, and the composed
    rho = 10 v(0) follows it."""
    one = output.budget_text(guarantee(r0=0.05, c=1, n=10, delta=1e-6), 6).splitlines()
    ten = output.budget_text(guarantee(r0=0.05, c=1, n=10, delta=1e-6, releases=10), 6).splitlines()
    assert ten[0].endswith("10 releases") and "one release" in ten[2]
    v0 = mpmath.mpf(ten[2].split()[3])
    assert ten[2] == one[2] and ten[3].startswith("  rho = 10 v(0)    ")
    assert mpmath.mpf(ten[3].split()[4]) == mpmath.mpf(output.significant(10 * guarantee(
        r0=0.05, c=1, n=10, delta=1e-6).v0, 6)) and abs(mpmath.mpf(ten[3].split()[4]) / v0 - 10) < 1e-4
    assert "10 releases composed" in ten[3] and not any("rho = " in ln for ln in one[:4])


@pytest.mark.slow
def test_each_line_of_a_count_block_shows_its_own_number():
    """The block of one count prints E|Y - n|, that error relative to max(n, 1), the bound of
    Theorem 3.1(i) and the utility target, each the row's value to the digits asked (n = 0 is
    relative to 1)."""
    for n in (0, 40):
        b = guarantee(r0=0.05, c=1, n=n, delta=1e-6, r=0.1)
        row, block = b.rows[0], output.budget_text(b, 6)
        err_line = next(ln for ln in block.splitlines() if ln.startswith("  E|Y - n|"))
        assert mpmath.mpf(err_line.split()[3]) == mpmath.mpf(output.significant(row.expected_error, 6))
        rel = mpmath.mpf(err_line.rsplit("= ", 1)[1].rstrip(")"))
        assert abs(rel / (row.expected_error / max(row.n, 1)) - 1) < 1e-2
        bound_line = next(ln for ln in block.splitlines() if ln.startswith("  r0 (n+c)/(1+c)"))
        assert mpmath.mpf(bound_line.split()[2]) == mpmath.mpf(output.significant(row.error_bound, 6))
        target_line = next(ln for ln in block.splitlines() if ln.startswith("  r max(n, 1)"))
        assert mpmath.mpf(target_line.split()[3]) == mpmath.mpf(output.significant(row.target, 6))


def test_the_error_bars_of_a_conversion_have_three_significant_digits():
    """eps_error and delta_error are written at 3 significant digits (the values at the working
    precision): 1.95e-9, not 2e-9 or the full 30 digits."""
    b = guarantee(0.05, 1, 10, delta=1e-6, eps=1.0)
    found = 0
    for cv, row in zip(b.rows[0].conversions, output.to_json(b)["rows"][0]["conversions"]):
        for key in ("eps_error", "delta_error"):
            if getattr(cv, key):
                assert row[key] == output.significant(getattr(cv, key), 3)
                assert len(row[key].split("e")[0].replace(".", "")) == 3
                found += 1
    assert found >= 4


def test_a_conversion_without_a_note_prints_no_note_line():
    """A conversion's note is printed only when it has one: a plain run shows one line per
    conversion, a verbose one adds the method (and error) line, never a "(None)"."""
    b = guarantee(r0=0.05, c=1, n=10, delta=1e-6)
    assert all(cv.note is None and cv.eps is not None for cv in b.rows[0].conversions)
    for verbose, per_conversion in ((False, 1), (True, 2)):
        lines = output.budget_text(b, 6, verbose=verbose).splitlines()
        start = next(i for i, ln in enumerate(lines) if "tightest first" in ln) + 1
        end = next(i for i, ln in enumerate(lines) if ln.startswith("  E|Y - n|"))
        assert end - start == per_conversion * len(b.rows[0].conversions)
        assert "None" not in "\n".join(lines)


def test_a_float_parameter_is_echoed_as_given_zero_as_0_and_a_non_finite_one_as_null():
    """JSON has no inf or nan: a float that is not finite becomes null; 0.0 is the number 0, and
    any other float keeps its shortest repr."""
    assert output._num(0.0, 6) == 0
    assert output._num(math.inf, 6) is None and output._num(-math.inf, 6) is None
    assert output._num(math.nan, 6) is None
    assert json.loads(output.json_text({"x": output._num(0.1, 6)})) == {"x": 0.1}


def test_json_text_is_laid_out_as_the_standard_library_lays_it_out():
    """Nested lists and objects, empty ones, null and booleans: the same text as json.dumps with the
    same indent (plus a final newline), so only the numbers' digits differ from it."""
    obj = {"a": [1, {"b": [2, 3], "e": []}, [4, [5]]], "c": {"d": None, "t": True, "f": False, "o": {}}}
    for indent in (1, 3):
        assert output.json_text(obj, indent) == json.dumps(obj, indent=indent) + "\n"
