"""The table a rule set plays at: how many seats, which suits, how many tiles a hand, how
many 红中 wild tiles, and what follows from them (the wall's size, the tiles dealt).

The knobs are ``engine/rules.py``'s (``seats``, ``suits``, ``hand_size``, ``wild_tiles``,
``two_suit_void``; docs/knobs.md, "The table"); this module derives the rest, so nothing
else writes 55, 13 or four seats for a rule set that says otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.rules import Rules, RulesError
from engine.tiles import COPIES, SUITS

#: the knobs of the table: the movers ask this module, never read one (tests/test_move_core.py)
TABLE_KNOBS: Final = ("seats", "suits", "hand_size", "wild_tiles", "two_suit_void")
#: today's table, every preset's before the table knobs: four seats, three suits,
#: thirteen tiles, no wild tile
FOUR_SEATS_THREE_SUITS: Final = (4, "mps", 13, 0)


@dataclass(frozen=True)
class Table:
    """What a rule set's table knobs make: the seats, the suits' indexes in tile order
    (万 0, 筒 1, 条 2), the tiles a non-dealer is dealt, the 红中 in the wall, the wall."""

    seats: int
    suits: tuple[int, ...]
    hand_size: int
    wild_tiles: int

    @property
    def tiles(self) -> int:
        """Every tile of the set: four of each kind of the suits in play, and the 红中."""
        return COPIES * 9 * len(self.suits) + self.wild_tiles

    @property
    def dealt(self) -> int:
        """Tiles dealt: ``hand_size`` to each seat, the dealer one more."""
        return self.seats * self.hand_size + 1

    @property
    def wall_size(self) -> int:
        """Tiles left to draw after the deal (55 at today's table)."""
        return self.tiles - self.dealt

    @property
    def sets_to_win(self) -> int:
        """Sets beside the pair in a winning hand: ``(hand_size - 1) / 3``."""
        return (self.hand_size - 1) // 3


def table_of(rules: Rules) -> Table:
    return Table(
        rules.seats, tuple(SUITS.index(suit) for suit in rules.suits), rules.hand_size, rules.wild_tiles
    )


def replay_refusal(rules: Rules) -> str | None:
    """Why the tile replay cannot play this table yet, or None: the engine deals four seats
    of three suits and thirteen tiles with no wild tile; a tile deal at any other table is
    refused with these words, never replayed as if it were today's. A score-sheet deal has
    no tiles to deal and is audited at any table (``engine/sheet.py``)."""
    table = (rules.seats, rules.suits, rules.hand_size, rules.wild_tiles)
    if table == FOUR_SEATS_THREE_SUITS:
        return None
    return (
        f"the tile replay plays four seats, suits 'mps', 13-tile hands and no 红中 for now; "
        f"this rule set has seats {rules.seats}, suits {rules.suits!r}, hand_size {rules.hand_size}, "
        f"wild_tiles {rules.wild_tiles}"
    )


def require_replayable(rules: Rules) -> Rules:
    """``rules``, or the :class:`RulesError` of :func:`replay_refusal`."""
    refusal = replay_refusal(rules)
    if refusal is not None:
        raise RulesError(refusal)
    return rules
