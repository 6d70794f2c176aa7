"""Re-run the triaged survivors against today's unit tests: ``make mutants-retest``.

Every entry of ``mutation/triage.toml`` names a mutant by its source line and its mutated line.
This script puts each one back into a copy of the checkout (the line found by its text, the
line number a hint), runs the unit tests whose imports reach the mutated module (``plan.py``,
the module or a module importing it), and says whether they now fail.  It measures what a new
test bought on the mutants that once survived, and keeps the entries' "killed since by ..."
honest: an entry still triaged ``real`` must come out ``killed``.

usage: retest.py [--files SUBSTRING ...] [--classes benign,real] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import plan as planning  # noqa: E402
import report  # noqa: E402
from command import tests_command  # noqa: E402
from run import unit_test_files  # noqa: E402

ROOT = HERE.parent


def locate(lines: list[str], source: str, hint: int) -> int | None:
    """The 0-based index of the line whose text is ``source`` (stripped): the hint when it
    matches, else the match nearest the hint; None when the line is gone."""
    want = source.strip()
    if 0 < hint <= len(lines) and lines[hint - 1].strip() == want:
        return hint - 1
    found = [i for i, ln in enumerate(lines) if ln.strip() == want]
    return min(found, key=lambda i: abs(i - (hint - 1))) if found else None


def mutate(text: str, source: str, mutant: str, hint: int) -> str | None:
    """``text`` with the line ``source`` replaced by ``mutant`` (its indentation kept)."""
    lines = text.splitlines(keepends=True)
    i = locate(lines, source, hint)
    if i is None:
        return None
    line = lines[i]
    indent = line[: len(line) - len(line.lstrip())]
    ending = line[len(line.rstrip("\r\n")):]
    lines[i] = indent + mutant.strip() + ending
    return "".join(lines)


def copy_checkout(dest: Path) -> None:
    """The tracked and untracked (not ignored) files of the checkout, into ``dest``."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout.split("\0")
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def tests_of(tree: Path) -> dict[str, list[str]]:
    """module -> the unit test files whose imports reach it within one step."""
    lib = planning.Library(tree)
    graph = planning.module_graph(lib)
    tests = planning.file_imports(lib, unit_test_files(tree))
    return {m: planning.plan_for(m, graph, {}, tests, 0, 1)["tests"] for m in lib.paths}


def retest(entry: dict, tree: Path, tests: dict[str, list[str]], python: str, jobs: int,
           timeout: float) -> dict:
    path = tree / entry["file"]
    original = path.read_text()
    mutated = mutate(original, entry["source"], entry["mutant"], int(entry.get("line", 0)))
    row = {k: entry[k] for k in ("file", "line", "operator", "class")}
    if mutated is None:
        return dict(row, outcome="gone", tests=[], seconds=0.0)
    module = planning.module_name(tree, path)
    chosen = tests.get(module, [])
    cmd = tests_command(python, chosen, jobs)
    path.write_text(mutated)
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, timeout=timeout,
                              env=dict(os.environ, PYTHONPATH=str(tree / "src")))
        outcome = "survived" if proc.returncode == 0 else ("no-tests" if proc.returncode == 5 else "killed")
        failed = [ln.split(" ", 1)[1].split(" - ")[0] for ln in proc.stdout.splitlines()
                  if ln.startswith("FAILED ")]
    except subprocess.TimeoutExpired:
        outcome, failed = "killed", ["(time limit)"]
    finally:
        path.write_text(original)
    return dict(row, outcome=outcome, tests=chosen, failed=failed,
                seconds=round(time.monotonic() - start, 1))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--files", nargs="*", default=[], help="only entries whose file contains one of these")
    p.add_argument("--classes", default="benign,real", help="comma-separated triage classes")
    p.add_argument("--triage", type=Path, default=HERE / "triage.toml")
    p.add_argument("--json", type=Path, default=None, help="write the rows here")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--timeout", type=float, default=900.0)
    p.add_argument("--python", default=sys.executable)
    args = p.parse_args(argv)
    classes = set(args.classes.split(","))
    entries = [e for e in report.load_triage(args.triage) if e["class"] in classes
               and (not args.files or any(f in e["file"] for f in args.files))]
    rows = []
    with tempfile.TemporaryDirectory(prefix="countdp-retest-") as tmp:
        tree = Path(tmp)
        copy_checkout(tree)
        tests = tests_of(tree)
        for n, entry in enumerate(entries, 1):
            row = retest(entry, tree, tests, args.python, args.jobs, args.timeout)
            rows.append(row)
            print(f"{n:3d}/{len(entries)} {row['outcome']:8s} {row['class']:6s} "
                  f"{row['file'].removeprefix('src/countdp/')}:{row['line']} {row['operator']} "
                  f"{row['seconds']:.0f} s {' '.join(row.get('failed', [])[:1])}", flush=True)
    counts = {}
    for r in rows:
        counts.setdefault(r["class"], {}).setdefault(r["outcome"], 0)
        counts[r["class"]][r["outcome"]] += 1
    print(json.dumps(counts, sort_keys=True))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"counts": counts, "rows": rows}, indent=1))
    # a survivor triaged real owes a test: one that still survives is a failure of the suite
    owed = [r for r in rows if r["class"] == "real" and r["outcome"] == "survived"]
    for r in owed:
        print(f"real survivor not killed: {r['file']}:{r['line']} {r['operator']}", file=sys.stderr)
    return 1 if owed else 0


if __name__ == "__main__":
    sys.exit(main())
