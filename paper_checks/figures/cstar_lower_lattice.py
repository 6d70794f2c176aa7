"""The figures of paper_checks/cstar_lower_lattice.py: :func:`make`, which its ``figures`` hook calls."""

import math

import mpmath
import numpy as np

from countdp import formulas
from countdp.divergence.lattice_shift import lattice_minimum
from countdp.laws import airy


def make(settings, airy_coefficient, bound_limit):
    """cstar_lower_lattice, cstar_lower_bracket; ``airy_coefficient(r, fisher)`` and
    ``bound_limit(r)`` are the check's two ends of the bracket along r -> 0."""
    from countdp.harness.plotting import new_figure, save

    with mpmath.workdps(settings.dps):
        c0 = float(formulas.airy_limit_constant())
        figs = [("cstar_lower_lattice", _lattice_figure(new_figure, c0), ("cstar.lower.lattice",),
                 "the exact lattice minimum of J/2 times M^2 against M for several theta, tending to "
                 "8|a1'|^3/27 at rate 1/M^2, above the interpolation bound"),
                ("cstar_lower_bracket", _bracket_figure(new_figure, c0, airy_coefficient, bound_limit),
                 ("cstar.lower.assembled", "cstar.value"),
                 "the bracket of C* before and after: the paper's, with the Airy mechanism, and closed by the "
                 "lower bound; the two ends along r -> 0")]
    return [save(fig, settings.figures_dir, name, claims=claims, caption=caption)
            for name, fig, claims, caption in figs]


def _lattice_figure(new_figure, c0):
    fig, (ax, bx) = new_figure(1, 2, size=(10.0, 7.0))
    Ms = np.unique(np.round(np.logspace(0, 3, 25), 3))
    for k, th in enumerate((0.0, 0.1, 0.25, 0.4, 0.5)):
        vals = np.array([M * M * lattice_minimum("symmetric", th, float(M)).value for M in Ms])
        ax.semilogx(Ms, vals, color=f"C{k}", marker=".", label=rf"$\theta = {th}$")
        bx.semilogx(Ms, (vals - c0) * Ms ** 2, color=f"C{k}", marker=".", label=rf"$\theta = {th}$")
    interp = [float(M * M * formulas.lattice_dirichlet_bound.fp(M)) for M in Ms]
    ax.semilogx(Ms, interp, "k--", lw=1, label=r"$M^2 c_0/(M+2)^2$ (the bound used)")
    ax.axhline(c0, color="k", lw=0.8, ls=":", label=rf"$c_0 = 8|a_1'|^3/27 = {c0:.6f}$")
    ax.set_ylim(0.2, 0.34)
    ax.set_xlabel("$M$ (mean absolute value)")
    ax.set_ylabel(r"$M^2 \varphi_\theta(M)$")
    ax.set_title(r"least $J/2$ on $\mathbb{Z} + \theta$ at mean absolute value $M$")
    ax.legend(fontsize=7.5, loc="lower right")
    bx.axhline(0, color="k", lw=0.8)
    bx.set_xlabel("$M$")
    bx.set_ylabel(r"$(M^2 \varphi_\theta(M) - c_0)\, M^2$")
    bx.set_title(r"the remainder is $O(M^{-2})$ at every $\theta$")
    bx.legend(fontsize=7.5, loc="lower right")
    return fig


def _bracket_figure(new_figure, c0, airy_coefficient, bound_limit):
    fig, (ax, bx) = new_figure(1, 2, size=(10.0, 6.4))
    lo, hi = math.pi / (4 * math.e ** 2), 1 / math.pi
    rows = ((2.0, lo, hi, "paper (eq 32)", "C1"), (1.0, lo, c0, "with the Airy mechanism", "C0"),
            (0.0, c0, c0, "with the lower bound (a theorem: every step proved or certified)", "C2"))
    for y, a, b, name, col in rows:
        ax.plot([a, b], [y, y], color=col, lw=6, solid_capstyle="butt" if b > a else "round",
                marker="o" if a == b else None, ms=7)
        ax.text(lo, y + 0.3, f"{name}: [{a:.5f}, {b:.5f}]", fontsize=8)
    ax.axvline(c0, color="k", ls=":", lw=0.8)
    ax.set_ylim(-0.6, 2.8)
    ax.set_yticks([])
    ax.set_xlabel("$C^*$")
    ax.set_title("the bracket of $C^*$")
    quad = airy.float_constants()
    rs = [10.0 ** -k for k in range(2, 8)]
    up = [float(airy_coefficient(r, quad.fisher)) for r in rs]
    low = [float(bound_limit(r)) for r in rs]
    bx.semilogx(rs, up, "o-", color="C0", label=r"Airy mechanism: $r^2 I/(2b^2)$ (upper end)")
    bx.semilogx(rs, low, "s-", color="C2", label=r"lower bound's limit $\kappa c_0/(1+\varepsilon)^2 - 9r^2/(2\varepsilon^2)$")
    bx.axhline(c0, color="k", ls=":", lw=0.8, label=r"$c_0$")
    bx.set_ylim(0.28, 0.33)
    bx.invert_xaxis()
    bx.set_xlabel("$r$")
    bx.set_ylabel(r"$\liminf_n r^2 n^2 v(n)$ bounds")
    bx.set_title("both ends tend to $c_0$ as $r \\to 0$")
    bx.legend(fontsize=7.5, loc="lower right")
    return fig
