"""The rows of the fan table, written once: each base pattern (docs/rules.md section 4)
with the hand features it needs, the extras a hand's tiles decide, and every extra (their
names are :mod:`engine.vocabulary`'s, in the order the extras are listed after the base
pattern).

``engine.rules`` takes the rows' ids from here (a rule set gives each row its fan, so these
tables hold no numbers), ``engine.fan`` scores them, and the sheets, the simulator and the
pages name them by these ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.vocabulary import EXTRAS as EXTRAS
from engine.vocabulary import PATTERNS as PATTERN_NAMES


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


def _p(id_: str, *requires: str, uses_root: bool = False) -> Pattern:
    """A row, its names from :data:`engine.vocabulary.PATTERNS`."""
    zh, en = PATTERN_NAMES[id_]
    return Pattern(id_, zh, en, frozenset(requires), uses_root)


#: docs/rules.md section 4, base patterns. Features: ``engine.fan.FEATURE_BITS``.
PATTERNS: tuple[Pattern, ...] = (
    _p("pinghu", "win"),
    _p("duiduihu", "triplets"),
    _p("qingyise", "one_suit"),
    _p("daiyaojiu", "terminals"),
    _p("qidui", "seven_pairs"),
    _p("qingdui", "one_suit", "triplets"),
    _p("jiangdui", "triplets", "only_258"),
    _p("jingoudiao", "golden_hook"),
    _p("jiangjingoudiao", "golden_hook", "only_258"),
    _p("qingjingoudiao", "one_suit", "golden_hook"),
    _p("shibaluohan", "golden_hook", "four_kongs"),
    _p("qingshibaluohan", "one_suit", "golden_hook", "four_kongs"),
    _p("qingdaiyao", "one_suit", "terminals"),
    _p("longqidui", "seven_pairs", "four_kind", uses_root=True),
    _p("qingqidui", "one_suit", "seven_pairs"),
    _p("qinglongqidui", "one_suit", "seven_pairs", "four_kind", uses_root=True),
    _p("tianhu", "heavenly"),
    _p("dihu", "earthly"),
    _p("sihongzhong", "four_wilds"),
)

#: Extras a hand's tiles decide (门清中张, 无红中): each adds its row's fan on top of the base
#: pattern(s) when the hand has its features, whatever pattern is scored.
HAND_EXTRAS: tuple[Pattern, ...] = (
    _p("menqing", "concealed"),
    _p("zhongzhang", "no_terminal_tile"),
    _p("wuhongzhong", "no_wild"),
)
