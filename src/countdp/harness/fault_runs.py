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
"""

from __future__ import annotations

import contextlib
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
from .faults import Fault, faults_in
from .report import dumps, write_atomic
from .results import Settings

__all__ = ["FaultOutcome", "ClaimSensitivity", "FaultRun", "run_faults", "write_faults_json",
           "format_faults"]


@dataclass(frozen=True)
class FaultOutcome:
    """What one fault did to its claim."""

    claim: str
    name: str
    kind: str
    caught: bool
    how: str            # "case", "control", "certificate", "error", "missed", "uncatchable"
    detail: str
    seconds: float


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

    @property
    def complete(self) -> bool:
        """Every selected claim has faults (or uncatchable ones listed with their reasons), is
        assessed, and catches every catchable fault."""
        return not self.uncovered and all(c.baseline == "pass" and not c.missed
                                          for c in self.claims.values())


# ---------------------------------------------------------------------------------------------
# Worker side
# ---------------------------------------------------------------------------------------------


def _spec_for(module, claim_id: str) -> claims.CheckSpec:
    for spec in claims.checks_in(module):
        if spec.id == claim_id:
            return spec
    raise LookupError(f"{module.__name__} lists a fault for {claim_id} but does not check it")


def _outcome(flt: Fault, res, seconds: float) -> FaultOutcome:
    if res.status == "pass":
        return FaultOutcome(flt.claim, flt.name, flt.kind, False, "missed",
                            "the patched claim still passes", seconds)
    if res.status == "error":
        last = (res.error or "the check errored").strip().splitlines()[-1]
        return FaultOutcome(flt.claim, flt.name, flt.kind, True, "error", last, seconds)
    reason = res.reason or ""
    how = ("certificate" if "certified layer" in reason
           else "control" if "control" in reason else "case")
    return FaultOutcome(flt.claim, flt.name, flt.kind, True, how, reason, seconds)


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


def _fault_task(path: str, index: int, settings: Settings) -> FaultOutcome:
    """Fault number ``index`` of the script at ``path``, its claim run patched (in a worker)."""
    t0 = time.perf_counter()
    flt = faults_in(loader.cached_module(path))[index]
    if not flt.catchable:
        return FaultOutcome(flt.claim, flt.name, flt.kind, False, "uncatchable", flt.reason or "", 0.0)
    status, value = pool.forked(_patched_run, path, index, settings)
    seconds = time.perf_counter() - t0
    if status != "ok":
        return FaultOutcome(flt.claim, flt.name, flt.kind, True, "error", str(value)[-300:], seconds)
    return _outcome(flt, value, seconds)


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
    """Inject every fault of the catalogue (or of ``only_ids``) into its claim's check
    (in a local pool of ``jobs`` processes, or on ``executor``: a Dask cluster's).

    The unpatched statuses are ``baseline`` (claim id -> status of a run just made with the same
    settings), else those of ``baseline_from`` (the reports of a reproduce in the same mode,
    precision and seed) when available, otherwise a run of each claim."""
    t0 = time.perf_counter()
    root = Path(root) if root is not None else loader.find_checks_dir()
    only = None if only_ids is None else set(only_ids)
    settings = replace(settings, stop_at_first_failure=True)
    scripts = [s for s in loader.discover(root) if s.error is None]
    modules = {s.name: loader.load_script(s.path) for s in scripts}
    table: dict[str, ClaimSensitivity] = {}
    fault_tasks, base_tasks = [], []
    known = dict(baseline) if baseline is not None else \
        _previous_statuses(baseline_from, replace(settings, stop_at_first_failure=False))
    for s in scripts:
        for i, flt in enumerate(faults_in(modules[s.name])):
            if only is not None and flt.claim not in only:
                continue
            if flt.claim not in table:
                table[flt.claim] = ClaimSensitivity(flt.claim, known.get(flt.claim, "unknown"))
                if flt.claim not in known:
                    base_tasks.append(pool.Task(flt.claim, _baseline_task,
                                                   (str(s.path), flt.claim, settings)))
            fault_tasks.append(pool.Task((flt.claim, i), _fault_task, (str(s.path), i, settings)))

    def base_done(task, value, exc):
        table[task.key].baseline = value[1] if exc is None else "error"

    def fault_done(task, value, exc):
        if exc is not None:
            flt_claim = task.key[0]
            value = FaultOutcome(flt_claim, f"fault {task.key[1]}", "other", True, "error",
                                 repr(exc), 0.0)
        table[value.claim].outcomes.append(value)
        if progress is not None:
            progress(f"{value.claim:<24} {'caught' if value.caught else value.how:<12} {value.name}")

    pool.execute(base_tasks, jobs or os.cpu_count() or 1, base_done, executor=executor)
    pool.execute(fault_tasks, jobs or os.cpu_count() or 1, fault_done, executor=executor)
    order = {i: k for k, i in enumerate(CATALOGUE)}
    ordered = dict(sorted(table.items(), key=lambda kv: order.get(kv[0], len(order))))
    for c in ordered.values():  # the report does not depend on the completion order
        c.outcomes.sort(key=lambda o: o.name)
    checked = [sp.id for s in scripts for sp in claims.checks_in(modules[s.name])]
    uncovered = [i for i in checked if i not in ordered and (only is None or i in only)]
    return FaultRun(settings, ordered, time.perf_counter() - t0, uncovered)


# ---------------------------------------------------------------------------------------------
# Reports
# ---------------------------------------------------------------------------------------------


def write_faults_json(run: FaultRun, reports_dir: str | os.PathLike) -> Path:
    """``reports/faults.json``: per claim, the faults, what caught each, and the missed ones."""
    s = run.settings
    data = {
        "quick": bool(s.quick), "dps": s.dps, "seed": s.seed,
        "faults": sum(len(c.outcomes) for c in run.claims.values()),
        "catchable": sum(len(c.catchable) for c in run.claims.values()),
        "caught": sum(c.caught for c in run.claims.values()),
        "complete": run.complete,
        "claims_without_faults": list(run.uncovered),
        "claims": {cid: {"sensitivity": c.text, "baseline": c.baseline, "caught": c.caught,
                         "catchable": len(c.catchable), "missed": c.missed,
                         "faults": [_outcome_json(o) for o in c.outcomes]}
                   for cid, c in run.claims.items()},
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
    return "\n".join(lines)
