"""Text and JSON views of a hand analysis (``chuanma hand``)."""

from __future__ import annotations

from typing import Any

from engine.hand import HandReport
from engine.shanten import ShantenReport
from engine.tiles import tile_name
from engine.vocabulary import PATTERNS


def effective_json(effective: tuple[tuple[int, int], ...]) -> list[dict[str, Any]]:
    """有效牌 as ``[{"tile": "5m", "left": 3}, ...]``."""
    return [{"tile": tile_name(tile), "left": left} for tile, left in effective]


def report_json(report: HandReport, view: ShantenReport | None = None) -> dict[str, Any]:
    """The JSON contract of ``chuanma hand --json``: the first six keys as ever, then
    ``shanten`` and, for a hand waiting to draw, ``effective`` (its 有效牌), for a hand that
    must discard, ``discards`` (one row a distinct tile, best first)."""
    out: dict[str, Any] = {
        "hand": report.hand,
        "is_win": report.is_win,
        "fan": report.fan,
        "patterns": list(report.patterns),
        "waits": [tile_name(t) for t in report.waits],
        "ready_fan": report.ready_fan,
    }
    if view is not None:
        out["shanten"] = view.shanten
        if report.hand_size % 3 == 1:
            out["effective"] = effective_json(view.effective)
        else:
            out["discards"] = [
                {
                    "tile": tile_name(option.tile),
                    "shanten": option.shanten,
                    "effective": effective_json(option.effective),
                    "effective_count": option.effective_count,
                }
                for option in view.discards
            ]
    return out


def describe_shanten(view: ShantenReport, hand_size: int) -> str:
    """The shanten part of a hand's line (``chuanma hand`` text, one line a hand), both
    languages."""
    if hand_size % 3 == 1:
        tiles = " ".join(f"{tile_name(t)}×{left}" for t, left in view.effective)
        total = sum(left for _, left in view.effective)
        return f" | 向听 shanten {view.shanten}, 有效牌 effective {total}: {tiles or '-'}"
    rows = []
    for option in view.discards[:5]:
        rows.append(f"{tile_name(option.tile)} ({option.shanten}, {option.effective_count})")
    return f" | 向听 shanten {view.shanten}, 打 discard (shanten, effective): " + ", ".join(rows)


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
