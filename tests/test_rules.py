"""Rule sets: the presets against rules.md section 7 and the fan table of section 4,
overrides, the rule-set name, and the errors for what the rules do not know."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from engine.rules import PATTERN_IDS, Rules, RulesError, load_rules, preset_names

PRESETS = ("standard", "chengdu", "online")

# rules.md section 7, transcribed by hand: knob -> (standard, chengdu, online).
# "off" in the table is False; chengdu's flower_pig_payment is the 满格 'cap' (8 points).
KNOB_TABLE: dict[str, tuple[Any, Any, Any]] = {
    "void_declaration": ("none", "none", "required"),
    "void_discard_first": (False, False, True),
    "multiple_hu": (True, True, True),
    "pass_rule": ("any", "same_tile", "any"),
    "pass_rule_higher_fan_ok": (True, False, True),
    "last_four_must_hu": (True, True, False),
    "end_condition": ("bloody", "bloody", "bloody"),
    "max_fan": (None, 4, 7),
    "self_draw_bonus": ("none", "add_base", "add_base"),
    "kong_bloom_after_exposed": ("self_draw", "self_draw", "self_draw"),
    "kong_discard_transfer": (True, True, True),
    "exposed_kong_discarder": (1, 2, 2),
    "exposed_kong_others": (0, 0, 1),
    "added_kong_each": (1, 1, 1),
    "concealed_kong_each": (2, 2, 2),
    "added_kong_same_turn_only": (False, True, False),
    "flower_pig_payment": (16, "cap", 16),
    "no_ting_pays": ("max", "max", "max"),
    "dead_wait_counts": (True, True, True),
    "haidi": (False, False, False),
    "exchange_three": (False, False, False),
}
FLOWER_PIG_POINTS = (16, 8, 16)

# rules.md section 4 fan table: pattern -> (standard, chengdu, online); None is "–".
FAN_TABLE: dict[str, tuple[Any, Any, Any]] = {
    "pinghu": (1, 1, 1),
    "duiduihu": (2, 2, 2),
    "qingyise": (3, 3, 3),
    "daiyaojiu": (3, 2, 3),
    "qidui": (3, 3, 3),
    "qingdui": (4, 4, 4),
    "jiangdui": (4, 5, 4),
    "jingoudiao": (None, 3, None),
    "qingdaiyao": (5, 4, 5),
    "longqidui": (5, None, 5),
    "qingqidui": (5, 5, 5),
    "qinglongqidui": (6, None, 6),
    "tianhu": (6, "cap", 6),
    "dihu": (6, "cap", 6),
}


def test_preset_names() -> None:
    assert preset_names() == ["chengdu", "online", "standard"]


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_knobs_match_rules_md(preset: str) -> None:
    rules = load_rules(preset)
    column = PRESETS.index(preset)
    knobs = rules.knobs()
    assert set(knobs) == set(KNOB_TABLE) | {"name", "fan"}
    for knob, values in KNOB_TABLE.items():
        assert knobs[knob] == values[column], knob
        assert type(knobs[knob]) is type(values[column]), knob  # True is not 1
    assert rules.flower_pig_points == FLOWER_PIG_POINTS[column]
    assert rules.name == preset


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_fan_table_matches_rules_md(preset: str) -> None:
    rules = load_rules(preset)
    column = PRESETS.index(preset)
    assert [p for p, _ in rules.fan] == list(FAN_TABLE)
    assert list(PATTERN_IDS) == list(FAN_TABLE)
    for pattern, values in FAN_TABLE.items():
        assert dict(rules.fan)[pattern] == values[column], pattern
        expected = values[column]
        if expected == "cap":
            expected = rules.max_fan  # chengdu: 4
        assert rules.pattern_fan(pattern) == expected, pattern


def _rules_md() -> str:
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "shared" / "spec" / "rules.md"
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    pytest.skip("../shared/spec/rules.md is not next to this checkout")


def _cell(text: str) -> Any:
    text = text.strip().strip("`")
    table = {"true": True, "false": False, "off": False, "–": None}
    if text in table:
        return table[text]
    return int(text) if text.isdigit() else text


def test_transcription_matches_the_spec_file() -> None:
    """Guards the hand transcription above against the spec text itself (when present)."""
    text = _rules_md()
    knob_rows: dict[str, tuple[Any, ...]] = {}
    fan_rows: dict[str, tuple[Any, ...]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"`\w+`( extra)?", cells[0]):
            knob = cells[0].split()[0].strip("`")
            row = tuple(_cell(c) for c in cells[1:])
            # max_fan's "none" is no cap (None); elsewhere "none" is a knob value
            knob_rows[knob] = tuple(None if knob == "max_fan" and v == "none" else v for v in row)
        elif len(cells) == 6 and re.fullmatch(r"`\w+`", cells[0]):
            fan_rows[cells[0].strip("`")] = tuple(_cell(c) for c in cells[3:])
    expected_knobs = {
        knob: FLOWER_PIG_POINTS if knob == "flower_pig_payment" else values
        for knob, values in KNOB_TABLE.items()
    }
    assert knob_rows == expected_knobs
    assert fan_rows == FAN_TABLE


def test_overrides_keep_the_rest_of_the_preset() -> None:
    base = load_rules("chengdu")
    rules = load_rules({"preset": "chengdu", "pass_rule": "off", "haidi": True})
    assert (rules.pass_rule, rules.haidi) == ("off", True)
    for knob in KNOB_TABLE:
        if knob not in ("pass_rule", "haidi"):
            assert getattr(rules, knob) == getattr(base, knob), knob
    assert rules.fan == base.fan


def test_default_preset_is_standard() -> None:
    rules = load_rules({"max_fan": 4})
    assert rules.max_fan == 4
    assert rules.exposed_kong_discarder == 1  # standard's value
    assert rules.name == 'standard+{"max_fan":4}'


def test_json_text_and_mapping_give_the_same_rules() -> None:
    from_text = load_rules('  {"preset": "standard", "max_fan": 4}  ')
    from_mapping = load_rules({"preset": "standard", "max_fan": 4})
    assert from_text == from_mapping
    assert load_rules(from_text) is from_text
    assert load_rules(" online ") == load_rules("online")


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("chengdu", "chengdu"),
        ({"preset": "online"}, "online"),
        ({"preset": "standard", "max_fan": 4}, 'standard+{"max_fan":4}'),
        ({"preset": "standard", "max_fan": "none"}, 'standard+{"max_fan":"none"}'),
        (
            {"preset": "chengdu", "haidi": True, "pass_rule": "off"},
            'chengdu+{"haidi":true,"pass_rule":"off"}',
        ),
        ({"preset": "chengdu", "fan": {"jiangdui": 4}}, 'chengdu+{"fan":{"jiangdui":4}}'),
    ],
)
def test_rule_set_name_says_preset_and_overrides(spec: str | dict[str, Any], name: str) -> None:
    assert load_rules(spec).name == name


def test_fan_override_changes_one_pattern() -> None:
    rules = load_rules({"preset": "chengdu", "fan": {"jiangdui": 4, "longqidui": 5}})
    assert rules.pattern_fan("jiangdui") == 4
    assert rules.pattern_fan("longqidui") == 5
    assert rules.pattern_fan("daiyaojiu") == 2  # untouched chengdu value
    off = load_rules({"preset": "standard", "fan": {"qidui": "none"}})
    assert off.pattern_fan("qidui") is None


def test_max_fan_override_and_none() -> None:
    assert load_rules({"preset": "online", "max_fan": 5}).max_fan == 5
    assert load_rules({"preset": "online", "max_fan": "none"}).max_fan is None
    assert load_rules({"preset": "online", "max_fan": None}).max_fan is None


@pytest.mark.parametrize(
    ("spec", "points"),
    [
        ("chengdu", 8),  # 2^(4-1): 满格 at chengdu's cap of 4
        ({"preset": "chengdu", "max_fan": 5}, 16),  # follows a max_fan override
        ({"preset": "chengdu", "max_fan": 3}, 4),
        ({"preset": "chengdu", "max_fan": 1}, 1),
        ({"preset": "chengdu", "flower_pig_payment": 10}, 10),
        ("standard", 16),
        ({"preset": "standard", "max_fan": 4}, 16),  # a number does not follow the cap
        ({"preset": "standard", "max_fan": 4, "flower_pig_payment": "cap"}, 8),
        ("online", 16),
    ],
)
def test_flower_pig_points(spec: str | dict[str, Any], points: int) -> None:
    assert load_rules(spec).flower_pig_points == points


def test_tianhu_cap_without_a_cap() -> None:
    # decisions.md: 'cap' without max_fan is the highest fan of any pattern of the rule
    # set.  chengdu's highest rows are jiangdui and qingqidui, 5; standard's qinglongqidui
    # 6 (made 'cap' by an override).
    rules = load_rules({"preset": "chengdu", "max_fan": "none", "flower_pig_payment": 16})
    assert rules.pattern_fan("tianhu") == 5
    standard = load_rules({"preset": "standard", "fan": {"tianhu": "cap"}})
    assert standard.pattern_fan("tianhu") == 6
    assert load_rules({"preset": "standard", "max_fan": 3, "fan": {"dihu": "cap"}}).pattern_fan("dihu") == 3


def test_rules_are_frozen() -> None:
    rules = load_rules("standard")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.max_fan = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("sichuan", "unknown preset 'sichuan'"),
        ("Standard", "unknown preset"),
        ("", "unknown preset"),
        ("../presets/standard", "unknown preset"),  # a path is not a preset name
        ({"preset": "nope"}, "unknown preset"),
        ({"preset": 3}, "'preset' must be a preset name"),
        ({"preset": "standard", "colour": "red"}, "unknown knob 'colour'"),
        ({"preset": "standard", "name": "mine"}, "unknown knob 'name'"),
        ({"preset": "standard", "pass_rule": "sometimes"}, "knob 'pass_rule' must be one of"),
        ({"preset": "standard", "void_declaration": "optional"}, "void_declaration"),
        ({"preset": "standard", "end_condition": "first"}, "end_condition"),
        ({"preset": "standard", "self_draw_bonus": "double"}, "self_draw_bonus"),
        ({"preset": "standard", "no_ting_pays": "average"}, "no_ting_pays"),
        ({"preset": "standard", "max_fan": 0}, "max_fan"),
        ({"preset": "standard", "max_fan": -1}, "max_fan"),
        ({"preset": "standard", "max_fan": True}, "max_fan"),
        ({"preset": "standard", "max_fan": "4"}, "max_fan"),
        ({"preset": "standard", "max_fan": 4.5}, "max_fan"),
        ({"preset": "standard", "exposed_kong_discarder": -1}, "exposed_kong_discarder"),
        ({"preset": "standard", "concealed_kong_each": "2"}, "concealed_kong_each"),
        ({"preset": "standard", "haidi": "yes"}, "knob 'haidi' must be true or false"),
        ({"preset": "standard", "multiple_hu": 1}, "multiple_hu"),
        ({"preset": "standard", "flower_pig_payment": "max"}, "flower_pig_payment"),
        ({"preset": "standard", "flower_pig_payment": "cap"}, "needs a max_fan"),  # no cap
        ({"preset": "chengdu", "max_fan": "none"}, "needs a max_fan"),  # 满格 without a cap
        ({"preset": "standard", "fan": {"yakuman": 13}}, "unknown pattern 'yakuman'"),
        ({"preset": "standard", "fan": {"pinghu": 0}}, "fan of 'pinghu'"),
        ({"preset": "standard", "fan": {"pinghu": True}}, "fan of 'pinghu'"),
        ({"preset": "standard", "fan": [1]}, "'fan' must be an object"),
        # pinghu applies to every win (rules.md section 4): it cannot be switched off
        ({"preset": "standard", "fan": {"pinghu": "none"}}, "fan of 'pinghu' cannot be 'none'"),
        ({"preset": "chengdu", "fan": {"pinghu": None}}, "fan of 'pinghu' cannot be 'none'"),
        ({"preset": "standard", "max_fan": object()}, "plain JSON data"),
        ('{"preset": "standard", "max_fan": }', "rules JSON cannot be read"),
        ("[1, 2]", "unknown preset"),
    ],
)
def test_bad_rules_raise_rules_error(spec: str | dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=re.escape(message)):
        load_rules(spec)


def test_rules_error_is_a_value_error() -> None:
    assert issubclass(RulesError, ValueError)
    assert isinstance(load_rules("standard"), Rules)
