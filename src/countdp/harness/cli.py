"""The ``countdp`` command: list, check, reproduce, faults, figures, budget, release.

Exit codes: 0 success / all claims pass; 1 a claim failed (or errored, for ``reproduce``);
2 a usage error, an unknown claim id, or (for ``check``) a claim whose check errored.  Every
error is one line on stderr (``countdp[ <command>]: error: ...``), never a traceback.

Options are checked before anything runs, by the same rules in every subcommand (the validation
layer :mod:`countdp.numerics.validate`): ``--dps`` an integer in [5, 100], ``--jobs`` an integer
in [1, 4 x cores], ``--seed`` an integer >= 0, ``--time-limit`` seconds in (0, 1e6] per
claim (default 3600), ``--delta`` in (0, 1); output directories (``--reports``, ``--figures``) must be
creatable and writable.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import sys
import types
import tempfile
from pathlib import Path

from countdp.numerics.options import (DEFAULT_DPS, CLIError, dps_option as _dps, option as _option,
                                      parse_float as _float, parse_int as _int, subcommand as _sub)

PROG = "countdp"
DEFAULT_SEED = 20260715
DEFAULT_TIME_LIMIT = 3600.0
TIME_LIMIT_MAX = 1e6  # 11.6 days; setitimer overflows near 1e10


def _root(args) -> Path:
    from countdp.harness import loader

    if getattr(args, "root", None):
        root = Path(args.root).resolve()
        if not (root / loader.CHECKS_DIRNAME).is_dir():
            raise CLIError(f"--root {args.root}: no {loader.CHECKS_DIRNAME}/ directory there")
        return root
    try:
        return loader.find_checks_dir()
    except FileNotFoundError as exc:
        raise CLIError(str(exc)) from None


def _output_dir(given: str | None, root: Path, name: str) -> Path:
    """An output directory: as given; else ``ROOT/name`` in a checkout, or ``./name`` when the
    checks are the ones installed with the package (never inside site-packages)."""
    from countdp.harness import loader

    if given:
        return Path(given)
    return Path.cwd() / name if loader.is_installed_checks(root) else root / name


def _settings(args, figures_dir: str = "figures"):
    from countdp.harness.results import Settings

    return Settings(quick=bool(getattr(args, "quick", False)), dps=args.dps, seed=args.seed,
                    figures_dir=figures_dir, certify=not getattr(args, "no_certify", False),
                    time_limit=getattr(args, "time_limit", None))


def _jobs(args) -> int:
    return args.jobs or os.cpu_count() or 1


def _writable_dir(path: Path, option: str) -> Path:
    """``path`` after making sure it exists (created if needed) and a file can be written in
    it: checked before any claim runs, so that a long run never dies at its last step."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".countdp-write-test-"):
            pass
    except OSError as exc:
        raise CLIError(f"{option} {path}: not a writable directory "
                       f"({exc.strerror or type(exc).__name__})") from None
    return path


# --------------------------------------------------------------------------------------------
# Option values: the same rules in every subcommand (checked while parsing, before anything runs)
# --------------------------------------------------------------------------------------------


def jobs_max() -> int:
    return 4 * max(os.cpu_count() or 1, 1)


@_option
def _jobs_option(text):
    what = f"an integer in [1, {jobs_max()}] (at most 4 worker processes per core)"
    n = _int(text, what)
    if not 1 <= n <= jobs_max():
        raise ValueError(f"must be {what}, got {n}")
    return n


@_option
def _scheduler(text):
    import importlib.util

    if importlib.util.find_spec("distributed") is None:
        raise ValueError("needs the optional dependency 'distributed' "
                         "(pip install 'countdp[dask]')")
    if not text.strip():
        raise ValueError("must be the address of a Dask scheduler, e.g. tcp://host:8786")
    return text.strip()


@_option
def _seed(text):
    n = _int(text, "an integer >= 0")
    if n < 0:
        raise ValueError(f"must be an integer >= 0, got {n}")
    return n


@_option
def _time_limit(text):
    what = f"a number of seconds in (0, {TIME_LIMIT_MAX:.0e}] (the limit per claim)"
    x = _float(text, what)
    if not 0 < x <= TIME_LIMIT_MAX:  # NaN fails too
        raise ValueError(f"must be {what}, got {text}")
    return x


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``countdp budget: error: argument --dps: ... (see
    countdp budget --help)`` on stderr, exit 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


_NUMBER = re.compile(r"^-(\d+\.?\d*|\.\d+)[eE][-+]?\d+$|^-(inf|infinity|nan)$", re.IGNORECASE)


def _join_negative_numbers(argv: list[str]) -> list[str]:
    """``--delta -1e-6`` as ``--delta=-1e-6``: argparse takes ``-1e-6`` (unlike ``-1`` or ``-0.5``)
    for an option, and would say "expected one argument" instead of the value's range."""
    out: list[str] = []
    for tok in argv:
        if out and _NUMBER.match(tok) and out[-1].startswith("--") and "=" not in out[-1]:
            out[-1] = f"{out[-1]}={tok}"
        else:
            out.append(tok)
    return out


def _unknown_id(claim_id: str) -> CLIError:
    from countdp.harness.catalogue import CATALOGUE

    close = difflib.get_close_matches(claim_id, list(CATALOGUE), n=5, cutoff=0.5)
    if not close:
        close = [i for i in CATALOGUE if claim_id.lower() in i.lower()][:5]
    hint = f"; did you mean: {', '.join(close)}" if close else \
        "; `countdp list` shows every claim id"
    return CLIError(f"unknown claim id {claim_id!r}{hint}")


# --------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------


def cmd_list(args) -> int:
    from countdp.harness import loader
    from countdp.harness.catalogue import CATALOGUE

    root = _root(args)
    scripts = loader.discover(root)
    where: dict[str, list[str]] = {}
    for s in scripts:
        for sp in s.specs:
            where.setdefault(sp.id, []).append(s.name)
    broken = [s.name for s in scripts if s.error is not None]
    if args.json:
        out = [{"id": i, "paper": c.paper, "section": c.section, "statement": c.statement,
                "scripts": where.get(i, [])} for i, c in CATALOGUE.items()]
        print(json.dumps({"claims": out, "scripts_failing_to_import": broken}, indent=1))
    else:
        rows = [(i, c.paper, c.section, ", ".join(where.get(i, [])) or "not yet checked")
                for i, c in CATALOGUE.items()]
        w = [max(len(r[j]) for r in rows + [("claim", "paper", "section", "")]) for j in range(3)]
        print(f"{'claim':<{w[0]}}  {'paper':<{w[1]}}  {'section':<{w[2]}}  script")
        for r in rows:
            print(f"{r[0]:<{w[0]}}  {r[1]:<{w[1]}}  {r[2]:<{w[2]}}  {r[3]}")
        n_checked = sum(1 for i in CATALOGUE if i in where)
        print(f"\n{len(CATALOGUE)} claims, {n_checked} with a check script, "
              f"{len(CATALOGUE) - n_checked} not yet checked")
    for name in broken:
        print(f"{PROG}: warning: paper_checks/{name}.py failed to import "
              f"(run `countdp reproduce` for the traceback)", file=sys.stderr)
    return 0


def cmd_check(args) -> int:
    import mpmath

    from countdp.harness import report, runner
    from countdp.harness.catalogue import CATALOGUE

    if args.claim_id not in CATALOGUE:
        raise _unknown_id(args.claim_id)
    root = _root(args)
    settings = _settings(args, str(_output_dir(None, root, "figures")))
    res, script = runner.check_claim(args.claim_id, settings, root=root)
    if res.status == "missing":
        raise CLIError(f"{args.claim_id} ({CATALOGUE[args.claim_id].paper}) is not yet checked: "
                       "no script in paper_checks/ declares it")
    if args.json:
        with mpmath.workdps(settings.dps):
            d = res.to_json()
        d["script"] = script
        print(json.dumps(d, indent=1))
    else:
        print(report.format_result(res, settings, script=script))
    if res.status == "error":
        print(f"{PROG}: error: {args.claim_id}: {(res.reason or 'the check errored').splitlines()[0]}",
              file=sys.stderr)
    return {"pass": 0, "fail": 1}.get(res.status, 2)


def cmd_reproduce(args) -> int:
    if args.scheduler is None:
        return _reproduce(args)
    from countdp.harness import pool

    with pool.cluster(args.scheduler) as (executor, threads):
        return _reproduce(args, executor, threads)


def _reproduce(args, executor=None, threads: int | None = None) -> int:
    from countdp.harness import loader, report, runner
    from countdp.harness.catalogue import CATALOGUE

    if args.only:
        only = [i for group in args.only for item in group
                for i in item.replace(",", " ").split()]
        for i in only:
            if i not in CATALOGUE:
                raise _unknown_id(i)
    else:
        only = None
    root = _root(args)
    reports_dir = _writable_dir(_output_dir(args.reports, root, "reports"), "--reports")
    figures_dir = _output_dir(args.figures, root, "figures")
    if not args.no_figures:
        _writable_dir(figures_dir, "--figures")
    settings = _settings(args, str(figures_dir))
    jobs = threads or _jobs(args)
    if not args.quiet:
        on = f" on {args.scheduler}" if executor is not None else ""
        print(f"{PROG}: {'quick' if settings.quick else 'full'} run, {jobs} jobs{on}, dps "
              f"{settings.dps}, checks in {root / loader.CHECKS_DIRNAME}", file=sys.stderr)
    run = runner.reproduce(settings, jobs=jobs, only_ids=only, progress=not args.quiet,
                           figures=not args.no_figures, root=root,
                           durations=report.previous_durations(reports_dir), executor=executor)
    faults = None
    if args.faults:
        from countdp.harness import fault_runs

        faults = fault_runs.run_faults(settings, jobs=jobs, only_ids=only, root=root,
                                       baseline=run.statuses(), executor=executor)
        if only is None:
            fault_runs.write_faults_json(faults, reports_dir)
    report.write_reports(run, reports_dir)
    print(report.format_table(run))
    if faults is not None:
        print()
        print(fault_runs.format_faults(faults))
    print(f"reports: {reports_dir / 'SUMMARY.md'}")
    code = run.exit_code(strict=args.strict)
    if faults is not None and not faults.complete:
        print(f"{PROG}: a fault of the catalogue was not caught by its claim", file=sys.stderr)
        code = code or 1
    if code and args.strict and run.ok(strict=False):
        print(f"{PROG}: --strict: some claims are not yet checked", file=sys.stderr)
    return code


def cmd_faults(args) -> int:
    from countdp.harness import fault_runs

    only = [i for item in (args.claim_ids or []) for i in item.replace(",", " ").split()] or None
    from countdp.harness.catalogue import CATALOGUE

    for i in only or []:
        if i not in CATALOGUE:
            raise _unknown_id(i)
    root = _root(args)
    reports_dir = _output_dir(args.reports, root, "reports")
    if only is None:  # a full run writes faults.json there
        _writable_dir(reports_dir, "--reports")
    settings = _settings(args)
    jobs = _jobs(args)

    def progress(line: str) -> None:
        if not args.quiet:
            print(line, file=sys.stderr, flush=True)

    run = fault_runs.run_faults(settings, jobs=jobs, only_ids=only, root=root,
                                baseline_from=reports_dir, progress=progress)
    if only is None:
        fault_runs.write_faults_json(run, reports_dir)
    print(fault_runs.format_faults(run))
    if only is None:
        print(f"report: {reports_dir / 'faults.json'}")
    return 0 if run.complete else 1


def cmd_figures(args) -> int:
    from countdp.harness import runner

    root = _root(args)
    figures_dir = _writable_dir(_output_dir(args.figures, root, "figures"), "--figures")
    settings = _settings(args, str(figures_dir))
    try:
        run = runner.make_figures(settings, jobs=_jobs(args), progress=not args.quiet, root=root,
                                  only=args.only)
    except ValueError as exc:
        raise CLIError(str(exc)) from None
    for sr in run.scripts:
        for f in sr.figures or []:
            print(f)
        for r in sr.results:
            print(f"{PROG}: {r.id}: {r.reason}\n{r.error or ''}", file=sys.stderr)
    return 0 if all(not sr.results for sr in run.scripts) else 1


# --------------------------------------------------------------------------------------------
# Parser
# --------------------------------------------------------------------------------------------


def _common(sp, seed: bool = True, root: bool = True) -> None:
    if root:
        sp.add_argument("--root", metavar="DIR",
                        help="project root holding paper_checks/ (default: found from the current "
                             "directory, or $COUNTDP_ROOT)")
    sp.add_argument("--dps", type=_dps, default=DEFAULT_DPS, metavar="N",
                    help=f"working precision in decimal digits, 5..100 (default {DEFAULT_DPS})")
    if seed:
        sp.add_argument("--seed", type=_seed, default=DEFAULT_SEED, metavar="S",
                        help=f"base seed of the Monte Carlo routes, >= 0 (default {DEFAULT_SEED})")


def _limit(sp) -> None:
    sp.add_argument("--time-limit", type=_time_limit, default=DEFAULT_TIME_LIMIT, metavar="SEC",
                    help=f"stop a claim still running after SEC seconds, with status error "
                         f"(default {DEFAULT_TIME_LIMIT:g})")


def _jobs_arg(sp) -> None:
    sp.add_argument("--jobs", "-j", type=_jobs_option, default=None, metavar="N",
                    help=f"worker processes, 1..{jobs_max()} (default: number of cores)")


_EXIT_USAGE = "  2  a usage error (a bad option value: one line on stderr, never a traceback)"


def _add_list(sub) -> None:
    sp = _sub(sub, "list", "every claim id, its place in the paper, and its script",
              "List every claim of the catalogue (the paper, the companion paper, the C* claims) "
              "with its place in the paper and the check script that verifies it.",
              "  countdp list\n  countdp list --json | jq '.claims[].id'",
              "  0  listed (a check script that fails to import is warned about on stderr)\n"
              + _EXIT_USAGE)
    sp.add_argument("--root", metavar="DIR", help="project root holding paper_checks/ (default: "
                    "found from the current directory, or $COUNTDP_ROOT)")
    sp.add_argument("--json", action="store_true",
                    help="print JSON: every claim with paper, section, statement and scripts")
    sp.set_defaults(func=cmd_list)


def _add_check(sub) -> None:
    sp = _sub(sub, "check", "run the check of one claim and print it in full",
              "Run the check of one claim and print its status, routes, every case (with the "
              "route that produced it), the negative control, the slack, the worst gap over "
              "tolerance and the certificate.",
              "  countdp check thm3.1.ii\n  countdp check thm3.1.ii --dps 50 --quick\n"
              "  countdp check eq3 --json > eq3.json",
              "  0  the claim passes\n  1  the claim fails (a case does not hold, or a negative "
              "control is not rejected)\n  2  the check errored, the claim id is unknown or not "
              "yet checked, or a usage error")
    sp.add_argument("claim_id", metavar="CLAIM_ID",
                    help="a claim id of `countdp list` (e.g. thm3.1.ii)")
    _common(sp)
    sp.add_argument("--quick", action="store_true", help="the quick (CI) parameter grid")
    sp.add_argument("--certify", action="store_true",
                    help="attach the ball-arithmetic certificates (the default; see --no-certify)")
    sp.add_argument("--no-certify", action="store_true", help="skip interval certification")
    sp.add_argument("--json", action="store_true", help="print the result as JSON")
    _limit(sp)
    sp.set_defaults(func=cmd_check)


def _add_reproduce(sub) -> None:
    sp = _sub(sub, "reproduce", "run every check, write reports/ and figures/",
              "Run every claim's check (and make the figures), then write the reports: "
              "SUMMARY.md (one short row per claim), claims/<id>.md (the details of each claim), "
              "index.html (one self-contained page: sortable, filterable, expandable), "
              "<script>.json (every case), summary.json and junit.xml.",
              "  countdp reproduce                       # full run, one worker per core\n"
              "  countdp reproduce --quick --no-figures  # every claim, smaller grids\n"
              "  countdp reproduce --only thm3.1.ii eq12 --reports /tmp/r",
              "  0  every claim passes (claims not yet checked do not fail, unless --strict)\n"
              "  1  a claim failed or errored, a fault was not caught (--faults), or --strict "
              "and a claim is not yet checked\n" + _EXIT_USAGE + " or an unknown claim id")
    _common(sp)
    sp.add_argument("--quick", action="store_true", help="quick mode: every claim, smaller grids")
    sp.add_argument("--no-certify", action="store_true", help="skip interval certification")
    _jobs_arg(sp)
    sp.add_argument("--scheduler", type=_scheduler, metavar="ADDRESS",
                    help="run the claims on the Dask distributed cluster of this scheduler "
                         "(e.g. tcp://host:8786; its workers need countdp and the checks at the "
                         "same paths; needs countdp[dask]) instead of --jobs local processes")
    _limit(sp)
    sp.add_argument("--reports", metavar="DIR", help="reports directory (default ROOT/reports)")
    sp.add_argument("--figures", metavar="DIR", help="figures directory (default ROOT/figures)")
    sp.add_argument("--no-figures", action="store_true", help="do not make figures")
    sp.add_argument("--strict", action="store_true",
                    help="also fail if a catalogue claim has no check yet")
    sp.add_argument("--only", nargs="+", action="append", metavar="ID",
                    help="run only these claim ids (space or comma separated)")
    sp.add_argument("--faults", action="store_true",
                    help="then inject the fault catalogue into the claims (see `countdp faults`) "
                         "and report each claim's sensitivity; fails if a fault is missed")
    sp.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
    sp.set_defaults(func=cmd_reproduce)


def _add_faults(sub) -> None:
    sp = _sub(sub, "faults", "inject the fault catalogue: every plausible mistake must make its "
              "claim fail",
              "Inject each plausible transcription mistake of the fault catalogue (FAULTS in "
              "paper_checks/<script>.py) into the library, one at a time in a process of its own, "
              "and check that its claim then fails; print `caught k/n` per claim.",
              "  countdp faults --quick\n  countdp faults --quick prop6.2 thm1.1",
              "  0  every catchable fault was caught\n  1  a fault was not caught\n"
              + _EXIT_USAGE + " or an unknown claim id")
    sp.add_argument("claim_ids", nargs="*", metavar="CLAIM_ID",
                    help="only the faults of these claims (default: all; only a full run writes "
                         "reports/faults.json)")
    _common(sp)
    sp.add_argument("--quick", action="store_true", help="the quick (CI) parameter grids")
    sp.add_argument("--no-certify", action="store_true", help="do not run the certificates")
    _jobs_arg(sp)
    _limit(sp)
    sp.add_argument("--reports", metavar="DIR",
                    help="reports directory: faults.json goes there, and the unpatched statuses "
                         "are read from a reproduce there in the same mode (default ROOT/reports)")
    sp.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
    sp.set_defaults(func=cmd_faults)


def _add_figures(sub) -> None:
    sp = _sub(sub, "figures", "make the figures only (no claim is checked)",
              "Make every check script's figures (PNG, deterministic) without checking claims.",
              "  countdp figures\n  countdp figures --figures /tmp/figs --jobs 2\n"
              "  countdp figures --only cstar_lower_bracket   # one figure (and only its script runs)",
              "  0  every figure was made\n  1  a script's figures failed (the reason on stderr)\n"
              + _EXIT_USAGE)
    _common(sp)
    sp.add_argument("--quick", action="store_true",
                    help="the quick grids where a figure depends on them (faster, coarser)")
    _jobs_arg(sp)
    sp.add_argument("--figures", metavar="DIR", help="figures directory (default ROOT/figures)")
    sp.add_argument("--only", nargs="+", metavar="NAME",
                    help="only these figures (file names without .png): the scripts that make them run, "
                         "and only these files are written")
    sp.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
    sp.set_defaults(func=cmd_figures)


def build_parser() -> argparse.ArgumentParser:
    from countdp.calculator import cli as calculator_cli
    from countdp.calculator import release as release_cli
    from countdp.harness.provenance import provenance

    p = _Parser(
        prog=PROG,
        description='Reproducible verification of "Better Privacy Guarantees for Larger Groups", '
                    "and a privacy-budget calculator for its mechanism.",
        epilog="examples:\n  countdp list\n  countdp check thm3.1.ii\n  countdp reproduce --quick\n"
               "  countdp budget --r0 0.05 --c 1 --n 10 --delta 1e-6\n"
               "  countdp release --input counts.csv --r0 0.05 --c 1\n\n"
               "`countdp COMMAND --help` describes each command, its options and exit codes.\n"
               "exit status: 0 success, 1 a claim failed / a target is unreachable, 2 usage error",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"{PROG} {provenance().text}",
                   help="print the version and the git commit, and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for add in (_add_list, _add_check, _add_reproduce, _add_faults, _add_figures, calculator_cli.add_parser,
                release_cli.add_release_parser):
        add(sub)
    return p


class _Terminated(KeyboardInterrupt):
    """SIGTERM, turned into an exception so that the worker processes are stopped too."""


def _terminate_cleanly(signum, frame):  # pragma: no cover - exercised by a subprocess test
    raise _Terminated


def main(argv: list[str] | None = None) -> int:
    from countdp.harness.pool import single_thread_env

    single_thread_env()  # before numpy is imported by anything: one BLAS thread per process
    parser = build_parser()
    args = parser.parse_args(_join_negative_numbers(list(sys.argv[1:] if argv is None else argv)))
    import signal
    import threading

    previous = None
    if threading.current_thread() is threading.main_thread() and \
            signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        # SIGTERM (a CI timeout, `kill`) stops the worker processes too, like Ctrl-C
        previous = signal.signal(signal.SIGTERM, _terminate_cleanly)
    try:
        return int(args.func(args) or 0)
    except CLIError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        print(f"{PROG}: {'terminated' if isinstance(exc, _Terminated) else 'interrupted'}",
              file=sys.stderr)
        return 143 if isinstance(exc, _Terminated) else 130
    except BrokenPipeError:  # `countdp list | head`
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as exc:  # a report that cannot be written after all (disk full, ...)
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 -- a bug: one line, the traceback on request
        if os.environ.get("COUNTDP_TRACEBACK"):
            raise
        print(f"{PROG}: internal error: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''} "
              f"(set COUNTDP_TRACEBACK=1 for the traceback)", file=sys.stderr)
        return 2
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def script_main(script: str | os.PathLike | types.ModuleType, argv: list[str] | None = None
                ) -> int:
    """Entry point for running one check script alone::

        if __name__ == "__main__":
            from countdp.harness.cli import script_main
            raise SystemExit(script_main(__file__))

    Options: ``--quick --dps N --seed S --time-limit SEC --no-certify --json --figures DIR
    --no-figures`` (checked as by the ``countdp`` command).
    Runs the script's claims in this process, prints each result, makes the figures, and
    returns 0 if all pass, 1 if any fails, 2 if any errors."""
    import mpmath

    from countdp.harness import claims, loader, report

    p = _Parser(prog=str(getattr(script, "__file__", script)))
    p.add_argument("--quick", action="store_true", help="the quick (CI) parameter grids")
    _common(p, root=False)  # the options and rules of the countdp command
    _limit(p)
    p.add_argument("--no-certify", action="store_true", help="skip interval certification")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--figures", default=None, help="figures directory (default: figures/)")
    p.add_argument("--no-figures", action="store_true", help="do not make figures")
    a = p.parse_args(argv)
    module = script if isinstance(script, types.ModuleType) else loader.load_script(script)
    path = Path(module.__file__)
    figdir = a.figures or str(path.resolve().parent.parent / "figures")
    settings = _settings(a, figdir)
    results = [claims.run_check(sp, settings) for sp in claims.checks_in(module)]
    if a.json:
        with mpmath.workdps(settings.dps):
            print(json.dumps([r.to_json() for r in results], indent=1))
    else:
        for r in results:
            print(report.format_result(r, settings, script=path.stem))
            print()
    if not a.no_figures and callable(getattr(module, "figures", None)):
        Path(figdir).mkdir(parents=True, exist_ok=True)
        for f in module.figures(settings) or []:
            print(f"figure: {f}", file=sys.stderr)
    statuses = {r.status for r in results}
    return 2 if "error" in statuses else 1 if "fail" in statuses else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
