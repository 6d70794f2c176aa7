"""Which unit tests run a line of the library: a mutant's tests read from measured coverage.

The import map of ``plan.py`` picks a module's tests from the files that import it or a module
importing it (one step); a test that reaches the module through two steps never meets its
mutants, and a test that imports it but never calls the mutated function runs for nothing.
Coverage answers both: the unit tests are run once, unmutated, under coverage with one context
per test (``pytest --cov-context=test``), and a mutant gets the test files that ran the function
enclosing its line, at any depth.

A line outside every function (a module constant, a default argument, a decorator), or in a
function that also ran outside any test (at import, during collection), changes what every
importer sees: such a mutant keeps the import map's tests as well (``None`` from
:func:`tests_for`). So does every line of a module that caches a function's results
(``functools.lru_cache``, ``cache``, ``cached_property``): a cached body, and the helpers it
calls, run once per process, so coverage credits them to whichever test came first (the Airy
sampler's envelope was credited to two test files, and its own test, which kills a mutant there,
was not run).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import subprocess
from collections import defaultdict
from pathlib import Path

OUTSIDE = ""  # the context of code run outside any test (import, collection)


def measure(tree: Path, tests: list[str], jobs: int, data: Path, python: str) -> None:
    """Run the unit tests ``tests`` (file names in ``tree/tests``) unmutated under coverage, one
    context per test, into ``data``; they must pass (a mutant is measured against a green suite)."""
    cmd = [python, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
           *(["-n", str(jobs)] if jobs > 1 else []), "--cov=countdp", "--cov-context=test",
           "--cov-report=", *[f"tests/{t}" for t in tests]]
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), COVERAGE_FILE=str(data),
               PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"coverage_map: the unmutated unit tests fail under coverage "
                         f"(exit {out.returncode}):\n{out.stdout[-3000:]}{out.stderr[-2000:]}")


def tree_key(tree: Path, tests: list[str]) -> str:
    """A hash of everything a coverage map depends on: the library's and the tests' files."""
    digest = hashlib.sha256()
    files = sorted((tree / "src").rglob("*.py")) + sorted((tree / "tests").glob("*.py"))
    for f in files:
        digest.update(str(f.relative_to(tree)).encode() + b"\0" + f.read_bytes() + b"\0")
    digest.update(json.dumps(sorted(tests)).encode())
    return digest.hexdigest()[:20]


def test_file(context: str) -> str:
    """``tests/test_x.py::TestA::test_b[1]|run`` -> ``test_x.py`` ('' outside any test)."""
    return Path(context.split("::", 1)[0]).name if "::" in context else OUTSIDE


def load(data: Path, tree: Path) -> dict[str, dict[int, set[str]]]:
    """``src/countdp/...py`` (relative to ``tree``) -> line -> the test files that ran it (``''``
    for a run outside any test)."""
    from coverage import CoverageData

    cov = CoverageData(basename=str(data))
    cov.read()
    found: dict[str, dict[int, set[str]]] = {}
    for name in cov.measured_files():
        try:
            rel = str(Path(name).resolve().relative_to(tree.resolve()))
        except ValueError:
            continue
        found[rel] = {line: {test_file(c) for c in ctxs}
                      for line, ctxs in cov.contexts_by_lineno(name).items()}
    return found


def enclosing_body(source: str, line: int) -> tuple[int, int] | None:
    """The lines of the body of the innermost function whose body holds ``line``; None at module
    or class level, or on a ``def``'s own line (its decorators and defaults run at import)."""
    best = None
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            body = node.body if isinstance(node.body, list) else [node.body]
            first, last = body[0].lineno, node.end_lineno
            if isinstance(node, ast.Lambda):
                first = node.lineno
            if first <= line <= last and (best is None or first >= best[0]):
                best = (first, last)
    return best


def caches_results(source: str) -> bool:
    """Whether a function of ``source`` is decorated with a cache (lru_cache, cache,
    cached_property, bare or called, plain or as ``functools.``)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                if name in ("lru_cache", "cache", "cached_property"):
                    return True
    return False


def tests_for(lines: dict[int, set[str]], source: str, line: int) -> set[str] | None:
    """The test files that ran the function enclosing ``line`` (``lines``: the file's entry of
    :func:`load`); None when the line runs at import, or its function ran outside any test, or
    its module caches a function's results (coverage then credits only the first caller)."""
    body = enclosing_body(source, line)
    if body is None or caches_results(source):
        return None
    found: set[str] = set()
    for ln in range(body[0], body[1] + 1):
        found |= lines.get(ln, set())
    if OUTSIDE in found:
        return None
    return found


def selection(coverage: dict[str, dict[int, set[str]]], tree: Path,
              sites: list[tuple[str, int]], known: set[str]) -> dict[str, dict[int, list[str] | None]]:
    """file -> line -> the sorted test files (among ``known``) of each mutant site, None where the
    import map must add its own (see :func:`tests_for`)."""
    out: dict[str, dict[int, list[str] | None]] = defaultdict(dict)
    sources: dict[str, str] = {}
    for path, line in sites:
        source = sources.setdefault(path, (tree / path).read_text())
        found = tests_for(coverage.get(path, {}), source, line)
        out[path][line] = None if found is None else sorted(found & known)
    return dict(out)
