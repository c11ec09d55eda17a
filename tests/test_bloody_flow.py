"""血流成河 (``end_condition: bloody_flow``): a winner stays in with its hand fixed
(胡后不改牌). The golden deals (tests/golden/bloody_flow.jsonl) price repeated wins; these
small logs check the moves a fixed hand may and may not make (docs/rules.md 3,
docs/decisions.md "血流成河"). They record no fan, deltas or scores, and stop without a
``deal_end``, so the only other finding is ``wrong_end``."""

from __future__ import annotations

import json
from typing import Any

from ingest.logs.reader import read_lines
from ingest.replay.validate import ValidationReport, validate_log

RULES = {"preset": "standard", "end_condition": "bloody_flow"}
# Seat 1 holds 111m 234m 567m 99m 46p: it waits on 5p only. Seats 0, 2, 3 hold three suits
# and can never win.
HANDS = [
    ["2m", "3m", "1p", "2p", "3p", "5p", "7p", "8p", "1s", "2s", "3s", "4s", "5s", "6s"],
    ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "9m", "9m", "4p", "6p"],
    ["2m", "6p", "6p", "9p", "9p", "1s", "6s", "6s", "7s", "7s", "8s", "8s", "9s"],
    ["3m", "1p", "1p", "2p", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "9s"],
]
# seat 0 throws 5p, seat 1 wins it and stays in; seats 2, 3 and 0 each draw and throw a tile
OPENING = [
    {"type": "discard", "seat": 0, "tile": "5p"},
    {"type": "hu", "seat": 1, "tile": "5p", "from": 0},
    {"type": "draw", "seat": 2, "tile": "9p"},
    {"type": "discard", "seat": 2, "tile": "9p"},
    {"type": "draw", "seat": 3, "tile": "3p"},
    {"type": "discard", "seat": 3, "tile": "3p"},
    {"type": "draw", "seat": 0, "tile": "4p"},
    {"type": "discard", "seat": 0, "tile": "4p"},
]


def validated(events: list[dict[str, Any]], hands: list[list[str]] = HANDS) -> ValidationReport:
    lines = [
        {"type": "session", "session_id": "bf", "players": ["A", "B", "C", "D"], "rules": RULES},
        {"type": "deal", "deal_id": "bf-1", "dealer": 0, "hands": hands},
        *events,
    ]
    return validate_log(read_lines([json.dumps(line) for line in lines], "bf.jsonl"))


def fixed_hand_findings(report: ValidationReport) -> list[tuple[int | None, int | None]]:
    findings = list(report.all_findings())
    assert {f.code for f in findings} <= {"fixed_hand", "wrong_end"}, [f.message for f in findings]
    return [(f.line, f.seat) for f in findings if f.code == "fixed_hand"]


def test_a_kong_of_the_drawn_tile_that_keeps_the_waits_is_allowed_and_paid_by_all() -> None:
    # seat 1 draws the fourth 1m: 暗杠 1111m leaves 234m 567m 99m 46p, still waiting on 5p
    report = validated(
        [
            *OPENING,
            {"type": "draw", "seat": 1, "tile": "1m"},
            {"type": "kong", "seat": 1, "tile": "1m", "kind": "concealed"},
            {"type": "draw", "seat": 1, "tile": "9p"},
            {"type": "discard", "seat": 1, "tile": "9p"},
        ]
    )
    assert fixed_hand_findings(report) == []
    # nobody has left, so all three others pay the 暗杠: 2 each under standard
    assert [k.deltas for k in report.deals[0].kongs] == [(-2, 6, -2, -2)]


def test_a_pong_after_a_win_is_a_fixed_hand_finding_and_the_replay_goes_on() -> None:
    # seat 2 throws a 9m and seat 1 (holding 99m) pongs it, then throws 4p: one finding,
    # at the pong (line 15: session 1, deal 2, the opening 3-10, then 11-14), none for the
    # discard after it (no drawn tile to throw)
    report = validated(
        [
            *OPENING,
            {"type": "draw", "seat": 1, "tile": "8p"},
            {"type": "discard", "seat": 1, "tile": "8p"},
            {"type": "draw", "seat": 2, "tile": "9m"},
            {"type": "discard", "seat": 2, "tile": "9m"},
            {"type": "pong", "seat": 1, "tile": "9m"},
            {"type": "discard", "seat": 1, "tile": "4p"},
            {"type": "draw", "seat": 2, "tile": "2s"},
        ]
    )
    assert fixed_hand_findings(report) == [(15, 1)]


def test_a_kong_that_changes_the_waits_is_a_fixed_hand_finding() -> None:
    # seat 1 holds 1112345678999m (九莲: every m tile completes it) and wins seat 0's 4m; on
    # drawing the fourth 1m its 暗杠 1111m leaves 2345678999m, which can no longer wait on
    # 1m: the waits change, one finding at the kong (line 12)
    hands = [list(HANDS[0]), [f"{rank}m" for rank in "1112345678999"], HANDS[2], HANDS[3]]
    hands[0][hands[0].index("5p")] = "4m"
    opening = [{**OPENING[0], "tile": "4m"}, {**OPENING[1], "tile": "4m"}, *OPENING[2:]]
    report = validated(
        [
            *opening,
            {"type": "draw", "seat": 1, "tile": "1m"},
            {"type": "kong", "seat": 1, "tile": "1m", "kind": "concealed"},
            {"type": "draw", "seat": 1, "tile": "9p"},
            {"type": "discard", "seat": 1, "tile": "9p"},
        ],
        hands,
    )
    assert fixed_hand_findings(report) == [(12, 1)]
