"""Fault injection: plausible transcription mistakes, each tied to the claim whose check must
catch it.

A check script lists its faults beside its claims::

    FAULTS = [
        fault("prop6.2", "eq (14) twice too strong", "factor",
              scale(formulas.two_count_bound, 2)),
        fault("prop6.2", "n - 1 for n in eq (14)", "index",
              offset_argument(formulas.two_count_bound, "n", -1)),
        uncatchable("prop2.2a", "E|X| >= 0 with the sign flipped", "sign",
                    "the claim is true of every law: no formula of the library states it"),
    ]

A *patch* corrupts one library formula (every number system at once: a formula has one body)
or one check-level statement, for the duration of one run of its claim only, and is undone
afterwards.  The fault is *caught* when the claim's check (with its certificates) no longer
passes.  Faults run each in a fresh worker process, so no cache can carry a corrupted value
into another run.

Patches: :func:`scale`, :func:`offset_argument`, :func:`swap_arguments`, :func:`replace_body`,
:func:`wrap_body` for formulas; :func:`set_attribute` for anything else (a constant of a check
script, a library function looked up through its module).

Faults beyond the formulas -- in a law's method, a divergence engine, or the code a verdict
trusts (ball comparisons, range bisection, proven tail bounds, tolerances, the harness's
aggregation) -- are declared with :func:`core_fault` in ``paper_checks/_core_faults.py``, each
naming its layer and what must catch it: claims, or a unit test by its pytest node id.  Their
patches name the target by a ``"module:qualname"`` string resolved when the patch is applied::

    core_fault("arb", "undecided <= counted as proved", "inequality",
               wrap_result("countdp.arb.verdicts:_cmp",
                           lambda v: Verdict.PROVED_TRUE if v is Verdict.UNDECIDED else v),
               caught_by="tests/test_arb_verdicts.py::test_decide_basic")

:func:`replace_function` rebinds a module-level function *everywhere it is bound* (its own
module and every module that imported it by name, found by identity in ``sys.modules``), so a
corrupted core function reaches all its callers; :func:`patch_method` replaces a class
attribute (a method, static or class method, or property); :func:`wrap_result` applies either
to a function's returned value.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import sys
from dataclasses import dataclass
from typing import Any, Callable, ContextManager

from ..numerics.contexts import Formula
from .catalogue import CATALOGUE

__all__ = ["KINDS", "LAYERS", "Fault", "fault", "core_fault", "uncatchable", "faults_in", "Patch",
           "scale", "offset_argument", "swap_arguments", "replace_body", "wrap_body",
           "set_attribute", "replace_function", "patch_method", "wrap_result"]

#: the kinds of mistakes the catalogue draws from
KINDS = ("factor", "sign", "exponent", "index", "shift dropped", "constant", "pi vs e",
         "drift", "swapped arguments", "dropped term", "inequality", "other")

#: the layers of the library a fault beyond the formulas corrupts
LAYERS = ("laws", "divergence", "arb", "numerics", "harness")


class Patch:
    """A reusable context manager: ``with patch:`` applies the corruption, and undoes it on exit."""

    def __init__(self, apply: Callable[[], Callable[[], None]], describe: str):
        self._apply = apply
        self.describe = describe
        self._undo: list[Callable[[], None]] = []

    def __enter__(self) -> "Patch":
        self._undo.append(self._apply())
        return self

    def __exit__(self, *exc: Any) -> None:
        self._undo.pop()()

    def __repr__(self) -> str:
        return f"<patch: {self.describe}>"


def _swap_body(formula: Formula, new_body: Callable) -> Callable[[], None]:
    original = formula.body
    formula.body = new_body

    def undo() -> None:
        formula.body = original
    return undo


def _parameters(formula: Formula) -> list[str]:
    """The formula's parameter names after the number system ``ctx`` (of its own body, not of a
    patch currently applied)."""
    return list(inspect.signature(formula.body).parameters)[1:]


def _position(formula: Formula, param: str | int) -> int:
    """The positional index of ``param``, checked when the patch is made (a fault that names a
    parameter the formula does not have is an error of the catalogue, not a caught fault)."""
    names = _parameters(formula)
    if isinstance(param, int):
        if not 0 <= param < len(names):
            raise ValueError(f"{formula!r} has no positional parameter {param} (it has {names})")
        return param
    if param not in names:
        raise ValueError(f"{formula!r} has no parameter {param!r} (it has {names})")
    return names.index(param)


def _require_formula(formula: Any, what: str) -> None:
    if not isinstance(formula, Formula):
        raise TypeError(f"{what} needs a Formula, got {formula!r}")


def replace_body(formula: Formula, body: Callable) -> Patch:
    """The formula computes ``body(ctx, *args)`` instead (a rewritten, wrong closed form)."""
    _require_formula(formula, "replace_body")
    return Patch(lambda: _swap_body(formula, body), f"{formula.__name__} replaced")


def wrap_body(formula: Formula, transform: Callable, describe: str | None = None) -> Patch:
    """The formula computes ``transform(ctx, original_body, *args, **kwargs)``."""
    _require_formula(formula, "wrap_body")

    def apply():
        original = formula.body
        return _swap_body(formula, lambda ctx, *a, **k: transform(ctx, original, *a, **k))
    return Patch(apply, describe or f"{formula.__name__} transformed")


def scale(formula: Formula, factor) -> Patch:
    """The formula's value multiplied by ``factor`` (a number or a decimal string, converted
    exactly in each number system): "twice too strong", "a constant off by 1 %"."""
    return wrap_body(formula, lambda ctx, f, *a, **k: f(ctx, *a, **k) * ctx.convert(factor),
                     f"{formula.__name__} x {factor}")


def offset_argument(formula: Formula, param: str | int, delta) -> Patch:
    """The formula evaluated at ``param + delta``: "n - 1 for n", "n + 1 for n"."""
    _require_formula(formula, "offset_argument")
    i = _position(formula, param)
    name = _parameters(formula)[i]

    def transform(ctx, f, *a, **k):
        if name in k:
            k[name] = k[name] + delta
        else:
            a = a[:i] + (a[i] + delta,) + a[i + 1:]
        return f(ctx, *a, **k)
    return wrap_body(formula, transform, f"{formula.__name__}({name} {delta:+})")


def swap_arguments(formula: Formula, first: str | int, second: str | int) -> Patch:
    """The formula with two of its (positional) arguments exchanged."""
    _require_formula(formula, "swap_arguments")
    i, j = _position(formula, first), _position(formula, second)

    def transform(ctx, f, *a, **k):
        a = list(a)
        a[i], a[j] = a[j], a[i]
        return f(ctx, *a, **k)
    return wrap_body(formula, transform, f"{formula.__name__}: {first} <-> {second}")


def set_attribute(target: Any, name: str, value: Any) -> Patch:
    """``target.name = value`` for the run (``target`` an object or an importable module name,
    e.g. a check script's own ``__name__`` to change one of its stated constants)."""
    def apply():
        if isinstance(target, str):
            obj = sys.modules.get(target) or importlib.import_module(target)
        else:
            obj = target
        missing = object()
        old = getattr(obj, name, missing)
        if old is missing:
            raise AttributeError(f"{target!r} has no attribute {name!r} to corrupt")
        setattr(obj, name, value)

        def undo() -> None:
            setattr(obj, name, old)
        return undo
    return Patch(apply, f"{target if isinstance(target, str) else type(target).__name__}.{name}")


def _resolve(target: str) -> tuple[Any, str, Any]:
    """``"package.module:Name"`` or ``"package.module:Class.attr"`` -> (owner, attribute name,
    the module), the module imported if need be."""
    if not isinstance(target, str) or target.count(":") != 1:
        raise ValueError(f"target must be 'module:qualname', got {target!r}")
    modname, qualname = target.split(":")
    module = sys.modules.get(modname) or importlib.import_module(modname)
    *outer, name = qualname.split(".")
    owner = module
    for part in outer:
        owner = getattr(owner, part)
    return owner, name, module


def replace_function(target: str, make: Callable[[Callable], Callable]) -> Patch:
    """The module-level function ``target`` (``"module:name"``) becomes ``make(original)`` in
    every module that binds it: its own and each that did ``from module import name`` (found
    by identity in ``sys.modules``, so check scripts and tests are reached too).  A constant
    (not callable) is rebound only where it is bound under its own name: a small int or a float
    may be the same object as an unrelated constant."""
    def apply():
        owner, name, _ = _resolve(target)
        if isinstance(owner, type):
            raise TypeError(f"{target}: a class attribute, use patch_method")
        original = getattr(owner, name)
        new = functools.wraps(original)(make(original)) if callable(original) else make(original)
        same = (lambda k: True) if callable(original) else (lambda k: k == name)
        bound = [(m, k) for m in list(sys.modules.values()) if m is not None
                 for k, v in list(getattr(m, "__dict__", {}).items()) if v is original and same(k)]
        for m, k in bound:
            setattr(m, k, new)

        def undo() -> None:
            for m, k in bound:
                setattr(m, k, original)
        return undo
    return Patch(apply, f"{target} replaced")


def patch_method(target: str, make: Callable[[Callable], Callable]) -> Patch:
    """The class attribute ``target`` (``"module:Class.name"``) becomes ``make(original)``: the
    function of a method, static or class method, or the getter of a property.  A method the
    class inherits is overridden on this class only."""
    def apply():
        cls, name, _ = _resolve(target)
        if not isinstance(cls, type):
            raise TypeError(f"{target}: not a class attribute, use replace_function")
        own = name in cls.__dict__
        raw = cls.__dict__[name] if own else inspect.getattr_static(cls, name)
        if isinstance(raw, property):
            new = property(functools.wraps(raw.fget)(make(raw.fget)), raw.fset, raw.fdel, raw.__doc__)
        elif isinstance(raw, (staticmethod, classmethod)):
            new = type(raw)(functools.wraps(raw.__func__)(make(raw.__func__)))
        else:
            new = functools.wraps(raw)(make(raw))
        setattr(cls, name, new)

        def undo() -> None:
            if own:
                setattr(cls, name, raw)
            else:
                delattr(cls, name)
        return undo
    return Patch(apply, f"{target} replaced")


def wrap_result(target: str, transform: Callable[[Any], Any], describe: str | None = None) -> Patch:
    """``target`` (a function or a class attribute, see :func:`replace_function` and
    :func:`patch_method`) returns ``transform(original result)``."""
    def make(f):
        return lambda *a, **k: transform(f(*a, **k))
    module_level = "." not in target.split(":")[-1]
    p = (replace_function if module_level else patch_method)(target, make)
    p.describe = describe or f"{target}: result transformed"
    return p


@dataclass(frozen=True)
class Fault:
    """One plausible mistake: the claim whose check must catch it, what the mistake is, its kind,
    and the patch that makes it -- or, for a fault the claim cannot catch by its nature, the
    reason instead of a patch.

    A fault beyond the formulas (:func:`core_fault`) has no single ``claim``: it names its
    ``layer`` and either ``claims`` (caught when one of them stops passing) or ``caught_by``, a
    unit test's pytest node id (caught when that test fails); ``quick=False`` leaves it out of
    quick fault runs."""

    claim: str | None
    name: str
    kind: str
    patch: Patch | None = None
    reason: str | None = None
    layer: str = "formulas"
    claims: tuple[str, ...] = ()
    caught_by: str | None = None
    quick: bool = True

    @property
    def catchable(self) -> bool:
        return self.patch is not None

    @property
    def core(self) -> bool:
        """A fault beyond the formulas (declared with :func:`core_fault`)."""
        return self.claim is None

    @property
    def expected(self) -> str:
        """What must catch the fault: its claim(s) or its test node."""
        return self.caught_by or ", ".join(self.claims or (self.claim,))

    def applied(self) -> ContextManager:
        return self.patch if self.patch is not None else contextlib.nullcontext()


def _checked(claim_id: str, kind: str) -> None:
    if claim_id not in CATALOGUE:
        raise ValueError(f"unknown claim id {claim_id!r}")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")


def fault(claim_id: str, name: str, kind: str, patch: Patch) -> Fault:
    """A fault the check of ``claim_id`` must catch."""
    _checked(claim_id, kind)
    if not isinstance(patch, Patch):
        raise TypeError(f"fault {name!r}: patch must be a Patch, got {patch!r}")
    return Fault(claim_id, name, kind, patch)


def uncatchable(claim_id: str, name: str, kind: str, reason: str) -> Fault:
    """A mistake the claim cannot catch by its nature (e.g. the claim is trivially true), listed
    with the reason rather than silently dropped."""
    _checked(claim_id, kind)
    if not reason:
        raise ValueError("an uncatchable fault needs its reason")
    return Fault(claim_id, name, kind, None, reason)


def core_fault(layer: str, name: str, kind: str, patch: Patch, *, claims: tuple | list | str = (),
               caught_by: str | None = None, quick: bool = True) -> Fault:
    """A fault in ``layer`` (one of :data:`LAYERS`) caught by one of ``claims`` or by the unit
    test ``caught_by`` (``"tests/test_x.py::test_name"``): exactly one of the two."""
    if layer not in LAYERS:
        raise ValueError(f"layer must be one of {LAYERS}, got {layer!r}")
    claims = (claims,) if isinstance(claims, str) else tuple(claims)
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    for c in claims:
        _checked(c, kind)
    if bool(claims) == bool(caught_by):
        raise ValueError(f"fault {name!r}: name either the claims or the test (caught_by) that "
                         "catches it")
    if caught_by is not None and not (caught_by.startswith("tests/") and ".py::" in caught_by):
        raise ValueError(f"caught_by must be a pytest node id 'tests/<file>.py::<test>', "
                         f"got {caught_by!r}")
    if not isinstance(patch, Patch):
        raise TypeError(f"fault {name!r}: patch must be a Patch, got {patch!r}")
    return Fault(None, name, kind, patch, layer=layer, claims=claims, caught_by=caught_by,
                 quick=bool(quick))


def faults_in(module: Any) -> list[Fault]:
    """The faults a check script lists in ``FAULTS`` (empty if none)."""
    found = getattr(module, "FAULTS", [])
    bad = [f for f in found if not isinstance(f, Fault)]
    if bad:
        raise TypeError(f"FAULTS must hold Fault objects, got {bad[0]!r}")
    return list(found)
