"""Faults beyond the formulas: plausible one-line mistakes in a law's method, a divergence engine,
or the code a verdict trusts (ball comparisons, range bisection, proven tail bounds, tolerances,
Monte Carlo intervals, the harness's aggregation), each with what must catch it: claims, or a
unit test named by its pytest node id.

Each patch names its target as ``"module:qualname"``, resolved when the fault is applied (a
module that moves means editing its string here), and says what the mistake computes instead
in a small explicit function.  ``countdp faults`` runs this list after the check scripts' own
catalogues; a fault marked ``quick=False`` runs only in full mode.
"""

import dataclasses
import math

import mpmath
import numpy as np
from flint import arb, fmpq

from countdp.arb.verdicts import Verdict, decide_ge, decide_le, to_arb, to_fmpq, verdict_all
from countdp.harness import results
from countdp.harness.faults import core_fault, patch_method, replace_function, set_attribute, \
    wrap_result

TRUE, FALSE, UND = Verdict.PROVED_TRUE, Verdict.PROVED_FALSE, Verdict.UNDECIDED

VERDICTS = "countdp.arb.verdicts"
CONTEXTS = "countdp.numerics.contexts"
RANGES = "countdp.arb.ranges"
INTEGRALS = "countdp.arb.integrals"
LOG_GAUSSIAN_ARB = "countdp.arb.log_gaussian"
ESTIMATE = "countdp.numerics.estimate"
MONTECARLO = "countdp.numerics.montecarlo"
TOLERANCE = "countdp.numerics.tolerance"
VALIDATE = "countdp.numerics.validate"
NORMAL = "countdp.numerics.normal"
CLAIMS = "countdp.harness.claims"
CERTIFICATES = "countdp.harness.certificates"
RESULTS = "countdp.harness.results"
GAUSSIAN = "countdp.laws.gaussian"
GENERALISED = "countdp.laws.generalised_gaussian"
LOG_SHIFT = "countdp.laws.log_shift"
REFERENCE = "countdp.laws.reference"
LOG_GAUSSIAN_MECH = "countdp.mechanisms.log_gaussian"
TIGHT_RHO = "countdp.divergence.tight_rho"
RENYI = "countdp.divergence.renyi"
SHIFT_COUPLING = "countdp.divergence.shift_coupling"
LATTICE_DUAL = "countdp.divergence.lattice_dual"
LOSS_CGF = "countdp.divergence.loss_cgf"
FINITE_SUPPORT = "countdp.divergence.finite_support"
PRODUCT = "countdp.divergence.product"
PROFILE = "countdp.divergence.profile"
TRUNCATION = "countdp.divergence.truncation"
QUADRATURE = "countdp.numerics.quadrature"
TAIL_GROWTH = "countdp.divergence.tail_growth"
S_PRODUCT = "tests/test_soundness_product.py"

T_VERDICTS = "tests/test_arb_verdicts.py"
T_CERTS = "tests/test_harness_certificates.py"
T_RUNNER = "tests/test_harness_runner.py"
T_INTEGRALS = "tests/test_arb_integrals.py"
T_TIGHT_RHO = "tests/test_divergence_tight_rho.py"
T_CONTEXTS = "tests/test_numerics_contexts.py"
T_LATTICE_DUAL = "tests/test_divergence_lattice_dual.py"
T_SHIFT_COUPLING = "tests/test_divergence_shift_coupling.py"
S_VERDICTS = "tests/test_soundness_verdicts.py"
S_RANGES = "tests/test_soundness_ranges.py"
S_TAILS = "tests/test_soundness_tails.py"
S_NUMERICS = "tests/test_soundness_numerics.py"
S_HARNESS = "tests/test_soundness_harness.py"
S_LAWS = "tests/test_soundness_laws.py"
S_SUP_ALPHA = "tests/test_soundness_sup_alpha.py"
S_INTEGER = "tests/test_soundness_integer_pairs.py"


def undecided_as(verdict):
    """A decision whose UNDECIDED comes out as ``verdict``."""
    return lambda v: verdict if v is UND else v


# -- arb: the verdict functions ---------------------------------------------------------------

def _conjunction_ignoring_undecided(f):
    def verdict_all(verdicts):
        vs = list(verdicts)
        return FALSE if any(v is FALSE for v in vs) else TRUE
    return verdict_all


def _conjunction_of_nothing_proved(f):
    def verdict_all(verdicts):
        vs = list(verdicts)
        return TRUE if not vs else f(vs)
    return verdict_all


def _whole_unit(f):
    """decide_decimal read as |value - decimal| <= one unit in the last place (not half)."""
    def decide_decimal(ball, decimal):
        d = to_fmpq(decimal)
        h = fmpq(1, 10 ** (len(decimal.split(".")[1]) if "." in decimal else 0))
        return verdict_all([decide_ge(ball, arb(d - h)), decide_le(ball, arb(d + h))])
    return decide_decimal


ARB_VERDICTS = [
    core_fault("arb", "decide_le: undecided counted as proved", "inequality",
               wrap_result(f"{VERDICTS}:decide_le", undecided_as(TRUE)),
               caught_by=f"{T_VERDICTS}::test_decide_basic"),
    core_fault("arb", "decide_lt: strict read as non-strict at exact endpoints", "inequality",
               replace_function(f"{VERDICTS}:_cmp", lambda f: lambda a, b, strict: f(a, b, False)),
               caught_by=f"{T_VERDICTS}::test_decide_basic"),
    core_fault("arb", "decide_ge: arguments not swapped (decides a <= b)", "swapped arguments",
               replace_function(f"{VERDICTS}:decide_ge", lambda f: lambda a, b: f(b, a)),
               caught_by=f"{T_VERDICTS}::test_decide_basic"),
    core_fault("arb", "decide_gt: arguments not swapped (decides a < b)", "swapped arguments",
               replace_function(f"{VERDICTS}:decide_gt", lambda f: lambda a, b: f(b, a)),
               claims=("eq3",)),
    core_fault("arb", "verdict_all: an undecided item ignored", "dropped term",
               replace_function(f"{VERDICTS}:verdict_all", _conjunction_ignoring_undecided),
               caught_by=f"{T_VERDICTS}::test_decide_basic"),
    core_fault("arb", "verdict_all: the empty conjunction proved", "other",
               replace_function(f"{VERDICTS}:verdict_all", _conjunction_of_nothing_proved),
               caught_by=f"{T_VERDICTS}::test_decide_basic"),
    core_fault("arb", "decide_eq_enclosure: overlapping balls proved equal", "inequality",
               wrap_result(f"{VERDICTS}:decide_eq_enclosure", undecided_as(TRUE)),
               caught_by=f"{T_VERDICTS}::test_decide_basic"),
    core_fault("arb", "decide_contains: overlapping but not containing counted as contained",
               "inequality", wrap_result(f"{VERDICTS}:decide_contains", undecided_as(TRUE)),
               caught_by=f"{S_VERDICTS}::test_membership_truth_table"),
    core_fault("arb", "control_verdict: an undecided control counted as rejected", "other",
               wrap_result(f"{VERDICTS}:control_verdict", undecided_as(TRUE)),
               caught_by=f"{T_VERDICTS}::test_a_control_must_be_disproved"),
    core_fault("arb", "decide_decimal: a whole unit in the last place instead of half", "factor",
               replace_function(f"{VERDICTS}:decide_decimal", _whole_unit),
               caught_by=f"{T_VERDICTS}::test_decimals_of_the_table_2_constants"),
    core_fault("arb", "enclosure: radius 1 % too small", "factor",
               wrap_result(f"{VERDICTS}:enclosure", lambda mr: (mr[0], mr[1] * 0.99)),
               caught_by=f"{S_VERDICTS}::test_enclosure_contains_the_ball"),
    core_fault("arb", "nonneg_interval: [0, lower(u)] instead of [0, upper(u)]", "other",
               replace_function(f"{VERDICTS}:nonneg_interval",
                                lambda f: lambda u: arb(0).union(to_arb(u).lower())),
               caught_by=f"{S_VERDICTS}::test_intervals_cover_every_point"),
    core_fault("arb", "sym_interval: [0, u] instead of [-u, u]", "sign",
               replace_function(f"{VERDICTS}:sym_interval",
                                lambda f: lambda u: arb(0).union(to_arb(u).upper())),
               caught_by=f"{S_VERDICTS}::test_intervals_cover_every_point"),
    core_fault("arb", "BallContext.ceil: a straddling ball's ceiling taken from its midpoint", "other",
               patch_method(f"{CONTEXTS}:BallContext.ceil",
                            lambda f: lambda self, x: f(self, to_arb(x).mid()) if isinstance(x, arb)
                            else f(self, x)),
               caught_by=f"{T_CONTEXTS}::test_ball_conversions_are_exact_and_ceilings_must_be_decided"),
]


# -- arb: range bisection ---------------------------------------------------------------------

def _bisect_box_limit_proves(f):
    def bisect(box, decide, split, max_boxes):
        res = f(box, decide, split, max_boxes)
        if res.verdict is UND and res.disproved == 0:
            return dataclasses.replace(res, verdict=TRUE)
        return res
    return bisect


def _bisect_ignores_one_false_box(f):
    def bisect(box, decide, split, max_boxes):
        res = f(box, decide, split, max_boxes)
        if res.disproved == 1 and res.undecided == 0:
            return dataclasses.replace(res, verdict=TRUE)
        return res
    return bisect


def _tally_of_nothing_proved(f):
    def tally(results, note=""):
        res = f(results, note)
        return dataclasses.replace(res, verdict=TRUE) if res.boxes == 0 else res
    return tally


def _merge_ignoring_undecided(f):
    def merge(parts, note=""):
        res = f(parts, note)
        return dataclasses.replace(res, verdict=TRUE) if res.disproved == 0 else res
    return merge


ARB_RANGES = [
    core_fault("arb", "bisect: box limit reached counted as proved", "other",
               replace_function(f"{RANGES}:bisect", _bisect_box_limit_proves),
               caught_by=f"{S_RANGES}::test_undecided_at_the_box_limit_is_undecided"),
    core_fault("arb", "bisect: one false box ignored", "other",
               replace_function(f"{RANGES}:bisect", _bisect_ignores_one_false_box),
               caught_by=f"{S_RANGES}::test_false_on_one_box_is_disproved"),
    core_fault("arb", "tally: an empty tally proved", "other",
               replace_function(f"{RANGES}:tally", _tally_of_nothing_proved),
               caught_by=f"{S_RANGES}::test_tally_by_truth_table"),
    core_fault("arb", "tally: undecided points not counted against the verdict", "dropped term",
               wrap_result(f"{RANGES}:tally",
                           lambda r: dataclasses.replace(r, verdict=TRUE) if r.verdict is UND else r),
               caught_by=f"{S_RANGES}::test_tally_by_truth_table"),
    core_fault("arb", "merge: undecided parts ignored", "dropped term",
               replace_function(f"{RANGES}:merge", _merge_ignoring_undecided),
               caught_by=f"{S_RANGES}::test_merge_by_truth_table"),
    core_fault("arb", "split_boxes: the last box dropped", "index",
               replace_function(f"{RANGES}:split_boxes",
                                lambda f: lambda lo, hi, n: f(lo, hi, n)[:-1]),
               caught_by=f"{S_RANGES}::test_split_boxes_cover_the_range"),
    core_fault("arb", "split_at_midpoint: the upper half lost", "dropped term",
               replace_function(f"{RANGES}:split_at_midpoint", lambda f: lambda bx: f(bx)[:1]),
               caught_by=f"{S_RANGES}::test_split_at_midpoint_covers_the_box"),
]


# -- arb: the proven tail bounds and the enclosed integrals -----------------------------------

def _peak_at_p(f):
    """tilted_peak as alpha cp + (1 - alpha) cq would place it for one scale: P's centre and scale."""
    from countdp.divergence.renyi import _Peak

    def peak(pd, qd, alpha):
        c, s = pd.t_center_scale()
        return _Peak(float(c), float(s), 0.0)
    return peak


def _mpmath_nested_estimate(f):
    """mpmath's quad over the axes as it is: in 2-D the estimate of the outer integral alone."""
    def quad(fn, axes, maxdegree, method):
        v, e = mpmath.quad(fn, *axes, error=True, maxdegree=maxdegree, method=method)
        return v, abs(e)
    return quad


def _rising_shells_only(f):
    """_shells_grow without the bend test: the shells rise beyond the rounding, nothing more."""
    def grows(xs, gs, hs, ns):
        if len(hs) < 7:
            return False
        hs, ns = list(hs[-7:]), list(ns[-7:])
        return all(hs[j + 1] - hs[j] - ns[j] - ns[j + 1] > 0 for j in range(6))
    return grows


def _atoms_unguarded(f):
    """_guarded_sum_log at the working precision with an error of 0 (as renyi_atoms once had it)."""
    def value(p, q, a):
        return mpmath.log(mpmath.fsum(mpmath.mpf(p[x]) ** a * mpmath.mpf(q[x]) ** (1 - a)
                                      for x in p if p[x] > 0)) / (a - 1), mpmath.mpf(0)
    return value


def _atoms_share_unguarded(f):
    """_atom_part as it was: p - e^eps q at the working precision, the window's tail its only error."""
    def share(P, Q, eps):
        out = f(P, Q, eps)
        with mpmath.workdps(mpmath.mp.dps):
            gamma = mpmath.exp(eps)
            total = mpmath.fsum(max(p - gamma * Q.atoms().get(x, mpmath.mpf(0)), 0) for x, p in P.atoms().items())
        return dataclasses.replace(out, value=total, error=mpmath.mpf(0))
    return share


def _scaled(factor):
    return lambda t: t * to_arb(factor)


ARB_TAILS = [
    core_fault("arb", "(G+) tail bound 1 % too small", "factor",
               wrap_result(f"{INTEGRALS}:gauss_tail_upper", _scaled("0.99")),
               caught_by=f"{S_TAILS}::test_gaussian_tail_bounds_hold_and_are_tight_far_out"),
    core_fault("arb", "(G-) tail bound 1 % too small", "factor",
               wrap_result(f"{INTEGRALS}:gauss_tail_lower", _scaled("0.99")),
               caught_by=f"{S_TAILS}::test_gaussian_tail_bounds_hold_and_are_tight_far_out"),
    core_fault("arb", "(Q+) tail bound 1 % too small", "factor",
               wrap_result(f"{INTEGRALS}:quad_exp_tail_upper", _scaled("0.99")),
               caught_by=f"{S_TAILS}::test_quadratic_tail_bounds_hold_and_are_tight_far_out"),
    core_fault("arb", "(N) moment tail bound 1 % too small", "factor",
               wrap_result(f"{INTEGRALS}:normal_moment_tail", _scaled("0.99")),
               caught_by=f"{S_TAILS}::test_moment_tail_bounds_hold_and_are_tight_far_out"),
    core_fault("arb", "(N) k = 2: the 1/T term dropped", "dropped term",
               replace_function(f"{INTEGRALS}:normal_moment_tail",
                                lambda f: lambda T, k: f(T, k) * to_arb(T) ** 2 / (to_arb(T) ** 2 + 1)
                                if k == 2 else f(T, k)),
               caught_by=f"{S_TAILS}::test_moment_tail_bounds_hold_and_are_tight_far_out"),
    core_fault("arb", "(G+) tail bound over L + b instead of L - b", "sign",
               replace_function(f"{INTEGRALS}:gauss_tail_upper",
                                lambda f: lambda L, b: f(L, b) * (to_arb(L) - to_arb(b))
                                / (to_arb(L) + to_arb(b)) if to_arb(L) + to_arb(b) > 0 else f(L, b)),
               caught_by=f"{T_INTEGRALS}::test_gaussian_tail_bounds_are_bounds"),
    core_fault("arb", "eq (10) mass: tail allowance subtracted", "sign",
               set_attribute(LOG_GAUSSIAN_ARB, "nonneg_interval",
                             lambda u: -arb(0).union(to_arb(u).upper())),
               caught_by=f"{S_TAILS}::test_log_count_law"),
    core_fault("arb", "eq (8)-(9) integrals: the (G+) tail dropped", "dropped term",
               set_attribute(LOG_GAUSSIAN_ARB, "gauss_tail_upper", lambda L, b: arb(0)),
               caught_by=f"{S_TAILS}::test_multiplicative_error_integral"),
    core_fault("arb", "eq (8)-(9) integrals: the (G-) tail dropped", "dropped term",
               set_attribute(LOG_GAUSSIAN_ARB, "gauss_tail_lower", lambda L, b: arb(0)),
               caught_by=f"{S_TAILS}::test_half_expectation_integrals"),
    core_fault("arb", "eq (10) moments: the (N) tails dropped", "dropped term",
               set_attribute(LOG_GAUSSIAN_ARB, "normal_moment_tail", lambda T, k: arb(0)),
               caught_by=f"{S_TAILS}::test_log_count_law"),
    core_fault("arb", "sqrt(2 pi) read as sqrt(pi)", "pi vs e",
               replace_function(f"{INTEGRALS}:sqrt_2pi", lambda f: lambda: arb.pi().sqrt()),
               claims=("lem4.1",)),
]


# -- numerics ---------------------------------------------------------------------------------

def _mc_without_bessel(f):
    def mc_mean(draw, rng, draws=10**6, chunk=2**17):
        est = f(draw, rng, draws, chunk)
        se = est.se * math.sqrt((est.draws - 1) / est.draws)
        return dataclasses.replace(est, se=se, error=5.0 * se)
    return mc_mean


def _mc_se_of_one_draw(f):
    def mc_mean(draw, rng, draws=10**6, chunk=2**17):
        est = f(draw, rng, draws, chunk)
        se = est.se * math.sqrt(est.draws)
        return dataclasses.replace(est, se=se, error=5.0 * se)
    return mc_mean


def _mc_error_in_variance(f):
    def mc_mean(draw, rng, draws=10**6, chunk=2**17):
        est = f(draw, rng, draws, chunk)
        return dataclasses.replace(est, error=5.0 * est.se ** 2)
    return mc_mean


def _mc_shift_not_added_back(f):
    def mc_mean(draw, rng, draws=10**6, chunk=2**17):
        first = []

        def recorded(g, m):
            x = np.asarray(draw(g, m), dtype=float)
            first.append(float(np.mean(x)))
            return x
        est = f(recorded, rng, draws, chunk)
        return dataclasses.replace(est, value=est.value - first[0])
    return mc_mean


def _rel_tol_up_to_two(f):
    def real(name, x, lo=None, hi=None, *args, **kwargs):
        return f(name, x, lo, 2 if name == "rel_tol" else hi, *args, **kwargs)
    return real


NUMERICS = [
    core_fault("numerics", "Monte Carlo intervals of 4 s.e. instead of 5", "constant",
               replace_function(f"{ESTIMATE}:Z_BAR", lambda z: 4.0),
               caught_by=f"{S_NUMERICS}::test_interval_is_five_standard_errors"),
    core_fault("numerics", "Monte Carlo s.e. without the Bessel correction", "factor",
               replace_function(f"{MONTECARLO}:mc_mean", _mc_without_bessel),
               caught_by=f"{S_NUMERICS}::test_mc_mean_exact_values"),
    core_fault("numerics", "Monte Carlo s.e. of one draw (not divided by sqrt(draws))", "exponent",
               replace_function(f"{MONTECARLO}:mc_mean", _mc_se_of_one_draw),
               caught_by=f"{S_NUMERICS}::test_mc_mean_exact_values"),
    core_fault("numerics", "Monte Carlo error bar Z_BAR se^2 instead of Z_BAR se", "exponent",
               replace_function(f"{MONTECARLO}:mc_mean", _mc_error_in_variance),
               caught_by=f"{S_NUMERICS}::test_interval_is_five_standard_errors"),
    core_fault("numerics", "Monte Carlo mean: the shift (first chunk's mean) not added back",
               "shift dropped", replace_function(f"{MONTECARLO}:mc_mean", _mc_shift_not_added_back),
               caught_by=f"{S_NUMERICS}::test_mc_mean_exact_values"),
    core_fault("numerics", "Estimate.interval: error subtracted on both sides", "sign",
               patch_method(f"{ESTIMATE}:Estimate.interval",
                            lambda f: lambda self: (self.value - self.error, self.value - self.error)),
               caught_by=f"{S_NUMERICS}::test_estimate_interval_exact"),
    core_fault("numerics", "working_precision: digits lost added to the precision", "sign",
               replace_function(f"{TOLERANCE}:working_precision",
                                lambda f: lambda digits_lost=6, dps=None: f(0, dps)
                                * mpmath.mpf(10) ** -digits_lost),
               caught_by=f"{S_NUMERICS}::test_working_precision_exact_values"),
    core_fault("numerics", "rel_tol accepted up to 2", "inequality",
               replace_function(f"{VALIDATE}:real", _rel_tol_up_to_two),
               caught_by=f"{S_NUMERICS}::test_tight_rho_refuses_a_relative_tolerance_outside_0_1"),
    core_fault("numerics", "Phi of the mirrored argument", "sign",
               replace_function(f"{NORMAL}:Phi", lambda f: lambda x: f(-np.asarray(x))),
               caught_by=f"{S_LAWS}::test_the_cdf_is_the_integral_of_the_pdf_and_its_derivative[Gaussian]"),
    core_fault("numerics", "mp_Phi_diff: Phi(a) - Phi(b) on the negative side", "swapped arguments",
               replace_function(f"{NORMAL}:mp_Phi_diff",
                                lambda f: lambda a, b: -f(a, b) if b <= 0 else f(a, b)),
               caught_by=f"{S_NUMERICS}::test_phi_diff_on_both_sides"),
]


# -- harness: the aggregation of cases, controls and certificates -----------------------------

def _turned_into_a_pass(failed, also=lambda builder: True):
    """ClaimBuilder.result with one failure turned into a pass: the failure whose reason
    ``failed(reason)`` picks, when ``also(builder)`` holds too."""
    def patch(f):
        def result(self, seconds):
            res = f(self, seconds)
            if res.reason and failed(res.reason) and also(self):
                res.status, res.reason = "pass", None
            return res
        return result
    return patch


# ``any`` instead of ``all`` over the negative controls
_one_control_is_enough = _turned_into_a_pass(lambda r: r == "a negative control was not rejected",
                                             lambda b: any(c.rejected for c in b.controls))
# a claim with controls (all rejected) but no case
_no_case_passes = _turned_into_a_pass(lambda r: r == "no case was compared",
                                      lambda b: bool(b.controls) and all(c.rejected for c in b.controls))
# a claim without any negative control
_no_control_passes = _turned_into_a_pass(lambda r: r.startswith("no negative control"))


def _strict_as_weak(f):
    def holds(lhs, relation, rhs, tol=0):
        return f(lhs, {"<": "<=", ">": ">="}.get(relation, relation), rhs, tol)
    return holds


def _negative_tolerance_allowed(f):
    def holds(lhs, relation, rhs, tol=0):
        return f(lhs, relation, rhs, abs(mpmath.mpf(tol)))
    return holds


def _infinities_equal(f):
    def holds(lhs, relation, rhs, tol=0):
        if relation == "==" and (mpmath.isinf(mpmath.mpf(lhs)) or mpmath.isinf(mpmath.mpf(rhs))):
            return True
        return f(lhs, relation, rhs, tol)
    return holds


def _error_ranks_below_fail(f):
    def worst_status(statuses):
        ss = list(statuses)
        return "fail" if "fail" in ss else f(ss)
    return worst_status


HARNESS = [
    core_fault("harness", "a claim passes when one negative control is rejected, not all",
               "other", patch_method(f"{CLAIMS}:ClaimBuilder.result", _one_control_is_enough),
               caught_by=f"{S_HARNESS}::test_the_status_is_the_documented_one"),
    core_fault("harness", "a claim with zero cases passes", "other",
               patch_method(f"{CLAIMS}:ClaimBuilder.result", _no_case_passes),
               caught_by=f"{S_HARNESS}::test_the_status_is_the_documented_one"),
    core_fault("harness", "a claim with no negative control passes", "other",
               patch_method(f"{CLAIMS}:ClaimBuilder.result", _no_control_passes),
               caught_by=f"{S_HARNESS}::test_the_status_is_the_documented_one"),
    core_fault("harness", "an erroring certificate ignored", "other",
               wrap_result(f"{CERTIFICATES}:run_certificates",
                           lambda c: dataclasses.replace(c, errors=[])),
               caught_by=f"{T_CERTS}::test_a_crashing_certificate_is_an_error"),
    core_fault("harness", "a certificate's disproved record ignored", "other",
               patch_method(f"{CERTIFICATES}:Certification.disproved", lambda f: lambda self: []),
               caught_by=f"{T_CERTS}::test_a_record_proved_false_fails_the_claim"),
    core_fault("harness", "an undecided record counted as certified", "inequality",
               patch_method(f"{CERTIFICATES}:Certification.certified",
                            lambda f: lambda self: bool(self.records) and not self.disproved),
               caught_by=f"{T_CERTS}::test_undecided_is_a_note_not_a_proof_and_not_a_failure"),
    core_fault("harness", "a certificate without a scope counted as a proof of the claim", "other",
               patch_method(f"{CERTIFICATES}:Certification.proof",
                            lambda f: lambda self: self.certified),
               caught_by=f"{S_HARNESS}::test_proof_needs_every_certificate_scoped_to_the_claim"),
    core_fault("harness", "a certificate raising Undecided reported as proved", "other",
               patch_method(f"{CERTIFICATES}:CertificateBuilder.undecided",
                            lambda f: lambda self, name, reason: self.record(name, reason, None, TRUE)),
               caught_by=f"{T_CERTS}::test_undecided_is_a_note_not_a_proof_and_not_a_failure"),
    core_fault("harness", "holds: a strict inequality read as weak", "inequality",
               replace_function(f"{RESULTS}:holds", _strict_as_weak),
               caught_by=f"{S_HARNESS}::test_holds_is_the_documented_relation"),
    core_fault("harness", "holds: a negative tolerance taken by its absolute value", "sign",
               replace_function(f"{RESULTS}:holds", _negative_tolerance_allowed),
               caught_by=f"{S_HARNESS}::test_holds_is_the_documented_relation"),
    core_fault("harness", "holds: an infinite side equal to anything", "other",
               replace_function(f"{RESULTS}:holds", _infinities_equal),
               caught_by=f"{S_HARNESS}::test_holds_is_the_documented_relation"),
    core_fault("harness", "holds: the tolerance of <= subtracted", "sign",
               replace_function(f"{RESULTS}:holds",
                                lambda f: lambda lhs, rel, rhs, tol=0: f(lhs, rel, rhs, 0)
                                if rel in ("<=", ">=") else f(lhs, rel, rhs, tol)),
               claims=("thm3.1.i", "eq9", "prop6.2")),
    core_fault("harness", "worst_status: an error ranked below a failure", "other",
               replace_function(f"{RESULTS}:worst_status", _error_ranks_below_fail),
               caught_by=f"{S_HARNESS}::test_worst_status"),
    core_fault("harness", "Run.ok: errors not counted", "dropped term",
               patch_method(f"{RESULTS}:Run.ok",
                            lambda f: lambda self, strict=False: self.counts()["fail"] == 0),
               caught_by=f"{S_HARNESS}::test_a_run_with_a_failing_or_erroring_claim_is_not_ok"),
    core_fault("harness", "a negative control counted as rejected when it holds", "sign",
               patch_method(f"{CLAIMS}:ClaimBuilder.control",
                            lambda f: lambda self, what, lhs, rel, rhs, tol=0, detail=None:
                            self.control_outcome(what, results.holds(lhs, rel, rhs, tol), detail)),
               claims=("eq3",)),
]


# -- laws -------------------------------------------------------------------------------------

def _gaussian_log_norm_sqrt_pi(f):
    return lambda self, x: f(self, x) + mpmath.log(2) / 2


def _laplace_cdf_min_max_swapped(f):
    def cdf(self, x):
        z = (np.asarray(x, dtype=float) - float(self.mu)) / float(self.b)
        return np.where(z < 0, 0.5 * np.exp(np.maximum(z, 0)), 1 - 0.5 * np.exp(-np.minimum(z, 0)))
    return cdf


LAWS = [
    core_fault("laws", "Gaussian density: normalising constant sqrt(pi) for sqrt(2 pi)", "pi vs e",
               patch_method(f"{GAUSSIAN}:GaussianDensity.mp_logpdf", _gaussian_log_norm_sqrt_pi),
               caught_by=f"{S_LAWS}::test_pdf_is_exp_logpdf_in_float_and_mpmath[Gaussian]"),
    core_fault("laws", "Gaussian float logpdf: log s^2 for log s", "exponent",
               patch_method(f"{GAUSSIAN}:GaussianDensity.logpdf",
                            lambda f: lambda self, x: f(self, x) - np.log(float(self.s))),
               caught_by=f"{S_LAWS}::test_pdf_is_exp_logpdf_in_float_and_mpmath[Gaussian]"),
    core_fault("laws", "Gaussian cdf: Phi((mu - x)/s), the survival function", "sign",
               patch_method(f"{GAUSSIAN}:Gaussian.cdf",
                            lambda f: lambda self, x: f(self, 2 * float(self.mu)
                                                        - np.asarray(x, dtype=float))),
               caught_by=f"{S_LAWS}::test_the_cdf_is_the_integral_of_the_pdf_and_its_derivative[Gaussian]"),
    core_fault("laws", "Gaussian sampler: scale squared", "exponent",
               patch_method(f"{GAUSSIAN}:Gaussian.sample",
                            lambda f: lambda self, rng, size: float(self.mu) + float(self.s) ** 2
                            * rng.standard_normal(size)),
               caught_by=f"{S_LAWS}::test_the_sampler_matches_the_law[Gaussian]"),
    core_fault("laws", "generalised Gaussian: Gamma(1/p) for Gamma(1 + 1/p)", "constant",
               patch_method(f"{GENERALISED}:GeneralisedGaussianDensity.mp_logpdf",
                            lambda f: lambda self, x: f(self, x) - mpmath.log(self.p)),
               caught_by="tests/test_laws_generalised_gaussian.py::test_normalised_and_float_matches_mpmath"),
    core_fault("laws", "eq (10) law: cdf of the mirrored law", "sign",
               patch_method(f"{LOG_SHIFT}:LogShiftedGaussian.cdf",
                            lambda f: lambda self, x: 1 - f(self, -np.asarray(x, dtype=float))),
               caught_by=f"{S_LAWS}::test_the_cdf_is_the_integral_of_the_pdf_and_its_derivative[LogShiftedGaussian]"),
    core_fault("laws", "eq (10) law: sampler's scale squared", "exponent",
               patch_method(f"{LOG_SHIFT}:LogShiftedGaussian.sample",
                            lambda f: lambda self, rng, size: np.exp(
                                float(self.mu) + float(self.s) ** 2 * rng.standard_normal(size))
                            - float(self.c)),
               caught_by=f"{S_LAWS}::test_the_sampler_matches_the_law[LogShiftedGaussian]"),
    core_fault("laws", "eq (10) density: log(u + c) - mu over s squared", "exponent",
               patch_method(f"{LOG_SHIFT}:LogShiftedGaussianDensity.mp_noise_logpdf",
                            lambda f: lambda self, z: f(self, z * self.s)),
               caught_by=f"{S_LAWS}::test_pdf_is_exp_logpdf_in_float_and_mpmath[LogShiftedGaussian]"),
    core_fault("laws", "Laplace cdf: minimum and maximum swapped in the two branches", "swapped arguments",
               patch_method(f"{REFERENCE}:Laplace.cdf", _laplace_cdf_min_max_swapped),
               caught_by=f"{S_LAWS}::test_the_cdf_is_the_integral_of_the_pdf_and_its_derivative[Laplace]"),
    core_fault("laws", "the mechanism's drift +sigma^2 for -sigma^2", "sign",
               patch_method(f"{LOG_GAUSSIAN_MECH}:ShiftedLogGaussian.mp_drift",
                            lambda f: lambda self: -f(self)),
               caught_by="tests/test_mechanisms_log_gaussian.py::test_release_law_matches_sampler_atom"),
    core_fault("laws", "clipped law: atom P(U > 0) for P(U <= 0)", "sign",
               patch_method(f"{LOG_SHIFT}:LogShiftDensity.mp_mass_at_or_below_zero",
                            lambda f: lambda self: 1 - f(self)),
               claims=("sec5.post",)),
]


# -- divergence engines -----------------------------------------------------------------------

def _positive_root_start(f):
    """The one-sided start's Newton iteration begun at g + 1 (it converges to the root u > 0)."""
    def start_ratio(kind, g):
        if kind != "one-sided":
            return f(kind, g)
        u = g + 1.0
        for _ in range(200):
            u -= (math.expm1(u) - u - g) / math.expm1(u)
        return u
    return start_ratio


def _chord_of_the_wrong_sign(f):
    return lambda a, b, Fa, Fb: f(a, b, Fa, Fa - (Fb - Fa))


def _renyi_over_alpha(f):
    """D_alpha with the log-integral divided by alpha instead of alpha - 1."""
    def renyi(P, Q, alpha, method="auto"):
        d = f(P, Q, alpha, method)
        a = mpmath.mpf(alpha)
        return dataclasses.replace(d, value=d.value * (a - 1) / a) if d.finite else d
    return renyi


DIVERGENCE = [
    core_fault("divergence", "D_alpha: log-integral over alpha instead of alpha - 1", "index",
               replace_function(f"{RENYI}:renyi", _renyi_over_alpha),
               claims=("eq12",)),
    core_fault("divergence", "sup over alpha: the KL end a relative 1e-6 too high", "factor",
               replace_function(f"{TIGHT_RHO}:_kl_end",
                                lambda f: lambda d, precise: dataclasses.replace(
                                    f(d, precise), value=f(d, precise).value * (1 + mpmath.mpf(10) ** -6))),
               claims=("hm.laplace",)),
    core_fault("divergence", "shift coupling: the fibre KL with log(b/a) for log(a/b)", "sign",
               patch_method(f"{SHIFT_COUPLING}:FibreGrid.shift_kl", lambda f: lambda self: -f(self)),
               claims=("cstar.lower.coupling",)),
    core_fault("divergence", "shift coupling: error density of n + e (mirrored)", "sign",
               replace_function(f"{SHIFT_COUPLING}:error_density",
                                lambda f: lambda noise, ns, ps, e, exact=False:
                                f(noise, ns, ps, -np.asarray(e, dtype=float), exact)),
               caught_by=f"{T_SHIFT_COUPLING}::test_error_density_has_the_signed_mean_of_the_error"),
    core_fault("divergence", "lattice dual: one-sided Newton started at the positive root", "sign",
               replace_function(f"{LATTICE_DUAL}:start_ratio", _positive_root_start),
               caught_by=f"{T_LATTICE_DUAL}::test_start_ratio_is_the_negative_root"),
    core_fault("divergence", "sup over alpha: chord bound with the slope's sign flipped", "sign",
               replace_function(f"{TIGHT_RHO}:_chord_bound", _chord_of_the_wrong_sign),
               caught_by=f"{S_SUP_ALPHA}::test_chord_bound_dominates_the_curve_on_its_cell"),
    core_fault("divergence", "sup over alpha: the large-alpha end dropped from the bracket",
               "dropped term",
               replace_function(f"{TIGHT_RHO}:_tail",
                                lambda f: lambda scan, how: (lambda t: (t[0], t[1], -math.inf))(
                                    f(scan, how))),
               caught_by=f"{S_SUP_ALPHA}::test_the_krr_bracket_contains_the_supremum"),
    core_fault("divergence", "sup over alpha: the first cell's bound dropped", "dropped term",
               patch_method(f"{TIGHT_RHO}:_Scan.first_ub", lambda f: lambda self, a0: -math.inf),
               caught_by=f"{S_SUP_ALPHA}::test_the_krr_bracket_contains_the_supremum"),
    core_fault("divergence", "F: an order the float route cannot resolve read as D_alpha = inf", "other",
               patch_method(f"{LOSS_CGF}:DensityLossCgf._unresolved", lambda f: lambda self, a1: (math.inf, 0.0)),
               caught_by=f"{S_SUP_ALPHA}::test_a_scan_past_what_float64_resolves_keeps_a_true_bracket"),
    core_fault("divergence", "F: the divergence test says 'grows' past alpha = 1e5 (a far peak read as inf)",
               "other",
               patch_method(f"{LOSS_CGF}:DensityLossCgf.divergence",
                            lambda f: lambda self, a1: f(self, a1) or "grows" if a1 > 1e5 else f(self, a1)),
               caught_by=f"{S_SUP_ALPHA}::test_a_far_peak_is_not_read_as_divergence"),
    core_fault("divergence", "F: the float rule's outermost contributions not looked at (a finite end's "
               "unreached mass taken as resolved)", "dropped term",
               patch_method(f"{LOSS_CGF}:DensityLossCgf._integrate",
                            lambda f: lambda self, *a, **k: (lambda t: (t[0], t[1], 0.0))(f(self, *a, **k))),
               caught_by=f"{S_SUP_ALPHA}::test_an_integrand_unbounded_at_a_finite_end_never_gets_a_finite_value_it_does_not_cover"),
    core_fault("divergence", "F by mpmath: an integrand unbounded at a finite end integrated as if it were not",
               "dropped term",
               patch_method(f"{LOSS_CGF}:DensityLossCgf._unresolved_at_an_end", lambda f: lambda self, a1: False),
               caught_by=f"{S_SUP_ALPHA}::test_the_precise_route_says_unresolved_where_its_nodes_cannot_reach_an_end"),
    core_fault("divergence", "renyi: the mass next to a finite end, and its divergence there, not looked at",
               "dropped term",
               replace_function(f"{RENYI}:_end_shells", lambda f: lambda g, pd, peak, g_ref: (None, 0)),
               caught_by="tests/test_divergence_renyi.py::test_an_integrand_unbounded_at_a_finite_end_is_covered_or_infinite"),
    core_fault("divergence", "integer pair: P's proven window trusted whatever p/q does beyond it (the mass "
               "outside charged at the window's largest ratio)", "dropped term",
               replace_function(f"{FINITE_SUPPORT}:ratio_stays_within", lambda f: lambda *a: True),
               caught_by=f"{S_INTEGER}::test_discrete_laplace_renyi_against_the_closed_form"),
    core_fault("divergence", "renyi: a pmf sum whose terms do not decay never shown divergent", "dropped term",
               replace_function(f"{RENYI}:_integer_terms_grow", lambda f: lambda *a: None),
               caught_by=f"{S_INTEGER}::test_discrete_laplace_renyi_against_the_closed_form"),
    core_fault("divergence", "product: the plane's rule without the densities' kinks as nodes", "dropped term",
               replace_function(f"{RENYI}:kink_nodes", lambda f: lambda *a: set()),
               caught_by=f"{S_PRODUCT}::test_a_kinked_coordinate_beside_a_log_shift_one_is_within_its_bar"),
    core_fault("divergence", "product: each coordinate placed about P's centre with P's scale, not about its "
               "tilted peak", "other", replace_function(f"{PRODUCT}:tilted_peak", _peak_at_p),
               caught_by=f"{S_PRODUCT}::test_a_pair_of_two_scales_is_integrated_around_its_tilted_peak"),
    core_fault("numerics", "2-D quadrature: mpmath's own estimate (the inner integrals' error dropped)",
               "dropped term", replace_function(f"{QUADRATURE}:_quad_with_error", _mpmath_nested_estimate),
               caught_by="tests/test_numerics_quadrature.py::test_a_two_dimensional_integral_carries_its_inner_integrals_error"),
    core_fault("divergence", "profile: the closed form of two equal-scale Gaussians taken as exact (error 0)",
               "dropped term", replace_function(f"{PROFILE}:_closed_rounding", lambda f: lambda mu, eps: mpmath.mpf(0)),
               caught_by="tests/test_divergence_profile.py::test_the_closed_profile_carries_its_rounding"),
    core_fault("divergence", "truncation: the whole-line bounds applied to a pair whose log-integrand is not "
               "quadratic", "other", replace_function(f"{TRUNCATION}:_quadratic_pair", lambda f: lambda P, Q: None),
               caught_by="tests/test_divergence_truncation.py::test_the_whole_line_bounds_refuse_a_pair_whose_log_integrand_is_not_quadratic"),
    core_fault("divergence", "Gaussian closed forms evaluated at the working precision and taken as exact",
               "dropped term", replace_function(f"{RENYI}:_with_guard_digits",
                                                lambda f: lambda formula, *args: (formula(*args), mpmath.mpf(0))),
               caught_by="tests/test_soundness_precision.py::test_the_gaussian_closed_forms_carry_their_rounding"),
    core_fault("divergence", "D of finitely supported laws at the working precision, its error 0", "dropped term",
               replace_function("countdp.divergence.atoms:_guarded_sum_log", _atoms_unguarded),
               caught_by="tests/test_divergence_atoms.py::test_two_close_laws_keep_their_divergence_and_carry_its_rounding"),
    core_fault("divergence", "profile: the atoms' share summed at the working precision, its rounding not in the bar",
               "dropped term", replace_function(f"{PROFILE}:_atom_part", _atoms_share_unguarded),
               caught_by="tests/test_divergence_profile.py::test_the_atoms_share_of_a_profile_carries_its_rounding"),
    core_fault("divergence", "tail growth: rising shells alone read as divergence (g's bend not tested)", "dropped term",
               replace_function(f"{TAIL_GROWTH}:_shells_grow", _rising_shells_only),
               caught_by=f"{S_SUP_ALPHA}::test_a_concave_rise_toward_a_peak_out_of_reach_is_not_growth"),
    core_fault("laws", "rounded log-Gaussian pmf evaluated without guard digits (its tent terms cancel k-fold)",
               "other", patch_method(f"{LOG_GAUSSIAN_MECH}:RoundedLogGaussian._pmf", lambda f: lambda self, k: self._tent(k)),
               caught_by="tests/test_soundness_precision.py::test_the_value_at_the_working_precision_is_within_4_ulps"),
]

FAULTS = ARB_VERDICTS + ARB_RANGES + ARB_TAILS + NUMERICS + HARNESS + LAWS + DIVERGENCE
