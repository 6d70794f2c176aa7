"""Hypothesis strategies for admissible designs of the shifted log-Gaussian mechanism, shared by
the property tests of countdp.mechanisms.log_gaussian and countdp.divergence.renyi: draw
``r, frac, c`` from ``rs, fracs, cs`` and build ``design(r, frac, c)`` (r0 = r * frac < r)."""

from hypothesis import strategies as st

from countdp.mechanisms import ShiftedLogGaussian

rs = st.floats(0.01, 1.0)
fracs = st.floats(0.05, 0.95)
cs = st.floats(0.05, 5.0)


def design(r, frac, c) -> ShiftedLogGaussian:
    return ShiftedLogGaussian(r * frac, c, r=r)
