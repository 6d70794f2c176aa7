"""Benchmarks as ratios, measured side by side in one run (make bench).

1. The released-law Renyi divergence at 30 digits: countdp's rigorous route
   (``renyi(..., method="ball")``: acb.integral of the densities plus proven tails and atoms)
   against the bare ``acb.integral`` call of the same integrand on the same window at the same
   precision and tolerance (the practical limit of the route); beside it the closed-form ball
   (``method="ball-closed"``) and the mpmath quadrature route the checks use today.
2. The Monte Carlo error estimate (``mc_abs_error``: draws, the mechanism, the streamed mean and
   its standard error) against raw ``numpy`` ``standard_normal`` draws, in draws per second.
3. The parallel speed-up of ``countdp reproduce``: wall time with 1 job over wall time with 2 jobs.
   To stay short this uses the *quick* reproduce without figures (``--full-reproduce`` for the
   full one, ``--no-reproduce`` to skip).
4. The tight rho of one edge at 30 digits, for the paper's mechanism beside the log-Laplace one
   and the log-logistic law of ``examples/new_noise_law.py`` (with its declared constant, and
   without it: the numerical end): CPU time and the bracket's relative width; and the wall
   time of ``countdp budget --plot`` beside the same command without the figure.

Single-process timings are CPU times (``time.process_time``: robust to other load on the
machine); the reproduce speed-up is wall time, so it is only meaningful on an otherwise idle
machine with at least two cores.  Nothing is asserted (speed is measured here, never in the
tests).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import mpmath
import numpy as np

from countdp.divergence.ball import bare_integral
from countdp.divergence.renyi import renyi
from countdp.divergence.tight_rho import tight_rho
from countdp.laws import ClippedAtZero, ContinuousLaw
from countdp.laws.expectation import mc_abs_error
from countdp.mechanisms import ShiftedLogGaussian
from countdp.mechanisms.log_laplace import LogLaplaceMechanism

ROOT = Path(__file__).resolve().parents[1]

# a spread of the thm3.1.ii grid: small and large counts, every order, both directions
CASES = [(r0, c, n, alpha, fwd) for r0, c in ((0.025, 0.1), (0.45, 1.0), (0.225, 2.0))
         for n in (1, 10, 10**6) for alpha in (1.01, 2, 20, 100) for fwd in (True, False)]


def cpu(fn, repeat=3):
    """Median CPU seconds of ``fn()`` over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times)


def _laws(r0, c, n, fwd):
    mech = ShiftedLogGaussian(r0, c)
    P, Q = mech.released_law(n - 1), mech.released_law(n)
    return (P, Q) if fwd else (Q, P)


def bench_divergence(with_mpmath: bool = True) -> None:
    mpmath.mp.dps = 30
    ball, bare, closed, quad = [], [], [], []
    for r0, c, n, alpha, fwd in CASES:
        A, B = _laws(r0, c, n, fwd)
        renyi(A, B, alpha, method="ball")  # warm the per-law caches (sigma balls)
        ball.append(cpu(lambda: renyi(A, B, alpha, method="ball")))
        bare.append(cpu(bare_integral(A, B, alpha)))
        closed.append(cpu(lambda: renyi(A, B, alpha, method="ball-closed")))
        if with_mpmath:
            quad.append(cpu(lambda: renyi(A, B, alpha, method="quadrature"), repeat=1))
    ratio = [b / max(x, 1e-9) for b, x in zip(ball, bare)]
    ms = lambda xs: f"median {statistics.median(xs) * 1e3:7.2f} ms, max {max(xs) * 1e3:7.2f} ms"  # noqa: E731
    print(f"1. released-law D_alpha at 30 digits, {len(CASES)} cases of the thm3.1.ii grid (CPU time)")
    print(f"   countdp ball (acb.integral route)   {ms(ball)}")
    print(f"   bare acb.integral, same integrand   {ms(bare)}")
    print(f"   ratio ball / bare acb.integral      median {statistics.median(ratio):.2f}, max {max(ratio):.2f}")
    print(f"   countdp ball-closed (Phi)           {ms(closed)}")
    if quad:
        speed = [q / b for q, b in zip(quad, ball)]
        print(f"   mpmath quadrature (today's route)   {ms(quad)}")
        print(f"   ratio mpmath / ball                 median {statistics.median(speed):.1f}x")


def bench_monte_carlo(draws: int = 10**6) -> None:
    mech = ShiftedLogGaussian(0.45, 0.1, r=0.9)
    law = mech.released_law(10)
    est = cpu(lambda: mc_abs_error(law, 10, np.random.default_rng(0), draws))
    raw = cpu(lambda: np.random.default_rng(0).standard_normal(draws))
    print(f"2. Monte Carlo error estimate, {draws:.0e} draws (CPU time)")
    print(f"   countdp mc_abs_error                {draws / est / 1e6:7.1f} M draws/s")
    print(f"   raw numpy standard_normal           {draws / raw / 1e6:7.1f} M draws/s")
    print(f"   ratio raw / countdp                 {est / raw:.2f} (the estimate costs that many raw draws per draw)")


def _reproduce_wall(jobs: int, quick: bool) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.TemporaryDirectory() as tmp:
        args = [sys.executable, "-m", "countdp", "reproduce", "--jobs", str(jobs), "--reports", tmp,
                "--quiet", "--root", str(ROOT)]
        args += ["--quick", "--no-figures"] if quick else ["--figures", str(Path(tmp) / "figures")]
        t0 = time.perf_counter()
        subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        return time.perf_counter() - t0


def bench_parallel(quick: bool = True) -> None:
    what = "quick reproduce, no figures" if quick else "full reproduce with figures"
    one = _reproduce_wall(1, quick)
    two = _reproduce_wall(2, quick)
    print(f"3. parallel speed-up of countdp reproduce ({what}; wall time, {os.cpu_count()} cores)")
    print(f"   --jobs 1  {one:7.1f} s")
    print(f"   --jobs 2  {two:7.1f} s")
    print(f"   speed-up  {one / two:.2f}x")


def _log_logistic():
    """The example's mechanism (examples/new_noise_law.py), and the same noise without its constant."""
    spec = importlib.util.spec_from_file_location("new_noise_law", ROOT / "examples" / "new_noise_law.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)

    class Undeclared(example.LogShiftedLogisticDensity):
        noise_log_lipschitz = None

    class UndeclaredMechanism(example.LogLogisticMechanism):
        def released_law(self, n):
            law = super().released_law(n)
            d = law.base.density
            return ClippedAtZero(ContinuousLaw(Undeclared(d.mu, d.s, d.c)))

    return example.LogLogisticMechanism(0.2, 1.0, r=0.4), UndeclaredMechanism(0.2, 1.0, r=0.4)


def bench_tight_rho() -> None:
    mpmath.mp.dps = 30
    logistic, undeclared = _log_logistic()
    cases = [("shifted log-Gaussian, n = 10", ShiftedLogGaussian(0.1, 1.0), 10),
             ("shifted log-Gaussian, n = 1000", ShiftedLogGaussian(0.1, 1.0), 1000),
             ("log-Laplace, n = 10", LogLaplaceMechanism(0.05, 1), 10),
             ("log-logistic (example), n = 10", logistic, 10),
             ("log-logistic, no constant (numerical end)", undeclared, 10)]
    print("4. tight rho of the edge n-1 <-> n of the released laws at 30 digits (CPU time, one run)")
    for label, mech, n in cases:
        P, Q = mech.released_law(n - 1), mech.released_law(n)
        t0 = time.process_time()
        t = tight_rho((P, Q))
        sec = time.process_time() - t0
        width = "open (inf)" if not t.bounded else f"{float((t.hi - t.lo) / t.value):.1e}"
        print(f"   {label:42s} {sec:6.2f} s   rho* = {mpmath.nstr(t.value, 10):>14s}   relative width {width}")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    base = [sys.executable, "-m", "countdp", "budget", "--r0", "0.1", "--c", "1", "--n", "100"]
    with tempfile.TemporaryDirectory() as tmp:
        walls = []
        for extra in ([], ["--plot", str(Path(tmp) / "budget.png")]):
            t0 = time.perf_counter()
            subprocess.run(base + extra, env=env, stdout=subprocess.DEVNULL, check=True)
            walls.append(time.perf_counter() - t0)
    print(f"   {'countdp budget --r0 0.1 --c 1 --n 100':42s} {walls[0]:6.2f} s wall")
    print(f"   {'the same with --plot FILE':42s} {walls[1]:6.2f} s wall")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="countdp benchmarks as ratios")
    p.add_argument("--no-reproduce", action="store_true", help="skip the parallel speed-up")
    p.add_argument("--full-reproduce", action="store_true", help="speed-up of the full reproduce")
    p.add_argument("--no-mpmath", action="store_true", help="skip the mpmath quadrature column")
    a = p.parse_args(argv)
    bench_divergence(with_mpmath=not a.no_mpmath)
    print()
    bench_monte_carlo()
    print()
    bench_tight_rho()
    if not a.no_reproduce:
        print()
        bench_parallel(quick=not a.full_reproduce)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
