"""The Airy law: the symmetric density of least Fisher information at fixed E|X|.

    f(x) = Ai(|x| + a1')^2 / Z,   a1' = first zero of Ai' (~ -1.0187929716),
    Z = 2 |a1'| Ai(a1')^2.

Write ``z = |x| + a1'`` and ``R(z) = -Ai'(z)/Ai(z)``.  Then the score is
``s(x) = -(log f)'(x) = 2 sign(x) R(z)``, the Riccati equation ``R' = R^2 - z`` holds
(because ``Ai'' = z Ai``), and ``s'(x) = 2 R'(z) > 0`` for ``x > 0``: f is log-concave.

The modules, each one subject:

* :mod:`.constants` -- a1', Z, m = E|X|, I = E s^2, E X^2 and m^2 I/2 = 8|a1'|^3/27 from their
  closed forms;
* :mod:`.mp_values` -- density, score and tails in mpmath at the ambient precision (Airy values
  certified by Arb balls);
* :mod:`.asymptotics` and :mod:`.float_values` -- the same in float64 for any argument (scipy
  below z = 12, the large-z series above, a Taylor series of R near 0);
* :mod:`.expectation` and :mod:`.gauss_legendre` -- E g(X) by tanh-sinh, by Gauss-Legendre for
  many g on one grid, and the score CGF in float64;
* :mod:`.moments` -- moments, score moments, the score CGF and the constants by quadrature;
* :mod:`.sampler` -- exact draws by log-concave rejection;
* :mod:`.law` -- :class:`AiryLaw` (``b X + t``) and the location family :data:`STANDARD`.

mpmath routes work at the ambient precision; a ``dps`` argument, where there is one, is None
(ambient) or digits for that call (:mod:`countdp.numerics.precision`).
"""

from .constants import AiryConstants, airy_constants, float_constants
from .expectation import fold_edges, mp_expect, score_cgf_float
from .float_values import cdf, logpdf, logsf, pdf, ppf, score, score_prime, sf
from .gauss_legendre import MpGaussLegendre, mp_gauss_legendre
from .law import STANDARD, AiryDensity, AiryLaw, StandardAiry
from .moments import (abs_moment, airy_constants_by_quadrature, score_cgf, score_moment, score_moment_ratio,
                      second_moment)
from .mp_values import mp_cdf, mp_logpdf, mp_pdf, mp_score, mp_sf
from .sampler import sample, sampler_acceptance_rate

__all__ = [
    "AiryConstants",
    "airy_constants",
    "float_constants",
    "airy_constants_by_quadrature",
    "pdf",
    "logpdf",
    "score",
    "cdf",
    "sf",
    "logsf",
    "ppf",
    "mp_pdf",
    "mp_logpdf",
    "mp_score",
    "mp_cdf",
    "mp_sf",
    "abs_moment",
    "second_moment",
    "score_moment",
    "score_moment_ratio",
    "score_cgf",
    "sample",
    "sampler_acceptance_rate",
    "score_prime",
    "mp_expect",
    "MpGaussLegendre",
    "mp_gauss_legendre",
    "fold_edges",
    "score_cgf_float",
    "StandardAiry",
    "STANDARD",
    "AiryDensity",
    "AiryLaw",
]
