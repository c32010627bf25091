# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev
RSTAMP := $(VENV)/.installed
BSTAMP := $(VENV)/.installed-bench
PORT   ?= 8000

.PHONY: run test lint typecheck bench screenshots clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[play,store,server]'
	touch $@

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(RSTAMP)

$(BSTAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $@

## run: the main job: the card room. `croupier serve` with a SQLite store (in the user's
## data directory) and bot-filled tables of hold'em, Omaha, stud and blackjack; open the
## URL it prints. The terminal game is `croupier play` (see docs/play.md).
run: $(RSTAMP)
	@echo "make run: the card room is at http://127.0.0.1:$(PORT)/ (Ctrl-C stops it; the terminal game: $(BIN)/croupier play omaha)"
	$(BIN)/croupier serve --host 127.0.0.1 --port $(PORT)

## test: lint, strict type check, then the whole test suite (doctests included), one
## pytest worker per core (pytest-xdist; the slow server tests are handed out as they free)
test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -n auto --dist worksteal

## bench: every benchmark against its peers, in one run
bench: $(BSTAMP)
	$(BIN)/python -m benchmarks
	$(BIN)/python -m benchmarks --only blackjack

## screenshots: the README's pictures of the lobby and both tables, from a real browser
screenshots: $(STAMP)
	$(BIN)/python tests/browser/screenshots.py docs/screens

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
