"""Statistics per table size (几人桌) on a tiny warehouse worked out by hand: one club that
played a four-player evening (data/templates/sheet-example.csv) and a three-player one (the
golden evening of tests/test_sheet_seats.py, given the same club and the next day). Every
query takes the table size (``Filters.seats``); the rates at one size are that size's only;
the placements say which sizes each row counts; a three-seat tile deal decodes to three
hands; the audit re-scores a session only under presets that deal its tiles; the CLI's
``stats --seats`` and ``simulate --players`` follow the table's size.

The hand-worked figures (sheet rows as in the two files):
four players (Ann, Bo, Chen, Du), 3 deals, nets [0,13,13,-26] [3,-12,0,9] [-3,3,1,-1]:
    deals won:  Ann 2 (deals 1, 2), Bo 1 (3), Chen 2 (1, 2), Du 1 (2)       of 3 each
    dealt in:   Du (deal 1, to Ann), Bo (deal 2, to Ann and Chen), Ann (deal 3, to Bo)
    totals [0, 4, 14, -18]: 1st Chen, 2nd Bo, 3rd Ann, 4th Du
three players (Ann, Bo, Chen), 2 deals, nets [-4,-2,6] [-3,2,1]:
    deals won:  Ann 1 (deal 1, on Bo's discard), Bo 1 (deal 2), Chen 1 (deal 1)   of 2 each
    dealt in:   Bo (deal 1, to Ann)
    totals [-7, 0, 7]: 1st Chen, 2nd Bo, 3rd Ann (no 4th)
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd  # type: ignore[import-untyped]
import pytest
from test_sheet_seats import GOLDEN, HEADER, ROOT, write_csv

from analytics.queries import QUERIES, Analytics, Filters
from dashboard.deal_steps import replay_from_rows
from dashboard.rescore import presets_for
from ingest.logs.writer import write_log
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import ingest

CLI = [sys.executable, "-m", "dashboard.cli"]
#: the golden three-player evening in club7, on the day after the four-player one
HEADER_CLUB = [HEADER[0], "日期 / date", "俱乐部 / club", *HEADER[1:]]
THREE_IN_CLUB = [
    [row[0], "2026-11-29" if row[0] else "", "club7" if row[0] else "", *row[1:]] for row in GOLDEN
]
FOUR_SESSION = "club7-2026-11-28-t3"


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sizes")
    three = write_csv(folder / "three.csv", THREE_IN_CLUB, HEADER_CLUB)
    summary = ingest([ROOT / "data" / "templates" / "sheet-example.csv", three], folder / "wh", workers=0)
    assert (summary.ok, summary.findings, summary.invalid) == (5, 0, 0)
    return folder / "wh"


@pytest.fixture(scope="module")
def api(warehouse: Path) -> Iterator[Analytics]:
    analytics = Analytics(warehouse, persist=False)
    yield analytics
    analytics.close()


def by_player(frame: pd.DataFrame, *columns: str) -> dict[str, tuple[Any, ...]]:
    return {
        str(row["player"]): tuple(
            list(row[c]) if isinstance(row[c], list | tuple) or hasattr(row[c], "tolist") else row[c]
            for c in columns
        )
        for _, row in frame.iterrows()
    }


def test_the_club_plays_at_two_table_sizes(api: Analytics) -> None:
    options = api.query("filter_options")
    assert sorted(zip(options["club"], options["seats"], strict=True)) == [("club7", 3), ("club7", 4)]


def test_rates_at_each_table_size_are_that_size_only(api: Analytics) -> None:
    four = api.player_stats(Filters(seats=4))
    assert by_player(four, "deals", "wins", "net") == {
        "Ann": (3, 2, 0), "Bo": (3, 1, 4), "Chen": (3, 2, 14), "Du": (3, 1, -18),
    }  # fmt: skip
    rates = by_player(four, "win_rate", "deal_in_rate")
    assert rates == {"Ann": (2 / 3, 1 / 3), "Bo": (1 / 3, 1 / 3), "Chen": (2 / 3, 0.0), "Du": (1 / 3, 1 / 3)}
    three = api.player_stats(Filters(seats=3))
    assert by_player(three, "deals", "wins", "net", "win_rate", "deal_in_rate") == {
        "Ann": (2, 1, -7, 0.5, 0.0), "Bo": (2, 1, 0, 0.5, 0.5), "Chen": (2, 1, 7, 0.5, 0.0),
    }  # fmt: skip
    assert set(three["table_sizes"].map(list).map(tuple)) == {(3,)}
    every = api.player_stats()  # all sizes: the row says it mixes them
    assert by_player(every, "deals", "wins", "table_sizes") == {
        "Ann": (5, 3, [3, 4]), "Bo": (5, 2, [3, 4]), "Chen": (5, 3, [3, 4]), "Du": (3, 1, [4]),
    }  # fmt: skip
    assert api.player_stats(Filters(seats=2)).empty


def test_the_tablemates_branch_filters_the_size_too(api: Analytics) -> None:
    """With tablemates the seat rows are read (not the day sums): the same figures."""
    three = api.player_stats(Filters(seats=3, tablemates=("Ann",)))
    assert by_player(three, "deals", "wins", "net") == {"Ann": (2, 1, -7), "Bo": (2, 1, 0), "Chen": (2, 1, 7)}
    assert api.player_stats(Filters(seats=4, tablemates=("Du",)))["deals"].tolist() == [3, 3, 3, 3]


def test_placements_say_which_table_sizes_they_count(api: Analytics) -> None:
    every = api.placements()
    places = by_player(every, "sessions", "placement_1", "placement_2", "placement_3", "placement_4")
    assert places == {
        "Chen": (2, 2, 0, 0, 0), "Bo": (2, 0, 2, 0, 0), "Ann": (2, 0, 0, 2, 0), "Du": (1, 0, 0, 0, 1),
    }  # fmt: skip
    sizes = by_player(every, "table_sizes", "table_size")
    assert sizes["Ann"][0] == [3, 4] and pd.isna(sizes["Ann"][1])  # mixed: no one size
    assert sizes["Du"] == ([4], 4)
    three = api.placements(Filters(seats=3))
    assert by_player(three, "sessions", "avg_placement", "placement_4", "table_size") == {
        "Chen": (1, 1.0, 0, 3), "Bo": (1, 2.0, 0, 3), "Ann": (1, 3.0, 0, 3),
    }  # fmt: skip
    per_size = api.placements_by_table(Filters(player="Ann"))
    assert list(zip(per_size["table_size"], per_size["placement_3"], strict=True)) == [(4, 1), (3, 1)]
    ranks = api.session_placements(Filters(seats=3))
    assert ranks["table_size"].tolist() == [3, 3, 3] and ranks["placement"].tolist() == [1, 2, 3]


def test_every_query_takes_the_table_size(api: Analytics) -> None:
    """No query mixes a size in when one is asked for: the sessions listed, the deals
    counted, the money that flowed are the three-player evening's only."""
    for name in QUERIES:
        api.query(name, Filters(seats=3))  # binds $seats (a query without it would fail here)
    sessions = api.query("session_list", Filters(seats=3))
    assert sessions["session_id"].tolist() == ["s3"]
    assert int(api.query("overview", Filters(seats=3))["deals"].iloc[0]) == 2
    assert int(api.query("overview", Filters(seats=4))["deals"].iloc[0]) == 3
    flows = api.query("head_to_head", Filters(seats=3))
    assert set(flows["from_player"]) | set(flows["to_player"]) <= {"Ann", "Bo", "Chen"}
    found = api.page("deal_search", club=None, date_from=None, date_to=None, rules=None, seats=4,
                     player=None, min_fan=None, pattern=None, code=None, min_kongs=None, limit=10)  # fmt: skip
    assert sorted(found["deal_id"]) == [f"{FOUR_SESSION}-{n:02d}" for n in (1, 2, 3)]


def test_a_three_seat_tile_deal_decodes_to_three_hands(tmp_path: Path) -> None:
    """The stored deal line keeps the wall after the hands: three hands and a wall is four
    entries, as four hands without a wall are; the replay must read three hands."""
    log = tmp_path / "sanren.jsonl"
    plan = ClubPlan(
        players=3, sessions=1, deals_per_session=2, rules="sanren", seed=4, start=date(2026, 6, 1)
    )
    write_log(simulate_club(plan), log)
    ingest([log], tmp_path / "wh", workers=0)
    analytics = Analytics(tmp_path / "wh", materialize=False)
    try:
        deal_id = str(analytics.sql("select deal_id from stg_deals order by deal_id limit 1")["deal_id"][0])
        header = analytics.page("deal_header", deal_id=deal_id).iloc[0].to_dict()
        events = analytics.page(
            "deal_events", month=str(header["month"]), first=deal_id, last=deal_id, deal_ids=[deal_id]
        )
        replay = replay_from_rows(
            header, events, pd.DataFrame(), analytics.page("deal_findings", deal_id=deal_id)
        )
    finally:
        analytics.close()
    first = replay.steps[0]
    # sanren: 72 tiles (筒 and 条), 13 to each of three seats and one more to the dealer: 32 left
    assert len(replay.players) == 3 and len(first.hands) == 3
    assert sorted(len(hand) for hand in first.hands) == [13, 13, 14] and first.wall_left == 32
    assert replay.error is None and replay.scores == tuple(int(s) for s in header["scores"])


def test_a_session_is_re_scored_only_under_presets_that_deal_its_tiles() -> None:
    listed = pd.DataFrame(
        {
            "session_id": ["a", "b", "c", "d"],
            "rules": ["sanren", "duangouka", "standard", 'standard+{"max_fan":5}'],
            "players": [["A", "B", "C"]] * 2 + [["A", "B", "C", "D"]] * 2,
        }
    )
    assert presets_for("a", listed) == ["sanren"]  # three players, 13 tiles, 筒 and 条
    assert presets_for("b", listed) == ["duangouka"]  # three players, 10 tiles
    four = presets_for("c", listed)
    assert "chengdu" in four and "standard" in four and "sanren" not in four and "duangouka" not in four
    assert presets_for("d", listed) == four
    assert presets_for("elsewhere", listed) == presets_for("elsewhere", listed.iloc[:0])  # every preset


def test_stats_takes_a_table_size_and_says_when_rates_mix(warehouse: Path) -> None:
    mixed = subprocess.run([*CLI, "stats", "--warehouse", str(warehouse)], capture_output=True, text=True)
    assert mixed.returncode == 0 and "tables of 3, 4 players" in mixed.stderr
    every = subprocess.run(
        [*CLI, "stats", "--warehouse", str(warehouse), "--json"], capture_output=True, text=True
    )
    assert every.returncode == 0, every.stderr
    assert {r["player"]: r["table_sizes"] for r in json.loads(every.stdout)}["Ann"] == [3, 4]
    three = subprocess.run(
        [*CLI, "stats", "--warehouse", str(warehouse), "--seats", "3", "--json"],
        capture_output=True,
        text=True,
    )
    assert three.returncode == 0 and "tables of" not in three.stderr
    rows = {r["player"]: r for r in json.loads(three.stdout)}
    assert {p: (r["deals"], r["net"], r["table_sizes"]) for p, r in rows.items()} == {
        "Ann": (2, -7, [3]), "Bo": (2, 0, [3]), "Chen": (2, 7, [3]),
    }  # fmt: skip
    # the player card: a third winner only where the player sat at a table of four
    card_three = subprocess.run(
        [*CLI, "stats", "--warehouse", str(warehouse), "--seats", "3", "--player", "Ann"],
        capture_output=True,
        text=True,
    )
    card_all = subprocess.run(
        [*CLI, "stats", "--warehouse", str(warehouse), "--player", "Ann"], capture_output=True, text=True
    )
    assert "order 1st" in card_three.stdout and "3rd" not in card_three.stdout, card_three.stdout
    assert ", 3rd 0;" in card_all.stdout, card_all.stdout


def test_simulate_takes_a_club_as_small_as_its_table(tmp_path: Path) -> None:
    out = tmp_path / "three.jsonl"
    done = subprocess.run(
        [*CLI, "simulate", "--out", str(out), "--players", "3", "--sessions", "2", "--rules", "duangouka",
         "--sheet-sessions", "0.5", "--seed", "3"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    checked = subprocess.run([*CLI, "validate", "--json", str(out)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout[-2000:]  # the sheet session too: three players, no finding
    sessions = [json.loads(line) for line in out.read_text().splitlines() if '"type":"session"' in line]
    sheets = [line for line in out.read_text().splitlines() if '"record":"sheet"' in line]
    assert [len(s["players"]) for s in sessions] == [3, 3] and sheets
    short = subprocess.run(
        [*CLI, "simulate", "--out", str(out), "--players", "3", "--sessions", "1", "--rules", "standard"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert short.returncode == 2 and "needs 4 or more" in short.stderr


def test_the_api_reads_at_a_table_size(warehouse: Path, tmp_path: Path) -> None:
    """``seats`` on the reads; a three-player session's result and a deal of it name three
    players, with no fourth seat anywhere."""
    from test_api import call, start

    process, server = start(warehouse)
    try:
        three = call(server.url + "/v1/players?seats=3").body["players"]
        assert {p["player"]: (p["deals"], p["net"], p["table_sizes"]) for p in three} == {
            "Ann": (2, -7, [3]), "Bo": (2, 0, [3]), "Chen": (2, 7, [3]),
        }  # fmt: skip
        every = {p["player"]: p["table_sizes"] for p in call(server.url + "/v1/players").body["players"]}
        assert every == {"Ann": [3, 4], "Bo": [3, 4], "Chen": [3, 4], "Du": [4]}
        listed = call(server.url + "/v1/sessions?seats=3").body["sessions"]
        assert [s["session_id"] for s in listed] == ["s3"]
        assert call(server.url + "/v1/players?seats=5").status == 422
        result = call(server.url + "/v1/sessions/s3").body
        assert result["players"] == ["Ann", "Bo", "Chen"] and result["totals"] == {
            "Ann": -7,
            "Bo": 0,
            "Chen": 7,
        }
        assert result["ranking"] == ["Chen", "Bo", "Ann"]
        assert [d["nets"] for d in result["deals"]] == [
            {"Ann": -4, "Bo": -2, "Chen": 6}, {"Ann": -3, "Bo": 2, "Chen": 1},
        ]  # fmt: skip
        assert all(len(step["scores"]) == 3 for step in call(server.url + "/v1/deals/s3-01").body["steps"])
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.mark.parametrize("record", ["dcmshi_wall_end.json", "open_mahjong_sichuan.json"])
def test_a_platform_record_under_a_three_seat_rule_set_is_refused_in_words(record: str) -> None:
    """The platforms' records are four-player games: replayed under a three-seat rule set
    they are refused (exit 3, the deals not checked) with the reason, not misread."""
    path = ROOT / "tests" / "golden" / "platforms" / record
    done = subprocess.run([*CLI, "validate", "--rules", "sanren", str(path)], capture_output=True, text=True)
    assert done.returncode == 3
    assert "names 4 players, but the rules sanren play at a table of 3 seats" in done.stdout
