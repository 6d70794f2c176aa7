"""countdp.harness.runner: parallel runs, verdicts of crashing checks, ordering, figures, one claim.

Every test builds its own tiny ``paper_checks/`` in a temporary directory."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from _check_roots import BAD, BROKEN, HEAD, PASSING, make_root
from countdp.harness import catalogue, results, runner
from countdp.harness.results import Settings


def by_id(run: results.Run) -> dict[str, results.ClaimResult]:
    return {r.id: r for _, r in run.results()}


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    root = make_root(tmp_path_factory.mktemp("mixed"),
                     {"a_pass": PASSING, "b_bad": BAD, "c_broken": BROKEN,
                      "_helper": "raise RuntimeError('helpers are not check scripts')\n"})
    stream = io.StringIO()
    run = runner.reproduce(Settings(quick=True), jobs=2, root=root, stream=stream, figures=False)
    return root, run, stream.getvalue()


def test_verdicts(mixed):
    _, run, _ = mixed
    res = by_id(run)
    assert res["lem4.1"].status == "pass" and res["eq8"].status == "pass"
    assert res["eq9"].status == "fail" and "do not hold" in res["eq9"].reason
    # a check that raises is an error with its traceback, not a skip
    assert res["eq10"].status == "error"
    assert "ZeroDivisionError: boom in eq10" in res["eq10"].error
    # a negative control that is not rejected makes the claim fail
    assert res["eq11"].status == "fail" and "control" in res["eq11"].reason
    # a worker that dies is an error ...
    assert res["eq12"].status == "error" and "died" in res["eq12"].reason
    assert res["eq12"].routes == ["a", "b"]
    # ... and does not take the other claims down with it
    assert res["sec5.mono"].status == "pass"
    assert res["sec5.post"].status == "error" and "SystemExit" in res["sec5.post"].error
    # a script that fails to import is an error
    assert res["c_broken:import"].status == "error"
    assert "countdp_no_such_module_for_the_test" in res["c_broken:import"].error
    assert run.exit_code() == 1 and not run.ok()


def test_order_is_deterministic(mixed):
    _, run, _ = mixed
    assert [s.name for s in run.scripts] == ["a_pass", "b_bad", "c_broken"]
    assert [r.id for r in run.scripts[1].results] == ["eq9", "eq10", "eq11", "eq12",
                                                      "sec5.mono", "sec5.post"]


def test_statuses_counts_and_missing(mixed):
    _, run, _ = mixed
    st = run.statuses()
    assert set(catalogue.CATALOGUE) <= set(st)
    assert st["thm3.1.ii"] == "missing" and "thm3.1.ii" in run.missing
    assert st["c_broken:import"] == "error"
    assert list(st)[: len(catalogue.CATALOGUE)] == list(catalogue.CATALOGUE)
    c = run.counts()
    assert (c["pass"], c["fail"], c["error"]) == (3, 2, 4)
    assert c["missing"] == len(catalogue.CATALOGUE) - 8


def test_progress_plain_lines(mixed):
    """Not a terminal (CI): one line per claim, no status line."""
    _, _, text = mixed
    lines = text.splitlines()
    assert "\r" not in text and "\x1b" not in text
    assert any(line.startswith("[") and "lem4.1" in line and "pass" in line and "1 cases" in line
               and line.endswith("a_pass") for line in lines)
    assert any("eq9" in line and "fail" in line for line in lines)
    assert any("c_broken" in line and "import error" in line for line in lines)
    assert sum(1 for line in lines if line.startswith("[")) == 8
    assert lines[-1].startswith("[8/8]")


def test_missing_does_not_fail_unless_strict(tmp_path):
    root = make_root(tmp_path, {"a_pass": PASSING})
    run = runner.reproduce(Settings(), jobs=2, root=root, progress=False, figures=False)
    assert run.counts()["fail"] == run.counts()["error"] == 0
    assert run.counts()["missing"] > 0
    assert run.exit_code() == 0 and run.exit_code(strict=True) == 1


def test_only_ids(tmp_path):
    root = make_root(tmp_path, {"a_pass": PASSING, "b_bad": BAD})
    run = runner.reproduce(Settings(), jobs=2, root=root, progress=False, figures=False,
                           only_ids=["eq8", "eq9", "thm3.1.ii"])
    assert run.statuses() == {"eq8": "pass", "eq9": "fail", "thm3.1.ii": "missing"}
    with pytest.raises(KeyError):
        runner.reproduce(Settings(), jobs=1, root=root, progress=False, only_ids=["nope"])


def test_duplicate_declarations_are_errors(tmp_path):
    root = make_root(tmp_path, {"a_pass": PASSING, "z_again": HEAD + '''
@claim("eq8", routes=["x", "y"])
def again(c):
    c.compare({}, 1, "==", 1)
    c.control("c", 1, "==", 2)
'''})
    run = runner.reproduce(Settings(), jobs=2, root=root, progress=False, figures=False)
    dup = [(s, r) for s, r in run.results() if r.id == "eq8"]
    assert [s for s, _ in dup] == ["a_pass", "z_again"]
    assert all(r.status == "error" and "more than once" in r.reason for _, r in dup)
    assert run.statuses()["eq8"] == "error" and run.statuses()["lem4.1"] == "pass"
    assert runner.check("eq8", root=root).status == "error"


def test_figures(tmp_path):
    root = make_root(tmp_path, {"a_pass": PASSING + '''
import os

def figures(settings):
    path = os.path.join(settings.figures_dir, "a.png")
    with open(path, "wb") as f:
        f.write(b"png")
    return [path]
''', "b_figfail": HEAD + '''
def figures(settings):
    raise RuntimeError("no figure today")
'''})
    figdir = tmp_path / "figs"
    settings = Settings(figures_dir=str(figdir))
    run = runner.reproduce(settings, jobs=2, root=root, progress=False)
    assert (figdir / "a.png").read_bytes() == b"png"
    assert run.scripts[0].figures == ["figs/a.png"]
    res = by_id(run)
    assert res["b_figfail:figures"].status == "error"
    assert "no figure today" in res["b_figfail:figures"].error
    assert run.exit_code() == 1
    (figdir / "a.png").unlink()
    run = runner.reproduce(settings, jobs=2, root=root, progress=False, figures=False)
    assert not (figdir / "a.png").exists() and run.exit_code() == 0
    run = runner.make_figures(settings, jobs=2, root=root, progress=False)
    assert (figdir / "a.png").exists() and [s.name for s in run.scripts] == ["a_pass",
                                                                               "b_figfail"]


def test_check_one_claim(tmp_path):
    root = make_root(tmp_path, {"a_pass": PASSING, "b_bad": BAD})
    res, script = runner.check_claim("lem4.1", Settings(dps=40), root=root)
    assert res.status == "pass" and script == "a_pass"
    assert runner.check("eq10", root=root).status == "error"
    assert runner.check("thm3.1.ii", root=root).status == "missing"
    with pytest.raises(KeyError):
        runner.check("no.such.claim", root=root)
    make_root(tmp_path, {"c_broken": BROKEN})
    assert runner.check("thm3.1.ii", root=root).status == "error"


@pytest.mark.slow
def test_durations_only_order_the_work(tmp_path):
    root = make_root(tmp_path, {"a_pass": PASSING, "b_bad": BAD})
    plain = runner.reproduce(Settings(), jobs=2, root=root, progress=False, figures=False)
    hinted = runner.reproduce(Settings(), jobs=2, root=root, progress=False, figures=False,
                              durations={"lem4.1": 0.0, "eq9": 100.0})
    assert [(s, r.id, r.status) for s, r in plain.results()] == \
        [(s, r.id, r.status) for s, r in hinted.results()]


def test_script_runs_alone(tmp_path):
    import os
    import subprocess
    import sys

    root = make_root(tmp_path, {"a_pass": PASSING + '''
if __name__ == "__main__":
    import sys
    from countdp.harness.cli import script_main
    raise SystemExit(script_main(sys.modules[__name__]))
'''})
    src = str(Path(runner.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, str(root / "paper_checks" / "a_pass.py"), "--dps",
                           "40", "--no-figures"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("status     PASS") == 2 and "dps 40" in proc.stdout
