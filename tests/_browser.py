"""Headless Chromium for the report tests: render a page, read back what its scripts measured,
take a screenshot.

Chromium is Debian's ``chromium`` package (``/usr/bin/chromium``; ``make browser`` installs it
when missing, and ``make test`` runs that first).  It runs as the machine needs it: headless,
no sandbox (root), no GPU, no network of its own, a fresh profile directory each time.

Run alone, it screenshots a page: ``python tests/_browser.py reports/index.html reports/index.png``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio"]


def need_chromium() -> None:
    """Skip the calling test when Chromium is missing -- or fail it when COUNTDP_REQUIRE_BROWSER
    is set (CI), so that a browser test can never be skipped there."""
    import pytest

    if chromium() is None:
        if os.environ.get("COUNTDP_REQUIRE_BROWSER"):
            pytest.fail("chromium is not installed, and COUNTDP_REQUIRE_BROWSER is set (make browser)")
        pytest.skip("chromium is not installed (make browser installs it)")


def chromium() -> str | None:
    """The Chromium executable: $COUNTDP_CHROMIUM, or chromium / chromium-browser on PATH."""
    env = os.environ.get("COUNTDP_CHROMIUM")
    if env:
        return env if Path(env).exists() else None
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _run(args: list[str], timeout: float) -> subprocess.CompletedProcess:
    exe = chromium()
    if exe is None:
        raise FileNotFoundError("chromium is not installed (make browser installs it)")
    with tempfile.TemporaryDirectory(prefix="countdp-chromium-") as profile:
        return subprocess.run([exe, *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=timeout, check=False)


def dump_dom(page: str | os.PathLike, timeout: float = 120, budget_ms: int = 10_000,
             width: int = 1400) -> str:
    """The DOM of ``page`` after its load event and scripts ran (``--dump-dom``), in a window
    ``width`` pixels wide."""
    out = _run([f"--window-size={width},900", f"--virtual-time-budget={budget_ms}", "--dump-dom",
                Path(page).resolve().as_uri()], timeout)
    if out.returncode != 0 or "<html" not in out.stdout:
        raise RuntimeError(f"chromium --dump-dom failed ({out.returncode}): {out.stderr[-800:]}")
    return out.stdout


def screenshot(page: str | os.PathLike, png: str | os.PathLike, width: int = 1400,
               height: int = 1600, timeout: float = 120, script: str = "") -> Path:
    """A PNG screenshot of ``page`` at ``width`` x ``height``; ``script`` (JavaScript) runs at
    the load event first, in a copy of the page (to open a claim, say)."""
    png = Path(png).resolve()
    png.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="countdp-shot-") as d:
        if script:
            src = Path(page)
            copy = Path(d) / src.name
            copy.write_text(src.read_text(encoding="utf-8").replace(
                "</body>", '<script>window.addEventListener("load", function () {' + script
                + '});</script></body>'), encoding="utf-8")
            page = copy
        out = _run([f"--window-size={width},{height}", "--virtual-time-budget=10000",
                    f"--screenshot={png}", Path(page).resolve().as_uri()], timeout)
    if not png.exists() or png.stat().st_size == 0:
        raise RuntimeError(f"chromium --screenshot failed ({out.returncode}): {out.stderr[-800:]}")
    return png


def probe(page: str | os.PathLike, script: str, timeout: float = 120, width: int = 1400) -> str:
    """Run ``script`` (JavaScript, at the page's load event) in a copy of ``page`` and return
    the text it leaves in ``document.getElementById("probe-result")``."""
    src = Path(page)
    text = src.read_text(encoding="utf-8")
    hook = ('<pre id="probe-result"></pre><script>window.addEventListener("load", function () {'
            'var out; try { out = (function () {' + script + '})(); } catch (e) { out = "ERROR " + e; }'
            'document.getElementById("probe-result").textContent = out; });</script>')
    with tempfile.TemporaryDirectory(prefix="countdp-probe-") as d:
        copy = Path(d) / src.name
        copy.write_text(text.replace("</body>", hook + "</body>"), encoding="utf-8")
        dom = dump_dom(copy, timeout, width=width)
    m = re.search(r'<pre id="probe-result">(.*?)</pre>', dom, re.S)
    if not m:
        raise RuntimeError("the probe left no result")
    import html

    return html.unescape(m.group(1))


if __name__ == "__main__":  # pragma: no cover
    if len(sys.argv) != 3:
        raise SystemExit("usage: python tests/_browser.py PAGE.html OUT.png")
    print(screenshot(sys.argv[1], sys.argv[2]))
