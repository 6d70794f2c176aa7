"""Run the claims of the check scripts (:mod:`countdp.harness.loader`), in parallel, into a
:class:`Run`; or one claim in this process.

Every (script, claim) pair is one task of the worker pool (:mod:`countdp.harness.pool`: local
processes, or a Dask cluster's); a crash of any kind becomes an ``error`` result, never a skip:

* a script that fails to import gives the pseudo-result ``<script>:import`` (status error);
* a check that raises gives status error with its traceback (:func:`countdp.harness.claims.run_check`);
* a worker process that dies (segfault, ``os._exit``) is an error for the task that killed it
  alone (:func:`countdp.harness.pool.execute`);
* ``figures()`` that raises gives the pseudo-result ``<script>:figures`` (status error);
* a claim id declared by two functions (in one script or several) is an error for each.

Catalogue ids that no script declares are reported with status ``missing``; they make the run
fail only in strict mode.

Results are ordered by script name, then source order, whatever order the tasks finish in.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import os
import shutil
import sys
import tempfile
import time
import traceback
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Iterable

from . import claims, pool
from .catalogue import CATALOGUE
from .claims import CheckSpec, Settings
from .loader import Script, cached_module, discover, find_checks_dir
from .pool import Task, format_exc
from .progress import CheckStatus, Progress, Tracker
from .results import ClaimResult, Run, ScriptRun, error_result

# --------------------------------------------------------------------------------------------
# The tasks, in a worker
# --------------------------------------------------------------------------------------------


def _claim_task(path: str, index: int, claim_id: str, settings: Settings,
                slot: int | None = None) -> ClaimResult:
    """Run claim number ``index`` of the script at ``path`` (in a worker); ``slot``: its place
    in the shared progress array, where the cases done are counted as they are recorded."""
    t0 = time.perf_counter()
    shared = pool.progress_array() if slot is not None else None
    previous_hook = None
    if shared is not None:
        n = len(shared) // 2
        shared[n + slot] = 1

        def hook(cases: int) -> None:
            shared[slot] = cases

        previous_hook = claims.set_case_hook(hook)
    pool.restore_numeric_state()
    try:
        with contextlib.redirect_stdout(sys.stderr):
            specs = claims.checks_in(cached_module(path))
            if index >= len(specs) or specs[index].id != claim_id:
                raise RuntimeError(f"{Path(path).name} no longer declares {claim_id} at "
                                   f"position {index}: was it edited during the run?")
            res = claims.run_check(specs[index], settings)
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 -- SystemExit and friends are errors of the check
        res = error_result(claim_id, "the check could not be run in its worker", format_exc())
        res.seconds = time.perf_counter() - t0
    finally:
        if shared is not None:
            claims.set_case_hook(previous_hook)
            shared[len(shared) // 2 + slot] = 2
    return pool.picklable(res, settings)


def _figures_task(path: str, settings: Settings, slot: int | None = None
                  ) -> tuple[list[str], str | None, float]:
    """Call the script's ``figures(settings)`` (in a worker): (paths, traceback, seconds)."""
    t0 = time.perf_counter()
    shared = pool.progress_array()
    if shared is not None and slot is not None:
        shared[len(shared) // 2 + slot] = 1
    pool.restore_numeric_state()
    try:
        with contextlib.redirect_stdout(sys.stderr):
            Path(settings.figures_dir).mkdir(parents=True, exist_ok=True)
            made = cached_module(path).figures(settings)
            files = [str(p) for p in (made or [])]
        return files, None, time.perf_counter() - t0
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001
        return [], format_exc(), time.perf_counter() - t0


# --------------------------------------------------------------------------------------------
# The runs
# --------------------------------------------------------------------------------------------


def _display_path(path: Path, root: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def _catalogue_missing(scripts: list[Script], only_ids: list[str] | None) -> list[str]:
    declared = {sp.id for s in scripts for sp in s.specs}
    return [i for i in CATALOGUE
            if i not in declared and (only_ids is None or i in only_ids)]


def _duplicates(scripts: list[Script]) -> dict[str, list[str]]:
    seen: dict[str, list[str]] = {}
    for s in scripts:
        for sp in s.specs:
            seen.setdefault(sp.id, []).append(f"{s.name}.{sp.func.__name__}")
    return {i: where for i, where in seen.items() if len(where) > 1}


def figures_key(script: str) -> str:
    """The key of a script's figures in the durations of :func:`reproduce`."""
    return f"{script}:figures"


class _ClaimRun:
    """The bookkeeping of one reproduce: a result slot per (script, claim), the figures of each
    script, the scripts closed as their last task finishes, progress."""

    def __init__(self, scripts: list[Script], root: Path, settings: Settings,
                 only: list[str] | None, figures: bool):
        self.scripts, self.root, self.settings = scripts, root, settings
        dups = _duplicates(scripts)
        self.runs: dict[str, ScriptRun] = {}
        self.slots: dict[tuple[str, int], ClaimResult | None] = {}
        self.tasks: list[Task] = []
        for s in scripts:
            sr = ScriptRun(s.name, _display_path(s.path, root), s.title, import_error=s.error)
            self.runs[s.name] = sr
            if s.error is not None:
                sr.results.append(error_result(f"{s.name}:import", f"{sr.path} failed to import",
                                               s.error, paper=f"import of {sr.path}", section="run"))
                continue
            for k, sp in enumerate(s.specs):
                if only is not None and sp.id not in only:
                    continue
                if sp.id in dups:
                    self.slots[(s.name, k)] = error_result(
                        sp.id, f"claim {sp.id} is declared more than once: {', '.join(dups[sp.id])}",
                        routes=sp.routes)
                else:
                    self.slots[(s.name, k)] = None
                    self.tasks.append(Task((s.name, k), _claim_task, (str(s.path), k, sp.id, settings)))
        self.selected = [s for s in scripts if s.error is not None
                         or any(n == s.name for n, _ in self.slots)
                         or (figures and only is None and s.has_figures)]
        self.n_claims = len(self.tasks)
        if figures:
            self.tasks += [Task(s.name, _figures_task, (str(s.path), settings))
                           for s in self.selected if s.error is None and s.has_figures]
        self.remaining = {s.name: sum(1 for t in self.tasks if _task_script(t) == s.name)
                          for s in self.selected}
        self.figures_made: dict[str, tuple[list[str], str | None, float]] = {}
        self.done = 0
        self.progress: Progress | None = None

    def start(self, progress: Progress) -> None:
        self.progress = progress
        for s in self.selected:
            if s.error is not None:
                progress.line(f"  {s.name}: import error")
            for (name, _), res in self.slots.items():  # duplicates: errors without a run
                if name == s.name and res is not None:
                    progress.line(f"  {res.id}: error ({res.reason})")
            if self.remaining[s.name] == 0:  # nothing to run: import errors, duplicates only
                self._close(s.name)

    def _close(self, name: str) -> None:
        sr = self.runs[name]
        if sr.import_error is None:
            sr.results = [self.slots[key] for key in sorted(self.slots) if key[0] == name]
        sr.seconds = sum(r.seconds for r in sr.results)
        made = self.figures_made.get(name)
        if made is not None:
            files, err, secs = made
            sr.figures = [_display_path(Path(f), self.root) for f in files]
            sr.seconds += secs
            if err is not None:
                sr.results.append(error_result(f"{sr.name}:figures", f"figures() of {sr.path} raised",
                                               err, paper=f"figures of {sr.path}", section="run"))
                sr.results[-1].seconds = secs

    def task_done(self, task: Task, value: Any, exc: BaseException | None) -> None:
        if task.fn is _figures_task:
            self._figure_done(task, value, exc)
        else:
            self._claim_done(task, value, exc)
        name = _task_script(task)
        self.remaining[name] -= 1
        if self.remaining[name] == 0:
            self._close(name)

    def _claim_done(self, task: Task, value: Any, exc: BaseException | None) -> None:
        name, k = task.key
        claim_id = task.args[2]
        if exc is None and isinstance(value, ClaimResult):
            res = value
        elif isinstance(exc, BrokenProcessPool):
            res = error_result(claim_id, "the worker process running this check died "
                               "(killed by a signal or by os._exit)", f"BrokenProcessPool: {exc}")
        else:
            res = error_result(claim_id, "the check's worker failed",
                               "".join(traceback.format_exception(exc)) if exc else
                               f"unexpected value from the worker: {value!r}")
        if not res.routes:
            res.routes = _spec_routes(self.scripts, name, k)
        self.slots[(name, k)] = res
        self.done += 1
        self.progress.claim_done(name, res)

    def _figure_done(self, task: Task, value: Any, exc: BaseException | None) -> None:
        if exc is None:
            files, err, secs = value
        else:
            files, secs = [], 0.0
            err = ("the worker process making the figures died\n" + repr(exc)
                   if isinstance(exc, BrokenProcessPool)
                   else "".join(traceback.format_exception(exc)))
        self.figures_made[task.key] = (files, err, secs)
        self.progress.line(f"        figures {task.key}: {len(files)} file"
                           f"{'s' if len(files) != 1 else ''}{'  ERROR' if err else ''}  {secs:.1f} s")


def _task_script(task: Task) -> str:
    return task.key if task.fn is _figures_task else task.key[0]


def _task_name(task: Task) -> str:
    return figures_key(task.key) if task.fn is _figures_task else task.args[2]


def schedule(tasks: list[Task], durations: dict[str, float] | None) -> list[Task]:
    """Longest first by the previous durations (claims and figures alike, so a long figure
    does not start last); tasks without a previous duration first (they may be long); stable
    otherwise.  Without durations, the figures after the claims."""
    if not durations:
        return list(tasks)
    return sorted(tasks, key=lambda t: -durations.get(_task_name(t), float("inf")))


def _seconds(value: Any) -> float | None:
    """How long a finished task ran: a claim's result, or a figures task's (paths, error,
    seconds)."""
    if isinstance(value, ClaimResult):
        return value.seconds
    return value[2] if isinstance(value, tuple) and len(value) == 3 else 0.0


def reproduce(settings: Settings, jobs: int | None = None, only_ids: Iterable[str] | None = None,
              progress: bool = True, figures: bool | None = None,
              root: str | os.PathLike | None = None, stream: Any = None,
              durations: dict[str, float] | None = None, executor: Executor | None = None) -> Run:
    """Run every claim of every check script (or only ``only_ids``), and the figures.

    ``figures=None`` makes figures unless ``settings.figures_dir`` is empty (or the settings
    carry ``figures = False``).  Progress lines go to ``stream`` (default stderr).
    Claims and figures are tasks of one pool, so both cores stay busy to the end;
    ``durations`` (claim id or ``<script>:figures`` -> seconds, e.g. from the previous run's
    reports: :func:`countdp.harness.report.previous_durations`) orders them, longest first, and
    feeds the estimate of the time left.  ``executor``: run the tasks there (a Dask cluster's,
    :func:`countdp.harness.pool.cluster`) instead of in ``jobs`` local processes.  Results do
    not depend on the order, on ``jobs`` or on the executor: every claim starts from the same
    numeric state, and results are put back in source order."""
    t_start = time.perf_counter()
    root = Path(root) if root is not None else find_checks_dir()
    jobs = jobs or os.cpu_count() or 1
    only = None if only_ids is None else list(dict.fromkeys(only_ids))
    if only is not None:
        unknown = [i for i in only if i not in CATALOGUE]
        if unknown:
            raise KeyError(f"unknown claim id(s): {', '.join(unknown)}")
    if figures is None:
        figures = bool(getattr(settings, "figures", True)) and bool(settings.figures_dir)
    scripts = discover(root)
    state = _ClaimRun(scripts, root, settings, only, figures)
    tasks = schedule(state.tasks, durations)
    # each task learns its slot in the shared progress array (last argument)
    tasks = [Task(t.key, t.fn, (*t.args, i)) for i, t in enumerate(tasks)]
    prog = Progress(state.n_claims, progress, stream, jobs)
    state.start(prog)
    ctx = pool.mp_context()
    shared = ctx.RawArray("q", 2 * len(tasks)) if tasks and executor is None else None
    tracker = Tracker([_task_name(t) for t in tasks], [t.fn is _claim_task for t in tasks],
                      shared, jobs, durations, prog, state)

    def done(task: Task, value: Any, exc: BaseException | None) -> None:
        tracker.done(task.args[-1], _seconds(value))
        state.task_done(task, value, exc)
        tracker.tick()

    pool.execute(tasks, jobs, done, shared=shared, base_state=pool.numeric_state(),
                 tick=tracker.tick if prog.tty else None, executor=executor, mp_ctx=ctx)
    prog.finish()
    return Run(settings=settings, scripts=[state.runs[s.name] for s in state.selected],
               missing=_catalogue_missing(scripts, only), seconds=time.perf_counter() - t_start,
               only_ids=only, root=str(root))


def _spec_routes(scripts: list[Script], name: str, k: int) -> list[str]:
    for s in scripts:
        if s.name == name and k < len(s.specs):
            return list(s.specs[k].routes)
    return []


def _names_in(source: str) -> list[str]:
    """The figure names a figures module gives: the third argument of ``save(fig, dir, name, ...)``
    and the first item of its ``(name, figure, claims, caption)`` tuples."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "save" \
                and len(node.args) >= 3:
            first = node.args[2]
        elif isinstance(node, ast.Tuple) and len(node.elts) == 4 and isinstance(node.elts[2], ast.Tuple):
            first = node.elts[0]
        else:
            continue
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            names.append(first.value)
    return names


def figure_names(root: str | os.PathLike | None = None) -> dict[str, str]:
    """Figure name -> the script that makes it, read from the script and its figures module
    (``figures/<script>.py`` beside the scripts) without running either."""
    root = Path(root) if root is not None else find_checks_dir()
    out: dict[str, str] = {}
    for s in discover(root):
        if not s.has_figures:
            continue
        for source in (s.path, s.path.parent / "figures" / f"{s.name}.py"):
            if source.is_file():
                out.update((n, s.name) for n in _names_in(source.read_text(encoding="utf-8")))
    return dict(sorted(out.items()))


def make_figures(settings: Settings, jobs: int | None = None, progress: bool = True,
                 root: str | os.PathLike | None = None, stream: Any = None,
                 only: Iterable[str] | None = None) -> Run:
    """Only the figures of every script (no claim is checked); ``only``: the named figures, made
    by running just the scripts that make them (into a scratch directory) and keeping only those
    files (ValueError for an unknown name, listing the names)."""
    t0 = time.perf_counter()
    root = Path(root) if root is not None else find_checks_dir()
    wanted = None if only is None else list(dict.fromkeys(only))
    scripts = discover(root)
    if wanted is not None:
        names = figure_names(root)
        unknown = [n for n in wanted if n not in names]
        if unknown or not wanted:
            raise ValueError(f"--only: unknown figure {', '.join(unknown) or '(none given)'}; the figures are: "
                             + ", ".join(names))
        scripts = [s for s in scripts if s.name in {names[n] for n in wanted}]
    with tempfile.TemporaryDirectory(prefix="countdp-figures-") as scratch:
        made_in = settings if wanted is None else dataclasses.replace(settings, figures_dir=scratch)
        runs = _figure_runs(scripts, made_in, jobs, Progress(0, progress, stream), root)
        if wanted is not None:
            for sr in runs:
                sr.figures = [_keep(Path(root) / f, settings.figures_dir, root) for f in sr.figures or []
                              if Path(f).stem in wanted]
    return Run(settings, runs, missing=[], seconds=time.perf_counter() - t0, only_ids=[],
               root=str(root))


def _keep(made: Path, figures_dir: str, root: Path) -> str:
    """Move a figure made in the scratch directory into ``figures_dir``; its shown path."""
    dest = Path(figures_dir) / made.name
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(made), dest)
    return _display_path(dest, root)


def _figure_runs(scripts: list[Script], settings: Settings, jobs: int | None, prog: Progress,
                 root: Path) -> list[ScriptRun]:
    """Run the ``figures`` hook of each script (an import error is an error result)."""
    runs = []
    tasks = []
    for s in scripts:
        sr = ScriptRun(s.name, _display_path(s.path, root), s.title, import_error=s.error)
        if s.error is not None:
            sr.results.append(error_result(f"{s.name}:import", f"{sr.path} failed to import",
                                           s.error, paper=f"import of {sr.path}", section="run"))
            runs.append(sr)
        elif s.has_figures:
            runs.append(sr)
            tasks.append(Task(len(runs) - 1, _figures_task, (str(s.path), settings)))

    def done(task: Task, value: Any, exc: BaseException | None) -> None:
        sr = runs[task.key]
        files, err, secs = value if exc is None else ([], repr(exc), 0.0)
        sr.figures = [_display_path(Path(f), root) for f in files]
        sr.seconds = secs
        if err is not None:
            sr.results.append(error_result(f"{sr.name}:figures", f"figures() of {sr.path} raised",
                                           err, paper=f"figures of {sr.path}", section="run"))
        prog.line(f"figures {sr.name}: {len(files)} files{'  ERROR' if err else ''}  {secs:.1f} s")

    pool.execute(tasks, jobs or os.cpu_count() or 1, done)
    prog.finish()
    return runs


# --------------------------------------------------------------------------------------------
# One claim, in this process
# --------------------------------------------------------------------------------------------


def find_claim(claim_id: str, root: str | os.PathLike | None = None
               ) -> tuple[list[tuple[Script, CheckSpec]], list[Script]]:
    """(the (script, spec) pairs declaring ``claim_id``, the scripts that failed to import)."""
    root = Path(root) if root is not None else find_checks_dir()
    scripts = discover(root)
    found = [(s, sp) for s in scripts for sp in s.specs if sp.id == claim_id]
    return found, [s for s in scripts if s.error is not None]


def check_claim(claim_id: str, settings: Settings | None = None,
                root: str | os.PathLike | None = None, progress: bool | None = None,
                stream: Any = None) -> tuple[ClaimResult, str | None]:
    """:func:`check`, also returning the name of the script that declares the claim.
    ``progress``: a status line (cases done, elapsed) on ``stream`` (default stderr) while the
    check runs; ``None``: only when that stream is a terminal."""
    if claim_id not in CATALOGUE:
        raise KeyError(claim_id)
    settings = settings or Settings()
    found, broken = find_claim(claim_id, root)
    if len(found) > 1:
        where = ", ".join(f"{s.name}.{sp.func.__name__}" for s, sp in found)
        return error_result(claim_id, f"claim {claim_id} is declared more than once: {where}",
                            routes=found[0][1].routes), None
    if not found:
        info = CATALOGUE[claim_id]
        if broken:
            names = ", ".join(s.name for s in broken)
            return error_result(claim_id, f"no script declares {claim_id}, and these failed to "
                                f"import (it may be in one of them): {names}",
                                broken[0].error), None
        return ClaimResult(claim_id, info.paper, info.section, "missing", [],
                           reason="not yet checked: no script in paper_checks/ declares it"), None
    script, spec = found[0]
    stream = stream if stream is not None else sys.stderr
    if progress is None:
        progress = hasattr(stream, "isatty") and stream.isatty()
    status = CheckStatus(claim_id, stream) if progress else None
    previous = claims.set_case_hook(status) if status else None
    try:
        with contextlib.redirect_stdout(sys.stderr):
            return claims.run_check(spec, settings), script.name
    finally:
        if status:
            claims.set_case_hook(previous)
            status.clear()


def check(claim_id: str, settings: Settings | None = None,
          root: str | os.PathLike | None = None) -> ClaimResult:
    """Run the check of one claim in this process and return its result.

    Raises ``KeyError`` for an id not in the catalogue.  A catalogue id that no script declares
    gives status ``missing`` (``error`` if some script failed to import, since it might be
    there); one declared twice gives ``error``."""
    return check_claim(claim_id, settings, root)[0]


__all__ = ["reproduce", "make_figures", "schedule", "figures_key", "check", "check_claim",
           "find_claim"]
