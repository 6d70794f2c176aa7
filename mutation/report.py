"""The mutation report: ``reports/mutants.json``, ``reports/mutants.md`` and the triage check.

A mutant is identified by its file, its operator, the text of the source line it changes and the
text that line becomes (its line number is kept as a hint only, so an entry of the triage file
survives code moving around it).  Every survivor must be triaged in ``mutation/triage.toml``:

    [[survivor]]
    file = "src/countdp/arb/verdicts.py"
    line = 42
    operator = "core/ReplaceComparisonOperator_Lt_LtE"
    source = "if lo < hi:"
    mutant = "if lo <= hi:"
    class = "equivalent"          # equivalent | benign | real
    reason = "lo == hi only for exact balls, decided before this line"

``equivalent``: no input changes behaviour; ``benign``: the behaviour changes but no verdict,
value or error bar of the library can (e.g. a message text, a cache size); ``real``: a mutation
the suite should catch, listed until a test kills it.  Two scores of a package are reported, by
the claims alone and with the unit tests: killed / (sampled - equivalent - not run), the strict
one (a benign survivor counts as not killed), and killed / (sampled - equivalent - benign - not
run), which leaves the benign ones out.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: toml comes with cosmic-ray
    import toml as tomllib

RECORD = "MUTANT-RECORD "
FILTERED = "Filtered operator"  # (what cr-filter-operators writes)
EARLIER = "run in an earlier part"  # (run.py --after: the sample's mutants a partial run holds)
CLASSES = ("equivalent", "benign", "real")
TARGETS = {"trusted core": 0.95, "whole library": 0.90}


def stable_order(item) -> tuple:
    m = item.mutations[0]
    return (str(m.module_path), tuple(m.start_pos), m.operator_name, m.occurrence)


def parse_record(output: str | None) -> dict | None:
    for line in (output or "").splitlines()[::-1]:
        if line.startswith(RECORD):
            return json.loads(line[len(RECORD):])
    return None


def _changed_line(diff: str) -> str:
    added = [ln[1:] for ln in (diff or "").splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    return added[0].strip() if added else ""


def _outcome(state: str) -> str:
    return {"failed": "killed", "timeout": "killed (time limit)", "passed": "survived",
            "none": "none", "no-tests": "none", "not-run": "not run (killed by claims)"}.get(state, state)


def mutant_entry(item, result, tree: Path, core_modules) -> dict:
    """One mutant of the session: where, what, and the outcome by claims and by unit tests."""
    m = item.mutations[0]
    path = str(m.module_path)
    line = m.start_pos[0]
    source = (tree / path).read_text().splitlines()[line - 1].strip()
    record = parse_record(result.output) or {}
    module = ".".join(Path(path).with_suffix("").parts[1:])
    by_claims = record.get("claims") in ("failed", "timeout")
    by_tests = record.get("tests") in ("failed", "timeout")
    ran = (result.worker_outcome == "normal" and result.test_outcome != "incompetent"
           and record.get("claims") != "error")
    if ran and not record:  # cosmic-ray's own time limit (never reached before ours)
        by_claims = result.test_outcome == "killed"
    return {"file": path, "module": module, "package": Path(path).parts[2] if len(Path(path).parts) > 3
            else "countdp", "core": core_modules(module), "line": line, "column": m.start_pos[1],
            "operator": m.operator_name, "occurrence": m.occurrence, "source": source,
            "mutant": _changed_line(result.diff), "diff": result.diff or "",
            "ran": ran, "claims": _outcome(record.get("claims", "unknown")),
            "tests": _outcome(record.get("tests", "unknown")),
            "killed_by_claims": bool(ran and by_claims), "killed": bool(ran and (by_claims or by_tests)),
            "test_files": record.get("test_files"),
            "seconds": round(record.get("claims_seconds", 0.0) + record.get("tests_seconds", 0.0), 2),
            "job_id": item.job_id}


def load_triage(path: Path) -> list[dict]:
    if not path.exists():
        return []
    entries = tomllib.loads(path.read_text()).get("survivor", [])
    for e in entries:
        if e.get("class") not in CLASSES or not e.get("reason"):
            raise SystemExit(f"{path}: entry {e} needs class in {CLASSES} and a reason")
    return entries


def triage_of(mutant: dict, entries: list[dict]) -> dict | None:
    """The triage entry of a survivor: same file, operator, source and mutant text (the nearest
    line when several match)."""
    same = [e for e in entries if (e["file"], e["operator"], e["source"].strip(), e["mutant"].strip())
            == (mutant["file"], mutant["operator"], mutant["source"], mutant["mutant"])]
    return min(same, key=lambda e: abs(e.get("line", 0) - mutant["line"])) if same else None


def tally(mutants: list[dict]) -> dict:
    """Counts and scores of a group of mutants: ``strict score`` = killed / non-equivalent,
    ``score`` = killed / (non-equivalent - benign)."""
    c = Counter()
    for m in mutants:
        c["sampled"] += 1
        c["not run"] += not m["ran"]
        c["killed by claims"] += m["killed_by_claims"]
        c["killed"] += m["killed"]
        if m["ran"] and not m["killed"]:
            c[m["triage"]["class"] if m["triage"] else "untriaged"] += 1
    non_equivalent = c["sampled"] - c["not run"] - c["equivalent"]
    scored = non_equivalent - c["benign"]
    out = {k: c[k] for k in ("sampled", "not run", "equivalent", "benign", "real", "untriaged",
                             "killed by claims", "killed")}
    out["non-equivalent"] = non_equivalent
    out["scored"] = scored

    def ratio(k, n):
        return round(k / n, 4) if n else None
    out["score by claims"] = ratio(c["killed by claims"], scored)
    out["score"] = ratio(c["killed"], scored)
    out["strict score by claims"] = ratio(c["killed by claims"], non_equivalent)
    out["strict score"] = ratio(c["killed"], non_equivalent)
    out["strict interval"] = wilson(c["killed"], non_equivalent)
    return out


def wilson(k: int, n: int, z: float = 1.959964) -> list[float] | None:
    """The 95 % Wilson score interval of a proportion k / n: the population's score that a sample
    of n mutants is consistent with (a sample of 150 at 80 % spans about +-6 points)."""
    if not n:
        return None
    p, z2 = k / n, z * z
    centre, half = (p + z2 / (2 * n)) / (1 + z2 / n), z * ((p * (1 - p) + z2 / (4 * n)) / n) ** 0.5 / (1 + z2 / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def _pct(x):
    return "-" if x is None else f"{100 * x:.0f} %"


def _interval(iv):
    return "" if not iv else f"({100 * iv[0]:.0f}-{100 * iv[1]:.0f} %) "


def markdown(doc: dict) -> str:
    rows = ["| group | sampled | equivalent / benign | non-equivalent | killed by claims | "
            "killed by claims + tests | strict score, claims / + tests (95 % interval) | "
            "score without benign, claims / + tests | real | untriaged |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, t in doc["by_group"].items():
        rows.append(f"| {name} | {t['sampled']} | {t['equivalent']} / {t['benign']} | "
                    f"{t['non-equivalent']} | {t['killed by claims']} | {t['killed']} | "
                    f"{_pct(t['strict score by claims'])} / **{_pct(t['strict score'])}** "
                    f"{_interval(t.get('strict interval'))}| "
                    f"{_pct(t['score by claims'])} / {_pct(t['score'])} | {t['real']} | {t['untriaged']} |")
    survivors = [m for m in doc["mutants"] if m["ran"] and not m["killed"]]
    lines = [f"# Mutation testing: {doc['tool']} {doc['version']}", "",
             f"Seed {doc['seed']}, {doc['sample_size']} mutants sampled ({doc['scope']}) of "
             f"{doc['population']} (the operators that only raise TypeError left out); "
             f"{doc['seconds']:.0f} s in all, "
             f"{doc['seconds_per_mutant']:.1f} s per mutant.  Strict score = killed / (sampled - "
             "equivalent - not run), a benign survivor counting as not killed; the score without "
             "benign leaves them out of the denominator too; in brackets the 95 % Wilson interval of "
             "the strict score of the whole population given this sample.  Targets (on the strict score): "
             + ", ".join(f"{k} {100 * v:.0f} %" for k, v in TARGETS.items()) + ".", "", *rows, "",
             "## Survivors", "", "| file:line | operator | source -> mutant | class | reason |",
             "|---|---|---|---|---|"]
    for m in survivors:
        t = m["triage"] or {"class": "**untriaged**", "reason": ""}
        lines.append(f"| {m['file']}:{m['line']} | {m['operator']} | `{m['source']}` -> "
                     f"`{m['mutant']}` | {t['class']} | {t['reason']} |")
    return "\n".join(lines) + "\n"


def scored(doc: dict, triage: list[dict]) -> dict:
    """Triage every survivor of ``doc["mutants"]`` and tally the packages, the trusted core and
    the whole library into ``doc["by_group"]`` (in place; also returned)."""
    mutants = doc["mutants"]
    for m in mutants:
        m["triage"] = triage_of(m, triage) if m["ran"] and not m["killed"] else None
    groups = {p: [m for m in mutants if m["package"] == p] for p in sorted({m["package"] for m in mutants})}
    groups["trusted core"] = [m for m in mutants if m["core"]]
    groups["whole library"] = mutants
    doc["by_group"] = {k: tally(v) for k, v in groups.items()}
    return doc


def rescore(run: Path, triage: Path) -> dict:
    """A checked-in run (``mutation/runs/NAME.json`` and ``.md``) scored again with the triage
    file as it is now: the JSON rewritten, and the Markdown's tables after its own opening
    paragraphs (everything before the line starting "Seed ")."""
    doc = scored(json.loads(run.read_text()), load_triage(triage))
    run.write_text(json.dumps(doc, indent=1) + "\n")
    md_path = run.with_suffix(".md")
    title, body = markdown(doc).split("\n", 1)
    old = md_path.read_text() if md_path.exists() else title + "\n"
    at = old.find("\nSeed ")
    md_path.write_text((old[:at + 1] if at >= 0 else title + "\n") + body.lstrip("\n"))
    return doc


def write(session: Path, tree: Path, plan: dict, core: list[str], args, seconds: float) -> int:
    """Write the reports; exit status 1 if a survivor is untriaged."""
    from importlib.metadata import version

    from cosmic_ray.work_db import WorkDB, use_db

    def core_modules(module):
        return any(module == c or module.startswith(c + ".") for c in core)

    with use_db(str(session), WorkDB.Mode.open) as db:
        completed = db.completed_work_items
    done = [(i, r) for i, r in completed if r.worker_outcome != "skipped"]
    population = sum(r.output != FILTERED for _, r in completed)
    mutants = sorted((mutant_entry(i, r, tree, core_modules) for i, r in done),
                     key=lambda m: (m["file"], m["line"], m["column"], m["operator"]))
    doc = {"tool": "cosmic-ray", "version": version("cosmic-ray"), "seed": args.seed,
           "sample_size": len(mutants), "scope": args.scope, "population": population,
           "trusted_core": core, "seconds": round(seconds, 1),
           "seconds_per_mutant": round(sum(m["seconds"] for m in mutants) / max(len(mutants), 1), 2),
           "plan": plan["modules"], "mutants": mutants}
    scored(doc, load_triage(args.triage))
    args.reports.mkdir(parents=True, exist_ok=True)
    (args.reports / f"{args.name}.json").write_text(json.dumps(doc, indent=1) + "\n")
    (args.reports / f"{args.name}.md").write_text(markdown(doc))
    whole = doc["by_group"]["whole library"]
    print(markdown(doc))
    if whole["untriaged"]:
        print(f"mutants: {whole['untriaged']} untriaged survivors: add them to {args.triage}")
    return 1 if whole["untriaged"] else 0


def merge(earlier: Path, later: Path, args) -> int:
    """One report from a partial run and the run ``--after`` it (the rest of the same seeded
    sample on a later tree): the mutants of both, their seconds added up, scored with the triage
    file as it is now; the Markdown says which mutants ran on which tree."""
    a, b = (json.loads(Path(p).read_text()) for p in (earlier, later))
    if (a["seed"], a["scope"]) != (b["seed"], b["scope"]):
        raise SystemExit(f"--merge: {earlier} and {later} are not parts of one seed and scope")

    def key(m):
        return m["file"], m["operator"], m["column"], m["source"], m["mutant"]
    # an earlier survivor run again (run.py --again) and given an outcome there: that one counts
    earlier_keys = {key(m) for m in a["mutants"]}
    again = {key(m) for m in b["mutants"] if m["ran"]}
    kept = [dict(m, ran_again=m.get("ran_again", False)) for m in a["mutants"] if key(m) not in again]
    rerun = len(a["mutants"]) - len(kept)
    if any(m["killed"] for m in a["mutants"] if key(m) in again):
        raise SystemExit(f"--merge: {later} ran again a mutant {earlier} had killed")
    later_ones = [dict(m, ran_again=key(m) in earlier_keys) for m in b["mutants"]
                  if m["ran"] or key(m) not in earlier_keys]
    mutants = sorted(kept + later_ones,
                     key=lambda m: (m["file"], m["line"], m["column"], m["operator"]))
    earlier_parts = a.get("parts") or [{"run": Path(earlier).name, "mutants": len(a["mutants"]),
                                        "seconds": a["seconds"]}]
    doc = {**b, "sample_size": len(mutants), "seconds": round(a["seconds"] + b["seconds"], 1),
           "seconds_per_mutant": round(sum(m["seconds"] for m in mutants) / max(len(mutants), 1), 2),
           "plan": {**a["plan"], **b["plan"]}, "mutants": mutants, "ran_again": rerun,
           "parts": [*earlier_parts, {"run": Path(later).name, "mutants": len(b["mutants"]),
                                      "seconds": b["seconds"]}]}
    scored(doc, load_triage(args.triage))
    title, body = markdown(doc).split("\n", 1)
    parts = " and ".join(f"{p['mutants']} mutants in {p['run']}" for p in doc["parts"])
    note = (f"\nOne seeded sample run in {len(doc['parts'])} parts ({parts}): each later part is "
            "the rest of the same sample, drawn again on a later tree, the mutants of the earlier "
            "parts left out; each part's mutants ran against the tests of its own tree.")
    if rerun:
        note += (f" The {rerun} mutants the earlier parts did not kill ran again in the last part "
                 "(`run.py --again`): their outcome there, on the last tree, is the one scored; the "
                 "earlier parts' kills stand.")
    note += "\n"
    args.reports.mkdir(parents=True, exist_ok=True)
    (args.reports / f"{args.name}.json").write_text(json.dumps(doc, indent=1) + "\n")
    (args.reports / f"{args.name}.md").write_text(title + "\n" + note + body)
    whole = doc["by_group"]["whole library"]
    print(title + "\n" + note + body)
    return 1 if whole["untriaged"] else 0
