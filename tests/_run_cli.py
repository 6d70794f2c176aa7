"""The ``countdp`` command run in this process, for the tests of its subcommands:
:func:`run_main` (exit code, stdout, stderr), the option values :data:`TEXT` the property tests
draw, and :func:`check_exit`, what every run must satisfy."""

from __future__ import annotations

import contextlib
import io
import signal

from hypothesis import strategies as st

from countdp.harness import cli


class _Hang(Exception):
    pass


def run_main(argv: list[str], timeout: float = 120) -> tuple[int | None, str, str]:
    """cli.main in this process: (exit code, stdout, stderr); None for a run past ``timeout``."""
    out, err = io.StringIO(), io.StringIO()

    def alarm(signum, frame):
        raise _Hang

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as exc:  # argparse's usage errors
                code = exc.code
    except _Hang:
        code = None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return code, out.getvalue(), err.getvalue()


TEXT = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(min_value=-10**40, max_value=10**40).map(str),
    st.sampled_from(["nan", "-inf", "inf", "-1e-6", "1e-300", "4.9e-324", "1e400", "-0", "", " ",
                     "0x10", "1_000", "1/2", "--", "-", "-h", "--json", "1e3", "10" * 30,
                     "\u0661", "0.5", "1", "7"]),
    st.text(max_size=6),
)


def check_exit(code, out, err, option):
    """Exit 0, 1 or 2, never a traceback; a usage error is one line naming ``option``."""
    assert code in (0, 1, 2), (code, err[-300:])
    assert "Traceback" not in out + err
    if code == 2:
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert len(lines) == 1, err
        assert option.lstrip("-") in lines[0], lines[0]
