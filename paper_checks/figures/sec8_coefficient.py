"""The figures of paper_checks/sec8_coefficient.py: :func:`make`, which its ``figures`` hook calls."""

import mpmath
import numpy as np

from countdp import formulas
from countdp.mechanisms.large_count import scaled_budget


def make(settings, upper_family, table2_constants):
    """The C* landscape: the Table 2 constants and the upper family's r^2 n^2 v(n) as r falls
    (``upper_family(r)``: the check's mechanism at r; ``table2_constants()``: name -> value)."""
    from countdp.harness.plotting import new_figure, save

    with mpmath.workdps(20):
        fig, ax = new_figure(size=(9.0, 4.4))
        rs = np.geomspace(1e-5, 0.5, 40)
        for n, style in ((2, ":"), (10, "--"), (10**8, "-")):
            ys = [float(scaled_budget(upper_family(mpmath.mpf(r)), n, r)) for r in rs]
            ax.semilogx(rs, ys, style, color="C0", label=f"$r^2 n^2 v(n)$ at $n = {n:g}$")
        ys = [float(formulas.large_count_coefficient(r, r * (1 - r), r)) for r in map(mpmath.mpf, rs)]
        ax.semilogx(rs, ys, "-", color="C2", lw=0.8, label=r"$n \to \infty$: $r^2/(2\sigma^2)$")
        colors = ("C1", "C4", "C5", "C3")
        for (name, val), col in zip(table2_constants().items(), colors):
            ax.axhline(float(val), color=col, lw=1, label=f"{name}: {float(val):.5f}")
        ax.set_yscale("log")
        ax.set_ylim(5e-3, 3.0)
        ax.set_xlabel("$r$")
        ax.set_ylabel(r"$r^2 n^2 v(n)$ and the Table 2 constants")
        ax.set_title(r"Table 2 and eq (32): $\pi/(4e^2) \leq C^* \leq 1/\pi$ ($r_0 = r(1-r)$, $c = r$)")
        ax.grid(True, which="major", alpha=0.3)
        # outside the axes: inside, the box covers the constants' lines
        ax.legend(fontsize=7.5, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
        return [save(fig, settings.figures_dir, "cstar_landscape", claims=("table2", "eq32"),
                     caption="the upper family's r^2 n^2 v(n) as r falls, against the lower-bound "
                             "constants of Table 2 and the upper end 1/pi of eq (32)")]
