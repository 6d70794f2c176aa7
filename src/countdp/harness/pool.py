"""The worker pool: tasks run in other processes, their results pickled back exactly.

Any :class:`concurrent.futures.Executor` runs the tasks.  By default a local process pool, one
worker per job, each started by :func:`_init_worker` (one BLAS thread, the parent's numeric
state, signals left to the parent); a task whose worker dies breaks that pool, and the
unfinished tasks are re-run one per fresh single-worker pool, so that the one that kills its
worker again is the only one reported (as a :class:`BrokenProcessPool`).

On either kind of executor (the local pool, or a Dask cluster's, :func:`cluster`) each task is
wrapped in :func:`_isolated`: on the worker it runs in a process forked for it alone, so that no
cache one claim fills reaches the next (the reports do not depend on the order of the work),
with the environment the local workers give (one BLAS thread, the parent's numeric state, the
main thread of its process, so that a claim's time limit holds); a task whose process dies is a
:class:`BrokenProcessPool`.

This module imports nothing but the standard library when loaded: the command line imports it
to set the thread environment before numpy is loaded.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import re
import sys
import threading
import traceback
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Callable, Iterator

THREAD_ENV_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                   "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")

Done = Callable[["Task", Any, "BaseException | None"], None]


def single_thread_env(force: bool = False) -> None:
    """One BLAS/OpenMP thread per process and a file-only matplotlib backend; with ``force``
    (a worker) the thread count is set, otherwise an explicit setting wins.  Takes effect for
    the libraries loaded after it."""
    for var in THREAD_ENV_VARS:
        if force:
            os.environ[var] = "1"
        else:
            os.environ.setdefault(var, "1")
    os.environ.setdefault("MPLBACKEND", "Agg")


def format_exc() -> str:
    """The traceback of the exception being handled, its last frames, as reported."""
    return traceback.format_exc(limit=-12)


@dataclass
class Task:
    """``fn(*args)`` in a worker; ``key`` names it for the caller."""

    key: Any
    fn: Callable
    args: tuple


# --------------------------------------------------------------------------------------------
# Pickling results back
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


def _exact_pickling() -> None:
    """Register the exact reductions of mpmath numbers with the pickler of the process pools
    (in a worker: they pickle what it sends back)."""
    import mpmath
    from multiprocessing.reduction import ForkingPickler

    ForkingPickler.register(mpmath.mpf, lambda x: (_make_mpf, (x._mpf_,)))
    ForkingPickler.register(mpmath.mpc, lambda x: (_make_mpc, (x._mpc_,)))


def _dumps_exact(obj: Any) -> bytes:
    _exact_pickling()
    from multiprocessing.reduction import ForkingPickler

    return bytes(ForkingPickler.dumps(obj))


def picklable(res: Any, settings: Any) -> Any:
    """The :class:`~countdp.harness.results.ClaimResult` itself if it pickles; otherwise with
    its numbers as report strings; failing that, an error result."""
    try:
        pickle.dumps(res)
        return res
    except Exception:  # noqa: BLE001
        pass
    import mpmath

    from .results import error_result, fmt

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
                           format_exc(), res.routes)
        out.seconds = res.seconds
        return out


def _plain(v: Any) -> Any:
    from .results import fmt

    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    out = fmt(v)
    return re.sub(r" at 0x[0-9a-fA-F]+", "", out) if isinstance(out, str) else out


# --------------------------------------------------------------------------------------------
# Worker state
# --------------------------------------------------------------------------------------------

# The shared per-task progress array (cases done, and 0/1/2 = queued/running/done, for the
# parent's status line; local pool only) and the numeric state every claim starts from.
_SHARED: Any = None
_BASE_STATE: tuple | None = None


def progress_array() -> Any:
    """The shared progress array in this worker, or None."""
    return _SHARED


def numeric_state() -> tuple:
    """The global precisions a check could change and forget to restore (mpmath and Arb)."""
    import mpmath
    from flint import ctx

    return mpmath.mp.prec, ctx.prec


def restore_numeric_state() -> None:
    """Every claim starts from the same numeric state, whatever ran before it in the same
    worker: results (and reports) do not depend on --jobs or on the order of the work."""
    if _BASE_STATE is None:
        return
    import mpmath
    from flint import ctx

    mpmath.mp.prec, ctx.prec = _BASE_STATE


def _init_worker(shared: Any = None, base_state: tuple | None = None) -> None:
    global _SHARED, _BASE_STATE
    _SHARED, _BASE_STATE = shared, base_state
    single_thread_env(force=True)
    _exact_pickling()
    _own_signals()


def _own_signals() -> None:
    """The parent handles Ctrl-C and stops the workers; SIGTERM ends a worker at once (a
    handler inherited from the parent would otherwise turn it into an exception inside a
    check); the worker dies with its parent."""
    import signal

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


# --------------------------------------------------------------------------------------------
# A process forked for one call
# --------------------------------------------------------------------------------------------


def forked(fn: Callable, *args) -> tuple[str, Any]:
    """``fn(*args)`` in a child process forked for this call alone (its caches die with it):
    ``("ok", value)``, ``("error", traceback)`` or ``("died", why)``; in this process where
    fork is not available."""
    if not hasattr(os, "fork") or sys.platform == "darwin":
        return "ok", fn(*args)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(r)
        try:
            payload = _dumps_exact(("ok", fn(*args)))
        except BaseException:  # noqa: BLE001 -- sent back to the parent
            payload = pickle.dumps(("error", traceback.format_exc(limit=6)))
        with os.fdopen(w, "wb") as out:
            out.write(payload)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as inp:
        data = inp.read()
    os.waitpid(pid, 0)
    if not data:
        return "died", "the forked run died without a result"
    return pickle.loads(data)


def _worker_call(fn: Callable, args: tuple, base_state: tuple | None) -> Any:
    """In the forked child of :func:`_isolated`: the local worker's set-up, then the task."""
    global _BASE_STATE
    _BASE_STATE = base_state
    single_thread_env(force=True)
    if threading.current_thread() is threading.main_thread():  # not where fork is missing
        _own_signals()
    return fn(*args)


def _isolated(fn: Callable, args: tuple, base_state: tuple | None) -> bytes:
    """A task on another executor's worker: run in a process forked for it, the result
    pickled exactly (unpickled by :func:`execute`)."""
    status, value = forked(_worker_call, fn, args, base_state)
    if status == "died":
        raise BrokenProcessPool(value)
    if status == "error":
        raise RuntimeError(f"the task raised in its worker:\n{value}")
    return _dumps_exact(value)


# --------------------------------------------------------------------------------------------
# Running tasks
# --------------------------------------------------------------------------------------------


def mp_context():
    """The start method of the local pool: fork where it is safe (the workers inherit the
    loaded scripts), spawn elsewhere."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.platform != "darwin":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def execute(tasks: list[Task], jobs: int, done: Done, shared: Any = None,
            base_state: tuple | None = None, tick: Callable[[], None] | None = None,
            executor: Executor | None = None, mp_ctx: Any = None) -> None:
    """Run ``tasks``, submitted in list order; ``done(task, value, exception)`` is called in
    this process for each as it finishes, ``tick()`` about twice a second while they run (a
    status line).  ``shared`` (the progress array) and ``base_state`` (the numeric state) go
    to the workers.  A task whose worker dies gets a ``BrokenProcessPool``.  ``executor``: run
    them there (a cluster's) instead of in a local pool of ``jobs`` processes."""
    if not tasks:
        return
    # every task in a process forked for it alone, on either kind of executor: what one claim
    # leaves in a cache (mpmath's memoised constants and quadrature nodes, Arb's cached
    # constants, the library's memos) never reaches the next, so a result does not depend on
    # the order of the work or on which worker ran it
    wrapped = [Task(t, _isolated, (t.fn, t.args, base_state)) for t in tasks]

    def unwrap(w: Task, value: Any, exc: BaseException | None) -> None:
        done(w.key, None if exc else pickle.loads(value), exc)

    if executor is not None:
        _collect(executor, wrapped, unwrap, tick, on_broken=None)
        return
    ctx = mp_ctx if mp_ctx is not None else mp_context()
    broken: list[Task] = []
    pool = ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=ctx, initializer=_init_worker,
                               initargs=(shared, base_state))
    try:
        _collect(pool, wrapped, unwrap, tick, on_broken=broken.append)
    except BaseException:
        _terminate(pool)
        raise
    pool.shutdown(wait=True)
    if broken:
        _execute_isolated(broken, jobs, ctx, unwrap, (shared, base_state))


def _collect(executor: Executor, tasks: list[Task], done: Done,
             tick: Callable[[], None] | None, on_broken: Callable[[Task], None] | None) -> None:
    """Submit ``tasks`` to ``executor`` and report each as it finishes (in submission order
    among those finishing together); ``on_broken`` takes the tasks of a broken local pool.
    An exception here (Ctrl-C) cancels what has not started."""
    futures: dict[Future, tuple[int, Task]] = {
        executor.submit(t.fn, *t.args): (i, t) for i, t in enumerate(tasks)}
    pending = set(futures)
    try:
        while pending:
            finished, pending = wait(pending, timeout=0.5 if tick else None,
                                     return_when=FIRST_COMPLETED)
            if tick is not None:
                tick()
            for fut in sorted(finished, key=lambda f: futures[f][0]):
                t = futures[fut][1]
                exc = fut.exception()
                if on_broken is not None and isinstance(exc, BrokenProcessPool):
                    on_broken(t)
                else:
                    done(t, None if exc else fut.result(), exc)
    except BaseException:
        for fut in pending:
            fut.cancel()
        raise


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


def _execute_isolated(tasks: list[Task], jobs: int, ctx: Any, done: Done,
                      initargs: tuple = ()) -> None:
    """Each task in its own single-worker pool (at most ``jobs`` at a time): after a worker
    died, this finds which task killed it without taking the others down with it."""
    queue = list(tasks)
    active: dict[Any, tuple[Task, ProcessPoolExecutor]] = {}
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
# A Dask distributed cluster
# --------------------------------------------------------------------------------------------


@contextlib.contextmanager
def cluster(address: str) -> Iterator[tuple[Executor, int]]:
    """The executor of the Dask distributed scheduler at ``address`` and its worker threads
    (the optional dependency ``distributed``: ``pip install 'countdp[dask]'``).  The workers
    need countdp and the check scripts at the same paths as here.  Their BLAS, loaded before
    any task runs, follows the workers' own environment (Dask's nanny starts them with one
    OpenMP/OpenBLAS/MKL thread by default)."""
    try:
        from distributed import Client
    except ImportError as exc:
        raise ImportError("running on a Dask scheduler needs the optional dependency "
                          "'distributed' (pip install 'countdp[dask]')") from exc
    with Client(address) as client:
        threads = sum(client.nthreads().values()) or 1
        yield client.get_executor(pure=False), threads


__all__ = ["THREAD_ENV_VARS", "Task", "single_thread_env", "format_exc", "picklable",
           "progress_array", "numeric_state", "restore_numeric_state", "forked", "mp_context",
           "execute", "cluster"]
