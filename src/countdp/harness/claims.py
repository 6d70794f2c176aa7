"""Declaring checks and running one: the :func:`claim` decorator and the :class:`ClaimBuilder`.

A check script declares one function per claim with :func:`claim`; the function receives a
:class:`ClaimBuilder` and records *cases* (one comparison of two routes each), at least one
*negative control* (a perturbed claim the same comparison must reject), and the slack.  The
verdict is derived here, never by the script:

* ``pass``  -- at least one case, every case ok, and every negative control rejected;
* ``fail``  -- a case failed, there were no cases, or a control was not rejected (a check that
  cannot fail proves nothing);
* ``error`` -- the check raised (the traceback is kept), or it ran past ``settings.time_limit``.

The relations and their tolerances are those of :func:`countdp.harness.results.holds`.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

import mpmath
import numpy as np

from .catalogue import CATALOGUE, ClaimInfo
from .certificates import certificate, run_certificates
from .results import Case, ClaimResult, Control, Settings, Step, error_result, fmt, holds, is_monte_carlo


_CASE_HOOK: Callable[[int], None] | None = None


def set_case_hook(hook: Callable[[int], None] | None) -> Callable[[int], None] | None:
    """Call ``hook(cases recorded so far)`` after every case of every claim (progress display);
    returns the previous hook.  ``None`` removes it."""
    global _CASE_HOOK
    previous, _CASE_HOOK = _CASE_HOOK, hook
    return previous


class FirstFailure(Exception):
    """Raised in a run with ``stop_at_first_failure`` when a case or a control fails."""


class TimeLimitExceeded(BaseException):
    """Raised (by SIGALRM) in a claim that runs past ``settings.time_limit``.  A BaseException,
    so that a check's own ``except Exception`` cannot swallow it."""


@contextlib.contextmanager
def time_limit(seconds: float | None):
    """Raise :class:`TimeLimitExceeded` in this thread after ``seconds`` (wall clock).  Only in
    the main thread of a process with SIGALRM (the runner's workers and ``countdp check`` are);
    elsewhere, and for ``seconds=None``, no limit."""
    if not seconds or threading.current_thread() is not threading.main_thread() or \
            not hasattr(signal, "setitimer"):
        yield
        return

    def on_alarm(signum, frame):
        raise TimeLimitExceeded(seconds)

    outer, _ = signal.getitimer(signal.ITIMER_REAL)  # a watchdog of the caller's, re-armed below
    t0 = time.monotonic()
    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, min(float(seconds), 1e8))  # beyond ~1e10 it overflows
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer > 0:
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - t0), 1e-3))


class ClaimBuilder:
    """Collects the cases, controls and slack of one claim; the verdict is derived on finish."""

    def __init__(self, info: ClaimInfo, routes: list[str], settings: Settings):
        self.info = info
        self.routes = list(routes)
        self.settings = settings
        self.cases: list[Case] = []
        self.controls: list[Control] = []
        self._slack: str | None = None
        self.notes: list[str] = []
        self.findings: list[dict] = []
        self.steps: list[Step] = []

    @property
    def quick(self) -> bool:
        return self.settings.quick

    @property
    def dps(self) -> int:
        return self.settings.dps

    def rng(self, *names: Any) -> np.random.Generator:
        return self.settings.rng(self.info.id, *names)

    def compare(self, params: dict, lhs: Any, relation: str, rhs: Any, tol: Any = 0,
                route: str | None = None, note: str | None = None,
                monte_carlo: bool | None = None) -> bool:
        """Record one comparison of two routes; returns whether it holds.  ``monte_carlo``
        marks a case whose tolerance is a Monte Carlo interval (default: inferred from the route
        text or a ``draws`` parameter), so its gaps are reported apart from the deterministic
        routes'."""
        ok = holds(lhs, relation, rhs, tol)
        mc = is_monte_carlo(route, params) if monte_carlo is None else bool(monte_carlo)
        self.cases.append(Case(dict(params), lhs, relation, rhs, tol, ok, route, note, mc))
        if _CASE_HOOK is not None:
            _CASE_HOOK(len(self.cases))
        if not ok and self.settings.stop_at_first_failure:
            raise FirstFailure(f"case {len(self.cases)} ({route or 'no route'}) does not hold")
        return ok

    def control(self, what: str, lhs: Any, relation: str, rhs: Any, tol: Any = 0,
                detail: str | None = None) -> bool:
        """A negative control: the same comparison applied to a perturbed claim must fail."""
        rejected = not holds(lhs, relation, rhs, tol)
        if detail is None:
            detail = f"{fmt(lhs)} {relation} {fmt(rhs)} (tol {fmt(tol)}) does not hold"
            if not rejected:
                detail = f"{fmt(lhs)} {relation} {fmt(rhs)} (tol {fmt(tol)}) holds: control passed"
        self.controls.append(Control(what, rejected, detail))
        if not rejected and self.settings.stop_at_first_failure:
            raise FirstFailure(f"the negative control {what!r} was not rejected")
        return rejected

    def control_outcome(self, what: str, rejected: bool, detail: str | None = None) -> bool:
        """A negative control whose rejection was decided by a comparison run elsewhere."""
        self.controls.append(Control(what, bool(rejected), detail))
        if not rejected and self.settings.stop_at_first_failure:
            raise FirstFailure(f"the negative control {what!r} was not rejected")
        return bool(rejected)

    def slack(self, text: str) -> None:
        self._slack = text

    def note(self, text: str) -> None:
        self.notes.append(text)

    def step(self, name: str, kind: str, how: str = "") -> None:
        """A step of the argument the claim rests on and what it rests on (``proved``,
        ``certified``, ``numerical`` or ``assumed``): a claim with a numerical or assumed step is
        reported as conditional on it, whatever its cases and certificates say."""
        self.steps.append(Step(name, kind, how))

    def finding(self, **data: Any) -> None:
        """A reported observation (numbers, not a verdict): e.g. where a supremum sits."""
        self.findings.append(data)

    def result(self, seconds: float) -> ClaimResult:
        reason = None
        if not self.cases:
            status, reason = "fail", "no case was compared"
        elif not all(c.ok for c in self.cases):
            status = "fail"
            bad = sum(not c.ok for c in self.cases)
            reason = f"{bad} of {len(self.cases)} cases do not hold"
        elif not self.controls:
            status, reason = "fail", "no negative control: the check cannot be shown to fail"
        elif not all(c.rejected for c in self.controls):
            status, reason = "fail", "a negative control was not rejected"
        else:
            status = "pass"
        return ClaimResult(self.info.id, self.info.paper, self.info.section, status, self.routes,
                           self.cases, self.controls, self._slack, self.notes, self.findings,
                           None, None, seconds, reason, list(self.steps))


# --------------------------------------------------------------------------------------------
# Declaring checks
# --------------------------------------------------------------------------------------------


@dataclass
class CheckSpec:
    """A claim's check and the certificates declared for it in the same script."""

    id: str
    routes: list[str]
    func: Callable[[ClaimBuilder], None]
    info: ClaimInfo
    certificates: list[Callable] = field(default_factory=list)


def claim(id: str, routes: list[str]) -> Callable:
    """Declare ``func(check: ClaimBuilder)`` as the check of claim ``id`` (a catalogue id)."""
    if id not in CATALOGUE:
        raise ValueError(f"unknown claim id {id!r}: ids are those of the catalogue")
    if len(routes) < 2:
        raise ValueError(f"claim {id}: at least two independent routes are required")

    def deco(func: Callable) -> Callable:
        func.__countdp_check__ = CheckSpec(id, list(routes), func, CATALOGUE[id])
        return func

    return deco


def checks_in(module: Any) -> list[CheckSpec]:
    """The check specs a check-script module declares, in source order, each with the
    certificates the module declares for its claim (in source order)."""
    items = list(vars(module).values())
    specs = [v.__countdp_check__ for v in items if hasattr(v, "__countdp_check__")]
    specs.sort(key=lambda s: s.func.__code__.co_firstlineno)
    certs = sorted((v for v in items if hasattr(v, "__countdp_certificate__")),
                   key=lambda f: f.__code__.co_firstlineno)
    by_id = {s.id for s in specs}
    orphans = [f.__countdp_certificate__.id for f in certs
               if f.__countdp_certificate__.id not in by_id]
    if orphans:
        raise ValueError(f"certificates for claims this script does not check: {sorted(set(orphans))}")
    return [CheckSpec(s.id, s.routes, s.func, s.info,
                      [f for f in certs if f.__countdp_certificate__.id == s.id]) for s in specs]


NO_CERTIFICATE = "no ball-arithmetic route for this claim (numerical evidence)"


def run_check(spec: CheckSpec, settings: Settings) -> ClaimResult:
    """Run one check and then its certificates.  An exception becomes status ``error`` with its
    traceback, never a skip; a certificate that proves a statement false fails the claim; a claim
    still running after ``settings.time_limit`` seconds is stopped with status ``error``."""
    t0 = time.perf_counter()
    try:
        with time_limit(settings.time_limit):
            return _run_check(spec, settings)
    except TimeLimitExceeded:
        res = error_result(spec.id, f"stopped: the claim ran past the time limit of "
                           f"{settings.time_limit:g} s (--time-limit)", routes=spec.routes)
        res.seconds = time.perf_counter() - t0
        return res


def _run_check(spec: CheckSpec, settings: Settings) -> ClaimResult:
    builder = ClaimBuilder(spec.info, spec.routes, settings)
    t0 = time.perf_counter()
    try:
        with mpmath.workdps(settings.dps):
            spec.func(builder)
    except FirstFailure as stop:
        res = builder.result(time.perf_counter() - t0)
        res.status, res.reason = "fail", f"stopped at the first failure: {stop}"
        return res
    except Exception:  # noqa: BLE001 -- a crashing check is reported, not raised
        res = builder.result(time.perf_counter() - t0)
        res.status = "error"
        res.error = traceback.format_exc(limit=8)
        res.reason = "the check raised an exception"
        return res
    res = builder.result(time.perf_counter() - t0)
    if settings.certify:
        _attach_certification(res, spec, settings)
    return res


def _attach_certification(res: ClaimResult, spec: CheckSpec, settings: Settings) -> None:
    if not spec.certificates:
        res.certified = {"certified": False, "reason": NO_CERTIFICATE}
        return
    cert = run_certificates(spec.id, spec.certificates, settings.quick)
    res.certified = cert.summary()
    res.seconds += cert.seconds
    if cert.errors:
        res.status, res.reason = "error", "a certificate raised an exception"
        res.error = "\n".join(cert.errors)
    elif cert.disproved and res.status == "pass":
        res.status = "fail"
        res.reason = ("the certified layer proved a statement false: "
                      + "; ".join(r.name for r in cert.disproved))


__all__ = ["ClaimBuilder", "CheckSpec", "claim", "checks_in", "run_check", "certificate"]
