"""Finding and loading the paper-check scripts.

A check script is ``paper_checks/<name>.py`` (names starting with ``_`` are helpers and are not
run).  It declares claims with :func:`countdp.harness.claims.claim`; optionally ``TITLE`` (the paper
section it verifies) and ``figures(settings) -> list[str]``.  :func:`discover` imports them all;
a script that fails to import is kept, with its traceback, to be reported as an error.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import types
from pathlib import Path
from typing import NamedTuple

from . import claims
from .pool import format_exc

CHECKS_DIRNAME = "paper_checks"
INSTALLED_CHECKS = "countdp_checks"  # the name paper_checks/ is installed under
MODULE_PREFIX = "countdp_check_scripts"  # loaded scripts; not the installed package countdp_checks


def find_checks_dir(start: str | os.PathLike | None = None) -> Path:
    """The project root: the nearest directory at or above ``start`` (default: the current
    directory) that holds ``paper_checks/``.  ``$COUNTDP_ROOT`` overrides the search; then the
    source checkout this package was imported from; last, the check scripts installed with the
    package (``countdp_checks``), whose directory is returned itself."""
    env = os.environ.get("COUNTDP_ROOT")
    if env:
        root = Path(env).expanduser().resolve()
        if root.name == CHECKS_DIRNAME and not (root / CHECKS_DIRNAME).is_dir():
            root = root.parent
        if not (root / CHECKS_DIRNAME).is_dir():
            raise FileNotFoundError(f"COUNTDP_ROOT={env} has no {CHECKS_DIRNAME}/ directory")
        return root
    here = Path(start if start is not None else os.getcwd()).resolve()
    for d in (here, *here.parents):
        if (d / CHECKS_DIRNAME).is_dir():
            return d
    checkout = Path(__file__).resolve().parents[3]  # src/countdp/harness/loader.py -> repo root
    if (checkout / CHECKS_DIRNAME).is_dir():
        return checkout
    installed = installed_checks_dir()
    if installed is not None:
        return installed
    raise FileNotFoundError(
        f"no {CHECKS_DIRNAME}/ directory at or above {here}, and no installed check scripts; "
        "run from the countdp checkout or set COUNTDP_ROOT")


def installed_checks_dir() -> Path | None:
    """The directory of the check scripts installed with the package, if any."""
    try:
        spec = importlib.util.find_spec(INSTALLED_CHECKS)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    d = Path(list(spec.submodule_search_locations)[0])
    return d if any(d.glob("sec*.py")) else None


def is_installed_checks(root: str | os.PathLike) -> bool:
    """Whether ``root`` is the installed check scripts' directory (not a project checkout)."""
    d = installed_checks_dir()
    return d is not None and Path(root).resolve() == d.resolve()


def _checks_path(root: str | os.PathLike) -> Path:
    root = Path(root)
    return root / CHECKS_DIRNAME if (root / CHECKS_DIRNAME).is_dir() else root


def script_paths(root: str | os.PathLike) -> list[Path]:
    """The check scripts under ``root`` (the project root or its ``paper_checks/``), by name."""
    d = _checks_path(root)
    return sorted((p for p in d.glob("*.py") if not p.name.startswith("_")), key=lambda p: p.stem)


def _ensure_path(d: Path, front: bool) -> None:
    s = str(d)
    if s not in sys.path:
        if front:
            sys.path.insert(0, s)
        else:
            sys.path.append(s)


def load_script(path: str | os.PathLike) -> types.ModuleType:
    """Import a check script from its file as ``countdp_check_scripts.<stem>`` (always afresh).

    The script's directory is put on ``sys.path`` so that it can import helper modules
    (``paper_checks/_common.py`` as ``_common``).  Exceptions propagate."""
    path = Path(path).resolve()
    if path.name.startswith("_"):
        raise ValueError(f"{path.name}: files starting with '_' are helpers, not check scripts")
    _ensure_path(path.parent, front=True)
    _ensure_path(path.parent.parent, front=False)
    if MODULE_PREFIX not in sys.modules:
        pkg = types.ModuleType(MODULE_PREFIX)
        pkg.__path__ = []  # a namespace for the loaded scripts
        sys.modules[MODULE_PREFIX] = pkg
    name = f"{MODULE_PREFIX}.{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    _MODULE_CACHE[str(path)] = module
    return module


_MODULE_CACHE: dict[str, types.ModuleType] = {}


def cached_module(path: str) -> types.ModuleType:
    """The script module in this process (inherited from the parent under 'fork'), loaded
    if not yet."""
    key = str(Path(path).resolve())
    mod = _MODULE_CACHE.get(key)
    return mod if mod is not None else load_script(key)


class _ScriptTuple(NamedTuple):
    name: str
    path: Path
    specs: list


class Script(_ScriptTuple):
    """``(name, path, specs)``; also ``.title``, ``.has_figures`` and ``.error`` (the import
    traceback, or None)."""

    def __new__(cls, name: str, path: Path, specs: list, title: str | None = None,
                has_figures: bool = False, error: str | None = None):
        self = super().__new__(cls, name, path, specs)
        self.title = title
        self.has_figures = has_figures
        self.error = error
        return self


def discover(root: str | os.PathLike) -> list[Script]:
    """Import every check script under ``root``: a list of ``(script_name, path, [CheckSpec])``
    in name order.  A script that fails to import has no specs and ``.error`` set."""
    out = []
    for path in script_paths(root):
        try:
            module = load_script(path)
        except BaseException as exc:  # noqa: BLE001 -- reported as an error result
            if isinstance(exc, KeyboardInterrupt):
                raise
            out.append(Script(path.stem, path, [], error=format_exc()))
            continue
        title = getattr(module, "TITLE", None)
        out.append(Script(path.stem, path, claims.checks_in(module),
                          title=str(title) if title is not None else None,
                          has_figures=callable(getattr(module, "figures", None))))
    return out


__all__ = ["CHECKS_DIRNAME", "Script", "find_checks_dir", "installed_checks_dir",
           "is_installed_checks", "script_paths", "load_script", "cached_module", "discover"]
