# Every target builds .venv itself from nothing but Python 3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help test test-all lint format bench bench-quick bench-matrix plots baseline bench-check bench-ratios bench-compare bench-history bench-find bench-suite lint-workflows api-doc clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

# Every target's Python writes its bytecode (into .venv and the ignored
# __pycache__ folders, beside Numba's cache) even where
# PYTHONDONTWRITEBYTECODE is set: otherwise each of the hundred-odd processes
# a test run starts (xdist and Dask workers, knight commands) compiles
# numba's, distributed's and knight's sources again, and each pytest worker
# rewrites every test module (journal: "make test from a fresh clone").
# Written as each module is first imported, not all at install.
export PYTHONDONTWRITEBYTECODE :=

# uv installs the same releases as pip in a quarter of the time (it
# resolves and unpacks in parallel), which a fresh clone's make test pays
# before any test runs; pip does it where uv cannot be had. Fetching uv is
# only a shortcut, so pip's warnings about it (an index that lacks it, say)
# are not shown: were the fetch to fail, the fallback install says why
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --quiet uv && $(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev]' \
		|| { $(BIN)/python -m pip install --quiet --upgrade pip && $(BIN)/python -m pip install --quiet -e '.[dev]'; }
	touch $@

# make test's workers (pytest-xdist): two a usable core, as a good part of
# the suite waits (on subprocesses, loopback clusters, signals' bounds) and
# a second worker a core runs while one waits (journal: "make test from a
# fresh clone"); a test file stays on one worker (its module
# fixtures, a loopback cluster, start once)
TEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print(2 * len(os.sched_getaffinity(0)))")
test: $(STAMP)  ## run the test suite, two workers a core (slow checks excluded; TEST_WORKERS=1 for one process), the 15 slowest listed
	$(BIN)/python -m pytest -m "not slow" -n $(TEST_WORKERS) --dist loadfile --durations=15

test-all: $(STAMP)  ## run every test, the slow exhaustive ones too
	$(BIN)/python -m pytest

lint: $(STAMP)  ## ruff check, ruff format --check, and numpydoc's validator on the public API (rules in pyproject.toml)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m tests.docstrings

api-doc: $(STAMP)  ## rewrite docs/api.md from the public docstrings (make test fails while it is stale)
	$(BIN)/python -m tests.api_doc

format: $(STAMP)  ## ruff format: rewrite the Python files in the house style (make lint checks it)
	$(BIN)/ruff format .

bench: $(STAMP)  ## run the default benchmark sweep (a few minutes) into results/DATE-COMMIT/
	$(BIN)/python -m bench

bench-quick: $(STAMP)  ## a short benchmark sweep (under a minute), same outputs
	$(BIN)/python -m bench --quick

NUMBA ?= 0.59 0.62 0.65 0.68
bench-matrix: $(STAMP)  ## knight's kernels under each Numba release (NUMBA="0.59 0.62 0.65 0.68"; a cached venv each) against C compiled once -> results/numba-matrix/DATE-COMMIT/
	$(BIN)/python -m bench.by_hand.numba_matrix $(NUMBA) $(if $(ROUNDS),--rounds $(ROUNDS))

RUN ?= results/latest
plots: $(STAMP)  ## redraw the figures and REPORT.md of a run without searching (RUN=results/latest)
	$(BIN)/python -m bench.report $(RUN)

baseline: $(STAMP)  ## record a deliberate change: rewrite results/baseline/ (nodes, speed ratios, base.json; WORKLOAD=dp: those ratios alone); the commit of it becomes bench-check's BASE
	$(BIN)/python -m bench.guard.node_baseline --record
	$(BIN)/python -m bench.guard.speed_check --record $(if $(WORKLOAD),--workload '$(WORKLOAD)')
	$(BIN)/python -m bench.guard.base_check --record-base

bench-check: $(STAMP)  ## speed guard: node counts, then instructions (callgrind) and CPU time of this tree against BASE=rev (default: the last commit that changed results/baseline/), with its planted-slowdown self-test (WORKLOAD=dp: those alone)
	$(BIN)/python -m bench.guard.base_check $(if $(BASE),--base '$(BASE)') $(if $(SUMMARY),--markdown '$(SUMMARY)') $(if $(WORKLOAD),--workload '$(WORKLOAD)')

bench-ratios: $(STAMP)  ## information only, never fails: knight's whole call against each frozen reference's, beside results/baseline/ratios.json
	$(BIN)/python -m bench.guard.speed_check $(if $(WORKLOAD),--workload '$(WORKLOAD)')

bench-compare: $(STAMP)  ## A/B speed of the working tree (or HEAD=rev) against BASE=rev, interleaved
	@test -n "$(BASE)" || { echo "usage: make bench-compare BASE=<git rev> [HEAD=<git rev>] [THRESHOLD=0.25] [BASE_PYTHON=python]" >&2; exit 2; }
	$(BIN)/python -m bench.commits.compare $(BASE) $(if $(HEAD),--head $(HEAD)) $(if $(THRESHOLD),--threshold $(THRESHOLD)) $(if $(BASE_PYTHON),--base-python $(BASE_PYTHON)) $(if $(SUMMARY),--markdown '$(SUMMARY)')

bench-history: $(STAMP)  ## knight's whole call against C's whole call (CPU time, set-up included) and instructions (callgrind) at each commit touching knight/ (REVS=range, default last 20 of main) -> results/history.csv, HISTORY.md
	$(BIN)/python -m bench.commits.history $(if $(REVS),'$(REVS)') $(if $(HISTORY_CSV),--csv '$(HISTORY_CSV)')

bench-find: $(STAMP)  ## bisect GOOD..BAD by knight's whole call against C's (BY=instructions: by instructions under callgrind): the first commit slower by more than the threshold
	@test -n "$(GOOD)" -a -n "$(BAD)" || { echo "usage: make bench-find GOOD=<git rev> BAD=<git rev> [WORKLOAD=greedy] [THRESHOLD=0.25] [BY=instructions|time]" >&2; exit 2; }
	$(BIN)/python -m bench.commits.find $(GOOD) $(BAD) $(if $(WORKLOAD),--workload '$(WORKLOAD)') $(if $(THRESHOLD),--threshold $(THRESHOLD)) $(if $(BY),--by $(BY))

bench-suite: $(STAMP)  ## pytest-benchmark suite of the workloads (ARGS="--benchmark-autosave" etc. pass through)
	$(BIN)/python -m pytest bench/guard/test_speed.py --benchmark-group-by=group --benchmark-columns=min,median,max,iqr,rounds $(ARGS)

lint-workflows: $(STAMP)  ## check .github/workflows/ with actionlint (installs the lint extra; its build fetches actionlint from GitHub)
	$(BIN)/python -m pip install --quiet -e '.[lint]'
	$(BIN)/actionlint -color .github/workflows/*.yml

clean:  ## remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .benchmarks
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
