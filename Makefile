# Every target builds .venv itself from nothing but Python 3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help test test-all bench bench-quick plots clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

test: $(STAMP)  ## run the test suite (slow checks excluded)
	$(BIN)/python -m pytest -m "not slow"

test-all: $(STAMP)  ## run every test, the slow exhaustive ones too
	$(BIN)/python -m pytest

bench: $(STAMP)  ## run the default benchmark sweep (about 4 min on 2 cores) into results/DATE-COMMIT/
	$(BIN)/python -m bench

bench-quick: $(STAMP)  ## a short benchmark sweep (under a minute), same outputs
	$(BIN)/python -m bench --quick

RUN ?= results/latest
plots: $(STAMP)  ## redraw the figures and REPORT.md of a run without searching (RUN=results/latest)
	$(BIN)/python -m bench.report $(RUN)

clean:  ## remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .benchmarks
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
