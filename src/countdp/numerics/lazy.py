"""Lazy re-exports for a package ``__init__`` (PEP 562): the public names of a package are
listed, with the submodule that defines each, and a submodule is imported only when one of its
names is first used.  Importing a package (as the command line imports
:mod:`countdp.numerics.options`, or a check script one module of :mod:`countdp.divergence`) then
costs only the submodules actually used."""

from __future__ import annotations

import importlib
import sys
from typing import Callable


def lazy_exports(package: str, exports: dict[str, tuple[str, ...]],
                 modules: tuple[str, ...] = ()) -> tuple[Callable, Callable, list[str]]:
    """``(__getattr__, __dir__, __all__)`` for ``package``, whose submodule ``m`` (a relative
    name) defines the names ``exports[m]``; ``modules`` are submodules exported as modules (where
    a function has its module's name, ``renyi.renyi``, the package attribute is the module, as
    Python's imports make it).  A name is looked up in its module at each use, never kept in the
    package, so that the package's name is always the module's current object (a fault that
    patches the module is seen through the package as well, and undone with it).  A name listed
    twice, or a name that is also a submodule's, raises ValueError."""
    where: dict[str, str | None] = {name: None for name in modules}
    for module, names in exports.items():
        for name in names:
            if name in where or name in exports:
                raise ValueError(f"exports: {name!r} is listed twice or is a submodule's name ({module!r})")
            where[name] = module

    def __getattr__(name: str):
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = where[name]
        if module is None:
            return importlib.import_module(f"{package}.{name}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where))

    return __getattr__, __dir__, list(where)
