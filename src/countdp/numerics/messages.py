"""How an error message quotes a value it was given (no numpy: the command line's option
parsing uses it before anything heavy is imported)."""

from __future__ import annotations

__all__ = ["QUOTE_LIMIT", "quoted"]

#: how many characters of a value given a message quotes
QUOTE_LIMIT = 40


def quoted(x) -> str:
    """A value given, as a message quotes it: a string's first :data:`QUOTE_LIMIT` characters in
    quotes, anything else its repr cut to as many characters."""
    return repr(x[:QUOTE_LIMIT]) if isinstance(x, str) else repr(x)[:QUOTE_LIMIT]
