"""countdp.arb.renyi_chord: D_alpha/alpha as a chord slope, the coefficient lemmas and the certified
location of the k-RR supremum."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from flint import arb, ctx

from _ball_reference import exact
from countdp import formulas
from countdp.arb.renyi_chord import (chord_coefficient, chord_kl, coefficient_tail, discrete_laplace_lemma,
                                     krr_family_lemma, krr_sup_bracket, krr_threshold_bracket, laplace_chord,
                                     laplace_family_lemma, two_point_sup_bracket)
from countdp.arb.verdicts import Verdict


def _b(mu, n):
    return [Fraction(mu(i)) / math.factorial(2 * i) for i in range(n + 1)]


def test_chord_coefficients_of_cosh_are_the_binary_closed_form():
    b = _b(lambda i: 1, 12)
    for N in range(2, 12):
        assert chord_coefficient(b, N) == Fraction(4 ** (N - 2), math.factorial(2 * N - 1))
    assert chord_coefficient(b, 1) == 0 and chord_coefficient(b, 0) == 0
    # k-RR with b = 3 > 2: T_2 = (2 - b)/12 < 0, the concavity fails at the origin
    assert chord_coefficient(_b(lambda i: 4 if i == 0 else 1, 4), 2) == Fraction(-1, 12)


def test_the_family_lemmas_hold_exactly():
    assert krr_family_lemma(25) is Verdict.PROVED_TRUE
    assert laplace_family_lemma(25) is Verdict.PROVED_TRUE


@pytest.mark.parametrize("Delta", [1, 2, 3, 10])
def test_discrete_laplace_lemma_and_its_coefficients(Delta):
    with ctx.workprec(128):
        res = discrete_laplace_lemma(Delta)
    assert res.verdict is Verdict.PROVED_TRUE and res.extra["N1"] >= 2
    # the coefficients the lemma decides are positive in exact arithmetic at m = 1 (eps -> inf)
    atoms = [Fraction(Delta - 2 * j, Delta) for j in range(1, Delta)]
    b = _b(lambda n: 2 + sum(a ** (2 * n) for a in atoms), 12)
    assert all(chord_coefficient(b, N) > 0 for N in range(2, 12))


def test_the_tail_bound_is_undecided_not_false_where_it_does_not_yet_hold():
    with ctx.workprec(64):
        assert coefficient_tail(2, 99, arb("0.98"), 3) is Verdict.UNDECIDED
        assert coefficient_tail(2, 99, arb("0.98"), 700) is Verdict.PROVED_TRUE


def test_the_tail_bound_needs_each_of_its_conditions():
    """(TAIL) has two parts: the size condition at N, and N past 1/(2 log(1/x)), where N x^(2N)
    starts to fall (x = (1 +- lam)/2, lam).  Each is tried failing alone; either failing leaves
    the tail undecided."""
    with ctx.workprec(64):
        lam = arb("0.99")                     # x = 0.995: N x^(2N) falls only from N = 100 on
        assert 1 / (2 * (1 / ((1 + lam) / 2)).log()) > 99
        # the size condition holds at N = 10 (10 (1e-3 (0.9 + ...) + 1e-6 ...) < 1/4) ...
        assert coefficient_tail(1, arb("1e-3"), lam, 10) is Verdict.UNDECIDED
        assert coefficient_tail(1, arb("1e-3"), lam, 70) is Verdict.UNDECIDED  # past lam's 50 only
        assert coefficient_tail(1, arb("1e-3"), lam, 200) is Verdict.PROVED_TRUE
        # ... and with lam = 0.5 (falling from N = 1 on) it alone decides
        assert coefficient_tail(1, arb("1e-3"), arb("0.5"), 10) is Verdict.PROVED_TRUE
        assert coefficient_tail(1, arb(10), arb("0.5"), 10) is Verdict.UNDECIDED
        # the size condition where it is tight: at N = 2, M_e = 1, lam = 1/2 it reads
        # 2 (M_i (3/4)^4 + M_i (1/4)^4 + M_i^2 (1/2)^4 / 2) < 1/4, i.e. M_i < 0.3764...
        assert coefficient_tail(1, arb("0.37"), arb("0.5"), 2) is Verdict.PROVED_TRUE
        assert coefficient_tail(1, arb("0.38"), arb("0.5"), 2) is Verdict.UNDECIDED


def test_chord_functions_match_the_library_closed_forms():
    with ctx.workprec(128):
        for eps in ("0.1", "1", "5"):
            z, kl = laplace_chord(3, eps)
            assert z.overlaps(2 * formulas.laplace_renyi.ball(3, eps)) and kl.overlaps(formulas.laplace_kl.ball(eps))
            for D in (1, 3, 10):
                m = formulas.discrete_laplace_chord_weight.ball(eps, D)
                masses = [arb(1)] + [m] * (D - 1) + [arb(1)]
                k = chord_kl(masses, [1 - arb(2 * j) / D for j in range(D + 1)], eps)
                assert k.overlaps(formulas.discrete_laplace_kl.ball(eps, D))


def _renyi_over_alpha(eps, k, alpha):
    """D_alpha/alpha of the k-RR pair straight from its pmf (mpmath, 50 digits)."""
    with mpmath.workdps(50):
        e, a = mpmath.mpf(eps), mpmath.mpf(alpha)
        d = mpmath.exp(e) + k - 1
        p, q = mpmath.exp(e) / d, 1 / d
        z = mpmath.log(p ** a * q ** (1 - a) + q ** a * p ** (1 - a) + (k - 2) * q)
        return z / (a * (a - 1))


@pytest.mark.parametrize("k, eps", [(7, "0.1"), (10, "1"), (20, "0.5")])
def test_the_k_rr_bracket_holds_the_supremum(k, eps):
    with ctx.workprec(128):
        br = krr_sup_bracket(eps, k)
    assert not br.at_one and br.verdict is Verdict.PROVED_TRUE
    lo, hi = br.alpha
    assert (hi - lo) < lo * arb(10) ** -12
    with mpmath.workdps(50), ctx.workprec(200):
        mid = (mpmath.mpf(lo.mid().str(40, radius=False)) + mpmath.mpf(hi.mid().str(40, radius=False))) / 2
        h = _renyi_over_alpha(eps, k, mid)
        # the curve at the bracket's midpoint is below the sup's upper end and within its width of the lower
        assert exact(h) < br.sup[1] and exact(h) > br.sup[0] - (br.sup[1] - br.sup[0])
        # below and above the bracket the curve is lower
        for f in ("0.99", "1.01"):
            assert _renyi_over_alpha(eps, k, mid * mpmath.mpf(f)) < h
    assert br.sup[0] > br.kl


def test_the_k_rr_sup_sits_at_one_in_the_claims_range_and_past_the_threshold():
    with ctx.workprec(128):
        assert krr_sup_bracket("0.01", 6).at_one and krr_sup_bracket("1", 7).at_one
        lo, hi = krr_threshold_bracket(7)
        assert hi - lo < arb(10) ** -8
        assert not krr_sup_bracket(lo * arb("0.999"), 7).at_one and krr_sup_bracket(hi * arb("1.001"), 7).at_one
        assert krr_threshold_bracket(6) is None   # no threshold: at alpha -> 1 for every eps


def _two_point_renyi_over_alpha(q, eta, alpha):
    """D_alpha(P||Q)/alpha of the two-point pair straight from its masses (mpmath, 50 digits)."""
    with mpmath.workdps(50):
        q, eta, a = mpmath.mpf(q), mpmath.mpf(eta), mpmath.mpf(alpha)
        c = -mpmath.log(1 - q + q * mpmath.exp(eta))
        p = q * mpmath.exp(c + eta)
        z = mpmath.log(p ** a * q ** (1 - a) + (1 - p) ** a * (1 - q) ** (1 - a))
        return z / (a * (a - 1))


def test_two_point_pairs_sit_at_one_for_the_worst_pair_and_move_for_a_lopsided_one():
    with ctx.workprec(128):
        for eta in ("0.1", "1", "5"):
            q, p = formulas.bounded_range_worst_q.ball(eta), formulas.bounded_range_worst_p.ball(eta)
            fwd = two_point_sup_bracket(q, eta)
            assert fwd.at_one and fwd.kl.overlaps(formulas.bounded_range_rho.ball(eta))
            assert two_point_sup_bracket(1 - p, eta).at_one
        br = two_point_sup_bracket("0.02", "1")
    assert not br.at_one and br.verdict is Verdict.PROVED_TRUE
    with mpmath.workdps(50), ctx.workprec(200):
        mid = mpmath.mpf(((br.alpha[0] + br.alpha[1]) / 2).mid().str(40, radius=False))
        h = _two_point_renyi_over_alpha("0.02", 1, mid)
        assert exact(h) < br.sup[1] and exact(h) > br.kl
        assert _two_point_renyi_over_alpha("0.02", 1, mid * mpmath.mpf("0.98")) < h
        assert _two_point_renyi_over_alpha("0.02", 1, mid * mpmath.mpf("1.02")) < h


def test_a_maximiser_just_above_alpha_one_is_still_bracketed():
    # just below k = 7's threshold eps_7 = 0.43674754...: alpha* = 1.0019..., within 1.25 v0 of v0
    with ctx.workprec(128):
        br = krr_sup_bracket("0.4367", 7)
    assert not br.at_one and br.verdict is Verdict.PROVED_TRUE
    assert br.alpha[0] > 1 and br.alpha[1] < arb("1.01") and br.sup[0] > br.kl


def test_the_discrete_laplace_lemma_decides_the_quadratic_itself(monkeypatch):
    """Each T_N(m) = A + B m + C m^2 is decided on [0, 1] as that quadratic: with coefficients
    A = -1, B = 0, C = 3 (negative near m = 0, positive near 1) no row is proved, so the lemma is
    not proved (a quadratic read as A + (B + C) m + 2 would be proved positive)."""
    from countdp.arb import renyi_chord

    cycle = [arb(-1), arb(0), arb(3)]    # the calls per N: A, B / 2, C
    calls = []

    def fake(x, y, N):
        calls.append(N)
        return cycle[(len(calls) - 1) % 3]

    monkeypatch.setattr(renyi_chord, "_bilinear", fake)
    res = renyi_chord.discrete_laplace_lemma(3)
    assert calls and res.verdict is not Verdict.PROVED_TRUE


def test_the_discrete_laplace_lemma_refuses_what_it_cannot_decide():
    """Delta < 1 is no shift (ValueError); a search for (TAIL)'s start capped below the N where it
    holds is Undecided, never a PROOF."""
    from countdp.arb.verdicts import Undecided

    with pytest.raises(ValueError, match="Delta must be >= 1"):
        discrete_laplace_lemma(0)
    with pytest.raises(Undecided, match=r"\(TAIL\) does not hold below N = 2"):
        discrete_laplace_lemma(5, n_max=2)


def test_every_k_rr_outcome_carries_the_kl_end_even_undecided():
    """kl, the alpha -> 1 end, is KL(P||Q) = eps (e^eps - 1)/(e^eps + k - 1) whichever way the
    bracket ends: at one (0.01, k = 6), at a finite order (1, k = 10), and UNDECIDED for an eps
    ball straddling k = 7's threshold (where the sign of P_b(eps/2) is not decided)."""
    with ctx.workprec(128):
        lo, hi = krr_threshold_bracket(7)
        straddle = arb((lo + hi) / 2) + arb(0, (hi - lo).mid() * 2)
        for eps, k, verdict in ((arb("0.01"), 6, Verdict.PROVED_TRUE), (arb(1), 10, Verdict.PROVED_TRUE),
                                (straddle, 7, Verdict.UNDECIDED)):
            br = krr_sup_bracket(eps, k)
            assert br.verdict is verdict
            kl = eps * (eps.exp() - 1) / (eps.exp() + k - 1)
            assert br.kl.overlaps(kl) and br.kl.rad() < 1e-6 * kl.mid(), (eps, k, br.kl, kl)
        assert not br.at_one and br.alpha == () and br.sup == ()
