"""The rules engine: pure, no I/O (tiles, shapes, rules, fan, hands, deals, settlement)."""

import os

if os.environ.get("CHUANMA_PURE", "") not in ("", "0"):  # run the .py files, not a compiled build
    from engine.compiled import prefer_sources

    prefer_sources()
