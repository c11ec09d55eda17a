"""The rows of the fan table, written once: each base pattern (docs/rules.md section 4)
with its names and the hand features it needs, the extras a hand's tiles decide, and every
extra with its names.

``engine.rules`` takes the rows' ids from here (a rule set gives each row its fan, so these
tables hold no numbers), ``engine.fan`` scores them, and the sheets, the simulator and the
pages name them by these ids.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pattern:
    """A row of the fan table that a hand's features decide: it applies when the hand has
    every feature it ``requires``; ``uses_root`` when its four of a kind is one of the hand's
    roots, which then adds no 根 of its own (龙七对)."""

    id: str
    zh: str
    en: str
    requires: frozenset[str]
    uses_root: bool = False


def _p(id_: str, zh: str, en: str, *requires: str, uses_root: bool = False) -> Pattern:
    return Pattern(id_, zh, en, frozenset(requires), uses_root)


#: docs/rules.md section 4, base patterns. Features: ``engine.fan.FEATURE_BITS``.
PATTERNS: tuple[Pattern, ...] = (
    _p("pinghu", "平胡", "plain win", "win"),
    _p("duiduihu", "对对胡", "all triplets", "triplets"),
    _p("qingyise", "清一色", "pure suit", "one_suit"),
    _p("daiyaojiu", "带幺九", "terminals in every set", "terminals"),
    _p("qidui", "七对", "seven pairs", "seven_pairs"),
    _p("qingdui", "清对", "pure all triplets", "one_suit", "triplets"),
    _p("jiangdui", "将对", "2-5-8 triplets", "triplets", "only_258"),
    _p("jingoudiao", "金钩钓", "golden hook (single wait, all melded)", "golden_hook"),
    _p("jiangjingoudiao", "将金钩钓", "2-5-8 golden hook", "golden_hook", "only_258"),
    _p("qingjingoudiao", "清金钩钓", "pure golden hook", "one_suit", "golden_hook"),
    _p("shibaluohan", "十八罗汉", "eighteen arhats (four kongs and a pair)", "golden_hook", "four_kongs"),
    _p("qingshibaluohan", "清十八罗汉", "pure eighteen arhats", "one_suit", "golden_hook", "four_kongs"),
    _p("qingdaiyao", "清幺九", "pure terminals", "one_suit", "terminals"),
    _p("longqidui", "龙七对", "dragon seven pairs", "seven_pairs", "four_kind", uses_root=True),
    _p("qingqidui", "清七对", "pure seven pairs", "one_suit", "seven_pairs"),
    _p("qinglongqidui", "清龙七对", "pure dragon seven pairs", "one_suit", "seven_pairs",
       "four_kind", uses_root=True),
    _p("tianhu", "天胡", "heavenly win", "heavenly"),
    _p("dihu", "地胡", "earthly win", "earthly"),
)  # fmt: skip

#: Extras a hand's tiles decide (门清中张): each adds its row's fan on top of the base
#: pattern(s) when the hand has its features, whatever pattern is scored.
HAND_EXTRAS: tuple[Pattern, ...] = (
    _p("menqing", "门清", "concealed hand (no pong, no exposed kong)", "concealed"),
    _p("zhongzhang", "中张", "no 1 or 9 (断幺九)", "no_terminal_tile"),
)

#: Extras, each adding its row's fan (``gen`` once per root), in the order they are
#: listed after the base pattern.
EXTRAS: dict[str, tuple[str, str]] = {
    "gen": ("根", "root"),
    **{p.id: (p.zh, p.en) for p in HAND_EXTRAS},
    "gangshanghua": ("杠上花", "bloom after a kong"),
    "gangshangpao": ("杠上炮", "win on a discard after a kong"),
    "qiangganghu": ("抢杠胡", "robbing a kong"),
    "haidi": ("海底", "last tile"),
    "zimo": ("自摸加番", "self-draw bonus fan"),
}
