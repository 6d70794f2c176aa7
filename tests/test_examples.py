"""The examples in examples/ run as a user runs them (a subprocess, the public API only) and
print what their docstrings promise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

EXPECTED = {
    "privacy_budget.py": ["sigma             0.031338", "needs r0 = 0.0670615"],
    "new_noise_law.py": ["D_2(Y_9 || Y_10) = 0.5138228", "tight rho* = 0.282834540802 in [0.282834540802, "
                         "0.282834540802]", "rho* / v(10) = 0.3240", "large-alpha end: the noise's log density is "
                         "1-Lipschitz"],
    "one_figure.py": ["claims: sec5.1.conv", "caption: eps(n) at delta = 1e-6", "same as the committed figure"],
    "claim_at_50_digits.py": ["eq3: PASS at 50 digits", "evidence: certified instances"],
}


def test_every_example_is_tested():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.slow
def test_example_runs_and_prints_its_result(name, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]),
               MPLBACKEND="Agg")
    args = [sys.executable, str(EXAMPLES / name)] + ([str(tmp_path)] if name == "one_figure.py" else [])
    run = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert run.returncode == 0, run.stderr
    for line in EXPECTED[name]:
        assert line in run.stdout, f"{name}: {line!r} not in\n{run.stdout}"
