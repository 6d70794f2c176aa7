"""experiments/cstar/note: every number of the note is a macro written by note_numbers.py from the
reports (none typed into cstar.tex), the macros equal the reports' values, and the note builds to a
PDF whose text carries them.  The build test needs Debian's LaTeX (`make latex`); it is skipped
without latexmk unless COUNTDP_REQUIRE_LATEX is set (`make test` sets it when latexmk is there)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import mpmath
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTE = ROOT / "experiments" / "cstar" / "note"


def _generator():
    spec = importlib.util.spec_from_file_location("note_numbers", NOTE / "note_numbers.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _claim(cid, cases, what=(), status="pass"):
    return {"id": cid, "status": status, "cases": cases, "certified": {"what": list(what)}}


def _reports(tmp_path: Path, value_file: str = "cstar_lower_lattice.json") -> Path:
    const = [("a1'", "-1.01879297164747108902"), ("Z = 2|a1'| Ai(a1')^2", "0.584640567802663353"),
             ("m = E|X| = 2|a1'|/3", "0.679195314431647392"), ("I = 4|a1'|/3", "1.358390628863294785"),
             ("E X^2 = 1/(5|a1'|) + 8 a1'^2/15", "0.749878268044216529"),
             ("m^2 I/2 = 8|a1'|^3/27", "0.313317060597014564610")]
    constants = _claim("cstar.airy.constants", [{"params": {"quantity": q}, "lhs": v} for q, v in const],
                       ["a1' (first zero of Ai'): proved_true [-1.0187929716474710890 +/- 1.74e-20]"])
    limit = _claim("cstar.airy.limit", [], ["r^2 I/(2b^2) at r = 1e-2: proved_true [0.3260933226894 +/- 1.45e-16]",
                                            "r^2 I/(2b^2) at r = 1e-7: proved_true [0.3133171859238 +/- 1.40e-16]"])
    rows = [{"params": {"r": f"1.0e-{k}"}, "lhs": f"0.30{k}", "rhs": f"0.31{k}"} for k in range(3, 9)]
    ends = [{"params": {"quantity": q}, "lhs": "0.3133170605970145", "rhs": "0.3133170605970146",
             "tol": "2.0e-16"} for q in ("upper end", "lower end", "lattice")]
    value = _claim("cstar.value", rows + ends, [
        "pi/(4e^2) < c0 < 1/pi: proved_true [0.3133170606 +/- 4.67e-22]",
        "a1 < a1' < 0: proved_true [1.3193144388122959310 +/- 2.23e-16]",
        "maximum = c0/2 at M = 1: proved_true [0.15665853029850728231 +/- 4.77e-21]"])
    env = {"countdp": "0.2.0", "commit": "abc123", "dirty": False, "quick": False}
    (tmp_path / "cstar_airy.json").write_text(json.dumps({"script": "a", "environment": env,
                                                          "claims": [constants, limit]}))
    (tmp_path / value_file).write_text(json.dumps({"script": "b", "environment": {**env, "quick": True},
                                                   "claims": [value]}))
    (tmp_path / "summary.json").write_text(json.dumps({"claims": "not a script report"}))
    return tmp_path


def test_the_macros_equal_the_reports(tmp_path):
    gen = _generator()
    macros = gen.collect(_reports(tmp_path))
    assert macros["czero"] == "0.3133170605970146"
    assert macros["aonep"].startswith("-1.01879297164747")
    assert macros["aone"] == "-2.33811"
    assert macros["czeroBall"] == r"[0.3133170606 \pm 4.67\cdot 10^{-22}]"
    assert macros["upcertR"] == "10^{-7}" and macros["upcertBall"].startswith("[0.3133171859238 ")
    assert macros["crossRows"].count(r"\\") == 6 and macros["crossRows"].startswith("$10^{-3}$ & $0.303")
    assert macros["extrapUp"] == r"1.0\cdot 10^{-16}"
    assert macros["runinfo"] == (r"countdp 0.2.0, commit \texttt{abc123}, full run; "
                                 r"countdp 0.2.0, commit \texttt{abc123}, quick run")
    with mpmath.workdps(30):
        assert abs(mpmath.mpf(macros["percentBelow"]) - 100 * (1 - mpmath.mpf(macros["czero"]) * mpmath.pi)) < 1e-3
    out = tmp_path / "numbers.tex"
    gen.write(macros, out)
    text = out.read_text()
    assert all(rf"\newcommand{{\{k}}}" in text for k in macros)


def test_the_claims_are_found_by_id_in_any_report(tmp_path):
    gen = _generator()
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    assert gen.collect(_reports(a)) == gen.collect(_reports(b, value_file="cstar_renamed.json"))
    assert gen.missing(a) == [] and gen.missing(tmp_path / "none") == list(gen.CLAIMS)
    (a / "cstar_airy.json").unlink()
    assert gen.missing(a) == ["cstar.airy.constants", "cstar.airy.limit"]
    with pytest.raises(KeyError, match="cstar.airy.constants"):
        gen.collect(a)
    _reports(b, value_file="cstar_stale.json")
    with pytest.raises(ValueError, match="reported twice"):
        gen.collect(b)


def test_a_failed_claim_or_unproved_record_makes_no_note(tmp_path):
    gen = _generator()
    path = _reports(tmp_path) / "cstar_lower_lattice.json"
    data = json.loads(path.read_text())
    data["claims"][0]["status"] = "fail"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="status 'fail'"):
        gen.collect(tmp_path)
    data["claims"][0]["status"] = "pass"
    data["claims"][0]["certified"]["what"][0] = "pi/(4e^2) < c0 < 1/pi: undecided [0.31 +/- 1e-2]"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="not proved"):
        gen.collect(tmp_path)


def test_the_note_uses_only_generated_numbers(tmp_path):
    tex = (NOTE / "cstar.tex").read_text()
    macros = _generator().collect(_reports(tmp_path))
    used = set(re.findall(r"\\([A-Za-z]+)", tex))
    assert {k for k in macros if k in used} == set(macros), "every generated number appears in the note"
    # no decimal typed into the note outside the bibliography and the section numbers of a
    # citation, and lengths of the layout (exact constants such as 1/2, 8/27, 1728 or 10^-6 are allowed)
    body = re.sub(r"\\cite\[[^]]*\]", "", tex[:tex.index(r"\begin{thebibliography}")])
    body = re.sub(r"\d*\.\d+(cm|pt|\\textwidth)", "", body)          # lengths of the layout
    assert not re.findall(r"\d\.\d", body)


def _require(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        if os.environ.get("COUNTDP_REQUIRE_LATEX"):
            pytest.fail(f"{tool} is missing but COUNTDP_REQUIRE_LATEX is set (make latex installs it)")
        pytest.skip(f"{tool} not installed (make latex installs it)")
    return path


@pytest.mark.slow
def test_the_note_builds_with_the_reports_numbers(tmp_path):
    """The note's claims run (quick) into a fresh reports directory, numbers.tex is generated from it,
    the note is built by latexmk (no error, no undefined reference), and the PDF's text carries the
    reports' values."""
    latexmk, pdftotext = _require("latexmk"), _require("pdftotext")
    gen = _generator()
    reports = tmp_path / "reports"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "-m", "countdp", "reproduce", "--quick", "--jobs", "1", "-q",
                          "--no-figures", "--reports", str(reports), "--only", *gen.CLAIMS],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    macros = gen.collect(reports)
    claims = gen.claims(reports)
    # the macros against the reports, read here directly
    with mpmath.workdps(40):
        const = {c["params"]["quantity"]: mpmath.mpf(c["lhs"]) for c in claims["cstar.airy.constants"]["cases"]}
        assert abs(mpmath.mpf(macros["czero"]) - const["m^2 I/2 = 8|a1'|^3/27"]) < 1e-16
        assert abs(mpmath.mpf(macros["aonep"]) - const["a1'"]) < 1e-15
        assert abs(mpmath.mpf(macros["Iconst"]) - const["I = 4|a1'|/3"]) < 1e-11
    build = tmp_path / "build"
    build.mkdir()
    shutil.copy(NOTE / "cstar.tex", build)
    gen.write(macros, build / "numbers.tex")
    env = {**os.environ, "TEXINPUTS": f".:{ROOT / 'figures'}:"}
    run = subprocess.run([latexmk, "-pdf", "-interaction=nonstopmode", "-halt-on-error", "cstar.tex"],
                         cwd=build, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:]
    log = (build / "cstar.log").read_text(errors="replace")
    assert not re.search(r"undefined references|(Reference|Citation) .* undefined", log)
    assert "Overfull \\hbox" not in log, "a line sticks out of the margin"
    text = subprocess.run([pdftotext, "cstar.pdf", "-"], cwd=build, capture_output=True, text=True,
                          check=True).stdout.replace("\u2212", "-")
    env = claims["cstar.value"]["run"]
    assert f"commit {env['commit']}" in text and "quick run" in text
    for key in ("czero", "aonep", "mconst", "Iconst", "Zconst", "EXsq", "percentBelow", "oneoverpi", "aone"):
        assert macros[key] in text, f"{key} = {macros[key]} is not in the PDF"
    value = claims["cstar.value"]
    for case in (c for c in value["cases"] if "r" in c["params"]):
        for side in ("lhs", "rhs"):
            assert gen._digits(case[side], 9) in text, f"cstar.value at r = {case['params']['r']}: {side}"
