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
    assert float(det.ratio) == pytest.approx(0.5, rel=1e-6, abs=0) and det.route == "quadrature" and det.cases == 2
    assert float(mc.ratio) == pytest.approx(0.9, rel=1e-6, abs=0) and mc.route == "Monte Carlo"
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


# ---------------------------------------------------------------------------------------------
# Faults beyond the formulas
# ---------------------------------------------------------------------------------------------


def test_replace_function_rebinds_every_import_and_is_undone():
    from countdp.arb import ranges, verdicts
    from countdp.harness import certificates
    from countdp.harness.faults import replace_function

    original = verdicts.decide_le
    with replace_function("countdp.arb.verdicts:decide_le", lambda f: lambda a, b: "patched"):
        assert verdicts.decide_le(1, 2) == "patched"
        assert decide_le_as_imported_here()(1, 2) == "patched"  # bound by `from ... import`
        assert verdicts.decide_le.__wrapped__ is original
    assert verdicts.decide_le is original and decide_le_as_imported_here() is original
    # a constant is rebound under its own name only (5.0 elsewhere is not touched)
    from countdp.numerics import estimate, montecarlo
    with replace_function("countdp.numerics.estimate:Z_BAR", lambda z: 4.0):
        assert estimate.Z_BAR == montecarlo.Z_BAR == 4.0
    assert montecarlo.Z_BAR == 5.0
    with pytest.raises(TypeError, match="patch_method"):
        with replace_function("countdp.arb.ranges:RangeResult.verdict", lambda f: f):
            pass
    assert ranges.bisect and certificates.Certification


def decide_le_as_imported_here():
    from countdp.arb.verdicts import decide_le
    return decide_le


def test_patch_method_reaches_methods_properties_and_inherited_ones():
    from countdp.harness.certificates import Certification
    from countdp.harness.faults import patch_method, wrap_result
    from countdp.laws import Gaussian
    from countdp.numerics.montecarlo import MCEstimate

    cert = Certification([], [], 0.0)
    with patch_method("countdp.harness.certificates:Certification.certified", lambda f: lambda s: True):
        assert cert.certified is True
    assert cert.certified is False
    g = Gaussian(0, 1)
    with wrap_result("countdp.laws.gaussian:Gaussian.cdf", lambda v: v * 0):
        assert float(g.cdf(0.0)) == 0
    assert float(g.cdf(0.0)) == 0.5
    # inherited from Estimate: overridden on MCEstimate only, and removed again
    with patch_method("countdp.numerics.montecarlo:MCEstimate.interval", lambda f: lambda s: (0, 0)):
        assert MCEstimate(1.0, 0.5).interval == (0, 0)
    assert "interval" not in vars(MCEstimate) and MCEstimate(1.0, 0.5).interval == (0.5, 1.5)
    with pytest.raises(ValueError, match="module:qualname"):
        with patch_method("countdp.laws.gaussian.Gaussian.cdf", lambda f: f):
            pass


def test_core_fault_declarations_are_checked():
    from countdp.harness.faults import core_fault, wrap_result

    p = wrap_result("countdp.arb.verdicts:decide_le", lambda v: v)
    with pytest.raises(ValueError, match="layer"):
        core_fault("formulas", "x", "other", p, claims=("eq3",))
    with pytest.raises(ValueError, match="either"):
        core_fault("arb", "x", "other", p)
    with pytest.raises(ValueError, match="either"):
        core_fault("arb", "x", "other", p, claims=("eq3",), caught_by="tests/test_a.py::test_b")
    with pytest.raises(ValueError, match="node id"):
        core_fault("arb", "x", "other", p, caught_by="test_a::test_b")
    with pytest.raises(ValueError, match="unknown claim"):
        core_fault("arb", "x", "other", p, claims=("no.such",))
    f = core_fault("arb", "x", "other", p, caught_by="tests/test_a.py::test_b", quick=False)
    assert f.core and f.expected == "tests/test_a.py::test_b" and not f.quick


CORE_FAULTS = """
from countdp.arb.verdicts import Verdict
from countdp.harness.faults import core_fault, replace_function, wrap_result

FAULTS = [
    core_fault("harness", "holds inverted", "sign",
               replace_function("countdp.harness.results:holds",
                                lambda f: lambda lhs, rel, rhs, tol=0: not f(lhs, rel, rhs, tol)),
               claims=("sec8.two_count",)),
    core_fault("arb", "undecided proved", "inequality",
               wrap_result("countdp.arb.verdicts:decide_le",
                           lambda v: Verdict.PROVED_TRUE if v is Verdict.UNDECIDED else v),
               caught_by="tests/test_tiny.py::test_undecided"),
    core_fault("arb", "harmless", "other",
               wrap_result("countdp.arb.verdicts:decide_le", lambda v: v),
               caught_by="tests/test_tiny.py::test_undecided"),
    core_fault("numerics", "not in quick mode", "other",
               wrap_result("countdp.arb.verdicts:decide_le", lambda v: v),
               caught_by="tests/test_tiny.py::test_undecided", quick=False),
]
"""

TINY_TEST = """
from flint import arb
from countdp.arb.verdicts import Verdict, decide_le

def test_undecided():
    assert decide_le(arb("1 +/- 0.5"), arb("1.2")) is Verdict.UNDECIDED
"""


def _core_root(root, tiny_test: str) -> None:
    """A project root with the check script, the catalogue beyond the formulas and one test file."""
    (root / "paper_checks").mkdir()
    (root / "tests").mkdir()
    (root / "paper_checks" / "s_faults.py").write_text(textwrap.dedent(SCRIPT))
    (root / "paper_checks" / "_core_faults.py").write_text(textwrap.dedent(CORE_FAULTS))
    (root / "tests" / "test_tiny.py").write_text(textwrap.dedent(tiny_test))


@pytest.mark.slow
def test_core_faults_caught_by_a_claim_or_a_test_and_a_missed_one(tmp_path):
    _core_root(tmp_path, TINY_TEST)
    run = fault_runs.run_faults(Settings(quick=True), jobs=2, root=tmp_path)
    by_name = {o.name: o for o in run.core}
    assert list(by_name) == ["holds inverted", "undecided proved", "harmless"]
    assert run.skipped_core == 1
    claim_caught, test_caught, missed = by_name.values()
    assert claim_caught.caught and claim_caught.how == "case"
    assert claim_caught.caught_by == "sec8.two_count" and claim_caught.layer == "harness"
    assert test_caught.caught and test_caught.how == "test"
    assert test_caught.caught_by == "tests/test_tiny.py::test_undecided"
    assert not missed.caught and missed.how == "missed" and missed.caught_by == ""
    assert not run.complete
    layers = run.by_layer()
    assert layers["arb"] == {"faults": 2, "caught": 1, "by_claims": 0, "by_tests": 1}
    assert layers["harness"] == {"faults": 1, "caught": 1, "by_claims": 1, "by_tests": 0}
    assert layers["formulas"]["by_claims"] == layers["formulas"]["caught"] == 2
    data = json.loads(fault_runs.write_faults_json(run, tmp_path / "reports").read_text())
    core = data["beyond_the_formulas"]
    assert core["missed"] == ["harmless"] and core["left_out_in_quick_mode"] == 1
    assert [f["caught_by"] for f in core["faults"]] == [
        "sec8.two_count", "tests/test_tiny.py::test_undecided", ""]
    assert data["by_layer"]["arb"]["by_tests"] == 1
    assert all(f["caught_by"] == "sec8.two_count" for f in
               data["claims"]["sec8.two_count"]["faults"] if f["caught"])
    text = fault_runs.format_faults(run)
    assert "caught by" in text and "tests/test_tiny.py::test_undecided" in text
    assert "MISSED (missed; expected tests/test_tiny.py::test_undecided)" in text
    assert "by layer: formulas 2/3" in text
    assert "2 of 3 faults beyond the formulas caught (1 by claims, 1 by unit tests)" in text
    # the patches never leak into this process
    from flint import arb
    from countdp.arb.verdicts import Verdict, decide_le
    assert decide_le(arb("1 +/- 0.5"), arb("1.2")) is Verdict.UNDECIDED


@pytest.mark.slow
def test_a_core_fault_whose_test_does_not_exist_is_not_assessed(tmp_path):
    _core_root(tmp_path, "def test_other():\n    pass\n")
    run = fault_runs.run_faults(Settings(quick=True), jobs=1, root=tmp_path)
    assert [o.how for o in run.core] == ["case", "not assessed", "not assessed"]
    assert [o.caught for o in run.core] == [True, False, False] and not run.complete
    assert "no such test" in run.core[1].detail


def test_the_catalogue_beyond_the_formulas_names_tests_and_claims_that_exist():
    """``paper_checks/_core_faults.py``: at least 60 faults over every layer, each naming a test
    function that exists or claims a check script checks."""
    from pathlib import Path

    from countdp.harness import loader
    from countdp.harness.faults import LAYERS

    root = Path(__file__).resolve().parents[1]
    faults = fault_runs.core_faults(root)
    assert len(faults) >= 60 and {f.layer for f in faults} == set(LAYERS)
    assert len({f.name for f in faults}) == len(faults)
    checked = {sp.id for s in loader.discover(root) for sp in s.specs}
    for f in faults:
        if f.caught_by:
            path, test = f.caught_by.split("::")
            assert f"def {test.split('[')[0]}(" in (root / path).read_text(), f.caught_by
        else:
            assert set(f.claims) <= checked, f.name
