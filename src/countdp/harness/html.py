"""``reports/index.html``: the whole run on one self-contained page.

One file, no network: the style and the script are inline and the figures are embedded as
base64 of their (deterministic) PNG files.  The claim table is sortable (click a column head)
and filterable (status, kind of evidence, section, free text), with each claim's kind of evidence
as a badge and the counts by kind at the top; each claim expands to its statement, evidence and
the steps it rests on, routes, verdict, negative control, certificate, faults, findings (short
tables), figures with their captions and cases (the first
:data:`MAX_CASES` of them, failing ones first; every case is in ``claims/<id>.md`` and
``<script>.json``).  ``index.html#claim-<id>`` opens one claim expanded, ``#fig-<name>`` shows a
figure.  The page holds no timestamp; its only timing is the run's wall time in
one ``<span class="seconds">``.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any

import mpmath

from . import digest
from .catalogue import CATALOGUE
from .claim_pages import EVIDENCE_BADGE, evidence_badge, evidence_counts, evidence_kind
from .results import ClaimResult, Run, ScriptRun, fmt

#: the most cases shown per claim in the page
MAX_CASES = 500
STATUS_RANK = {"error": 0, "fail": 1, "missing": 2, "pass": 3}
_GROUP = {"paper": "Main paper", "companion": "Companion paper", "beyond": "Beyond the paper"}


def _e(x: Any) -> str:
    return html.escape("" if x is None else str(x), quote=True)


def _sort_number(x) -> str:
    """A data attribute for numeric sorting ("" when there is none)."""
    if x is None:
        return ""
    try:
        with mpmath.workdps(20):
            v = mpmath.mpf(x)
        return "" if mpmath.isnan(v) else mpmath.nstr(v, 8)
    except (ValueError, TypeError):
        return ""


def _claim_bodies(run: Run, figs, sensitivity: dict, faults: dict) -> tuple[list[str], list[str]]:
    """The expandable table body of every claim, in catalogue order (claims without a check
    last), and the sections present, in order of first appearance."""
    by_name = {sr.name: sr for sr in run.scripts}
    order = {cid: k for k, cid in enumerate(CATALOGUE)}
    bodies = []
    sections: list[str] = []
    k = 0
    for name, r in sorted(run.results(), key=lambda t: (order.get(t[1].id, len(order)), t[1].id)):
        sr = by_name.get(name)
        sec = digest.section_label(sr.title if sr else None, name)
        if r.id in CATALOGUE and CATALOGUE[r.id].section != "paper":
            sec = _GROUP[CATALOGUE[r.id].section]
        sections.append(sec)
        k += 1
        bodies.append(_claim_body(k, r, name, sr, sec, run, digest.figures_of(figs, r.id, name),
                                  sensitivity.get(r.id, "") if sensitivity else None, faults.get(r.id)))
    for cid, st in run.statuses().items():
        if st == "missing":
            k += 1
            sec = _GROUP[CATALOGUE[cid].section]
            sections.append(sec)
            bodies.append(_missing_body(k, cid, sec, bool(sensitivity)))
    return bodies, list(dict.fromkeys(sections))


def index_html(run: Run, sensitivity: dict[str, str] | None = None,
               faults: dict[str, dict] | None = None) -> str:
    """The page for ``run`` (``sensitivity``: claim id -> "caught k/n"; ``faults``: claim id ->
    its entry of faults.json)."""

    sensitivity, faults = sensitivity or {}, faults or {}
    s = run.settings
    env = digest.environment(s)
    counts = run.counts()
    figs = digest.run_figures(run)
    bodies, sections = _claim_bodies(run, figs, sensitivity, faults)
    statuses_present = [w for w in ("PASS", "FAIL", "ERROR", "not yet checked")
                        if any(_status_word(st) == w for st in run.statuses().values())]
    ths = _column_heads(bool(sensitivity))
    commit = str(env.get("commit", "unknown")).removesuffix("-dirty")
    dirty = "with uncommitted changes: dirty" if env.get("dirty") else "clean working tree"
    pills = _status_pills(counts)
    ev = evidence_counts(run)
    ev_pills = _evidence_pills(ev)
    caught = _faults_caught(sensitivity)
    env_rows = "".join(f"<tr><th>{_e(key)}</th><td>{_e(v)}</td></tr>" for key, v in env.items())
    fig_html = "".join(_figure(f) for f in figs) or '<p class="note">No figures in this run ' \
        "(made by <code>countdp reproduce</code> without <code>--no-figures</code>).</p>"
    opts_status = "".join(f'<option value="{_e(w)}">{_e(w)}</option>' for w in statuses_present)
    opts_evidence = "".join(f'<option value="{_e(w)}">{_e(w)}</option>' for w in dict.fromkeys(
        EVIDENCE_BADGE[k][1] for k in EVIDENCE_BADGE if ev[k]))
    opts_section = "".join(f'<option value="{_e(x)}">{_e(x)}</option>' for x in sections)
    scope = "" if run.only_ids is None else f" (only: {', '.join(run.only_ids) or 'none'})"
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>countdp: claim-by-claim verification</title>
<style>{_CSS}</style>
</head>
<body>
<header>
<h1>countdp: claim-by-claim verification</h1>
<p class="counts">{pills}{_e(scope)}</p>
<p class="counts">evidence of the passing claims: {ev_pills}</p>
<p>{'quick' if s.quick else 'full'} mode, {s.dps} digits, seed {s.seed}{'' if s.certify else ', certification off'};
countdp {_e(env['countdp'])}, commit <code>{_e(commit)}</code> ({dirty});
wall time <span class="seconds">{run.seconds:.1f} s</span>.{caught}</p>
{_help_text(bool(sensitivity))}
</header>
<nav class="controls" aria-label="filters">
<label>status <select id="f-status"><option value="">all</option>{opts_status}</select></label>
<label>evidence <select id="f-evidence"><option value="">all</option>{opts_evidence}</select></label>
<label>section <select id="f-section"><option value="">all</option>{opts_section}</select></label>
<label>search <input id="f-text" type="search" placeholder="id, paper label, route"></label>
<button type="button" id="expand-all">expand all</button>
<button type="button" id="collapse-all">collapse all</button>
<span id="shown" aria-live="polite"></span>
</nav>
<main>
<table id="claims">
<thead><tr>{ths}</tr></thead>
{"".join(bodies)}
</table>
<section id="figures">
<h2>Figures</h2>
<div class="grid">{fig_html}</div>
</section>
<section id="environment">
<h2>Environment</h2>
<table class="env">{env_rows}</table>
</section>
</main>
<script>{_JS}</script>
</body>
</html>
"""


def _help_text(sens: bool) -> str:
    """How to read the page: expanding, sorting, deep links, the columns."""
    sens = " <em>sens.</em>: faults of the catalogue caught (same mode)." if sens else ""
    return f"""<p class="note">Click a claim to expand it (statement, routes, verdict, negative control, certificate,
what it rests on, findings, figures, cases); click a column head to sort. A link to one claim:
<code>index.html#claim-&lt;id&gt;</code> (e.g. <a href="#claim-cstar.value"><code>#claim-cstar.value</code></a>)
opens it expanded; <code>#fig-&lt;name&gt;</code> shows a figure. <em>evidence</em>: PROOF when the
ball-arithmetic certificates prove the statement itself; theorem when every step it rests on is proved
or certified; certified instances when every record is decided at the instances checked; numerical
evidence without a certificate; conditional on the steps that are only numerical or assumed.
<em>worst gap / tol</em>: the largest |lhs &minus; rhs| / tolerance over the claim's <code>==</code>
cases, with its route, Monte Carlo routes (MC) apart; above 1 would fail. <em>Arb records</em>:
certificate records decided true / made.{sens}</p>"""


def _status_pills(counts: dict[str, int]) -> str:
    return "".join(f'<span class="pill {cls}">{counts[key]} {word}</span>' for key, cls, word in (
        ("pass", "pass", "pass"), ("fail", "fail", "fail"), ("error", "error", "error"),
        ("missing", "missing", "not yet checked")))


def _evidence_pills(ev: dict[str, int]) -> str:
    """The count of each kind of evidence as its badge ("theorem" only when there is one)."""
    return "".join(f'<span class="ev {EVIDENCE_BADGE[key][0]}">{ev[key]} {_e(EVIDENCE_BADGE[key][1])}</span>'
                   for key in EVIDENCE_BADGE if key != "theorem" or ev[key])


def _column_heads(sens: bool) -> str:
    """The sortable column heads of the claims table (``sens.`` only with fault data)."""
    head = ["#", "claim", "paper", "section", "status", "evidence", "routes", "worst gap / tol", "slack",
            *(["sens."] if sens else []), "Arb records"]
    keys = ["order", "id", "paper", "section", "rank", "evidence", "routes", "worst", "slack",
            *(["sens"] if sens else []), "cert"]
    numeric = {"order", "rank", "routes", "worst"}
    return "".join(f'<th data-key="{key}" data-type="{"num" if key in numeric else "text"}" '
                   f'tabindex="0" title="sort by {_e(h)}">{_e(h)}</th>' for h, key in zip(head, keys))


def _columns(sens: bool) -> int:
    return 11 if sens else 10


def _faults_caught(sensitivity: dict[str, str]) -> str:
    """The fault catalogue's total "k of n caught", from the per-claim "caught k/n"."""
    if not sensitivity:
        return ""
    import re

    ms = [re.search(r"(\d+)/(\d+)", t) for t in sensitivity.values()]
    return (f' <span class="note">Fault catalogue: {sum(int(m.group(1)) for m in ms if m)} '
            f'of {sum(int(m.group(2)) for m in ms if m)} catchable faults caught.</span>')


def _status_word(status: str) -> str:
    return {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "missing": "not yet checked"}.get(
        status, status.upper())


def _figure(f) -> str:
    wide = False
    try:
        raw = Path(f.file).read_bytes()
        data = base64.b64encode(raw).decode("ascii")
        img = (f'<img src="data:image/png;base64,{data}" alt="{_e(f.name)}" loading="eager">')
        if raw[12:16] == b"IHDR":  # a two-panel figure spans both columns of the grid
            wide = int.from_bytes(raw[16:20], "big") > 1.8 * int.from_bytes(raw[20:24], "big")
    except OSError:
        img = f'<p class="missing-figure">figure file missing: {_e(f.shown)}</p>'
    claims = ", ".join(f'<a href="#claim-{_e(c)}">{_e(c)}</a>' for c in f.claims) or \
        f"the claims of {_e(f.script)}"
    return (f'<figure id="fig-{_e(f.name)}" class="fig{" wide" if wide else ""}">{img}<figcaption><b>{_e(f.name)}</b>'
            f'{": " + _e(f.caption) if f.caption else ""}<br><span class="note">belongs to '
            f"{claims}</span></figcaption></figure>")


def _missing_body(k: int, cid: str, sec: str, sens_col: bool) -> str:
    info = CATALOGUE[cid]
    search = f"{cid} {info.paper} {info.statement}".lower()
    row = (f'<tr class="row" tabindex="0" aria-expanded="false"><td>{k}</td>'
           f'<td class="id"><span class="tw">\u25b8</span> <code>{_e(cid)}</code></td>'
           f"<td>{_e(info.paper)}</td><td>{_e(sec)}</td>"
           f'<td><span class="st missing">not yet checked</span></td>' + "<td></td>" * (_columns(sens_col) - 5)
           + "</tr>")
    detail = (f'<tr class="detail" hidden><td colspan="{_columns(sens_col)}"><p><b>Statement.</b> '
              f"{_e(info.statement)}</p><p>No script in paper_checks/ declares this claim.</p></td></tr>")
    return (f'<tbody class="claim" id="claim-{_e(cid)}" data-id="{_e(cid)}" data-status="not yet checked" '
            f'data-rank="2" data-order="{k}" data-paper="{_e(info.paper)}" data-section="{_e(sec)}" '
            f'data-evidence="" data-routes="" data-worst="" data-slack="" data-sens="" data-cert="" '
            f'data-search="{_e(search)}">{row}{detail}</tbody>\n')


def _claim_body(k: int, r: ClaimResult, name: str, sr: ScriptRun | None, sec: str, run: Run,
                figs: list, sens: str | None, faults: dict | None) -> str:
    """The row of one claim and its hidden detail; ``sens`` is None when the run has no fault
    data (no ``sens.`` column)."""
    s = run.settings
    with mpmath.workdps(s.dps):
        worst = digest.worst_short(r)
        w = r.worst_gap(False) or r.worst_gap(True)
        worst_num = _sort_number(fmt(w.ratio, 6)) if w is not None else ""
    status = _status_word(r.status)
    sens_short = digest.sensitivity_short(sens)
    cert = digest.certified_short(r.certified)
    badge, kind = evidence_badge(r), evidence_kind(r)
    ev_class = EVIDENCE_BADGE[kind][0] if kind else "none"
    slack = digest.round_numbers_in(r.slack or "", digest.SUMMARY_DIGITS)
    search = " ".join([r.id, r.paper, name, sec, badge, *r.routes]).lower()
    sens_cell = f"<td>{_e(sens_short)}</td>" if sens is not None else ""
    row = (f'<tr class="row" tabindex="0" aria-expanded="false"><td>{k}</td>'
           f'<td class="id"><span class="tw">\u25b8</span> <code>{_e(r.id)}</code></td>'
           f"<td>{_e(r.paper)}</td><td>{_e(sec)}</td>"
           f'<td><span class="st {_e(r.status)}">{_e(status)}</span></td>'
           f'<td><span class="ev {ev_class}">{_e(badge)}</span></td>'
           f'<td class="num">{len(r.routes)}</td><td>{_e(worst)}</td>'
           f'<td class="slack">{_e(digest.shorten(slack, 90))}</td>{sens_cell}'
           f'<td class="cert">{_e(cert)}</td></tr>')
    detail = _detail(r, name, sr, run, figs, sens, faults)
    ev_word = EVIDENCE_BADGE[kind][1] if kind else ""
    return (f'<tbody class="claim" id="claim-{_e(r.id)}" data-id="{_e(r.id)}" data-status="{_e(status)}" '
            f'data-rank="{STATUS_RANK.get(r.status, 0)}" data-order="{k}" data-paper="{_e(r.paper)}" '
            f'data-section="{_e(sec)}" data-evidence="{_e(ev_word)}" data-routes="{len(r.routes)}" '
            f'data-worst="{worst_num}" data-slack="{_e(slack[:60])}" data-sens="{_e(sens_short)}" '
            f'data-cert="{_e(cert)}" data-search="{_e(search)}">{row}'
            f'<tr class="detail" hidden><td colspan="{_columns(sens is not None)}">{detail}</td></tr></tbody>\n')


def _detail(r: ClaimResult, name: str, sr: ScriptRun | None, run: Run, figs: list,
            sens: str | None, faults: dict | None) -> str:

    s = run.settings
    rj = digest.result_json(r, s)
    info = CATALOGUE.get(r.id)
    out = []
    where = sr.path if sr else name
    out.append(f'<p class="where">checked by <code>{_e(where)}</code>'
               f'{" (" + _e(sr.title) + ")" if sr and sr.title else ""}; '
               f"every case: <code>claims/{_e(digest.claim_file(r.id))}</code>, "
               f"<code>{_e(name)}.json</code></p>")
    if info is not None:
        out.append(f"<p><b>Statement.</b> {_e(info.statement)}</p>")
    if r.reason:
        out.append(f"<p><b>Reason.</b> {_e(r.reason)}</p>")
    out.append(_evidence_html(r))
    out.append("<h4>Routes compared</h4><ol>" + "".join(f"<li>{_e(x)}</li>" for x in r.routes) + "</ol>")
    cases = rj.get("cases", [])
    n_ok = sum(1 for c in cases if c.get("ok"))
    verdict = [f"{len(cases)} case{'s' * (len(cases) != 1)} compared, {n_ok} hold{'s' * (n_ok == 1)}"]
    for mc, label in ((False, "deterministic routes"), (True, "Monte Carlo routes")):
        w = r.worst_gap(mc)
        if w is not None:
            with mpmath.workdps(20):
                ratio = digest.round_number(fmt(w.ratio, 3), 3)
            verdict.append(f"worst gap / tolerance, {label}: {ratio} "
                           f"({w.route or 'no route named'}; {w.cases} == cases)")
    if r.slack:
        verdict.append("slack: " + digest.round_numbers_in(r.slack, digest.PAGE_DIGITS))
    if sens:
        verdict.append(f"sensitivity: {sens} (the fault catalogue)")
    out.append("<h4>Verdict</h4><ul>" + "".join(f"<li>{_e(v)}</li>" for v in verdict) + "</ul>")
    ctl = [f'<li class="{"ok" if c.rejected else "bad"}">{c.state}: '
           f"{_e(c.what)}" + (f' <span class="note">{_e(digest.round_numbers_in(c.detail, 8))}</span>'
                              if c.detail else "") + "</li>" for c in r.controls]
    out.append('<h4>Negative control</h4><ul class="control">' + ("".join(ctl) or "<li>none</li>") + "</ul>")
    cert = r.certified
    if cert is not None:
        items = [f"<li>{_e(x)}</li>" for x in cert.get("what", []) or []]
        items += [f"<li>undecided: {_e(x)}</li>" for x in cert.get("undecided", []) or []]
        items += [f'<li class="bad">disproved: {_e(x)}</li>' for x in cert.get("disproved", []) or []]
        out.append(f'<h4>Certificate</h4><p class="cert">{_e(digest.certified_text(r))}</p>'
                   + (f'<ul class="cert">{"".join(items)}</ul>' if items else ""))
    if faults and faults.get("faults"):
        rows = "".join(f"<tr><td>{_e(f.get('name'))}</td><td>{_e(f.get('kind'))}</td>"
                       f"<td>{_e(f.get('how'))}</td></tr>" for f in faults["faults"])
        out.append(f"<h4>Faults injected ({_e(faults.get('sensitivity'))})</h4>"
                   f'<table class="small"><tr><th>fault</th><th>kind</th><th>caught by</th></tr>{rows}</table>')
    tables = digest.finding_tables(rj.get("findings", []), 6)
    if tables:
        out.append("<h4>Findings</h4>" + "".join(_finding_table(t) for t in tables))
    if figs:
        out.append("<h4>Figures</h4><ul>" + "".join(
            f'<li><a href="#fig-{_e(f.name)}">{_e(f.name)}</a>{": " + _e(f.caption) if f.caption else ""}</li>'
            for f in figs) + "</ul>")
    if r.notes:
        out.append("<h4>Notes</h4><ul>" + "".join(f"<li>{_e(n)}</li>" for n in r.notes) + "</ul>")
    if r.error:
        out.append(f"<h4>Traceback</h4><pre>{_e(r.error)}</pre>")
    if cases:
        shown = sorted(range(len(cases)), key=lambda i: (cases[i].get("ok", True), i))[:MAX_CASES]
        shown.sort(key=lambda i: (cases[i].get("ok", True), i))
        rows = []
        for i in shown:
            c = cases[i]
            params = ", ".join(f"{p}={digest.round_number(v, 6)}" for p, v in c.get("params", {}).items())
            rows.append(f'<tr class="{"ok" if c.get("ok") else "bad"}"><td>{i + 1}</td>'
                        f"<td>{_e(c.get('route') or '-')}</td><td>{_e(params)}</td>"
                        f"<td>{_e(digest.round_number(c.get('lhs'), 8))}</td><td>{_e(c.get('relation'))}</td>"
                        f"<td>{_e(digest.round_number(c.get('rhs'), 8))}</td>"
                        f"<td>{_e(digest.round_number(c.get('tol'), 3))}</td>"
                        f"<td>{_e(digest.gap_text(c) or '-')}</td>"
                        f"<td>{'ok' if c.get('ok') else 'NO'}</td></tr>")
        more = (f'<p class="note">showing {len(shown)} of {len(cases)} cases (failing first); '
                f"every case is in claims/{_e(digest.claim_file(r.id))}</p>" if len(shown) < len(cases) else "")
        out.append(f"<h4>Cases ({len(cases)})</h4>{more}<div class=\"cases\"><table class=\"cases\">"
                   "<tr><th>#</th><th>route</th><th>parameters</th><th>lhs</th><th>rel</th><th>rhs</th>"
                   f"<th>tol</th><th>gap/tol</th><th>ok</th></tr>{''.join(rows)}</table></div>")
    return "".join(out)


_OPEN = ' class="bad"'


def _evidence_html(r: ClaimResult) -> str:
    """The claim's kind of evidence as a badge, and the steps it rests on (an open step marked)."""
    kind = evidence_kind(r)
    if not kind:
        return ""
    out = (f'<p><b>Evidence.</b> <span class="ev {EVIDENCE_BADGE[kind][0]}">{_e(evidence_badge(r))}</span>'
           + (" (every step proved or certified)" if kind == "theorem" else "") + "</p>")
    if r.steps:
        out += "<h4>What the claim rests on</h4><ul>" + "".join(
            f'<li{_OPEN if st.kind in ("numerical", "assumed") else ""}>{_e(st.name)}: '
            f'{_e(st.kind)}{" &mdash; " + _e(st.how) if st.how else ""}</li>' for st in r.steps) + "</ul>"
    return out


def _finding_table(t: digest.FindingTable) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in t.head)
    rows = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in t.rows)
    more = f'<p class="note">&hellip; and {t.more} more rows on the claim\'s page</p>' if t.more else ""
    title = f"<p>{_e(t.title)}</p>" if t.title else ""
    return f'{title}<table class="small"><tr>{head}</tr>{rows}</table>{more}'


_CSS = """
:root { --pass: #1a7f37; --fail: #cf222e; --error: #9a6700; --missing: #6e7781; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
       margin: 0 1.2rem 2rem; color: #1f2328; }
h1 { font-size: 1.5rem; margin: 1rem 0 .3rem; }
h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid var(--line); }
h4 { margin: .8rem 0 .2rem; font-size: .95rem; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .92em; }
.note { color: #57606a; font-size: .9em; }
.pill { display: inline-block; padding: .1rem .6rem; border-radius: 1rem; margin-right: .4rem;
        color: #fff; font-weight: 600; }
.pill.pass { background: var(--pass); } .pill.fail { background: var(--fail); }
.pill.error { background: var(--error); } .pill.missing { background: var(--missing); }
.controls { position: sticky; top: 0; background: #f6f8fa; padding: .5rem .6rem; z-index: 2;
            border: 1px solid var(--line); border-radius: 6px; display: flex; gap: .8rem;
            flex-wrap: wrap; align-items: center; }
.controls input { width: 14rem; }
.ev { display: inline-block; padding: 0 .45rem; border-radius: .3rem; font-weight: 600; white-space: nowrap;
      border: 1px solid; font-size: .9em; }
.ev.proof { background: #1a7f37; border-color: #1a7f37; color: #fff; }
.ev.instances { background: #ddf4ff; border-color: #54aeff; color: #0a3069; }
.ev.numerical { background: #fff8c5; border-color: #d4a72c; color: #4d2d00; }
.ev.conditional { background: #ffebe9; border-color: #ff8182; color: #82071e; border-style: dashed; }
.ev.none { border-color: transparent; color: #57606a; font-weight: 400; }
p.counts .ev { margin-right: .4rem; }
table#claims { border-collapse: collapse; width: 100%; margin-top: .6rem; }
#claims > thead th { position: sticky; top: calc(var(--bar, 2.9rem) - 1px); background: #eaeef2; text-align: left;
             cursor: pointer; padding: .35rem .4rem; border-bottom: 2px solid var(--line);
             white-space: nowrap; z-index: 1; }
#claims > thead th.asc::after { content: " \\25b2"; }
#claims > thead th.desc::after { content: " \\25bc"; }
#claims tr.row td { padding: .3rem .4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
#claims tr.row { cursor: pointer; } #claims tr.row:hover { background: #f6f8fa; }
#claims td.id, #claims td.cert { white-space: nowrap; } #claims td.num { text-align: right; }
#claims td.slack { max-width: 26rem; color: #57606a; }
.tw { display: inline-block; width: 1em; color: #57606a; }
tbody.claim.open .tw { transform: rotate(90deg); }
.st { font-weight: 600; white-space: nowrap; } .st.pass { color: var(--pass); } .st.fail { color: var(--fail); }
.st.error { color: var(--error); } .st.missing { color: var(--missing); }
tr.detail > td { background: #fbfcfd; padding: .4rem 1rem 1rem 2.2rem; border-bottom: 2px solid var(--line); }
li.bad, tr.bad td { color: var(--fail); font-weight: 600; }
div.cases { max-height: 28rem; overflow: auto; border: 1px solid var(--line); }
table.cases, table.small { border-collapse: collapse; font-size: .85em; }
table.cases th, table.cases td, table.small th, table.small td { padding: .15rem .4rem;
             border-bottom: 1px solid #eaeef2; text-align: left; vertical-align: top; }
table.cases th { position: sticky; top: 0; background: #eaeef2; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(460px, 1fr)); gap: 1rem;
        grid-auto-flow: dense; }
figure.fig { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: .5rem; }
figure.fig img { width: 100%; height: auto; display: block; }
figure.fig.wide { grid-column: 1 / -1; } figure.fig.wide img { max-width: 1150px; }
figure.fig:target { outline: 3px solid #0969da; }
table.env th { text-align: left; padding-right: 1rem; font-weight: 600; }
pre { white-space: pre-wrap; background: #f6f8fa; padding: .5rem; }
"""

_JS = r"""
(function () {
  "use strict";
  var table = document.getElementById("claims");
  var fStatus = document.getElementById("f-status");
  var fSection = document.getElementById("f-section");
  var fEvidence = document.getElementById("f-evidence");
  var fText = document.getElementById("f-text");
  var shown = document.getElementById("shown");
  var bar = document.querySelector(".controls");
  // the column heads stick just below the filter bar, whatever its height (it wraps on narrow
  // windows): no gap between them for the rows to show through
  function stick() { document.documentElement.style.setProperty("--bar", bar.getBoundingClientRect().height + "px"); }
  stick();
  window.addEventListener("resize", stick);
  function bodies() { return Array.prototype.slice.call(table.tBodies); }
  function filter() {
    var st = fStatus.value, ev = fEvidence.value, sec = fSection.value, k = 0;
    var q = fText.value.trim().toLowerCase();
    bodies().forEach(function (b) {
      var ok = (!st || b.dataset.status === st) && (!ev || b.dataset.evidence === ev) &&
               (!sec || b.dataset.section === sec) &&
               (!q || b.dataset.search.indexOf(q) >= 0);
      b.hidden = !ok;
      if (ok) { k += 1; }
    });
    shown.textContent = k + " of " + bodies().length + " claims";
  }
  function setOpen(b, open) {
    b.classList.toggle("open", open);
    b.querySelector("tr.detail").hidden = !open;
    b.querySelector("tr.row").setAttribute("aria-expanded", open ? "true" : "false");
  }
  function sortBy(th) {
    var key = th.dataset.key, num = th.dataset.type === "num";
    var dir = th.classList.contains("asc") ? -1 : 1;
    Array.prototype.forEach.call(th.parentNode.children, function (h) { h.classList.remove("asc", "desc"); });
    th.classList.add(dir === 1 ? "asc" : "desc");
    var list = bodies();
    list.sort(function (a, b) {
      var x = a.dataset[key] || "", y = b.dataset[key] || "";
      if (num) {
        var fx = parseFloat(x), fy = parseFloat(y);
        if (isNaN(fx) && isNaN(fy)) { return 0; }
        if (isNaN(fx)) { return 1; }
        if (isNaN(fy)) { return -1; }
        return dir * (fx - fy) || (parseFloat(a.dataset.order) - parseFloat(b.dataset.order));
      }
      return dir * x.localeCompare(y) || (parseFloat(a.dataset.order) - parseFloat(b.dataset.order));
    });
    list.forEach(function (b) { table.appendChild(b); });
  }
  table.querySelectorAll(":scope > thead th").forEach(function (th) {
    th.addEventListener("click", function () { sortBy(th); });
    th.addEventListener("keydown", function (e) { if (e.key === "Enter") { sortBy(th); } });
  });
  table.addEventListener("click", function (e) {
    if (e.target.closest("a")) { return; }
    var row = e.target.closest("tr.row");
    if (row) { var b = row.parentNode; setOpen(b, !b.classList.contains("open")); }
  });
  table.addEventListener("keydown", function (e) {
    var row = e.target.closest && e.target.closest("tr.row");
    if (row && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      var b = row.parentNode; setOpen(b, !b.classList.contains("open"));
    }
  });
  document.getElementById("expand-all").addEventListener("click", function () {
    bodies().forEach(function (b) { if (!b.hidden) { setOpen(b, true); } });
  });
  document.getElementById("collapse-all").addEventListener("click", function () {
    bodies().forEach(function (b) { setOpen(b, false); });
  });
  [fStatus, fEvidence, fSection].forEach(function (el) { el.addEventListener("change", filter); });
  fText.addEventListener("input", filter);
  function openHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (el && el.classList.contains("claim")) {
      el.hidden = false; setOpen(el, true);
      // below the sticky filters and column heads
      var head = table.tHead.getBoundingClientRect().height + document.querySelector(".controls").offsetHeight;
      window.scrollTo(0, el.getBoundingClientRect().top + window.pageYOffset - head - 8);
    }
  }
  window.addEventListener("hashchange", openHash);
  filter();
  setTimeout(openHash, 0);  // after the browser's own scroll to the fragment
})();
"""

__all__ = ["index_html", "MAX_CASES"]
