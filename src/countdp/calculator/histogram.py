"""The histograms ``countdp release`` reads and writes: CSV with the columns ``group,count`` (lines
starting with ``#`` are comments) or JSON ``{"group": count, ...}``, the format named by the
file's suffix or by ``--format``; and the output paths, checked before any computation."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import sys
from pathlib import Path

from ..numerics.messages import quoted

__all__ = ["FORMATS", "Histogram", "histogram_format", "read_histogram", "histogram_text",
           "check_output_path"]

FORMATS = ("csv", "json")


class Histogram:
    """Groups (text, in input order) and their counts (nonnegative ints)."""

    def __init__(self, groups: list[str], counts: list[int]):
        self.groups, self.counts = groups, counts


def histogram_format(path: str, given: str | None, flag: str = "--input") -> str:
    """The format of ``path``: ``given`` (``--format``), else the suffix ``.csv`` / ``.json``."""
    if given is not None:
        return given
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise ValueError(f"{flag} {path}: the format is not known from the suffix "
                         f"{suffix or '(none)'!r}; name it .csv or .json, or give --format csv|json")
    return suffix


def _count(where: str, value) -> int:
    """A count from the file: an integer >= 0 (integral floats such as 3.0 accepted)."""
    what = f"{where}: count must be an integer >= 0"
    if isinstance(value, bool) or value is None:
        raise ValueError(f"{what}, got {value!r}")
    if isinstance(value, str):
        text = value.strip()
        try:
            value = int(text)
        except ValueError:
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"{what}, got {quoted(text)}") from None
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            raise ValueError(f"{what}, got {value!r}")
        value = int(value)
    if not isinstance(value, int):
        raise ValueError(f"{what}, got {type(value).__name__} {quoted(value)}")
    if value < 0 or value > 2 ** 63 - 1:
        raise ValueError(f"{what} (and below 2^63), got {value}")
    return value


def _read_csv(text: str, name: str) -> Histogram:
    rows = [(i, r) for i, r in enumerate(csv.reader(io.StringIO(text)), 1)
            if r and not r[0].lstrip().startswith("#")]
    if not rows:
        raise ValueError(f"--input {name}: empty: a CSV histogram has the header row group,count")
    line, head = rows[0]
    head = [h.strip().lower() for h in head]
    if "group" not in head or "count" not in head:
        raise ValueError(f"--input {name}: line {line}: the header row must name the columns group "
                         f"and count, got {','.join(head)[:60]!r}")
    g, k = head.index("group"), head.index("count")
    groups, counts = [], []
    for line, r in rows[1:]:
        if len(r) != len(head):
            raise ValueError(f"--input {name}: line {line}: {len(r)} fields, the header has {len(head)}")
        groups.append(r[g])
        counts.append(_count(f"--input {name}: line {line} (group {quoted(r[g])})", r[k]))
    return Histogram(groups, counts)


def _read_json(text: str, name: str) -> Histogram:
    try:
        data = json.loads(text, parse_constant=lambda c: float(c))
    except json.JSONDecodeError as exc:
        raise ValueError(f"--input {name}: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ValueError(f"--input {name}: a JSON histogram is an object {{group: count}}, got "
                         f"{type(data).__name__}")
    counts = [_count(f"--input {name}: group {quoted(g)}", v) for g, v in data.items()]
    return Histogram(list(data), counts)


def read_histogram(path: str, fmt: str) -> Histogram:
    """The histogram in ``path`` (``-``: standard input) in format ``fmt``; ValueError naming
    ``--input``, the line or group, and the rule otherwise."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise ValueError(f"--input {path}: cannot be read ({why})") from None
    h = _read_csv(text, path) if fmt == "csv" else _read_json(text, path)
    if not h.groups:
        raise ValueError(f"--input {path}: holds no group")
    seen = set()
    for grp in h.groups:
        if grp in seen:
            raise ValueError(f"--input {path}: the group {quoted(grp)} appears twice")
        seen.add(grp)
    return h


def histogram_text(groups: list[str], values, fmt: str, header: list[str]) -> str:
    """The released histogram in ``fmt``: CSV with ``header`` as ``#`` comment lines first, or
    JSON ``{group: value}`` (JSON has no comments: the header goes beside it)."""
    vals = [v if isinstance(v, int) else float(v) for v in values]
    if fmt == "json":
        return json.dumps(dict(zip(groups, vals)), indent=1, ensure_ascii=False) + "\n"
    out = io.StringIO()
    for line in header:
        out.write(f"# {line}\n")
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["group", "count"])
    for g, v in zip(groups, vals):
        w.writerow([g, repr(v)])
    return out.getvalue()


def check_output_path(flag: str, path: str) -> Path:
    """``path`` as a file to write, checked before any computation: not a directory, its folder
    existing and writable; ValueError naming ``flag`` otherwise."""
    p = Path(path)
    if str(path) == "" or p.is_dir() or str(path).endswith(os.sep):
        raise ValueError(f"{flag} {path}: is a directory; give a file path")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise ValueError(f"{flag} {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise ValueError(f"{flag} {path}: not writable")
    return p
