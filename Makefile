# The two commands of the README:
#   make build   set everything up, then build the warehouse from the bundled sample
#   make test    set everything up, then run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test lint dev setup clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/classement build

test: $(STAMP)
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check .

dev: $(STAMP)
	$(BIN)/classement dev

clean:
	rm -rf data/warehouse.duckdb* data/reports data/quarantine .dagster_home
