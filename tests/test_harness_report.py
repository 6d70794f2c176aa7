"""countdp.harness.report, the report writers: format, determinism, junit counts, SUMMARY.md
content."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from _check_roots import make_root
from countdp.harness import catalogue, report, runner
from countdp.harness.results import Settings

HEAD = ("from countdp.harness.claims import certificate, claim\nimport mpmath\n"
        "from flint import arb, fmpq\nfrom countdp.arb.verdicts import decide_contains\n")

SCRIPTS = {
    "s1_good": HEAD + '''
TITLE = "Section 4"

@claim("lem4.1", routes=["closed form", "mpmath quadrature"])
def good(c):
    third = mpmath.mpf(1) / 3
    for sigma in (0.25, 0.5):
        c.compare({"sigma": sigma}, third, "==", third + mpmath.mpf(10) ** -28,
                  tol=mpmath.mpf(10) ** -20)
    c.control("constant off by 1e-6", third, "==", third + mpmath.mpf(10) ** -6,
              tol=mpmath.mpf(10) ** -20)
    c.slack("1e-28 | tight")
    c.finding(sup_at=mpmath.mpf(1) / 7, note="where the supremum sits")
    c.finding(what="odd shapes", by_n={0: "+", 10: "-"}, nested=[[1, 2], [3]], rows=[{"a": 1}, {"b": None}],
              nothing=None, empty=[])


@certificate("lem4.1", scope="claim")
def a_third(cert):
    third = arb(fmpq(1, 3))
    cert.record("1/3 in its ball", "the exact 1/3 lies in its ball", third,
                decide_contains(third, fmpq(1, 3)))

def figures(settings):
    from countdp.harness.plotting import new_figure, save

    fig, ax = new_figure()
    ax.plot([0, 1, 2], [1, 3, 2], label="$v(n)$")
    ax.legend()
    return [save(fig, settings.figures_dir, "a_figure", claims=("lem4.1",), caption="a figure")]


@claim("eq8", routes=["a", "b"])
def unpicklable_finding(c):
    c.compare({"n": 1}, 1, "<=", 2)
    c.control("x", 3, "<=", 2)
    c.finding(obj=lambda: 0)
''',
    "s2_bad": HEAD + '''
@claim("eq9", routes=["a", "b"])
def fails(c):
    c.compare({"n": 3}, 1.0, "==", 2.0, tol=0.1)
    c.control("x", 3, "<=", 2)

@claim("eq10", routes=["a", "b"])
def errs(c):
    raise ValueError("the last line of the traceback")

@claim("eq11", routes=["a", "b"])
def control_not_rejected(c):
    c.compare({"n": 1}, 1, "==", 1)
    c.control("a blind control", 1, "==", 1)
''',
    "s3_broken": "raise ImportError('cannot import this script')\n",
}


def strip_seconds(obj):
    if isinstance(obj, dict):
        return {k: strip_seconds(v) for k, v in obj.items()
                if k not in ("seconds", "scripts")}
    if isinstance(obj, list):
        return [strip_seconds(v) for v in obj]
    return obj


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("rep")
    root = make_root(tmp, SCRIPTS)
    settings = Settings(quick=True, dps=30, seed=7, figures_dir=str(tmp / "figures"))
    out = []
    for k in range(2):
        run = runner.reproduce(settings, jobs=2, root=root, progress=False)
        d = tmp / f"reports{k}"
        report.write_reports(run, d)
        out.append((run, d))
    return out


@pytest.mark.slow
def test_files_written(reports):
    _, d = reports[0]
    names = sorted(p.name for p in d.iterdir())
    assert names == ["SUMMARY.md", "claims", "index.html", "junit.xml", "s1_good.json", "s2_bad.json",
                     "s3_broken.json", "summary.json"]
    pages = sorted(p.name for p in (d / "claims").iterdir())
    assert "lem4.1.md" in pages and "s3_broken_import.md" in pages and "thm3.1.ii.md" in pages
    assert len(pages) == len(catalogue.CATALOGUE) + 1  # every catalogue id and the pseudo id


def test_script_json_format(reports):
    _, d = reports[0]
    data = json.loads((d / "s1_good.json").read_text())
    assert list(data)[:5] == ["script", "title", "seconds", "environment", "claims"]
    assert data["script"] == "s1_good" and data["title"] == "Section 4"
    env = data["environment"]
    for key in ("python", "platform", "numpy", "scipy", "mpmath", "matplotlib", "flint",
                "countdp", "dps", "quick", "seed"):
        assert key in env
    assert env["dps"] == 30 and env["quick"] is True and env["seed"] == 7
    first = data["claims"][0]
    assert first["id"] == "lem4.1" and first["status"] == "pass"
    assert first["routes"] == ["closed form", "mpmath quadrature"]
    assert first["cases"][0]["params"] == {"sigma": "0.25"}
    assert first["cases"][0]["relation"] == "=="
    # numbers are decimal strings at the working precision
    assert first["cases"][0]["lhs"].startswith("0.33333333333333333333333333")
    assert first["negative_control"]["status"] == "rejected"
    assert first["certified"]["certified"] is True
    # an unpicklable finding still reaches the report
    assert data["claims"][1]["status"] == "pass"
    broken = json.loads((d / "s3_broken.json").read_text())
    assert broken["claims"][0]["id"] == "s3_broken:import"
    assert broken["claims"][0]["status"] == "error"


def test_summary_json(reports):
    _, d = reports[0]
    s = json.loads((d / "summary.json").read_text())
    assert list(s)[:5] == ["environment", "quick", "claims", "counts", "scripts"]
    assert s["quick"] is True
    assert s["claims"]["lem4.1"] == "pass" and s["claims"]["eq9"] == "fail"
    assert s["claims"]["eq10"] == "error" and s["claims"]["eq11"] == "fail"
    assert s["claims"]["s3_broken:import"] == "error"
    assert s["claims"]["thm3.1.ii"] == "missing"
    assert set(catalogue.CATALOGUE) <= set(s["claims"])
    assert s["counts"] == {"pass": 2, "fail": 2, "error": 2,
                           "missing": len(catalogue.CATALOGUE) - 5}
    assert set(s["scripts"]) == {"s1_good", "s2_bad", "s3_broken"}


def test_deterministic_apart_from_seconds(reports):
    (_, d0), (_, d1) = reports
    for p in sorted(d0.glob("*.json")):
        a = json.loads(p.read_text())
        b = json.loads((d1 / p.name).read_text())
        assert strip_seconds(a) == strip_seconds(b), p.name
    # text files: identical once the timing lines and attributes are dropped
    def untimed_md(text):
        return [ln for ln in text.splitlines()
                if not ln.startswith("Total wall time") and not ln.startswith("| paper_checks/")]
    assert untimed_md((d0 / "SUMMARY.md").read_text()) == untimed_md((d1 / "SUMMARY.md").read_text())
    for p in sorted((d0 / "claims").iterdir()):  # claim pages: no timing at all
        assert p.read_text() == (d1 / "claims" / p.name).read_text(), p.name

    def untimed_html(path):
        return re.sub(r'<span class="seconds">[^<]*</span>', "", path.read_text())
    # the figure of each run embedded as base64 of its PNG: the PNGs are identical too
    assert untimed_html(d0 / "index.html").count("data:image/png;base64,") == 1
    assert untimed_html(d0 / "index.html") == untimed_html(d1 / "index.html")

    def untimed_xml(path):
        tree = ET.parse(path)
        for el in tree.iter():
            el.attrib.pop("time", None)
        return ET.tostring(tree.getroot())
    assert untimed_xml(d0 / "junit.xml") == untimed_xml(d1 / "junit.xml")
    # no timestamps: nothing that looks like a date
    for p in [*d0.iterdir(), *(d0 / "claims").iterdir()]:
        if p.is_file():
            assert not re.search(r"20\d\d-\d\d-\d\d", p.read_text()), p.name


def test_junit(reports):
    _, d = reports[0]
    root = ET.parse(d / "junit.xml").getroot()
    assert root.tag == "testsuites"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert {"s1_good", "s2_bad", "s3_broken"} <= set(suites)
    bad = suites["s2_bad"]
    cases = {c.get("name"): c for c in bad.findall("testcase")}
    assert all(c.get("classname") == "s2_bad" for c in cases.values())
    assert cases["eq9"].find("failure") is not None
    assert cases["eq11"].find("failure") is not None
    err = cases["eq10"].find("error")
    assert err is not None and "the last line of the traceback" in err.text
    assert (bad.get("failures"), bad.get("errors"), bad.get("tests")) == ("2", "1", "3")
    assert suites["s3_broken"].get("errors") == "1"
    assert suites["s1_good"].get("failures") == "0" and suites["s1_good"].get("errors") == "0"
    assert len(root.findall(".//failure")) == 2 and len(root.findall(".//error")) == 2
    assert root.get("failures") == "2" and root.get("errors") == "2"


def test_summary_md(reports):
    run, d = reports[0]
    md = (d / "SUMMARY.md").read_text()
    for cid in ("lem4.1", "eq8", "eq9", "eq10", "eq11", "s3_broken:import"):
        assert cid in md
    for title in catalogue.SECTION_TITLES.values():
        assert title in md
    header = "| claim | paper | status | evidence | routes | worst gap / tol | slack | Arb records |"
    assert header in md
    row = next(ln for ln in md.splitlines() if ln.startswith("| [`lem4.1`]"))
    assert "(claims/lem4.1.md)" in row and "| PASS | **PROOF** | 2 |" in row
    assert "1e-28 \\| tight" in row  # pipes in text are escaped
    assert "| **PROOF** |" in row and row.endswith("| 1/1 |")
    worst = float(row.split(" | ")[5].split()[0])  # |lhs - rhs| / tol = 1e-28 / 1e-20
    assert worst == pytest.approx(1e-8, rel=1e-2, abs=0)
    assert "| FAIL |" in md and "| ERROR |" in md
    assert "Not yet checked:" in md and "`thm3.1.ii`" in md
    assert "## Findings" in md and "where the supremum sits" in md
    assert "| sup_at | note |" in md and "| 0.1429 | where the supremum sits |" in md  # 4 digits (1/7)
    assert "## Figures" in md and "- **a_figure** (`" in md and "a_figure.png`): a figure. Belongs to [`lem4.1`]" in md
    assert "ValueError: the last line of the traceback" in md
    assert "ImportError: cannot import this script" in md
    assert "control NOT rejected: a blind control" in md
    assert "numpy 2" in md or "numpy " in md
    assert "Total wall time" in md
    env = json.loads((d / "s1_good.json").read_text())["environment"]
    assert "commit `" in md or "commit unknown" in md
    assert isinstance(env["dirty"], bool)
    assert max(len(ln) for ln in md.splitlines()) < 400


@pytest.mark.slow
def test_summary_md_is_short_on_a_real_quick_run(tmp_path):
    """Real claims' quick reports (a quick reproduce of a few claims with long findings and many
    routes, run here) stay short: no line of SUMMARY.md above 400 characters."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-m", "countdp", "reproduce", "--quick", "--no-figures", "--quiet",
                          "--jobs", "1", "--root", str(root), "--reports", str(tmp_path),
                          "--only", "eq3", "cor3.2", "hm.rappor", "sec8.bias", "table2", "eq32", "eq4",
                          "cstar.value"],
                         capture_output=True, text=True, cwd=root, check=False,
                         env={**__import__("os").environ, "PYTHONPATH": str(root / "src")})
    assert out.returncode == 0, out.stderr[-2000:]
    md = (tmp_path / "SUMMARY.md").read_text()
    assert "| claim | paper | status |" in md and "hm.rappor" in md
    assert max(len(ln) for ln in md.splitlines()) < 400
    # the evidence of real claims, as the badge of each report
    assert ("**Evidence of the passing claims: 1 PROOF, 1 theorem, 5 certified instances, 1 numerical "
            "evidence, 0 conditional.**") in md
    rows = {ln.split("`")[1]: ln.split(" | ")[3] for ln in md.splitlines() if ln.startswith("| [`")}
    assert rows == {"eq3": "certified instances", "eq4": "*numerical evidence*", "cor3.2": "certified instances",
                    "eq32": "certified instances", "table2": "certified instances", "sec8.bias": "certified instances",
                    "hm.rappor": "**PROOF**", "cstar.value": "**theorem**"}
    assert "skipped_by_design" not in md  # coverage records: on the claim pages only
    page = (tmp_path / "claims" / "cstar.value.md").read_text()
    assert "evidence: **theorem** (every step proved or certified)" in page
    html = (tmp_path / "index.html").read_text()
    assert '<span class="ev proof">theorem</span>' in html and '<span class="ev numerical">numerical evidence' in html


def test_claim_pages(reports):
    _, d = reports[0]
    page = (d / "claims" / "lem4.1.md").read_text()
    assert page.startswith("# `lem4.1`: Lemma 4.1")
    assert "**PASS**" in page and "**Statement.**" in page and catalogue.CATALOGUE["lem4.1"].statement in page
    assert "## Routes compared" in page and "1. closed form" in page and "2. mpmath quadrature" in page
    assert "## Negative control" in page and "rejected: constant off by 1e-6" in page
    assert "## Certificate" in page and "PROOF (1/1 records" in page and "1/3 in its ball" in page
    assert "## Findings" in page and "sup_at = 0.142857" in page
    assert "## Figures" in page and "a_figure.png)" in page and "*a_figure*: a figure" in page
    assert "## Cases (2)" in page and "| # | route |" in page
    assert "seconds" not in page
    bad = (d / "claims" / "eq9.md").read_text()
    assert "**FAIL**" in bad and "**NO**" in bad
    missing = (d / "claims" / "thm3.1.ii.md").read_text()
    assert "not yet checked" in missing


def test_index_html(reports):
    _, d = reports[0]
    text = (d / "index.html").read_text()
    assert text.startswith("<!DOCTYPE html>")
    # self-contained: no network, no external script, style or image
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)
    assert "<link" not in text and "@import" not in text
    ids = re.findall(r'<tbody class="claim" id="claim-([^"]+)"', text)
    assert len(ids) == len(set(ids)) == len(catalogue.CATALOGUE) + 1
    assert 'data-status="FAIL"' in text and 'data-status="ERROR"' in text
    assert 'id="f-status"' in text and 'id="f-section"' in text
    assert "the last line of the traceback" in text and "a blind control" in text
    lem = text.split('id="claim-lem4.1"')[1].split("</tbody>")[0]
    assert '<a href="#fig-a_figure">a_figure</a>: a figure</li>' in lem  # the caption beside the link


def test_figures_carry_their_claims(tmp_path):
    """A figure saved with claims= and caption= carries them in its PNG; the pages place it."""
    from countdp.harness import plotting

    fig, ax = plotting.new_figure()
    ax.plot([0, 1], [0, 1])
    path = plotting.save(fig, str(tmp_path), "f", claims=("lem4.1", "eq9"), caption="a line → up")
    meta = report.png_text(path)
    assert meta[plotting.FIGURE_CLAIMS_KEY] == "lem4.1 eq9" and meta["Description"] == "a line → up"
    assert report.png_text(tmp_path / "missing.png") == {}


def test_rounding_and_condensing():
    assert report.round_number("0.333333333333333333333", 4) == "0.3333"
    assert report.round_number("12", 4) == "12" and report.round_number("0.0", 4) == "0"
    assert report.round_number("alpha -> 1", 4) == "alpha -> 1"
    assert report.round_numbers_in("-0.04798660001 +- 4.7e-13") == "-0.04799 +- 4.7e-13"
    fs = [{"what": "ratio", "n": str(n), "r": "0.1", "value": f"0.{n}12345678"} for n in range(1, 9)]
    [table] = report.finding_tables(fs + [{"what": "coverage of x", "covered": 1, "total": 1}])
    assert table.title == "ratio" and table.head == ("n", "r", "value") and table.more == 2
    assert table.rows[0] == ("1", "0.1", "0.1123") and len(table.rows) == 6


def test_atomic_write_and_stale_reports(tmp_path, reports):
    run, _ = reports[0]
    d = tmp_path / "r"
    d.mkdir()
    (d / "gone_script.json").write_text(json.dumps({"script": "gone_script", "claims": []}))
    (d / "notes.json").write_text("{}")
    report.write_reports(run, d)
    assert not (d / "gone_script.json").exists() and (d / "notes.json").exists()
    assert not [p for p in d.iterdir() if p.name.endswith(".tmp")]
    p = report.write_atomic(tmp_path / "x" / "y.txt", "hello\n")
    assert p.read_text() == "hello\n"


def test_format_result_and_table(reports):
    run, _ = reports[0]
    res = {r.id: r for _, r in run.results()}
    text = report.format_result(res["lem4.1"], run.settings, script="s1_good")
    assert "status     PASS" in text and "sigma=0.25" in text and "control    rejected" in text
    case_rows = [ln for ln in text.splitlines() if "sigma=" in ln]
    assert case_rows and all(ln.rstrip().endswith("-") or "route" in ln for ln in case_rows)
    assert "slack" in text and "paper_checks/s1_good.py" in text
    text = report.format_result(res["eq10"], run.settings)
    assert "ERROR" in text and "ValueError" in text
    table = report.format_table(run)
    assert "lem4.1" in table and "FAIL" in table and "not yet checked" in table
    row = next(ln for ln in table.splitlines() if ln.startswith("lem4.1"))
    assert row.split()[1:3] == ["PASS", "PROOF"]
    assert table.splitlines()[-1] == ("evidence of the passing claims: 1 PROOF, 0 certified instances, "
                                      "1 numerical evidence, 0 conditional")
