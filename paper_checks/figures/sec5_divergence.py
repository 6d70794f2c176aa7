"""The figures of paper_checks/sec5_divergence.py: :func:`make`, which its ``figures`` hook calls."""

import mpmath
import numpy as np

from countdp.divergence.renyi import renyi
from countdp.mechanisms import ShiftedLogGaussian


def make(settings):
    """v(n), the relative error of the release, and D_alpha/alpha of the released law."""
    return [_budget_figure(settings), _relative_error_figure(settings), _released_renyi_figure(settings)]


def _budget_figure(settings):
    """v(n) for c in {0.1, 1, 2} with an n^-2 guide."""
    from countdp.harness.plotting import new_figure, save

    fig, ax = new_figure()
    ns = np.unique(np.logspace(0, 6, 200).astype(np.int64))
    for cc in (0.1, 1.0, 2.0):
        mech = ShiftedLogGaussian(0.05, cc, r=0.1)
        ax.loglog(ns, mech.v_array(ns), lw=1.6, label=f"$c = {cc:g}$")
    mech = ShiftedLogGaussian(0.05, 1.0, r=0.1)
    ax.loglog(ns, 1 / (2 * mech.sigma ** 2 * ns.astype(float) ** 2), "k--", lw=0.9,
              label=r"$1/(2\sigma^2 n^2)$ at $c = 1$, eq (7)")
    ax.set_xlabel(r"count $n$ (the edge $n-1 \leftrightarrow n$)")
    ax.set_ylabel(r"$v(n)$")
    ax.set_title(r"Budget $v(n)$, eqs (5)-(6): $r = 0.1$, $r_0 = 0.05$")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend()
    return save(fig, settings.figures_dir, "budget_v_of_n",
                claims=("thm3.1.ii", "thm3.1.iii", "sec5.mono"),
                caption="v(n) of eqs (5)-(6) for three shifts c, nonincreasing in n, against "
                        "the leading term 1/(2 sigma^2 n^2) of eq (7)")


def _relative_error_figure(settings):
    """Relative error vs n: closed form, quadrature, Monte Carlo with interval, against r."""
    from countdp.harness.plotting import new_figure, save
    from countdp.laws.expectation import mc_abs_error, quad_expectation

    fig, ax = new_figure()
    r, r0, cc = 0.1, 0.05, 1.0
    mech = ShiftedLogGaussian(r0, cc, r=r)
    grid_n = [0, 1, 2, 3, 5, 10, 30, 100, 1000, 10**4, 10**6]
    closed = [float(mech.expected_abs_error_released(n)) / max(n, 1) for n in grid_n]
    quad = [float(quad_expectation(mech.released_law(n), lambda y, n=n: abs(y - n), breaks=[n] if n else [])[0])
            / max(n, 1) for n in grid_n]
    rng = settings.rng("figure-b")
    mcs = [mc_abs_error(mech.released_law(n), n, rng, 200_000) for n in grid_n]
    xs = np.array(grid_n, dtype=float)
    ax.axhline(r, color="k", ls="--", lw=0.9, label=r"target $r$ of eq (2)")
    ax.axhline(r0, color="grey", ls=":", lw=0.9, label=r"$r_0$")
    ax.plot(xs, closed, "o-", label="exact (closed form)")
    ax.plot(xs, quad, "x", ms=8, label="quadrature")
    ax.errorbar(xs, [m.mean / max(n, 1) for m, n in zip(mcs, grid_n)],
                yerr=[m.halfwidth / max(n, 1) for m, n in zip(mcs, grid_n)], fmt=".", capsize=3,
                label="Monte Carlo (5 s.e.)")
    ax.set_xscale("symlog", linthresh=1.0, linscale=0.6)  # n = 0 sits on the axis
    ax.set_xlim(-0.2, 3e6)
    ax.set_ylim(0, 0.115)
    ax.set_xlabel(r"count $n$ (linear on $[0, 1]$, logarithmic above)")
    ax.set_ylabel(r"$\mathrm{E}\,|\hat{x} - n|\;/\;\max(n, 1)$")
    ax.set_title(r"Relative error of the release, Theorem 3.1(i): $r = 0.1$, $r_0 = 0.05$, $c = 1$")
    ax.grid(True, which="major", alpha=0.3)
    # between the r0 line (0.05) and the target line (0.1), clear of the data and both lines
    ax.legend(loc="upper right", bbox_to_anchor=(1.0, 0.85), ncol=2, fontsize=8, framealpha=0.95)
    return save(fig, settings.figures_dir, "relative_error", claims=("thm3.1.i", "eq9"),
                caption="E|xhat - n|/max(n, 1) of the released count by three routes, below "
                        "r0 (n+c)/(1+c)/max(n,1) and the target r at every n, including n = 0")


def _released_renyi_figure(settings):
    """D_alpha/alpha of the released law vs alpha at several n, against v(n), both directions."""
    from matplotlib.lines import Line2D

    from countdp.harness.plotting import new_figure, save

    fig, ax = new_figure(size=(7.0, 4.6))
    mech = ShiftedLogGaussian(0.45, 0.1, r=0.9)
    alphas = np.logspace(np.log10(1.01), 2, 14)
    cols = ("C0", "C1", "C2", "C3")
    with mpmath.workdps(20):
        for n, col in zip((1, 2, 10, 100), cols):
            vals = [float(renyi(mech.released_law(n - 1), mech.released_law(n), a, method="ball").value) / a for a in alphas]
            rev = [float(renyi(mech.released_law(n), mech.released_law(n - 1), a, method="ball").value) / a for a in alphas]
            ax.axhline(mech.v(n), color=col, lw=2.5, alpha=0.25, zorder=1)
            ax.loglog(alphas, vals, "-", color=col, lw=1.6, zorder=3)
            ax.loglog(alphas, rev, "o", color=col, mfc="white", ms=4.5, mew=1.2, zorder=4)
    ax.set_xlabel(r"order $\alpha$")
    ax.set_ylabel(r"$D_\alpha / \alpha$")
    ax.set_title(r"Released law, $r_0 = 0.45$, $c = 0.1$: $D_\alpha/\alpha \leq v(n)$ in both directions")
    ax.grid(True, which="major", alpha=0.3)
    counts = [Line2D([], [], color=col, lw=3, label=f"$n = {n}$") for n, col in zip((1, 2, 10, 100), cols)]
    styles = [Line2D([], [], color="k", lw=1.6, label=r"forward $D_\alpha(P_{n-1} \| P_n)/\alpha$"),
              Line2D([], [], color="k", ls="", marker="o", mfc="white", label=r"reverse $D_\alpha(P_n \| P_{n-1})/\alpha$"),
              Line2D([], [], color="k", lw=2.5, alpha=0.25, label=r"$v(n)$, eqs (5)-(6)")]
    first = ax.legend(handles=counts, loc="lower left", fontsize=8, title="edge")
    ax.add_artist(first)
    ax.legend(handles=styles, loc="lower center", fontsize=8, bbox_to_anchor=(0.55, 0.0))
    return save(fig, settings.figures_dir, "released_renyi_over_alpha",
                claims=("thm3.1.ii", "sec5.post"),
                caption="D_alpha/alpha of the released laws in both directions against v(n): "
                        "the reverse direction sits on v(n), clipping lowers the forward one")
