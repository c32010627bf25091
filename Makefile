# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev
RSTAMP := $(VENV)/.installed
BSTAMP := $(VENV)/.installed-bench

.PHONY: run test lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(RSTAMP)

$(BSTAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

## run: the main job (a short demo: evaluate hands, print an equity)
run: $(RSTAMP)
	$(BIN)/croupier demo

## test: lint, strict type check, then the whole test suite (doctests included)
test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest

## bench: every benchmark against its peers, in one run
bench: $(BSTAMP)
	$(BIN)/python -m benchmarks
	$(BIN)/python -m benchmarks --only blackjack

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
