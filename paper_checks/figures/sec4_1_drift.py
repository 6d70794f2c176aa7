"""The figures of paper_checks/sec4_1_drift.py: :func:`make`, which its ``figures`` hook calls."""

import mpmath

from countdp import formulas
from countdp.mechanisms import drift


def make(settings):
    """The drift curve E|exp(sigma Z - a) - 1| against a, with both drifts marked."""
    import numpy as np

    from countdp.harness.plotting import new_figure, save

    fig, ax = new_figure()
    with mpmath.workdps(20):
        for sigma, color in ((0.5, "C0"), (1.0, "C1"), (1.5, "C2")):
            s = mpmath.mpf(sigma)
            a = np.linspace(-0.5, 3.5, 321)
            f = [float(formulas.drift_error(s, mpmath.mpf(x))) for x in a]
            ax.plot(a, f, color=color, lw=1.4, label=f"$\\sigma$ = {sigma}")
            s2 = sigma ** 2
            ax.plot([s2], [float(formulas.drift_error(s, s2))], "o", color=color, ms=6)
            ax.plot([s2 / 2], [float(formulas.drift_error(s, s2 / 2))], "s", color=color, ms=6, mfc="none")
            for x in (s2, s2 / 2):
                ax.plot([x], [float(drift.drift_error_quad(s, x).value)], "+", color="k", ms=8)
    ax.plot([], [], "o", color="gray", label="$a = \\sigma^2$ (minimiser)")
    ax.plot([], [], "s", color="gray", mfc="none", label="$a = \\sigma^2/2$ (mean one)")
    ax.plot([], [], "+", color="k", label="mpmath quadrature")
    ax.set_xlabel("drift $a$")
    ax.set_ylabel("$\\mathrm{E}\\,|\\exp(\\sigma Z - a) - 1|$")
    ax.set_title("Section 4.1: $a = \\sigma^2$ minimises the absolute multiplicative error")
    ax.legend(fontsize=8)
    return [save(fig, settings.figures_dir, "drift_curve", claims=("sec4.1.argmin", "sec4.1.deriv"),
                 caption="E|exp(sigma Z - a) - 1| against the drift a: the paper's a = sigma^2 is the "
                         "minimiser, below the mean-one drift sigma^2/2")]
