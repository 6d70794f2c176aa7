"""Deterministic figure output: Agg backend, fixed size and dpi, no timestamps in the files.

Import matplotlib only through :func:`new_figure`, so importing countdp never opens a display
or touches matplotlib's state (no plotting side effects on import).

The same code and data draw the same bytes; a figure made on another machine (another libm or
optimiser can move a plotted number by more than Agg's subpixel step, about 1e-5 relative) is
compared with :func:`figures_differ`, with a pixel tolerance.

A figure carries what the reports need to place it: :func:`save` writes the claims it belongs
to and a one-line caption into the PNG's own text chunks (``countdp:claims``, ``Description``),
from which ``claims/<id>.md`` and ``index.html`` read them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

#: the PNG text chunk naming the claims a figure belongs to (space separated)
FIGURE_CLAIMS_KEY = "countdp:claims"
#: the RMS pixel difference (0-255 scale) below which two renderings count as the same figure
PIXEL_TOLERANCE = 2.0


def new_figure(ncols: int = 1, nrows: int = 1, size=(6.4, 4.4)):
    """A fresh (figure, axes) pair on the Agg backend."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "countdp", "font.size": 9})
    fig, ax = plt.subplots(nrows, ncols, figsize=size, squeeze=True)
    return fig, ax


def save(fig, directory: str, name: str, claims: Sequence[str] = (), caption: str | None = None
         ) -> str:
    """Write ``<directory>/<name>.png`` deterministically and close the figure; returns the path.
    ``claims``: the claim ids the figure belongs to; ``caption``: what it shows, in one line
    (both stored in the PNG, read back by the reports)."""
    import matplotlib.pyplot as plt

    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{name}.png")
    tmp = path + ".tmp.png"
    meta = {"Software": None, "Title": name}
    if claims:
        meta[FIGURE_CLAIMS_KEY] = " ".join(claims)
    if caption:
        meta["Description"] = " ".join(caption.split())
    fig.tight_layout()
    fig.savefig(tmp, dpi=110, metadata=meta)
    plt.close(fig)
    os.replace(tmp, path)
    return path


def figures_differ(expected_dir: str | os.PathLike, actual_dir: str | os.PathLike,
                   tolerance: float = PIXEL_TOLERANCE) -> dict[str, str]:
    """The figures of ``expected_dir`` that ``actual_dir`` lacks or draws differently (RMS pixel
    difference above ``tolerance`` on the 0-255 scale, or another size), by file name, with the
    reason; empty when every figure matches."""
    from matplotlib.testing.compare import calculate_rms
    import matplotlib.image as mpimg
    import numpy as np

    out = {}
    for exp in sorted(Path(expected_dir).glob("*.png")):
        act = Path(actual_dir) / exp.name
        if not act.exists():
            out[exp.name] = "missing"
            continue
        a, b = (np.asarray(mpimg.imread(p)) for p in (exp, act))
        a, b = ((255 * x[..., :3]).round().astype(np.int16) for x in (a, b))
        if a.shape != b.shape:
            out[exp.name] = f"size {b.shape[1]}x{b.shape[0]} instead of {a.shape[1]}x{a.shape[0]}"
            continue
        rms = calculate_rms(a, b)
        if rms > tolerance:
            out[exp.name] = f"RMS pixel difference {rms:.3g} > {tolerance}"
    return out
