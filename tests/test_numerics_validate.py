"""countdp.numerics.validate, the validation layer, and the public entry points that use it.

* The table of bad inputs (tests/_bad_inputs.py): each row, tried as a new user would, must be
  refused with a ValueError/TypeError naming the parameter, or return a finite value -- never
  another exception, a hang, or an inf/0.0/NaN standing in for a number.
* The helpers themselves (real, count, counts, rng, size, to_float, floats).
* Property tests: arbitrary values (NaN, +-inf, 0, negatives, huge and tiny magnitudes, numpy
  scalar types, mpmath numbers, strings, None, bools, lists, complex) in every parameter slot of
  the public API; each call returns a finite value of the documented type or raises
  ValueError/TypeError whose message names the parameter, within a timeout.
"""

from __future__ import annotations

import math
import signal

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _bad_inputs import CASES, Hang, judge
from countdp import laws
from countdp.divergence import renyi as renyi_mod
from countdp.divergence import tight_rho as tight_mod
from countdp.divergence import profile, zcdp
from countdp.laws import expectation
from countdp.laws.reference import Laplace
from countdp.mechanisms import ShiftedLogGaussian
from countdp.mechanisms.log_laplace import LogLaplaceMechanism
from countdp.numerics import validate
from countdp.numerics.messages import quoted
from countdp.numerics.montecarlo import mc_mean

pytestmark = pytest.mark.mp_dps(30)


# ---------------------------------------------------------------------------------------------
# The table of bad inputs
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind, names, call", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_table(kind, names, call):
    ok, what = judge(kind, names, call, timeout=60)
    assert ok, what


# ---------------------------------------------------------------------------------------------
# The helpers
# ---------------------------------------------------------------------------------------------


def test_parameter_type_error_is_both():
    with pytest.raises(TypeError, match="^r0 must be a real number"):
        validate.real("r0", "0.1")
    with pytest.raises(ValueError, match="^r0 must be a real number"):
        validate.real("r0", None)
    assert issubclass(validate.ParameterTypeError, TypeError)
    assert issubclass(validate.ParameterTypeError, ValueError)


def test_real_takes_numpy_scalars_as_python_numbers():
    x = validate.real("x", np.float32(0.5), lo=0, hi=1)
    assert type(x) is float and x == 0.5
    assert type(validate.real("x", np.int64(3))) is int
    assert mpmath.mpf(validate.real("x", np.float16(0.25))) == mpmath.mpf("0.25")
    for bad in (True, np.bool_(True), 1 + 2j, [1.0], "1"):
        with pytest.raises(validate.ParameterTypeError, match="^x must be a real number"):
            validate.real("x", bad)
    with pytest.raises(ValueError, match=r"^x must lie in \(0, 1\], got 2.0"):
        validate.real("x", 2.0, lo=0, hi=1, hi_open=False)
    with pytest.raises(ValueError, match="got NaN"):
        validate.real("x", mpmath.mpf("nan"))
    with pytest.raises(ValueError, match="must be finite"):
        validate.real("x", -math.inf)


def test_count():
    assert validate.count("n", 3.0) == 3 and validate.count("n", np.uint8(7)) == 7
    assert validate.count("n", 10**400) == 10**400
    for bad in (-1, 1.5, math.nan, math.inf, mpmath.mpf("inf")):
        with pytest.raises(ValueError, match="^n must be an integer >= 0"):
            validate.count("n", bad)
    with pytest.raises(validate.ParameterTypeError, match="^n must be an integer >= 0"):
        validate.count("n", "3")
    with pytest.raises(ValueError, match=r"^draws must be an integer in \[2, 10\]"):
        validate.count("draws", 11, lo=2, hi=10)


@pytest.mark.parametrize("arr, message", [
    ([1e300], "too large for int64"),
    ([10**30], "too large for int64"),
    ([2**63], "too large for int64"),
    (np.array([2**64 - 1], dtype=np.uint64), "too large for int64"),
    ([math.inf], "too large for int64"),
    ([-1], "negative count -1"),
    ([-1.0], "negative count"),
    ([1.5], "fraction 1.5"),
    ([math.nan], "NaN"),
    ([[1, 2], [3]], "rectangular"),
])
def test_counts_name_the_true_reason(arr, message):
    with pytest.raises(ValueError, match=r"^n must hold integers in \[0, 2\^63 - 1\]") as e:
        validate.counts("n", arr)
    assert message in str(e.value)


def test_counts_types():
    for bad in (None, "3", ["a"], [True], [1 + 1j], {"a": 1}):
        with pytest.raises(validate.ParameterTypeError, match="^n must hold integers"):
            validate.counts("n", bad)
    a = validate.counts("n", [[0, 2**62], [3.0, np.int8(4)]])
    assert a.dtype == np.int64 and a.tolist() == [[0, 2**62], [3, 4]]
    assert validate.counts("n", []).shape == (0,)
    # object arrays: Python integers kept exactly (2^63 - 1 is the largest), mixed entries as floats
    a = validate.counts("n", np.array([[3, 2**63 - 1]], dtype=object))
    assert a.dtype == np.int64 and a.tolist() == [[3, 2**63 - 1]]
    assert validate.counts("n", np.array([1, 2.0], dtype=object)).tolist() == [1, 2]
    for bad, words in (([1.0, 10**400], "an entry is too large for int64"),
                       (np.array([-2, 5], dtype=object), "negative count -2"),
                       (np.array([5, 2**63], dtype=object), "is too large for int64")):
        with pytest.raises(ValueError, match=words):
            validate.counts("n", bad)


def test_rng():
    g = np.random.default_rng(1)
    assert validate.rng(g) is g
    assert isinstance(validate.rng(None), np.random.Generator)
    a = validate.rng(7).random(3)
    assert np.array_equal(a, np.random.default_rng(7).random(3))
    assert np.array_equal(validate.rng(np.int64(7)).random(3), a)
    with pytest.raises(ValueError, match="^rng must be .* got the seed -1"):
        validate.rng(-1)
    for bad in ("7", 1.5, np.random.RandomState(0), True):
        with pytest.raises(validate.ParameterTypeError, match="^rng must be a numpy.random.Generator, "
                                                             "an integer seed >= 0 or None"):
            validate.rng(bad)


def test_size():
    assert validate.size(3) == 3 and validate.size((2, 3)) == (2, 3) and validate.size([0]) == (0,)
    for bad in (-1, (2, -3), 1.5, 10**9, (10**5, 10**5)):
        with pytest.raises(ValueError, match="^size must be an integer >= 0"):
            validate.size(bad)
    with pytest.raises(validate.ParameterTypeError, match="^size"):
        validate.size(None)


def test_to_float_refuses_what_float64_cannot_hold():
    assert validate.to_float("v", mpmath.mpf("1.5"), "hint") == 1.5
    assert validate.to_float("v", 0, "hint") == 0.0
    with pytest.raises(ValueError, match=r"^v = 1.0e\+598 is above the float64 range; use mp_v"):
        validate.to_float("v", mpmath.mpf("1e598"), "use mp_v")
    with pytest.raises(ValueError, match=r"^v = 1.0e-800 is below the float64 range"):
        validate.to_float("v", mpmath.mpf("1e-800"), "use mp_v")
    with pytest.raises(ValueError, match="below the float64 range"):  # a subnormal lost digits
        validate.to_float("v", mpmath.mpf("1e-310"), "use mp_v")
    with pytest.raises(ValueError, match="^v is nan"):
        validate.to_float("v", mpmath.mpf("nan"), "use mp_v")


def test_floats():
    a = validate.floats("v", np.array([1.0, 2.0]), "hint")
    assert a.tolist() == [1.0, 2.0]
    # an exact 0 and the smallest normal number are in range, a subnormal of either sign is not
    tiny = float(np.finfo(float).tiny)
    assert validate.floats("v", np.array([0.0, -0.0, tiny, -tiny, 1.0]), "hint").tolist() == [0.0, -0.0, tiny, -tiny, 1.0]
    with pytest.raises(ValueError, match="index 1"):
        validate.floats("v", np.array([1.0, -tiny / 2]), "hint")
    with pytest.raises(ValueError, match=r"^v at index 1 is outside the float64 range \(inf\); hint"):
        validate.floats("v", np.array([1.0, np.inf]), "hint")
    with pytest.raises(ValueError, match="index 0"):
        validate.floats("v", np.array([0.0]), "hint", zero_ok=False)
    with pytest.raises(ValueError, match="index"):
        validate.floats("v", np.array([5e-324]), "hint")


def test_reals_and_choice():
    assert validate.reals("x", [1, 2.5]).tolist() == [1.0, 2.5]
    with pytest.raises(ValueError, match=r"^alpha must lie in \(1, inf\), got 0.5"):
        validate.reals("alpha", [2, 0.5], lo=1)
    with pytest.raises(validate.ParameterTypeError, match="^x must be an array of real numbers"):
        validate.reals("x", ["a"])
    # an object array: each entry checked as a real number, mpmath numbers included
    assert validate.reals("x", np.array([1, mpmath.mpf("0.5")], dtype=object)).tolist() == [1.0, 0.5]
    with pytest.raises(validate.ParameterTypeError, match="^x must be a real number"):
        validate.reals("x", np.array([1, "a"], dtype=object))
    with pytest.raises(ValueError, match=r"^x must be finite and within the float64 range"):
        validate.reals("x", np.array([1, mpmath.mpf(10) ** 400], dtype=object))
    with pytest.raises(ValueError, match="^method must be one of 'a', 'b', got 'c'"):
        validate.choice("method", "c", ("a", "b"))


# ---------------------------------------------------------------------------------------------
# Float range: what each float accessor does at the edges (documented in their docstrings)
# ---------------------------------------------------------------------------------------------


def test_shifted_log_gaussian_float_range():
    m = ShiftedLogGaussian(1e-300, 1)
    exact = m.mp_v(10)
    assert mpmath.mpf("1e597") < exact < mpmath.mpf("1e599")  # 1.157e598
    with pytest.raises(ValueError, match=r"^v\(10\) for r0 = 1e-300, c = 1 = 1.15661e\+598 is above the "
                                         r"float64 range; mp_v\(n\) returns it at full precision"):
        m.v(10)
    with pytest.raises(ValueError, match="mp_v"):
        m.v_array([1, 10])
    big = ShiftedLogGaussian(0.1, 1)
    assert big.mp_v(10**400) > 0
    with pytest.raises(ValueError, match="below the float64 range"):
        big.v(10**400)
    assert big.v(10**150) == float(big.mp_v(10**150))  # the last decades that fit are returned
    tiny = ShiftedLogGaussian(mpmath.mpf("1e-400"), 1)
    with pytest.raises(ValueError, match=r"^sigma for r0 = .* is below the float64 range; mp_sigma\(\)"):
        tiny.sigma
    assert tiny.mp_sigma() > 0


def test_v_array_with_a_tiny_sigma_is_rounded_from_mpmath():
    """2 sigma^2 underflows to a subnormal inside the float64 formula for sigma < 1e-154: the
    array is then rounded entry by entry from the mpmath value (before: 3 correct digits)."""
    m = ShiftedLogGaussian(1e-160, 1)
    ns = [10**10, 10**12]
    got = m.v_array(ns)
    assert got.tolist() == [float(m.mp_v(n)) for n in ns]


# ---------------------------------------------------------------------------------------------
# Property tests over the public API
# ---------------------------------------------------------------------------------------------

ANY = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-10**30, max_value=10**30),
    st.sampled_from([0, -0.0, 1e-300, 5e-324, 1e308, -1e308, 10**400, -10**400, 2**63, 2**64,
                     0.5, 2, 1.0000001]),
    st.floats(width=32, allow_nan=True).map(np.float32),
    st.floats(width=16, allow_nan=True).map(np.float16),
    st.integers(-2**31, 2**31 - 1).map(np.int64),
    st.sampled_from([mpmath.mpf("1e-400"), mpmath.mpf("1e400"), mpmath.mpf("nan"),
                     mpmath.mpf("-inf"), mpmath.mpf("0.25")]),
    st.text(max_size=4),
    st.none(),
    st.booleans(),
    st.just([1, 2]),
    st.just(1 + 2j),
    st.just(np.random.RandomState(0)),
)


def _gauss():
    return laws.Gaussian(0, 1), laws.Gaussian(1, 1)


def _lsg():
    return laws.LogShiftedGaussian(0, 0.5, 1), laws.LogShiftedGaussian(0.2, 0.5, 1)


FLOAT, MPF, ARRAY, OBJ, NUMBER = float, mpmath.mpf, np.ndarray, object, (float, int, mpmath.mpf)

#: (id, names a refusal must mention (any of), documented result type, call with the value x)
TARGETS = [
    ("SLG(r0=x).sigma", ("r0",), FLOAT, lambda x: ShiftedLogGaussian(x, 1).sigma),
    ("SLG(r0=x).v(10)", ("r0",), FLOAT, lambda x: ShiftedLogGaussian(x, 1).v(10)),
    ("SLG(r0=x).mp_v(10)", ("r0",), MPF, lambda x: ShiftedLogGaussian(x, 1).mp_v(10)),
    ("SLG(c=x).v(3)", ("c", "r0"), FLOAT, lambda x: ShiftedLogGaussian(0.1, x).v(3)),
    ("SLG(c=x).mp_v(3)", ("c",), MPF, lambda x: ShiftedLogGaussian(0.1, x).mp_v(3)),
    ("SLG(r=x)", ("r",), OBJ, lambda x: ShiftedLogGaussian(0.01, 1, r=x)),
    ("SLG(drift_factor=x)", ("drift_factor",), OBJ, lambda x: ShiftedLogGaussian(0.1, 1, drift_factor=x)),
    ("SLG.v(x)", ("n",), FLOAT, lambda x: ShiftedLogGaussian(0.1, 1).v(x)),
    ("SLG.mp_v(x)", ("n",), MPF, lambda x: ShiftedLogGaussian(0.1, 1).mp_v(x)),
    ("SLG.v_array([x])", ("n",), ARRAY, lambda x: ShiftedLogGaussian(0.1, 1).v_array([x])),
    ("SLG.v_array(x)", ("n",), ARRAY, lambda x: ShiftedLogGaussian(0.1, 1).v_array(x)),
    ("SLG.error_bound(x)", ("n",), MPF, lambda x: ShiftedLogGaussian(0.1, 1).error_bound(x)),
    ("SLG.log_mean(x)", ("n",), MPF, lambda x: ShiftedLogGaussian(0.1, 1).log_mean(x)),
    ("SLG.released_law(x)", ("n",), OBJ, lambda x: ShiftedLogGaussian(0.1, 1).released_law(x)),
    ("SLG.release([3, 0], rng=x)", ("rng",), ARRAY, lambda x: ShiftedLogGaussian(0.1, 1).release([3, 0], x)),
    ("SLG.release([x], rng)", ("counts",), ARRAY,
     lambda x: ShiftedLogGaussian(0.1, 1).release([x], np.random.default_rng(0))),
    ("LogLaplace(r0=x).v(3)", ("r0",), FLOAT, lambda x: LogLaplaceMechanism(x, 1).v(3)),
    ("LogLaplace.v_array([x])", ("n",), ARRAY, lambda x: LogLaplaceMechanism(0.1, 1).v_array([x])),
    ("Gaussian(mu=x, 1)", ("mu",), OBJ, lambda x: laws.Gaussian(x, 1)),
    ("Gaussian(0, s=x)", ("s",), OBJ, lambda x: laws.Gaussian(0, x)),
    ("Gaussian.sample(x, 3)", ("rng",), ARRAY, lambda x: laws.Gaussian(0, 1).sample(x, 3)),
    ("Gaussian.sample(rng, x)", ("size",), ARRAY,
     lambda x: laws.Gaussian(0, 1).sample(np.random.default_rng(0), x)),
    ("LogShiftedGaussian(0, 1, c=x)", ("c",), OBJ, lambda x: laws.LogShiftedGaussian(0, 1, x)),
    ("PointMass(x)", ("x",), OBJ, lambda x: laws.PointMass(x)),
    ("Laplace(0, b=x)", ("b",), OBJ, lambda x: Laplace(0, x)),
    ("ClippedAtZero(x)", ("base",), OBJ, lambda x: laws.ClippedAtZero(x)),
    ("renyi(Gaussians, alpha=x)", ("alpha",), OBJ, lambda x: renyi_mod.renyi(*_gauss(), x)),
    ("renyi(log-shifted, alpha=x)", ("alpha",), OBJ, lambda x: renyi_mod.renyi(*_lsg(), x)),
    ("renyi(P=x)", ("P",), OBJ, lambda x: renyi_mod.renyi(x, _gauss()[1], 2)),
    ("kl(P, Q=x)", ("Q",), OBJ, lambda x: renyi_mod.kl(_gauss()[0], x)),
    ("gaussian_renyi(alpha=x)", ("alpha",), OBJ, lambda x: renyi_mod.gaussian_renyi(x, 0, 1, 1, 1)),
    ("gaussian_renyi(s_p=x)", ("s_p",), OBJ, lambda x: renyi_mod.gaussian_renyi(2, 0, x, 0, 1)),
    ("zcdp_to_approx_dp(rho=x)", ("rho",), MPF, lambda x: zcdp.zcdp_to_approx_dp(x, 1e-6)),
    ("zcdp_to_approx_dp(delta=x)", ("delta",), MPF, lambda x: zcdp.zcdp_to_approx_dp(1, x)),
    ("cks_delta(rho=x)", ("rho",), MPF, lambda x: zcdp.cks_delta(x, 1)),
    ("cks_eps(1, delta=x)", ("delta",), MPF, lambda x: zcdp.cks_eps(1, x)),
    ("gaussian_hockey_stick(mu=x)", ("mu",), MPF, lambda x: profile.gaussian_hockey_stick(x, 1)),
    ("gaussian_hockey_stick(eps=x)", ("eps",), MPF, lambda x: profile.gaussian_hockey_stick(1, x)),
    ("gaussian_eps_of_delta(mu=x)", ("mu",), MPF, lambda x: profile.gaussian_eps_of_delta(x, 0.1)),
    ("hockey_stick(Gaussians, eps=x)", ("eps",), OBJ, lambda x: profile.hockey_stick(*_gauss(), x)),
    ("tight_rho(Gaussians, alpha_min=x)", ("alpha_min", "alpha_max"), OBJ,
     lambda x: tight_mod.tight_rho(_gauss(), alpha_min=x, refine=False, precise=False)),
    ("tight_rho(Gaussians, alpha_max=x)", ("alpha_max",), OBJ,
     lambda x: tight_mod.tight_rho(_gauss(), alpha_max=x, refine=False, precise=False)),
    ("tight_rho(Gaussians, alpha_min=1 + x)", ("alpha_min", "alpha_max"), OBJ,
     lambda x: tight_mod.tight_rho(_gauss(), alpha_min=1 + x, refine=False, precise=False)
     if isinstance(x, (int, float)) and not isinstance(x, bool) else None),
    ("tight_rho(Gaussians, rel_tol=x)", ("rel_tol",), OBJ,
     lambda x: tight_mod.tight_rho(_gauss(), rel_tol=x, refine=False, precise=False)),
    ("mp_renyi(Gaussians, alpha=x)", ("alpha",), OBJ, lambda x: tight_mod.mp_renyi(*_gauss(), x)),
    ("mc_abs_error(law, n=x)", ("n",), OBJ,
     lambda x: expectation.mc_abs_error(_gauss()[0], x, np.random.default_rng(0), draws=100)),
    ("mc_abs_error(law, 1, rng=x)", ("rng",), OBJ,
     lambda x: expectation.mc_abs_error(_gauss()[0], 1, x, draws=100)),
    ("mc_mean(draws=x)", ("draws",), OBJ,
     lambda x: mc_mean(lambda g, m: g.random(m), np.random.default_rng(0), draws=x)),
]


def _finite_of_type(out, typ) -> str | None:
    """None if ``out`` is a finite value of the documented type, else what is wrong."""
    if typ is OBJ:
        value = getattr(out, "value", None)
        if isinstance(value, (float, mpmath.mpf)) and not mpmath.isfinite(value) and \
                getattr(out, "reason", None) is None:
            return f"a non-finite value without a reason: {out!r:.80}"
        return None
    if not isinstance(out, typ):
        return f"type {type(out).__name__}, documented {typ}"
    if isinstance(out, np.ndarray):
        return None if out.dtype.kind in "iu" or np.all(np.isfinite(out)) else f"non-finite {out!r:.80}"
    return None if mpmath.isfinite(out) else f"non-finite {out!r}"


@pytest.mark.parametrize("names, typ, call", [t[1:] for t in TARGETS], ids=[t[0] for t in TARGETS])
@settings(max_examples=35)
@given(x=ANY)
@pytest.mark.slow
def test_public_api_refuses_or_returns_finite(names, typ, call, x):
    def alarm(signum, frame):
        raise Hang("no answer within 30 s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, 30)
    try:
        out = call(x)
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        assert any(n in msg for n in names), f"{type(exc).__name__} for {x!r} does not name {names}: {msg}"
        return
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    wrong = _finite_of_type(out, typ)
    assert wrong is None, f"for {x!r}: {wrong}"


def test_release_with_a_huge_shift_keeps_the_count():
    """(n+c) e^W - c cancelled the count away in float64 when c >> n (c = 1e300 released 0 or
    multiples of 1e284); x + (x+c) expm1(W) keeps it: the noise sd is about (n+c) sigma = 0.125."""
    y = ShiftedLogGaussian(0.1, 1e300).release(np.full(20000, 5), np.random.default_rng(3), clip=False)
    assert abs(np.mean(y) - 5) < 0.01 and 0.1 < np.std(y) < 0.15


def test_a_message_shows_the_value_given_in_its_own_form():
    """Integers as written (huge ones to 6 digits), floats by repr, mpmath numbers to 15 digits,
    a short fraction as a/b and a long one (over 40 characters) to 6 digits, anything else by repr."""
    from fractions import Fraction

    shown = [validate._show(x) for x in (12, np.int64(5), 10 ** 15, 10 ** 15 + 1, 2.5, np.float32(0.5),
                                         mpmath.mpf(1) / 3, Fraction(7, 3), Fraction(10 ** 50 + 1, 3),
                                         Fraction(1, 3 * 10 ** 50 + 1), "a", None)]
    assert shown == ["12", "5", "1000000000000000", "1.0e+15", "2.5", "0.5", "0.333333333333333", "7/3", "3.33333e+49",
                     "3.33333e-51", "'a'", "None"]
    with pytest.raises(ValueError, match=r"^r0 must lie in \(0, 1\), got 7/3$"):
        validate.real("r0", Fraction(7, 3), lo=0, hi=1)


def test_a_message_quotes_at_most_forty_characters_of_a_value():
    """A string is cut before quoting (the quotes stay), anything else after its repr."""
    assert quoted("abc") == "'abc'"
    assert quoted("x" * 41) == repr("x" * 40) and quoted("x" * 40) == repr("x" * 40)
    assert quoted(list(range(30))) == repr(list(range(30)))[:40] and len(quoted(list(range(30)))) == 40
    assert quoted(1.5) == "1.5"
    with pytest.raises(ValueError) as err:
        validate.choice("method", "y" * 100, ("a", "b"))
    assert str(err.value).endswith(f"got {repr('y' * 40)}")
