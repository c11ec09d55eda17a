# chuanma: `make test` and `make demo` set everything up on a fresh machine (Python 3.11).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup test lint typecheck pytest test-pure lint-typecheck-pure demo bench clean sample compile clean-compiled

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "chuanma needs $(PYTHON) on PATH"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "== installing the pinned packages and the dev tools into $(VENV) =="
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --progress-bar on -e '.[dev]'
	touch $(STAMP)

# What the demo needs: the runtime packages only (no mypy, ruff, pytest, playwright), so a
# fresh clone reaches its first page sooner; a venv with the dev tools already counts.
RUN_STAMP := $(VENV)/.installed-run
$(RUN_STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "chuanma needs $(PYTHON) on PATH"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@if [ $(STAMP) -nt pyproject.toml ]; then touch $@; else \
		echo "== installing the dashboard's packages into $(VENV) (about a minute the first time) =="; \
		$(BIN)/python -m pip install --progress-bar on -e . && touch $@; fi

setup: $(STAMP) compile

# The hot modules compiled to C with mypyc (a faster replay), listed in compiled-modules.txt;
# `make clean-compiled` goes back to pure Python. A compiled module shadows its .py file, so
# every target that runs code depends on the stamp, which is older than any edited source.
COMPILED_LIST := compiled-modules.txt
COMPILED := $(shell sed -e 's/\#.*//' $(COMPILED_LIST))
COMPILE_STAMP := build/.compiled
C_STAMP := build/.c-extensions
BUILT := $(COMPILE_STAMP) $(C_STAMP)
# mypyc's shared library is a top-level module: it goes where the venv imports from.
SITE = $(shell $(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')

$(COMPILE_STAMP): $(STAMP) $(COMPILED) $(COMPILED_LIST)
	@echo "compiling $(words $(COMPILED)) hot modules with mypyc (about a minute)"
	@$(MAKE) --no-print-directory clean-compiled
	@mkdir -p build
	@if $(BIN)/mypyc $(COMPILED) > build/mypyc.log 2>&1; then \
		touch $(COMPILED:.py=.*.so) && lib=$$(ls *__mypyc*.so) && mv $$lib $(SITE)/ && echo $$lib > $@; \
	else \
		echo "warning: mypyc failed (see build/mypyc.log); running the pure-Python modules"; \
		rm -f $(COMPILED:.py=.*.so) *__mypyc*.so; touch $@; \
	fi

compile: $(BUILT)

# C extensions (the reader's line scanner and the fast check's moves), built with the
# compiler mypyc uses, each beside its .c file; a failed build leaves the Python twin in
# charge (ingest/logs/play_lines.py, the Python moves of ingest/replay/fast_check.py).
C_SOURCES := $(wildcard engine/*.c ingest/*/*.c)
PY_CC = $(shell $(BIN)/python -c 'import sysconfig; print(sysconfig.get_config_var("CC") or "cc")')
PY_INCLUDE = $(shell $(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
EXT_SUFFIX = $(shell $(BIN)/python -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')

# the C moves' constants come from engine/move_codes.py, written as a header at build time
$(C_STAMP): $(COMPILE_STAMP) $(C_SOURCES) engine/move_codes.py
	@mkdir -p build && rm -f $@
	@CHUANMA_PURE=1 $(BIN)/python -m engine.move_codes > build/move_codes.h
	@for src in $(C_SOURCES); do \
		if $(PY_CC) -O2 -shared -fPIC -I$(PY_INCLUDE) -Ibuild $$src -o $${src%.c}$(EXT_SUFFIX) >> build/c-extensions.log 2>&1; \
		then echo $$src >> $@; else echo "warning: $$src did not build (see build/c-extensions.log); its Python twin runs"; fi; \
	done; touch $@

clean-compiled:
	@if [ -s $(COMPILE_STAMP) ]; then rm -f $(SITE)/$$(cat $(COMPILE_STAMP)); fi
	rm -f $(COMPILE_STAMP) $(C_STAMP) *__mypyc*.so engine/*.so ingest/*.so ingest/*/*.so

# ruff and mypy read the sources and run none of them: they need no build, so `make test`
# runs them beside it.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# The tests spread over the cores with pytest-xdist (PYTEST_WORKERS=0: one process); a
# module's tests that share a fixture built once per module stay on one worker together
# (tests/conftest.py groups them, --dist loadgroup).
PYTEST_WORKERS ?= auto
XDIST := -n $(PYTEST_WORKERS) --dist loadgroup

pytest: $(STAMP) $(BUILT)
	$(BIN)/pytest $(XDIST)

# The engine's and the audit's tests again on the pure-Python modules (CHUANMA_PURE=1: engine/
# and ingest/ import their .py files, not the compiled ones), so both paths stay correct.
PURE_TESTS := $(addprefix tests/test_,tiles.py rules.py rules_review.py seed_examples.py \
	differential_mahjong.py deal_invariants.py golden.py finding_codes.py mutations.py reader.py fast_reader.py \
	session_replay.py mypyc_build.py fast_check.py play_lines.py)

test-pure: $(STAMP)
	CHUANMA_PURE=1 $(BIN)/pytest -p no:cacheprovider $(XDIST) $(PURE_TESTS)

# The mypyc build keeps one core busy for minutes (one C file): ruff, mypy and the
# pure-Python run, which need no build, use the other core meanwhile (-O: each target's
# output together); then the compiled run takes both cores.
test: $(STAMP)
	@$(MAKE) --no-print-directory -j2 -Otarget compile lint-typecheck-pure
	@$(MAKE) --no-print-directory pytest

lint-typecheck-pure: $(STAMP)
	@$(MAKE) --no-print-directory lint typecheck
	@$(MAKE) --no-print-directory test-pure PYTEST_WORKERS=0

# The embedded default: a club of 12 over six months, 3,000 deals (standard rules), about
# 3% of them tampered with on purpose (listed in the manifest) so the audit page has work.
# The demo runs the pure-Python modules: it does not wait for the mypyc build (`make
# compile`), so a fresh clone shows its first page in under three minutes; simulate and
# ingest draw progress bars.
DEMO_DIR := data/demo
DEMO_LOG := $(DEMO_DIR)/club.jsonl.gz
# a second, smaller club playing 血流成河 (winners stay in until the wall is empty): 192 deals
DEMO_XUELIU := $(DEMO_DIR)/xueliu.jsonl.gz
DEMO_WAREHOUSE := data/warehouse
DEMO_PORT := 8501
# A compiled module shadows its .py file: the demo, which does not wait for the build, runs
# the .py files even where an older build is lying around. CHUANMA_PROGRESS=lines: where the
# output is not a terminal (piped to a file, a CI log), simulate and ingest print plain progress
# lines instead of bars.
DEMO_RUN := CHUANMA_PURE=1 CHUANMA_PROGRESS=lines $(BIN)/chuanma

$(DEMO_LOG): | $(RUN_STAMP)
	@echo "== simulating the sample club: 3,000 deals, about a tenth of the sessions as score sheets =="
	$(DEMO_RUN) simulate --out $@ --players 12 --sessions 75 --deals-per-session 40 \
		--rules standard --seed 2026 --start 2026-05-01 --tamper 0.03 --manifest $(DEMO_DIR)/manifest.jsonl \
		--sheet-sessions 0.1

$(DEMO_XUELIU): | $(RUN_STAMP)
	@echo "== simulating the 血流成河 club xueliu: 192 deals, winners play on to the empty wall =="
	$(DEMO_RUN) simulate --out $@ --players 8 --sessions 12 --deals-per-session 16 \
		--rules '{"preset":"standard","end_condition":"bloody_flow"}' --seed 2027 --start 2026-05-02 \
		--club xueliu --sheet-sessions 0.1

# Ingest again only when the log is newer than the catalog (ingest skips a known file anyway);
# exit 3 (some deals have findings: the tampered ones) is what the demo expects.
$(DEMO_WAREHOUSE)/catalog.json: $(DEMO_LOG) $(DEMO_XUELIU) | $(RUN_STAMP)
	@echo "== ingesting $(DEMO_LOG) and $(DEMO_XUELIU) into $(DEMO_WAREHOUSE): every deal replayed and rechecked =="
	@$(DEMO_RUN) ingest $(DEMO_LOG) $(DEMO_XUELIU) --warehouse $(DEMO_WAREHOUSE); \
		status=$$?; [ $$status -eq 0 ] || [ $$status -eq 3 ] || exit $$status
	@touch $@

# The review (复盘) is a step after ingest: the deals not reviewed yet (all, the first time;
# none after) are replayed and judged so the Review page is full.
demo: $(RUN_STAMP) $(DEMO_WAREHOUSE)/catalog.json
	@echo "== reviewing the deals not reviewed yet (复盘; a second run does nothing) =="
	$(DEMO_RUN) review --warehouse $(DEMO_WAREHOUSE) --store
	@echo "== the dashboard: http://localhost:$(DEMO_PORT) (Ctrl-C stops it) =="
	@echo "   To record from a phone on this network (the Record page, 记分), serve beyond localhost"
	@echo "   with a token the page asks for:"
	@echo "   $(BIN)/chuanma dashboard --warehouse $(DEMO_WAREHOUSE) --address 0.0.0.0 --upload-token YOUR-TOKEN"
	$(DEMO_RUN) dashboard --warehouse $(DEMO_WAREHOUSE) --port $(DEMO_PORT)

bench: $(STAMP) $(BUILT)
	$(BIN)/python bench/waits.py
	$(BIN)/python bench/replay.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build build-mypyc.log *__mypyc*.so engine/*.so ingest/*.so ingest/*/*.so

# The committed sample (tests and the README use it): two presets, some deals tampered.
sample: $(STAMP) $(BUILT)
	$(BIN)/chuanma simulate --out data/sample/logs/club-standard.jsonl.gz --sessions 15 --deals-per-session 8 \
		--rules standard --seed 11 --start 2026-03-02 --tamper 0.1 --manifest data/sample/manifests/club-standard.jsonl
	$(BIN)/chuanma simulate --out data/sample/logs/club-chengdu.jsonl.gz --sessions 15 --deals-per-session 8 \
		--rules chengdu --seed 12 --start 2026-03-03 --tamper 0.1 --manifest data/sample/manifests/club-chengdu.jsonl
