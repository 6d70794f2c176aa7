"""Reports do not depend on the job count or the order of the work: a few cheap claims of the
real check scripts, run with --jobs 1 in source order and with --jobs 2 in the opposite order
(and figures interleaved with claims, in a tiny root), give byte-identical JSON apart from the
``seconds`` fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from _check_roots import HEAD, make_root, reports_without_seconds
from countdp.harness import loader, report, runner
from countdp.harness.results import Settings

ROOT = Path(__file__).resolve().parents[1]
CHEAP = ["eq3", "thm3.1.iii", "sec5.mono", "eq13", "prop2.3", "thm1.1"]


@pytest.mark.slow
def test_reports_identical_whatever_the_jobs_and_the_order(tmp_path):
    settings = Settings(quick=True)
    one = runner.reproduce(settings, jobs=1, only_ids=CHEAP, root=ROOT, progress=False, figures=False)
    backwards = {cid: float(k) for k, cid in enumerate(CHEAP)}  # the last claim first
    two = runner.reproduce(settings, jobs=2, only_ids=CHEAP, root=ROOT, progress=False, figures=False,
                           durations=backwards)
    assert one.statuses() == two.statuses() and set(one.statuses()) == set(CHEAP)
    a = reports_without_seconds(one, tmp_path / "one")
    b = reports_without_seconds(two, tmp_path / "two")
    assert a.keys() == b.keys() and len(a) >= 6
    for name in a:
        assert a[name] == b[name], name


FIGS = HEAD + '''
import os, time

@claim("eq8", routes=["a", "b"])
def check_a(c):
    c.compare({"n": 1}, 1.0, "<=", 2.0)
    c.control("c", 3.0, "<=", 2.0)

def figures(settings):
    time.sleep(0.3)
    path = os.path.join(settings.figures_dir, "f.png")
    with open(path, "wb") as f:
        f.write(b"png")
    return [path]
'''

SLOW = HEAD + '''
import time

@claim("lem4.1", routes=["a", "b"])
def check_b(c):
    time.sleep(0.6)
    c.compare({"n": 1}, 1.0, "<=", 2.0)
    c.control("c", 3.0, "<=", 2.0)
'''


@pytest.mark.slow
def test_figures_run_interleaved_with_the_claims(tmp_path):
    """A figure task is scheduled by its previous duration like a claim: with it longest, it
    starts first, beside the claims, and the script's report is the same either way."""
    root = make_root(tmp_path, {"a_figs": FIGS, "b_slow": SLOW})
    settings = Settings(figures_dir=str(tmp_path / "figs"))
    tasks = runner._ClaimRun(loader.discover(root), root, settings, None, True).tasks
    order = runner.schedule(tasks, {"a_figs:figures": 9.0, "lem4.1": 1.0, "eq8": 0.1})
    assert [runner._task_name(t) for t in order] == ["a_figs:figures", "lem4.1", "eq8"]
    runs = [runner.reproduce(settings, jobs=j, root=root, progress=False, durations=d)
            for j, d in ((1, None), (2, {"a_figs:figures": 9.0, "lem4.1": 1.0}))]
    for run in runs:
        assert run.exit_code() == 0
        assert run.scripts[0].figures == ["figs/f.png"] and run.scripts[0].seconds >= 0.3
    a, b = (reports_without_seconds(r, tmp_path / f"rep{i}") for i, r in enumerate(runs))
    assert a == b


def test_previous_durations_include_the_figures(tmp_path):
    root = make_root(tmp_path, {"a_figs": FIGS})
    run = runner.reproduce(Settings(figures_dir=str(tmp_path / "figs")), jobs=1, root=root, progress=False)
    report.write_reports(run, tmp_path / "rep")
    d = report.previous_durations(tmp_path / "rep")
    assert set(d) == {"eq8", "a_figs:figures"} and d["a_figs:figures"] >= 0.25


# cor3.2 fills Arb's and mpmath's caches of constants at many precisions; lem6.1's error bars
# (ball radii, quadrature estimates) change in their last digits when they are computed from
# those caches instead of afresh.  Both claims are cheap in full mode.
ARB_HEAVY, FOLLOWER = "cor3.2", "lem6.1"


@pytest.mark.slow
def test_a_claim_reports_the_same_alone_and_after_another_in_full_mode(tmp_path):
    """Full-mode reports of a claim are a function of its inputs alone: run alone, after a claim
    that fills the number systems' caches, and before it (one worker, so that both run in the
    same one), its report is byte-identical apart from timings."""
    settings = Settings(quick=False)
    runs = {
        "alone": runner.reproduce(settings, jobs=1, only_ids=[FOLLOWER], root=ROOT, progress=False,
                                  figures=False),
        "after": runner.reproduce(settings, jobs=1, only_ids=[ARB_HEAVY, FOLLOWER], root=ROOT,
                                  progress=False, figures=False, durations={ARB_HEAVY: 2.0, FOLLOWER: 1.0}),
        "before": runner.reproduce(settings, jobs=1, only_ids=[ARB_HEAVY, FOLLOWER], root=ROOT,
                                   progress=False, figures=False, durations={ARB_HEAVY: 1.0, FOLLOWER: 2.0}),
    }
    reports = {k: reports_without_seconds(r, tmp_path / k) for k, r in runs.items()}
    script = runs["alone"].scripts[0].name + ".json"
    assert reports["alone"][script] == reports["after"][script] == reports["before"][script]
    assert runs["after"].statuses() == runs["before"].statuses()
