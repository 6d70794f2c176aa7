"""countdp.harness.loader: finding paper_checks/, loading the scripts, discovering their claims."""

from __future__ import annotations

import pytest

from _check_roots import BAD, BROKEN, HEAD, PASSING, make_root
from countdp.harness import loader


def test_discover_order_helpers_and_import_errors(tmp_path):
    root = make_root(tmp_path, {"b_bad": BAD, "a_pass": PASSING, "c_broken": BROKEN,
                                "_helper": "raise RuntimeError\n"})
    found = loader.discover(root)
    assert [s.name for s in found] == ["a_pass", "b_bad", "c_broken"]
    name, path, specs = found[0]
    assert path == root / "paper_checks" / "a_pass.py"
    assert [s.id for s in specs] == ["lem4.1", "eq8"]
    assert found[0].title == "Section 4: a passing script"
    assert [s.id for s in found[1].specs][:3] == ["eq9", "eq10", "eq11"]
    assert found[2].specs == [] and "countdp_no_such_module_for_the_test" in found[2].error
    assert found[0].error is None
    # discover also accepts the paper_checks directory itself
    assert [s.name for s in loader.discover(root / "paper_checks")] == ["a_pass", "b_bad",
                                                                         "c_broken"]


def test_load_script_module_name_and_helpers(tmp_path):
    root = make_root(tmp_path, {"uses_helper": HEAD + "from _shared import VALUE\n"})
    (root / "paper_checks" / "_shared.py").write_text("VALUE = 42\n")
    mod = loader.load_script(root / "paper_checks" / "uses_helper.py")
    assert mod.__name__ == "countdp_check_scripts.uses_helper" and mod.VALUE == 42
    with pytest.raises(ValueError):
        loader.load_script(root / "paper_checks" / "_shared.py")


def test_find_checks_dir(tmp_path, monkeypatch):
    root = make_root(tmp_path / "proj", {})
    nested = root / "a" / "b"
    nested.mkdir(parents=True)
    monkeypatch.delenv("COUNTDP_ROOT", raising=False)
    monkeypatch.chdir(nested)
    assert loader.find_checks_dir() == root.resolve()
    other = make_root(tmp_path / "other", {})
    monkeypatch.setenv("COUNTDP_ROOT", str(other))
    assert loader.find_checks_dir() == other.resolve()
    monkeypatch.setenv("COUNTDP_ROOT", str(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError):
        loader.find_checks_dir()
