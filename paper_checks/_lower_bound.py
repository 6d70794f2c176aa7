"""What the two halves of the C* lower bound's checks (cstar_lower_coupling.py, steps 1-3, and
cstar_lower_lattice.py, steps 4-7) share: the coupling's mechanisms and the fibre mixture."""

import math

from countdp.mechanisms import ShiftedLogGaussian
from countdp.mechanisms.airy import AiryLogMechanism
from countdp.mechanisms.log_laplace import LogLaplaceMechanism

MECHANISM = ("0.05", "1", "0.1")  # (r0, c, r) of the coupling's mechanisms


def mixture_value(weights, values):
    """Step 2 and step 5: the nu-weighted average sum_i w_i v_i (a disintegration, a mixture).

    A script's faults patch its own binding of this name (``set_attribute(__name__, ...)``)."""
    return math.fsum(float(w) * float(v) for w, v in zip(weights, values))


def mechanisms():
    """(name, mechanism) at MECHANISM: the shifted log-Gaussian, the Airy and the log-Laplace."""
    r0, c, r = (float(x) for x in MECHANISM)
    return [("shifted log-Gaussian", ShiftedLogGaussian(r0, c, r=r)),
            ("Airy log-mechanism", AiryLogMechanism(r0, c, r=r)),
            ("log-Laplace", LogLaplaceMechanism(r0, c, r=r))]
