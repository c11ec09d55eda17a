"""The rule set of a dcmshi/sichuan-mahjong replay, from the record's own ``config``.

The app plays Novikov's Sichuan Bloody Rules (its ``GameConfig``,
``packages/engine/src/state.ts``), so chuanma's ``novikov`` preset is the base and each
field of the config sets the knobs it decides; where the app's engine
(``packages/engine/src/actions.ts``, ``claims.ts``, ``scoring.ts``) differs from the
preset by construction, the override is fixed here (docs/platforms.md says why for each).
A field chuanma cannot express is a ``platform_rule`` warning.
"""

from __future__ import annotations

from typing import Any, Final

from engine.messages import Text, say

#: state.ts DEFAULT_CONFIG: what a record that leaves a field out was played with
DEFAULT_CONFIG: Final[dict[str, Any]] = {
    "enableHuanSanZhang": False,
    "huanDirection": "random",
    "enableRobbingKong": True,
    "enableHeavenlyEarthly": True,
    "voidDiscardRule": "strict",
    "enableFlowerPig": False,
    "fanCap": 3,
    "claimWindowMs": 15000,
    "enableSeatingThrow": True,
}

#: the app's engine, whatever the config says (actions.ts / claims.ts / scoring.ts)
FIXED: Final[dict[str, Any]] = {
    "preset": "novikov",
    "pass_rule": "any",  # furiten: no discard win until the seat's own next draw ...
    "pass_rule_higher_fan_ok": True,  # ... unless the new win is worth more fan (§5.5.5)
    "kong_discard_transfer": "refund",  # shootAfterKong refunds the discarder's last kong
    "added_kong_same_turn_only": True,  # 'postponed' (fourth tile not just drawn) pays 0
    "tax_refund": True,  # wallEnd: a seat not won and not ready refunds its kongs
    "ready_value_kong_roots": False,  # calcTMV leaves the Kong fan out
    "jingoudiao_needs_four_melds": False,  # GoldenWait: any all-pung hand won on the pair
    "flower_pig_payment": 0,  # enableFlowerPig off (below when on)
    "flower_pig": "three_suits",  # playerSuitCount(hand + melds) == 3
    "haidi_any_discard": True,  # applyHuResolution: UnderTheSea on any discard win at the empty wall
}

Finding = tuple[str, Text]  # code, message


def config_of(record: dict[str, Any]) -> dict[str, Any]:
    """The record's config over the app's defaults (older rows may lack fields)."""
    config = record.get("config")
    return DEFAULT_CONFIG | (config if isinstance(config, dict) else {})


def _flag(config: dict[str, Any], key: str) -> bool:
    value = config[key]
    if not isinstance(value, bool):
        raise ValueError(f"config.{key} {value!r} is not true or false")
    return value


def rules_of(config: dict[str, Any]) -> tuple[dict[str, Any], list[Finding]]:
    """chuanma's ``rules`` for a record's config, and the findings of fields it cannot
    express (``ValueError`` for a field whose value cannot be read)."""
    rules = dict(FIXED)
    notes: list[Finding] = []
    cap = config["fanCap"]
    if not isinstance(cap, int) or isinstance(cap, bool) or cap < 1:
        raise ValueError(f"config.fanCap {cap!r} is not a whole number >= 1")
    rules["max_fan"] = cap + 1  # the app's fan is chuanma's minus one (2 ** fan points)
    rules["exchange_three"] = _flag(config, "enableHuanSanZhang")
    if config["huanDirection"] not in ("cw", "ccw", "random"):
        raise ValueError(f"config.huanDirection {config['huanDirection']!r} is not cw, ccw or random")
    heaven = "cap" if _flag(config, "enableHeavenlyEarthly") else "none"
    rules["fan"] = {"tianhu": heaven, "dihu": heaven}
    _flag(config, "enableRobbingKong")  # off: the record holds no rob; nothing to map
    _flag(config, "enableSeatingThrow")  # decides the wall, not a rule (dcmshi_rng)
    rule = config["voidDiscardRule"]
    if rule == "strict":
        rules["void_discard_first"] = True
    elif rule == "lenient":
        rules["void_discard_first"] = False
        notes.append(("platform_rule", say("dcmshi_lenient")))
    else:
        raise ValueError(f"config.voidDiscardRule {rule!r} is not strict or lenient")
    if _flag(config, "enableFlowerPig"):
        rules["flower_pig_payment"] = "cap"  # 2 ** fanCap to each other seat
        rules["flower_pig_pays"] = "all_others"
    for key in sorted(set(config) - set(DEFAULT_CONFIG)):
        notes.append(("platform_rule", say("dcmshi_unknown_config", field=key)))
    return rules, notes
