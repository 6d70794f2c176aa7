"""One-off sweep: the rigorous Arb routes of ``renyi(..., method="ball" / "ball-closed")`` against
the mpmath quadrature route on the thm3.1.ii / eq12 grid.

    PYTHONPATH=src python benchmarks/renyi_grid.py [--dps 30] [--grid released|unclipped]
                                                    [--no-mpmath] [--limit N] [--out FILE.jsonl]

Grid (paper_checks/_grid.py, full mode): r in {0.05, 0.1, 0.25, 0.5, 0.9}, r0 in {r/2, 0.9 r},
c in {0.1, 1, 2}, edges n - 1 <-> n for n in {1, 2, 5, 10, 100, 1000, 10^6}, alpha in
{1.01, 1.5, 2, 5, 20, 100}, both directions: 2520 released-law (or unclipped) pairs.

Per pair: CPU time (``time.process_time``, robust to other load on the machine) of each route,
of the bare ``acb.integral`` call of the ball route's integrand (same window, precision and
tolerance: the practical limit), the relative error bars, and whether the values agree within
the sum of the two error bars (mpmath vs ball, ball vs ball-closed).  Prints a summary; with
``--out`` writes one JSON line per pair.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from fractions import Fraction

import mpmath

from countdp.divergence.ball import bare_integral
from countdp.divergence.renyi import renyi
from countdp.mechanisms import ShiftedLogGaussian

R = (Fraction(1, 20), Fraction(1, 10), Fraction(1, 4), Fraction(1, 2), Fraction(9, 10))
C = (0.1, 1.0, 2.0)
N = (1, 2, 5, 10, 100, 1000, 10**6)
ALPHAS = (1.01, 1.5, 2, 5, 20, 100)


def designs():
    for r in R:
        for r0 in (r / 2, r * Fraction(9, 10)):
            for c in C:
                yield float(r), float(r0), c


def cases(grid: str):
    for r, r0, c in designs():
        mech = ShiftedLogGaussian(r0, c, r=r)
        law = mech.released_law if grid == "released" else mech.unclipped_law
        for n in N:
            P, Q = law(n - 1), law(n)
            for alpha in ALPHAS:
                for direction, (A, B) in (("forward", (P, Q)), ("reverse", (Q, P))):
                    yield {"r0": r0, "c": c, "n": n, "alpha": alpha, "direction": direction}, A, B


def _cpu(f):
    t = time.process_time()
    out = f()
    return out, time.process_time() - t


def bare_integral_seconds(A, B, alpha) -> float:
    """CPU seconds of the single acb.integral call the ball route makes, alone (its integrand,
    window, tolerances and precision precomputed as the route's last pass had them)."""
    _, secs = _cpu(bare_integral(A, B, alpha))
    return secs


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dps", type=int, default=30)
    p.add_argument("--grid", choices=("released", "unclipped"), default="released")
    p.add_argument("--no-mpmath", action="store_true")
    p.add_argument("--limit", type=int, default=None, help="only the first N pairs")
    p.add_argument("--out", default=None)
    a = p.parse_args(argv)
    mpmath.mp.dps = a.dps
    rows = []
    out = open(a.out, "w") if a.out else None
    for i, (params, A, B) in enumerate(cases(a.grid)):
        if a.limit is not None and i >= a.limit:
            break
        alpha = params["alpha"]
        ball, t_ball = _cpu(lambda: renyi(A, B, alpha, method="ball"))
        closed, t_closed = _cpu(lambda: renyi(A, B, alpha, method="ball-closed"))
        row = dict(params, t_ball=t_ball, t_closed=t_closed, t_bare=bare_integral_seconds(A, B, alpha),
                   D=mpmath.nstr(ball.value, a.dps), rel_ball=float(ball.error / abs(ball.value)),
                   rel_closed=float(closed.error / abs(closed.value)),
                   closed_agrees=bool(abs(ball.value - closed.value) <= ball.error + closed.error))
        if not a.no_mpmath:
            quad, t_quad = _cpu(lambda: renyi(A, B, alpha, method="quadrature"))
            row.update(t_quad=t_quad, rel_quad=float(quad.error / abs(quad.value)),
                       gap_quad=float(abs(quad.value - ball.value) / abs(ball.value)),
                       quad_agrees=bool(abs(quad.value - ball.value) <= quad.error + ball.error),
                       ball_not_wider=bool(ball.error <= quad.error))
        rows.append(row)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
        if (i + 1) % 100 == 0:
            print(f"  {i + 1} pairs", file=sys.stderr, flush=True)
    summarise(rows, a)
    return 0 if all(r["closed_agrees"] and r.get("quad_agrees", True) for r in rows) else 1


def _q(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def summarise(rows, a) -> None:
    print(f"{len(rows)} {a.grid} pairs at {a.dps} digits (CPU ms: median / 90% / max)")
    keys = [("t_ball", "ball (acb.integral)"), ("t_closed", "ball-closed (Phi)"), ("t_bare", "bare acb.integral")]
    if "t_quad" in rows[0]:
        keys.append(("t_quad", "mpmath quadrature"))
    for k, name in keys:
        v = [r[k] * 1e3 for r in rows]
        worst = max(rows, key=lambda r: r[k])
        print(f"  {name:<22} {statistics.median(v):8.2f} {_q(v, 0.9):8.2f} {max(v):8.2f}   worst at "
              f"r0={worst['r0']} c={worst['c']} n={worst['n']} alpha={worst['alpha']} {worst['direction']}")
    ratio = [r["t_ball"] / r["t_bare"] for r in rows if r["t_bare"] > 0]
    print(f"  ball / bare acb.integral: median {statistics.median(ratio):.2f}, 90% {_q(ratio, 0.9):.2f}, "
          f"max {max(ratio):.2f}")
    for k, name in (("rel_ball", "ball"), ("rel_closed", "ball-closed"), ("rel_quad", "mpmath")):
        if k in rows[0]:
            v = [r[k] for r in rows]
            print(f"  relative error bar {name:<12} median {statistics.median(v):.2e}  max {max(v):.2e}")
    print(f"  ball vs ball-closed agree within both bars: {sum(r['closed_agrees'] for r in rows)}/{len(rows)}")
    if "quad_agrees" in rows[0]:
        print(f"  ball vs mpmath agree within both bars:      {sum(r['quad_agrees'] for r in rows)}/{len(rows)}")
        print(f"  ball bar no wider than mpmath's:            {sum(r['ball_not_wider'] for r in rows)}/{len(rows)}")
        print(f"  largest |mpmath - ball|/D: {max(r['gap_quad'] for r in rows):.2e}")


if __name__ == "__main__":
    raise SystemExit(main())
