"""A club's players (球员名册): the roster file and ``chuanma roster``, and
what it changes when the warehouse is read: an alias counts for its player, a guest is
listed apart, a forgotten player shows as an anonymous label in every table with every
figure as before. Expectations are independent DuckDB queries over the stored Parquet."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import page_reading
import pytest
from test_dashboard_apptest import club_logs

from analytics.queries import Analytics, Filters
from analytics.roster import (
    RosterError,
    add_alias,
    add_player,
    club_names,
    forget_player,
    guests_split,
    load_roster,
    remove_player,
    roster_path,
    set_guest,
)
from dashboard.i18n import Lang
from ingest.warehouse import ingest, table_files

CLUB = "sample-club"


@pytest.fixture(scope="module")
def stored_warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("roster")
    ingest(club_logs(folder / "logs"), folder / "warehouse", workers=0)
    return folder / "warehouse"


@pytest.fixture
def warehouse(stored_warehouse: Path, tmp_path: Path) -> Path:
    """A copy each test may give a roster of its own."""
    copy = tmp_path / "warehouse"
    shutil.copytree(stored_warehouse, copy)
    return copy


def stored(warehouse: Path, sql: str) -> list[tuple[Any, ...]]:
    db = duckdb.connect()
    for table in ("seats", "deals"):
        db.read_parquet(table_files(warehouse, table), union_by_name=True).create_view(table)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def per_player(warehouse: Path) -> dict[str, tuple[int, int]]:
    """Stored deals and net per name of the club, complete deals only (names that play in
    one club only, so each is shown as written)."""
    found = stored(
        warehouse,
        "select s.player, count(*), sum(s.net) from seats s join deals d using (deal_id) "
        f"where d.club = '{CLUB}' and d.status in ('ok', 'findings') and s.player not in "
        f"(select player from seats where club <> '{CLUB}') group by s.player",
    )
    return {name: (int(deals), int(net)) for name, deals, net in found}


def test_roster_file_changes(tmp_path: Path) -> None:
    add_player(tmp_path, "west", "张伟")
    add_player(tmp_path, "east", "张伟")  # the same name in another club: another player
    with pytest.raises(RosterError, match="already has"):
        add_player(tmp_path, "west", " 张伟 ")
    with pytest.raises(RosterError, match="cannot be empty"):
        add_player(tmp_path, "west", "  ")
    add_player(tmp_path, "west", "Zhang")
    add_alias(tmp_path, "west", "老张", "张伟")
    merged = add_alias(tmp_path, "west", "Zhang", "张伟")  # a roster player merged in
    assert merged.aliases == ("老张", "Zhang")
    assert club_names(load_roster(tmp_path), "west") == ["张伟"]
    with pytest.raises(RosterError, match="no player"):
        add_alias(tmp_path, "west", "x", "nobody")
    assert set_guest(tmp_path, "east", "张伟").guest
    assert remove_player(tmp_path, "west", "Zhang") is not None  # an alias off its player
    first = forget_player(tmp_path, "west", "老张")
    second = forget_player(tmp_path, "west", "Li")  # not on the roster: added, then forgotten
    assert (first.forgotten, second.forgotten) == (1, 2) and first.shown.startswith("匿名玩家 1")
    with pytest.raises(RosterError, match="cannot be undone"):
        remove_player(tmp_path, "west", "张伟")
    assert club_names(load_roster(tmp_path), "west") == []  # forgotten players are not offered
    roster_path(tmp_path).write_text("{}", encoding="utf-8")
    with pytest.raises(RosterError, match="not a roster file"):
        load_roster(tmp_path)


def test_an_alias_counts_for_its_player(warehouse: Path) -> None:
    before = per_player(warehouse)
    player, other = sorted(before)[:2]
    add_player(warehouse, CLUB, player)
    add_alias(warehouse, CLUB, other, player)
    api = Analytics(warehouse, materialize=False)
    try:
        board = api.player_stats(Filters(club=CLUB)).set_index("player")
    finally:
        api.close()
    assert other not in board.index
    assert int(board.loc[player, "deals"]) == before[player][0] + before[other][0]
    assert int(board.loc[player, "net"]) == before[player][1] + before[other][1]


def test_guests_are_listed_apart(warehouse: Path) -> None:
    guest = sorted(per_player(warehouse))[0]
    add_player(warehouse, CLUB, guest, guest=True)
    api = Analytics(warehouse, materialize=False)
    try:
        members, guests = guests_split(api.player_stats(), api.guests())
    finally:
        api.close()
    assert list(guests["player"]) == [guest] and guest not in set(members["player"])


def _texts(api: Analytics) -> str:
    """Every player column and text of every table a page reads, as one string."""
    parts = []
    for table in (
        "stg_sessions",
        "stg_deals",
        "stg_seats",
        "stg_ledger",
        "stg_findings",
        "stg_quarantine",
        "mart_deals",
        "mart_seat_deals",
        "mart_pairs",
        "mart_flows",
        "mart_findings",
    ):
        parts.append(api.sql(f"select * from {table}").astype(str).to_csv())
    return "\n".join(parts)


def test_a_forgotten_player_is_anonymised_everywhere(warehouse: Path) -> None:
    before = per_player(warehouse)
    name = max(before, key=len)  # the longest: no other name holds it
    api = Analytics(warehouse)  # materialized, as the dashboard reads it
    try:
        assert name in _texts(api)
        totals = api.sql("select sum(net) as net, count(*) as n from mart_seat_deals").iloc[0].tolist()
        label = forget_player(warehouse, CLUB, name).shown
        assert api.refresh()  # the roster changed: shown without a restart
        texts = _texts(api)
        assert name not in texts and label in texts
        board = api.player_stats(Filters(club=CLUB)).set_index("player")
        assert (int(board.loc[label, "deals"]), int(board.loc[label, "net"])) == before[name]
        after = api.sql("select sum(net) as net, count(*) as n from mart_seat_deals").iloc[0].tolist()
        assert after == totals  # nothing else changed
    finally:
        api.close()
    assert name in {n for (n,) in stored(warehouse, "select distinct player from seats")}  # not rewritten


def _chuanma(*args: str | Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("chuanma")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "dashboard.cli"]
    return subprocess.run(
        [*command, *map(str, args)], capture_output=True, text=True, encoding="utf-8", timeout=120
    )


def test_roster_command(tmp_path: Path) -> None:
    where = ("--club", "west", "--warehouse", tmp_path)
    assert _chuanma("roster", "add", "张伟", *where).returncode == 0
    assert _chuanma("roster", "add", "老王", "--guest", *where).returncode == 0
    alias = _chuanma("roster", "alias", "老张", "张伟", *where, "--json")
    assert json.loads(alias.stdout)["aliases"] == ["老张"]
    again = _chuanma("roster", "add", "张伟", *where)
    assert again.returncode == 2 and "already has" in again.stderr
    assert _chuanma("roster", "forget", "老王", *where).returncode == 0
    listed = json.loads(_chuanma("roster", "list", "--warehouse", tmp_path, "--json").stdout)
    assert [(p["name"], p["shown"], p["guest"]) for p in listed] == [
        ("张伟", "张伟", False),
        (None, "匿名玩家 1 (forgotten player 1)", True),  # a forgotten name is not listed
    ]
    text = _chuanma("roster", "list", "--warehouse", tmp_path).stdout
    assert "老王" not in text and "张伟 (also 老张)" in text
    assert _chuanma("roster", "remove", "nobody", *where).returncode == 2
    renamed = _chuanma("roster", "rename", "张伟", "张大伟", *where, "--json")
    assert json.loads(renamed.stdout)["aliases"] == ["张伟", "老张"]  # the old name stays an alias
    assert _chuanma("roster", "rename", "张大伟", "老张", *where).returncode == 0  # an alias of theirs
    assert _chuanma("roster", "rename", "nobody", "x", *where).returncode == 2


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_players_page_follows_the_roster_without_a_restart(
    lang: Lang, warehouse: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guest leaves the leaderboard for the guests' table, and a forgotten player shows
    by label only, on the next run of the same dashboard (its caches key on the roster)."""
    from streamlit.testing.v1 import AppTest
    from test_dashboard_apptest import APP, TIMEOUT

    from dashboard.i18n import label
    from dashboard.warehouse_location import WAREHOUSE_ENV

    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    guest, forgotten = sorted(per_player(warehouse), key=len)[-2:]
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("app_pages/players.py").run()
    assert not at.exception, [e.value for e in at.exception]
    board = page_reading.shown(at.dataframe[0].value)
    assert guest in set(board.iloc[:, 0]) and label("guests_title", lang) not in str(at.markdown)

    add_player(warehouse, CLUB, guest, guest=True)
    shown = forget_player(warehouse, CLUB, forgotten).shown
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    tables = [page_reading.shown(frame.value) for frame in at.dataframe]
    assert guest not in set(tables[0].iloc[:, 0]) and shown in set(tables[0].iloc[:, 0])
    assert any(f"**{label('guests_title', lang)}**" == m.value for m in at.markdown)
    assert any(list(t.iloc[:, 0]) == [guest] for t in tables[1:])
    assert forgotten not in "".join(t.to_csv() for t in tables)


def test_stats_lists_guests_apart(warehouse: Path) -> None:
    guest = max(per_player(warehouse), key=len)
    add_player(warehouse, CLUB, guest, guest=True)
    rows = json.loads(_chuanma("stats", "--warehouse", warehouse, "--json").stdout)
    assert {r["player"] for r in rows if r["guest"]} == {guest}
    text = _chuanma("stats", "--warehouse", warehouse).stdout
    table, apart = text.split("guests (not ranked)")
    assert guest not in table and guest in apart


def test_the_ratings_page_lists_guests_apart(warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest
    from test_dashboard_apptest import APP, TIMEOUT

    from dashboard.i18n import label
    from dashboard.warehouse_location import WAREHOUSE_ENV

    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    guest = max(per_player(warehouse), key=len)
    add_player(warehouse, CLUB, guest, guest=True)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("app_pages/ratings.py").run()
    assert not at.exception, [e.value for e in at.exception]
    tables = [page_reading.shown(frame.value) for frame in at.dataframe]
    assert guest not in set(tables[0].iloc[:, 0])
    assert any(f"**{label('guests_title', 'en')}**" == m.value for m in at.markdown)
    assert any(list(t.iloc[:, 0]) == [guest] for t in tables[1:])


def test_an_incremental_refresh_applies_the_roster_to_new_deals(warehouse: Path, tmp_path: Path) -> None:
    """Deals saved after the roster was read are mapped too: the refresh that adds them
    (incrementally, as after a save on the Record page) counts the alias for its player."""
    from datetime import date

    from ingest.logs.writer import write_log
    from ingest.simulator.simulate import ClubPlan, simulate_club

    before = per_player(warehouse)
    player, other = sorted(before)[:2]
    add_player(warehouse, CLUB, player)
    add_alias(warehouse, CLUB, other, player)
    api = Analytics(warehouse)
    try:
        log = tmp_path / "more.jsonl"
        plan = ClubPlan(players=8, sessions=2, deals_per_session=4, seed=77, start=date(2026, 9, 1), days=5)
        write_log(simulate_club(plan), log)
        ingest([log], warehouse, workers=0)
        assert api.refresh() and api.last_refresh == "incremental"
        after = per_player(warehouse)  # the stored names, the new deals included
        board = api.player_stats(Filters(club=CLUB)).set_index("player")
    finally:
        api.close()
    assert after[player][0] + after[other][0] > before[player][0] + before[other][0]
    assert other not in board.index
    assert int(board.loc[player, "deals"]) == after[player][0] + after[other][0]
    assert int(board.loc[player, "net"]) == after[player][1] + after[other][1]


def test_a_damaged_roster_shows_names_as_recorded_and_says_so(
    warehouse: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand-edited roster.json that no longer parses stops nothing: every page and
    ``stats`` show the names as recorded, the page warns (without the file's path) and
    ``stats`` warns on stderr, its JSON unchanged."""
    from streamlit.testing.v1 import AppTest
    from test_dashboard_apptest import APP, TIMEOUT

    from dashboard.i18n import label
    from dashboard.warehouse_location import WAREHOUSE_ENV

    guest = max(per_player(warehouse), key=len)
    add_player(warehouse, CLUB, guest, guest=True)
    before = json.loads(_chuanma("stats", "--warehouse", warehouse, "--json").stdout)
    roster_path(warehouse).write_text('{"format": 1, "players": [', encoding="utf-8")
    analytics = Analytics(warehouse)
    try:
        assert analytics.roster_error is not None and "cannot read the roster" in analytics.roster_error
        assert guest in set(analytics.player_stats()["player"])
    finally:
        analytics.close()
    run = _chuanma("stats", "--warehouse", warehouse, "--json")
    after = json.loads(run.stdout)
    assert "names are shown as recorded" in run.stderr
    assert [r["player"] for r in after] == [r["player"] for r in before] and not any(
        "guest" in r for r in after
    )

    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("app_pages/players.py").run()
    assert not at.exception, [e.value for e in at.exception]
    warned = [w.value for w in at.sidebar.warning]
    assert label("roster_unreadable", "en") in warned and str(warehouse) not in "".join(warned)
    assert guest in set(page_reading.shown(at.dataframe[0].value).iloc[:, 0])  # no roster: no guests apart
