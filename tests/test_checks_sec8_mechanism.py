"""Tests of paper_checks/sec8_mechanism.py (Section 8: small r, composition, bias): the claims it
declares, each with a certificate, and the named transcription faults caught by a case.  That
every claim passes in quick mode with its certificates proved is tested once, in
test_checks_all_claims.py."""

from __future__ import annotations

import pytest

from countdp.harness.claims import checks_in

IDS = ["sec8.small_r", "sec8.composition", "sec8.bias"]


pytestmark = pytest.mark.mp_dps(30)


def test_script_declares_the_mechanism_claims(check_script):
    specs = checks_in(check_script("sec8_mechanism"))
    assert [s.id for s in specs] == IDS
    assert all(s.certificates for s in specs)


#: the named transcription faults of these claims: each must make its claim fail a case
NAMED = {
    "sec8.small_r": ["remainder O_L1(sigma) for O_L1(sigma^2)"],
    "sec8.composition": ["composition by the maximum, v_tot = max_t v_t"],
    "sec8.bias": ["the mean-one drift -sigma^2/2 for -sigma^2"],
}


def test_the_named_faults_are_caught_by_a_case(named_faults_caught_by_a_case):
    named_faults_caught_by_a_case("sec8_mechanism", NAMED)
