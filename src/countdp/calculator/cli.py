"""``countdp budget``: the command line of the budget calculator.  It parses the options, sets
the working precision once (``--dps``: the ambient ``mpmath.workdps`` of everything it calls)
and prints what :mod:`countdp.calculator.output` writes."""

from __future__ import annotations

import functools
import re
import sys

import mpmath

from ..numerics.options import (DEFAULT_DPS, CLIError, checked, dps_option, option, parse_float, parse_int,
                                subcommand)
from . import budget, counts, histogram, output, plot

__all__ = ["add_parser", "cmd_budget"]

PROG = "countdp"


@option
def _real(text):
    return parse_float(text, "a real number")


@option
def _counts_option(text):
    return counts.parse_counts(text)


@option
def _digits(text):
    n = parse_int(text, "an integer in [1, 100]")
    if not 1 <= n <= 100:
        raise ValueError(f"must be an integer in [1, 100], got {n}")
    return n


def _integer(text: str):
    """An integer option's text: ``1e9`` is the integer 1000000000 (an integral float is a count)."""
    try:
        return int(text)
    except ValueError:
        return float(text)


#: the library's parameter names that are this command's flags
_FLAGS = ("target_rho", "target_eps", "releases", "delta", "eps", "r0", "c", "r", "n")


def _flag_message(exc: Exception) -> str:
    """The library's message with its parameter named as the flag (``target_rho`` -> ``--target-rho``)."""
    return re.sub(r"(?<!-)\b(" + "|".join(_FLAGS) + r")\b(?= must| needs| and |$)",
                  lambda m: "--" + m.group(1).replace("_", "-"), str(exc))


def _target(name: str):
    return checked(name, functools.partial(budget.check_target, name), float)


_BUDGET_DESCRIPTION = """\
The privacy budget of the shifted log-Gaussian mechanism (eqs 3-6) for your parameters, and
the inverse: the r0 that meets a target guarantee.

The edge convention: v(n) bounds the releases at the neighbouring counts n-1 and n (both
orders); n = 0 is the edge (0, 1), v(0) = v(1). v decreases in n, so the guarantee at n holds
for every count >= n; the guarantee for every count is the one at n = 0. k releases
(--releases k) compose to rho = k v(n).

With --delta every conversion to (eps, delta)-DP is printed, labelled, tightest first: the
exact privacy profile of the released mechanism, Canonne-Kamath-Steinke (CKS) from rho, and
Bun-Steinke from rho (each valid on its own). --eps gives delta at that eps the same way.
Beside them: the expected absolute error E|Y - n| of the released count, its bound
r0 (n+c)/(1+c) (Theorem 3.1(i)) and, with --r, the target r max(n, 1) of eq (2).

Values are computed at --dps digits at full range (no inf or 0.0 for a value beyond float64);
the text shows --digits significant digits, --json all of them, as JSON numbers, with the
parameters echoed. The Python API is countdp.calculator.budget (guarantee, solve_r0)."""

_BUDGET_EXAMPLES = """\
  countdp budget --r0 0.05 --c 1 --n 10 --delta 1e-6      # every eps, tightest first
  countdp budget --r0 0.05 --c 1 --n 1:1e6:log --delta 1e-6   # a table over n
  countdp budget --r0 0.05 --c 1 --n 1,10,100 --eps 1    # delta at eps = 1
  countdp budget --c 1 --n 100 --target-eps 1 --delta 1e-6    # solve for r0
  countdp budget --c 1 --n 100 --target-rho 0.5 --releases 4  # rho over 4 releases
  countdp budget --r0 0.05 --c 1 --n 10 --delta 1e-6 --plot budget.png --json
  --n takes a count (10, 1e6), a list (1,10,100) or ranges: A:B (every count), A:B:S
  (step S), A:B:log (A, 10A, 100A, ... <= B), A:B:logK (K per decade)"""

_BUDGET_EXITS = """\
  0  printed
  1  a target is unreachable: the r0 it needs is not below r (or 1); the message says the best reachable
  2  a usage error or a parameter out of its range (one line on stderr)"""


def add_parser(sub) -> None:
    """Register the ``budget`` subcommand in the subparsers ``sub`` of the ``countdp`` command."""
    sp = subcommand(sub, "budget", "the privacy budget for your parameters (every conversion), "
                    "or r0 from a target", _BUDGET_DESCRIPTION, _BUDGET_EXAMPLES, _BUDGET_EXITS)
    sp.add_argument("--r0", type=_real, default=None,
                    help="calibration error level, 0 < r0 < r (0 < r0 < 1 without --r); omit it "
                         "with --target-rho / --target-eps, which solve for it")
    sp.add_argument("--c", type=_real, required=True, help="the shift c > 0")
    sp.add_argument("--n", type=_counts_option, required=True, metavar="N",
                    help="the count n >= 0 whose edge (n-1, n) is bounded: a count (10, 1e6), a "
                         "list (1,10,100) or a range (0:100:10, 1:1e6:log); several give a table")
    sp.add_argument("--r", type=_real, default=None,
                    help="the utility target r, 0 < r <= 1 (adds the target r max(n, 1) of eq (2) "
                         "and bounds r0 when solving)")
    sp.add_argument("--delta", type=checked("delta", budget.check_delta, float), default=None,
                    help="give eps at this delta, 0 < delta < 1, by every conversion")
    sp.add_argument("--eps", type=checked("eps", budget.check_eps, float), default=None,
                    help="give delta at this eps >= 0, by every conversion")
    sp.add_argument("--releases", "-k", type=checked("releases", budget.check_releases, _integer),
                    default=1, metavar="K",
                    help="K independent releases of the count, composed: rho = K v(n) (default 1)")
    sp.add_argument("--target-rho", type=_target("target_rho"), default=None, metavar="RHO",
                    help="solve for the r0 whose rho = K v(n) at n equals RHO")
    sp.add_argument("--target-eps", type=_target("target_eps"), default=None, metavar="EPS",
                    help="solve for the r0 whose eps at --delta equals EPS (by --via)")
    sp.add_argument("--via", choices=budget.CONVERSIONS, default="exact",
                    help="the conversion --target-eps is solved with (default exact: the exact "
                         "profile in log space, which bounds the released mechanism's)")
    sp.add_argument("--dps", type=dps_option, default=DEFAULT_DPS, metavar="N",
                    help=f"working precision, 5..100 (default {DEFAULT_DPS}); values are computed "
                         "to this many digits, at full range")
    sp.add_argument("--digits", type=_digits, default=6, metavar="D",
                    help="significant digits in the text output (default 6; --json has --dps)")
    sp.add_argument("--json", action="store_true",
                    help="print JSON: the parameters echoed, numbers as JSON numbers at --dps digits")
    sp.add_argument("--plot", metavar="FILE",
                    help="also draw v(n) and eps(n) against n (PNG), the paper's mechanism beside "
                         "the Airy mechanism with the same r0 and c")
    sp.add_argument("--verbose", "-v", action="store_true",
                    help="say how each conversion was computed, with its error bound")
    sp.set_defaults(func=cmd_budget)


def cmd_budget(args) -> int:
    """The ``budget`` subcommand: 0 printed, 1 a target unreachable (CLIError: a usage error)."""
    if args.plot:  # before any computation: a directory or a missing folder is refused now
        _check_plot_path(args.plot)
    with mpmath.workdps(args.dps):  # the one precision of the command, printing too
        if args.target_rho is not None or args.target_eps is not None:
            return _cmd_solve(args, min(args.digits, args.dps))
        return _cmd_guarantee(args, min(args.digits, args.dps))


def _cmd_guarantee(args, digits: int) -> int:
    if args.r0 is None:
        raise CLIError("budget needs --r0 (or --target-rho / --target-eps to solve for it)")
    try:
        b = budget.guarantee(args.r0, args.c, args.n, r=args.r, delta=args.delta, eps=args.eps,
                             releases=args.releases)
    except ValueError as exc:
        raise CLIError(_flag_message(exc)) from None
    if args.json:
        print(output.json_text(output.to_json(b)), end="")
    else:
        print(output.budget_text(b, digits, args.verbose))
    if args.plot:
        _plot(args, args.r0, b)
    return 0


def _solve_options(args) -> None:
    if args.target_rho is not None and args.target_eps is not None:
        raise CLIError("give one of --target-rho and --target-eps, not both")
    if args.r0 is not None:
        raise CLIError("--r0 cannot be given with --target-rho / --target-eps: r0 is what they solve for")
    if args.target_eps is not None and args.delta is None:
        raise CLIError("--target-eps needs --delta (the eps of an (eps, delta) guarantee)")
    if args.eps is not None:
        raise CLIError("--eps (delta at a given eps) cannot be given with a target")
    if args.plot and len(args.n) > 1:
        raise CLIError("--plot with a target takes one --n (each n has its own r0)")


def _cmd_solve(args, digits: int) -> int:
    _solve_options(args)
    ns = list(args.n)
    sols, missed = [], []
    for n in ns:
        try:
            sols.append(budget.solve_r0(n, args.c, target_rho=args.target_rho,
                                        target_eps=args.target_eps, delta=args.delta, r=args.r,
                                        releases=args.releases, via=args.via))
        except budget.Unreachable as exc:
            missed.append((n, str(exc)))
        except ValueError as exc:
            raise CLIError(_flag_message(exc)) from None
    if args.json:
        out = [output.to_json(s) for s in sols]
        data = out[0] if len(ns) == 1 and out else {"solutions": out}
        if missed:
            data = dict(data, unreachable=[{"n": n, "message": m} for n, m in missed])
        print(output.json_text(data), end="")
    elif len(ns) == 1 and sols:
        print(output.solution_text(sols[0], digits, args.verbose))
    elif sols:
        print(output.solutions_table(sols, [n for n, _ in missed], digits))
    for _, m in missed:
        print(f"{PROG} budget: {m}", file=sys.stderr)
    if args.plot and sols:
        _plot(args, float(sols[0].r0), sols[0].budget)
    return 1 if missed else 0


def _check_plot_path(path: str) -> None:
    """--plot's FILE: a file path in an existing writable folder, with a suffix matplotlib writes
    (never DIR.png for a directory)."""
    from matplotlib.backend_bases import FigureCanvasBase

    try:
        p = histogram.check_output_path("--plot", path)
    except ValueError as exc:
        raise CLIError(str(exc)) from None
    kinds = FigureCanvasBase.get_supported_filetypes()
    if p.suffix.lower().lstrip(".") not in kinds:
        raise CLIError(f"--plot {path}: the suffix {p.suffix or '(none)'!r} is not a figure format; "
                       f"use one of {', '.join('.' + k for k in sorted(kinds))}")


def _plot(args, r0, b: budget.Budget) -> None:
    ns = [row.n for row in b.rows if row.n >= 1]
    marks: list[int] = []
    if len(ns) < 2:  # one count: the curves over 1..10^6 (or beyond), the count marked
        marks = ns
        top = max([10 ** 6] + [100 * k for k in ns])
        ns = counts.parse_counts(f"1:{top}:log8")
    else:  # the user's counts, and enough between them for a curve
        ns = sorted(set(ns) | set(counts.parse_counts(f"{ns[0]}:{ns[-1]}:log8")))
    delta = args.delta if args.delta is not None else 1e-6
    try:
        path = plot.plot(args.plot, r0, args.c, ns, delta=delta, releases=args.releases, marks=marks)
    except (OSError, ValueError) as exc:
        raise CLIError(f"--plot {args.plot}: {exc}") from None
    print(f"plot: {path}" + ("" if args.delta is not None else " (eps at delta = 1e-6: --delta sets it)"),
          file=sys.stderr)
