"""``countdp figures --only NAME``: the figure names are read from the scripts' figures modules
(every committed figure has one), only the scripts that make the named figures run, only those
files are written (byte-identical to the committed ones), and an unknown name is a usage error
that lists the names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from countdp.harness import runner

ROOT = Path(__file__).resolve().parents[1]


def test_every_committed_figure_has_a_name_and_a_script():
    names = runner.figure_names(ROOT / "paper_checks")
    assert set(names) == {p.stem for p in (ROOT / "figures").glob("*.png")}
    assert names["cstar_lower_bracket"] == names["cstar_lower_lattice"] == "cstar_lower_lattice"


def _figures(*args):
    return subprocess.run([sys.executable, "-m", "countdp", "figures", "--quiet", "--jobs", "1", *args],
                          capture_output=True, text=True, cwd=ROOT, check=False,
                          env={**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")})


@pytest.mark.slow
def test_only_one_figure(tmp_path):
    out = _figures("--only", "drift_curve", "--figures", str(tmp_path))
    assert out.returncode == 0, out.stderr[-2000:]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["drift_curve.png"]
    assert (tmp_path / "drift_curve.png").read_bytes() == (ROOT / "figures" / "drift_curve.png").read_bytes()
    assert out.stdout.split() == [str(tmp_path / "drift_curve.png")] or out.stdout.strip().endswith("drift_curve.png")


def test_unknown_figure_is_a_usage_error(tmp_path):
    out = _figures("--only", "no_such_figure", "--figures", str(tmp_path))
    assert out.returncode == 2 and "unknown figure no_such_figure" in out.stderr
    assert "cstar_lower_bracket" in out.stderr and "Traceback" not in out.stderr
    assert not any(tmp_path.iterdir())
