"""红中 (wild tiles) in tile-by-tile deals: golden deals worked out by hand at the
``hongzhong`` preset (seed 000's 红中 section; docs/decisions.md, "红中"), one test per
refusal a 红中 brings (a claim of a discarded 红中, a meld a 红中 would help make, a
起手4红中 the seat does not hold), and the simulator's 红中 deals (their invariants after
every event are tests/test_tables.py's, at every table)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tamper_found import assert_found_as_listed

from engine.deal import Deal
from engine.events import DealEnd, PlayEvent
from engine.replay import FindingSink, ReplayOptions, replay_deal
from engine.rules import load_rules
from engine.settlement import seat_deltas
from engine.table import table_of
from engine.tiles import NUM_KINDS, WILD, parse_tiles, tile_name
from ingest.logs.reader import read_lines
from ingest.replay.validate import validate_log, validate_paths
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer

#: the preset with the first win ending the deal, so a golden stops at its win
FIRST_HU: dict[str, Any] = {"preset": "hongzhong", "end_condition": "first_hu"}


def _write(tmp_path: Path, lines: list[dict[str, Any]]) -> Path:
    log = tmp_path / "wild.jsonl"
    log.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return log


def _deal(tmp_path: Path, lines: list[dict[str, Any]]) -> dict[str, Any]:
    (deal,) = validate_paths([str(_write(tmp_path, lines))]).deals
    result: dict[str, Any] = deal.to_json()
    return result


def _undealt(hands: list[str], wilds: int = 4) -> list[int]:
    """The tiles of the 108 and the ``wilds`` 红中 not in ``hands``, 红中 last."""
    counts = [4] * NUM_KINDS + [wilds]
    for hand in hands:
        for tile in parse_tiles(hand, wild=True):
            counts[tile] -= 1
    assert min(counts) >= 0
    return [tile for tile in range(NUM_KINDS + 1) for _ in range(counts[tile])]


def _session(rules: Any, deal_id: str, hands: list[str], wall: list[int] | None) -> list[dict[str, Any]]:
    deal: dict[str, Any] = {"type": "deal", "deal_id": deal_id, "dealer": 0, "hands": hands}
    if wall is not None:
        assert len(wall) == 112 - 53
        deal["wall"] = [tile_name(tile) for tile in wall]
    return [
        {"type": "session", "session_id": f"s-{deal_id}", "players": ["A", "B", "C", "D"], "rules": rules},
        deal,
    ]


# --------------------------------------------------------------- a 红中 stands in: discard and self-draw
# Seat 1 holds 123m 456m 789m 99m 5m 中 (13 tiles): the pair 99m and 5m 中 waiting for a
# set; it waits on 3m 4m 5m 6m 7m (5m 中 + the tile a run or 555m), and on 9m (999m, 5m 中 the pair).
# Seat 0 (dealer) 123456789p 1146s 6m; seats 2 and 3 hold scattered tiles.
WIN_HANDS = ["123456789p1146s6m", "12345678999m5m中", "19p19s2578m369p28s", "147p258s369s1479m"]


def discard_win() -> list[dict[str, Any]]:
    """Seat 0 throws 6m; seat 1 wins it: 123m 456m 789m 99m + 5m 6m 中 (中 as 4m or 7m):
    清一色 3 fan, no 根 in any reading (no kind four times), so 2^(3−1) = 4 from the
    discarder alone. First win ends the deal: net [−4, +4, 0, 0]."""
    wall = _undealt(WIN_HANDS)
    return [
        *_session(FIRST_HU, "wild-discard", WIN_HANDS, wall),
        {"type": "discard", "seat": 0, "tile": "6m"},
        {"type": "hu", "seat": 1, "tile": "6m", "from": 0, "fan": 3, "patterns": ["qingyise"], "deltas": [-4, 4, 0, 0]},
        {"type": "deal_end", "reason": "first_hu", "settlement": [0, 0, 0, 0], "scores": [-4, 4, 0, 0]},
        {"type": "session_end", "totals": [-4, 4, 0, 0]},
    ]  # fmt: skip


def test_a_discard_win_with_a_wild_standing_in(tmp_path: Path) -> None:
    deal = _deal(tmp_path, discard_win())
    assert deal["status"] == "ok", deal
    assert deal["computed"]["scores"] == [-4, 4, 0, 0]
    assert [(w["fan"], w["patterns"]) for w in deal["computed"]["wins"]] == [(3, ["qingyise"])]


def self_draw_win() -> list[dict[str, Any]]:
    """Seat 0 throws 1s (nobody wins it); seats 1, 2, 3 and 0 draw 1p 2p 3p 4p and throw
    them (no wins: a self-draw on seat 1's first draw would be 地胡); seat 1 then draws a
    红中 and wins by self-draw with it: 123m 456m 789m 99m 5m 中中. The best reading takes the
    two 红中 as 5m 5m (123m 456m 555m 789m 99m: 5m held four times, one 根) or as 9m 5m
    (123m 456m 789m 999m 55m: 9m four times, one 根): 清一色 3 + 根 1 = 4 fan, 2^3 = 8 from
    each of the three others (self_draw_bonus none: no 自摸 extra). Net [−8, +24, −8, −8]."""
    first = [*parse_tiles("1234p", wild=True), WILD]
    rest = _undealt(WIN_HANDS)
    for tile in first:
        rest.remove(tile)
    wall = first + rest
    turns = [
        line
        for seat, tile in zip((1, 2, 3, 0), ("1p", "2p", "3p", "4p"), strict=True)
        for line in (
            {"type": "draw", "seat": seat, "tile": tile},
            {"type": "discard", "seat": seat, "tile": tile},
        )
    ]
    return [
        *_session(FIRST_HU, "wild-self-draw", WIN_HANDS, wall),
        {"type": "discard", "seat": 0, "tile": "1s"},
        *turns,
        {"type": "draw", "seat": 1, "tile": "7z"},
        {"type": "hu", "seat": 1, "tile": "7z", "from": None, "fan": 4, "patterns": ["qingyise", "gen"], "deltas": [-8, 24, -8, -8]},
        {"type": "deal_end", "reason": "first_hu", "settlement": [0, 0, 0, 0], "scores": [-8, 24, -8, -8]},
        {"type": "session_end", "totals": [-8, 24, -8, -8]},
    ]  # fmt: skip


def test_a_self_drawn_wild_wins_at_its_best_reading(tmp_path: Path) -> None:
    deal = _deal(tmp_path, self_draw_win())
    assert deal["status"] == "ok", deal
    assert deal["computed"]["scores"] == [-8, 24, -8, -8]


# --------------------------------------------------------------- 起手4红中
# Seat 2 is dealt all four 红中 (and nine scattered tiles of three suits: no shape, and
# 缺一门 broken — 起手4个红中，直接胡牌 names no condition). Its hu comes right after
# the deal line, from null, on 7z: 起手4红中 6 fan (as 天胡 at this table), paid as a
# self-draw, 2^5 = 32 by each of the three others. Net [−32, −32, +96, −32].
FOUR_HANDS = ["123456789p1146s6m", "12345678999m5m1p", "19m19p19s258m中中中中", "147p258s369s1478m"]


def four_wilds() -> list[dict[str, Any]]:
    return [
        *_session(FIRST_HU, "four-wilds", FOUR_HANDS, _undealt(FOUR_HANDS)),
        {"type": "hu", "seat": 2, "tile": "7z", "from": None, "fan": 6, "patterns": ["sihongzhong"], "deltas": [-32, -32, 96, -32]},
        {"type": "deal_end", "reason": "first_hu", "settlement": [0, 0, 0, 0], "scores": [-32, -32, 96, -32]},
        {"type": "session_end", "totals": [-32, -32, 96, -32]},
    ]  # fmt: skip


def test_four_wilds_dealt_win_at_once(tmp_path: Path) -> None:
    deal = _deal(tmp_path, four_wilds())
    assert deal["status"] == "ok", deal
    assert deal["computed"]["wins"][0]["patterns"] == ["sihongzhong"]
    assert deal["computed"]["scores"] == [-32, -32, 96, -32]


def test_the_dealers_four_wilds_are_its_first_move(tmp_path: Path) -> None:
    """The dealer dealt four 红中 (seat 2's hand above with a fourteenth tile, 9s): its hu
    on 7z is its first move, as 天胡 would be; 起手4红中 6 and 天胡 6 tie and the later row
    (sihongzhong) is the pattern; 32 from each of the others. Net [+96, −32, −32, −32]."""
    hands = ["19m19p19s258m9s中中中中", "12345678999m5m1p", "123456789p1146s", "147p258s369s1478m"]
    lines = [
        *_session(FIRST_HU, "dealer-four", hands, _undealt(hands)),
        {"type": "hu", "seat": 0, "tile": "7z", "from": None, "fan": 6, "patterns": ["sihongzhong"], "deltas": [96, -32, -32, -32]},
        {"type": "deal_end", "reason": "first_hu", "settlement": [0, 0, 0, 0], "scores": [96, -32, -32, -32]},
        {"type": "session_end", "totals": [96, -32, -32, -32]},
    ]  # fmt: skip
    deal = _deal(tmp_path, lines)
    assert deal["status"] == "ok", deal
    assert deal["computed"]["scores"] == [96, -32, -32, -32]


def test_four_wilds_after_the_dealers_own(tmp_path: Path) -> None:
    """Eight 红中 (116 tiles), 血战到底: the dealer's 起手4红中 is its first move (it leaves,
    seat 1 is to draw); seat 1, dealt four too, still wins at once before drawing, 32 from
    each of the three others still in (the dealer has left: 32 from seats 2 and 3). The
    log stops there: only the early end is a finding."""
    hands = ["19m19p19s258m9s中中中中", "148m147p258s中中中中", "12345678999m5m1p", "123456789p1146s"]
    lines = [
        *_session({"preset": "hongzhong", "wild_tiles": 8}, "two-fours", hands, None),
        {"type": "hu", "seat": 0, "tile": "7z", "from": None, "fan": 6, "patterns": ["sihongzhong"], "deltas": [96, -32, -32, -32]},
        {"type": "hu", "seat": 1, "tile": "中", "from": None, "fan": 6, "patterns": ["sihongzhong"], "deltas": [0, 64, -32, -32]},
        {"type": "deal_end", "reason": "three_won"},
        {"type": "session_end"},
    ]  # fmt: skip
    deal = _deal(tmp_path, lines)
    assert [f["code"] for f in deal["findings"]] == ["wrong_end"], deal["findings"]
    assert [w["seat"] for w in deal["computed"]["wins"]] == [0, 1]


@pytest.mark.parametrize(
    ("at", "key"),
    [(2, "four_wilds_short"), (3, "four_wilds_late")],
    ids=["one-wild-held", "after-the-first-discard"],
)
def test_a_four_wilds_win_not_held_or_late_is_a_finding(tmp_path: Path, at: int, key: str) -> None:
    """Seat 1 holds no 红中 and claims 起手4红中; seat 2 claims it after the dealer's
    first discard."""
    lines = four_wilds()
    lines[2:3] = (
        [{"type": "hu", "seat": 1, "tile": "7z", "from": None}]
        if at == 2
        else [
            {"type": "discard", "seat": 0, "tile": "6m"},
            {"type": "hu", "seat": 2, "tile": "7z", "from": None},
        ]
    )
    deal = _deal(tmp_path, lines)
    assert [(f["code"], f["message_key"], f["rule"]) for f in deal["findings"]][:1] == [
        ("illegal_hu", key, "sihongzhong")
    ]


def test_four_wilds_claimed_on_the_seats_own_turn_is_late(tmp_path: Path) -> None:
    """Seat 2, dealt four 红中, lets the opening pass: the dealer throws 6m, seat 1 draws
    (1m, the wall's first) and throws it, seat 2 draws 2m and only then claims 起手4红中
    (``hu`` from null on 7z, its own turn). Its nine scattered tiles and four 红中 make no
    win, and the claim is late: four_wilds_late, rule sihongzhong (docs/log-format.md),
    not a bare ``no_shape`` with no rule."""
    lines = four_wilds()
    lines[2:3] = [
        {"type": "discard", "seat": 0, "tile": "6m"},
        {"type": "draw", "seat": 1, "tile": "1m"},
        {"type": "discard", "seat": 1, "tile": "1m"},
        {"type": "draw", "seat": 2, "tile": "2m"},
        {"type": "hu", "seat": 2, "tile": "7z", "from": None},
    ]
    deal = _deal(tmp_path, lines)
    assert [(f["code"], f["message_key"], f.get("rule")) for f in deal["findings"]][:1] == [
        ("illegal_hu", "four_wilds_late", "sihongzhong")
    ], deal["findings"]


def test_a_fourth_wild_drawn_is_no_four_wilds_win(tmp_path: Path) -> None:
    """Seat 1 is dealt three 红中 and scattered tiles of two suits (1m 3m 4m 6m 7m 9m 1p 4p
    6p 9p), and draws the fourth 红中 on its first draw: four 红中, but not dealt (起手), so
    no 起手4红中 (it would win whatever the tiles are); the ten scattered tiles and four
    红中 make no four sets and a pair, and its hu is a finding."""
    hands = ["123456789p1146s6m", "134679m1469p中中中", "12345678999m5m1p", "147p258s369s1478m"]
    rest = _undealt(hands)
    rest.remove(WILD)
    lines = [
        *_session(FIRST_HU, "drawn-fourth", hands, [WILD, *rest]),
        {"type": "discard", "seat": 0, "tile": "6m"},
        {"type": "draw", "seat": 1, "tile": "7z"},
        {"type": "hu", "seat": 1, "tile": "7z", "from": None},
        {"type": "deal_end", "reason": "first_hu"},
        {"type": "session_end"},
    ]
    deal = _deal(tmp_path, lines)
    assert [(f["code"], f["message_key"]) for f in deal["findings"]][:1] == [("illegal_hu", "no_shape")]


# --------------------------------------------------------------- 多人抢杠, paid by the konger alone
# hongzhong as it stands (血战到底, 一炮多响). Seat 0 (dealer) 11123456789p 46s + 5s; seat 1
# 19m 129p 2378s 55s 99s; seat 2 123s 789s 22p 789p 46s; seat 3 123s 345678p 469s 中.
# 3: seat 0 throws 5s (seats 2 and 3 could win it and let it pass); 4: seat 1 pongs it;
# 5: seat 1 throws 9p; 6-7: seat 2 draws and throws 9m; 8-9: seat 3 draws and throws 5m;
# 10-11: seat 0 draws and throws 9p (each pass lapsed with its draw, and none of these
# wins for anyone); 12: seat 1 draws the fourth 5s; 13: adds it to its pong (加杠);
# 14-16: seats 2, 3 and 0 rob it (多人抢杠，多人胡), each 平胡 1 + 抢杠 1 = 2 fan, 2^1 = 2:
# seat 2 123s 789s 456s 789p 22p; seat 3 123s 456s 345p 678p 9s中 (中 as 9s);
# seat 0 123p 456p 789p 11p 456s. The konger pays all three (包赔: a robbed kong is a
# discard win, the robbed seat the discarder); the robbed kong earns nothing. Three of four
# have won: the deal ends (three_won). Net [+2, −6, +2, +2].
ROB_HANDS = ["11123456789p46s5s", "19m129p2378s55s99s", "123789s22789p46s", "123s345678p469s中"]


def robbed_by_three() -> list[dict[str, Any]]:
    return [
        *_session("hongzhong", "rob-three", ROB_HANDS, None),
        {"type": "discard", "seat": 0, "tile": "5s"},
        {"type": "pong", "seat": 1, "tile": "5s"},
        {"type": "discard", "seat": 1, "tile": "9p"},
        {"type": "draw", "seat": 2, "tile": "9m"},
        {"type": "discard", "seat": 2, "tile": "9m"},
        {"type": "draw", "seat": 3, "tile": "5m"},
        {"type": "discard", "seat": 3, "tile": "5m"},
        {"type": "draw", "seat": 0, "tile": "9p"},
        {"type": "discard", "seat": 0, "tile": "9p"},
        {"type": "draw", "seat": 1, "tile": "5s"},
        {"type": "kong", "seat": 1, "tile": "5s", "kind": "added", "deltas": [0, 0, 0, 0]},
        {"type": "hu", "seat": 2, "tile": "5s", "from": 1, "fan": 2, "patterns": ["pinghu", "qiangganghu"], "deltas": [0, -2, 2, 0]},
        {"type": "hu", "seat": 3, "tile": "5s", "from": 1, "fan": 2, "patterns": ["pinghu", "qiangganghu"], "deltas": [0, -2, 0, 2]},
        {"type": "hu", "seat": 0, "tile": "5s", "from": 1, "fan": 2, "patterns": ["pinghu", "qiangganghu"], "deltas": [2, -2, 0, 0]},
        {"type": "deal_end", "reason": "three_won", "settlement": [0, 0, 0, 0], "scores": [2, -6, 2, 2]},
        {"type": "session_end", "totals": [2, -6, 2, 2]},
    ]  # fmt: skip


def test_a_kong_robbed_by_three_is_paid_by_the_konger_alone(tmp_path: Path) -> None:
    deal = _deal(tmp_path, robbed_by_three())
    assert deal["status"] == "ok", deal
    assert deal["computed"]["scores"] == [2, -6, 2, 2]
    assert [w["kind"] for w in deal["computed"]["wins"]] == ["rob", "rob", "rob"]


# --------------------------------------------------------------- 查叫 with a wild hand
# hongzhong as it stands. Seat 0 (dealer) 123456789m 99p 5p 中 + 1s, throws 1s: ready,
# the 中 standing in. Its waits: 3p 4p 5p 6p 7p (99p the pair, 5p 中 and the tile a set:
# a run, or 555p) and 9p (999p, 5p 中 the pair 55p). No m or s tile completes it (the
# 5p 99p would be left over). Each wait is 平胡, 1 fan (two suits, no 根): its 查大叫 value.
# Seat 1 147m 258m 147p 258p 9m, seat 2 147p 258p 147s 258s 9s: scattered, not ready.
# Seat 3 1346m 9m... 13469m 13469s 中中中: three 红中 and ten scattered tiles, not ready;
# it holds 万 and 条 only — a 红中 is no suit, so it is no 花猪 (flower_pig three_suits).
# Every 红中 is dealt; the wall holds the 108's 59 others, its last four 条 (no wait of
# seat 0's, so 最后四张 forces nothing). After 1s each seat in turn draws and throws the
# tile drawn, 59 draws; a ready seat may let a win pass (no claim follows). At the empty
# wall: no 花猪; seat 0 ready for 1 fan; seats 1, 2, 3 not ready each pay it 2^0 = 1.
# Net [+3, −1, −1, −1].
CHA_JIAO_HANDS = ["123456789m99p5p中1s", "147m258m147p258p9m", "147p258p147s258s9s", "13469m13469s中中中"]


def cha_jiao_with_a_wild() -> list[dict[str, Any]]:
    rest = _undealt(CHA_JIAO_HANDS)
    assert WILD not in rest
    wall = sorted(rest)  # 万, then 筒, then 条: the last four are 条
    lines = [
        *_session("hongzhong", "cha-jiao-wild", CHA_JIAO_HANDS, wall),
        {"type": "discard", "seat": 0, "tile": "1s"},
    ]
    for index, tile in enumerate(wall):
        seat = (1 + index) % 4
        lines.append({"type": "draw", "seat": seat, "tile": tile_name(tile)})
        lines.append({"type": "discard", "seat": seat, "tile": tile_name(tile)})
    lines.append(
        {
            "type": "deal_end",
            "reason": "wall_exhausted",
            "settlement": [3, -1, -1, -1],
            "scores": [3, -1, -1, -1],
        }
    )
    lines.append({"type": "session_end", "totals": [3, -1, -1, -1]})
    return lines  # fmt: skip


def test_cha_jiao_values_a_wild_hand(tmp_path: Path) -> None:
    deal = _deal(tmp_path, cha_jiao_with_a_wild())
    assert deal["status"] == "ok", deal
    assert deal["computed"]["end_reason"] == "wall_exhausted"
    assert deal["computed"]["settlement"] == [3, -1, -1, -1]


# --------------------------------------------------------------- refusals
# Each on the discard-win deal's tiles with one change (hongzhong, first win ends).
def _refused(
    tmp_path: Path, hands: list[str], moves: list[dict[str, Any]], rules: Any = FIRST_HU
) -> list[tuple[str, str, Any]]:
    lines = [*_session(rules, "refused", hands, None), *moves, {"type": "deal_end", "reason": "first_hu"}]
    deal = _deal(tmp_path, [*lines, {"type": "session_end"}])
    return [(f["code"], f["message_key"], f.get("rule")) for f in deal["findings"]][:1]


#: seat 0 holds a 红中 where the discard-win deal has 6m
DEAD_HANDS = ["123456789p1146s中", *WIN_HANDS[1:]]


@pytest.mark.parametrize(
    ("claim", "code"),
    [
        ({"type": "pong", "seat": 1, "tile": "7z"}, "illegal_pong"),
        ({"type": "kong", "seat": 1, "tile": "7z", "kind": "exposed"}, "illegal_kong"),
        ({"type": "hu", "seat": 1, "tile": "7z", "from": 0}, "illegal_hu"),
    ],
    ids=["pong", "kong", "hu"],
)
def test_a_claim_of_a_discarded_wild_is_a_finding(tmp_path: Path, claim: dict[str, Any], code: str) -> None:
    """Seat 0 throws its 红中: it is dead. Seat 1 (one 红中 of its own, and 5m 中 + 中
    would even be a shape) may not pong, kong or win it."""
    found = _refused(tmp_path, DEAD_HANDS, [{"type": "discard", "seat": 0, "tile": "中"}, claim])
    assert found == [(code, "wild_claim", "wild_tiles")]


@pytest.mark.parametrize(
    ("claim", "code"),
    [
        ({"type": "pong", "seat": 2, "tile": "7z"}, "illegal_pong"),
        ({"type": "kong", "seat": 2, "tile": "7z", "kind": "exposed"}, "illegal_kong"),
    ],
    ids=["pong", "kong"],
)
def test_a_meld_of_wilds_on_another_discard_is_a_finding(
    tmp_path: Path, claim: dict[str, Any], code: str
) -> None:
    """Seat 0 throws 6m and seat 2 (no 红中 at all) writes a pong or kong of 7z: at a 红中
    table no meld is made of 红中; at a table without them 7z is no tile of the set."""
    moves = [{"type": "discard", "seat": 0, "tile": "6m"}, claim]
    assert _refused(tmp_path, WIN_HANDS, moves) == [(code, "wild_meld", "wild_tiles")]
    plain = [WIN_HANDS[0], "12345678999m55m", *WIN_HANDS[2:]]  # seat 1's 中 a 5m
    off = _refused(tmp_path, plain, moves, {**FIRST_HU, "wild_tiles": 0})
    assert [(found_code, key) for found_code, key, _ in off] == [("tile_count", "tile_off_table")]


def test_a_wild_thrown_at_a_table_without_them_is_a_finding(tmp_path: Path) -> None:
    plain = ["123456789p1146s6m", "12345678999m55m", *WIN_HANDS[2:]]
    found = _refused(
        tmp_path, plain, [{"type": "discard", "seat": 0, "tile": "7z"}], {**FIRST_HU, "wild_tiles": 0}
    )
    assert [(code, key) for code, key, _ in found] == [("tile_count", "tile_off_table")]


def test_a_discarded_wild_is_no_claim_and_the_turn_moves_on(tmp_path: Path) -> None:
    """The 红中 thrown, seat 1 draws next as after any discard nobody claims, and wins on
    its draw 6m (123m 456m 789m 99m 5m 6m 中): its first draw with no pong or kong before
    it, so 地胡 (6 fan, above 清一色's 3; a thrown 红中 is no claim), 2^5 = 32 from each."""
    lines = [
        *_session(FIRST_HU, "dead", DEAD_HANDS, None),
        {"type": "discard", "seat": 0, "tile": "7z"},
        {"type": "draw", "seat": 1, "tile": "6m"},
        {"type": "hu", "seat": 1, "tile": "6m", "from": None, "fan": 6, "patterns": ["dihu"], "deltas": [-32, 96, -32, -32]},
        {"type": "deal_end", "reason": "first_hu", "settlement": [0, 0, 0, 0], "scores": [-32, 96, -32, -32]},
        {"type": "session_end", "totals": [-32, 96, -32, -32]},
    ]  # fmt: skip
    deal = _deal(tmp_path, lines)
    assert deal["status"] == "ok", deal


def test_a_pong_a_wild_would_help_make_is_a_finding(tmp_path: Path) -> None:
    """Seat 0 throws 1m; seat 1 holds one 1m and a 红中: 1m 中 + 1m is no pong
    (红中不能辅助其他牌来碰和杠)."""
    hands = ["123456789p1146s1m", *WIN_HANDS[1:]]
    found = _refused(
        tmp_path,
        hands,
        [{"type": "discard", "seat": 0, "tile": "1m"}, {"type": "pong", "seat": 1, "tile": "1m"}],
    )
    assert found == [("illegal_pong", "wild_meld", "wild_tiles")]  # fmt: skip


def test_a_kong_a_wild_would_help_make_is_a_finding(tmp_path: Path) -> None:
    """The dealer holds 111s and a 红中: no concealed kong of 1s."""
    hands = ["123456789p111s4s中", *WIN_HANDS[1:]]
    found = _refused(tmp_path, hands, [{"type": "kong", "seat": 0, "tile": "1s", "kind": "concealed"}])
    assert found == [("illegal_kong", "wild_meld", "wild_tiles")]


def test_a_wild_at_a_table_without_them_is_a_finding(tmp_path: Path) -> None:
    lines = discard_win()
    lines[0]["rules"] = "standard"
    del lines[1]["wall"]
    deal = _deal(tmp_path, lines)
    assert [(f["code"], f["message_key"]) for f in deal["findings"]] == [("tile_count", "tile_off_table")]


def test_a_wild_passed_in_an_exchange_is_a_finding(tmp_path: Path) -> None:
    """换三张 passes three tiles of one suit; 7z (read as a 红中 by the reader) has none."""
    hands = [*ROB_HANDS[:3], "123s345678p469s5m"]
    lines = [
        *_session({"preset": "standard", "exchange_three": True}, "swap", hands, None),
        {"type": "exchange", "direction": "clockwise", "tiles": ["777z", "237s", "123s", "345p"]},
        {"type": "deal_end", "reason": "first_hu"},
        {"type": "session_end"},
    ]
    deal = _deal(tmp_path, lines)
    assert [(f["code"], f["message_key"]) for f in deal["findings"]][:1] == [
        ("illegal_exchange", "exchange_suit")
    ]


def test_a_fifth_wild_is_a_finding(tmp_path: Path) -> None:
    hands = ["123456789p1146s中", "12345678999m5m中", "19p19s2578m369p2s中", "147p258s369s14m中中"]
    lines = [*_session(FIRST_HU, "five", hands, None), {"type": "deal_end", "reason": "first_hu"}]
    deal = _deal(tmp_path, lines)
    assert [(f["code"], f["message_key"]) for f in deal["findings"]] == [("tile_count", "wild_copies")]


# --------------------------------------------------------------- the simulator with 红中
TABLES: list[dict[str, Any]] = [
    {"preset": "hongzhong"},
    {"preset": "hongzhong", "wild_tiles": 8},
    {"preset": "hongzhong", "end_condition": "bloody_flow", "void_declaration": "required", "wild_tiles": 8},
    {"preset": "hongzhong", "seats": 3, "suits": "ps"},
]


def _conserved(deal: Deal, total: int) -> None:
    """Every tile of the set, 红中 included, is in a hand, a meld, a discard, laid aside,
    or the wall (the simulator's deals at every table: tests/test_tables.py)."""
    held = sum(deal.tiles_held(seat) for seat in deal.order)
    shown = sum(len(deal.discards[seat]) + len(deal.laid[seat]) for seat in deal.order)
    assert held + shown + deal.wall_left == total


def test_the_simulator_deals_four_wilds_and_wins_with_them() -> None:
    """At eight 红中 a club's deals hold 起手4红中 and wins with a 红中 in hand; no bot
    ever throws one while it holds another tile, nor melds one."""
    plan = ClubPlan(players=6, sessions=40, deals_per_session=8, rules=TABLES[1], seed=5)
    events = list(simulate_club(plan))
    patterns = [event.patterns for event in events if event.type == "hu"]
    assert any(p is not None and "sihongzhong" in p for p in patterns)
    assert any(event.type == "hu" and event.tile == WILD for event in events)
    assert not any(event.type in ("pong", "kong") and event.tile == WILD for event in events)


TAMPERED = [  # (rules, club size, seed, corruption kinds, rate)
    (TABLES[0], 7, 27, None, 0.25),
    (TABLES[1], 7, 27, None, 0.25),
    # a 最后四张 win skipped: the rest of the deal is played out again, and at seed 28 a seat
    # there has just drawn a 红中 (it keeps it and throws a suited tile)
    (TABLES[1], 5, 28, ("missed_forced_hu",), 1.0),
]


@pytest.mark.parametrize(
    ("table", "players", "seed", "kinds", "rate"), TAMPERED, ids=["four", "eight", "forced"]
)
def test_tampering_a_wild_log_is_found(
    table: dict[str, Any], players: int, seed: int, kinds: tuple[str, ...] | None, rate: float
) -> None:
    """The simulator's corruptions of 红中 deals: every one found where the manifest says,
    and nothing else."""
    plan = ClubPlan(
        players=players, sessions=6 if kinds is None else 4, deals_per_session=8, rules=table, seed=seed
    )
    tamperer = Tamperer(rate, seed, kinds)
    lines = list(tamperer.lines(simulate_club(plan)))
    assert_found_as_listed(tamperer, validate_log(read_lines(lines, "wild.jsonl")))


# --------------------------------------------------------------- the replay shows 红中
def test_the_replay_shows_wilds_in_hands(tmp_path: Path) -> None:
    """The replay page's steps hold each seat's 红中 (last, as 27), its board draws them as
    中, and ``chuanma replay`` writes them 7z."""
    from typer.testing import CliRunner

    from dashboard.cli import app
    from dashboard.deal_steps import replay_steps
    from dashboard.tiles_view import board_html

    lines = four_wilds()
    log = read_lines([json.dumps(line, ensure_ascii=False) for line in lines], "four.jsonl")
    ((_, deal_log),) = list(log.iter_deals())
    steps, findings, scores = replay_steps(deal_log.deal, deal_log.events, deal_log.end, load_rules(FIRST_HU))
    assert findings == [] and scores == (-32, -32, 96, -32)
    assert steps[-1].hands[2][-4:] == (WILD,) * 4 and len(steps[-1].hands[2]) == 13
    last = steps[-1]
    html = board_html(
        ["A", "B", "C", "D"], last.hands, last.melds, last.discards,
        labels={k: k for k in ("dealer", "void", "won", "scores", "discards", "laid")},
        dealer=0, won=last.won, void=last.void, scores=last.scores,
    )  # fmt: skip
    assert html.count('data-tile="7z"') == 4 and "中" in html
    result = CliRunner().invoke(app, ["replay", str(_write(tmp_path, lines)), "--deal", "four-wilds"])
    assert result.exit_code == 0, result.output
    assert "seat 2 (won): 12589m19p19s7777z" in result.output


def test_a_wild_beside_a_kong_keeps_its_root() -> None:
    """The simulator's deal: a kong of 3s, and 2345566p 12s 中中 won on 3p (in the 9
    concealed tiles). 123s needs a 中 as 3s, a fifth 3s beside the kong; the other 中 and
    the 筒 make 234p 55p 66p中 or the like. Every reading holds the kong, and a kind held
    four times or more is one 根 (docs/decisions.md, "红中"): 平胡 1 + 根 1 = 2 fan, as the
    score sheet of the same deal says."""
    from engine.score import score_win
    from engine.tiles import to_counts

    concealed = to_counts(parse_tiles("2345566p12s"))
    kong, won_on = parse_tiles("3s3p")
    result = score_win(concealed, [], [kong], load_rules("hongzhong"), win_tile=won_on, wilds=2)
    assert result is not None and result.extras == ("gen",) and result.fan == 2


@pytest.mark.parametrize(
    "golden",
    [discard_win, self_draw_win, four_wilds, robbed_by_three, cha_jiao_with_a_wild],
    ids=["discard", "self-draw", "four-wilds", "robbed", "cha-jiao"],
)
def test_the_goldens_keep_the_invariants_after_every_event(golden: Any) -> None:
    lines = golden()
    rules = load_rules(lines[0]["rules"])
    total, seats = table_of(rules).tiles, table_of(rules).players
    log = read_lines([json.dumps(line, ensure_ascii=False) for line in lines], "golden.jsonl")
    ((_, deal_log),) = list(log.iter_deals())

    def step(_event: PlayEvent | DealEnd, deal: Deal, _sink: FindingSink) -> None:
        _conserved(deal, total)
        assert sum(seat_deltas(deal.ledger, seats)) == 0

    report = replay_deal(deal_log.deal, deal_log.events, deal_log.end, rules, ReplayOptions(on_step=step))
    assert not report.findings and sum(report.scores) == 0
