"""countdp.calculator.plot: the --plot figure and its data, beside the Airy mechanism."""

from __future__ import annotations

import numpy as np
import pytest

from countdp.calculator import plot


def test_plot(tmp_path):
    path = plot.plot(tmp_path / "b.png", 0.05, 1.0, delta=1e-6, marks=[10])
    assert open(path, "rb").read(4) == b"\x89PNG"
    cv = plot.curves(0.05, 1.0, [1, 10, 100, 10 ** 6])
    assert cv.airy_v is not None and cv.airy_v[1] / cv.v[1] == pytest.approx(0.846, abs=2e-3)
    assert np.all(np.diff(cv.v) < 0)
