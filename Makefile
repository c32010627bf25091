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
	$(BIN)/python -m pip install --quiet -e '.[play,store]'
	touch $@

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(RSTAMP)

$(BSTAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

## run: the main job: pot-limit Omaha against three bots at a terminal table, every hand
## recorded to the audit store; without a terminal, a short --auto session (the hand log)
run: $(RSTAMP)
	@if [ -t 0 ] && [ -t 1 ]; then \
		$(BIN)/croupier play omaha --structure pot-limit --bots 3 --record; \
	else \
		echo "make run: no terminal here, so three bots play five hands (--auto)"; \
		$(BIN)/croupier play omaha --structure pot-limit --bots 3 --auto --hands 5 --record; \
		echo "make run: the hands are in the store above; list them with: $(BIN)/croupier history list"; \
	fi

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
