"""Section 5.1 of the paper: interpreting the rate.

sec5.1.conv        rho-zCDP gives (rho + 2 sqrt(rho log(1/delta)), delta)-DP; with v(n) = Theta(n^-2)
                   the approximate-DP epsilon is of order 1/n
sec5.1.limit_c     fixed c, n -> inf then r -> 0 with r0/r -> 1: lim r^2 n^2 v(n) = (1+c)^2/pi,
                   sigma ~ (r/(1+c)) sqrt(pi/2), v(1) ~ (1+c)^2/(pi r^2) log^2((1+c)/c)
sec5.1.c_equals_r  c = r: v(1) of order r^-2 log^2(1/r)
eq13               Phi^{-1}((1+r)/2) = r sqrt(pi/2) + O(r^3); r0 -> r, c -> 0 gives 1/(pi r^2 n^2)

The conversion is compared with the EXACT privacy profile (hockey-stick divergence) of the
released law, by quadrature of its atom and density, and of the unclipped log-space Gaussian
pair in closed form.  Limits are sequences extrapolated by Richardson (with the extrapolation's
own error as the bar); rates are ratios whose spread over decades is reported and bounded.
"""


import mpmath

from countdp import limits as L
from countdp import formulas
from countdp import mechanisms as M
from countdp.divergence import zcdp as Z
from countdp.harness.claims import claim
from countdp.harness.results import fmt

TITLE = "Section 5.1: interpreting the rate (zCDP conversion, the coefficient limits, eq 13)"

DELTA_TEXT = "1e-6"  # delta of the approximate-DP statements (made an mpf at the working precision)
SPREAD_MAX = 2  # "bounded over decades": the scaled sequence stays within a factor 2


def conv_designs(quick):
    """(r0, c): the paper's default c = 1 at a small and a large r0, and a small shift c."""
    return [(0.45, 1.0)] if quick else [(0.45, 1.0), (0.05, 1.0), (0.2, 0.1)]


def conv_counts(quick, c=1.0):
    if quick:
        return (10, 10**3, 10**6)
    return (1, 10, 10**2, 10**3, 10**4, 10**5, 10**6) if c == 1.0 else (1, 10, 10**3, 10**6)


def rs_limit(quick):
    """r = 10^-2 .. 10^-5: the outer sequence of the r -> 0 limits (Richardson in r)."""
    return [mpmath.mpf(10) ** -k for k in range(2, 6)]


def tiny(c, scale=1):
    return mpmath.mpf(10) ** (-c.dps + 6) * (1 + abs(mpmath.mpf(scale)))


@claim("sec5.1.conv", routes=[
    "exact privacy profile of the RELEASED law [U_n]_+ vs [U_{n-1}]_+ (exact atom sum + mpmath "
    "quadrature of (p - e^eps q)_+ split at the root-found crossing), eps by Newton root-finding, "
    "max over both orderings",
    "closed-form profile of the unclipped equal-variance Gaussian pair in log(u + c) (eq 10): "
    "Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), eps by root-finding",
    "Bun-Steinke conversion rho + 2 sqrt(rho log(1/delta)) at rho = v(n) (eq 6)",
    "Canonne-Kamath-Steinke conversion (alpha optimised continuously)"])
def conversion(c):
    DELTA = mpmath.mpf(DELTA_TEXT)
    worst_half = None  # (margin, params, exact, half-conversion, tol) for the control
    ratios_bs, ratios_cks = [], []
    rate_sets = []
    c.note(f"delta = {fmt(DELTA)}; the quadrature route's error bar on eps is the last Newton step plus "
           "the profile's error (quadrature estimate + measured rounding of log p - log q) over the slope")
    for (r0, cc) in conv_designs(c.quick):
        mech = M.ShiftedLogGaussian(r0, cc)
        n_eps_bs, table = [], []
        for n in conv_counts(c.quick, cc):
            p = {"r0": r0, "c": cc, "n": n, "delta": DELTA}
            v = mech.mp_v(n)
            ex = Z.eps_of_delta(mech.released_law(n), mech.released_law(n - 1), DELTA)
            mu = formulas.log_gap(n, cc) / mech.mp_sigma()
            gauss = Z.gaussian_eps_of_delta(mu, DELTA)
            bs = Z.zcdp_to_approx_dp(v, DELTA)
            cks = Z.cks_eps(v, DELTA)
            half = v + mpmath.sqrt(v * mpmath.log(1 / DELTA))  # the control: factor 2 dropped
            tol = ex.error + tiny(c, ex.value)
            # the quadrature engine against the closed form on the unclipped pair
            prof = Z.hockey_stick(mech.unclipped_law(n), mech.unclipped_law(n - 1), gauss, method="quadrature")
            c.compare({**p, "eps": gauss}, prof.value, "==", DELTA, prof.error + mpmath.mpf(10) ** (-c.dps + 8) * DELTA,
                      route="quadrature profile of the unclipped pair at the closed-form eps equals delta")
            # data processing: clipping cannot raise the profile, so the released eps is at most the unclipped
            c.compare(p, ex.value, "<=", gauss, tol, route="released eps (quadrature) <= unclipped eps (closed form)")
            # the conversions never fall below the exact eps
            c.compare(p, ex.value, "<=", bs, tol, route="exact released eps <= Bun-Steinke conversion")
            c.compare(p, gauss, "<=", bs, tiny(c, bs), route="exact unclipped eps <= Bun-Steinke conversion")
            c.compare(p, ex.value, "<=", cks, tol, route="exact released eps <= CKS conversion")
            c.compare(p, cks, "<=", bs, tiny(c, bs), route="CKS conversion <= Bun-Steinke conversion")
            margin = ex.value - half - tol
            if worst_half is None or margin > worst_half[0]:
                worst_half = (margin, p, ex.value, half, tol)
            if ex.value > 0:
                ratios_bs.append(bs / ex.value)
                ratios_cks.append(cks / ex.value)
            n_eps_bs.append(n * bs)
            table.append({"n": n, "eps_exact_released": fmt(ex.value, 10), "eps_exact_unclipped": fmt(gauss, 10),
                          "eps_BS": fmt(bs, 10), "eps_CKS": fmt(cks, 10), "n_eps_exact": fmt(n * ex.value, 6),
                          "n_eps_BS": fmt(n * bs, 6), "n_eps_CKS": fmt(n * cks, 6)})
        c.finding(r0=r0, c=cc, delta=DELTA, table=table)
        # the rate: n eps_BS(n) = Theta(1) over the decades n >= 10
        big = [x for n, x in zip(conv_counts(c.quick, cc), n_eps_bs) if n >= 10]
        ns_big = [n for n in conv_counts(c.quick, cc) if n >= 10]
        sp = L.spread(big)
        c.compare({"r0": r0, "c": cc, "n": f"{ns_big[0]}..{ns_big[-1]}", "delta": DELTA}, sp, "<=", SPREAD_MAX, 0,
                  route="spread max/min of n eps_BS(n) over the decades (order 1/n)")
        rate_sets.append((r0, cc, ns_big, [b / n for b, n in zip(big, ns_big)]))
    # where the exact profile leaves the 1/n regime: eps = 0 once TV(P_n, P_{n-1}) <= delta
    mech = M.ShiftedLogGaussian(0.45, 1.0)
    n_cut = 10**7
    ex = Z.eps_of_delta(mech.released_law(n_cut), mech.released_law(n_cut - 1), DELTA)
    bs = Z.zcdp_to_approx_dp(mech.mp_v(n_cut), DELTA)
    c.compare({"r0": 0.45, "c": 1.0, "n": n_cut, "delta": DELTA}, ex.value, "<=", bs, ex.error,
              route="exact released eps <= Bun-Steinke conversion (beyond the total-variation cutoff)")
    c.finding(what="exact eps vanishes once the total variation of the edge is below delta "
                   "(n > 1/(sigma delta sqrt(2 pi)) for small mu); the conversion stays Theta(1/n)",
              r0=0.45, c=1.0, n=n_cut, eps_exact=ex.value, eps_BS=bs,
              n_cutoff_estimate=1 / (mech.mp_sigma() * DELTA * mpmath.sqrt(2 * mpmath.pi)))
    c.note("the order-1/n statement is a property of the conversion (n eps_BS(n) converges to "
           "sqrt(2 log(1/delta))/sigma); the exact eps is below it, so O(1/n), but at fixed delta "
           "n eps_exact(n) declines slowly with n and is 0 beyond the total-variation cutoff")
    # controls: the conversion without the factor 2, and a rate n^-0.9
    _, p, exv, half, tol = worst_half
    c.control("conversion rho + sqrt(rho log(1/delta)) (factor 2 dropped) never below the exact eps",
              exv, "<=", half, tol,
              detail=f"at {p}: exact eps {fmt(exv, 10)} > {fmt(half, 10)} + tol {fmt(tol, 3)}")
    r0, cc, ns_big, eps_bs = rate_sets[0]
    sp_wrong = L.spread([n ** mpmath.mpf("0.9") * e for n, e in zip(ns_big, eps_bs)])
    c.control(f"eps_BS(n) of order n^-0.9 (r0 = {r0}, c = {cc}): spread of n^0.9 eps_BS(n) <= {SPREAD_MAX}",
              sp_wrong, "<=", SPREAD_MAX, 0)
    c.slack(f"conversion / exact eps: Bun-Steinke in [{fmt(min(ratios_bs), 4)}, {fmt(max(ratios_bs), 4)}], "
            f"CKS in [{fmt(min(ratios_cks), 4)}, {fmt(max(ratios_cks), 4)}]")


@claim("sec5.1.limit_c", routes=[
    "r^2 n^2 v(n) from the mechanism's budget (eq 6, sigma of eq 3 by Newton on the normal cdf, guard digits) at "
    "n = 10^2..10^8, Richardson in 1/n, then in r along r0 = r(1-r), r = 10^-2..10^-5",
    "the paper's closed forms (1+c)^2/pi, (r/(1+c)) sqrt(pi/2), (1+c)^2/(pi r^2) log^2((1+c)/c)"])
def fixed_c_limit(c):
    rs = rs_limit(c.quick)
    cs = (1.0, 0.1) if c.quick else (1.0, 0.1, 0.5, 2.0)
    worst = mpmath.mpf(0)
    limits = {}
    for cc in cs:
        fam = (lambda r, cc=cc: (r * (1 - r), cc))
        e = L.iterated_limit(fam, rs)
        limits[cc] = e
        target = L.fixed_c_constant(cc)
        c.compare({"c": cc, "r0": "r(1-r)", "r": "10^-2..10^-5", "quantity": "lim r^2 n^2 v(n)"},
                  e.value, "==", target, e.error, route="extrapolated sequence vs (1+c)^2/pi")
        c.finding(c=cc, inner_limits_by_r=[fmt(v, 12) for v in e.values], extrapolated=e.value,
                  error=e.error, target=target)
        worst = max(worst, abs(e.value - target))
        # sigma ~ (r/(1+c)) sqrt(pi/2): the ratio tends to 1
        ratios = [L.sigma_accurate(M.ShiftedLogGaussian(r * (1 - r), cc)) / L.sigma_small_r(r, cc) for r in rs]
        es = L.richardson(rs, ratios)
        c.compare({"c": cc, "quantity": "sigma / ((r/(1+c)) sqrt(pi/2))"}, es.value, "==", 1, es.error,
                  route="extrapolated ratio vs 1")
        # boundary cost v(1) ~ (1+c)^2/(pi r^2) log^2((1+c)/c): the ratio tends to 1
        ratios = [L.budget_accurate(M.ShiftedLogGaussian(r * (1 - r), cc), 1) / L.boundary_asymptote(r, cc)
                  for r in rs]
        eb = L.richardson(rs, ratios)
        c.compare({"c": cc, "quantity": "v(1) / ((1+c)^2/(pi r^2) log^2((1+c)/c))"}, eb.value, "==", 1,
                  eb.error, route="extrapolated ratio vs 1")
    c.compare({"c": 1.0, "quantity": "lim r^2 n^2 v(n)"}, limits[1.0].value, "==", 4 / mpmath.pi,
              limits[1.0].error, route="c = 1: the coefficient 4/pi")
    # control: (1+c)/pi in place of (1+c)^2/pi (c = 2), by the same comparison
    e2 = limits.get(2.0) or limits[1.0]
    c2 = 2.0 if 2.0 in limits else 1.0
    c.control(f"lim r^2 n^2 v(n) = (1+c)/pi (c = {c2})", e2.value, "==", (1 + mpmath.mpf(c2)) / mpmath.pi, e2.error)
    c.control("c = 1 coefficient 2/pi in place of 4/pi", limits[1.0].value, "==", 2 / mpmath.pi, limits[1.0].error)
    c.slack(f"equality of limits: worst |extrapolated - (1+c)^2/pi| = {fmt(worst, 3)} "
            f"(Richardson error bars <= {fmt(max(e.error for e in limits.values()), 3)})")


@claim("sec5.1.c_equals_r", routes=[
    "v(1) from the mechanism (eq 5) with r0 = r(1-r), c = r over r = 10^-1..10^-8: "
    "v(1) r^2 / log^2(1/r) bounded (spread over eight decades)",
    "the boundary asymptote (1+c)^2/(pi r^2) log^2((1+c)/c) at c = r: ratio extrapolated to 1"])
def c_equals_r(c):
    rs = [mpmath.mpf(10) ** -k for k in range(1, 9)]
    v1 = [L.budget_accurate(M.ShiftedLogGaussian(r * (1 - r), r), 1) for r in rs]
    R = [v * r * r / mpmath.log(1 / r) ** 2 for v, r in zip(v1, rs)]
    sp = L.spread(R)
    c.compare({"r": "10^-1..10^-8", "r0": "r(1-r)", "c": "r", "quantity": "v(1) r^2 / log^2(1/r)"}, sp, "<=",
              SPREAD_MAX, 0, route="spread over eight decades of r")
    for r, x in zip(rs, R):
        c.compare({"r": r, "quantity": "v(1) r^2 / log^2(1/r)"}, x, ">", 0, 0, route="positive")
    c.finding(sequence={fmt(r, 3): fmt(x, 10) for r, x in zip(rs, R)}, limit_hint=1 / mpmath.pi)
    small = rs[1:6]
    ratios = [L.budget_accurate(M.ShiftedLogGaussian(r * (1 - r), r), 1) / L.boundary_asymptote(r, r) for r in small]
    e = L.richardson(small, ratios)
    c.compare({"c": "r", "quantity": "v(1) / ((1+r)^2/(pi r^2) log^2((1+r)/r))"}, e.value, "==", 1, e.error,
              route="extrapolated ratio (r = 10^-2..10^-6) vs 1")
    # controls: the order without the log^2 factor, and with a single log
    c.control("v(1) of order r^-2 (no log factor): spread of v(1) r^2 over the decades <= 2",
              L.spread([v * r * r for v, r in zip(v1, rs)]), "<=", SPREAD_MAX, 0)
    c.control("v(1) of order r^-2 log(1/r): spread of v(1) r^2 / log(1/r) <= 2",
              L.spread([v * r * r / mpmath.log(1 / r) for v, r in zip(v1, rs)]), "<=", SPREAD_MAX, 0)
    c.slack(f"spread of v(1) r^2/log^2(1/r) over r = 10^-1..10^-8: {fmt(sp, 4)} (values from "
            f"{fmt(max(R), 5)} down to {fmt(min(R), 5)}, tending to 1/pi = {fmt(1 / mpmath.pi, 5)})")


@claim("eq13", routes=[
    "Phi^{-1}((1+r)/2) by Newton on the normal cdf (guard digits), remainder / r^3 over r = 10^-1..10^-6, "
    "Richardson in r^2",
    "Maclaurin coefficient of sqrt(2) erfinv(r) by Lagrange reversion of erf's series (sqrt(pi/2) pi/12)",
    "mechanism route: r^2 n^2 v(n) with r0 = r(1-h), c = h, extrapolated in n then h -> 0, "
    "against r^2/(2 Phi^{-1}((1+r)/2)^2); that coefficient extrapolated in r^2 against 1/pi"])
def equation_13(c):
    rs = [mpmath.mpf(10) ** -k for k in range(1, 7)]
    ratio = [L.inverse_half_remainder(r) / r ** 3 for r in rs]
    series = L.inverse_half_series(5)
    c.compare({"quantity": "[r^1] of Phi^{-1}((1+r)/2)"}, series[1], "==", mpmath.sqrt(mpmath.pi / 2), tiny(c),
              route="series reversion vs sqrt(pi/2)")
    sp = L.spread(ratio)
    c.compare({"r": "10^-1..10^-6", "quantity": "(Phi^{-1}((1+r)/2) - r sqrt(pi/2)) / r^3"}, sp, "<=", SPREAD_MAX,
              0, route="remainder / r^3 bounded over decades")
    e = L.richardson([r * r for r in rs], ratio)
    c.compare({"quantity": "lim remainder / r^3"}, e.value, "==", series[3], e.error + tiny(c),
              route="extrapolated remainder ratio vs the reversed-series coefficient")
    c.finding(remainder_over_r3={fmt(r, 3): fmt(x, 15) for r, x in zip(rs, ratio)}, coefficient=series[3],
              closed=mpmath.sqrt(mpmath.pi / 2) * mpmath.pi / 12)
    # the second regime: fixed r, r0 -> r, c -> 0 (h -> 0), then r -> 0
    hs = [mpmath.mpf(10) ** -k for k in range(2, 6)]
    r_grid = (mpmath.mpf("0.1"),) if c.quick else (mpmath.mpf("0.5"), mpmath.mpf("0.1"), mpmath.mpf("0.01"))
    for r in r_grid:
        ef = L.iterated_limit(lambda h, r=r: (r * (1 - h), h), hs, r=r)
        c.compare({"r": r, "r0": "r(1-h)", "c": "h", "quantity": "lim_h lim_n r^2 n^2 v(n)"}, ef.value, "==",
                  L.regime_two_coefficient(r), ef.error, route="mechanism sequence vs r^2/(2 Phi^{-1}((1+r)/2)^2)")
    rr = [mpmath.mpf(10) ** -k for k in range(1, 6)]
    k2 = [L.regime_two_coefficient(r) for r in rr]
    ek = L.richardson([r * r for r in rr], k2)
    c.compare({"quantity": "lim_r r^2/(2 Phi^{-1}((1+r)/2)^2)"}, ek.value, "==", 1 / mpmath.pi, ek.error,
              route="extrapolated coefficient vs 1/pi (eq 13)")
    c.finding(coefficient_by_r={fmt(r, 3): fmt(x, 15) for r, x in zip(rr, k2)})
    # controls: an O(r^4) remainder, and the constant 2/pi
    c.control("remainder O(r^4): spread of remainder / r^4 over the decades <= 2",
              L.spread([L.inverse_half_remainder(r) / r ** 4 for r in rs]), "<=", SPREAD_MAX, 0)
    c.control("large-count budget 2/(pi r^2 n^2)", ek.value, "==", 2 / mpmath.pi, ek.error)
    c.slack(f"remainder/r^3 spread {fmt(sp, 4)}; |extrapolated - coefficient| = {fmt(abs(e.value - series[3]), 3)}; "
            f"|coefficient limit - 1/pi| = {fmt(abs(ek.value - 1 / mpmath.pi), 3)}")


def figures(settings):
    """eps(n) at delta = 1e-6: exact (closed form, unclipped; quadrature, released) vs conversions."""
    import numpy as np

    from countdp.harness.plotting import new_figure, save

    out = []
    with mpmath.workdps(20):
        DELTA = mpmath.mpf(DELTA_TEXT)
        fig, ax = new_figure()
        for (r0, cc), col in zip(((0.45, 1.0), (0.05, 1.0)), ("C0", "C3")):
            mech = M.ShiftedLogGaussian(r0, cc)
            ns = np.unique(np.round(np.logspace(0, 7.5, 46)).astype(int))
            ex, bs, ck = [], [], []
            for n in ns:
                v = mech.mp_v(int(n))
                ex.append(float(Z.gaussian_eps_of_delta(formulas.log_gap(int(n), cc) / mech.mp_sigma(), DELTA)))
                bs.append(float(Z.zcdp_to_approx_dp(v, DELTA)))
                ck.append(float(Z.cks_eps(v, DELTA)))
            ex = np.array(ex)
            pos = ex > 0
            ax.loglog(ns[pos], ex[pos], "-", color=col, label=f"exact, unclipped (closed form), r0={r0}, c={cc:g}")
            ax.loglog(ns, bs, "--", color=col, label="rho + 2 sqrt(rho log 1/delta)")
            ax.loglog(ns, ck, ":", color=col, label="CKS conversion")
            qn = [10, 10**3] if settings.quick else [1, 10, 10**3, 10**5]
            qe = [float(Z.eps_of_delta(mech.released_law(n), mech.released_law(n - 1), DELTA).value) for n in qn]
            ax.loglog(qn, qe, "o", color=col, mfc="none", label="exact, released (quadrature)")
        ax.set_xlabel("n (edge n-1 <-> n)")
        ax.set_ylabel("epsilon at delta = 1e-6")
        ax.set_title("Section 5.1: exact epsilon vs the zCDP conversion")
        ax.legend(fontsize=6)
        out.append(save(fig, settings.figures_dir, "eps_vs_conversion"))
    return out


if __name__ == "__main__":
    from countdp.harness.runner import script_main

    raise SystemExit(script_main(__file__))
