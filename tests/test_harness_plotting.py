"""Figures made elsewhere are compared with a pixel tolerance, which accepts a rendering of the
same data and rejects a changed figure."""

from __future__ import annotations

import numpy as np

from countdp.harness.plotting import PIXEL_TOLERANCE, figures_differ, new_figure, save


def _figure(directory, name, scale=1.0, shift=0.0):
    x = np.linspace(0.1, 10, 200)
    fig, ax = new_figure()
    ax.loglog(x, scale * x ** 1.5 + shift, "o-", ms=2)
    ax.fill_between(x, scale * x, scale * 2 * x, alpha=0.3)
    ax.scatter(x[::10], scale * x[::10] ** 2, s=4)
    return save(fig, str(directory), name, claims=("eq3",), caption="a test figure")


def test_the_pixel_comparison_accepts_the_same_figure_and_rejects_a_changed_one(tmp_path):
    _figure(tmp_path / "ref", "f")
    _figure(tmp_path / "same", "f", scale=1 + 1e-4)  # a few pixels' antialiasing apart
    _figure(tmp_path / "moved", "f", scale=1.5)
    assert figures_differ(tmp_path / "ref", tmp_path / "same") == {}
    moved = figures_differ(tmp_path / "ref", tmp_path / "moved")
    assert list(moved) == ["f.png"] and "RMS pixel difference" in moved["f.png"]
    assert figures_differ(tmp_path / "ref", tmp_path / "nowhere") == {"f.png": "missing"}
    assert PIXEL_TOLERANCE < 5
