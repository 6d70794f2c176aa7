"""experiments/cstar/note: every number of the note is a macro written by note_numbers.py from the
reports (none typed into cstar.tex), and the macros equal the reports' values."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import mpmath
import pytest

NOTE = Path(__file__).resolve().parents[1] / "experiments" / "cstar" / "note"


def _generator():
    spec = importlib.util.spec_from_file_location("note_numbers", NOTE / "note_numbers.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _reports(tmp_path: Path) -> Path:
    const = [("a1'", "-1.01879297164747108902"), ("Z = 2|a1'| Ai(a1')^2", "0.584640567802663353"),
             ("m = E|X| = 2|a1'|/3", "0.679195314431647392"), ("I = 4|a1'|/3", "1.358390628863294785"),
             ("E X^2 = 1/(5|a1'|) + 8 a1'^2/15", "0.749878268044216529"),
             ("m^2 I/2 = 8|a1'|^3/27", "0.313317060597014564610")]
    airy = {"claims": [{"id": "cstar.airy.constants",
                        "cases": [{"params": {"quantity": q}, "lhs": v} for q, v in const]}]}
    rows = [{"params": {"r": f"1.0e-{k}"}, "lhs": f"0.30{k}", "rhs": f"0.31{k}"} for k in range(3, 8)]
    ends = [{"params": {"quantity": q}, "lhs": "0.3133170605970145", "rhs": "0.3133170605970146",
             "tol": "2.0e-16"} for q in ("upper end", "lower end", "lattice")]
    lower = {"claims": [{"id": "cstar.value", "cases": rows + ends,
                         "certified": {"what": ["pi/(4e^2) < c0 < 1/pi: proved_true [0.3133170606 +/- 4.67e-22]"]}}]}
    (tmp_path / "cstar_airy.json").write_text(json.dumps(airy))
    (tmp_path / "cstar_lower.json").write_text(json.dumps(lower))
    return tmp_path


def test_the_macros_equal_the_reports(tmp_path):
    gen = _generator()
    macros = gen.collect(_reports(tmp_path))
    assert macros["czero"] == "0.3133170605970146"
    assert macros["aonep"].startswith("-1.01879297164747")
    assert macros["rvalA"] == "10^{-3}" and macros["lowendA"].startswith("0.303")
    assert macros["czeroBall"] == r"[0.3133170606 \pm 4.67\cdot 10^{-22}]"
    assert macros["extrapUp"] == r"1.0\cdot 10^{-16}"
    with mpmath.workdps(30):
        assert abs(mpmath.mpf(macros["percentBelow"]) - 100 * (1 - mpmath.mpf(macros["czero"]) * mpmath.pi)) < 1e-3
    out = tmp_path / "numbers.tex"
    gen.write(macros, out)
    text = out.read_text()
    assert all(rf"\newcommand{{\{k}}}" in text for k in macros)


def test_the_note_uses_only_generated_numbers(tmp_path):
    tex = (NOTE / "cstar.tex").read_text()
    macros = _generator().collect(_reports(tmp_path))
    used = set(re.findall(r"\\([A-Za-z]+)", tex))
    assert {k for k in macros if k in used} == set(macros), "every generated number appears in the note"
    # no long decimals typed into the note (small exact constants such as 1/2 or 10^-6 are allowed)
    assert not re.findall(r"\d\.\d{3,}", tex)


def test_the_note_builds(tmp_path):
    """With latexmk installed (`make note` installs Debian's texlive when missing), the note compiles
    against generated numbers; skipped otherwise."""
    if shutil.which("latexmk") is None:
        pytest.skip("latexmk not installed")
    gen = _generator()
    gen.write(gen.collect(_reports(tmp_path)), tmp_path / "numbers.tex")
    env = {**os.environ, "TEXINPUTS": f"{tmp_path}:"}
    run = subprocess.run(["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", f"-outdir={tmp_path}",
                          "cstar.tex"], cwd=NOTE, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:]
    assert (tmp_path / "cstar.pdf").stat().st_size > 10_000
