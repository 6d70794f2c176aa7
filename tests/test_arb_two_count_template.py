"""countdp.arb.two_count_template and the two-count template of Section 8."""

from __future__ import annotations

from fractions import Fraction

import mpmath
from flint import fmpq
from hypothesis import given, settings, strategies as st

from countdp import formulas
from countdp.arb.two_count_template import certify_template_bound, template_identity
from countdp.arb.verdicts import Verdict


def test_identity_is_proved():
    assert template_identity() is Verdict.PROVED_TRUE


def test_bound_is_certified_and_a_smaller_bound_is_not():
    res = certify_template_bound()
    assert res.verdict is Verdict.PROVED_TRUE
    assert res.extra["T(1/2,8)"] == "1/128" and res.extra["boxes_by_identity"] > 0
    wrong = certify_template_bound(bound=fmpq(1, 129), max_boxes=2000)
    assert wrong.verdict is not Verdict.PROVED_TRUE


def test_template_maximum_is_exact():
    assert formulas.two_count_template.exact(8, Fraction(1, 2)) == formulas.two_count_constant.exact()


@settings(max_examples=60, deadline=None)
@given(st.floats(0.01, 500.0), st.floats(0.001, 0.999))
def test_two_count_template_properties(a, theta):
    with mpmath.workdps(30):
        v = formulas.two_count_template(a, theta)
        assert 0 <= v <= mpmath.mpf(1) / 128 + 1e-30
        assert abs(v - formulas.two_count_template(a, 1 - mpmath.mpf(theta))) < 1e-25
        if a * theta * (1 - theta) <= 1:
            assert v == 0
