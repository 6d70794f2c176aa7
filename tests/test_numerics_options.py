"""countdp.numerics.options: command-line option values checked by the validation layer, a bad
value refused with the range, the flag named by argparse."""

from __future__ import annotations

import argparse

import pytest

from countdp.numerics import options, validate


def test_checked_runs_the_library_check_and_drops_the_name():
    parse = options.checked("releases", lambda k: validate.count("releases", k, lo=1, hi=10))
    assert parse("3") == 3
    with pytest.raises(argparse.ArgumentTypeError, match=r"^must be an integer in \[1, 10\], got 0$"):
        parse("0")
    with pytest.raises(argparse.ArgumentTypeError, match=r"^must be an integer in \[1, 10\], got str"):
        parse("x")


def test_dps_is_validate_s_range():
    assert options.dps_option(str(validate.DPS_MIN)) == validate.DPS_MIN
    for bad in (str(validate.DPS_MIN - 1), str(validate.DPS_MAX + 1), "x", "3.5"):
        with pytest.raises(argparse.ArgumentTypeError, match=r"^dps must be an integer in \[5, 100\]"):
            options.dps_option(bad)


def test_importing_it_loads_no_numpy():
    """The command line sets its thread environment before numpy is loaded."""
    import subprocess
    import sys

    code = "import sys, countdp.numerics.options; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": options.__file__.rsplit("/countdp/", 1)[0]})
    assert out.stdout.strip() == "False", out.stderr
