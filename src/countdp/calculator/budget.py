"""The privacy budget of the shifted log-Gaussian mechanism: from (r0, c) to the guarantee at a
count n, and back from a target guarantee to r0.

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

Values are computed at the working precision (``mpmath.mp.dps``, set with ``mpmath.workdps``).
Examples (30 digits; values rounded for the page)::

    >>> from countdp.calculator import budget
    >>> b = budget.guarantee(r0=0.05, c=1, n=10, delta=1e-6)
    >>> row = b.rows[0]
    >>> [(cv.method, round(float(cv.eps), 2)) for cv in row.conversions]
    [('exact', 18.48), ('cks', 19.56), ('bun-steinke', 20.61)]
    >>> round(float(row.v), 4), round(float(row.expected_error), 4)
    (4.6249, 0.275)
    >>> s = budget.solve_r0(n=10, c=1, target_eps=1, delta=1e-6)
    >>> round(float(s.r0), 4), round(float(s.budget.rows[0].eps), 6)
    (0.6256, 1.0)
    >>> [float(r.v) for r in budget.guarantee(0.05, 1, [1, 10**6]).rows][1] < 1e-8
    True
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath

from .. import formulas
from ..divergence import profile, zcdp
from ..mechanisms.log_gaussian import ShiftedLogGaussian
from ..numerics import validate
from ..numerics.digits import significant
from ..numerics.tolerance import working_precision
from .counts import count_list

__all__ = [
    "CONVERSIONS", "LABELS", "EDGE_CONVENTION", "MAX_RELEASES", "Conversion", "Row", "Budget",
    "Solution", "Unreachable", "guarantee", "solve_r0", "edge", "check_releases", "check_delta",
    "check_eps", "check_target",
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
#: the most independent releases one budget composes
MAX_RELEASES = 10 ** 9
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
    ``expected_error``: E|Y - n| of the released count (exact); ``error_bound``: Theorem 3.1(i)'s r0 (n+c)/(1+c); ``target``: eq (2)'s r max(n, 1)
    (None without r)."""

    n: int
    edge: tuple
    v: object
    rho: object
    conversions: tuple = ()
    expected_error: object = None
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



def edge(n: int) -> tuple[int, int]:
    """The pair of counts whose releases v(n) bounds: (n-1, n); (0, 1) for n = 0."""
    n = validate.count("n", n)
    return (0, 1) if n == 0 else (n - 1, n)



# ============================================================================================
# The parameters' checks (the command line's options run them too)
# ============================================================================================


def check_releases(k) -> int:
    """The number of independent releases: an integer in [1, MAX_RELEASES]."""
    return validate.count("releases", k, lo=1, hi=MAX_RELEASES)


def check_delta(delta):
    """The delta of an (eps, delta) guarantee: 0 < delta < 1."""
    return validate.real("delta", delta, lo=0, hi=1)


def check_eps(eps):
    """The eps of an (eps, delta) guarantee: eps >= 0."""
    return validate.real("eps", eps, lo=0, lo_open=False)


def check_target(name: str, x):
    """A target guarantee (``target_rho`` or ``target_eps``): a real number > 0."""
    return validate.real(name, x, lo=0)


# ============================================================================================
# The pieces
# ============================================================================================


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
    """A number for a message: a Python number as ``%g``, otherwise ``digits`` significant digits
    at full range."""
    if isinstance(x, (int, float)) and not isinstance(x, bool) and abs(x) < 1e15:
        return f"{x:.{digits}g}"
    return significant(x, digits, min_fixed=-5)


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
        d = mpmath.mpf(0) if rho == 0 else formulas.bun_steinke_delta(rho, eps)
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
    err = mech.expected_abs_error_released(n)
    target = formulas.target(n, mech.r) if mech.r is not None else None
    return Row(n, edge(n), v, rho, tuple(convs), err, mech.error_bound(n), target)


def _check_common(delta, eps, releases, dps):
    if delta is not None:
        delta = check_delta(delta)
    if eps is not None:
        eps = check_eps(eps)
    releases = check_releases(releases)
    dps = mpmath.mp.dps if dps is None else validate.dps(dps)
    return delta, eps, releases, dps


def guarantee(r0, c, n, r=None, delta=None, eps=None, releases: int = 1, dps: int | None = None
           ) -> Budget:
    """The guarantee of the mechanism with parameters (r0, c[, r]) on the edge at each count n.

    ``n``: a count, an iterable of counts, or a string for :func:`~countdp.calculator.counts.parse_counts`;
    ``delta``: also give eps at this delta (every conversion, tightest first); ``eps``: also give
    delta at this eps; ``releases``: k independent releases (rho = k v(n)); ``dps``: working
    precision in digits (None: the ambient ``mpmath.mp.dps``).  Values are mpmath numbers at full range.

    >>> b = guarantee(0.05, 1, "1,1000", delta=1e-6)
    >>> list((row.n, round(float(row.eps), 4)) for row in b.rows)
    [(1, 348.8455), (1000, 0.117)]
    >>> round(float(guarantee(0.05, 1, 10, eps=1).rows[0].delta), 4)
    0.7958
    """
    delta, eps, releases, dps = _check_common(delta, eps, releases, dps)
    ns = count_list(n)
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
    delta, _, releases, dps = _check_common(delta, None, releases, dps)
    if (target_rho is None) == (target_eps is None):
        raise ValueError("give exactly one of target_rho and target_eps")
    if target_rho is not None:
        target_rho = check_target("target_rho", target_rho)
    else:
        target_eps = check_target("target_eps", target_eps)
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
                                           gap))
    with mpmath.workdps(dps):
        r0 = +r0
        b = guarantee(r0, c, n, r=r, delta=delta, releases=k)
        return Solution(n, c, r, k, via, target_rho, target_eps, delta, r0, b.sigma, b)


def _unreachable(n, c, r, k, target_rho, target_eps, delta, via, r0, limit, gap) -> str:
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

