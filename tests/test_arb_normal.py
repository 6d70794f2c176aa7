"""countdp.arb.normal: the certified normal quantile by monotone bracketing."""

from __future__ import annotations

import mpmath
import pytest
from flint import arb, ctx, fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from _ball_reference import DPS, contains, mpq
from countdp import formulas
from countdp.arb.normal import normal_quantile
from countdp.arb.verdicts import Undecided
from countdp.numerics.contexts import ball


pytestmark = pytest.mark.mp_dps(DPS)


@pytest.mark.parametrize("prec", [53, 120])
@pytest.mark.parametrize("p", [fmpq(1, 2), fmpq(9, 16), fmpq(1, 1000), fmpq(999, 1000),
                               fmpq(1, 10**30), fmpq(3, 7)])
def test_quantile_contains_mpmath(p, prec):
    with ctx.workprec(prec):
        q = normal_quantile(p)
        assert q.rad() < arb(2) ** (-prec + 12) * max(1, abs(float(q.mid())))
        pm = mpq(p)
        # reference: root of ncdf(x) = p (erfinv(2p - 1) loses digits when p is tiny)
        ref = mpmath.findroot(lambda x: mpmath.ncdf(x) - pm, mpmath.sqrt(2) * mpmath.erfinv(2 * pm - 1))
        assert contains(q, ref)
        # Phi of the bracket contains p (monotone bracket certificate)
        assert ball.ncdf(q).contains(arb(p)) or ball.ncdf(q).overlaps(arb(p))


def test_quantile_of_a_ball_contains_all_inverses():
    q = normal_quantile(arb("0.3 +/- 0.01"))
    for p in ("0.29", "0.3", "0.31"):
        assert contains(q, mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(p) - 1))
    assert q.rad() < 0.03


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=10**6 - 1))
def test_quantile_roundtrip(k):
    p = fmpq(k, 10**6)
    q = normal_quantile(p)
    assert ball.ncdf(q).overlaps(arb(p))
    assert contains(q, mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(k) / 10**6 - 1))


def test_quantile_overlaps_the_erfinv_evaluation_of_eq3():
    for r0, c in ((fmpq(1, 4), 1), (fmpq(1, 100), fmpq(1, 2)), (fmpq(9, 10), 3)):
        q = normal_quantile(arb(fmpq(1, 2) + r0 / (2 * (1 + fmpq(c)))))
        assert q.overlaps(formulas.sigma.ball(r0, c))


@pytest.mark.parametrize("p", [0, 1, fmpq(3, 2), fmpq(-1, 2), arb(1).union(arb("0.9"))])
def test_quantile_outside_the_unit_interval_is_undecided(p):
    """Refused at once, saying why (not after a search that cannot certify a bracket)."""
    with pytest.raises(Undecided, match="needs 0 < p < 1 decided"):
        normal_quantile(p)


def test_the_quantile_bracket_is_certified_on_both_sides(monkeypatch):
    """Both ends of the bracket are decided: with a Newton start that lands above the root
    (shifted by +0.5) the bracket must widen until Phi(lo) < p is proved, below it (-0.5) until
    Phi(hi) > p is; either way the ball still contains Phi^{-1}(p)."""
    from countdp.arb import normal as arb_normal

    real = arb_normal._approximate_quantile
    for shift in ("0.5", "-0.5"):
        monkeypatch.setattr(arb_normal, "_approximate_quantile", lambda pm, s=shift: real(pm) + arb(s))
        with mpmath.workdps(40):
            for p in ("0.3", "0.9", "1e-6"):
                q = normal_quantile(arb(p), prec=120)
                truth = mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(p) - 1)
                assert contains(q, truth), (shift, p, q, truth)
