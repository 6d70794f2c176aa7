"""The figures of paper_checks/sec6_priors.py: :func:`make`, which its ``figures`` hook calls."""

import numpy as np

from countdp import formulas
from countdp.divergence.information import shannon_entropy
from countdp.laws.priors import best_uniform_size
from countdp.laws.priors import quantized_truncated_gaussian


def make(settings, r, mech):
    """The lower bounds (14), (23) against the mechanism ``mech``'s v(n) at tolerance ``r``, and
    the fine quantization of Lemma 6.6."""
    from countdp.harness.plotting import new_figure, save

    paths = []
    ns = np.unique(np.round(np.logspace(0, 5, 121)).astype(np.int64))
    b14 = formulas.two_count_bound.fp(ns, r)
    b23 = np.array([float(best_uniform_size(int(n), r).bound) for n in ns])
    v = mech.v_array(ns)
    fig, ax = new_figure()
    ax.loglog(ns, v, label="shifted log-Gaussian $v(n)$ ($r_0 = r/2$, $c = 1$)", color="C0")
    ax.loglog(ns, b23, label="uniform many-count bound (23), best odd $K$", color="C2")
    ax.loglog(ns, b14, label="two-count bound (14)", color="C3")
    ax.set_xlabel("count $n$")
    ax.set_ylabel(r"zCDP budget on the edge $n-1 \leftrightarrow n$")
    ax.set_title("Lower bounds against the mechanism ($r = 0.1$)")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend()
    paths.append(save(fig, settings.figures_dir, "lower_bounds_vs_mechanism",
                      claims=("prop6.2", "cor6.5", "thm1.1"),
                      caption="the mechanism's v(n) above the lower bounds (14) and (23), all of order "
                              "n^-2, at r = 0.1"))

    L = 3
    h = float(formulas.truncated_normal_entropy(-L, L))
    S = np.unique(np.round(np.logspace(0, 4 if settings.quick else 5, 41), 6))
    diffs = np.array([shannon_entropy(quantized_truncated_gaussian(float(s), -L, L)) - np.log(s) for s in S])
    fig, (a1, a2) = new_figure(ncols=2, size=(9.6, 4.0))
    a1.semilogx(S, diffs, "o-", ms=3, label=r"$H(Q_S) - \log S$")
    a1.axhline(h, color="k", ls="--", label="$h(Z_L)$")
    a1.set_xlabel(r"scale $S$ ($Q_S = \mathrm{round}(S Z_L)$)")
    a1.set_title("Quantised truncated Gaussian ($L = 3$)")
    a1.legend()
    a2.loglog(S, np.abs(diffs - h), "o-", ms=3)
    a2.set_xlabel("$S$")
    a2.set_ylabel(r"$|H(Q_S) - \log S - h(Z_L)|$")
    a2.set_title("the gap, on a log scale")
    paths.append(save(fig, settings.figures_dir, "quantization_entropy", claims=("lem6.6",),
                      caption="the entropy of the quantised truncated Gaussian minus log S tends to "
                              "the differential entropy h(Z_L)"))
    return paths
