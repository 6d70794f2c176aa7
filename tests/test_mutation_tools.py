"""The mutation-testing tools of mutation/ (make mutants): the import map that picks each
mutant's claims and tests, the triage match that survives code moving, and the score."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "mutation"))

import plan as planning  # noqa: E402
import report  # noqa: E402


@pytest.fixture(scope="module")
def lib():
    return planning.Library(ROOT)


@pytest.mark.slow
def test_package_import_resolves_to_the_submodule_used(lib, tmp_path):
    script = tmp_path / "s.py"
    script.write_text("from countdp import formulas\nfrom countdp.laws import Gaussian\n"
                      "x = formulas.sigma\n")
    found = planning.file_imports(lib, [script])[script]
    assert "countdp.formulas.mechanism" in found and "countdp.laws.gaussian" in found
    assert "countdp.formulas.zcdp" not in found and "countdp.formulas" not in found


def test_relative_imports_and_users_by_depth(lib):
    graph = planning.module_graph(lib)
    assert "countdp.numerics.contexts" in graph["countdp.formulas.mechanism"]
    near = planning.users(graph, "countdp.numerics.series", 1)
    assert near == {"countdp.numerics.series"} | {m for m, d in graph.items()
                                                  if "countdp.numerics.series" in d}
    assert near <= planning.users(graph, "countdp.numerics.series", 2)


def test_plan_names_the_module_tests_and_the_scripts_that_import_it(lib):
    graph = planning.module_graph(lib)
    scripts = planning.file_imports(lib, sorted((ROOT / "paper_checks").glob("sec*.py")))
    tests = planning.file_imports(lib, sorted((ROOT / "tests").glob("test_numerics_*.py")))
    chosen = planning.plan_for("countdp.numerics.series", graph, scripts, tests, 2, 1)
    assert "test_numerics_series.py" in chosen["tests"]
    assert chosen["scripts"] == sorted(s.stem for s, mods in scripts.items()
                                       if mods & planning.users(graph, "countdp.numerics.series", 2))


def _mutant(**kw):
    base = dict(file="src/countdp/arb/verdicts.py", line=40, operator="core/NumberReplacer",
                source="k = 1", mutant="k = 2", ran=True, killed=False, killed_by_claims=False)
    return {**base, **kw}


def test_triage_matches_by_text_not_by_line():
    entry = dict(file="src/countdp/arb/verdicts.py", line=12, operator="core/NumberReplacer",
                 source="k = 1", mutant="k = 2", reason="r")
    entry["class"] = "equivalent"
    assert report.triage_of(_mutant(line=40), [entry]) is entry  # the code moved
    assert report.triage_of(_mutant(mutant="k = 0"), [entry]) is None
    near = dict(entry, line=41)
    assert report.triage_of(_mutant(line=40), [entry, near]) is near


def test_scores_leave_out_equivalent_survivors_and_the_second_one_benign_too():
    mutants = [_mutant(killed=True, killed_by_claims=True), _mutant(killed=True),
               _mutant(triage={"class": "equivalent"}), _mutant(triage={"class": "real"}),
               _mutant(triage={"class": "benign"}), _mutant(triage=None),
               _mutant(ran=False, triage=None)]
    for m in mutants:
        m.setdefault("triage", None)
    t = report.tally(mutants)
    assert t["non-equivalent"] == 5 and t["scored"] == 4
    assert t["untriaged"] == 1 and t["real"] == 1 and t["benign"] == 1
    assert t["strict score"] == 0.4 and t["strict score by claims"] == 0.2
    assert t["score"] == 0.5 and t["score by claims"] == 0.25


def test_a_checked_in_run_is_rescored_with_the_triage_as_it_is_now(tmp_path):
    """rescore: the survivor's new triage class reaches the JSON and the tables, and the run's
    own opening paragraphs stay as they were."""
    import json

    survivor = dict(_mutant(), core=True, package="laws", ran=True, killed=False, killed_by_claims=False,
                    triage={"class": "benign", "reason": "old"}, line=40, column=0, diff="",
                    claims="survived", tests="survived", seconds=1.0, job_id="a")
    killed = dict(survivor, killed=True, killed_by_claims=True, triage=None, job_id="b", line=41)
    doc = {"tool": "cosmic-ray", "version": "8.7.0", "seed": 5, "sample_size": 2, "scope": "all",
           "population": 9, "trusted_core": [], "seconds": 2.0, "seconds_per_mutant": 1.0,
           "by_group": {}, "plan": {}, "mutants": [survivor, killed]}
    run = tmp_path / "r.json"
    run.write_text(json.dumps(doc))
    (tmp_path / "r.md").write_text("# Mutation testing\n\nOur own words.\n\nSeed 5, old tables\n")
    triage = tmp_path / "t.toml"
    e = survivor
    triage.write_text(f'[[survivor]]\nfile = "{e["file"]}"\nline = 40\noperator = "{e["operator"]}"\n'
                      f'source = "{e["source"]}"\nmutant = "{e["mutant"]}"\nclass = "real"\nreason = "new"\n')
    out = report.rescore(run, triage)
    assert out["by_group"]["whole library"]["real"] == 1
    assert out["by_group"]["whole library"]["strict score"] == 0.5
    assert json.loads(run.read_text())["mutants"][0]["triage"]["class"] == "real"
    md = (tmp_path / "r.md").read_text()
    assert md.startswith("# Mutation testing\n\nOur own words.\n\nSeed 5, 2 mutants") and "old tables" not in md
    assert "| real | new |" in md


def test_a_file_imports_what_its_local_helpers_and_literal_imports_import(lib, tmp_path):
    """A check or a test that reaches a module only through a helper beside it (followed to the
    helper's own helpers) or by ``__import__("countdp....")`` runs on that module's mutants; a
    helper elsewhere, or a name that is no module, adds nothing."""
    (tmp_path / "_outer.py").write_text("from _inner import x\n")
    (tmp_path / "_inner.py").write_text("def x():\n    from countdp.divergence import renyi\n"
                                        "    return renyi.renyi\n")
    script = tmp_path / "s.py"
    script.write_text("from _outer import x\nimport _missing\n"
                      "m = __import__('countdp.laws.reference', fromlist=['x'])\n"
                      "n = __import__('countdp.no_such_module')\n")
    found = planning.file_imports(lib, [script])[script]
    assert found == {"countdp.divergence.renyi", "countdp.laws.reference"}
    tests = planning.file_imports(lib, [ROOT / "tests" / "test_numerics_validate.py"])
    assert "countdp.divergence.tight_rho" in tests[ROOT / "tests" / "test_numerics_validate.py"]


def test_resume_refuses_a_directory_without_a_started_run(tmp_path):
    import run
    with pytest.raises(SystemExit, match="holds no started run"):
        run.main(["--resume", "--work", str(tmp_path)])


@pytest.mark.parametrize("interrupted", [False, True])
def test_resume_restores_the_tree_runs_the_session_and_adds_up_the_time(tmp_path, monkeypatch, interrupted):
    """--resume: the file a stopped mutant left mutated is restored, cosmic-ray exec runs on the
    same session, and run.json's seconds grow by this sitting's, also when it is stopped again."""
    import json
    import subprocess
    import run
    work, tree = tmp_path, tmp_path / "tree"
    tree.mkdir()
    (tree / "m.py").write_text("x = 1\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@localhost"]
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "unmutated"]):
        subprocess.run(git + cmd, cwd=tree, check=True)
    (tree / "m.py").write_text("x = 2\n")   # left mutated by the stopped run
    (work / "plan.json").write_text(json.dumps({"modules": {}}))
    (work / "run.json").write_text(json.dumps({"seconds": 100.0, "seed": 28, "scope": "all"}))
    real_run, calls, written = subprocess.run, [], {}

    def fake_run(cmd, **kw):
        if "cosmic_ray.cli" in cmd:
            calls.append((cmd, (tree / "m.py").read_text()))
            if interrupted:
                raise KeyboardInterrupt
            return subprocess.CompletedProcess(cmd, 0)
        return real_run(cmd, **kw)
    monkeypatch.setattr(run.subprocess, "run", fake_run)
    monkeypatch.setattr(run, "trusted_core", lambda tree, core: [])
    monkeypatch.setattr(run.report, "write", lambda *a: written.setdefault("seconds", a[-1]) and 0)
    if interrupted:
        with pytest.raises(KeyboardInterrupt):
            run.main(["--resume", "--work", str(work)])
    else:
        assert run.main(["--resume", "--work", str(work)]) == 0
    (cmd, source), = calls
    assert cmd[-3:] == ["exec", str(work / "cosmic-ray.toml"), str(work / "session.sqlite")]
    assert source == "x = 1\n"
    done = json.loads((work / "run.json").read_text())
    assert done["seed"] == 28 and 100.0 < done["seconds"] < 160.0
    assert written == ({} if interrupted else {"seconds": done["seconds"]})


# ---- the coverage selection of a mutant's unit tests (mutation/coverage_map.py) ---------------

_SOURCE = '''\
LIMIT = 3


def outer(x):
    def inner(y):
        return y + LIMIT
    return inner(x) * 2


def called_at_import():
    return 1


VALUE = called_at_import()


def default_arg(a=LIMIT):
    return a
'''


def test_the_enclosing_body_is_the_innermost_function_and_none_at_import_time():
    import coverage_map
    assert coverage_map.enclosing_body(_SOURCE, 6) == (6, 6)     # inner's body
    assert coverage_map.enclosing_body(_SOURCE, 7) == (5, 7)     # outer's body holds inner
    for line in (1, 4, 14, 17):  # a constant, a def line (decorators, defaults), a module call
        assert coverage_map.enclosing_body(_SOURCE, line) is None


def test_a_mutant_runs_the_tests_that_ran_its_function_and_the_import_map_at_import_time():
    """tests_for: the test files that ran any line of the enclosing function (a mutant on a line
    no test reached gets no unit test); None (the import map's tests as well) for a line run at
    import, or in a function that also ran outside any test."""
    import coverage_map
    lines = {1: {""}, 6: {"test_a.py"}, 7: {"test_b.py"}, 11: {"", "test_c.py"}, 14: {""}}
    assert coverage_map.tests_for(lines, _SOURCE, 6) == {"test_a.py"}
    assert coverage_map.tests_for(lines, _SOURCE, 7) == {"test_a.py", "test_b.py"}
    assert coverage_map.tests_for({}, _SOURCE, 6) == set()
    assert coverage_map.tests_for(lines, _SOURCE, 11) is None
    assert coverage_map.tests_for(lines, _SOURCE, 1) is None
    assert coverage_map.test_file("tests/test_x.py::TestA::test_b[1-a::b]|run") == "test_x.py"
    assert coverage_map.test_file("") == ""


def test_the_coverage_data_is_read_by_test_file_and_line(tmp_path):
    from coverage import CoverageData
    import coverage_map
    tree = tmp_path / "tree"
    (tree / "src" / "pkg").mkdir(parents=True)
    mod = tree / "src" / "pkg" / "m.py"
    mod.write_text(_SOURCE)
    data = CoverageData(basename=str(tmp_path / "cov.sqlite"))
    for context, lines in (("", [1, 4, 14]), ("tests/test_a.py::test_one|run", [6, 7]),
                           ("tests/test_a.py::test_two|setup", [6]), ("tests/test_b.py::t|run", [7])):
        data.set_context(context)
        data.add_lines({str(mod): lines})
    data.write()
    found = coverage_map.load(tmp_path / "cov.sqlite", tree)
    assert found == {"src/pkg/m.py": {1: {""}, 4: {""}, 14: {""}, 6: {"test_a.py"},
                                      7: {"test_a.py", "test_b.py"}}}


def test_the_changed_lines_of_a_mutant_are_read_from_its_diff():
    import command
    diff = ("diff --git a/src/x.py b/src/x.py\n--- a/src/x.py\n+++ b/src/x.py\n"
            "@@ -42 +42 @@ def f():\n-    return a + b\n+    return a - b\n"
            "@@ -50,2 +50,2 @@\n-x\n-y\n+u\n+v\n")
    assert command.changed_lines(diff) == [42, 50, 51]


def test_a_mutant_site_gets_its_coverage_tests_or_its_module_tests_at_import(tmp_path):
    """command.site_tests: without a coverage map the import map's tests; with one, the tests
    that ran the mutated function (within the known test files), and for a line run at import
    the import map's tests together with every test that ran a line of the file."""
    import json
    import subprocess
    import command
    tree = tmp_path / "tree"
    (tree / "src" / "pkg").mkdir(parents=True)
    (tree / "src" / "pkg" / "m.py").write_text(_SOURCE)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@localhost"]
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "unmutated"]):
        subprocess.run(git + cmd, cwd=tree, check=True)
    entry = {"tests": ["test_import.py"], "tests_of_file": ["test_a.py", "test_gone.py"]}
    plan = {"modules": {"pkg.m": entry}}
    assert command.site_tests(tmp_path, plan, "pkg.m", "@@ -6 +6 @@\n") == ["test_import.py"]
    (tmp_path / "coverage.json").write_text(json.dumps(
        {"src/pkg/m.py": {"6": ["test_a.py"], "7": ["test_b.py", "test_unknown.py"], "1": [""]}}))
    plan.update(coverage="coverage.json", known_tests=["test_a.py", "test_b.py", "test_import.py"])
    assert command.site_tests(tmp_path, plan, "pkg.m", "@@ -6 +6 @@\n") == ["test_a.py"]
    assert command.site_tests(tmp_path, plan, "pkg.m", "@@ -7 +7 @@\n") == ["test_a.py", "test_b.py"]
    assert command.site_tests(tmp_path, plan, "pkg.m", "@@ -1 +1 @@\n") == ["test_a.py", "test_import.py"]
    assert command.site_tests(tmp_path, plan, "pkg.m", "@@ -11 +11 @@\n") == []


@pytest.mark.parametrize("k, n", [(120, 150), (0, 10), (10, 10), (72, 89), (1, 1)])
def test_the_wilson_interval_ends_solve_its_quadratic_and_hold_the_sample_score(k, n):
    """Each end x of the 95 % interval solves (k/n - x)^2 = z^2 x (1 - x) / n, and k/n lies
    between them (the ends are clipped to [0, 1] only where a root is 0 or 1 itself)."""
    lo, hi = report.wilson(k, n)
    z, p = 1.959964, k / n
    for x in (lo, hi):
        assert (p - x) ** 2 == pytest.approx(z * z * x * (1 - x) / n, rel=5e-3, abs=1e-6)  # (4 digits)
    assert lo <= p <= hi and lo < hi
    assert report.wilson(0, 0) is None
    assert report.wilson(120, 150) == [0.7289, 0.8562]


# ---- retest.py: the triaged survivors put back and run against today's tests ---------------

def test_a_triaged_line_is_found_by_its_text_the_line_number_only_a_hint():
    import retest
    lines = ["a = 1\n", "    b = a + 1\n", "c = 3\n", "    b = a + 1\n"]
    assert retest.locate(lines, "b = a + 1", 4) == 3          # the hint matches
    assert retest.locate(lines, "b = a + 1", 3) == 1          # the nearest match to a stale hint
    assert retest.locate(lines, "b = a + 1", 99) == 3
    assert retest.locate(lines, "d = 4", 1) is None           # the line is gone
    text = "def f(x):\n    return 2 * x\n"
    assert retest.mutate(text, "return 2 * x", "return 2 + x", 2) == "def f(x):\n    return 2 + x\n"
    assert retest.mutate(text, "return 3 * x", "return 3 + x", 2) is None


@pytest.mark.slow
def test_retest_tells_killed_survived_and_gone_apart(tmp_path):
    import retest
    (tmp_path / "src" / "countdp").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    module = tmp_path / "src" / "countdp" / "toy.py"
    module.write_text("def double(x):\n    return 2 * x\n")
    (tmp_path / "tests" / "test_toy.py").write_text(
        "from countdp.toy import double\n\ndef test_double():\n    assert double(3) == 6\n")
    tests = {"countdp.toy": ["test_toy.py"]}
    entry = {"file": "src/countdp/toy.py", "line": 2, "operator": "op", "class": "real",
             "source": "return 2 * x"}
    rows = {m: retest.retest(dict(entry, mutant=m), tmp_path, tests, sys.executable, 1, 120)
            for m in ("return 2 + x", "return x * 2")}
    assert rows["return 2 + x"]["outcome"] == "killed"
    assert rows["return 2 + x"]["failed"] == ["tests/test_toy.py::test_double"]
    assert rows["return x * 2"]["outcome"] == "survived"
    assert module.read_text() == "def double(x):\n    return 2 * x\n"   # restored after each
    gone = retest.retest(dict(entry, source="return 3 * x", mutant="return 3 + x"), tmp_path,
                         tests, sys.executable, 1, 120)
    assert gone["outcome"] == "gone"


def test_two_parts_of_one_sample_merge_into_one_scored_report(tmp_path):
    """merge: the mutants of a partial run and of the run --after it, their seconds added, scored
    with the triage file as it is now; parts of different seeds are refused."""
    import argparse
    import json

    def part(seed, jobs, seconds):
        ms = [dict(_mutant(), core=True, package="laws", ran=True, killed=k, killed_by_claims=k, triage=None,
                   line=40 + i, column=ord(j), diff="", claims="", tests="", seconds=1.0, job_id=j)
              for i, (j, k) in enumerate(jobs)]
        return {"tool": "cosmic-ray", "version": "8.7.0", "seed": seed, "sample_size": len(ms), "scope": "core",
                "population": 9, "trusted_core": [], "seconds": seconds, "seconds_per_mutant": 1.0,
                "by_group": {}, "plan": {"m": {}}, "mutants": ms}

    a, b, c = (tmp_path / f"{n}.json" for n in "abc")
    a.write_text(json.dumps(part(5, [("x", True), ("y", False)], 10.0)))
    b.write_text(json.dumps(part(5, [("z", True)], 5.5)))
    c.write_text(json.dumps(part(6, [("w", True)], 1.0)))
    triage = tmp_path / "t.toml"
    m = _mutant()
    triage.write_text(f'[[survivor]]\nfile = "{m["file"]}"\nline = 41\noperator = "{m["operator"]}"\n'
                      f'source = "{m["source"]}"\nmutant = "{m["mutant"]}"\nclass = "benign"\nreason = "r"\n')
    args = argparse.Namespace(triage=triage, reports=tmp_path / "out", name="merged")
    assert report.merge(a, b, args) == 0
    doc = json.loads((tmp_path / "out" / "merged.json").read_text())
    assert doc["sample_size"] == 3 and doc["seconds"] == 15.5
    assert [p["mutants"] for p in doc["parts"]] == [2, 1]
    whole = doc["by_group"]["whole library"]
    assert whole["killed"] == 2 and whole["benign"] == 1 and whole["strict score"] == round(2 / 3, 4)
    md = (tmp_path / "out" / "merged.md").read_text()
    assert "2 mutants in a.json and 1 mutants in b.json" in md and "Seed 5, 3 mutants" in md
    with pytest.raises(SystemExit, match="not parts of one seed"):
        report.merge(a, c, args)
    # run.py --again: the earlier survivor y ran again in the later part and was killed there;
    # its new outcome is the one scored, the earlier kill x stands; a kill run again is refused
    d, e = tmp_path / "d.json", tmp_path / "e.json"
    d.write_text(json.dumps(part(5, [("y", True), ("z", True)], 7.0)))
    assert report.merge(a, d, args) == 0
    doc = json.loads((tmp_path / "out" / "merged.json").read_text())
    assert doc["sample_size"] == 3 and doc["ran_again"] == 1
    assert sorted((m["job_id"], m["killed"], m["ran_again"]) for m in doc["mutants"]) == [
        ("x", True, False), ("y", True, True), ("z", True, False)]
    assert doc["by_group"]["whole library"]["strict score"] == 1.0
    assert "The 1 mutants the earlier parts did not kill ran again" in (tmp_path / "out" / "merged.md").read_text()
    # a survivor whose second run did not finish (interrupted: not run) keeps its first outcome
    f = tmp_path / "f.json"
    f.write_text(json.dumps(dict(part(5, [("y", False)], 1.0), mutants=[
        dict(part(5, [("y", False)], 1.0)["mutants"][0], ran=False)])))
    assert report.merge(a, f, args) == 0
    doc = json.loads((tmp_path / "out" / "merged.json").read_text())
    assert doc["sample_size"] == 2 and doc["ran_again"] == 0
    assert [(m["job_id"], m["ran"], m["killed"]) for m in doc["mutants"]] == [("x", True, True), ("y", True, False)]
    e.write_text(json.dumps(part(5, [("x", True)], 1.0)))
    with pytest.raises(SystemExit, match="ran again a mutant .* had killed"):
        report.merge(a, e, args)


def test_again_without_after_is_refused():
    import run

    with pytest.raises(SystemExit):
        run.parse_args(["--again"])
    assert run.parse_args(["--again", "--after", "x.json"]).again


def test_after_refuses_a_partial_run_of_another_seed_or_scope(tmp_path):
    import argparse
    import json

    import run

    earlier = tmp_path / "e.json"
    earlier.write_text(json.dumps({"seed": 5, "scope": "core", "mutants": []}))
    for seed, scope in ((6, "core"), (5, "all")):
        args = argparse.Namespace(after=earlier, seed=seed, scope=scope)
        with pytest.raises(SystemExit, match="--after: .* is seed 5 \\(core\\)"):
            run.leave_out_earlier(tmp_path / "s.sqlite", tmp_path, [], args)


@pytest.mark.parametrize("decorator", ["@lru_cache(maxsize=None)", "@functools.cache", "@cached_property"])
def test_a_module_that_caches_results_keeps_the_import_maps_tests(decorator):
    """A cached body (and the helpers it calls) runs once per process: coverage credits it to the
    first test only, so every line of such a module gets None (the import map's tests as well)."""
    import coverage_map
    cached = f"import functools\n\n\ndef helper(y):\n    return y + 1\n\n\n{decorator}\ndef table(x):\n    return helper(x)\n"
    lines = {5: {"test_first.py"}, 10: {"test_first.py"}}
    assert coverage_map.caches_results(cached)
    assert coverage_map.tests_for(lines, cached, 5) is None and coverage_map.tests_for(lines, cached, 10) is None
    plain = cached.replace(decorator + "\n", "")
    assert not coverage_map.caches_results(plain)
    assert coverage_map.tests_for({5: {"test_first.py"}, 9: {"test_first.py"}}, plain, 5) == {"test_first.py"}
