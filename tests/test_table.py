"""The table knobs (docs/knobs.md, "The table"): what a table derives (the wall's size),
the combinations a rule set may not name, and the tile replay's refusal of tables it does
not play yet (a finding, never a four-seat replay of a three-seat log)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.rules import RulesError, load_rules
from engine.table import replay_refusal, require_replayable, table_of
from ingest.replay.validate import validate_paths


@pytest.mark.parametrize(
    ("knobs", "wall"),
    [
        # 108 tiles, 4 × 13 + 1 = 53 dealt: 55 (today's wall)
        ({}, 55),
        # 筒 and 条, three seats: 72 tiles, 3 × 13 + 1 = 40 dealt: 32
        ({"seats": 3, "suits": "ps"}, 32),
        # ten-tile hands at three seats: 72 − (3 × 10 + 1) = 41
        ({"seats": 3, "suits": "ps", "hand_size": 10}, 41),
        # 108 + 4 红中 = 112 (seed 000), 53 dealt: 59; with 8 红中, 116: 63
        ({"wild_tiles": 4}, 59),
        ({"wild_tiles": 8}, 63),
        # two players, one suit, seven tiles: 36 − 15 = 21
        ({"seats": 2, "suits": "m", "hand_size": 7}, 21),
    ],
)
def test_the_wall_is_what_the_deal_leaves(knobs: dict[str, object], wall: int) -> None:
    table = table_of(load_rules({"preset": "standard", **knobs}))
    assert table.wall_size == wall


def test_sets_to_win_follow_the_hand() -> None:
    assert [table_of(load_rules({"hand_size": size})).sets_to_win for size in (13, 10, 7)] == [4, 3, 2]


@pytest.mark.parametrize(
    ("knobs", "words"),
    [
        # 36 tiles, four seats of 13: 53 dealt, more than the set
        ({"suits": "m"}, "fewer than one draw a seat"),
        # 定缺 with two suits and no 缺一门 at two suits: no suit to give up
        ({"preset": "online", "seats": 3, "suits": "ps"}, "定缺"),
        ({"preset": "online", "suits": "p", "seats": 2, "hand_size": 7}, "定缺"),
        ({"suits": "s", "seats": 2, "hand_size": 7, "two_suit_void": True}, "two_suit_void needs two suits"),
        ({"seats": 5}, "must be one of [4, 3, 2]"),
        ({"seats": "3"}, "must be one of [4, 3, 2]"),
        ({"wild_tiles": False}, "must be one of [0, 4, 8]"),
        ({"suits": "sp"}, "must be one of"),
        ({"hand_size": 14}, "must be one of [13, 10, 7]"),
    ],
)
def test_an_impossible_table_says_why(knobs: dict[str, object], words: str) -> None:
    with pytest.raises(RulesError, match=re.escape(words)):
        load_rules(knobs)


def test_a_two_suit_table_may_declare_a_void_when_it_needs_one() -> None:
    rules = load_rules({"preset": "online", "seats": 3, "suits": "ps", "two_suit_void": True})
    assert (rules.void_declaration, rules.two_suit_void) == ("required", True)


def test_every_preset_plays_today_s_table() -> None:
    for preset in ("standard", "chengdu", "online", "novikov"):
        rules = load_rules(preset)
        assert replay_refusal(rules) is None
        assert require_replayable(rules) is rules
        assert table_of(rules).wall_size == 55


def test_a_log_of_another_table_is_a_finding_not_a_four_seat_replay(tmp_path: Path) -> None:
    log = tmp_path / "three.jsonl"
    log.write_text(
        '{"type":"session","session_id":"s1","players":["A","B","C"],"rules":{"preset":"standard","seats":3,"suits":"ps","wild_tiles":4,"exchange_three":true}}\n'
        '{"type":"deal","deal_id":"d1","dealer":0,"hands":["1p","1p","1p","1p"]}\n'
        '{"type":"deal_end","reason":"wall_exhausted"}\n'
        '{"type":"session_end"}\n',
        encoding="utf-8",
    )
    report = validate_paths([str(log)])
    findings = list(report.all_findings())
    assert [finding.code for finding in findings] == ["bad_record"], findings
    assert findings[0].message_key == "tile_table_refused"
    assert "the tile replay plays" in findings[0].message and findings[0].line == 2
    assert not report.ok


def test_a_session_names_one_player_a_seat(tmp_path: Path) -> None:
    """Four names at a three-seat table: no seat can be told, so nothing is audited."""
    log = tmp_path / "names.jsonl"
    log.write_text(
        '{"type":"session","session_id":"s1","players":["A","B","C","D"],"rules":{"preset":"standard","seats":3,"suits":"ps"}}\n'
        '{"type":"session_end"}\n',
        encoding="utf-8",
    )
    findings = list(validate_paths([str(log)]).all_findings())
    assert [(f.code, f.message_key, f.line) for f in findings] == [("bad_record", "table_players", 1)]
    assert "4 players" in findings[0].message and "3 seats" in findings[0].message
