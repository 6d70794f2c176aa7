"""The claim registry and the result types every check produces.

A check script declares one function per claim with :func:`claim`; the function receives a
:class:`ClaimBuilder` and records *cases* (one comparison of two routes each), at least one
*negative control* (a perturbed claim the same comparison must reject), and the slack.  The
verdict is derived here, never by the script:

* ``pass``  -- at least one case, every case ok, and every negative control rejected;
* ``fail``  -- a case failed, there were no cases, or a control was not rejected (a check that
  cannot fail proves nothing);
* ``error`` -- the check raised; the traceback is kept.

Relations and tolerances (``tol`` is the error bar of the comparison, stated by the caller):

* ``==``  ``|lhs - rhs| <= tol``
* ``<=``  ``lhs <= rhs + tol``   (a weak inequality that may be tight: not violated beyond the bar)
* ``<``   ``lhs + tol < rhs``    (a strict inequality: it must hold beyond the error bar)
* ``>=`` / ``>`` mirror images.

Infinite values compare as in the extended reals; ``inf == inf`` holds.
"""

from __future__ import annotations

import math
import time
import traceback
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable

import mpmath
import numpy as np

# --------------------------------------------------------------------------------------------
# The catalogue: every claim id of the paper (verbatim), with its place in the paper.
# --------------------------------------------------------------------------------------------

PAPER = "paper"
COMPANION = "companion"
BEYOND = "beyond"

SECTION_TITLES = {
    PAPER: 'Main paper: "Better Privacy Guarantees for Larger Groups"',
    COMPANION: "Companion paper: exact zCDP characterizations (Harrison and Manurangsi, 2025)",
    BEYOND: "Beyond the paper: the open constant C*",
}


@dataclass(frozen=True)
class ClaimInfo:
    id: str
    paper: str
    section: str
    statement: str


def _c(id: str, paper: str, statement: str, section: str = PAPER) -> ClaimInfo:
    return ClaimInfo(id, paper, section, statement)


CATALOGUE: dict[str, ClaimInfo] = {
    c.id: c
    for c in [
        # Section 2
        _c("prop2.2a", "Proposition 2.2 (first part)", "no law satisfies eq (1) at count 0"),
        _c("prop2.2b", "Proposition 2.2 (second part)",
           "weak eq (1) with finite two-sided Renyi divergence on edge 0<->1 is impossible"),
        _c("prop2.3", "Proposition 2.3", "at r = 1 the release 1/2 meets eq (2) with v = 0"),
        # Section 3
        _c("eq3", "eq (3)", "sigma = Phi^-1(1/2 + r0/(2(1+c))) is positive and finite"),
        _c("eq4", "eq (4)", "release [(n+c) exp(sigma Z - sigma^2) - c]_+"),
        _c("thm3.1.i", "Theorem 3.1(i)", "E|xhat - n| <= r0 (n+c)/(1+c) < r max(n,1)"),
        _c("thm3.1.ii", "Theorem 3.1(ii), eqs (5)-(6)",
           "released output is count-dependent zCDP with v(n) of eqs (5)-(6), v nonincreasing"),
        _c("thm3.1.iii", "Theorem 3.1(iii), eq (7)", "v(n) = 1/(2 sigma^2 n^2) + O(n^-3)"),
        _c("cor3.2", "Corollary 3.2", "c = 1: sigma = Phi^-1(1/2 + r0/4), v(n) = log^2(1+1/n)/(2 sigma^2)"),
        _c("cor3.2.round", "Corollary 3.2 (stochastic rounding)",
           "rounding is postprocessing and keeps the conditional error |y - n|"),
        _c("thm1.1", "Theorem 1.1", "the optimal group-size rate n^-2 and the r = 1 endpoint"),
        # Section 4
        _c("lem4.1", "Lemma 4.1", "E|exp(sigma Z - sigma^2) - 1| = 2 Phi(sigma) - 1"),
        _c("eq8", "eq (8)", "E[exp(sigma Z - sigma^2) 1{Z <= sigma}] = exp(-sigma^2/2)/2 (and on Z > sigma)"),
        _c("eq9", "eq (9)", "E|U_n - n| = (n+c) r0/(1+c); clipping cannot increase the error"),
        _c("sec4.1.deriv", "Section 4.1, derivative",
           "d/da E|exp(sigma Z - a) - 1| = exp(sigma^2/2 - a)(2 Phi(a/sigma - sigma) - 1)"),
        _c("sec4.1.argmin", "Section 4.1, minimiser", "a = sigma^2 uniquely minimises E|exp(sigma Z - a) - 1|"),
        # Section 5
        _c("eq10", "eq (10)", "log(U_n + c) ~ N(log(n+c) - sigma^2, sigma^2)"),
        _c("eq11", "eq (11)", "D_alpha(N(mu,s^2)||N(nu,s^2)) = alpha (mu-nu)^2/(2 s^2)"),
        _c("eq12", "eq (12)", "D_alpha(U_n||U_m) = alpha log^2((n+c)/(m+c))/(2 sigma^2), both directions"),
        _c("sec5.post", "Section 5, postprocessing",
           "clipping and rounding keep the released D_alpha on edge n-1<->n below alpha v(n)"),
        _c("sec5.mono", "Section 5, monotonicity", "log(1 + 1/(n-1+c)) decreases in n and is 1/n + O(n^-2)"),
        _c("sec5.product", "Section 5, product argument", "the histogram release has the single-coordinate budget"),
        _c("sec5.1.conv", "Section 5.1, conversion", "rho-zCDP gives (rho + 2 sqrt(rho log(1/delta)), delta)-DP"),
        _c("sec5.1.limit_c", "Section 5.1, fixed-c limit", "lim r^2 n^2 v(n) = (1+c)^2/pi"),
        _c("sec5.1.c_equals_r", "Section 5.1, c = r", "v(1) of order r^-2 log^2(1/r)"),
        _c("eq13", "eq (13)", "Phi^-1((1+r)/2) = r sqrt(pi/2) + O(r^3); budget -> 1/(pi r^2 n^2)"),
        # Section 6
        _c("lem6.1", "Lemma 6.1", "k-edge chain: D_alpha(P_0||P_k) <= alpha k^2 rho"),
        _c("prop6.2", "Proposition 6.2, eqs (14)-(15)", "two-count rate lower bound"),
        _c("prop6.2.steps", "Proposition 6.2 (proof steps), eq (16)", "Markov, TV, KL and Pinsker steps"),
        _c("lem6.3", "Lemma 6.3, eq (17)", "absolute error forces information"),
        _c("thm6.4", "Theorem 6.4, eqs (19)-(22)", "many-count inequality"),
        _c("cor6.5", "Corollary 6.5, eqs (23)-(25)", "uniform many-count bound, constant 3/(2e^3)"),
        _c("lem6.6", "Lemma 6.6, eqs (26)-(28)", "fine integer quantization"),
        _c("cor6.7", "Corollary 6.7, eqs (29)-(31)", "truncated Gaussian prior, constant pi/(4e^2)"),
        _c("eq32", "eq (32)", "pi/(4e^2) <= C* <= 1/pi"),
        # Section 7
        _c("lem7.1", "Lemma 7.1, eq (34)", "unequal-variance Gaussian D_alpha finite iff alpha s_Q^2 + (1-alpha) s_P^2 > 0"),
        _c("sec7.boundary", "Section 7, boundary edge", "D_alpha(X_1||X_0) = inf for X_0 = delta_0"),
        _c("eq35", "eq (35)", "reverse divergence finite iff alpha < (n+1)^2/(2n+1)"),
        # Section 8
        _c("sec8.two_count", "Section 8, two-count template", "maximised at theta = 1/2, a = 8, value 1/128"),
        _c("table2", "Table 2", "small-r coefficients 1/128, 3/(2e^3), pi/(4e^2), 1/pi"),
        _c("sec8.small_r", "Section 8, small r", "exp(sigma Z - sigma^2) - 1 = sigma Z + O_L1(sigma^2)"),
        _c("sec8.composition", "Section 8, composition", "budgets add pointwise under composition"),
        _c("sec8.bias", "Section 8, bias", "the mechanism is biased (drift -sigma^2)"),
        # Companion paper
        _c("hm.laplace", "Harrison-Manurangsi: Laplace", "tight rho = eps + e^-eps - 1", COMPANION),
        _c("hm.discrete_laplace", "Harrison-Manurangsi: discrete Laplace", "tight rho of discrete Laplace", COMPANION),
        _c("hm.krr", "Harrison-Manurangsi: k-RR", "tight rho of k-ary randomized response, k <= 6", COMPANION),
        _c("hm.rappor", "Harrison-Manurangsi: RAPPOR", "tight rho = eps tanh(eps/4)", COMPANION),
        _c("hm.bounded_range", "Harrison-Manurangsi: bounded range", "tight rho of eta-bounded range", COMPANION),
        # Beyond the paper
        _c("cstar.airy.constants", "C* research note: Airy constants", "Z, m, I and m^2 I/2 = 8|a1'|^3/27", BEYOND),
        _c("cstar.airy.subgaussian", "C* research note: sub-Gaussian score", "K_s(u)/u^2 <= I/2", BEYOND),
        _c("cstar.airy.utility", "C* research note: utility", "E|Y - n| < r max(n,1)", BEYOND),
        _c("cstar.airy.budget", "C* research note: budget", "sup_alpha D_alpha/alpha at alpha -> 1; n^2 v(n) limit", BEYOND),
        _c("cstar.airy.limit", "C* research note: limit", "r^2 n^2 v(n) -> 8|a1'|^3/27", BEYOND),
        _c("cstar.airy.vs_gaussian", "C* research note: versus the Gaussian", "ratio of budgets -> 8 pi |a1'|^3/27", BEYOND),
    ]
}

MAIN_PAPER_IDS = tuple(i for i, c in CATALOGUE.items() if c.section == PAPER)

# --------------------------------------------------------------------------------------------
# Numbers in reports
# --------------------------------------------------------------------------------------------


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
        if mpmath.isinf(x):
            return "inf" if x > 0 else "-inf"
        return mpmath.nstr(x, digits or max(15, mpmath.mp.dps), min_fixed=-4, max_fixed=6)
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


# --------------------------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------------------------


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
        if self.note:
            d["note"] = self.note
        return d


@dataclass
class Control:
    what: str
    rejected: bool
    detail: str | None = None

    def to_json(self) -> dict:
        d = {"what": self.what, "status": "rejected" if self.rejected else "NOT rejected"}
        if self.detail:
            d["detail"] = self.detail
        return d


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

    @property
    def worst(self) -> str | None:
        """Largest relative gap |lhs - rhs| / |rhs| over the finite equality cases (absolute where
        |rhs| is within its error bar): the worst discrepancy between two routes."""
        worst = None
        for c in self.cases:
            try:
                a, b = _mpf(c.lhs), _mpf(c.rhs)
            except (TypeError, ValueError):
                continue
            if mpmath.isinf(a) or mpmath.isinf(b) or c.relation != "==":
                continue
            try:
                t = _mpf(c.tol)
            except (TypeError, ValueError):
                t = mpmath.mpf(0)
            # relative where rhs stands clear of its error bar, absolute otherwise (a tiny rhs)
            d = abs(a - b) / abs(b) if abs(b) > t and b != 0 else abs(a - b)
            worst = d if worst is None or d > worst else worst
        return None if worst is None else fmt(worst, 3)

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
            "worst_discrepancy": self.worst,
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
        if self.error:
            d["error"] = self.error
        return d


def _controls_json(controls: list[Control]) -> dict | None:
    if not controls:
        return None
    if len(controls) == 1:
        return controls[0].to_json()
    rejected = all(c.rejected for c in controls)
    return {
        "what": "; ".join(c.what for c in controls),
        "status": "rejected" if rejected else "NOT rejected",
        "each": [c.to_json() for c in controls],
    }


# --------------------------------------------------------------------------------------------
# What a check function is handed
# --------------------------------------------------------------------------------------------


@dataclass
class Settings:
    """Run settings shared by every check: quick mode, working precision, base seed."""

    quick: bool = False
    dps: int = 30
    seed: int = 20260715
    figures_dir: str = "figures"
    certify: bool = True

    def rng(self, *names: Any) -> np.random.Generator:
        """A generator seeded from the base seed and a stable name (claim id, case)."""
        key = [zlib.crc32(repr(n).encode()) for n in names]
        return np.random.Generator(np.random.PCG64(np.random.SeedSequence([self.seed, *key])))


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
        self.certified: dict | None = None

    @property
    def quick(self) -> bool:
        return self.settings.quick

    @property
    def dps(self) -> int:
        return self.settings.dps

    def rng(self, *names: Any) -> np.random.Generator:
        return self.settings.rng(self.info.id, *names)

    def compare(self, params: dict, lhs: Any, relation: str, rhs: Any, tol: Any = 0,
                route: str | None = None, note: str | None = None) -> bool:
        """Record one comparison of two routes; returns whether it holds."""
        ok = holds(lhs, relation, rhs, tol)
        self.cases.append(Case(dict(params), lhs, relation, rhs, tol, ok, route, note))
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
        return rejected

    def control_outcome(self, what: str, rejected: bool, detail: str | None = None) -> bool:
        """A negative control whose rejection was decided by a comparison run elsewhere."""
        self.controls.append(Control(what, bool(rejected), detail))
        return bool(rejected)

    def slack(self, text: str) -> None:
        self._slack = text

    def note(self, text: str) -> None:
        self.notes.append(text)

    def finding(self, **data: Any) -> None:
        """A reported observation (numbers, not a verdict): e.g. where a supremum sits."""
        self.findings.append(data)

    def certify(self, certified: bool, **data: Any) -> None:
        self.certified = {"certified": bool(certified), **{k: fmt(v) for k, v in data.items()}}

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
                           self.certified, None, seconds, reason)


# --------------------------------------------------------------------------------------------
# Declaring checks
# --------------------------------------------------------------------------------------------


@dataclass
class CheckSpec:
    id: str
    routes: list[str]
    func: Callable[[ClaimBuilder], None]
    info: ClaimInfo


def claim(id: str, routes: list[str]) -> Callable:
    """Declare ``func(c: ClaimBuilder)`` as the check of claim ``id`` (an id of CLAIMS.md)."""
    if id not in CATALOGUE:
        raise ValueError(f"unknown claim id {id!r}: ids are those of CLAIMS.md")
    if len(routes) < 2:
        raise ValueError(f"claim {id}: at least two independent routes are required")

    def deco(func: Callable) -> Callable:
        func.__countdp_check__ = CheckSpec(id, list(routes), func, CATALOGUE[id])
        return func

    return deco


def checks_in(module: Any) -> list[CheckSpec]:
    """The check specs a check-script module declares, in source order."""
    specs = [v.__countdp_check__ for v in vars(module).values() if hasattr(v, "__countdp_check__")]
    specs.sort(key=lambda s: s.func.__code__.co_firstlineno)
    return specs


def run_check(spec: CheckSpec, settings: Settings) -> ClaimResult:
    """Run one check; an exception becomes status ``error`` with its traceback, never a skip."""
    import time

    builder = ClaimBuilder(spec.info, spec.routes, settings)
    t0 = time.perf_counter()
    try:
        with mpmath.workdps(settings.dps):
            spec.func(builder)
    except Exception:  # noqa: BLE001 -- a crashing check is reported, not raised
        res = builder.result(time.perf_counter() - t0)
        res.status = "error"
        res.error = traceback.format_exc(limit=8)
        res.reason = "the check raised an exception"
        return res
    res = builder.result(time.perf_counter() - t0)
    if settings.certify:
        res.certified = _merge_certificates(res.certified, spec.id, settings.quick)
    return res


_CERTIFICATES: dict = {}


def certificates(quick: bool) -> dict:
    """Ball-arithmetic certificates (countdp.certify) grouped by claim id, computed once per
    process: {id: {"certified": all records proved, "records": n, "max_radius", "seconds", ...}}.
    A record counts only when its verdict is PROVED_TRUE (balls separated, or the closed form
    inside a certified enclosure); undecided is never counted as proved."""
    if quick not in _CERTIFICATES:
        try:
            from . import certify

            t0 = time.perf_counter()
            records = certify.certify_all(quick=quick)
            grouped: dict = {}
            for rec in records:
                d = rec.as_dict()
                g = grouped.setdefault(d["claim"], {"records": 0, "proved": 0, "max_radius": 0.0,
                                                    "seconds": 0.0, "statements": []})
                g["records"] += 1
                g["proved"] += str(d["verdict"]) == "proved_true"
                try:
                    g["max_radius"] = max(g["max_radius"], float(d["radius"]))
                except (TypeError, ValueError):
                    pass
                g["seconds"] += float(d.get("seconds") or 0.0)
                g["statements"].append(f"{d['name']}: {d['verdict']} {d['enclosure']}")
            _CERTIFICATES[quick] = {"by_claim": grouped, "seconds": time.perf_counter() - t0, "error": None}
        except Exception:  # noqa: BLE001 -- certification failing must be visible, not fatal
            _CERTIFICATES[quick] = {"by_claim": {}, "seconds": 0.0, "error": traceback.format_exc(limit=4)}
    return _CERTIFICATES[quick]


def _merge_certificates(own: dict | None, claim_id: str, quick: bool) -> dict:
    cert = certificates(quick)
    if cert["error"]:
        return {"certified": False, "reason": "the certified layer raised: " + cert["error"].strip().splitlines()[-1]}
    g = cert["by_claim"].get(claim_id)
    if g is None:
        return own or {"certified": False, "reason": "no ball-arithmetic route for this claim (numerical evidence)"}
    out = {
        "certified": g["proved"] == g["records"],
        "records": g["records"],
        "proved": g["proved"],
        "enclosure_radius": f"{g['max_radius']:.3g}",
        "seconds": round(g["seconds"], 4),
        "what": g["statements"],
    }
    if own:
        out.update({k: v for k, v in own.items() if k != "certified"})
    return out


def result_to_dict(res: ClaimResult) -> dict:
    return res.to_json()


__all__ = [
    "CATALOGUE", "MAIN_PAPER_IDS", "SECTION_TITLES", "ClaimInfo", "Case", "Control", "ClaimResult",
    "Settings", "ClaimBuilder", "CheckSpec", "claim", "checks_in", "run_check", "holds", "fmt",
]
