"""The rules engine: pure, no I/O (tiles, shapes, rules, fan, hands, deals, settlement)."""

from pathlib import Path

from engine.compiled import check_fresh

check_fresh(Path(__file__).parent)
