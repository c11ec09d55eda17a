"""红中 wild tiles (癞子) and the table's suits at the level of one hand: which suits a win
may hold, and the fan of a win whose 红中 stand for tiles.

A 红中 stands for any tile of the table's suits, in a set or in the pair, as many times as
the hand holds one (a wild is no copy of a tile; docs/decisions.md, "红中"). A win with
红中 scores its **best reading**: of every substitution of its 红中 by tiles, the one
with the highest fan under the rule set (``fan_combination`` included), its roots
counted on the substituted hand. The shape test itself is ``engine.shapes.wild_win``;
this module is the slow part, run only for a hand that holds a 红中, so it is not compiled.
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
from engine.shapes import ALL_TERMINAL, ALL_TRIPLETS, wild_needs
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


#: substituted hand and situation -> (its rules, its fan or None): the readings a 查叫
#: over many waits shares (the same tiles come from another wait and other 红中); the
#: rules are kept beside the id they are keyed by, so an id is never mistaken
_READINGS: Final[dict[tuple[object, ...], tuple[Rules, FanResult | None]]] = {}
_READINGS_LIMIT: Final = 200_000


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
    ``concealed`` (``engine.fan.score_win`` with ``wilds``); ``None`` when no substitution
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
    kinds = [tile for tile in range(NUM_KINDS) if kinds_mask >> tile & 1]
    seven = not pongs and not kongs and rules.hand_size == 13
    known_tile = -1 if win_tile == WILD else win_tile
    extra_bits = _FOUR_WILDS if four else 0
    held = list(concealed)
    best: list[FanResult] = []
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
    situation = (tuple(pongs), tuple(kongs), id(rules), how, known_tile, concealed_kongs, extra_bits)

    def reading() -> None:
        key = (tuple(held), situation)
        cached = _READINGS.get(key)
        if cached is not None and cached[0] is rules:
            result = cached[1]
        else:
            result = _reading()
            if len(_READINGS) >= _READINGS_LIMIT:
                _READINGS.clear()
            _READINGS[key] = (rules, result)
        if result is not None and (not best or result.uncapped > best[0].uncapped):
            best[:] = [result]

    def _reading() -> FanResult | None:
        if max(held) <= 4:
            features = feature_bits(
                held, pongs, kongs, context, known_tile, concealed_kongs, rules.jingoudiao_needs_four_melds
            )
        else:
            features = _features_any(held, pongs, kongs, context, known_tile, concealed_kongs, rules)
        # a kind held four times or more, melds included, is one 根 (a 红中 beside a kong or
        # a pong and its fourth copy makes a fifth: still one root, not none)
        total = list(held)
        for tile in pongs:
            total[tile] += 3
        for tile in kongs:
            total[tile] += 4
        roots = sum(1 for count in total if count >= 4)
        if not features or (rules.two_suit_void and not features & _ONE_SUIT):
            return None
        return price_features(features | extra_bits, roots, rules, context)

    total = sum(held) + wilds  # a 红中 substituted turns into a tile: the total stays
    regular = total % 3 == 2
    pairs = seven and total == 14
    needs = [wild_needs(tuple(held[base : base + 9])) for base in (0, 9, 18)]
    odd = [sum(count & 1 for count in held)]

    def completes(left: int) -> bool:
        """``engine.shapes.wild_win`` of ``held`` and ``left`` 红中, from the suits' needs
        kept up to date one substitution at a time."""
        (s0, p0), (s1, p1), (s2, p2) = needs
        if regular and s0 + s1 + s2 + min(p0 - s0, p1 - s1, p2 - s2) <= left:
            return True
        return pairs and odd[0] <= left

    def substitute(start: int, left: int) -> None:
        if not left:
            reading()
            return
        for index in range(start, len(kinds)):
            tile = kinds[index]
            suit = tile // 9
            before = needs[suit]
            held[tile] += 1
            odd[0] += 1 if held[tile] & 1 else -1
            needs[suit] = wild_needs(tuple(held[suit * 9 : suit * 9 + 9]))
            if completes(left - 1):
                substitute(index, left - 1)
            held[tile] -= 1
            odd[0] += 1 if held[tile] & 1 else -1
            needs[suit] = before

    if completes(wilds):
        substitute(0, wilds)
    if best:
        return best[0]
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
