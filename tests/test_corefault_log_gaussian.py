"""countdp.arb.log_gaussian with the tails cut short: with the cut-off T at sigma + 3 instead of
sigma + sqrt(2 (prec + 20) log 2), the omitted tails are some 1e-5 of the integrals, far above
the integration's radius, and every enclosure must still contain the exact value -- so a tail
allowance dropped or added with the wrong sign shows, instead of hiding below 2^-(prec+20)."""

from __future__ import annotations

import mpmath
import pytest
from flint import arb, ctx

from _ball_reference import exact
from countdp.arb import log_gaussian

pytestmark = pytest.mark.mp_dps(50)

SIGMA = arb(1)
S = mpmath.mpf(1)


@pytest.fixture
def short_cut_off(monkeypatch):
    monkeypatch.setattr(log_gaussian, "tail_width", lambda: arb(3))
    with ctx.workprec(80):
        yield


def _contains(ball, value) -> bool:
    return ball.contains(exact(value))


def test_error_integrals_with_a_short_cut_off(short_cut_off):
    lem41 = 2 * mpmath.ncdf(S) - 1                  # E|e^{sigma Z - sigma^2} - 1| (Lemma 4.1)
    assert _contains(log_gaussian.multiplicative_error_integral(SIGMA), lem41)
    assert _contains(log_gaussian.multiplicative_error_integral(SIGMA, "abs"), lem41)
    half = log_gaussian.half_expectation_integrals(SIGMA)
    assert _contains(half.below, mpmath.exp(-S * S / 2) / 2)  # eq (8) (at sigma = 1)
    assert _contains(half.above, mpmath.exp(-S * S / 2) / 2)
    for n in (0, 3):
        assert _contains(log_gaussian.unclipped_error_integral(n, 1, SIGMA), (n + 1) * lem41)
        f = lambda z: abs(max((n + 1) * mpmath.exp(S * z - S * S) - 1, 0) - n) * mpmath.npdf(z)  # noqa: E731
        zc = mpmath.log(mpmath.mpf(1) / (n + 1)) + S * S if n else -mpmath.inf
        pts = [-mpmath.inf] + ([zc] if n else []) + [S, mpmath.inf]
        assert _contains(log_gaussian.released_error_integral(n, 1, SIGMA), mpmath.quad(f, pts))


@pytest.mark.parametrize("n", [0, 4])
def test_log_count_law_with_a_short_cut_off(short_cut_off, n):
    law = log_gaussian.log_count_law(n, 1, SIGMA)
    assert _contains(law.mass, 1)
    assert _contains(law.mean, mpmath.log(n + 1) - S * S)        # eq (10)
    assert _contains(law.var, S * S)
    for k in (-1, 1, 2):
        assert _contains(law.cdf[k], mpmath.ncdf(k))
