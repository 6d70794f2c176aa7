"""A throwaway project for the harness tests (countdp.harness.runner, .loader, .pool, .cli, ...): a directory
with its own ``paper_checks/`` holding the check scripts a test writes, so that no test depends on
the project's real checks; and the JSON reports of a run without their timings."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from countdp.harness import report

#: the first line of a tiny check script
HEAD = "from countdp.harness.claims import claim\n"


def make_root(tmp: Path, scripts: dict[str, str]) -> Path:
    """Write ``paper_checks/<name>.py`` under ``tmp`` for each script (dedented); return ``tmp``."""
    d = tmp / "paper_checks"
    d.mkdir(parents=True, exist_ok=True)
    for name, text in scripts.items():
        (d / f"{name}.py").write_text(textwrap.dedent(text))
    return tmp


#: two claims that pass
PASSING = HEAD + '''
TITLE = "Section 4: a passing script"

@claim("lem4.1", routes=["closed form", "quadrature"])
def check_first(c):
    import mpmath
    c.compare({"sigma": 0.5}, mpmath.mpf(1) / 3, "==", mpmath.mpf(1) / 3, tol=mpmath.mpf(10) ** -25)
    c.control("a constant off by 1e-3", mpmath.mpf(1) / 3, "==", mpmath.mpf(1) / 3 + 1e-3,
              tol=mpmath.mpf(10) ** -25)
    c.slack("min 0.5 at sigma = 0.5")
    c.finding(argmax=0.5)

@claim("eq8", routes=["a", "b"])
def check_second(c):
    c.compare({"n": 1}, 1.0, "<=", 2.0)
    c.control("the wrong drift", 3.0, "<=", 2.0)
'''

#: claims that fail, raise, leave a control unrejected, kill their worker, exit
BAD = HEAD + '''
import os

@claim("eq9", routes=["a", "b"])
def check_fails(c):
    c.compare({"n": 1}, 1.0, "==", 2.0, tol=0.5)
    c.control("perturbed", 3.0, "<=", 2.0)

@claim("eq10", routes=["a", "b"])
def check_raises(c):
    c.compare({"n": 1}, 1.0, "==", 1.0)
    raise ZeroDivisionError("boom in eq10")

@claim("eq11", routes=["a", "b"])
def check_control_passes(c):
    c.compare({"n": 1}, 1.0, "==", 1.0)
    c.control("a perturbation the comparison cannot see", 1.0, "<=", 2.0)

@claim("eq12", routes=["a", "b"])
def check_kills_worker(c):
    os._exit(3)

@claim("sec5.mono", routes=["a", "b"])
def check_after_the_crash(c):
    c.compare({"n": 2}, 2.0, "==", 2.0)
    c.control("perturbed", 2.0, "==", 3.0)

@claim("sec5.post", routes=["a", "b"])
def check_system_exit(c):
    raise SystemExit(4)
'''

#: a script that fails to import
BROKEN = "import countdp_no_such_module_for_the_test\n"


def _without_seconds(obj):
    if isinstance(obj, dict):
        out = {k: _without_seconds(v) for k, v in obj.items() if k != "seconds"}
        if isinstance(out.get("scripts"), dict):  # summary.json: script -> seconds
            out["scripts"] = sorted(out["scripts"])
        return out
    if isinstance(obj, list):
        return [_without_seconds(v) for v in obj]
    return obj


def reports_without_seconds(run, where: Path) -> dict[str, str]:
    """The JSON reports of ``run`` written to ``where``, by file name, without their timings."""
    report.write_reports(run, where)
    return read_without_seconds(where)


def read_without_seconds(where: Path) -> dict[str, str]:
    """The JSON reports in ``where``, by file name, without their timings."""
    out = {}
    for p in sorted(where.glob("*.json")):
        out[p.name] = json.dumps(_without_seconds(json.loads(p.read_text(encoding="utf-8"))),
                                 indent=1, sort_keys=True)
    return out
