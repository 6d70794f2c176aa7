"""Discover the paper-check scripts and run their claims, in parallel, into a :class:`Run`.

A check script is ``paper_checks/<name>.py`` (names starting with ``_`` are helpers and are not
run).  It declares claims with :func:`countdp.harness.claims.claim`; optionally ``TITLE`` (the paper
section it verifies) and ``figures(settings) -> list[str]``.

Every (script, claim) pair is one task in a process pool; a crash of any kind becomes an
``error`` result, never a skip:

* a script that fails to import gives the pseudo-result ``<script>:import`` (status error);
* a check that raises gives status error with its traceback (:func:`countdp.harness.claims.run_check`);
* a worker process that dies (segfault, ``os._exit``) breaks the pool: the unfinished tasks are
  re-run one per fresh single-worker pool, and the one that kills its worker again is reported
  as error;
* ``figures()`` that raises gives the pseudo-result ``<script>:figures`` (status error);
* a claim id declared by two functions (in one script or several) is an error for each.

Catalogue ids that no script declares are reported with status ``missing``; they make the run
fail only in strict mode.

Results are ordered by script name, then source order, whatever order the tasks finish in.
"""

from __future__ import annotations

import contextlib
import importlib.util
import multiprocessing
import os
import pickle
import re
import sys
import time
import traceback
import types
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, NamedTuple

from . import claims
from .catalogue import CATALOGUE
from .claims import CheckSpec, Settings
from .results import ClaimResult, Run, ScriptRun, error_result, fmt

CHECKS_DIRNAME = "paper_checks"
INSTALLED_CHECKS = "countdp_checks"  # the name paper_checks/ is installed under
MODULE_PREFIX = "countdp_check_scripts"  # loaded scripts; not the installed package countdp_checks
THREAD_ENV_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                   "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")

# --------------------------------------------------------------------------------------------
# Finding and loading scripts
# --------------------------------------------------------------------------------------------


def find_checks_dir(start: str | os.PathLike | None = None) -> Path:
    """The project root: the nearest directory at or above ``start`` (default: the current
    directory) that holds ``paper_checks/``.  ``$COUNTDP_ROOT`` overrides the search; then the
    source checkout this package was imported from; last, the check scripts installed with the
    package (``countdp_checks``), whose directory is returned itself."""
    env = os.environ.get("COUNTDP_ROOT")
    if env:
        root = Path(env).expanduser().resolve()
        if root.name == CHECKS_DIRNAME and not (root / CHECKS_DIRNAME).is_dir():
            root = root.parent
        if not (root / CHECKS_DIRNAME).is_dir():
            raise FileNotFoundError(f"COUNTDP_ROOT={env} has no {CHECKS_DIRNAME}/ directory")
        return root
    here = Path(start if start is not None else os.getcwd()).resolve()
    for d in (here, *here.parents):
        if (d / CHECKS_DIRNAME).is_dir():
            return d
    checkout = Path(__file__).resolve().parents[3]  # src/countdp/harness/runner.py -> repo root
    if (checkout / CHECKS_DIRNAME).is_dir():
        return checkout
    installed = installed_checks_dir()
    if installed is not None:
        return installed
    raise FileNotFoundError(
        f"no {CHECKS_DIRNAME}/ directory at or above {here}, and no installed check scripts; "
        "run from the countdp checkout or set COUNTDP_ROOT")


def installed_checks_dir() -> Path | None:
    """The directory of the check scripts installed with the package, if any."""
    try:
        spec = importlib.util.find_spec(INSTALLED_CHECKS)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    d = Path(list(spec.submodule_search_locations)[0])
    return d if any(d.glob("sec*.py")) else None


def is_installed_checks(root: str | os.PathLike) -> bool:
    """Whether ``root`` is the installed check scripts' directory (not a project checkout)."""
    d = installed_checks_dir()
    return d is not None and Path(root).resolve() == d.resolve()


def _checks_path(root: str | os.PathLike) -> Path:
    root = Path(root)
    return root / CHECKS_DIRNAME if (root / CHECKS_DIRNAME).is_dir() else root


def script_paths(root: str | os.PathLike) -> list[Path]:
    """The check scripts under ``root`` (the project root or its ``paper_checks/``), by name."""
    d = _checks_path(root)
    return sorted((p for p in d.glob("*.py") if not p.name.startswith("_")), key=lambda p: p.stem)


def _ensure_path(d: Path, front: bool) -> None:
    s = str(d)
    if s not in sys.path:
        if front:
            sys.path.insert(0, s)
        else:
            sys.path.append(s)


def load_script(path: str | os.PathLike) -> types.ModuleType:
    """Import a check script from its file as ``countdp_check_scripts.<stem>`` (always afresh).

    The script's directory is put on ``sys.path`` so that it can import helper modules
    (``paper_checks/_common.py`` as ``_common``).  Exceptions propagate."""
    path = Path(path).resolve()
    if path.name.startswith("_"):
        raise ValueError(f"{path.name}: files starting with '_' are helpers, not check scripts")
    _ensure_path(path.parent, front=True)
    _ensure_path(path.parent.parent, front=False)
    if MODULE_PREFIX not in sys.modules:
        pkg = types.ModuleType(MODULE_PREFIX)
        pkg.__path__ = []  # a namespace for the loaded scripts
        sys.modules[MODULE_PREFIX] = pkg
    name = f"{MODULE_PREFIX}.{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    _MODULE_CACHE[str(path)] = module
    return module


_MODULE_CACHE: dict[str, types.ModuleType] = {}


def _cached_module(path: str) -> types.ModuleType:
    """The script module in this process (inherited from the parent under 'fork')."""
    key = str(Path(path).resolve())
    mod = _MODULE_CACHE.get(key)
    return mod if mod is not None else load_script(key)


class _ScriptTuple(NamedTuple):
    name: str
    path: Path
    specs: list


class Script(_ScriptTuple):
    """``(name, path, specs)``; also ``.title``, ``.has_figures`` and ``.error`` (the import
    traceback, or None)."""

    def __new__(cls, name: str, path: Path, specs: list, title: str | None = None,
                has_figures: bool = False, error: str | None = None):
        self = super().__new__(cls, name, path, specs)
        self.title = title
        self.has_figures = has_figures
        self.error = error
        return self


def discover(root: str | os.PathLike) -> list[Script]:
    """Import every check script under ``root``: a list of ``(script_name, path, [CheckSpec])``
    in name order.  A script that fails to import has no specs and ``.error`` set."""
    out = []
    for path in script_paths(root):
        try:
            module = load_script(path)
        except BaseException as exc:  # noqa: BLE001 -- reported as an error result
            if isinstance(exc, KeyboardInterrupt):
                raise
            out.append(Script(path.stem, path, [], error=_format_exc()))
            continue
        title = getattr(module, "TITLE", None)
        out.append(Script(path.stem, path, claims.checks_in(module),
                          title=str(title) if title is not None else None,
                          has_figures=callable(getattr(module, "figures", None))))
    return out


def _format_exc() -> str:
    return traceback.format_exc(limit=-12)


# --------------------------------------------------------------------------------------------
# Worker side
# --------------------------------------------------------------------------------------------

# mpmath numbers re-round to the *receiving* process's precision when unpickled (15 digits in
# the parent): send their exact binary value instead, so a result computed at 50 digits in a
# worker arrives with 50 digits.


def _make_mpf(value: tuple) -> Any:
    import mpmath

    return mpmath.mp.make_mpf(value)


def _make_mpc(value: tuple) -> Any:
    import mpmath

    return mpmath.mp.make_mpc(value)


def _register_exact_mpmath_pickling() -> None:
    import mpmath
    from multiprocessing.reduction import ForkingPickler

    ForkingPickler.register(mpmath.mpf, lambda x: (_make_mpf, (x._mpf_,)))
    ForkingPickler.register(mpmath.mpc, lambda x: (_make_mpc, (x._mpc_,)))


_register_exact_mpmath_pickling()


def single_thread_env(environ: Any = None) -> None:
    """One BLAS/OpenMP thread per process (``setdefault``: an explicit setting wins)."""
    environ = os.environ if environ is None else environ
    for var in THREAD_ENV_VARS:
        environ.setdefault(var, "1")
    environ.setdefault("MPLBACKEND", "Agg")


# Worker state: the shared per-task progress array (cases done, and 0/1/2 = queued/running/
# done, for the parent's status line) and the numeric state every claim starts from.
_SHARED: Any = None
_BASE_STATE: tuple | None = None


def _numeric_state() -> tuple:
    """The global precisions a check could change and forget to restore (mpmath and Arb)."""
    import mpmath
    from flint import ctx

    return mpmath.mp.prec, ctx.prec


def _restore_numeric_state(state: tuple | None) -> None:
    """Every claim starts from the same numeric state, whatever ran before it in the same
    worker: results (and reports) do not depend on --jobs or on the order of the work."""
    if state is None:
        return
    import mpmath
    from flint import ctx

    mpmath.mp.prec, ctx.prec = state


def _init_worker(shared: Any = None, base_state: tuple | None = None) -> None:
    global _SHARED, _BASE_STATE
    _SHARED, _BASE_STATE = shared, base_state
    for var in THREAD_ENV_VARS:
        os.environ[var] = "1"
    os.environ.setdefault("MPLBACKEND", "Agg")
    import signal

    # the parent handles Ctrl-C and stops the workers; SIGTERM ends a worker at once (a handler
    # inherited from the parent would otherwise turn it into an exception inside a check)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent()


def _die_with_parent() -> None:
    """Linux: ask the kernel to SIGTERM this worker when the process that started it dies
    (killed run, CI timeout), so that no orphaned worker computes on."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        if os.getppid() == 1:  # the parent died before prctl took effect
            os._exit(1)
    except Exception:  # noqa: BLE001 -- best effort only
        pass


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: cancel what has not started and kill the running workers."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        try:
            p.terminate()
        except Exception:  # noqa: BLE001
            pass
    for p in procs:
        try:
            p.join(5)
        except Exception:  # noqa: BLE001
            pass


def _picklable(res: ClaimResult, settings: Settings) -> ClaimResult:
    """The result itself if it pickles; otherwise with its numbers as report strings."""
    try:
        pickle.dumps(res)
        return res
    except Exception:  # noqa: BLE001
        pass
    import mpmath

    with mpmath.workdps(settings.dps):
        for c in res.cases:
            c.params = {str(k): fmt(v) for k, v in c.params.items()}
            c.lhs, c.rhs, c.tol = fmt(c.lhs), fmt(c.rhs), fmt(c.tol)
        res.findings = [{str(k): _plain(v) for k, v in f.items()} for f in res.findings]
        if res.certified is not None:
            res.certified = {str(k): _plain(v) for k, v in res.certified.items()}
    try:
        pickle.dumps(res)
        return res
    except Exception:  # noqa: BLE001
        out = error_result(res.id, "the check's result could not be sent back from its worker",
                           _format_exc(), res.routes)
        out.seconds = res.seconds
        return out


def _plain(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    out = fmt(v)
    return re.sub(r" at 0x[0-9a-fA-F]+", "", out) if isinstance(out, str) else out


def _claim_task(path: str, index: int, claim_id: str, settings: Settings,
                slot: int | None = None) -> ClaimResult:
    """Run claim number ``index`` of the script at ``path`` (in a worker); ``slot``: its place
    in the shared progress array, where the cases done are counted as they are recorded."""
    t0 = time.perf_counter()
    shared = _SHARED if slot is not None else None
    previous_hook = None
    if shared is not None:
        n = len(shared) // 2
        shared[n + slot] = 1

        def hook(cases: int) -> None:
            shared[slot] = cases

        previous_hook = claims.set_case_hook(hook)
    _restore_numeric_state(_BASE_STATE)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            specs = claims.checks_in(_cached_module(path))
            if index >= len(specs) or specs[index].id != claim_id:
                raise RuntimeError(f"{Path(path).name} no longer declares {claim_id} at "
                                   f"position {index}: was it edited during the run?")
            res = claims.run_check(specs[index], settings)
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 -- SystemExit and friends are errors of the check
        res = error_result(claim_id, "the check could not be run in its worker", _format_exc())
        res.seconds = time.perf_counter() - t0
    finally:
        if shared is not None:
            claims.set_case_hook(previous_hook)
            shared[len(shared) // 2 + slot] = 2
    return _picklable(res, settings)


def _figures_task(path: str, settings: Settings, slot: int | None = None
                  ) -> tuple[list[str], str | None, float]:
    """Call the script's ``figures(settings)`` (in a worker): (paths, traceback, seconds)."""
    t0 = time.perf_counter()
    if _SHARED is not None and slot is not None:
        _SHARED[len(_SHARED) // 2 + slot] = 1
    _restore_numeric_state(_BASE_STATE)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            Path(settings.figures_dir).mkdir(parents=True, exist_ok=True)
            made = _cached_module(path).figures(settings)
            files = [str(p) for p in (made or [])]
        return files, None, time.perf_counter() - t0
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001
        return [], _format_exc(), time.perf_counter() - t0


# --------------------------------------------------------------------------------------------
# Running tasks in processes
# --------------------------------------------------------------------------------------------


def _mp_context():
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.platform != "darwin":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


@dataclass
class _Task:
    key: Any
    fn: Callable
    args: tuple


def _execute(tasks: list[_Task], jobs: int,
             done: Callable[[_Task, Any, BaseException | None], None],
             initargs: tuple = (), tick: Callable[[], None] | None = None,
             mp_ctx: Any = None) -> None:
    """Run ``tasks`` in a process pool, submitted in list order; ``done(task, value,
    exception)`` is called in this process for each as it finishes, ``tick()`` about twice a
    second while they run (a status line).  ``initargs`` go to every worker's initializer.
    A task whose worker dies gets a ``BrokenProcessPool``."""
    if not tasks:
        return
    ctx = mp_ctx if mp_ctx is not None else _mp_context()
    broken: list[_Task] = []
    pool = ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=ctx, initializer=_init_worker,
                               initargs=initargs)
    try:
        futures = {pool.submit(t.fn, *t.args): (i, t) for i, t in enumerate(tasks)}
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, timeout=0.5 if tick else None,
                                     return_when=FIRST_COMPLETED)
            if tick is not None:
                tick()
            for fut in sorted(finished, key=lambda f: futures[f][0]):
                t = futures[fut][1]
                exc = fut.exception()
                if isinstance(exc, BrokenProcessPool):
                    broken.append(t)
                else:
                    done(t, None if exc else fut.result(), exc)
    except BaseException:
        _terminate(pool)
        raise
    pool.shutdown(wait=True)
    if broken:
        _execute_isolated(broken, jobs, ctx, done, initargs)


def _execute_isolated(tasks: list[_Task], jobs: int, ctx: Any,
                      done: Callable[[_Task, Any, BaseException | None], None],
                      initargs: tuple = ()) -> None:
    """Each task in its own single-worker pool (at most ``jobs`` at a time): after a worker
    died, this finds which task killed it without taking the others down with it."""
    queue = list(tasks)
    active: dict[Any, tuple[_Task, ProcessPoolExecutor]] = {}
    try:
        while queue or active:
            while queue and len(active) < max(1, jobs):
                t = queue.pop(0)
                p = ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=_init_worker,
                                        initargs=initargs)
                active[p.submit(t.fn, *t.args)] = (t, p)
            finished, _ = wait(active, return_when=FIRST_COMPLETED)
            for fut in finished:
                t, p = active.pop(fut)
                p.shutdown(wait=True)
                exc = fut.exception()
                done(t, None if exc else fut.result(), exc)
    except BaseException:
        for _, p in active.values():
            _terminate(p)
        raise


# --------------------------------------------------------------------------------------------
# Progress
# --------------------------------------------------------------------------------------------


class _Progress:
    """Progress of a run on ``stream`` (stderr): one line per finished claim (and per script's
    figures) everywhere -- CI logs stay one line per claim -- and, on a terminal only, a status
    line rewritten in place: claims done, elapsed time, an estimate of what is left (from the
    previous run's durations, rescaled by how fast this run goes) and the running claims with
    their cases done so far."""

    def __init__(self, total: int, enabled: bool, stream: Any = None, jobs: int = 1):
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.total = total
        self.count = 0
        self.jobs = max(1, jobs)
        self.tty = enabled and hasattr(self.stream, "isatty") and self.stream.isatty()
        self._status_shown = False
        self.t0 = time.perf_counter()

    def _clear(self) -> None:
        if self._status_shown:
            self.stream.write("\r\x1b[K")
            self._status_shown = False

    def claim_done(self, script: str, res: ClaimResult) -> None:
        """The permanent line of a finished claim."""
        if not self.enabled:
            return
        self.count += 1
        w = len(str(self.total))
        self._clear()
        self.stream.write(f"[{self.count:>{w}}/{self.total}] {res.id:<18} {res.status:<7} "
                          f"{len(res.cases):>6} cases {res.seconds:8.1f} s  {script}\n")
        self.stream.flush()

    def line(self, text: str) -> None:
        if not self.enabled:
            return
        self._clear()
        self.stream.write(text + "\n")
        self.stream.flush()

    def status(self, text: str) -> None:
        """A transient status line (TTY only), cut to the terminal's width."""
        if self.tty:
            import shutil

            width = max(20, shutil.get_terminal_size((100, 24)).columns - 1)
            self.stream.write("\r\x1b[K" + text[:width])
            self.stream.flush()
            self._status_shown = True

    def finish(self) -> None:
        if self.enabled:
            self._clear()
            self.stream.flush()


def _clock(seconds: float) -> str:
    s = int(round(max(0.0, seconds)))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def estimate_left(expected: list[float | None], done: list[float | None], running: list[float],
                  jobs: int) -> float | None:
    """Seconds left, estimated: ``expected`` the previous durations of the tasks not finished
    (None: unknown), ``done`` (previous, actual) pairs of the finished ones' durations (previous
    may be None), ``running`` how long each running task has run (in the order of the first
    entries of ``expected``).  The previous durations are rescaled by this run's speed so far
    (actual / previous over the finished tasks, within [1/4, 4]); unknown ones count as the mean
    finished duration.  None when nothing is known yet."""
    pairs = [(p, a) for p, a in done if p is not None and p > 0]
    scale = 1.0
    if pairs:
        scale = min(4.0, max(0.25, sum(a for _, a in pairs) / sum(p for p, _ in pairs)))
    actual = [a for _, a in done]
    fallback = sum(actual) / len(actual) if actual else None
    rem = []
    for i, e in enumerate(expected):
        e = e * scale if e is not None else fallback
        if e is None:
            return None
        rem.append(max(0.0, e - (running[i] if i < len(running) else 0.0)))
    if not rem:
        return 0.0
    return max(max(rem), sum(rem) / max(1, jobs))


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
        self.tasks: list[_Task] = []
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
                    self.tasks.append(_Task((s.name, k), _claim_task, (str(s.path), k, sp.id, settings)))
        self.selected = [s for s in scripts if s.error is not None
                         or any(n == s.name for n, _ in self.slots)
                         or (figures and only is None and s.has_figures)]
        self.n_claims = len(self.tasks)
        if figures:
            self.tasks += [_Task(s.name, _figures_task, (str(s.path), settings))
                           for s in self.selected if s.error is None and s.has_figures]
        self.remaining = {s.name: sum(1 for t in self.tasks if _task_script(t) == s.name)
                          for s in self.selected}
        self.figures_made: dict[str, tuple[list[str], str | None, float]] = {}
        self.done = 0
        self.progress: _Progress | None = None

    def start(self, progress: _Progress) -> None:
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

    def task_done(self, task: _Task, value: Any, exc: BaseException | None) -> None:
        if task.fn is _figures_task:
            self._figure_done(task, value, exc)
        else:
            self._claim_done(task, value, exc)
        name = _task_script(task)
        self.remaining[name] -= 1
        if self.remaining[name] == 0:
            self._close(name)

    def _claim_done(self, task: _Task, value: Any, exc: BaseException | None) -> None:
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

    def _figure_done(self, task: _Task, value: Any, exc: BaseException | None) -> None:
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


def _task_script(task: _Task) -> str:
    return task.key if task.fn is _figures_task else task.key[0]


def _task_name(task: _Task) -> str:
    return figures_key(task.key) if task.fn is _figures_task else task.args[2]


def schedule(tasks: list[_Task], durations: dict[str, float] | None) -> list[_Task]:
    """Longest first by the previous durations (claims and figures alike, so a long figure
    does not start last); tasks without a previous duration first (they may be long); stable
    otherwise.  Without durations, the figures after the claims."""
    if not durations:
        return list(tasks)
    return sorted(tasks, key=lambda t: -durations.get(_task_name(t), float("inf")))


class _Tracker:
    """The parent's view of the running tasks for the status line: the shared array the
    workers write (cases done, running flag) and when each task was first seen running."""

    def __init__(self, state: _ClaimRun, tasks: list[_Task], shared: Any, jobs: int,
                 durations: dict[str, float] | None, progress: _Progress):
        self.state, self.tasks, self.shared, self.jobs = state, tasks, shared, jobs
        self.durations = durations or {}
        self.progress = progress
        self.seen: dict[int, float] = {}
        self.finished: dict[int, float] = {}

    def done(self, task: _Task, value: Any, exc: BaseException | None) -> None:
        i = task.args[-1]
        secs = value.seconds if isinstance(value, ClaimResult) else (
            value[2] if isinstance(value, tuple) and len(value) == 3 else 0.0)
        self.finished[i] = float(secs or 0.0)
        self.state.task_done(task, value, exc)
        self.tick()

    def tick(self) -> None:
        if not self.progress.tty:
            return
        now = time.perf_counter()
        n = len(self.tasks)
        running = []
        for i in range(n):
            if i not in self.finished and self.shared[n + i] == 1:
                self.seen.setdefault(i, now)
                running.append(i)
        pending = [i for i in range(n) if i not in self.finished]
        pending.sort(key=lambda i: (i not in running))
        left = estimate_left([self.durations.get(_task_name(self.tasks[i])) for i in pending],
                             [(self.durations.get(_task_name(self.tasks[i])), s)
                              for i, s in self.finished.items()],
                             [now - self.seen[i] for i in running], self.jobs)
        eta = f", ~{_clock(left)} left" if left is not None else ""
        parts = []
        for i in running:
            t = self.tasks[i]
            what = f"{_task_name(t)}" if t.fn is _figures_task else f"{t.args[2]} {self.shared[i]} cases"
            parts.append(f"{what} {now - self.seen[i]:.0f} s")
        self.progress.status(f"  {self.state.done}/{self.state.n_claims} claims, "
                             f"{_clock(now - self.progress.t0)} elapsed{eta}"
                             + (f"  | {'; '.join(parts)}" if parts else ""))


def reproduce(settings: Settings, jobs: int | None = None, only_ids: Iterable[str] | None = None,
              progress: bool = True, figures: bool | None = None,
              root: str | os.PathLike | None = None, stream: Any = None,
              durations: dict[str, float] | None = None) -> Run:
    """Run every claim of every check script (or only ``only_ids``), and the figures.

    ``figures=None`` makes figures unless ``settings.figures_dir`` is empty (or the settings
    carry ``figures = False``).  Progress lines go to ``stream`` (default stderr).
    Claims and figures are tasks of one pool, so both cores stay busy to the end;
    ``durations`` (claim id or ``<script>:figures`` -> seconds, e.g. from the previous run's
    reports: :func:`countdp.harness.report.previous_durations`) orders them, longest first, and
    feeds the estimate of the time left.  Results do not depend on the order or on ``jobs``:
    every claim starts from the same numeric state, and results are put back in source order."""
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
    tasks = [_Task(t.key, t.fn, (*t.args, i)) for i, t in enumerate(tasks)]
    prog = _Progress(state.n_claims, progress, stream, jobs)
    state.start(prog)
    ctx = _mp_context()
    shared = ctx.RawArray("q", 2 * len(tasks)) if tasks else None
    tracker = _Tracker(state, tasks, shared, jobs, durations, prog)
    _execute(tasks, jobs, tracker.done, initargs=(shared, _numeric_state()),
             tick=tracker.tick if prog.tty else None, mp_ctx=ctx)
    prog.finish()
    return Run(settings=settings, scripts=[state.runs[s.name] for s in state.selected],
               missing=_catalogue_missing(scripts, only), seconds=time.perf_counter() - t_start,
               only_ids=only, root=str(root))


def _spec_routes(scripts: list[Script], name: str, k: int) -> list[str]:
    for s in scripts:
        if s.name == name and k < len(s.specs):
            return list(s.specs[k].routes)
    return []


def make_figures(settings: Settings, jobs: int | None = None, progress: bool = True,
                 root: str | os.PathLike | None = None, stream: Any = None) -> Run:
    """Only the figures of every script (no claim is checked)."""
    t0 = time.perf_counter()
    root = Path(root) if root is not None else find_checks_dir()
    scripts = discover(root)
    runs = []
    prog = _Progress(0, progress, stream)
    tasks = []
    for s in scripts:
        sr = ScriptRun(s.name, _display_path(s.path, root), s.title, import_error=s.error)
        if s.error is not None:
            sr.results.append(error_result(f"{s.name}:import", f"{sr.path} failed to import",
                                           s.error, paper=f"import of {sr.path}", section="run"))
            runs.append(sr)
        elif s.has_figures:
            runs.append(sr)
            tasks.append(_Task(len(runs) - 1, _figures_task, (str(s.path), settings)))

    def done(task: _Task, value: Any, exc: BaseException | None) -> None:
        sr = runs[task.key]
        files, err, secs = value if exc is None else ([], repr(exc), 0.0)
        sr.figures = [_display_path(Path(f), root) for f in files]
        sr.seconds = secs
        if err is not None:
            sr.results.append(error_result(f"{sr.name}:figures", f"figures() of {sr.path} raised",
                                           err, paper=f"figures of {sr.path}", section="run"))
        prog.line(f"figures {sr.name}: {len(files)} files{'  ERROR' if err else ''}  {secs:.1f} s")

    _execute(tasks, jobs or os.cpu_count() or 1, done)
    prog.finish()
    return Run(settings, runs, missing=[], seconds=time.perf_counter() - t0, only_ids=[],
               root=str(root))


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


class _CheckStatus:
    """The status line of ``countdp check`` on a terminal: cases done and elapsed time,
    rewritten at most five times a second."""

    def __init__(self, claim_id: str, stream: Any):
        self.claim_id, self.stream = claim_id, stream
        self.t0 = self.last = time.perf_counter()

    def __call__(self, cases: int) -> None:
        now = time.perf_counter()
        if now - self.last >= 0.2:
            self.last = now
            self.stream.write(f"\r\x1b[K  {self.claim_id}: {cases} cases, {_clock(now - self.t0)} elapsed")
            self.stream.flush()

    def clear(self) -> None:
        self.stream.write("\r\x1b[K")
        self.stream.flush()


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
    status = _CheckStatus(claim_id, stream) if progress else None
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


__all__ = [
    "Script", "find_checks_dir", "script_paths", "load_script", "discover", "reproduce",
    "make_figures", "check", "check_claim", "find_claim", "single_thread_env",
]
