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


def is_four_seats_three_suits(rules: Rules) -> bool:
    """Today's table (four seats, 'mps', 13 tiles, no 红中): the one the C moves and the fast
    check play; every other table is the explaining engine's."""
    return (rules.seats, rules.suits, rules.hand_size, rules.wild_tiles) == FOUR_SEATS_THREE_SUITS


def wall_tiles(rules: Rules) -> int:
    """The tiles left to draw after the deal (55 at today's table)."""
    return table_of(rules).wall_size


def kinds_in_set(rules: Rules) -> tuple[bool, ...]:
    """For each of the 27 suited kinds: is it in the table's set (its suit in the wall)?"""
    suits = table_of(rules).suits
    return tuple(tile // 9 in suits for tile in range(9 * len(SUITS)))


@dataclass(frozen=True)
class DealTable:
    """What one deal's state asks of its table, worked out once per rule set: the seats that
    play (in turn order), the wall's size, a non-dealer's tiles, whether it is today's table,
    and for each of the 27 suited kinds whether the set holds it."""

    players: int
    order: tuple[int, ...]
    wall: int
    dealt: int
    today: bool
    kinds: tuple[bool, ...]


#: by rule set name (a name says every knob): a deal asks at every deal-in
_DEAL_TABLES: dict[str, DealTable] = {}


def deal_table(rules: Rules) -> DealTable:
    """The :class:`DealTable` of ``rules`` (cached by name)."""
    found = _DEAL_TABLES.get(rules.name)
    if found is None:
        table = table_of(rules)
        found = DealTable(
            table.seats, tuple(range(table.seats)), table.wall_size, table.hand_size,
            is_four_seats_three_suits(rules), kinds_in_set(rules),
        )  # fmt: skip
        _DEAL_TABLES[rules.name] = found
    return found


def replay_refusal(rules: Rules) -> str | None:
    """Why the tile replay cannot play this table yet, or None. The engine deals any number
    of seats (4, 3, 2) of any suits and hand size with no wild tile; 换三张 only at four
    seats. A tile deal at any other table is refused with these words, never replayed as
    if it were another. A score-sheet deal has no tiles to deal and is audited at any
    table (``engine/sheet.py``)."""
    table = (rules.seats, rules.suits, rules.hand_size, rules.wild_tiles)
    if table == FOUR_SEATS_THREE_SUITS:
        return None
    if rules.wild_tiles:
        return (
            f"the tile replay plays no 红中 (wild_tiles 0) for now; this rule set has seats {rules.seats}, "
            f"suits {rules.suits!r}, hand_size {rules.hand_size}, wild_tiles {rules.wild_tiles}"
        )
    if rules.exchange_three and rules.seats != 4:
        return (
            f"the tile replay plays 换三张 (exchange_three) at four seats only for now; "
            f"this rule set has seats {rules.seats}"
        )
    return None


def require_replayable(rules: Rules) -> Rules:
    """``rules``, or the :class:`RulesError` of :func:`replay_refusal`."""
    refusal = replay_refusal(rules)
    if refusal is not None:
        raise RulesError(refusal)
    return rules
