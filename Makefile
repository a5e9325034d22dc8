# The two commands of the README:
#   make build   set everything up, then build the warehouse from the bundled sample
#   make test    set everything up, then run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The exact versions every install gets (`make lock` re-resolves them on purpose)
LOCK := requirements.lock
# Numba's compiled loops, cached (pipelines/compiled.py)
COMPILED := transforms/__pycache__/.numba-compiled

.PHONY: build test test-fast lint docs dev setup system-deps clean lock

# The project's own modules compiled to bytecode (the installer compiles only the
# dependencies'; pipelines/bytecode.py): the files up to date are skipped
setup: $(STAMP) system-deps $(COMPILED)
	$(BIN)/python -m pipelines.bytecode

# Numba's loops of transforms/ compiled into their cache at install (pipelines/compiled.py),
# again whenever a module of transforms/ changes: no build pays it (s20's first full build
# paid about 4 s of it)
$(COMPILED): $(STAMP) $(wildcard transforms/*.py transforms/*/*.py)
	$(BIN)/python -m pipelines.compiled
	mkdir -p $(dir $(COMPILED)) && touch $(COMPILED)

# Debian's Chromium (reports printed to PDF, browser tests) and poppler-utils
system-deps:
	sh scripts/system-deps.sh

# uv installs the locked versions: measured 2 December 2026 on a fresh clone, both download
# caches warm, 25 s with the bytecode compiled against 45 s for pip (and pip's downloads one
# at a time on a cold cache). It compiles the bytecode as pip does: without it every process
# would compile what it imports again (PYTHONDONTWRITEBYTECODE is often set)
$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -c $(LOCK) uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode -c $(LOCK) -e ".[dev]"
	touch $(STAMP)

# Re-resolve every dependency on purpose: the newest versions pyproject.toml allows,
# installed in a throwaway venv, written to the lock (then run make test and commit it)
lock:
	set -e; tmp=$$(mktemp -d); \
	$(PYTHON) -m venv $$tmp/venv; \
	$$tmp/venv/bin/pip install --quiet --upgrade pip; \
	$$tmp/venv/bin/pip install --quiet -e ".[dev]"; \
	{ echo "# The resolved versions make installs with (uv pip install -c $(LOCK) -e \".[dev]\")."; \
	  echo "# Written by make lock on $$(date -u +%Y-%m-%d) with $$($$tmp/venv/bin/python --version);"; \
	  echo "# README: Upgrading the pinned versions."; \
	  $$tmp/venv/bin/pip freeze --exclude-editable; } > $(LOCK); \
	rm -rf $$tmp

build: setup
	$(BIN)/classement build

# Three workers (pytest-xdist) on the 2-core machine: tests spread one by one, except the
# modules grouped in tests/conftest.py (their module fixtures build once, so their tests stay
# on one worker). A third worker fills the time the others wait (Dagster's daemons in the
# server tests, Chromium, the command-line builds): measured in a clone that had run once,
# 2 December 2026, nothing else running: 2 workers 450 s, 3 workers 400 s, 4 workers 441 s.
# Before the workers start, the controller compiles Numba's loops, the project's modules and
# the rewritten test modules once (tests/prepare.py: a fresh clone's workers and commands
# no longer compile them each)
WORKERS ?= 3
test: setup
	$(BIN)/pytest -n $(WORKERS) --dist loadgroup

# Developers: the suite without whole builds, browsers and printing (seconds, not minutes)
test-fast: $(STAMP)
	$(BIN)/pytest -n $(WORKERS) --dist loadgroup -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# The tables part of docs/warehouse.md, from the table registry (transforms/tables)
docs: $(STAMP)
	$(BIN)/python -m pipelines.tables docs/warehouse.md

dev: setup
	$(BIN)/classement dev

clean:
	rm -rf data/warehouse.duckdb* data/reports data/quarantine .dagster_home
