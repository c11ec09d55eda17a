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
from typing import Any

SUITS = "mps"


@dataclass(frozen=True)
class Inferred:
    """The suit chosen, the suits the moves allowed, and whether the moves decide it."""

    suit: str
    allowed: tuple[str, ...]

    @property
    def decided(self) -> bool:
        return len(self.allowed) == 1


def infer_void(
    seat: int, hand: Sequence[str], events: Sequence[dict[str, Any]], discard_first: bool = False
) -> Inferred:
    """The void suit of ``seat`` given its dealt ``hand`` and the deal's events in order;
    ``discard_first``: the seat could not discard another suit while it held its void."""
    held = list(hand)
    banned: set[str] = set()
    first_discard: dict[str, int] = {}
    for i, event in enumerate(events):
        kind = event.get("type")
        tile = event.get("tile")
        if event.get("seat") != seat or not isinstance(tile, str):
            continue
        if kind == "draw":
            held.append(tile)
        elif kind == "discard":
            first_discard.setdefault(tile[-1], i)
            if discard_first:
                banned.update(t[-1] for t in held if t[-1] != tile[-1])
            if tile in held:
                held.remove(tile)
        elif kind in ("pong", "kong"):
            banned.add(tile[-1])
            gone = {"pong": 2, "exposed": 3, "concealed": 4, "added": 1}[str(event.get("kind", kind))]
            for _ in range(gone):
                if tile in held:
                    held.remove(tile)
        elif kind == "hu":
            banned.add(tile[-1])
            banned.update(t[-1] for t in held)
    allowed = tuple(s for s in SUITS if s not in banned)
    pool = allowed or tuple(SUITS)
    big = len(events) + 1
    dealt = {s: sum(t[-1] == s for t in hand) for s in SUITS}
    suit = min(pool, key=lambda s: (dealt[s] > 0, first_discard.get(s, big), dealt[s]))
    return Inferred(suit, allowed)
