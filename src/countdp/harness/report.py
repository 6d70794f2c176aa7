"""Report writers for a :class:`countdp.harness.results.Run`, and the text renderings of results.

Files (in the reports directory, each written atomically):

* ``<script>.json``  -- one per check script: script, title, seconds, environment, claims
  (``ClaimResult.to_json()`` each, in source order), figures;
* ``summary.json``   -- environment, quick, claims {id: status}, counts, scripts {script:
  seconds}, seconds (total wall time);
* ``SUMMARY.md``     -- the table a person reads, one per catalogue section;
* ``junit.xml``      -- one testsuite per script, one testcase per claim, for CI.

Output is deterministic: two runs of the same code give identical files apart from the
``seconds`` / ``time`` fields.  No timestamps are written anywhere.
"""

from __future__ import annotations

import json
import os
import platform
import tempfile
import xml.etree.ElementTree as ET
from importlib import metadata
from pathlib import Path
from typing import Any

import mpmath

from . import catalogue
from .catalogue import CATALOGUE, SECTION_TITLES
from .results import ClaimResult, Run, ScriptRun, Settings

SECTION_ORDER = (catalogue.PAPER, catalogue.COMPANION, catalogue.BEYOND)
STATUS_WORD = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "missing": "not yet checked"}

# --------------------------------------------------------------------------------------------
# Environment
# --------------------------------------------------------------------------------------------


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def environment(settings: Settings) -> dict:
    """Versions of everything the numbers depend on, and the run settings."""
    from .provenance import provenance

    prov = provenance()
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "numpy": _version("numpy"),
        "scipy": _version("scipy"),
        "mpmath": _version("mpmath"),
        "matplotlib": _version("matplotlib"),
        "flint": _version("python-flint"),
        "countdp": prov.version,
        "commit": prov.short,
        "dps": settings.dps,
        "quick": bool(settings.quick),
        "seed": settings.seed,
        "certify": bool(settings.certify),
    }


# --------------------------------------------------------------------------------------------
# JSON
# --------------------------------------------------------------------------------------------


def dumps(obj: Any) -> str:
    return json.dumps(obj, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def write_atomic(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` to ``path`` via a temporary file in the same directory and os.replace."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def result_json(res: ClaimResult, settings: Settings) -> dict:
    """``res.to_json()`` at the run's working precision (numbers are formatted at mp.dps)."""
    with mpmath.workdps(settings.dps):
        return res.to_json()


def script_json(sr: ScriptRun, run: Run) -> dict:
    d = {
        "script": sr.name,
        "title": sr.title,
        "seconds": round(sr.seconds, 3),
        "environment": environment(run.settings),
        "claims": [result_json(r, run.settings) for r in sr.results],
    }
    if sr.figures is not None:
        d["figures"] = list(sr.figures)
    return d


def summary_json(run: Run) -> dict:
    return {
        "environment": environment(run.settings),
        "quick": bool(run.settings.quick),
        "claims": run.statuses(),
        "counts": run.counts(),
        "scripts": {s.name: round(s.seconds, 3) for s in run.scripts},
        "seconds": round(run.seconds, 3),
    }


# --------------------------------------------------------------------------------------------
# SUMMARY.md
# --------------------------------------------------------------------------------------------


def _cell(x: Any) -> str:
    if x is None or x == "":
        return "-"
    s = " ".join(str(x).split())
    return s.replace("|", "\\|")


def _control_text(res: ClaimResult) -> str:
    if not res.controls:
        return "none"
    state = "rejected" if all(c.rejected for c in res.controls) else "NOT rejected"
    return f"{state}: " + "; ".join(c.what for c in res.controls)


def _certified_text(res: ClaimResult) -> str:
    cert = res.certified
    if not cert:
        return "-"
    if "records" not in cert:
        return "no: " + str(cert.get("reason", "numerical evidence only"))
    if not cert.get("certified"):
        word = "partial"
    else:
        word = "PROOF" if cert.get("proof") else "certified instances"
    return (f"{word} ({cert.get('proved')}/{cert.get('records')} records, radius <= "
            f"{cert.get('enclosure_radius')})")


def _last_line(text: str | None) -> str:
    lines = [ln for ln in (text or "").strip().splitlines() if ln.strip()]
    return lines[-1].strip() if lines else ""


def _case_text(case: dict) -> str:
    params = ", ".join(f"{k}={v}" for k, v in case.get("params", {}).items())
    return (f"{params}: {case.get('lhs')} {case.get('relation')} {case.get('rhs')} "
            f"(tol {case.get('tol')})")


def _find_script(run: Run) -> dict[str, str]:
    return {cid: ", ".join(names) for cid, names in run.declared_by().items()}


def summary_md(run: Run, sensitivity: dict[str, str] | None = None) -> str:
    """SUMMARY.md: the header, one table per catalogue section (with findings and the claims not
    yet checked), the failures and errors, the scripts, the environment.  ``sensitivity`` maps
    claim ids to the fault catalogue's "caught k/n" (from ``faults.json``, same mode)."""
    by_id: dict[str, list[tuple[str, ClaimResult]]] = {}
    for name, r in run.results():
        by_id.setdefault(r.id, []).append((name, r))
    out = _summary_header(run)
    statuses = run.statuses()
    for section in SECTION_ORDER:
        ids = [i for i, c in CATALOGUE.items() if c.section == section and i in statuses]
        if ids:
            out += _summary_section(run, section, ids, by_id, statuses, sensitivity or {})
    out += _summary_failures(run)
    out += _summary_scripts(run)
    return "\n".join(out)


def _summary_header(run: Run) -> list[str]:
    s, counts = run.settings, run.counts()
    out = ["# countdp: claim-by-claim verification", ""]
    mode = "quick" if s.quick else "full"
    out.append(f"Mode **{mode}**, working precision {s.dps} digits, seed {s.seed}"
               f"{'' if s.certify else ', certification off'}.")
    scope = "" if run.only_ids is None else f" (only: {', '.join(run.only_ids) or 'none'})"
    out.append(f"**{counts['pass']} pass, {counts['fail']} fail, {counts['error']} error, "
               f"{counts['missing']} not yet checked**{scope}.")
    out.append("")
    out.append("Columns: *routes compared* are the independent computations each case sets side "
               "by side; *worst gap / tol* is the largest |lhs - rhs| / tolerance over the claim's "
               "`==` cases, with the route that produced it, Monte Carlo routes (MC) apart from "
               "the deterministic ones (a value above 1 would be a failing case); *slack* is how "
               "far an inequality is from equality; the *negative control* is a perturbed claim "
               "the same comparison must reject; *certified* is PROOF where every "
               "ball-arithmetic record is proved and states the claim itself, *certified "
               "instances* where the records certify instances of it (e.g. a mechanism above a "
               "bound); *sensitivity* is how many of the fault catalogue's plausible mistakes "
               "the check caught (`countdp faults`).")
    out.append("")
    return out


def _summary_section(run: Run, section: str, ids: list[str], by_id: dict,
                     statuses: dict, sensitivity: dict) -> list[str]:
    s = run.settings
    out = [f"## {SECTION_TITLES[section]}", ""]
    checked = [i for i in ids if i in by_id]
    if checked:
        out.append("| claim id | paper | status | routes compared | worst gap / tol | slack "
                   "| negative control | certified | sensitivity | script |")
        out.append("|---|---|---|---|---|---|---|---|---|---|")
        for i in checked:
            for name, r in by_id[i]:
                with mpmath.workdps(s.dps):
                    worst = r.worst
                out.append("| " + " | ".join(_cell(x) for x in [
                    f"`{i}`", r.paper, STATUS_WORD.get(r.status, r.status.upper()),
                    " vs ".join(r.routes), worst, r.slack, _control_text(r),
                    _certified_text(r), sensitivity.get(i, "-"), name]) + " |")
        out.append("")
    findings = [(i, name, f) for i in checked for name, r in by_id[i]
                for f in result_json(r, s).get("findings", [])]
    if findings:
        out += ["Findings:", ""]
        for i, name, f in findings:
            items = ", ".join(f"{k} = {json.dumps(v) if isinstance(v, (dict, list)) else v}"
                              for k, v in f.items())
            out.append(f"- `{i}`: {_cell(items)}")
        out.append("")
    missing = [i for i in ids if statuses[i] == "missing"]
    if missing:
        out += ["Not yet checked:", ""]
        for i in missing:
            out.append(f"- `{i}` ({CATALOGUE[i].paper}): {CATALOGUE[i].statement}")
        out.append("")
    return out


def _summary_failures(run: Run) -> list[str]:
    bad = [(name, r) for name, r in run.results() if r.status != "pass"]
    if not bad:
        return []
    out = ["## Failures and errors", ""]
    for name, r in bad:
        rj = result_json(r, run.settings)
        out.append(f"- `{r.id}` ({name}): **{STATUS_WORD.get(r.status, r.status)}** -- "
                   f"{_cell(r.reason or 'no reason given')}")
        if r.status == "error":
            out.append(f"  - last traceback line: `{_last_line(r.error) or '-'}`")
        failed = [c for c in rj.get("cases", []) if not c.get("ok")]
        for c in failed[:5]:
            out.append(f"  - case not holding: {_cell(_case_text(c))}")
        if len(failed) > 5:
            out.append(f"  - ... and {len(failed) - 5} more cases (see the script's JSON)")
        for c in r.controls:
            if not c.rejected:
                out.append(f"  - control NOT rejected: {_cell(c.what)} -- {_cell(c.detail)}")
    out.append("")
    return out


def _summary_scripts(run: Run) -> list[str]:
    out = ["## Scripts", "", "| script | verifies | claims | status | seconds | figures |",
           "|---|---|---|---|---|---|"]
    for sr in run.scripts:
        figs = "-" if not sr.figures else ", ".join(sr.figures)
        out.append("| " + " | ".join(_cell(x) for x in [
            sr.path, sr.title, len(sr.results), STATUS_WORD.get(sr.status, sr.status),
            f"{sr.seconds:.1f}", figs]) + " |")
    out.append("")
    out += ["## Environment", ""]
    for k, v in environment(run.settings).items():
        out.append(f"- {k}: {v}")
    out.append("")
    out.append(f"Total wall time: {run.seconds:.1f} s.")
    out.append("")
    return out


# --------------------------------------------------------------------------------------------
# junit.xml
# --------------------------------------------------------------------------------------------


def _failure_text(res: ClaimResult, settings: Settings) -> str:
    rj = result_json(res, settings)
    lines = [res.reason or "failed"]
    for c in rj.get("cases", []):
        if not c.get("ok"):
            lines.append("case not holding: " + _case_text(c))
    for c in res.controls:
        if not c.rejected:
            lines.append(f"control NOT rejected: {c.what} -- {c.detail or ''}")
    return "\n".join(lines)


def junit_xml(run: Run) -> str:
    statuses = list(run.statuses().values())
    top = ET.Element("testsuites", {
        "name": "countdp",
        "tests": str(len(statuses)),
        "failures": str(statuses.count("fail")),
        "errors": str(statuses.count("error")),
        "skipped": str(statuses.count("missing")),
        "time": f"{run.seconds:.3f}",
    })
    for sr in run.scripts:
        st = [r.status for r in sr.results]
        suite = ET.SubElement(top, "testsuite", {
            "name": sr.name,
            "tests": str(len(st)),
            "failures": str(st.count("fail")),
            "errors": str(sum(1 for x in st if x not in ("pass", "fail"))),
            "skipped": "0",
            "time": f"{sr.seconds:.3f}",
        })
        for r in sr.results:
            case = ET.SubElement(suite, "testcase", {
                "classname": sr.name, "name": r.id, "time": f"{r.seconds:.3f}"})
            if r.status == "fail":
                el = ET.SubElement(case, "failure", {"message": r.reason or "failed",
                                                     "type": "fail"})
                el.text = _failure_text(r, run.settings)
            elif r.status != "pass":
                el = ET.SubElement(case, "error", {"message": r.reason or "error",
                                                   "type": "error"})
                el.text = r.error or r.reason or "error"
    missing = [i for i, st in run.statuses().items() if st == "missing"]
    if missing:
        suite = ET.SubElement(top, "testsuite", {
            "name": "not_yet_checked", "tests": str(len(missing)), "failures": "0",
            "errors": "0", "skipped": str(len(missing)), "time": "0.000"})
        for i in missing:
            case = ET.SubElement(suite, "testcase", {
                "classname": "not_yet_checked", "name": i, "time": "0.000"})
            ET.SubElement(case, "skipped", {"message": "no check script declares this claim yet"})
    ET.indent(top, space=" ")
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(top, encoding="unicode") + "\n"


# --------------------------------------------------------------------------------------------
# Writing everything
# --------------------------------------------------------------------------------------------


def write_reports(run: Run, reports_dir: str | os.PathLike) -> list[Path]:
    """Write every report file of ``run`` into ``reports_dir``; returns the paths written.

    On a full run (no ``--only``), script reports left by scripts that no longer exist are
    removed, so the directory describes exactly this run."""
    d = Path(reports_dir)
    d.mkdir(parents=True, exist_ok=True)
    written = []
    for sr in run.scripts:
        written.append(write_atomic(d / f"{sr.name}.json", dumps(script_json(sr, run))))
    written.append(write_atomic(d / "summary.json", dumps(summary_json(run))))
    sensitivity = read_sensitivity(d, run.settings.quick)
    written.append(write_atomic(d / "SUMMARY.md", summary_md(run, sensitivity)))
    written.append(write_atomic(d / "junit.xml", junit_xml(run)))
    if run.only_ids is None:
        keep = {p.name for p in written}
        for p in d.glob("*.json"):
            if p.name in keep:
                continue
            try:
                data = json.loads(p.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(data, dict) and "script" in data and "claims" in data:
                p.unlink()
    return written


def read_sensitivity(reports_dir: str | os.PathLike, quick: bool) -> dict[str, str]:
    """claim id -> "caught k/n" from ``faults.json`` in ``reports_dir`` (written by ``countdp
    faults``) when it was made in the same mode (quick or full); {} otherwise."""
    try:
        data = json.loads((Path(reports_dir) / "faults.json").read_text(encoding="utf-8"))
        if bool(data["quick"]) != bool(quick):
            return {}
        return {cid: str(c["sensitivity"]) for cid, c in data["claims"].items()}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def previous_durations(reports_dir: str | os.PathLike) -> dict[str, float]:
    """Claim id -> seconds, and ``<script>:figures`` -> seconds of a script's figures (its
    seconds beyond its claims', when the report lists figures), from the script reports of an
    earlier run (empty if none)."""
    out: dict[str, float] = {}
    for p in sorted(Path(reports_dir).glob("*.json")):
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
            claims = data.get("claims", []) if isinstance(data, dict) else []
            for c in claims:
                out[str(c["id"])] = float(c.get("seconds") or 0.0)
            if isinstance(data, dict) and data.get("figures") and "script" in data:
                rest = float(data.get("seconds") or 0.0) - sum(float(c.get("seconds") or 0.0) for c in claims)
                out[f"{data['script']}:figures"] = max(0.0, rest)
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            continue
    return out


# --------------------------------------------------------------------------------------------
# Text for the terminal
# --------------------------------------------------------------------------------------------


def _short(text: Any, width: int) -> str:
    s = "-" if text is None or text == "" else " ".join(str(text).split())
    return s if len(s) <= width else s[: width - 3] + "..."


def format_table(run: Run, slack_width: int = 60) -> str:
    """The compact claim table printed by ``countdp reproduce``."""
    rows = []
    for name, r in run.results():
        with mpmath.workdps(run.settings.dps):
            worst = r.worst
        rows.append((r.id, STATUS_WORD.get(r.status, r.status.upper()), worst or "-",
                     _short(r.slack, slack_width)))
    order = {i: k for k, i in enumerate(CATALOGUE)}
    rows.sort(key=lambda t: (order.get(t[0], len(order)), t[0]))
    head = ("claim", "status", "worst gap / tol", "slack")
    w = [max(len(head[j]), *(len(r[j]) for r in rows)) if rows else len(head[j])
         for j in range(3)]
    lines = [f"{head[0]:<{w[0]}}  {head[1]:<{w[1]}}  {head[2]:<{w[2]}}  {head[3]}"]
    for r in rows:
        lines.append(f"{r[0]:<{w[0]}}  {r[1]:<{w[1]}}  {r[2]:<{w[2]}}  {r[3]}")
    missing = [i for i, st in run.statuses().items() if st == "missing"]
    if missing:
        lines.append("")
        lines.append(f"not yet checked ({len(missing)}): " + ", ".join(missing))
    c = run.counts()
    lines.append("")
    lines.append(f"{sum(c.values())} claims: {c['pass']} pass, {c['fail']} fail, "
                 f"{c['error']} error, {c['missing']} not yet checked  "
                 f"(wall time {run.seconds:.1f} s)")
    return "\n".join(lines)


def format_result(res: ClaimResult, settings: Settings | None = None,
                  script: str | None = None) -> str:
    """The readable block printed by ``countdp check``."""
    settings = settings or Settings()
    rj = result_json(res, settings)
    info = CATALOGUE.get(res.id)
    lines = [f"{res.id}  {res.paper}" + (f"   [paper_checks/{script}.py]" if script else "")]
    if info is not None:
        lines.append(f"  {info.statement}")
    lines.append(f"status     {STATUS_WORD.get(res.status, res.status.upper())}")
    if res.reason:
        lines.append(f"reason     {res.reason}")
    for k, route in enumerate(res.routes):
        lines.append(f"{'routes' if k == 0 else '':<10} {k + 1}. {route}")
    cases = rj.get("cases", [])
    if cases:
        n_ok = sum(1 for c in cases if c["ok"])
        lines.append(f"cases      {len(cases)} compared, {n_ok} hold")
        table = [("params", "lhs", "rel", "rhs", "tol", "ok")]
        for c in cases:
            params = " ".join(f"{k}={v}" for k, v in c["params"].items())
            table.append((params, str(c["lhs"]), c["relation"], str(c["rhs"]), str(c["tol"]),
                          "ok" if c["ok"] else "NO"))
        widths = [min(44, max(len(row[j]) for row in table)) for j in range(6)]
        for row in table:
            lines.append("  " + "  ".join(f"{row[j]:<{widths[j]}}" for j in range(5)) +
                         f"  {row[5]}")
    elif res.status != "missing":
        lines.append("cases      none")
    if res.controls:
        for k, c in enumerate(res.controls):
            state = "rejected" if c.rejected else "NOT rejected"
            detail = f" ({c.detail})" if c.detail else ""
            lines.append(f"{'control' if k == 0 else '':<10} {state}: {c.what}{detail}")
    elif res.status != "missing":
        lines.append("control    none")
    if res.slack:
        lines.append(f"slack      {res.slack}")
    if res.worst:
        lines.append(f"worst      {res.worst}  (largest |lhs - rhs| / tol over the == cases, and its "
                     "route; Monte Carlo routes apart)")
    if res.certified is not None:
        lines.append(f"certified  {_certified_text(res)}")
    for f in rj.get("findings", []):
        lines.append("finding    " + ", ".join(f"{k} = {v}" for k, v in f.items()))
    for n in res.notes:
        lines.append(f"note       {n}")
    if res.error:
        lines.append("traceback")
        lines += ["  " + ln for ln in res.error.rstrip().splitlines()]
    if res.status != "missing":
        lines.append(f"time       {res.seconds:.2f} s  (dps {settings.dps}, "
                     f"{'quick' if settings.quick else 'full'}, seed {settings.seed})")
    return "\n".join(lines)


__all__ = [
    "environment", "dumps", "write_atomic", "result_json", "script_json", "summary_json",
    "summary_md", "junit_xml", "write_reports", "previous_durations", "format_table",
    "format_result",
]
