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

# The embedded default: a club of 12 over six months, 20,000 deals (standard rules), about
# 3% of them tampered with on purpose (listed in the manifest) so the audit page has work.
DEMO_DIR := data/demo
DEMO_LOG := $(DEMO_DIR)/club.jsonl.gz
DEMO_WAREHOUSE := data/warehouse
DEMO_PORT := 8501

$(DEMO_LOG): | $(STAMP)
	$(BIN)/chuanma simulate --out $@ --players 12 --sessions 500 --deals-per-session 40 \
		--rules standard --seed 2026 --start 2026-05-01 --tamper 0.03 --manifest $(DEMO_DIR)/manifest.jsonl

# Ingest again only when the log is newer than the catalog (ingest skips a known file anyway);
# exit 3 (some deals have findings: the tampered ones) is what the demo expects.
$(DEMO_WAREHOUSE)/catalog.json: $(DEMO_LOG) | $(STAMP)
	@echo "== ingesting $(DEMO_LOG) into $(DEMO_WAREHOUSE): every deal replayed and rechecked =="
	@$(BIN)/chuanma ingest $(DEMO_LOG) --warehouse $(DEMO_WAREHOUSE); \
		status=$$?; [ $$status -eq 0 ] || [ $$status -eq 3 ] || exit $$status
	@touch $@

demo: $(STAMP) $(DEMO_WAREHOUSE)/catalog.json
	@echo "== the dashboard: http://localhost:$(DEMO_PORT) (Ctrl-C stops it) =="
	$(BIN)/chuanma dashboard --warehouse $(DEMO_WAREHOUSE) --port $(DEMO_PORT)

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
