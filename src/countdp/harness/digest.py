"""What every report of a run says, shared by SUMMARY.md, claims/<id>.md, index.html and the
JSON files: the environment (versions, commit, settings), the JSON records of claims and scripts,
numbers rounded to meaningful digits, short texts (worst gap, certified status, sensitivity), and
the figures each claim owns (read back from the PNG's own text chunks)."""

from __future__ import annotations

import json
import os
import platform
import re
import tempfile
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

import mpmath

from .plotting import FIGURE_CLAIMS_KEY
from .results import ClaimResult, Run, ScriptRun, Settings, fmt


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def environment(settings: Settings) -> dict:
    """Versions of everything the numbers depend on, and the run settings."""
    from .provenance import provenance

    prov = provenance()
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "numpy": _version("numpy"),
        "scipy": _version("scipy"),
        "mpmath": _version("mpmath"),
        "matplotlib": _version("matplotlib"),
        "flint": _version("python-flint"),
        "countdp": prov.version,
        "commit": prov.short,
        "dirty": bool(prov.dirty),
        "dps": settings.dps,
        "quick": bool(settings.quick),
        "seed": settings.seed,
        "certify": bool(settings.certify),
    }


def dumps(obj: Any) -> str:
    return json.dumps(obj, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def write_atomic(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` to ``path`` via a temporary file in the same directory and os.replace."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


_MEMO: dict | None = None  # see reports_being_written


@contextmanager
def reports_being_written():
    """Within it, :func:`result_json` formats each result once: the writers of SUMMARY.md, the
    claim pages, index.html and the JSON files all ask for it, and results do not change while
    the reports are written."""
    global _MEMO
    outer, _MEMO = _MEMO, {}
    try:
        yield
    finally:
        _MEMO = outer


def result_json(res: ClaimResult, settings: Settings) -> dict:
    """``res.to_json()`` at the run's working precision (numbers are formatted at mp.dps)."""
    key = (id(res), settings.dps)
    if _MEMO is not None and key in _MEMO:
        return _MEMO[key][1]
    with mpmath.workdps(settings.dps):
        out = res.to_json()
    if _MEMO is not None:
        _MEMO[key] = (res, out)  # the result is kept alive with its id
    return out


def script_json(sr: ScriptRun, run: Run) -> dict:
    d = {
        "script": sr.name,
        "title": sr.title,
        "seconds": round(sr.seconds, 3),
        "environment": environment(run.settings),
        "claims": [result_json(r, run.settings) for r in sr.results],
    }
    if sr.figures is not None:
        d["figures"] = list(sr.figures)
    return d


def summary_json(run: Run) -> dict:
    return {
        "environment": environment(run.settings),
        "quick": bool(run.settings.quick),
        "claims": run.statuses(),
        "counts": run.counts(),
        "scripts": {s.name: round(s.seconds, 3) for s in run.scripts},
        "seconds": round(run.seconds, 3),
    }


#: significant digits of a number in SUMMARY.md (findings) and in the claim pages
SUMMARY_DIGITS = 4


PAGE_DIGITS = 10


#: a long decimal inside a text (at least 6 significant digits, optional exponent)
_LONG_NUMBER = re.compile(r"(?<![\w.])(-?)(\d+\.\d{5,}|\d{7,}\.\d*)(?:[eE]([-+]?\d+))?(?![\w.])")


def round_number(text: Any, digits: int = SUMMARY_DIGITS) -> str:
    """A report number (a decimal string at the working precision) at ``digits`` significant
    digits; anything that is not a plain number is returned as text, with its long decimals
    rounded (``"-0.04798660001 +- 4.7e-13"`` -> ``"-0.04799 +- 4.7e-13"``)."""
    if text is None:
        return "-"
    if isinstance(text, bool):
        return str(text)
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        text = repr(text) if isinstance(text, float) else str(text)
    return _round_text(str(text), digits)


@lru_cache(maxsize=1 << 16)
def _round_text(s: str, digits: int) -> str:
    """:func:`round_number` of a text (cached: a report repeats its parameters and bounds)."""
    try:
        x = mpmath.mpf(s)
    except (ValueError, TypeError):
        return round_numbers_in(s, digits)
    if mpmath.isinf(x) or mpmath.isnan(x):
        return s
    if x == 0:
        return "0"
    if re.fullmatch(r"-?\d{1,15}", s):  # an integer stays exact
        return s
    with mpmath.workdps(max(digits + 5, 20)):
        return mpmath.nstr(mpmath.mpf(s), digits, min_fixed=-4, max_fixed=digits + 1, strip_zeros=True)


def round_numbers_in(text: str, digits: int = SUMMARY_DIGITS) -> str:
    """``text`` with every long decimal in it rounded to ``digits`` significant digits."""
    def sub(m: re.Match) -> str:
        num = m.group(0)
        return round_number(num, digits)
    return _LONG_NUMBER.sub(sub, text)


def shorten(text: Any, width: int) -> str:
    """One line of at most ``width`` characters (an ellipsis marks a cut)."""
    s = "-" if text is None or text == "" else " ".join(str(text).split())
    return s if len(s) <= width else s[: width - 1].rstrip() + "\u2026"


def claim_file(claim_id: str) -> str:
    """The file name of a claim's page (``:`` of a pseudo id becomes ``_``)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", claim_id) + ".md"


def section_label(title: str | None, script: str) -> str:
    """The paper section a script verifies, from its title ("Section 3", "Sections 6.2-6.5",
    "Companion paper", ...)."""
    if not title:
        return script
    head = title.split(":")[0].strip()
    return head if len(head) <= 30 else script


def certified_short(cert: dict | None) -> str:
    """The ball-arithmetic records of a claim: "k/n" decided true (with "partial" when not all
    are), "none" (no certificate: numerical evidence), "-" (certification not run)."""
    if not cert:
        return "-"
    if "records" not in cert:
        return "none"
    return ("" if cert.get("certified") else "partial ") + f"{cert.get('proved')}/{cert.get('records')}"


def worst_short(res: ClaimResult, route_width: int = 38) -> str:
    """The worst gap / tolerance: the deterministic routes' with its route, then the Monte Carlo
    routes' after "MC"."""
    parts = []
    for mc, label in ((False, ""), (True, "MC ")):
        w = res.worst_gap(mc)
        if w is None:
            continue
        with mpmath.workdps(20):
            ratio = round_number(fmt(w.ratio, 3), 3)
        where = f" ({shorten(w.route, route_width)})" if w.route and not mc else ""
        parts.append(f"{label}{ratio}{where}")
    return " \u00b7 ".join(parts) or "-"


def finding_value(v: Any, digits: int) -> str:
    if isinstance(v, list):
        if not v:
            return "none"
        if all(not isinstance(x, (dict, list)) for x in v) and len(v) <= 6 and \
                sum(len(str(x)) for x in v) <= 80:
            return "[" + ", ".join(round_number(x, digits) for x in v) + "]"
        return f"({len(v)} {'rows' if isinstance(v[0], dict) else 'items'})"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {round_number(x, digits)}" for k, x in v.items()) + "}"
    return round_number(v, digits)


def is_bookkeeping(finding: dict) -> bool:
    """A coverage record (how many cases a route covered, skipped or could not compute): kept on
    the claim's page, left out of SUMMARY.md and index.html."""
    return str(finding.get("what", "")).startswith("coverage") or {"covered", "total"} <= set(finding)


@dataclass(frozen=True)
class FindingTable:
    """One group of findings (same ``what``) as a short table: its title, column heads, at most
    ``max_rows`` rows of rounded cells, and how many rows were left out."""

    title: str
    head: tuple
    rows: tuple
    more: int


def _cell(v: Any, digits: int, width: int = 40) -> str:
    return shorten(finding_value(v, digits), width)


def _row_tables(title: str, f: dict, digits: int, max_rows: int) -> list[FindingTable]:
    """The lists of rows inside one finding, each a table of its own."""
    out = []
    for k, v in f.items():
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            cols = tuple(dict.fromkeys(c for x in v for c in x))[:8]
            rows = tuple(tuple(_cell(x.get(c), digits) for c in cols) for x in v[:max_rows])
            out.append(FindingTable(f"{title}: {k}" if title else k, cols, rows, max(0, len(v) - max_rows)))
        elif _is_table_dict(v):
            out.append(FindingTable(f"{title}: {k}" if title else k, tuple(str(x) for x in v)[:8],
                                    (tuple(_cell(x, digits) for x in v.values())[:8],), 0))
    return out


def _is_table_dict(v: Any) -> bool:
    """A dict of scalars (a value by parameter), shown as a table of its own."""
    return isinstance(v, dict) and 1 < len(v) and not any(isinstance(x, (dict, list)) for x in v.values())


def finding_tables(findings: list[dict], digits: int = SUMMARY_DIGITS, max_rows: int = 6) -> list[FindingTable]:
    """The findings of a claim beyond its coverage records (:func:`is_bookkeeping`), as short
    tables: a group of findings with the same ``what``, one row per finding over their scalar
    keys (at most 8 columns); each list of rows inside a finding, a table of its own; numbers
    rounded to ``digits`` significant digits."""
    groups: dict[str, list[dict]] = {}
    for f in findings:
        if not is_bookkeeping(f):
            groups.setdefault(str(f.get("what", "")), []).append(f)
    out = []
    for what, group in groups.items():
        keys = list(dict.fromkeys(k for f in group for k in f if k != "what"))
        nested = {k for k in keys for f in group if isinstance(f.get(k), list) and f[k]
                  and all(isinstance(x, dict) for x in f[k]) or len(group) == 1 and _is_table_dict(f.get(k))}
        scalar = tuple(k for k in keys if k not in nested)[:8]
        if scalar:
            rows = tuple(tuple(_cell(f.get(k), digits) if k in f else "" for k in scalar)
                         for f in group[:max_rows])
            out.append(FindingTable(what, scalar, rows, max(0, len(group) - max_rows)))
        for f in group[:2]:
            out += _row_tables(what, {k: f[k] for k in keys if k in nested and k in f}, digits, max_rows)
    return out


def png_text(path: str | os.PathLike) -> dict[str, str]:
    """The text chunks (tEXt, zTXt, iTXt) of a PNG file; {} if it cannot be read."""
    out: dict[str, str] = {}
    try:
        data = Path(path).read_bytes()
    except OSError:
        return out
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return out
    pos = 8
    while pos + 8 <= len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        try:
            if kind == b"tEXt":
                k, v = body.split(b"\0", 1)
                out[k.decode("latin-1")] = v.decode("latin-1")
            elif kind == b"zTXt":
                k, rest = body.split(b"\0", 1)
                out[k.decode("latin-1")] = zlib.decompress(rest[1:]).decode("latin-1")
            elif kind == b"iTXt":
                k, rest = body.split(b"\0", 1)
                compressed, rest = rest[0], rest[2:]
                _lang, rest = rest.split(b"\0", 1)
                _tkey, text = rest.split(b"\0", 1)
                out[k.decode("latin-1")] = (zlib.decompress(text) if compressed else text).decode("utf-8")
            elif kind == b"IEND":
                break
        except (ValueError, zlib.error, UnicodeDecodeError):
            continue
    return out


@dataclass(frozen=True)
class Figure:
    """A figure of the run: its name, file (absolute), path as the report shows it, the claims
    it belongs to and its caption (both from the PNG's text chunks), and its script."""

    name: str
    file: Path
    shown: str
    claims: tuple
    caption: str
    script: str


def run_figures(run: Run) -> list[Figure]:
    """Every figure the run made, in script order."""
    out = []
    for sr in run.scripts:
        for f in sr.figures or []:
            p = Path(f)
            file = p if p.is_absolute() else Path(run.root) / p
            meta = png_text(file)
            claims = tuple(meta.get(FIGURE_CLAIMS_KEY, "").split())
            out.append(Figure(p.stem, file, str(f), claims, meta.get("Description", ""), sr.name))
    return out


def figures_of(figs: list[Figure], claim_id: str, script: str) -> list[Figure]:
    """The figures that belong to a claim: those naming it; a figure naming no claim belongs to
    every claim of its script."""
    return [f for f in figs if claim_id in f.claims or (not f.claims and f.script == script)]


def certified_text(res: ClaimResult) -> str:
    cert = res.certified
    if not cert:
        return "-"
    if "records" not in cert:
        return "no: " + str(cert.get("reason", "numerical evidence only"))
    if not cert.get("certified"):
        word = "partial"
    else:
        word = "PROOF" if cert.get("proof") else "certified instances"
    return (f"{word} ({cert.get('proved')}/{cert.get('records')} records, radius <= "
            f"{cert.get('enclosure_radius') or '-'})")


def sensitivity_short(text: str | None) -> str:
    if not text:
        return "-"
    m = re.search(r"(\d+/\d+)", text)
    return m.group(1) if m else text


def gap_text(case: dict) -> str:
    if case.get("relation") != "==":
        return ""
    try:
        a, b, t = (mpmath.mpf(case[k]) for k in ("lhs", "rhs", "tol"))
    except (ValueError, TypeError, KeyError):
        return ""
    if mpmath.isinf(a) or mpmath.isinf(b):
        return ""
    if t == 0:
        return "0" if a == b else "inf"
    with mpmath.workdps(20):
        return round_number(mpmath.nstr(abs(a - b) / t, 3), 3)


# ---- Markdown tables ---------------------------------------------------------------------


def md_cell(x: Any) -> str:
    if x is None or x == "":
        return "-"
    s = " ".join(str(x).split())
    return s.replace("|", "\\|")



def md_table(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(md_cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(md_cell(c) for c in row) + " |" for row in rows]
    return out
