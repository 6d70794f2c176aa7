"""Tests of countdp.mechanisms.log_laplace: calibration, budget, laws and parameter checks of the
log-Laplace mechanism (the second admissible mechanism of the two-count chain)."""

import mpmath
import numpy as np
import pytest

from countdp import formulas
from countdp.divergence.renyi import kl
from countdp.laws.expectation import quad_expectation
from countdp.laws.moments import expected_distance, probability_at_most
from countdp.laws.reference import Laplace
from countdp.divergence.tight_rho import tight_rho
from countdp.mechanisms.log_laplace import LogLaplaceMechanism


pytestmark = pytest.mark.mp_dps(30)


def test_log_laplace_mechanism_calibration_and_budget():
    m = LogLaplaceMechanism(0.05, 1, r=0.1)
    b = m.mp_b()
    assert abs((1 + 1) * b / (1 - b * b) - mpmath.mpf(0.05)) < 1e-27
    # E|e^{bL} - 1| by quadrature of the Laplace law (of scale float(b): agreement to ~1e-16)
    g, ge = quad_expectation(Laplace(0, float(b)), lambda l: abs(mpmath.exp(l) - 1), (0,))
    assert abs(g - m.abs_multiplicative_error()) < 1e-15
    v = m.v_array(np.arange(0, 200))
    assert np.all(np.diff(v) <= 0)
    assert v[0] == v[1] and abs(v[5] - float(m.mp_v(5))) < 1e-15 * v[5]
    e7 = m.mp_eps(7)
    assert abs(m.mp_v(7) - (e7 - 1 + mpmath.exp(-e7))) < 1e-28
    assert m.mp_v(7) < m.bun_steinke_v(7) and abs(m.bun_steinke_v(7) - e7 ** 2 / 2) < 1e-27  # tighter than eps-DP gives
    # zCDP of the unclipped edge n-1 <-> n: D_alpha <= alpha v(n), both directions
    for n in (1, 2, 30):
        d = mpmath.log((n + 1) / mpmath.mpf(n)) / b
        for alpha in (1.5, 3, 20):
            assert formulas.laplace_renyi(alpha, d) <= alpha * m.mp_v(n)
    # utility: quadrature of the released law's error <= r0 n
    for n in (1, 5):
        assert expected_distance(m.released_law(n), n).value <= 0.05 * n
        assert abs(m.expected_abs_error_unclipped(n) - (n + 1) * mpmath.mpf(0.05) / 2) < 1e-27


def test_laplace_renyi_against_quadrature():
    """The closed form D_alpha of a Laplace pair that bounds the log-Laplace edge (Mironov's)."""
    for alpha, d in [(1.5, 0.3), (4, 1.2)]:
        def f(x):
            return mpmath.exp(alpha * (-abs(x)) + (1 - alpha) * (-abs(x - d))) / 2

        direct = mpmath.log(mpmath.quad(f, [-mpmath.inf, 0, d, mpmath.inf])) / (alpha - 1)
        assert abs(formulas.laplace_renyi(alpha, d) - direct) < 1e-25
        assert formulas.laplace_renyi(alpha, d) <= alpha * d ** 2 / 2  # eps-DP gives eps^2/2-zCDP


def test_log_laplace_released_law_masses_and_cdf():
    m = LogLaplaceMechanism(0.45, 0.25, r=0.5)
    law = m.released_law(2)
    total, err = quad_expectation(law, lambda x: mpmath.mpf(1), ())
    assert abs(total - 1) < 1e-20
    p = probability_at_most(law, 1.7)
    assert abs(p.value - m.mp_cdf_released(2, 1.7)) < 1e-20
    # far-left atom without cancellation
    tiny = LogLaplaceMechanism(0.05, 1, r=0.1).released_law(5).atoms()
    assert tiny and list(tiny.values())[0] > 0


def test_unclipped_pair_kl_is_the_laplace_kl():
    m = LogLaplaceMechanism(0.05, 1, r=0.1)
    d = kl(m.unclipped_law(1), m.unclipped_law(3), method="quadrature")
    delta = mpmath.log(mpmath.mpf(4) / 2) / m.mp_b()
    assert abs(d.value - formulas.laplace_kl(delta)) <= d.error + 1e-25 * d.value
    assert abs(formulas.laplace_shift_total_variation(delta * m.mp_b(), m.mp_b())
               - (1 - mpmath.exp(-delta / 2))) < 1e-27


@pytest.mark.parametrize("call,name", [
    (lambda: LogLaplaceMechanism(0.2, 1, r=0.1), "r0 must"), (lambda: LogLaplaceMechanism(0.05, 0, r=0.1), "c must"),
    (lambda: LogLaplaceMechanism(0.05, 1).mp_cdf_released(3, -1.0), "y must"),
    (lambda: LogLaplaceMechanism(0.05, 1).mp_v(-1), "n must")])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.slow
def test_the_budget_is_the_tight_zcdp_of_the_unclipped_edge():
    """v(n) = eps_n + e^{-eps_n} - 1 lies in the sup engine's closed bracket of the unclipped pair
    (and of the released pair, below it: clipping is postprocessing), at small and large n."""
    m = LogLaplaceMechanism(0.05, 1, r=0.1)
    for n in (1, 10, 1000):
        t = tight_rho((m.unclipped_law(n - 1), m.unclipped_law(n)))
        assert t.bounded and t.lo <= m.mp_v(n) <= t.hi
        assert t.hi - t.lo < 1e-9 * m.mp_v(n)
        r = tight_rho((m.released_law(n - 1), m.released_law(n)))
        assert r.lo <= m.mp_v(n) * (1 + mpmath.mpf(10) ** -12) and r.bounded


def test_the_budget_keeps_its_digits_at_huge_counts():
    """eps + e^{-eps} - 1 cancels ~2 log10(1/eps) digits: with the guard bits the value at
    n = 10^40 agrees with the series eps^2/2 - eps^3/6 + eps^4/24 to the working precision."""
    m = LogLaplaceMechanism(0.05, 1, r=0.1)
    n = 10 ** 40
    e = m.mp_eps(n)
    series = e ** 2 / 2 - e ** 3 / 6 + e ** 4 / 24
    assert abs(m.mp_v(n) / series - 1) < mpmath.mpf(10) ** -28
    assert m.v_array(np.array([n // 10 ** 30, n // 10 ** 30]))[0] == m.v(n // 10 ** 30)
