"""The figures of paper_checks/sec5_1_rate.py: :func:`make`, which its ``figures`` hook calls."""

import mpmath

from countdp import formulas
from countdp.divergence import zcdp
from countdp.divergence.profile import eps_of_delta, gaussian_eps_of_delta
from countdp.mechanisms import ShiftedLogGaussian


def make(settings, delta_text):
    """eps(n) at delta = 1e-6: exact (closed form, unclipped; quadrature, released) vs conversions
    (``delta_text``: the check's delta, made an mpf at 20 digits)."""
    import numpy as np
    from matplotlib.lines import Line2D

    from countdp.harness.plotting import new_figure, save

    out = []
    with mpmath.workdps(20):
        DELTA = mpmath.mpf(delta_text)
        fig, ax = new_figure(size=(7.0, 4.8))
        designs = (((0.45, 1.0), "C0"), ((0.05, 1.0), "C3"))
        for (r0, cc), col in designs:
            mech = ShiftedLogGaussian(r0, cc)
            ns = np.unique(np.round(np.logspace(0, 7.5, 46)).astype(int))
            ex, bs, ck = [], [], []
            for n in ns:
                v = mech.mp_v(int(n))
                ex.append(float(gaussian_eps_of_delta(formulas.log_gap(int(n), cc) / mech.mp_sigma(), DELTA)))
                bs.append(float(zcdp.zcdp_to_approx_dp(v, DELTA)))
                ck.append(float(zcdp.cks_eps(v, DELTA)))
            ex = np.array(ex)
            pos = ex > 0
            ax.loglog(ns[pos], ex[pos], "-", color=col, lw=1.6)
            ax.loglog(ns, bs, "--", color=col, lw=1.3)
            ax.loglog(ns, ck, ":", color=col, lw=1.6)
            qn = [10, 10**3] if settings.quick else [1, 10, 10**3, 10**5]
            qe = [float(eps_of_delta(mech.released_law(n), mech.released_law(n - 1), DELTA).value) for n in qn]
            ax.loglog(qn, qe, "o", color=col, mfc="none", ms=7, mew=1.3)
        params = [Line2D([], [], color=col, lw=3, label=f"$r_0 = {r0:g}$, $c = {cc:g}$")
                  for (r0, cc), col in designs]
        styles = [Line2D([], [], color="k", lw=1.6, label="exact profile (closed form, unclipped)"),
                  Line2D([], [], color="k", ls="", marker="o", mfc="none", label="exact, released laws (quadrature)"),
                  Line2D([], [], color="k", lw=1.6, ls=":", label="CKS conversion of $v(n)$"),
                  Line2D([], [], color="k", lw=1.3, ls="--",
                         label=r"Bun-Steinke: $\rho + 2\sqrt{\rho \log(1/\delta)}$")]
        first = ax.legend(handles=params, loc="upper right", fontsize=9)
        ax.add_artist(first)
        ax.legend(handles=styles, loc="lower left", fontsize=8.5)
        ax.set_xlabel(r"count $n$ (the edge $n-1 \leftrightarrow n$)")
        ax.set_ylabel(r"$\varepsilon$ at $\delta = 10^{-6}$")
        ax.set_title(r"Section 5.1: the exact $\varepsilon$ against the zCDP conversions")
        ax.grid(True, which="major", alpha=0.3)
        out.append(save(fig, settings.figures_dir, "eps_vs_conversion", claims=("sec5.1.conv",),
                        caption="eps(n) at delta = 1e-6: the exact privacy profile lies below the CKS "
                                "and Bun-Steinke conversions of v(n) and reaches 0 near n = 1e6-1e7"))
    return out
