"""Shared test set-up.

* Property tests are derandomized, so every run (and CI) draws the same examples: a failure is
  reproducible, never a flake.
* ``pytestmark = pytest.mark.mp_dps(30)`` in a module (or the mark on one test) runs its tests under
  ``mpmath.workdps(30)``; the checks run at ``settings.dps``, 30 by default.
* ``check_script(name)`` loads ``paper_checks/<name>.py`` through the harness's own loader (the
  way ``countdp reproduce`` loads it), ``check_spec(claim_id)`` finds the check of a claim, and
  ``run_claim(claim_id, quick=True, certify=False)`` runs one claim in this process, and
  ``certify(claim_id)`` runs only the claim's certificates (quick mode), without its check;
  ``run_with_fault(script, claim_id, name)`` runs the claim with one fault of its script's
  catalogue applied.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import mpmath
import pytest
from hypothesis import HealthCheck, settings

from countdp.harness import claims, loader
from countdp.harness.certificates import Certification, run_certificates
from countdp.harness.fault_runs import FaultOutcome, fault_outcome
from countdp.harness.faults import faults_in
from countdp.harness.results import ClaimResult, Settings

settings.register_profile("countdp", derandomize=True, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("countdp")


def pytest_configure(config):
    config.addinivalue_line("markers", "mp_dps(digits): run the test under mpmath.workdps(digits)")


@pytest.fixture(autouse=True)
def _mp_dps(request):
    mark = request.node.get_closest_marker("mp_dps")
    if mark is None:
        yield
    else:
        with mpmath.workdps(mark.args[0]):
            yield


ROOT = Path(__file__).resolve().parents[1]
CHECKS = ROOT / "paper_checks"


@functools.lru_cache(maxsize=None)
def _script(name: str):
    return loader.load_script(CHECKS / f"{name}.py")


@functools.lru_cache(maxsize=None)
def _spec(claim_id: str) -> claims.CheckSpec:
    for path in loader.script_paths(ROOT):
        for spec in claims.checks_in(_script(path.stem)):
            if spec.id == claim_id:
                return spec
    raise KeyError(f"no check script declares {claim_id}")


@pytest.fixture(scope="session")
def check_script():
    """``check_script(name)``: the module of ``paper_checks/<name>.py`` (loaded once)."""
    return _script


@pytest.fixture(scope="session")
def check_spec():
    """``check_spec(claim_id)``: the :class:`CheckSpec` of a claim (with its certificates)."""
    return _spec


@pytest.fixture(scope="session")
def run_claim():
    """``run_claim(claim_id, quick=True, certify=False, **settings)``: the claim's result."""

    def run(claim_id: str, quick: bool = True, certify: bool = False, **kw) -> ClaimResult:
        return claims.run_check(_spec(claim_id), Settings(quick=quick, certify=certify, **kw))

    return run


@pytest.fixture(scope="session")
def certify():
    """``certify(claim_id)``: the :class:`Certification` of the claim's certificates in quick mode
    (the check itself is not run)."""

    def run(claim_id: str) -> Certification:
        return run_certificates(claim_id, _spec(claim_id).certificates, quick=True)

    return run


@pytest.fixture(scope="session")
def run_with_fault():
    """``run_with_fault(script, claim_id, name)``: the claim's quick result (no certificates,
    stopped at its first failing case) with the fault ``name`` of ``paper_checks/<script>.py``'s
    catalogue applied (the only fault of that name for that claim).  The script is registered
    under its module name meanwhile, where ``set_attribute(__name__, ...)`` faults find it."""

    def run(script: str, claim_id: str, name: str) -> ClaimResult:
        mod = _script(script)
        [flt] = [f for f in faults_in(mod) if f.claim == claim_id and f.name == name]
        saved = sys.modules.get(mod.__name__)
        sys.modules[mod.__name__] = mod
        try:
            with flt.applied():
                return claims.run_check(_spec(claim_id), Settings(quick=True, certify=False,
                                                                  stop_at_first_failure=True))
        finally:
            if saved is None:
                sys.modules.pop(mod.__name__, None)
            else:
                sys.modules[mod.__name__] = saved

    return run


@pytest.fixture(scope="session")
def named_faults_caught_by_a_case():
    """``named_faults_caught_by_a_case(script, named)`` (``named``: claim id -> fault names)
    asserts that each named fault of ``paper_checks/<script>.py`` belongs to its claim and, run as
    ``countdp faults --quick`` runs it (a fresh process per fault), makes a case of its claim fail;
    returns name -> FaultOutcome.  Only the named faults run: the whole catalogue runs in ``make faults``."""

    def check(script: str, named: dict[str, list[str]]) -> dict[str, FaultOutcome]:
        mod = _script(script)
        catalogue = list(faults_in(mod))
        settings = Settings(quick=True, stop_at_first_failure=True)
        outcomes = {}
        for claim_id, names in named.items():
            for name in names:
                [i] = [i for i, f in enumerate(catalogue) if f.name == name]
                assert catalogue[i].claim == claim_id, (name, catalogue[i].claim)
                outcomes[name] = o = fault_outcome(mod.__file__, i, settings)
                assert o.caught and o.how == "case", (claim_id, name, o.detail)
        return outcomes

    return check
