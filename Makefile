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

.PHONY: help setup reproduce quick faults figures check test bench clean distclean

help:
	@echo "make reproduce           every paper check (JOBS=$(JOBS)): $(REPORTS)/ and $(FIGURES)/; fails if a claim fails"
	@echo "make test                the test suite, then a quick reproduce into $(QUICK_REPORTS)/"
	@echo "make quick               the quick reproduce only (every claim, smaller grids, no figures)"
	@echo "make faults              inject the fault catalogue (full grids; QUICK=1 for the quick ones)"
	@echo "make figures             the figures only, into $(FIGURES)/"
	@echo "make check CLAIM=ID [DPS=50]   one claim, printed in full, at the given precision"
	@echo "make bench               benchmarks (if benchmarks/ exists)"
	@echo "make clean / distclean   remove generated files / also .venv"

setup: $(STAMP)

.venv/.installed: pyproject.toml constraints.txt
	@test -x .venv/bin/python || { echo "creating .venv with $(PYTHON)"; $(PYTHON) -m venv .venv; }
	.venv/bin/python -m pip install --disable-pip-version-check -q -c constraints.txt -e '.[test]'
	@touch $@

reproduce: setup
	$(COUNTDP) reproduce --jobs $(JOBS) --reports $(REPORTS) --figures $(FIGURES)

quick: setup
	$(COUNTDP) reproduce --quick --jobs $(JOBS) --reports $(QUICK_REPORTS) --no-figures

# every plausible mistake of the catalogue must make its own claim fail; the unpatched statuses
# are taken from a reproduce already in the reports directory (same mode) when there is one
faults: setup
	$(COUNTDP) faults $(if $(QUICK),--quick,) --jobs $(JOBS) --reports $(if $(QUICK),$(QUICK_REPORTS),$(REPORTS))

figures: setup
	$(COUNTDP) figures --jobs $(JOBS) --figures $(FIGURES)

check: setup
	@test -n "$(CLAIM)" || { echo "usage: make check CLAIM=thm3.1.ii [DPS=50]" >&2; exit 2; }
	$(COUNTDP) check $(CLAIM) --dps $(DPS)

# the test suite (in parallel when pytest-xdist is there), then a quick reproduce; both run,
# and the target fails if either does
test: setup
	@status=0; \
	if $(PY) -c 'import xdist' >/dev/null 2>&1; then par="-n 2"; else par=""; fi; \
	echo "$(RUN) -m pytest -q $$par tests $(PYTEST_ARGS)"; \
	$(RUN) -m pytest -q $$par tests $(PYTEST_ARGS) || status=$$?; \
	echo "$(COUNTDP) reproduce --quick --jobs $(JOBS) --reports $(QUICK_REPORTS) --no-figures"; \
	$(COUNTDP) reproduce --quick --jobs $(JOBS) --reports $(QUICK_REPORTS) --no-figures || status=$$?; \
	exit $$status

bench: setup
	@if [ -d benchmarks ]; then $(RUN) benchmarks/bench_core.py; \
	else echo "bench: no benchmarks/ directory yet"; fi

clean:
	rm -rf $(REPORTS) build dist src/*.egg-info .pytest_cache .hypothesis
	find . -path ./.venv -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf .venv
