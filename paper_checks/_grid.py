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


def in_quick_grid(design, n, alpha) -> bool:
    """Whether a full-grid case (design (r, r0, c), edge or count n, order alpha) is one of the
    quick grid's: the subset on which the mpmath quadrature route also runs in full mode."""
    return design in designs(True) and n in counts(True) and alpha in alphas(True)


def mc_draws(quick: bool) -> int:
    """Monte Carlo draws per case: 10^6 in full mode, 2 * 10^5 quick."""
    return 200_000 if quick else 1_000_000


def arb_routes(check, A, B, alpha, params, coverage):
    """D_alpha(A || B) by the two Arb algorithms -- acb.integral of the densities as written plus
    proven tails, and the closed form in Phi -- compared with each other (equality within the sum
    of their rigorous error bars).  Returns the acb.integral ball's :class:`Divergence`, or None
    when either algorithm could not decide an enclosure (then ``coverage`` records the case as
    not computed and the caller falls back to quadrature)."""
    from countdp.divergence.renyi import renyi
    from countdp.numerics.contexts import Undecided

    try:
        d = renyi(A, B, alpha, method="ball")
        c = renyi(A, B, alpha, method="ball-closed")
    except Undecided as exc:
        coverage.missed(f"{params}: {exc}")
        return None
    coverage.covered()
    coverage.identical += bool(d.value == c.value)
    if d.finite and c.finite and d.value != c.value:
        coverage.largest_gap = max(coverage.largest_gap, float(abs(d.value - c.value) / (abs(d.value) or 1)))
    check.compare(params, d.value, "==", c.value, d.error + c.error, monte_carlo=False,
                  route="Arb balls: acb.integral of the densities vs closed form in Phi (two algorithms)")
    return d


def ball_and_quadrature(check, A, B, alpha, params, coverage, quadrature: bool):
    """D_alpha(A || B) by the two Arb algorithms (:func:`arb_routes`) and, where
    ``quadrature``, by mpmath quadrature compared with the ball.  Returns (main, quad): the
    acb.integral ball (the quadrature where the ball is undecided) and the quadrature's value or
    None."""
    from countdp.divergence.renyi import renyi

    d = arb_routes(check, A, B, alpha, params, coverage)
    quad = None
    if quadrature:
        quad = renyi(A, B, alpha, method="quadrature")
        if d is not None:
            check.compare(params, quad.value, "==", d.value, quad.error + d.error,
                          route="mpmath quadrature vs Arb ball (acb.integral)")
    main = d if d is not None else quad if quad is not None else renyi(A, B, alpha, method="quadrature")
    return main, quad


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
        self.identical = 0  # arb_routes: cases whose two Arb values are equal to the last bit
        self.largest_gap = 0.0  # arb_routes: the largest relative difference of the two Arb values

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
        if self.identical:
            text += (f" (the two Arb algorithms' values identical at the working precision in "
                     f"{self.identical}/{self.done}, largest relative difference {self.largest_gap:.2g})")
        check.finding(what=f"coverage of {self.what}", covered=self.done, total=self.total,
                      skipped_by_design=self.skips, not_computed=len(self.reasons),
                      first_reasons=self.reasons[:3])
        check.compare({"route": self.what, "total": self.total}, self.done, ">=", floor, 0,
                      route=f"coverage: at least {floor} cases computed (today's coverage)",
                      monte_carlo=False)
        return text
