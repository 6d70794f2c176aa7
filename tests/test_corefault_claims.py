"""countdp.harness.claims and certificates: the status of a claim over random combinations of
cases, negative controls and certificates (proved, disproved, undecided, raising Undecided,
crashing) and a crashing check is always the documented one; a PROOF needs every certificate
scoped to the claim."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st
from flint import arb

from countdp.arb.verdicts import Undecided, Verdict
from countdp.harness.catalogue import CATALOGUE
from countdp.harness.certificates import CertRecord, Certification
from countdp.harness.claims import CheckSpec, run_check
from countdp.harness.results import Settings

CERTS = ("proved", "disproved", "undecided", "raises undecided", "crashes")
VERDICT = {"proved": Verdict.PROVED_TRUE, "disproved": Verdict.PROVED_FALSE,
           "undecided": Verdict.UNDECIDED}


def _certificate(kind: str, i: int):
    def cert(builder):
        if kind == "raises undecided":
            raise Undecided("not decided here")
        if kind == "crashes":
            raise RuntimeError("a certificate that crashes")
        builder.record(f"item {i}", kind, arb(1), VERDICT[kind])
    cert.__name__ = f"cert_{i}"
    return cert


def _expected(cases, controls, certs, crash) -> str:
    if crash:
        return "error"
    status = "pass" if cases and all(cases) and controls and all(controls) else "fail"
    if "crashes" in certs:
        return "error"
    if "disproved" in certs:
        return "fail"
    return status


@given(cases=st.lists(st.booleans(), max_size=4), controls=st.lists(st.booleans(), max_size=3),
       certs=st.lists(st.sampled_from(CERTS), max_size=3), crash=st.booleans())
@example(cases=[], controls=[True], certs=[], crash=False)              # no case
@example(cases=[True, True], controls=[], certs=["proved"], crash=False)   # no control
@example(cases=[True], controls=[True, False], certs=[], crash=False)   # one control not rejected
@example(cases=[True], controls=[True], certs=["proved", "undecided"], crash=False)
@example(cases=[True], controls=[True], certs=["crashes"], crash=False)
@example(cases=[True], controls=[True], certs=["disproved"], crash=False)
@example(cases=[True], controls=[True], certs=[], crash=True)
def test_status_of_random_claims(cases, controls, certs, crash):
    def check(b):
        for i, ok in enumerate(cases):
            b.compare({"i": i}, 1, "==", 1 if ok else 2, route="closed form")
        for j, rejected in enumerate(controls):
            b.control(f"control {j}", 1, "==", 2 if rejected else 1)
        if crash:
            raise RuntimeError("a check that crashes")
    spec = CheckSpec("lem4.1", ["a", "b"], check, CATALOGUE["lem4.1"],
                     [_certificate(k, i) for i, k in enumerate(certs)])
    res = run_check(spec, Settings(quick=True))
    assert res.status == _expected(cases, controls, certs, crash)
    if res.status == "pass":
        assert res.certified["certified"] is (bool(certs) and all(k == "proved" for k in certs))


def test_proof_needs_every_certificate_scoped_to_the_claim():
    rec = CertRecord("x", "x", "", "", Verdict.PROVED_TRUE, 0.0)
    assert Certification([rec], [], 0.0, ("claim",)).proof
    assert Certification([rec], [], 0.0, ("claim", "claim")).proof
    assert not Certification([rec], [], 0.0, ("claim", None)).proof
    assert not Certification([rec], [], 0.0, ("instance",)).proof
    assert not Certification([rec], [], 0.0, ()).proof
    undecided = CertRecord("y", "y", "", "", Verdict.UNDECIDED, 0.0)
    assert not Certification([rec, undecided], [], 0.0, ("claim",)).proof
