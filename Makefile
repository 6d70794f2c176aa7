# countdp: `make reproduce` (every paper check, reports/ and figures/) and `make test`.
# Both set up what they need: the active virtual environment if there is one, otherwise
# .venv (created with python3 -m venv, the package installed editable with pinned versions).

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON   ?= python3
JOBS     ?= $(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
REPORTS  ?= reports
FIGURES  ?= figures
QUICK_REPORTS ?= $(REPORTS)/quick
CLAIM    ?=
ARGS     ?=
DPS      ?= 30
PYTEST_ARGS ?=

ifdef VIRTUAL_ENV
PY    := $(VIRTUAL_ENV)/bin/python
STAMP :=
else
PY    := .venv/bin/python
STAMP := .venv/.installed
endif

# src/ first on the path, so the checkout is what runs even in an environment without the
# editable install
RUN     := PYTHONPATH=src$(if $(PYTHONPATH),:$(PYTHONPATH)) $(PY)
COUNTDP := $(RUN) -m countdp

# countdp, budget: the command without activation
.PHONY: countdp budget
.PHONY: help setup browser latex note reproduce quick faults test-slow mutants mutants-ci mutants-retest figures check test docs screenshot bench dist test-wheel test-matrix clean distclean

help:
	@echo "make reproduce           every paper check (JOBS=$(JOBS)): $(REPORTS)/ and $(FIGURES)/; fails if a claim fails"
	@echo "make test                the fast tier of the test suite, then a quick reproduce into $(QUICK_REPORTS)/"
	@echo "make test-slow           the tests marked slow, then the quick fault catalogue (CI runs both)"
	@echo "make quick               the quick reproduce only (every claim, smaller grids, no figures)"
	@echo "make faults              inject the fault catalogue (full grids; QUICK=1 for the quick ones)"
	@echo "make mutants             mutation testing (cosmic-ray) of a seeded sample of the library's mutants:"
	@echo "                         $(REPORTS)/mutants.json and .md (MUTANTS_SAMPLE=$(MUTANTS_SAMPLE) MUTANTS_SEED=$(MUTANTS_SEED))"
	@echo "make mutants-ci          the same for a small fixed sample of the trusted core (CI)"
	@echo "make mutants-retest      every triaged survivor put back and run against today's unit tests"
	@echo "                         (RETEST=\"loss_cgf.py profile.py\" for some files); fails if a real one survives"
	@echo "make figures             the figures only, into $(FIGURES)/"
	@echo "make check CLAIM=ID [DPS=50]   one claim, printed in full, at the given precision"
	@echo "make countdp ARGS=\"...\"     any countdp command, no activation needed (ARGS=\"list\", ARGS=\"--help\")"
	@echo "make budget ARGS=\"...\"      countdp budget (ARGS=\"--r0 0.05 --c 1 --n 10 --delta 1e-6\")"
	@echo "make docs                the documentation site into site/ (mkdocs --strict), its doctests, its browser test"
	@echo "make browser             install Debian's chromium for the browser test of index.html (if missing)"
	@echo "make latex               install Debian's LaTeX (latexmk, texlive) and poppler-utils for the note (if missing)"
	@echo "make note                the C* note, experiments/cstar/note/cstar.pdf, its numbers from $(REPORTS)/"
	@echo "make screenshot          $(REPORTS)/index.html rendered by headless chromium into $(REPORTS)/index.png"
	@echo "make bench               benchmarks (if benchmarks/ exists)"
	@echo "make dist                sdist and wheel into dist/ (the wheel records the git commit)"
	@echo "make test-wheel          install the wheel in a fresh venv outside the checkout; list and check a claim"
	@echo "make test-matrix         unit tests + quick reproduce on every Python 3.10-3.13 found, pinned and newest"
	@echo "make clean / distclean   remove generated files / also .venv"

setup: $(STAMP)

# Debian's chromium, for the test that opens reports/index.html in a real browser
# (tests/test_harness_html.py): installed when missing, if this is root with apt-get; otherwise
# a warning, and the browser tests are skipped (CI sets COUNTDP_REQUIRE_BROWSER=1: they fail)
browser:
	@if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing Debian's chromium for the browser test of reports/index.html"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null \
			|| echo "make browser: apt-get install chromium failed; the browser tests will be skipped" >&2; \
	else echo "make browser: chromium is missing (apt-get install chromium); the browser tests will be skipped" >&2; fi

# Debian's LaTeX for the C* note (experiments/cstar/note) and its test (tests/test_cstar_note.py):
# the smallest set the note needs (latexmk, texlive-latex-recommended, about 145 MiB installed),
# and poppler-utils (pdftotext, pdftoppm) to read the PDF back; installed when missing, as root
# with apt-get, otherwise a warning, and the build test is skipped (COUNTDP_REQUIRE_LATEX=1: fails)
LATEX_PACKAGES := latexmk texlive-latex-recommended poppler-utils
latex:
	@if command -v latexmk >/dev/null 2>&1 && command -v pdflatex >/dev/null 2>&1 \
		&& command -v pdftotext >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing Debian's $(LATEX_PACKAGES) for the C* note"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			$(LATEX_PACKAGES); } >/dev/null \
			|| echo "make latex: apt-get install $(LATEX_PACKAGES) failed; the note cannot be built" >&2; \
	else echo "make latex: latexmk is missing (apt-get install $(LATEX_PACKAGES)); the note cannot be built" >&2; fi

# the C* note: numbers.tex from the reports (the note's claims are run first, into $(REPORTS)/, when
# the reports lack them, e.g. on a fresh clone), then cstar.pdf with latexmk, the figures read from
# $(FIGURES)/; fails on a LaTeX error, an undefined reference or citation, or a claim that failed
NOTE_DIR := experiments/cstar/note
note: setup latex
	@command -v latexmk >/dev/null 2>&1 || { echo "make note: latexmk is missing (make latex)" >&2; exit 2; }
	@missing=$$($(RUN) $(NOTE_DIR)/note_numbers.py --reports $(REPORTS) --missing) || exit $$?; \
	if [ -n "$$missing" ]; then \
		echo "make note: $(REPORTS)/ lacks $$missing; running them first"; \
		echo "$(COUNTDP) reproduce --only $$missing --jobs $(JOBS) --reports $(REPORTS) --no-figures"; \
		$(COUNTDP) reproduce --only $$missing --jobs $(JOBS) --reports $(REPORTS) --no-figures || exit $$?; \
	fi
	$(RUN) $(NOTE_DIR)/note_numbers.py --reports $(REPORTS) --out $(NOTE_DIR)/numbers.tex
	cd $(NOTE_DIR) && TEXINPUTS=".:$(abspath $(FIGURES)):" latexmk -pdf -interaction=nonstopmode -halt-on-error \
		-file-line-error -quiet cstar.tex
	@! grep -E "LaTeX Warning: (Reference|Citation) .* undefined|There were undefined references" \
		$(NOTE_DIR)/cstar.log || { echo "make note: undefined references in $(NOTE_DIR)/cstar.log" >&2; exit 1; }
	@echo "note: $(NOTE_DIR)/cstar.pdf"

.venv/.installed: pyproject.toml constraints.txt
	@test -x .venv/bin/python || { echo "creating .venv with $(PYTHON)"; $(PYTHON) -m venv .venv; }
	.venv/bin/python -m pip install --disable-pip-version-check -q -c constraints.txt -e '.[test]'
	@touch $@

reproduce: setup
	$(COUNTDP) reproduce --jobs $(JOBS) --reports $(REPORTS) --figures $(FIGURES)

quick: setup
	$(COUNTDP) reproduce --quick --faults --jobs $(JOBS) --reports $(QUICK_REPORTS) --no-figures

# every plausible mistake of the catalogue must make its own claim fail; the unpatched statuses
# are taken from a reproduce already in the reports directory (same mode) when there is one
faults: setup
	$(COUNTDP) faults $(if $(QUICK),--quick,) --jobs $(JOBS) --reports $(if $(QUICK),$(QUICK_REPORTS),$(REPORTS))

# mutation testing (mutation/run.py): a seeded sample of the mutants of src/countdp outside
# harness/, each tested by the quick claims of its module and the unit tests that ran its
# function (coverage measured once per run, about 30 min on 2 cores, cached by the tree's hash);
# fails if a survivor is not triaged in mutation/triage.toml.  cosmic-ray and coverage come with
# the `mutants` extra.
# mutants-ci: the trusted core's mutants only, after make test and test-slow have shown the suite
# passes unmutated (so no baseline runs: a fixed time limit), claims and tests with $(JOBS) workers, the
# unit tests picked by imports (no coverage run, to keep CI short)
MUTANTS_SAMPLE ?= 150
MUTANTS_SEED   ?= 20
MUTANTS_CI_SAMPLE ?= 6
MUTANTS_CI_SEED   ?= 1
MUTANTS_TOOL := $(PY) -c 'import cosmic_ray, pytest_cov' 2>/dev/null || \
	$(PY) -m pip install --disable-pip-version-check -q -c constraints.txt -e '.[test,mutants]'

mutants: setup
	@$(MUTANTS_TOOL)
	$(RUN) mutation/run.py --sample $(MUTANTS_SAMPLE) --seed $(MUTANTS_SEED) --reports $(REPORTS)

mutants-ci: setup
	@$(MUTANTS_TOOL)
	$(RUN) mutation/run.py --scope core --sample $(MUTANTS_CI_SAMPLE) --seed $(MUTANTS_CI_SEED) \
		--no-baseline --limit 300 --jobs $(JOBS) --select imports --name mutants-ci --work build/mutation-ci \
		--reports $(REPORTS)

# the survivors of mutation/triage.toml, each put back into a copy of the checkout and run
# against the unit tests that import its module (mutation/retest.py): which are killed today
mutants-retest: setup
	$(RUN) mutation/retest.py $(if $(RETEST),--files $(RETEST),) --json $(REPORTS)/mutants-retest.json

figures: setup
	$(COUNTDP) figures --jobs $(JOBS) --figures $(FIGURES)

check: setup
	@test -n "$(CLAIM)" || { echo "usage: make check CLAIM=thm3.1.ii [DPS=50]" >&2; exit 2; }
	$(COUNTDP) check $(CLAIM) --dps $(DPS)

# the countdp command without activating .venv: make countdp ARGS="list", make budget ARGS="--r0 0.05 --c 1 --n 10"
countdp: setup
	$(COUNTDP) $(ARGS)

budget: setup
	$(COUNTDP) budget $(ARGS)

# the test suite's fast tier (in parallel when pytest-xdist is there: every test not marked slow,
# the soundness tests of the trusted core among them), then a quick reproduce of every claim; both
# run, and the target fails if either does.  make test-slow runs the rest (CI runs both).
PYTEST_PAR := if $(PY) -c 'import xdist' >/dev/null 2>&1; then par="-n 2"; else par=""; fi; \
	if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then \
		export COUNTDP_REQUIRE_BROWSER=1; fi; \
	if command -v latexmk >/dev/null 2>&1; then export COUNTDP_REQUIRE_LATEX=1; fi
test: setup browser latex
	@status=0; $(PYTEST_PAR); \
	echo "$(RUN) -m pytest -q $$par -m 'not slow' tests $(PYTEST_ARGS)"; \
	$(RUN) -m pytest -q $$par -m 'not slow' tests $(PYTEST_ARGS) || status=$$?; \
	echo "$(COUNTDP) reproduce --quick --jobs $(JOBS) --reports $(QUICK_REPORTS) --no-figures"; \
	$(COUNTDP) reproduce --quick --jobs $(JOBS) --reports $(QUICK_REPORTS) --no-figures || status=$$?; \
	exit $$status

# the slow tier: the tests marked slow (every claim's quick run inside pytest with its certified
# records, end-to-end runs of the command line, examples and figures, sweeps over scales and the
# named-fault tests of single scripts), then the quick fault catalogue (every plausible mistake
# must make its claim fail; the unpatched statuses from make test's quick reproduce when there)
test-slow: setup browser latex
	@status=0; $(PYTEST_PAR); \
	echo "$(RUN) -m pytest -q $$par -m slow tests $(PYTEST_ARGS)"; \
	$(RUN) -m pytest -q $$par -m slow tests $(PYTEST_ARGS) || status=$$?; \
	echo "$(COUNTDP) faults --quick --jobs $(JOBS) --reports $(QUICK_REPORTS)"; \
	$(COUNTDP) faults --quick --jobs $(JOBS) --reports $(QUICK_REPORTS) || status=$$?; \
	exit $$status

# the documentation site: the docs extra installed (when missing), `mkdocs build --strict` into site/ (a warning,
# such as a broken link between pages or to a figure, fails), the doctests of the pages' code, and
# the site opened in chromium (tests/test_docs_browser.py; required when chromium is there)
docs: setup browser
	@$(PY) -c 'import mkdocs, mkdocstrings, material' 2>/dev/null || \
		$(PY) -m pip install --disable-pip-version-check -q -c constraints.txt -e '.[test,docs]'
	NO_MKDOCS_2_WARNING=1 $(RUN) -m mkdocs build --strict -q
	$(RUN) -m pytest -q -p no:randomly -p no:cacheprovider --doctest-glob='*.md' docs/
	@if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then \
		export COUNTDP_REQUIRE_BROWSER=1; fi; \
	$(RUN) -m pytest -q -p no:randomly tests/test_docs_browser.py

# the report page as a reviewer sees it (after make reproduce or make quick)
screenshot: setup browser
	@test -f $(REPORTS)/index.html || { echo "screenshot: no $(REPORTS)/index.html (make reproduce first)" >&2; exit 2; }
	$(RUN) tests/_browser.py $(REPORTS)/index.html $(REPORTS)/index.png

bench: setup
	@if [ -d benchmarks ]; then $(RUN) benchmarks/bench_core.py; \
	else echo "bench: no benchmarks/ directory yet"; fi

# sdist and wheel; the wheel carries the commit it was built from (countdp/_commit.txt)
dist: setup
	rm -rf dist
	{ git rev-parse HEAD && { git status --porcelain --untracked-files=no | grep -q . && echo dirty || true; }; } \
		| tr '\n' ' ' > src/countdp/_commit.txt
	$(PY) -m build --outdir dist . ; status=$$?; rm -f src/countdp/_commit.txt; exit $$status

# the wheel as a user installs it: a fresh venv outside the checkout, pinned versions, then the
# claim list and one claim check run from an empty directory (no source tree on the path)
test-wheel: dist
	@d=$$(mktemp -d); echo "test-wheel: installing dist/*.whl into $$d/venv"; \
	$(PYTHON) -m venv $$d/venv && \
	$$d/venv/bin/python -m pip install --disable-pip-version-check -q -c constraints.txt dist/*.whl && \
	cd $$d && env -u PYTHONPATH $$d/venv/bin/countdp --version && \
	env -u PYTHONPATH $$d/venv/bin/countdp list > list.txt && grep -q "thm3.1.ii" list.txt && \
	env -u PYTHONPATH $$d/venv/bin/countdp check eq3 --quick > check.txt && grep -q "status     PASS" check.txt && \
	echo "test-wheel: countdp list and countdp check eq3 --quick pass from the installed wheel"; \
	status=$$?; rm -rf $$d; exit $$status

# every Python 3.10-3.13 the machine has (pyenv or PATH), with the pinned versions and with the
# newest ones pyproject.toml allows; PYTHONS= and RESOLUTIONS= narrow it (CI runs a subset)
PYTHONS ?= 3.10 3.11 3.12 3.13
RESOLUTIONS ?= pinned newest
test-matrix:
	@bash .ci/matrix "$(PYTHONS)" "$(RESOLUTIONS)"

clean:
	cd $(NOTE_DIR) && rm -f numbers.tex cstar.pdf cstar.aux cstar.log cstar.out cstar.fls cstar.fdb_latexmk
	rm -rf $(REPORTS) site build dist src/*.egg-info .pytest_cache .hypothesis src/countdp/_commit.txt
	find . -path ./.venv -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf .venv
