"""The --plot figure: v(n) and eps(n) against n for the paper's mechanism beside the Airy
log-mechanism with the same (r0, c)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import mpmath

from ..divergence import zcdp
from ..mechanisms.airy import AiryLogMechanism
from .budget import guarantee
from .counts import count_list, parse_counts

__all__ = ["Curves", "curves", "figure", "plot"]


@dataclass(frozen=True)
class Curves:
    """v(n) and eps(n) over ``ns`` for the paper's mechanism (``v``, ``eps_exact``, ``eps_cks``)
    and the Airy log-mechanism at the same (r0, c) (``airy_v``, ``airy_eps_cks``; None where its
    float64 budget engine refuses, with ``airy_note``)."""

    ns: list
    v: list
    eps_exact: list
    eps_cks: list
    airy_v: list | None
    airy_eps_cks: list | None
    delta: float
    releases: int
    airy_note: str | None = None
    marks: list = field(default_factory=list)


def curves(r0, c, ns: Sequence[int] | None = None, delta=1e-6, releases: int = 1,
           marks: Sequence[int] = ()) -> Curves:
    """The data of :func:`plot` (float64 values; the paper's mechanism at 15 digits)."""
    if ns is None:
        ns = parse_counts("1:1e6:log4")
    ns = [k for k in count_list(list(ns)) if k >= 1]
    with mpmath.workdps(15):
        b = guarantee(r0, c, ns, delta=delta, releases=releases)
    get = {cv_method: [] for cv_method in ("exact", "cks")}
    for row in b.rows:
        by = {cv.method: cv for cv in row.conversions}
        for m in get:
            e = by[m].eps
            get[m].append(float(e) if e is not None else math.nan)
    airy_v = airy_eps = None
    note = None
    try:
        a = AiryLogMechanism(r0, c)
        airy_v = [a.v(k) for k in ns]
        with mpmath.workdps(15):
            airy_eps = [float(zcdp.cks_eps(releases * mpmath.mpf(x), delta)) for x in airy_v]
    except (ValueError, OverflowError) as exc:
        note = f"the Airy mechanism's budget engine refuses these parameters: {exc}"
        airy_v = airy_eps = None
    return Curves(ns, [float(row.v) for row in b.rows], get["exact"], get["cks"], airy_v, airy_eps,
                  float(delta), releases, note, [int(m) for m in marks])


def figure(cv: Curves, r0, c):
    """The figure of :func:`plot` drawn from ``cv``: top, k v(n) (left) and eps(n) (right) for
    the paper's mechanism and the Airy mechanism; below, their ratios Airy / paper.  Uses
    matplotlib's object API (no pyplot state, no display)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10.5, 6.2))
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, 2, sharex="col", gridspec_kw={"height_ratios": [3, 1.3]})
    (ax1, ax2), (ax3, ax4) = axes
    k = cv.releases
    kv = f"{k}\\,v(n)" if k > 1 else "v(n)"
    nan = math.nan
    pos = lambda xs: [x if x > 0 else nan for x in xs]  # noqa: E731 -- eps = 0 is off a log axis
    ax1.loglog(cv.ns, [k * x for x in cv.v], "-", color="C0", lw=2,
               label="shifted log-Gaussian (this paper)")
    ax2.loglog(cv.ns, pos(cv.eps_exact), "-", color="C0", lw=2,
               label="this paper: exact profile")
    ax2.loglog(cv.ns, pos(cv.eps_cks), "--", color="C2", lw=1.6,
               label="this paper: CKS from $\\rho$")
    if cv.airy_v is not None:
        ax1.loglog(cv.ns, [k * x for x in cv.airy_v], "--", color="C3", lw=1.8,
                   label="Airy log-mechanism (same $r_0$, $c$)")
        ax2.loglog(cv.ns, pos(cv.airy_eps_cks), ":", color="C3", lw=2,
                   label="Airy: CKS from $\\rho$")
        ax3.semilogx(cv.ns, [a / g for a, g in zip(cv.airy_v, cv.v)], "-", color="C3", lw=1.6)
        ax4.semilogx(cv.ns, [a / g if g > 0 else nan for a, g in zip(cv.airy_eps_cks, cv.eps_cks)],
                     "-", color="C3", lw=1.6)
        for ax in (ax3, ax4):
            ax.axhline(1, color="0.4", lw=0.8)
    else:
        for ax in (ax3, ax4):
            ax.text(0.5, 0.5, "Airy mechanism not available here", ha="center", va="center",
                    transform=ax.transAxes, fontsize=8, color="0.3")
    ax3.set_ylabel("Airy / paper")
    ax4.set_ylabel("Airy / paper (CKS)")
    ax1.set_ylabel(f"zCDP budget $\\rho = {kv}$")
    ax2.set_ylabel("$\\varepsilon$")
    ax1.set_title(f"zCDP budget: $r_0$ = {r0:g}, $c$ = {c:g}" + (f", {k} releases" if k > 1 else ""))
    ax2.set_title(f"$(\\varepsilon, \\delta)$-DP at $\\delta$ = {cv.delta:g}")
    for ax in (ax3, ax4):
        ax.set_xlabel("count $n$ (the edge $n-1 \\leftrightarrow n$)")
    for ax in (ax1, ax2, ax3, ax4):
        ax.grid(True, which="major", alpha=0.3)
        for m in cv.marks:
            ax.axvline(m, color="0.5", lw=0.8, ls="-.")
    ax1.legend(fontsize=9)
    ax2.legend(fontsize=9)
    if cv.airy_note:
        fig.text(0.5, 0.01, cv.airy_note[:150], ha="center", fontsize=7, color="0.3")
    fig.tight_layout()
    return fig


def plot(path, r0, c, ns: Sequence[int] | None = None, delta=1e-6, releases: int = 1,
         marks: Sequence[int] = ()) -> str:
    """Draw v(n) and eps(n) against n for the paper's mechanism and the Airy mechanism with the
    same (r0, c) side by side (:func:`figure` of :func:`curves`), into ``path`` (PNG, or any
    format matplotlib knows by the suffix), 10.5 x 6.2 inches at 110 dpi.  A PNG carries no
    software version, so the same numbers give the same bytes.  Returns the path."""
    fig = figure(curves(r0, c, ns, delta, releases, marks), r0, c)
    fig.savefig(str(path), dpi=110, metadata={"Software": None} if str(path).endswith(".png") else None)
    return str(path)
