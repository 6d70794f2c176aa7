"""What the two many-count scripts (sec6_information.py, sec6_priors.py) share: the paper's
default mechanism, the truncated normal's closed forms, and the rule by which an O(1/N) remainder
is read off a sequence ("every later ratio N x |remainder| is at most twice the larger of the
first two")."""

from countdp import formulas
from countdp.mechanisms import ShiftedLogGaussian

def bounded_ratios(check, params_list, ratios, what):
    """Record 'every later ratio <= 2 x max(first two)' (the O(1/N) rule); returns the cap."""
    cap = 2 * max(ratios[:2])
    for p, q in list(zip(params_list, ratios))[2:]:
        check.compare(p, q, "<=", cap, tol=0, route=f"{what}: ratio <= 2 x max(first two ratios)")
    return cap


def ratios_ok(ratios):
    """The O(1/N) rule without recording: (holds, last ratio, cap)."""
    cap = 2 * max(ratios[:2])
    return all(q <= cap for q in ratios[2:]), ratios[-1], cap


def mechanism(r, c=1):
    """The paper's default mechanism at tolerance r: r0 = r/2, shift c (1 unless given)."""
    rf = float(r)
    return ShiftedLogGaussian(rf / 2, c, r=rf)


def truncated_normal(L):
    """(h_L, tau_L^2) of N(0,1) conditioned on [-L, L], in closed form."""
    return formulas.truncated_normal_entropy(-L, L), formulas.truncated_normal_variance(-L, L)
