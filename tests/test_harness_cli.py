"""countdp.harness.cli, the ``countdp`` command line: list, check, reproduce (exit codes,
reports), and the rules every subcommand shares (``budget`` has its own tests,
test_calculator_cli.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from _check_roots import HEAD, make_root
from countdp.harness import cli
from countdp.harness.catalogue import CATALOGUE

GOOD = HEAD + '''
TITLE = "good"

@claim("lem4.1", routes=["closed form", "quadrature"])
def good(c):
    c.compare({"sigma": 0.5}, 1, "==", 1)
    c.control("constant off by one", 1, "==", 2)
    c.slack("0.25 at sigma=0.5")
'''

BAD = HEAD + '''
@claim("eq9", routes=["a", "b"])
def fails(c):
    c.compare({"n": 1}, 1, "==", 2)
    c.control("x", 3, "<=", 2)

@claim("eq10", routes=["a", "b"])
def errs(c):
    raise RuntimeError("crash in eq10")
'''

SRC = str(Path(__file__).resolve().parents[1] / "src")


@pytest.fixture
def root(tmp_path, monkeypatch):
    r = make_root(tmp_path, {"a_good": GOOD, "b_bad": BAD})
    monkeypatch.setenv("COUNTDP_ROOT", str(r))
    return r


def test_list(root, capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for cid in CATALOGUE:
        assert cid in out
    line = next(ln for ln in out.splitlines() if ln.startswith("lem4.1 "))
    assert "Lemma 4.1" in line and line.rstrip().endswith("a_good")
    line = next(ln for ln in out.splitlines() if ln.startswith("thm3.1.ii "))
    assert line.rstrip().endswith("not yet checked")
    assert cli.main(["list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {c["id"] for c in data["claims"]} == set(CATALOGUE)


def test_check_unknown_id(root, capsys):
    assert cli.main(["check", "lem41"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("countdp: error: unknown claim id 'lem41'") and "lem4.1" in err


def test_check_exit_codes(root, capsys):
    assert cli.main(["check", "lem4.1", "--dps", "40"]) == 0
    out = capsys.readouterr().out
    assert "status     PASS" in out and "sigma=0.5" in out and "control    rejected" in out
    assert "slack      0.25 at sigma=0.5" in out and "dps 40" in out
    assert cli.main(["check", "eq9"]) == 1
    assert cli.main(["check", "eq10"]) == 2
    assert "crash in eq10" in capsys.readouterr().out
    assert cli.main(["check", "thm3.1.ii"]) == 2
    assert "not yet checked" in capsys.readouterr().err
    assert cli.main(["check", "lem4.1", "--json", "--quick", "--seed", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["id"] == "lem4.1" and data["status"] == "pass" and data["script"] == "a_good"


def test_reproduce_fails_on_failure(root, tmp_path, capsys):
    reports = tmp_path / "out"
    code = cli.main(["reproduce", "--jobs", "2", "--reports", str(reports), "--no-figures",
                     "--quick"])
    assert code == 1
    out = capsys.readouterr().out
    assert "lem4.1" in out and "FAIL" in out and "ERROR" in out and "not yet checked" in out
    summary = json.loads((reports / "summary.json").read_text())
    assert summary["claims"]["eq9"] == "fail" and summary["claims"]["eq10"] == "error"
    assert summary["quick"] is True
    assert (reports / "SUMMARY.md").exists() and (reports / "junit.xml").exists()


@pytest.mark.slow
def test_reproduce_passes_and_strict(tmp_path, monkeypatch, capsys):
    root = make_root(tmp_path, {"a_good": GOOD})
    monkeypatch.setenv("COUNTDP_ROOT", str(root))
    args = ["reproduce", "-j", "2", "--reports", str(tmp_path / "r"), "--no-figures", "-q"]
    assert cli.main(args) == 0
    assert cli.main(args + ["--strict"]) == 1
    assert cli.main(args + ["--only", "lem4.1"]) == 0
    assert cli.main(args + ["--only", "lem4.1", "nope.id"]) == 2
    capsys.readouterr()


@pytest.mark.slow
def test_reproduce_subprocess_exit_code(root, tmp_path):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
               COUNTDP_ROOT=str(root))
    proc = subprocess.run([sys.executable, "-m", "countdp", "reproduce", "--jobs", "2",
                           "--reports", str(tmp_path / "rep"), "--no-figures"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 1, proc.stderr
    # not a TTY: plain progress lines, one per claim, in completion order
    assert re.search(r"^\[[123]/3\] lem4\.1 .* a_good$", proc.stderr, re.M) and "\r" not in proc.stderr
    assert "eq9" in proc.stdout


def test_usage_errors(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main([])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        cli.main(["budget", "--r0", "0.1"])
    assert e.value.code == 2
    capsys.readouterr()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as f:
            state = next(line for line in f if line.startswith("State:"))
        return "Z" not in state.split()[1]
    except (OSError, StopIteration):
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and prctl")
@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
@pytest.mark.slow
def test_no_orphaned_workers(tmp_path, how):
    """Killing a run (CI timeout, kill) stops its worker processes as well."""
    import signal
    import time

    pidfile = tmp_path / "worker.pid"
    root = make_root(tmp_path, {"slow": HEAD + f'''
import os, time

@claim("lem4.1", routes=["a", "b"])
def slow(c):
    with open({str(pidfile)!r}, "w") as f:
        f.write(str(os.getpid()))
    time.sleep(60)
'''})
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
               COUNTDP_ROOT=str(root))
    proc = subprocess.Popen([sys.executable, "-m", "countdp", "reproduce", "--jobs", "1",
                             "--reports", str(tmp_path / "rep"), "--no-figures", "-q"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        worker = int(pidfile.read_text())
        assert _alive(worker)
        proc.send_signal(getattr(signal, how))
        code = proc.wait(timeout=20)
        if how == "SIGTERM":
            assert code == 143
        deadline = time.monotonic() + 10
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(worker)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# --------------------------------------------------------------------------------------------
# Bad input: every option refused early, in one line, by the same rule in every subcommand
# --------------------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402

import _bad_inputs  # noqa: E402
from _run_cli import TEXT, check_exit, run_main  # noqa: E402

REAL_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bad_root(tmp_path_factory):
    base = tmp_path_factory.mktemp("cli-bad")
    root = make_root(base / "root", _bad_inputs.FAKE_SCRIPTS)
    (base / "afile").write_text("a regular file: no directory can be made under it")
    return base, root


@pytest.mark.parametrize("argv, allowed, text", [c[1:] for c in _bad_inputs.CLI_CASES],
                         ids=[c[0] for c in _bad_inputs.CLI_CASES])
@pytest.mark.slow
def test_bad_command_lines(bad_root, tmp_path, argv, allowed, text):
    base, root = bad_root
    argv = _bad_inputs.materialise(argv, str(root), str(REAL_ROOT), str(base / "afile"), str(tmp_path))
    code, out, err = run_main(argv)
    ok, what = _bad_inputs.judge_cli(code, out, err, allowed, text)
    assert ok, what


@pytest.mark.slow
def test_runaway_claim_is_stopped_with_the_reason(bad_root, tmp_path):
    """--time-limit turns a check that never ends into an error, in the worker processes of
    reproduce as well as in check (in this process)."""
    _, root = bad_root
    code, out, err = run_main(["reproduce", "--root", str(root), "--time-limit", "1", "-j", "1",
                               "--reports", str(tmp_path), "--no-figures", "-q"])
    assert code == 1
    assert "stopped: the claim ran past the time limit of 1 s (--time-limit)" in \
        (tmp_path / "SUMMARY.md").read_text()
    assert json.loads((tmp_path / "summary.json").read_text())["claims"]["lem4.1"] == "pass"
    code, out, err = run_main(["check", "eq9", "--root", str(root), "--time-limit", "0.5", "--json"])
    assert code == 2 and json.loads(out)["status"] == "error"
    assert err.strip() == "countdp: error: eq9: stopped: the claim ran past the time limit of 0.5 s " \
                          "(--time-limit)"


def test_reports_directory_is_checked_before_any_claim_runs(bad_root, tmp_path, monkeypatch):
    base, root = bad_root
    from countdp.harness import runner

    def must_not_run(*a, **k):
        raise AssertionError("a claim ran before the reports directory was checked")

    monkeypatch.setattr(runner, "reproduce", must_not_run)
    code, out, err = run_main(["reproduce", "--root", str(root), "--reports", str(base / "afile" / "r")])
    assert code == 2 and err.startswith("countdp: error: --reports ") and "not a writable directory" in err


def test_same_option_same_rule_in_every_subcommand(bad_root):
    _, root = bad_root
    messages = {}
    for sub in (["check", "lem4.1"], ["reproduce"], ["faults"], ["figures"], ["budget", "--r0", "0.1",
                                                                              "--c", "1", "--n", "1"]):
        code, out, err = run_main(sub + ["--root", str(root)] * (sub[0] != "budget") + ["--dps", "4"])
        assert code == 2
        messages[sub[0]] = err.split("argument --dps: ")[1].split(" (see")[0]
    assert len(set(messages.values())) == 1, messages
    for opt, bad in (("--jobs", "0"), ("--time-limit", "-1")):
        msgs = set()
        for sub in ("reproduce", "faults", "figures", "check"):
            if opt == "--jobs" and sub == "check" or opt == "--time-limit" and sub == "figures":
                continue
            argv = [sub] + (["lem4.1"] if sub == "check" else []) + ["--root", str(root), opt, bad]
            code, out, err = run_main(argv)
            assert code == 2, (sub, opt, err)
            msgs.add(err.split(f"argument {opt}")[1].split(" (see")[0])
        assert len(msgs) == 1, msgs


# ---- property tests: arbitrary option values -------------------------------------------------


@pytest.mark.parametrize("option", ["--dps", "--seed", "--time-limit"])
@settings(max_examples=30)
@given(value=TEXT)
def test_check_options_any_value(bad_root, option, value):
    _, root = bad_root
    code, out, err = run_main(["check", "lem4.1", "--root", str(root), "--no-certify", option, value],
                              timeout=60)
    check_exit(code, out, err, option)


@settings(max_examples=12)
@given(value=TEXT)
def test_jobs_any_value(bad_root, value):
    base, root = bad_root
    code, out, err = run_main(["reproduce", "--root", str(root), "--only", "lem4.1", "--no-figures",
                               "-q", "--reports", str(base / "jobs-reports"), "--jobs", value],
                              timeout=120)
    check_exit(code, out, err, "--jobs")


# ---- help texts ---------------------------------------------------------------------------


def test_every_help_is_complete():
    """Every subcommand's --help has a description, an example and its exit codes; every option
    (and positional argument) has a help text."""
    import argparse

    parser = cli.build_parser()
    assert all(a.help for a in parser._actions if a.dest != "command"), "top-level option without help"
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(sub.choices) == {"list", "check", "reproduce", "faults", "figures", "budget", "release"}
    for name, sp in sub.choices.items():
        text = sp.format_help()
        assert sp.description, name
        assert "examples:" in text and f"countdp {name}" in text.split("examples:")[1], name
        assert "exit status:" in text and "  0  " in text and "  2  " in text, name
        missing = [a.dest for a in sp._actions if not a.help]
        assert not missing, (name, missing)


@pytest.mark.parametrize("name", ["list", "check", "reproduce", "faults", "figures", "budget"])
def test_help_exits_zero(name, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main([name, "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: countdp {name}") and "exit status:" in out
