"""countdp.arb.airy_score: the certified strict sub-Gaussianity of the Airy score."""

from __future__ import annotations

import mpmath
import pytest
from flint import arb, ctx

from _ball_reference import exact, record_bisections
from countdp import formulas
from countdp.arb.airy_score import (certify_score_subgaussian, large_alpha_bound, moment_tail, quadrature_tail,
                                    score_moment_enclosure, TAIL_CONDITIONS)
from countdp.arb.airy import certified_prime_zero
from countdp.arb.verdicts import Undecided, Verdict
from countdp.laws import airy


@pytest.fixture(scope="module")
def certificate():
    return certify_score_subgaussian(k_quad=6, prec=64)


def test_the_certificate_is_proved_and_its_ratios_contain_the_quadrature(certificate):
    assert certificate.verdict is Verdict.PROVED_TRUE
    assert [m.k for m in certificate.moments] == list(range(1, 7)) and certificate.tail.K == 7
    with mpmath.workdps(30):
        for m in certificate.moments[1:4]:
            assert m.ratio.contains(exact(airy.score_moment_ratio(m.k, 30)))
    assert certificate.moments[0].moment.contains(certificate.fisher)
    assert certificate.seconds > 0
    names = [it["name"] for it in certificate.items()]
    assert len(names) == 8 and all(it["verdict"] is Verdict.PROVED_TRUE for it in certificate.items())


def test_each_certified_item_states_what_it_proves(certificate):
    """The report's rows: k = 1 is the Fisher information, k >= 2 the moment bound with its
    double factorial, then the tail over all larger k."""
    items = certificate.items()
    assert [it["name"] for it in items] == (["a1' and Ai > 0 on [a1', inf)"]
                                            + [f"score moment k = {k}" for k in range(1, 7)]
                                            + ["score moments k >= 7"])
    assert items[1]["statement"].startswith("E s^2 encloses I = 4|a1'|/3 (the k = 1 term is the Fisher")
    assert items[2]["statement"].startswith("E s^4 < 3!! I^2: ratio below 1")
    assert items[6]["statement"].startswith("E s^12 < 11!! I^6: ratio below 1")
    assert all(it["statement"].endswith("plus the proven tail (R4)") for it in items[1:7])
    assert items[7]["statement"].startswith(f"(R5) at x1 = {certificate.tail.x1}: every ratio with k >= 7")
    same = lambda x, y: x.mid() == y.mid() and x.rad() == y.rad()  # noqa: E731
    balls = [certificate.a1p] + [m.ratio for m in certificate.moments] + [certificate.tail.bound]
    assert all(same(it["ball"], ball) for it, ball in zip(items, balls, strict=True))


def test_the_cgf_bracket_holds_the_quadrature_value_and_lies_below_the_bound(certificate):
    with ctx.workprec(64):
        for u in ("0.01", "1", "10"):
            lo, hi = certificate.cgf_bracket(u)
            with mpmath.workdps(30):
                k = airy.score_cgf(mpmath.mpf(u), 30)
            assert lo < exact(k) < hi
            assert hi < certificate.fisher * arb(u) ** 2 / 2


def test_the_quadrature_tail_is_small_and_refuses_too_short_a_cutoff():
    with ctx.workprec(64):
        assert quadrature_tail(3, 8) < arb(10) ** -12 and quadrature_tail(3, 10) < arb(10) ** -17
        with pytest.raises(Undecided):
            quadrature_tail(30, 2)
        a = certified_prime_zero()
        m2 = score_moment_enclosure(2, a)
    with mpmath.workdps(30):
        assert m2.contains(exact(airy.score_moment(2, 30)))


def test_a_cutoff_too_short_for_the_moment_is_raised_until_the_tail_bound_applies():
    """(R4) needs p/W < 4/3, p = (2k - 1)/3, W = T^(3/2): the enclosure raises T to
    ceil((k/2 + 2)^(2/3)) when the cutoff is shorter.  At k = 10 and cutoff 2 that is T = 4
    (p/W = 0.79); T = 2 would leave p/W = 2.24 and (R4) undecided."""
    with ctx.workprec(64):
        a = certified_prime_zero()
        with pytest.raises(Undecided):
            quadrature_tail(10, 2)
        m10 = score_moment_enclosure(10, a, cutoff=2)
        assert m10.rad() < 0.1 * abs(m10.mid())        # the short cutoff costs width, not soundness
    with mpmath.workdps(30):
        assert m10.contains(exact(airy.score_moment(10, 30)))


def test_the_moment_tail_needs_k_large_enough_and_never_disproves():
    with ctx.workprec(64):
        a = certified_prime_zero()
        tail = moment_tail(7, a)
        assert tail.verdict is Verdict.PROVED_TRUE
        # the bound the cgf bracket adds and the report shows is (R5)'s T1 + T2, the sum the
        # verdict decided below 1 (0.69; a smaller ball such as T1 / T2 = 0.22 is not proved)
        total = tail.T1 + tail.T2
        assert tail.bound.mid() == total.mid() and tail.bound.rad() == total.rad()
        assert 0.68 < tail.bound < 0.7
        assert moment_tail(2, a).verdict is Verdict.UNDECIDED      # T1 + T2 > 1 there: not a disproof
        assert moment_tail(7, a, x1=1).verdict is Verdict.UNDECIDED   # z1 too small for s^2 <= 4x


def test_each_condition_of_the_moment_tail_is_decided_as_its_inequality_reads():
    """(R5)'s conditions against the same inequalities in mpmath at 30 digits (s1 = s(x1) from
    mpmath's Airy functions, I = 4|a1'|/3): at x1 = 2, s1^2/I = 4.02, so 'T1 nonincreasing'
    (s1^2 / (I (2K + 1)) <= 1) holds from K = 2 on, and a ratio with K + 1 for 2K + 1 would
    hold from K = 4 only; likewise 'T2 nonincreasing' (4 (K + 1) / (s1 I (2K + 1)) <= 1)."""
    with mpmath.workdps(30):
        a = mpmath.airyaizero(1, derivative=1)
        z1 = 2 + a
        s1 = -2 * mpmath.airyai(z1, derivative=1) / mpmath.airyai(z1)
        I = 4 * abs(a) / 3
        assert 4 < s1 ** 2 / I < 4.05
    with ctx.workprec(64):
        a_ball = certified_prime_zero()
        for K in range(1, 8):
            tail = moment_tail(K, a_ball)
            assert list(tail.conditions) == list(TAIL_CONDITIONS)
            expected = {"x1 + a1' > 0": z1 > 0,
                        "T1 nonincreasing from K": s1 ** 2 / (I * (2 * K + 1)) <= 1,
                        "T2 nonincreasing from K": 4 * (K + 1) / (s1 * I * (2 * K + 1)) <= 1}
            for name, holds in expected.items():
                assert tail.conditions[name] is (Verdict.PROVED_TRUE if holds else Verdict.PROVED_FALSE), (K, name)
        assert moment_tail(2, a_ball).conditions["T1 nonincreasing from K"] is Verdict.PROVED_TRUE


def test_the_large_alpha_bound_is_the_sub_gaussian_constant_times_a_over_a_minus_one():
    with ctx.workprec(64):
        b = large_alpha_bound("0.1", 11)
        I = formulas.airy_fisher.ball(certified_prime_zero())
        assert b.overlaps(I * arb("0.01") / 2 * arb(11) / 10)
        with pytest.raises(Undecided):
            large_alpha_bound("0.1", 1)


def test_a_moment_ratio_above_one_is_disproved_not_proved(monkeypatch):
    """The bound of the k = 2 moment made 0.6 times its size: its ratio (about 1.26) is above 1,
    so the item is disproved and the certificate not proved (the ratio is compared with 1)."""
    bound = formulas.airy_score_moment_bound
    real = bound.ball
    monkeypatch.setattr(bound, "ball", lambda k, a: real(k, a) * (arb("0.6") if k == 2 else 1))
    c = certify_score_subgaussian(k_quad=3, prec=64)
    assert c.moments[1].verdict is Verdict.PROVED_FALSE and c.moments[2].verdict is Verdict.PROVED_TRUE
    assert c.verdict is not Verdict.PROVED_TRUE


def test_ai_positive_from_decides_every_box_of_the_range_it_states(monkeypatch):
    """(R1) states Ai > 0 on [lower(a), 0]: the bisection must be asked for that whole range
    (Ai > 0 on [-1, 0] too, so a range cut short would still say TRUE, proving less than
    stated); below the first zero a1 = -2.338 the statement is false and must not be TRUE."""
    from countdp.arb import airy_score
    seen = record_bisections(monkeypatch, airy_score)
    with ctx.workprec(64):
        a = arb(-2)
        assert airy_score.ai_positive_from(a) is Verdict.PROVED_TRUE
        (lo, hi), = seen
        assert lo == arb(a.lower()) and hi == 0
        assert airy_score.ai_positive_from(arb("-2.5")) is not Verdict.PROVED_TRUE
