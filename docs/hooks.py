"""MkDocs hook: the pages made from the repository at build time (nothing is written to docs/).

* ``api/<package>.md`` -- the API reference: the package docstring, then each submodule's
  exported names (the package's ``EXPORTS``) rendered from their docstrings by mkdocstrings;
* ``claims/index.md`` and ``claims/<id>.md`` -- one page per claim of the catalogue, with the
  latest report's page for it (``reports/claims/<id>.md``) when a reproduce has written one;
* ``figures.md`` and ``figures/*.png`` -- the gallery: each figure with its caption and claims
  (the PNG text chunks ``Description`` and ``countdp:claims``);
* ``cstar.md`` -- the summary of the C* note (``experiments/cstar/README.md`` to the end of its
  result section);
* ``examples.md`` -- the scripts of ``examples/``.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["numerics", "formulas", "laws", "arb", "divergence", "mechanisms", "calculator"]
EXAMPLES = ["privacy_budget.py", "new_noise_law.py", "one_figure.py", "claim_at_50_digits.py"]


def _api_page(package: str) -> str:
    name = f"countdp.{package}"
    mod = importlib.import_module(name)
    out = [f"# `{name}`\n", f"::: {name}\n    options:\n      members: false\n      show_root_heading: false\n"]
    exports = getattr(mod, "EXPORTS", None)
    if exports is None:  # countdp.formulas: every formula, by submodule
        subs = sorted({getattr(mod, n).__module__.rsplit(".", 1)[1] for n in mod.__all__})
        exports = {s: () for s in subs}
    for sub, names in exports.items():
        members = list(names)
        if hasattr(importlib.import_module(f"{name}.{sub}"), sub):
            members.insert(0, sub)  # renyi.renyi, tight_rho.tight_rho
        opts = f"      members: [{', '.join(members)}]\n" if members else ""
        out.append(f"## `{name}.{sub}`\n\n::: {name}.{sub}\n    options:\n      show_root_heading: false\n{opts}")
    return "\n".join(out)


def _report_body(claim: str) -> str:
    """The latest report's claim page below its title, its sections one level down and its
    links made to work here (figures kept; the links to the report's other pages, SUMMARY.md and
    index.html, dropped)."""
    path = ROOT / "reports" / "claims" / f"{claim}.md"
    if not path.exists():
        return ("*No report yet: `make reproduce` writes `reports/claims/` and the next `make docs` "
                "shows the verdict, routes, cases and certificate here.*\n")
    text = path.read_text().split("\n", 1)[-1]
    text = re.sub(r"^\*\*Statement\.\*\*.*$", "", text, flags=re.M)
    text = re.sub(r"^(#+) ", r"#\1 ", text, flags=re.M)
    text = re.sub(r"\]\(\.\./\.\./figures/", "](../figures/", text)
    text = re.sub(r"\s*·?\s*\[([^\]]*)\]\((?!https?:|\.\./figures/)[^)]*\)", "", text)
    return "## Latest report (`reports/claims/`)\n" + text


def _claim_pages() -> dict[str, str]:
    from countdp.harness.catalogue import CATALOGUE, SECTION_TITLES

    pages, rows = {}, []
    for claim, info in CATALOGUE.items():
        pages[f"claims/{claim}.md"] = (f"# `{claim}`: {info.paper}\n\n{SECTION_TITLES[info.section]}\n\n"
                                       f"**Statement.** {info.statement}\n\n{_report_body(claim)}")
        rows.append(f"| [`{claim}`]({claim}.md) | {info.paper} | {info.statement.replace('|', '&#124;')} |")
    pages["claims/index.md"] = ("# Claims\n\nEvery claim of the catalogue (`countdp list`), one page each.\n\n"
                                "| claim | where | statement |\n|---|---|---|\n" + "\n".join(rows) + "\n")
    return pages


def _figures() -> tuple[str, list[Path]]:
    from countdp.harness.digest import png_text

    pngs = sorted((ROOT / "figures").glob("*.png"))
    out = ["# Figures\n", "Every figure of `figures/` (made by `make figures`), with its caption and the "
           "claims it belongs to, as stored in the PNG.\n"]
    for p in pngs:
        text = png_text(p)
        claims = " ".join(f"[`{c}`](claims/{c}.md)" for c in text.get("countdp:claims", "").split())
        out.append(f"## {p.stem}\n\n![{p.stem}](figures/{p.name})\n\n{text.get('Description', '')}\n\n"
                   f"Claims: {claims or '-'}\n")
    return "\n".join(out), pngs


def _cstar() -> str:
    text = (ROOT / "experiments" / "cstar" / "README.md").read_text()
    result = text.index("\n## Result")  # the summary: everything up to the end of the result
    end = text.find("\n## ", result + 1) % (len(text) + 1)
    title, body = text[:end].split("\n", 1)
    text = title.replace("*", "\\*") + " (summary)\n" + re.sub(r"\]\(\.\./\.\./figures/", "](figures/", body)
    return text + ("\n\nThe whole note, with the proof of each step and what is checked how, is "
                   "`experiments/cstar/README.md` and `experiments/cstar/lower-bound.md` in the repository; "
                   "its claims are [`cstar.*`](claims/index.md).\n")


def _examples() -> str:
    out = ["# Examples\n", "Short scripts in `examples/` that use only the public API; "
           "`tests/test_examples.py` runs each and checks its output. Run one with "
           "`PYTHONPATH=src .venv/bin/python examples/NAME.py`.\n"]
    for name in EXAMPLES:
        code = (ROOT / "examples" / name).read_text()
        out.append(f"## `{name}`\n\n```python\n{code}```\n")
    return "\n".join(out)


_ROLE = re.compile(r":(?:func|class|mod|meth|data|attr|exc):(<code>)~?")


def on_page_content(html, page, config, files):
    """The docstrings' cross-reference roles (``:func:`x```, written for readers of the source)
    shown as the plain code names they wrap."""
    return _ROLE.sub(r"\1", html)


def on_files(files, config):
    pages = {f"api/{p}.md": _api_page(p) for p in PACKAGES}
    pages.update(_claim_pages())
    gallery, pngs = _figures()
    pages["figures.md"] = gallery
    pages["cstar.md"] = _cstar()
    pages["examples.md"] = _examples()
    for uri, content in pages.items():
        files.append(File.generated(config, uri, content=content))
    for p in pngs:
        files.append(File.generated(config, f"figures/{p.name}", abs_src_path=str(p)))
    return files
