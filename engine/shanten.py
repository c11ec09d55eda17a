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
        return _table(self.wild)


#: the two tables once fetched, each when first asked for (a call into
#: engine.shanten_table, not compiled, a hand cost more than the hand's shanten)
_FETCHED: list[bytes] = [b"", b""]


def _table(wild: bool) -> bytes:
    index = 1 if wild else 0
    table = _FETCHED[index]
    if not table:
        table = _FETCHED[index] = suit_table(8 if wild else 4)
    return table


_SITUATIONS: dict[tuple[str, tuple[int, ...], int, bool], Situation] = {}


def situation(
    rules: Rules | None = None, melds: Sequence[int] = (), void: int | None = None, wild: bool = False
) -> Situation:
    """The :class:`Situation` of a seat with ``melds`` (one tile per pong or kong) and
    ``void`` (its 定缺 suit, or None) at the ``rules`` table (default: today's, 13 tiles,
    three suits, 缺一门). ``wild``: the seat holds or may draw 红中."""
    memo = ("" if rules is None else rules.name, tuple(sorted(melds)), -1 if void is None else void, wild)
    known = _SITUATIONS.get(memo)
    if known is None:
        known = _SITUATIONS[memo] = _situation(rules, melds, void, wild)
    return known


def _situation(rules: Rules | None, melds: Sequence[int], void: int | None, wild: bool) -> Situation:
    hand_size = 13 if rules is None else rules.hand_size
    table_suits = [0, 1, 2] if rules is None else [SUITS.index(letter) for letter in str(rules.suits)]
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


#: entries a memo keeps before it starts again (a few dozen bytes each: a long-running
#: server's memory stays bounded)
_MEMO_LIMIT: Final = 400_000
#: (suit key, the table: 1 for the 红中 one) as one int -> :func:`_suit_moves`
_MOVES: dict[int, list[int]] = {}
_NO_SEVENS: Final[list[tuple[int, ...]]] = []
#: the 27 kinds' bits of a mask (bit 27 is a drawn 红中)
_KINDS_MASK: Final = (1 << NUM_KINDS) - 1


def _suit_moves(table: bytes, wild: int, key: int) -> list[int]:
    """A suit key's moves, worked out once (suit keys repeat from hand to hand): for each
    table entry ``e`` (``2j + p``), the ranks one more of which lowers it (item ``e``) and
    the ranks one fewer of which keeps it (item ``10 + e``), each as bits 0-8."""
    memo = key * 2 + wild
    known = _MOVES.get(memo)
    if known is not None:
        return known
    moves = [0] * 20
    here = key * 10
    rest = key
    for rank in range(9):
        count = rest % 5
        bit = 1 << rank
        if count < COPIES:
            there = here + _STEP[rank] * 10
            for index in range(10):
                if table[there + index] < table[here + index]:
                    moves[index] |= bit
        if count:
            there = here - _STEP[rank] * 10
            for index in range(10):
                if table[there + index] == table[here + index]:
                    moves[10 + index] |= bit
        rest //= 5
    if len(_MOVES) > _MEMO_LIMIT // 4:
        _MOVES.clear()
    _MOVES[memo] = moves
    return moves


def _suit_ranks(moves: list[int], entries: int, offset: int) -> int:
    """The ranks one more of which lowers (``offset`` 0), or one fewer of which keeps
    (``offset`` 10), some of the ``entries`` (bit ``2j + p``) of the suit whose
    :func:`_suit_moves` are ``moves``."""
    mask = 0
    index = offset
    while entries:
        if entries & 1:
            mask |= moves[index]
        entries >>= 1
        index += 1
    return mask


def _entry_list(entries: int) -> list[int]:
    return [index for index in range(10) if entries >> index & 1]


class Hand13:
    """A hand's counts with its suit keys and pair counts kept, so that trying a tile in
    or out is a few additions (the review tries every one)."""

    def __init__(
        self, counts: Sequence[int], sit: Situation, wilds: int = 0, keys: Sequence[int] | None = None
    ) -> None:
        """``keys``: the counts' three suit keys where the caller keeps them (the engine's
        deal state does); the pairs are counted only where seven pairs may be read."""
        self.counts = list(counts)
        self.sit = sit
        self.wilds = wilds
        self.keys = suit_keys(counts) if keys is None else list(keys)
        self.pairs = _pairs(counts) if sit.seven_pairs else [0, 0, 0, 0, 0, 0]
        self.table = sit.table()
        self.missing = -1  # set by :meth:`discard_shantens`
        # the last :func:`_suit_moves` fetched a suit and its key: trying the discards of a
        # hand changes one suit at a time, the others' moves are reused
        self.move_keys = [-1, -1, -1]
        self.moves: list[list[int]] = [[], [], []]

    def suit_moves(self, suit: int) -> list[int]:
        """:func:`_suit_moves` of the suit's key now."""
        key = self.keys[suit]
        if self.move_keys[suit] != key:
            self.moves[suit] = _suit_moves(self.table, 1 if self.sit.wild else 0, key)
            self.move_keys[suit] = key
        return self.moves[suit]

    def add(self, tile: int, delta: int) -> None:
        """One tile in (``delta`` 1) or out (-1); a 红中 is :data:`engine.tiles.WILD`."""
        self.missing = -1
        if tile == WILD:
            self.wilds += delta
            return
        counts = self.counts
        suit = _SUIT[tile]
        before = counts[tile]
        after = before + delta
        counts[tile] = after
        self.keys[suit] += delta * _STEP[tile]
        if self.sit.seven_pairs:
            self.pairs[2 * suit] += (after >> 1) - (before >> 1)
            self.pairs[2 * suit + 1] += (after & 1) - (before & 1)

    def shanten(self) -> int:
        if self.missing >= 0:
            return _from_missing(self.missing, self.wilds)
        return _from_missing(_missing(self.table, self.keys, self.pairs, self.sit), self.wilds)

    def tight(self) -> tuple[int, list[list[int]], list[tuple[int, ...]], list[bool]]:
        """The hand's missing count, and what holds it there: per suit, the table entries
        (``2j + p``) some best reading takes from it, and the suit choices whose seven
        pairs are a best reading. One tile in lowers a suit's entry by at most one, one out
        raises it by at most one, so a tile changes the count only through these: the
        effective tiles and the discards' shanten are a look-up or two each. Last, per
        suit: whether some best regular reading keeps none of it (a tile of it out then
        changes nothing)."""
        best, e0, e1, e2, sevens, free = self._tight()
        per_suit = [_entry_list(e0), _entry_list(e1), _entry_list(e2)]
        return best, per_suit, sevens, [bool(free & 1), bool(free & 2), bool(free & 4)]

    def _tight(self) -> tuple[int, int, int, int, list[tuple[int, ...]], int]:
        """:meth:`tight` with each suit's entries as a mask (bit ``2j + p``) and the free
        suits as a mask (bit ``suit``): no list built."""
        table, keys, sit = self.table, self.keys, self.sit
        n = sit.sets
        best = _FAR
        e0 = e1 = e2 = 0
        free = 0
        for choice in sit.choices:
            # the choice's cost (never above _FAR) and the entries its best readings take
            # from each suit (bit ``2j + p``)
            size = len(choice)
            if size == 2:
                x = choice[0]
                y = choice[1]
                a = keys[x] * 10
                b = keys[y] * 10
                cost = _FAR
                first = second = 0
                for j in range(n + 1):
                    k = n - j
                    one = table[a + 2 * j + 1] + table[b + 2 * k]  # the pair in the first suit
                    two = table[a + 2 * j] + table[b + 2 * k + 1]
                    if one < cost:
                        cost = one
                        first = second = 0
                    if one == cost:
                        first |= 1 << (2 * j + 1)
                        second |= 1 << (2 * k)
                    if two < cost:
                        cost = two
                        first = second = 0
                    if two == cost:
                        first |= 1 << (2 * j)
                        second |= 1 << (2 * k + 1)
                m0 = (first if x == 0 else 0) | (second if y == 0 else 0)
                m1 = (first if x == 1 else 0) | (second if y == 1 else 0)
                m2 = (first if x == 2 else 0) | (second if y == 2 else 0)
            elif size == 1:
                x = choice[0]
                cost = table[keys[x] * 10 + 2 * n + 1]
                only = 1 << (2 * n + 1)
                m0 = only if x == 0 else 0
                m1 = only if x == 1 else 0
                m2 = only if x == 2 else 0
            else:  # three suits kept (no table plays it today): every split in full
                cost = _regular(table, keys, n, choice)
                parts = [0, 0, 0]
                a, b, c = keys[choice[0]] * 10, keys[choice[1]] * 10, keys[choice[2]] * 10
                for j in range(n + 1):
                    for k in range(n - j + 1):
                        m = n - j - k
                        for p0, p1, p2 in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
                            if table[a + 2 * j + p0] + table[b + 2 * k + p1] + table[c + 2 * m + p2] == cost:
                                parts[choice[0]] |= 1 << (2 * j + p0)
                                parts[choice[1]] |= 1 << (2 * k + p1)
                                parts[choice[2]] |= 1 << (2 * m + p2)
                m0, m1, m2 = parts[0], parts[1], parts[2]
            if cost > best:
                continue
            if cost < best:
                best = cost
                e0 = e1 = e2 = free = 0
            e0 |= m0
            e1 |= m1
            e2 |= m2
            # a suit no best reading of this choice takes from: a tile of it out changes nothing
            free |= (0 if m0 else 1) | (0 if m1 else 2) | (0 if m2 else 4)
        sevens = _NO_SEVENS  # never added to: a list of its own once seven pairs count
        if sit.seven_pairs:
            sevens = []
            for choice in sit.choices:
                seven = _seven(self.pairs, choice)
                if seven < best:
                    best = seven
                    e0 = e1 = e2 = free = 0
                    sevens = []
                if seven == best:
                    sevens.append(choice)
        return best, e0, e1, e2, sevens, free

    def _seven_moves(self, sevens: list[tuple[int, ...]], tile: int, delta: int, best: int) -> bool:
        """Whether a tile in (out) lowers (keeps) some best seven-pairs reading."""
        suit = _SUIT[tile]
        count = self.counts[tile]
        pairs = list(self.pairs)
        after = count + delta
        pairs[2 * suit] += (after >> 1) - (count >> 1)
        pairs[2 * suit + 1] += (after & 1) - (count & 1)
        for choice in sevens:
            if suit not in choice:
                if delta < 0:
                    return True  # a reading without the tile's suit keeps its count
                continue
            seven = _seven(pairs, choice)
            if (seven < best) if delta > 0 else (seven == best):
                return True
        return False

    def effective_mask(self) -> tuple[int, bool]:
        """The kinds whose draw lowers the shanten of this hand (waiting to draw) as a
        27-bit mask, and whether a drawn 红中 does; a kind held four times never is."""
        known = self._effective_mask()
        return known & _KINDS_MASK, bool(known >> NUM_KINDS)

    def _effective_mask(self) -> int:
        """:meth:`effective_mask` as one int (bit 27: a 红中), worked out each time: a
        memo of whole hands missed more than it found and cost more than the work."""
        best, e0, e1, e2, sevens, _ = self._tight()
        now = _from_missing(best, self.wilds)
        mask = 0
        if _from_missing(best - 1, self.wilds) < now:  # one tile fewer missing helps
            counts = self.counts
            if e0:
                mask |= _suit_ranks(self.suit_moves(0), e0, 0)
            if e1:
                mask |= _suit_ranks(self.suit_moves(1), e1, 0) << 9
            if e2:
                mask |= _suit_ranks(self.suit_moves(2), e2, 0) << 18
            for choice in sevens:  # a best seven-pairs reading: a single paired, or a new single
                held = 0
                single = 0
                for suit in choice:
                    held += self.pairs[2 * suit]
                    single += self.pairs[2 * suit + 1]
                lack = 7 - held
                if lack <= 0:
                    continue
                for suit in choice:
                    for tile in range(9 * suit, 9 * suit + 9):
                        count = counts[tile]
                        if count < COPIES and (count & 1 or single < lack):
                            mask |= 1 << tile
        if _from_missing(best, self.wilds + 1) < now:
            mask |= 1 << NUM_KINDS
        return mask

    def effective_count(self, left: Sequence[int], wild_left: int = 0) -> int:
        """The copies left (``left``, each at least 0) of :meth:`effective`'s kinds."""
        mask = self._effective_mask()
        total = wild_left if mask >> NUM_KINDS and wild_left > 0 else 0
        mask &= _KINDS_MASK
        while mask:
            low = mask & -mask
            total += left[low.bit_length() - 1]
            mask ^= low
        return total

    def effective(
        self, left: Sequence[int], wild_left: int = 0, base: int | None = None
    ) -> list[tuple[int, int]]:
        """The kinds whose draw lowers the shanten of this hand (waiting to draw), each
        with ``left[tile]`` (copies the seat cannot see, never below 0); a 红中 (when
        ``wild_left`` is above 0) last. A kind the seat holds four of is never one."""
        mask, wild = self.effective_mask()
        out = [(tile, max(left[tile], 0)) for tile in range(NUM_KINDS) if mask >> tile & 1]
        if wild and wild_left > 0:
            out.append((WILD, wild_left))
        return out

    def discard_shantens(self) -> dict[int, int]:
        """For a hand that must discard: the shanten after each distinct tile held."""
        best, e0, e1, e2, sevens, free = self._tight()
        self.missing = best  # the hand's own count, for a caller that wants its shanten too
        counts = self.counts
        wilds = self.wilds
        # per suit, the ranks one fewer of which keeps the count (all where a best reading
        # keeps none of the suit)
        keep0 = 511 if free & 1 else _suit_ranks(self.suit_moves(0), e0, 10) if e0 else 0
        keep1 = 511 if free & 2 else _suit_ranks(self.suit_moves(1), e1, 10) if e1 else 0
        keep2 = 511 if free & 4 else _suit_ranks(self.suit_moves(2), e2, 10) if e2 else 0
        keeps = keep0 | keep1 << 9 | keep2 << 18
        same_shanten = _from_missing(best, wilds)
        worse = _from_missing(best + 1, wilds)
        out: dict[int, int] = {}
        for tile in range(NUM_KINDS):
            if not counts[tile]:
                continue
            same = bool(keeps >> tile & 1)
            if not same and sevens:
                same = self._seven_moves(sevens, tile, -1, best)
            out[tile] = same_shanten if same else worse
        if wilds:
            out[WILD] = _from_missing(best, wilds - 1)
        return out

    def _effective_plain(self, left: Sequence[int], wild_left: int = 0) -> list[tuple[int, int]]:
        """:meth:`effective` by trying each draw in full (the tests hold the two together)."""
        base = self.shanten()
        out: list[tuple[int, int]] = []
        for tile in range(NUM_KINDS):
            if self.counts[tile] >= COPIES:
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
        out: list[Option] = []
        for tile, after in self.discard_shantens().items():
            self.add(tile, -1)
            out.append(Option(tile, after, tuple(self.effective(left, wild_left))))
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
