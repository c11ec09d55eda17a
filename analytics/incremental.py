"""The incremental refresh: the marts of the batches recorded since, computed alone.

When the catalog lists every batch a connection holds plus new ones, the marts' rows of
the new deals are computed in a second, throwaway DuckDB connection over the new batches'
files only, with the same SQL (``10_staging.sql``, ``20_marts.sql``), and what the new
batches change elsewhere is worked out from what the connection already holds:

- revisions: ``stg_deal_ids`` there lists the new ids beside the held ids that take part
  in a revision (``D~revN`` and the ``D`` they correct), so ``stg_superseded`` is the
  whole warehouse's; the deals it newly supersedes are deleted from the held marts, and a
  new deal that is not its deal's latest revision is never inserted;
- ``mart_shared_names``: recomputed for the names the new and the superseded deals seat,
  from the held ``mart_seat_deals`` and the new seats. A name newly shared renames the
  held rows that show it (:data:`RENAMES`: "Ann" becomes "Ann (club)"); a name that stops
  being shared (a revision took its only deal in a club away) means the full rebuild.

A compaction (a new batch whose catalog entry says ``"merged_from": [ids]`` and holds
exactly those batches' rows) changes files, not rows: when the only change is merges of
held batches, the raw views are pointed at the new files and the marts stay as they are.

:func:`plan` returns None, and the caller rebuilds everything, whenever the change is not
one applied exactly here: a held batch gone without a merge that names it, a merge that
names a batch never held (or a batch twice), a new batch that stores a held deal id
again (or one id twice), a new finding naming a deal outside its batch or a held finding
naming a new deal (its deal's columns would change), or a name no longer shared (and,
checked by the caller, a new batch with a column the held tables lack).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import duckdb
import pyarrow as pa  # type: ignore[import-untyped]

from analytics.marts_file import STORED_IDS
from analytics.raw_views import FileColumns, create_raw, listed_files
from analytics.roster import install as install_roster
from ingest.warehouse.schema import SCHEMAS

#: a stored id of a corrected deal, as ``10_staging.sql`` matches it (RE2's ``$`` is ``\Z``)
REVISION_ID: Final = re.compile(r"~rev[0-9]+\Z")


@dataclass
class Held:
    """What a connection's materialized marts hold: the batches, the ids of revisions and
    the ids superseded by a later revision (few: kept here). Every stored deal id is in the
    connection's :data:`STORED_IDS` table, not here: a million ids in a Python set made
    opening a persisted warehouse cost as much as its size."""

    batches: list[str] = field(default_factory=list)
    #: the held ids of the form D~revN, with their ``end_reason`` (what a revision reads)
    revision_ids: dict[str, str | None] = field(default_factory=dict)
    superseded: set[str] = field(default_factory=set)

    def add(self, rows: list[tuple[str, str | None]]) -> None:
        """Stored deals as (deal_id, end_reason): the revisions among them are remembered."""
        self.revision_ids.update((i, end) for i, end in rows if "~rev" in i and REVISION_ID.search(i))


@dataclass
class Change:
    """A catalog change that can be applied without the full rebuild."""

    appended: list[dict[str, Any]]  # new batches (not merges), in catalog order
    merged: bool  # some held batches were replaced by merged ones


@dataclass
class Delta:
    """The new batches' mart rows and what they supersede."""

    stored: list[tuple[str, str | None]]  # the new deals (deal_id, end_reason)
    superseded: set[str]  # the whole warehouse's superseded ids after the new batches
    removed: list[str]  # held deal ids newly superseded: their rows leave the marts
    marts: dict[str, pa.Table]  # rows to insert, per materialized view (stg_deals, marts)
    names: list[str]  # mart_shared_names after the new batches
    added: list[str]  # the names newly shared: the held rows' shown names change


#: how each mart's shown player names change when the names ``$added`` become shared
#: (``shown_player`` of ``20_marts.sql``: a name not shared was shown as written, so the
#: held shown name is the name; a name shared before keeps its shown name)
RENAMES: Final = {
    "mart_deals": "update mart_deals set players = shown_players(players, club, $added)"
    " where club is not null and list_has_any(players, $added)",
    "mart_seat_deals": "update mart_seat_deals set player = shown_player(name, club, $added)"
    " where club is not null and list_contains($added, name)",
    "mart_flows": "update mart_flows set payer_player = shown_player(payer_player, club, $added),"
    " payee_player = shown_player(payee_player, club, $added)"
    " where club is not null and (list_contains($added, payer_player) or list_contains($added, payee_player))",
    "mart_findings": "update mart_findings set player = shown_player(player, club, $added)"
    " where club is not null and list_contains($added, player)",
    "mart_player_days": "update mart_player_days set player = shown_player(player, club, $added)"
    " where club is not null and list_contains($added, player)",
    "mart_session_days": "update mart_session_days set player = shown_player(player, club, $added)"
    " where club is not null and list_contains($added, player)",
    "mart_sessions": "update mart_sessions set players = shown_players(players, club, $added)"
    " where club is not null and list_has_any(players, $added)",
    "mart_pair_days": "update mart_pair_days set player = shown_player(player, club, $added),"
    " mate = shown_player(mate, club, $added)"
    " where club is not null and (list_contains($added, player) or list_contains($added, mate))",
    "mart_flow_days": "update mart_flow_days set payer_player = shown_player(payer_player, club, $added),"
    " payee_player = shown_player(payee_player, club, $added)"
    " where club is not null and (list_contains($added, payer_player) or list_contains($added, payee_player))",
    "mart_fan_days": "update mart_fan_days set player = shown_player(player, club, $added)"
    " where club is not null and list_contains($added, player)",
    "mart_win_days": "update mart_win_days set player = shown_player(player, club, $added)"
    " where club is not null and list_contains($added, player)",
    "mart_pattern_days": "update mart_pattern_days set player = shown_player(player, club, $added)"
    " where club is not null and list_contains($added, player)",
}


def plan(held: Held, batches: list[dict[str, Any]]) -> Change | None:
    """How the catalog's ``batches`` differ from the held ones, or None when the
    difference is not appends and merges of held batches."""
    old = set(held.batches)
    merged_from: set[str] = set()
    appended = []
    for entry in batches:
        if entry["id"] in old:
            continue
        sources = entry.get("merged_from")
        if sources is None:
            appended.append(entry)
            continue
        if not isinstance(sources, list) or not set(sources) <= old or merged_from & set(sources):
            return None
        merged_from.update(sources)
    gone = old - {entry["id"] for entry in batches}
    if merged_from != gone:
        return None
    return Change(appended, merged=bool(merged_from))


def revision_context(held: Held, new_ids: list[str], main: duckdb.DuckDBPyConnection) -> pa.Table:
    """The held ids a revision among the held and new ids needs, as ``stg_deal_ids`` rows:
    every ``D~revN`` (with its end reason) and each ``D`` they correct (the rest cannot
    change what ``stg_superseded`` says)."""
    revised = {REVISION_ID.sub("", i, count=1) for i in (*held.revision_ids, *new_ids) if "~rev" in i}
    rows = sorted(held.revision_ids.items()) + [(i, None) for i in sorted(held_among(main, revised))]
    return pa.table(
        {
            "deal_id": pa.array([i for i, _ in rows], pa.string()),
            "end_reason": pa.array([end for _, end in rows], pa.string()),
        }
    )


def compute(
    root: Path,
    entries: list[dict[str, Any]],
    held: Held,
    columns: FileColumns,
    main: duckdb.DuckDBPyConnection,
    sql: list[str],
    tables: tuple[str, ...],
) -> Delta | None:
    """The marts' rows of the batches ``entries`` (a connection of their own reads their
    files), or None when they cannot be added exactly (see the module docstring).

    ``main`` is the connection holding the marts (read only here), ``sql`` the text of
    the staging and mart files, ``tables`` the materialized views to fill (each row keyed by
    its ``deal_id``); ``mart_shared_names`` there is the list after the new batches."""
    con = duckdb.connect(":memory:")
    try:
        files = listed_files(root, entries)
        for table, schema in SCHEMAS.items():
            create_raw(con, table, schema, files.get(table, []), columns)
        stored = stored_rows(con)
        ids = [i for i, _ in stored]
        if len(set(ids)) != len(ids) or held_among(main, set(ids)):
            return None
        outside = con.execute(
            "select count(*) from raw_findings where deal_id is not null"
            " and deal_id not in (select deal_id from raw_deals)"
        ).fetchall()
        if outside[0][0]:
            return None
        if ids and _count(
            main, "select count(*) from mart_findings where deal_id in (select unnest($ids))", ids
        ):
            return None
        con.from_arrow(revision_context(held, ids, main)).create("held_ids")
        install_roster(con, main.sql("select * from roster_names").to_arrow_table())
        for text in sql:
            con.execute(text)
        con.execute(
            "create or replace view stg_deal_ids as"
            " select deal_id, end_reason from raw_deals union all select deal_id, end_reason from held_ids"
        )
        keep(con, "stg_superseded")
        superseded = {str(i) for (i,) in con.execute("select deal_id from stg_superseded").fetchall()}
        if not held.superseded <= superseded:  # a correction never un-supersedes; if it did, rebuild
            return None
        removed = sorted(held_among(main, superseded - held.superseded))
        names = shared_names(main, con, removed)
        if names is None:
            return None
        held_names = main.execute("select names from mart_shared_names").fetchall()
        added = sorted(set(names) - set(held_names[0][0] if held_names else []))
        con.execute("drop view mart_shared_names")
        con.execute(
            "create table mart_shared_names as select cast($names as varchar[]) as names", {"names": names}
        )
        for name in tables:  # in order: each computed once, later ones read the earlier tables
            keep(con, name)
        marts = {name: con.sql(f"select * from {name}").to_arrow_table() for name in tables}
        return Delta(stored, superseded, removed, marts, names, added)
    finally:
        con.close()


def shared_names(
    main: duckdb.DuckDBPyConnection, delta: duckdb.DuckDBPyConnection, removed: list[str]
) -> list[str] | None:
    """``mart_shared_names`` after the new and removed deals: the held list, a longer one
    when names are newly shared (the held rows are renamed, :data:`RENAMES`), or None when
    a name stops being shared. A name's clubs are recounted only for the names those deals
    seat."""
    pairs = delta.execute(
        "select distinct s.player, d.club from stg_seats as s join stg_deals as d using (deal_id)"
        " where s.player is not null"
    ).fetchall()
    touched = {str(name) for name, _ in pairs}
    if removed:
        touched.update(
            str(name)
            for (name,) in main.execute(
                "select distinct name from mart_seat_deals where deal_id in (select unnest($ids))",
                {"ids": removed},
            ).fetchall()
        )
    found = main.execute("select names from mart_shared_names").fetchall()
    held = list(found[0][0]) if found else []
    if not touched:
        return held
    clubs: dict[str, set[str]] = {name: set() for name in touched}
    for name, club in main.execute(
        "select distinct name, club from mart_seat_deals where club is not null"
        " and name in (select unnest($names)) and deal_id not in (select unnest($ids))",
        {"names": sorted(touched), "ids": removed},
    ).fetchall():
        clubs[str(name)].add(str(club))
    for name, club in pairs:
        if club is not None:
            clubs[str(name)].add(str(club))
    now = (set(held) - touched) | {name for name, found_clubs in clubs.items() if len(found_clubs) > 1}
    if now == set(held):
        return held
    if not now >= set(held):  # a name no longer shared: its shown name cannot be told back
        return None
    found = main.execute("select list_sort(cast($names as varchar[]))", {"names": sorted(now)}).fetchall()
    return list(found[0][0])  # as mart_shared_names sorts it


def held_among(main: duckdb.DuckDBPyConnection, ids: set[str]) -> set[str]:
    """Those of ``ids`` the connection ``main`` holds (its :data:`STORED_IDS` table)."""
    if not ids:
        return set()
    found = main.execute(
        f"select deal_id from {STORED_IDS} where deal_id in (select unnest($ids))", {"ids": sorted(ids)}
    ).fetchall()
    return {str(i) for (i,) in found}


def stored_rows(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str | None]]:
    """(deal_id, end_reason) of every deal ``raw_deals`` holds (the end reason only for
    the ids of revisions: the others' is never read)."""
    found = con.execute(
        "select deal_id, case when deal_id like '%~rev%' then end_reason end from raw_deals"
    ).fetchall()
    return [(str(i), None if end is None else str(end)) for i, end in found]


def keep(con: duckdb.DuckDBPyConnection, view: str, order: str | None = None) -> None:
    """Turn ``view`` into a table of its rows (one of ours, never a caller's text), sorted
    by ``order`` when given: from a table of its rows (sorting the rows of its joins as they
    came ran out of memory at ten million deals)."""
    if order is None:
        con.execute(f"create or replace table {view}__table as select * from {view}")
    else:
        con.execute(f"create or replace table {view}__rows as select * from {view}")
        con.execute(f"create or replace table {view}__table as select * from {view}__rows order by {order}")
        con.execute(f"drop table {view}__rows")
    con.execute(f"drop view {view}")
    con.execute(f"alter table {view}__table rename to {view}")


def _count(con: duckdb.DuckDBPyConnection, text: str, ids: list[str]) -> int:
    found = con.execute(text, {"ids": ids}).fetchall()
    return int(found[0][0])
