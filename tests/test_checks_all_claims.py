"""All of paper_checks/: every claim of the catalogue (countdp.harness.catalogue), in quick mode,
with its certificates: it passes, compares at least two routes, holds every case, has negative
controls that are all rejected, and -- where the claim carries ball-arithmetic certificates --
every certified record is proved.

This is the one quick-mode run of the checks inside the test suite; the tests of a single
script test what is particular to it (a fault it must catch, a finding, a figure).  The rule
every script's fault catalogue obeys is tested here, once for all scripts."""

from __future__ import annotations

from pathlib import Path

import pytest

from countdp.harness import loader
from countdp.harness.catalogue import CATALOGUE
from countdp.harness.claims import checks_in
from countdp.harness.faults import faults_in

#: the claims proved by ball arithmetic (every record decided true); a claim leaving this set,
#: or a new certificate that is not fully proved, fails here
CERTIFIED = {
    "eq3", "thm3.1.i", "thm3.1.ii", "thm3.1.iii", "cor3.2", "cor3.2.round", "thm1.1",
    "lem4.1", "eq8", "eq9", "sec4.1.deriv", "sec4.1.argmin",
    "eq10", "eq11", "eq12", "sec5.post", "sec5.mono", "sec5.product",
    "sec5.1.conv", "sec5.1.limit_c", "sec5.1.c_equals_r", "eq13",
    "lem6.1", "prop6.2", "prop6.2.steps", "lem6.3", "cor6.5", "cor6.7", "eq32",
    "prop2.2b", "prop2.3", "lem7.1", "sec7.boundary", "eq35",
    "sec8.two_count", "table2", "sec8.small_r", "sec8.composition", "sec8.bias",
    "cstar.airy.constants", "cstar.airy.subgaussian", "cstar.airy.budget", "cstar.airy.limit",
    "cstar.lower.coupling", "cstar.lower.dirichlet", "cstar.lower.lattice", "cstar.lower.jensen",
    "cstar.lower.assembled", "cstar.value",
    "hm.laplace", "hm.discrete_laplace", "hm.krr", "hm.rappor", "hm.bounded_range",
}


@pytest.mark.parametrize("claim_id", list(CATALOGUE))
@pytest.mark.slow
def test_claim_passes_in_quick_mode(claim_id, run_claim):
    res = run_claim(claim_id, quick=True, certify=True)
    failing = [c.to_json() for c in res.cases if not c.ok]
    assert res.status == "pass", f"{claim_id}: {res.reason}\n{res.error or ''}\nfailing cases: {failing}"
    assert len(res.routes) >= 2
    assert res.cases and all(c.ok for c in res.cases)
    assert res.controls and all(c.rejected for c in res.controls)
    cert = res.certified or {}
    assert not cert.get("disproved"), cert
    if claim_id in CERTIFIED:
        assert cert.get("certified") is True, cert
        assert cert["records"] == cert["proved"] > 0
    else:
        assert cert.get("certified") is False and "records" not in cert, cert


def test_the_certified_set_is_the_main_papers_39_and_the_research_notes_claims():
    main = [i for i in CERTIFIED if CATALOGUE[i].section == "paper"]
    assert len(main) == 39 and CERTIFIED <= set(CATALOGUE)


@pytest.mark.parametrize("script", [p.stem for p in loader.script_paths(Path(__file__).resolve().parents[1])])
def test_every_claim_has_three_catchable_faults_of_two_kinds(script, check_script):
    """Each claim a script checks has at least three catchable faults of at least two kinds in
    the script's catalogue, no fault names a claim the script does not check, and every fault
    listed as uncatchable says why."""
    mod = check_script(script)
    ids = [spec.id for spec in checks_in(mod)]
    faults = faults_in(mod)
    assert {f.claim for f in faults} == set(ids), script
    for claim_id in ids:
        catchable = [f for f in faults if f.claim == claim_id and f.catchable]
        assert len(catchable) >= 3 and len({f.kind for f in catchable}) >= 2, claim_id
    assert all(f.reason for f in faults if not f.catchable)
