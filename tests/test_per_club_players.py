"""Players are per club (玩家按俱乐部区分): two clubs that each have a "Ann" ingested
into one real warehouse give two players, never one. Every expectation below is an
independent DuckDB query over the stored Parquet files (not the views), grouped by club
and name; the only rule written again here is how a player is shown: the name when it
plays in one club, "Name (club)" when it plays in several."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from test_dashboard_apptest import club_logs

from analytics.queries import Analytics, Filters
from ingest.warehouse import ingest, table_files


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("perclub")
    ingest(club_logs(folder / "logs"), folder / "warehouse", workers=0)
    return folder / "warehouse"


@pytest.fixture(scope="module")
def api(warehouse: Path) -> Iterator[Analytics]:
    analytics = Analytics(warehouse)
    yield analytics
    analytics.close()


@pytest.fixture(scope="module")
def stored(warehouse: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """The stored seats, deals and ledger straight from the Parquet files."""
    db = duckdb.connect()
    for table in ("seats", "deals", "ledger"):
        db.read_parquet(table_files(warehouse, table), union_by_name=True).create_view(table)
    yield db
    db.close()


def rows(db: duckdb.DuckDBPyConnection, sql: str) -> list[tuple[Any, ...]]:
    return db.execute(sql).fetchall()


def shared_names(db: duckdb.DuckDBPyConnection) -> set[str]:
    found = rows(
        db,
        "select s.player from seats s join deals d using (deal_id) where d.club is not null "
        "group by s.player having count(distinct d.club) > 1",
    )
    return {name for (name,) in found}


def shown(name: str, club: str | None, shared: set[str]) -> str:
    return f"{name} ({club})" if name in shared and club is not None else name


COMPLETE = "d.status in ('ok', 'findings')"


def test_the_fixture_has_one_name_in_two_clubs(stored: duckdb.DuckDBPyConnection) -> None:
    assert "Ann" in shared_names(stored)


def test_leaderboard_has_one_row_per_club_and_name(api: Analytics, stored: duckdb.DuckDBPyConnection) -> None:
    shared = shared_names(stored)
    expected = {
        shown(name, club, shared): (deals, wins, deal_ins, net)
        for name, club, deals, wins, deal_ins, net in rows(
            stored,
            "select s.player, d.club, count(*), count(*) filter (where s.won), "
            "sum(s.dealt_in), sum(s.net) "
            f"from seats s join deals d using (deal_id) where {COMPLETE} group by s.player, d.club",
        )
    }
    board = api.player_stats()
    got = {
        str(r["player"]): (r["deals"], r["wins"], r["deal_ins"], r["net"]) for r in board.to_dict("records")
    }
    assert got == expected
    anns = sorted(p for p in got if p.startswith("Ann"))
    assert len(anns) == 2 and "Ann" not in got
    assert len(board) == len(set(board["player"]))  # one row per player
    # a club's filter shows that club's Ann only, under the same name
    east = api.player_stats(Filters(club="east"))
    assert [p for p in east["player"] if p.startswith("Ann")] == ["Ann (east)"]
    assert east.set_index("player").loc["Ann (east)", "net"] == expected["Ann (east)"][3]


def test_head_to_head_does_not_mix_clubs(api: Analytics, stored: duckdb.DuckDBPyConnection) -> None:
    shared = shared_names(stored)
    expected = {
        (shown(payer, club, shared), shown(payee, club, shared)): points
        for payer, payee, club, points in rows(
            stored,
            "select l.payer_player, l.payee_player, d.club, sum(l.amount) from ledger l "
            f"join deals d using (deal_id) where {COMPLETE} and l.payer_player is not null "
            "and l.payee_player is not null group by all",
        )
    }
    flows = api.head_to_head()
    got = {
        (str(a), str(b)): p
        for a, b, p in zip(flows["from_player"], flows["to_player"], flows["points"], strict=True)
    }
    assert got == expected
    assert any(a == "Ann (east)" for a, _ in got) and any(a == "Ann (sample-club)" for a, _ in got)


def test_tablemates_do_not_mix_clubs(api: Analytics, stored: duckdb.DuckDBPyConnection) -> None:
    shared = shared_names(stored)
    expected = {
        (shown(a, club, shared), shown(b, club, shared)): deals
        for a, b, club, deals in rows(
            stored,
            "select x.player, y.player, d.club, count(*) from seats x join seats y "
            "on x.deal_id = y.deal_id and x.seat <> y.seat join deals d on d.deal_id = x.deal_id "
            f"where {COMPLETE} group by all",
        )
    }
    mates = api.tablemates()
    got = {
        (str(a), str(b)): n for a, b, n in zip(mates["player"], mates["mate"], mates["deals"], strict=True)
    }
    assert got == expected
    east_ann = {b for a, b in got if a == "Ann (east)"}
    assert east_ann and all(not m.endswith("(sample-club)") for m in east_ann)


def test_ratings_are_per_club(api: Analytics, stored: duckdb.DuckDBPyConnection) -> None:
    shared = shared_names(stored)
    sessions = {
        shown(name, club, shared): n
        for name, club, n in rows(
            stored,
            "select s.player, d.club, count(distinct s.session_id) from seats s join deals d using (deal_id) "
            f"where {COMPLETE} group by all",
        )
    }
    table = api.player_table()
    assert dict(zip(table["player"], table["sessions"], strict=True)) == sessions
    assert table["rating"].notna().all()
    history = api.rating_history()
    for ann in ("Ann (east)", "Ann (sample-club)"):
        assert (history["player"] == ann).sum() == sessions[ann]  # one rating step per own session
    assert "Ann" not in set(history["player"])


def test_a_bare_name_of_two_clubs_is_ambiguous(api: Analytics) -> None:
    assert api.players_named("Ann") == ["Ann (east)", "Ann (sample-club)"]
    assert api.player_card("Ann") is None  # the bare name is no one player
    card = api.player_card("Ann (east)")
    assert card is not None and card["player"] == "Ann (east)"
