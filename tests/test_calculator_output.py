"""countdp.calculator.output: the JSON of a budget (numbers as JSON numbers at the working
precision, the parameters echoed)."""

from __future__ import annotations

import json
from decimal import Decimal

import mpmath

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
