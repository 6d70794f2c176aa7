"""Benchmarks of the operations that set the reproduce time (run: make bench).

Prints the median wall time of each operation over a few repeats; nothing is asserted (speed is
measured here, never in the tests)."""

import statistics
import time

import mpmath
import numpy as np

from countdp.divergence.renyi import renyi
from countdp.mechanisms import ShiftedLogGaussian
from countdp.laws.expectation import mc_abs_error, quad_expectation


def timed(fn, repeat=5):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _all_certificates():
    from pathlib import Path

    from countdp.harness import runner
    from countdp.harness.certificates import run_certificates

    root = Path(__file__).resolve().parents[1]
    for script in runner.discover(root):
        for spec in script.specs:
            if spec.certificates:
                run_certificates(spec.id, spec.certificates, quick=True)


def main():
    mpmath.mp.dps = 30
    mech = ShiftedLogGaussian(0.45, 0.1, r=0.9)
    P, Q = mech.released_law(9), mech.released_law(10)
    rows = [
        ("released-law D_2 by quadrature (dps 30)", lambda: renyi(P, Q, 2, method="quadrature")),
        ("unclipped-law D_2 by quadrature (dps 30)",
         lambda: renyi(mech.unclipped_law(9), mech.unclipped_law(10), 2, method="quadrature")),
        ("rounded-law D_2 by exact pmf sum, n = 2",
         lambda: renyi(mech.rounded_law(1), mech.rounded_law(2), 2)),
        ("E|xhat - n| by quadrature, n = 10",
         lambda: quad_expectation(P, lambda y: abs(y - 10), breaks=[10])),
        ("Monte Carlo E|xhat - n|, 10^6 draws",
         lambda: mc_abs_error(P, 10, np.random.default_rng(0), 10**6)),
        ("histogram release, 10^6 counts",
         lambda: mech.release(np.arange(10**6), np.random.default_rng(0))),
        ("every claim's certificates, quick mode", _all_certificates),
    ]
    width = max(len(name) for name, _ in rows)
    for name, fn in rows:
        print(f"{name:<{width}}  {timed(fn, 3 if 'certificates' in name else 5) * 1e3:10.2f} ms")


if __name__ == "__main__":
    main()
