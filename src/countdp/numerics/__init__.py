"""Numbers and their care: one closed form against several number systems (mpmath, float64,
Arb balls, exact rationals), values with error bounds, the normal functions, Monte Carlo
means, optimisation and root finding, precision, and the validation of every public parameter.

The names below are imported lazily (the command line imports :mod:`.options` alone):

* :mod:`.contexts` -- :class:`Formula`, :func:`formula` (a closed form written once) and the
  contexts ``fp``, ``mp``, ``ball``, ``exact``;
* :mod:`.estimate` -- :class:`Estimate`, a value with its error bound;
* :mod:`.normal` -- Phi, phi and their logs in float64, ``mp_Phi``, ``mp_Phi_sf``, ``mp_Phi_inv``;
* :mod:`.montecarlo` -- :func:`mc_mean`, :class:`MCEstimate`;
* :mod:`.optimize`, :mod:`.roots`, :mod:`.sequences` -- maximisers, a bracketed root of a
  decreasing function, Richardson extrapolation;
* :mod:`.precision`, :mod:`.digits` -- working at a given number of digits, significant digits;
* :mod:`.validate` -- :class:`ParameterTypeError` (the checks themselves are ``validate.real``,
  ``validate.count``, ...).
"""

from .lazy import lazy_exports

EXPORTS = {
    "contexts": ("Formula", "formula", "Context", "fp", "mp", "ball", "exact"),
    "estimate": ("Estimate",),
    "normal": ("Phi", "phi", "log_Phi", "log_phi", "mp_Phi", "mp_Phi_sf", "mp_Phi_inv"),
    "montecarlo": ("MCEstimate", "mc_mean"),
    "optimize": ("maximise", "maximise_from_starts", "Maximum"),
    "roots": ("solve_decreasing",),
    "sequences": ("richardson", "Extrapolation"),
    "precision": ("at_dps",),
    "digits": ("significant",),
    "validate": ("ParameterTypeError",),
}
__getattr__, __dir__, __all__ = lazy_exports(__name__, EXPORTS)
