"""The tests' own tolerances: every ``pytest.approx`` and ``np.allclose`` / ``np.isclose`` states
its absolute tolerance.

``pytest.approx(x, rel=r)`` also accepts anything within 1e-12 of ``x`` (its default ``abs``),
so for a value below about 1e-12 a relative test accepts every number of that size: the float
Airy score at 1e-300 came out 3e-16 under a mutant and passed ``rel=1e-14``.  numpy's
``allclose`` and ``isclose`` add ``atol=1e-8`` the same way.  Written out, the tolerance is the
one the test means (``abs=0`` / ``atol=0`` for a purely relative one)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


#: the comparisons with a hidden absolute tolerance, and the keyword that states it
HIDDEN_ABS = {"approx": "abs", "allclose": "atol", "isclose": "atol"}


def _approx_calls_without_abs(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(), str(path))
    return [n.lineno for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in HIDDEN_ABS
            and isinstance(n.func.value, ast.Name) and n.func.value.id in ("pytest", "np", "numpy")
            and not any(k.arg == HIDDEN_ABS[n.func.attr] for k in n.keywords)]


def test_every_approx_states_its_absolute_tolerance():
    missing = {p.name: lines for p in sorted(TESTS.glob("*.py")) if (lines := _approx_calls_without_abs(p))}
    assert not missing, f"approx / allclose / isclose without abs= or atol= (a default absolute tolerance hides relative errors): {missing}"


def test_the_check_finds_a_relative_approx_without_abs(tmp_path):
    f = tmp_path / "t.py"
    f.write_text("import pytest\nassert 1e-300 == pytest.approx(3e-16, rel=1e-14)\n"
                 "assert 1.0 == pytest.approx(1.0, rel=1e-14, abs=0)\n"
                 "assert np.allclose(1e-9, 2e-9, rtol=1e-14)\nassert np.isclose(1, 1, atol=0)\n")
    assert sorted(_approx_calls_without_abs(f)) == [2, 4]
    loose = getattr(pytest, "approx")  # (not a call this file's own check would see)
    assert 1e-300 == loose(3e-16, rel=1e-14)  # why: the default abs of 1e-12
