"""What ``countdp budget`` prints: the text (one block per edge, or a table over n; the r0
solved for a target) and the JSON (the parameters echoed, numbers as JSON numbers at the
working precision)."""

from __future__ import annotations

import json
import math

import mpmath

from ..numerics import validate
from ..numerics.digits import significant
from .budget import EDGE_CONVENTION, LABELS, Budget, Conversion, Row, Solution

__all__ = ["to_json", "json_text", "budget_text", "solution_text", "solutions_table"]


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
    return _Raw(significant(x, digits))


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
    d["error_bound"] = _num(row.error_bound, digits)
    if row.target is not None:
        d["target"] = _num(row.target, digits)
    return d


def to_json(result: Budget | Solution) -> dict:
    """A JSON-ready dict: the parameters echoed, sigma, v(0), one entry per row; numbers are
    JSON numbers at the working precision (:func:`json_text` writes them).  ``result``: what
    ``guarantee`` or ``solve_r0`` returns (anything else is refused, naming it)."""
    validate.instance("result", result, (Budget, Solution),
                      "a Budget or a Solution (from guarantee or solve_r0)")
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
    return json.dumps(s, ensure_ascii=False)



# ============================================================================================
# Text: one block per edge, or a table over n
# ============================================================================================


def _g(x, digits: int) -> str:
    """A number for the terminal: ``digits`` significant digits at full range, 0 as 0, None as -."""
    if x is None:
        return "-"
    return "infinite" if mpmath.isinf(x) else significant(x, digits)


def _releases_text(k: int) -> str:
    return f"{k} release" + ("s" if k != 1 else "")


def _budget_block(b: Budget, row: Row, digits: int, verbose: bool) -> list[str]:
    """The guarantee on one edge, every conversion labelled, tightest first, and the utility."""
    k = b.releases
    lines = [f"edge ({row.edge[0]}, {row.edge[1]}), n={row.n}: the guarantee holds for every "
             f"count >= {row.n}",
             f"  v(n)              {_g(row.v, digits)}   (eqs 5-6: the zCDP rho of one release)"]
    if k > 1:
        lines.append(f"  rho = {k} v(n)      {_g(row.rho, digits)}   ({_releases_text(k)} composed)")
    for what, attr, given in (("eps", "eps", b.delta), ("delta", "delta", b.eps)):
        if given is None:
            continue
        at = f"delta = {b.delta:g}" if what == "eps" else f"eps = {b.eps:g}"
        lines.append(f"  {what} at {at}, tightest first:")
        texts = [_g(getattr(cv, attr), digits) if getattr(cv, attr) is not None else "not computed"
                 for cv in row.conversions]
        w = max(14, *(len(t) + 2 for t in texts))
        for cv, txt in zip(row.conversions, texts):
            val = getattr(cv, attr)
            err = getattr(cv, attr + "_error")
            lines.append(f"    {txt:<{w}}{cv.label}")
            detail = cv.note if val is None else cv.how
            if verbose or val is None or cv.note:
                lines.append(f"    {'':<{w}}  ({detail}" + (f"; error <= {_g(err, 2)}" if
                                                           val is not None and err else "") + ")")
                if cv.note and val is not None:
                    lines.append(f"    {'':<{w}}  ({cv.note})")
    rel = row.expected_error / max(row.n, 1)
    lines.append(f"  E|Y - n|          {_g(row.expected_error, digits)}   (expected absolute error of "
                 f"the released count, exact; / max(n, 1) = {_g(rel, 3)})")
    lines.append(f"  r0 (n+c)/(1+c)    {_g(row.error_bound, digits)}   (its bound, Theorem 3.1(i))")
    if row.target is not None:
        lines.append(f"  r max(n, 1)       {_g(row.target, digits)}   (the utility target of eq (2))")
    return lines


def _budget_table(b: Budget, digits: int) -> list[str]:
    """One row per n: n, v(n), rho, eps of each conversion (and delta), E|Y - n|, the bounds."""
    cols = [("n", lambda r: str(r.n) if r.n < 10 ** 9 else _g(r.n, 4)), ("v(n)", lambda r: _g(r.v, digits))]
    if b.releases > 1:
        cols.append((f"rho={b.releases}v", lambda r: _g(r.rho, digits)))
    short = {"exact": "exact", "cks": "CKS", "bun-steinke": "BS"}
    for what, given in (("eps", b.delta), ("delta", b.eps)):
        if given is None:
            continue
        for m in ("exact", "cks", "bun-steinke"):
            def cell(r, m=m, what=what):
                cv = next(c for c in r.conversions if c.method == m)
                val = getattr(cv, what)
                mark = "*" if (cv.upper_bound and val is not None) else ""
                return (_g(val, digits) + mark) if val is not None else "-"
            cols.append((f"{what} {short[m]}", cell))
    cols.append(("E|Y-n|", lambda r: _g(r.expected_error, digits)))
    cols.append(("r0(n+c)/(1+c)", lambda r: _g(r.error_bound, digits)))
    if b.r is not None:
        cols.append(("r max(n,1)", lambda r: _g(r.target, digits)))
    cells = [[f(r) for _, f in cols] for r in b.rows]
    w = [max(len(h), *(len(c[j]) for c in cells)) for j, (h, _) in enumerate(cols)]
    out = ["  ".join(f"{h:>{w[j]}}" for j, (h, _) in enumerate(cols))]
    out += ["  ".join(f"{c[j]:>{w[j]}}" for j in range(len(cols))) for c in cells]
    notes = []
    if any(cv.upper_bound for r in b.rows for cv in r.conversions):
        notes.append("* exact: the profile of the unclipped releases, an upper bound (the clipped "
                     "mass is not negligible there; --json has the bracket)")
    return out + notes


def _budget_header(b: Budget, r0_text: str | None = None) -> list[str]:
    r = f", r = {b.r:g}" if b.r is not None else ""
    if r0_text is None:
        r0_text = f"{b.r0:g}" if isinstance(b.r0, float) else _g(b.r0, 6)
    r0 = r0_text
    k = b.releases
    lines = [f"shifted log-Gaussian mechanism (eqs 3-6): r0 = {r0}, c = {b.c:g}{r}, "
             f"{_releases_text(k)}",
             f"  sigma             {_g(b.sigma, 6)}   (eq 3)",
             f"  v(0) = v(1)       {_g(b.v0, 6)}   (the edge (0, 1), one release: the guarantee for "
             f"every count)"]
    if k > 1:
        lines.append(f"  {f'rho = {k} v(0)':<18}{_g(k * b.v0, 6)}   ({_releases_text(k)} composed: the guarantee "
                     "for every count)")
    return lines


def budget_text(b: Budget, digits: int, verbose: bool = False) -> str:
    """The guarantee of :func:`~countdp.calculator.budget.guarantee`: one block for one count
    (``verbose``: how each conversion was computed), a table over several."""
    lines = _budget_header(b)
    if len(b.rows) == 1:
        return "\n".join(lines + [""] + _budget_block(b, b.rows[0], digits, verbose))
    if b.delta is not None:
        lines.append(f"  eps at delta = {b.delta:g}: every conversion, tightest first "
                     "(exact profile, CKS, Bun-Steinke)")
    return "\n".join(lines + [""] + _budget_table(b, digits))


def _target_text(s: Solution) -> str:
    if s.target_rho is not None:
        return f"rho = {s.target_rho:g}"
    return f"eps = {s.target_eps:g} at delta = {s.delta:g} ({LABELS[s.via]})"


def solution_text(s: Solution, digits: int, verbose: bool = False) -> str:
    """The r0 of :func:`~countdp.calculator.budget.solve_r0`, and the guarantee it gives."""
    lines = [f"target {_target_text(s)} on the edge at n = {s.n} (c = {s.c:g}, "
             f"{_releases_text(s.releases)}):",
             f"  r0                {_g(s.r0, digits)}   (solved: sigma = {_g(s.sigma, digits)}, "
             "eq 3 inverted)", ""]
    lines += _budget_header(s.budget, _g(s.r0, digits))[1:] + [""]
    lines += _budget_block(s.budget, s.row, digits, verbose)
    return "\n".join(lines)


def solutions_table(sols: list[Solution], unreachable: list[int], digits: int) -> str:
    """One row per n of the r0 that meets one target (``sols``, at least one), the counts in
    ``unreachable`` marked so."""
    s0 = sols[0]
    lines = [f"target {_target_text(s0)} (c = {s0.c:g}, {_releases_text(s0.releases)}): r0 per n"]
    head = ("n", "r0", "sigma", "v(n)", "eps" if s0.delta is not None else "rho", "E|Y-n|",
            "r0(n+c)/(1+c)")
    rows = []
    for s in sols:
        row = s.row
        last = row.eps if s0.delta is not None else row.rho
        rows.append((str(s.n), _g(s.r0, digits), _g(s.sigma, digits), _g(row.v, digits),
                     _g(last, digits), _g(row.expected_error, digits), _g(row.error_bound, digits)))
    for n in unreachable:
        rows.append((str(n), "unreachable", "-", "-", "-", "-", "-"))
    rows.sort(key=lambda t: int(t[0]))
    w = [max(len(h), *(len(r[j]) for r in rows)) for j, h in enumerate(head)]
    lines.append("  ".join(f"{h:>{w[j]}}" for j, h in enumerate(head)))
    lines += ["  ".join(f"{r[j]:>{w[j]}}" for j in range(len(head))) for r in rows]
    return "\n".join(lines)
