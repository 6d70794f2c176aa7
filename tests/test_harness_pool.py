"""countdp.harness.pool: the local worker pool, results pickled back exactly, and the same runs
on another executor (a Dask distributed cluster's) with the same reports."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from _check_roots import BAD, PASSING, make_root, read_without_seconds, reports_without_seconds
from countdp.harness import cli, pool, results, runner
from countdp.harness.results import Settings

ROOT = Path(__file__).resolve().parents[1]
QUICK = ["eq13", "eq3", "sec5.mono"]  # three scripts' quickest claims


def by_id(run: results.Run) -> dict[str, results.ClaimResult]:
    return {r.id: r for _, r in run.results()}


def test_spawn_start_method(tmp_path, monkeypatch):
    import multiprocessing

    root = make_root(tmp_path, {"a_pass": PASSING})
    monkeypatch.setattr(pool, "mp_context", lambda: multiprocessing.get_context("spawn"))
    run = runner.reproduce(Settings(), jobs=2, root=root, progress=False, figures=False)
    assert [r.status for _, r in run.results()] == ["pass", "pass"]


def test_precision_survives_the_worker(tmp_path):
    """mpmath numbers computed at 50 digits in a worker arrive with 50 digits."""
    import mpmath

    root = make_root(tmp_path, {"a_pass": PASSING})
    settings = Settings(dps=50)
    run = runner.reproduce(settings, jobs=2, root=root, progress=False, figures=False)
    remote = by_id(run)["lem4.1"].cases[0].lhs
    local = runner.check("lem4.1", settings, root=root).cases[0].lhs
    assert remote == local and remote._mpf_ == local._mpf_
    with mpmath.workdps(50):
        assert results.fmt(remote).startswith("0." + "3" * 49)


def _exit_now():
    os._exit(3)


def test_forked():
    assert pool.forked(divmod, 7, 2) == ("ok", (3, 1))
    status, text = pool.forked(divmod, 1, 0)
    assert status == "error" and "ZeroDivisionError" in text
    assert pool.forked(_exit_now) == ("died", "the forked run died without a result")


@pytest.mark.slow
def test_another_executor_gives_the_local_verdicts(tmp_path):
    """Any Executor runs the tasks, each in a process forked for it on the worker: the same
    verdicts as the local pool (a claim that kills its process is an error alone), and numbers
    at the run's precision."""
    root = make_root(tmp_path, {"a_pass": PASSING, "b_bad": BAD})
    settings = Settings(dps=50)
    local = runner.reproduce(settings, jobs=2, root=root, progress=False, figures=False)
    with ThreadPoolExecutor(2) as executor:
        other = runner.reproduce(settings, jobs=2, root=root, progress=False, figures=False,
                                 executor=executor)
    assert other.statuses() == local.statuses()
    res = by_id(other)
    assert res["eq12"].status == "error" and "died" in res["eq12"].reason
    assert res["sec5.post"].status == "error" and "SystemExit" in res["sec5.post"].error
    assert res["lem4.1"].cases[0].lhs._mpf_ == by_id(local)["lem4.1"].cases[0].lhs._mpf_
    for run in (local, other):  # the text of the death is the executor's
        assert "BrokenProcessPool" in by_id(run)["eq12"].error
        by_id(run)["eq12"].error = None
    assert reports_without_seconds(other, tmp_path / "other") == \
        reports_without_seconds(local, tmp_path / "local")


@pytest.mark.slow
def test_reproduce_on_a_dask_cluster(tmp_path):
    """``countdp reproduce --scheduler``: a few real claims on a local Dask cluster give the
    local pool's reports, byte for byte apart from the timings."""
    distributed = pytest.importorskip(
        "distributed", reason="the optional dependency distributed (countdp[dask]) is not installed")
    settings = Settings(quick=True)
    local = runner.reproduce(settings, jobs=2, only_ids=QUICK, root=ROOT, progress=False,
                             figures=False)
    with distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None) as cluster, \
            pool.cluster(cluster.scheduler_address) as (executor, threads):
        assert threads == 2
        remote = runner.reproduce(settings, jobs=threads, only_ids=QUICK, root=ROOT,
                                  progress=False, figures=False, executor=executor)
        code = cli.main(["reproduce", "--quick", "--no-figures", "--quiet", "--root", str(ROOT),
                         "--reports", str(tmp_path / "cli"), "--only", *QUICK,
                         "--scheduler", cluster.scheduler_address])
    assert code == 0
    assert remote.statuses() == local.statuses() and set(local.statuses()) == set(QUICK)
    a = reports_without_seconds(local, tmp_path / "local")
    b = reports_without_seconds(remote, tmp_path / "dask")
    assert a.keys() == b.keys() and len(a) >= 4
    for name in a:
        assert a[name] == b[name], name
    assert read_without_seconds(tmp_path / "cli") == a


def test_scheduler_option_is_checked_before_anything_runs(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["reproduce", "--quick", "--scheduler", " "])
    assert exit_.value.code == 2
    assert "argument --scheduler: " in capsys.readouterr().err  # a bad address, or no distributed
