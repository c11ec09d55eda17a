"""The rule set of an open_mahjong_unity 川麻 record, from its own rule fields.

``game_title.rule`` must be ``sichuan`` and ``sub_rule`` ``sichuan/standard`` (the
platform's 血战 state machine, SichuanGameState.py); ``blood_battle`` false there means
the first win ends the deal. The platform's fan is chuanma's minus one (平和 0 番 = 1
point; 2 ** min(番, 3), so a cap of 3 platform fan is chuanma's ``max_fan`` 4). Each knob
is read off the platform's engine (docs/platforms.md names the function that decides
it) and held to its real records (tests/test_platform_records_open_mahjong.py).
"""

from __future__ import annotations

from typing import Any, Final

SUB_RULES: Final = frozenset({"sichuan/standard"})

#: chuanma's knobs for sichuan/standard (docs/platforms.md explains each value)
KNOBS: Final[dict[str, Any]] = {
    "preset": "chengdu",
    "void_declaration": "required",  # 定缺阶段: every seat picks a suit
    "void_discard_first": True,  # enforced: a discard of another suit is turned into a void tile
    "last_four_must_hu": False,  # no 最后四张必胡 in the platform
    "kong_discard_transfer": "refund",  # 杠上炮 refunds the kong to its payers ("gr" tick)
    "added_kong_same_turn_only": True,  # 加杠 earns 1 from each only of a tile just drawn
    "haidi": True,  # 海底 +1 番
    "haidi_any_discard": True,  # 海底 on any discard win once the wall is empty (a pong's discard too)
    "pass_rule": "any",  # 顺和: no discard win after a pass until the next draw ...
    "pass_rule_higher_fan_ok": True,  # ... unless it is worth more fan
    "flower_pig": "none",  # a seat holding its void at the end is only not ready (查叫)
    # rows the platform has no fan for (sichuan_hepai_check.py): such a hand scores what
    # its parts score there (将对 is 大对子, 清幺九 清一色, 天胡/地胡 a plain self-draw)
    "fan": {"daiyaojiu": None, "jiangdui": None, "qingdaiyao": None, "tianhu": None, "dihu": None},
}


def rules_of(title: dict[str, Any]) -> dict[str, Any]:
    """The session's ``rules`` for a record's ``game_title`` (blood_battle is read by the
    caller from the rounds: the title does not carry it)."""
    return {knob: dict(value) if isinstance(value, dict) else value for knob, value in KNOBS.items()}


#: the platform's 川麻 fan names (om:game_calculation/sichuan/sichuan_hepai_check.py) that
#: add one chuanma extra each: 杠 (a declared kong) and 根 are both chuanma's ``gen``
EXTRA_FANS: Final[dict[str, str]] = {
    "杠": "gen",
    "根": "gen",
    "杠上花": "gangshanghua",
    "杠上炮": "gangshangpao",
    "抢杠": "qiangganghu",
    "海底": "haidi",
}
#: the platform lists each base fan it finds (清一色 and 大对子 both); chuanma scores one
#: base pattern, the highest of this rule set (``fan_combination: highest``): 平和 alone, or
#: nothing but extras, is ``pinghu``; 清一色 大对子 金钩钓 is ``qingdui`` (4 fan) since
#: ``qingjingoudiao`` is not scored under chengdu
BASE_FANS: Final[dict[frozenset[str], str]] = {
    frozenset(): "pinghu",
    frozenset({"大对子"}): "duiduihu",
    frozenset({"清一色"}): "qingyise",
    frozenset({"七对"}): "qidui",
    frozenset({"清一色", "大对子"}): "qingdui",
    frozenset({"清一色", "七对"}): "qingqidui",
    frozenset({"大对子", "金钩钓"}): "jingoudiao",
    frozenset({"清一色", "大对子", "金钩钓"}): "qingdui",
}
BASE_NAMES: Final = frozenset().union(*BASE_FANS)
#: other names for the platform's fans: its own (大对子(对对和), 金钩钓(十三落抬)) and the
#: combined names people write (清对, 清七对)
ALIASES: Final[dict[str, tuple[str, ...]]] = {
    "对对和": ("大对子",),
    "十三落抬": ("金钩钓",),
    "清对": ("清一色", "大对子"),
    "清七对": ("清一色", "七对"),
}


class UnknownFan(ValueError):
    """A fan name that is none of the platform's 川麻 fans (or a mix no hand makes)."""


def patterns_of(names: list[str]) -> list[str]:
    """A win's fan names as chuanma's pattern keys: its one base pattern, then an extra
    per 杠, 根 and situational fan (the engine compares them with its own as a set)."""
    base: set[str] = set()
    extras: list[str] = []
    for name in names:
        for part in ALIASES.get(name, (name,)):
            if part in EXTRA_FANS:
                extras.append(EXTRA_FANS[part])
            elif part in BASE_NAMES:
                base.add(part)
            elif part != "平和":
                raise UnknownFan(f"fan {name!r} is none of the platform's 川麻 fans")
    pattern = BASE_FANS.get(frozenset(base))
    if pattern is None:
        raise UnknownFan(f"fans {' '.join(names)} make no hand")
    return [pattern, *extras]
