"""The privacy-budget calculator of the shifted log-Gaussian mechanism (eqs 3-6), behind
``countdp budget``: from (r0, c) to the guarantee at a count n, and back from a target to r0;
and ``countdp release``, the mechanism applied to a histogram.

* :mod:`~countdp.calculator.budget`: the API (``guarantee``, ``solve_r0``), every conversion to
  (eps, delta)-DP, tightest first, and the parameters' checks;
* :mod:`~countdp.calculator.counts`: the counts of a table from text (``1:1e6:log``);
* :mod:`~countdp.calculator.output`: the text and the JSON it prints;
* :mod:`~countdp.calculator.plot`: the --plot figure, beside the Airy mechanism;
* :mod:`~countdp.calculator.cli`: the ``budget`` subcommand;
* :mod:`~countdp.calculator.histogram`: the histograms ``release`` reads and writes (CSV, JSON)
  and the output paths, checked before any computation;
* :mod:`~countdp.calculator.release`: the ``release`` subcommand.  Its sampler is numpy
  floating-point Gaussian sampling, not a hardened sampler: Mironov's (2012) floating-point
  attack on naive Laplace / Gaussian samplers applies in principle.

The mechanism in dp_accounting's terms (events, privacy-loss distributions, to compose it with
other mechanisms) is :mod:`countdp.mechanisms.accounting` (``pip install 'countdp[accounting]'``).

The names below are imported lazily: ``countdp --help`` imports the subcommand only.
"""

from ..numerics.lazy import lazy_exports

EXPORTS = {
    "budget": ("guarantee", "solve_r0", "Budget", "Row", "Conversion", "Solution", "Unreachable"),
    "counts": ("parse_counts",),
    "output": ("to_json", "json_text", "budget_text", "solution_text", "solutions_table"),
    "plot": ("curves", "Curves"),
}
__getattr__, __dir__, __all__ = lazy_exports(__name__, EXPORTS)
