"""Deterministic figure output: Agg backend, fixed size and dpi, no timestamps in the files.

Import matplotlib only through :func:`new_figure`, so importing countdp never opens a display
or touches matplotlib's state (no plotting side effects on import).
"""

from __future__ import annotations

import os


def new_figure(ncols: int = 1, nrows: int = 1, size=(6.4, 4.4)):
    """A fresh (figure, axes) pair on the Agg backend."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "countdp", "font.size": 9})
    fig, ax = plt.subplots(nrows, ncols, figsize=size, squeeze=True)
    return fig, ax


def save(fig, directory: str, name: str) -> str:
    """Write ``<directory>/<name>.png`` deterministically and close the figure; returns the path."""
    import matplotlib.pyplot as plt

    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{name}.png")
    tmp = path + ".tmp.png"
    fig.tight_layout()
    fig.savefig(tmp, dpi=110, metadata={"Software": None})
    plt.close(fig)
    os.replace(tmp, path)
    return path
