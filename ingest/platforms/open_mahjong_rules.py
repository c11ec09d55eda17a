"""The rule set of an open_mahjong_unity 川麻 record, from its own rule fields.

``game_title.rule`` must be ``sichuan`` and ``sub_rule`` ``sichuan/standard`` (the
platform's 血战 state machine, SichuanGameState.py); ``blood_battle`` false there means
the first win ends the deal. The platform's fan is chuanma's minus one (平和 0 番 = 1
point; 2 ** min(番, 3), so a cap of 3 platform fan is chuanma's ``max_fan`` 4).
"""

from __future__ import annotations

from typing import Any, Final

SUB_RULES: Final = frozenset({"sichuan/standard"})

#: chuanma's knobs for sichuan/standard (docs/platforms.md explains each value)
KNOBS: Final[dict[str, Any]] = {
    "preset": "chengdu",
    "void_declaration": "required",  # 定缺阶段: every seat picks a suit
    "void_discard_first": False,  # not enforced: 花猪 are settled instead
    "last_four_must_hu": False,  # no 最后四张必胡 in the platform
    "kong_discard_transfer": False,  # 杠上炮 refunds the payers ("gr" tick), no 呼叫转移
    "added_kong_same_turn_only": False,  # 加杠 always earns 1 from each (xiayu1)
    "haidi": True,  # 海底 +1 番
    "pass_rule": "any",  # 顺和: no discard win after a pass until the next draw ...
    "pass_rule_higher_fan_ok": True,  # ... unless it is worth more fan
}


def rules_of(title: dict[str, Any]) -> dict[str, Any]:
    """The session's ``rules`` for a record's ``game_title`` (blood_battle is read by the
    caller from the rounds: the title does not carry it)."""
    return dict(KNOBS)
