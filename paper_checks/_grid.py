"""The parameter grid of the Section 3-5 checks.

Full mode: r in {0.05, 0.1, 0.25, 0.5, 0.9}, r0 in {r/2, 0.9 r}, c in {0.1, 1, 2},
n in {0, 1, 2, 5, 10, 100, 1000, 10^6}, alpha in {1.01, 1.5, 2, 5, 20, 100}.
Quick mode keeps every claim touched, n = 0, 1 and a large n.
"""

from fractions import Fraction

R_FULL = (Fraction(1, 20), Fraction(1, 10), Fraction(1, 4), Fraction(1, 2), Fraction(9, 10))
R_QUICK = (Fraction(1, 10), Fraction(9, 10))
C_FULL = (Fraction(1, 10), Fraction(1), Fraction(2))
C_QUICK = (Fraction(1, 10), Fraction(1))
N_FULL = (0, 1, 2, 5, 10, 100, 1000, 10**6)
N_QUICK = (0, 1, 10, 10**6)
ALPHA_FULL = (1.01, 1.5, 2, 5, 20, 100)
ALPHA_QUICK = (1.01, 2, 100)


def designs(quick: bool):
    """(r, r0, c) triples: r0 in {r/2, 0.9 r}; quick mode takes r0 = r/2 only."""
    out = []
    for r in (R_QUICK if quick else R_FULL):
        for r0 in ((r / 2,) if quick else (r / 2, r * Fraction(9, 10))):
            for c in (C_QUICK if quick else C_FULL):
                out.append((float(r), float(r0), float(c)))
    return out


def counts(quick: bool):
    return N_QUICK if quick else N_FULL


def edges(quick: bool):
    """Edge indices n (the edge n-1 <-> n) from the count grid: n >= 1."""
    return tuple(n for n in counts(quick) if n >= 1)


def alphas(quick: bool):
    return ALPHA_QUICK if quick else ALPHA_FULL


def mc_draws(quick: bool) -> int:
    """Monte Carlo draws per case: 10^6 in full mode, 2 * 10^5 quick."""
    return 200_000 if quick else 1_000_000


class Coverage:
    """The cases of one route that were computed, among those the grid asks for.

    A case a route skips by design (``skipped``) or cannot compute (``missed``, with the reason)
    is not silently dropped: :meth:`record` makes the count part of the verdict -- a finding, a
    case asserting that at least ``floor`` cases (today's coverage) were computed, and the text
    ``covered k/N`` for the slack."""

    def __init__(self, what: str):
        self.what = what
        self.done = 0
        self.skips = 0
        self.reasons: list[str] = []

    def covered(self) -> None:
        self.done += 1

    def skipped(self) -> None:
        self.skips += 1

    def missed(self, reason: str) -> None:
        self.reasons.append(reason)

    @property
    def total(self) -> int:
        return self.done + self.skips + len(self.reasons)

    def record(self, check, floor: int) -> str:
        text = f"{self.what}: covered {self.done}/{self.total}"
        if self.skips or self.reasons:
            text += f" ({self.skips} skipped by design, {len(self.reasons)} not computed)"
        check.finding(what=f"coverage of {self.what}", covered=self.done, total=self.total,
                      skipped_by_design=self.skips, not_computed=len(self.reasons),
                      first_reasons=self.reasons[:3])
        check.compare({"route": self.what, "total": self.total}, self.done, ">=", floor, 0,
                      route=f"coverage: at least {floor} cases computed (today's coverage)",
                      monte_carlo=False)
        return text
