"""What a run produces: cases, negative controls, claim results, script runs and the run.

Relations and tolerances (``tol`` is the error bar of the comparison, stated by the caller):

* ``==``  ``|lhs - rhs| <= tol``
* ``<=``  ``lhs <= rhs + tol``   (a weak inequality that may be tight: not violated beyond the bar)
* ``<``   ``lhs + tol < rhs``    (a strict inequality: it must hold beyond the error bar)
* ``>=`` / ``>`` mirror images.

Infinite values compare as in the extended reals; ``inf == inf`` holds.  Numbers in reports are
decimal strings at the working precision (:func:`fmt`).
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from typing import Any, Iterable

import mpmath
import numpy as np

from ..numerics.digits import significant
from .catalogue import CATALOGUE

STATUS_ORDER = ("pass", "fail", "error")  # worst last


@dataclass
class Settings:
    """Run settings shared by every check: quick mode, working precision, base seed.
    ``stop_at_first_failure`` (fault runs) ends a check at its first failing case or control:
    all a fault run needs to know is that the claim no longer passes.  ``time_limit``: seconds
    one claim (check and certificates) may run before it is stopped with status error (None: no
    limit; the command line sets one by default)."""

    quick: bool = False
    dps: int = 30
    seed: int = 20260715
    figures_dir: str = "figures"
    certify: bool = True
    stop_at_first_failure: bool = False
    time_limit: float | None = None

    def rng(self, *names: Any) -> np.random.Generator:
        """A generator seeded from the base seed and a stable name (claim id, case)."""
        key = [zlib.crc32(repr(n).encode()) for n in names]
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence([self.seed, *key])))

def fmt(x: Any, digits: int | None = None) -> Any:
    """A report number: decimal string at working precision (floats via repr, exact)."""
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return x
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return repr(x)
    if isinstance(x, mpmath.mpf):
        return "0.0" if x == 0 else significant(x, digits or max(15, mpmath.mp.dps), max_fixed=6)
    if hasattr(x, "__float__"):
        return fmt(float(x))
    return str(x)


def _mpf(x: Any) -> mpmath.mpf:
    if isinstance(x, str):
        return mpmath.mpf(x)
    if isinstance(x, (np.floating, np.integer)):
        x = x.item()
    return mpmath.mpf(x)


RELATIONS = ("==", "<=", "<", ">=", ">")


def holds(lhs: Any, relation: str, rhs: Any, tol: Any = 0) -> bool:
    """Decide ``lhs relation rhs`` with error bar ``tol`` (see the module docstring)."""
    if relation not in RELATIONS:
        raise ValueError(f"relation must be one of {RELATIONS}, got {relation!r}")
    a, b, t = _mpf(lhs), _mpf(rhs), _mpf(tol)
    if mpmath.isnan(a) or mpmath.isnan(b) or mpmath.isnan(t) or t < 0:
        return False
    if relation == "==":
        if mpmath.isinf(a) or mpmath.isinf(b):
            return a == b
        return abs(a - b) <= t
    if relation in (">=", ">"):
        a, b = -a, -b
        relation = "<=" if relation == ">=" else "<"
    if relation == "<=":
        return bool(a <= b + t)
    return bool(a + t < b)


@dataclass
class Case:
    params: dict
    lhs: Any
    relation: str
    rhs: Any
    tol: Any
    ok: bool
    route: str | None = None
    note: str | None = None
    monte_carlo: bool = False

    @property
    def gap_over_tolerance(self):
        """|lhs - rhs| / tol of an ``==`` case with finite sides (0 for an exact equality that
        holds, inf for one that does not); None for other cases."""
        if self.relation != "==":
            return None
        try:
            a, b, t = _mpf(self.lhs), _mpf(self.rhs), _mpf(self.tol)
        except (TypeError, ValueError):
            return None
        if mpmath.isinf(a) or mpmath.isinf(b) or mpmath.isnan(a) or mpmath.isnan(b):
            return None
        gap = abs(a - b)
        if t > 0:
            return gap / t
        return mpmath.mpf(0) if gap == 0 else mpmath.inf

    def to_json(self) -> dict:
        d = {
            "params": {k: fmt(v) for k, v in self.params.items()},
            "lhs": fmt(self.lhs),
            "relation": self.relation,
            "rhs": fmt(self.rhs),
            "tol": fmt(self.tol),
            "ok": bool(self.ok),
        }
        if self.route:
            d["route"] = self.route
        if self.monte_carlo:
            d["monte_carlo"] = True
        if self.note:
            d["note"] = self.note
        return d


def is_monte_carlo(route: str | None, params: dict) -> bool:
    """A case whose tolerance is a Monte Carlo confidence interval: its route says so, or it
    carries a number of draws."""
    return "monte carlo" in (route or "").lower() or "draws" in params


@dataclass(frozen=True)
class WorstGap:
    """The largest gap / tolerance over a claim's ``==`` cases of one kind, and its route."""

    ratio: Any
    route: str | None
    cases: int

    def text(self) -> str:
        where = f" ({self.route})" if self.route else ""
        return f"{fmt(self.ratio, 3)}{where}"


def control_state(rejected: bool) -> str:
    """A negative control's outcome as every report states it: "rejected" or "NOT rejected"."""
    return "rejected" if rejected else "NOT rejected"


@dataclass
class Control:
    what: str
    rejected: bool
    detail: str | None = None

    @property
    def state(self) -> str:
        return control_state(self.rejected)

    def to_json(self) -> dict:
        d = {"what": self.what, "status": self.state}
        if self.detail:
            d["detail"] = self.detail
        return d


#: what a step of a claim's argument rests on: ``proved`` (by hand, in the project's notes),
#: ``certified`` (ball arithmetic decides it), ``numerical`` (converging numbers, not a proof),
#: ``assumed`` (taken from elsewhere without proof here)
STEP_KINDS = ("proved", "certified", "numerical", "assumed")
#: the step kinds that leave a claim conditional on them
OPEN_STEP_KINDS = ("numerical", "assumed")
#: the kinds of evidence a passing claim has, strongest first
EVIDENCE_KINDS = ("proof", "certified instances", "numerical", "conditional")


@dataclass
class Step:
    """One step of the argument a claim rests on, and what it rests on (:data:`STEP_KINDS`)."""

    name: str
    kind: str
    how: str = ""

    def __post_init__(self) -> None:
        if self.kind not in STEP_KINDS:
            raise ValueError(f"step kind must be one of {STEP_KINDS}, got {self.kind!r}")

    def to_json(self) -> dict:
        return {"step": self.name, "kind": self.kind, "how": self.how}


def evidence_of(steps: list[Step], certified: dict | None) -> dict:
    """The kind of evidence (:data:`EVIDENCE_KINDS`) of a claim with these steps and this
    certification summary: ``conditional`` while any step is numerical or assumed (naming them);
    else ``proof`` when the certificates prove the claim itself, or when every step is proved or
    certified and every certificate record is proved; else ``certified instances`` when every
    record is proved; else ``numerical``."""
    open_steps = [st.name for st in steps if st.kind in OPEN_STEP_KINDS]
    if open_steps:
        return {"kind": "conditional", "conditional_on": open_steps}
    cert = certified or {}
    if cert.get("proof") or (steps and cert.get("certified")):
        return {"kind": "proof"}
    if cert.get("certified"):
        return {"kind": "certified instances"}
    return {"kind": "numerical"}


@dataclass
class ClaimResult:
    id: str
    paper: str
    section: str
    status: str
    routes: list[str]
    cases: list[Case] = field(default_factory=list)
    controls: list[Control] = field(default_factory=list)
    slack: str | None = None
    notes: list[str] = field(default_factory=list)
    findings: list[dict] = field(default_factory=list)
    certified: dict | None = None
    error: str | None = None
    seconds: float = 0.0
    reason: str | None = None
    steps: list[Step] = field(default_factory=list)

    @property
    def evidence(self) -> dict:
        """The kind of evidence the claim has (see :func:`evidence_of`)."""
        return evidence_of(self.steps, self.certified)

    def worst_gap(self, monte_carlo: bool) -> WorstGap | None:
        """The largest |lhs - rhs| / tol over the ``==`` cases of the deterministic routes
        (``monte_carlo=False``: quadrature, closed forms, enclosures) or of the Monte Carlo ones
        (tolerance a 5-s.e. interval): how much of its error bar the worst agreement used; a
        value above 1 is a failing case."""
        best, n = None, 0
        for c in self.cases:
            if c.monte_carlo != monte_carlo:
                continue
            r = c.gap_over_tolerance
            if r is None:
                continue
            n += 1
            if best is None or r > best[0]:
                best = (r, c.route)
        return None if best is None else WorstGap(best[0], best[1], n)

    @property
    def worst(self) -> str | None:
        """The worst gap / tolerance, deterministic routes and Monte Carlo routes separately."""
        parts = []
        for mc, label in ((False, ""), (True, "MC ")):
            w = self.worst_gap(mc)
            if w is not None:
                parts.append(label + w.text())
        return "; ".join(parts) or None

    def _worst_json(self) -> dict | None:
        return _worst_json_of(self)

    def to_json(self) -> dict:
        d = {
            "id": self.id,
            "paper": self.paper,
            "section": self.section,
            "status": self.status,
            "routes": list(self.routes),
            "cases": [c.to_json() for c in self.cases],
            "negative_control": _controls_json(self.controls),
            "slack": self.slack,
            "worst_gap_over_tolerance": self._worst_json(),
            "n_cases": len(self.cases),
            "seconds": round(self.seconds, 3),
        }
        if self.reason:
            d["reason"] = self.reason
        if self.notes:
            d["notes"] = list(self.notes)
        if self.findings:
            d["findings"] = [{k: fmt(v) if not isinstance(v, (dict, list)) else v for k, v in f.items()}
                             for f in self.findings]
        if self.certified is not None:
            d["certified"] = self.certified
        if self.steps:
            d["steps"] = [st.to_json() for st in self.steps]
        if self.status == "pass":
            d["evidence"] = self.evidence
        if self.error:
            d["error"] = self.error
        return d


def _worst_json_of(res: "ClaimResult") -> dict | None:
    out = {}
    for mc, key in ((False, "deterministic"), (True, "monte_carlo")):
        w = res.worst_gap(mc)
        if w is not None:
            out[key] = {"ratio": fmt(w.ratio, 3), "route": w.route, "cases": w.cases}
    return out or None


def _controls_json(controls: list[Control]) -> dict | None:
    if not controls:
        return None
    if len(controls) == 1:
        return controls[0].to_json()
    return {
        "what": "; ".join(c.what for c in controls),
        "status": control_state(all(c.rejected for c in controls)),
        "each": [c.to_json() for c in controls],
    }


@dataclass
class ScriptRun:
    """One script's part of a run: its claim results in source order."""

    name: str
    path: str
    title: str | None
    results: list[ClaimResult] = field(default_factory=list)
    seconds: float = 0.0
    figures: list[str] | None = None  # None: figures not made in this run
    import_error: str | None = None

    @property
    def status(self) -> str:
        return worst_status(r.status for r in self.results)


def worst_status(statuses: Iterable[str]) -> str:
    worst = "pass"
    for s in statuses:
        if s not in STATUS_ORDER:
            s = "error"
        if STATUS_ORDER.index(s) > STATUS_ORDER.index(worst):
            worst = s
    return worst


@dataclass
class Run:
    settings: Settings
    scripts: list[ScriptRun]
    missing: list[str]
    seconds: float = 0.0
    only_ids: list[str] | None = None
    root: str = "."

    def results(self) -> list[tuple[str, ClaimResult]]:
        return [(s.name, r) for s in self.scripts for r in s.results]

    def declared_by(self) -> dict[str, list[str]]:
        """Claim id -> the scripts that report it (pseudo ids included)."""
        d: dict[str, list[str]] = {}
        for s, r in self.results():
            d.setdefault(r.id, [])
            if s not in d[r.id]:
                d[r.id].append(s)
        return d

    def statuses(self) -> dict[str, str]:
        """Every claim id of the run -> pass / fail / error / missing.  Catalogue order first
        (restricted to ``only_ids`` if given), then pseudo ids (``<script>:import``...)."""
        by_id: dict[str, list[str]] = {}
        for _, r in self.results():
            by_id.setdefault(r.id, []).append(r.status)
        wanted = [i for i in CATALOGUE if self.only_ids is None or i in self.only_ids]
        out = {}
        for i in wanted:
            if i in by_id:
                out[i] = worst_status(by_id[i])
            elif i in self.missing:
                out[i] = "missing"
        for i in sorted(k for k in by_id if k not in CATALOGUE):
            out[i] = worst_status(by_id[i])
        return out

    def counts(self) -> dict[str, int]:
        counts = {"pass": 0, "fail": 0, "error": 0, "missing": 0}
        for s in self.statuses().values():
            counts[s] = counts.get(s, 0) + 1
        return counts

    def ok(self, strict: bool = False) -> bool:
        c = self.counts()
        return c["fail"] == 0 and c["error"] == 0 and not (strict and c["missing"])

    def exit_code(self, strict: bool = False) -> int:
        return 0 if self.ok(strict) else 1


def error_result(claim_id: str, reason: str, error: str | None = None,
                 routes: list[str] | None = None, paper: str | None = None,
                 section: str | None = None) -> ClaimResult:
    """A ClaimResult with status error for a check that could not produce one itself."""
    info = CATALOGUE.get(claim_id)
    return ClaimResult(
        id=claim_id,
        paper=paper if paper is not None else (info.paper if info else claim_id),
        section=section if section is not None else (info.section if info else "run"),
        status="error", routes=list(routes or []), error=error, reason=reason)
