"""Write numbers.tex, the note's numbers as LaTeX macros, from the reports of the run that built it.

    python experiments/cstar/note/note_numbers.py [--reports reports] [--out experiments/cstar/note/numbers.tex]
    python experiments/cstar/note/note_numbers.py --reports reports --missing   (the claim ids still to run)

Every digit in cstar.tex comes from here: the claims of ``CLAIMS`` are found by id in whichever
``<reports>/*.json`` script report holds them, and their case values and certified balls are rounded
to the digits a macro asks for; nothing is typed by hand.  A claim that is missing, reported twice or
did not pass, and a case or certificate record that is missing, raise an error naming it, so a
renamed check cannot leave a stale number in the note.  pi/(4e^2) and 1/pi, the paper's constants,
are evaluated here.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import mpmath

CLAIMS = ("cstar.airy.constants", "cstar.airy.limit", "cstar.value")


def claims(reports: Path) -> dict[str, dict]:
    """claim id -> the claim's record, over every script report in ``reports``; each record also
    carries its report's ``environment`` (versions, commit, mode) under ``"run"``."""
    found: dict[str, tuple[str, dict]] = {}
    for path in sorted(Path(reports).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if not (isinstance(data, dict) and "script" in data and "claims" in data):
            continue
        for c in data["claims"]:
            if c["id"] in found:
                raise ValueError(f"claim {c['id']} is reported twice, in {found[c['id']][0]} and {path.name} "
                                 f"(a stale report: re-run countdp reproduce into {reports})")
            found[c["id"]] = (path.name, {**c, "run": data.get("environment", {})})
    return {cid: c for cid, (_, c) in found.items()}


def missing(reports: Path) -> list[str]:
    """The claims of the note that ``reports`` does not hold (all of them if it does not exist)."""
    have = claims(reports) if Path(reports).is_dir() else {}
    return [cid for cid in CLAIMS if cid not in have]


def _needed(reports: Path) -> dict[str, dict]:
    have = claims(reports)
    for cid in CLAIMS:
        if cid not in have:
            raise KeyError(f"claim {cid} is in no report of {reports} (countdp reproduce --only {cid})")
        if have[cid]["status"] != "pass":
            raise ValueError(f"claim {cid} has status {have[cid]['status']!r} in {reports}: no note from it")
    return have


def _case(claim: dict, **params) -> dict:
    for case in claim["cases"]:
        if all(case["params"].get(k) == v for k, v in params.items()):
            return case
    raise KeyError(f"{claim['id']}: no case with {params}")


def _record(claim: dict, label: str) -> str:
    """The text of the certificate record of ``claim`` whose label is ``label`` (it must be proved)."""
    for what in (claim.get("certified") or {}).get("what", []):
        name, _, rest = what.partition(": ")
        if name == label:
            if not rest.startswith("proved_true"):
                raise ValueError(f"{claim['id']}: certificate {label!r} is not proved: {rest}")
            return rest
    raise KeyError(f"{claim['id']}: no certificate record {label!r}")


def _digits(x, n: int) -> str:
    """x (a decimal string or mpf) to n significant digits, as LaTeX-safe text."""
    with mpmath.workdps(n + 10):
        return mpmath.nstr(mpmath.mpf(x), n, strip_zeros=False, min_fixed=-30, max_fixed=30)


def _sci(x, n: int) -> str:
    """x to n significant digits in LaTeX scientific notation (math mode): 3.2\\cdot 10^{-16}."""
    with mpmath.workdps(n + 10):
        x = mpmath.mpf(x)
        if x == 0:
            return "0"
        e = int(mpmath.floor(mpmath.log10(abs(x))))
        mant = mpmath.nstr(x / mpmath.mpf(10) ** e, n, strip_zeros=False)
        if mant.lstrip("-").startswith("10"):        # rounding carried into the next decade
            e, mant = e + 1, mpmath.nstr(x / mpmath.mpf(10) ** (e + 1), n, strip_zeros=False)
        mant = mant.rstrip(".")
    return rf"10^{{{e}}}" if mant == "1" else rf"{mant}\cdot 10^{{{e}}}"


def _ball_parts(text: str) -> tuple[str, str]:
    m = re.search(r"\[([-0-9.e]+) \+/- ([0-9.e-]+)\]", text)
    if not m:
        raise KeyError(f"no ball in {text!r}")
    return m.group(1), m.group(2)


def _ball(text: str) -> str:
    """The ``[mid +/- rad]`` ball of a certificate record's text, as LaTeX."""
    mid, rad = _ball_parts(text)
    return rf"[{mid} \pm {_sci(rad, 3)}]"


def _constants(const: dict, value: dict) -> dict[str, str]:
    q = {"aonep": "a1'", "Zconst": "Z = 2|a1'| Ai(a1')^2", "mconst": "m = E|X| = 2|a1'|/3",
         "Iconst": "I = 4|a1'|/3", "EXsq": "E X^2 = 1/(5|a1'|) + 8 a1'^2/15", "czero": "m^2 I/2 = 8|a1'|^3/27"}
    out = {k: _digits(_case(const, quantity=v)["lhs"], 16 if k in ("aonep", "czero") else 12) for k, v in q.items()}
    out["aonepBall"] = _ball(_record(const, "a1' (first zero of Ai')"))
    out["czeroBall"] = _ball(_record(value, "pi/(4e^2) < c0 < 1/pi"))
    gap_mid, _ = _ball_parts(_record(value, "a1 < a1' < 0"))
    out["zerogapBall"] = _ball(_record(value, "a1 < a1' < 0"))
    out["halfczeroBall"] = _ball(_record(value, "maximum = c0/2 at M = 1"))
    with mpmath.workdps(40):
        c0 = mpmath.mpf(_case(const, quantity=q["czero"])["lhs"])
        out["aone"] = _digits(mpmath.mpf(_case(const, quantity="a1'")["lhs"]) - mpmath.mpf(gap_mid), 6)
        out["oneoverpi"] = _digits(1 / mpmath.pi, 7)
        out["paperlower"] = _digits(mpmath.pi / (4 * mpmath.e ** 2), 7)
        out["percentBelow"] = _digits(100 * (1 - c0 * mpmath.pi), 5)
    return out


def _corroboration(value: dict, limit: dict) -> dict[str, str]:
    rows = [c for c in value["cases"] if "r" in c["params"]]
    if not rows:
        raise KeyError("cstar.value: no case with an r")
    out = {"crossRows": "\n".join(rf"${_sci(c['params']['r'], 1)}$ & ${_digits(c['lhs'], 9)}$ & "
                                  rf"${_digits(c['rhs'], 9)}$\\" for c in rows)}
    for q, key in (("upper end", "Up"), ("lower end", "Low"), ("lattice", "Lattice")):
        case = _case(value, quantity=q)
        with mpmath.workdps(60):
            out[f"extrap{key}"] = _sci(abs(mpmath.mpf(case["lhs"]) - mpmath.mpf(case["rhs"])), 2)
        out[f"extrap{key}Tol"] = _sci(case["tol"], 2)
    certs = [w.partition(": ")[0] for w in limit["certified"]["what"] if w.startswith("r^2 I/(2b^2) at r = ")]
    if not certs:
        raise KeyError("cstar.airy.limit: no certificate record 'r^2 I/(2b^2) at r = ...'")
    last = min(certs, key=lambda w: float(w.rsplit("= ", 1)[1]))
    out["upcertR"] = _sci(last.rsplit("= ", 1)[1], 1)
    out["upcertBall"] = _ball(_record(limit, last))
    return out


def _run(have: dict[str, dict]) -> str:
    """The run the numbers come from: countdp's version, the commit, the mode (one line of text)."""
    runs = {(e.get("countdp", "?"), e.get("commit", "?"), "quick" if e.get("quick") else "full")
            for e in (have[cid]["run"] for cid in CLAIMS)}
    return "; ".join(rf"countdp {v}, commit \texttt{{{c}}}, {mode} run" for v, c, mode in sorted(runs))


def collect(reports: Path) -> dict[str, str]:
    """The macros (name -> LaTeX text) of the note."""
    have = _needed(Path(reports))
    value = have["cstar.value"]
    return {**_constants(have["cstar.airy.constants"], value), **_corroboration(value, have["cstar.airy.limit"]),
            "runinfo": _run(have)}


def write(macros: dict[str, str], path: Path) -> None:
    lines = ["% generated by experiments/cstar/note/note_numbers.py from the reports; do not edit"]
    lines += [rf"\newcommand{{\{name}}}{{{text}}}" for name, text in sorted(macros.items())]
    path.write_text("\n".join(lines) + "\n")


def main(argv=None) -> None:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reports", type=Path, default=here.parents[2] / "reports")
    ap.add_argument("--out", type=Path, default=here / "numbers.tex")
    ap.add_argument("--missing", action="store_true", help="print the note's claim ids the reports lack")
    args = ap.parse_args(argv)
    try:
        if args.missing:
            print(" ".join(missing(args.reports)))
            return
        write(collect(args.reports), args.out)
    except (KeyError, ValueError) as e:
        raise SystemExit(f"note_numbers: {e.args[0] if e.args else e}") from None


if __name__ == "__main__":
    main()
