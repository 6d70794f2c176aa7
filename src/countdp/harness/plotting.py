"""Deterministic figure output: Agg backend, fixed size and dpi, no timestamps in the files.

Import matplotlib only through :func:`new_figure`, so importing countdp never opens a display
or touches matplotlib's state (no plotting side effects on import).

A figure carries what the reports need to place it: :func:`save` writes the claims it belongs
to and a one-line caption into the PNG's own text chunks (``countdp:claims``, ``Description``),
from which ``claims/<id>.md`` and ``index.html`` read them.
"""

from __future__ import annotations

import os
from typing import Sequence

#: the PNG text chunk naming the claims a figure belongs to (space separated)
FIGURE_CLAIMS_KEY = "countdp:claims"


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
