"""``mart_ratings``: every player's rating after each session, over every session (no
filter), kept with the marts so the Players and Ratings pages read it instead of running
the Elo of ``analytics/rating.py`` over every session at every new catalog version.

Its rows are exactly ``rating.rating_history`` of the unfiltered ``session_placements``,
with ``ordinal`` (their position in that history) added. A refresh makes again only the
tail: the rows from the first session the new batches touch (by the history's order,
``played_at`` with no time first, then ``session_id``), continuing from the ratings the
players held just before it; a save at the table touches the latest session, so a refresh
rates one session. It rates everything again when that would not be exact: a name newly
shared (the rows are keyed by the shown name), a session without an id, or a session
split over several days, clubs or rule sets (its rows may not sit together in the order).
"""

from __future__ import annotations

from typing import Any, Final

import duckdb
import pandas as pd  # type: ignore[import-untyped]
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]

from analytics import rating

RATINGS: Final = "mart_ratings"
#: the stored columns: the history's, then its order
COLUMNS: Final = (*rating.HISTORY_COLUMNS, "ordinal")
_TYPES: Final = {
    "session_id": "varchar",
    "played_at": "timestamp",
    "played_date": "date",
    "player": "varchar",
    "placement": "bigint",
    "net": "bigint",
    "rating_before": "double",
    "change": "double",
    "rating": "double",
    "ordinal": "bigint",
}
#: the rows the tail starts at, for a start (played_at, session_id): the history's order
_FROM: Final = (
    "(case when $at is null then (played_at is null and session_id >= $sid) or played_at is not null"
    " else played_at > $at or (played_at = $at and session_id >= $sid) end)"
)
#: the whole sessions' placements (``20_marts.sql`` mart_session_places), as session_placements lists them
_PLACED: Final = (
    "select session_id, played_at, played_date, player, seat, deals, net, placement, table_size"
    " from mart_session_places where placement is not null"
)


def regular(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether every session is ranked whole in ``mart_session_places`` and has an id (then
    its rows sit together in the history, and the tail can be rated alone)."""
    found = con.execute(
        "select count(*) from mart_session_places where placement is null or session_id is null"
    ).fetchall()
    return int(found[0][0]) == 0


def refresh(con: duckdb.DuckDBPyConnection, sessions: set[str]) -> None:
    """Rate again the tail from the first of ``sessions`` (touched by the new batches), by
    its held rows and its new ones. The caller checked :func:`regular` and no renames.

    The tail is read in the history's order and stored as Arrow columns, never a pandas
    frame: after a save into an old session every later session is rated again."""
    if not sessions:
        return
    ids = sorted(sessions)
    starts = con.execute(
        "select played_at, session_id from (select played_at, session_id from mart_session_places"
        f" where list_contains($ids, session_id) union all select played_at, session_id from {RATINGS}"
        " where list_contains($ids, session_id))"
        " order by played_at nulls first, session_id limit 1",
        {"ids": ids},
    ).fetchall()
    if not starts:
        return
    at, sid = starts[0]
    where = {"at": at, "sid": sid}
    con.execute(f"delete from {RATINGS} where {_FROM}", where)
    kept = con.execute(
        f"select player, arg_max(rating, ordinal), max(ordinal) from {RATINGS} group by player"
    ).fetchall()
    current = {str(player): float(value) for player, value, _ in kept}
    first = max((int(last) for _, _, last in kept), default=-1) + 1
    tail = con.sql(
        f"select {', '.join(rating.HISTORY_COLUMNS[:6])} from ({_PLACED}) where {_FROM}"
        " order by played_at nulls first, session_id, placement",
        params=where,
    ).to_arrow_table()
    nets = tail["net"].to_pylist()
    before, changes = rating.rate(tail["session_id"].to_pylist(), tail["player"].to_pylist(), nets, current)
    rated = tail.append_column("rating_before", pa.array(before, pa.float64()))
    rated = rated.append_column("change", pa.array(changes, pa.float64()))
    rated = rated.append_column("rating", pc.add(rated["rating_before"], rated["change"]))
    _store(con, rated.append_column("ordinal", pa.array(range(first, first + len(nets)), pa.int64())))


def build(con: duckdb.DuckDBPyConnection, placements: pd.DataFrame) -> None:
    """(Re)make the table from every session's placements (``session_placements``, no filter)."""
    history = rating.rating_history(placements)
    _store(con, history.assign(ordinal=range(len(history))), replace=True)


def _store(con: duckdb.DuckDBPyConnection, rows: pd.DataFrame | pa.Table, *, replace: bool = False) -> None:
    columns = ", ".join(f"cast({name} as {_TYPES[name]}) as {name}" for name in COLUMNS)
    con.register("rated_rows", rows)
    try:
        if replace:
            con.execute(f"create or replace table {RATINGS} as select {columns} from rated_rows")
        else:
            con.execute(f"insert into {RATINGS} select {columns} from rated_rows")
    finally:
        con.unregister("rated_rows")


def history(con: duckdb.DuckDBPyConnection, player: str | None) -> pd.DataFrame:
    """The held history (one player's rows when ``player`` is given), in its order."""
    names = ", ".join(rating.HISTORY_COLUMNS)
    return _frame(
        con,
        f"select {names} from {RATINGS} where $player is null or player = $player order by ordinal",
        {"player": player},
    )


def current(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """``rating.current_ratings`` of the held history: each player's last rating and peak."""
    return _frame(
        con,
        f"select player, arg_max(rating, ordinal) as rating, max(rating) as rating_peak from {RATINGS}"
        " group by player order by player",
    )


def daily(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """``rating.daily_ratings`` of the held history: each player's rating at the end of each day."""
    return _frame(
        con,
        f"select player, played_date, arg_max(rating, ordinal) as rating, count(*) as sessions from {RATINGS}"
        " where played_date is not null group by player, played_date order by player, played_date",
    )


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any] | None = None) -> pd.DataFrame:
    """A read on a cursor of its own (pages read while a refresh may write)."""
    return con.cursor().execute(sql, params or {}).df()
