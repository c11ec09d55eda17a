"""Placements, the pairwise Elo rating, pattern rates and records against tablemates
on a real warehouse (simulated and tampered logs, ingested), each checked
against an independent computation from the stored seats; the rating's invariants (zero
sum per session, deterministic, hand-worked first session) and ``chuanma stats --json``'s
added keys."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from itertools import permutations
from pathlib import Path

import pandas as pd  # type: ignore[import-untyped]
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analytics import rating
from analytics.queries import Analytics, Filters


def shown(api: Analytics) -> Callable[[str, str | None], str]:
    """Players are per club: the rule written again over the stored seats (not the marts),
    a name in several clubs is "Name (club)", a name in one club the name."""
    rows = api.sql(
        "select distinct s.player, d.club from raw_seats s join raw_deals d using (deal_id) where d.club is not null"
    )
    counts = rows.groupby("player")["club"].nunique()
    shared = set(counts[counts > 1].index)
    return lambda name, club: f"{name} ({club})" if name in shared and club is not None else name


def session_nets(api: Analytics, club: str | None = None) -> pd.DataFrame:
    """Per session and player (per club), from the stored seats (not the marts): net and seat."""
    seats = api.sql(
        "select s.session_id, s.player, s.seat, s.net, s.played_at, d.club from raw_seats s "
        "join raw_deals d using (deal_id) where d.status in ('ok', 'findings')"
    )
    name = shown(api)
    seats["player"] = [name(p, c) for p, c in zip(seats["player"], seats["club"], strict=True)]
    if club is not None:
        seats = seats[seats["club"] == club]
    return seats.groupby(["session_id", "player"], as_index=False).agg(
        seat=("seat", "min"), net=("net", "sum"), played_at=("played_at", "min")
    )


def ranked(nets: pd.DataFrame) -> pd.DataFrame:
    """Placements by the documented rule: net down, then seat, then name."""
    out = nets.sort_values(["session_id", "net", "seat", "player"], ascending=[True, False, True, True])
    return out.assign(placement=out.groupby("session_id").cumcount() + 1)


# ----------------------------------------------------------------------- placements
@pytest.mark.parametrize("club", [None, "east"])
def test_placements_follow_the_documented_rule(api: Analytics, club: str | None) -> None:
    expected = ranked(session_nets(api, club))
    got = api.session_placements(Filters(club=club))
    merged = expected.merge(got, on=["session_id", "player"], suffixes=("", "_api"))
    assert len(merged) == len(expected) == len(got)
    assert (merged["placement"] == merged["placement_api"]).all()
    assert (merged["net"] == merged["net_api"]).all()
    # each session has exactly one 1st, 2nd...
    for _, table in got.groupby("session_id"):
        assert sorted(table["placement"]) == list(range(1, len(table) + 1))
    summary = api.placements(Filters(club=club)).set_index("player")
    counts = expected.groupby("player")["placement"]
    for player, places in counts:
        row = summary.loc[player]
        assert row["sessions"] == len(places)
        assert row["avg_placement"] == pytest.approx(places.mean())
        for k in range(1, 5):
            assert row[f"placement_{k}"] == (places == k).sum()
            assert row[f"placement_{k}_rate"] == pytest.approx((places == k).mean())


def test_a_tie_goes_to_the_lower_seat() -> None:
    """The tie rule in SQL, on a hand-made table: equal nets, the lower seat first (Bo in
    seat 0 before Ann in seat 1, though Ann comes first by name)."""
    import duckdb

    from analytics.queries import query_sql

    db = duckdb.connect()
    db.execute(
        "create table mart_seat_deals as select * from (values "
        "('d1','s1',null::timestamp,null::date,'c','r',[]::varchar[],0,'Bo',5,4),"
        "('d1','s1',null,null,'c','r',[],1,'Ann',5,4),('d1','s1',null,null,'c','r',[],2,'Chen',-3,4),"
        "('d1','s1',null,null,'c','r',[],3,'Du',-7,4)) "
        "t(deal_id, session_id, played_at, played_date, club, rules, players, seat, player, net, seats)"
    )
    db.execute("create table mart_deals as select deal_id, players from mart_seat_deals")
    filters_sql = (
        Path(__file__).resolve().parent.parent / "analytics" / "sql" / "30_filters.sql"
    ).read_text()
    marts_sql = (Path(__file__).resolve().parent.parent / "analytics" / "sql" / "20_marts.sql").read_text()
    for mart in ("session_days", "session_places"):  # the sessions' marts, as built (ranked there)
        start = marts_sql.index(f"create or replace macro {mart}(")
        end = marts_sql.index(";", marts_sql.index(f"create or replace view mart_{mart}")) + 1
        db.execute(marts_sql[start:end])
    db.execute(
        "create table mart_player_days as select 1 as club, 1 as rules, 1 as played_date, 4 as seats where false"
    )
    db.execute(
        "create table mart_sessions as select 1 as club, 1 as rules, 1 as played_date,"
        " []::varchar[] as players, 4 as seats where false"
    )
    db.execute(filters_sql.split("create or replace macro pairs_in")[0])
    params: dict[str, object] = {
        "club": None,
        "date_from": None,
        "date_to": None,
        "rules": None,
        "seats": None,
        "tablemates": [],
        "player": None,
    }
    rows = db.execute(query_sql("session_placements"), params).fetchall()
    assert [(r[3], r[7]) for r in rows] == [("Bo", 1), ("Ann", 2), ("Chen", 3), ("Du", 4)]


# ----------------------------------------------------------------------- rating
def test_first_session_worked_by_hand() -> None:
    """Four newcomers (all 1500, E = 0.5): 1st wins 3 pairs: 32/3 * (3 - 1.5) = +16; 2nd
    +5.33, 3rd -5.33, 4th -16."""
    changes = rating.session_changes([1500.0] * 4, [9, 4, -1, -12])
    assert changes == pytest.approx([16.0, 16 / 3, -16 / 3, -16.0])
    assert rating.session_changes([1500.0] * 4, [0, 0, 0, 0]) == [0.0] * 4


@given(
    st.lists(st.floats(min_value=800, max_value=2400), min_size=2, max_size=4),
    st.lists(st.integers(min_value=-500, max_value=500), min_size=4, max_size=4),
)
def test_every_session_is_zero_sum(ratings: list[float], nets: list[int]) -> None:
    changes = rating.session_changes(ratings, nets[: len(ratings)])
    assert sum(changes) == pytest.approx(0.0, abs=1e-9)
    assert all(abs(c) <= rating.K + 1e-9 for c in changes)
    best = max(range(len(ratings)), key=lambda i: (nets[i], -i))
    if all(nets[best] > nets[j] for j in range(len(ratings)) if j != best):
        assert changes[best] > 0  # beating everyone always gains


def test_rating_over_the_warehouse_is_zero_sum_and_deterministic(api: Analytics) -> None:
    history = api.rating_history()
    placements = api.session_placements()
    assert len(history) == len(placements)
    assert history.groupby("session_id")["change"].sum().abs().max() < 1e-9
    # every player's ratings add up from 1500 by their changes, session after session
    for _, rows in history.groupby("player", sort=False):
        assert rows["rating_before"].iloc[0] == rating.INITIAL
        assert rows["rating"].iloc[-1] == pytest.approx(rating.INITIAL + rows["change"].sum())
    # the mean rating of everyone who played stays at the start (zero sum)
    final = rating.current_ratings(history)
    assert final["rating"].mean() == pytest.approx(rating.INITIAL)
    # the order the rows arrive in changes nothing
    shuffled = rating.rating_history(placements.sample(frac=1.0, random_state=3))
    pd.testing.assert_frame_equal(shuffled.reset_index(drop=True), history.reset_index(drop=True))
    # one player's rows are the same rows of the whole table
    name = str(history["player"].iloc[0])
    mine = api.rating_history(Filters(player=name))
    pd.testing.assert_frame_equal(mine, history[history["player"] == name].reset_index(drop=True))


def test_rating_recomputed_independently(api: Analytics) -> None:
    """A second, plain implementation of the documented rule over the stored seats."""
    nets = ranked(session_nets(api))
    nets = nets.sort_values(["played_at", "session_id", "placement"], na_position="first", kind="stable")
    current: dict[str, float] = {}
    for _, table in nets.groupby("session_id", sort=False):
        before = {p: current.get(p, 1500.0) for p in table["player"]}
        net = dict(zip(table["player"], table["net"], strict=True))
        for p, q in permutations(before, 2):
            score = 1.0 if net[p] > net[q] else 0.5 if net[p] == net[q] else 0.0
            current[p] = current.get(p, 1500.0) + 32 / 3 * (
                score - 1 / (1 + 10 ** ((before[q] - before[p]) / 400))
            )
    final = rating.current_ratings(api.rating_history()).set_index("player")["rating"]
    assert final.to_dict() == pytest.approx(current)


def test_player_table_adds_columns_and_changes_none(api: Analytics) -> None:
    stats = api.player_stats()
    table = api.player_table()
    assert list(table.columns[: len(stats.columns)]) == list(stats.columns)
    pd.testing.assert_frame_equal(table[stats.columns], stats)
    added = {
        "sessions",
        "avg_placement",
        "rating",
        "rating_peak",
        *(f"placement_{k}_rate" for k in range(1, 5)),
    }
    assert added <= set(table.columns)
    assert table["rating"].notna().all()


# ----------------------------------------------------------------------- patterns, tablemates
def test_pattern_rates_per_win_beside_the_club(api: Analytics) -> None:
    wins = api.sql(
        "select s.player, d.club, s.base_pattern, s.extras from raw_seats s join raw_deals d using (deal_id) "
        "where d.status in ('ok', 'findings') and s.won"
    )
    name = shown(api)
    wins["player"] = [name(p, c) for p, c in zip(wins["player"], wins["club"], strict=True)]
    rates = api.pattern_rates()
    assert len(rates) > 0 and (rates["hits"] == 0).any()  # patterns the player never had: 0
    for row in rates.itertuples():
        own = wins[wins["player"] == row.player]
        if row.kind == "base":
            hits = (own["base_pattern"] == row.pattern).sum()
            club = (wins["base_pattern"] == row.pattern).sum()
        else:
            hits = sum(row.pattern in list(e) for e in own["extras"])
            club = sum(row.pattern in list(e) for e in wins["extras"])
        assert (row.hits, row.wins, row.club_hits, row.club_wins) == (hits, len(own), club, len(wins))
        assert row.rate == pytest.approx(hits / len(own))
    per_player = rates.groupby("player").size()
    assert (per_player == rates[["pattern", "kind"]].drop_duplicates().shape[0]).all()  # every pattern, each
    # base patterns of a player add up to every win
    base = rates[rates["kind"] == "base"].groupby("player")["rate"].sum()
    assert base.to_numpy() == pytest.approx([1.0] * len(base))


def test_record_against_each_tablemate(api: Analytics) -> None:
    name = str(api.player_stats()["player"].iloc[0])
    records = api.mate_records(Filters(player=name))
    deals = api.sql("select players, club, deal_id from raw_deals where status in ('ok', 'findings')")
    rename = shown(api)
    deals["players"] = [
        [rename(p, c) for p in ps] for ps, c in zip(deals["players"], deals["club"], strict=True)
    ]
    deals = deals[[name in ps for ps in deals["players"]]]
    flows = api.head_to_head()
    places = ranked(session_nets(api)).set_index(["session_id", "player"])["placement"]
    for row in records.itertuples():
        assert row.deals == sum(row.mate in list(p) for p in deals["players"])
        got = flows[(flows["from_player"] == row.mate) & (flows["to_player"] == name)]["points"].sum()
        gave = flows[(flows["from_player"] == name) & (flows["to_player"] == row.mate)]["points"].sum()
        assert row.net_between == got - gave
        mine = places.xs(name, level="player")
        theirs = places.xs(row.mate, level="player")
        shared = mine.index.intersection(theirs.index)
        assert row.sessions == len(shared)
        assert row.placed_above == int((mine[shared] < theirs[shared]).sum())


def test_stats_json_adds_the_rating_keys(warehouse: Path) -> None:
    script = Path(sys.executable).with_name("chuanma")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "dashboard.cli"]
    done = subprocess.run([*command, "stats", "--warehouse", str(warehouse), "--json"],
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    players = json.loads(done.stdout)
    api = Analytics(warehouse, materialize=False)
    try:
        table = api.player_table()
    finally:
        api.close()
    assert [p["player"] for p in players] == list(table["player"])
    for row, expected in zip(players, table.to_dict(orient="records"), strict=True):
        assert {"player", "deals", "wins", "self_draws", "deal_ins", "net"} <= set(row)
        assert row["rating"] == pytest.approx(expected["rating"])
        assert row["avg_placement"] == pytest.approx(expected["avg_placement"])
        assert row["sessions"] == expected["sessions"]


def test_filters_that_match_nothing_give_empty_tables(api: Analytics) -> None:
    for filters in (Filters(player="Nobody"), Filters(club="no-such-club")):
        table = api.player_table(filters)
        assert table.empty and {"rating", "avg_placement"} <= set(table.columns)
        assert api.rating_history(filters).empty
        assert api.placements(filters).empty and api.pattern_rates(filters).empty
        assert api.mate_records(filters).empty
