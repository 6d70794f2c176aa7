"""The test command of one mutant (cosmic-ray runs it in the mutated copy of the project).

The mutated file is the one ``git diff`` shows in the copy; the plan written by ``run.py`` names
the claims and the unit tests that exercise its module.  The quick claims run first, then (if
they pass) the unit tests, each under its own time limit; the outcome of both is printed as one
``MUTANT-RECORD {json}`` line, which cosmic-ray stores with the mutant.  Exit status 1 when the
mutant is killed (a claim or a test fails, or a time limit is hit), 0 when it survives.

usage: command.py --work DIR [--module NAME]   (--module: the unmutated baseline of one module)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

RECORD = "MUTANT-RECORD "


def _run(cmd: list[str], cwd: Path, timeout: float | None, log: Path) -> tuple[str, float]:
    """Run ``cmd`` in its own process group: ('passed' | 'failed' | 'timeout' | 'no-tests', s)."""
    env = dict(os.environ, PYTHONPATH=str(cwd / "src"), PYTHONDONTWRITEBYTECODE="1")
    start = time.monotonic()
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout", time.monotonic() - start
        finally:  # a time limit, or this command stopped: nothing of the run is left behind
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    seconds = time.monotonic() - start
    if code == 5 and cmd[2] == "pytest":  # pytest: no test collected
        return "no-tests", seconds
    return ("passed" if code == 0 else "failed"), seconds


def claims_command(python: str, claims: list[str], reports: Path, jobs: int) -> list[str]:
    return [python, "-m", "countdp", "reproduce", "--quick", "--jobs", str(jobs), "--no-figures",
            "--quiet", "--reports", str(reports), "--only", *claims]


def tests_command(python: str, tests: list[str], jobs: int) -> list[str]:
    return [python, "-m", "pytest", "-q", "-x", "-p", "no:randomly", "-p", "no:cacheprovider",
            "-n", str(jobs if jobs > 1 else 0), *[f"tests/{t}" for t in tests]]


def mutated_module(tree: Path) -> tuple[str, str]:
    """The module the mutation changed (its dotted name) and the diff (``-U0``)."""
    names = subprocess.run(["git", "diff", "--name-only"], cwd=tree, capture_output=True,
                           text=True, check=True).stdout.split()
    if len(names) != 1:  # reported as a mutant that did not run (see report.py)
        print(RECORD + json.dumps({"claims": "error", "tests": "error", "files": names}))
        raise SystemExit(2)
    diff = subprocess.run(["git", "diff", "-U0"], cwd=tree, capture_output=True, text=True,
                          check=True).stdout
    parts = list(Path(names[0]).with_suffix("").parts[1:])  # drop src/
    return ".".join(parts), diff


def changed_lines(diff: str) -> list[int]:
    """The lines of the unmutated file that a ``-U0`` diff changes (``@@ -L[,N] +... @@``)."""
    lines = []
    for m in re.finditer(r"^@@ -(\d+)(?:,(\d+))? ", diff, re.M):
        start, count = int(m.group(1)), int(m.group(2) or 1)
        lines += range(start, start + max(count, 1))
    return lines


def site_tests(work: Path, plan: dict, module: str, diff: str) -> list[str]:
    """The unit tests of a mutant: with a coverage map (``plan["coverage"]``), the test files
    that ran the function enclosing each changed line (coverage_map.py), plus the import map's
    for a line that runs at import; without one, the import map's tests of the module."""
    entry = plan["modules"][module]
    if not plan.get("coverage"):
        return entry["tests"]
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import coverage_map

    path = "src/" + module.replace(".", "/") + ".py"
    source = subprocess.run(["git", "show", f"HEAD:{path}"], cwd=work / "tree", check=True,
                            capture_output=True, text=True).stdout
    lines = {int(k): set(v) for k, v in
             json.loads((work / plan["coverage"]).read_text()).get(path, {}).items()}
    chosen: set[str] = set()
    for line in changed_lines(diff) or [0]:
        found = coverage_map.tests_for(lines, source, line)
        chosen |= (set(entry["tests"]) | set(entry.get("tests_of_file", ()))) if found is None else found
    return sorted(chosen & set(plan["known_tests"]))


def limit(plan: dict, baseline: float | None) -> float | None:
    """FACTOR x the unmutated time + SLACK, or the fixed limit when there was no baseline."""
    return plan["limit"] if baseline is None else plan["factor"] * baseline + plan["slack"]


def test_module(work: Path, module: str, baseline: bool, diff: str = "") -> dict:
    """Claims, then unit tests (all of both for a baseline), each under its time limit."""
    plan = json.loads((work / "plan.json").read_text())
    entry, tree, python = plan["modules"][module], work / "tree", plan["python"]
    tests = entry["tests"] if baseline else site_tests(work, plan, module, diff)
    record = {"module": module, "claims": "none", "tests": "not-run",
              "claims_seconds": 0.0, "tests_seconds": 0.0, "test_files": tests}
    if entry["claims"]:
        record["claims"], record["claims_seconds"] = _run(
            claims_command(python, entry["claims"], work / "scratch" / "reports", plan["jobs"]),
            tree, None if baseline else limit(plan, entry.get("claims_seconds")),
            work / "scratch" / "claims.log")
    if baseline or record["claims"] not in ("failed", "timeout"):
        if tests:
            # (a baseline times the import map's tests: a coverage selection gets the fixed limit)
            record["tests"], record["tests_seconds"] = _run(
                tests_command(python, tests, plan["jobs"]), tree,
                None if baseline else limit(plan, None if plan.get("coverage")
                                            else entry.get("tests_seconds")),
                work / "scratch" / "tests.log")
        else:
            record["tests"] = "none"
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--module", help="run the unmutated baseline of this module")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # (runs the clean-up of _run)
    work = args.work.resolve()
    (work / "scratch").mkdir(exist_ok=True)
    if args.module:
        record = test_module(work, args.module, baseline=True)
    else:
        module, diff = mutated_module(work / "tree")
        record = test_module(work, module, baseline=False, diff=diff)
        record["diff"] = diff
    print(RECORD + json.dumps(record))
    killed = record["claims"] in ("failed", "timeout") or record["tests"] in ("failed", "timeout")
    return 1 if killed else 0


if __name__ == "__main__":
    sys.exit(main())
