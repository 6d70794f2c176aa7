"""Tests of paper_checks/sec6_two_count.py (Section 6.1, the two-count bound): the claims it
declares, each with a certificate, its mechanisms are admissible, its near-extremal pairs meet the
Markov bounds, and the named transcription faults are caught (each makes its claim fail by a
case, in quick mode).  That every claim passes in quick mode with its
certificates proved is tested once, in test_checks_all_claims.py."""

from fractions import Fraction

import mpmath
import pytest

from countdp.harness.claims import checks_in

IDS = ["prop6.2", "prop6.2.steps"]


def test_script_declares_its_claims_and_certificates(check_script):
    specs = checks_in(check_script("sec6_two_count"))
    assert [s.id for s in specs] == IDS
    assert all(s.certificates for s in specs)
    assert all(len(s.routes) >= 2 for s in specs)


def test_mechanisms_are_admissible_and_distinct(check_script):
    mechs = check_script("sec6_two_count").mechanisms(0.1)
    assert len(mechs) == 3
    for mech in mechs.values():
        assert mech.r0 < 0.1


def test_near_extremal_pair_meets_the_markov_bounds(check_script):
    mod = check_script("sec6_two_count")
    with mpmath.workdps(30):
        pair = mod.markov_pair(81, Fraction(1, 10))   # C_r n = 169: the tight case
        assert (pair.m, pair.t) == (169, 117)
        assert abs(pair.error(pair.P, 81) - mpmath.mpf("8.1")) < 1e-25
        assert abs(pair.error(pair.Q, 169) - mpmath.mpf("16.9")) < 1e-25
        assert 0 <= pair.separation - mpmath.mpf("0.45") < 1e-10


#: the named transcription faults of these claims
NAMED = [
    ("prop6.2", "eq (14) twice too strong"), ("prop6.2", "eq (14) 100x too strong"),
    ("prop6.2", "C_r with 3r -> 2r"), ("prop6.2", "C_r without its square"),
    ("prop6.2", "m = floor(C_r n) for ceil(C_r n)"), ("prop6.2", "ceil(C_r n) - n -> ceil(C_r n) in eq (14)"),
    ("prop6.2", "eq (15) with 128 -> 64"), ("prop6.2", "eq (15) with (1-r)^6 -> (1-r)^4"),
    ("prop6.2.steps", "Pinsker's factor 2 dropped: KL >= d_TV^2"),
    ("prop6.2.steps", "Markov sum r(q+1)/(q-1) -> r(q+1)/(q+1)"),
]


@pytest.mark.parametrize("claim_id,name", NAMED, ids=[n for _, n in NAMED])
def test_named_fault_is_caught_by_a_case(claim_id, name, run_with_fault):
    res = run_with_fault("sec6_two_count", claim_id, name)
    assert res.status == "fail", (res.status, res.reason, res.error)
    assert "case" in res.reason
