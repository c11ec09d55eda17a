"""Infer a seat's 定缺 (void suit) from its moves, for records that do not write it.

A seat's void suit is one it never pongs, kongs or wins on, and that its winning hand
does not hold; where the void must be discarded first (``discard_first``, the platform
turns any other discard into a void tile), also one it did not hold while it discarded
another suit. Of the suits the moves allow, one it was dealt none of wins (nothing to
play out: a seat's first discards then say nothing of its void), then the one it
discarded first (a seat plays its void suit out first), then the one it held fewest of
(the platform's own default when a seat does not choose).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.tiles import tile_name as kind_name
from ingest.logs.play_lines import KINDS

SUITS = "mps"


_NAMES: Final = tuple(kind_name(t) for t in range(27))


@dataclass(frozen=True)
class Inferred:
    """The suit chosen, the suits the moves allowed, and whether the moves decide it."""

    suit: str
    allowed: tuple[str, ...]

    @property
    def decided(self) -> bool:
        return len(self.allowed) == 1


def infer_void(
    seat: int, hand: Sequence[str], events: Sequence[dict[str, Any] | int], discard_first: bool = False
) -> Inferred:
    """The void suit of ``seat`` given its dealt ``hand`` and the deal's events in order;
    ``discard_first``: the seat could not discard another suit while it held its void.
    The seat's tiles are kept as counts (by tile and by suit), so a deal costs one pass."""
    held: dict[str, int] = {}
    in_suit = dict.fromkeys(SUITS, 0)
    for dealt_tile in hand:
        held[dealt_tile] = held.get(dealt_tile, 0) + 1
        in_suit[dealt_tile[-1]] = in_suit.get(dealt_tile[-1], 0) + 1
    dealt = dict(in_suit)

    def take(tile: str, count: int) -> None:
        gone = min(count, held.get(tile, 0))
        if gone:
            held[tile] -= gone
            in_suit[tile[-1]] -= gone

    banned: set[str] = set()
    first_discard: dict[str, int] = {}
    for i, event in enumerate(events):
        if isinstance(event, int):  # a play code: read in place (a dict each would cost more)
            if (
                event >> 2
            ) & 3 != seat:  # code_seat, code_kind, code_tile inline (play_lines is not compiled)
                continue
            kind: Any = KINDS[event & 3]
            tile: Any = _NAMES[event >> 4]
        else:
            if event.get("seat") != seat:
                continue
            kind, tile = event.get("type"), event.get("tile")
            if not isinstance(tile, str):
                continue
        suit = tile[-1]
        if kind == "draw":
            held[tile] = held.get(tile, 0) + 1
            in_suit[suit] = in_suit.get(suit, 0) + 1
        elif kind == "discard":
            first_discard.setdefault(suit, i)
            if discard_first:
                banned.update(s for s, n in in_suit.items() if n and s != suit)
            take(tile, 1)
        elif kind in ("pong", "kong"):
            banned.add(suit)
            how = kind if isinstance(event, int) else str(event.get("kind", kind))
            take(tile, {"pong": 2, "exposed": 3, "concealed": 4, "added": 1}[how])
        elif kind == "hu":
            banned.add(suit)
            banned.update(s for s, n in in_suit.items() if n)
    allowed = tuple(s for s in SUITS if s not in banned)
    pool = allowed or tuple(SUITS)
    big = len(events) + 1
    suit = min(pool, key=lambda s: (dealt[s] > 0, first_discard.get(s, big), dealt[s]))
    return Inferred(suit, allowed)
