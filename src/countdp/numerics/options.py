"""Command-line option values, checked while parsing by the validation layer
(:mod:`countdp.numerics.validate`), the same rules in every ``countdp`` subcommand: a bad value
is a one-line usage error naming the flag and its range.  Imports nothing heavy: the command line
sets its thread environment before numpy is loaded."""

from __future__ import annotations

import argparse

from .messages import quoted

__all__ = ["DEFAULT_DPS", "CLIError", "option", "parse_int", "parse_float", "checked", "dps_option",
           "subcommand"]

DEFAULT_DPS = 30


class CLIError(Exception):
    """A clean error: printed as ``countdp: error: <message>``, exit 2."""


def option(check):
    """An argparse ``type`` from a function of the option's text (ValueError -> a usage error)."""
    def parse(text: str):
        try:
            return check(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    parse.__name__ = check.__name__.strip("_")
    return parse


def parse_int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"must be {what}, got {quoted(text)}") from None


def parse_float(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"must be {what}, got {quoted(text)}") from None


def checked(name: str, check, convert=int):
    """An argparse ``type`` running the library's own check of its parameter ``name`` on the
    option's value (text that ``convert`` refuses is handed over as it is, and refused with the
    range).  The one place a parameter's name gives way to its flag: argparse names the flag, so
    the message drops the name (``argument --releases/-k: must be an integer in [1, ...], got 0``)."""
    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            value = text
        try:
            return check(value)
        except ValueError as exc:
            msg = str(exc)
            raise argparse.ArgumentTypeError(
                msg[len(name) + 1:] if msg.startswith(name + " ") else msg) from None
    parse.__name__ = name
    return parse


@option
def dps_option(text):
    """--dps: decimal digits, in the one range of the library (:func:`validate.dps`), refused
    with its message."""
    from . import validate  # here: the command line imports no numpy before its thread settings

    try:
        n = int(text)
    except ValueError:
        n = text  # refused by validate.dps, with the message of an integer out of range
    return validate.dps(n)


def subcommand(sub, name: str, summary: str, description: str, examples: str, exits: str):
    """A subcommand whose --help has a description, examples and its exit codes."""
    epilog = "examples:\n" + examples.rstrip() + "\n\nexit status:\n" + exits.rstrip()
    return sub.add_parser(name, help=summary, description=description, epilog=epilog,
                          formatter_class=argparse.RawDescriptionHelpFormatter)
