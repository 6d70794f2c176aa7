"""Tests of paper_checks/sec2_boundary.py: the claims it declares, the number of records its
certificates prove, and that the certificate helper rejects r < 1.  That every claim passes in
quick mode with its certificates proved is tested once, in test_checks_all_claims.py."""

from __future__ import annotations

from fractions import Fraction

import pytest

from countdp.arb.verdicts import Verdict
from countdp.harness.claims import checks_in

IDS = ["prop2.2a", "prop2.2b", "prop2.3"]


def test_claim_ids_are_the_assigned_ones(check_script):
    assert [s.id for s in checks_in(check_script("sec2_boundary"))] == IDS


@pytest.mark.parametrize("claim_id", ["prop2.2b", "prop2.3"])
def test_certificates_prove_one_record(certify, claim_id):
    cert = certify(claim_id)
    assert not cert.errors and cert.certified and len(cert.records) == 1


def test_constant_release_certificate_fails_below_r_equal_one(check_script):
    mod = check_script("sec2_boundary")
    assert mod.release_meets_repaired_target(200).verdict is Verdict.PROVED_TRUE
    bad = mod.release_meets_repaired_target(200, r=Fraction(1, 2))
    assert bad.verdict is Verdict.PROVED_FALSE and bad.first_bad == 0 and bad.disproved == 201
    near = mod.release_meets_repaired_target(6000, r=Fraction(9999, 10000))
    assert near.verdict is Verdict.PROVED_FALSE and near.first_bad == 5000  # n - 1/2 < 0.9999 n iff n < 5000
