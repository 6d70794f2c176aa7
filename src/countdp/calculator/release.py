"""``countdp release``: a histogram in (CSV ``group,count`` or JSON ``{group: count}``), its
counts released by the shifted log-Gaussian mechanism (eq 4, each group independently), in the
same format out; optionally rounded to integers by Corollary 3.2's stochastic rounding; beside
it, the guarantee per group (v(n) of eqs 5-6 and eps at --delta, the tightest conversion of
:func:`countdp.calculator.budget.guarantee`)."""

from __future__ import annotations

import sys
import textwrap

import mpmath
import numpy as np

from ..mechanisms.log_gaussian import ShiftedLogGaussian
from ..numerics import validate
from ..numerics.digits import significant
from ..numerics.options import DEFAULT_DPS, CLIError, checked, dps_option, subcommand
from . import budget, histogram
from .cli import PROG

__all__ = ["SAMPLER_CAVEAT", "add_release_parser", "cmd_release", "guarantee_table"]

SAMPLER_CAVEAT = ("the noise is numpy floating-point Gaussian sampling (numpy.random.Generator, "
                  "PCG64), not a hardened sampler: the floating-point attacks on naive Laplace / "
                  "Gaussian samplers (Mironov 2012) apply in principle; the guarantees stated "
                  "are those of the exact real-valued mechanism")

_DESCRIPTION = f"""\
Release a histogram with the shifted log-Gaussian mechanism (eq 4): every count n becomes
[(n+c) exp(sigma Z - sigma^2) - c]_+, independently per group, sigma from (r0, c) by eq 3.
In: CSV with the columns group,count (lines starting with # are comments) or JSON
{{"group": count}}, the format from the suffix or --format. Out: the same format, to --output
or standard output; CSV carries a # header (the mechanism, the seed, the caveat below).
--round rounds each released value to floor or ceil with conditional mean the value
(Corollary 3.2). The guarantee per group (v(n) of eqs 5-6 on the edge (n-1, n), and eps at
--delta by the tightest conversion) goes to standard error, or to --guarantees FILE.

{textwrap.fill("The sampler: " + SAMPLER_CAVEAT + ".", 92)}
Randomness: --seed S (reproducible: whoever has the seed can subtract the noise, so a seeded
release is for tests), or fresh OS entropy by default (not recorded)."""

_EXAMPLES = """\
  countdp release --input counts.csv --r0 0.05 --c 1
  countdp release --input counts.json --r0 0.05 --c 1 --round --output noisy.json
  countdp release --input counts.csv --r0 0.05 --c 1 --seed 7 --delta 1e-6 --guarantees g.txt"""

_EXITS = """\
  0  released
  2  a usage error, a bad input file or a parameter out of its range (one line on stderr)"""


def add_release_parser(sub) -> None:
    """Register the ``release`` subcommand in the subparsers ``sub`` of the ``countdp`` command."""
    sp = subcommand(sub, "release", "release a histogram (CSV or JSON) with the mechanism, and "
                    "the guarantee per group", _DESCRIPTION, _EXAMPLES, _EXITS)
    sp.add_argument("--input", "-i", required=True, metavar="FILE",
                    help="the histogram: CSV (group,count) or JSON {group: count}; - for stdin")
    sp.add_argument("--format", choices=histogram.FORMATS, default=None,
                    help="the format of --input and of the output (default: --input's suffix)")
    sp.add_argument("--r0", type=checked("r0", lambda x: validate.real("r0", x, lo=0, hi=1), float),
                    required=True, help="calibration error level, 0 < r0 < 1")
    sp.add_argument("--c", type=checked("c", lambda x: validate.real("c", x, lo=0), float),
                    required=True, help="the shift c > 0")
    sp.add_argument("--output", "-o", metavar="FILE", default=None,
                    help="write the released histogram here (default: standard output)")
    sp.add_argument("--round", action="store_true",
                    help="stochastic rounding to integers (Corollary 3.2)")
    sp.add_argument("--seed", type=checked("seed", lambda s: validate.count("seed", s)), default=None,
                    metavar="S", help="integer seed >= 0 (reproducible; default: OS entropy)")
    sp.add_argument("--delta", type=checked("delta", budget.check_delta, float), default=1e-6,
                    help="the delta of the eps per group, 0 < delta < 1 (default 1e-6)")
    sp.add_argument("--guarantees", metavar="FILE", default=None,
                    help="write the guarantee table here instead of standard error")
    sp.add_argument("--dps", type=dps_option, default=DEFAULT_DPS, metavar="N",
                    help=f"working precision of the guarantees, 5..100 (default {DEFAULT_DPS})")
    sp.set_defaults(func=cmd_release)


def guarantee_table(b: budget.Budget, groups, counts, delta) -> list[str]:
    """One line per group: the group, its count, v(n) and eps at delta (tightest conversion)."""
    rows = {row.n: row for row in b.rows}
    cells = [(g, str(n), significant(rows[n].v, 6), significant(rows[n].eps, 6), rows[n].tightest.method)
             for g, n in zip(groups, counts)]
    head = ("group", "count", "v(n)", f"eps at delta={delta:g}", "conversion")
    w = [max(len(h), *(len(c[j]) for c in cells)) for j, h in enumerate(head)]
    lines = ["  ".join(f"{h:<{w[j]}}" for j, h in enumerate(head))]
    lines += ["  ".join(f"{c[j]:<{w[j]}}" for j in range(len(head))).rstrip() for c in cells]
    return lines


def _header(args, mech: ShiftedLogGaussian) -> list[str]:
    seed = f"seed {args.seed} (reproducible)" if args.seed is not None else \
        "seed: fresh OS entropy (not recorded)"
    return [f"released by countdp: shifted log-Gaussian mechanism (eq 4), r0 = {args.r0:g}, "
            f"c = {args.c:g}, sigma = {significant(mech.mp_sigma(), 8)}"
            + (", stochastically rounded (Corollary 3.2)" if args.round else ""),
            seed, f"caveat: {SAMPLER_CAVEAT}"]


def _checked_inputs(args):
    """--input's format and the output paths, checked before any computation."""
    try:
        fmt = histogram.histogram_format(args.input, args.format)
        for flag, path in (("--output", args.output), ("--guarantees", args.guarantees)):
            if path is not None and path != "-":
                histogram.check_output_path(flag, path)
        hist = histogram.read_histogram(args.input, fmt)
        mech = ShiftedLogGaussian(args.r0, args.c)
    except ValueError as exc:
        raise CLIError(str(exc)) from None
    return fmt, hist, mech


def cmd_release(args) -> int:
    """The ``release`` subcommand: 0 released (CLIError: a usage error or a bad input)."""
    fmt, hist, mech = _checked_inputs(args)
    with mpmath.workdps(args.dps):
        b = budget.guarantee(args.r0, args.c, sorted(set(hist.counts)), delta=args.delta)
    rng = validate.rng(args.seed)
    noisy = mech.release(np.array(hist.counts, dtype=np.int64), rng, rounding=args.round)
    values = [int(v) for v in noisy] if args.round else [float(v) for v in noisy]
    header = _header(args, mech)
    text = histogram.histogram_text(hist.groups, values, fmt, header)
    table = [f"guarantee per group: v(n) bounds the edge (n-1, n), eqs 5-6 (the guarantee for "
             f"every count is v(0) = {significant(b.v0, 6)})"]
    table += guarantee_table(b, hist.groups, hist.counts, args.delta)
    if args.output is None or args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    for line in header:
        print(f"{PROG} release: {line}", file=sys.stderr)
    if args.guarantees is not None:
        with open(args.guarantees, "w", encoding="utf-8") as f:
            f.write("\n".join(header + [""] + table) + "\n")
        print(f"{PROG} release: guarantees written to {args.guarantees}", file=sys.stderr)
    else:
        print("\n".join(table), file=sys.stderr)
    if args.output not in (None, "-"):
        print(f"{PROG} release: released histogram written to {args.output}", file=sys.stderr)
    return 0
