"""Report writers for a :class:`countdp.harness.results.Run`, and the text renderings of results.

Files (in the reports directory, each written atomically):

* ``<script>.json``  -- one per check script: script, title, seconds, environment, claims
  (``ClaimResult.to_json()`` each, in source order), figures;
* ``summary.json``   -- environment, quick, claims {id: status}, counts, scripts {script:
  seconds}, seconds (total wall time);
* ``SUMMARY.md``     -- what a reviewer reads first: one short row per claim, one table per
  catalogue section, the evidence counts, findings as short tables, failures, scripts, environment (commit, dirty flag);
* ``claims/<id>.md`` -- one page per claim: statement, routes, verdict, negative control,
  certificate, faults, findings, figures, every case with its route;
* ``index.html``     -- the whole run on one self-contained page (figures embedded, no network):
  the claim table sortable and filterable, each claim expandable (:mod:`.html`);
* ``junit.xml``      -- one testsuite per script, one testcase per claim, for CI.

Output is deterministic: two runs of the same code give identical files apart from the
``seconds`` / ``time`` fields (and the wall-time line of SUMMARY.md and index.html).  No
timestamps are written anywhere.
"""

from __future__ import annotations

import json
import os
import re
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import mpmath

from . import catalogue
from .catalogue import CATALOGUE, SECTION_TITLES
from .digest import (SUMMARY_DIGITS, certified_short, certified_text, claim_file, dumps, finding_tables,
                     environment, md_cell, png_text, reports_being_written, result_json, round_number,
                     round_numbers_in, run_figures, script_json, sensitivity_short, shorten, summary_json, md_table,
                     worst_short, write_atomic)
from .claim_pages import (STATUS_WORD, evidence_badge, evidence_counts, evidence_counts_text, evidence_kind,
                          evidence_text, read_faults, write_claim_pages)
from .results import ClaimResult, Run, Settings

SECTION_ORDER = (catalogue.PAPER, catalogue.COMPANION, catalogue.BEYOND)


# --------------------------------------------------------------------------------------------
# SUMMARY.md: one short row per claim
# --------------------------------------------------------------------------------------------



def _last_line(text: str | None) -> str:
    lines = [ln for ln in (text or "").strip().splitlines() if ln.strip()]
    return lines[-1].strip() if lines else ""


def _case_text(case: dict, digits: int | None = None) -> str:
    r = (lambda v: round_number(v, digits)) if digits else (lambda v: v)
    params = ", ".join(f"{k}={r(v)}" for k, v in case.get("params", {}).items())
    route = f" [{case['route']}]" if case.get("route") else ""
    return (f"{params}: {r(case.get('lhs'))} {case.get('relation')} {r(case.get('rhs'))} "
            f"(tol {r(case.get('tol'))}){route}")


#: widths of the shortened cells of SUMMARY.md
_SLACK_WIDTH = 64


def summary_md(run: Run, sensitivity: dict[str, str] | None = None) -> str:
    """SUMMARY.md: the header (counts, mode, commit), one short table per catalogue section
    (one row per claim, linking to claims/<id>.md), findings as short tables, the claims not yet
    checked, the failures and errors, the scripts, the environment.  ``sensitivity`` maps claim
    ids to the fault catalogue's "caught k/n" (from ``faults.json``, same mode)."""
    by_id: dict[str, list[tuple[str, ClaimResult]]] = {}
    for name, r in run.results():
        by_id.setdefault(r.id, []).append((name, r))
    out = _summary_header(run, sensitivity or {})
    statuses = run.statuses()
    for section in SECTION_ORDER:
        ids = [i for i, c in CATALOGUE.items() if c.section == section and i in statuses]
        if ids:
            out += _summary_section(run, section, ids, by_id, statuses, sensitivity or {})
    pseudo = [i for i in statuses if i not in CATALOGUE]
    if pseudo:
        out += _summary_section(run, None, pseudo, by_id, statuses, sensitivity or {})
    out += _summary_findings(run, by_id)
    out += _summary_figures(run)
    out += _summary_failures(run)
    out += _summary_scripts(run)
    return "\n".join(out)


def _commit_text(env: dict) -> str:
    commit = str(env.get("commit", "unknown"))
    base = commit.removesuffix("-dirty")
    if base == "unknown":
        return "commit unknown"
    return f"commit `{base}`" + (" with uncommitted changes (dirty)" if env.get("dirty") else " (clean)")


def _summary_header(run: Run, sensitivity: dict) -> list[str]:
    s, counts = run.settings, run.counts()
    env = environment(s)
    scope = "" if run.only_ids is None else f" (only: {', '.join(run.only_ids) or 'none'})"
    out = ["# countdp: claim-by-claim verification", ""]
    out += textwrap.wrap(
        f"**{counts['pass']} pass, {counts['fail']} fail, {counts['error']} error, "
        f"{counts['missing']} not yet checked**{scope}: {'quick' if s.quick else 'full'} "
        f"mode, {s.dps} digits, seed {s.seed}{'' if s.certify else ', certification off'}, "
        f"countdp {env['countdp']}, {_commit_text(env)}.", 100, break_on_hyphens=False)
    out.append("")
    out.append(f"**Evidence of the passing claims: {evidence_counts_text(evidence_counts(run))}.**")
    if sensitivity:
        caught = [re.search(r"(\d+)/(\d+)", t) for t in sensitivity.values()]
        k = sum(int(m.group(1)) for m in caught if m)
        n = sum(int(m.group(2)) for m in caught if m)
        out.append(f"Fault catalogue: {k} of {n} catchable faults caught (`countdp faults`).")
    out.append("")
    out += textwrap.wrap(
        "Each claim in full (statement, routes, every case, the negative control, the certificate, "
        "what it rests on, coverage, its figures): `claims/<id>.md`, linked from the id. The whole "
        "run on one page: `index.html` (`index.html#claim-<id>` opens one claim).", 100)
    out.append("")
    out += textwrap.wrap(
        "*evidence*: **PROOF** (the ball-arithmetic certificates prove the statement itself), "
        "**theorem** (a proof whose every step is proved or certified), *certified instances* "
        "(every record decided, at the instances checked), *numerical evidence* (no certificate), "
        "*conditional on* a step (a step is only numerical or assumed). *routes*: independent "
        "computations compared. *worst gap / tol*: the largest \\|lhs - rhs\\| / tolerance over "
        "the `==` cases, with its route; Monte Carlo routes apart (MC); above 1 would fail. "
        "*slack*: how far an inequality is from equality. *Arb records*: certificate records "
        "decided true / made."
        + (" *sens.*: faults of the catalogue caught." if sensitivity else ""), 100,
        break_on_hyphens=False)
    out.append("")
    return out


def _evidence_md(r: ClaimResult) -> str:
    """The evidence badge of a row: bold for a proof, italic for numerical or conditional."""
    kind, word = evidence_kind(r), evidence_badge(r)
    if kind in ("proof", "theorem"):
        return f"**{word}**"
    return f"*{word}*" if kind in ("numerical", "conditional") else word


def _summary_section(run: Run, section: str | None, ids: list[str], by_id: dict,
                     statuses: dict, sensitivity: dict) -> list[str]:
    s = run.settings
    title = SECTION_TITLES[section] if section else "Scripts that did not run"
    out = [f"## {title}", ""]
    checked = [i for i in ids if i in by_id]
    if checked:
        sens = ["sens."] if sensitivity else []
        out += md_table(["claim", "paper", "status", "evidence", "routes", "worst gap / tol", "slack",
                         *sens, "Arb records"], [])
        for i in checked:
            for name, r in by_id[i]:
                with mpmath.workdps(s.dps):
                    worst = worst_short(r)
                cells = [f"[`{i}`](claims/{claim_file(i)})", md_cell(r.paper),
                         STATUS_WORD.get(r.status, r.status.upper()), md_cell(_evidence_md(r)),
                         str(len(r.routes)), md_cell(worst),
                         md_cell(shorten(round_numbers_in(r.slack or "-"), _SLACK_WIDTH))]
                cells += [sensitivity_short(sensitivity.get(i))] if sensitivity else []
                out.append("| " + " | ".join(cells + [certified_short(r.certified)]) + " |")
        out.append("")
    missing = [i for i in ids if statuses[i] == "missing"]
    if missing:
        out += ["Not yet checked:", ""]
        for i in missing:
            out.append(f"- `{i}` ({CATALOGUE[i].paper}): {CATALOGUE[i].statement}")
        out.append("")
    return out


def _summary_findings(run: Run, by_id: dict) -> list[str]:
    """Findings of every claim as short tables (numbers rounded, the first rows of each; the
    coverage records and every row are on the claim's page)."""
    lines = []
    for i in run.statuses():
        for _, r in by_id.get(i, []):
            tables = finding_tables(result_json(r, run.settings).get("findings", []))
            if not tables:
                continue
            lines += [f"### [`{i}`](claims/{claim_file(i)})", ""]
            for t in tables:
                if t.title:
                    lines += [md_cell(t.title), ""]
                lines += md_table(list(t.head), [list(row) for row in t.rows])
                if t.more:
                    lines.append(f"\n... and {t.more} more rows on the claim's page.")
                lines.append("")
    if not lines:
        return []
    return ["## Findings", ""] + textwrap.wrap(
        f"Numbers the checks report beyond the verdict, rounded to {SUMMARY_DIGITS} significant "
        "digits (privacy parameters, counts and ratios are dimensionless); each "
        "table shows its first rows. Every value, and the coverage of each route, is on the "
        "claim's page.", 100) + [""] + lines


def _summary_figures(run: Run) -> list[str]:
    """Every figure of the run with its caption and the claims it belongs to."""
    figs = run_figures(run)
    if not figs:
        return []
    out = ["## Figures", ""]
    for f in figs:
        claims = ", ".join(f"[`{c}`](claims/{claim_file(c)})" for c in f.claims) or f"the claims of {f.script}"
        out.append(f"- **{f.name}** (`{f.shown}`): {md_cell(f.caption or 'no caption')}. Belongs to {claims}.")
    return out + [""]


def _summary_failures(run: Run) -> list[str]:
    bad = [(name, r) for name, r in run.results() if r.status != "pass"]
    if not bad:
        return []
    out = ["## Failures and errors", ""]
    for name, r in bad:
        rj = result_json(r, run.settings)
        out.append(f"- [`{r.id}`](claims/{claim_file(r.id)}) ({name}): "
                   f"**{STATUS_WORD.get(r.status, r.status)}** -- "
                   f"{md_cell(shorten(r.reason or 'no reason given', 200))}")
        if r.status == "error":
            out.append(f"  - last traceback line: `{shorten(_last_line(r.error), 200) or '-'}`")
        failed = [c for c in rj.get("cases", []) if not c.get("ok")]
        for c in failed[:3]:
            out.append(f"  - case not holding: {md_cell(shorten(_case_text(c, 6), 240))}")
        if len(failed) > 3:
            out.append(f"  - ... and {len(failed) - 3} more cases (see the claim's page)")
        for c in r.controls:
            if not c.rejected:
                out.append(f"  - control {c.state}: {md_cell(shorten(c.what, 120))} -- "
                           f"{md_cell(shorten(round_numbers_in(c.detail or ''), 120))}")
    out.append("")
    return out


def _summary_scripts(run: Run) -> list[str]:
    out = ["## Scripts", "", "| script | claims | status | seconds | figures |",
           "|---|---|---|---|---|"]
    for sr in run.scripts:
        figs = "-" if not sr.figures else ", ".join(Path(f).stem for f in sr.figures)
        out.append("| " + " | ".join(md_cell(x) for x in [
            sr.path, len(sr.results), STATUS_WORD.get(sr.status, sr.status),
            f"{sr.seconds:.1f}", figs]) + " |")
    out.append("")
    env = environment(run.settings)
    out += ["## Environment", ""]
    out.append(f"- {_commit_text(env)}; countdp {env['countdp']}")
    out.append(f"- Python {env['python']} on {env['platform']}")
    out.append("- " + ", ".join(f"{k} {env[k]}" for k in ("numpy", "scipy", "mpmath",
                                                           "matplotlib", "flint")))
    out.append(f"- mode {'quick' if env['quick'] else 'full'}, dps {env['dps']}, seed {env['seed']}, "
               f"certify {env['certify']}")
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
            lines.append(f"control {c.state}: {c.what} -- {c.detail or ''}")
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
    with reports_being_written():
        written = []
        for sr in run.scripts:
            written.append(write_atomic(d / f"{sr.name}.json", dumps(script_json(sr, run))))
        written.append(write_atomic(d / "summary.json", dumps(summary_json(run))))
        sensitivity = read_sensitivity(d, run.settings)
        written.append(write_atomic(d / "SUMMARY.md", summary_md(run, sensitivity)))
        written.append(write_atomic(d / "junit.xml", junit_xml(run)))
        write_claim_pages(run, d)
        from .html import index_html

        written.append(write_atomic(d / "index.html", index_html(run, sensitivity,
                                                                 read_faults(d, run.settings))))
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


def read_sensitivity(reports_dir: str | os.PathLike, settings: Settings) -> dict[str, str]:
    """claim id -> "caught k/n" from ``faults.json`` in ``reports_dir`` (written by ``countdp
    faults``) when it ran with this run's settings (:func:`read_faults`); {} otherwise."""
    return {cid: str(c["sensitivity"]) for cid, c in read_faults(reports_dir, settings).items()
            if isinstance(c, dict) and "sensitivity" in c}


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
    """The compact claim table printed by ``countdp reproduce``: status, kind of evidence, worst
    gap / tol and slack per claim, then the counts by status and by kind of evidence."""
    rows = []
    for name, r in run.results():
        with mpmath.workdps(run.settings.dps):
            worst = r.worst
        rows.append((r.id, STATUS_WORD.get(r.status, r.status.upper()), evidence_badge(r), worst or "-",
                     _short(r.slack, slack_width)))
    order = {i: k for k, i in enumerate(CATALOGUE)}
    rows.sort(key=lambda t: (order.get(t[0], len(order)), t[0]))
    head = ("claim", "status", "evidence", "worst gap / tol", "slack")
    w = [max(len(head[j]), *(len(r[j]) for r in rows)) if rows else len(head[j])
         for j in range(4)]
    lines = ["  ".join(f"{t[j]:<{w[j]}}" for j in range(4)) + f"  {t[4]}" for t in (head, *rows)]
    missing = [i for i, st in run.statuses().items() if st == "missing"]
    if missing:
        lines.append("")
        lines.append(f"not yet checked ({len(missing)}): " + ", ".join(missing))
    c = run.counts()
    lines.append("")
    lines.append(f"{sum(c.values())} claims: {c['pass']} pass, {c['fail']} fail, "
                 f"{c['error']} error, {c['missing']} not yet checked  "
                 f"(wall time {run.seconds:.1f} s)")
    lines.append(f"evidence of the passing claims: {evidence_counts_text(evidence_counts(run))}")
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
    if evidence_text(res):
        lines.append(f"evidence   {evidence_text(res)}")
    for k, st in enumerate(res.steps):
        lines.append(f"{'rests on' if k == 0 else '':<10} {st.name}: {st.kind}" + (f" ({st.how})" if st.how else ""))
    if res.reason:
        lines.append(f"reason     {res.reason}")
    for k, route in enumerate(res.routes):
        lines.append(f"{'routes' if k == 0 else '':<10} {k + 1}. {route}")
    cases = rj.get("cases", [])
    if cases:
        n_ok = sum(1 for c in cases if c["ok"])
        lines.append(f"cases      {len(cases)} compared, {n_ok} hold")
        table = [("params", "lhs", "rel", "rhs", "tol", "ok", "route")]
        for c in cases:
            params = " ".join(f"{k}={v}" for k, v in c["params"].items())
            table.append((params, str(c["lhs"]), c["relation"], str(c["rhs"]), str(c["tol"]),
                          "ok" if c["ok"] else "NO", c.get("route") or "-"))
        widths = [min(44, max(len(row[j]) for row in table)) for j in range(6)]
        for row in table:
            lines.append("  " + "  ".join(f"{row[j]:<{widths[j]}}" for j in range(6)) +
                         f"  {row[6]}")
    elif res.status != "missing":
        lines.append("cases      none")
    if res.controls:
        for k, c in enumerate(res.controls):
            detail = f" ({c.detail})" if c.detail else ""
            lines.append(f"{'control' if k == 0 else '':<10} {c.state}: {c.what}{detail}")
    elif res.status != "missing":
        lines.append("control    none")
    if res.slack:
        lines.append(f"slack      {res.slack}")
    if res.worst:
        lines.append(f"worst      {res.worst}  (largest |lhs - rhs| / tol over the == cases, and its "
                     "route; Monte Carlo routes apart)")
    if res.certified is not None:
        lines.append(f"certified  {certified_text(res)}")
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
    "summary_md", "write_claim_pages", "junit_xml", "write_reports",
    "previous_durations", "format_table", "format_result", "read_sensitivity", "read_faults",
    "round_number", "round_numbers_in", "finding_tables", "png_text", "run_figures",
]
