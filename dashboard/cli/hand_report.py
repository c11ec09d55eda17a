"""Text and JSON views of a hand analysis (``chuanma hand``)."""

from __future__ import annotations

from typing import Any

from engine.hand import HandReport
from engine.tiles import tile_name
from engine.vocabulary import PATTERNS


def report_json(report: HandReport) -> dict[str, Any]:
    """The JSON contract of ``chuanma hand --json``."""
    return {
        "hand": report.hand,
        "is_win": report.is_win,
        "fan": report.fan,
        "patterns": list(report.patterns),
        "waits": [tile_name(t) for t in report.waits],
        "ready_fan": report.ready_fan,
    }


def pattern_label(pattern: str) -> str:
    zh, en = PATTERNS[pattern]
    return f"{zh} {en}"


def describe_report(report: HandReport) -> str:
    """One readable line per hand, Chinese and English names side by side."""
    if report.is_win and report.result is not None:
        result = report.result
        parts = [pattern_label(result.base)]
        for extra in dict.fromkeys(result.extras):
            count = result.extras.count(extra)
            parts.append(pattern_label(extra) + (f" ×{count}" if count > 1 else ""))
        capped = f" (capped from {result.uncapped})" if result.uncapped != result.fan else ""
        return f"{report.hand}: 胡 win, {report.fan} 番 fan{capped} = " + " + ".join(parts)
    if report.waits:
        waits = " ".join(tile_name(t) for t in report.waits)
        return f"{report.hand}: 听牌 ready, waits {waits}; 查大叫 value {report.ready_fan} 番 fan"
    if report.hand_size % 3 == 1:  # 13, 10 or 7 tiles: a hand waiting for its winning tile
        return f"{report.hand}: 未听牌 not ready (no tile completes it)"
    return f"{report.hand}: 不能胡 no win"
