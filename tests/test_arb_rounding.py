"""countdp.arb.rounding: stochastic rounding's identities in exact arithmetic."""

from __future__ import annotations

from flint import fmpq_mpoly_ctx

from _ball_reference import TRUE
from countdp.arb.rounding import certify_rounding_identity


def test_rounding_identity():
    res = certify_rounding_identity(grid=8, n_max=4)
    assert res.verdict is TRUE and res.boxes == 1 + (8 * 4 + 1) * 5
    # negative control: the weights swapped (P(ceil) = 1 - t) do not give mean y
    R = fmpq_mpoly_ctx.get(("f", "t"))
    f, t = R.gens()
    assert not (t * f + (1 - t) * (f + 1) == f + t)
