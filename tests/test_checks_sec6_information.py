"""Tests of paper_checks/sec6_information.py (Sections 6.2-6.3, the many-count information
argument): the claims it declares and which carry certificates, the Laplace bumps nearly attain
(17), and the named transcription faults are caught (each makes its claim fail by a case, in
quick mode).  That every claim passes in quick mode with its certificates proved is tested
once, in test_checks_all_claims.py."""

import mpmath
import pytest

from countdp import formulas
from countdp.divergence.information import estimator_error, mutual_information, shannon_entropy
from countdp.harness.claims import checks_in

IDS = ["lem6.3", "thm6.4"]
CERTIFIED = {"lem6.3"}


def test_script_declares_its_claims_and_certificates(check_script):
    specs = checks_in(check_script("sec6_information"))
    assert [s.id for s in specs] == IDS
    assert {s.id for s in specs if s.certificates} == CERTIFIED
    assert all(len(s.routes) >= 2 for s in specs)


def test_laplace_bumps_nearly_attain_eq17(check_script):
    with mpmath.workdps(30):
        prior, channel = check_script("sec6_information").laplace_bumps(10)
        info = mutual_information(prior, channel)
        assert abs(info.value - mpmath.log(3)) < 1e-14      # Y is a function of J: I = H(Y)
        D = estimator_error(prior, channel, 0)
        gap = info.value - formulas.information_floor(shannon_entropy(prior), D.value)
        assert 0 < gap < 1 / (4 * mpmath.mpf(10))           # about 1/(4b)


#: the named transcription faults of these claims
NAMED = [
    ("lem6.3", "eq (17) with e for 2e"), ("lem6.3", "eq (17) with 1/4 -> 1/2"),
    ("thm6.4", "eq (22) with e for 2e"), ("thm6.4", "eq (22) with 1/4 -> 1/2"),
    ("thm6.4", "eq (19) with e for 2e"), ("thm6.4", "eq (19) with Var J for E(J - j*)^2"),
]


@pytest.mark.parametrize("claim_id,name", NAMED, ids=[n for _, n in NAMED])
def test_named_fault_is_caught_by_a_case(claim_id, name, run_with_fault):
    res = run_with_fault("sec6_information", claim_id, name)
    assert res.status == "fail", (res.status, res.reason, res.error)
    assert "case" in res.reason
