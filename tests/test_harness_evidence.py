"""The kind of evidence of a passing claim: conditional while any step of its argument is
numerical or assumed, whatever its cases and certificates; a proof when its certificates prove
the claim itself, or when every step is proved or certified and every record is proved;
certified instances; numerical evidence.  Reported in the JSON, the claim page and ``check``."""

from __future__ import annotations

import pytest
from flint import arb
from hypothesis import given
from hypothesis import strategies as st

from countdp.arb.verdicts import Verdict, decide_lt
from countdp.harness.catalogue import CATALOGUE
from countdp.harness.certificates import CertificateSpec
from countdp.harness.claim_pages import evidence_text
from countdp.harness.claims import CheckSpec, run_check
from countdp.harness.report import format_result
from countdp.harness.results import EVIDENCE_KINDS, STEP_KINDS, Settings, Step, evidence_of

CLAIM_ID = next(iter(CATALOGUE))


def _spec(steps, cert_scopes):
    def check(c):
        c.compare({"n": 1}, 1.0, "<=", 2.0)
        c.control("perturbed", 3.0, "<=", 2.0)
        for name, kind in steps:
            c.step(name, kind, "why")

    def cert(scope):
        def func(b):
            with b.precision(53):
                b.record("one < two", "balls separate", arb(1), decide_lt(arb(1), arb(2)))
        func.__countdp_certificate__ = CertificateSpec(CLAIM_ID, func, scope)
        return func

    return CheckSpec(CLAIM_ID, ["a", "b"], check, CATALOGUE[CLAIM_ID], [cert(sc) for sc in cert_scopes])


def _proved(scope=None):
    return {"certified": True, "proof": scope == "claim"}


@pytest.mark.parametrize("steps, certified, kind", [
    ([], None, "numerical"),
    ([], {"certified": False, "proof": False}, "numerical"),
    ([], _proved("instance"), "certified instances"),
    ([], _proved("claim"), "proof"),
    ([Step("a", "proved"), Step("b", "certified")], _proved("instance"), "proof"),
    ([Step("a", "proved")], None, "numerical"),
    ([Step("a", "proved"), Step("b", "numerical")], _proved("claim"), "conditional"),
    ([Step("a", "assumed")], _proved("claim"), "conditional"),
])
def test_the_truth_table_of_the_evidence(steps, certified, kind):
    ev = evidence_of(steps, certified)
    assert ev["kind"] == kind and kind in EVIDENCE_KINDS
    if kind == "conditional":
        assert ev["conditional_on"] == [s.name for s in steps if s.kind in ("numerical", "assumed")]


@given(st.lists(st.tuples(st.sampled_from(["s1", "s2", "s3"]), st.sampled_from(STEP_KINDS)), max_size=4),
       st.lists(st.sampled_from(["claim", "instance"]), max_size=2))
def test_a_numerical_or_assumed_step_always_leaves_the_claim_conditional(steps, scopes):
    res = run_check(_spec(steps, scopes), Settings(quick=True))
    assert res.status == "pass"
    ev = res.to_json()["evidence"]
    open_steps = [n for n, k in steps if k in ("numerical", "assumed")]
    if open_steps:
        assert ev == {"kind": "conditional", "conditional_on": open_steps}
        assert evidence_text(res).startswith("conditional on ")
    elif scopes and (all(s == "claim" for s in scopes) or steps):
        assert ev == {"kind": "proof"}
        assert evidence_text(res) == ("theorem: every step proved or certified" if steps else "proof")
    elif scopes:
        assert ev == {"kind": "certified instances"}
    else:
        assert ev == {"kind": "numerical"}
    assert [s["kind"] for s in res.to_json().get("steps", [])] == [k for _, k in steps]


def test_a_failing_claim_has_no_evidence_kind():
    spec = _spec([("a", "proved")], ["claim"])
    res = run_check(spec, Settings(quick=True))
    res.status = "fail"
    assert "evidence" not in res.to_json() and evidence_text(res) == ""


def test_check_prints_the_evidence_and_the_steps():
    res = run_check(_spec([("(4a) minimum", "proved"), ("limit", "numerical")], ["claim"]), Settings(quick=True))
    text = format_result(res)
    assert "evidence   conditional on limit" in text
    assert "(4a) minimum: proved" in text and "limit: numerical" in text


def test_an_unknown_step_kind_is_refused():
    with pytest.raises(ValueError, match="step kind must be one of"):
        Step("a", "likely")
    assert Verdict.PROVED_TRUE.value
