"""The tests' own tolerances: every ``pytest.approx`` states its absolute tolerance.

``pytest.approx(x, rel=r)`` also accepts anything within 1e-12 of ``x`` (its default ``abs``),
so for a value below about 1e-12 a relative test accepts every number of that size: the float
Airy score at 1e-300 came out 3e-16 under a mutant and passed ``rel=1e-14``.  Written out, the
tolerance is the one the test means (``abs=0`` for a purely relative one)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def _approx_calls_without_abs(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(), str(path))
    return [n.lineno for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "approx"
            and not any(k.arg == "abs" for k in n.keywords)]


def test_every_approx_states_its_absolute_tolerance():
    missing = {p.name: lines for p in sorted(TESTS.glob("*.py")) if (lines := _approx_calls_without_abs(p))}
    assert not missing, f"pytest.approx without abs= (the default 1e-12 hides relative errors): {missing}"


def test_the_check_finds_a_relative_approx_without_abs(tmp_path):
    f = tmp_path / "t.py"
    f.write_text("import pytest\nassert 1e-300 == pytest.approx(3e-16, rel=1e-14)\n"
                 "assert 1.0 == pytest.approx(1.0, rel=1e-14, abs=0)\n")
    assert _approx_calls_without_abs(f) == [2]
    loose = getattr(pytest, "approx")  # (not a call this file's own check would see)
    assert 1e-300 == loose(3e-16, rel=1e-14)  # why: the default abs of 1e-12
