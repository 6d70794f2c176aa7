"""Tests of paper_checks/cstar_airy.py (the Airy mechanism): the claims it declares, its certificates,
and the comparisons its negative controls rely on.  That every claim passes in quick mode is
tested once, in test_checks_all_claims.py."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from countdp import formulas
from countdp.divergence.tight_rho import tight_rho
from countdp.harness import results
from countdp.harness.claims import checks_in
from countdp.laws import airy
from countdp.laws.generalised_gaussian import GeneralisedGaussian
from countdp.mechanisms.airy import AiryLogMechanism
from countdp.numerics.sequences import richardson

CLAIMS = ["cstar.airy.utility", "cstar.airy.budget", "cstar.airy.limit", "cstar.airy.vs_gaussian"]


pytestmark = pytest.mark.mp_dps(30)


def test_all_claims_declared(check_script):
    assert [s.id for s in checks_in(check_script("cstar_airy"))] == CLAIMS


def test_perturbed_limit_is_rejected_directly():
    # the limit claim's comparison: the extrapolated r-sequence against 1/pi must fail
    I = airy.airy_constants(30).fisher
    rs = [mpmath.mpf(10) ** -k for k in (3, 4, 5, 6)]
    Ls = []
    for r in rs:
        b = AiryLogMechanism(r * (1 - r), r, r=r).mp_b()
        Ls.append(r ** 2 * I / (2 * b ** 2))
    ext = richardson(rs, Ls, [1, 2, 3])
    assert results.holds(ext.value, "==", formulas.airy_limit_constant(), ext.error + mpmath.mpf("1e-20"))
    assert not results.holds(ext.value, "==", 1 / mpmath.pi, ext.error + mpmath.mpf("1e-20"))


@pytest.mark.slow
def test_super_gaussian_law_is_caught_by_the_scan_comparison():
    res = tight_rho((GeneralisedGaussian(4), GeneralisedGaussian(4, 0.5)), alpha_max=100, points_per_decade=4)
    mx = max(float(np.max(d.ratios)) for d in res.directions)
    assert not results.holds(mx, "<=", res.kl_max, 1e-12)


# ---- fault catalogue -----------------------------------------------------------------------

NAMED_FAULTS = {
    "cstar.airy.utility": ["utility bound r0 n (c dropped from r0 (n+c)/(1+c))",
                           "drift t = +b q (the tilted-median condition with the wrong sign)"],
    "cstar.airy.budget": ["log gap log((n+c)/(n+c-1)) read as log((n+1+c)/(n+c)) (n+c for n-1+c)"],
    "cstar.airy.vs_gaussian": ["8 |a1'|^3/27 for 8 pi |a1'|^3/27 (pi dropped)"],
}


@pytest.mark.slow
def test_named_transcription_faults_are_caught(named_faults_caught_by_a_case):
    named_faults_caught_by_a_case("cstar_airy", NAMED_FAULTS)


