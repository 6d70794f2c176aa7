"""The figures of paper_checks/companion_exact_zcdp.py: :func:`make`, which its ``figures`` hook calls."""

import numpy as np

from countdp.divergence.tight_rho import tight_rho
from countdp.mechanisms import epsilon_dp


def make(settings):
    """The tight zCDP of five eps-DP mechanisms against eps, and the k-RR Renyi curve."""
    from countdp.harness.plotting import new_figure, save

    eps = np.logspace(-2, 1, 10 if settings.quick else 16)
    rows = {
        "Laplace": [float(tight_rho(epsilon_dp.laplace_pair(e)).value) for e in eps],
        r"discrete Laplace, $\Delta = 3$": [float(tight_rho(epsilon_dp.discrete_laplace_loss_classes(e, 3)).value)
                                             for e in eps],
        "4-RR": [float(tight_rho(epsilon_dp.krr_pair(e, 4)).value) for e in eps],
        "RAPPOR ($k = 4$)": [float(tight_rho(epsilon_dp.rappor_pair(e, 4)).value) for e in eps],
        r"$\eta$-bounded range, $\eta = \varepsilon$": [
            float(tight_rho(epsilon_dp.worst_bounded_range_pair(e).pair).value) for e in eps],
    }
    # left: rho* itself; right: rho* / (eps^2/2), where curves that coincide on the left separate
    fig, (ax, bx) = new_figure(2, 1, size=(10.5, 4.3))
    for (name, ys), mk in zip(rows.items(), "osD^v"):
        ax.loglog(eps, ys, mk + "-", ms=3.5, lw=1, label=name)
        bx.semilogx(eps, np.array(ys) / (eps ** 2 / 2), mk + "-", ms=3.5, lw=1, label=name)
    refs = [(eps ** 2 / 2, "k--", r"$\varepsilon^2/2$"),
            (eps * np.tanh(eps / 2), "k:", r"$\varepsilon \tanh(\varepsilon/2)$"),
            (eps ** 2 / 8, "k-.", r"$\varepsilon^2/8$")]
    for y, st, name in refs:
        ax.loglog(eps, y, st, lw=0.9, label=name)
        bx.semilogx(eps, y / (eps ** 2 / 2), st, lw=0.9)
    ax.set_xlabel(r"$\varepsilon$ ($\eta$ for bounded range)")
    ax.set_ylabel(r"tight $\rho^*$ (the sup-over-$\alpha$ engine)")
    ax.set_title(r"Tight zCDP parameter $\rho^*$ of $\varepsilon$-DP mechanisms")
    ax.legend(fontsize=8)
    bx.set_xlabel(r"$\varepsilon$ ($\eta$ for bounded range)")
    bx.set_ylabel(r"$\rho^* \,/\, (\varepsilon^2/2)$")
    bx.set_title(r"relative to $\varepsilon^2/2$")
    for a in (ax, bx):
        a.grid(True, which="major", alpha=0.3)
    paths = [save(fig, settings.figures_dir, "companion_rho_vs_eps",
                  claims=("hm.laplace", "hm.discrete_laplace", "hm.krr", "hm.rappor", "hm.bounded_range"),
                  caption="the tight zCDP parameter of five eps-DP mechanisms against eps, and "
                          "relative to eps^2/2")]

    fig, ax = new_figure()
    for k, style in ((6, "-"), (8, "--")):
        for e, col in ((0.1, "C0"), (0.5, "C1")):
            r = tight_rho(epsilon_dp.krr_pair(e, k))
            a, f = r.curve()
            kl = float(r.kl_max)
            ax.semilogx(a - 1, f / kl, style, color=col, lw=1.2, label=rf"$k = {k}$, $\varepsilon = {e}$")
            if not r.attained_at_one:
                ax.plot([r.alpha - 1], [float(r.value) / kl], "o", color=col, ms=4)
    ax.axhline(1.0, color="k", lw=0.6)
    ax.set_xlabel(r"$\alpha - 1$")
    ax.set_ylabel(r"$(D_\alpha / \alpha) \,/\, \mathrm{KL}$")
    ax.set_title(r"$k$-RR: $D_\alpha/\alpha$ relative to the KL (dots: a finite maximiser)")
    ax.set_xlim(1e-3, 1e3)
    ax.set_ylim(0.9, 1.06)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="lower left")
    paths.append(save(fig, settings.figures_dir, "krr_renyi_curve", claims=("hm.krr",),
                      caption="for k = 8 the sup over alpha of D_alpha/alpha leaves alpha -> 1 "
                              "(above the KL), for k = 6 it does not"))
    return paths
