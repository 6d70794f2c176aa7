"""countdp.arb.means: certified E U_n and E[U_n]_+ of the shifted log-Gaussian release."""

from __future__ import annotations

import pytest
from flint import arb, ctx, fmpq

from countdp import formulas
from countdp.arb.means import released_mean, unclipped_mean


@pytest.mark.parametrize("n", [0, 1, 10, 1000])
def test_means_enclose_the_closed_form_biases(n):
    with ctx.workprec(117):
        s_hp = formulas.sigma.ball(fmpq(1, 4), 1)
        cu, cr = formulas.unclipped_bias.ball(n, 1, s_hp), formulas.released_bias.ball(n, 1, s_hp)
    with ctx.workprec(53):
        s = formulas.sigma.ball(fmpq(1, 4), 1)
        bu, br = unclipped_mean(n, 1, s) - n, released_mean(n, 1, s) - n
    assert bu.contains(cu) and br.contains(cr)
    assert bu < 0
    assert (br > 0) if n == 0 else (br < 0)


def test_clipping_raises_the_mean_by_the_negative_part():
    with ctx.workprec(53):
        s = arb("0.8")
        diff = released_mean(2, "0.5", s) - unclipped_mean(2, "0.5", s)
        assert diff.overlaps(-formulas.negative_part.ball(2, "0.5", s))
