"""Which claims and which unit tests exercise a library module: the fast test command of a mutant.

The map is read from the import statements alone (no code is run): a module's *users* are the
modules, check scripts and test files that import it, directly or through modules that do; a
script's or a test's imports include those of the local helpers it imports (``_name.py`` beside
it) and the literal ``__import__("countdp....")`` calls.
``from countdp import formulas`` followed by ``formulas.sigma`` counts as an import of the
submodule that defines ``sigma`` (a package's ``__init__`` re-exports its submodules' names), so
one formula's mutant does not run every script that touches the package.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

LIBRARY = "countdp"


def module_name(root: Path, path: Path) -> str:
    """``src/countdp/arb/verdicts.py`` -> ``countdp.arb.verdicts`` (a package: its ``__init__``)."""
    parts = list(path.relative_to(root / "src").with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def library_modules(root: Path) -> dict[str, Path]:
    """Every module and package of the library under ``src/``, by dotted name."""
    return {module_name(root, p): p for p in sorted((root / "src" / LIBRARY).rglob("*.py"))}


def _defined_names(tree: ast.Module) -> set[str]:
    """The names a module binds at top level (functions, classes, assignments)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


class Library:
    """The library's modules with, for every package, which submodule provides which name."""

    def __init__(self, root: Path):
        self.root = root
        self.paths = library_modules(root)
        self.trees = {m: ast.parse(p.read_text(), str(p)) for m, p in self.paths.items()}
        self.packages = {m for m, p in self.paths.items() if p.name == "__init__.py"}
        self.providers: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        for mod, tree in self.trees.items():
            parent = mod.rpartition(".")[0]
            if parent in self.packages:
                for name in _defined_names(tree):
                    self.providers[parent][name].add(mod)
                self.providers[parent][mod.rpartition(".")[2]].add(mod)
        for pkg in self.packages:  # names a package's __init__ imports from its submodules
            for node in ast.walk(self.trees[pkg]):
                if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                    for alias in node.names:
                        self.providers[pkg][alias.asname or alias.name].add(f"{pkg}.{node.module}")

    def resolve(self, target: str, names: list[str]) -> set[str]:
        """The modules meant by ``from target import names`` (or ``target.name`` accesses)."""
        if target not in self.paths:
            return set()
        if target not in self.packages:
            return {target}
        found: set[str] = set()
        for name in names:
            sub = f"{target}.{name}"
            if sub in self.paths:
                found.add(sub)
            else:
                found |= self.providers[target].get(name, set())
        return found or {target}


def _absolute(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def _attribute_uses(tree: ast.AST) -> dict[str, list[str]]:
    """``alias.name`` accesses in a file, by alias."""
    uses: dict[str, list[str]] = defaultdict(list)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            uses[node.value.id].append(node.attr)
    return uses


def imports_of(lib: Library, tree: ast.AST, importer: str = "", is_package: bool = False) -> set[str]:
    """The library modules a file imports, packages resolved to the submodules it uses."""
    uses = _attribute_uses(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = _absolute(importer, is_package, node)
            if not target.split(".")[0] == LIBRARY:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in lib.packages:  # from countdp import formulas: what it uses of it
                    found |= lib.resolve(sub, uses.get(alias.asname or alias.name, []))
                else:
                    found |= lib.resolve(target, [alias.name])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == LIBRARY and alias.name in lib.paths:
                    found |= lib.resolve(alias.name, [])
        elif isinstance(node, ast.Call) and (name := _imported_by_call(node)) in lib.paths:
            found |= lib.resolve(name, [])
    return found


def _imported_by_call(node: ast.Call) -> str | None:
    """``"countdp.x.y"`` of ``__import__("countdp.x.y", ...)`` with a literal name, else None."""
    if not (isinstance(node.func, ast.Name) and node.func.id == "__import__" and node.args):
        return None
    arg = node.args[0]
    return arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None


def local_helpers(path: Path, tree: ast.AST) -> set[Path]:
    """The helper modules ``_name.py`` beside ``path`` that it imports (``from _name import ...``,
    ``import _name``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
    return {path.parent / f"{n}.py" for n in names
            if n.startswith("_") and "." not in n and (path.parent / f"{n}.py").is_file()}


def module_graph(lib: Library) -> dict[str, set[str]]:
    """module -> the library modules it imports (a package's ``__init__`` imports its parts)."""
    return {m: imports_of(lib, t, m, m in lib.packages) - {m} for m, t in lib.trees.items()}


def users(graph: dict[str, set[str]], module: str, depth: int | None) -> set[str]:
    """The module and every library module that imports it within ``depth`` steps (None: all)."""
    importers: dict[str, set[str]] = defaultdict(set)
    for mod, deps in graph.items():
        for d in deps:
            importers[d].add(mod)
    seen, frontier, step = {module}, {module}, 0
    while frontier and (depth is None or step < depth):
        frontier = {i for m in frontier for i in importers[m]} - seen
        seen |= frontier
        step += 1
    return seen


def file_imports(lib: Library, files: list[Path]) -> dict[Path, set[str]]:
    """The library modules each file (a check script, a test) imports, itself or through the
    local helpers it imports (followed to their own helpers): a claim that reads a module only
    through ``paper_checks/_grid.py``, or a test through ``tests/_bad_inputs.py``, exercises it."""
    found = {}
    for f in files:
        mods: set[str] = set()
        seen, todo = set(), [f]
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            tree = ast.parse(path.read_text(), str(path))
            mods |= imports_of(lib, tree)
            todo.extend(local_helpers(path, tree))
        found[f] = mods
    return found


def plan_for(module: str, graph: dict, scripts: dict[Path, set[str]], tests: dict[Path, set[str]],
             script_depth: int | None, test_depth: int) -> dict:
    """The check scripts and the test files whose imports reach ``module``.

    A script counts when it imports a user of the module within ``script_depth`` steps (None:
    any); a test when it imports the module or a user within ``test_depth`` steps (1: the
    module or a module importing it), or is named after the module
    (``tests/test_<package>_<module>.py``)."""
    far, near = users(graph, module, script_depth), users(graph, module, test_depth)
    chosen_scripts = sorted(s.stem for s, mods in scripts.items() if mods & far)
    own = "test_" + "_".join(module.split(".")[1:]) + ".py"
    chosen_tests = sorted(t.name for t, mods in tests.items() if mods & near or t.name == own)
    return {"scripts": chosen_scripts, "tests": chosen_tests}
