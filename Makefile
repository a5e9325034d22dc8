# The two commands of the README:
#   make build   set everything up, then build the warehouse from the bundled sample
#   make test    set everything up, then run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test test-fast lint docs dev setup system-deps clean

setup: $(STAMP) system-deps

# Debian's Chromium (reports printed to PDF, browser tests) and poppler-utils
system-deps:
	sh scripts/system-deps.sh

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $(STAMP)

build: setup
	$(BIN)/classement build

test: setup
	$(BIN)/pytest

# Developers: the suite without whole builds, browsers and printing (seconds, not minutes)
test-fast: $(STAMP)
	$(BIN)/pytest -m "not slow"

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
