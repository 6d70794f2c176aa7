"""What the small-r coefficient's scripts (sec8_coefficient.py, sec8_mechanism.py and
sec1_main_theorem.py) share: the upper family of eq (32), the Table 2 constants, the outer
sequence of the r -> 0 limits and the working precision's bar."""

import mpmath

from countdp import formulas
from countdp.mechanisms import ShiftedLogGaussian
from countdp.numerics.tolerance import working_precision


def rounding(scale=1):
    """The working precision's bar (6 digits lost) for a quantity of size ``scale``."""
    return working_precision(6) * (1 + abs(mpmath.mpf(scale)))


def rs_upper():
    """r = 10^-2 .. 10^-5: the outer sequence of the r -> 0 limits (Richardson in r)."""
    return [mpmath.mpf(10) ** -k for k in range(2, 6)]


def upper_family(r):
    """eq (32): the admissible family r0 = r(1 - r), c = r (tolerance r)."""
    return ShiftedLogGaussian(r * (1 - r), r, r=r)


def table2_constants() -> dict:
    """Table 2: the four small-r coefficients, smallest first."""
    return {"two-count": formulas.two_count_constant(), "uniform prior": formulas.uniform_prior_constant(),
            "truncated Gaussian prior": formulas.gaussian_prior_constant(),
            "shifted log-Gaussian (upper)": formulas.log_gaussian_upper_constant()}
