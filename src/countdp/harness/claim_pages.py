"""``claims/<id>.md``: one page per claim -- the statement, the verdict and the kind of evidence,
the routes, the negative controls, the certificate, the steps the claim rests on, the faults,
findings, figures, notes and every case.  No timings (the pages are deterministic)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import mpmath

from .catalogue import CATALOGUE
from .digest import (PAGE_DIGITS, Figure, certified_text, claim_file, figures_of, finding_value, gap_text, is_bookkeeping,
                     md_table, result_json, round_number, round_numbers_in, run_figures, write_atomic)
from .results import ClaimResult, Run, ScriptRun, Settings, fmt

STATUS_WORD = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "missing": "not yet checked"}
#: how the pages and reports name each kind of evidence of a passing claim
EVIDENCE_WORD = {"proof": "proof", "certified instances": "certified instances",
                 "numerical": "numerical evidence", "conditional": "conditional"}


def evidence_text(res: ClaimResult) -> str:
    """The kind of evidence of a passing claim, in words ("conditional on (4a), ..." names the
    numerical or assumed steps; "theorem" when the claim's own steps are all proved or
    certified); empty for a claim that does not pass."""
    if res.status != "pass":
        return ""
    ev = res.evidence
    word = EVIDENCE_WORD[ev["kind"]]
    if ev["kind"] == "conditional":
        return f"{word} on " + ", ".join(ev["conditional_on"])
    if ev["kind"] == "proof" and res.steps:
        return "theorem: every step proved or certified"
    return word


#: the badge of each kind of evidence: (CSS class, word); "theorem" is a proof whose own steps are
#: all proved or certified
EVIDENCE_BADGE = {"proof": ("proof", "PROOF"), "theorem": ("proof", "theorem"),
                  "certified instances": ("instances", "certified instances"),
                  "numerical": ("numerical", "numerical evidence"),
                  "conditional": ("conditional", "conditional")}


def evidence_kind(res: ClaimResult) -> str:
    """The badge key of a passing claim (:data:`EVIDENCE_BADGE`; "theorem" for a proof resting on
    declared steps); "" for a claim that does not pass."""
    if res.status != "pass":
        return ""
    kind = res.evidence["kind"]
    return "theorem" if kind == "proof" and res.steps else kind


def evidence_badge(res: ClaimResult) -> str:
    """The badge's words: PROOF, theorem, certified instances, numerical evidence, or
    "conditional on <steps>"; "-" for a claim that does not pass."""
    kind = evidence_kind(res)
    if not kind:
        return "-"
    word = EVIDENCE_BADGE[kind][1]
    return f"{word} on " + ", ".join(res.evidence["conditional_on"]) if kind == "conditional" else word


def evidence_counts(run: Run) -> dict[str, int]:
    """How many passing claims of ``run`` have each kind of evidence (:data:`EVIDENCE_KINDS`
    order; "theorem" counted apart from "proof")."""
    counts = dict.fromkeys(EVIDENCE_BADGE, 0)
    for _, r in run.results():
        if r.status == "pass":
            counts[evidence_kind(r)] += 1
    return counts


def evidence_counts_text(counts: dict[str, int]) -> str:
    """"11 PROOF, 1 theorem, 41 certified instances, 9 numerical evidence, 0 conditional"."""
    return ", ".join(f"{counts[k]} {EVIDENCE_BADGE[k][1]}" for k in EVIDENCE_BADGE if k != "theorem" or counts[k])


def claim_page(res: ClaimResult, script: str, sr: ScriptRun | None, run: Run,
               figures: list[Figure], faults: dict | None, page_dir: Path) -> str:
    """The Markdown page of one claim."""
    rj = result_json(res, run.settings)
    cases = rj.get("cases", [])
    out = _head_lines(res, script, sr)
    out += ["## Routes compared", ""] + [f"{k}. {r}" for k, r in enumerate(res.routes, 1)] + [""]
    out += _verdict_lines(res, cases, faults)
    out += _control_lines(res)
    out += _certificate_lines(res)
    out += _step_lines(res)
    out += _fault_lines(faults)
    found = [f for f in rj.get("findings", []) if not is_bookkeeping(f)]
    coverage = [f for f in rj.get("findings", []) if is_bookkeeping(f)]
    if found:
        out += ["## Findings", ""] + _findings_md(found) + [""]
    if coverage:
        out += ["## Coverage of the routes", ""] + _findings_md(coverage) + [""]
    out += _figure_lines(figures, page_dir)
    if res.notes:
        out += ["## Notes", ""] + [f"- {n}" for n in res.notes] + [""]
    if res.error:
        out += ["## Traceback", "", "```"] + res.error.rstrip().splitlines() + ["```", ""]
    out += _case_lines(cases, script, run.settings.dps)
    return "\n".join(out)


def _head_lines(res: ClaimResult, script: str, sr: ScriptRun | None) -> list[str]:
    info = CATALOGUE.get(res.id)
    status = STATUS_WORD.get(res.status, res.status.upper())
    kind = evidence_kind(res)
    evidence = (f" \u00b7 evidence: **{evidence_badge(res)}**"
                + (" (every step proved or certified)" if kind == "theorem" else "")) if kind else ""
    where = f"`{sr.path}`" if sr else script
    out = [f"# `{res.id}`: {res.paper}", "",
           f"**{status}**{evidence} \u00b7 checked by {where}"
           + (f" ({sr.title})" if sr and sr.title else "")
           + f". [Summary](../SUMMARY.md) \u00b7 [in index.html](../index.html#claim-{res.id})", ""]
    if info is not None:
        out += [f"**Statement.** {info.statement}", ""]
    if res.reason:
        out += [f"**Reason.** {res.reason}", ""]
    return out


def _verdict_lines(res: ClaimResult, cases: list[dict], faults: dict | None) -> list[str]:
    out = ["## Verdict", "", f"- cases: {len(cases)} compared, {sum(1 for c in cases if c.get('ok'))} hold"]
    for mc, label in ((False, "deterministic routes"), (True, "Monte Carlo routes")):
        w = res.worst_gap(mc)
        if w is not None:
            with mpmath.workdps(20):
                ratio = round_number(fmt(w.ratio, 3), 3)
            out.append(f"- worst gap / tolerance, {label}: {ratio} ({w.route or 'no route named'}; "
                       f"over {w.cases} `==` cases)")
    if res.slack:
        out.append(f"- slack: {round_numbers_in(res.slack, PAGE_DIGITS)}")
    if faults:
        out.append(f"- sensitivity: {faults.get('sensitivity', '-')} (the fault catalogue)")
    return out + [""]


def _control_lines(res: ClaimResult) -> list[str]:
    out = ["## Negative control", ""]
    for c in res.controls:
        state = c.state if c.rejected else f"**{c.state}**"
        detail = f" -- {round_numbers_in(c.detail, PAGE_DIGITS)}" if c.detail else ""
        out.append(f"- {state}: {c.what}{detail}")
    if not res.controls:
        out.append("- none")
    return out + [""]


def _certificate_lines(res: ClaimResult) -> list[str]:
    out = ["## Certificate", ""]
    cert = res.certified
    if cert is None:
        return out + ["- not run", ""]
    out.append(f"- {certified_text(res)}")
    out += [f"  - {w}" for w in cert.get("what", []) or []]
    out += [f"  - undecided: {w}" for w in cert.get("undecided", []) or []]
    out += [f"  - **disproved**: {w}" for w in cert.get("disproved", []) or []]
    return out + [""]


def _step_lines(res: ClaimResult) -> list[str]:
    """The steps the claim rests on, each with what it rests on; a numerical or assumed step in
    bold (the claim is conditional on it)."""
    if not res.steps:
        return []
    out = ["## What the claim rests on", ""]
    for st in res.steps:
        kind = f"**{st.kind}**" if st.kind in ("numerical", "assumed") else st.kind
        out.append(f"- {st.name}: {kind}" + (f" -- {st.how}" if st.how else ""))
    return out + [""]


def _fault_lines(faults: dict | None) -> list[str]:
    if not (faults and faults.get("faults")):
        return []
    out = ["## Faults injected", ""]
    out += md_table(["fault", "kind", "caught", "by"],
                    [[f.get("name", ""), f.get("kind", ""), "yes" if f.get("caught") else
                      ("-" if f.get("how") == "uncatchable" else "**no**"), f.get("how", "")]
                     for f in faults["faults"]])
    return out + [""]


def _figure_lines(figures: list[Figure], page_dir: Path) -> list[str]:
    if not figures:
        return []
    out = ["## Figures", ""]
    for f in figures:
        rel = os.path.relpath(f.file, page_dir) if f.file.is_absolute() else f.shown
        out += [f"![{f.name}]({Path(rel).as_posix()})", "", f"*{f.name}*" + (f": {f.caption}" if f.caption else ""), ""]
    return out


def _case_lines(cases: list[dict], script: str, dps: int) -> list[str]:
    if not cases:
        return []
    rows = []
    for k, c in enumerate(cases, 1):
        params = ", ".join(f"{p}={round_number(v, 6)}" for p, v in c.get("params", {}).items())
        rows.append([str(k), c.get("route") or "-", params, round_number(c.get("lhs"), PAGE_DIGITS),
                     c.get("relation", ""), round_number(c.get("rhs"), PAGE_DIGITS),
                     round_number(c.get("tol"), 3), gap_text(c) or "-",
                     "ok" if c.get("ok") else "**NO**"])
    out = [f"## Cases ({len(cases)})", ""]
    out += md_table(["#", "route", "parameters", "lhs", "rel", "rhs", "tol", "gap/tol", "ok"], rows)
    return out + ["", f"Numbers rounded to {PAGE_DIGITS} digits; `{script}.json` has them at the "
                      f"working precision ({dps} digits).", ""]


def _findings_md(findings: list[dict]) -> list[str]:
    """Findings in full (rounded to 6 digits): grouped by their ``what``, which heads each group;
    the scalar values as a table (one row per finding), each list of rows as a table of its own."""
    out: list[str] = []
    groups: dict[str, list[dict]] = {}
    for f in findings:
        groups.setdefault(str(f.get("what", "")), []).append(f)
    for what, group in groups.items():
        if what:
            out += [f"**{what}**", ""]
        keys = list(dict.fromkeys(k for f in group for k in f if k != "what"))
        scalar = [k for k in keys if not any(isinstance(f.get(k), (list, dict)) for f in group)]
        if scalar:
            if len(group) == 1:
                out += [f"- {k} = {finding_value(group[0].get(k), 6)}" for k in scalar]
            else:
                out += md_table(scalar, [[finding_value(f.get(k), 6) if k in f else "" for k in scalar]
                                          for f in group])
            out.append("")
        for f in group:
            for k in keys:
                v = f.get(k)
                if k in scalar or v is None:
                    continue
                if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
                    cols = list(dict.fromkeys(c for x in v for c in x))
                    out += [f"{k}:", ""]
                    out += md_table(cols, [[finding_value(x.get(c), 6) for c in cols] for x in v])
                elif isinstance(v, dict):
                    out += md_table(list(v), [[finding_value(x, 6) for x in v.values()]])
                    out.insert(len(out) - 3, f"{k}:")
                    out.insert(len(out) - 3, "")
                else:
                    out.append(f"- {k}: " + (", ".join(round_number(x, 6) if not isinstance(x, (list, dict))
                                                       else json.dumps(x) for x in v) or "none"))
                out.append("")
    return out


def read_faults(reports_dir: str | os.PathLike, settings: Settings) -> dict[str, dict]:
    """claim id -> its entry of ``faults.json``, when the fault catalogue ran with the settings of
    this run (mode, digits, seed); {} otherwise (no fault data of this run to show)."""
    try:
        data = json.loads((Path(reports_dir) / "faults.json").read_text(encoding="utf-8"))
        if bool(data["quick"]) != bool(settings.quick) or data.get("dps", settings.dps) != settings.dps \
                or data.get("seed", settings.seed) != settings.seed:
            return {}
        return {str(k): v for k, v in data["claims"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def write_claim_pages(run: Run, reports_dir: str | os.PathLike) -> list[Path]:
    """claims/<id>.md for every claim of the run (pseudo ids included); on a full run (no
    ``--only``) the pages of claims no longer in the run are removed."""
    d = Path(reports_dir) / "claims"
    d.mkdir(parents=True, exist_ok=True)
    figs = run_figures(run)
    faults = read_faults(reports_dir, run.settings)
    by_name = {sr.name: sr for sr in run.scripts}
    written = []
    for name, r in run.results():
        sr = by_name.get(name)
        page = claim_page(r, name, sr, run, figures_of(figs, r.id, name), faults.get(r.id),
                          d.resolve())
        written.append(write_atomic(d / claim_file(r.id), page + "\n"))
    for i, st in run.statuses().items():
        if st == "missing":
            info = CATALOGUE[i]
            text = (f"# `{i}`: {info.paper}\n\n**not yet checked**: no script in paper_checks/ "
                    f"declares it. [Summary](../SUMMARY.md)\n\n**Statement.** {info.statement}\n")
            written.append(write_atomic(d / claim_file(i), text))
    if run.only_ids is None:
        keep = {p.name for p in written}
        for p in d.glob("*.md"):
            if p.name not in keep:
                p.unlink()
    return written


__all__ = ["STATUS_WORD", "EVIDENCE_WORD", "EVIDENCE_BADGE", "evidence_text", "evidence_kind", "evidence_badge",
           "evidence_counts", "evidence_counts_text", "claim_page", "read_faults", "write_claim_pages"]
