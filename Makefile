# chuanma: `make test` and `make demo` set everything up on a fresh machine (Python 3.11).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup test lint typecheck pytest demo bench clean sample

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

# The embedded default: a club of 12 over six months, 20,000 deals (standard rules).
DEMO_DIR := data/demo
DEMO_LOG := $(DEMO_DIR)/club.jsonl.gz

$(DEMO_LOG): | $(STAMP)
	$(BIN)/chuanma simulate --out $@ --players 12 --sessions 500 --deals-per-session 40 \
		--rules standard --seed 2026 --start 2026-05-01

demo: $(STAMP) $(DEMO_LOG)
	@echo "== validating $(DEMO_LOG) (every deal replayed and rechecked) =="
	@$(BIN)/chuanma validate $(DEMO_LOG) > $(DEMO_DIR)/report.txt; \
		status=$$?; tail -n 1 $(DEMO_DIR)/report.txt; \
		echo "full report: $(DEMO_DIR)/report.txt (exit $$status: 0 all ok, 3 findings)"; \
		grep -m 5 -A 2 '^FINDINGS' $(DEMO_DIR)/report.txt || true
	@echo "== one deal, turn by turn: .venv/bin/chuanma replay $(DEMO_LOG) --deal <deal_id> =="
	@echo "== a hand: =="
	$(BIN)/chuanma hand '1112345678999m' '11122233399955m'

bench: $(STAMP)
	$(BIN)/python bench/waits.py
	$(BIN)/python bench/replay.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache

# The committed sample (tests and the README use it): two presets, some deals tampered.
sample: $(STAMP)
	$(BIN)/chuanma simulate --out data/sample/logs/club-standard.jsonl.gz --sessions 15 --deals-per-session 8 \
		--rules standard --seed 11 --start 2026-03-02 --tamper 0.1 --manifest data/sample/manifests/club-standard.jsonl
	$(BIN)/chuanma simulate --out data/sample/logs/club-chengdu.jsonl.gz --sessions 15 --deals-per-session 8 \
		--rules chengdu --seed 12 --start 2026-03-03 --tamper 0.1 --manifest data/sample/manifests/club-chengdu.jsonl
