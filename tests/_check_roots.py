"""A throwaway project for the harness tests (countdp.harness.runner, .cli, .report): a directory
with its own ``paper_checks/`` holding the check scripts a test writes, so that no test depends on
the project's real checks."""

from __future__ import annotations

import textwrap
from pathlib import Path

#: the first line of a tiny check script
HEAD = "from countdp.harness.claims import claim\n"


def make_root(tmp: Path, scripts: dict[str, str]) -> Path:
    """Write ``paper_checks/<name>.py`` under ``tmp`` for each script (dedented); return ``tmp``."""
    d = tmp / "paper_checks"
    d.mkdir(parents=True, exist_ok=True)
    for name, text in scripts.items():
        (d / f"{name}.py").write_text(textwrap.dedent(text))
    return tmp
