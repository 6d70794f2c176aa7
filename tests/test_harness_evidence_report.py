"""The kind of evidence as the headline of every report: a badge per kind in SUMMARY.md, the claim
pages and index.html, the counts by kind at the top, the ``sens.`` column only with fault data of
the same run, and the findings as short tables (coverage records on the claim pages only)."""

from __future__ import annotations

import json
import re

import pytest

from _check_roots import make_root
from countdp.harness import report, runner
from countdp.harness.results import Settings

HEAD = ("from countdp.harness.claims import certificate, claim\nimport mpmath\n"
        "from flint import arb, fmpq\nfrom countdp.arb.verdicts import decide_contains\n")


def _claim(cid: str, func: str, steps: str = "", scope: str | None = None, finding: str = "") -> str:
    cert = "" if scope is None else f'''
@certificate("{cid}", scope="{scope}")
def cert_{func}(cert):
    third = arb(fmpq(1, 3))
    cert.record("1/3 in its ball", "the exact 1/3 lies in its ball", third, decide_contains(third, fmpq(1, 3)))
'''
    return f'''
@claim("{cid}", routes=["a", "b"])
def {func}(c):
    c.compare({{"n": 1}}, 1, "<=", 2)
    c.control("perturbed", 3, "<=", 2)
{steps}{finding}
{cert}'''


#: one claim of each kind; the conditional one has a certificate that proves "the claim itself",
#: so a report that read the certificate alone would show it as PROOF
SCRIPTS = {"s_kinds": HEAD + "".join([
    _claim("eq3", "a_proof", scope="claim"),
    _claim("eq8", "a_theorem", '    c.step("(8a)", "proved", "by hand")\n    c.step("(8b)", "certified", "balls")\n',
           scope="instance"),
    _claim("eq9", "instances", scope="instance",
           finding='    c.finding(what="coverage of the quadrature", covered=5, total=5, skipped_by_design=0)\n'
                   '    c.finding(what="the gap", eps="0.12345678901", n=10, rows=[{"k": 1, "v": "0.5"}])\n'),
    _claim("eq10", "numbers"),
    _claim("eq11", "conditional", '    c.step("(11a)", "proved")\n    c.step("the limit", "numerical", "a sequence")\n',
           scope="claim"),
])}

BADGES = {"eq3": "PROOF", "eq8": "theorem", "eq9": "certified instances", "eq10": "numerical evidence",
          "eq11": "conditional on the limit"}


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ev")
    root = make_root(tmp, SCRIPTS)
    run = runner.reproduce(Settings(quick=True, figures_dir=""), jobs=1, root=root, progress=False,
                           figures=False)
    report.write_reports(run, tmp / "reports")
    return run, tmp / "reports"


def _row(md: str, cid: str) -> list[str]:
    line = next(ln for ln in md.splitlines() if ln.startswith(f"| [`{cid}`]"))
    return [c.strip() for c in line.strip("|").split(" | ")]


def test_summary_badges_and_counts(reports):
    run, d = reports
    assert {r.id: r.evidence["kind"] for _, r in run.results()} == {
        "eq3": "proof", "eq8": "proof", "eq9": "certified instances", "eq10": "numerical", "eq11": "conditional"}
    md = (d / "SUMMARY.md").read_text()
    assert ("**Evidence of the passing claims: 1 PROOF, 1 theorem, 1 certified instances, 1 numerical "
            "evidence, 1 conditional.**") in md
    head = "| claim | paper | status | evidence | routes | worst gap / tol | slack | Arb records |"
    assert head in md and "sens." not in head
    for cid, badge in BADGES.items():
        assert _row(md, cid)[3].strip("*") == badge, cid
    assert _row(md, "eq11")[3] == "*conditional on the limit*"  # not bold, not PROOF
    assert _row(md, "eq3")[3] == "**PROOF**" and _row(md, "eq3")[-1] == "1/1"


def test_claim_page_badges(reports):
    _, d = reports
    for cid, badge in BADGES.items():
        head = (d / "claims" / f"{cid}.md").read_text().splitlines()[2]
        assert head.startswith(f"**PASS** \u00b7 evidence: **{badge}**"), head
    page = (d / "claims" / "eq11.md").read_text()
    assert "- the limit: **numerical** -- a sequence" in page and "PROOF" not in page.split("## Certificate")[0]
    assert "(every step proved or certified)" in (d / "claims" / "eq8.md").read_text()
    assert "[in index.html](../index.html#claim-eq8)" in (d / "claims" / "eq8.md").read_text()  # the deep link


def test_index_badges_and_counts(reports):
    _, d = reports
    text = (d / "index.html").read_text()
    bodies = dict(re.findall(r'<tbody class="claim" id="claim-([^"]+)"(.*?)</tbody>', text, re.S))
    for cid, badge in BADGES.items():
        cls = {"PROOF": "proof", "theorem": "proof", "certified instances": "instances",
               "numerical evidence": "numerical"}.get(badge, "conditional")
        assert f'<span class="ev {cls}">{badge}</span>' in bodies[cid], cid
    assert 'data-evidence="conditional"' in bodies["eq11"] and '<span class="ev proof">' not in bodies["eq11"]
    counts = re.search(r"evidence of the passing claims: (.*?)</p>", text).group(1)
    assert re.sub(r"<[^>]+>", "|", counts).split("|")[1::2] == [
        "1 PROOF", "1 theorem", "1 certified instances", "1 numerical evidence", "1 conditional"]
    assert 'id="f-evidence"' in text and "#claim-&lt;id&gt;" in text
    assert "sens." not in text.split("<thead>")[1].split("</thead>")[0]  # no fault data, no column


def test_sensitivity_column_only_with_faults_of_the_same_settings(reports, tmp_path):
    """The fault catalogue's data is shown only when it ran in the run's mode, digits and seed."""
    run, d = reports
    s = run.settings
    for quick, seed, shown in ((False, s.seed, False), (True, s.seed + 1, False), (True, s.seed, True)):
        (tmp_path / "faults.json").write_text(json.dumps(
            {"quick": quick, "dps": s.dps, "seed": seed,
             "claims": {"eq3": {"sensitivity": "caught 2/2", "faults": []}}}))
        report.write_reports(run, tmp_path)
        md = (tmp_path / "SUMMARY.md").read_text()
        heads = (tmp_path / "index.html").read_text().split("<thead>")[1].split("</thead>")[0]
        assert ("| sens. |" in md) == shown and ("sens." in heads) == shown
        if shown:
            assert _row(md, "eq3")[7] == "2/2" and _row(md, "eq8")[7] == "-"
            assert "Fault catalogue: 2 of 2 catchable faults caught" in md


def test_findings_are_short_tables_and_coverage_stays_on_the_page(reports):
    _, d = reports
    md = (d / "SUMMARY.md").read_text()
    findings = md.split("## Findings")[1].split("\n## ")[0]
    assert "coverage of the quadrature" not in md and "skipped_by_design" not in md
    assert "| eps | n |" in findings and "| 0.1235 | 10 |" in findings  # rounded to 4 digits
    assert "| k | v |" in findings and "| 1 | 0.5 |" in findings
    page = (d / "claims" / "eq9.md").read_text()
    assert "## Coverage of the routes" in page and "skipped_by_design" in page
    html = (d / "index.html").read_text()
    assert "skipped_by_design" not in html and "<th>eps</th>" in html
