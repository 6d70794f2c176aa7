"""Tests of countdp.dp_mechanisms and of the companion-paper check script (quick mode)."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from countdp.mechanisms import epsilon_dp as M
from countdp.divergence import tight_rho as T
from countdp.harness.claims import checks_in, run_check
from countdp.harness.results import Settings, holds

SCRIPT = Path(__file__).resolve().parents[1] / "paper_checks" / "companion_exact_zcdp.py"


@pytest.fixture(autouse=True)
def _working_precision():
    """The checks run under mpmath.workdps(settings.dps) (30 by default); so do these tests."""
    with mpmath.workdps(30):
        yield



def _load_script():
    spec = importlib.util.spec_from_file_location("countdp_test_companion_exact_zcdp", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# --------------------------------------------------------------------------------------------
# Closed forms
# --------------------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.floats(min_value=1e-3, max_value=20))
def test_discrete_laplace_delta_one_is_eps_tanh(eps):
    e = mpmath.mpf(eps)
    assert abs(M.discrete_laplace_kl(eps, 1) - e * mpmath.tanh(e / 2)) < mpmath.mpf(10) ** -25 * (1 + e)


@settings(max_examples=30, deadline=None)
@given(st.floats(min_value=1e-3, max_value=30))
def test_bounded_range_below_eta_squared_over_8(eta):
    assert M.bounded_range_rho(eta) < mpmath.mpf(eta) ** 2 / 8


def test_laplace_closed_forms():
    # Mironov's curve tends to the KL (= the claimed rho) as alpha -> 1, and to eps as alpha -> inf
    for eps in (0.1, 1, 5):
        assert abs(M.laplace_renyi_mironov(1 + mpmath.mpf(10) ** -15, eps) - M.laplace_rho(eps)) < 1e-13
        assert abs(M.laplace_renyi_mironov(1e8, eps) - eps) < 1e-6


def test_discrete_laplace_window_and_pmf():
    law = M.DiscreteLaplace(0, 0.3)
    lo, hi = law.window(mpmath.mpf(10) ** -20)
    assert law.tail_mass(hi) <= mpmath.mpf(10) ** -20 < law.tail_mass(hi - 1)
    total = mpmath.fsum(law.mp_pmf(k) for k in range(lo, hi + 1))
    assert abs(total - 1) <= mpmath.mpf(10) ** -20
    P, Q = M.discrete_laplace_loss_classes(1.3, 4)
    Pi, Qi = M.discrete_laplace_pair(1.3, 4)
    # merging by likelihood-ratio class keeps D_alpha (sufficiency)
    for alpha in (1.5, 3, 30):
        a, ea = T.mp_renyi(P, Q, alpha)
        b, eb = T.mp_renyi(Pi, Qi, alpha)
        assert abs(a - b) <= ea + eb + mpmath.mpf(10) ** -25


def test_samplers_frequencies():
    rng = np.random.default_rng(7)
    y = M.krr_release(np.zeros(200_000, dtype=int), 1.0, 5, rng)
    pt = float(M.krr_probs(1.0, 5)[0])
    assert abs(np.mean(y == 0) - pt) < 5 * math.sqrt(pt * (1 - pt) / len(y))
    bits = M.rappor_release(np.array([0, 1, 2]), 1.0, 3, rng)
    assert bits.shape == (3, 3) and set(np.unique(bits)) <= {0, 1}
    x = M.DiscreteLaplace(2, 0.5).sample(rng, 100_000)
    assert abs(np.mean(x) - 2) < 0.05
    assert abs(np.mean(M.Laplace(1, 2).sample(rng, 100_000)) - 1) < 0.05


def test_rappor_product_law_is_two_binary_rr():
    # D_alpha of the product law equals twice that of binary RR at eps/2 (independent bits)
    for eps, alpha in ((1.0, 2.0), (3.0, 7.0)):
        a, ea = T.mp_renyi(*M.rappor_pair(eps, 3), alpha)
        b, eb = T.mp_renyi(*M.krr_pair(eps / 2, 2), alpha)
        assert abs(a - 2 * b) <= ea + 2 * eb + mpmath.mpf(10) ** -25


def test_worst_bounded_range_pair_is_asymmetric():
    w = M.worst_bounded_range_pair(2.0)
    assert abs(w["r"] - 2.0) < 1e-9
    assert abs(w["value"] - M.bounded_range_rho(2.0)) < 1e-14
    assert abs(w["p"] + w["q"] - 1) > 1e-2     # not the symmetric (binary RR) pair


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------


NAN = float("nan")


@pytest.mark.parametrize("call,name", [
    (lambda: M.laplace_pair(0), "eps"), (lambda: M.laplace_pair(-1), "eps"), (lambda: M.laplace_pair(NAN), "eps"),
    (lambda: M.laplace_pair(1, 0), "Delta"), (lambda: M.laplace_rho(NAN), "eps"),
    (lambda: M.laplace_renyi_mironov(1.0, 1), "alpha"),
    (lambda: M.discrete_laplace_pair(0, 1), "eps"), (lambda: M.discrete_laplace_pair(1, 0), "Delta"),
    (lambda: M.discrete_laplace_pair(1, 0.5), "Delta"), (lambda: M.discrete_laplace_kl(1, 2.5), "Delta"),
    (lambda: M.discrete_laplace_loss_classes(NAN, 2), "eps"),
    (lambda: M.krr_pair(0, 3), "eps"), (lambda: M.krr_pair(1, 1), "k"), (lambda: M.krr_pair(1, 2.5), "k"),
    (lambda: M.krr_pair(NAN, 3), "eps"), (lambda: M.krr_pair(1, NAN), "k"), (lambda: M.krr_kl(1, 1), "k"),
    (lambda: M.krr_law(3, 1, 3), "value"),
    (lambda: M.rappor_pair(-0.5, 4), "eps"), (lambda: M.rappor_pair(1, 1), "k"), (lambda: M.rappor_rho(0), "eps"),
    (lambda: M.bounded_range_rho(0), "eta"), (lambda: M.bounded_range_rho(-1), "eta"),
    (lambda: M.bounded_range_rho(NAN), "eta"), (lambda: M.worst_bounded_range_pair(0), "eta"),
    (lambda: M.two_point_pair(1.5, 1), "q"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# --------------------------------------------------------------------------------------------
# The check script, quick mode
# --------------------------------------------------------------------------------------------


def test_controls_are_rejected_directly():
    # the perturbed claims rho* = eps^2/2 and (Laplace) eps^2/8 fail the very comparison used
    r = T.tight_rho(M.laplace_pair(1.0))
    assert holds(r.value, "==", M.laplace_rho(1.0), r.width)
    assert not holds(r.value, "==", mpmath.mpf(1) / 2, r.width)
    assert not holds(r.value, "==", mpmath.mpf(1) / 8, r.width)
    k = T.tight_rho(M.krr_pair(0.5, 10))
    assert not holds(k.value, "==", M.krr_kl(0.5, 10), k.width)   # KL not tight beyond k = 6


def test_quick_run_of_every_check():
    mod = _load_script()
    specs = checks_in(mod)
    assert [s.id for s in specs] == ["hm.laplace", "hm.discrete_laplace", "hm.krr", "hm.rappor",
                                     "hm.bounded_range"]
    results = {}
    for spec in specs:
        res = results[spec.id] = run_check(spec, Settings(quick=True))
        assert res.status == "pass", (spec.id, res.reason, res.error,
                                      [c.to_json() for c in res.cases if not c.ok])
        assert res.controls and all(c.rejected for c in res.controls), spec.id
    # the k-RR findings report a finite maximiser beyond k = 6
    krr = results["hm.krr"]
    moved = [f for f in krr.findings if f.get("alpha_star") not in (None, "alpha -> 1") and "k" in f]
    assert moved and min(f["k"] for f in moved) == 7
