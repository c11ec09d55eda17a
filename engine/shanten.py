"""向听数 (shanten) and 有效牌 (effective tiles) of one seat's tiles under a rule set.

Shanten is how many tiles a hand is from ready (0 = 听牌, -1 = a complete hand). It is
counted here as a distance: a hand of ``3n+1`` or ``3n+2`` concealed tiles (``n`` the sets
its melds leave) is ``missing - 1`` from ready, ``missing`` the fewest tiles it lacks for
some win (``n`` sets and a pair, or seven pairs), the tiles beyond the win thrown away.
That is the standard count ``2n - 2·sets - partial sets - (1 if a head)`` wherever that one
is right, and it is right where the standard one is not: a kind the seat holds four of is
no tile it can wait on, and the tiles of the suit a win must lack (its 定缺, or the suit
given up where three are played) are never part of the win, so a hand waiting to draw
that holds ``j`` of them is at least ``j`` from ready (``j - 1`` when it must discard
first). Seven pairs only for a 13-tile hand with no meld, four of a kind being two pairs
(龙七对); each 红中 held stands for a missing tile. It does not ask whether the tiles it
needs are left (the usual definition); :func:`effective` counts the ones that are.

The per-suit distances come from one table (:mod:`engine.shanten_table`, the base-5 suit
keys of :mod:`engine.shapes`), so a shanten is three look-ups and a few additions.
Plain typed Python for mypyc.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from engine.rules import Rules
from engine.shanten_table import suit_table
from engine.tiles import COPIES, NUM_KINDS, SUITS, WILD

#: a tile's suit and its weight in the suit's base-5 key
_SUIT: Final[tuple[int, ...]] = tuple(tile // 9 for tile in range(NUM_KINDS))
_STEP: Final[tuple[int, ...]] = tuple(5 ** (tile % 9) for tile in range(NUM_KINDS))
#: "no win can be reached" (more tiles than a hand holds)
_FAR: Final = 99
#: the shanten of a hand no tile can ever make a win (a meld of its void suit, melds in
#: more suits than a win may keep): above any real count
NO_WIN: Final = 99


@dataclass(frozen=True)
class Situation:
    """What a seat's tiles may become at its table: the sets its concealed tiles still
    make, the suits a win may keep (each choice one tuple; a melded suit is in every
    choice, the void suit in none), whether seven pairs count, and the table the
    distances come from (``wild``: a 红中 may be a fifth copy)."""

    sets: int
    choices: tuple[tuple[int, ...], ...]
    seven_pairs: bool
    wild: bool = False

    def table(self) -> bytes:
        return suit_table(8 if self.wild else 4)


def situation(
    rules: Rules | None = None, melds: Sequence[int] = (), void: int | None = None, wild: bool = False
) -> Situation:
    """The :class:`Situation` of a seat with ``melds`` (one tile per pong or kong) and
    ``void`` (its 定缺 suit, or None) at the ``rules`` table (default: today's, 13 tiles,
    three suits, 缺一门). ``wild``: the seat holds or may draw 红中."""
    hand_size = 13 if rules is None else rules.hand_size
    table_suits = [0, 1, 2] if rules is None else [SUITS.index(letter) for letter in rules.suits]
    if rules is None:
        limit = 2
    else:
        from engine.wilds import suit_limit

        limit = suit_limit(rules)
    allowed = [suit for suit in table_suits if suit != void]
    size = min(limit, len(allowed))
    melded = sorted({tile // 9 for tile in melds})
    # a meld of the void suit, or melds in more suits than a win may keep: no choice, no win
    choices = tuple(choice for choice in combinations(allowed, size) if all(s in choice for s in melded))
    sets = (hand_size - 1) // 3 - len(melds)
    return Situation(max(sets, 0), choices, hand_size == 13 and not melds, wild)


def suit_keys(counts: Sequence[int]) -> list[int]:
    """The three base-5 suit keys of 27 counts (:func:`engine.shapes.suit_keys`)."""
    keys = [0, 0, 0]
    for tile in range(NUM_KINDS):
        keys[_SUIT[tile]] += counts[tile] * _STEP[tile]
    return keys


def _pairs(counts: Sequence[int]) -> list[int]:
    """Per suit: pairs (four of a kind is two) then single tiles left over, six numbers."""
    out = [0, 0, 0, 0, 0, 0]
    for tile in range(NUM_KINDS):
        count = counts[tile]
        suit = _SUIT[tile]
        out[2 * suit] += count >> 1
        out[2 * suit + 1] += count & 1
    return out


def _regular(table: bytes, keys: Sequence[int], sets: int, choice: tuple[int, ...]) -> int:
    """Fewest tiles missing for ``sets`` sets and a pair in the suits of ``choice``."""
    if len(choice) == 1:
        return table[keys[choice[0]] * 10 + 2 * sets + 1]
    a = keys[choice[0]] * 10
    b = keys[choice[1]] * 10
    best = _FAR
    if len(choice) == 2:
        for j in range(sets + 1):
            k = sets - j
            one = table[a + 2 * j + 1] + table[b + 2 * k]
            two = table[a + 2 * j] + table[b + 2 * k + 1]
            if one < best:
                best = one
            if two < best:
                best = two
        return best
    c = keys[choice[2]] * 10
    for j in range(sets + 1):
        for k in range(sets - j + 1):
            m = sets - j - k
            for cost in (
                table[a + 2 * j + 1] + table[b + 2 * k] + table[c + 2 * m],
                table[a + 2 * j] + table[b + 2 * k + 1] + table[c + 2 * m],
                table[a + 2 * j] + table[b + 2 * k] + table[c + 2 * m + 1],
            ):
                if cost < best:
                    best = cost
    return best


def _seven(pairs: Sequence[int], choice: tuple[int, ...]) -> int:
    """Fewest tiles missing for seven pairs in the suits of ``choice``."""
    held = 0
    single = 0
    for suit in choice:
        held += pairs[2 * suit]
        single += pairs[2 * suit + 1]
    lack = 7 - held if held < 7 else 0
    paired = single if single < lack else lack
    return paired + 2 * (lack - paired)


def _missing(table: bytes, keys: Sequence[int], pairs: Sequence[int], sit: Situation) -> int:
    best = _FAR
    for choice in sit.choices:
        cost = _regular(table, keys, sit.sets, choice)
        if sit.seven_pairs:
            seven = _seven(pairs, choice)
            if seven < cost:
                cost = seven
        if cost < best:
            best = cost
    return best


def _from_missing(missing: int, wilds: int) -> int:
    if missing >= _FAR:
        return NO_WIN
    return (missing - wilds if missing > wilds else 0) - 1


def shanten(counts: Sequence[int], sit: Situation, wilds: int = 0) -> int:
    """向听数 of the concealed ``counts`` (27 kinds, 3n+1 or 3n+2 tiles with ``wilds``) and
    ``wilds`` 红中: 0 ready, -1 complete (a win's shape, 缺一门 and 定缺 kept)."""
    return _from_missing(_missing(sit.table(), suit_keys(counts), _pairs(counts), sit), wilds)


@dataclass(frozen=True)
class Option:
    """One distinct discard of a hand that must discard: the shanten after it, and the
    effective tiles of the hand it leaves (``(tile, left)``, tile order)."""

    tile: int
    shanten: int
    effective: tuple[tuple[int, int], ...]

    @property
    def effective_count(self) -> int:
        return sum(left for _, left in self.effective)


class Hand13:
    """A hand's counts with its suit keys and pair counts kept, so that trying a tile in
    or out is a few additions (the review tries every one)."""

    def __init__(self, counts: Sequence[int], sit: Situation, wilds: int = 0) -> None:
        self.counts = list(counts)
        self.sit = sit
        self.wilds = wilds
        self.keys = suit_keys(counts)
        self.pairs = _pairs(counts)
        self.table = sit.table()

    def add(self, tile: int, delta: int) -> None:
        """One tile in (``delta`` 1) or out (-1); a 红中 is :data:`engine.tiles.WILD`."""
        if tile == WILD:
            self.wilds += delta
            return
        counts = self.counts
        suit = _SUIT[tile]
        before = counts[tile]
        after = before + delta
        counts[tile] = after
        self.keys[suit] += delta * _STEP[tile]
        self.pairs[2 * suit] += (after >> 1) - (before >> 1)
        self.pairs[2 * suit + 1] += (after & 1) - (before & 1)

    def shanten(self) -> int:
        return _from_missing(_missing(self.table, self.keys, self.pairs, self.sit), self.wilds)

    def effective(
        self, left: Sequence[int], wild_left: int = 0, base: int | None = None
    ) -> list[tuple[int, int]]:
        """The kinds whose draw lowers the shanten of this hand (waiting to draw), each
        with ``left[tile]`` (copies the seat cannot see, never below 0); a 红中 (when
        ``wild_left`` is above 0) last. A kind the seat holds four of is never one."""
        if base is None:
            base = self.shanten()
        out: list[tuple[int, int]] = []
        counts = self.counts
        kept = 0
        for choice in self.sit.choices:
            for suit in choice:
                kept |= 1 << suit
        for tile in range(NUM_KINDS):
            if not kept >> _SUIT[tile] & 1 or counts[tile] >= COPIES or left[tile] < 0:
                continue
            self.add(tile, 1)
            if self.shanten() < base:
                out.append((tile, max(left[tile], 0)))
            self.add(tile, -1)
        if wild_left > 0:
            self.wilds += 1
            if self.shanten() < base:
                out.append((WILD, wild_left))
            self.wilds -= 1
        return out

    def options(self, left: Sequence[int], wild_left: int = 0) -> list[Option]:
        """For a hand that must discard: one :class:`Option` per distinct tile held, best
        first (lowest shanten, then most effective tiles, then tile order)."""
        held = [tile for tile in range(NUM_KINDS) if self.counts[tile]]
        if self.wilds:
            held.append(WILD)
        out: list[Option] = []
        for tile in held:
            self.add(tile, -1)
            after = self.shanten()
            out.append(Option(tile, after, tuple(self.effective(left, wild_left, after))))
            self.add(tile, 1)
        out.sort(key=lambda option: (option.shanten, -option.effective_count, option.tile))
        return out


@dataclass(frozen=True)
class ShantenReport:
    """A hand's shanten; waiting to draw, its effective tiles; else its discards, best first."""

    shanten: int
    effective: tuple[tuple[int, int], ...] = ()
    discards: tuple[Option, ...] = ()


def analyse_shanten(
    counts: Sequence[int],
    pongs: Sequence[int],
    kongs: Sequence[int],
    wilds: int,
    rules: Rules,
    void: int | None = None,
    left: Sequence[int] | None = None,
    wild_left: int | None = None,
) -> ShantenReport:
    """The shanten view of one seat's tiles (``chuanma hand``): ``left`` defaults to what
    the hand alone cannot see (4 less its concealed and melded copies), ``wild_left`` to
    the table's 红中 less the ones held."""
    sit = situation(rules, (*pongs, *kongs), void, wild=bool(rules.wild_tiles))
    if left is None:
        left = unseen_alone(counts, (*pongs, *kongs), kongs)
    if wild_left is None:
        wild_left = rules.wild_tiles - wilds
    hand = Hand13(counts, sit, wilds)
    now = hand.shanten()
    size = sum(counts) + wilds
    if size % 3 == 1:
        return ShantenReport(now, tuple(hand.effective(left, wild_left, now)))
    return ShantenReport(now, (), tuple(hand.options(left, wild_left)))


def unseen_alone(counts: Sequence[int], melds: Sequence[int], kong_tiles: Sequence[int] = ()) -> list[int]:
    """Copies a hand alone cannot see: 4 less its concealed copies, less its melds' (a
    pong three, a kong four)."""
    left = [COPIES - count for count in counts]
    for tile in melds:
        left[tile] -= 3
    for tile in kong_tiles:
        left[tile] -= 1
    return left


__all__ = [
    "NO_WIN",
    "Hand13",
    "Option",
    "ShantenReport",
    "Situation",
    "analyse_shanten",
    "shanten",
    "situation",
    "suit_keys",
    "unseen_alone",
]
