# chuanma: `make test` and `make demo` set everything up on a fresh machine (Python 3.11).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup test lint typecheck pytest demo bench clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "chuanma needs $(PYTHON) on PATH"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest

test: lint typecheck pytest

demo: $(STAMP)
	$(BIN)/chuanma hand --rules standard '1112345678999m' '11122233399955m' '12345678999p 1111m' '1133446666m5588p'
	$(BIN)/chuanma hand --rules chengdu '1133446666m5588p' '11224444557799m'

bench: $(STAMP)
	$(BIN)/python bench/waits.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
