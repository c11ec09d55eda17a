"""复盘 (ingest/review, ``chuanma review``): a hand-written deal whose every decision was
worked out on paper (tests/golden/review/forced_deal_in.jsonl, online rules: 定缺 required,
定缺 tiles first, 一炮多响, 过水不胡 until the seat's own draw)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from ingest.review import review_paths

GOLDEN = Path(__file__).parent / "golden" / "review" / "forced_deal_in.jsonl"

# The deal (dealer Ann, seat 0):
#   Ann  12345678m 11p 234p 5s     定缺 s   Bo   123456m 99m 345s 55s   定缺 p
#   Chen 123456789p 1236s          定缺 m   Du   11s 234s 678s 999s 78m 定缺 p
# Ann throws 5s (her only 条, thrown first); Bo could win it (123456m 99m 345s 5555s:
# 平胡 1 + 根 1 = 2 番) and passes; Bo draws 9p and throws it (定缺 first); Chen draws 9m
# and must throw it (定缺 first, her only 万: 被迫点炮); Du, Ann and Bo all win it (平胡 1
# each, Chen pays 3).


def _rows(kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    deal = review_paths([GOLDEN]).to_json()["deals"][0]
    return [r for r in deal["rows"] if r["kind"] == kind and (seat is None or r["seat"] == seat)]


def test_discards_by_hand() -> None:
    # Ann after 5s: 12345678m 11p 234p waits 3m (123 45 678), 6m and 9m (123 456 78):
    # 3m 4-1 = 3, 6m 4-1 = 3, 9m 4 (Bo's 9m are hidden): 10; any other tile out leaves the
    # 5s she must throw: not ready. The only best, loss 0, ready before and after.
    (ann,) = _rows("discard", 0)
    assert (ann["tile"], ann["shanten_before"], ann["shanten"], ann["effective"]) == ("5s", 0, 0, 10)
    assert (ann["best"], ann["best_effective"], ann["loss"], ann["backward"]) == (["5s"], 10, 0, False)
    # Bo after 9p: 123456m 99m 345s 55s waits 9m (4 - 2 held = 2), 5s (4 - 3 held - Ann's 5s
    # on the table = 0) and 2s (34s + 555s: 4 unseen): 6
    (bo,) = _rows("discard", 1)
    assert (bo["tile"], bo["shanten"], bo["effective"], bo["best"], bo["loss"]) == ("9p", 0, 6, ["9p"], 0)
    # Chen after 9m: 123p 456p 789p 123s 6s waits 6s only (4 - 1 held = 3)
    (chen,) = _rows("discard", 2)
    assert (chen["tile"], chen["shanten"], chen["effective"], chen["best"]) == ("9m", 0, 3, ["9m"])


def test_voids_by_hand() -> None:
    # Ann's 14 tiles: giving up 条 leaves her ready after 5s with 10 tiles (above); giving
    # up 万 or 筒 leaves eight or five tiles to throw: the one best suit is s, as chosen
    rows = {r["seat"]: r for r in _rows("void")}
    assert rows[0]["best"] == ["s"] and rows[0]["agrees"] and rows[0]["best_effective"] == 10
    assert all(row["agrees"] for row in rows.values())


def test_a_passed_win_and_a_forced_deal_in() -> None:
    (passed,) = _rows("pass")
    assert passed == {
        "line": 7,
        "seat": 1,
        "kind": "pass",
        "tile": "5s",
        "on": "discard",
        "fan": 2,
        "won_later": 1,
    }
    deal_ins = _rows("deal_in")
    assert [(r["seat"], r["winner"], r["paid"], r["ready"], r["forced"]) for r in deal_ins] == [
        (2, 3, 1, True, True),
        (2, 0, 1, True, True),
        (2, 1, 1, True, True),
    ]


def test_summary_and_money() -> None:
    data = review_paths([GOLDEN]).to_json()
    chen = data["players"]["Chen"]
    assert (chen["deal_ins"], chen["forced_deal_ins"], chen["deal_ins_not_ready"]) == (3, 3, 0)
    assert chen["money"]["deal_ins"] == -3 and chen["period"] == ["2026-12-01", "2026-12-01"]
    bo = data["players"]["Bo"]
    assert (bo["passes"], bo["passed_fan"], bo["passed_then_won"], bo["passed_then_won_fan"]) == (1, 2, 1, 1)
    assert bo["money"]["wins"] == 1 and bo["void_agreement_pct"] == 100.0
    assert bo["by_period"]["2026-12"]["passes"] == 1  # the session's month (started_at)
    assert data["club"]["average_start_shanten"] == 0.0  # every seat was dealt a ready hand (above)


def test_the_command_in_both_languages() -> None:
    command = [sys.executable, "-m", "dashboard.cli", "review"]
    done = subprocess.run(
        [*command, str(GOLDEN), "--json", "--player", "Chen"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert list(data["players"]) == ["Chen"]
    zh = subprocess.run([*command, str(GOLDEN), "--lang", "zh"], capture_output=True, text=True, check=False)
    assert "点炮 3 次（未听牌 0，被迫 3）" in zh.stdout
    en = subprocess.run([*command, str(GOLDEN)], capture_output=True, text=True, check=False)
    assert "deal-ins 3 (0 not ready, 3 forced)" in en.stdout
    missing = subprocess.run(
        [*command, str(GOLDEN), "--player", "Nobody"], capture_output=True, text=True, check=False
    )
    assert missing.returncode == 2


def test_exchange_by_hand() -> None:
    """tests/golden/exchange_three.jsonl: Bo (seat 1) holds 123456789m 7s 159p and passes
    159p, keeping 123456789m 7s: three sets and a single, which lack a pair and a set: 7s
    paired (1) and a set from nothing (3), or 7s in a set (2) and a pair (2): 4 missing,
    shanten 3; his only three of one suit (筒), so the best. Ann (the dealer) keeps
    1133557799m 5s after 666s: five pairs and a single lack two pairs for seven pairs, the
    single paired (1) and a new pair (2): 3 missing, shanten 2."""
    rows = review_paths([Path(__file__).parent / "golden" / "exchange_three.jsonl"]).to_json()["deals"][0][
        "rows"
    ]
    exchange = {r["seat"]: r for r in rows if r["kind"] == "exchange"}
    bo = exchange[1]
    assert (bo["tiles"], bo["shanten"], bo["best"], bo["best_shanten"]) == (
        ["1p", "5p", "9p"],
        3,
        ["1p", "5p", "9p"],
        3,
    )
    assert exchange[0]["shanten"] == 2


def test_wall_end_by_hand() -> None:
    """tests/golden/cha_jiao.jsonl, worked in tests/test_golden.py: at the empty wall seats 0
    and 1 are ready (settled +21, +26), seat 2 is not (0: 16 from the 花猪, -10 查大叫, -6
    退税), seat 3 is a 花猪 (-47)."""
    data = review_paths([Path(__file__).parent / "golden" / "cha_jiao.jsonl"]).to_json()
    rows = [r for r in data["deals"][0]["rows"] if r["kind"] == "wall_end"]
    assert [(r["seat"], r["ready"], r["flower_pig"], r["cha_jiao"]) for r in rows] == [
        (0, True, False, 21),
        (1, True, False, 26),
        (2, False, False, 0),
        (3, False, True, -47),
    ]
    money = data["deals"][0]["money"]
    assert money[3]["flower_pig"] == -48 and money[2]["cha_jiao"] == -10 and money[0]["cha_jiao"] == 2


def test_a_score_sheet_gets_the_money_part_only() -> None:
    """tests/golden/review/sheet.jsonl (the priced sheet of tests/test_sheets.py,
    "standard_kong_bloom_pig"): seat 2 kongs off seat 1 (1 from it),
    self-draws 3 fan (4 from each), at the empty wall seat 3 is 花猪 (16 to seats 0 and 1),
    seat 1 not ready pays seat 0 (ready, 2 fan) 2. No tiles: no decision, and it says why."""
    data = review_paths([Path(__file__).parent / "golden" / "review" / "sheet.jsonl"]).to_json()
    deal = data["deals"][0]
    assert (deal["tiles"], deal["why"], deal["rows"]) == (False, "score_sheet", [])
    assert [sum(seat.values()) for seat in deal["money"]] == [14, 9, 13, -36]
    assert deal["money"][2]["self_draws"] == 12 and deal["money"][2]["kongs"] == 1
    assert deal["money"][3]["flower_pig"] == -32 and deal["money"][0]["cha_jiao"] == 2
    assert data["players"]["Du"]["tile_deals"] == 0 and data["players"]["Du"]["best_pct"] is None


def test_the_engine_keeps_the_suit_keys_the_shanten_reads() -> None:
    """The review hands the engine's base-5 suit keys (engine/state.py) to the shanten
    (engine/shanten.py): the same weights, one tile's step apart."""
    from engine.shanten import suit_keys
    from engine.shapes import suit_keys as shape_keys
    from engine.tiles import parse_tiles, to_counts

    counts = to_counts(parse_tiles("1123456789m4599p"))
    assert suit_keys(counts) == list(shape_keys(counts))


def test_a_deals_sums_are_its_rows_counted_one_by_one() -> None:
    """The review adds a deal's rows up per seat in compiled code (deal_review.seat_sums,
    PlayerTally.add_sums): the same tallies as PlayerTally.count a row at a time, over a
    simulated club's deals (every kind of row) and the hand-written deal."""
    from ingest.logs.writer import log_lines, write_lines
    from ingest.review import PlayerTally
    from ingest.review.deal_review import ROW_SUMS, seat_sums
    from ingest.simulator.simulate import ClubPlan, simulate_club

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "club.jsonl"  # a simulated club of 40 deals at the online table
        write_lines(
            log_lines(simulate_club(ClubPlan(sessions=5, deals_per_session=8, seed=7, rules="online"))), path
        )
        deals = review_paths([path, GOLDEN]).deals
    kinds = {row["kind"] for deal in deals for row in deal["rows"]}
    assert {"discard", "void", "deal_in", "pass"} <= kinds
    for deal in deals:
        seats = len(deal["players"])
        one_by_one = [PlayerTally() for _ in range(seats)]
        for row in deal["rows"]:
            one_by_one[row["seat"]].count(row)
        for seat, sums in enumerate(seat_sums(deal["rows"], seats)):
            at_once = PlayerTally()
            at_once.add_sums(sums)
            assert [getattr(at_once, name) for name in ROW_SUMS] == [
                getattr(one_by_one[seat], name) for name in ROW_SUMS
            ]
            assert at_once.summary() == one_by_one[seat].summary()
