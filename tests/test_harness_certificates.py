"""countdp.harness.certificates: certificates declared beside a claim's check, and the verdict
each outcome gives the claim."""

from __future__ import annotations

import textwrap

import pytest

from countdp.harness import claims, loader
from countdp.harness.results import Settings

HEAD = """
from flint import arb, fmpq
from countdp.arb.verdicts import Undecided, Verdict, decide_contains, decide_lt
from countdp.harness.claims import certificate, claim

@claim("lem4.1", routes=["closed form", "quadrature"])
def check_lem41(check):
    check.compare({"x": 1}, 1, "==", 1)
    check.control("off by one", 1, "==", 2)
"""


def run_script(tmp_path, body: str, certify: bool = True):
    path = tmp_path / "paper_checks" / "s_cert.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(HEAD) + textwrap.dedent(body))
    specs = claims.checks_in(loader.load_script(path))
    return [claims.run_check(s, Settings(quick=True, certify=certify)) for s in specs]


def test_all_records_proved_is_a_proof(tmp_path):
    (res,) = run_script(tmp_path, """
        @certificate("lem4.1")
        def third(cert):
            b = arb(fmpq(1, 3))
            cert.record("1/3", "1/3 lies in its ball", b, decide_contains(b, fmpq(1, 3)))
            cert.record("1/3 < 1/2", "separated", None, decide_lt(b, fmpq(1, 2)))
    """)
    assert res.status == "pass"
    assert res.certified["certified"] is True
    assert res.certified["records"] == 2 and res.certified["proved"] == 2


def test_a_record_proved_false_fails_the_claim(tmp_path):
    (res,) = run_script(tmp_path, """
        @certificate("lem4.1")
        def wrong(cert):
            cert.record("1/2 < 1/3", "false", None, decide_lt(arb(fmpq(1, 2)), fmpq(1, 3)))
    """)
    assert res.status == "fail"
    assert "proved a statement false" in res.reason and "1/2 < 1/3" in res.reason
    assert res.certified["certified"] is False and res.certified["disproved"] == ["1/2 < 1/3"]


def test_undecided_is_a_note_not_a_proof_and_not_a_failure(tmp_path):
    (res,) = run_script(tmp_path, """
        @certificate("lem4.1")
        def undecided(cert):
            cert.record("sign of [0 +/- 1]", "not decided", None, decide_lt(arb(0, 1), 0))

        @certificate("lem4.1")
        def raises_undecided(cert):
            raise Undecided("a bracket did not separate")
    """)
    assert res.status == "pass"
    assert res.certified["certified"] is False
    assert res.certified["records"] == 2 and res.certified["proved"] == 0
    assert any("a bracket did not separate" in u for u in res.certified["undecided"])


def test_a_crashing_certificate_is_an_error(tmp_path):
    (res,) = run_script(tmp_path, """
        @certificate("lem4.1")
        def crashes(cert):
            raise ZeroDivisionError("boom")
    """)
    assert res.status == "error" and "ZeroDivisionError" in res.error


def test_certificates_run_only_with_certification_on(tmp_path):
    (res,) = run_script(tmp_path, """
        @certificate("lem4.1")
        def crashes(cert):
            raise ZeroDivisionError("boom")
    """, certify=False)
    assert res.status == "pass" and res.certified is None


def test_a_certificate_for_a_claim_the_script_does_not_check_is_refused(tmp_path):
    with pytest.raises(ValueError, match="eq8"):
        run_script(tmp_path, """
            @certificate("eq8")
            def elsewhere(cert):
                pass
        """)


def test_records_must_carry_a_verdict(tmp_path):
    (res,) = run_script(tmp_path, """
        @certificate("lem4.1")
        def no_verdict(cert):
            cert.record("x", "y", None, True)
    """)
    assert res.status == "error" and "Verdict" in res.error


def test_unknown_claim_id_is_refused():
    with pytest.raises(ValueError, match="unknown claim id"):
        claims.certificate("no.such.claim")
