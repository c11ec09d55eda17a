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
#: the table knobs of the table every platform and the C moves play: four seats, three
#: suits, thirteen tiles, no wild tile
FOUR_SEATS_THREE_SUITS: Final = (4, "mps", 13, 0)


@dataclass(frozen=True)
class Table:
    """What a rule set's table knobs make: the players (``seats``), the suits' indexes in tile
    order (万 0, 筒 1, 条 2), the tiles a non-dealer is dealt (``hand_size``), the 红中 in the
    wall; whether it is
    today's table (the one the C moves and the fast check play) and, for each of the 27
    suited kinds, whether the set holds it."""

    players: int
    suits: tuple[int, ...]
    hand: int
    wild_tiles: int
    today: bool
    kinds: tuple[bool, ...]
    kinds_mask: int  # ``kinds`` as bits (bit ``t``: kind ``t``), for the C moves and 红中 readings

    @property
    def wild_copies(self) -> int:
        """红中 in the set (0: a table without them), under a name of the table's own: the
        movers never name a knob (tests/test_move_core.py)."""
        return self.wild_tiles

    @property
    def order(self) -> tuple[int, ...]:
        """The seats that play, in turn order."""
        return tuple(range(self.players))

    @property
    def tiles(self) -> int:
        """Every tile of the set: four of each kind of the suits in play, and the 红中."""
        return COPIES * 9 * len(self.suits) + self.wild_tiles

    @property
    def dealt(self) -> int:
        """Tiles dealt: ``hand`` to each seat, the dealer one more."""
        return self.players * self.hand + 1

    @property
    def wall_size(self) -> int:
        """Tiles left to draw after the deal (55 at today's table)."""
        return self.tiles - self.dealt

    @property
    def sets_to_win(self) -> int:
        """Sets beside the pair in a winning hand: ``(hand - 1) / 3``."""
        return (self.hand - 1) // 3


def _table(seats: int, letters: str, hand: int, wild_tiles: int) -> Table:
    """The :class:`Table` of these table knobs (``letters``: a plain str, as mypyc cannot
    iterate a Literal type)."""
    suits = tuple(SUITS.index(suit) for suit in letters)
    return Table(
        seats, suits, hand, wild_tiles,
        (seats, letters, hand, wild_tiles) == FOUR_SEATS_THREE_SUITS,
        tuple(tile // 9 in suits for tile in range(9 * len(SUITS))),
        sum(0x1FF << (9 * suit) for suit in suits),
    )  # fmt: skip


#: the four-seat table of 108 tiles, 13 a hand: the one the C moves and the fast check
#: play and the platforms' records are dealt at (its ``dealt`` and ``wall_size``: 53, 55)
FOUR_SEAT_TABLE: Final = _table(*FOUR_SEATS_THREE_SUITS)

#: by rule set name (a name says every knob): every deal asks at its deal-in
_TABLES: dict[str, Table] = {}


def table_of(rules: Rules) -> Table:
    """The :class:`Table` of ``rules`` (worked out once per rule set)."""
    found = _TABLES.get(rules.name)
    if found is None:
        found = _table(rules.seats, rules.suits, rules.hand_size, rules.wild_tiles)
        _TABLES[rules.name] = found
    return found


def replay_refusal(rules: Rules) -> str | None:
    """Why the tile replay cannot play this table yet, or None. The engine deals any number
    of seats (4, 3, 2) of any suits and hand size, with or without 红中, 换三张 without
    红中 only. A tile deal at any other table is refused with these words, never replayed
    as if it were another. A score-sheet deal has no tiles to deal and is audited at any
    table (``engine/sheet.py``)."""
    if table_of(rules).today:
        return None
    if rules.wild_tiles and rules.exchange_three:
        return (
            f"the tile replay plays 换三张 (exchange_three) without 红中 only for now; this rule set has "
            f"wild_tiles {rules.wild_tiles}"
        )
    return None


def require_replayable(rules: Rules) -> Rules:
    """``rules``, or the :class:`RulesError` of :func:`replay_refusal`."""
    refusal = replay_refusal(rules)
    if refusal is not None:
        raise RulesError(refusal)
    return rules
