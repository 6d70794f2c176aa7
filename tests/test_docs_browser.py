"""The documentation site, built from this checkout into a temporary directory and opened in
headless Chromium: the front page renders with its title and navigation, a claim page with its
statement, and an API page with a known function.

Skipped when MkDocs is not installed (``pip install -e '.[docs]'``; ``make docs`` installs it)
and, like the other browser tests, when Chromium is missing unless COUNTDP_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import _browser

pytest.importorskip("mkdocs")
pytest.importorskip("mkdocstrings")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("docs") / "site"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]),
               NO_MKDOCS_2_WARNING="1")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"),
                          "-d", str(out)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    return out


def test_front_page_renders_with_title_and_navigation(site):
    _browser.need_chromium()
    dom = _browser.dump_dom(site / "index.html")
    assert "<title>countdp</title>" in dom
    for entry in ("Artifact evaluator", "Practitioner", "Researcher", "Claims", "Figures", "countdp.divergence"):
        assert entry in dom, entry
    assert "8|a1'|^3/27" in dom.replace("&#39;", "'")


def test_a_claim_page_shows_its_statement(site):
    _browser.need_chromium()
    dom = _browser.dump_dom(site / "claims" / "eq3" / "index.html")
    assert "sigma = Phi^-1(1/2 + r0/(2(1+c))) is positive and finite" in dom


def test_the_api_page_documents_a_known_function(site):
    _browser.need_chromium()
    dom = _browser.dump_dom(site / "api" / "divergence" / "index.html")
    assert "zcdp_to_approx_dp" in dom and "tight_rho" in dom


def test_the_gallery_shows_every_figure_with_its_caption(site):
    pages = (site / "figures" / "index.html").read_text()
    for png in sorted((ROOT / "figures").glob("*.png")):
        assert f'src="{png.name}"' in pages or f"{png.name}" in pages, png.name
        assert (site / "figures" / png.name).exists(), png.name
