"""The tile replay at three and two seats (docs/knobs.md, "The table"): golden deals worked
out by hand, the deal line's checks at another table, and the simulator's deals legal by
the invariants after every event (tiles conserved for the table's wall, points summing
to zero) at every table size the replay plays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tamper_found import assert_found_as_listed

from engine.deal import Deal, IllegalEvent
from engine.events import DealEnd, DealStart, Exchange, PlayEvent, SessionEnd, SessionStart
from engine.replay import FindingSink, ReplayOptions, replay_deal
from engine.rules import load_rules
from engine.settlement import seat_deltas
from engine.table import replay_refusal, table_of
from engine.tiles import NUM_KINDS, parse_tiles
from ingest.logs.reader import read_lines
from ingest.replay.validate import validate_log, validate_paths
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer


def _write(tmp_path: Path, lines: list[dict[str, Any]]) -> Path:
    log = tmp_path / "table.jsonl"
    log.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return log


def _deals(log: Path) -> list[dict[str, Any]]:
    report = validate_paths([str(log)])
    return [deal.to_json() for deal in report.deals]


# --------------------------------------------------------------- a three-player 查叫
# 三人两房 (sanren: three seats, 筒 and 条, 13 tiles, no 缺一门, 查大叫 at the highest fan).
# Seat 0 (dealer) 123456789p 1235s + 1p: throws 1p, then waits on 5s alone (平胡, 1 fan).
# Seat 1 1112345567899s: 清一色 waiting on 5s or 9s (3 fan either way, no 根).
# Seat 2 123456789p 5899s: not ready (no tile makes 99s with 5s 8s a set and a pair).
# Every 5s and 9s is dealt (5s: 1 + 2 + 1, 9s: 2 + 2), so nothing drawn wins (dead waits
# still count here: dead_wait_counts true). The wall is 72 − (3 × 13 + 1) = 32 tiles;
# the seats draw in turn 1, 2, 0, ... and each throws what it drew, 32 times, so the
# last draw is seat 2's ((1 + 31) mod 3) and the wall ends the deal with nobody won.
# 查叫: no 花猪 at a two-suit table; seats 0 and 1 are ready, seat 2 is not and pays each
# its hand's value: seat 0 1 fan → 1, seat 1 3 fan → 2^(3−1) = 4. Settlement and net:
# [+1, +4, −5].
SANREN_HANDS = ["1123456789p1235s", "1112345567899s", "123456789p5899s"]


def _undealt(rules: str, hands: list[str]) -> list[int]:
    """The tiles of the table's set not in ``hands``, in tile order."""
    counts = [0] * NUM_KINDS
    for tile in range(NUM_KINDS):
        if tile // 9 in table_of(load_rules(rules)).suits:
            counts[tile] = 4
    for hand in hands:
        for tile in parse_tiles(hand):
            counts[tile] -= 1
    assert min(counts) >= 0
    return [tile for tile in range(NUM_KINDS) for _ in range(counts[tile])]


def _name(tile: int) -> str:
    return f"{tile % 9 + 1}{'mps'[tile // 9]}"


def three_player_cha_jiao() -> list[dict[str, Any]]:
    wall = _undealt("sanren", SANREN_HANDS)
    assert len(wall) == 32
    lines: list[dict[str, Any]] = [
        {"type": "session", "session_id": "s3", "players": ["A", "B", "C"], "rules": "sanren"},
        {
            "type": "deal",
            "deal_id": "cha-jiao-3",
            "dealer": 0,
            "hands": SANREN_HANDS,
            "wall": "".join(map(_name, wall)),
        },
        {"type": "discard", "seat": 0, "tile": "1p"},
    ]
    for index, tile in enumerate(wall):
        seat = (1 + index) % 3
        lines.append({"type": "draw", "seat": seat, "tile": _name(tile)})
        lines.append({"type": "discard", "seat": seat, "tile": _name(tile)})
    lines.append(
        {"type": "deal_end", "reason": "wall_exhausted", "settlement": [1, 4, -5], "scores": [1, 4, -5]}
    )
    lines.append({"type": "session_end", "totals": [1, 4, -5]})
    return lines


def test_a_three_player_cha_jiao(tmp_path: Path) -> None:
    (deal,) = _deals(_write(tmp_path, three_player_cha_jiao()))
    assert deal["status"] == "ok", deal
    assert deal["computed"]["end_reason"] == "wall_exhausted"
    assert deal["computed"]["scores"] == [1, 4, -5]
    assert deal["computed"]["settlement"] == [1, 4, -5]


def test_a_three_player_cha_jiao_paid_otherwise_is_a_finding(tmp_path: Path) -> None:
    lines = three_player_cha_jiao()
    lines[-2] = {
        "type": "deal_end",
        "reason": "wall_exhausted",
        "settlement": [1, 1, -2],
        "scores": [1, 4, -5],
    }
    (deal,) = _deals(_write(tmp_path, lines))
    assert [f["code"] for f in deal["findings"]] == ["payment_mismatch"]


# --------------------------------------------------------------- two seats: all but one won
# sanren at two seats: the dealer (seat 0) holds 123456789p 1235s 9s and throws 9s; seat 1,
# 1112345567899s, wins it: 111s 234s 678s 999s 55s, 清一色 3 fan, 2^2 = 4 from the
# discarder. One of two seats has won, all but one: the deal ends (three_won, as the
# score-sheet audit names it at any table), no 查叫. Net [−4, +4].
def two_seat_discard_win(
    rules: dict[str, Any], ids: str, hands: list[str], tile: str
) -> list[dict[str, Any]]:
    """A session of one deal at two seats: the dealer throws ``tile``, seat 1 wins it with
    清一色 (3 fan, 2^2 = 4 from the discarder), and the deal is over (one of two has won)."""
    return [
        {"type": "session", "session_id": f"s-{ids}", "players": ["A", "B"], "rules": rules},
        {"type": "deal", "deal_id": f"{ids}-1", "dealer": 0, "hands": hands},
        {"type": "discard", "seat": 0, "tile": tile},
        {
            "type": "hu",
            "seat": 1,
            "tile": tile,
            "from": 0,
            "fan": 3,
            "patterns": ["qingyise"],
            "deltas": [-4, 4],
        },
        {"type": "deal_end", "reason": "three_won", "settlement": [0, 0], "scores": [-4, 4]},
        {"type": "session_end", "totals": [-4, 4]},
    ]


def two_player_win() -> list[dict[str, Any]]:
    return two_seat_discard_win(
        {"preset": "sanren", "seats": 2}, "two", ["123456789p12359s", "1112345567899s"], "9s"
    )


def test_two_seats_end_when_one_has_won(tmp_path: Path) -> None:
    (deal,) = _deals(_write(tmp_path, two_player_win()))
    assert deal["status"] == "ok", deal
    assert deal["computed"]["end_reason"] == "three_won"
    assert deal["computed"]["scores"] == [-4, 4]


def test_two_seats_play_on_after_a_win_is_a_finding(tmp_path: Path) -> None:
    lines = two_player_win()
    lines.insert(4, {"type": "draw", "seat": 0, "tile": "1m"})
    (deal,) = _deals(_write(tmp_path, lines))
    assert "out_of_turn" in [f["code"] for f in deal["findings"]]


# --------------------------------------------------------------- a ten-tile win
# 十张牌 (duangouka: 筒 and 条, ten-tile hands) at two seats: 72 − (2 × 10 + 1) = 51 in the
# wall. The dealer holds 1234567899s 5p (eleven tiles) and throws 5p; seat 1 holds
# 1234556789p (ten) and wins it: 123p 456p 789p 55p, (10 − 1) / 3 = 3 sets and a pair,
# 清一色 3 fan, 2^2 = 4 from the discarder. One of two seats has won: the deal ends.
def ten_tile_win() -> list[dict[str, Any]]:
    return two_seat_discard_win(
        {"preset": "duangouka", "seats": 2}, "ten", ["1234567899s5p", "1234556789p"], "5p"
    )


def test_a_ten_tile_win(tmp_path: Path) -> None:
    (deal,) = _deals(_write(tmp_path, ten_tile_win()))
    assert deal["status"] == "ok", deal
    assert deal["computed"]["scores"] == [-4, 4]


def test_a_ten_tile_hand_of_thirteen_is_a_finding(tmp_path: Path) -> None:
    lines = ten_tile_win()
    lines[1]["hands"] = ["1234567899s5p111s", "1234556789p"]
    (deal,) = _deals(_write(tmp_path, lines))
    assert [(f["code"], f["message_key"]) for f in deal["findings"]] == [("tile_count", "dealt_size")]


def test_a_ten_tile_hand_is_no_win_without_its_pair(tmp_path: Path) -> None:
    """Seat 1's 123p 456p 789p 1s with a 9s: three sets and no pair, no win."""
    lines = ten_tile_win()
    lines[1]["hands"] = ["123456789s5p1s", "123456789p1s"]
    lines[2] = {"type": "discard", "seat": 0, "tile": "9s"}
    lines[3] = {"type": "hu", "seat": 1, "tile": "9s", "from": 0}
    (deal,) = _deals(_write(tmp_path, lines))
    assert [f["code"] for f in deal["findings"]][:1] == ["illegal_hu"]


# --------------------------------------------------------------- a robbed kong at three seats
# sanren, first win ends the deal (end_condition first_hu), no wall recorded.
# Seat 0 (dealer) 445566p 1234789s 5s; seat 1 123789p 235789s 5s (a pair of 5s among
# scattered tiles); seat 2 123456789p 11s 46s waits on 5s alone (嵌张).
# Line 3: seat 0 throws 5s (seat 2 lets it pass); 4: seat 1 pongs it; 5: seat 1 throws 9p;
# 6-7: seat 2 draws and throws 2s (its pass lapses); 8-9: seat 0 draws and throws 3p;
# 10: seat 1 draws the fourth 5s; 11: adds it to its pong (加杠); 12: seat 2 robs it
# (抢杠胡): 123p 456p 789p 11s 456s, 平胡 1 fan + 抢杠 1 = 2 fan, 2^1 = 2 points, paid by
# the konger alone, as the discarder of a 点炮 (seat 0 pays nothing: 包赔); the robbed
# kong earns nothing. Net [0, −2, +2].
def robbed_kong() -> list[dict[str, Any]]:
    rules = {"preset": "sanren", "end_condition": "first_hu"}
    return [
        {"type": "session", "session_id": "rob", "players": ["A", "B", "C"], "rules": rules},
        {
            "type": "deal", "deal_id": "rob-1", "dealer": 0,
            "hands": ["445566p1234789s5s", "123789p235789s5s", "123456789p1146s"],
        },
        {"type": "discard", "seat": 0, "tile": "5s"},
        {"type": "pong", "seat": 1, "tile": "5s"},
        {"type": "discard", "seat": 1, "tile": "9p"},
        {"type": "draw", "seat": 2, "tile": "2s"},
        {"type": "discard", "seat": 2, "tile": "2s"},
        {"type": "draw", "seat": 0, "tile": "3p"},
        {"type": "discard", "seat": 0, "tile": "3p"},
        {"type": "draw", "seat": 1, "tile": "5s"},
        {"type": "kong", "seat": 1, "tile": "5s", "kind": "added", "deltas": [0, 0, 0]},
        {"type": "hu", "seat": 2, "tile": "5s", "from": 1, "fan": 2, "patterns": ["pinghu", "qiangganghu"], "deltas": [0, -2, 2]},
        {"type": "deal_end", "reason": "first_hu", "settlement": [0, 0, 0], "scores": [0, -2, 2]},
        {"type": "session_end", "totals": [0, -2, 2]},
    ]  # fmt: skip


def test_a_robbed_kong_is_paid_by_the_konger_alone(tmp_path: Path) -> None:
    (deal,) = _deals(_write(tmp_path, robbed_kong()))
    assert deal["status"] == "ok", deal
    assert deal["computed"]["scores"] == [0, -2, 2]


# --------------------------------------------------------------- the deal line at another table
@pytest.mark.parametrize(
    ("hands", "key"),
    [
        (SANREN_HANDS[:2], "table_hands"),  # two hands at a three-seat table
        ([*SANREN_HANDS, "1112345567899p"], "table_hands"),  # a fourth hand
        (["1123456789p1235s", "1112345567899s", "123456789p589s"], "dealt_size"),  # 12 tiles
        (["1123456789p1235s", "1112345567899s", "123456789p589m9s"], "tile_off_table"),  # 万 at 筒 and 条
    ],
)
def test_a_deal_line_of_another_table_is_held_to_it(tmp_path: Path, hands: list[str], key: str) -> None:
    lines: list[dict[str, Any]] = [
        {"type": "session", "session_id": "s3", "players": ["A", "B", "C"], "rules": "sanren"},
        {"type": "deal", "deal_id": "d", "dealer": 0, "hands": hands},
        {"type": "deal_end", "reason": "wall_exhausted"},
        {"type": "session_end"},
    ]
    (deal,) = _deals(_write(tmp_path, lines))
    assert [(f["code"], f["message_key"]) for f in deal["findings"]] == [("tile_count", key)], deal[
        "findings"
    ]


def test_a_draw_of_a_suit_not_in_the_wall_is_a_finding(tmp_path: Path) -> None:
    lines = three_player_cha_jiao()
    del lines[1]["wall"]  # no wall: the draws are checked against the set only
    lines[3] = {"type": "draw", "seat": 1, "tile": "5m"}
    (deal,) = _deals(_write(tmp_path, lines))
    assert [(f["code"], f["message_key"]) for f in deal["findings"]][:1] == [("tile_count", "tile_off_table")]


def test_a_seat_past_the_table_is_a_finding(tmp_path: Path) -> None:
    lines = three_player_cha_jiao()
    lines[3] = {"type": "draw", "seat": 3, "tile": lines[3]["tile"]}
    (deal,) = _deals(_write(tmp_path, lines))
    assert [f["code"] for f in deal["findings"]][:1] == ["bad_record"]


# --------------------------------------------------------------- 换三张 at three and two seats
# sanren with 换三张, the hands of the 查叫 deal above. Each seat passes three tiles of one
# suit: seat 0 gives 123p, seat 1 gives 111s, seat 2 gives 123p.
# counterclockwise (to s + 1): seat 0 gets seat 2's 123p, seat 1 seat 0's 123p, seat 2
# seat 1's 111s. clockwise (to s − 1, i.e. s + 2 at three seats): seat 0 gets seat 1's
# 111s, seat 1 seat 2's 123p, seat 2 seat 0's 123p. "across" has no seat at three.
EXCHANGED = {
    "counterclockwise": ["1123456789p1235s", "123p2345567899s", "456789p1115899s"],
    "clockwise": ["1456789p1111235s", "123p2345567899s", "123456789p5899s"],
}
GIVEN = ("123p", "111s", "123p")


def _exchange_deal(direction: str, seats: int = 3) -> Deal:
    start = DealStart("x", 0, tuple(tuple(parse_tiles(hand)) for hand in SANREN_HANDS[:seats]))
    deal = Deal(start, load_rules({"preset": "sanren", "seats": seats, "exchange_three": True}))
    given = tuple(tuple(parse_tiles(three)) for three in GIVEN[:seats])
    deal.apply(Exchange(direction, given, line=3))  # type: ignore[arg-type]
    return deal


def _held(deal: Deal, seat: int) -> list[int]:
    return [tile for tile in range(NUM_KINDS) for _ in range(deal.hands[seat][tile])]


@pytest.mark.parametrize("direction", sorted(EXCHANGED))
def test_an_exchange_at_three_seats(direction: str) -> None:
    deal = _exchange_deal(direction)
    assert [_held(deal, seat) for seat in range(3)] == [sorted(parse_tiles(h)) for h in EXCHANGED[direction]]


def test_an_exchange_at_two_seats_swaps_both_ways() -> None:
    # seat 0 gives 123p and gets 111s; seat 1 gives 111s and gets 123p, whichever way
    for direction in ("clockwise", "counterclockwise"):
        deal = _exchange_deal(direction, seats=2)
        assert _held(deal, 0) == sorted(parse_tiles("1456789p1111235s"))
        assert _held(deal, 1) == sorted(parse_tiles("123p2345567899s"))


def test_an_exchange_across_at_three_seats_is_a_finding() -> None:
    with pytest.raises(IllegalEvent) as raised:
        _exchange_deal("across")
    assert (raised.value.code, raised.value.rule) == ("illegal_exchange", "exchange_three")
    assert "no seat across" in str(raised.value)


def test_wilds_with_an_exchange_are_still_refused_in_words() -> None:
    refused: list[dict[str, Any]] = [{"preset": "hongzhong", "exchange_three": True}]
    played: list[dict[str, Any]] = [
        {"preset": "hongzhong"},
        {"preset": "hongzhong", "wild_tiles": 8},
        {"seats": 3, "exchange_three": True},
        {"seats": 2, "exchange_three": True},
        {"preset": "sanren"},
        {"preset": "duangouka"},
        {"seats": 2, "suits": "m", "hand_size": 7},
        {"seats": 2, "exchange_three": False},
        {"seats": 3, "suits": "ms", "two_suit_void": True},
    ]
    for knobs in refused:
        refusal = replay_refusal(load_rules(knobs))
        assert refusal is not None and refusal.startswith("the tile replay plays"), knobs
    for knobs in played:
        assert replay_refusal(load_rules(knobs)) is None, knobs


# --------------------------------------------------------------- the simulator at every table
TABLES: list[dict[str, Any]] = [
    {"preset": "sanren"},
    {"preset": "sanren", "exchange_three": True},
    {"preset": "sanren", "seats": 2, "exchange_three": True},
    {"preset": "standard", "seats": 3, "exchange_three": False},
    {"preset": "online", "seats": 3, "suits": "ps", "two_suit_void": True},
    {"preset": "duangouka"},
    {"preset": "standard", "seats": 2, "suits": "m", "hand_size": 7},
    {"preset": "online", "seats": 3, "hand_size": 10},
    {"preset": "chengdu", "seats": 2, "exchange_three": False, "end_condition": "bloody_flow"},
    {"preset": "standard"},
    # 红中 (docs/log-format.md, "红中 (wild tiles) in a tile deal")
    {"preset": "hongzhong"},
    {"preset": "hongzhong", "end_condition": "bloody_flow", "void_declaration": "required", "wild_tiles": 8},
    {"preset": "hongzhong", "seats": 3, "suits": "ps"},
]


def _conserved(deal: Deal, total: int) -> None:
    """Every tile of the set, 红中 included, is in a hand, a meld, a discard, laid aside,
    or the wall."""
    held = sum(deal.tiles_held(seat) for seat in deal.order)
    shown = sum(len(deal.discards[seat]) + len(deal.laid[seat]) for seat in deal.order)
    assert held + shown + deal.wall_left == total


@pytest.mark.parametrize("table", TABLES, ids=json.dumps)
@settings(max_examples=2, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**20))
def test_simulated_deals_keep_the_invariants_after_every_event(table: dict[str, Any], seed: int) -> None:
    rules = load_rules(table)
    total = table_of(rules).tiles
    seats = table_of(rules).players
    plan = ClubPlan(players=seats + 2, sessions=1, deals_per_session=4, rules=table, seed=seed)
    start: DealStart | None = None
    events: list[PlayEvent] = []
    for event in simulate_club(plan):
        if isinstance(event, SessionStart):
            assert len(event.players) == seats
        elif isinstance(event, SessionEnd):
            assert event.totals is not None and len(event.totals) == seats and sum(event.totals) == 0
        elif isinstance(event, DealStart):
            start, events = event, []
            assert len(event.hands) == seats
        elif isinstance(event, DealEnd):
            assert start is not None

            def step(_event: PlayEvent | DealEnd, deal: Deal, _sink: FindingSink) -> None:
                _conserved(deal, total)
                assert sum(seat_deltas(deal.ledger, seats)) == 0
                assert all(0 <= t.payer < seats and 0 <= t.payee < seats for t in deal.ledger)

            options = ReplayOptions(on_step=step)
            report = replay_deal(start, events, event, rules, options)
            assert not report.findings and not report.warnings, report.findings
            assert len(report.scores) == seats and sum(report.scores) == 0
            assert event.scores is not None and tuple(event.scores) == report.scores
        else:
            events.append(event)


# --------------------------------------------------------------- tampering at three and two seats
@pytest.mark.parametrize(
    "table", TABLES[:5], ids=["sanren", "sanren-exchange", "two-seats-exchange", "three-mps", "two-suit-void"]
)
def test_tampering_at_another_table_is_found(table: dict[str, Any]) -> None:
    """The simulator's corruptions at three and two seats: every one found where the
    manifest says, and nothing else (tests/test_tamper.py's promise at today's table)."""
    seats = table_of(load_rules(table)).players
    plan = ClubPlan(players=seats + 3, sessions=6, deals_per_session=8, rules=table, seed=27)
    tamperer = Tamperer(0.25, 27)
    lines = list(tamperer.lines(simulate_club(plan)))
    assert_found_as_listed(tamperer, validate_log(read_lines(lines, "tables.jsonl")))


# --------------------------------------------------------------- the replay page at three seats
def test_the_replay_board_draws_one_row_a_seat() -> None:
    """The replay page's steps and board at a three-seat table: three hands, no empty fourth
    row, the wall counted from the table's 32 tiles."""
    from dashboard.deal_steps import replay_steps
    from dashboard.tiles_view import board_html
    from ingest.logs.reader import read_lines as read

    log = read([json.dumps(line, ensure_ascii=False) for line in three_player_cha_jiao()], "three.jsonl")
    ((_, deal_log),) = list(log.iter_deals())
    steps, findings, scores = replay_steps(deal_log.deal, deal_log.events, deal_log.end, load_rules("sanren"))
    assert findings == [] and scores == (1, 4, -5)
    assert steps[0].wall_left == 32 and steps[1].wall_left == 32 and steps[-1].wall_left == 0
    assert {len(step.hands) for step in steps} == {3} and {len(step.scores) for step in steps} == {3}
    last = steps[-1]
    html = board_html(
        ["A", "B", "C"], last.hands, last.melds, last.discards,
        labels={k: k for k in ("dealer", "void", "won", "scores", "discards", "laid")},
        dealer=0, won=last.won, void=last.void, scores=last.scores,
    )  # fmt: skip
    assert html.count("data-seat=") == 3 and 'data-seat="3"' not in html


def test_chuanma_replay_prints_three_hands(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from dashboard.cli import app

    log = _write(tmp_path, three_player_cha_jiao())
    result = CliRunner().invoke(app, ["replay", str(log), "--deal", "cha-jiao-3"])
    assert result.exit_code == 0, result.output
    last = result.output.splitlines()[-4:]
    assert [line.split(":")[0].strip() for line in last[:3]] == ["seat 0", "seat 1", "seat 2"]
    assert "seat 3" not in result.output and last[-1].startswith("net [+1 +4 -5]")


def test_chuanma_simulate_plays_three_seats_and_refuses_an_exchange_with_wilds_in_words(
    tmp_path: Path,
) -> None:
    from typer.testing import CliRunner

    from dashboard.cli import app

    out = tmp_path / "three.jsonl"
    args = ["simulate", "--out", str(out), "--rules", "sanren", "--sessions", "1", "--deals-per-session", "2"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[1])
    assert first["type"] == "deal" and len(first["hands"]) == 3
    knobs = json.dumps({"preset": "hongzhong", "exchange_three": True})
    refused = CliRunner().invoke(app, ["simulate", "--out", str(out), "--rules", knobs])
    assert refused.exit_code == 2 and "the tile replay plays 换三张" in refused.output
