"""The marts of sums (``mart_player_days``, ``mart_session_days``, ``mart_quarantine_reasons``)
give exactly what the per-row computation they replace gives, after a full build and after
every kind of incremental step (new batches over days already held, a name newly shared,
a revision).

The per-row reference for a query reading a mart of sums is the query's own tablemates
branch (over ``mart_seat_deals``) run with no tablemates: the two branches must agree to
the last bit, floats included (``DataFrame.equals``, not a rounded comparison).
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pandas as pd  # type: ignore[import-untyped]
import pytest
from pandas.testing import assert_frame_equal  # type: ignore[import-untyped]
from test_marts_incremental import EVENING, OTHER, sheet

from analytics import rating
from analytics.queries import DERIVED, SQL_DIR, Analytics, Filters, page_sql, query_sql
from dashboard.record_draft import save_deal
from ingest.logs.writer import log_lines, write_lines, write_log
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer
from ingest.warehouse import ingest

#: the branch over a mart of sums (30_filters.sql's sums_in; fan_by_rules keeps every rule set)
DAYS_BRANCH = re.compile(
    r"\bsums_in\('(mart_\w+)', \$club, \$date_from, \$date_to, (\$rules|null), \$seats, cast\(\$tablemates as varchar\[\]\)\)"
)
SEATS_BRANCH = "where len(cast($tablemates as varchar[])) > 0"
#: the queries with a branch over a mart of sums and one over the seat rows
SUMMED_QUERIES = (
    "player_stats",
    "placements",
    "placements_by_table",
    "session_placements",
    "mate_records",
    "tablemates",
    "head_to_head",
    "deal_ins",
    "fan_by_total",
    "pattern_rates",
    "win_kinds",
    "fan_summary",
    "fan_by_rules",
    "fan_by_pattern",
    "fan_roots",
    "score_over_time",
)


#: the placements' ranking, a table macro of 30_filters.sql that three queries read
RANKS_MACRO = re.compile(r"create or replace macro session_ranks\(.*?;\n", re.S)
RANKS_CALL = "session_ranks($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))"


def forced(text: str, mates: str) -> str:
    """``text`` with its sums' branches given a tablemate (so they are empty) and its seat
    rows' branch taken (``mates``: how the tablemates are written in ``text``)."""
    text = re.sub(
        rf"\bsums_in\('(mart_\w+)', (\$club|p_club), (\$date_from|p_from), (\$date_to|p_to), (\$rules|p_rules|null), (\$seats|p_seats), {re.escape(mates)}\)",
        r"sums_in('\1', \2, \3, \4, \5, \6, ['forced'])",
        text,
    )
    return text.replace(f"where len({mates}) > 0", "where true")


def per_seat(api: Analytics, name: str, filters: Filters) -> pd.DataFrame:
    """A query computed from the seat rows (its tablemates branch, forced)."""
    text = query_sql(name)
    if RANKS_CALL in text:  # the ranking's branches are in the macro: a forced copy of it
        macro = RANKS_MACRO.search((SQL_DIR / "30_filters.sql").read_text(encoding="utf-8"))
        assert macro, "session_ranks"
        forced_macro = forced(macro.group(0), "p_mates").replace(
            "macro session_ranks(", "macro forced_ranks("
        )
        assert "['forced']" in forced_macro and "where true" in forced_macro
        api.sql(forced_macro)
        text = text.replace(RANKS_CALL, RANKS_CALL.replace("session_ranks(", "forced_ranks("))
    else:
        assert DAYS_BRANCH.search(text) and SEATS_BRANCH in text, name
        text = forced(text, "cast($tablemates as varchar[])")
    values = filters.params()
    return api.sql(text, {k: v for k, v in values.items() if f"${k}" in text})


#: the queries whose branch over marts of sums serves no player, and whose other branch
#: reads a player's deals row by row (taken for every deal when forced with no player)
DEAL_QUERIES = ("overview", "activity")


def per_deal(api: Analytics, name: str, filters: Filters) -> pd.DataFrame:
    """A query computed from the deal rows (its player branch, forced, with no player)."""
    text = query_sql(name)
    assert "$player is not null" in text and "$player is null" in text, name
    text = text.replace("$player is not null", "true").replace("$player is null", "false")
    values = filters.params()
    return api.sql(text, {k: v for k, v in values.items() if f"${k}" in text})


def assert_sums_exact(api: Analytics) -> None:
    players = [str(p) for p in api.sql("select distinct player from mart_seat_deals order by 1")["player"]]
    club = str(api.sql("select club from mart_deals where club is not null limit 1")["club"][0])
    variants = [
        Filters(),
        Filters(club=club),
        Filters(date_from=date(2026, 11, 2), date_to=date(2026, 11, 28)),
    ]
    variants += [Filters(player=p) for p in players[:3]] + [Filters(rules="standard"), Filters(seats=4)]
    for name in SUMMED_QUERIES:
        for filters in variants:
            have, want = api.query(name, filters), per_seat(api, name, filters)
            assert have.equals(want) and list(have.dtypes) == list(want.dtypes), (name, filters)
    for name in DEAL_QUERIES:
        for filters in variants:
            if filters.player is None:
                have, want = api.query(name, filters), per_deal(api, name, filters)
                assert have.equals(want) and list(have.dtypes) == list(want.dtypes), (name, filters)
    assert_ratings_exact(api)
    assert_search_exact(api)
    assert_mate_flows_exact(api, players[0])
    for mart, macro in DERIVED.items():
        held = api.sql(f"select * from {mart} order by all")
        fresh = api.sql(f"select * from {macro}(true, cast([] as date[]), false) order by all")
        assert held.equals(fresh), mart
    status = api.query("deal_status")
    lines = status[status["what"] == "quarantine_lines"][["label", "count"]].reset_index(drop=True)
    counted = api.sql(
        "select reason as label, count(*) as count from stg_quarantine group by reason order by reason"
    )
    assert lines.equals(counted)


#: what flowed between each pair of players over the deals a tablemate sat in, from every
#: transfer (mart_flows): the reference for mate_records' seat-row sums (received_from)
MATE_FLOWS_REFERENCE = """
with picked as (select distinct deal_id from mart_seat_deals where player = $mate),
flows as (
    select payee_player as player, payer_player as mate, sum(amount) as points
    from mart_flows semi join picked using (deal_id) group by all
)
select p.player, p.mate, coalesce(got.points, 0) - coalesce(gave.points, 0) as net_between
from (select distinct a.player, b.player as mate from mart_seat_deals as a
      join mart_seat_deals as b using (deal_id) semi join picked using (deal_id)
      where a.seat <> b.seat) as p
left join flows as got on got.player = p.player and got.mate = p.mate
left join flows as gave on gave.player = p.mate and gave.mate = p.player
order by p.player, p.mate
"""


def assert_mate_flows_exact(api: Analytics, mate: str) -> None:
    """A tablemates filter's net between two players (read from the seat rows it pairs) is
    what every transfer between them in those deals adds up to."""
    have = api.mate_records(Filters(tablemates=(mate,)))[["player", "mate", "net_between"]]
    want = api.sql(MATE_FLOWS_REFERENCE, {"mate": mate})
    have = have.sort_values(["player", "mate"]).reset_index(drop=True)
    assert len(have) and have["net_between"].abs().sum() > 0
    assert have.astype({"net_between": "int64"}).equals(want.astype({"net_between": "int64"}))


def assert_ratings_exact(api: Analytics) -> None:
    """mart_ratings (kept at each refresh) is the Elo computed afresh over every session."""
    history = rating.rating_history(api.query("session_placements"))
    assert_frame_equal(api.rating_history(), history, check_exact=True)
    assert_frame_equal(api.current_ratings(), rating.current_ratings(history), check_exact=True)
    assert_frame_equal(api.daily_ratings(), rating.daily_ratings(history), check_exact=True)
    for player in history["player"].unique()[:2]:
        mine = history[history["player"] == player].reset_index(drop=True)
        assert_frame_equal(api.rating_history(Filters(player=player)), mine, check_exact=True)
    # filters that keep every deal read the held ratings too; any that drop one rate afresh
    span = api.sql(
        "select min(played_date) as first, max(played_date) as last, count(*) - count(played_date) as undated from mart_deals"
    )
    first, last = span["first"][0], span["last"][0]
    whole = Filters(date_from=first, date_to=last)
    assert api._rated(whole) == (span["undated"][0] == 0)
    assert not api._rated(Filters(date_from=first, date_to=first))
    fresh = rating.rating_history(api.session_placements(whole))
    assert_frame_equal(api.rating_history(whole), fresh, check_exact=True)


#: the deal search computed the plain way (every win grouped per deal, the names shown for
#: every deal picked), the reference for analytics/sql/pages/deal_search.sql's kept highest fan
SEARCH_REFERENCE = """
with picked as (
    select deal_id, session_id, played_date, club, rules, players, status, kongs, findings, finding_codes
    from deals_in($club, $date_from, $date_to, $rules, $seats, $player)
    where ($code is null or list_contains(finding_codes, $code)) and ($min_kongs is null or kongs >= $min_kongs)
),
wins as (
    select deal_id, max(list_max(win_fans)) as max_fan,
        bool_or(base_pattern = $pattern or list_contains(extras, $pattern)) as has_pattern
    from mart_wins group by deal_id
),
matched as (
    select p.*, w.max_fan, count(*) over () as matches
    from picked as p left join wins as w using (deal_id)
    where ($min_fan is null or w.max_fan >= $min_fan) and ($pattern is null or w.has_pattern)
    order by w.max_fan desc nulls last, p.played_date desc nulls last, p.deal_id
    limit $limit
)
select deal_id, array_to_string(players, ', ') as players, max_fan, matches from matched
order by max_fan desc nulls last, played_date desc nulls last, deal_id
"""


def assert_search_exact(api: Analytics) -> None:
    """The deal search's deals, names, highest fan and count are the plain computation's."""
    player = str(api.sql("select player from mart_seat_deals order by player limit 1")["player"][0])
    code = api.sql("select code from mart_findings where deal_id is not null order by code limit 1")
    every: dict[str, object] = dict.fromkeys(
        (
            "club",
            "date_from",
            "date_to",
            "rules",
            "seats",
            "player",
            "min_fan",
            "pattern",
            "code",
            "min_kongs",
        )
    )
    searches: list[dict[str, object]] = [
        {},
        {"player": player},
        {"min_fan": 2},
        {"pattern": "pinghu"},
        {"code": str(code["code"][0]) if not code.empty else "none"},
        {"min_kongs": 1, "date_from": date(2026, 11, 2)},
    ]
    for criteria in searches:
        params = every | {"limit": 7} | criteria
        have = api.sql(page_sql("deal_search"), params)[["deal_id", "players", "max_fan", "matches"]]
        want = api.sql(SEARCH_REFERENCE, params)
        assert have.equals(want), criteria


def tile_log(folder: Path, club: str, seed: int) -> Path:
    """A tampered tile log (findings and quarantined lines) of one club in November."""
    log = folder / f"{club}-{seed}.jsonl"
    plan = ClubPlan(players=6, sessions=2, deals_per_session=4, seed=seed, club=club, start=date(2026, 11, 1))
    write_lines(Tamperer(0.25, seed=seed).lines(simulate_club(plan)), log)
    return log


def bloody_log(folder: Path) -> Path:
    """血流成河 deals capped at 2 fan: seats win again, some wins capped (封顶), so the
    counts over every win (win_fans) and over first wins (capped) differ."""
    log = folder / "xueliu.jsonl"
    rules = {"preset": "standard", "end_condition": "bloody_flow", "max_fan": 2}
    plan = ClubPlan(players=5, sessions=2, deals_per_session=6, seed=10, club="xueliu", rules=rules,
                    start=date(2026, 11, 20))  # fmt: skip
    write_log(simulate_club(plan), log)
    return log


def split_log(folder: Path) -> Path:
    """Deals of a held session id (c1's first) under another start, two days later, with
    other players: that session is split over two days (placements ranked per filter)."""
    log = folder / "split.jsonl"
    plan = ClubPlan(players=6, sessions=1, deals_per_session=3, seed=6, club="c1", start=date(2026, 11, 1))
    lines = []
    for line in log_lines(simulate_club(plan)):
        record = json.loads(line)
        if record["type"] == "session":
            record["started_at"] = "2026-11-03T20:00"
        if "deal_id" in record:
            record["deal_id"] += "-split"
        lines.append(json.dumps(record, ensure_ascii=False))
    write_lines(lines, log)
    return log


def refreshed_exact(api: Analytics) -> None:
    """The connection applies the new batches incrementally, and the sums stay exact."""
    assert api.refresh() and api.last_refresh == "incremental"
    assert_sums_exact(api)


@pytest.fixture
def warehouse(tmp_path: Path) -> Path:
    ingest([tile_log(tmp_path, "c1", 5)], tmp_path / "wh", workers=0)
    return tmp_path / "wh"


def test_the_sums_equal_the_per_row_computation_after_every_step(warehouse: Path, tmp_path: Path) -> None:
    api = Analytics(warehouse, persist=False)
    try:
        assert api.sql("select count(*) as n from mart_quarantine_reasons")["n"][0] > 0  # the log is tampered
        assert_sums_exact(api)
        ingest([tile_log(tmp_path, "c1", 6)], warehouse, workers=0)  # the same days again
        assert api.refresh() and api.last_refresh == "incremental"
        assert_sums_exact(api)
        for number in (1, 2, 3):  # sheet deals, a batch each (the 2nd and 3rd on a held day)
            save_deal(warehouse, EVENING, sheet(f"{EVENING.session_id}-0{number}"))
            refreshed_exact(api)
        ingest([tile_log(tmp_path, "c2", 8)], warehouse, workers=0)  # a second club: names shared
        refreshed_exact(api)
        save_deal(warehouse, EVENING, sheet(f"{EVENING.session_id}-03", 2, kong_from=3))  # a revision
        refreshed_exact(api)
        save_deal(warehouse, OTHER, sheet(f"{OTHER.session_id}-01"))
        refreshed_exact(api)
        earlier = ClubPlan(
            players=6, sessions=2, deals_per_session=3, seed=11, club="c1", start=date(2026, 10, 15)
        )
        write_log(simulate_club(earlier), tmp_path / "earlier.jsonl")  # two sessions among the held ones
        ingest([tmp_path / "earlier.jsonl"], warehouse, workers=0)
        refreshed_exact(api)
        ingest([split_log(tmp_path)], warehouse, workers=0)  # a held session now on two days
        refreshed_exact(api)
        assert api.sql("select count(*) as n from mart_session_places where placement is null")["n"][0] > 0
        ingest([bloody_log(tmp_path)], warehouse, workers=0)  # 血流成河: repeated wins, capped fan
        refreshed_exact(api)
    finally:
        api.close()
