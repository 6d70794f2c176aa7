"""A table of bad (and borderline) inputs to the public library, tried as a new user would, with
the outcome each must have.  Used by tests/test_numerics_validate.py (every row is a test) and
runnable on its own to count how many rows behave (``python tests/_bad_inputs.py``).

A row is ``(label, kind, names, call)``:

* ``refuse``: ``call()`` raises ValueError or TypeError whose message names one of ``names``;
* ``value``: ``call()`` returns a finite value (a number, an mpmath number, an array of finite
  numbers, or an object holding a finite ``value``);
* ``either``: a finite, nonzero value, or a refusal as for ``refuse`` (the float accessors refuse a
  value outside float64 range, the mpmath ones return it).

Every call is bounded by a timeout: a hang is a failure.
"""

from __future__ import annotations

import math
import signal
from typing import Any, Callable

import mpmath
import numpy as np

NAN, INF = float("nan"), float("inf")


class Hang(Exception):
    pass


def _slg(*a, **k):
    from countdp.mechanisms import ShiftedLogGaussian

    return ShiftedLogGaussian(*a, **k)


def _mech(name):
    def make(*a, **k):
        if name == "LogLaplaceMechanism":
            from countdp.mechanisms.log_laplace import LogLaplaceMechanism as M
        elif name == "AiryLogMechanism":
            from countdp.mechanisms.airy import AiryLogMechanism as M
        elif name == "UnequalVarianceGaussian":
            from countdp.mechanisms.unequal_variance import UnequalVarianceGaussian as M
        elif name == "DataIndependentRelease":
            from countdp.mechanisms.constant_release import DataIndependentRelease as M
        else:
            raise KeyError(name)
        return M(*a, **k)
    return make


def _symmetric_cgf(u):
    from countdp.laws import airy
    from countdp.laws.symmetric import symmetric_score_cgf

    return symmetric_score_cgf(airy.mp_logpdf, airy.mp_score, u, 15)


def _reference():
    return __import__("countdp.laws.reference", fromlist=["x"])


def _laws():
    from countdp import laws

    return laws


def _gauss_pair():
    L = _laws()
    return L.Gaussian(0, 1), L.Gaussian(1, 1)


def _renyi(*a, **k):
    from countdp.divergence.renyi import renyi

    return renyi(*a, **k)


def _kl(*a, **k):
    from countdp.divergence.renyi import kl

    return kl(*a, **k)


def _zcdp(name):
    def call(*a, **k):
        from countdp.divergence import zcdp

        return getattr(zcdp, name)(*a, **k)
    return call


def _profile(name):
    def call(*a, **k):
        from countdp.divergence import profile

        return getattr(profile, name)(*a, **k)
    return call


def _product(Ps, Qs, alpha):
    from countdp.divergence.product import FloatIntegrator, renyi_product

    return renyi_product(Ps, Qs, alpha, FloatIntegrator())


def _tight(name):
    def call(*a, **k):
        from countdp.divergence import tight_rho

        return getattr(tight_rho, name)(*a, **k)
    return call


def _eps_dp(name):
    def call(*a, **k):
        from countdp.mechanisms import epsilon_dp

        return getattr(epsilon_dp, name)(*a, **k)
    return call


def _expect(name):
    def call(*a, **k):
        from countdp.laws import expectation

        return getattr(expectation, name)(*a, **k)
    return call


def _mc_mean(*a, **k):
    from countdp.numerics.montecarlo import mc_mean

    return mc_mean(*a, **k)


def _stochastic_round(y, rng):
    from countdp.mechanisms import stochastic_round

    return stochastic_round(y, rng)


def _to_json(x):
    from countdp.calculator import output

    return output.to_json(x)


def _rng():
    return np.random.default_rng(1)


SLG = _slg
LLM = _mech("LogLaplaceMechanism")
AIRY = _mech("AiryLogMechanism")
UVG = _mech("UnequalVarianceGaussian")
DIR = _mech("DataIndependentRelease")
TINY = 1e-300  # r0 so small that v(n) leaves float64 range (sigma ~ 1.25e-300, v(10) ~ 1e598)

R = "refuse"
V = "value"
E = "either"

CASES: list[tuple[str, str, tuple, Callable[[], Any]]] = [
    # ---- ShiftedLogGaussian: constructor --------------------------------------------------
    ("SLG(np.float32(0.05), 1).sigma", V, (), lambda: SLG(np.float32(0.05), 1).sigma),
    ("SLG(np.float64(0.05), np.int64(1)).v(3)", V, (), lambda: SLG(np.float64(0.05), np.int64(1)).v(3)),
    ("SLG(0.05, np.float16(1)).mp_v(3)", V, (), lambda: SLG(0.05, np.float16(1)).mp_v(3)),
    ("SLG(0.05, np.float32(1)).released_law(3)", V, (), lambda: SLG(0.05, np.float32(1)).released_law(3)),
    ("SLG(0.05, np.float32(1)).log_mean(3)", V, (), lambda: SLG(0.05, np.float32(1)).log_mean(3)),
    ("renyi of SLG(np.float32, np.float32) laws", V, (),
     lambda: _renyi(SLG(np.float32(0.05), np.float32(1)).released_law(2),
                    SLG(np.float32(0.05), np.float32(1)).released_law(3), 2)),
    ("SLG(np.float32(0.05), 1, r=np.float32(0.5)).sigma", V, (),
     lambda: SLG(np.float32(0.05), 1, r=np.float32(0.5)).sigma),
    ("SLG(nan, 1)", R, ("r0",), lambda: SLG(NAN, 1)),
    ("SLG(nan, 1).sigma", R, ("r0",), lambda: SLG(NAN, 1).sigma),
    ("SLG(0.1, 0)", R, ("c",), lambda: SLG(0.1, 0)),
    ("SLG(0.1, -1)", R, ("c",), lambda: SLG(0.1, -1)),
    ("SLG(0.1, inf)", R, ("c",), lambda: SLG(0.1, INF)),
    ("SLG(0.1, nan)", R, ("c",), lambda: SLG(0.1, NAN)),
    ("SLG(0, 1)", R, ("r0",), lambda: SLG(0, 1)),
    ("SLG(-0.1, 1)", R, ("r0",), lambda: SLG(-0.1, 1)),
    ("SLG(1, 1)", R, ("r0",), lambda: SLG(1, 1)),
    ("SLG(inf, 1)", R, ("r0",), lambda: SLG(INF, 1)),
    ("SLG(0.5, 1, r=0.3)", R, ("r0",), lambda: SLG(0.5, 1, r=0.3)),
    ("SLG(0.1, 1, r=2)", R, ("r",), lambda: SLG(0.1, 1, r=2)),
    ("SLG(0.1, 1, r=nan)", R, ("r",), lambda: SLG(0.1, 1, r=NAN)),
    ("SLG('0.1', 1)", R, ("r0",), lambda: SLG("0.1", 1)),
    ("SLG(None, 1)", R, ("r0",), lambda: SLG(None, 1)),
    ("SLG(0.1, None)", R, ("c",), lambda: SLG(0.1, None)),
    ("SLG(True, 1)", R, ("r0",), lambda: SLG(True, 1)),
    ("SLG(0.1, 1+2j)", R, ("c",), lambda: SLG(0.1, 1 + 2j)),
    ("SLG(0.1, 1, drift_factor=nan)", R, ("drift_factor",), lambda: SLG(0.1, 1, drift_factor=NAN)),
    ("SLG(0.1, 1, drift_factor='x')", R, ("drift_factor",), lambda: SLG(0.1, 1, drift_factor="x")),
    ("SLG(0.1, 1, drift_factor=None)", R, ("drift_factor",), lambda: SLG(0.1, 1, drift_factor=None)),
    # ---- ShiftedLogGaussian: budget ---------------------------------------------------------
    ("SLG.v(-1)", R, ("n",), lambda: SLG(0.1, 1).v(-1)),
    ("SLG.v(1.5)", R, ("n",), lambda: SLG(0.1, 1).v(1.5)),
    ("SLG.v(nan)", R, ("n",), lambda: SLG(0.1, 1).v(NAN)),
    ("SLG.v(inf)", R, ("n",), lambda: SLG(0.1, 1).v(INF)),
    ("SLG.v(None)", R, ("n",), lambda: SLG(0.1, 1).v(None)),
    ("SLG.v('3')", R, ("n",), lambda: SLG(0.1, 1).v("3")),
    ("SLG.v(np.int32(3))", V, (), lambda: SLG(0.1, 1).v(np.int32(3))),
    ("SLG.v(np.float32(3.0))", V, (), lambda: SLG(0.1, 1).v(np.float32(3.0))),
    ("SLG.mp_v(-1)", R, ("n",), lambda: SLG(0.1, 1).mp_v(-1)),
    ("SLG.mp_v(True)", R, ("n",), lambda: SLG(0.1, 1).mp_v(True)),
    ("SLG(1e-300, 1).v(10)", E, ("r0", "mp_v"), lambda: SLG(TINY, 1).v(10)),
    ("SLG(1e-300, 1).v(1)", E, ("r0", "mp_v"), lambda: SLG(TINY, 1).v(1)),
    ("SLG(1e-300, 1).mp_v(10)", V, (), lambda: SLG(TINY, 1).mp_v(10)),
    ("SLG(0.1, 1).v(10**400)", E, ("n", "mp_v"), lambda: SLG(0.1, 1).v(10**400)),
    ("SLG(0.1, 1).mp_v(10**400)", V, (), lambda: SLG(0.1, 1).mp_v(10**400)),
    ("SLG(mpf('1e-400'), 1).sigma", E, ("r0", "mp_sigma"), lambda: SLG(mpmath.mpf("1e-400"), 1).sigma),
    ("SLG(mpf('1e-400'), 1).mp_sigma()", V, (), lambda: SLG(mpmath.mpf("1e-400"), 1).mp_sigma()),
    ("SLG(1e-300, 1).v_array([10])", E, ("r0", "mp_v"), lambda: SLG(TINY, 1).v_array([10])),
    ("SLG.v_array([1e300])", R, ("n",), lambda: SLG(0.1, 1).v_array([1e300])),
    ("SLG.v_array([1e300]) names the overflow", R, ("int64", "overflow", "too large"),
     lambda: SLG(0.1, 1).v_array([1e300])),
    ("SLG.v_array([10**30])", R, ("n",), lambda: SLG(0.1, 1).v_array([10**30])),
    ("SLG.v_array([2**63])", R, ("n",), lambda: SLG(0.1, 1).v_array([2**63])),
    ("SLG.v_array(np.array([2**64-1], uint64))", R, ("n",),
     lambda: SLG(0.1, 1).v_array(np.array([2**64 - 1], dtype=np.uint64))),
    ("SLG.v_array([-1])", R, ("n",), lambda: SLG(0.1, 1).v_array([-1])),
    ("SLG.v_array([1.5])", R, ("n",), lambda: SLG(0.1, 1).v_array([1.5])),
    ("SLG.v_array([nan])", R, ("n",), lambda: SLG(0.1, 1).v_array([NAN])),
    ("SLG.v_array(['a'])", R, ("n",), lambda: SLG(0.1, 1).v_array(["a"])),
    ("SLG.v_array(None)", R, ("n",), lambda: SLG(0.1, 1).v_array(None)),
    ("SLG.v_array([True])", R, ("n",), lambda: SLG(0.1, 1).v_array([True])),
    ("SLG.v_array([[1, 2], [3]])", R, ("n",), lambda: SLG(0.1, 1).v_array([[1, 2], [3]])),
    ("SLG.v_array([])", V, (), lambda: SLG(0.1, 1).v_array([])),
    ("SLG.v_array(np.arange(5, dtype=uint8))", V, (),
     lambda: SLG(0.1, 1).v_array(np.arange(5, dtype=np.uint8))),
    ("SLG.error_bound(-1)", R, ("n",), lambda: SLG(0.1, 1).error_bound(-1)),
    ("SLG.target(5) without r", R, ("r",), lambda: SLG(0.1, 1).target(5)),
    ("SLG.unclipped_law(nan)", R, ("n",), lambda: SLG(0.1, 1).unclipped_law(NAN)),
    ("SLG.released_law(-2)", R, ("n",), lambda: SLG(0.1, 1).released_law(-2)),
    ("SLG.rounded_law(1.5)", R, ("n",), lambda: SLG(0.1, 1).rounded_law(1.5)),
    ("SLG.log_mean(-1)", R, ("n",), lambda: SLG(0.1, 1).log_mean(-1)),
    ("SLG.expected_abs_error_released('x')", R, ("n",),
     lambda: SLG(0.1, 1).expected_abs_error_released("x")),
    # ---- ShiftedLogGaussian: release --------------------------------------------------------
    ("SLG.release(counts, None)", V, (), lambda: SLG(0.1, 1).release([1, 2, 3], None)),
    ("SLG.release(counts, 7)", V, (), lambda: SLG(0.1, 1).release([1, 2, 3], 7)),
    ("SLG.release(counts, np.int64(7))", V, (), lambda: SLG(0.1, 1).release([1, 2, 3], np.int64(7))),
    ("SLG.release(counts, 'seed')", R, ("rng",), lambda: SLG(0.1, 1).release([1, 2, 3], "seed")),
    ("SLG.release(counts, 1.5)", R, ("rng",), lambda: SLG(0.1, 1).release([1, 2, 3], 1.5)),
    ("SLG.release(counts, -1)", R, ("rng",), lambda: SLG(0.1, 1).release([1, 2, 3], -1)),
    ("SLG.release(counts, np.random.RandomState)", R, ("rng",),
     lambda: SLG(0.1, 1).release([1, 2, 3], np.random.RandomState(0))),
    ("SLG.release([-1], rng)", R, ("counts",), lambda: SLG(0.1, 1).release([-1], _rng())),
    ("SLG.release([1e300], rng)", R, ("counts",), lambda: SLG(0.1, 1).release([1e300], _rng())),
    ("SLG.release(None, rng)", R, ("counts",), lambda: SLG(0.1, 1).release(None, _rng())),
    ("SLG.release([[1], [1, 2]], rng)", R, ("counts",), lambda: SLG(0.1, 1).release([[1], [1, 2]], _rng())),
    ("SLG(1e-300, 1).release([5], rng)", V, (), lambda: SLG(TINY, 1).release([5], _rng())),
    ("SLG(0.1, 1e300).release([5], rng)", V, (), lambda: SLG(0.1, 1e300).release([5], _rng())),
    ("SLG.release([2**62], rng)", V, (), lambda: SLG(0.1, 1).release([2**62], _rng())),
    # ---- the other mechanisms ---------------------------------------------------------------
    ("LogLaplace(nan, 1)", R, ("r0",), lambda: LLM(NAN, 1)),
    ("LogLaplace(0.1, 0)", R, ("c",), lambda: LLM(0.1, 0)),
    ("LogLaplace(np.float32(0.1), 1).b", V, (), lambda: LLM(np.float32(0.1), 1).b),
    ("LogLaplace.v(-1)", R, ("n",), lambda: LLM(0.1, 1).v(-1)),
    ("LogLaplace.v_array([1e300])", R, ("n",), lambda: LLM(0.1, 1).v_array([1e300])),
    ("LogLaplace(1e-300, 1).v(10)", E, ("r0", "mp_v"), lambda: LLM(TINY, 1).v(10)),
    ("LogLaplace(1e-300, 1).v_array([10])", E, ("r0", "mp_v"), lambda: LLM(TINY, 1).v_array([10])),
    ("LogLaplace(0.1, 1).v(10**400)", E, ("n", "mp_v"), lambda: LLM(0.1, 1).v(10**400)),
    ("LogLaplace.mp_cdf_released(-1, 1)", R, ("n",), lambda: LLM(0.1, 1).mp_cdf_released(-1, 1)),
    ("LogLaplace.mp_cdf_released(1, nan)", R, ("y",), lambda: LLM(0.1, 1).mp_cdf_released(1, NAN)),
    ("LogLaplace.unclipped_law(None)", R, ("n",), lambda: LLM(0.1, 1).unclipped_law(None)),
    ("Airy(nan, 1)", R, ("r0",), lambda: AIRY(NAN, 1)),
    ("Airy(0.1, -1)", R, ("c",), lambda: AIRY(0.1, -1)),
    ("Airy(0.1, 1, drift='x')", R, ("drift",), lambda: AIRY(0.1, 1, drift="x")),
    ("Airy.v(-1)", R, ("n",), lambda: AIRY(0.1, 1).v(-1)),
    ("Airy.v(10**170)", E, ("n",), lambda: AIRY(0.1, 1).v(10**170)),
    ("Airy.v(10**400)", E, ("n",), lambda: AIRY(0.1, 1).v(10**400)),
    ("Airy.v_array([1e300])", R, ("n",), lambda: AIRY(0.1, 1).v_array([1e300])),
    ("symmetric_score_cgf(Airy, u=-0.5)", R, ("u",), lambda: _symmetric_cgf(-0.5)),
    ("symmetric_score_cgf(Airy, u=nan)", R, ("u",), lambda: _symmetric_cgf(NAN)),
    ("Airy(0.999, 1e-9).b (calibration at rho = 0.999)", V, (), lambda: AIRY(0.999, 1e-9).b),
    ("Airy(1e-300, 1).v(1)", E, ("n", "r0"), lambda: AIRY(TINY, 1).v(1)),
    ("Airy(1e-300, 1).t", E, ("t", "mp_t"), lambda: AIRY(TINY, 1).t),
    ("Airy.log_mean(-1)", R, ("n",), lambda: AIRY(0.1, 1).log_mean(-1)),
    ("Airy.release(counts, None)", V, (), lambda: AIRY(0.1, 1).release([1, 2], None)),
    ("Airy.release(counts, 'x')", R, ("rng",), lambda: AIRY(0.1, 1).release([1, 2], "x")),
    ("UnequalVariance(nan)", R, ("r",), lambda: UVG(NAN)),
    ("UnequalVariance(-1)", R, ("r",), lambda: UVG(-1)),
    ("UnequalVariance(0.5).sample(3, None, 4)", V, (), lambda: UVG(0.5).sample(3, None, 4)),
    ("UnequalVariance(0.5).sample(3, 'x', 4)", R, ("rng",), lambda: UVG(0.5).sample(3, "x", 4)),
    ("UnequalVariance(0.5).sample(3, rng, -1)", R, ("size",), lambda: UVG(0.5).sample(3, _rng(), -1)),
    ("UnequalVariance(0.5).law(-1)", R, ("n",), lambda: UVG(0.5).law(-1)),
    ("DataIndependentRelease(nan)", R, ("value",), lambda: DIR(NAN)),
    ("DataIndependentRelease(None)", R, ("value",), lambda: DIR(None)),
    ("DataIndependentRelease().v(-1)", R, ("n",), lambda: DIR().v(-1)),
    ("DataIndependentRelease().release([-1])", R, ("counts",), lambda: DIR().release([-1])),
    ("DataIndependentRelease().margins(nan, 5)", R, ("r",), lambda: DIR().margins(NAN, 5)),
    ("DataIndependentRelease().margins(0.5, -1)", R, ("n_max",), lambda: DIR().margins(0.5, -1)),
    ("laplace_pair(0, 1)", R, ("eps",), lambda: _eps_dp("laplace_pair")(0, 1)),
    ("laplace_pair(nan, 1)", R, ("eps",), lambda: _eps_dp("laplace_pair")(NAN, 1)),
    ("laplace_pair(1, -1)", R, ("Delta",), lambda: _eps_dp("laplace_pair")(1, -1)),
    ("laplace_release([1], 1, 1, None)", V, (), lambda: _eps_dp("laplace_release")([1.0], 1, 1, None)),
    ("laplace_release([1], 1, 1, 'x')", R, ("rng",), lambda: _eps_dp("laplace_release")([1.0], 1, 1, "x")),
    ("laplace_release(['a'], 1, 1, rng)", R, ("x",), lambda: _eps_dp("laplace_release")(["a"], 1, 1, _rng())),
    ("laplace_release([nan], 1, 1, rng)", R, ("x",), lambda: _eps_dp("laplace_release")([NAN], 1, 1, _rng())),
    ("krr_pair(1, 1.5)", R, ("k",), lambda: _eps_dp("krr_pair")(1, 1.5)),
    ("krr_pair(1, 1)", R, ("k",), lambda: _eps_dp("krr_pair")(1, 1)),
    ("krr_release([0, 1], 1, 3, None)", V, (), lambda: _eps_dp("krr_release")([0, 1], 1, 3, None)),
    ("krr_release([0, 1], 1, 3, 'x')", R, ("rng",), lambda: _eps_dp("krr_release")([0, 1], 1, 3, "x")),
    ("krr_release([0.5], 1, 3, rng)", R, ("values",), lambda: _eps_dp("krr_release")([0.5], 1, 3, _rng())),
    ("krr_release(['a'], 1, 3, rng)", R, ("values",), lambda: _eps_dp("krr_release")(["a"], 1, 3, _rng())),
    ("krr_release([1e300], 1, 3, rng)", R, ("values",), lambda: _eps_dp("krr_release")([1e300], 1, 3, _rng())),
    ("krr_release([3], 1, 3, rng)", R, ("values",), lambda: _eps_dp("krr_release")([0, 3], 1, 3, _rng())),
    ("krr_release([2], 1, 3, rng)", V, (), lambda: _eps_dp("krr_release")([0, 2], 1, 3, _rng())),
    ("rappor_release([0], 1, 3, None)", V, (), lambda: _eps_dp("rappor_release")([0], 1, 3, None)),
    ("rappor_law(0, 1, 40)", R, ("k",), lambda: _eps_dp("rappor_law")(0, 1, 40)),
    ("discrete_laplace_pair(-1)", R, ("eps",), lambda: _eps_dp("discrete_laplace_pair")(-1)),
    # ---- laws ---------------------------------------------------------------------------------
    ("Gaussian(0, -1)", R, ("s",), lambda: _laws().Gaussian(0, -1)),
    ("Gaussian(nan, 1)", R, ("mu",), lambda: _laws().Gaussian(NAN, 1)),
    ("Gaussian('0', 1)", R, ("mu",), lambda: _laws().Gaussian("0", 1)),
    ("Gaussian(0, None)", R, ("s",), lambda: _laws().Gaussian(0, None)),
    ("Gaussian(np.float32(0), np.float32(1)).cdf(0)", V, (),
     lambda: _laws().Gaussian(np.float32(0), np.float32(1)).cdf(0.0)),
    ("Gaussian(0, 1).sample(None, 3)", V, (), lambda: _laws().Gaussian(0, 1).sample(None, 3)),
    ("Gaussian(0, 1).sample('x', 3)", R, ("rng",), lambda: _laws().Gaussian(0, 1).sample("x", 3)),
    ("Gaussian(0, 1).sample(rng, -3)", R, ("size",), lambda: _laws().Gaussian(0, 1).sample(_rng(), -3)),
    ("Gaussian(0, 1).sample(rng, 'x')", R, ("size",), lambda: _laws().Gaussian(0, 1).sample(_rng(), "x")),
    ("GaussianDensity(nan, 1)", R, ("mu",), lambda: _laws().GaussianDensity(NAN, 1)),
    ("LogShiftedGaussian(0, 1, -1)", R, ("c",), lambda: _laws().LogShiftedGaussian(0, 1, -1)),
    ("LogShiftedGaussian(nan, 1, 1)", R, ("mu",), lambda: _laws().LogShiftedGaussian(NAN, 1, 1)),
    ("LogShiftedGaussian(0, 0, 1)", R, ("s",), lambda: _laws().LogShiftedGaussian(0, 0, 1)),
    ("LogShiftedGaussian(0, 1, 'x')", R, ("c",), lambda: _laws().LogShiftedGaussian(0, 1, "x")),
    # the density validates on its own (LogShiftDensity, the base of every noise law)
    ("LogShiftedGaussianDensity(0, -1, 1)", R, ("sigma",), lambda: _laws().LogShiftedGaussianDensity(0, -1, 1)),
    ("LogShiftedGaussianDensity(0, nan, 1)", R, ("sigma",), lambda: _laws().LogShiftedGaussianDensity(0, NAN, 1)),
    ("LogShiftedGaussianDensity(0, 0, 1)", R, ("sigma",), lambda: _laws().LogShiftedGaussianDensity(0, 0, 1)),
    ("LogShiftedGaussianDensity(0, 1, 0)", R, ("c",), lambda: _laws().LogShiftedGaussianDensity(0, 1, 0)),
    ("LogShiftedGaussianDensity(0, 1, -2)", R, ("c",), lambda: _laws().LogShiftedGaussianDensity(0, 1, -2)),
    ("LogShiftedGaussianDensity(nan, 1, 1)", R, ("mu",), lambda: _laws().LogShiftedGaussianDensity(NAN, 1, 1)),
    ("LogShiftedGaussianDensity(inf, 1, 1)", R, ("mu",), lambda: _laws().LogShiftedGaussianDensity(INF, 1, 1)),
    ("ClippedAtZero(None)", R, ("base",), lambda: _laws().ClippedAtZero(None)),
    ("ClippedAtZero(Gaussian(0, 1))", R, ("base",), lambda: _laws().ClippedAtZero(_laws().Gaussian(0, 1))),
    ("PointMass(nan)", R, ("x",), lambda: _laws().PointMass(NAN)),
    ("PointMass('a')", R, ("x",), lambda: _laws().PointMass("a")),
    ("FinitePmf({0: -1, 1: 2})", R, ("pmf", "table"), lambda: _laws().FinitePmf({0: -1, 1: 2})),
    ("FinitePmf(None)", R, ("table",), lambda: _laws().FinitePmf(None)),
    ("FinitePmf({0: nan})", R, ("table", "pmf"), lambda: _laws().FinitePmf({0: NAN})),
    ("FinitePmf({'a': 1})", R, ("table", "pmf"), lambda: _laws().FinitePmf({"a": 1})),
    ("FinitePmf({0.5: 1})", R, ("table", "pmf"), lambda: _laws().FinitePmf({0.5: 1})),
    ("ContinuousLaw(None)", R, ("density",), lambda: _laws().ContinuousLaw(None)),
    ("MixedLaw({0: nan}, None)", R, ("atoms",), lambda: _laws().MixedLaw({0: NAN}, None)),
    ("MixedLaw(None, None)", R, ("atoms",), lambda: _laws().MixedLaw(None, None)),
    ("Laplace(0, -1)", R, ("b",), lambda: __import__("countdp.laws.reference", fromlist=["x"]).Laplace(0, -1)),
    ("Laplace(nan, 1)", R, ("mu",), lambda: __import__("countdp.laws.reference", fromlist=["x"]).Laplace(NAN, 1)),
    *[(f"{name}{args}", R, (param,), (lambda name=name, args=args: getattr(_reference(), name)(*args)))
      for name, args, param in (
          ("Uniform", (1, 1), "lo"), ("Uniform", (0, NAN), "hi"), ("Logistic", (0, 0), "s"),
          ("Logistic", (INF, 1), "mu"), ("Triangular", (0, -1), "w"), ("RaisedCosine", (0,), "w"),
          ("TruncatedLaplace", (1, 0), "b"), ("TruncatedLaplace", (1, -1), "b"),
          ("TruncatedLaplace", (0, 1), "L"), ("TruncatedGaussian", (1, 1), "a"),
          ("TruncatedGaussian", (0, NAN), "b"))],
    # ---- divergences ---------------------------------------------------------------------------
    ("privacy_loss(released(1), released(0), [1.0])", R, ("privacy_loss",),
     lambda: _eps_dp("privacy_loss")(_slg(0.45, 1.0).released_law(1), _slg(0.45, 1.0).released_law(0), [1.0])),
    ("prior_moments(uniform_prior(5), -1)", R, ("j_star",),
     lambda: __import__("countdp.divergence.information", fromlist=["x"]).prior_moments(
         __import__("countdp.laws.priors", fromlist=["x"]).uniform_prior(5), -1)),
    ("prior_moments(uniform_prior(5), 1.5)", R, ("j_star",),
     lambda: __import__("countdp.divergence.information", fromlist=["x"]).prior_moments(
         __import__("countdp.laws.priors", fromlist=["x"]).uniform_prior(5), 1.5)),
    ("renyi(None, Q, 2)", R, ("P",), lambda: _renyi(None, _gauss_pair()[1], 2)),
    ("renyi(P, None, 2)", R, ("Q",), lambda: _renyi(_gauss_pair()[0], None, 2)),
    ("renyi(1.0, 2.0, 2)", R, ("P",), lambda: _renyi(1.0, 2.0, 2)),
    ("renyi(P, Q, 1)", R, ("alpha",), lambda: _renyi(*_gauss_pair(), 1)),
    ("renyi(P, Q, nan)", R, ("alpha",), lambda: _renyi(*_gauss_pair(), NAN)),
    ("renyi(P, Q, '2')", R, ("alpha",), lambda: _renyi(*_gauss_pair(), "2")),
    ("renyi(P, Q, None)", R, ("alpha",), lambda: _renyi(*_gauss_pair(), None)),
    ("renyi(P, Q, inf)", R, ("alpha",), lambda: _renyi(*_gauss_pair(), INF)),
    ("renyi(P, Q, 2, method='x')", R, ("method",), lambda: _renyi(*_gauss_pair(), 2, method="x")),
    ("renyi(P, Q, np.float32(2))", V, (), lambda: _renyi(*_gauss_pair(), np.float32(2))),
    ("kl(None, Q)", R, ("P",), lambda: _kl(None, _gauss_pair()[1])),
    ("kl(P, 3)", R, ("Q",), lambda: _kl(_gauss_pair()[0], 3)),
    ("kl(P, Q, method=None)", R, ("method",), lambda: _kl(*_gauss_pair(), method=None)),
    ("gaussian_renyi(2, 0, -1, 0, 1)", R, ("s_p",),
     lambda: __import__("countdp.divergence.renyi", fromlist=["x"]).gaussian_renyi(2, 0, -1, 0, 1)),
    ("gaussian_renyi(nan, 0, 1, 0, 1)", R, ("alpha",),
     lambda: __import__("countdp.divergence.renyi", fromlist=["x"]).gaussian_renyi(NAN, 0, 1, 0, 1)),
    ("gaussian_renyi(2, 'a', 1, 0, 1)", R, ("mu_p",),
     lambda: __import__("countdp.divergence.renyi", fromlist=["x"]).gaussian_renyi(2, "a", 1, 0, 1)),
    ("renyi_atoms({0: 1}, {0: 1}, 0.5)", R, ("alpha",),
     lambda: __import__("countdp.divergence.atoms", fromlist=["x"]).renyi_atoms({0: 1}, {0: 1}, 0.5)),
    ("renyi_atoms(None, {0: 1}, 2)", R, ("p",),
     lambda: __import__("countdp.divergence.atoms", fromlist=["x"]).renyi_atoms(None, {0: 1}, 2)),
    ("tight_rho(None)", R, ("pairs",), lambda: _tight("tight_rho")(None)),
    ("tight_rho((P, None))", R, ("pairs",), lambda: _tight("tight_rho")((_gauss_pair()[0], None))),
    ("tight_rho(pair, alpha_min=0.5)", R, ("alpha_min",), lambda: _tight("tight_rho")(_gauss_pair(), alpha_min=0.5)),
    ("tight_rho(pair, alpha_min=nan)", R, ("alpha_min",), lambda: _tight("tight_rho")(_gauss_pair(), alpha_min=NAN)),
    ("tight_rho(pair, alpha_max=1.0000001)", R, ("alpha_max",),
     lambda: _tight("tight_rho")(_gauss_pair(), alpha_max=1.0000001)),
    ("tight_rho(pair, rel_tol=0)", R, ("rel_tol",), lambda: _tight("tight_rho")(_gauss_pair(), rel_tol=0)),
    ("tight_rho(pair, window_tail=-1)", R, ("window_tail",), lambda: _tight("tight_rho")(_gauss_pair(), window_tail=-1)),
    ("tight_rho(pair, breakpoints=[nan])", R, ("breakpoints",),
     lambda: _tight("tight_rho")(_gauss_pair(), breakpoints=[NAN])),
    ("tight_rho(pair, breakpoints=None)", R, ("breakpoints",),
     lambda: _tight("tight_rho")(_gauss_pair(), breakpoints=None)),
    ("tight_rho(pair, labels=3)", R, ("labels",), lambda: _tight("tight_rho")(_gauss_pair(), labels=3)),
    ("mp_renyi(None, Q, 2)", R, ("P",), lambda: _tight("mp_renyi")(None, _gauss_pair()[1], 2)),
    ("mp_renyi(P, Q, nan)", R, ("alpha",), lambda: _tight("mp_renyi")(*_gauss_pair(), NAN)),
    ("renyi_curve(P, Q, [nan])", R, ("alpha",), lambda: _tight("renyi_curve")(*_gauss_pair(), [NAN])),
    ("renyi_curve(P, Q, ['a'])", R, ("alpha",), lambda: _tight("renyi_curve")(*_gauss_pair(), ["a"])),
    ("renyi_curve(None, Q, [2])", R, ("P",), lambda: _tight("renyi_curve")(None, _gauss_pair()[1], [2])),
    ("d_infinity(P, 'Q')", R, ("Q",), lambda: _tight("d_infinity")(_gauss_pair()[0], "Q")),
    ("pmf_sup_ratio([0.5, nan], [0.5, 0.5])", R, ("p",), lambda: _tight("pmf_sup_ratio")([0.5, NAN], [0.5, 0.5])),
    ("pmf_sup_ratio(None, [1])", R, ("p",), lambda: _tight("pmf_sup_ratio")(None, [1])),
    ("pmf_sup_ratio(p, q, alpha_max=1.0000001)", R, ("alpha_max",),
     lambda: _tight("pmf_sup_ratio")([0.5, 0.5], [0.25, 0.75], alpha_max=1.0000001)),
    ("pmf_sup_ratio(p, q, alpha_max=0.5)", R, ("alpha_max",),
     lambda: _tight("pmf_sup_ratio")([0.5, 0.5], [0.25, 0.75], alpha_max=0.5)),
    ("pmf_sup_ratio(p, q, points_per_decade=0)", R, ("points_per_decade",),
     lambda: _tight("pmf_sup_ratio")([0.5, 0.5], [0.25, 0.75], points_per_decade=0)),
    ("pmf_sup_ratio(p, q, alpha_max=1.0001)", V, (),
     lambda: _tight("pmf_sup_ratio")([0.5, 0.5], [0.25, 0.75], alpha_max=1.0001).value),
    # ---- zCDP conversions and profiles --------------------------------------------------------
    ("zcdp_to_approx_dp(-1, 1e-6)", R, ("rho",), lambda: _zcdp("zcdp_to_approx_dp")(-1, 1e-6)),
    ("zcdp_to_approx_dp(1, 0)", R, ("delta",), lambda: _zcdp("zcdp_to_approx_dp")(1, 0)),
    ("zcdp_to_approx_dp(1, 2)", R, ("delta",), lambda: _zcdp("zcdp_to_approx_dp")(1, 2)),
    ("zcdp_to_approx_dp(nan, 0.1)", R, ("rho",), lambda: _zcdp("zcdp_to_approx_dp")(NAN, 0.1)),
    ("zcdp_to_approx_dp('1', 0.1)", R, ("rho",), lambda: _zcdp("zcdp_to_approx_dp")("1", 0.1)),
    ("zcdp_to_approx_dp(inf, 0.1)", R, ("rho",), lambda: _zcdp("zcdp_to_approx_dp")(INF, 0.1)),
    ("zcdp_to_approx_dp(1e600 mpf, 0.1)", V, (), lambda: _zcdp("zcdp_to_approx_dp")(mpmath.mpf("1e600"), 0.1)),
    ("zcdp_to_approx_dp(np.float32(1), np.float32(1e-6))", V, (),
     lambda: _zcdp("zcdp_to_approx_dp")(np.float32(1), np.float32(1e-6))),
    ("cks_eps(-1, 0.1)", R, ("rho",), lambda: _zcdp("cks_eps")(-1, 0.1)),
    ("cks_eps(1, nan)", R, ("delta",), lambda: _zcdp("cks_eps")(1, NAN)),
    ("cks_eps(1e300, 1e-6)", V, (), lambda: _zcdp("cks_eps")(1e300, 1e-6)),
    ("cks_eps(1e-300, 1e-6)", V, (), lambda: _zcdp("cks_eps")(1e-300, 1e-6)),
    ("cks_delta(1e300, 1)", V, (), lambda: _zcdp("cks_delta")(1e300, 1)),
    ("cks_delta(1e-300, 1e300)", V, (), lambda: _zcdp("cks_delta")(1e-300, 1e300)),
    ("cks_alpha(0, 1)", R, ("rho",), lambda: _zcdp("cks_alpha")(0, 1)),
    ("cks_delta(1, 'x')", R, ("eps",), lambda: _zcdp("cks_delta")(1, "x")),
    ("gaussian_hockey_stick(-1, 1)", R, ("mu",), lambda: _profile("gaussian_hockey_stick")(-1, 1)),
    ("gaussian_hockey_stick(1, nan)", R, ("eps",), lambda: _profile("gaussian_hockey_stick")(1, NAN)),
    ("gaussian_eps_of_delta(1, 0)", R, ("delta",), lambda: _profile("gaussian_eps_of_delta")(1, 0)),
    ("gaussian_eps_of_delta(1e300, 0.1)", R, ("mu",), lambda: _profile("gaussian_eps_of_delta")(1e300, 0.1)),
    ("gaussian_eps_of_delta(1e40, 0.1)", V, (), lambda: _profile("gaussian_eps_of_delta")(1e40, 0.1)),
    ("gaussian_hockey_stick(1e-300, 1)", R, ("mu", "eps"), lambda: _profile("gaussian_hockey_stick")(1e-300, 1)),
    ("gaussian_hockey_stick(1, 1e300)", R, ("mu", "eps"), lambda: _profile("gaussian_hockey_stick")(1, 1e300)),
    ("gaussian_eps_of_delta(1, 1e-300)", V, (), lambda: _profile("gaussian_eps_of_delta")(1, 1e-300)),
    ("hockey_stick(None, Q, 1)", R, ("P",), lambda: _profile("hockey_stick")(None, _gauss_pair()[1], 1)),
    ("hockey_stick(P, Q, -1)", R, ("eps",), lambda: _profile("hockey_stick")(*_gauss_pair(), -1)),
    ("eps_of_delta(P, Q, 2)", R, ("delta",), lambda: _profile("eps_of_delta")(*_gauss_pair(), 2)),
    ("eps_of_delta(None, Q, 0.1)", R, ("P",), lambda: _profile("eps_of_delta")(None, _gauss_pair()[1], 0.1)),
    ("compose_budgets()", R, ("budgets",), lambda: _zcdp("compose_budgets")()),
    ("compose_budgets(3)", R, ("budgets",), lambda: _zcdp("compose_budgets")(3)),
    ("composed_budget([], 1)", R, ("mechanisms",), lambda: _zcdp("composed_budget")([], 1)),
    ("composed_budget(None, 1)", R, ("mechanisms",), lambda: _zcdp("composed_budget")(None, 1)),
    ("composed_budget([3], 1)", R, ("mechanisms",), lambda: _zcdp("composed_budget")([3], 1)),
    ("composed_budget([SLG], -1)", R, ("n",), lambda: _zcdp("composed_budget")([SLG(0.1, 1)], -1)),
    ("log_likelihood_ratio(None, Q, 1)", R, ("P",), lambda: _zcdp("log_likelihood_ratio")(None, _gauss_pair()[1], 1.0)),
    ("log_likelihood_ratio(P, Q, [nan])", R, ("y",), lambda: _zcdp("log_likelihood_ratio")(*_gauss_pair(), [NAN])),
    ("log_likelihood_ratio(P, Q, [inf])", R, ("y",), lambda: _zcdp("log_likelihood_ratio")(*_gauss_pair(), [INF])),
    ("composed_budget([SLG, Airy], 10)", V, (), lambda: _zcdp("composed_budget")([SLG(0.05, 1), AIRY(0.05, 1)], 10)),
    ("compose_budgets(lambda n: 'x')(1)", R, ("budgets",), lambda: _zcdp("compose_budgets")(lambda n: "x")(1)),
    ("stochastic_round([nan], rng)", R, ("y",), lambda: _stochastic_round([NAN], _rng())),
    ("stochastic_round([-0.5], rng)", R, ("y",), lambda: _stochastic_round([-0.5], _rng())),
    ("stochastic_round([inf], rng)", R, ("y",), lambda: _stochastic_round([INF], _rng())),
    ("stochastic_round([1.5], 'x')", R, ("rng",), lambda: _stochastic_round([1.5], "x")),
    ("SLG(1e-300, 1).expected_abs_error_released(10)", V, (),
     lambda: SLG(1e-300, 1).expected_abs_error_released(10)),
    ("calculator.output.to_json(None)", R, ("result",), lambda: _to_json(None)),
    ("renyi_product([P], [Q, Q], 2)", R, ("Ps", "Qs"), lambda: _product([_gauss_pair()[0]], list(_gauss_pair()), 2)),
    # ---- expectations and Monte Carlo ----------------------------------------------------------
    ("mc_abs_error(None, 1, rng)", R, ("law",), lambda: _expect("mc_abs_error")(None, 1, _rng())),
    ("mc_abs_error(law, -1, rng)", R, ("n",), lambda: _expect("mc_abs_error")(_gauss_pair()[0], -1, _rng())),
    ("mc_abs_error(law, 1, 'x')", R, ("rng",), lambda: _expect("mc_abs_error")(_gauss_pair()[0], 1, "x")),
    ("mc_abs_error(law, 1, None, draws=1000)", V, (),
     lambda: _expect("mc_abs_error")(_gauss_pair()[0], 1, None, draws=1000)),
    ("mc_abs_error(law, 1, rng, draws=0)", R, ("draws",), lambda: _expect("mc_abs_error")(_gauss_pair()[0], 1, _rng(), draws=0)),
    ("mc_abs_error(law, 1, rng, draws=1e300)", R, ("draws",),
     lambda: _expect("mc_abs_error")(_gauss_pair()[0], 1, _rng(), draws=1e300)),
    ("quad_expectation(None, abs)", R, ("law",), lambda: _expect("quad_expectation")(None, abs)),
    ("quad_expectation(law, None)", R, ("g",), lambda: _expect("quad_expectation")(_gauss_pair()[0], None)),
    ("quad_expectation(law, abs, breaks=[nan])", R, ("breaks",),
     lambda: _expect("quad_expectation")(_gauss_pair()[0], abs, breaks=[NAN])),
    ("mc_mean(None, rng)", R, ("draw",), lambda: _mc_mean(None, _rng())),
    ("mc_mean(f, 'x')", R, ("rng",), lambda: _mc_mean(lambda g, m: g.random(m), "x")),
    ("mc_mean(f, 3, draws=100)", V, (), lambda: _mc_mean(lambda g, m: g.random(m), 3, draws=100)),
    ("mc_mean(f, rng, draws=-1)", R, ("draws",), lambda: _mc_mean(lambda g, m: g.random(m), _rng(), draws=-1)),
    ("mc_mean(nan-drawing f, rng)", R, ("draw",), lambda: _mc_mean(lambda g, m: np.full(m, NAN), _rng(), draws=10)),
]


# ---------------------------------------------------------------------------------------------
# Judging an outcome
# ---------------------------------------------------------------------------------------------


def _finite(x) -> bool:
    if x is None:
        return False
    if isinstance(x, (bool, np.bool_)):
        return True
    if isinstance(x, (mpmath.mpf,)):
        return bool(mpmath.isfinite(x))
    if isinstance(x, (int, np.integer)):
        return True
    if isinstance(x, (float, np.floating)):
        return math.isfinite(float(x))
    if isinstance(x, np.ndarray):
        return x.dtype.kind in "iub" or (x.dtype.kind == "f" and bool(np.all(np.isfinite(x))))
    if hasattr(x, "value"):
        return _finite(x.value)
    return True  # an object (a law, a mechanism): constructed


def _nonzero(x) -> bool:
    v = getattr(x, "value", x)
    if isinstance(v, np.ndarray):
        return bool(np.all(v != 0))
    try:
        return v != 0
    except Exception:  # noqa: BLE001
        return True


def judge(kind: str, names: tuple, call: Callable[[], Any], timeout: float = 20.0) -> tuple[bool, str]:
    """(ok, what happened) for one row, the call bounded by ``timeout`` seconds (SIGALRM)."""

    def alarm(signum, frame):
        raise Hang(f"no answer within {timeout:g} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        try:
            out = call()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    except Hang as exc:
        return False, f"hang: {exc}"
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        if kind == V:
            return False, f"refused a good input: {type(exc).__name__}: {msg}"
        if not any(n in msg for n in names):
            return False, f"{type(exc).__name__} not naming {names}: {msg}"
        if "\n" in msg.strip():
            return False, f"multi-line message: {msg!r}"
        return True, f"{type(exc).__name__}: {msg}"
    except Exception as exc:  # noqa: BLE001
        return False, f"{type(exc).__name__}: {exc}"
    if kind == R:
        return False, f"returned {out!r:.80}"
    if not _finite(out):
        return False, f"returned a non-finite value {out!r:.80}"
    if kind == E and not _nonzero(out):
        return False, f"returned 0 for a nonzero value {out!r:.80}"
    return True, f"returned {out!r:.60}"


if __name__ == "__main__":  # pragma: no cover
    import sys

    bad = 0
    for label, kind, names, call in CASES:
        ok, what = judge(kind, names, call)
        bad += not ok
        if not ok or "-v" in sys.argv:
            print(f"{'ok ' if ok else 'BAD'} {label}: {what}"[:230])
    print(f"{len(CASES)} library inputs, {bad} not as documented")


# ---------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------

#: a throwaway project: one passing claim, one claim that never ends (for --time-limit)
FAKE_SCRIPTS = {
    "a_good": '''from countdp.harness.claims import claim

@claim("lem4.1", routes=["closed form", "quadrature"])
def good(c):
    c.compare({"sigma": 0.5}, 1, "==", 1)
    c.control("constant off by one", 1, "==", 2)
''',
    "b_loops": '''from countdp.harness.claims import claim

@claim("eq9", routes=["a", "b"])
def loops(c):
    while True:
        pass
''',
}

#: (label, argv, allowed exit codes, text stderr must contain (exit 2) or stdout (exit 0)).
#: ``{ROOT}`` is the fake project, ``{REAL}`` the real one, ``{FILE}`` a regular file (a
#: directory cannot be made under it), ``{TMP}`` a fresh directory.
B = ["budget", "--r0", "0.1", "--c", "1", "--n", "10"]
CLI_CASES: list[tuple[str, list[str], tuple, str]] = [
    ("check eq3 --dps 10000", ["check", "eq3", "--root", "{REAL}", "--dps", "10000"], (2,), "--dps"),
    ("reproduce --dps 10000", ["reproduce", "--root", "{ROOT}", "--dps", "10000", "--no-figures",
                               "--reports", "{TMP}/r"], (2,), "--dps"),
    ("check --dps 0", ["check", "lem4.1", "--root", "{ROOT}", "--dps", "0"], (2,), "--dps"),
    ("check --dps 101", ["check", "lem4.1", "--root", "{ROOT}", "--dps", "101"], (2,), "--dps"),
    ("figures --dps 10000", ["figures", "--root", "{ROOT}", "--dps", "10000", "--figures", "{TMP}/f"],
     (2,), "--dps"),
    ("faults --dps 10000", ["faults", "--root", "{ROOT}", "--dps", "10000", "--reports", "{TMP}/r"],
     (2,), "--dps"),
    ("budget --dps 0", B + ["--dps", "0"], (2,), "--dps"),
    ("budget --dps -5", B + ["--dps", "-5"], (2,), "--dps"),
    ("budget --dps 10000", B + ["--dps", "10000"], (2,), "--dps"),
    ("budget --dps x", B + ["--dps", "x"], (2,), "--dps"),
    ("reproduce --reports <under a file>", ["reproduce", "--root", "{ROOT}", "--only", "lem4.1",
                                            "--no-figures", "--reports", "{FILE}/reports"], (2,), "--reports"),
    ("reproduce --reports /proc/x", ["reproduce", "--root", "{ROOT}", "--only", "lem4.1",
                                     "--no-figures", "--reports", "/proc/countdp-reports"], (2,), "--reports"),
    ("reproduce --figures <under a file>", ["reproduce", "--root", "{ROOT}", "--only", "lem4.1",
                                            "--reports", "{TMP}/r", "--figures", "{FILE}/f"], (2,), "--figures"),
    ("figures --figures <under a file>", ["figures", "--root", "{ROOT}", "--figures", "{FILE}/f"],
     (2,), "--figures"),
    ("faults --reports <under a file>", ["faults", "--root", "{ROOT}", "--reports", "{FILE}/r"],
     (2,), "--reports"),
    ("reproduce --jobs -1", ["reproduce", "--root", "{ROOT}", "--jobs", "-1", "--reports", "{TMP}/r"],
     (2,), "--jobs"),
    ("reproduce --jobs 0", ["reproduce", "--root", "{ROOT}", "--jobs", "0", "--reports", "{TMP}/r"],
     (2,), "--jobs"),
    ("reproduce --jobs 100000", ["reproduce", "--root", "{ROOT}", "--jobs", "100000",
                                 "--reports", "{TMP}/r"], (2,), "--jobs"),
    ("figures --jobs -1", ["figures", "--root", "{ROOT}", "--jobs", "-1", "--figures", "{TMP}/f"],
     (2,), "--jobs"),
    ("figures --jobs 0", ["figures", "--root", "{ROOT}", "--jobs", "0", "--figures", "{TMP}/f"],
     (2,), "--jobs"),
    ("faults --jobs -1", ["faults", "--root", "{ROOT}", "--jobs", "-1", "--reports", "{TMP}/r"],
     (2,), "--jobs"),
    ("faults --jobs 0", ["faults", "--root", "{ROOT}", "--jobs", "0", "--reports", "{TMP}/r"],
     (2,), "--jobs"),
    ("reproduce --seed -1", ["reproduce", "--root", "{ROOT}", "--seed", "-1", "--reports", "{TMP}/r"],
     (2,), "--seed"),
    ("check --seed -1", ["check", "lem4.1", "--root", "{ROOT}", "--seed", "-1"], (2,), "--seed"),
    ("check --time-limit 0", ["check", "lem4.1", "--root", "{ROOT}", "--time-limit", "0"], (2,),
     "--time-limit"),
    ("check --time-limit nan", ["check", "lem4.1", "--root", "{ROOT}", "--time-limit", "nan"], (2,),
     "--time-limit"),
    ("check runaway --time-limit 2", ["check", "eq9", "--root", "{ROOT}", "--time-limit", "2"], (2,),
     "time limit"),
    ("reproduce runaway --time-limit 2", ["reproduce", "--root", "{ROOT}", "--time-limit", "2", "--jobs",
                                          "1", "--reports", "{TMP}/r", "--no-figures", "-q"], (1,), "ERROR"),
    ("check --root <nowhere>", ["check", "lem4.1", "--root", "{TMP}/nowhere"], (2,), "--root"),
    ("check <unknown id>", ["check", "lem41", "--root", "{ROOT}"], (2,), "lem41"),
    ("reproduce --only <unknown>", ["reproduce", "--root", "{ROOT}", "--only", "zz", "--reports", "{TMP}/r"],
     (2,), "zz"),
    ("budget --delta -1e-6", B + ["--delta", "-1e-6"], (2,), "delta"),
    ("budget --delta -0.1", B + ["--delta", "-0.1"], (2,), "delta"),
    ("budget --delta 0", B + ["--delta", "0"], (2,), "delta"),
    ("budget --delta 1", B + ["--delta", "1"], (2,), "delta"),
    ("budget --delta nan", B + ["--delta", "nan"], (2,), "delta"),
    ("budget --delta x", B + ["--delta", "x"], (2,), "delta"),
    ("budget --r0 nan", ["budget", "--r0", "nan", "--c", "1", "--n", "10"], (2,), "r0"),
    ("budget --r0 -1", ["budget", "--r0", "-1", "--c", "1", "--n", "10"], (2,), "r0"),
    ("budget --r0 -1e-3", ["budget", "--r0", "-1e-3", "--c", "1", "--n", "10"], (2,), "r0"),
    ("budget --r0 2", ["budget", "--r0", "2", "--c", "1", "--n", "10"], (2,), "r0"),
    ("budget --r0 inf", ["budget", "--r0", "inf", "--c", "1", "--n", "10"], (2,), "r0"),
    ("budget --c 0", ["budget", "--r0", "0.1", "--c", "0", "--n", "10"], (2,), "c"),
    ("budget --c -1", ["budget", "--r0", "0.1", "--c", "-1", "--n", "10"], (2,), "c"),
    ("budget --c nan", ["budget", "--r0", "0.1", "--c", "nan", "--n", "10"], (2,), "c"),
    ("budget --c inf", ["budget", "--r0", "0.1", "--c", "inf", "--n", "10"], (2,), "c"),
    ("budget --r 0", B + ["--r", "0"], (2,), "r"),
    ("budget --r 2", B + ["--r", "2"], (2,), "r"),
    ("budget --r 0.05 (< r0)", B + ["--r", "0.05"], (2,), "r0"),
    ("budget --n -1", ["budget", "--r0", "0.1", "--c", "1", "--n", "-1"], (2,), "n"),
    ("budget --n 1.5", ["budget", "--r0", "0.1", "--c", "1", "--n", "1.5"], (2,), "--n"),
    ("budget --n x", ["budget", "--r0", "0.1", "--c", "1", "--n", "x"], (2,), "--n"),
    ("budget without --n", ["budget", "--r0", "0.1", "--c", "1"], (2,), "--n"),
    ("budget --r0 1e-300 --n 10", ["budget", "--r0", "1e-300", "--c", "1", "--n", "10"], (0,), "e+598"),
    ("budget --r0 1e-300 --n 10 --json", ["budget", "--r0", "1e-300", "--c", "1", "--n", "10", "--json"],
     (0,), "e+598"),
    ("budget --n 10**400", ["budget", "--r0", "0.1", "--c", "1", "--n", "1" + "0" * 400], (0,), "e-798"),
    ("budget --r0 1e-300 --delta 1e-6", ["budget", "--r0", "1e-300", "--c", "1", "--n", "10", "--delta",
                                         "1e-6"], (0,), "e+598"),
    ("budget --c 1e300", ["budget", "--r0", "0.1", "--c", "1e300", "--n", "10"], (0,), "e-"),
    ("budget --r0 4.9e-324", ["budget", "--r0", "4.9e-324", "--c", "1", "--n", "10"], (0, 2), ""),
    ("budget --releases 1e9", B + ["--releases", "1e9"], (0,), ""),
    ("budget --target-rho 1 --target-eps 1", ["budget", "--c", "1", "--n", "10", "--target-rho", "1",
                                              "--target-eps", "1", "--delta", "1e-6"], (2,), "--target-rho"),
    ("budget --plot {TMP}", B + ["--plot", "{TMP}"], (2,), "directory"),
    ("budget --plot {TMP}/nofolder/b.png", B + ["--plot", "{TMP}/nofolder/b.png"], (2,), "does not exist"),
    ("budget --plot {TMP}/b (no suffix)", B + ["--plot", "{TMP}/b"], (2,), "suffix"),
    ("release --input missing", ["release", "--r0", "0.1", "--c", "1", "--input", "{TMP}/none.csv"], (2,),
     "--input"),
    ("release --output {TMP}", ["release", "--r0", "0.1", "--c", "1", "--input", "{TMP}/none.csv",
                                "--output", "{TMP}"], (2,), "--"),
    ("no command", [], (2,), "COMMAND"),
    ("unknown command", ["frobnicate"], (2,), "frobnicate"),
    ("list --json extra", ["list", "extra"], (2,), "extra"),
]


def materialise(argv: list[str], root: str, real: str, file: str, tmp: str) -> list[str]:
    return [a.replace("{ROOT}", root).replace("{REAL}", real).replace("{FILE}", file)
            .replace("{TMP}", tmp) for a in argv]


def judge_cli(code: int | None, out: str, err: str, allowed: tuple, text: str) -> tuple[bool, str]:
    """(ok, what happened) for one command line run: an allowed exit code, no traceback, a
    one-line error message naming ``text`` (exit 2), no inf/nan/0.0 standing in for a number."""
    if code is None:
        return False, "hang"
    if "Traceback" in err or "Traceback" in out:
        return False, f"traceback (exit {code}): {err.strip().splitlines()[-1] if err.strip() else out[-200:]}"
    if code not in allowed:
        return False, f"exit {code} (expected {allowed}): {(err.strip() or out.strip())[-200:]}"
    if code == 2:
        lines = [ln for ln in err.splitlines() if ln.strip()]
        if len(lines) != 1:
            return False, f"{len(lines)}-line message: {err[-300:]!r}"
        if text not in lines[0]:
            return False, f"message does not name {text!r}: {lines[0]}"
        return True, lines[0]
    where = out + err
    if text and text not in where:
        return False, f"output lacks {text!r}: {out[-300:]!r}"
    for bad in (" inf", "nan", ": 0.0", "= 0.0 ", '"inf"', '"0.0"'):
        if bad in out:
            return False, f"output holds {bad!r}: {out[-300:]!r}"
    return True, out.strip().splitlines()[-1] if out.strip() else f"exit {code}"


def run_cli_subprocess(argv: list[str], timeout: float, env: dict) -> tuple[int | None, str, str]:
    import subprocess
    import sys

    try:
        p = subprocess.run([sys.executable, "-m", "countdp", *argv], capture_output=True, text=True,
                           timeout=timeout, env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as exc:
        return None, str(exc.stdout or ""), str(exc.stderr or "")
