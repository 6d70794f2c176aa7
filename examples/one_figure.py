"""Regenerate one figure of the reports -- figures/eps_vs_conversion.png, Section 5.1's exact
eps(n) against the zCDP conversions -- into a directory of your choice, and compare it with the
committed one (the figures are drawn deterministically: same code, same pixels).

Run: python examples/one_figure.py [OUTPUT_DIR]   (default: a temporary directory)
"""

import shutil
import sys
import tempfile
from pathlib import Path

from countdp.harness.digest import png_text
from countdp.harness.loader import find_checks_dir
from countdp.harness.plotting import figures_differ
from countdp.harness.results import Settings
from countdp_checks.figures import sec5_1_rate

out = Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp())
out.mkdir(parents=True, exist_ok=True)
(path,) = sec5_1_rate.make(Settings(figures_dir=str(out)), "1e-6")
text = png_text(path)
print(f"wrote {path}")
print(f"claims: {text['countdp:claims']}")
print(f"caption: {text['Description']}")

committed = find_checks_dir() / "figures" / Path(path).name
if committed.exists():
    with tempfile.TemporaryDirectory() as expected:
        shutil.copy(committed, expected)
        differ = figures_differ(expected, out)
    print("same as the committed figure" if not differ else f"differs from {committed}: {differ}")
