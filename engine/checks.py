"""Compare what a recorder claimed with what the rules compute: kong and win payments,
fan and patterns, the end, the 查叫 settlement and the deal's net. Used alike by the
tile replay and the score-sheet audit, so a claim gets the same finding either way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.events import Finding
from engine.messages import (
    Text,
    end_rule,
    fan_text,
    kong_payment,
    kong_rule,
    scores_mismatch,
    settlement_mismatch,
    settlement_text,
    sheet_width,
    win_fan,
    win_patterns,
    win_payment,
    win_rule,
    wrong_reason,
)
from engine.report import NO_TILE, FindingSink
from engine.rules import Rules
from engine.settlement import Transfer, seat_deltas
from engine.state import KongMade, Win
from engine.tiles import tile_name

END_REASONS = ("three_won", "wall_exhausted", "first_hu")

#: recorded points, one a seat of the rule set's table (``seats``); a computed kong's or
#: win's deltas are four wide (:class:`engine.state.KongMade`), the seats past the table's
#: always 0, so they are compared as far as the table goes
Four = tuple[int, ...]


def finding(
    code: str,
    line: int | None,
    seat: int | None,
    text: Text,
    sink: FindingSink,
    *,
    expected: Any = None,
    recorded: Any = None,
    rule: str | None = None,
) -> None:
    """Add one finding with its message in both languages."""
    sink.add(
        Finding(
            code,
            line,
            seat,
            text.en,
            expected=expected,
            recorded=recorded,
            rule=rule,
            file=sink.file,
            message_zh=text.zh,
            message_key=text.key,
            message_values=text.values,
        )
    )


def _tile(tile: int) -> str:
    return tile_name(tile) if tile != NO_TILE else "?"


def table_width(
    values: Four | None, field: str, line: int | None, seat: int | None, rules: Rules, sink: FindingSink
) -> Four | None:
    """A recorded list of points of one entry a seat, or None (left unchecked, with a
    ``bad_record`` finding, rule ``seats``) when it has another count than the table's."""
    seats = rules.seats
    if values is None or len(values) == seats:
        return values
    text = sheet_width(field, len(values), seats, rules)
    finding("bad_record", line, seat, text, sink, expected=seats, recorded=list(values), rule="seats")
    return None


def check_kong(made: KongMade, recorded: Four | None, rules: Rules, sink: FindingSink) -> None:
    computed = made.deltas[: rules.seats]
    recorded = table_width(recorded, "deltas", made.line, made.seat, rules, sink)
    if recorded is None or tuple(recorded) == computed:
        return
    rule = kong_rule(made.kind, rules, made.robbed)
    expected, got = list(computed), list(recorded)
    finding(
        "payment_mismatch", made.line, made.seat, kong_payment(made.seat, _tile(made.tile), rule, expected, got),
        sink, expected=expected, recorded=got,
        rule=f"{made.kind}_kong" if not made.robbed else "qiangganghu",
    )  # fmt: skip


def check_win(
    win: Win,
    fan: int | None,
    patterns: Sequence[str] | None,
    recorded: Four | None,
    rules: Rules,
    sink: FindingSink,
) -> None:
    """The recorded fan, patterns and deltas of a win against the computed ones."""
    result = win.result
    fans = fan_text(result.patterns, result.fan, result.uncapped, rules)
    tile = _tile(win.tile)
    if fan is not None and fan != result.fan:
        finding(
            "fan_mismatch", win.line, win.seat, win_fan(win.seat, tile, fans, rules, fan), sink,
            expected=result.fan, recorded=fan, rule="fan",
        )  # fmt: skip
    if patterns is not None and sorted(patterns) != sorted(result.patterns):
        finding(
            "fan_mismatch", win.line, win.seat, win_patterns(win.seat, tile, fans, rules, list(patterns)), sink,
            expected=list(result.patterns), recorded=list(patterns), rule="fan",
        )  # fmt: skip
    computed = win.deltas[: rules.seats]
    recorded = table_width(recorded, "deltas", win.line, win.seat, rules, sink)
    if recorded is not None and tuple(recorded) != computed:
        fed_alone = win.kind in ("kong_bloom", "self_draw") and any(
            t.reason == "win_discard" for t in win.transfers
        )
        rule = win_rule(result.fan, win.kind, fed_alone, rules)
        expected, got = list(computed), list(recorded)
        finding(
            "payment_mismatch", win.line, win.seat, win_payment(win.seat, fans, rule, rules, expected, got), sink,
            expected=expected, recorded=got, rule="payments",
        )  # fmt: skip


def check_end(
    end_reason: str | None,
    recorded_reason: str,
    line: int,
    settlement: Sequence[Transfer],
    ledger: Sequence[Transfer],
    recorded: tuple[Four | None, Four | None],
    rules: Rules,
    sink: FindingSink,
) -> None:
    """The end reason, the 查叫 settlement and the deal's net; ``recorded`` is the
    deal_end's (settlement, scores)."""
    if recorded_reason not in END_REASONS or recorded_reason != end_reason:
        finding(
            "wrong_end", line, None, wrong_reason(end_reason, end_rule(rules), recorded_reason),
            sink, expected=end_reason, recorded=recorded_reason,
        )  # fmt: skip
    computed = seat_deltas(settlement, rules.seats)
    claimed = table_width(recorded[0], "settlement", line, None, rules, sink)
    scores_claimed = table_width(recorded[1], "scores", line, None, rules, sink)
    if claimed is not None and tuple(claimed) != computed:
        text = settlement_mismatch(rules, settlement_text(settlement), list(computed), list(claimed))
        finding(
            "payment_mismatch", line, None, text, sink,
            expected=list(computed), recorded=list(claimed), rule="cha_jiao",
        )  # fmt: skip
    scores = seat_deltas(ledger, rules.seats)
    if scores_claimed is not None and tuple(scores_claimed) != scores:
        text = scores_mismatch(rules, list(scores), list(scores_claimed))
        finding(
            "score_mismatch", line, None, text, sink, expected=list(scores), recorded=list(scores_claimed)
        )
