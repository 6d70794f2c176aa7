"""countdp.calculator.plot: the --plot figure and its data, beside the Airy mechanism."""

from __future__ import annotations

import dataclasses
import math
import struct

import numpy as np
import pytest

from countdp.calculator import plot


def _curves(releases=1, airy=True, marks=(7,)):
    """Curves with numbers chosen to tell every series apart (not the mechanisms' values)."""
    return plot.Curves(ns=[1, 10, 100], v=[0.5, 0.25, 0.125], eps_exact=[3.0, 0.0, 1.0],
                       eps_cks=[4.0, 2.0, 1.5], airy_v=[0.4, 0.2, 0.1] if airy else None,
                       airy_eps_cks=[3.2, 1.0, 0.0] if airy else None, delta=1e-6,
                       releases=releases, airy_note=None if airy else "refused: why",
                       marks=list(marks))


def _same(a, b):
    return len(a) == len(b) and all((math.isnan(x) and math.isnan(y)) or x == y for x, y in zip(a, b))


@pytest.mark.slow
def test_plot(tmp_path):
    path = plot.plot(tmp_path / "b.png", 0.05, 1.0, delta=1e-6, marks=[10])
    assert open(path, "rb").read(4) == b"\x89PNG"
    cv = plot.curves(0.05, 1.0, [1, 10, 100, 10 ** 6])
    assert cv.airy_v is not None and cv.airy_v[1] / cv.v[1] == pytest.approx(0.846, abs=2e-3)
    assert np.all(np.diff(cv.v) < 0)


def test_the_figure_draws_each_series_where_its_label_says():
    """Top left k v(n) for both mechanisms, top right eps(n) (eps = 0 left off the log axis),
    below the ratios Airy / paper; every panel carries the marked counts as vertical lines."""
    for k in (1, 3):
        ax1, ax2, ax3, ax4 = plot.figure(_curves(releases=k), 0.05, 1.0).axes
        top = [line for line in ax1.get_lines() if line.get_linestyle() != "-."]
        assert [list(line.get_ydata()) for line in top] == [[k * 0.5, k * 0.25, k * 0.125],
                                                              [k * 0.4, k * 0.2, k * 0.1]]
        assert [line.get_label() for line in top][0].startswith("shifted log-Gaussian")
        eps = [list(map(float, line.get_ydata())) for line in ax2.get_lines()
               if line.get_linestyle() != "-."]
        nan = math.nan
        assert len(eps) == 3
        assert _same(eps[0], [3.0, nan, 1.0]) and _same(eps[1], [4.0, 2.0, 1.5])
        assert _same(eps[2], [3.2, 1.0, nan])
        assert list(map(float, ax3.get_lines()[0].get_ydata())) == pytest.approx([0.8, 0.8, 0.8], rel=1e-15, abs=0)
        assert _same(list(map(float, ax4.get_lines()[0].get_ydata())), [0.8, 0.5, 0.0])
        for ax in (ax1, ax2, ax3, ax4):
            assert [list(line.get_xdata()) for line in ax.get_lines() if line.get_linestyle() == "-."] \
                == [[7, 7]]
        assert ax1.get_xscale() == ax1.get_yscale() == ax2.get_yscale() == "log"
        assert ax3.get_xscale() == "log" and ax3.get_yscale() == "linear"


def test_the_titles_name_the_parameters_and_the_number_of_releases():
    one = plot.figure(_curves(releases=1), 0.05, 2.5).axes
    assert one[0].get_title() == "zCDP budget: $r_0$ = 0.05, $c$ = 2.5"
    assert one[0].get_ylabel() == "zCDP budget $\\rho = v(n)$"
    assert one[1].get_title() == "$(\\varepsilon, \\delta)$-DP at $\\delta$ = 1e-06"
    three = plot.figure(_curves(releases=3), 0.05, 2.5).axes
    assert three[0].get_title() == "zCDP budget: $r_0$ = 0.05, $c$ = 2.5, 3 releases"
    assert three[0].get_ylabel() == "zCDP budget $\\rho = 3\\,v(n)$"


def test_without_the_airy_mechanism_the_figure_says_why():
    fig = plot.figure(_curves(airy=False, marks=()), 0.05, 1.0)
    ax1, ax2, ax3, ax4 = fig.axes
    assert len(ax1.get_lines()) == 1 and len(ax2.get_lines()) == 2
    assert ax3.get_lines() == [] and ax4.get_lines() == []
    assert [t.get_text() for t in ax3.texts] == ["Airy mechanism not available here"]
    assert "refused: why" in [t.get_text() for t in fig.texts]


@pytest.mark.slow
def test_curves_say_why_the_airy_mechanism_is_missing():
    """Beyond its float64 engine's shifts the Airy mechanism is refused with the reason, and the
    paper's mechanism is still drawn."""
    cv = plot.curves(0.05, 1.0, [1, 10 ** 160])
    assert cv.airy_v is None and cv.airy_eps_cks is None
    assert cv.airy_note.startswith("the Airy mechanism's budget engine refuses") and "Delta_n" in cv.airy_note
    assert len(cv.v) == 2 and cv.v[1] < cv.v[0]


def test_curves_are_a_value():
    with pytest.raises(dataclasses.FrozenInstanceError):
        _curves().v = [1.0]


@pytest.mark.slow
def test_the_png_is_the_same_bytes_for_the_same_numbers_at_its_stated_size(tmp_path):
    """No software version in the PNG, so a figure is reproducible byte for byte; 10.5 x 6.2
    inches at 110 dpi."""
    a = plot.plot(tmp_path / "a.png", 0.05, 1.0, [1, 10, 100])
    b = plot.plot(tmp_path / "b.png", 0.05, 1.0, [1, 10, 100])
    data = open(a, "rb").read()
    assert data == open(b, "rb").read() and b"Software" not in data
    assert struct.unpack(">II", data[16:24]) == (1155, 682)
