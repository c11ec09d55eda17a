"""Real open_mahjong_unity records (docs/platforms.md), written by the platform's own engine,
held to what that engine itself held: each deal's scores and each seat's 定缺.

tests/golden/platforms/open_mahjong_real/ holds four whole records of the shared set (the
platform at commit 1548d7d5, its bots playing) and ``_platform_truth.json``, the engine's
own state for them copied beside: ``scores_at_round_end`` (running totals; a deal's scores
are the difference from the deal before) and ``dingque_by_round`` (1 = 万 m, 2 = 筒 p,
3 = 条 s). The platform's numbers are the expectation, never chuanma's output. The cases:

- A-game_1000 round 2: seat 2 deals (the record writes ``dealer_index`` 0 in every round);
  round 3: a 杠上炮 whose kong the platform refunds to its payers (the ``gr`` tick).
- A-game_1001 round 1: a 杠上炮 refund; round 7: a 加杠 of a tile held, which earns nothing.
- A-game_1006 round 7: a robbed 加杠 (抢杠), its ``gr`` the kong's claim dropped.
- C-game_3003 (``blood_battle`` off): round 3, one discard won by three ends the deal.

The last test reads every record of the team's shared folder (beside the repository, under
records/open_mahjong) when it is there (skipped where it is not: nothing else needs it).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.report import DealReport
from ingest.platforms.open_mahjong import convert_open_mahjong, read_open_mahjong
from ingest.replay.validate import validate_log

REAL = Path(__file__).parent / "golden" / "platforms" / "open_mahjong_real"
SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "records" / "open_mahjong"
SUITS = {1: "m", 2: "p", 3: "s"}


def _truth(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "_platform_truth.json").read_text(encoding="utf-8"))
    return data


def _records(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.json") if not p.name.startswith("_"))


@cache
def _read(path: Path) -> tuple[list[str], dict[int, DealReport]]:
    """A record through the converter and the engine: the codes of the file's own findings,
    and its deals by round number."""
    log = read_open_mahjong(path.read_bytes(), path.name)
    report = validate_log(log)
    deals = {int(deal.deal_id.rsplit("-r", 1)[1]): deal for deal in report.deals}
    return [f.code for f in log.findings], deals


def _platform_scores(truth: dict[str, Any], number: int) -> list[int]:
    """The deal's own scores: the engine's running totals less those of the deal before."""
    totals = truth["scores_at_round_end"]
    before = totals.get(str(number - 1), [0, 0, 0, 0])
    return [after - was for after, was in zip(totals[str(number)], before, strict=True)]


def _inferred(path: Path, number: int, deal: DealReport) -> dict[int, tuple[str, bool]]:
    """Seat -> (the void suit the importer inferred, whether the moves decide it): the
    converted ``void`` lines, and a ``platform_inferred`` warning where they do not."""
    converted = convert_open_mahjong(path.read_bytes(), path.name)
    voids = {
        int(obj["seat"]): str(obj["suit"])
        for line, obj in converted.objects()
        if obj["type"] == "void" and line // 1000 == number
    }
    warned = {f.seat for f in deal.warnings if f.message_key == "open_mahjong_void"}
    return {seat: (suit, seat not in warned) for seat, suit in voids.items()}


def _table(folder: Path) -> dict[str, int]:
    """Over every record of ``folder``: deals read, invalid, scored as the platform did, and
    seats whose 定缺 the importer says the moves decide and gets right or wrong."""
    truth = _truth(folder)
    tally = dict.fromkeys(("deals", "invalid", "bad_record", "scores_equal", "decided", "decided_wrong"), 0)
    for path in _records(folder):
        file_codes, deals = _read(path)
        tally["bad_record"] += file_codes.count("bad_record")
        rounds = truth[path.name]["dingque_by_round"]
        assert sorted(deals) == sorted(map(int, rounds)), path.name  # every round is a deal
        for number, deal in deals.items():
            tally["deals"] += 1
            tally["invalid"] += deal.status == "invalid"
            tally["bad_record"] += sum(f.code == "bad_record" for f in deal.findings)
            tally["scores_equal"] += list(deal.scores) == _platform_scores(truth[path.name], number)
            platform = rounds[str(number)]
            for seat, (suit, decided) in _inferred(path, number, deal).items():
                tally["decided"] += decided
                tally["decided_wrong"] += decided and suit != SUITS[platform[seat]]
    return tally


def test_the_copied_records_read_and_score_as_the_platform() -> None:
    assert _table(REAL) == {
        "deals": 32,
        "invalid": 0,
        "bad_record": 0,
        "scores_equal": 32,
        "decided": 128,  # every seat: the void is discarded first, so the moves decide it
        "decided_wrong": 0,
    }


def test_each_deal_is_the_platforms() -> None:
    truth = _truth(REAL)
    for path in _records(REAL):
        file_codes, deals = _read(path)
        assert "bad_record" not in file_codes, path.name
        for number, deal in deals.items():
            where = f"{path.name} round {number}"
            assert deal.status != "invalid", (where, deal.findings)
            assert not deal.findings, (where, [(f.code, f.line, f.message) for f in deal.findings])
            assert list(deal.scores) == _platform_scores(truth[path.name], number), where
            platform = truth[path.name]["dingque_by_round"][str(number)]
            for seat, (suit, decided) in _inferred(path, number, deal).items():
                assert not decided or suit == SUITS[platform[seat]], (where, seat)


def test_the_dealer_is_the_seat_dealt_fourteen() -> None:
    data = json.loads((REAL / "A-game_1000.json").read_text(encoding="utf-8"))
    rnd = data["game_round"]["round_index_2"]
    assert rnd["dealer_index"] == 0 and len(rnd["p2_tiles"]) == 14
    converted = convert_open_mahjong((REAL / "A-game_1000.json").read_bytes(), "A-game_1000.json")
    dealers = [obj["dealer"] for _, obj in converted.objects() if obj["type"] == "deal"]
    assert dealers == [0, 2, 0, 0, 3, 3, 0, 0]  # each round's 14-tile seat


def test_a_kong_discard_refunds_the_kong_to_its_payers() -> None:
    for name, number, refund in (
        ("A-game_1000.json", 3, [1, 1, 1, -3]),
        ("A-game_1001.json", 1, [2, 0, 0, -2]),
    ):
        deal = _read(REAL / name)[1][number]
        back = [0, 0, 0, 0]
        for transfer in deal.ledger:
            if transfer.reason == "kong_refund":
                back[transfer.payer] -= transfer.amount
                back[transfer.payee] += transfer.amount
        assert back == refund, name  # the record's ["gr", "gs", ...] tick


def test_an_added_kong_of_a_tile_held_earns_nothing() -> None:
    deal = _read(REAL / "A-game_1001.json")[1][7]
    assert [k.kind for k in deal.kongs] == ["added"]
    assert not [t for t in deal.ledger if t.reason.startswith("kong")]


def test_a_robbed_kong_and_a_first_win_game() -> None:
    robbed = _read(REAL / "A-game_1006.json")[1][7]
    assert ("rob", 3, 1) in [(win.kind, win.seat, win.from_seat) for win in robbed.wins]
    three = _read(REAL / "C-game_3003.json")[1][3]
    assert three.end_reason == "first_hu" and len(three.wins) == 3


def test_every_shared_record_reads_and_scores_as_the_platform() -> None:
    if not (SHARED / "_platform_truth.json").is_file():
        pytest.skip(f"no shared records at {SHARED}")
    tally = _table(SHARED)
    deals = tally["deals"]
    assert deals > 0
    assert tally == {
        "deals": deals,
        "invalid": 0,
        "bad_record": 0,
        "scores_equal": deals,
        "decided": tally["decided"],
        "decided_wrong": 0,
    }
