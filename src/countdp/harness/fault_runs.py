"""Running the fault catalogue: every fault in its claim's check, and the sensitivity report.

For each selected claim the unpatched check must pass first (otherwise its faults cannot be
assessed); then each fault runs the claim's check with the patch applied, stopping at the first
failing case or control.  A fault is *caught* when the patched claim does not pass: a case or a
control fails, a certificate is proved false, or the check errors (reported as such).

Each patched run happens in a process forked for it alone, with the library's memo caches
emptied first: a value cached before the patch is recomputed under it, and a value a corrupted
formula leaves in a cache never reaches another run.  (A constant a module computes when it is
imported is not reached: checks evaluate the formulas they test afresh.)  Results: ``reports/faults.json`` and a per-claim
``caught k / n`` with the missed faults named.

The faults beyond the formulas (``paper_checks/_core_faults.py``, see
:func:`countdp.harness.faults.core_fault`) run the same way when they name claims (caught when
one of them stops passing).  One that names a unit test runs that pytest node in the forked,
patched process (caught when it fails); the nodes are first run once unpatched, and must pass.
The report says, for every fault, what caught it (a claim id or a test node), and counts the
faults by layer.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import sys
import time
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable

from . import claims, loader, pool
from .catalogue import CATALOGUE
from .faults import LAYERS, Fault, faults_in
from .report import dumps, write_atomic
from .results import Settings

__all__ = ["CORE_FAULTS", "FaultOutcome", "ClaimSensitivity", "FaultRun", "run_faults", "fault_outcome",
           "core_faults", "write_faults_json", "format_faults"]

#: the catalogue of faults beyond the formulas, beside the check scripts
CORE_FAULTS = "_core_faults.py"


@dataclass(frozen=True)
class FaultOutcome:
    """What one fault did to its claim."""

    claim: str
    name: str
    kind: str
    caught: bool
    how: str            # "case", "control", "certificate", "error", "test", "missed",
    #                     "uncatchable", "not assessed"
    detail: str
    seconds: float
    caught_by: str = ""  # the claim id or the test node that caught it
    layer: str = "formulas"


@dataclass
class ClaimSensitivity:
    """A claim's faults: how many were injected, caught, missed, or cannot be caught."""

    claim: str
    baseline: str = "pass"            # the unpatched claim's status
    outcomes: list[FaultOutcome] = field(default_factory=list)

    @property
    def catchable(self) -> list[FaultOutcome]:
        return [o for o in self.outcomes if o.how != "uncatchable"]

    @property
    def caught(self) -> int:
        return sum(o.caught for o in self.catchable)

    @property
    def missed(self) -> list[str]:
        return [o.name for o in self.catchable if not o.caught]

    @property
    def text(self) -> str:
        if self.baseline != "pass":
            return f"not assessed (unpatched: {self.baseline})"
        n = len(self.catchable)
        extra = len(self.outcomes) - n
        return f"caught {self.caught}/{n}" + (f" (+{extra} uncatchable)" if extra else "")


@dataclass
class FaultRun:
    settings: Settings
    claims: dict[str, ClaimSensitivity]
    seconds: float
    uncovered: list[str] = field(default_factory=list)  # selected claims no fault names
    core: list[FaultOutcome] = field(default_factory=list)  # the faults beyond the formulas
    skipped_core: int = 0  # unit-test faults left out (quick mode, or no tests/ directory)

    @property
    def complete(self) -> bool:
        """Every selected claim has faults (or uncatchable ones listed with their reasons), is
        assessed, and catches every catchable fault; and every fault beyond the formulas is
        caught."""
        return not self.uncovered and all(c.baseline == "pass" and not c.missed
                                          for c in self.claims.values()) \
            and all(o.caught for o in self.core)

    def by_layer(self) -> dict[str, dict[str, int]]:
        """Per layer: faults run, caught, caught by a claim, caught by a unit test."""
        out = {}
        formula = [o for c in self.claims.values() for o in c.catchable]
        for layer in ("formulas",) + LAYERS:
            outs = formula if layer == "formulas" else [o for o in self.core if o.layer == layer]
            if outs:
                out[layer] = {"faults": len(outs), "caught": sum(o.caught for o in outs),
                              "by_claims": sum(o.caught and "::" not in o.caught_by for o in outs),
                              "by_tests": sum(o.caught and "::" in o.caught_by for o in outs)}
        return out


# ---------------------------------------------------------------------------------------------
# Worker side
# ---------------------------------------------------------------------------------------------


def _spec_for(module, claim_id: str) -> claims.CheckSpec:
    for spec in claims.checks_in(module):
        if spec.id == claim_id:
            return spec
    raise LookupError(f"{module.__name__} lists a fault for {claim_id} but does not check it")


def _outcome(flt: Fault, res, seconds: float) -> FaultOutcome:
    def out(caught: bool, how: str, detail: str) -> FaultOutcome:
        return FaultOutcome(flt.claim or flt.expected, flt.name, flt.kind, caught, how, detail,
                            seconds, res.id if caught else "", flt.layer)
    if res.status == "pass":
        return out(False, "missed", "the patched claim still passes")
    if res.status == "error":
        return out(True, "error", (res.error or "the check errored").strip().splitlines()[-1])
    reason = res.reason or ""
    return out(True, "certificate" if "certified layer" in reason
               else "control" if "control" in reason else "case", reason)


def clear_library_caches() -> int:
    """Empty every memo (``functools`` cache) of the library's modules and classes, so that a
    patched run recomputes what the patch corrupts instead of reading a value cached before it;
    returns how many caches were cleared."""
    n = 0
    for name, mod in list(sys.modules.items()):
        if not name.startswith("countdp.") or name.startswith("countdp.harness"):
            continue
        for obj in list(vars(mod).values()):
            holders = [obj] + (list(vars(obj).values()) if isinstance(obj, type) else [])
            for h in holders:
                clear = getattr(h, "cache_clear", None)
                if callable(clear):
                    clear()
                    n += 1
    return n


def _patched_run(path: str, index: int, settings: Settings):
    clear_library_caches()
    module = loader.cached_module(path)
    flt = faults_in(module)[index]
    spec = _spec_for(module, flt.claim)
    with flt.applied(), contextlib.redirect_stdout(sys.stderr):
        return claims.run_check(spec, settings)


def fault_outcome(path: str, index: int, settings: Settings) -> FaultOutcome:
    """Fault number ``index`` of the script at ``path``: its claim run patched in a forked
    process, as ``countdp faults`` runs each fault (``settings`` as :func:`run_faults` makes
    them: stopped at the first failing case)."""
    t0 = time.perf_counter()
    flt = faults_in(loader.cached_module(path))[index]
    if not flt.catchable:
        return FaultOutcome(flt.claim, flt.name, flt.kind, False, "uncatchable", flt.reason or "", 0.0)
    status, value = pool.forked(_patched_run, path, index, settings)
    seconds = time.perf_counter() - t0
    if status != "ok":
        return FaultOutcome(flt.claim, flt.name, flt.kind, True, "error", str(value)[-300:], seconds,
                            flt.claim)
    return _outcome(flt, value, seconds)


# ---------------------------------------------------------------------------------------------
# Faults beyond the formulas (worker side)
# ---------------------------------------------------------------------------------------------

_CORE_MODULES: dict[str, object] = {}


def _core_path(root: str | os.PathLike) -> Path:
    d = Path(root)
    return (d / loader.CHECKS_DIRNAME if (d / loader.CHECKS_DIRNAME).is_dir() else d) / CORE_FAULTS


def core_faults(root: str | os.PathLike) -> list[Fault]:
    """The faults beyond the formulas that ``paper_checks/_core_faults.py`` under ``root`` lists
    in ``FAULTS`` (empty if the file is absent); each must be a :func:`core_fault`."""
    path = _core_path(root)
    if not path.is_file():
        return []
    key = str(path.resolve())
    if key not in _CORE_MODULES:
        spec = importlib.util.spec_from_file_location(f"{loader.MODULE_PREFIX}._core_faults", key)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {key}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _CORE_MODULES[key] = module
    found = faults_in(_CORE_MODULES[key])
    bad = [f.name for f in found if not f.core]
    if bad:
        raise TypeError(f"{CORE_FAULTS} lists faults of one claim (declare them in its script): {bad}")
    return found


def _core_claims_run(root: str, index: int, where: list[tuple[str, str]], settings: Settings):
    """The claims ``where`` ((script path, claim id) each) under core fault ``index``, until one
    does not pass; the last result."""
    clear_library_caches()
    flt = core_faults(root)[index]
    specs = [_spec_for(loader.cached_module(path), cid) for path, cid in where]
    res = None
    with flt.applied(), contextlib.redirect_stdout(sys.stderr):
        for spec in specs:
            res = claims.run_check(spec, settings)
            if res.status != "pass":
                break
    return res


class _NodeOutcomes:
    """A pytest plugin: the outcome of every test and collection report, by node id."""

    def __init__(self) -> None:
        self.outcomes: dict[str, str] = {}
        self.first_failure = ""

    def _note(self, report) -> None:
        if report.failed and not self.first_failure:
            text = (report.longreprtext or "").strip().splitlines()
            self.first_failure = f"{report.nodeid}: {text[-1] if text else 'failed'}"[:300]
        if report.failed or report.nodeid not in self.outcomes:
            self.outcomes[report.nodeid] = report.outcome

    def pytest_runtest_logreport(self, report) -> None:
        if report.when == "call" or report.failed:
            self._note(report)

    def pytest_collectreport(self, report) -> None:
        if report.failed:
            self._note(report)


def _pytest(root: str, nodes: list[str], first_failure_stops: bool) -> tuple[int, _NodeOutcomes]:
    """Run the pytest ``nodes`` in this process, quietly; (exit code, what each node did)."""
    import pytest

    plugin = _NodeOutcomes()
    args = [str(Path(root) / n) for n in nodes] + [
        "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--rootdir", str(root)]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = pytest.main(args + (["-x"] if first_failure_stops else []), plugins=[plugin])
    return int(code), plugin


def _test_run(root: str, index: int) -> tuple[int, str]:
    clear_library_caches()
    flt = core_faults(root)[index]
    with flt.applied():
        code, plugin = _pytest(root, [flt.caught_by], True)
    return code, plugin.first_failure


def _test_fault_task(root: str, index: int) -> FaultOutcome:
    """Core fault ``index`` with its unit test run patched: caught when the test fails (or
    cannot even be collected under the patch)."""
    t0 = time.perf_counter()
    flt = core_faults(root)[index]
    status, value = pool.forked(_test_run, root, index)
    seconds = time.perf_counter() - t0

    def out(caught: bool, how: str, detail: str) -> FaultOutcome:
        return FaultOutcome(flt.expected, flt.name, flt.kind, caught, how, detail, seconds,
                            flt.caught_by if caught else "", flt.layer)
    if status != "ok":
        return out(True, "error", str(value)[-300:])
    code, detail = value
    if code == 0:
        return out(False, "missed", "the test still passes under the patch")
    if code == 1:
        return out(True, "test", detail)
    if code in (2, 3):  # interrupted (a collection error) or an internal error, under the patch
        return out(True, "error", detail or f"pytest exit code {code}")
    return out(False, "not assessed", f"pytest exit code {code}: no such test node?")


def _test_baseline_task(root: str, nodes: list[str]) -> dict[str, str]:
    """Each unit-test node run once unpatched: node -> "pass" or what it did instead."""
    def statuses() -> dict[str, str]:
        code, plugin = _pytest(root, nodes, False)
        if code in (4, 5):  # a node that does not exist stops the whole run: find it
            return {n: _one(n) for n in nodes}
        return {n: _node_status(n, plugin.outcomes) for n in nodes}

    def _one(node: str) -> str:
        code, plugin = _pytest(root, [node], False)
        return _node_status(node, plugin.outcomes) if code not in (4, 5) else "no such test"
    status, value = pool.forked(statuses)
    return value if status == "ok" else {n: "error" for n in nodes}


def _node_status(node: str, outcomes: dict[str, str]) -> str:
    mine = [o for k, o in outcomes.items() if k == node or k.startswith(node + "[")]
    if not mine:
        return "not run"
    return "pass" if all(o in ("passed", "skipped") for o in mine) and "passed" in mine else "fail"


def _baseline_task(path: str, claim_id: str, settings: Settings) -> tuple[str, str]:
    module = loader.cached_module(path)
    with contextlib.redirect_stdout(sys.stderr):
        res = claims.run_check(_spec_for(module, claim_id), settings)
    return claim_id, res.status


# ---------------------------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------------------------


def _previous_statuses(reports_dir: str | os.PathLike | None, settings: Settings) -> dict:
    """Claim statuses of an earlier reproduce in the same mode, precision and seed (or {})."""
    if reports_dir is None:
        return {}
    try:
        data = json.loads((Path(reports_dir) / "summary.json").read_text(encoding="utf-8"))
        env = data["environment"]
        if (bool(env["quick"]), int(env["dps"]), int(env["seed"])) != \
                (settings.quick, settings.dps, settings.seed):
            return {}
        return {k: v for k, v in data["claims"].items() if k in CATALOGUE}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def run_faults(settings: Settings, jobs: int | None = None, only_ids: Iterable[str] | None = None,
               root: str | os.PathLike | None = None, baseline_from: str | os.PathLike | None = None,
               progress: Callable[[str], None] | None = None,
               baseline: dict[str, str] | None = None, executor: Executor | None = None
               ) -> FaultRun:
    """Inject every fault of the catalogue (or of ``only_ids``) into its claim's check, and
    every fault beyond the formulas into its claims or its unit test (in a local pool of
    ``jobs`` processes, or on ``executor``: a Dask cluster's).  The unit-test faults run only
    in a run of the whole catalogue (no ``only_ids``), and in quick mode only those marked
    ``quick``.

    The unpatched statuses are ``baseline`` (claim id -> status of a run just made with the same
    settings), else those of ``baseline_from`` (the reports of a reproduce in the same mode,
    precision and seed) when available, otherwise a run of each claim."""
    t0 = time.perf_counter()
    root = Path(root) if root is not None else loader.find_checks_dir()
    only = None if only_ids is None else set(only_ids)
    settings = replace(settings, stop_at_first_failure=True)
    scripts = [s for s in loader.discover(root) if s.error is None]
    modules = {s.name: loader.load_script(s.path) for s in scripts}
    script_of = {sp.id: str(s.path) for s in scripts for sp in claims.checks_in(modules[s.name])}
    table: dict[str, ClaimSensitivity] = {}
    fault_tasks = []
    statuses = dict(baseline) if baseline is not None else \
        _previous_statuses(baseline_from, replace(settings, stop_at_first_failure=False))
    for s in scripts:
        for i, flt in enumerate(faults_in(modules[s.name])):
            if flt.core:
                raise TypeError(f"{s.name}: the fault {flt.name!r} beyond the formulas belongs in "
                                f"{CORE_FAULTS}")
            if only is not None and flt.claim not in only:
                continue
            table.setdefault(flt.claim, ClaimSensitivity(flt.claim))
            fault_tasks.append(pool.Task((flt.claim, i), fault_outcome, (str(s.path), i, settings)))
    core, skipped = _core_tasks(root, settings, only, script_of)
    fault_tasks += core
    wanted = set(table) | {c for t in core if t.key[0] == "core" for c in t.key[2]}
    base_tasks = [pool.Task(c, _baseline_task, (script_of[c], c, settings))
                  for c in sorted(wanted - set(statuses))]
    nodes = sorted({t.key[2] for t in core if t.key[0] == "test"})
    if nodes:
        _preload_test_imports()
        base_tasks.append(pool.Task("tests", _test_baseline_task, (str(root), nodes)))
    node_status: dict[str, str] = {}
    outcomes_core: dict[tuple, FaultOutcome] = {}

    def base_done(task, value, exc):
        if task.key == "tests":
            node_status.update(value if exc is None else {n: "error" for n in nodes})
        else:
            statuses[task.key] = value[1] if exc is None else "error"

    def fault_done(task, value, exc):
        if exc is not None:
            value = FaultOutcome(str(task.key[0]), f"fault {task.key[1]}", "other", True, "error",
                                 repr(exc), 0.0)
        if task.key[0] in ("core", "test"):
            outcomes_core[task.key] = value
        else:
            table[value.claim].outcomes.append(value)
        if progress is not None:
            progress(f"{value.claim[:40]:<24} {'caught' if value.caught else value.how:<12} {value.name}")

    pool.execute(base_tasks, jobs or os.cpu_count() or 1, base_done, executor=executor)
    pool.execute(fault_tasks, jobs or os.cpu_count() or 1, fault_done, executor=executor)
    for cid, c in table.items():
        c.baseline = statuses.get(cid, "unknown")
    order = {i: k for k, i in enumerate(CATALOGUE)}
    ordered = dict(sorted(table.items(), key=lambda kv: order.get(kv[0], len(order))))
    for c in ordered.values():  # the report does not depend on the completion order
        c.outcomes.sort(key=lambda o: o.name)
    core_out = _assessed(outcomes_core, core, statuses, node_status)
    checked = [sp.id for s in scripts for sp in claims.checks_in(modules[s.name])]
    uncovered = [i for i in checked if i not in ordered and (only is None or i in only)]
    return FaultRun(settings, ordered, time.perf_counter() - t0, uncovered, core_out, skipped)


def _preload_test_imports() -> None:
    """Import pytest and the heavy modules the unit tests import once, here: every forked test
    run inherits them (a test run then costs a few tenths of a second, not a second)."""
    import hypothesis  # noqa: F401
    import pytest  # noqa: F401
    import scipy.integrate  # noqa: F401
    import scipy.optimize  # noqa: F401
    import scipy.stats  # noqa: F401


def _core_tasks(root: Path, settings: Settings, only: set | None,
                script_of: dict[str, str]) -> tuple[list[pool.Task], int]:
    """The tasks of the faults beyond the formulas selected for this run, keyed
    ``("core", index, claims)`` or ``("test", index, node)``; and how many unit-test faults are
    left out (by quick mode, or because the unit tests are not there: installed check scripts)."""
    tasks, skipped = [], 0
    have_tests = (Path(root) / "tests").is_dir()  # not beside installed check scripts
    for i, flt in enumerate(core_faults(root)):
        if flt.caught_by is not None:
            if only is not None:
                continue
            if (settings.quick and not flt.quick) or not have_tests:
                skipped += 1
                continue
            tasks.append(pool.Task(("test", i, flt.caught_by), _test_fault_task, (str(root), i)))
            continue
        if only is not None and not only.intersection(flt.claims):
            continue
        missing = [c for c in flt.claims if c not in script_of]
        if missing:
            raise LookupError(f"core fault {flt.name!r} names claims no script checks: {missing}")
        where = [(script_of[c], c) for c in flt.claims]
        tasks.append(pool.Task(("core", i, flt.claims), _core_fault_task,
                               (str(root), i, where, settings)))
    return tasks, skipped


def _core_fault_task(root: str, index: int, where: list[tuple[str, str]],
                     settings: Settings) -> FaultOutcome:
    t0 = time.perf_counter()
    flt = core_faults(root)[index]
    status, value = pool.forked(_core_claims_run, root, index, where, settings)
    seconds = time.perf_counter() - t0
    if status != "ok":
        return FaultOutcome(flt.expected, flt.name, flt.kind, True, "error", str(value)[-300:],
                            seconds, flt.claims[0], flt.layer)
    return _outcome(flt, value, seconds)


def _assessed(outcomes: dict[tuple, FaultOutcome], tasks: list[pool.Task],
              statuses: dict[str, str], node_status: dict[str, str]) -> list[FaultOutcome]:
    """The core outcomes in catalogue order; a fault whose claims or test do not pass unpatched
    is not assessed (and not caught)."""
    out = []
    for t in tasks:
        o = outcomes[t.key]
        base = [node_status.get(t.key[2], "unknown")] if t.key[0] == "test" else \
            [statuses.get(c, "unknown") for c in t.key[2]]
        bad = [b for b in base if b != "pass"]
        if bad:
            o = replace(o, caught=False, how="not assessed", caught_by="",
                        detail=f"unpatched: {bad[0]}")
        out.append(o)
    return out


# ---------------------------------------------------------------------------------------------
# Reports
# ---------------------------------------------------------------------------------------------


def write_faults_json(run: FaultRun, reports_dir: str | os.PathLike) -> Path:
    """``reports/faults.json``: per claim, the faults, what caught each, and the missed ones."""
    s = run.settings
    data = {
        "quick": bool(s.quick), "dps": s.dps, "seed": s.seed,
        "faults": sum(len(c.outcomes) for c in run.claims.values()) + len(run.core),
        "catchable": sum(len(c.catchable) for c in run.claims.values()) + len(run.core),
        "caught": sum(c.caught for c in run.claims.values()) + sum(o.caught for o in run.core),
        "complete": run.complete,
        "by_layer": run.by_layer(),
        "claims_without_faults": list(run.uncovered),
        "claims": {cid: {"sensitivity": c.text, "baseline": c.baseline, "caught": c.caught,
                         "catchable": len(c.catchable), "missed": c.missed,
                         "faults": [_outcome_json(o) for o in c.outcomes]}
                   for cid, c in run.claims.items()},
        "beyond_the_formulas": {
            "missed": [o.name for o in run.core if not o.caught],
            "left_out_in_quick_mode": run.skipped_core,
            "faults": [dict(_outcome_json(o), expected=o.claim) for o in run.core]},
        "seconds": round(run.seconds, 3),
    }
    return write_atomic(Path(reports_dir) / "faults.json", dumps(data))


def _outcome_json(o: FaultOutcome) -> dict:
    d = asdict(o)
    d["seconds"] = round(d["seconds"], 3)
    del d["claim"]
    return d


def format_faults(run: FaultRun) -> str:
    """The per-claim table printed by ``countdp faults``."""
    lines = [f"{'claim':<24} sensitivity"]
    for cid, c in run.claims.items():
        lines.append(f"{cid:<24} {c.text}")
        for name in c.missed:
            lines.append(f"{'':<24}   MISSED: {name}")
        for o in c.outcomes:
            if o.how == "uncatchable":
                lines.append(f"{'':<24}   uncatchable: {o.name} ({o.detail})")
    for cid in run.uncovered:
        lines.append(f"{cid:<24} NO FAULTS LISTED")
    total = sum(len(c.catchable) for c in run.claims.values())
    caught = sum(c.caught for c in run.claims.values())
    lines.append("")
    lines.append(f"{caught} of {total} catchable faults caught over {len(run.claims)} claims "
                 f"({sum(len(c.outcomes) for c in run.claims.values()) - total} listed as "
                 f"uncatchable; {run.seconds:.1f} s)")
    if run.core:
        lines += ["", "Faults beyond the formulas", f"{'layer':<11} {'caught by':<58} fault"]
        for o in run.core:
            by = o.caught_by if o.caught else f"MISSED ({o.how}; expected {o.claim})"
            lines.append(f"{o.layer:<11} {by:<58} {o.name}")
        by_tests = sum(o.caught and "::" in o.caught_by for o in run.core)
        caught_core = sum(o.caught for o in run.core)
        lines.append(f"{caught_core} of {len(run.core)} faults beyond the formulas caught "
                     f"({caught_core - by_tests} by claims, {by_tests} by unit tests)")
    layers = run.by_layer()
    if layers:
        lines.append("")
        lines.append("by layer: " + "; ".join(
            f"{k} {v['caught']}/{v['faults']} ({v['by_claims']} by claims, {v['by_tests']} by "
            f"tests)" for k, v in layers.items()))
        if run.skipped_core:
            lines.append(f"({run.skipped_core} unit-test faults beyond the formulas left out: "
                         "full mode only, or no tests/ beside paper_checks/)")
    return "\n".join(lines)
