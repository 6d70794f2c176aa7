"""``countdp release``: a CSV / JSON histogram round-trips (groups kept, seeded output
reproducible, integers with --round), the guarantee per group and the sampler's caveat are
printed, and every bad input is refused in one line naming the flag, before any computation."""

from __future__ import annotations

import json

import pytest

from _run_cli import run_main

BASE = ["release", "--r0", "0.05", "--c", "1"]


@pytest.fixture()
def csv_file(tmp_path):
    p = tmp_path / "h.csv"
    p.write_text("group,count\nalpha,0\nbeta,3\ngamma,1000\n")
    return p


def _csv_rows(text: str):
    rows = [ln.split(",") for ln in text.splitlines() if ln and not ln.startswith("#")]
    assert rows[0] == ["group", "count"]
    return {g: v for g, v in rows[1:]}


@pytest.mark.slow
def test_csv_round_trip_seeded_and_reproducible(csv_file, tmp_path):
    code, out, err = run_main(BASE + ["--input", str(csv_file), "--seed", "5"])
    assert code == 0, err
    got = _csv_rows(out)
    assert list(got) == ["alpha", "beta", "gamma"]
    assert all(float(v) >= 0 for v in got.values())
    assert abs(float(got["gamma"]) - 1000) < 200
    assert "seed 5 (reproducible)" in out and "Mironov 2012" in out  # the header
    assert "Mironov 2012" in err and "not a hardened sampler" in err
    table = [ln.split() for ln in err.splitlines() if ln.startswith(("alpha", "beta", "gamma"))]
    assert [t[:2] for t in table] == [["alpha", "0"], ["beta", "3"], ["gamma", "1000"]]
    assert float(table[2][2]) == pytest.approx(5.0862e-4, rel=1e-4, abs=0)  # v(1000)
    assert float(table[2][3]) == pytest.approx(0.116994, rel=1e-5, abs=0)  # eps at 1e-6
    assert run_main(BASE + ["--input", str(csv_file), "--seed", "5"])[1] == out
    # a rounded release read back in (its # header is a comment): the same groups
    again = tmp_path / "out.csv"
    again.write_text(run_main(BASE + ["--input", str(csv_file), "--seed", "5", "--round"])[1])
    code2, out2, _ = run_main(BASE + ["--input", str(again), "--seed", "6", "--round"])
    assert code2 == 0 and list(_csv_rows(out2)) == ["alpha", "beta", "gamma"]


@pytest.mark.slow
def test_round_gives_integers_and_entropy_is_said(csv_file, tmp_path):
    dest, gfile = tmp_path / "noisy.csv", tmp_path / "g.txt"
    code, out, err = run_main(BASE + ["--input", str(csv_file), "--round", "--output", str(dest),
                                      "--guarantees", str(gfile)])
    assert code == 0, err and out == ""
    vals = _csv_rows(dest.read_text()).values()
    assert all(v.isdigit() for v in vals)
    assert "OS entropy" in err and "OS entropy" in dest.read_text()
    assert "gamma" in gfile.read_text() and "v(n)" in gfile.read_text()


@pytest.mark.slow
def test_json_in_json_out(tmp_path):
    p = tmp_path / "h.json"
    p.write_text(json.dumps({"x": 4, "y": 0}))
    code, out, err = run_main(BASE + ["--input", str(p), "--seed", "1", "--round"])
    assert code == 0, err
    data = json.loads(out)
    assert list(data) == ["x", "y"] and all(isinstance(v, int) for v in data.values())


def test_help_states_the_sampler():
    code, out, _ = run_main(["release", "--help"])
    assert code == 0 and "Mironov 2012" in out and "not a hardened" in out


@pytest.mark.parametrize("content, suffix, flag, words", [
    ("group,count\na,-1\n", ".csv", "--input", "integer >= 0"),
    ("group,count\na,1.5\n", ".csv", "--input", "1.5"),
    ("group,count\na,nan\n", ".csv", "--input", "nan"),
    ("group,count\na,x\n", ".csv", "--input", "'x'"),
    ("grp,n\na,1\n", ".csv", "--input", "header"),
    ("group,count\na,1\na,2\n", ".csv", "--input", "twice"),
    ('{"a": NaN}', ".json", "--input", "nan"),
    ('{"a": -2}', ".json", "--input", "integer >= 0"),
    ("[1, 2]", ".json", "--input", "object"),
    ("{oops", ".json", "--input", "not JSON"),
    ("group,count\na,1\n", ".txt", "--input", "suffix"),
])
def test_bad_input_is_one_line_naming_the_flag(tmp_path, content, suffix, flag, words):
    p = tmp_path / f"h{suffix}"
    p.write_text(content)
    code, out, err = run_main(BASE + ["--input", str(p)])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert flag in err and words in err, err


@pytest.mark.parametrize("extra, flag", [
    (["--r0", "2"], "--r0"), (["--c", "-1"], "--c"), (["--delta", "1"], "--delta"),
    (["--seed", "-3"], "--seed"), (["--seed", "1.5"], "--seed")])
def test_bad_parameters_name_the_flag(csv_file, extra, flag):
    argv = ["release", "--r0", "0.05", "--c", "1", "--input", str(csv_file)]
    i = argv.index(extra[0]) if extra[0] in argv else len(argv)
    argv[i:i + 2] = extra
    code, _, err = run_main(argv)
    assert code == 2 and flag in err and len(err.strip().splitlines()) == 1, err


def test_missing_file_and_output_paths_before_computing(csv_file, tmp_path):
    code, _, err = run_main(BASE + ["--input", str(tmp_path / "none.csv")])
    assert code == 2 and "--input" in err and "cannot be read" in err
    for flag in ("--output", "--guarantees"):
        code, out, err = run_main(BASE + ["--input", str(csv_file), flag, str(tmp_path)])
        assert code == 2 and flag in err and "directory" in err and out == "", err
        code, _, err = run_main(BASE + ["--input", str(csv_file), flag, str(tmp_path / "no" / "x.csv")])
        assert code == 2 and "does not exist" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.csv"]


@pytest.mark.parametrize("drop", ["--input", "--r0", "--c"])
def test_each_required_option_left_out_is_named(csv_file, drop):
    """Without one of its required options the command stops with a usage error naming it."""
    argv = ["release", "--r0", "0.05", "--c", "1", "--input", str(csv_file)]
    i = argv.index(drop)
    del argv[i:i + 2]
    code, out, err = run_main(argv)
    assert code == 2 and out == "" and drop in err and "required" in err, err
