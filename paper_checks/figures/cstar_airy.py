"""The figures of paper_checks/cstar_airy.py: :func:`make`, which its ``figures`` hook calls."""

import math

import mpmath
import numpy as np

from countdp import formulas
from countdp.laws import airy
from countdp.mechanisms import ShiftedLogGaussian
from countdp.mechanisms.airy import AiryLogMechanism


def make(settings, compare_with_gaussian):
    """cstar_laws, cstar_score_cgf, cstar_budget_vs_n, cstar_bracket (``compare_with_gaussian``:
    the check's table of v_Airy(n)/v_Gauss(n))."""
    from countdp.harness.plotting import new_figure, save

    C = airy.float_constants()
    s = float(formulas.equal_mean_abs_gaussian_sd.fp())
    const = float(C.m2I_half)
    figs = [("cstar_laws", _laws_figure(new_figure, C, s), ("cstar.airy.constants",),
             "the standard Airy law against the Gaussian with the same E|X|: sharper peak, heavier "
             "tails, smaller Fisher information"),
            ("cstar_score_cgf", _score_cgf_figure(new_figure, C, s), ("cstar.airy.subgaussian",),
             "the score CGF of the Airy law over u^2 stays below I/2: its score is sub-Gaussian")]
    with mpmath.workdps(settings.dps):
        figs.append(("cstar_budget_vs_n", _budget_figure(new_figure, const, compare_with_gaussian),
                     ("cstar.airy.budget", "cstar.airy.limit", "cstar.airy.vs_gaussian"),
                     "r^2 n^2 v(n) of the Airy and the Gaussian mechanisms tending to 8|a1'|^3/27 "
                     "and 1/pi, and the ratio of their budgets"))
    figs.append(("cstar_bracket", _bracket_figure(new_figure, const), ("cstar.airy.constants", "eq32"),
                 "the bracket of C*: the paper's [pi/(4e^2), 1/pi] and the Airy mechanism's upper "
                 "end 8|a1'|^3/27"))
    return [save(fig, settings.figures_dir, name, claims=claims, caption=caption)
            for name, fig, claims, caption in figs]


def _laws_figure(new_figure, C, s):
    m, I = float(C.mean_abs), float(C.fisher)
    x = np.linspace(-4, 4, 801)
    gauss = np.exp(-x ** 2 / (2 * s * s)) / (s * math.sqrt(2 * math.pi))
    fig, (a1, a2) = new_figure(2, 1, size=(9.0, 3.8))
    a1.plot(x, airy.pdf(x), label=r"Airy: $\mathrm{Ai}(|x| + a_1')^2 / Z$")
    a1.plot(x, gauss, "--", label=f"Gaussian, sd {s:.4f}")
    a1.set_title(rf"densities with equal $\mathrm{{E}}|X| = {m:.4f}$")
    a1.set_xlabel("$x$")
    a1.legend(loc="upper left", fontsize=8)
    a2.semilogy(x, airy.pdf(x), label=rf"Airy: $I = 4|a_1'|/3 = {I:.4f}$")
    a2.semilogy(x, gauss, "--", label=rf"Gaussian: $I = 2/(\pi m^2) = {1 / s ** 2:.4f}$")
    a2.set_title(r"log scale: sharper peak, heavier tails $e^{-\frac{4}{3}|x|^{3/2}}$")
    a2.set_xlabel("$x$")
    a2.legend(loc="lower center", fontsize=8)
    return fig


def _score_cgf_figure(new_figure, C, s):
    I = float(C.fisher)
    us = np.logspace(-3, 3, 91)
    K = np.array([airy.score_cgf_float(float(u)).value for u in us]) / us ** 2
    fig, ax = new_figure()
    ax.semilogx(us, K, label=r"Airy: $K_s(u)/u^2$")
    ax.axhline(I / 2, color="C0", ls=":", label=rf"Airy $I/2 = {I / 2:.4f}$")
    ax.axhline(1 / (2 * s * s), color="C1", ls="--",
               label=rf"Gaussian with equal $\mathrm{{E}}|X|$: $K_s(u)/u^2 = I/2 = {1 / (2 * s * s):.4f}$")
    ax.set_xlabel("$u$")
    ax.set_ylabel(r"$K_s(u) / u^2$")
    ax.set_title("score CGF: the Airy score is strictly sub-Gaussian (checked on a grid)")
    ax.legend(loc="lower left", fontsize=8)
    return fig


def _budget_figure(new_figure, const, compare_with_gaussian):
    from matplotlib.lines import Line2D

    fig, (ax, bx) = new_figure(2, 1, size=(11.0, 4.6))
    # a zoom on the limits, where 1/pi and 8|a1'|^3/27 (1.6 % apart) can be told apart
    zoom = ax.inset_axes([0.36, 0.05, 0.6, 0.25])
    for k, r in enumerate((0.1, 0.01, 0.001)):
        r_ = mpmath.mpf(r)
        A = AiryLogMechanism(r_ * (1 - r_), r_, r=r_)
        G = ShiftedLogGaussian(r_ * (1 - r_), r_, r=r_)
        nmax = int(10 ** (math.log10(1 / r) + 5))
        ns = np.unique(np.round(np.logspace(0, math.log10(nmax), 40)).astype(np.int64))
        va = np.array([A.v(int(n)) for n in ns])
        vg = np.array([G.v(int(n)) for n in ns])
        ax.loglog(ns, r * r * ns ** 2.0 * va, color=f"C{k}")
        ax.loglog(ns, r * r * ns ** 2.0 * vg, "--", color=f"C{k}")
        zoom.semilogx(ns, r * r * ns ** 2.0 * va, color=f"C{k}", lw=1)
        zoom.semilogx(ns, r * r * ns ** 2.0 * vg, "--", color=f"C{k}", lw=1)
        bx.semilogx(ns, va / vg, color=f"C{k}", label=f"$r = {r}$, $r_0 = r(1-r)$, $c = r$")
    r_ = mpmath.mpf("0.5")
    cmp_ = compare_with_gaussian(r_ * mpmath.mpf("0.9"), mpmath.mpf("0.1"), r_,
                                 np.unique(np.round(np.logspace(0, 5, 30)).astype(int)).tolist())
    ns = sorted(cmp_.ratios)
    bx.semilogx(ns, [cmp_.ratios[n] for n in ns], color="C3",
                label=f"$r = 0.5$, $r_0 = 0.45$, $c = 0.1$ (Gaussian smaller from $n = {cmp_.gauss_wins_from}$)")
    # the reference levels go into the legend (1/pi and 8|a1'|^3/27 are 1.6 % apart: text labels collide)
    refs = [(1 / math.pi, r"$1/\pi$ (paper's upper bound)", ":"),
            (const, r"$8|a_1'|^3/27$ (Airy)", "-."),
            (math.pi / (4 * math.e ** 2), r"$\pi/(4e^2)$ (lower bound on $C^*$)", "-")]
    for val, _, st in refs:
        ax.axhline(val, color="k", ls=st, lw=0.8)
        zoom.axhline(val, color="k", ls=st, lw=0.8)
    zoom.set_xlim(1e2, 1.5e8)
    zoom.set_ylim(0.305, 0.335)
    zoom.tick_params(labelsize=7)
    zoom.set_xticklabels([], minor=True)
    zoom.tick_params(axis="x", labelbottom=False)
    zoom.set_title(r"zoom on the limits, $n = 10^2 \ldots 10^8$", fontsize=7, pad=2)
    handles = [Line2D([], [], color=f"C{k}", lw=2, label=f"$r = {r}$") for k, r in enumerate((0.1, 0.01, 0.001))]
    handles += [Line2D([], [], color="0.3", lw=1.5, label="Airy"),
                Line2D([], [], color="0.3", lw=1.5, ls="--", label="Gaussian (this paper)")]
    handles += [Line2D([], [], color="k", lw=0.8, ls=st, label=name) for _, name, st in refs]
    ax.legend(handles=handles, fontsize=7.5, ncol=2, loc="upper right")
    ax.set_xlabel("$n$")
    ax.set_ylabel(r"$r^2 n^2 v(n)$")
    ax.set_ylim(0.004, 30)
    ax.set_title(r"$r^2 n^2 v(n)$ with $r_0 = r(1-r)$, $c = r$")
    bx.axhline(1.0, color="k", lw=0.8)
    bx.axhline(math.pi * const, color="k", ls="-.", lw=0.8,
               label=rf"$8\pi|a_1'|^3/27 = {math.pi * const:.5f}$ (large-$n$ limit)")
    bx.set_ylim(0, 1.12)
    bx.set_xlabel("$n$")
    bx.set_ylabel(r"$v_{\mathrm{Airy}}(n) \;/\; v_{\mathrm{Gauss}}(n)$")
    bx.set_title("ratio of the budgets (below 1: the Airy mechanism spends less)")
    bx.legend(fontsize=7.5, loc="lower right")
    return fig


def _bracket_figure(new_figure, const):
    fig, ax = new_figure(size=(6.4, 2.6))
    lo = math.pi / (4 * math.e ** 2)
    for y, hi, name, col in ((1.0, 1 / math.pi, "paper (eq 32)", "C1"), (0.0, const, "with the Airy mechanism", "C0")):
        ax.plot([lo, hi], [y, y], color=col, lw=6, solid_capstyle="butt")
        ax.text(lo, y + 0.25, f"{name}: [{lo:.5f}, {hi:.5f}]", fontsize=8)
    ax.axvline(1 / math.pi, color="C1", ls=":", lw=0.8)
    ax.axvline(const, color="C0", ls=":", lw=0.8)
    ax.set_ylim(-0.6, 1.8)
    ax.set_yticks([])
    ax.set_xlabel("$C^*$")
    ax.set_title(r"bracket of the small-error coefficient $C^*$ (upper end 1.57 % lower)")
    return fig
