"""Section 5 of the paper: exact divergence before postprocessing.

eq (10)      log(U_n + c) ~ N(log(n+c) - sigma^2, sigma^2)
eq (11)      D_alpha(N(mu, s^2) || N(nu, s^2)) = alpha (mu - nu)^2 / (2 s^2)
eq (12)      D_alpha(U_n || U_m) = D_alpha(U_m || U_n) = alpha log^2((n+c)/(m+c)) / (2 sigma^2)
postprocess  clipping (atom at 0) and rounding keep the released D_alpha below alpha v(n)
monotone     log((n+c)/(n-1+c)) = log(1 + 1/(n-1+c)) decreases in n, = 1/n + O(n^-2)
product      the histogram release has the single-coordinate budget

Beside each check, its certificates: Arb balls (python-flint) of the same integrals, from the
densities as written with proven tail bounds, and range checks of the budget over n.
"""

import sys

import mpmath
import numpy as np
from flint import arb, fmpq

from countdp import formulas
from countdp.arb.budget import certify_budget_asymptotics, certify_budget_decreasing
from countdp.arb.log_gaussian import log_count_law
from countdp.arb.renyi import (decide_released_budget, equal_variance_renyi, product_renyi,
                               unclipped_renyi)
from countdp.arb.verdicts import (ball_str, control_verdict, decide_contains,
                                  to_arb, verdict_all)
from countdp.divergence.product import MpIntegrator, renyi_product
from countdp.divergence.renyi import renyi
from countdp.harness.claims import certificate, claim
from countdp.harness.faults import (fault, offset_argument, replace_body, scale, set_attribute,
                                    wrap_body)
from countdp.harness.results import fmt
from countdp.laws import Gaussian
from countdp.mechanisms import ShiftedLogGaussian
from countdp.numerics.contexts import ball
from countdp.numerics.montecarlo import mc_mean
from countdp.numerics.tolerance import working_precision

import _grid
from _common import PREC, CLOSED_PREC, ENCLOSED, BALL_ROUTE, BALL_CLOSED_ROUTE, QUAD_ROUTE
from figures import sec5_divergence as plots

TITLE = "Section 5: exact divergence (eqs 10-12), postprocessing, monotonicity, product"
FAULTS = []  # the fault catalogue: each claim block below adds its own faults
CERT_R0, CERT_C = fmpq(1, 4), 1  # the certificates' design (r = 1/2): sigma ~ 0.157


def _certified_range(quick: bool) -> int:
    """The counts n = 1..N a range certificate decides: N = 10^3 quick, 10^4 full."""
    return 1000 if quick else 10_000


#: eq (10)'s Monte Carlo is designed so that the mean-one drift -sigma^2/2 lies at least this many
#: standard errors from the paper's mean log(n+c) - sigma^2 (with draws >= 4 SEPARATION^2/sigma^2)
SEPARATION = 10
Z_RANGE = 14  # |z| <= 14 holds all but 2 Phi(-14) < 1e-43 of the standard normal mass


def log_count_moments_from_eq4(n, c, s):
    """E log(U_n + c) and Var log(U_n + c) for U_n = U_n(Z) the map of eq (4) (formula
    ``unclipped_release``) of a standard normal Z: mpmath quadrature of h(U_n(z)) phi(z), i.e.
    the count-space law of eq (4) pushed forward by log(u + c), without eq (10)'s Gaussian.
    Returns (mean, variance, error estimate); the normal mass beyond |z| = Z_RANGE is in the error.

    Gauss-Legendre on each piece (the integrands are entire: eq (4)'s log map times phi), its
    error estimated by mpmath from successive degrees; the two integrals share their nodes, so
    log(U_n(z) + c) and phi(z) are evaluated once per node."""
    values = {}

    def at(z):
        v = values.get(z)
        if v is None:
            v = values[z] = (log_u(z), mpmath.npdf(z))
        return v

    def log_u(z):
        return mpmath.log(formulas.unclipped_release(n, c, s, z) + c)

    def first(z):
        w, phi = at(z)
        return w * phi

    def second(z):
        w, phi = at(z)
        return (w - m1) ** 2 * phi

    nodes = [-Z_RANGE, -8, -4, -2, 0, 2, 4, 8, Z_RANGE]
    m1, e1 = mpmath.quad(first, nodes, error=True, method="gauss-legendre")
    m2, e2 = mpmath.quad(second, nodes, error=True, method="gauss-legendre")
    tail = 2 * mpmath.ncdf(-Z_RANGE) * (1 + abs(log_u(-Z_RANGE)) + abs(log_u(Z_RANGE))) ** 2
    return m1, m2, abs(e1) + abs(e2) + tail


def log_count_cdf_from_eq4(n, c, s, t):
    """P(log(U_n + c) <= t) = Phi(z_t) with z_t the root of log(U_n(z) + c) = t (eq (4)'s map is
    increasing in z), located by the secant method on the map itself."""
    z = mpmath.findroot(lambda z: mpmath.log(formulas.unclipped_release(n, c, s, z) + c) - t, (0, 1))
    return mpmath.ncdf(z)


def _log_count_monte_carlo(mech, n, rng, draws, chunk=2**20):
    """Mean and unbiased variance of log(U_n + c) over ``draws`` unclipped releases (streamed)."""
    cc, done, shift, s1, s2 = float(mech.c), 0, None, 0.0, 0.0
    while done < draws:
        m = min(chunk, draws - done)
        w = np.log(mech.release(np.full(m, n), rng, clip=False) + cc)
        shift = float(np.mean(w)) if shift is None else shift
        s1, s2, done = s1 + float(np.sum(w - shift)), s2 + float(np.sum((w - shift) ** 2)), done + m
    mean = s1 / done
    return shift + mean, (s2 - done * mean * mean) / (done - 1)


def log_count_draws(quick, sigma):
    """Draws for eq (10)'s Monte Carlo at this sigma: the grid's, raised so that the mean-one
    drift's mean lies SEPARATION standard errors (sigma/sqrt(draws)) away."""
    return max(_grid.mc_draws(quick), int(np.ceil((2 * SEPARATION / float(sigma)) ** 2)))


@claim("eq10", routes=["Gaussian law N(log(n+c) - sigma^2, sigma^2) (eq 10)",
                       "mpmath quadrature of E log(U_n + c), Var log(U_n + c) over the standard normal z with "
                       "U_n(z) = (n+c) exp(sigma z - sigma^2) - c (eq 4's map, not eq 10's law), and "
                       "P(log(U_n + c) <= mean + k sd) = Phi(root of the map)",
                       "Monte Carlo of the mechanism, 5 s.e., draws such that the mean-one drift lies >= 10 s.e. "
                       "away"])
def equation_10(check):
    for (r, r0, cc) in _grid.designs(check.quick):
        mech = ShiftedLogGaussian(r0, cc, r=r)
        s = mech.mp_sigma()
        draws = log_count_draws(check.quick, s)
        for n in _grid.counts(check.quick):
            p = {"r": r, "r0": r0, "c": cc, "n": n}
            mu, var = formulas.log_mean(n, cc, s), formulas.log_variance(s)
            mean, v, err = log_count_moments_from_eq4(n, cc, s)
            tol = err + working_precision(6) * (1 + abs(mu))
            check.compare({**p, "moment": "mean"}, mean, "==", mu, tol, route="quadrature over z of eq (4)'s map")
            check.compare({**p, "moment": "variance"}, v, "==", var, tol, route="quadrature over z of eq (4)'s map")
            for k in (-1, 1, 2):
                F = log_count_cdf_from_eq4(n, cc, s, mu + k * mpmath.sqrt(var))
                check.compare({**p, "event": f"log(U+c) <= mean {k:+d} sd"}, F, "==", mpmath.ncdf(k),
                              working_precision(6), route="cdf: Phi(root of eq (4)'s map) vs Phi(k)")
            m, v_mc = _log_count_monte_carlo(mech, n, check.rng(r, r0, cc, n), draws)
            se = float(s) / np.sqrt(draws)
            q = {**p, "draws": draws}
            check.compare({**q, "moment": "mean"}, m, "==", float(mu), 5 * se, route="Monte Carlo")
            sev = float(var) * np.sqrt(2 / (draws - 1))
            check.compare({**q, "moment": "variance"}, v_mc, "==", float(var), 5 * sev, route="Monte Carlo")
        check.compare({"r0": r0, "c": cc, "draws": draws}, float(s * s / 2) / (float(s) / np.sqrt(draws)), ">=",
                      SEPARATION, 0, route="Monte Carlo design: drift -sigma^2/2 vs -sigma^2 in standard errors",
                      monte_carlo=False)
    # Control: the mean-one drift's law N(log(n+c) - sigma^2/2, sigma^2) against the mechanism's draws,
    # at the smallest sigma of the grid.
    r, r0, cc = min(_grid.designs(check.quick), key=lambda d: formulas.sigma.fp(d[1], d[2]))
    mech = ShiftedLogGaussian(r0, cc, r=r)
    s, draws = float(mech.mp_sigma()), log_count_draws(check.quick, mech.mp_sigma())
    m, _ = _log_count_monte_carlo(mech, 10, check.rng("control"), draws)
    check.control(f"log(U_n + c) ~ N(log(n+c) - sigma^2/2, sigma^2) (n = 10, sigma = {s:.4g}, {draws} draws)", m,
                  "==", np.log(10 + cc) - s * s / 2, 5 * s / np.sqrt(draws))
    check.slack("equality in law: moments and three cdf values agree within quadrature error; Monte Carlo within "
                f"5 s.e., with the mean-one drift >= {SEPARATION} s.e. away at every sigma")


@certificate("eq10", scope="instance")
def log_count_law_from_the_density(cert):
    """Mean, variance, mass and three cdf values of log(U_n + c), integrated from U_n's density."""
    with cert.precision(CLOSED_PREC):
        s_closed = formulas.sigma.ball(CERT_R0, CERT_C)
    with cert.precision(PREC):
        s = formulas.sigma.ball(CERT_R0, CERT_C)
        cases = [(0, s, s_closed), (10, s, s_closed), (1, arb(1), arb(1))]
        if not cert.quick:
            cases += [(1, s, s_closed), (1000, s, s_closed), (3, arb(fmpq(1, 2)), arb(fmpq(1, 2)))]
        for n, sg, sg_closed in cases:
            law = log_count_law(n, CERT_C, sg)
            with cert.precision(CLOSED_PREC):
                mean_closed = formulas.log_mean.ball(n, CERT_C, sg_closed)
                var_closed = formulas.log_variance.ball(sg_closed)
                cdf_closed = {k: ball.ncdf(k) for k in (-1, 1, 2)}
            verdicts = [decide_contains(law.mean, mean_closed), decide_contains(law.var, var_closed),
                        decide_contains(law.mass, 1)]
            verdicts += [decide_contains(law.cdf[k], cdf_closed[k]) for k in (-1, 1, 2)]
            control = decide_contains(law.mean, (to_arb(n) + CERT_C).log() - sg * sg / 2)
            cert.record(f"log(U_n+c): mean, variance, cdf, n={n}, sigma={float(sg.mid()):.6g}",
                        "count-space density f(y) = phi(z(y))/(sigma(y+c)) of eq (4) integrated by acb.integral on "
                        "[y_lo, y_hi] plus tail bounds (N): E log(U_n+c) encloses log(n+c) - sigma^2, Var encloses "
                        "sigma^2, mass encloses 1, P(log(U_n+c) <= mean + k sigma) encloses Phi(k), k = -1, 1, 2; "
                        + ENCLOSED + "; control: mean log(n+c) - sigma^2/2 excluded",
                        law.mean, verdict_all(verdicts + [control_verdict(control)]), control=control.value,
                        mass=ball_str(law.mass), var=ball_str(law.var),
                        **{f"cdf({k})": ball_str(x) for k, x in law.cdf.items()})


FAULTS += [
    # eq (10)
    fault("eq10", "drift -sigma^2/2 in eq (10) (the mean-one drift)", "drift",
          replace_body(formulas.log_mean, lambda ctx, n, c, sigma: ctx.log(ctx.convert(n) + ctx.convert(c))
                       - ctx.convert(sigma) ** 2 / 2)),
    fault("eq10", "log n for log(n+c)", "shift dropped",
          replace_body(formulas.log_mean, lambda ctx, n, c, sigma: ctx.log(ctx.convert(n)) - ctx.convert(sigma) ** 2)),
    fault("eq10", "log(n+1+c) for log(n+c)", "index", offset_argument(formulas.log_mean, "n", 1)),
    fault("eq10", "variance sigma for sigma^2", "exponent",
          replace_body(formulas.log_variance, lambda ctx, sigma: ctx.convert(sigma))),
    fault("eq10", "drift -sigma^2/2 in eq (4), which eq (10) transcribes", "drift",
          wrap_body(formulas.unclipped_release, lambda ctx, f, n, c, sigma, z, drift=None:
                    f(ctx, n, c, sigma, z, -ctx.convert(sigma) ** 2 / 2 if drift is None else drift))),
]


def gaussian_pairs(quick):
    """(mu, nu, s): the quick grid's pairs are among the full grid's (quadrature runs on them)."""
    out = []
    for s in ((0.1, 1.0) if quick else (0.01, 0.1, 1.0, 10.0)):
        for shift in ((0.01, 1.0) if quick else (0.001, 0.01, 0.1, 1.0, 3.0)):
            out.append((0.0, shift * s, s))
    return out


@claim("eq11", routes=["closed form alpha (mu-nu)^2/(2 s^2) (eq 11)",
                       BALL_ROUTE + ": int p^alpha q^(1-alpha), every case",
                       BALL_CLOSED_ROUTE + ": the same integral, every case",
                       QUAD_ROUTE + ": the same integral on the quick grid's cases (in full mode too)",
                       "Monte Carlo of E_Q[(p/q)^alpha] = exp((alpha-1) D_alpha), 5 s.e. (small tilts)"])
def equation_11(check):
    balls = _grid.Coverage("Arb balls (acb.integral and closed form in Phi) of D_alpha, every case")
    quick_pairs = gaussian_pairs(True)
    for (mu, nu, s) in gaussian_pairs(check.quick):
        P, Q = Gaussian(mu, s), Gaussian(nu, s)
        for alpha in _grid.alphas(check.quick):
            p = {"mu": mu, "nu": nu, "s": s, "alpha": alpha}
            closed = formulas.renyi_equal_variance(alpha, mu, nu, s)
            main, quad = _grid.ball_and_quadrature(
                check, P, Q, alpha, p, balls, quadrature=(mu, nu, s) in quick_pairs and alpha in _grid.alphas(True))
            if quad is not None:
                check.compare(p, quad.value, "==", closed, quad.error + closed * working_precision(6),
                              route="quadrature")
            check.compare(p, main.value, "==", closed, main.error + closed * working_precision(6),
                          route="Arb ball (acb.integral) vs eq (11)")
            z = (mu - nu) / s
            if alpha * (alpha - 1) * z * z <= 2:  # the ratio's moments are then well behaved
                fa, fz = float(alpha), float(z)
                mc = mc_mean(lambda g, m: _likelihood_ratio_power(g, m, fz, fa), check.rng(mu, nu, s, alpha),
                             _grid.mc_draws(check.quick))
                target = float(mpmath.exp((alpha - 1) * closed))
                check.compare({**p, "draws": mc.draws}, mc.mean, "==", target, mc.halfwidth,
                              route="Monte Carlo of E_Q[(p/q)^alpha]")
    P, Q = Gaussian(0, 1), Gaussian(1, 1)
    d = renyi(P, Q, 2, method="ball")
    check.control("D_alpha = (alpha - 1)(mu - nu)^2/(2 s^2) (mu - nu = s = 1, alpha = 2)", d.value, "==",
                  mpmath.mpf(1) / 2, d.error)
    coverage = balls.record(check, COVERAGE["eq11"][check.quick])
    check.slack("equality to the error bars; " + coverage)


@certificate("eq11", scope="instance")
def equal_variance_divergence_enclosed(cert):
    """alpha (mu - nu)^2/(2 s^2) lies in the certified D_alpha of two Gaussians."""
    with cert.precision(PREC):
        for alpha, mu, nu, sg in ((2, 0, 1, 1), (fmpq(3, 2), 0, fmpq(1, 3), fmpq(1, 2)), (10, 1, 2, 3)):
            D = equal_variance_renyi(alpha, mu, nu, sg).divergence
            closed = formulas.renyi_equal_variance.ball(alpha, mu, nu, sg)
            cert.record(f"D_alpha(N(mu,s^2)||N(nu,s^2)) alpha={alpha} mu={mu} nu={nu} s={sg}",
                        "alpha(mu-nu)^2/(2s^2) lies in the certified D enclosure", D, decide_contains(D, closed))


def _renyi_with(order=None, two=2):
    """eq (11) with alpha replaced by order(alpha) and 2 s^2 by (two) s^2."""
    def body(ctx, alpha, mu, nu, s):
        a = ctx.convert(alpha)
        d = ctx.convert(mu) - ctx.convert(nu)
        return (a if order is None else order(a)) * d * d / (ctx.convert(two) * ctx.convert(s) ** 2)
    return body


FAULTS += [
    # eq (11)
    fault("eq11", "alpha - 1 for alpha in eq (11)", "index",
          replace_body(formulas.renyi_equal_variance, _renyi_with(order=lambda a: a - 1))),
    fault("eq11", "eq (11) without its 2", "factor", replace_body(formulas.renyi_equal_variance, _renyi_with(two=1))),
    fault("eq11", "|mu - nu| for (mu - nu)^2", "exponent",
          replace_body(formulas.renyi_equal_variance, lambda ctx, alpha, mu, nu, s: ctx.convert(alpha)
                       * abs(ctx.convert(mu) - ctx.convert(nu)) / (2 * ctx.convert(s) ** 2))),
    fault("eq11", "2 s for 2 s^2", "exponent",
          replace_body(formulas.renyi_equal_variance, lambda ctx, alpha, mu, nu, s: ctx.convert(alpha)
                       * (ctx.convert(mu) - ctx.convert(nu)) ** 2 / (2 * ctx.convert(s)))),
]


def _likelihood_ratio_power(g, m, z, alpha):
    """(p/q)(X)^alpha for X ~ Q = N(0, 1) and P = N(z, 1): exp(alpha (z X - z^2/2))."""
    x = g.standard_normal(m)
    return np.exp(alpha * (z * x - z * z / 2))


def count_pairs(quick):
    pairs = [(0, 1), (999_999, 10**6)]
    return pairs if quick else pairs + [(3, 10), (0, 5), (1, 2), (10, 1000), (0, 10**6)]


def _eq12_designs(quick):
    return _grid.designs(quick)[:: 2 if quick else 1]


def _eq12_quick_case(design, pair, alpha) -> bool:
    """Whether a case of the full grid is one of the quick grid's (where quadrature also runs)."""
    return design in _eq12_designs(True) and pair in count_pairs(True) and alpha in _grid.alphas(True)


@claim("eq12", routes=["closed form alpha log^2((n+c)/(m+c))/(2 sigma^2) (eq 12)",
                       BALL_ROUTE + ": D_alpha between the densities of U_n and U_m, both directions, "
                       "every case",
                       BALL_CLOSED_ROUTE + ": the same D_alpha, every case",
                       QUAD_ROUTE + ": the same D_alpha on the quick grid's cases (in full mode too), "
                       "against eq (12) and the acb.integral ball"])
def equation_12(check):
    worst = mpmath.mpf(0)
    balls = _grid.Coverage("Arb balls (acb.integral and closed form in Phi) of D_alpha, every case")
    quads = _grid.Coverage("mpmath quadrature of D_alpha on the quick grid's cases")
    for design in _eq12_designs(check.quick):
        r, r0, cc = design
        mech = ShiftedLogGaussian(r0, cc, r=r)
        s = mech.mp_sigma()
        for (n, m) in count_pairs(check.quick):
            Un, Um = mech.unclipped_law(n), mech.unclipped_law(m)
            for alpha in _grid.alphas(check.quick):
                closed = formulas.renyi_counts(alpha, n, m, cc, s)
                for direction, (A, B) in (("forward", (Un, Um)), ("reverse", (Um, Un))):
                    p = {"r0": r0, "c": cc, "n": n, "m": m, "alpha": alpha, "direction": direction}
                    d = _grid.arb_routes(check, A, B, alpha, p, balls)
                    quad = None
                    if _eq12_quick_case(design, (n, m), alpha):
                        quad = renyi(A, B, alpha, method="quadrature")
                        quads.covered()
                        check.compare(p, quad.value, "==", closed, quad.error + closed * working_precision(6),
                                      route="quadrature vs eq (12)")
                        if d is not None:
                            check.compare(p, quad.value, "==", d.value, quad.error + d.error,
                                          route="mpmath quadrature vs Arb ball (acb.integral)")
                    main = d if d is not None else quad if quad is not None else renyi(A, B, alpha,
                                                                                       method="quadrature")
                    check.compare(p, main.value, "==", closed, main.error + closed * working_precision(6),
                                  route="Arb ball (acb.integral) vs eq (12)")
                    worst = max(worst, abs(main.value - closed) / closed)
    mech = ShiftedLogGaussian(0.05, 1.0, r=0.1)
    d = renyi(mech.unclipped_law(9), mech.unclipped_law(10), 2, method="ball")
    check.control("0.99 v(n) on the unclipped edge 9 <-> 10 (alpha = 2), claimed as equality", d.value, "==",
                  2 * mpmath.mpf("0.99") * mech.mp_v(10), d.error)
    coverage = balls.record(check, COVERAGE["eq12"][check.quick]) + "; " + quads.record(
        check, COVERAGE["eq12 quadrature"][check.quick])
    check.slack(f"equality: worst relative gap of the acb.integral ball to eq (12) {fmt(worst, 3)}; " + coverage)


@certificate("eq12", scope="instance")
def count_divergence_enclosed(cert):
    """alpha log^2((n+c)/(n-1+c))/(2 sigma^2) = alpha v(n) lies in the certified D_alpha(U_n || U_{n-1})."""
    with cert.precision(PREC):
        s = formulas.sigma.ball(CERT_R0, CERT_C)
        for alpha, n in ((2, 1), (2, 10), (10, 3), (2, 1000)):
            D = unclipped_renyi(alpha, n, n - 1, CERT_C, s).divergence
            closed = formulas.renyi_counts.ball(alpha, n, n - 1, CERT_C, s)
            budget = to_arb(alpha) * formulas.budget.ball(n, s, CERT_C)
            cert.record(f"D_alpha(U_n||U_(n-1)) alpha={alpha} n={n}",
                        "alpha log^2((n+c)/(n-1+c))/(2 sigma^2) = alpha v(n) lies in the certified D enclosure "
                        "(unclipped log-space Gaussians, eq 10)", D,
                        verdict_all([decide_contains(D, closed), decide_contains(D, budget)]))


def _counts_with(order=None, two=2, shift=True, square=True):
    """eq (12) with alpha replaced by order(alpha), 2 sigma^2 by (two) sigma^2, c dropped from
    (n+c)/(m+c) (shift=False) or the log not squared (square=False)."""
    def body(ctx, alpha, n, m, c, sigma):
        n, m, a = ctx.convert(n), ctx.convert(m), ctx.convert(alpha)
        gap = ctx.log1p((n - m) / (m + (ctx.convert(c) if shift else 0)))
        s = ctx.convert(sigma)
        return (a if order is None else order(a)) * (gap * gap if square else abs(gap)) / (ctx.convert(two) * s * s)
    return body


FAULTS += [
    # eq (12)
    fault("eq12", "alpha - 1 for alpha in eq (12)", "index",
          replace_body(formulas.renyi_counts, _counts_with(order=lambda a: a - 1))),
    fault("eq12", "eq (12) without its 2", "factor", replace_body(formulas.renyi_counts, _counts_with(two=1))),
    fault("eq12", "log(n/m) for log((n+c)/(m+c))", "shift dropped",
          replace_body(formulas.renyi_counts, _counts_with(shift=False))),
    fault("eq12", "|log((n+c)/(m+c))| without the square", "exponent",
          replace_body(formulas.renyi_counts, _counts_with(square=False))),
]


@claim("sec5.post", routes=["closed form alpha v(n) and atom mass Phi((log(c/(n+c)) + sigma^2)/sigma)",
                            BALL_ROUTE + ": the released law's divergence (atom + density) and the "
                            "unclipped one, every case",
                            BALL_CLOSED_ROUTE + ": the same divergences, every case",
                            QUAD_ROUTE + ": the same divergences on the quick grid's cases (in full mode too)",
                            "exact pmf sums for the rounded integer laws",
                            "Monte Carlo of the atom (fraction of zeros), 5 s.e."])
def postprocessing(check):
    draws = _grid.mc_draws(check.quick)
    table = []
    computed = _grid.Coverage("rounded D_alpha <= alpha v(n)")
    balls = _grid.Coverage("Arb balls (acb.integral and closed form in Phi) of the clipped and unclipped D_alpha")
    for (r, r0, cc) in _grid.designs(True):
        mech = ShiftedLogGaussian(r0, cc, r=r)
        s = mech.mp_sigma()
        for n in (0, 1, 10):
            atom = formulas.atom_mass(n, cc, s)
            law = mech.released_law(n)
            check.compare({"r0": r0, "c": cc, "n": n}, law.atom_mass, "==", atom, working_precision(6), route="atom of the law")
            dens_mass = 1 - law.density.mass()
            check.compare({"r0": r0, "c": cc, "n": n}, dens_mass, "==", atom, working_precision(6),
                      route="1 - mass of the density part")
            frac = float(np.mean(mech.release(np.full(draws, n), check.rng(r0, cc, n)) == 0))
            se = np.sqrt(float(atom) * (1 - float(atom)) / draws)
            check.compare({"r0": r0, "c": cc, "n": n, "draws": draws}, frac, "==", float(atom), 5 * se,
                      route="Monte Carlo fraction of zeros")
        for n in POST_EDGES[check.quick]:
            # one pair of laws per edge, shared by the orders: the rounded laws cache their pmf's edges
            clipped, rounded = (mech.released_law(n - 1), mech.released_law(n)), (mech.rounded_law(n - 1),
                                                                                  mech.rounded_law(n))
            for alpha in POST_ALPHAS[check.quick]:
                bound = alpha * mech.mp_v(n)
                with_quadrature = n in POST_EDGES[True] and alpha in POST_ALPHAS[True]  # the quick grid's cases
                row = {"r0": r0, "c": cc, "n": n, "alpha": alpha}
                U = {"unclipped": _post_routes(check, mech.unclipped_law(n - 1), mech.unclipped_law(n), alpha,
                                               {**row, "law": "unclipped"}, balls, with_quadrature)}
                check.compare({**row, "law": "unclipped"}, U["unclipped"].value, "==", bound,
                              U["unclipped"].error + bound * working_precision(6),
                              route="unclipped D_alpha (Arb ball) = alpha v(n)")
                for name, (A, B) in (("clipped", clipped), ("rounded", rounded)):
                    for direction, (X, Y) in (("forward", (A, B)), ("reverse", (B, A))):
                        if name == "rounded" and (cc < 0.5 and r0 > 0.4) and (check.quick or n > 2):
                            computed.skipped()  # the heavy lognormal tail needs thousands of pmf terms
                            continue
                        if name == "clipped":
                            d = _post_routes(check, X, Y, alpha, {**row, "law": name, "direction": direction}, balls,
                                             with_quadrature)
                            check.compare({**row, "law": name, "direction": direction}, d.value, "<=", bound,
                                          d.error + bound * working_precision(6), route=f"{name} D_alpha <= alpha v(n)")
                            row[f"{name}_{direction}_ratio"] = fmt(d.value / bound, 6)
                            continue
                        try:
                            d = renyi(X, Y, alpha)
                        except ValueError as exc:  # the tilted pmf sum cannot be enumerated
                            computed.missed(f"r0={r0}, c={cc}, n={n}, alpha={alpha}, {direction}: {exc}")
                            continue
                        computed.covered()
                        check.compare({**row, "law": name, "direction": direction}, d.value, "<=", bound,
                                  d.error + bound * working_precision(6), route=f"{name} D_alpha <= alpha v(n)")
                        row[f"{name}_{direction}_ratio"] = fmt(d.value / bound, 6)
                table.append(row)
    mech = ShiftedLogGaussian(0.05, 1.0, r=0.1)
    d = renyi(mech.unclipped_law(9), mech.unclipped_law(10), 2, method="ball")
    check.control("budget 0.99 v(n) on the unclipped edge 9 <-> 10 (alpha = 2)", d.value, "<=",
                  2 * mpmath.mpf("0.99") * mech.mp_v(10), d.error)
    for row in table:
        check.finding(what="D_alpha(released)/(alpha v(n)): how much clipping and rounding lower the divergence",
                  **row)
    lows = [float(v) for row in table for k, v in row.items() if k.endswith("ratio")]
    coverage = computed.record(check, COVERAGE["sec5.post"][check.quick])
    arb = balls.record(check, COVERAGE["sec5.post balls"][check.quick])
    check.slack(f"released/unclipped divergence ratio ranges over [{min(lows):.4g}, {max(lows):.6g}]; {coverage} "
                f"(the clipped law's Arb ball covers every edge; rounding is postprocessing of it); {arb}")


#: sec5.post's edges and orders, per mode (quick, full); mpmath quadrature runs on the quick ones
POST_EDGES = {True: (1, 10), False: (1, 2, 10, 100)}
POST_ALPHAS = {True: (2, 100), False: (1.01, 2, 100)}


def _post_routes(check, A, B, alpha, params, balls, with_quadrature):
    """The Arb balls of D_alpha(A || B) (compared with each other), and on the quick grid's cases
    mpmath quadrature against them; the acb.integral ball (or quadrature if it failed) is returned."""
    d = _grid.arb_routes(check, A, B, alpha, params, balls)
    if with_quadrature or d is None:
        quad = renyi(A, B, alpha, method="quadrature")
        if d is None:
            return quad
        check.compare(params, quad.value, "==", d.value, quad.error + d.error,
                      route="mpmath quadrature vs Arb ball (acb.integral)")
    return d


@certificate("sec5.post", scope="instance")
def released_divergence_below_the_budget(cert):
    """The released (clipped) D_alpha <= alpha v(n), both directions, by separation or the clipping gap."""
    for alpha, n in ((2, 1), (2, 2), (10, 1), (2, 10), (2, 1000)):
        for direction in ("forward", "backward"):
            decision = decide_released_budget(alpha, n, CERT_R0, CERT_C, direction)
            with cert.precision(PREC):
                enclosed = arb(decision.info["D"])
            cert.record(f"clipped D_alpha {direction} alpha={alpha} n={n}",
                        "released (clipped) law: D_alpha <= alpha v(n) (" + decision.info.get("route", "") + ")",
                        enclosed, decision.verdict, **decision.info)


def _atom_with(k=1, swapped=False):
    """Section 5's atom Phi((log(c/(n+c)) + k sigma^2)/sigma), or with (n+c)/c (swapped)."""
    def body(ctx, n, c, sigma, drift=None):
        s, c = ctx.convert(sigma), ctx.convert(c)
        nc = ctx.convert(n) + c
        return ctx.ncdf((ctx.log(nc / c if swapped else c / nc) + ctx.convert(k) * s * s) / s)
    return body


FAULTS += [
    # postprocessing
    fault("sec5.post", "atom Phi((log(c/(n+c)) - sigma^2)/sigma)", "sign",
          replace_body(formulas.atom_mass, _atom_with(-1))),
    fault("sec5.post", "atom with the mean-one drift: + sigma^2/2", "drift",
          replace_body(formulas.atom_mass, _atom_with("1/2"))),
    fault("sec5.post", "atom with log((n+c)/c)", "swapped arguments",
          replace_body(formulas.atom_mass, _atom_with(swapped=True))),
    fault("sec5.post", "v(n) 1 % too strong", "constant", scale(formulas.budget, "0.99")),
    fault("sec5.post", "v(n+1) for v(n)", "index", offset_argument(formulas.budget, "n", 1)),
]


#: Section 5: the order of the remainder, log(1 + 1/(n-1+c)) = 1/n + O(n^-GAP_REMAINDER_ORDER)
GAP_REMAINDER_ORDER = 2


@claim("sec5.mono", routes=["the gap in float64 over n = 1..10^6: the paper's log((n+c)/(n-1+c)) and the library's "
                            "log1p(1/(n-1+c)), which must agree",
                            "series n^2 (gap - 1/n) -> -(c - 1/2), at 50 digits along decades"])
def monotone_gap(check):
    k = GAP_REMAINDER_ORDER
    ns = np.arange(1, 10**6 + 1, dtype=float)
    for cc in (_grid.C_QUICK if check.quick else _grid.C_FULL):
        cf = float(cc)
        direct = np.log((ns + cf) / (ns - 1 + cf))
        stable = formulas.log_gap.fp(ns, cf)
        check.compare({"c": cf, "n": "1..10^6"}, float(np.max(np.abs(direct - stable) / stable)), "<=", 1e-9, 0,
                  route="two float64 evaluations agree (relative)")
        check.compare({"c": cf, "n": "1..10^6"}, float(np.max(np.diff(stable))), "<", 0.0, 0,
                  route="strictly decreasing: max_n (gap(n+1) - gap(n)) < 0")
        with mpmath.workdps(50):
            seq = [mpmath.mpf(10) ** (k * j) * (formulas.log_gap(10**j, cf) - formulas.gap_leading(10**j))
                   for j in range(1, 7)]
        limit = -(mpmath.mpf(cf) - mpmath.mpf(1) / 2)
        for j, val in enumerate(seq, start=1):
            check.compare({"c": cf, "n": 10**j}, abs(val - limit), "<=", 3 * (1 + cf) ** 2 / mpmath.mpf(10) ** j, 0,
                      route="n^2 (gap - 1/n) -> -(c - 1/2) at rate O(1/n)")
        check.note(f"c={cf}: n^2 (gap - 1/n) at n = 10..10^6: " + ", ".join(mpmath.nstr(v, 8) for v in seq))
    with mpmath.workdps(50):
        r3 = [mpmath.mpf(10) ** ((k + 1) * j) * abs(formulas.log_gap(10**j, 2.0) - formulas.gap_leading(10**j))
              for j in (5, 6)]
    check.control(f"gap = 1/n + O(n^-{k + 1}): n^{k + 1}-scaled remainder at 10^6 / at 10^5 <= 2", r3[1] / r3[0],
                  "<=", 2, 0)
    check.slack("strictly decreasing over the whole range; the n^-2 coefficient -(c - 1/2) is approached at O(1/n)")


@certificate("sec5.mono", scope="instance")
def gap_decreasing_with_explicit_remainder(cert):
    """v(n) > v(n+1) and the explicit O(.) constants at every n = 1..N (v = gap^2/(2 sigma^2))."""
    N = _certified_range(cert.quick)
    decreasing = certify_budget_decreasing(N, CERT_R0, CERT_C, PREC)
    remainder = certify_budget_asymptotics(N, CERT_R0, CERT_C, PREC)
    cert.record(f"log(1+1/(n-1+c)) decreasing and = 1/n + O(n^-2), n = 1..{N}",
                "same range check as thm3.1.iii / thm3.1.ii", None,
                verdict_all([decreasing.verdict, remainder.verdict]), boxes=remainder.boxes)


_HERE = sys.modules[__name__]


FAULTS += [
    # monotone gap
    fault("sec5.mono", "log(1 + 1/(n+c)) for log(1 + 1/(n-1+c))", "index", offset_argument(formulas.log_gap, "n", 1)),
    fault("sec5.mono", "2 log(1 + 1/(n-1+c)) (the square of v(n) read as a factor)", "factor",
          scale(formulas.log_gap, 2)),
    fault("sec5.mono", "leading term 1/n^2 for 1/n", "exponent",
          replace_body(formulas.gap_leading, lambda ctx, n: 1 / ctx.convert(n) ** 2)),
    fault("sec5.mono", "remainder O(n^-3) for O(n^-2)", "exponent", set_attribute(_HERE, "GAP_REMAINDER_ORDER", 3)),
    fault("sec5.mono", "leading term 1/(2n)", "factor", scale(formulas.gap_leading, "1/2")),
]


def vector_budget(alpha, v, counts, neighbour):
    """Section 5: the budget of the histogram release between neighbouring count vectors, alpha v(n)
    of the one coordinate that changes (n the larger count of its edge); identical coordinates add
    nothing."""
    return alpha * mpmath.fsum(v(max(a, b)) for a, b in zip(counts, neighbour) if a != b)


@claim("sec5.product", routes=["2-D mpmath quadrature of the joint law of a two-group histogram",
                               "1-D quadrature of the changed coordinate alone (released, and unclipped)",
                               "the vector budget alpha v(n) of the changed coordinate (equality for the unclipped "
                               "coordinate)"])
def product(check):
    cases = [(0.45, 1.0, 1, 5, 2)] if check.quick else [(0.45, 1.0, 1, 5, 2), (0.45, 1.0, 10, 3, 5),
                                                    (0.05, 0.1, 2, 0, 1.5)]
    # the changed coordinate's unclipped divergence equals the budget, and the 2-D joint of the
    # released histogram equals its changed coordinate's: the vector budget is exact, not only an upper bound
    first = None
    for (r0, cc, n, other, alpha) in cases:
        mech = ShiftedLogGaussian(r0, cc)
        A, B, O = mech.released_law(n - 1), mech.released_law(n), mech.released_law(other)
        joint = renyi_product([A, O], [B, O], alpha, MpIntegrator())
        single = renyi(A, B, alpha)
        p = {"r0": r0, "c": cc, "n": n, "other": other, "alpha": alpha}
        budget = vector_budget(alpha, mech.mp_v, (n - 1, other), (n, other))
        check.compare(p, joint.value, "==", single.value, joint.error + single.error, route="2-D joint vs 1-D")
        check.compare(p, joint.value, "<=", budget, joint.error, route="joint <= alpha v(n)")
        for k in (n, n + 1):  # the edge of the case, and the next one (v(0) = v(1) hides an index at n = 1)
            tight = renyi(mech.unclipped_law(k - 1), mech.unclipped_law(k), alpha, method="quadrature")
            exact = vector_budget(alpha, mech.mp_v, (k - 1, other), (k, other))
            check.compare({**p, "n": k, "law": "unclipped"}, tight.value, "==", exact,
                          tight.error + exact * working_precision(6),
                          route="unclipped changed coordinate (1-D quadrature) = vector budget alpha v(n)")
        first = first or (joint, single)
    joint, single = first
    check.control("the unchanged coordinate adds its own share (joint = 2 x single)", joint.value, "==",
              2 * single.value, joint.error + single.error)
    check.slack("identical factors add zero divergence: equality to the 2-D quadrature error; the unclipped changed "
                "coordinate's divergence equals the vector budget")


@certificate("sec5.product", scope="instance")
def product_by_fubini(cert):
    """The 2-coordinate release's Renyi integral is the product of certified 1-D integrals."""
    with cert.precision(CLOSED_PREC):
        s_closed = formulas.sigma.ball(CERT_R0, CERT_C)
    with cert.precision(PREC):
        s = formulas.sigma.ball(CERT_R0, CERT_C)
        for alpha, n in ((2, 1), (10, 3)) + (() if cert.quick else ((2, 10),)):
            changed = unclipped_renyi(alpha, n, n - 1, CERT_C, s).integral
            identical = unclipped_renyi(alpha, 7, 7, CERT_C, s).integral
            D = product_renyi(alpha, (changed, identical)).divergence
            with cert.precision(CLOSED_PREC):
                budget = to_arb(alpha) * formulas.budget.ball(n, s_closed, CERT_C)
            control = decide_contains(D, 2 * to_arb(alpha) * formulas.budget.ball(n, s, CERT_C))
            verdict = verdict_all([decide_contains(identical, 1), decide_contains(D, budget), control_verdict(control)])
            cert.record(f"2-coordinate release, count n={n} changes, count 7 identical, alpha={alpha}",
                        "Fubini: the 2-D integral is the product of two certified 1-D integrals; the identical "
                        "factor's encloses 1 (adds zero divergence) and D of the vector release encloses alpha v(n); "
                        + ENCLOSED + "; control 2 alpha v(n) excluded", D, verdict,
                        identical_factor=ball_str(identical), control=control.value)


FAULTS += [
    # product
    fault("sec5.product", "every coordinate adds its v (identical factors counted)", "other",
          set_attribute(_HERE, "vector_budget", lambda alpha, v, counts, neighbour:
                        alpha * mpmath.fsum(v(max(a, b)) for a, b in zip(counts, neighbour)))),
    fault("sec5.product", "the edge n-1 <-> n charged v(n-1)", "index",
          set_attribute(_HERE, "vector_budget", lambda alpha, v, counts, neighbour:
                        alpha * mpmath.fsum(v(min(a, b)) for a, b in zip(counts, neighbour) if a != b))),
    fault("sec5.product", "v(n) 1 % too strong", "constant", scale(formulas.budget, "0.99")),
    fault("sec5.product", "v(n) twice too weak", "factor", scale(formulas.budget, 2)),
]
#: the cases each route computes today, per mode (quick, full): the coverage may not drop
COVERAGE = {"eq11": {True: 12, False: 120},
            "eq12": {True: 24, False: 2520},
            "eq12 quadrature": {True: 24, False: 24},
            "sec5.post": {True: 18, False: 73},
            "sec5.post balls": {True: 48, False: 144}}


def figures(settings):
    """This script's figures (made by figures/sec5_divergence.py)."""
    return plots.make(settings)


if __name__ == "__main__":
    from countdp.harness.cli import script_main

    raise SystemExit(script_main(__file__))
