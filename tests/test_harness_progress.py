"""countdp.harness.progress: the line per claim, the status line on a terminal, the time left."""

from __future__ import annotations

import io

import pytest

from _check_roots import PASSING, make_root
from countdp.harness import progress, runner
from countdp.harness.results import Settings


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_on_a_tty(tmp_path):
    res = runner.check("lem4.1", Settings(quick=True), root=make_root(tmp_path, {"a_pass": PASSING}))
    out = Tty()
    prog = progress.Progress(6, True, out, jobs=2)
    prog.status("  1/6 claims done")
    prog.claim_done("a_pass", res)
    prog.finish()
    text = out.getvalue()
    assert text.startswith("\r\x1b[K  1/6 claims done\r\x1b[K[1/6] lem4.1")
    assert "pass" in text and "1 cases" in text and text.rstrip().endswith("a_pass")


@pytest.mark.slow
def test_reproduce_on_a_tty_shows_a_status_line(tmp_path):
    root = make_root(tmp_path, {"a_pass": PASSING + '''
import time

@claim("sec5.post", routes=["a", "b"])
def check_slow(c):
    for k in range(4):
        c.compare({"k": k}, 1, "==", 1)
        time.sleep(0.4)
    c.control("c", 1, "==", 2)
'''})
    out = Tty()
    run = runner.reproduce(Settings(), jobs=2, root=root, stream=out, figures=False,
                           durations={"sec5.post": 1.0, "lem4.1": 0.1, "eq8": 0.1})
    text = out.getvalue()
    assert run.exit_code() == 0
    assert "\r\x1b[K  " in text and "claims," in text and "elapsed" in text and "left" in text
    assert "sec5.post" in text and " cases " in text
    assert text.count("\n") == 3  # one permanent line per claim


def test_estimate_left():
    # nothing known yet: no estimate
    assert progress.estimate_left([None, None], [], [], 2) is None
    # previous durations 10 + 10 on two jobs, nothing run: 10 s
    assert progress.estimate_left([10.0, 10.0], [], [], 2) == 10.0
    # this run goes twice as fast as the previous: halved; the running one has run 2 s
    assert progress.estimate_left([10.0, 4.0], [(6.0, 3.0)], [2.0], 2) == 3.0
    # an unknown task counts as the mean finished duration
    assert progress.estimate_left([None], [(None, 5.0), (None, 7.0)], [], 1) == 6.0
    assert progress.estimate_left([], [(1.0, 1.0)], [], 2) == 0.0


def test_check_claim_shows_cases_on_a_terminal_only(tmp_path):
    root = make_root(tmp_path, {"a_pass": PASSING})
    out = Tty()
    progress.CheckStatus.__init__  # noqa: B018 -- the class exists
    res, _ = runner.check_claim("lem4.1", Settings(), root=root, stream=out)
    assert res.status == "pass" and out.getvalue().endswith("\r\x1b[K")
    plain = io.StringIO()
    runner.check_claim("lem4.1", Settings(), root=root, stream=plain)
    assert plain.getvalue() == ""
