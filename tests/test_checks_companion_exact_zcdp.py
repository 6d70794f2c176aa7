"""Tests of paper_checks/companion_exact_zcdp.py: the claims it declares, the k-RR finding (the
maximiser leaves alpha -> 1 beyond k = 6), and the comparisons its negative controls rely on.
That every claim passes in quick mode is tested once, in test_checks_all_claims.py."""

from __future__ import annotations

import mpmath
import pytest

from countdp import formulas
from countdp.divergence.tight_rho import tight_rho
from countdp.harness.results import holds
from countdp.mechanisms import epsilon_dp

CLAIMS = ["hm.laplace", "hm.discrete_laplace", "hm.krr", "hm.rappor", "hm.bounded_range"]


pytestmark = pytest.mark.mp_dps(30)


def test_controls_are_rejected_directly():
    # the perturbed claims rho* = eps^2/2 and (Laplace) eps^2/8 fail the very comparison used
    r = tight_rho(epsilon_dp.laplace_pair(1.0))
    assert holds(r.value, "==", formulas.laplace_kl(1.0), r.width)
    assert not holds(r.value, "==", mpmath.mpf(1) / 2, r.width)
    assert not holds(r.value, "==", mpmath.mpf(1) / 8, r.width)
    k = tight_rho(epsilon_dp.krr_pair(0.5, 10))
    assert not holds(k.value, "==", formulas.krr_kl(0.5, 10), k.width)   # KL not tight beyond k = 6


def test_the_script_declares_every_claim(check_script):
    from countdp.harness.claims import checks_in

    assert [s.id for s in checks_in(check_script("companion_exact_zcdp"))] == CLAIMS


def test_krr_maximiser_moves_off_alpha_one_from_k_7(run_claim):
    # the k-RR findings report a finite maximiser beyond k = 6
    res = run_claim("hm.krr")
    moved = [f for f in res.findings if f.get("alpha_star") not in (None, "alpha -> 1") and "k" in f]
    assert moved and min(f["k"] for f in moved) == 7

