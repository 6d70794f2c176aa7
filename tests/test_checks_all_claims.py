"""Every claim of the catalogue, in quick mode, with its certificates: it passes, compares at
least two routes, holds every case, and has negative controls that are all rejected.

This is the one quick-mode run of the checks inside the test suite; the tests of a single
script test what is particular to it (a fault it must catch, a finding, a figure)."""

from __future__ import annotations

import pytest

from countdp.harness.catalogue import CATALOGUE


@pytest.mark.parametrize("claim_id", list(CATALOGUE))
def test_claim_passes_in_quick_mode(claim_id, run_claim):
    res = run_claim(claim_id, quick=True, certify=True)
    assert res.status == "pass", f"{claim_id}: {res.reason}\n{res.error or ''}"
    assert len(res.routes) >= 2
    assert res.cases and all(c.ok for c in res.cases)
    assert res.controls and all(c.rejected for c in res.controls)
    cert = res.certified or {}
    assert not cert.get("disproved"), cert
