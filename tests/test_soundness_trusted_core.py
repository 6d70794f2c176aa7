"""The trusted core (countdp.trusted_core.TRUSTED_CORE) is real and guarded: every module listed
exists, every one has a soundness test file that imports it, and docs/trusted-core.md lists
every module with its guard."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from countdp.trusted_core import TRUSTED_CORE

ROOT = Path(__file__).resolve().parents[1]

#: module -> the soundness test file that guards it
GUARDS = {
    "countdp.arb.verdicts": "test_soundness_verdicts.py",
    "countdp.arb.ranges": "test_soundness_ranges.py",
    "countdp.arb.integrals": "test_soundness_tails.py",
    "countdp.arb.log_gaussian": "test_soundness_tails.py",
    "countdp.arb.gaussian_renyi": "test_soundness_tails.py",
    "countdp.arb.gaussian_integrals": "test_soundness_tails.py",
    "countdp.arb.drift": "test_soundness_tails.py",
    "countdp.arb.airy_score": "test_soundness_tails.py",
    "countdp.arb.means": "test_soundness_tails.py",
    "countdp.arb.small_noise": "test_soundness_tails.py",
    "countdp.numerics.tolerance": "test_soundness_numerics.py",
    "countdp.numerics.estimate": "test_soundness_numerics.py",
    "countdp.numerics.double_exponential": "test_soundness_numerics.py",
    "countdp.numerics.montecarlo": "test_soundness_numerics.py",
    "countdp.harness.results": "test_soundness_harness.py",
    "countdp.harness.claims": "test_soundness_harness.py",
    "countdp.harness.certificates": "test_soundness_harness.py",
    "countdp.laws": "test_soundness_laws.py",
    "countdp.mechanisms": "test_soundness_laws.py",
    "countdp.divergence.tight_rho": "test_soundness_sup_alpha.py",
    "countdp.divergence.loss_cgf": "test_soundness_sup_alpha.py",
    "countdp.divergence.fallback_loss_cgf": "test_soundness_sup_alpha.py",
    "countdp.divergence.finite_support": "test_soundness_integer_pairs.py",
    "countdp.divergence.tail_growth": "test_soundness_sup_alpha.py",
    "countdp.divergence.noise_pair": "test_divergence_noise_pair.py",
    "countdp.divergence.standardise": "test_divergence_noise_pair.py",
}


def test_every_core_module_has_a_guard():
    assert set(GUARDS) == set(TRUSTED_CORE)


@pytest.mark.parametrize("module", sorted(TRUSTED_CORE))
def test_the_module_exists_and_its_guard_imports_it(module):
    importlib.import_module(module)
    assert TRUSTED_CORE[module].strip(), f"{module}: a one-line guarantee"
    guard = ROOT / "tests" / GUARDS[module]
    assert guard.is_file(), f"{module}: no soundness test {guard.name}"
    text = guard.read_text()
    parent, _, leaf = module.rpartition(".")
    imported = (re.search(rf"^\s*(from|import) {re.escape(module)}\b", text, re.M)
                or re.search(rf"^from {re.escape(parent)} import (\([^)]*\b{leaf}\b|[^\n]*\b{leaf}\b)", text, re.M)
                or re.search(rf"^\s*(from|import) {re.escape(module)}\.", text, re.M))
    assert imported, f"{guard.name} does not import {module}"


def test_the_document_lists_every_module_with_its_guard():
    doc = (ROOT / "docs" / "trusted-core.md").read_text()
    for module, guard in GUARDS.items():
        rows = [line for line in doc.splitlines() if line.startswith("|") and f"`{module}`" in line]
        assert rows, f"docs/trusted-core.md has no row for {module}"
        assert any(guard in r for r in rows), f"the row of {module} does not name {guard}"


def test_the_soundness_tests_run_in_make_test():
    """make test runs every test not marked slow (pytest -m 'not slow'): no soundness test may
    leave it for the slow tier, neither by a mark on a test nor by a module-wide pytestmark."""
    marked = []
    for path in sorted((ROOT / "tests").glob("test_soundness_*.py")):
        text = path.read_text()
        if re.search(r"^\s*@pytest\.mark\.slow|^pytestmark\s*=[^\n]*slow", text, re.M):
            marked.append(path.name)
    assert not marked, f"soundness tests marked slow (make test would skip them): {marked}"
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile[makefile.index("\ntest:"):makefile.index("\ntest-slow:")]
    assert "-m 'not slow'" in recipe and "reproduce --quick" in recipe
