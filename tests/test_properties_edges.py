"""Property tests for three classes of edge case, so that none comes back: mechanisms of mixed
kinds through every composition entry point, NaN / inf / negative entries through every array
entry point of the mechanisms and the calculator, and output paths refused before any
computation."""

from __future__ import annotations

import functools

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _run_cli import run_main
from countdp.calculator import budget
from countdp.divergence import zcdp
from countdp.mechanisms import ShiftedLogGaussian, stochastic_round
from countdp.numerics.estimate import Estimate


@functools.cache
def _mechanisms():
    from countdp.mechanisms.airy import AiryLogMechanism
    from countdp.mechanisms.log_laplace import LogLaplaceMechanism

    return (ShiftedLogGaussian(0.05, 1), LogLaplaceMechanism(0.05, 1), AiryLogMechanism(0.05, 1))


def _value(v):
    return v.value if isinstance(v, Estimate) else v


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=4), st.sampled_from([1, 10, 100]))
@pytest.mark.slow
def test_mixed_mechanisms_compose_through_every_entry_point(kinds, n):
    """composed_budget and compose_budgets take any mix of kinds: the sum of the values, an
    Estimate exactly when one term is (the Airy mechanism's), its error the sum of theirs."""
    ms = [_mechanisms()[k] for k in kinds]
    terms = [m.mp_v(n) for m in ms]
    want = mpmath.fsum(_value(t) for t in terms)
    for got in (zcdp.composed_budget(ms, n), zcdp.compose_budgets(*(m.mp_v for m in ms))(n)):
        assert isinstance(got, Estimate) == any(isinstance(t, Estimate) for t in terms)
        assert abs(_value(got) - want) <= mpmath.mpf(10) ** -20 * (1 + want)
        if isinstance(got, Estimate):
            assert got.error == mpmath.fsum(t.error for t in terms if isinstance(t, Estimate))


_BAD = st.sampled_from([np.nan, np.inf, -np.inf, -1.0, -1e-300])


def _with_bad(good: list, bad: float, at: int) -> np.ndarray:
    a = np.array(good, dtype=float)
    a[at % a.size] = bad
    return a


def _array_entry_points():
    """(name, call on a float array) for every array entry point of the mechanisms and the
    calculator; each must refuse an array with a NaN, an inf or a negative entry."""
    from countdp.calculator.counts import count_list

    slg, _, airy = _mechanisms()
    ratio_pair = (slg.released_law(3), slg.released_law(4))
    return [
        ("stochastic_round", lambda a: stochastic_round(a, 0)),
        ("ShiftedLogGaussian.release", lambda a: slg.release(a, 0)),
        ("ShiftedLogGaussian.release(rounding)", lambda a: slg.release(a, 0, rounding=True)),
        ("AiryLogMechanism.release", lambda a: airy.release(a, 0)),
        ("ShiftedLogGaussian.v_array", slg.v_array),
        ("AiryLogMechanism.v_array", airy.v_array),
        ("calculator count_list", lambda a: count_list(list(a))),
        ("calculator guarantee", lambda a: budget.guarantee(0.05, 1, list(a))),
        ("log_likelihood_ratio", lambda a: zcdp.log_likelihood_ratio(*ratio_pair, a)),
    ]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=1, max_size=5), _BAD, st.integers(0, 10),
       st.integers(0, 8))
def test_bad_entries_are_refused_by_every_array_entry_point(good, bad, at, which):
    name, call = _array_entry_points()[which]
    if name == "log_likelihood_ratio" and bad < 0 and np.isfinite(bad):
        return  # a negative point is a legitimate argument of a log-likelihood ratio
    with pytest.raises(ValueError):
        call(_with_bad(good, bad, at))


_PATHS = st.sampled_from(["dir", "dir/", "missing/x.out"])
_COMMANDS = st.sampled_from([("budget", "--plot"), ("release", "--output"), ("release", "--guarantees")])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_PATHS, _COMMANDS)
def test_output_paths_are_refused_before_any_computation(tmp_path, kind, command):
    """A directory or a missing folder as an output file: exit 2, one line naming the flag,
    and the calculator never called (guarantee raises if it is)."""
    (tmp_path / "dir").mkdir(exist_ok=True)
    hist = tmp_path / "h.csv"
    hist.write_text("group,count\na,1\n")
    path = str(tmp_path / kind)
    cmd, flag = command
    base = ["budget", "--r0", "0.05", "--c", "1", "--n", "10"] if cmd == "budget" else \
        ["release", "--r0", "0.05", "--c", "1", "--input", str(hist)]

    def computed(*a, **k):
        raise AssertionError("computed before the output path was checked")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(budget, "guarantee", computed)
        code, out, err = run_main(base + [flag, path])
    assert code == 2 and out == "", (code, out, err)
    assert len(err.strip().splitlines()) == 1 and flag in err, err
    assert not (tmp_path / "dir.png").exists()
