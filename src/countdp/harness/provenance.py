"""Which code produced a report: the version (written once, in ``countdp/__init__.py``) and the
git commit with a dirty flag.

From a checkout the commit is read from git at run time (so a report says exactly which tree it
came from, including uncommitted changes); an installed wheel built by ``make dist`` carries
the commit it was built from in ``countdp/_commit.txt``; otherwise the commit is unknown.
"""

from __future__ import annotations

import functools
import subprocess
from dataclasses import dataclass
from pathlib import Path

import countdp

__all__ = ["Provenance", "provenance"]

_PACKAGE = Path(countdp.__file__).resolve().parent


@dataclass(frozen=True)
class Provenance:
    version: str
    commit: str | None      # full hash, or None when unknown
    dirty: bool = False
    source: str = "unknown"  # "git", "build" or "unknown"

    @property
    def short(self) -> str:
        if self.commit is None:
            return "unknown"
        return self.commit[:12] + ("-dirty" if self.dirty else "")

    @property
    def text(self) -> str:
        return f"{self.version} (commit {self.short})"


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=_PACKAGE, capture_output=True, text=True,
                             timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def _from_git() -> Provenance | None:
    top = _git("rev-parse", "--show-toplevel")
    if not top or not (Path(top) / "src" / "countdp").resolve() == _PACKAGE:
        return None  # not this package's own checkout
    commit = _git("rev-parse", "HEAD")
    if not commit:
        return None
    status = _git("status", "--porcelain", "--untracked-files=no")
    return Provenance(countdp.__version__, commit, bool(status), "git")


def _from_build() -> Provenance | None:
    try:
        words = (_PACKAGE / "_commit.txt").read_text(encoding="utf-8").split()
    except OSError:
        return None
    if not words:
        return None
    return Provenance(countdp.__version__, words[0], "dirty" in words[1:], "build")


@functools.lru_cache(maxsize=1)
def provenance() -> Provenance:
    """The version and commit of the running countdp (read once per process)."""
    return _from_git() or _from_build() or Provenance(countdp.__version__, None)
