"""Certified (Arb ball) algorithms: tri-state verdicts, enclosed integrals with proven tail
bounds, statements over ranges.  The closed forms themselves live in :mod:`countdp.formulas`
and are evaluated in balls there (``f.ball``).

* :mod:`.verdicts` -- :class:`Verdict` (True / False / :class:`Undecided`), ``decide_lt`` and
  the other comparisons of balls, :func:`enclosure`;
* :mod:`.integrals` -- :func:`integrate` (acb.integral with a proven tail);
* :mod:`.renyi` -- the Renyi divergences of the mechanism's laws in balls;
* :mod:`.ranges` -- a statement over a box of parameters by bisection (:func:`bisect`).

The names are imported lazily, on first use.
"""

from ..numerics.lazy import lazy_exports

EXPORTS = {
    "verdicts": ("Verdict", "Undecided", "decide_lt", "decide_le", "decide_gt", "decide_ge", "enclosure", "interval",
                 "to_arb", "ball_str"),
    "integrals": ("integrate",),
    "normal": ("normal_quantile",),
    "ranges": ("RangeResult", "bisect"),
    "renyi": ("RenyiBall", "equal_variance_renyi", "unclipped_renyi", "released_renyi"),
}
__getattr__, __dir__, __all__ = lazy_exports(__name__, EXPORTS)
