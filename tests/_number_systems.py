"""One closed form of countdp.formulas in its three number systems, for the tests of each
formulas module: ``assert_fp_mp_ball_agree(f, args)`` evaluates ``f.mp`` (mpmath at 40 digits),
``f.ball`` (Arb at 200 bits) and ``f.fp`` (float64) at the same arguments and asserts that they
agree to rounding:

* the ball is tight: radius <= 1e-53 |value| (about 23 of the 200 bits lost at the most);
* the ball's midpoint is the mpmath value to 1e-36 relative (4 of the 40 digits lost);
* float64 is the mpmath value to 1e-14 relative.

Comparing the three checks rounding, never the formula (they run one body); the tests of each
module compare it with an independent route.  Arguments are taken exactly by the ball and mpmath
(int, Fraction, decimal string, binary float) and rounded once to float64 by ``f.fp``.

``scale``: a value smaller in magnitude than ``scale`` is held to the bounds above taken at
``|value| = scale``, i.e. to an absolute error.  A value that is exactly 0 in the reals, or a
remainder that cancels in float64, needs it; the default 0 keeps every bound relative.
"""

from __future__ import annotations

import mpmath
from flint import arb, ctx

DPS, PREC = 40, 200
BALL_RTOL, MP_RTOL, FP_RTOL = mpmath.mpf("1e-53"), mpmath.mpf("1e-36"), 1e-14


def assert_fp_mp_ball_agree(f, args=(), scale=0):
    with mpmath.workdps(DPS):
        value = f.mp(*args)
    with ctx.workprec(PREC):
        ball = f.ball(*args)
    assert isinstance(ball, arb), type(ball)
    x = f.fp(*args)
    with mpmath.workdps(2 * DPS):
        mid, rad = (mpmath.mpf(b.str(2 * DPS, radius=False)) for b in (ball.mid(), ball.rad()))
        size = max(abs(value), mpmath.mpf(scale))
        assert rad <= BALL_RTOL * size, (f.__name__, args, "ball radius", rad, value)
        assert abs(mid - value) <= MP_RTOL * abs(value), (f.__name__, args, "mp vs ball", value, mid)
        assert abs(x - value) <= FP_RTOL * size, (f.__name__, args, "fp vs mp", x, value)
