"""Mutation testing of the library with cosmic-ray: ``make mutants`` (and ``make mutants-ci``).

1. The tracked files are copied into ``WORK/tree`` (a git repository of its own, so that the
   test command finds the mutated file with ``git diff``); cosmic-ray mutates that copy only.
2. ``cosmic-ray init`` lists every mutant of ``src/countdp/`` outside ``harness/`` (package
   ``__init__`` files, which only re-export, are left out).
3. A seeded sample, stratified by package, is kept; every other mutant is marked skipped in the
   session database (as cosmic-ray's own filters do), so ``cosmic-ray exec`` runs the sample only.
4. Each sampled module's test command (``plan.py``: its claims, then its unit tests) is run once
   unmutated: it must pass, and its time sets the mutants' time limits (FACTOR x + SLACK s).
5. ``cosmic-ray exec`` runs ``command.py`` on every sampled mutant; ``report.py`` writes
   ``reports/mutants.json`` and ``reports/mutants.md`` and checks every survivor is triaged.
   A run stopped with Ctrl-C keeps its session and its time so far: ``--resume`` finishes it
   (a 150-mutant sample takes longer than one sitting), ``--report-only`` scores what ran.

usage: run.py [--sample N] [--seed S] [--scope all|core] [--work DIR] [--reports DIR]
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import plan as planning  # noqa: E402
import report  # noqa: E402

ROOT = HERE.parent
PACKAGES = ("numerics", "formulas", "arb", "laws", "divergence", "mechanisms", "calculator")
# the trusted core when src/countdp/trusted_core.py does not name it (modules or packages)
DEFAULT_CORE = ("countdp.arb.verdicts", "countdp.arb.ranges", "countdp.arb.integrals",
                "countdp.arb.log_gaussian", "countdp.arb.gaussian_renyi",
                "countdp.arb.gaussian_integrals", "countdp.arb.drift", "countdp.arb.airy_score",
                "countdp.numerics.tolerance", "countdp.numerics.montecarlo",
                "countdp.numerics.estimate", "countdp.divergence.tight_rho")
# replacements that only raise TypeError on the library's numbers (float, mpf, arb): a bitwise or
# shift operator for an arithmetic one, ~x for -x; they measure nothing but that the line runs
EXCLUDED_OPERATORS = (r"core/ReplaceBinaryOperator_.*_(BitOr|BitAnd|BitXor|LShift|RShift)$",
                      r"core/ReplaceUnaryOperator_.*_Invert$")
EXCLUDED_TESTS = ("test_checks_all_claims.py", "test_packaging.py")  # and tests/test_harness_*


def package_of(module_path: str) -> str:
    """``src/countdp/arb/verdicts.py`` -> ``arb``."""
    parts = Path(module_path).parts
    return parts[2] if len(parts) > 3 else parts[-1].removesuffix(".py")


def trusted_core(tree: Path, core_file: Path | None) -> list[str]:
    """The trusted core's module names: ``TRUSTED_CORE`` of ``core_file`` (default
    ``src/countdp/trusted_core.py`` when there is one), else :data:`DEFAULT_CORE`."""
    path = core_file or tree / "src" / "countdp" / "trusted_core.py"
    if not path.exists():
        if core_file:
            raise SystemExit(f"run.py: --core {core_file} does not exist")
        return list(DEFAULT_CORE)
    for node in ast.parse(path.read_text()).body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == "TRUSTED_CORE":
            return sorted(ast.literal_eval(node.value))
    raise SystemExit(f"run.py: {path} defines no TRUSTED_CORE")


def in_core(module: str, core: list[str]) -> bool:
    return any(module == c or module.startswith(c + ".") for c in core)


def copy_tree(work: Path) -> Path:
    """The tracked files of the checkout, in ``work/tree``, committed in a repository of their own."""
    if work.exists():
        shutil.rmtree(work)
    tree = work / "tree"
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True,
                           text=True).stdout.split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():  # (a file deleted in the work tree but not in the index is skipped)
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, tree / name)
    git = ["git", "-c", "user.name=mutation", "-c", "user.email=mutation@localhost"]
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "unmutated"]):
        subprocess.run(git + cmd, cwd=tree, check=True)
    return tree


def mutated_files(tree: Path, core: list[str] | None, packages: list[str]) -> list[str]:
    """The library's modules outside ``harness/`` (no ``__init__``), within the core / packages."""
    lib = tree / "src" / "countdp"
    found = []
    for p in sorted(lib.rglob("*.py")):
        rel = p.relative_to(tree)
        module = planning.module_name(tree, p)
        if ("harness" in p.relative_to(lib).parts or p.name == "__init__.py"
                or (core is not None and not in_core(module, core))
                or (packages and package_of(str(rel)) not in packages)):
            continue
        found.append(str(rel))
    return found


def write_config(work: Path, tree: Path, modules: list[str], python: str, timeout: float) -> Path:
    """The cosmic-ray configuration: the modules, ``command.py`` as the test, the operators left
    out (the same regular expressions ``cr-filter-operators`` reads)."""
    command = f"{python} {tree / 'mutation' / 'command.py'} --work {work}"
    lines = ["[cosmic-ray]", f"module-path = {json.dumps(modules)}", f"timeout = {timeout}",
             "excluded-modules = []", f"test-command = {json.dumps(command)}", "",
             "[cosmic-ray.distributor]", 'name = "local"', "",
             "[cosmic-ray.filters.operators-filter]",
             f"exclude-operators = {json.dumps(list(EXCLUDED_OPERATORS))}", ""]
    config = work / "cosmic-ray.toml"
    config.write_text("\n".join(lines))
    return config


def choose(items: list, size: int, seed: int) -> list:
    """A seeded sample of ``size`` work items, allocated to the packages in proportion to their
    mutant counts (largest remainder), the operators of :data:`EXCLUDED_OPERATORS` left out."""
    excluded = re.compile("|".join(EXCLUDED_OPERATORS))
    pool = [i for i in items if not excluded.match(i.mutations[0].operator_name)]
    by_package: dict[str, list] = defaultdict(list)
    for item in sorted(pool, key=report.stable_order):
        by_package[package_of(str(item.mutations[0].module_path))].append(item)
    size = min(size, len(pool))
    quotas = {p: size * len(v) / len(pool) for p, v in by_package.items()}
    counts = {p: int(q) for p, q in quotas.items()}
    for p in sorted(quotas, key=lambda p: (counts[p] - quotas[p], p))[: size - sum(counts.values())]:
        counts[p] += 1
    chosen = []
    for p in sorted(by_package):
        chosen += random.Random(f"{seed}:{p}").sample(by_package[p], counts[p])
    return sorted(chosen, key=report.stable_order)


def sample_session(session: Path, size: int, seed: int) -> list:
    """Keep the sample pending; mark every other mutant skipped (so exec runs the sample only)."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    with use_db(str(session), WorkDB.Mode.open) as db:
        items = list(db.work_items)
        chosen = choose(items, size, seed)
        keep = {i.job_id for i in chosen}
        excluded = re.compile("|".join(EXCLUDED_OPERATORS))
        filtered = {i.job_id for i in items if excluded.match(i.mutations[0].operator_name)}
        for ids, why in ((filtered, report.FILTERED), ({i.job_id for i in items} - keep - filtered,
                                                       "not sampled")):
            db.set_multiple_results(sorted(ids), WorkResult(worker_outcome=WorkerOutcome.SKIPPED,
                                                            output=why))
    return chosen


def leave_out_earlier(session: Path, tree: Path, chosen: list, args) -> list:
    """The sample without the mutants ``args.after`` (a partial run of the same seed and scope)
    holds: same file, operator, column and source line (a line's number may have moved since)."""
    earlier = json.loads(args.after.read_text())
    if (earlier["seed"], earlier["scope"]) != (args.seed, args.scope):
        raise SystemExit(f"--after: {args.after} is seed {earlier['seed']} ({earlier['scope']}), "
                         f"not seed {args.seed} ({args.scope})")
    from cosmic_ray.work_db import WorkDB, use_db  # (the mutants extra; the check above needs none)
    from cosmic_ray.work_item import WorkerOutcome, WorkResult
    # --again: the earlier run's survivors run once more on today's tree (only its kills stand)
    done = {(m["file"], m["operator"], m["column"], m["source"]) for m in earlier["mutants"]
            if m["killed"] or not args.again}

    def key(item):
        m = item.mutations[0]
        line = (tree / str(m.module_path)).read_text().splitlines()[m.start_pos[0] - 1].strip()
        return (str(m.module_path), m.operator_name, m.start_pos[1], line)

    before = [i for i in chosen if key(i) in done]
    with use_db(str(session), WorkDB.Mode.open) as db:
        db.set_multiple_results(sorted(i.job_id for i in before),
                                WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output=report.EARLIER))
    print(f"--after {args.after}: {len(before)} of the {len(chosen)} sampled mutants "
          f"{'were killed' if args.again else 'ran'} there ({len(earlier['mutants'])} in all); "
          f"{len(chosen) - len(before)} to run", flush=True)
    return [i for i in chosen if key(i) not in done]


def claims_by_script(tree: Path, python: str) -> dict[str, list[str]]:
    """script stem -> the ids of the claims it checks (from ``countdp list --json``)."""
    out = subprocess.run([python, "-m", "countdp", "list", "--json"], cwd=tree, check=True,
                         capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(tree / "src"))).stdout
    found: dict[str, list[str]] = defaultdict(list)
    for claim in json.loads(out)["claims"]:
        for script in claim.get("scripts") or []:
            found[Path(script).stem].append(claim["id"])
    return found


def build_plan(tree: Path, work: Path, modules: set[str], args) -> dict:
    """module -> the claims and unit tests of its test command, timed once unmutated."""
    lib = planning.Library(tree)
    graph = planning.module_graph(lib)
    scripts = planning.file_imports(lib, [p for p in sorted((tree / "paper_checks").glob("*.py"))
                                          if not p.name.startswith("_")])
    tests = planning.file_imports(lib, unit_test_files(tree))
    claims = claims_by_script(tree, args.python)
    entries = {}
    for module in sorted(modules):
        chosen = planning.plan_for(module, graph, scripts, tests, args.script_depth, args.test_depth)
        chosen["claims"] = sorted(c for s in chosen["scripts"] for c in claims.get(s, []))
        entries[module] = chosen
    plan = {"python": args.python, "factor": args.factor, "slack": args.slack, "limit": args.limit,
            "jobs": args.jobs, "modules": entries}
    if args.select == "coverage" and not args.dry_run:
        add_coverage(plan, tree, work, [t.name for t in tests], args)
    (work / "plan.json").write_text(json.dumps(plan, indent=1))
    return plan


def unit_test_files(tree: Path) -> list[Path]:
    """The unit tests a mutant may run: ``tests/test_*.py`` but the harness's and the whole-run
    ones (:data:`EXCLUDED_TESTS`), which check the reports rather than the library."""
    return [p for p in sorted((tree / "tests").glob("test_*.py"))
            if p.name not in EXCLUDED_TESTS and not p.name.startswith("test_harness_")]


def add_coverage(plan: dict, tree: Path, work: Path, known: list[str], args) -> None:
    """Measure which unit test runs which line (coverage_map.py) into ``work/coverage.json``:
    each mutant then runs the test files that ran its function, at any import depth; a line run
    at import keeps its module's import-map tests and every test that ran a line of its file."""
    import coverage_map

    started = time.monotonic()
    key = coverage_map.tree_key(tree, known)
    cached = args.coverage_cache / f"{key}.json"
    if cached.is_file():  # measured before on a tree with the same library and tests
        shutil.copy2(cached, work / "coverage.json")
    else:
        data = work / "coverage.sqlite"
        coverage_map.measure(tree, known, args.jobs, data, args.python)
        by_line = coverage_map.load(data, tree)
        (work / "coverage.json").write_text(json.dumps(
            {f: {str(ln): sorted(t) for ln, t in lines.items()} for f, lines in sorted(by_line.items())}))
        args.coverage_cache.mkdir(parents=True, exist_ok=True)
        shutil.copy2(work / "coverage.json", cached)
    by_line = {f: {int(ln): set(t) for ln, t in lines.items()}
               for f, lines in json.loads((work / "coverage.json").read_text()).items()}
    for module, entry in plan["modules"].items():
        path = "src/" + module.replace(".", "/") + ".py"
        ran = set().union(*by_line.get(path, {}).values()) - {coverage_map.OUTSIDE}
        entry["tests_of_file"] = sorted(ran & set(known))
    plan.update(coverage="coverage.json", known_tests=sorted(known),
                coverage_seconds=round(time.monotonic() - started, 1))
    print(f"coverage of {len(known)} test files measured in {plan['coverage_seconds']:.0f} s", flush=True)


def time_baselines(work: Path, plan: dict) -> None:
    """Run each module's test command unmutated: it must pass; its times set the limits."""
    cache: dict[str, dict] = {}
    for module, entry in sorted(plan["modules"].items()):
        key = json.dumps([entry["claims"], entry["tests"]])
        if key not in cache:
            out = subprocess.run([plan["python"], str(work / "tree" / "mutation" / "command.py"),
                                  "--work", str(work), "--module", module],
                                 capture_output=True, text=True)
            record = report.parse_record(out.stdout)
            if out.returncode or record is None:
                raise SystemExit(f"run.py: the unmutated test command of {module} fails "
                                 f"({record}); see {work / 'scratch'}")
            cache[key] = record
            print(f"baseline {module}: claims {record['claims_seconds']:.1f} s, "
                  f"tests {record['tests_seconds']:.1f} s", flush=True)
        entry["claims_seconds"] = cache[key]["claims_seconds"]
        entry["tests_seconds"] = cache[key]["tests_seconds"]
    (work / "plan.json").write_text(json.dumps(plan, indent=1))


def parse_args(argv):
    env = os.environ.get
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sample", type=int, default=int(env("MUTANTS_SAMPLE", "150")))
    p.add_argument("--seed", type=int, default=int(env("MUTANTS_SEED", "20")))
    p.add_argument("--scope", choices=("all", "core"), default="all")
    p.add_argument("--packages", type=lambda s: [x for x in s.split(",") if x],
                   default=[x for x in env("MUTANTS_PACKAGES", "").split(",") if x],
                   help="sample these packages only (comma separated: numerics,arb,...)")
    p.add_argument("--core", type=Path, default=None,
                   help="file whose TRUSTED_CORE names the core (default src/countdp/trusted_core.py)")
    p.add_argument("--work", type=Path, default=ROOT / "build" / "mutation")
    p.add_argument("--reports", type=Path, default=ROOT / "reports")
    p.add_argument("--name", default="mutants", help="report file stem (mutants.json, mutants.md)")
    p.add_argument("--triage", type=Path, default=HERE / "triage.toml")
    p.add_argument("--script-depth", type=int, default=2)
    p.add_argument("--test-depth", type=int, default=1)
    p.add_argument("--coverage-cache", type=Path, default=ROOT / "build" / "mutation-coverage",
                   help="coverage maps by the hash of the library and test files they were measured on")
    p.add_argument("--select", choices=("coverage", "imports"), default="coverage",
                   help="a mutant's unit tests: those that ran its function, measured by coverage "
                        "once per run (default), or those whose imports reach its module (--test-depth)")
    p.add_argument("--factor", type=float, default=3.0, help="time limit: FACTOR x unmutated + SLACK")
    p.add_argument("--slack", type=float, default=10.0)
    p.add_argument("--no-baseline", dest="baseline", action="store_false",
                   help="do not time the unmutated commands (when the suite is known to pass, as "
                        "after make test): every run gets the fixed --limit")
    p.add_argument("--limit", type=float, default=600.0, help="time limit without a baseline (s)")
    p.add_argument("--jobs", type=int, default=int(env("MUTANTS_JOBS", "1")),
                   help="worker processes of the claims and of pytest, per mutant")
    p.add_argument("--python", default=sys.executable)
    p.add_argument("--dry-run", action="store_true", help="sample and plan only: print them")
    p.add_argument("--report-only", action="store_true",
                   help="write the reports of the finished run in --work again (after triage)")
    p.add_argument("--resume", action="store_true",
                   help="run the sampled mutants of the interrupted run in --work that have no result "
                        "yet, on the same tree and plan, and write its reports (the time adds up)")
    p.add_argument("--after", type=Path, metavar="RUN.json",
                   help="continue a checked-in partial run of the same seed and scope on today's tree: "
                        "the mutants of the sample it holds (same file, operator, column and line) "
                        "are not run again")
    p.add_argument("--again", action="store_true",
                   help="with --after: the partial run's survivors are run again on today's tree "
                        "(its killed mutants are not); --merge then scores their new outcome")
    p.add_argument("--merge", type=Path, nargs=2, metavar=("EARLIER.json", "LATER.json"),
                   help="one report (--reports/--name) from a partial run and the run --after it")
    p.add_argument("--rescore", type=Path, nargs="+", metavar="RUN.json",
                   help="score checked-in runs (mutation/runs/*.json, with their .md) again with "
                        "the triage file as it is now")
    args = p.parse_args(argv)
    if args.sample < 1:
        p.error(f"--sample must be >= 1, got {args.sample}")
    if args.again and not args.after:
        p.error("--again runs the survivors of --after RUN.json again: it needs --after")
    if not 1 <= args.jobs <= 8:
        p.error(f"--jobs must be in 1..8, got {args.jobs}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.monotonic()
    work = args.work.resolve()
    if args.rescore:  # a checked-in run scored again with the triage file as it is now
        for run in args.rescore:
            whole = report.rescore(run, args.triage)["by_group"]["whole library"]
            print(f"{run}: strict {whole['strict score']}, without benign {whole['score']}, "
                  f"{whole['untriaged']} untriaged")
        return 0
    if args.merge:
        return report.merge(*args.merge, args)
    if args.report_only:  # the reports again from a finished run (e.g. after triage)
        tree, plan = work / "tree", json.loads((work / "plan.json").read_text())
        done = json.loads((work / "run.json").read_text())
        args.seed, args.scope = done["seed"], done["scope"]
        return report.write(work / "session.sqlite", tree, plan, trusted_core(tree, args.core),
                            args, done["seconds"])
    cosmic = [args.python, "-m", "cosmic_ray.cli"]
    if args.resume:
        return resume(work, cosmic, args, started)
    tree = copy_tree(work)
    core = trusted_core(tree, args.core)
    files = mutated_files(tree, core if args.scope == "core" else None, args.packages)
    config = write_config(work, tree, files, args.python, timeout=24 * 3600.0)
    session = work / "session.sqlite"
    subprocess.run(cosmic + ["init", str(config), str(session)], cwd=tree, check=True)
    chosen = sample_session(session, args.sample, args.seed)
    if args.after:
        chosen = leave_out_earlier(session, tree, chosen, args)
    modules = {".".join(Path(i.mutations[0].module_path).with_suffix("").parts[1:]) for i in chosen}
    plan = build_plan(tree, work, modules, args)
    if args.dry_run:
        for item in chosen:
            m = item.mutations[0]
            print(f"{m.module_path}:{m.start_pos[0]} {m.operator_name}")
        for module, entry in sorted(plan["modules"].items()):
            print(f"{module}: {len(entry['claims'])} claims, tests {' '.join(entry['tests'])}")
        return 0
    if args.baseline:
        time_baselines(work, plan)
    print(f"running {len(chosen)} mutants of {len(modules)} modules (seed {args.seed})", flush=True)
    (work / "run.json").write_text(json.dumps({"seconds": 0.0, "seed": args.seed, "scope": args.scope}))
    return execute(work, cosmic, plan, core, args, started)


def execute(work: Path, cosmic: list[str], plan: dict, core: list[str], args, started: float) -> int:
    """``cosmic-ray exec`` on the session in ``work`` (its pending mutants), then the reports.
    ``run.json`` keeps the seconds spent so far, also when the run is interrupted (Ctrl-C), so
    that ``--resume`` can finish it and ``--report-only`` can score what ran."""
    done = json.loads((work / "run.json").read_text())
    try:
        subprocess.run(cosmic + ["exec", str(work / "cosmic-ray.toml"), str(work / "session.sqlite")],
                       cwd=work / "tree", check=True)
    finally:
        done["seconds"] += time.monotonic() - started
        (work / "run.json").write_text(json.dumps(done))
    args.seed, args.scope = done["seed"], done["scope"]
    return report.write(work / "session.sqlite", work / "tree", plan, core, args, done["seconds"])


def resume(work: Path, cosmic: list[str], args, started: float) -> int:
    """Finish an interrupted run: its tree back to its commit (a mutant being tested when it
    stopped may have left its file mutated), then the mutants without a result."""
    tree = work / "tree"
    if not (work / "plan.json").is_file() or not (work / "run.json").is_file():
        raise SystemExit(f"--resume: {work} holds no started run (plan.json and run.json)")
    subprocess.run(["git", "checkout", "-q", "--", "."], cwd=tree, check=True)
    plan = json.loads((work / "plan.json").read_text())
    print(f"resuming the run in {work}", flush=True)
    return execute(work, cosmic, plan, trusted_core(tree, args.core), args, started)


if __name__ == "__main__":
    sys.exit(main())
