"""Fan (番): base patterns and extras as data rows, scored over every reading of a hand.

A base pattern applies when the hand has all of its ``requires`` features; the fan of
each pattern comes from the rule set, so the table here holds no numbers. The best
reading is the one with the highest total (base + extras) before the cap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from engine.rules import Rules
from engine.shapes import ALL_TERMINAL, ALL_TRIPLETS, is_seven_pairs, regular_win_flags
from engine.tiles import NUM_KINDS, rank_of, suits_used


@dataclass(frozen=True)
class Pattern:
    id: str
    zh: str
    en: str
    requires: frozenset[str]
    uses_root: bool = False


def _p(id_: str, zh: str, en: str, *requires: str, uses_root: bool = False) -> Pattern:
    return Pattern(id_, zh, en, frozenset(requires), uses_root)


#: docs/rules.md section 4, base patterns. Features: see :func:`hand_features`.
PATTERNS: tuple[Pattern, ...] = (
    _p("pinghu", "平胡", "plain win", "win"),
    _p("duiduihu", "对对胡", "all triplets", "triplets"),
    _p("qingyise", "清一色", "pure suit", "one_suit"),
    _p("daiyaojiu", "带幺九", "terminals in every set", "terminals"),
    _p("qidui", "七对", "seven pairs", "seven_pairs"),
    _p("qingdui", "清对", "pure all triplets", "one_suit", "triplets"),
    _p("jiangdui", "将对", "2-5-8 triplets", "triplets", "only_258"),
    _p("jingoudiao", "金钩钓", "golden hook (single wait, all melded)", "golden_hook"),
    _p("qingdaiyao", "清幺九", "pure terminals", "one_suit", "terminals"),
    _p("longqidui", "龙七对", "dragon seven pairs", "seven_pairs", "four_kind", uses_root=True),
    _p("qingqidui", "清七对", "pure seven pairs", "one_suit", "seven_pairs"),
    _p("qinglongqidui", "清龙七对", "pure dragon seven pairs", "one_suit", "seven_pairs",
       "four_kind", uses_root=True),
    _p("tianhu", "天胡", "heavenly win", "heavenly"),
    _p("dihu", "地胡", "earthly win", "earthly"),
)  # fmt: skip

#: Extras, each +1 fan, in the order they are listed after the base pattern.
EXTRAS: dict[str, tuple[str, str]] = {
    "gen": ("根", "root"),
    "gangshanghua": ("杠上花", "bloom after a kong"),
    "gangshangpao": ("杠上炮", "win on a discard after a kong"),
    "qiangganghu": ("抢杠胡", "robbing a kong"),
    "haidi": ("海底", "last tile"),
    "zimo": ("自摸加番", "self-draw bonus fan"),
}

NAMES: dict[str, tuple[str, str]] = {p.id: (p.zh, p.en) for p in PATTERNS} | EXTRAS


class WinContext(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """How a win happened: the situation, kept apart from the table's rules.

    ``after_kong`` is 杠上花 on a self-draw (the winner's replacement tile) and 杠上炮
    on a discard (the discarder had just konged). ``first_turn`` is 天胡 for the dealer
    and 地胡 for another seat; both are self-drawn.
    """

    self_draw: bool = False
    after_kong: bool = False
    robbing_kong: bool = False
    last_tile: bool = False
    first_turn: bool = False
    dealer: bool = False

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

    @property
    def patterns(self) -> tuple[str, ...]:
        """The base pattern's id, then one id per extra (``gen`` once per root)."""
        return (self.base, *self.extras)


def hand_features(
    concealed: Sequence[int], meld_tiles: Sequence[int], meld_count: int, context: WinContext
) -> set[str] | None:
    """The features base patterns test, or ``None`` when the tiles are no win.

    ``concealed`` is the 27-long count vector of the concealed tiles with the winning
    tile; ``meld_tiles`` the tile kind of each pong or kong.
    """
    regular = regular_win_flags(concealed)
    seven = meld_count == 0 and is_seven_pairs(concealed)
    if regular is None and not seven:
        return None
    total = list(concealed)
    for tile in meld_tiles:
        total[tile] += 3
    if suits_used(total) > 2:  # 缺一门
        return None
    features = {"win"}
    if suits_used(total) == 1:
        features.add("one_suit")
    if regular is not None:
        if regular & ALL_TRIPLETS:
            features.add("triplets")
            if all(rank_of(t) in (2, 5, 8) for t in range(NUM_KINDS) if total[t]):
                features.add("only_258")
            if meld_count == 4:
                features.add("golden_hook")
        if regular & ALL_TERMINAL and all(rank_of(t) in (1, 9) for t in meld_tiles):
            features.add("terminals")
    if seven:
        features.add("seven_pairs")
        if 4 in concealed:
            features.add("four_kind")
    if context.first_turn and meld_count == 0:  # 天胡/地胡: no pong or kong before (docs/rules.md section 4)
        features.add("heavenly" if context.dealer else "earthly")
    return features


def count_roots(concealed: Sequence[int], meld_tiles: Sequence[int], kong_tiles: Sequence[int]) -> int:
    """根: tile kinds of which the winner holds all four (hand, pongs, kongs, winning tile)."""
    total = list(concealed)
    for tile in meld_tiles:
        total[tile] += 3
    for tile in kong_tiles:
        total[tile] += 1
    return sum(1 for count in total if count == 4)


def situational_extras(context: WinContext, rules: Rules) -> tuple[str, ...]:
    extras = []
    if context.after_kong:
        extras.append("gangshanghua" if context.self_draw else "gangshangpao")
    if context.robbing_kong:
        extras.append("qiangganghu")
    if context.last_tile and rules.haidi:
        extras.append("haidi")
    if context.self_draw and rules.self_draw_bonus == "add_fan":
        extras.append("zimo")
    return tuple(extras)


def score_win(
    concealed: Sequence[int],
    pongs: Sequence[int],
    kongs: Sequence[int],
    rules: Rules,
    context: WinContext = DISCARD_WIN,
) -> FanResult | None:
    """Fan of a win: ``concealed`` counts include the winning tile; ``pongs``/``kongs``
    are the melded tile kinds. ``None`` when the tiles are no win (shape or 缺一门)."""
    meld_tiles = [*pongs, *kongs]
    features = hand_features(concealed, meld_tiles, len(meld_tiles), context)
    if features is None:
        return None
    roots = count_roots(concealed, meld_tiles, kongs)
    situational = situational_extras(context, rules)
    best: tuple[int, int, Pattern] | None = None
    for pattern in PATTERNS:
        if not pattern.requires <= features:
            continue
        base_fan = rules.pattern_fan(pattern.id)
        if base_fan is None:
            continue
        own_roots = roots - 1 if pattern.uses_root else roots
        total = base_fan + own_roots + len(situational)
        candidate = (total, base_fan, pattern)
        if best is None or candidate[:2] >= best[:2]:
            best = candidate
    assert best is not None, "pinghu applies to every win"
    total, _, pattern = best
    own_roots = roots - 1 if pattern.uses_root else roots
    capped = total if rules.max_fan is None else min(total, rules.max_fan)
    return FanResult(capped, pattern.id, ("gen",) * own_roots + situational, total)
