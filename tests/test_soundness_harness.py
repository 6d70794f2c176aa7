"""Soundness of the harness's verdict: random claims (hypothesis) with several cases, negative
controls and certificates, some failing, undecided or crashing, must always get the status the
documentation of countdp.harness.claims and countdp.harness.certificates gives:

* ``error`` if the check raises (nothing after the crash counts), or a certificate raises
  anything but ``Undecided``;
* else ``fail`` if there is no case, a case fails, there is no control, a control is not
  rejected, or a certificate record is proved false;
* else ``pass``.  Undecided records leave the status alone but the claim is not certified;
  PROOF needs every record proved and every certificate's scope ``claim``.
"""

from __future__ import annotations

from flint import arb
from hypothesis import example, given, settings
from hypothesis import strategies as st

from countdp.arb.verdicts import Undecided, Verdict, decide_lt
from countdp.harness.catalogue import CATALOGUE
from countdp.harness.certificates import CertificateSpec, CertRecord, Certification
from countdp.harness.claims import CheckSpec, run_check
from countdp.harness.results import ClaimResult, Run, ScriptRun, Settings, holds, worst_status

CLAIM_ID = next(iter(CATALOGUE))

events = st.lists(st.one_of(
    st.tuples(st.just("case"), st.booleans(), st.sampled_from(["==", "<=", "<", ">=", ">"])),
    st.tuples(st.just("control"), st.booleans(), st.sampled_from(["compare", "outcome"])),
    st.tuples(st.just("crash"), st.just(False), st.just("")),
), max_size=8)

CERT_KINDS = ("proved", "disproved", "undecided", "raises_undecided", "crash", "empty")
certs = st.lists(st.tuples(st.sampled_from(CERT_KINDS), st.sampled_from([None, "claim", "instance"])),
                 max_size=4)


def _case(check, ok: bool, relation: str):
    # a pair that satisfies / violates ``relation`` with tolerance 0.25
    holding = {"==": (1, 1.2), "<=": (1, 1.2), "<": (1, 2), ">=": (1.2, 1), ">": (2, 1)}
    failing = {"==": (1, 2), "<=": (2, 1), "<": (1, 1.2), ">=": (1, 2), ">": (1.2, 1)}
    lhs, rhs = (holding if ok else failing)[relation]
    check.compare({"i": len(check.cases)}, lhs, relation, rhs, tol=0.25, route="random")


def _check_func(evts):
    def func(check):
        for kind, flag, how in evts:
            if kind == "case":
                _case(check, flag, how)
            elif kind == "control" and how == "compare":
                check.control("perturbed", 1, "==", 3 if flag else 1, tol=0.5)
            elif kind == "control":
                check.control_outcome("perturbed elsewhere", flag)
            else:
                raise RuntimeError("the check crashed")
    return func


def _certificate(kind: str, scope, i: int):
    def cert(c):
        if kind == "proved":
            c.record(f"r{i}", "1 < 2", arb(1), decide_lt(1, 2))
        elif kind == "disproved":
            c.record(f"r{i}", "2 < 1", arb(2), decide_lt(2, 1))
        elif kind == "undecided":
            c.record(f"r{i}", "ball < 1", arb(1, 0.5), decide_lt(arb(1, 0.5), 1))
        elif kind == "raises_undecided":
            raise Undecided("not decided here")
        elif kind == "crash":
            raise ZeroDivisionError("the certificate crashed")
    cert.__name__ = f"cert_{i}_{kind}"
    cert.__countdp_certificate__ = CertificateSpec(CLAIM_ID, cert, scope)
    return cert


def expected_status(evts, cert_list, certify: bool, stop: bool) -> str:
    cases, controls = [], []
    for kind, flag, _ in evts:
        if kind == "crash":
            return "error"
        (cases if kind == "case" else controls).append(flag)
        if stop and not flag:
            return "fail"
    status = "pass" if cases and all(cases) and controls and all(controls) else "fail"
    if certify and cert_list:
        kinds = [k for k, _ in cert_list]
        if "crash" in kinds:
            return "error"
        if "disproved" in kinds:
            return "fail"
    return status


GOOD = [("case", True, "=="), ("case", True, "<"), ("control", True, "compare"), ("control", True, "outcome")]


@settings(max_examples=250, deadline=None)
@given(events, certs, st.booleans(), st.booleans())
# the combinations a wrong edit would get wrong, always run besides the random ones
@example(GOOD + [("case", False, ">=")], [], False, False)
@example(GOOD + [("control", False, "compare")], [], False, False)
@example(GOOD, [("proved", "claim"), ("disproved", "claim")], True, False)
@example(GOOD, [("proved", "claim"), ("undecided", "claim")], True, False)
@example(GOOD, [("proved", "claim"), ("raises_undecided", "claim")], True, False)
@example(GOOD, [("proved", "claim"), ("proved", "instance")], True, False)
@example(GOOD, [("proved", "claim"), ("proved", None)], True, False)
@example(GOOD, [("proved", "claim"), ("crash", "claim")], True, False)
@example(GOOD + [("case", False, "==")], [("crash", "claim")], True, False)
@example(GOOD + [("crash", False, "")], [("proved", "claim")], True, False)
@example(GOOD + [("case", False, "<")], [("proved", "claim")], True, True)
@example([("case", True, "==")], [("proved", "claim")], True, False)
@example([("control", True, "outcome")], [("proved", "claim")], True, False)
def test_the_status_is_the_documented_one(evts, cert_list, certify, stop):
    spec = CheckSpec(CLAIM_ID, ["a", "b"], _check_func(evts), CATALOGUE[CLAIM_ID],
                     [_certificate(k, sc, i) for i, (k, sc) in enumerate(cert_list)])
    res = run_check(spec, Settings(quick=True, certify=certify, stop_at_first_failure=stop))
    want = expected_status(evts, cert_list, certify, stop)
    assert res.status == want, (res.status, want, res.reason)
    if res.status == "pass":
        assert res.cases and all(c.ok for c in res.cases)
        assert res.controls and all(c.rejected for c in res.controls)
    ran_certs = certify and want != "error" and not (stop and want == "fail" and
                                                    expected_status(evts, [], False, True) == "fail")
    kinds = [k for k, _ in cert_list]
    if ran_certs and cert_list and "crash" not in kinds:
        records = [k for k in kinds if k != "empty"]
        certified = bool(records) and all(k == "proved" for k in records)
        assert res.certified["certified"] is certified
        scopes = [sc for _, sc in cert_list]
        assert res.certified["proof"] is (certified and all(sc == "claim" for sc in scopes))


def test_proof_needs_every_certificate_scoped_to_the_claim():
    rec = CertRecord("x", "x", "", "", Verdict.PROVED_TRUE, 0.0)
    assert Certification([rec], [], 0.0, ("claim",)).proof
    assert Certification([rec], [], 0.0, ("claim", "claim")).proof
    assert not Certification([rec], [], 0.0, ("claim", None)).proof
    assert not Certification([rec], [], 0.0, ("instance",)).proof
    assert not Certification([rec], [], 0.0, ()).proof
    undecided = CertRecord("y", "y", "", "", Verdict.UNDECIDED, 0.0)
    assert not Certification([rec, undecided], [], 0.0, ("claim",)).proof


def test_a_claim_passes_only_if_every_control_is_rejected():
    evts = [("case", True, "==")] * 3 + [("control", True, "compare")] * 4 + [("control", False, "outcome")]
    spec = CheckSpec(CLAIM_ID, ["a", "b"], _check_func(evts), CATALOGUE[CLAIM_ID])
    assert run_check(spec, Settings(quick=True, certify=False)).status == "fail"


INF, NAN = float("inf"), float("nan")


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True, width=32),
       st.floats(allow_nan=True, allow_infinity=True, width=32),
       st.one_of(st.floats(min_value=-1, max_value=4, width=32), st.just(float("nan"))))
# exact endpoints, strict beyond the error bar, a negative tolerance, infinities, NaN
@example(1.0, 1.0, 0.0)
@example(1.0, 2.0, 0.5)
@example(1.0, 2.0, 1.0)
@example(1.5, 1.0, 0.5)
@example(1.6, 1.0, 0.5)
@example(1.0, 1.25, 0.25)
@example(1.0, 1.25, 0.2)
@example(3.0, 4.0, 1.0)
@example(1.0, 0.0, -1.0)
@example(1.0, 1.0, -1.0)
@example(INF, INF, 0.0)
@example(INF, 1e300, 1e300)
@example(-INF, INF, 0.0)
@example(1.0, INF, 0.0)
@example(INF, 1.0, 0.0)
@example(NAN, 1.0, 0.0)
@example(1.0, 1.0, NAN)
def test_holds_is_the_documented_relation(a, b, t):
    nan = any(x != x for x in (a, b, t))
    if nan or t < 0:
        assert not any(holds(a, r, b, t) for r in ("==", "<=", "<", ">=", ">"))
        return
    inf = abs(a) == float("inf") or abs(b) == float("inf")
    assert holds(a, "==", b, t) is ((a == b) if inf else abs(a - b) <= t)
    assert holds(a, "<=", b, t) is (a <= b + t)
    assert holds(a, "<", b, t) is (a + t < b)
    assert holds(a, ">=", b, t) is (a >= b - t)
    assert holds(a, ">", b, t) is (a - t > b)


@given(st.lists(st.sampled_from(["pass", "fail", "error", "skipped", "weird"]), max_size=6))
@example([])
@example(["pass", "fail"])
@example(["fail", "error", "pass"])
@example(["error", "fail"])
@example(["skipped"])
def test_worst_status(statuses):
    got = worst_status(statuses)
    if "error" in statuses or "skipped" in statuses or "weird" in statuses:
        assert got == "error"
    elif "fail" in statuses:
        assert got == "fail"
    else:
        assert got == "pass"


def test_a_run_with_a_failing_or_erroring_claim_is_not_ok():
    ok = run_check(CheckSpec(CLAIM_ID, ["a", "b"], _check_func([("case", True, "=="), ("control", True, "outcome")]),
                             CATALOGUE[CLAIM_ID]), Settings(quick=True, certify=False))
    bad = run_check(CheckSpec(CLAIM_ID, ["a", "b"], _check_func([("case", False, "=="), ("control", True, "outcome")]),
                              CATALOGUE[CLAIM_ID]), Settings(quick=True, certify=False))
    assert ok.status == "pass" and bad.status == "fail"
    run = Run(Settings(), [ScriptRun("s1", "s1.py", None, [ok]), ScriptRun("s2", "s2.py", None, [bad])], [])
    assert run.statuses()[CLAIM_ID] == "fail" and not run.ok() and run.exit_code() == 1
    assert Run(Settings(), [ScriptRun("s1", "s1.py", None, [ok])], []).ok()
    for statuses, good in ((["pass", "pass"], True), (["pass", "fail"], False),
                           (["pass", "error"], False)):
        results = [ClaimResult(cid, "", "paper", s, ["a", "b"])
                   for cid, s in zip(("eq3", "eq4"), statuses)]
        run = Run(Settings(quick=True), [ScriptRun("s", "s.py", None, results)], [])
        assert run.ok() is good and run.exit_code() == (0 if good else 1)


def test_an_undecided_certificate_never_certifies():
    spec = CheckSpec(CLAIM_ID, ["a", "b"], _check_func([("case", True, "=="), ("control", True, "outcome")]),
                     CATALOGUE[CLAIM_ID], [_certificate("proved", "claim", 0), _certificate("undecided", "claim", 1)])
    res = run_check(spec, Settings(quick=True, certify=True))
    assert res.status == "pass" and res.certified["certified"] is False and res.certified["proof"] is False
    assert Verdict.UNDECIDED.value in " ".join(res.certified["what"])
