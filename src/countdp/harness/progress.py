"""Progress of a run on stderr: a line per finished claim, and on a terminal a status line
with the running tasks and an estimate of the time left."""

from __future__ import annotations

import sys
import time
from typing import Any

from .results import ClaimResult


class Progress:
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


def clock(seconds: float) -> str:
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


class CheckStatus:
    """The status line of ``countdp check`` on a terminal: cases done and elapsed time,
    rewritten at most five times a second."""

    def __init__(self, claim_id: str, stream: Any):
        self.claim_id, self.stream = claim_id, stream
        self.t0 = self.last = time.perf_counter()

    def __call__(self, cases: int) -> None:
        now = time.perf_counter()
        if now - self.last >= 0.2:
            self.last = now
            self.stream.write(f"\r\x1b[K  {self.claim_id}: {cases} cases, {clock(now - self.t0)} elapsed")
            self.stream.flush()

    def clear(self) -> None:
        self.stream.write("\r\x1b[K")
        self.stream.flush()


class Tracker:
    """The parent's view of the running tasks for the status line: the shared array the
    local workers write (per task: cases done; then 0/1/2 queued/running/done; None on a
    cluster) and when each task was first seen running.  ``names[i]``: task ``i``'s name in
    ``durations``; ``counts_cases[i]``: whether its cases done are shown; ``counts``: an object
    with ``done`` and ``n_claims``, the claims finished and to run."""

    def __init__(self, names: list[str], counts_cases: list[bool], shared: Any, jobs: int,
                 durations: dict[str, float] | None, progress: Progress, counts: Any):
        self.names, self.counts_cases, self.shared, self.jobs = names, counts_cases, shared, jobs
        self.durations = durations or {}
        self.progress, self.counts = progress, counts
        self.seen: dict[int, float] = {}
        self.finished: dict[int, float] = {}

    def done(self, i: int, seconds: float | None) -> None:
        self.finished[i] = float(seconds or 0.0)

    def tick(self) -> None:
        if not self.progress.tty:
            return
        now = time.perf_counter()
        n = len(self.names)
        running = []
        for i in range(n):
            if i not in self.finished and self.shared is not None and self.shared[n + i] == 1:
                self.seen.setdefault(i, now)
                running.append(i)
        pending = [i for i in range(n) if i not in self.finished]
        pending.sort(key=lambda i: (i not in running))
        left = estimate_left([self.durations.get(self.names[i]) for i in pending],
                             [(self.durations.get(self.names[i]), s)
                              for i, s in self.finished.items()],
                             [now - self.seen[i] for i in running], self.jobs)
        eta = f", ~{clock(left)} left" if left is not None else ""
        parts = []
        for i in running:
            what = f"{self.names[i]} {self.shared[i]} cases" if self.counts_cases[i] else self.names[i]
            parts.append(f"{what} {now - self.seen[i]:.0f} s")
        self.progress.status(f"  {self.counts.done}/{self.counts.n_claims} claims, "
                             f"{clock(now - self.progress.t0)} elapsed{eta}"
                             + (f"  | {'; '.join(parts)}" if parts else ""))


__all__ = ["Progress", "CheckStatus", "Tracker", "clock", "estimate_left"]
