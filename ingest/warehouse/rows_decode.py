"""Stored rows back into engine events: the inverse of :meth:`ingest.warehouse.rows.EventColumns.add_deal`
(the pair must agree), and the readers of values as pandas or Arrow hand them back.

The warehouse keeps every line of a complete deal in ``events``; the dashboard replays a
deal from those rows and re-scores a session under other rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from engine.events import DealEnd, DealStart, Discard, Draw, Exchange, Hu, Kong, PlayEvent, Pong, Void
from engine.tiles import SUITS, parse_tile, parse_tiles


def stored_int(value: Any) -> int | None:
    """A stored number (numpy, or NaN for a null in a float column) as an int or None."""
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def stored_ints(value: Any) -> tuple[int, int, int, int] | None:
    """A stored list of four numbers (one a seat) as a tuple, or None."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    items = [int(v) for v in value]
    if len(items) != 4:
        return None
    return (items[0], items[1], items[2], items[3])


def stored_seat_ints(value: Any) -> tuple[int, ...] | None:
    """A stored list of numbers one a seat of the deal's table (two to four), or None."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    items = tuple(int(v) for v in value)
    return items if 2 <= len(items) <= 4 else None


def stored_strs(value: Any) -> list[str]:
    """A stored list of strings (null: empty)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return []
    return [str(v) for v in value]


def stored_text(value: Any) -> str | None:
    """A stored string, or None for a null (NaN in a pandas column)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return str(value)


def _wall(text: str) -> tuple[int, ...]:
    """The stored wall: tile names concatenated in drawing order (``5p3m...``)."""
    return tuple(parse_tile(text[i : i + 2], wild=True) for i in range(0, len(text), 2))


#: the most tiles a hand holds (the dealer's 13 + 1); every table's wall holds more (the
#: smallest: two seats, one suit, seven-tile hands, 36 - 15 = 21 tiles)
MOST_IN_HAND = 14


def _is_wall(text: str) -> bool:
    """Whether a stored entry of the deal line is the wall (stored after the hands, one hand
    a seat: three at a three-seat table, so the entry count alone does not tell)."""
    return len(text) > 2 * MOST_IN_HAND


def events_from_rows(
    rows: Sequence[Mapping[str, Any]],
) -> tuple[DealStart, list[PlayEvent], DealEnd | None]:
    """A deal's ``events`` rows (ordered by ``seq``) back to typed events."""
    if not rows or rows[0]["type"] != "deal":
        raise ValueError("a deal's stored events begin with its deal line")
    first = rows[0]
    tiles = stored_strs(first["tiles"])
    seats = len(tiles) - 1 if tiles and _is_wall(tiles[-1]) else len(tiles)  # 4, 3 or 2 hands
    dice = first.get("deltas")
    start = DealStart(
        deal_id=str(first["deal_id"]),
        dealer=stored_int(first["seat"]) or 0,
        hands=tuple(tuple(parse_tiles(hand, wild=True)) for hand in tiles[:seats]),
        wall=_wall(tiles[seats]) if len(tiles) > seats else None,
        dice=tuple(int(d) for d in dice) if dice is not None and not isinstance(dice, float) else None,
        line=stored_int(first["line"]) or 0,
    )
    events: list[PlayEvent] = []
    end: DealEnd | None = None
    for row in rows[1:]:
        kind = row["type"]
        line = stored_int(row["line"]) or 0
        seat = stored_int(row["seat"])
        tile = parse_tile(str(row["tile"]), wild=True) if stored_text(row["tile"]) else -1
        if kind == "draw":
            events.append(Draw(seat or 0, tile, line))
        elif kind == "discard":
            events.append(Discard(seat or 0, tile, line))
        elif kind == "pong":
            events.append(Pong(seat or 0, tile, line))
        elif kind == "kong":
            events.append(Kong(seat or 0, tile, row["kind"], stored_ints(row["deltas"]), line))
        elif kind == "hu":
            patterns = row["patterns"]
            events.append(
                Hu(
                    seat or 0,
                    tile,
                    stored_int(row["from_seat"]),
                    stored_int(row["fan"]),
                    tuple(stored_strs(patterns))
                    if patterns is not None and not isinstance(patterns, float)
                    else None,
                    stored_ints(row["deltas"]),
                    line,
                )
            )
        elif kind == "void":
            events.append(Void(seat or 0, SUITS.index(str(row["kind"])), line))
        elif kind == "exchange":
            given = tuple(tuple(parse_tiles(t)) for t in stored_strs(row["tiles"]))
            events.append(Exchange(row["kind"], given, line))
        elif kind == "deal_end":
            end = DealEnd(str(row["kind"]), stored_ints(row["settlement"]), stored_ints(row["deltas"]), line)
    return start, events, end
