"""The privacy-budget calculator of the shifted log-Gaussian mechanism: from (r0, c) to the
guarantee at a count n, and back from a target guarantee to r0.

This is the library behind ``countdp budget``; the command line only parses and prints.

The edge convention.  The mechanism's budget is per *edge*: ``v(n)`` (eqs 5-6) bounds the zCDP
divergence between the releases at the neighbouring counts ``n - 1`` and ``n`` (both orders);
``n = 0`` means the edge (0, 1), with ``v(0) = v(1)``.  ``v`` decreases in n, so a guarantee
at n holds on every edge at counts >= n; the guarantee for every count is the one at n = 0.
``k`` independent releases (``releases=k``) compose to ``rho = k v(n)``.

The conversions to (eps, delta)-DP, tightest first (each valid on its own):

* ``exact``: the privacy profile (hockey-stick divergence) of the released laws themselves.  In
  log(y + c) the unclipped releases are Gaussians at distance ``mu = log((n+c)/(n-1+c))/sigma``
  (``mu sqrt(k)`` for k releases), whose profile is a closed form
  (:func:`countdp.divergence.profile.gaussian_hockey_stick`); clipping at 0 is post-processing,
  so the released profile lies below it, and above it minus the clipped mass ``a`` (k times the
  atom at 0 of the release at the lower count).  When that bracket is narrower than the working
  precision, the closed form *is* the released mechanism's profile; otherwise it is computed by
  quadrature of the released laws (atom + density, one release) or, for k > 1 releases, the
  closed form is reported as the upper bound it is, with the bracket.
* ``cks``: Canonne-Kamath-Steinke from rho (optimal Renyi order).
* ``bun-steinke``: ``eps = rho + 2 sqrt(rho log(1/delta))`` (the conversion quoted in Section 5.1).

Examples (30 digits; values rounded for the page)::

    >>> from countdp.mechanisms import calculator
    >>> b = calculator.guarantee(r0=0.05, c=1, n=10, delta=1e-6)
    >>> row = b.rows[0]
    >>> [(cv.method, round(float(cv.eps), 2)) for cv in row.conversions]
    [('exact', 18.48), ('cks', 19.56), ('bun-steinke', 20.61)]
    >>> round(float(row.v), 4), round(float(row.expected_error), 4)
    (4.6249, 0.275)
    >>> s = calculator.solve_r0(n=10, c=1, target_eps=1, delta=1e-6)
    >>> round(float(s.r0), 4), round(float(s.budget.rows[0].eps), 6)
    (0.6256, 1.0)
    >>> calculator.parse_counts("1:1e6:log")
    [1, 10, 100, 1000, 10000, 100000, 1000000]
    >>> [float(r.v) for r in calculator.guarantee(0.05, 1, [1, 10**6]).rows][1] < 1e-8
    True
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Iterable, Sequence

import mpmath

from .. import formulas
from ..divergence import profile, zcdp
from ..numerics import validate
from ..numerics.tolerance import working_precision
from .log_gaussian import ShiftedLogGaussian

__all__ = [
    "CONVERSIONS", "LABELS", "EDGE_CONVENTION", "MAX_ROWS", "Conversion", "Row", "Budget",
    "Solution", "Unreachable", "guarantee", "solve_r0", "parse_counts", "edge", "to_json", "json_text",
    "curves", "plot",
]

#: the conversions, tightest first
CONVERSIONS = ("exact", "cks", "bun-steinke")
LABELS = {
    "exact": "exact profile of the released mechanism",
    "cks": "Canonne-Kamath-Steinke (CKS) from rho",
    "bun-steinke": "Bun-Steinke from rho",
}
EDGE_CONVENTION = ("v(n) bounds the edge between the counts n-1 and n (both orders); n = 0 is the "
                   "edge (0, 1), v(0) = v(1); v decreases in n, so the guarantee at n holds for "
                   "every count >= n")
#: the most rows one table may have
MAX_ROWS = 10_000
#: the largest mu = gap/sigma the Gaussian closed form is evaluated at (the normal cdf's range)
_MU_MAX = mpmath.mpf("1e50")


class Unreachable(ValueError):
    """A target guarantee that no admissible r0 meets (r0 would have to reach r, or 1)."""


# ============================================================================================
# Results
# ============================================================================================


@dataclass(frozen=True)
class Conversion:
    """One conversion of the guarantee on one edge: ``eps`` at the asked delta and/or ``delta``
    at the asked eps (None when not asked or not available), an absolute error bound on each
    (``eps_error``, ``delta_error``), how it was computed (``how``) and a ``note``.  With
    ``upper_bound`` the values are valid upper bounds only, and the released mechanism's exact
    values lie in [``eps_lower``, eps] and [``delta_lower``, delta]."""

    method: str
    label: str
    eps: object = None
    eps_error: object = None
    delta: object = None
    delta_error: object = None
    how: str = ""
    note: str | None = None
    upper_bound: bool = False
    eps_lower: object = None
    delta_lower: object = None


@dataclass(frozen=True)
class Row:
    """The guarantee and the utility on the edge at count ``n``.

    ``v``: v(n) of one release; ``rho``: k v(n); ``conversions``: tightest first;
    ``expected_error``: E|Y - n| of the released count (exact; ``expected_error_exact`` is
    False when the clipping correction underflowed and the unclipped eq (9), an upper bound, is
    given); ``error_bound``: Theorem 3.1(i)'s r0 (n+c)/(1+c); ``target``: eq (2)'s r max(n, 1)
    (None without r)."""

    n: int
    edge: tuple
    v: object
    rho: object
    conversions: tuple = ()
    expected_error: object = None
    expected_error_exact: bool = True
    error_bound: object = None
    target: object = None

    @property
    def tightest(self) -> Conversion | None:
        return self.conversions[0] if self.conversions else None

    @property
    def eps(self):
        """The tightest eps at the asked delta (None if no delta was asked)."""
        vals = [cv for cv in self.conversions if cv.eps is not None]
        return vals[0].eps if vals else None

    @property
    def delta(self):
        """The tightest delta at the asked eps (None if no eps was asked)."""
        vals = [cv for cv in self.conversions if cv.delta is not None]
        return vals[0].delta if vals else None


@dataclass(frozen=True)
class Budget:
    """A table of guarantees: the parameters, sigma, v(0) = v(1), and one :class:`Row` per n."""

    r0: object
    c: object
    r: object
    delta: object
    eps: object
    releases: int
    dps: int
    sigma: object
    v0: object
    rows: tuple

    def parameters(self) -> dict:
        return {"r0": self.r0, "c": self.c, "r": self.r, "n": [row.n for row in self.rows],
                "delta": self.delta, "eps": self.eps, "releases": self.releases, "dps": self.dps}


@dataclass(frozen=True)
class Solution:
    """The r0 that meets a target on the edge at n: the target (``target_rho`` or
    ``target_eps`` at ``delta``), the conversion it was solved with (``via``), ``r0`` and
    ``sigma``, and the full :class:`Budget` at that r0 (its error bound is what the target
    costs)."""

    n: int
    c: object
    r: object
    releases: int
    via: str
    target_rho: object
    target_eps: object
    delta: object
    r0: object
    sigma: object
    budget: Budget

    @property
    def row(self) -> Row:
        return self.budget.rows[0]


# ============================================================================================
# Counts: "10", "1e6", "1,10,100", "1:1e6:log", "0:100:10"
# ============================================================================================


def _one_count(text: str) -> int:
    t = text.strip()
    try:
        return validate.count("n", int(t))
    except ValueError:
        pass
    try:
        d = Decimal(t)
    except InvalidOperation:
        raise ValueError(f"n must be an integer >= 0 (1e6 is accepted), got {text[:40]!r}") from None
    if not d.is_finite() or d != d.to_integral_value() or d < 0:
        raise ValueError(f"n must be an integer >= 0 (1e6 is accepted), got {text[:40]!r}")
    if d.adjusted() > 100_000:
        raise ValueError(f"n must be below 1e100000, got {text[:40]!r}")
    return int(d)


def parse_counts(text: str) -> list[int]:
    """Counts from a command-line value: one count (``10``, ``1e6``), a list (``1,10,100``), a
    range ``A:B`` (every integer), ``A:B:S`` (step S), ``A:B:log`` (A, 10A, 100A, ... up to B) or
    ``A:B:logK`` (K points per decade, rounded to integers); lists may mix them.  Sorted, without
    repeats, at most :data:`MAX_ROWS`.

    >>> parse_counts("0:10:5,1e3")
    [0, 5, 10, 1000]
    >>> parse_counts("1:100:log2")
    [1, 3, 10, 32, 100]
    """
    if not isinstance(text, str):
        raise validate.ParameterTypeError(f"n must be a string of counts, got {type(text).__name__}")
    out: set[int] = set()
    parts = [p for p in text.split(",")]
    if not text.strip() or any(not p.strip() for p in parts):
        raise ValueError(f"n must be a count, a list such as 1,10,100 or a range such as 1:1e6:log, "
                         f"got {text[:40]!r}")
    for part in parts:
        fields = part.split(":")
        if len(fields) == 1:
            out.add(_one_count(fields[0]))
            continue
        if len(fields) not in (2, 3):
            raise ValueError(f"n: a range is A:B, A:B:STEP or A:B:log, got {part[:40]!r}")
        a, b = _one_count(fields[0]), _one_count(fields[1])
        if b < a:
            raise ValueError(f"n: the range {part[:40]!r} ends below its start")
        how = fields[2].strip().lower() if len(fields) == 3 else "1"
        m = re.fullmatch(r"log(\d*)", how)
        if m:
            per = int(m.group(1) or 1)
            if not 1 <= per <= 100:
                raise ValueError(f"n: logK takes K in 1..100 points per decade, got {how!r}")
            if a == 0:
                out.add(0)
                a = 1
            span = math.log10(b / a) if b > a else 0.0
            steps = int(math.floor(span * per + 1e-9))
            if steps + 1 > MAX_ROWS:
                raise ValueError(f"n: the range {part[:40]!r} has more than {MAX_ROWS} counts")
            for j in range(steps + 1):
                if per == 1:
                    out.add(a * 10 ** j)
                else:
                    out.add(int(Decimal(a) * Decimal(10) ** (Decimal(j) / per) + Decimal("0.5")))
            continue
        step = _one_count(how)
        if step < 1:
            raise ValueError(f"n: the step of {part[:40]!r} must be >= 1")
        if (b - a) // step + 1 > MAX_ROWS:
            raise ValueError(f"n: the range {part[:40]!r} has more than {MAX_ROWS} counts")
        out.update(range(a, b + 1, step))
    if len(out) > MAX_ROWS:
        raise ValueError(f"n: more than {MAX_ROWS} counts")
    return sorted(out)


def _counts(n) -> list[int]:
    if isinstance(n, str):
        return parse_counts(n)
    if isinstance(n, Iterable) and not isinstance(n, (bytes, bytearray)):
        ns = sorted({validate.count("n", k) for k in n})
        if not ns:
            raise ValueError("n must hold at least one count")
        if len(ns) > MAX_ROWS:
            raise ValueError(f"n: more than {MAX_ROWS} counts")
        return ns
    return [validate.count("n", n)]


def edge(n: int) -> tuple[int, int]:
    """The pair of counts whose releases v(n) bounds: (n-1, n); (0, 1) for n = 0."""
    n = validate.count("n", n)
    return (0, 1) if n == 0 else (n - 1, n)


# ============================================================================================
# The pieces
# ============================================================================================


def _released_error(mech: ShiftedLogGaussian, n: int):
    """E|Y - n| exactly, or (eq (9), False) when the clipping term's normal cdf is out of
    mpmath's range (sigma tiny: the term is below Phi(-1e50), far below the working precision)."""
    try:
        return mech.expected_abs_error_released(n), True
    except (OverflowError, ValueError):
        return mech.expected_abs_error_unclipped(n), False


def _atom_mass(sigma, c, n: int):
    """P(U_n <= 0) = Phi((log(c/(n+c)) + sigma^2)/sigma): the mass clipping moves to 0
    (log(c/(n+c)) = -log1p(n/c): no cancellation when c >> n)."""
    z = (-mpmath.log1p(n / mpmath.mpf(c)) + sigma * sigma) / sigma
    if z < -_MU_MAX:
        return mpmath.mpf(0)
    return mpmath.ncdf(z)


def _tol(x):
    return working_precision(5) * (1 + abs(x))


def _show(x, digits: int = 6) -> str:
    """A number for a message: 0 as 0, otherwise ``digits`` significant digits."""
    if isinstance(x, (int, float)) and not isinstance(x, bool) and abs(x) < 1e15:
        return f"{x:.{digits}g}"
    x = mpmath.mpf(x)
    return "0" if x == 0 else mpmath.nstr(x, digits)


def _bun_steinke_delta(rho, eps):
    """The delta at which Bun-Steinke gives eps: the inverse of eps = rho + 2 sqrt(rho L),
    L = log(1/delta): delta = exp(-(eps - rho)^2 / (4 rho)) for eps > rho, else 1."""
    if rho == 0:
        return mpmath.mpf(0)
    if eps <= rho:
        return mpmath.mpf(1)
    return mpmath.exp(-(eps - rho) ** 2 / (4 * rho))


#: the most guard digits the quadrature of the released laws is given (to resolve the gap
#: log((n+c)/(n-1+c)) between two means of size log(n+c)); beyond, the closed form's bound is used
_QUAD_EXTRA_DPS_MAX = 40


def _released_pair_quadrature(mech: ShiftedLogGaussian, n: int, delta, eps):
    """(eps at delta, its error, delta at eps, its error) of the released laws on edge(n) by
    mpmath quadrature, at enough digits to resolve the edge's log gap; None when that would take
    more than _QUAD_EXTRA_DPS_MAX extra digits."""
    lo, hi = edge(n)
    c = mpmath.mpf(mech.c)
    gap = formulas.log_gap(n, c)
    extra = int(mpmath.ceil(mpmath.log10(max(abs(mpmath.log(hi + c)), 1) / gap))) + 5
    if extra > _QUAD_EXTRA_DPS_MAX:
        return None
    with mpmath.workdps(mpmath.mp.dps + max(extra, 0)):
        P, Q = mech.released_law(lo), mech.released_law(hi)
        e = ee = d = de = None
        if delta is not None:
            r = profile.eps_of_delta(P, Q, delta)
            e, ee = r.value, r.error
        if eps is not None:
            f = profile.hockey_stick(P, Q, eps, method="quadrature")
            b = profile.hockey_stick(Q, P, eps, method="quadrature")
            best = f if f.value >= b.value else b
            d, de = best.value, best.error
    return tuple(None if x is None else +x for x in (e, ee, d, de))


def _exact(mech: ShiftedLogGaussian, n: int, k: int, delta, eps) -> Conversion:
    """The exact profile of the released mechanism on edge(n), k releases (see the module
    docstring for the closed form, the bracket and the quadrature)."""
    lo, hi = edge(n)
    sigma = mech.mp_sigma()
    mu = formulas.log_gap(n, mech.c) / sigma * mpmath.sqrt(k)
    a1 = _atom_mass(sigma, mech.c, lo)
    atom = a1 if k == 1 else -mpmath.expm1(k * mpmath.log1p(-a1)) if a1 < 1 else mpmath.mpf(1)
    if mu > _MU_MAX:
        return Conversion("exact", LABELS["exact"], how="not computed",
                          note=f"mu = gap/sigma = {_show(mu)} is beyond the closed form's range "
                               "(1e50); the conversions of rho are valid")
    # the Gaussian profile in log(y + c) (an upper bound), and what the clipped mass can take off
    e_hi = e_lo = d_hi = d_lo = None
    if delta is not None:
        e_hi = profile.gaussian_eps_of_delta(mu, delta)
        e_lo = profile.gaussian_eps_of_delta(mu, delta + atom) if delta + atom < 1 else mpmath.mpf(0)
    if eps is not None:
        d_hi = profile.gaussian_hockey_stick(mu, eps)
        d_lo = max(d_hi - atom, mpmath.mpf(0))
    narrow = (delta is None or e_hi - e_lo <= _tol(e_hi)) and \
        (eps is None or d_hi - d_lo <= working_precision(5) * d_hi)
    if narrow:
        out = {}
        if delta is not None:
            out.update(eps=e_hi, eps_error=e_hi - e_lo + _tol(e_hi))
        if eps is not None:
            out.update(delta=d_hi, delta_error=d_hi - d_lo + working_precision(5) * d_hi)
        return Conversion("exact", LABELS["exact"], how=(
            f"closed form: Gaussians in log(y + c) at distance mu = {_show(mu)}; the mass "
            f"{_show(atom, 3)} clipped to 0 moves it by less than its error"), **out)
    quad = _released_pair_quadrature(mech, n, delta, eps) if k == 1 else None
    if quad is not None:
        e, ee, d, de = quad
        out = {}
        if delta is not None:
            out.update(eps=min(e, e_hi), eps_error=ee)
        if eps is not None:
            out.update(delta=min(d, d_hi), delta_error=de)
        return Conversion("exact", LABELS["exact"], how=(
            f"mpmath quadrature of the released laws (atom at 0 + density), both orders: the "
            f"clipped mass {_show(atom, 3)} is not negligible"), **out)
    why = (f"{k} releases" if k > 1 else
           "the released laws' quadrature cannot resolve the gap at this precision")
    out, notes = {"upper_bound": True}, []
    if delta is not None:
        out.update(eps=e_hi, eps_error=_tol(e_hi), eps_lower=e_lo)
        notes.append(f"the released mechanism's eps lies in [{_show(e_lo)}, {_show(e_hi)}]")
    if eps is not None:
        out.update(delta=d_hi, delta_error=working_precision(5) * d_hi, delta_lower=d_lo)
        notes.append(f"its delta in [{_show(d_lo)}, {_show(d_hi)}]")
    return Conversion("exact", "exact profile of the unclipped releases (an upper bound)", how=(
        f"closed form: Gaussians in log(y + c) at distance mu = {_show(mu)}, an upper bound "
        f"({why}; clipping is post-processing)"),
        note="; ".join(notes) + f" (the clipped mass {_show(atom, 3)} is not negligible)", **out)


def _not_computed(method: str, exc: Exception) -> Conversion:
    return Conversion(method, LABELS[method], how="not computed", note=str(exc).splitlines()[0])


def _cks(rho, delta, eps) -> Conversion:
    out = {}
    try:
        if delta is not None:
            e = zcdp.cks_eps(rho, delta)
            out.update(eps=e, eps_error=_tol(e))
        if eps is not None:
            d = zcdp.cks_delta(rho, eps)
            out.update(delta=d, delta_error=working_precision(5) * d)
    except ValueError as exc:  # rho beyond float64: CKS's order search is refused
        if rho > 1e308:
            exc = ValueError(f"rho = {_show(rho)} is beyond the float64 range the CKS order search "
                             "works in; Bun-Steinke is valid")
        return _not_computed("cks", exc)
    return Conversion("cks", LABELS["cks"], how="root-finding on the closed form", **out)


def _bun_steinke(rho, delta, eps) -> Conversion:
    out = {}
    if delta is not None:
        e = zcdp.zcdp_to_approx_dp(rho, delta)
        out.update(eps=e, eps_error=mpmath.mpf(0))
    if eps is not None:
        d = _bun_steinke_delta(rho, eps)
        out.update(delta=d, delta_error=mpmath.mpf(0))
    return Conversion("bun-steinke", LABELS["bun-steinke"], how="closed form", **out)


def _sort_key(cv: Conversion):
    x = cv.eps if cv.eps is not None else cv.delta
    return (x is None, x if x is not None else 0, CONVERSIONS.index(cv.method))


def _row(mech: ShiftedLogGaussian, n: int, k: int, delta, eps) -> Row:
    v = mech.mp_v(n)
    rho = k * v
    convs: list[Conversion] = []
    if delta is not None or eps is not None:
        convs = [_exact(mech, n, k, delta, eps), _cks(rho, delta, eps), _bun_steinke(rho, delta, eps)]
        convs.sort(key=_sort_key)
    err, exact = _released_error(mech, n)
    target = formulas.target(n, mech.r) if mech.r is not None else None
    return Row(n, edge(n), v, rho, tuple(convs), err, exact, mech.error_bound(n), target)


def _check_common(delta, eps, releases, dps):
    if delta is not None:
        delta = validate.real("delta", delta, lo=0, hi=1)
    if eps is not None:
        eps = validate.real("eps", eps, lo=0, lo_open=False)
    releases = validate.count("releases", releases, lo=1, hi=10 ** 9)
    dps = mpmath.mp.dps if dps is None else validate.dps(dps)
    return delta, eps, releases, dps


def guarantee(r0, c, n, r=None, delta=None, eps=None, releases: int = 1, dps: int | None = None
           ) -> Budget:
    """The guarantee of the mechanism with parameters (r0, c[, r]) on the edge at each count n.

    ``n``: a count, an iterable of counts, or a string for :func:`parse_counts`;
    ``delta``: also give eps at this delta (every conversion, tightest first); ``eps``: also give
    delta at this eps; ``releases``: k independent releases (rho = k v(n)); ``dps``: working
    precision in digits (default: mpmath's current).  Values are mpmath numbers at full range.

    >>> b = guarantee(0.05, 1, "1,1000", delta=1e-6)
    >>> [(row.n, round(float(row.eps), 4)) for row in b.rows]
    [(1, 348.8455), (1000, 0.117)]
    >>> round(float(guarantee(0.05, 1, 10, eps=1).rows[0].delta), 4)
    0.7958
    """
    delta, eps, releases, dps = _check_common(delta, eps, releases, dps)
    ns = _counts(n)
    with mpmath.workdps(dps):
        mech = ShiftedLogGaussian(r0, c, r=r)
        rows = tuple(_row(mech, k, releases, delta, eps) for k in ns)
        return Budget(mech.r0, mech.c, mech.r, delta, eps, releases, dps, mech.mp_sigma(),
                      mech.mp_v(0), rows)


# ============================================================================================
# The inverse: r0 from a target
# ============================================================================================


def _findroot_increasing(f, lo, hi, what: str):
    """The root of an increasing f on (lo, hi) in log space (f(lo) < 0 < f(hi))."""
    a, b = mpmath.log(lo), mpmath.log(hi)
    fa, fb = f(mpmath.exp(a)), f(mpmath.exp(b))
    k = 0
    while fa > 0 and k < 400:
        a -= 8
        fa = f(mpmath.exp(a))
        k += 1
    while fb < 0 and k < 800:
        b += 8
        fb = f(mpmath.exp(b))
        k += 1
    if fa > 0 or fb < 0:
        raise ValueError(f"no {what} found")
    for _ in range(10 * mpmath.mp.prec):
        if b - a <= working_precision(8) * (1 + abs(a) + abs(b)):
            break
        m = (a + b) / 2
        if f(mpmath.exp(m)) < 0:
            a = m
        else:
            b = m
    return mpmath.exp((a + b) / 2)


def _rho_for_eps(target_eps, delta, via: str, mu_of_rho):
    """The total rho = k v(n) at which the conversion ``via`` gives exactly target_eps at delta."""
    if via == "bun-steinke":
        L = mpmath.log(1 / mpmath.mpf(delta))
        return (mpmath.sqrt(L + target_eps) - mpmath.sqrt(L)) ** 2
    if via == "cks":
        g = lambda rho: zcdp.cks_log_delta(rho, target_eps) - mpmath.log(delta)  # noqa: E731
        return _findroot_increasing(g, target_eps / 100 + mpmath.mpf(10) ** -30, target_eps + 1,
                                    "rho for the CKS target")
    # exact: the Gaussian profile, increasing in mu, closed form
    def g(mu):
        d = profile.gaussian_hockey_stick(mu, target_eps)
        return (mpmath.log(d) if d > 0 else -mpmath.inf) - mpmath.log(delta)
    mu = _findroot_increasing(g, mpmath.mpf("1e-3"), 2 * mpmath.sqrt(target_eps) + 10,
                              "mu for the exact target")
    return mu_of_rho(mu)


def solve_r0(n, c, target_rho=None, target_eps=None, delta=None, r=None, releases: int = 1,
             via: str = "exact", dps: int | None = None) -> Solution:
    """The r0 at which the mechanism meets a target on the edge at count n: ``target_rho``
    (rho = k v(n)) or ``target_eps`` at ``delta`` by the conversion ``via`` (``"exact"``,
    the default: the Gaussian profile in log space, which bounds the released mechanism's;
    ``"cks"``; ``"bun-steinke"``).  sigma follows in closed form,
    ``sigma = log((n+c)/(n-1+c)) / sqrt(2 rho / k)``, and ``r0 = (1+c) erf(sigma/sqrt 2)``
    (eq (3) inverted).  Raises :class:`Unreachable` when that r0 is not below r (or 1 without r).

    >>> s = solve_r0(n=100, c=1, target_rho=0.5)
    >>> round(float(s.r0), 5), round(float(s.row.rho), 12)
    (0.01588, 0.5)
    """
    n = validate.count("n", n)
    c = validate.real("c", c, lo=0)
    if r is not None:
        r = validate.real("r", r, lo=0, hi=1, hi_open=False)
    validate.choice("via", via, CONVERSIONS)
    delta, target_eps, releases, dps = _check_common(delta, target_eps, releases, dps)
    if (target_rho is None) == (target_eps is None):
        raise ValueError("give exactly one of target_rho and target_eps")
    if target_rho is not None:
        target_rho = validate.real("target_rho", target_rho, lo=0)
    else:
        if target_eps == 0:
            raise ValueError("target_eps must be > 0")
        if delta is None:
            raise ValueError("target_eps needs delta")
    k = releases
    with mpmath.workdps(dps + 10):
        gap = formulas.log_gap(n, c)

        def rho_of_mu(mu_total):  # the Gaussian pair: rho = mu^2/2 (k releases: mu_total^2/2)
            return mu_total ** 2 / 2

        rho = target_rho if target_rho is not None else \
            _rho_for_eps(mpmath.mpf(target_eps), mpmath.mpf(delta), via, rho_of_mu)
        rho = mpmath.mpf(rho)
        sigma = gap / mpmath.sqrt(2 * rho / k)
        r0 = (1 + mpmath.mpf(c)) * formulas.multiplicative_error(sigma)
        limit = mpmath.mpf(r) if r is not None else mpmath.mpf(1)
        if not r0 < limit:
            raise Unreachable(_unreachable(n, c, r, k, target_rho, target_eps, delta, via, r0, limit,
                                           gap, dps))
    with mpmath.workdps(dps):
        r0 = +r0
        b = guarantee(r0, c, n, r=r, delta=delta, eps=None, releases=k, dps=dps)
        return Solution(n, c, r, k, via, target_rho, target_eps, delta, r0, b.sigma, b)


def _unreachable(n, c, r, k, target_rho, target_eps, delta, via, r0, limit, gap, dps) -> str:
    """The message: what the target needs, and the best guarantee an admissible r0 reaches."""
    bound = f"r = {_show(r)}" if r is not None else "1 (without r: 0 < r0 < 1)"
    sigma_max = formulas.sigma(limit, c)
    rho_min = k * gap ** 2 / (2 * sigma_max ** 2)
    if target_rho is not None:
        want = f"rho = {_show(target_rho)}"
        best = f"rho = {_show(rho_min)}"
    else:
        want = f"eps = {_show(target_eps)} at delta = {_show(delta)}"
        if via == "exact":
            e = profile.gaussian_eps_of_delta(gap / sigma_max * mpmath.sqrt(k), delta)
        elif via == "cks":
            e = zcdp.cks_eps(rho_min, delta)
        else:
            e = zcdp.zcdp_to_approx_dp(rho_min, delta)
        best = f"eps = {_show(e)} ({LABELS[via]})"
    return (f"target unreachable: {want} on the edge at n = {n} (c = {_show(c)}, {k} release"
            f"{'s' if k > 1 else ''}) needs r0 = {_show(r0)}, but r0 must stay below "
            f"{bound}; the best an admissible r0 reaches there is {best} (as r0 -> "
            f"{_show(limit)}); a larger n or fewer releases lower the budget")


# ============================================================================================
# JSON: real numbers, the parameters echoed
# ============================================================================================


def _num(x, digits: int):
    """A JSON number (text) at ``digits`` significant digits; None for an infinite value."""
    if x is None:
        return None
    if isinstance(x, bool):
        return x
    if isinstance(x, int):
        return x
    if isinstance(x, float):  # a parameter as given: its shortest repr
        return _Raw(repr(x)) if math.isfinite(x) and x != 0 else (0 if x == 0 else None)
    if not isinstance(x, mpmath.mpf):
        x = mpmath.mpf(x)  # (an mpf is kept as it is: converting would round it to mp.prec)
    if mpmath.isinf(x) or mpmath.isnan(x):
        return None
    if x == 0:
        return 0
    return _Raw(mpmath.nstr(x, digits, min_fixed=-4, max_fixed=digits))


class _Raw(str):
    """A number already written as JSON text."""


def _conversion_json(cv: Conversion, digits: int) -> dict:
    d = {"method": cv.method, "label": cv.label}
    if cv.eps is not None:
        d["eps"] = _num(cv.eps, digits)
        d["eps_error"] = _num(cv.eps_error, 3)
    if cv.delta is not None:
        d["delta"] = _num(cv.delta, digits)
        d["delta_error"] = _num(cv.delta_error, 3)
    if cv.upper_bound:
        d["upper_bound"] = True
        if cv.eps_lower is not None:
            d["eps_lower"] = _num(cv.eps_lower, digits)
        if cv.delta_lower is not None:
            d["delta_lower"] = _num(cv.delta_lower, digits)
    d["how"] = cv.how
    if cv.note:
        d["note"] = cv.note
    return d


def _row_json(row: Row, digits: int) -> dict:
    d = {"n": row.n, "edge": list(row.edge), "v": _num(row.v, digits), "rho": _num(row.rho, digits)}
    if row.conversions:
        if row.eps is not None:
            d["eps"] = _num(row.eps, digits)
        if row.delta is not None:
            d["delta"] = _num(row.delta, digits)
        d["conversions"] = [_conversion_json(cv, digits) for cv in row.conversions]
    d["expected_abs_error"] = _num(row.expected_error, digits)
    if not row.expected_error_exact:
        d["expected_abs_error_is"] = "eq (9), an upper bound (the clipping term underflows)"
    d["error_bound"] = _num(row.error_bound, digits)
    if row.target is not None:
        d["target"] = _num(row.target, digits)
    return d


def to_json(result: Budget | Solution) -> dict:
    """A JSON-ready dict: the parameters echoed, sigma, v(0), one entry per row; numbers are
    JSON numbers at the working precision (:func:`json_text` writes them)."""
    with mpmath.workdps(result.budget.dps if isinstance(result, Solution) else result.dps):
        return _to_json(result)


def _to_json(result: Budget | Solution) -> dict:
    if isinstance(result, Solution):
        b = result.budget
        d = {"mechanism": "shifted log-Gaussian (eqs 3-6)", "solve": {
            "n": result.n, "c": _num(mpmath.mpf(result.c), b.dps),
            "r": _num(result.r, b.dps), "releases": result.releases, "via": result.via,
            "target_rho": _num(result.target_rho, b.dps),
            "target_eps": _num(result.target_eps, b.dps), "delta": _num(result.delta, b.dps),
            "dps": b.dps}, "edge_convention": EDGE_CONVENTION,
             "r0": _num(result.r0, b.dps), "sigma": _num(result.sigma, b.dps),
             "v0": _num(b.v0, b.dps), "rows": [_row_json(row, b.dps) for row in b.rows]}
        return d
    b = result
    params = {k: (_num(v, b.dps) if not isinstance(v, list) else v) for k, v in b.parameters().items()}
    return {"mechanism": "shifted log-Gaussian (eqs 3-6)", "parameters": params,
            "edge_convention": EDGE_CONVENTION, "sigma": _num(b.sigma, b.dps),
            "v0": _num(b.v0, b.dps), "rows": [_row_json(row, b.dps) for row in b.rows]}


def json_text(obj, indent: int = 1) -> str:
    """JSON text of :func:`to_json`'s dict (numbers written as numbers, at full digits)."""
    def enc(x, depth):
        pad = "\n" + " " * (indent * (depth + 1))
        end = "\n" + " " * (indent * depth)
        if isinstance(x, _Raw):
            return str(x)
        if isinstance(x, dict):
            if not x:
                return "{}"
            items = [f"{pad}{_json_str(k)}: {enc(v, depth + 1)}" for k, v in x.items()]
            return "{" + ",".join(items) + end + "}"
        if isinstance(x, (list, tuple)):
            if not x:
                return "[]"
            return "[" + ",".join(pad + enc(v, depth + 1) for v in x) + end + "]"
        if x is None:
            return "null"
        if isinstance(x, bool):
            return "true" if x else "false"
        if isinstance(x, int):
            return str(x)
        if isinstance(x, float):
            return repr(x) if math.isfinite(x) else "null"
        if isinstance(x, str):
            return _json_str(x)
        return enc(_num(x, mpmath.mp.dps), depth)
    return enc(obj, 0) + "\n"


def _json_str(s: str) -> str:
    import json

    return json.dumps(s, ensure_ascii=False)


# ============================================================================================
# The comparison with the Airy mechanism (the --plot figure)
# ============================================================================================


@dataclass(frozen=True)
class Curves:
    """v(n) and eps(n) over ``ns`` for the paper's mechanism (``v``, ``eps_exact``, ``eps_cks``)
    and the Airy log-mechanism at the same (r0, c) (``airy_v``, ``airy_eps_cks``; None where its
    float64 budget engine refuses, with ``airy_note``)."""

    ns: list
    v: list
    eps_exact: list
    eps_cks: list
    airy_v: list | None
    airy_eps_cks: list | None
    delta: float
    releases: int
    airy_note: str | None = None
    marks: list = field(default_factory=list)


def curves(r0, c, ns: Sequence[int] | None = None, delta=1e-6, releases: int = 1,
           marks: Sequence[int] = ()) -> Curves:
    """The data of :func:`plot` (float64 values; the paper's mechanism at 15 digits)."""
    if ns is None:
        ns = parse_counts("1:1e6:log4")
    ns = [k for k in _counts(list(ns)) if k >= 1]
    with mpmath.workdps(15):
        b = guarantee(r0, c, ns, delta=delta, releases=releases, dps=15)
    get = {cv_method: [] for cv_method in ("exact", "cks")}
    for row in b.rows:
        by = {cv.method: cv for cv in row.conversions}
        for m in get:
            e = by[m].eps
            get[m].append(float(e) if e is not None else math.nan)
    airy_v = airy_eps = None
    note = None
    try:
        from .airy import AiryLogMechanism

        a = AiryLogMechanism(r0, c)
        airy_v = [a.v(k) for k in ns]
        with mpmath.workdps(15):
            airy_eps = [float(zcdp.cks_eps(releases * mpmath.mpf(x), delta)) for x in airy_v]
    except (ValueError, OverflowError) as exc:
        note = f"the Airy mechanism's budget engine refuses these parameters: {exc}"
        airy_v = airy_eps = None
    return Curves(ns, [float(row.v) for row in b.rows], get["exact"], get["cks"], airy_v, airy_eps,
                  float(delta), releases, note, [int(m) for m in marks])


def plot(path, r0, c, ns: Sequence[int] | None = None, delta=1e-6, releases: int = 1,
         marks: Sequence[int] = ()) -> str:
    """Draw v(n) and eps(n) against n for the paper's mechanism and the Airy mechanism with the
    same (r0, c) side by side, into ``path`` (PNG, or any format matplotlib knows by the
    suffix).  Uses matplotlib's object API (no pyplot state, no display).  Returns the path."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    cv = curves(r0, c, ns, delta, releases, marks)
    fig = Figure(figsize=(10.5, 6.2))
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, 2, sharex="col", gridspec_kw={"height_ratios": [3, 1.3]})
    (ax1, ax2), (ax3, ax4) = axes
    k = cv.releases
    kv = f"{k}\\,v(n)" if k > 1 else "v(n)"
    nan = math.nan
    pos = lambda xs: [x if x > 0 else nan for x in xs]  # noqa: E731 -- eps = 0 is off a log axis
    ax1.loglog(cv.ns, [k * x for x in cv.v], "-", color="C0", lw=2,
               label="shifted log-Gaussian (this paper)")
    ax2.loglog(cv.ns, pos(cv.eps_exact), "-", color="C0", lw=2,
               label="this paper: exact profile")
    ax2.loglog(cv.ns, pos(cv.eps_cks), "--", color="C2", lw=1.6,
               label="this paper: CKS from $\\rho$")
    if cv.airy_v is not None:
        ax1.loglog(cv.ns, [k * x for x in cv.airy_v], "--", color="C3", lw=1.8,
                   label="Airy log-mechanism (same $r_0$, $c$)")
        ax2.loglog(cv.ns, pos(cv.airy_eps_cks), ":", color="C3", lw=2,
                   label="Airy: CKS from $\\rho$")
        ax3.semilogx(cv.ns, [a / g for a, g in zip(cv.airy_v, cv.v)], "-", color="C3", lw=1.6)
        ax4.semilogx(cv.ns, [a / g if g > 0 else nan for a, g in zip(cv.airy_eps_cks, cv.eps_cks)],
                     "-", color="C3", lw=1.6)
        for ax in (ax3, ax4):
            ax.axhline(1, color="0.4", lw=0.8)
    else:
        for ax in (ax3, ax4):
            ax.text(0.5, 0.5, "Airy mechanism not available here", ha="center", va="center",
                    transform=ax.transAxes, fontsize=8, color="0.3")
    ax3.set_ylabel("Airy / paper")
    ax4.set_ylabel("Airy / paper (CKS)")
    ax1.set_ylabel(f"zCDP budget $\\rho = {kv}$")
    ax2.set_ylabel("$\\varepsilon$")
    ax1.set_title(f"zCDP budget: $r_0$ = {r0:g}, $c$ = {c:g}" + (f", {k} releases" if k > 1 else ""))
    ax2.set_title(f"$(\\varepsilon, \\delta)$-DP at $\\delta$ = {cv.delta:g}")
    for ax in (ax3, ax4):
        ax.set_xlabel("count $n$ (the edge $n-1 \\leftrightarrow n$)")
    for ax in (ax1, ax2, ax3, ax4):
        ax.grid(True, which="major", alpha=0.3)
        for m in cv.marks:
            ax.axvline(m, color="0.5", lw=0.8, ls="-.")
    ax1.legend(fontsize=9)
    ax2.legend(fontsize=9)
    if cv.airy_note:
        fig.text(0.5, 0.01, cv.airy_note[:150], ha="center", fontsize=7, color="0.3")
    fig.tight_layout()
    fig.savefig(str(path), dpi=110, metadata={"Software": None} if str(path).endswith(".png") else None)
    return str(path)
