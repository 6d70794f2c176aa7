"""The counts of a budget table from a command-line value: one count (``10``, ``1e6``), a list
(``1,10,100``), ranges (``0:100:10``, ``1:1e6:log``).

>>> parse_counts("1:1e6:log")
[1, 10, 100, 1000, 10000, 100000, 1000000]
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation
from typing import Iterable

from ..numerics import validate
from ..numerics.messages import quoted

__all__ = ["MAX_ROWS", "parse_counts", "count_list"]

#: the most rows one table may have
MAX_ROWS = 10_000


def _one_count(text: str) -> int:
    t = text.strip()
    try:
        return validate.count("n", int(t))
    except ValueError:
        pass
    try:
        d = Decimal(t)
    except InvalidOperation:
        raise ValueError(f"n must be an integer >= 0 (1e6 is accepted), got {quoted(text)}") from None
    if not d.is_finite() or d != d.to_integral_value() or d < 0:
        raise ValueError(f"n must be an integer >= 0 (1e6 is accepted), got {quoted(text)}")
    if d.adjusted() >= 100_000:  # 1e100000 itself is refused, as the message says
        raise ValueError(f"n must be below 1e100000, got {quoted(text)}")
    return int(d)


def parse_counts(text: str) -> list[int]:
    """Counts from a command-line value: one count (``10``, ``1e6``), a list (``1,10,100``), a
    range ``A:B`` (every integer), ``A:B:S`` (step S), ``A:B:log`` (A, 10A, 100A, ... up to B) or
    ``A:B:logK`` (K points per decade, rounded to integers); lists may mix them.  Sorted, without
    repeats, at most :data:`MAX_ROWS`.

    >>> parse_counts("0:10:5,1e3")
    [0, 5, 10, 1000]
    >>> parse_counts("1:100:log2")
    [1, 3, 10, 32, 100]
    """
    if not isinstance(text, str):
        raise validate.ParameterTypeError(f"n must be a string of counts, got {type(text).__name__}")
    out: set[int] = set()
    parts = [p for p in text.split(",")]
    if not text.strip() or any(not p.strip() for p in parts):
        raise ValueError(f"n must be a count, a list such as 1,10,100 or a range such as 1:1e6:log, "
                         f"got {quoted(text)}")
    for part in parts:
        fields = part.split(":")
        if len(fields) == 1:
            out.add(_one_count(fields[0]))
            continue
        if len(fields) not in (2, 3):
            raise ValueError(f"n: a range is A:B, A:B:STEP or A:B:log, got {quoted(part)}")
        a, b = _one_count(fields[0]), _one_count(fields[1])
        if b < a:
            raise ValueError(f"n: the range {quoted(part)} ends below its start")
        how = fields[2].strip().lower() if len(fields) == 3 else "1"
        m = re.fullmatch(r"log(\d*)", how)
        if m:
            per = int(m.group(1) or 1)
            if not 1 <= per <= 100:
                raise ValueError(f"n: logK takes K in 1..100 points per decade, got {how!r}")
            if a == 0:
                out.add(0)
                a = 1
            span = math.log10(b / a) if b > a else 0.0
            steps = int(math.floor(span * per + 1e-9))
            if steps + 1 > MAX_ROWS:
                raise ValueError(f"n: the range {quoted(part)} has more than {MAX_ROWS} counts")
            for j in range(steps + 1):
                if per == 1:
                    out.add(a * 10 ** j)
                else:
                    out.add(int(Decimal(a) * Decimal(10) ** (Decimal(j) / per) + Decimal("0.5")))
            continue
        step = _one_count(how)
        if step < 1:
            raise ValueError(f"n: the step of {quoted(part)} must be >= 1")
        if (b - a) // step + 1 > MAX_ROWS:
            raise ValueError(f"n: the range {quoted(part)} has more than {MAX_ROWS} counts")
        out.update(range(a, b + 1, step))
    if len(out) > MAX_ROWS:
        raise ValueError(f"n: more than {MAX_ROWS} counts")
    return sorted(out)


def count_list(n) -> list[int]:
    """The sorted counts without repeats of a count, an iterable of counts or a string for
    :func:`parse_counts` (at most :data:`MAX_ROWS`)."""
    if isinstance(n, str):
        return parse_counts(n)
    if isinstance(n, Iterable) and not isinstance(n, (bytes, bytearray)):
        ns = sorted({validate.count("n", k) for k in n})
        if not ns:
            raise ValueError("n must hold at least one count")
        if len(ns) > MAX_ROWS:
            raise ValueError(f"n: more than {MAX_ROWS} counts")
        return ns
    return [validate.count("n", n)]

