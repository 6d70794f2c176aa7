"""The guard digits deliver the precision asked for: an mpmath value computed at the working
precision is within 4 ulps of the same value at 60 more digits, where a cancellation would
otherwise eat the guard (the inputs are binary numbers, the same at both precisions).

Measured at 30 digits: 2.2 ulps at most with the guards; without them 9 to 10^10 ulps -- the
hockey-stick closed form at small mu (its two Phi terms cancel), the small-noise remainder
(g ~ sigma^2 from terms ~ sigma), the Airy survival function (Ai'^2 - z Ai^2), the log-Laplace
budget (eps + e^-eps - 1), the stochastically rounded log-Gaussian's pmf at large counts."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from countdp.divergence.profile import gaussian_hockey_stick
from countdp.laws import airy
from countdp.laws.generalised_gaussian import GeneralisedGaussianDensity
from countdp.laws.small_noise import small_noise_remainder
from countdp.mechanisms.log_gaussian import ShiftedLogGaussian
from countdp.mechanisms.log_laplace import LogLaplaceMechanism

with mpmath.workdps(30):
    SMALL, TINY, HALF = mpmath.mpf("0.01"), mpmath.mpf("0.001"), mpmath.mpf("0.5")

PROBES = {
    "hockey stick, mu = 0.01, eps = 3": lambda: gaussian_hockey_stick(SMALL, 3),
    "hockey stick, mu = 0.001, eps = 1/2": lambda: gaussian_hockey_stick(TINY, HALF),
    "hockey stick, mu = 3, eps = 0.001": lambda: gaussian_hockey_stick(3, TINY),
    "small-noise remainder, sigma = 0.001": lambda: small_noise_remainder(TINY).value,
    "Airy sf(3)": lambda: airy.mp_sf(3),
    "Airy sf(30)": lambda: airy.mp_sf(30),
    "Airy score(0.01)": lambda: airy.mp_score(SMALL),
    "log-Laplace v(10^6)": lambda: LogLaplaceMechanism(0.2, 1.0).mp_v(10 ** 6),
    "log-Laplace v(10^12)": lambda: LogLaplaceMechanism(0.2, 1.0).mp_v(10 ** 12),
    "generalised Gaussian log density, p = 3": lambda: GeneralisedGaussianDensity(3).mp_logpdf(HALF),
    # the tent's terms cancel k-fold: without guards 1e-20 at n = 10^6, 2e-15 at 10^9 (30 digits)
    "rounded log-Gaussian pmf, n = k = 10^6": lambda: _rounded(10 ** 6).mp_pmf(10 ** 6),
    "rounded log-Gaussian pmf, n = 10^9, k = 7e10": lambda: _rounded(10 ** 9).mp_pmf(69446915740),
}


def _rounded(n):
    return ShiftedLogGaussian(Fraction(1, 4), 1).rounded_law(n)


@pytest.mark.parametrize("dps", [30, 50])
@pytest.mark.parametrize("name", sorted(PROBES))
def test_the_value_at_the_working_precision_is_within_4_ulps(name, dps):
    f = PROBES[name]
    with mpmath.workdps(dps):
        value, ulp = f(), mpmath.mpf(2) ** (1 - mpmath.mp.prec)
    with mpmath.workdps(dps + 60):
        reference = f()
        assert abs(value - reference) <= 4 * ulp * abs(reference)


@pytest.mark.parametrize("dps", [15, 30])
@pytest.mark.parametrize("case", ["kl, one scale, a gap of 1e-5", "kl, two close scales", "eq (11)",
                                  "two scales, the margin at 6e-4"])
def test_the_gaussian_closed_forms_carry_their_rounding(dps, case):
    """gaussian_renyi against its formula at 80 digits on the same binary parameters: the KL of
    two log-space Gaussians at n = 10^5 is 1/2 + 2e-10 - 1/2 in its written form (10 digits cancel:
    a relative error of 5e-7 at 15 digits under a bar of 0), and near the margin of eq (34) the
    margin itself cancels.  The error must cover the value, and stay within 10 ulps beyond the
    cancellation's own loss (so that it decides)."""
    from countdp.divergence.renyi import gaussian_renyi
    from countdp import formulas
    with mpmath.workdps(dps):
        mu1, mu2 = mpmath.log(10 ** 5 + mpmath.mpf("0.3")), mpmath.log(10 ** 5 + mpmath.mpf("1.3"))
        alpha, args = {"kl, one scale, a gap of 1e-5": (1, (mu1, 0.5, mu2, 0.5)),
                       "kl, two close scales": (1, (0, 1, mpmath.mpf("1e-3"), 1 + mpmath.mpf("1e-6"))),
                       "eq (11)": (7, (mu1, 0.5, mu2, 0.5)),
                       "two scales, the margin at 6e-4": (mpmath.mpf("5.26"), (0, 1, 1, 0.9))}[case]
        args = tuple(mpmath.mpf(x) for x in args)
        d = gaussian_renyi(alpha, *args)
        with mpmath.workdps(80):
            if alpha == 1:
                ref = formulas.gaussian_kl(*args)
            else:
                ref = formulas.gaussian_renyi_divergence(mpmath.mpf(alpha), *args)
        assert abs(d.value - ref) <= d.error
        assert d.error <= 10 * mpmath.eps * abs(ref)
