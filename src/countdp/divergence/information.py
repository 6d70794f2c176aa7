"""Information quantities of the many-count argument (Lemma 6.3, Theorem 6.4) and the total
variation distance of the two-count argument (Proposition 6.2, eq 16).

* Priors: the Shannon entropy H(J) of a pmf and the triple (H(J), E J, E(J - j*)^2) that
  eq (19) needs (:func:`prior_moments`, :func:`many_count_bound_for_prior`).
* Single laws: the differential entropy h = -int f log f by mpmath quadrature.
* Two laws: d_TV(P, Q) = (sum over atoms |p_a - q_a| + int |p - q|)/2 by mpmath quadrature split
  at the density crossings.  (The KL divergence is :func:`countdp.divergence.renyi.kl`.)
* A channel: the mutual information I(J; Y) for finitely supported J by composite
  Gauss-Legendre quadrature in float64 (error from doubling the rule plus a proven tail bound),
  its Monte Carlo estimate from the channel's samplers, and the error D = E|J - Jt(Y)| of the
  estimator Jt(Y) = Y - offset.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import mpmath
import numpy as np

from .. import formulas
from ..laws import Density, Law
from ..laws.expectation import quad_expectation
from ..laws.moments import expected_distance
from ..laws.priors import as_pmf
from ..numerics import validate
from ..numerics.estimate import Estimate
from ..numerics.montecarlo import MCEstimate, mc_mean

__all__ = ["shannon_entropy", "PriorMoments", "squared_deviation", "prior_moments",
           "many_count_bound_for_prior",
           "differential_entropy", "total_variation", "Information", "mutual_information",
           "mutual_information_mc", "estimator_error"]


def _mp(x) -> mpmath.mpf:
    if isinstance(x, (np.floating, np.integer)):
        x = x.item()
    return mpmath.mpf(x)


# ============================================================================================
# Priors
# ============================================================================================


def shannon_entropy(prior) -> Any:
    """H(J) = -sum p log p (natural log).  mpf probabilities give an mpf at the current
    precision; floats a float summed exactly rounded (math.fsum)."""
    ps = as_pmf(prior).ps
    if any(isinstance(p, mpmath.mpf) for p in ps):
        return -mpmath.fsum(p * mpmath.log(p) for p in ps if p > 0)
    ps = np.asarray(ps, dtype=float)
    ps = ps[ps > 0]
    return -math.fsum((ps * np.log(ps)).tolist())


@dataclass(frozen=True)
class PriorMoments:
    """What eq (19) needs of a prior: H(J), E J and E(J - j*)^2."""

    entropy: Any
    mean: Any
    second_moment: Any


def squared_deviation(pmf, j) -> Any:
    """E(J - j)^2 of a pmf about the point j (the privacy cost of eq 19 with j = j*): mpf
    probabilities summed in mpmath, floats with math.fsum."""
    if any(isinstance(p, mpmath.mpf) for p in pmf.ps):
        return mpmath.fsum(p * (k - j) ** 2 for k, p in zip(pmf.ks, pmf.ps))
    ka = np.asarray(pmf.ks, dtype=float)
    pa = np.asarray(pmf.ps, dtype=float)
    return math.fsum((pa * (ka - j) ** 2).tolist())


def prior_moments(prior, j_star=None) -> PriorMoments:
    """H(J), E J and E(J - j*)^2 of a finitely supported J (j* defaults to 0); mpf
    probabilities are summed in mpmath, floats with math.fsum."""
    pmf = as_pmf(prior)
    j = 0 if j_star is None else validate.count("j_star", j_star, lo=0)
    H = shannon_entropy(pmf)
    if any(isinstance(p, mpmath.mpf) for p in pmf.ps):
        mean = mpmath.fsum(p * k for k, p in zip(pmf.ks, pmf.ps))
    else:
        ka = np.asarray(pmf.ks, dtype=float)
        mean = math.fsum((np.asarray(pmf.ps, dtype=float) * ka).tolist())
    return PriorMoments(H, mean, squared_deviation(pmf, j))


def many_count_bound_for_prior(prior, j_star, n, r) -> mpmath.mpf:
    """eq (19) for a prior given as a pmf, with H, E J and E(J - j*)^2 summed from the pmf."""
    n = validate.count("n", n, lo=1)
    validate.real("r", float(r), lo=0, hi=1)
    m = prior_moments(prior, j_star)
    if m.second_moment <= 0:
        raise ValueError("j_star must give E(J - j*)^2 > 0")
    return formulas.many_count_bound(m.entropy, m.mean, m.second_moment, n, r)


# ============================================================================================
# One law: differential entropy
# ============================================================================================


def differential_entropy(law: Law, breaks=()) -> Estimate:
    """h = -int f log f of a continuous law by mpmath quadrature, split at ``breaks`` (kinks);
    log f is read in the density's coordinate t, log f(x(t)) = log f_t(t) - log x'(t), which
    stays exact where x(t) rounds (a log-shift law far below its centre: x(t) -> -c)."""
    d = law.density
    if d is None or law.atoms():
        raise ValueError("law must be continuous (a density and no atoms)")
    return Estimate(*quad_expectation(law, lambda t: d.mp_log_dx_dt(t) - d.mp_log_integrand_t(t), breaks,
                                      g_of_t=True))


# ============================================================================================
# Two laws: total variation
# ============================================================================================


def _t_lo(d: Density):
    lo = getattr(d, "mp_t_lo", lambda: None)()
    if lo is not None:
        return lo
    t = d.t_range()[0]
    return mpmath.mpf(t) if np.isfinite(t) else -mpmath.inf


def _t_hi(d: Density):
    t = d.t_range()[1]
    return mpmath.mpf(t) if np.isfinite(t) else mpmath.inf


def _crossings(lp: Callable, lq: Callable, lo, hi, scale) -> list:
    """Sign changes of log p - log q on an 800-point grid of [lo, hi], each refined by bisection
    to ~16 eps x ``scale``."""

    def diff(t):
        a, b = lp(t), lq(t)
        if mpmath.isinf(a) or mpmath.isinf(b):
            return None
        return a - b

    out = []
    prev_t, prev_v = None, None
    for t in (lo + (hi - lo) * k / 800 for k in range(1, 800)):
        v = diff(t)
        if v is None:
            prev_t, prev_v = None, None
            continue
        if prev_v is not None and (v > 0) != (prev_v > 0):
            a, b, va = prev_t, t, prev_v
            for _ in range(300):
                mid = (a + b) / 2
                vm = diff(mid)
                if (vm > 0) == (va > 0):
                    a, va = mid, vm
                else:
                    b = mid
                if b - a < scale * mpmath.eps * 16:
                    break
            out.append((a + b) / 2)
        prev_t, prev_v = t, v
    return out


def _pair_nodes(pd: Density, qd: Density, breaks=()) -> list:
    """Quadrature nodes in the shared coordinate t for an integral over two densities: the
    support ends, each centre +- (0, 1, 2, 4, ..., 32) scales, ``breaks`` (x-values: kinks) and
    every crossing of the densities within 40 scales of the centres."""
    if not pd.same_coordinate(qd):
        raise ValueError("both densities must share an integration coordinate")
    lo, hi = min(_t_lo(pd), _t_lo(qd)), max(_t_hi(pd), _t_hi(qd))
    cp, sp = (_mp(v) for v in pd.t_center_scale())
    cq, sq = (_mp(v) for v in qd.t_center_scale())
    pts = {_t_lo(pd), _t_lo(qd), _t_hi(pd), _t_hi(qd)}
    for c0, s0 in ((cp, sp), (cq, sq)):
        for k in (0, 1, 2, 4, 8, 16, 32):
            pts |= {c0 + k * s0, c0 - k * s0}
    for b in breaks:
        pts.add(pd.to_t(_mp(b)))
    g_lo = max(lo, min(cp - 40 * sp, cq - 40 * sq))
    g_hi = min(hi, max(cp + 40 * sp, cq + 40 * sq))
    pts |= set(_crossings(pd.mp_log_integrand_t, qd.mp_log_integrand_t, g_lo, g_hi, min(sp, sq)))
    inner = sorted(p for p in pts if lo < p < hi)
    return [lo] + inner + [hi]


def total_variation(P: Law, Q: Law, breaks=()) -> Estimate:
    """d_TV(P, Q) = (sum over atoms |p_a - q_a| + int |p - q|) / 2, exactly up to quadrature:
    mpmath tanh-sinh in the laws' shared integration coordinate, split at the support ends, at
    the laws' centres +- (1, 2, 4, ..., 32) scales, at ``breaks`` (x-values: kinks), and at every
    crossing of the two densities."""
    pa, qa = P.atoms(), Q.atoms()
    s = mpmath.fsum(abs(pa.get(x, 0) - qa.get(x, 0)) for x in set(pa) | set(qa))
    pd, qd = P.density, Q.density
    if pd is None and qd is None:  # each |p_a - q_a| rounded once, the sum once
        return Estimate(s / 2, mpmath.eps * s)
    if pd is None or qd is None:
        d = pd if pd is not None else qd
        return Estimate((s + d.mass()) / 2, mpmath.eps * (s + d.mass()))
    nodes = _pair_nodes(pd, qd, breaks)

    def f(t):
        a, b = pd.mp_log_integrand_t(t), qd.mp_log_integrand_t(t)
        ea = mpmath.exp(a) if a != -mpmath.inf else mpmath.mpf(0)
        eb = mpmath.exp(b) if b != -mpmath.inf else mpmath.mpf(0)
        return abs(ea - eb)

    val, e = mpmath.quad(f, nodes, error=True, maxdegree=10)
    err = abs(e) + 1000 * mpmath.eps * (abs(val) + 1)
    return Estimate((s + val) / 2, err / 2)


# ============================================================================================
# A channel: mutual information I(J; Y)
# ============================================================================================


@dataclass(frozen=True)
class Information(Estimate):
    """I(J;Y) with an error bound: |I_n - I_2n| of the composite Gauss-Legendre rule, plus the
    tail beyond the integration window (<= log(1/min p_j) times the mixture mass outside), plus
    float64 rounding; ``method`` says how it was computed."""

    method: str = ""
    tail_mass: float = 0.0


def _np_coord(key):
    """(x(t), log dx/dt) in numpy for a coordinate key of countdp.laws."""
    if key == ("identity",):
        return (lambda t: t), (lambda t: np.zeros_like(t))
    if key[0] == "log-shift":
        c = float(key[1])
        return (lambda t: np.exp(t) - c), (lambda t: t)
    raise ValueError(f"unsupported integration coordinate {key!r}")


@dataclass(frozen=True)
class _Channel:
    """The support points of J with positive mass, their probabilities and the laws of Y."""

    ks: list
    ps: list
    laws: list


def _channel(prior, channel: Callable) -> _Channel:
    pmf = as_pmf(prior)
    keep = [(k, p) for k, p in zip(pmf.ks, pmf.ps) if p > 0]
    return _Channel([k for k, _ in keep], [p for _, p in keep], [channel(k) for k, _ in keep])


@dataclass(frozen=True)
class _AtomPart:
    """The atoms' share of I(J;Y), the mixture mass on atoms, and whether there are atoms."""

    information: Any
    mass: Any
    present: bool


def _atom_information(ch: _Channel) -> _AtomPart:
    """sum over atoms x of sum_j p_j a_j(x) log(a_j(x)/a_mix(x)), exactly in mpmath."""
    atom_locs = set()
    for law in ch.laws:
        atom_locs |= set(law.atoms())
    part, mass = mpmath.mpf(0), mpmath.mpf(0)
    for x in atom_locs:
        a = [law.atoms().get(x, mpmath.mpf(0)) for law in ch.laws]
        mix = mpmath.fsum(_mp(p) * aj for p, aj in zip(ch.ps, a))
        mass += mix
        part += mpmath.fsum(_mp(p) * aj * mpmath.log(aj / mix) for p, aj in zip(ch.ps, a) if aj > 0)
    return _AtomPart(part, mass, bool(atom_locs))


def _panels(dens: list, breaks, span: float) -> np.ndarray:
    """Panel ends in t for the density part: the window [min(c - span s), max(c + span s)] within
    the supports, split at every centre +- (0, 0.5, 1, 2, 3, 5, 8, 13, 21) scales, at the support
    ends and at ``breaks`` (x-values)."""
    cs = np.array([float(d.t_center_scale()[0]) for d in dens])
    ss = np.array([float(d.t_center_scale()[1]) for d in dens])
    A = max(min(float(_t_lo(d)) for d in dens), float(np.min(cs - span * ss)))
    B = min(max(float(_t_hi(d)) for d in dens), float(np.max(cs + span * ss)))
    pts = [A, B]
    for k in (0, 0.5, 1, 2, 3, 5, 8, 13, 21):
        pts.extend(cs + k * ss)
        pts.extend(cs - k * ss)
    for d in dens:
        for end in (float(_t_lo(d)), float(_t_hi(d))):
            if np.isfinite(end):
                pts.append(end)
    for b in breaks:
        pts.append(float(dens[0].to_t(_mp(b))))
    pts = np.unique(np.clip(np.array(pts, dtype=float), A, B))
    pts = pts[np.concatenate([[True], np.diff(pts) > 1e-12 * max(1.0, float(np.max(np.abs(pts))))])]
    if pts[-1] < B:
        pts = np.append(pts, B)
    return pts


@dataclass(frozen=True)
class _PanelRule:
    """int sum_j p_j f_j log(f_j/f_mix) dt (``value``) and int f_mix dt (``mass``) by one rule."""

    value: float
    mass: float


def _gauss_legendre_information(dens: list, logp: np.ndarray, pts: np.ndarray, nq: int) -> _PanelRule:
    """The density part of I(J;Y) and the mixture mass over the panels ``pts`` by ``nq``-point
    Gauss-Legendre on each panel, in float64 (log-sum-exp for the mixture)."""
    to_x, log_jac = _np_coord(dens[0].coordinate_key())
    xg, wg = np.polynomial.legendre.leggauss(nq)
    lo_, hi_ = pts[:-1], pts[1:]
    half = (hi_ - lo_) / 2
    t = (((lo_ + hi_) / 2)[:, None] + half[:, None] * xg[None, :]).ravel()
    w = (half[:, None] * wg[None, :]).ravel()
    x, lj = to_x(t), log_jac(t)
    with np.errstate(divide="ignore", invalid="ignore"):
        lf = np.array([d.logpdf(x) for d in dens]) + lj[None, :]
    lf = np.where(np.isnan(lf), -np.inf, lf)
    lw = lf + logp[:, None]
    mx = np.max(lw, axis=0)
    mxs = np.where(np.isfinite(mx), mx, 0.0)
    with np.errstate(divide="ignore"):  # no component has mass at a node: log 0 = -inf, as meant
        lmix = mxs + np.log(np.sum(np.exp(lw - mxs[None, :]), axis=0))
    with np.errstate(invalid="ignore"):
        terms = np.where(np.isfinite(lf), np.exp(lw) * (lf - lmix[None, :]), 0.0)
    mix = np.where(np.isfinite(mx), np.exp(lmix), 0.0)
    return _PanelRule(float(np.dot(w, np.sum(terms, axis=0))), float(np.dot(w, mix)))


def mutual_information(prior, channel: Callable, breaks=(), span: float = 40.0,
                       order: int = 24) -> Information:
    """I(J;Y) = sum_j p_j [ sum_atoms a_j log(a_j/a_mix) + int f_j log(f_j/f_mix) ] for a finitely
    supported prior {j: p_j} and ``channel(j)`` -> the law of Y given J = j (continuous or mixed:
    atoms plus a density; all densities in one integration coordinate).

    The density part is integrated in float64 over [min_j(c_j - span s_j), max_j(c_j + span s_j)]
    (c_j, s_j: centre and scale of each component) with Gauss-Legendre of ``order`` and
    2 ``order`` nodes on the panels of :func:`_panels`.  The integrand sum_j p_j f_j log(f_j/f_mix)
    is pointwise in [0, f_mix log(1/min p_j)], so the part outside the window is bounded by the
    missing mixture mass times log(1/min p_j)."""
    ch = _channel(prior, channel)
    pf = np.array([float(p) for p in ch.ps])
    if abs(pf.sum() - 1) > 1e-9:
        raise ValueError(f"prior must sum to 1, got {pf.sum()}")
    atoms = _atom_information(ch)
    idx = [i for i, law in enumerate(ch.laws) if law.density is not None and law.density.mass() > 0]
    if not idx:
        return Information(float(atoms.information), 1e-15, "exact sum over atoms")
    dens = [ch.laws[i].density for i in idx]
    if len({d.coordinate_key() for d in dens}) != 1:
        raise ValueError("all component densities must share one integration coordinate")
    pts = _panels(dens, breaks, span)
    logp = np.log(pf[idx])
    coarse = _gauss_legendre_information(dens, logp, pts, order)
    fine = _gauss_legendre_information(dens, logp, pts, 2 * order)
    tail = max(0.0, 1.0 - (float(atoms.mass) + fine.mass))
    val = float(atoms.information) + fine.value
    err = abs(coarse.value - fine.value) + tail * math.log(1 / pf.min()) + 1e-14 * (1 + abs(val))
    return Information(val, err, f"Gauss-Legendre {order}/{2 * order} on {len(pts) - 1} panels"
                       + (" plus atoms" if atoms.present else ""), tail)


def _log_likelihoods(ch: _Channel, y: np.ndarray, atom_locs: list,
                     atom_table: np.ndarray) -> np.ndarray:
    """log f_j(y) for every component j and draw y: log atom masses at the atoms (recognised by
    exact equality), log densities elsewhere."""
    m = y.size
    lf = np.full((len(ch.laws), m), -np.inf)
    at_atom = np.zeros(m, dtype=bool)
    for a_i, xa in enumerate(atom_locs):
        hit = y == xa
        if hit.any():
            with np.errstate(divide="ignore"):
                lf[:, hit] = np.log(atom_table[:, a_i])[:, None]
            at_atom |= hit
    cont = ~at_atom
    if cont.any():
        for i, law in enumerate(ch.laws):
            if law.density is not None:
                lf[i, cont] = law.density.logpdf(y[cont])
    return lf


def mutual_information_mc(prior, channel: Callable, rng: np.random.Generator,
                          draws: int = 200_000) -> MCEstimate:
    """Monte Carlo of I(J;Y) = E log(p(Y|J)/p_mix(Y)): J from the prior, Y from
    ``channel(J).sample`` (the laws' own samplers); atoms are recognised by exact equality."""
    ch = _channel(prior, channel)
    pf = np.array([float(p) for p in ch.ps])
    pf = pf / pf.sum()
    atom_locs = sorted(set().union(*[set(law.atoms()) for law in ch.laws]))
    atom_f = [float(x) for x in atom_locs]
    table = np.array([[float(law.atoms().get(x, 0)) for x in atom_locs] for law in ch.laws]) \
        if atom_locs else np.zeros((len(ch.laws), 0))

    def draw(g, m):
        js = g.choice(len(ch.laws), size=m, p=pf)
        y = np.empty(m)
        for i in range(len(ch.laws)):
            sel = js == i
            if sel.any():
                y[sel] = ch.laws[i].sample(g, int(sel.sum()))
        lf = _log_likelihoods(ch, y, atom_f, table)
        lw = lf + np.log(pf)[:, None]
        mx = np.max(lw, axis=0)
        lmix = mx + np.log(np.sum(np.exp(lw - mx[None, :]), axis=0))
        return lf[js, np.arange(m)] - lmix

    return mc_mean(draw, rng, draws)


def estimator_error(prior, channel: Callable, offset=0, per_count: Callable | None = None) -> Estimate:
    """D = E|J - Jt(Y)| for the estimator Jt(Y) = Y - offset: sum_j p_j E|Y_j - (offset + j)|,
    by mpmath quadrature of each law (or ``per_count(j)`` = E|Y_j - (offset + j)| when given, e.g.
    a closed form)."""
    ch = _channel(prior, channel)
    off = _mp(offset)
    total, err = mpmath.mpf(0), mpmath.mpf(0)
    for k, p, law in zip(ch.ks, ch.ps, ch.laws):
        if per_count is not None:
            v, e = _mp(per_count(k)), mpmath.mpf(0)
        else:
            est = expected_distance(law, off + k)
            v, e = est.value, est.error
        total += _mp(p) * v
        err += _mp(p) * e
    return Estimate(total, err + mpmath.eps * 100 * (1 + total))
