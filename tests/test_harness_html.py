"""reports/index.html in a real browser: headless Chromium (Debian's chromium package) renders
the page of a small run with figures; every claim row and every figure must be rendered, and
sorting, filtering and expanding must work.  A screenshot is saved (``reports/screenshots/``
of the checkout) to be looked at.

Without Chromium the browser tests are skipped, unless COUNTDP_REQUIRE_BROWSER=1 (set by
``make test`` and CI, whose set-up installs Chromium first: ``make browser``), when they fail."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import _browser
from _check_roots import make_root
from countdp.harness import catalogue, report, runner
from countdp.harness.results import Settings

HEAD = "from countdp.harness.claims import claim\nimport mpmath\n"

SCRIPTS = {
    "a_pass": HEAD + '''
TITLE = "Section 4: a passing claim"

@claim("lem4.1", routes=["closed form", "mpmath quadrature"])
def good(c):
    for k in range(30):
        c.compare({"sigma": k / 10}, mpmath.mpf(k), "==", mpmath.mpf(k) + mpmath.mpf(10) ** -25,
                  tol=mpmath.mpf(10) ** -20, route="quadrature vs closed form")
    c.control("constant off by 1e-6", 1, "==", 1.000001, tol=1e-12)
    c.slack("equality to 1e-25")
    c.finding(what="where it sits", at=mpmath.mpf(1) / 7)


def figures(settings):
    from countdp.harness.plotting import new_figure, save

    paths = []
    for name, claims in (("first_figure", ("lem4.1",)), ("second_figure", ("lem4.1", "eq9"))):
        fig, ax = new_figure()
        ax.plot([0, 1, 2], [0, 1, 4], label="$x^2$")
        ax.set_title(name)
        ax.legend()
        paths.append(save(fig, settings.figures_dir, name, claims=claims, caption=f"the {name}"))
    return paths
''',
    "b_fail": HEAD + '''
TITLE = "Section 5: a failing claim"

@claim("eq9", routes=["a", "b"])
def fails(c):
    c.compare({"n": 3}, 1.0, "==", 2.0, tol=0.1, route="a vs b")
    c.control("x", 3, "<=", 2)

@claim("eq10", routes=["a", "b"])
def errs(c):
    raise ValueError("the last line of the traceback")
''',
}


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("html")
    root = make_root(tmp, SCRIPTS)
    settings = Settings(quick=True, figures_dir=str(tmp / "figures"))
    run = runner.reproduce(settings, jobs=1, root=root, progress=False, figures=True)
    report.write_reports(run, tmp / "reports")
    figs = [Path(f).stem for sr in run.scripts for f in sr.figures or []]
    assert figs == ["first_figure", "second_figure"]
    return tmp / "reports" / "index.html", run, figs


def test_page_is_self_contained(page):
    path, run, figs = page
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)
    assert len(re.findall(r'src="data:image/png;base64,', text)) == len(figs)
    assert 'id="claim-eq9"' in text and 'id="fig-second_figure"' in text


@pytest.mark.slow
def test_every_claim_row_and_figure_renders(page):
    _browser.need_chromium()
    path, run, figs = page
    out = json.loads(_browser.probe(path, """
        var rows = Array.prototype.map.call(document.querySelectorAll("tbody.claim"), function (b) {
            var r = b.querySelector("tr.row").getBoundingClientRect();
            return [b.dataset.id, r.width > 0 && r.height > 0];
        });
        var imgs = Array.prototype.map.call(document.querySelectorAll("figure.fig img"), function (i) {
            var r = i.getBoundingClientRect();
            return [i.alt, i.complete && i.naturalWidth > 100 && r.width > 100 && r.height > 50];
        });
        return JSON.stringify({rows: rows, imgs: imgs, shown: document.getElementById("shown").textContent});
    """))
    ids = [r[0] for r in out["rows"]]
    assert sorted(ids) == sorted(run.statuses())  # every claim, checked or not
    assert len(ids) == len(catalogue.CATALOGUE)
    assert all(ok for _, ok in out["rows"]), [i for i, ok in out["rows"] if not ok]
    assert [name for name, _ in out["imgs"]] == figs
    assert all(ok for _, ok in out["imgs"]), out["imgs"]
    assert out["shown"] == f"{len(ids)} of {len(ids)} claims"


@pytest.mark.slow
def test_sort_filter_and_expand(page):
    _browser.need_chromium()
    path, run, _ = page
    out = json.loads(_browser.probe(path, """
        function visible() {
            return Array.prototype.filter.call(document.querySelectorAll("tbody.claim"),
                function (b) { return !b.hidden; }).map(function (b) { return b.dataset.id; });
        }
        function order() { return Array.prototype.map.call(document.querySelectorAll("tbody.claim"),
                function (b) { return b.dataset.id; }); }
        var res = {};
        var th = document.querySelector('th[data-key="rank"]');
        th.click();
        res.by_status = order().slice(0, 3);
        var idth = document.querySelector('th[data-key="id"]');
        idth.click(); res.id_asc = order(); idth.click(); res.id_desc = order();
        var fs = document.getElementById("f-status");
        fs.value = "FAIL"; fs.dispatchEvent(new Event("change"));
        res.fail = visible(); res.shown = document.getElementById("shown").textContent;
        fs.value = ""; fs.dispatchEvent(new Event("change"));
        var sec = document.getElementById("f-section");
        sec.value = "Section 4"; sec.dispatchEvent(new Event("change"));
        res.section = visible();
        sec.value = ""; sec.dispatchEvent(new Event("change"));
        var text = document.getElementById("f-text");
        text.value = "LEM4"; text.dispatchEvent(new Event("input")); res.text = visible();
        text.value = ""; text.dispatchEvent(new Event("input"));
        var body = document.getElementById("claim-lem4.1");
        var detail = body.querySelector("tr.detail");
        res.closed = detail.getBoundingClientRect().height;
        body.querySelector("tr.row td").click();
        res.open = detail.getBoundingClientRect().height;
        res.cases = detail.querySelectorAll("table.cases tr").length - 1;
        res.control = detail.querySelector("ul.control").textContent;
        res.cert = detail.textContent.indexOf("Certificate") >= 0;
        res.figlinks = Array.prototype.map.call(detail.querySelectorAll('a[href^="#fig-"]'),
            function (a) { return a.getAttribute("href"); });
        document.getElementById("collapse-all").click();
        res.after = detail.getBoundingClientRect().height;
        return JSON.stringify(res);
    """))
    assert set(out["by_status"][:2]) == {"eq10", "eq9"}  # error and fail first
    assert out["id_asc"] == sorted(out["id_asc"], key=lambda s: s.lower()) or out["id_asc"][0] < out["id_asc"][-1]
    assert out["id_desc"] == list(reversed(out["id_asc"]))
    assert out["fail"] == ["eq9"] and out["shown"].startswith("1 of ")
    assert out["section"] == ["lem4.1"]
    assert out["text"] == ["lem4.1"]
    assert out["closed"] == 0 and out["open"] > 100 and out["after"] == 0
    assert out["cases"] == 30
    assert "rejected: constant off by 1e-6" in out["control"]
    assert out["cert"] is True
    assert out["figlinks"] == ["#fig-first_figure", "#fig-second_figure"]


@pytest.mark.slow
def test_screenshot(page):
    """Screenshots of the page as it opens and with a claim expanded, kept in
    reports/screenshots/ of the checkout to be looked at."""
    _browser.need_chromium()
    path, _, _ = page
    keep = Path(__file__).resolve().parents[1] / "reports" / "screenshots"
    keep.mkdir(parents=True, exist_ok=True)
    opened = _browser.screenshot(path, path.parent / "expanded.png", script=(
        'document.querySelector("#claim-eq9 tr.row td").click();'
        'document.getElementById("claim-lem4.1").querySelector("tr.row td").click();'))
    assert opened.stat().st_size > 20_000
    shutil.copy(opened, keep / "index_test_run_expanded.png")
    shot = _browser.screenshot(path, path.parent / "index.png")
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    shutil.copy(shot, keep / "index_test_run.png")


@pytest.mark.slow
def test_column_heads_stick_to_the_filter_bar_without_a_gap(page):
    """Scrolled, at a wide and at a narrow width (the filter bar wraps there), the column heads
    sit directly below the sticky filter bar: no gap for the rows to show through.  The page is
    scrolled inside <body> (headless screenshots of a scrolled window come out blank)."""
    _browser.need_chromium()
    path, _, _ = page
    for width in (1400, 700):
        out = json.loads(_browser.probe(path, """
            document.documentElement.style.height = "100%"; document.documentElement.style.overflow = "hidden";
            document.body.style.height = "100%"; document.body.style.overflow = "auto";
            window.dispatchEvent(new Event("resize"));
            document.body.scrollTop = 600;
            var bar = document.querySelector(".controls").getBoundingClientRect();
            var th = document.querySelector("#claims > thead th").getBoundingClientRect();
            return JSON.stringify({bar: bar.bottom, th: th.top, scrolled: document.body.scrollTop});
        """, width=width))
        assert out["scrolled"] > 0 and out["th"] <= out["bar"] + 0.5, (width, out)
