"""The figures of paper_checks/sec7_unequal_variance.py: :func:`make`, which its ``figures`` hook calls."""

import mpmath

from countdp.divergence import truncation
from countdp.mechanisms.unequal_variance import UnequalVarianceGaussian


def make(settings, r):
    """The order threshold of the unequal-variance Gaussian against n: formula and located points
    (left), and the same minus n/2, where the candidate formulas separate (right); ``r``: the tolerance of X_n ~ N(n, r^2 n^2)."""
    import numpy as np

    from countdp.harness.plotting import new_figure, save

    fig, (ax, bx) = new_figure(ncols=2, size=(10.0, 4.2))
    n = np.arange(1, 1001, dtype=float)
    curves = [("eq (35): $(n+1)^2/(2n+1)$", (n + 1) ** 2 / (2 * n + 1), dict(color="C0", lw=1.6)),
              ("wrong: $(n+1)^2/(2n)$", (n + 1) ** 2 / (2 * n), dict(color="C3", lw=0.9, ls="--")),
              ("wrong: $n^2/(2n+1)$", n ** 2 / (2 * n + 1), dict(color="C2", lw=0.9, ls=":"))]
    pts = sorted(set(np.unique(np.round(np.logspace(0, 3, 25)).astype(int)).tolist()))
    X = UnequalVarianceGaussian(r)
    with mpmath.workdps(settings.dps):
        loc = [float(truncation.locate_order_threshold(X.law(k + 1), X.law(k), rtol=mpmath.mpf("1e-12")).mid)
               for k in pts]
    loc = np.array(loc)
    kk = np.array(pts, dtype=float)
    for label, y, kw in curves:
        ax.plot(n, y, label=label, **kw)
        bx.plot(n, y - n / 2, label=label, **kw)
    ax.plot(kk, loc, "o", ms=4, mfc="none", color="k", label="located by bisection (densities)")
    bx.plot(kk, loc - kk / 2, "o", ms=4, mfc="none", color="k", label="located by bisection (densities)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("count $n$ (edge $n \\leftrightarrow n+1$)")
    ax.set_ylabel("order $\\alpha$ where $D_\\alpha(X_{n+1}\\|X_n)$ becomes infinite")
    ax.set_title("$X_n \\sim N(n, r^2 n^2)$: reverse divergence threshold")
    ax.legend(fontsize=8)
    bx.set_xscale("log")
    bx.set_xlabel("count $n$")
    bx.set_ylabel("threshold $-\\ n/2$")
    bx.set_title("the same, minus $n/2$ (eq 35 tends to 3/4)")
    bx.legend(fontsize=8)
    return [save(fig, settings.figures_dir, "unequal_variance_threshold", claims=("eq35", "lem7.1"),
                 caption="the order at which D_alpha(X_{n+1}||X_n) becomes infinite: eq (35) against "
                         "bisection on the densities and two wrong candidates")]
