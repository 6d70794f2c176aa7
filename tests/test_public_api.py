"""The public API: what a user imports is re-exported by the package ``__init__``s, listed in
``__all__``, resolves, and is documented; the re-exports are lazy, so ``countdp --help`` and a
single submodule import no more than before."""

from __future__ import annotations

import importlib
import subprocess
import sys
import types

import pytest

from countdp.numerics.lazy import lazy_exports

PACKAGES = ["countdp.numerics", "countdp.formulas", "countdp.laws", "countdp.laws.airy", "countdp.arb",
            "countdp.divergence", "countdp.mechanisms", "countdp.calculator"]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_exported_name_resolves_and_has_a_docstring(package):
    module = importlib.import_module(package)
    assert module.__doc__ and module.__doc__.strip()
    assert module.__all__, f"{package}.__all__ is empty"
    assert len(set(module.__all__)) == len(module.__all__), "a name is listed twice"
    undocumented = []
    for name in module.__all__:
        obj = getattr(module, name)
        if not (getattr(obj, "__doc__", None) or "").strip():
            undocumented.append(name)
    assert not undocumented, f"{package}: no docstring for {undocumented}"


@pytest.mark.parametrize("package", [p for p in PACKAGES if hasattr(importlib.import_module(p), "EXPORTS")])
def test_a_lazy_export_is_the_object_its_module_defines(package):
    module = importlib.import_module(package)
    for sub, names in module.EXPORTS.items():
        defining = importlib.import_module(f"{package}.{sub}")
        for name in names:
            obj = getattr(module, name)
            assert obj is getattr(defining, name)
            assert not isinstance(obj, types.ModuleType), f"{package}.{name} is a module"
    assert set(dir(module)) >= set(module.__all__)


def test_the_engines_named_like_their_modules_are_the_modules():
    from countdp.divergence import renyi, tight_rho

    assert isinstance(renyi, types.ModuleType) and callable(renyi.renyi)
    assert isinstance(tight_rho, types.ModuleType) and callable(tight_rho.tight_rho)


def test_lazy_exports_refuse_an_unknown_name_and_a_name_listed_twice():
    from countdp import divergence

    with pytest.raises(AttributeError, match="no_such_name"):
        divergence.no_such_name  # noqa: B018
    with pytest.raises(ValueError, match="'x'"):
        lazy_exports("countdp.divergence", {"renyi": ("x",), "zcdp": ("x",)})
    with pytest.raises(ValueError, match="'zcdp'"):
        lazy_exports("countdp.divergence", {"renyi": ("zcdp",), "zcdp": ("cks_eps",)})


def _imported_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", f"import sys; {code}; print(' '.join(sys.modules))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


@pytest.mark.parametrize("package", ["countdp.divergence", "countdp.laws", "countdp.mechanisms", "countdp.arb",
                                     "countdp.numerics", "countdp.calculator"])
def test_importing_a_package_imports_none_of_its_submodules(package):
    loaded = _imported_after(f"import {package}")
    assert not {m for m in loaded if m.startswith(package + ".") and m != "countdp.numerics.lazy"}
    assert "numpy" not in loaded


def test_a_package_name_follows_a_patch_of_its_module():
    """A fault patches the defining module; the package must show the patch and its undo."""
    from countdp import divergence
    from countdp.divergence import zcdp

    original = zcdp.compose_budgets
    zcdp.compose_budgets = patched = lambda *budgets: None
    try:
        assert divergence.compose_budgets is patched
    finally:
        zcdp.compose_budgets = original
    assert divergence.compose_budgets is original
