"""countdp.harness.faults and countdp.harness.fault_runs: patches corrupt one formula in every
number system and are undone; a fault is caught exactly when its claim stops passing; the
report names the missed ones."""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction

import mpmath
import pytest
from flint import arb, fmpq

from countdp import formulas
from countdp.harness import fault_runs
from countdp.harness.faults import (Fault, fault, offset_argument, replace_body, scale,
                                    set_attribute, swap_arguments, uncatchable)
from countdp.harness.results import Case, ClaimResult, Settings


def test_scale_corrupts_every_number_system_and_is_undone():
    before = (formulas.two_count_limit("0.1"), formulas.two_count_limit.fp(0.1),
              formulas.two_count_limit.exact("1/10"))
    with scale(formulas.two_count_limit, 2):
        assert formulas.two_count_limit("0.1") == 2 * before[0]
        assert formulas.two_count_limit.fp(0.1) == 2 * before[1]
        assert formulas.two_count_limit.exact("1/10") == 2 * before[2]
        assert formulas.two_count_limit.ball("1/10").contains(arb(fmpq(2 * before[2].numerator,
                                                                         before[2].denominator)))
    assert formulas.two_count_limit("0.1") == before[0]


def test_offset_and_swap_arguments_by_name():
    with mpmath.workdps(30):
        v10, v9 = formulas.budget(10, "0.5", 1), formulas.budget(9, "0.5", 1)
        with offset_argument(formulas.budget, "n", -1):
            assert formulas.budget(10, "0.5", 1) == v9
        assert formulas.budget(10, "0.5", 1) == v10
        swapped = formulas.two_count_template("0.5", 8)
        with swap_arguments(formulas.two_count_template, "a", "theta"):
            assert formulas.two_count_template(8, "0.5") == swapped
    with pytest.raises(ValueError, match="no parameter"):
        offset_argument(formulas.budget, "m", 1)


def test_patches_nest_and_unwind():
    with mpmath.workdps(30):
        base = formulas.two_count_limit("0.1")
        with scale(formulas.two_count_limit, 2):
            with scale(formulas.two_count_limit, 3):
                assert formulas.two_count_limit("0.1") == 6 * base
            assert formulas.two_count_limit("0.1") == 2 * base
        assert formulas.two_count_limit("0.1") == base


def test_replace_body_and_set_attribute():
    with replace_body(formulas.two_count_constant, lambda ctx: ctx.fraction(1, 64)):
        assert formulas.two_count_constant.exact() == Fraction(1, 64)
    assert formulas.two_count_constant.exact() == Fraction(1, 128)

    class Box:
        value = 3
    with set_attribute(Box, "value", 4):
        assert Box.value == 4
    assert Box.value == 3
    with pytest.raises(AttributeError):
        with set_attribute(Box, "missing", 1):
            pass


def test_declarations_are_checked():
    with pytest.raises(ValueError, match="unknown claim id"):
        fault("no.such", "x", "factor", scale(formulas.two_count_limit, 2))
    with pytest.raises(ValueError, match="kind"):
        fault("prop6.2", "x", "typo", scale(formulas.two_count_limit, 2))
    with pytest.raises(TypeError):
        fault("prop6.2", "x", "factor", lambda: None)
    u = uncatchable("prop2.2a", "sign of E|X|", "sign", "true of every law")
    assert isinstance(u, Fault) and not u.catchable
    with pytest.raises(ValueError):
        uncatchable("prop2.2a", "x", "sign", "")


SCRIPT = """
from countdp import formulas
from countdp.harness.claims import claim
from countdp.harness.faults import fault, scale, set_attribute, uncatchable

STATED = 128

@claim("sec8.two_count", routes=["closed form", "grid"])
def template(check):
    value = formulas.two_count_template(8, "0.5")
    check.compare({"a": 8}, value * STATED, "==", 1, 1e-20, route="closed form vs 1/128")
    check.control("1/64", value * 64, "==", 1, 1e-20)

FAULTS = [
    fault("sec8.two_count", "template x 2", "factor", scale(formulas.two_count_template, 2)),
    fault("sec8.two_count", "stated 1/129", "constant", set_attribute(__name__, "STATED", 129)),
    fault("sec8.two_count", "template x 1.000000000000000000000001", "constant",
          scale(formulas.two_count_template, "1.000000000000000000000001")),
    uncatchable("sec8.two_count", "nothing to corrupt", "other", "a listed reason"),
]
"""


def test_run_faults_reports_caught_missed_and_uncatchable(tmp_path):
    checks = tmp_path / "paper_checks"
    checks.mkdir()
    (checks / "s_faults.py").write_text(textwrap.dedent(SCRIPT))
    run = fault_runs.run_faults(Settings(quick=True), jobs=1, root=tmp_path)
    sens = run.claims["sec8.two_count"]
    assert sens.baseline == "pass"
    by_name = {o.name: o for o in sens.outcomes}
    assert by_name["template x 2"].caught and by_name["template x 2"].how == "case"
    assert by_name["stated 1/129"].caught
    assert not by_name["template x 1.000000000000000000000001"].caught  # below the tolerance
    assert by_name["nothing to corrupt"].how == "uncatchable"
    assert sens.missed == ["template x 1.000000000000000000000001"]
    assert sens.text == "caught 2/3 (+1 uncatchable)" and not run.complete
    path = fault_runs.write_faults_json(run, tmp_path / "reports")
    data = json.loads(path.read_text())
    assert data["claims"]["sec8.two_count"]["missed"] == sens.missed
    assert data["catchable"] == 3 and data["caught"] == 2 and data["complete"] is False
    text = fault_runs.format_faults(run)
    assert "MISSED: template x 1.000000000000000000000001" in text
    assert "uncatchable: nothing to corrupt (a listed reason)" in text
    # the patched values never leak: the formula is whole again in this process
    with mpmath.workdps(30):
        assert formulas.two_count_template(8, "0.5") * 128 == 1


def test_gap_over_tolerance_separates_monte_carlo_routes():
    res = ClaimResult("eq3", "eq (3)", "paper", "pass", ["a", "b"])
    res.cases = [Case({"n": 1}, 1.0, "==", 1.5, 1.0, True, "quadrature"),
                 Case({"n": 2}, 1.0, "==", 1.1, 1.0, True, "closed form"),
                 Case({"draws": 10}, 1.0, "==", 1.9, 1.0, True, "Monte Carlo", monte_carlo=True),
                 Case({"n": 3}, 1.0, "<=", 9.0, 0, True, "inequality")]
    det, mc = res.worst_gap(False), res.worst_gap(True)
    assert float(det.ratio) == pytest.approx(0.5) and det.route == "quadrature" and det.cases == 2
    assert float(mc.ratio) == pytest.approx(0.9) and mc.route == "Monte Carlo"
    assert res.worst.startswith("0.5") and "MC 0.9" in res.worst
    j = res.to_json()["worst_gap_over_tolerance"]
    assert j["deterministic"]["route"] == "quadrature" and j["monte_carlo"]["cases"] == 1


def test_patched_runs_start_from_empty_library_caches():
    """A value memoised before a patch must be recomputed under it (the fault would be missed
    otherwise): every functools cache of the library is emptied."""
    from countdp.mechanisms import airy as airy_mechanism

    cached = [f for f in vars(airy_mechanism).values() if hasattr(f, "cache_info")]
    assert cached
    for f in cached:
        f.cache_clear()
    airy_mechanism.calibrate(0.1)
    assert sum(f.cache_info().currsize for f in cached) > 0
    assert fault_runs.clear_library_caches() > 0
    assert sum(f.cache_info().currsize for f in cached) == 0
