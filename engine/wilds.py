"""红中 wild tiles (癞子) and the table's suits at the level of one hand: which suits a win
may hold, and the fan of a win whose 红中 stand for tiles.

A 红中 stands for any tile of the table's suits, in a set or in the pair, as many times as
the hand holds one (a wild is no copy of a tile; docs/decisions.md, "红中"). A win with
红中 scores its **best reading**: of every substitution of its 红中 by tiles, the one
with the highest fan under the rule set (``fan_combination`` included), its roots
counted on the substituted hand. The shape test itself is ``engine.shapes.wild_win``;
this module is the slow part, run only for a hand that holds a 红中 (compiled with mypyc).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.fan import (
    FEATURE_BITS,
    FanResult,
    WinContext,
    count_roots,
    feature_bits,
    price_features,
    shape_features,
)
from engine.rules import Rules
from engine.shapes import ALL_TERMINAL, ALL_TRIPLETS, concealed_wait_mask, wild_needs
from engine.table import table_of
from engine.tiles import NUM_KINDS, WILD

_WIN: Final = FEATURE_BITS["win"]
_ONE_SUIT: Final = FEATURE_BITS["one_suit"]
_CONCEALED: Final = FEATURE_BITS["concealed"]
_FOUR_WILDS: Final = FEATURE_BITS["four_wilds"]
#: the 27-bit mask of each suit's nine kinds, by suit index (万 0, 筒 1, 条 2)
SUIT_MASKS: Final = tuple(0x1FF << (9 * suit) for suit in range(3))


def suit_limit(rules: Rules) -> int:
    """The most suits a win may hold: two where three suits are in play (缺一门), one at a
    two-suit table with ``two_suit_void``, else every suit of the table."""
    if len(rules.suits) == 3:
        return 2
    if rules.two_suit_void:
        return 1
    return len(rules.suits)


def held_suits(concealed: Sequence[int], pongs: Sequence[int], kongs: Sequence[int]) -> int:
    """The suits of the real tiles (concealed and melded) as bits: 万 1, 筒 2, 条 4; a 红中
    belongs to no suit."""
    suits = 0
    for suit in range(3):
        for tile in range(suit * 9, suit * 9 + 9):
            if concealed[tile]:
                suits |= 1 << suit
                break
    for tile in (*pongs, *kongs):
        suits |= 1 << (tile // 9)
    return suits


def suit_count(suits: int) -> int:
    return (suits & 1) + (suits >> 1 & 1) + (suits >> 2 & 1)


#: (nine counts of one suit, of any size; whether it holds the pair) -> its flags as
#: :func:`_suit_flags` gives them
_ANY_FLAGS: Final[dict[tuple[tuple[int, ...], bool], int]] = {}


def _suit_flags(ranks: tuple[int, ...], pair: bool) -> int:
    """``engine.shapes.SHAPE_FLAGS`` for counts of any size (a 红中 may make a fifth copy):
    the readings of the suit as sets plus at most one pair (``pair``), ALL_TRIPLETS where
    one is all triplets, ALL_TERMINAL where one has a 1 or 9 in every group; -1 if none."""
    known = _ANY_FLAGS.get((ranks, pair))
    if known is not None:
        return known
    low = 0
    while low < 9 and not ranks[low]:
        low += 1
    if low == 9:
        return ALL_TRIPLETS | ALL_TERMINAL
    terminal = ALL_TERMINAL if low in (0, 8) else 0
    held = list(ranks)
    flags = -1
    if held[low] >= 3:
        held[low] -= 3
        rest = _suit_flags(tuple(held), pair)
        held[low] += 3
        if rest >= 0:
            flags = max(flags, 0) | rest & (ALL_TRIPLETS | terminal)
    if pair and held[low] >= 2:
        held[low] -= 2
        rest = _suit_flags(tuple(held), False)
        held[low] += 2
        if rest >= 0:
            flags = max(flags, 0) | rest & (ALL_TRIPLETS | terminal)
    if low <= 6 and held[low + 1] and held[low + 2]:
        for rank in range(low, low + 3):
            held[rank] -= 1
        rest = _suit_flags(tuple(held), pair)
        run_terminal = ALL_TERMINAL if low in (0, 6) else 0
        if rest >= 0:
            flags = max(flags, 0) | rest & run_terminal
    _ANY_FLAGS[(ranks, pair)] = flags
    return flags


def _features_any(
    held: Sequence[int],
    pongs: Sequence[int],
    kongs: Sequence[int],
    context: WinContext,
    win_tile: int,
    concealed_kongs: int,
    rules: Rules,
) -> int:
    """``engine.fan.feature_bits`` for a substituted hand that holds a kind more than four
    times (its base-5 suit keys would overflow)."""
    count = sum(held)
    melds = len(pongs) + len(kongs)
    regular = -1
    if count % 3 == 2:
        pair_suits = [suit for suit in range(3) if sum(held[suit * 9 : suit * 9 + 9]) % 3 == 2]
        if len(pair_suits) == 1:
            regular = ALL_TRIPLETS | ALL_TERMINAL
            for suit in range(3):
                flags = _suit_flags(tuple(held[suit * 9 : suit * 9 + 9]), suit == pair_suits[0])
                regular = -1 if flags < 0 or regular < 0 else regular & flags
    seven = melds == 0 and count == 14 and all(c % 2 == 0 for c in held)
    if regular < 0 and not seven:
        return 0
    suits = 0
    for suit in range(3):
        if any(held[suit * 9 : suit * 9 + 9]):
            suits |= 1 << suit
    return shape_features(
        regular, seven, suits, held, pongs, kongs, context, win_tile, concealed_kongs,
        rules.jingoudiao_needs_four_melds,
    )  # fmt: skip


#: substituted hand (each suit's counts as one integer: :func:`_suit_key`) and situation -> (its
#: rules, its fan or None): the readings a 查叫 over many waits shares (the same tiles come
#: from another wait and other 红中); the rules are kept beside the id they are keyed by, so
#: an id is never mistaken
_READINGS: Final[dict[tuple[object, ...], tuple[Rules, FanResult | None]]] = {}
_READINGS_LIMIT: Final = 200_000
#: the radix of a suit's key: a count is at most four copies and eight 红中, 12; a wider
#: radix where a count could pass that (no legal hand: never a fifth copy). Not a power of
#: two: an integer's hash is itself, and keys packed four bits a rank share their low bits
#: (the first ranks), which made long probe chains in the dictionaries below
_RADIX: Final = 13
_WIDE_RADIX: Final = 128
#: by the radix: a suit's nine counts as its key -> ``engine.shapes.wild_needs``
_NEEDS_BY_KEY: Final[dict[int, dict[int, tuple[int, int]]]] = {_RADIX: {}, _WIDE_RADIX: {}}
#: the kinds a substitution may take, by their 27-bit mask
_KINDS: Final[dict[int, list[int]]] = {}


def _suit_key(held: Sequence[int], suit: int, radix: int) -> int:
    """A suit's nine counts as one integer, digits in ``radix``: a dictionary key that one
    addition keeps up to date as a 红中 turns into a tile (no tuple of the hand a step),
    and small enough (13**9 < 2**34) for mypyc's unboxed integers."""
    key = 0
    for rank in range(8, -1, -1):
        key = key * radix + held[suit * 9 + rank]
    return key


def _suit_needs(suit_key: int, radix: int, known: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """``engine.shapes.wild_needs`` of one suit given as its key (digits in ``radix``)."""
    needs = known.get(suit_key)
    if needs is None:
        digits: list[int] = []
        rest = suit_key
        for _ in range(9):
            digits.append(rest % radix)
            rest //= radix
        needs = known[suit_key] = wild_needs(tuple(digits))
    return needs


def _kinds_of(kinds_mask: int) -> list[int]:
    kinds = _KINDS.get(kinds_mask)
    if kinds is None:
        kinds = _KINDS[kinds_mask] = [tile for tile in range(NUM_KINDS) if kinds_mask >> tile & 1]
    return kinds


class _WildSearch:
    """One win's substitutions, tried depth first in tile order: the counts as substituted
    so far, each suit's needs (``engine.shapes.wild_needs``) and the odd kinds kept up to
    date one 红中 at a time, and the best reading found. A class, not closures: under mypyc
    its methods are direct calls, and nothing of it forms a reference cycle (closures and
    their environment did, one garbage cycle a win left for the collector)."""

    def __init__(
        self,
        held: list[int],
        kinds: list[int],
        pongs: Sequence[int],
        kongs: Sequence[int],
        rules: Rules,
        context: WinContext,
        known_tile: int,
        concealed_kongs: int,
        extra_bits: int,
        situation: tuple[object, ...],
        regular: bool,
        pairs: bool,
        radix: int,
    ) -> None:
        self.held = held
        self.kinds = kinds
        self.pongs = pongs
        self.kongs = kongs
        self.rules = rules
        self.context = context
        self.known_tile = known_tile
        self.concealed_kongs = concealed_kongs
        self.extra_bits = extra_bits
        self.situation = situation
        self.regular = regular
        self.pairs = pairs
        self.radix = radix
        self.steps: list[int] = [radix**rank for rank in range(9)]
        self.known_needs = _NEEDS_BY_KEY[radix]
        self.keys: list[int] = [_suit_key(held, suit, radix) for suit in range(3)]
        self.sets: list[int] = [0, 0, 0]
        self.pair: list[int] = [0, 0, 0]
        for suit in range(3):
            self.sets[suit], self.pair[suit] = self.suit_needs(suit)
        odd = 0
        for count in held:
            odd += count & 1
        self.odd = odd
        self.best: FanResult | None = None

    def suit_needs(self, suit: int) -> tuple[int, int]:
        return _suit_needs(self.keys[suit], self.radix, self.known_needs)

    def completes(self, left: int) -> bool:
        """``engine.shapes.wild_win`` of the counts and ``left`` 红中, from the suits' needs."""
        sets, pair = self.sets, self.pair
        if self.regular:
            s0, s1, s2 = sets[0], sets[1], sets[2]
            if s0 + s1 + s2 + min(pair[0] - s0, pair[1] - s1, pair[2] - s2) <= left:
                return True
        return self.pairs and self.odd <= left

    def substitute(self, start: int, left: int) -> None:
        """Every multiset of ``left`` kinds from ``kinds[start:]`` for the 红中 left, pruned
        as soon as the 红中 then left cannot complete the hand."""
        if not left:
            self.reading()
            return
        kinds, held, keys, sets, pair = self.kinds, self.held, self.keys, self.sets, self.pair
        # The last 红中: the kinds that complete the counts are their waits (the plain
        # tables: three look-ups, not a suit's needs for each kind), where no kind is held
        # more than four times; a kind held four times still goes the long road (a fifth
        # copy may complete a hand, as no plain table says). The same leaves, in order.
        waits = -1
        if left == 1 and max(held) <= 4:
            waits = concealed_wait_mask(held, seven_pairs=self.pairs)
        for index in range(start, len(kinds)):
            tile = kinds[index]
            suit = tile // 9
            if waits >= 0 and held[tile] < 4:
                if waits >> tile & 1:
                    step = self.steps[tile - suit * 9]
                    held[tile] += 1
                    keys[suit] += step
                    self.reading()
                    held[tile] -= 1
                    keys[suit] -= step
                continue
            before_sets, before_pair = sets[suit], pair[suit]
            step = self.steps[tile - suit * 9]
            held[tile] += 1
            keys[suit] += step
            self.odd += 1 if held[tile] & 1 else -1
            sets[suit], pair[suit] = self.suit_needs(suit)
            if self.completes(left - 1):
                self.substitute(index, left - 1)
            held[tile] -= 1
            keys[suit] -= step
            self.odd += 1 if held[tile] & 1 else -1
            sets[suit], pair[suit] = before_sets, before_pair

    def reading(self) -> None:
        """Score the counts as substituted (a reading shared through ``_READINGS``); the best
        so far stays unless this one is higher: the first in tile order of equals."""
        rules = self.rules
        keys = self.keys
        key = (keys[0], keys[1], keys[2], self.situation)
        cached = _READINGS.get(key)
        if cached is not None and cached[0] is rules:
            result = cached[1]
        else:
            result = self.price()
            if len(_READINGS) >= _READINGS_LIMIT:
                _READINGS.clear()
            _READINGS[key] = (rules, result)
        if result is not None:
            best = self.best
            if best is None or result.uncapped > best.uncapped:
                self.best = result

    def price(self) -> FanResult | None:
        held, pongs, kongs, rules, context = self.held, self.pongs, self.kongs, self.rules, self.context
        if max(held) <= 4:
            features = feature_bits(
                held,
                pongs,
                kongs,
                context,
                self.known_tile,
                self.concealed_kongs,
                rules.jingoudiao_needs_four_melds,
            )
        else:
            features = _features_any(
                held, pongs, kongs, context, self.known_tile, self.concealed_kongs, rules
            )
        # a kind held four times or more, melds included, is one 根 (a 红中 beside a kong or
        # a pong and its fourth copy makes a fifth: still one root, not none)
        total = list(held)
        for tile in pongs:
            total[tile] += 3
        for tile in kongs:
            total[tile] += 4
        roots = 0
        for count in total:
            if count >= 4:
                roots += 1
        if not features or (rules.two_suit_void and not features & _ONE_SUIT):
            return None
        return price_features(features | self.extra_bits, roots, rules, context)


def score_wild_win(
    concealed: Sequence[int],
    pongs: Sequence[int],
    kongs: Sequence[int],
    rules: Rules,
    context: WinContext,
    win_tile: int,
    concealed_kongs: int,
    wilds: int,
) -> FanResult | None:
    """The best reading of a win holding ``wilds`` 红中 beside the 27 counts
    ``concealed`` (``engine.score.score_win`` with ``wilds``); ``None`` when no substitution
    is a win (shape, 缺一门, the table's suits).

    Every multiset of tiles for the 红中 is tried, in the suits the real tiles hold (a
    红中 in another suit could only lose 清一色, never win anything), pruned as soon as the
    红中 left cannot complete the hand; the highest total fan before the cap wins, the
    first in tile order of equals. 起手4红中 (``context.first_turn`` with four 红中) wins
    even when no substitution is a shape. A 红中 as the winning tile (``win_tile`` 27) is
    a winning tile of no known kind, as -1 is."""
    four = (
        context.first_turn
        and context.wilds_dealt
        and wilds >= 4
        and rules.pattern_fan("sihongzhong") is not None
    )
    suits = held_suits(concealed, pongs, kongs)
    if suit_count(suits) > suit_limit(rules):  # 起手4红中 wins whatever the other tiles are
        return _four_wilds(concealed, pongs, kongs, rules, context, concealed_kongs) if four else None
    table = table_of(rules).kinds_mask
    kinds_mask = table
    if suits:
        kinds_mask = 0
        for suit in range(3):
            if suits >> suit & 1:
                kinds_mask |= SUIT_MASKS[suit]
        kinds_mask &= table
    seven = not pongs and not kongs and rules.hand_size == 13
    known_tile = -1 if win_tile == WILD else win_tile
    extra_bits = _FOUR_WILDS if four else 0
    # the context by its fields: a compiled WinContext (engine/fan.py under mypyc) has no hash
    how = (
        context.self_draw,
        context.after_kong,
        context.robbing_kong,
        context.last_tile,
        context.first_turn,
        context.dealer,
        context.wilds_dealt,
    )
    radix = _RADIX if max(concealed) + wilds < _RADIX else _WIDE_RADIX
    # (the keys' radix in the situation: keys of two radixes are never mistaken)
    situation = (tuple(pongs), tuple(kongs), id(rules), how, known_tile, concealed_kongs, extra_bits, radix)
    total = sum(concealed) + wilds  # a 红中 substituted turns into a tile: the total stays
    search = _WildSearch(
        list(concealed), _kinds_of(kinds_mask), pongs, kongs, rules, context, known_tile,
        concealed_kongs, extra_bits, situation, total % 3 == 2, seven and total == 14, radix,
    )  # fmt: skip
    if search.completes(wilds):
        search.substitute(0, wilds)
    if search.best is not None:
        return search.best
    if four:  # 起手胡: four 红中 win whatever the other tiles are
        return _four_wilds(concealed, pongs, kongs, rules, context, concealed_kongs)
    return None


def _four_wilds(
    concealed: Sequence[int],
    pongs: Sequence[int],
    kongs: Sequence[int],
    rules: Rules,
    context: WinContext,
    concealed_kongs: int,
) -> FanResult:
    """起手4红中 as its own row, whatever the other tiles are (a shape or not, 缺一门 or
    not: seed 000's 起手4个红中，直接胡牌 names no condition)."""
    features = _FOUR_WILDS | _WIN
    if not pongs and len(kongs) <= concealed_kongs:
        features |= _CONCEALED
    return price_features(features, count_roots(concealed, [*pongs, *kongs], kongs), rules, context)
