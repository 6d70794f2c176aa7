"""Section 4 of the paper: exact pre-clipping utility calibration.

Lemma 4.1   E|exp(sigma Z - sigma^2) - 1| = 2 Phi(sigma) - 1
eq (8)      E[exp(sigma Z - sigma^2) 1{Z <= sigma}] = exp(-sigma^2/2)/2, and the same on Z > sigma
eq (9)      E|U_n - n| = (n+c)(2 Phi(sigma) - 1) = (n+c) r0/(1+c); clipping cannot increase it

Each closed form is compared with mpmath quadrature of the expectation from the Gaussian
density and with a Monte Carlo of the mechanism itself (5 standard errors, seeded); the
certificates enclose the same expectations in Arb balls (acb.integral plus proven tails).
"""


import mpmath
import numpy as np
from flint import arb, fmpq

from countdp import formulas
from countdp.arb.log_gaussian import (half_expectation_integrals, multiplicative_error_integral,
                                      unclipped_error_integral)
from countdp.arb.verdicts import Undecided, ball_str, decide_contains, enclosure, to_arb, verdict_all
from countdp.harness.claims import certificate, claim
from countdp.harness.faults import fault, offset_argument, replace_body, scale
from countdp.harness.results import fmt
from countdp.laws import Gaussian
from countdp.laws.expectation import quad_expectation
from countdp.mechanisms import ShiftedLogGaussian
from countdp.numerics.montecarlo import mc_mean
from countdp.numerics.tolerance import working_precision

import _grid
from _common import SMOOTH

TITLE = "Section 4: exact utility calibration (Lemma 4.1, eqs 8-9)"
FAULTS = []  # the fault catalogue: each claim block below adds its own faults
CERT_R0, CERT_C = fmpq(1, 4), 1  # the certificates' design (r = 1/2): sigma ~ 0.157


def sigmas(quick):
    """The sigmas of the design grid, plus a spread over two decades."""
    grid = {formulas.sigma.fp(r0, c) for (_, r0, c) in _grid.designs(quick)}
    extra = (0.01, 0.3, 1.0, 3.0) if not quick else (0.01, 1.0)
    return sorted(grid | set(extra))


def noise_law(sigma, drift_factor=1):
    """The law of W = sigma Z - drift_factor sigma^2 (the exponent of the multiplicative factor)."""
    s = mpmath.mpf(sigma)
    return Gaussian(-drift_factor * s * s, s)


def quad_multiplicative_error(sigma, drift_factor=1):
    """E|exp(W) - 1| by quadrature of the Gaussian density of W, split at the kink W = 0."""
    return quad_expectation(noise_law(sigma, drift_factor), lambda w: abs(mpmath.exp(w) - 1), breaks=[0])


def mc_multiplicative_error(sigma, rng, draws, drift_factor=1):
    s = float(sigma)
    return mc_mean(lambda g, m: np.abs(np.expm1(s * g.standard_normal(m) - drift_factor * s * s)), rng, draws)


@claim("lem4.1", routes=["closed form 2 Phi(sigma) - 1 (Lemma 4.1)",
                         "mpmath quadrature of E|exp(sigma Z - sigma^2) - 1| from the Gaussian density",
                         "Monte Carlo, 10^6 draws, 5 s.e.",
                         "Arb ball: acb.integral on [-T, T] plus a proven Gaussian tail bound"])
def lemma_4_1(check):
    worst_rel = mpmath.mpf(0)
    for sigma in sigmas(check.quick):
        closed = formulas.multiplicative_error(sigma)
        q, qerr = quad_multiplicative_error(sigma)
        tol = qerr + working_precision(5)
        check.compare({"sigma": sigma}, q, "==", closed, tol, route="quadrature vs closed form")
        mc = mc_multiplicative_error(sigma, check.rng(sigma), _grid.mc_draws(check.quick))
        check.compare({"sigma": sigma}, mc.mean, "==", closed, mc.halfwidth, route="Monte Carlo vs closed form")
        mid, rad = enclosure(multiplicative_error_integral(to_arb(float(sigma))))
        check.compare({"sigma": sigma}, q, "==", mid, rad + qerr, route="quadrature vs certified enclosure")
        worst_rel = max(worst_rel, abs(q - closed) / closed)
    # Control: the mean-one drift -sigma^2/2 in place of -sigma^2 must not satisfy the identity.
    sigma = 0.5
    q_half, qerr = quad_multiplicative_error(sigma, drift_factor=mpmath.mpf(1) / 2)
    check.control("drift -sigma^2/2 in place of -sigma^2 (sigma = 0.5)", q_half, "==",
                  formulas.multiplicative_error(sigma), qerr + working_precision(5))
    check.slack(f"identity (equality): worst relative gap quadrature vs closed form {fmt(worst_rel, 3)}")


@certificate("lem4.1", scope="instance")
def lemma_4_1_inside_the_integral(cert):
    """2 Phi(sigma) - 1 lies in the certified integral, at three sigmas and by a second integration."""
    with cert.precision(53):
        s = formulas.sigma.ball(CERT_R0, CERT_C)
        for sg in (s, arb(1), arb(3)):
            integral = multiplicative_error_integral(sg)
            closed = formulas.multiplicative_error.ball(sg)
            cert.record(f"E|exp(sZ-s^2)-1|, s={float(sg.mid()):.6g}",
                        "closed form 2Phi(sigma)-1 lies in the certified integral enclosure",
                        integral, decide_contains(integral, closed), closed_form=ball_str(closed))
        integral = multiplicative_error_integral(s, method="abs")
        cert.record("E|exp(sZ-s^2)-1| via real_abs(analytic)",
                    "second integration route (one integral with real_abs)", integral,
                    decide_contains(integral, formulas.multiplicative_error.ball(s)))


def _erf(scale_of_sigma):
    """2 Phi(k sigma) - 1 = erf(k sigma/sqrt 2): Lemma 4.1 with sigma scaled by k."""
    return lambda ctx, sigma: ctx.erf(ctx.convert(scale_of_sigma) * ctx.convert(sigma) / ctx.sqrt(2))


FAULTS += [
    # Lemma 4.1
    fault("lem4.1", "2 Phi(sigma/2) - 1 for 2 Phi(sigma) - 1", "constant",
          replace_body(formulas.multiplicative_error, _erf("1/2"))),
    fault("lem4.1", "Phi(sigma) - 1/2: the factor 2 dropped", "factor", scale(formulas.multiplicative_error, "1/2")),
    fault("lem4.1", "2 Phi(sigma^2) - 1", "exponent",
          replace_body(formulas.multiplicative_error, lambda ctx, sigma: ctx.erf(ctx.convert(sigma) ** 2
                                                                                 / ctx.sqrt(2)))),
    fault("lem4.1", "1 - 2 Phi(sigma)", "sign", scale(formulas.multiplicative_error, -1)),
]


@claim("eq8", routes=["closed form exp(-sigma^2/2)/2 (eq 8)",
                      "mpmath quadrature of exp(sigma z - sigma^2) phi(z) on each side of z = sigma",
                      "Monte Carlo, 5 s.e."])
def equation_8(check):
    worst = mpmath.mpf(0)
    for sigma in sigmas(check.quick):
        s = mpmath.mpf(sigma)
        closed = formulas.half_expectation(s)
        integrand = (lambda z: mpmath.exp(s * z - s * s) * mpmath.npdf(z))
        lower, e1 = mpmath.quad(integrand, [-mpmath.inf, s - 8, s - 2, s], error=True)
        upper, e2 = mpmath.quad(integrand, [s, s + 2, s + 8, mpmath.inf], error=True)
        tol = abs(e1) + abs(e2) + working_precision(5)
        check.compare({"sigma": sigma, "side": "Z <= sigma"}, lower, "==", closed, tol, route="quadrature")
        check.compare({"sigma": sigma, "side": "Z > sigma"}, upper, "==", closed, tol, route="quadrature")
        fs = float(s)
        mc = mc_mean(lambda g, m: (lambda z: np.exp(fs * z - fs * fs) * (z <= fs))(g.standard_normal(m)),
                     check.rng(sigma), _grid.mc_draws(check.quick))
        check.compare({"sigma": sigma, "side": "Z <= sigma"}, mc.mean, "==", closed, mc.halfwidth,
                      route="Monte Carlo")
        worst = max(worst, abs(lower - closed), abs(upper - closed))
    # Control: the same value claimed for a split at Z = 0 instead of Z = sigma.
    s = mpmath.mpf(1)
    wrong_split = mpmath.quad(lambda z: mpmath.exp(s * z - s * s) * mpmath.npdf(z), [-mpmath.inf, -4, 0])
    check.control("split at Z = 0 instead of Z = sigma (sigma = 1)", wrong_split, "==", formulas.half_expectation(s),
                  working_precision(5))
    check.slack(f"identity (equality): worst |quadrature - closed form| {fmt(worst, 3)}")


@certificate("eq8", scope="instance")
def half_expectations_inside_the_integrals(cert):
    """exp(-sigma^2/2)/2 lies in the certified integrals on both sides of Z = sigma."""
    with cert.precision(53):
        for sg in (formulas.sigma.ball(CERT_R0, CERT_C), arb(1)):
            halves = half_expectation_integrals(sg)
            closed = formulas.half_expectation.ball(sg)
            cert.record(f"E[e^(sZ-s^2) 1{{Z<=s}}], s={float(sg.mid()):.6g}",
                        "exp(-sigma^2/2)/2 lies in both half-line integral enclosures", halves.below,
                        verdict_all([decide_contains(halves.below, closed), decide_contains(halves.above, closed)]),
                        upper_half=ball_str(halves.above))


FAULTS += [
    # eq (8)
    fault("eq8", "eq (8) without its /2", "factor", scale(formulas.half_expectation, 2)),
    fault("eq8", "exp(-sigma^2)/2 for exp(-sigma^2/2)/2", "exponent",
          replace_body(formulas.half_expectation, lambda ctx, sigma: ctx.exp(-ctx.convert(sigma) ** 2) / 2)),
    fault("eq8", "exp(+sigma^2/2)/2", "sign",
          replace_body(formulas.half_expectation, lambda ctx, sigma: ctx.exp(ctx.convert(sigma) ** 2 / 2) / 2)),
]


@claim("eq9", routes=["closed form (n+c) r0/(1+c) (eq 9)",
                      "mpmath quadrature of E|U_n - n| from the density of U_n",
                      "closed form (n+c)(2 Phi(sigma) - 1) (eq 9, the Lemma 4.1 form)",
                      "Arb ball of E|U_n - n| (acb.integral plus proven tails) at n <= 10",
                      "Monte Carlo of the mechanism (unclipped and released, paired draws)"])
def equation_9(check):
    worst = mpmath.mpf(0)
    enclosed = _grid.Coverage("certified enclosures of E|U_n - n| at n <= 10")
    for (r, r0, cc) in _grid.designs(check.quick):
        mech = ShiftedLogGaussian(r0, cc, r=r)
        for n in _grid.counts(check.quick):
            p = {"r": r, "r0": r0, "c": cc, "n": n}
            closed = formulas.error_bound(n, r0, cc)  # eq (9) with 2 Phi(sigma) - 1 = r0/(1+c)
            q, qerr = quad_expectation(mech.unclipped_law(n), lambda y: abs(y - n), breaks=[n], rule=SMOOTH)
            tol = qerr + abs(closed) * working_precision(8)
            check.compare(p, q, "==", closed, tol, route="quadrature of E|U_n - n| vs (n+c) r0/(1+c)")
            phi_form = formulas.unclipped_error(n, cc, mech.mp_sigma())
            check.compare(p, q, "==", phi_form, qerr + abs(phi_form) * working_precision(8),
                          route="quadrature of E|U_n - n| vs (n+c)(2 Phi(sigma) - 1)")
            if n <= 10:
                try:
                    mid, rad = enclosure(unclipped_error_integral(n, cc, formulas.sigma.ball(r0, cc)))
                except Undecided as exc:
                    enclosed.missed(f"{p}: {exc}")
                else:
                    enclosed.covered()
                    check.compare(p, q, "==", mid, rad + qerr, route="quadrature vs certified enclosure")
            worst = max(worst, abs(q - closed) / closed)
    # Clipping cannot increase the distance to n >= 0: pathwise on paired draws, and in expectation.
    for (r, r0, cc) in _grid.designs(True):
        mech = ShiftedLogGaussian(r0, cc, r=r)
        for n in (0, 1, 10):
            rng = check.rng("clip", r, r0, cc, n)
            u = mech.release(np.full(200_000, n), rng, clip=False)
            excess = float(np.max(np.abs(np.maximum(u, 0) - n) - np.abs(u - n)))
            check.compare({"r": r, "r0": r0, "c": cc, "n": n, "draws": 200_000}, excess, "<=", 0.0, 0,
                          route="pathwise max(|[u]_+ - n| - |u - n|) over paired draws", monte_carlo=False)
            rel = mech.expected_abs_error_released(n)
            unc = mech.expected_abs_error_unclipped(n)
            check.compare({"r": r, "r0": r0, "c": cc, "n": n}, rel, "<=", unc, 0,
                          route="exact released error vs exact unclipped error")
    # Control: the formula without the shift, n r0/(1+c), at n = 1, c = 1, r0 = 0.45.
    mech = ShiftedLogGaussian(0.45, 1.0, r=0.9)
    q, qerr = quad_expectation(mech.unclipped_law(1), lambda y: abs(y - 1), breaks=[1], rule=SMOOTH)
    check.control("E|U_n - n| = n r0/(1+c) (shift c dropped), n = 1", q, "==",
                  mpmath.mpf(1) * mpmath.mpf(0.45) / 2, qerr)
    check.control("E|U_n - n| = n (2 Phi(sigma) - 1) (shift c dropped), n = 1", q, "==",
                  formulas.multiplicative_error(mech.mp_sigma()), qerr)
    coverage = enclosed.record(check, COVERAGE_EQ9[check.quick])
    check.slack(f"identity (equality): worst relative gap quadrature vs closed form {fmt(worst, 3)}; " + coverage)


@certificate("eq9", scope="instance")
def unclipped_error_inside_the_integral(cert):
    """(n+c)(2 Phi(sigma) - 1) and the exact rational r0 (n+c)/(1+c) lie in the certified integral."""
    with cert.precision(53):
        s = formulas.sigma.ball(CERT_R0, CERT_C)
        for n in (0, 1, 10, 1000):
            integral = unclipped_error_integral(n, CERT_C, s)
            closed = formulas.unclipped_error.ball(n, CERT_C, s)
            exact = to_arb(formulas.error_bound.exact(n, CERT_R0, CERT_C))
            cert.record(f"E|U_n - n|, n={n}", "(n+c)(2Phi(sigma)-1) and r0(n+c)/(1+c) lie in the integral enclosure",
                        integral, verdict_all([decide_contains(integral, closed), decide_contains(integral, exact)]))


FAULTS += [
    # eq (9)
    fault("eq9", "(n+c) -> n in eq (9)", "shift dropped",
          replace_body(formulas.unclipped_error, lambda ctx, n, c, sigma: ctx.convert(n)
                       * formulas.multiplicative_error(ctx, sigma))),
    fault("eq9", "(n-1+c)(2 Phi(sigma) - 1)", "index", offset_argument(formulas.unclipped_error, "n", -1)),
    fault("eq9", "(n+c)(2 Phi(sigma) - 1)/2", "factor", scale(formulas.unclipped_error, "1/2")),
    fault("eq9", "r0 n/(1+c) for r0 (n+c)/(1+c)", "shift dropped",
          replace_body(formulas.error_bound, lambda ctx, n, r0, c: ctx.convert(r0) * ctx.convert(n)
                       / (1 + ctx.convert(c)))),
    fault("eq9", "r0 (n+c)/(2(1+c))", "factor", scale(formulas.error_bound, "1/2")),
]
#: certified enclosures the eq (9) check obtains today (quick, full): the coverage may not drop
COVERAGE_EQ9 = {True: 12, False: 150}


if __name__ == "__main__":
    from countdp.harness.cli import script_main

    raise SystemExit(script_main(__file__))
