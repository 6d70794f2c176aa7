"""The library's shape, read from its own source: the floors and the arrows between them, no
claim id below the harness, and every room small enough to read.

The floors, lowest first: numerics (numbers, contexts, validation) < formulas (every closed
form once) < laws (the noise and output laws, their data types) < arb (certified balls) <
divergence < mechanisms < calculator < harness.  A module imports only from its own floor or
below, so the certified layer never depends on the float engines it certifies.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "countdp"
FLOORS = ["numerics", "formulas", "laws", "arb", "divergence", "mechanisms", "calculator", "harness"]

#: a module over this many lines holds more than one subject
MAX_MODULE_LINES = 650
#: a function over this many lines (decorators and docstring included) does more than one thing
MAX_FUNCTION_LINES = 80


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).with_suffix("")
        parts = ["countdp", *rel.parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()
TREES = {name: ast.parse(path.read_text(), filename=str(path)) for name, path in MODULES.items()}


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _imports(name: str) -> set[str]:
    """The countdp modules ``name`` imports (``from .. import x`` resolved to the module x)."""
    package = name if _is_package(name) else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(TREES[name]):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("countdp")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("countdp"):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in MODULES else target)
    return found - {name}


def _floor(name: str) -> int | None:
    parts = name.split(".")
    return FLOORS.index(parts[1]) if len(parts) > 1 and parts[1] in FLOORS else None


def test_every_subpackage_has_a_floor():
    subpackages = {n.split(".")[1] for n in MODULES if n.count(".") >= 1 and _is_package(n)}
    assert subpackages <= set(FLOORS), subpackages - set(FLOORS)


def test_imports_point_down():
    up = []
    for name in MODULES:
        mine = _floor(name)
        if mine is None:
            continue
        for target in _imports(name):
            theirs = _floor(target)
            if theirs is not None and theirs > mine:
                up.append(f"{name} -> {target}")
    assert not up, "imports pointing up a floor: " + ", ".join(sorted(up))


def test_no_import_cycle():
    graph = {name: {t for t in _imports(name) if t in MODULES} for name in MODULES}
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(path[path.index(nxt):] + [nxt]) if nxt in path else nxt)
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    # a package's __init__ importing its own submodules is not a cycle of subjects
    real = [c for c in cycles if not all(p.startswith(c.split(" -> ")[0]) for p in c.split(" -> "))]
    assert not real, real


def _claim_ids() -> set[str]:
    from countdp.harness.catalogue import CATALOGUE

    return set(CATALOGUE)


def test_no_claim_id_below_the_harness():
    ids = _claim_ids()
    pattern = re.compile(r"[\"'](" + "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
                         + r")[\"']")
    hits = [f"{name}: {m.group(1)}" for name, path in MODULES.items()
            if not name.startswith("countdp.harness") for m in pattern.finditer(path.read_text())]
    assert not hits, hits


def test_no_module_holds_more_than_one_subject():
    long = {name: n for name, path in MODULES.items()
            if (n := len(path.read_text().splitlines())) > MAX_MODULE_LINES}
    assert not long, long


def _functions():
    for name, tree in TREES.items():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                yield name, node.name, node.end_lineno - first + 1


def test_no_function_does_more_than_one_thing():
    long = {f"{m}.{f}": n for m, f, n in _functions() if n > MAX_FUNCTION_LINES}
    assert not long, long


def _public_definitions() -> dict[str, list[str]]:
    """Top-level public functions and classes, by name, with the modules defining them."""
    out = defaultdict(list)
    for name, tree in TREES.items():
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                out[node.name].append(name)
    return out


def test_no_public_name_is_defined_twice():
    twice = {n: m for n, m in _public_definitions().items() if len(m) > 1}
    assert not twice, twice


@pytest.fixture(scope="module")
def every_word() -> dict[Path, set[str]]:
    files = [p for base in ("src", "paper_checks", "tests", "benchmarks", "experiments", "examples", "docs")
             for p in (ROOT / base).rglob("*.py")]
    return {p: set(re.findall(r"\w+", p.read_text())) for p in files}


def test_no_dead_public_name(every_word):
    """Every public top-level function or class is used somewhere outside its own module (the
    library, the check scripts, the tests, the benchmarks or the examples), or inside it."""
    dead = []
    for name, modules in _public_definitions().items():
        for module in modules:
            path = MODULES[module]
            text = path.read_text()
            own_uses = len(re.findall(rf"\b{re.escape(name)}\b", text)) - 1
            # re-exported names count as used only through a use elsewhere
            used_elsewhere = any(name in words for p, words in every_word.items()
                                 if p != path and p.name != "__init__.py")
            if not used_elsewhere and own_uses <= _mentions_in_all(text, name):
                dead.append(f"{module}.{name}")
    assert not dead, dead


def _mentions_in_all(text: str, name: str) -> int:
    m = re.search(r"__all__\s*=\s*\[(.*?)\]", text, re.S)
    return int(bool(m and re.search(rf"[\"']{re.escape(name)}[\"']", m.group(1))))


def test_no_dead_private_function(every_word):
    """A private top-level function is called in its own module (or, rarely, by a test)."""
    dead = []
    for name, tree in TREES.items():
        text = MODULES[name].read_text()
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("_") \
                    and not node.name.startswith("__"):
                if len(re.findall(rf"\b{re.escape(node.name)}\b", text)) == 1 and not any(
                        node.name in words for p, words in every_word.items() if p != MODULES[name]):
                    dead.append(f"{name}.{node.name}")
    assert not dead, dead
