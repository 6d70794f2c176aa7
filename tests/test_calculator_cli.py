"""countdp.calculator.cli, ``countdp budget``: every conversion printed, labelled, tightest
first; tables over n; the inverse (r0 from a target); JSON at full precision; the plot; and every
bad option refused in one line naming it."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings

from _run_cli import TEXT, check_exit, run_main
from countdp.harness import cli


def test_budget_prints_every_conversion_tightest_first(capsys):
    """The documented example: r0 = 0.05, c = 1, n = 10, delta = 1e-6 gives 18.48 (exact profile
    of the released mechanism), 19.56 (CKS), 20.61 (Bun-Steinke), in that order, labelled."""
    assert cli.main(["budget", "--r0", "0.05", "--c", "1", "--n", "10", "--delta", "1e-6"]) == 0
    out = capsys.readouterr().out
    assert "sigma" in out and "edge (9, 10)" in out
    lines = [ln for ln in out.splitlines() if re.match(r"^\s+\d+\.\d+\s{2,}\D", ln)]
    got = [(float(ln.split()[0]), " ".join(ln.split()[1:])) for ln in lines]
    assert [round(x, 2) for x, _ in got] == [18.48, 19.56, 20.61], got
    assert [t.split()[0] for _, t in got] == ["exact", "Canonne-Kamath-Steinke", "Bun-Steinke"]
    assert "E|Y - n|          0.275" in out and "Theorem 3.1(i)" in out


def test_budget_json_numbers_and_parameters(capsys):
    assert cli.main(["budget", "--r0", "0.05", "--c", "1", "--n", "1,10", "--delta", "1e-6", "--eps",
                     "2", "--r", "0.1", "--releases", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    p = data["parameters"]
    assert p == {"r0": 0.05, "c": 1.0, "r": 0.1, "n": [1, 10], "delta": 1e-6, "eps": 2,
                 "releases": 2, "dps": 30}
    assert "n-1 and n" in data["edge_convention"]
    assert isinstance(data["sigma"], float) and abs(data["sigma"] - 0.0313379820214266) < 1e-15
    row = data["rows"][1]
    assert row["n"] == 10 and row["edge"] == [9, 10]
    assert isinstance(row["v"], float) and row["rho"] == pytest.approx(2 * row["v"], rel=1e-15, abs=0)
    assert [c["method"] for c in row["conversions"]] == ["exact", "cks", "bun-steinke"]
    assert row["eps"] == row["conversions"][0]["eps"]
    assert all(isinstance(c[k], float) for c in row["conversions"] for k in ("eps", "delta"))
    assert row["target"] == 1.0 and row["error_bound"] == pytest.approx(0.275, rel=1e-6, abs=0)


def test_budget_json_keeps_every_digit():
    """Numbers are JSON numbers at --dps digits: a Decimal reader gets all of them."""
    from decimal import Decimal

    code, out, err = run_main(["budget", "--r0", "0.05", "--c", "1", "--n", "10", "--json",
                               "--dps", "40"])
    assert code == 0, err
    data = json.loads(out, parse_float=Decimal)
    assert len(str(data["rows"][0]["v"]).replace(".", "")) >= 39


@pytest.mark.slow
def test_budget_table_over_a_range(capsys):
    assert cli.main(["budget", "--r0", "0.05", "--c", "1", "--n", "1:1e6:log", "--delta",
                     "1e-6", "--r", "0.1"]) == 0
    out = capsys.readouterr().out.splitlines()
    head = next(i for i, ln in enumerate(out) if ln.split()[:2] == ["n", "v(n)"])
    assert out[head].split() == ["n", "v(n)", "eps", "exact", "eps", "CKS", "eps", "BS",
                                 "E|Y-n|", "r0(n+c)/(1+c)", "r", "max(n,1)"]
    ns = [int(ln.split()[0]) for ln in out[head + 1:head + 8]]
    assert ns == [10 ** k for k in range(7)]
    assert max(len(ln) for ln in out) < 110


def test_budget_solve_target_eps(capsys):
    assert cli.main(["budget", "--c", "1", "--n", "100", "--target-eps", "1", "--delta",
                     "1e-6", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solve"]["target_eps"] == 1.0 and data["solve"]["via"] == "exact"
    assert data["rows"][0]["eps"] == pytest.approx(1.0, abs=1e-12)
    assert 0 < data["r0"] < 1 and data["rows"][0]["error_bound"] > 0


def test_budget_unreachable_target(capsys):
    code = cli.main(["budget", "--c", "1", "--n", "1", "--target-eps", "0.1", "--delta", "1e-6"])
    err = capsys.readouterr().err
    assert code == 1
    assert "target unreachable" in err and "r0 must stay below 1" in err and "best" in err
    assert len(err.strip().splitlines()) == 1


def _table(out: str) -> tuple[list[str], list[list[str]]]:
    """The header and the rows of a table printed below one line of title."""
    lines = [ln.split() for ln in out.splitlines()[1:] if ln.strip()]
    return lines[0], lines[1:]


def test_budget_solve_one_count_as_text(capsys):
    """One n: the solved r0 and sigma, then the guarantee they give, whose eps is the target;
    the same r0 as the JSON (to the printed digits)."""
    argv = ["budget", "--c", "1", "--n", "100", "--target-eps", "1", "--delta", "1e-6"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("target eps = 1 at delta = 1e-06 (exact profile of the released mechanism) on "
                      "the edge at n = 100 (c = 1, 1 release):")
    r0_line = out[1].split()
    assert r0_line[0] == "r0" and r0_line[2:4] == ["(solved:", "sigma"]
    assert cli.main(argv + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert float(r0_line[1]) == pytest.approx(data["r0"], rel=1e-5, abs=0)
    assert r0_line[4] == "=" and float(r0_line[5].rstrip(",")) == pytest.approx(data["sigma"], rel=1e-5, abs=0)
    eps_rows = [ln.split() for ln in out if ln.startswith("    ") and "exact profile" in ln]
    assert [float(r[0]) for r in eps_rows] == [1.0]
    assert "edge (99, 100), n=100" in "\n".join(out)


def test_budget_solve_a_table_of_counts_with_the_unreachable_marked():
    """Several n: one row each, in the order of n, the unreachable ones marked in the table and
    each explained on stderr (exit status 1); a reachable row meets the target (k v = rho for
    k releases) with the r0 that n alone is solved with."""
    code, out, err = run_main(["budget", "--c", "1", "--n", "100,9,1000", "--target-rho", "0.01",
                               "--releases", "3"])
    assert code == 1
    assert out.splitlines()[0] == "target rho = 0.01 (c = 1, 3 releases): r0 per n"
    head, rows = _table(out)
    assert head == ["n", "r0", "sigma", "v(n)", "rho", "E|Y-n|", "r0(n+c)/(1+c)"]
    assert [r[0] for r in rows] == ["9", "100", "1000"]  # by n, not as text
    assert rows[0][1:] == ["unreachable"] + ["-"] * 5
    for r in rows[1:]:
        assert float(r[4]) == pytest.approx(0.01, rel=1e-5, abs=0)
        assert 3 * float(r[3]) == pytest.approx(0.01, rel=1e-5, abs=0)
    assert float(rows[2][1]) < float(rows[1][1])
    msgs = [ln for ln in err.splitlines() if ln.strip()]
    assert len(msgs) == 1 and msgs[0].startswith("countdp budget: target unreachable: rho = 0.01 on the edge at n = 9 ")
    code, one, _ = run_main(["budget", "--c", "1", "--n", "1000", "--target-rho", "0.01", "--releases", "3"])
    assert code == 0 and one.splitlines()[1].split()[1] == rows[2][1]


def test_budget_solve_json_of_several_counts_lists_the_unreachable():
    code, out, err = run_main(["budget", "--c", "1", "--n", "1,100", "--target-eps", "0.5", "--delta",
                               "1e-6", "--json"])
    assert code == 1 and "n = 1 " in err
    data = json.loads(out)
    assert [s["solve"]["n"] for s in data["solutions"]] == [100]
    assert data["solutions"][0]["rows"][0]["eps"] == pytest.approx(0.5, rel=1e-9, abs=0)
    assert [u["n"] for u in data["unreachable"]] == [1]
    assert data["unreachable"][0]["message"].startswith("target unreachable: eps = 0.5 at delta = 1e-06")
    code, out, _ = run_main(["budget", "--c", "1", "--n", "1", "--target-eps", "0.5", "--delta", "1e-6",
                             "--json"])
    data = json.loads(out)
    assert code == 1 and data["solutions"] == [] and [u["n"] for u in data["unreachable"]] == [1]


def test_budget_solve_plots_the_solved_r0(tmp_path, monkeypatch):
    from countdp.calculator import plot

    seen = []
    monkeypatch.setattr(plot, "plot", lambda path, r0, c, ns, **kw: seen.append((r0, kw["marks"])) or str(path))
    code, out, err = run_main(["budget", "--c", "1", "--n", "100", "--target-rho", "0.01", "--json",
                               "--plot", str(tmp_path / "a.png")])
    assert code == 0 and "plot:" in err
    assert seen == [(json.loads(out)["r0"], [100])]


def test_a_plot_that_cannot_be_written_is_a_one_line_error(tmp_path, monkeypatch):
    from countdp.calculator import plot

    def fail(path, *a, **kw):
        raise OSError("disk full")

    monkeypatch.setattr(plot, "plot", fail)
    code, _, err = run_main(["budget", "--r0", "0.05", "--c", "1", "--n", "10", "--plot",
                             str(tmp_path / "a.png")])
    assert code == 2 and err.strip() == f"countdp: error: --plot {tmp_path / 'a.png'}: disk full"


@pytest.mark.parametrize("argv, text", [
    (["--c", "1", "--n", "10", "--target-eps", "1"], "--delta"),
    (["--c", "1", "--n", "10", "--target-rho", "1", "--eps", "1"], "--eps"),
    (["--c", "1", "--n", "10,20", "--target-rho", "1", "--plot", "x.png"], "--plot"),
    (["--c", "1", "--n", "10", "--target-rho", "0.5", "--r", "0"], "--r must lie in (0, 1]"),
    (["--r0", "0.1", "--c", "1", "--n", "10", "--target-rho", "1"], "--r0"),
    (["--c", "1", "--n", "10"], "--r0"),
    (["--r0", "0.1", "--c", "1", "--n", "10", "--releases", "0"], "--releases"),
    (["--r0", "0.1", "--c", "1", "--n", "10", "--target-rho", "-1"], "--target-rho"),
    (["--r0", "0.1", "--c", "1", "--n", "10:1"], "--n"),
    (["--r0", "0.1", "--c", "1", "--n", "1:1e9"], "--n"),
    (["--r0", "0.1", "--c", "1", "--n", "1:10:lg"], "--n"),
    (["--r0", "0.1", "--c", "1", "--n", "1,,2"], "--n"),
    (["--r0", "0.1", "--c", "1", "--n", "10", "--digits", "0"], "--digits"),
    (["--r0", "0.1", "--c", "1", "--n", "10", "--eps", "-1"], "--eps"),
    (["--r0", "0.1", "--c", "1", "--n", "10", "--via", "renyi"], "--via"),
])
def test_budget_refusals(argv, text):
    code, out, err = run_main(["budget"] + argv)
    assert code == 2, (code, out, err)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and text in lines[0], err


def test_budget_bad_parameters(capsys):
    assert cli.main(["budget", "--r0", "2", "--c", "1", "--n", "2"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "countdp: error: --r0 must lie in (0, 1), got 2.0"  # the flag, not r0
    assert cli.main(["budget", "--r0", "0.5", "--r", "0.1", "--c", "1", "--n", "2"]) == 2
    assert "r0 must lie" in capsys.readouterr().err


@pytest.mark.slow
def test_budget_plot(tmp_path, capsys):
    path = tmp_path / "b.png"
    assert cli.main(["budget", "--r0", "0.05", "--c", "1", "--n", "10", "--delta", "1e-6",
                     "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000
    assert cli.main(["budget", "--r0", "0.05", "--c", "1", "--n", "10", "--plot",
                     str(tmp_path / "nodir" / "b.png")]) == 2
    assert "--plot" in capsys.readouterr().err


def test_budget_plot_draws_the_users_counts_and_a_curve_between_them(tmp_path, monkeypatch):
    """Several counts: the curve runs over them and 8 points a decade between the first and the
    last; one count: over 1 .. 10^6 with that count marked."""
    from countdp.calculator import counts, plot

    seen = []
    monkeypatch.setattr(plot, "plot", lambda path, r0, c, ns, **kw: seen.append((list(ns), list(kw["marks"]))) or str(path))
    assert cli.main(["budget", "--r0", "0.05", "--c", "1", "--n", "10,37,1000", "--plot", str(tmp_path / "a.png")]) == 0
    ns, marks = seen[-1]
    assert marks == [] and ns[0] == 10 and ns[-1] == 1000 and 37 in ns and len(ns) == 18
    assert ns == sorted(set(ns)) and {13, 18, 100, 750} <= set(ns)
    assert cli.main(["budget", "--r0", "0.05", "--c", "1", "--n", "37", "--plot", str(tmp_path / "b.png")]) == 0
    ns, marks = seen[-1]
    assert marks == [37] and ns == counts.parse_counts("1:1000000:log8") and len(ns) == 47


def test_budget_full_precision(capsys):
    """Values beyond float64 are printed at full precision, never inf or 0.0 (v(10) at r0 = 1e-300
    is 1.1566e+598; v(10^400) at r0 = 0.1 is 1.27e-798)."""
    assert cli.main(["budget", "--r0", "1e-300", "--c", "1", "--n", "10", "--json"]) == 0
    text = capsys.readouterr().out
    assert '"v": 1.1566146698175799' in text and "e+598" in text
    assert '"sigma": 6.26657068657750' in text and "e-301" in text
    assert cli.main(["budget", "--r0", "0.1", "--c", "1", "--n", "1" + "0" * 400, "--dps", "20",
                     "--digits", "20"]) == 0
    out = capsys.readouterr().out
    assert "v(n)              1.2715722227527948856e-798" in out
    assert cli.main(["budget", "--r0", "1e-300", "--c", "1", "--n", "10", "--delta", "1e-6",
                     "--digits", "15"]) == 0
    out = capsys.readouterr().out
    assert "1.15661466981758e+598  Bun-Steinke" in out and "not computed" in out


BUDGET = {"--r0": "0.1", "--c": "1", "--n": "10", "--r": "0.5", "--delta": "1e-6", "--dps": "15"}


@pytest.mark.parametrize("option", list(BUDGET))
@settings(max_examples=40)
@given(value=TEXT)
@pytest.mark.slow
def test_budget_any_value(option, value):
    args = dict(BUDGET, **{option: value})
    argv = ["budget"] + [a for k, v in args.items() for a in (k, v)]
    code, out, err = run_main(argv, timeout=60)
    check_exit(code, out, err, option)
    if code == 0:
        for bad in (" inf", "nan", "= 0.0 ", "= 0 "):
            assert bad not in out, out


def test_messages_name_the_flags_not_the_parameters():
    """The library's parameter names become the flags (--target-rho, not target_rho)."""
    from countdp.calculator.cli import _flag_message

    assert _flag_message(ValueError("give exactly one of target_rho and target_eps")) == \
        "give exactly one of --target-rho and --target-eps"
    assert _flag_message(ValueError("--r0 must lie in (0, 1)")) == "--r0 must lie in (0, 1)"
    code, _, err = run_main(["budget", "--c", "1", "--n", "10", "--target-rho", "1", "--target-eps", "1",
                             "--delta", "1e-6"])
    assert code == 2 and "--target-rho" in err and "target_rho" not in err


def test_releases_at_its_own_bound_written_1e9():
    code, out, err = run_main(["budget", "--r0", "0.05", "--c", "1", "--n", "10", "--releases", "1e9"])
    assert code == 0 and "1000000000 releases" in out, err
    code, _, err = run_main(["budget", "--r0", "0.05", "--c", "1", "--n", "10", "--releases", "2e9"])
    assert code == 2 and "--releases" in err


def test_plot_path_refused_before_computing(tmp_path):
    for path, words in ((tmp_path, "directory"), (tmp_path / "b", "suffix"),
                        (tmp_path / "no" / "b.png", "does not exist")):
        code, _, err = run_main(["budget", "--r0", "0.05", "--c", "1", "--n", "10", "--plot", str(path)])
        assert code == 2 and "--plot" in err and words in err, err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("drop", ["--c", "--n"])
def test_budget_without_a_required_option_names_it(drop):
    argv = ["budget", "--r0", "0.05", "--c", "1", "--n", "10", "--delta", "1e-6"]
    i = argv.index(drop)
    del argv[i:i + 2]
    code, out, err = run_main(argv)
    assert code == 2 and out == "" and drop in err and "required" in err, err
