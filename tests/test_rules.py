"""Rule sets: the presets against docs/presets.md and the pattern table of docs/rules.md
section 4 (a wrong doc fails here), docs/knobs.md's knob list, overrides, the rule-set
name, and the errors for what the rules do not know."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.rules import (
    FAN_IDS,
    PATTERN_IDS,
    Rules,
    RulesError,
    knob_kinds,
    knob_values,
    load_rules,
    preset_names,
    rules_from_name,
)
from engine.vocabulary import PATTERNS

PRESETS = ("standard", "chengdu", "online", "novikov", "hongzhong", "sanren", "duangouka")

# docs/presets.md, transcribed by hand: knob -> (standard, chengdu, online, novikov,
# hongzhong, sanren, duangouka).
# "off" in the table is False; chengdu's flower_pig_payment is the 满格 'cap' (8 points).
KNOB_TABLE: dict[str, tuple[Any, ...]] = {
    "void_declaration": ("none", "none", "required", "required", "none", "none", "none"),
    "void_discard_first": (False, False, True, False, False, False, False),
    "multiple_hu": (True, True, True, True, True, True, True),
    "pass_rule": ("any", "same_tile", "any", "off", "any", "any", "any"),
    "pass_rule_higher_fan_ok": (True, False, True, True, True, True, True),
    "last_four_must_hu": (True, True, False, False, True, True, True),
    "end_condition": ("bloody", "bloody", "bloody", "bloody", "bloody", "bloody", "bloody"),
    "max_fan": (None, 4, 7, 4, None, None, None),
    "self_draw_bonus": ("none", "add_base", "add_base", "add_base", "none", "none", "none"),
    "kong_bloom_after_exposed": (
        "self_draw",
        "self_draw",
        "self_draw",
        "self_draw",
        "self_draw",
        "self_draw",
        "self_draw",
    ),
    "kong_discard_transfer": (True, True, True, False, True, True, True),
    "exposed_kong_discarder": (1, 2, 2, 2, 1, 1, 1),
    "exposed_kong_others": (0, 0, 1, 0, 0, 0, 0),
    "added_kong_each": (1, 1, 1, 1, 1, 1, 1),
    "concealed_kong_each": (2, 2, 2, 2, 2, 2, 2),
    "added_kong_same_turn_only": (False, True, False, False, False, False, False),
    "flower_pig_payment": (16, "cap", 16, 16, 16, 16, 16),
    "no_ting_pays": ("max", "max", "max", "max", "max", "max", "max"),
    "dead_wait_counts": (True, True, True, True, True, True, True),
    "haidi": (False, False, False, True, False, False, False),
    "haidi_any_discard": (False, False, False, False, False, False, False),
    "exchange_three": (False, False, False, True, False, False, False),
    "tax_refund": (True, True, True, False, True, True, True),
    "flower_pig_pays": ("still_in", "still_in", "still_in", "all_others", "still_in", "still_in", "still_in"),
    # house rules of 杠上炮, 查叫 and the turn
    "ready_value_kong_roots": (True, True, True, True, True, True, True),
    "flower_pig": (
        "three_suits",
        "three_suits",
        "three_suits",
        "holds_void",
        "three_suits",
        "three_suits",
        "three_suits",
    ),
    "next_after_discard_win": ("winner", "winner", "winner", "winner", "winner", "winner", "winner"),
    # fan knobs (docs/knobs.md): one base pattern, 金钩钓 with four melds, as before
    "fan_combination": ("highest", "highest", "highest", "sum", "highest", "highest", "highest"),
    "jingoudiao_needs_four_melds": (True, True, True, True, True, True, True),
    # the table: four seats, three suits, thirteen tiles, no 红中
    "seats": (4, 4, 4, 4, 4, 3, 3),
    "suits": ("mps", "mps", "mps", "mps", "mps", "ps", "ps"),
    "hand_size": (13, 13, 13, 13, 13, 13, 10),
    "wild_tiles": (0, 0, 0, 0, 4, 0, 0),
    "two_suit_void": (False, False, False, False, False, False, False),
}
FLOWER_PIG_POINTS = (16, 8, 16, 16, 16, 16, 16)

# docs/rules.md section 4 fan table: pattern -> (standard, chengdu, online, novikov,
# hongzhong, sanren, duangouka); None is "–".
FAN_TABLE: dict[str, tuple[Any, ...]] = {
    "pinghu": (1, 1, 1, 1, 1, 1, 1),
    "duiduihu": (2, 2, 2, 2, 2, 2, 2),
    "qingyise": (3, 3, 3, 3, 3, 3, 3),
    "daiyaojiu": (3, 2, 3, None, 3, 3, 3),
    "qidui": (3, 3, 3, 3, 3, 3, 3),
    "qingdui": (4, 4, 4, None, 4, 4, 4),
    "jiangdui": (4, 5, 4, None, 4, 4, 4),
    "jingoudiao": (None, 3, None, 2, None, None, None),
    "jiangjingoudiao": (None, None, None, None, None, None, None),
    "qingjingoudiao": (None, None, None, None, None, None, None),
    "shibaluohan": (None, None, None, None, None, None, None),
    "qingshibaluohan": (None, None, None, None, None, None, None),
    "qingdaiyao": (5, 4, 5, None, 5, 5, 5),
    "longqidui": (5, None, 5, None, 5, 5, 5),
    "qingqidui": (5, 5, 5, None, 5, 5, 5),
    "qinglongqidui": (6, None, 6, None, 6, 6, 6),
    "tianhu": (6, "cap", 6, None, 6, 6, 6),
    "dihu": (6, "cap", 6, None, 6, 6, 6),
    # 红中 tables only: off in every preset of four seats, three suits and no 红中
    "sihongzhong": (None, None, None, None, 6, None, None),
}
# docs/presets.md, the extras' rows of [fan]: +1 each as before they were rows; 门清 and
# 中张 (the 门清中张 option) not scored by any preset's source.
EXTRA_FAN_TABLE: dict[str, tuple[Any, ...]] = {
    "gen": (1, 1, 1, 1, 1, 1, 1),
    "menqing": (None, None, None, None, None, None, None),
    "zhongzhang": (None, None, None, None, None, None, None),
    "wuhongzhong": (None, None, None, None, None, None, None),
    "gangshanghua": (1, 1, 1, 1, 1, 1, 1),
    "gangshangpao": (1, 1, 1, 1, 1, 1, 1),
    "qiangganghu": (1, 1, 1, 1, 1, 1, 1),
    "haidi": (1, 1, 1, 1, 1, 1, 1),
    "zimo": (1, 1, 1, 1, 1, 1, 1),
}


def test_preset_names() -> None:
    assert preset_names() == ["chengdu", "duangouka", "hongzhong", "novikov", "online", "sanren", "standard"]


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_knobs_match_the_transcription(preset: str) -> None:
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
def test_preset_fan_table_matches_the_transcription(preset: str) -> None:
    rules = load_rules(preset)
    column = PRESETS.index(preset)
    assert [p for p, _ in rules.fan] == [*FAN_TABLE, *EXTRA_FAN_TABLE]
    assert list(PATTERN_IDS) == list(FAN_TABLE)
    assert list(FAN_IDS) == [*FAN_TABLE, *EXTRA_FAN_TABLE]
    for pattern, values in {**FAN_TABLE, **EXTRA_FAN_TABLE}.items():
        assert dict(rules.fan)[pattern] == values[column], pattern
        expected = values[column]
        if expected == "cap":
            expected = rules.max_fan  # chengdu: 4
        assert rules.pattern_fan(pattern) == expected, pattern


DOCS = Path(__file__).resolve().parents[1] / "docs"
PRESET_FILES = Path(__file__).resolve().parents[1] / "engine" / "presets"


def _table_rows(text: str, heading: str) -> list[list[str]]:
    """The rows (cells stripped) of the first Markdown table under ``heading``."""
    lines = text.splitlines()
    at = lines.index(heading)
    rows: list[list[str]] = []
    for line in lines[at + 1 :]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    assert len(rows) > 2, f"no table under {heading!r}"
    header, rule, *body = rows
    assert set("".join(rule)) <= {"-", " "}, rule
    return [header, *body]


def _toml_cell(cell: str) -> Any:
    """A presets.md cell is a TOML value in backticks, written as the preset file writes it."""
    assert cell.startswith("`") and cell.endswith("`"), cell
    return tomllib.loads(f"v = {cell[1:-1]}")["v"]


def _presets_md(heading: str) -> dict[str, dict[str, Any]]:
    """preset -> {knob or pattern: value as written} from a table of docs/presets.md."""
    header, *body = _table_rows((DOCS / "presets.md").read_text(encoding="utf-8"), heading)
    columns: dict[str, dict[str, Any]] = {name: {} for name in header[1:]}
    for row in body:
        key = row[0].strip("`")
        for name, cell in zip(header[1:], row[1:], strict=True):
            columns[name][key] = _toml_cell(cell)
    return columns


def test_presets_md_is_the_preset_files_value_for_value() -> None:
    """docs/presets.md and engine/presets/*.toml hold the same values, written the same way."""
    knobs = _presets_md("## Knobs")
    fans = _presets_md("## Fan of each base pattern and extra (`[fan]`)")
    assert sorted(knobs) == sorted(fans) == preset_names()
    for preset in preset_names():
        table = tomllib.loads((PRESET_FILES / f"{preset}.toml").read_text(encoding="utf-8"))
        fan = table.pop("fan")
        assert knobs[preset] == table, preset
        assert list(knobs[preset]) == list(table), preset  # same order too
        assert fans[preset] == fan, preset
        assert list(fans[preset]) == list(FAN_IDS), preset


def test_presets_md_matches_the_hand_transcription() -> None:
    """The docs' tables against KNOB_TABLE / FAN_TABLE above, after load_rules' reading
    ("none" is no cap for max_fan and an unscored pattern in [fan])."""
    knobs = _presets_md("## Knobs")
    fans = _presets_md("## Fan of each base pattern and extra (`[fan]`)")
    for column, preset in enumerate(PRESETS):
        read = {k: None if k == "max_fan" and v == "none" else v for k, v in knobs[preset].items()}
        assert read == {knob: values[column] for knob, values in KNOB_TABLE.items()}, preset
        read_fan = {p: None if v == "none" else v for p, v in fans[preset].items()}
        expected = {pattern: values[column] for pattern, values in {**FAN_TABLE, **EXTRA_FAN_TABLE}.items()}
        assert read_fan == expected, preset


def test_rules_md_pattern_table_matches_the_presets() -> None:
    """docs/rules.md section 4's pattern table: ids in PATTERN_IDS order, the Chinese name
    engine/fan.py uses, and the fan per preset ('–' not scored, 'cap' the cap)."""
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    header, *body = _table_rows(text, "### Base patterns")
    assert header[3:] == list(PRESETS)
    assert [row[0].strip("`") for row in body] == list(PATTERN_IDS)
    for row in body:
        pattern = row[0].strip("`")
        assert PATTERNS[pattern][0] in row[1], (pattern, row[1])
        cells = tuple(None if c == "–" else int(c) if c.isdigit() else c for c in row[3:])
        assert cells == FAN_TABLE[pattern], pattern


def test_knobs_md_lists_every_knob_and_its_values() -> None:
    """docs/knobs.md has one row per knob, in engine/rules.py's order, naming every value
    the knob takes."""
    text = (DOCS / "knobs.md").read_text(encoding="utf-8")
    header, *body = _table_rows(text, "## The knobs")
    assert header[:2] == ["knob", "values"]
    rows = {row[0].strip("`"): row for row in body}
    knobs = [f.name for f in dataclasses.fields(Rules) if f.name not in ("name", "fan")]
    assert list(rows) == knobs
    for knob in knobs:
        values = rows[knob][1]
        literals, types = knob_kinds(knob)  # the values Rules' annotations name
        for value in literals:
            written = f'`"{value}"`' if isinstance(value, str) else f"`{value}`"
            assert written in values, (knob, value)
        if types == (bool,) and not literals:
            assert values == "`true`, `false`", knob
        elif int in types:
            assert "whole number" in values, knob
        if type(None) in types:
            assert '`"none"`' in values, knob  # no cap: written "none"


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


@pytest.mark.parametrize(
    "spec",
    [
        *preset_names(),
        {"preset": "standard", "max_fan": 4},
        {"preset": "chengdu", "haidi": True, "pass_rule": "off"},
        {"preset": "online", "fan": {"jiangdui": 4}, "max_fan": "none"},
    ],
)
def test_rule_set_name_parses_back_to_the_same_rules(spec: str | dict[str, Any]) -> None:
    """The name built in ``load_rules`` and read by ``rules_from_name`` (what the warehouse
    stores) agree: name -> parse -> the same rules, for every preset and some overrides."""
    rules = load_rules(spec)
    again = rules_from_name(rules.name)
    assert again == rules and again.name == rules.name


def test_a_rule_set_name_with_broken_overrides_is_a_rules_error() -> None:
    with pytest.raises(RulesError, match="rule set 'standard\\+\\{max_fan'"):
        rules_from_name("standard+{max_fan")


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
    # docs/decisions.md: 'cap' without max_fan is the highest fan of any pattern of the rule
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
        # pinghu applies to every win (docs/rules.md section 4): it cannot be switched off
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


def test_the_knob_checks_agree_with_the_rules_annotations() -> None:
    """Each knob of ``Rules`` is annotated with the type ``_KNOB_TYPES`` derives for it
    (what ``load_rules`` checks, the differential plays and the C bits cover): the type of
    ``engine/rules.py`` named after the knob, or ``bool`` or ``int``. Read from the source,
    as the compiled build erases the annotations of named types."""
    import ast

    import engine.rules as rules_module
    from engine.rules import _KNOB_TYPES

    source = (Path(__file__).parent.parent / "engine" / "rules.py").read_text(encoding="utf-8")
    rules_class = next(
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ClassDef) and node.name == "Rules"
    )
    annotated = {
        node.target.id: ast.unparse(node.annotation)
        for node in rules_class.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    }
    assert [knob for knob in annotated if knob not in ("name", "fan")] == list(_KNOB_TYPES)
    for knob, kind in _KNOB_TYPES.items():
        name = annotated[knob]
        assert getattr(rules_module, name, None) is kind or name == getattr(kind, "__name__", None), (
            knob,
            name,
        )
        assert "Literal" not in name, knob  # the values are written once, in the named type
        assert name in ("bool", "int") or name == "".join(w.title() for w in knob.split("_")), (knob, name)


def test_every_kind_of_knob_is_checked() -> None:
    """The parts of the knobs' types: literals, whole numbers, booleans, and None for
    max_fan only; a knob that mixes kinds is played at samples of each."""
    for knob in knob_values():
        literals, types = knob_kinds(knob)
        assert set(types) <= {bool, int, type(None)}, knob
        assert all(isinstance(value, str) for value in literals) or all(
            isinstance(value, int) and not isinstance(value, bool) for value in literals
        ), knob  # texts, or the numbers of a table knob (seats: 4, 3, 2)
    assert knob_kinds("kong_discard_transfer") == (("refund",), (bool,))
    assert knob_kinds("no_ting_pays") == (("max", "min"), (int,))
    assert knob_kinds("max_fan") == ((), (int, type(None)))
    assert knob_values()["pass_rule"] == ("any", "same_tile", "off")
