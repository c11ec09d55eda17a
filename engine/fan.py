"""Fan (番): base patterns and extras as data rows, scored over every reading of a hand.

A base pattern applies when the hand has all of its ``requires`` features; the fan of
each pattern and extra comes from the rule set (a row of its fan table), so the tables
here hold no numbers. With ``fan_combination = "highest"`` the best reading is the one
pattern with the highest total (base + extras) before the cap; with ``"sum"`` the base
patterns of one reading add up, each feature counted by one pattern only (docs/rules.md
section 4, "Adding up").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import msgspec

from engine.patterns import EXTRAS as EXTRAS
from engine.patterns import HAND_EXTRAS as HAND_EXTRAS
from engine.patterns import PATTERNS as PATTERNS
from engine.rules import Rules
from engine.shapes import ALL_TERMINAL, ALL_TRIPLETS, EVEN_KEYS, SHAPE_FLAGS, suit_keys
from engine.tiles import NUM_KINDS

#: the extras' ids (a declared pattern that is no base pattern)
EXTRA_IDS: Final[frozenset[str]] = frozenset(EXTRAS)


class WinContext(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """How a win happened: the situation, kept apart from the table's rules.

    ``after_kong`` is 杠上花 on a self-draw (the winner's replacement tile) and 杠上炮
    on a discard (the discarder had just konged). ``first_turn`` is 天胡 for the dealer
    and 地胡 for another seat; both are self-drawn. ``wilds_dealt`` (with ``first_turn``):
    the 红中 held were dealt, so four of them are 起手4红中; false for a 地胡 whose drawn
    tile is the 红中 that made four (engine/state.py).
    """

    self_draw: bool = False
    after_kong: bool = False
    robbing_kong: bool = False
    last_tile: bool = False
    first_turn: bool = False
    dealer: bool = False
    wilds_dealt: bool = True

    def __post_init__(self) -> None:
        if self.robbing_kong and self.self_draw:
            raise ValueError("a win cannot both rob a kong and be self-drawn")
        if self.robbing_kong and self.after_kong:
            raise ValueError("a win cannot both rob a kong and follow a kong")
        if self.first_turn and not self.self_draw:
            raise ValueError("天胡/地胡 (first turn) wins are self-drawn")


DISCARD_WIN = WinContext()


class FanResult(msgspec.Struct, frozen=True, gc=False):
    fan: int  # after the cap
    base: str
    extras: tuple[str, ...]
    uncapped: int
    #: the further base patterns that add up with ``base`` (``fan_combination = "sum"``)
    also: tuple[str, ...] = ()

    @property
    def patterns(self) -> tuple[str, ...]:
        """The base pattern ids, then one id per extra (``gen`` once per root)."""
        return (self.base, *self.also, *self.extras)


# Each feature a base pattern can require (see :func:`feature_bits`), as one bit of an
# ``int``: a pattern applies when the hand's bits include all of its own.
_WIN: Final = 1
_ONE_SUIT: Final = 2
_TRIPLETS: Final = 4
_ONLY_258: Final = 8
_GOLDEN_HOOK: Final = 16
_TERMINALS: Final = 32
_SEVEN_PAIRS: Final = 64
_FOUR_KIND: Final = 128
_HEAVENLY: Final = 256
_EARTHLY: Final = 512
_FOUR_KONGS: Final = 1024
_CONCEALED: Final = 2048
_NO_TERMINAL_TILE: Final = 4096
_FOUR_WILDS: Final = 8192  # 起手4红中: four 红中 in the starting hand
_NO_WILD: Final = 16384  # 无红中: a win holding no 红中 at a table that has them
#: the features by the names :data:`PATTERNS` and :data:`HAND_EXTRAS` require them by
FEATURE_BITS: Final[dict[str, int]] = {
    "win": _WIN, "one_suit": _ONE_SUIT, "triplets": _TRIPLETS, "only_258": _ONLY_258,
    "golden_hook": _GOLDEN_HOOK, "terminals": _TERMINALS, "seven_pairs": _SEVEN_PAIRS,
    "four_kind": _FOUR_KIND, "heavenly": _HEAVENLY, "earthly": _EARTHLY,
    "four_kongs": _FOUR_KONGS, "concealed": _CONCEALED, "no_terminal_tile": _NO_TERMINAL_TILE,
    "four_wilds": _FOUR_WILDS, "no_wild": _NO_WILD,
}  # fmt: skip
#: the features each pattern requires, as bits, in :data:`PATTERNS` order
PATTERN_MASKS: Final[tuple[int, ...]] = tuple(
    sum(FEATURE_BITS[name] for name in pattern.requires) for pattern in PATTERNS
)
#: the features each hand extra requires, in :data:`HAND_EXTRAS` order
HAND_EXTRA_MASKS: Final[tuple[int, ...]] = tuple(
    sum(FEATURE_BITS[name] for name in extra.requires) for extra in HAND_EXTRAS
)
#: Features that hold in one reading of the tiles only: a reading of triplets, one with a
#: 1 or 9 in every set, or seven pairs (no reading has two of these; docs/rules.md 4).
#: Every other feature holds in every reading.
READING_GROUPS: Final[tuple[int, ...]] = (
    _TRIPLETS | _ONLY_258 | _GOLDEN_HOOK | _FOUR_KONGS,
    _TERMINALS,
    _SEVEN_PAIRS | _FOUR_KIND,
)
_ANY_READING: Final = READING_GROUPS[0] | READING_GROUPS[1] | READING_GROUPS[2]
#: tiles whose rank is not 2, 5 or 8 (将对 allows none of them)
_NOT_258: Final[tuple[int, ...]] = tuple(t for t in range(NUM_KINDS) if t % 9 not in (1, 4, 7))
#: tiles of rank 1 or 9 (中张 allows none of them)
_TERMINAL_TILES: Final[tuple[int, ...]] = tuple(t for t in range(NUM_KINDS) if t % 9 in (0, 8))


def feature_bits(
    concealed: Sequence[int],
    pongs: Sequence[int],
    kongs: Sequence[int],
    context: WinContext,
    win_tile: int = -1,
    concealed_kongs: int = 0,
    needs_four_melds: bool = True,
) -> int:
    """The features base patterns test (:data:`FEATURE_BITS`), 0 when the tiles are no
    win (shape or 缺一门). ``concealed`` is the 27-long count vector of the concealed tiles
    with the winning tile; ``pongs`` and ``kongs`` the melded tile kinds, the last
    ``concealed_kongs`` of the kongs' count being 暗杠 (门清 keeps them). ``win_tile`` (-1:
    not known) lets 金钩钓 be a single wait on the pair without four melds
    (``needs_four_melds`` false, the knob ``jingoudiao_needs_four_melds``)."""
    k0, k1, k2 = suit_keys(concealed)
    count = sum(concealed)
    melds = len(pongs) + len(kongs)
    regular = -1
    if count % 3 == 2:
        f0 = SHAPE_FLAGS.get(k0, -1)
        f1 = SHAPE_FLAGS.get(k1, -1)
        f2 = SHAPE_FLAGS.get(k2, -1)
        if f0 >= 0 and f1 >= 0 and f2 >= 0:
            regular = f0 & f1 & f2
    seven = melds == 0 and count == 14 and k0 in EVEN_KEYS and k1 in EVEN_KEYS and k2 in EVEN_KEYS
    if regular < 0 and not seven:
        return 0
    suits = (1 if k0 else 0) | (2 if k1 else 0) | (4 if k2 else 0)
    return shape_features(
        regular, seven, suits, concealed, pongs, kongs, context, win_tile, concealed_kongs, needs_four_melds
    )


def shape_features(
    regular: int,
    seven: bool,
    suits: int,
    concealed: Sequence[int],
    pongs: Sequence[int],
    kongs: Sequence[int],
    context: WinContext,
    win_tile: int,
    concealed_kongs: int,
    needs_four_melds: bool,
) -> int:
    """:func:`feature_bits` once the shape is known (``engine.wilds`` reads a substituted
    hand's shape itself where a kind is held more than four times): ``regular`` the flags shared by the
    suits of a sets-and-pair reading (-1: none), ``seven`` a seven-pairs reading, ``suits``
    the suits of the concealed tiles as bits (万 1, 筒 2, 条 4); 0 for 缺一门."""
    melds = len(pongs) + len(kongs)
    for tile in pongs:
        suits |= 1 << (tile // 9)
    for tile in kongs:
        suits |= 1 << (tile // 9)
    if suits == 7:  # 缺一门
        return 0
    features = _WIN
    if suits == 1 or suits == 2 or suits == 4:
        features |= _ONE_SUIT
    if regular >= 0:
        if regular & ALL_TRIPLETS:
            features |= _TRIPLETS
            if _only_258(concealed, pongs, kongs):
                features |= _ONLY_258
            # a triplets reading holds each kind 0, 2 or 3 times: the kind held twice is the pair
            single_pair_wait = win_tile >= 0 and concealed[win_tile] == 2
            if melds == 4 or (single_pair_wait and not needs_four_melds):
                features |= _GOLDEN_HOOK
            if len(kongs) == 4:
                features |= _FOUR_KONGS
        if regular & ALL_TERMINAL and _melds_terminal(pongs) and _melds_terminal(kongs):
            features |= _TERMINALS
    if seven:
        features |= _SEVEN_PAIRS
        if 4 in concealed:
            features |= _FOUR_KIND
    if context.first_turn and melds == 0:  # 天胡/地胡: no pong or kong before (docs/rules.md section 4)
        features |= _HEAVENLY if context.dealer else _EARTHLY
    if not pongs and len(kongs) <= concealed_kongs:
        features |= _CONCEALED
    if _no_terminal_tile(concealed, pongs, kongs):
        features |= _NO_TERMINAL_TILE
    return features


def _only_258(concealed: Sequence[int], pongs: Sequence[int], kongs: Sequence[int]) -> bool:
    # all() over a generator is a plain loop under mypyc
    return (
        all(not concealed[tile] for tile in _NOT_258)
        and all(tile % 9 in (1, 4, 7) for tile in pongs)
        and all(tile % 9 in (1, 4, 7) for tile in kongs)
    )


def _no_terminal_tile(concealed: Sequence[int], pongs: Sequence[int], kongs: Sequence[int]) -> bool:
    return (
        all(not concealed[tile] for tile in _TERMINAL_TILES)
        and all(tile % 9 not in (0, 8) for tile in pongs)
        and all(tile % 9 not in (0, 8) for tile in kongs)
    )


def _melds_terminal(tiles: Sequence[int]) -> bool:
    return all(tile % 9 in (0, 8) for tile in tiles)


def count_roots(concealed: Sequence[int], meld_tiles: Sequence[int], kong_tiles: Sequence[int]) -> int:
    """根: tile kinds of which the winner holds all four (hand, pongs, kongs, winning tile)."""
    if not meld_tiles and not kong_tiles:
        return concealed.count(4)
    total = list(concealed)
    for tile in meld_tiles:
        total[tile] += 3
    for tile in kong_tiles:
        total[tile] += 1
    return total.count(4)


def situational_extras(context: WinContext, rules: Rules) -> tuple[str, ...]:
    """The extras of how the win happened that the rule set scores (its row not ``none``;
    海底 also needs ``haidi``, 自摸加番 ``self_draw_bonus = "add_fan"``)."""
    extras = []
    if context.after_kong:
        extras.append("gangshanghua" if context.self_draw else "gangshangpao")
    if context.robbing_kong:
        extras.append("qiangganghu")
    if context.last_tile and rules.haidi:
        extras.append("haidi")
    if context.self_draw and rules.self_draw_bonus == "add_fan":
        extras.append("zimo")
    return tuple(e for e in extras if rules.pattern_fan(e) is not None)


class _Scoring(msgspec.Struct, frozen=True, gc=False):
    """A rule set's fan table ready to score: the scored base patterns (fan not ``none``)
    in :data:`PATTERNS` order as parallel tuples, the scored hand extras likewise, and the
    fan of each extra row (0: not scored)."""

    rules: Rules
    masks: tuple[int, ...]
    fans: tuple[int, ...]
    uses_root: tuple[bool, ...]
    ids: tuple[str, ...]
    hand_masks: tuple[int, ...]
    hand_fans: tuple[int, ...]
    hand_ids: tuple[str, ...]
    extra_fan: dict[str, int]
    summing: bool


#: :class:`_Scoring` by ``id`` of the rule set; the entry keeps its rules alive, so an id
#: is never reused while it is here (rule sets are few: presets and overrides are cached)
_SCORING: Final[dict[int, _Scoring]] = {}
_SCORING_LIMIT: Final = 256


def _scoring(rules: Rules) -> _Scoring:
    scoring = _SCORING.get(id(rules))
    if scoring is not None and scoring.rules is rules:
        return scoring
    kept: list[tuple[int, int]] = []  # (index in PATTERNS, fan)
    for i, pattern in enumerate(PATTERNS):
        fan = rules.pattern_fan(pattern.id)
        if fan is not None:
            kept.append((i, fan))
    hand_kept: list[tuple[int, int]] = []
    for i, extra in enumerate(HAND_EXTRAS):
        fan = rules.pattern_fan(extra.id)
        if fan is not None:
            hand_kept.append((i, fan))
    extra_fan: dict[str, int] = {}
    for extra_id in EXTRAS:
        fan = rules.pattern_fan(extra_id)
        extra_fan[extra_id] = 0 if fan is None else fan
    scoring = _Scoring(
        rules,
        tuple(PATTERN_MASKS[i] for i, _ in kept),
        tuple(fan for _, fan in kept),
        tuple(PATTERNS[i].uses_root for i, _ in kept),
        tuple(PATTERNS[i].id for i, _ in kept),
        tuple(HAND_EXTRA_MASKS[i] for i, _ in hand_kept),
        tuple(fan for _, fan in hand_kept),
        tuple(HAND_EXTRAS[i].id for i, _ in hand_kept),
        extra_fan,
        rules.fan_combination == "sum",
    )
    if len(_SCORING) >= _SCORING_LIMIT:
        _SCORING.clear()
    _SCORING[id(rules)] = scoring
    return scoring


def _best_single(scoring: _Scoring, features: int, roots: int, gen_fan: int) -> tuple[int, int]:
    """``fan_combination = "highest"``: (index in the scoring, total of base and roots) of
    the best single pattern; the highest total, then the highest base fan, then the later
    pattern of :data:`PATTERNS`."""
    best = -1
    best_total = best_base = 0
    masks, fans, uses_root = scoring.masks, scoring.fans, scoring.uses_root
    for i in range(len(masks)):
        mask = masks[i]
        if features & mask != mask:
            continue
        base_fan = fans[i]
        total = base_fan + gen_fan * (roots - 1 if uses_root[i] else roots)
        if best < 0 or total > best_total or (total == best_total and base_fan >= best_base):
            best, best_total, best_base = i, total, base_fan
    assert best >= 0, "pinghu applies to every win"
    return best, best_total


def _best_sum(scoring: _Scoring, features: int, roots: int, gen_fan: int) -> tuple[list[int], int]:
    """``fan_combination = "sum"``: the base patterns that add up, as indices in the
    scoring (highest fan first), and their total with the roots. Each pattern adds its
    doublings, its fan less the plain win's 1 (:func:`summed_fan`): 清一色 3 + 对对胡 2 = 4.

    In one reading of the tiles (:data:`READING_GROUPS`), a set of patterns no two of
    which share a feature (``win`` aside) adds up; the best set over every reading counts.
    So 清一色 + 对对胡 + 金钩钓 add, but 清对 never adds to 清一色 or 对对胡 (it holds
    their features). A pattern that needs only ``win`` (平胡) counts when nothing else
    applies."""
    readings = [features & ~_ANY_READING | features & group for group in READING_GROUPS if features & group]
    if not readings:
        readings = [features]
    masks, fans, uses_root = scoring.masks, scoring.fans, scoring.uses_root
    best: list[int] = []
    best_total = -1
    for reading in readings:
        # packings by the features they use: (total, pattern indices)
        packs: dict[int, tuple[int, list[int]]] = {0: (0, [])}
        for i in range(len(masks)):
            mask = masks[i]
            own = mask & ~_WIN
            if reading & mask != mask or not own:
                continue
            for used, (total, chosen) in list(packs.items()):
                if used & own:
                    continue
                key = used | own
                new_total = total + fans[i] - 1  # its doublings beyond the plain win's
                if key not in packs or new_total > packs[key][0]:
                    packs[key] = (new_total, [*chosen, i])
        for total, chosen in packs.values():
            if not chosen:
                continue
            root_user = any(uses_root[i] for i in chosen)
            total += 1 + gen_fan * (roots - 1 if root_user else roots)
            if total > best_total:
                best, best_total = chosen, total
    if not best:  # nothing but the plain win: the single best, as under "highest"
        single, total = _best_single(scoring, features, roots, gen_fan)
        return [single], total
    best.sort(key=lambda i: -fans[i])
    return best, best_total


def score_plain_win(
    concealed: Sequence[int],
    pongs: Sequence[int],
    kongs: Sequence[int],
    rules: Rules,
    context: WinContext = DISCARD_WIN,
    win_tile: int = -1,
    concealed_kongs: int = 0,
) -> FanResult | None:
    """Fan of a win that holds no 红中 (:func:`engine.score.score_win` scores any win):
    ``concealed`` counts include the winning tile ``win_tile`` (-1: not known, then 金钩钓
    needs four melds); ``pongs``/``kongs`` are the melded tile kinds, ``concealed_kongs``
    of the kongs 暗杠. ``None`` when the tiles are no win (shape or 缺一门).

    ``highest``: the best reading is the pattern with the highest total (base + roots +
    extras), then the highest base fan; a later pattern in :data:`PATTERNS` wins a tie.
    ``sum``: the patterns of :func:`_best_sum`. Extras add on top either way."""
    features = feature_bits(
        concealed, pongs, kongs, context, win_tile, concealed_kongs, rules.jingoudiao_needs_four_melds
    )
    if not features:
        return None
    if rules.two_suit_void and not features & _ONE_SUIT:
        return None  # a two-suit table that plays 缺一门: one suit only
    if rules.wild_tiles:
        features |= _NO_WILD
    return price_features(features, count_roots(concealed, [*pongs, *kongs], kongs), rules, context)


def price_features(features: int, roots: int, rules: Rules, context: WinContext) -> FanResult:
    """The fan of a win with these features (:func:`feature_bits`) and ``roots`` 根, under
    ``rules`` and the situation ``context``: :func:`score_win` once the tiles are read."""
    scoring = _scoring(rules)
    gen_fan = scoring.extra_fan["gen"]
    situational = situational_extras(context, rules) if context is not DISCARD_WIN else ()
    extra = 0
    for extra_id in situational:
        extra += scoring.extra_fan[extra_id]
    hand: list[str] = []
    hand_masks = scoring.hand_masks
    for i in range(len(hand_masks)):
        if features & hand_masks[i] == hand_masks[i]:
            hand.append(scoring.hand_ids[i])
            extra += scoring.hand_fans[i]
    if scoring.summing:
        chosen, base_total = _best_sum(scoring, features, roots, gen_fan)
    else:
        single, base_total = _best_single(scoring, features, roots, gen_fan)
        chosen = [single]
    own_roots = roots - 1 if any(scoring.uses_root[i] for i in chosen) else roots
    gens = ("gen",) * own_roots if gen_fan else ()
    total = base_total + extra
    capped = total if rules.max_fan is None else min(total, rules.max_fan)
    ids = scoring.ids
    also = tuple(ids[i] for i in chosen[1:])
    return FanResult(capped, ids[chosen[0]], (*gens, *hand, *situational), total, also)


def summed_fan(fans: Sequence[int]) -> int:
    """The fan of base patterns that add up (``fan_combination = "sum"``): the multiplier
    is 2^(fan-1), so a pattern of fan f doubles the plain win f-1 times, and the
    patterns' doublings add: 1 + sum(f - 1). The Sichuan Bloody Rules count fan from 0 for
    the plain win and add them as they stand; this is the same count, one higher."""
    return 1 + sum(f - 1 for f in fans)


def adds_up(bases: Sequence[str]) -> bool:
    """Do these base patterns form a set that adds up under ``fan_combination = "sum"``
    (:func:`_best_sum`): one reading, no feature but ``win`` needed twice, 平胡 alone?
    A score sheet declares its patterns without tiles, so the audit checks the set."""
    index = {p.id: i for i, p in enumerate(PATTERNS)}
    used = 0
    groups = 0
    for base in bases:
        own = PATTERN_MASKS[index[base]] & ~_WIN
        if not own:
            return len(bases) == 1
        if used & own:
            return False
        used |= own
        for g, group in enumerate(READING_GROUPS):
            if own & group:
                groups |= 1 << g
    return groups & (groups - 1) == 0
