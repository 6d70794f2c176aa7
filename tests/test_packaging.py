"""Packaging and provenance: the citation file is valid CFF 1.2, the package list of
pyproject.toml holds every subpackage (so the wheel misses none), and reports say which version
and commit produced them."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import countdp
from countdp.harness.provenance import provenance
from countdp.harness.report import environment
from countdp.harness.results import Settings

ROOT = Path(__file__).resolve().parents[1]


def test_citation_file_is_valid_cff():
    from cffconvert.cli.create_citation import create_citation

    citation = create_citation(str(ROOT / "CITATION.cff"), None)
    citation.validate()  # raises on a schema violation
    assert "2607.14406" in (ROOT / "CITATION.cff").read_text()


def test_the_wheel_lists_every_subpackage():
    text = (ROOT / "pyproject.toml").read_text()  # (tomllib is 3.11+; the list is a literal)
    listed = set(ast.literal_eval(re.search(r"^packages = (\[.*?\])", text, re.M | re.S).group(1)))
    src = ROOT / "src"
    found = {".".join(p.parent.relative_to(src).parts) for p in src.rglob("__init__.py")}
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
    assert '"countdp_checks" = "paper_checks"' in text
    assert (ROOT / "paper_checks" / "__init__.py").exists()


def test_the_version_is_written_once():
    text = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in text and 'attr = "countdp.__version__"' in text
    assert countdp.__version__.count(".") == 2


def test_reports_and_version_name_the_commit():
    prov = provenance()
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()
    if not head:
        pytest.skip("not a git checkout")
    assert prov.source == "git" and prov.commit == head
    env = environment(Settings())
    assert env["countdp"] == countdp.__version__ and env["commit"].startswith(head[:12])
    out = subprocess.run([sys.executable, "-m", "countdp", "--version"], cwd=ROOT,
                         capture_output=True, text=True, env={"PYTHONPATH": str(ROOT / "src"),
                                                              "PATH": "/usr/bin:/bin"})
    assert out.stdout.startswith(f"countdp {countdp.__version__} (commit {head[:12]}")
