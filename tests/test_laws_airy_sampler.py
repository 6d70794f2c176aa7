"""Tests of countdp.laws.airy.sampler: the exact sampler (KS p-value > 1e-3 and moments at 5
standard errors with fixed seeds), its determinism and its envelope.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from countdp.laws import airy
from countdp.laws.airy import sampler


@pytest.fixture(scope="module")
def draws():
    return airy.sample(np.random.default_rng(20240607), 10**6)


def test_sampler_ks(draws):
    assert draws.shape == (10**6,)
    res = stats.kstest(draws, airy.cdf)
    assert res.pvalue > 1e-3


def test_sampler_moments(draws):
    c = airy.float_constants()
    n = draws.size
    for values, target in ((np.abs(draws), c.mean_abs), (draws**2, c.second_moment), (draws, 0.0)):
        se = values.std(ddof=1) / math.sqrt(n)
        assert abs(values.mean() - target) < 5 * se


def test_sampler_determinism_and_shape():
    a = airy.sample(np.random.default_rng(7), (3, 5))
    b = airy.sample(np.random.default_rng(7), (3, 5))
    assert a.shape == (3, 5) and np.array_equal(a, b)
    assert airy.sample(np.random.default_rng(7), 0).shape == (0,)
    assert not np.array_equal(a, airy.sample(np.random.default_rng(8), (3, 5)))


def test_sampler_envelope_and_acceptance():
    y = np.concatenate([np.linspace(0, 60, 600001), np.geomspace(60, 1e6, 1000)])
    assert np.all(sampler._log_envelope(y) >= math.log(2) + airy.logpdf(y))
    rate = airy.sampler_acceptance_rate()
    assert 0.98 < rate < 1
    _, _, ok = sampler._propose_abs(np.random.default_rng(3), 10**6)
    se = math.sqrt(rate * (1 - rate) / ok.size)
    assert abs(ok.mean() - rate) < 5 * se


def test_the_envelope_touches_the_log_density_at_its_tangent_points():
    """Each tangent line is the envelope on its own segment, so at the tangent points the log
    envelope is the log density (of |Y|, hence + log 2) plus the margin, and its integral is the
    total the acceptance rate is one over."""
    from scipy import integrate

    env = sampler._envelope()
    at = sampler._log_envelope(env.points)
    assert np.allclose(at, env.log_values + sampler._ENVELOPE_MARGIN, rtol=0, atol=1e-13)
    assert np.allclose(env.log_values, math.log(2) + airy.logpdf(env.points), rtol=0, atol=1e-12)
    edges = np.concatenate([env.bounds[:-1], [env.bounds[-2] + 200.0]])
    total = sum(integrate.quad(lambda t: math.exp(sampler._log_envelope(np.array([t]))[0]), a, b,
                               epsabs=0, epsrel=1e-12)[0] for a, b in zip(edges[:-1], edges[1:]))
    assert abs(total - env.total) <= 1e-9 * env.total


def test_the_sampler_fills_the_request_when_a_batch_falls_short(monkeypatch):
    """Batches sized for a huge acceptance rate hold 64 proposals: 2000 draws need about 32
    batches, each topping up what is missing; the result is the law (KS) and of the size asked."""
    monkeypatch.setattr(sampler, "sampler_acceptance_rate", lambda: 1e12)
    x = sampler.sample(np.random.default_rng(5), 2000)
    assert x.shape == (2000,) and np.all(np.isfinite(x))
    assert stats.kstest(x, airy.cdf).pvalue > 1e-3
