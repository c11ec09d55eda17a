"""Statistics over the warehouse as DataFrames: one DuckDB connection per warehouse.

The SQL lives in ``analytics/sql``: ``10_staging.sql`` (views over the Parquet files of
the recorded batches), ``20_marts.sql`` (what the pages read), ``30_filters.sql`` (the
shared filters as table macros) and ``analytics/sql/queries/*.sql``, one file per question, which take
bound parameters only (``$player``, ``$club``, ``$date_from``, ``$date_to``, ``$rules``,
``$seats``, ``$tablemates``). Nothing from a caller is ever formatted into SQL.

The connection reads only what ``catalog.json`` lists, so a dashboard may read while an
ingest writes; :meth:`Analytics.refresh` picks up batches recorded since (the dashboard
calls it and keys its caches on :attr:`Analytics.version`).
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any, Final

import duckdb
import pandas as pd  # type: ignore[import-untyped]

from analytics import incremental, marts_file, rating, ratings_mart, roster
from analytics.raw_views import FileColumns, create_raw, listed_files
from ingest.warehouse.catalog import DEFAULT_WAREHOUSE, catalog_version, read_catalog
from ingest.warehouse.schema import SCHEMAS

SQL_DIR: Final = Path(__file__).parent / "sql"
VIEW_FILES: Final = ("10_staging.sql", "20_marts.sql", "30_filters.sql")
#: marts kept as in-memory tables when materializing (in dependency order)
MATERIALIZED: Final = (
    "mart_shared_names",
    "mart_deals",
    "mart_seat_deals",
    "mart_reviews",  # 复盘: the stored review rows (mart_review_seats joins them to mart_seat_deals)
    "mart_deal_fans",
    "mart_flows",
    "mart_findings",
    "mart_quarantine_reasons",
)
#: marts of counts, not of deals: a new batch's rows are added to the held ones with the
#: same key (no ``deal_id`` to delete by; a revision never takes a quarantined line away)
SUMMED: Final = {"mart_quarantine_reasons": ("reason", "lines")}
#: marts kept from other marts, not from a batch's rows: a full build materializes them
#: after :data:`MATERIALIZED`; an incremental refresh makes again the days its new and
#: superseded deals touch, with the table macro of the same sums (``20_marts.sql``)
DERIVED: Final = {
    "mart_player_days": "player_days",
    "mart_session_days": "session_days",
    "mart_session_places": "session_places",
    "mart_pair_places": "pair_places",
    "mart_sessions": "session_rows",
    "mart_pair_days": "pair_days",
    "mart_flow_days": "flow_days",
    "mart_fan_days": "fan_days",
    "mart_win_days": "win_days",
    "mart_deal_days": "deal_days",
    "mart_pattern_days": "pattern_days",
}
#: derived marts that order players by name (a placement tie): made again whole when a
#: name becomes shared ("Ann" shown "Ann (club)" may sort elsewhere)
RANKED_BY_NAME: Final = frozenset({"mart_session_places", "mart_pair_places"})
#: staging views also kept as tables when materializing, before the marts that read them:
#: the ids a later revision corrects (as a view, every query of a deal view read every
#: ``deals`` file twice more) and the deals (one row each; the pages' deal lists, the
#: overview and the filters read it, and over many small batches each read opened every file)
SUPERSEDED: Final = "stg_superseded"
STAGED: Final = (SUPERSEDED, "stg_deals")
MARTS: Final = (
    "mart_shared_names",
    "mart_deals",
    "mart_seat_deals",
    "mart_reviews",
    "mart_review_seats",
    "mart_wins",
    "mart_deal_fans",
    "mart_pairs",
    "mart_flows",
    "mart_findings",
    "mart_quarantine_reasons",
    "mart_player_days",
    "mart_session_days",
    "mart_session_places",
    "mart_pair_places",
    "mart_sessions",
    "mart_pair_days",
    "mart_flow_days",
    "mart_fan_days",
    "mart_win_days",
    "mart_deal_days",
    "mart_pattern_days",
)
#: the order a materialized table's rows are written in at a full build: by club, then
#: day, so the pages' club and date filters skip whole row groups (DuckDB's zone maps keep
#: each row group's min and max); rows a later batch adds go after, in their batch's order
SORTED_BY: Final = {
    "stg_deals": "club, played_date",
    "mart_deals": "club, played_date",
    "mart_seat_deals": "club, played_date",
    "mart_flows": "club, played_date",
    "mart_findings": "club, played_date",
}
QUERIES: Final = tuple(sorted(p.stem for p in (SQL_DIR / "queries").glob("*.sql")))
#: DuckDB's memory limit for a materializing connection (the dashboard's): its buffer pool
#: otherwise keeps every block of the marts a query read (up to 80% of the machine), so the
#: process grew with the warehouse; at 400 MB the marts' blocks are dropped and read again
#: from the file (the OS cache) when needed, at no measured cost per query at a million
#: deals (a lower one slowed them). ``CHUANMA_DUCKDB_MEMORY`` sets another (a DuckDB
#: size, "2GB").
MEMORY_LIMIT: Final = "400MB"
MEMORY_ENV: Final = "CHUANMA_DUCKDB_MEMORY"
#: DuckDB's memory limit while a full build materializes the marts: a quarter of the
#: machine's memory, at least 1 GB (at 400 MB, sorting ten million deals' seat rows ran out
#: of memory; the limit goes back to the query one when the build ends).
#: ``CHUANMA_DUCKDB_BUILD_MEMORY`` sets another.
BUILD_MEMORY_ENV: Final = "CHUANMA_DUCKDB_BUILD_MEMORY"
_PARAM = re.compile(r"\$([a-z_]+)")
#: whether the filters keep every seat's deal (they only ever take some away)
KEEPS_EVERY_DEAL: Final = (
    "select coalesce((select sum(deals) from sums_in('mart_player_days', $club, $date_from, $date_to, $rules, $seats,"
    " cast($tablemates as varchar[]))) = (select sum(deals) from mart_player_days), false)"
)
_KEEPS_PARAMS: Final = frozenset(_PARAM.findall(KEEPS_EVERY_DEAL))


@cache
def sql_version() -> str:
    """What the stored marts depend on besides the data (``marts_file.sql_version``)."""
    texts = [(SQL_DIR / name).read_text(encoding="utf-8") for name in VIEW_FILES]
    texts += [f"{table} order by {order}" for table, order in sorted(SORTED_BY.items())]
    texts += [
        (Path(__file__).parent / name).read_text(encoding="utf-8")
        for name in ("rating.py", "ratings_mart.py")
    ]
    return marts_file.sql_version(texts, (*STAGED, *MATERIALIZED, *DERIVED, ratings_mart.RATINGS))


def held_of(con: duckdb.DuckDBPyConnection) -> incremental.Held:
    """What a connection's materialized marts hold, from its tables: the revisions among the
    stored ids and the superseded ids (both few; the batches are the caller's)."""
    held = incremental.Held()
    held.add(
        [
            (str(i), None if end is None else str(end))
            for i, end in con.execute(
                f"select deal_id, end_reason from {marts_file.STORED_IDS} where deal_id like '%~rev%'"
            ).fetchall()
        ]
    )
    held.superseded = {str(i) for (i,) in con.execute(f"select deal_id from {SUPERSEDED}").fetchall()}
    return held


def query_memory() -> str:
    """DuckDB's memory limit for the queries of a materializing connection (:data:`MEMORY_LIMIT`)."""
    return os.environ.get(MEMORY_ENV, "").strip() or MEMORY_LIMIT


def build_memory() -> str:
    """DuckDB's memory limit while the marts are built (:data:`BUILD_MEMORY_ENV`)."""
    try:
        quarter = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 4 // 2**20
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows): the floor
        quarter = 0
    return os.environ.get(BUILD_MEMORY_ENV, "").strip() or f"{max(1024, quarter)}MB"


@cache
def query_sql(name: str) -> str:
    """The text of ``queries/<name>.sql``."""
    if name not in QUERIES:
        raise KeyError(f"no query {name!r}; known: {', '.join(QUERIES)}")
    return (SQL_DIR / "queries" / f"{name}.sql").read_text(encoding="utf-8")


@cache
def page_sql(name: str) -> str:
    """The text of ``pages/<name>.sql``: one page's own read (a session, a deal), with its
    own parameters."""
    path = SQL_DIR / "pages" / f"{name}.sql"
    if not path.is_file():
        raise KeyError(f"no page query {name!r}")
    return path.read_text(encoding="utf-8")


@cache
def _params_of(name: str) -> frozenset[str]:
    return params_named(query_sql(name))


def params_named(sql: str) -> frozenset[str]:
    """The ``$name`` parameters a query's text names."""
    return frozenset(_PARAM.findall(sql))


def bound_params(wanted: frozenset[str], filters: Filters | None, options: dict[str, Any]) -> dict[str, Any]:
    """The ``wanted`` parameters: an option given, else the filters' value, else null ("all");
    an option the query does not name is a ``KeyError``."""
    values = (filters or Filters()).params()
    unknown = set(options) - (wanted - set(values))
    if unknown:
        raise KeyError(f"the query takes no option {', '.join(sorted(unknown))}")
    return {key: options.get(key, values.get(key)) for key in wanted}


@dataclass(frozen=True)
class Filters:
    """Which deals a statistic covers; ``None`` (or no tablemates) means all."""

    player: str | None = None
    club: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    rules: str | None = None
    tablemates: tuple[str, ...] = field(default_factory=tuple)
    #: the table's size (4, 3 or 2 players): a club that plays at more than one size asks
    #: for one, so a rate is never a three-player table's and a four-player one's mixed
    seats: int | None = None

    def params(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "club": self.club,
            "date_from": self.date_from,
            "date_to": self.date_to,
            "rules": self.rules,
            "tablemates": list(self.tablemates),
            "seats": self.seats,
        }


class Analytics:
    """The warehouse's views on one DuckDB connection; each query runs on its own cursor
    so threads (Streamlit sessions) can share the object."""

    def __init__(
        self,
        warehouse: str | Path = DEFAULT_WAREHOUSE,
        *,
        threads: int | None = None,
        materialize: bool = True,
        persist: bool | None = None,
        kept_only: bool = False,
    ) -> None:
        """``materialize``: keep the marts as tables (fast repeated queries, for the
        dashboard); False reads Parquet on every query (a one-shot ``chuanma stats``).
        ``persist``: keep those tables in ``<warehouse>/marts.duckdb``
        (``analytics/marts_file.py``) so the next open reads them instead of computing
        them; None: when the folder may be written. When another process owns the file,
        this one keeps its marts in memory (:attr:`marts_file` is None).
        ``kept_only`` (a one-shot command): the marts file's tables where the warehouse keeps
        an up-to-date one that this process may open (the pages' figures, read, with the
        batches since added), else Parquet read per query as ``materialize=False``: a
        command never pays a full build (minutes at millions of deals) for a few queries."""
        self.root = Path(warehouse)
        self.materialize = materialize and (not kept_only or marts_file.marts_path(self.root).is_file())
        self.kept_only = kept_only
        self.threads = threads
        self._lock = threading.Lock()
        self.version = ""
        self.columns = FileColumns()
        self._files: dict[str, list[str]] = {}  # each raw view's files
        self._viewed = False  # the connection has its views (raw, staging, marts, filters)
        self.held = incremental.Held()
        #: how the last refresh went: "full", "incremental", "merged" (views re-pointed) or
        #: "opened" (the marts file was up to date: only the views were made)
        self.last_refresh = ""
        #: the fingerprint of the roster the views apply (``analytics/roster.py``)
        self.roster_digest = ""
        #: (the roster digest it was read for, why that roster cannot be read or None)
        self._roster_error: tuple[str | None, str | None] = (None, None)
        self._owner: marts_file.MartsLock | None = None
        self._columns_whole = False  # the next raw views write every file's columns
        self.con = self._open(persist)
        self.refresh()

    @property
    def roster_error(self) -> str | None:
        """Why the warehouse's roster cannot be read (its names are then shown as recorded:
        a roster that changes is applied at the next refresh), or None. Read once per roster
        the views apply (every page asks), not at every call."""
        checked, why = self._roster_error
        if checked != self.roster_digest:
            error = roster.roster_or_error(self.root)[1]
            why = None if error is None else str(error)
            self._roster_error = (self.roster_digest, why)
        return why

    @property
    def marts_file(self) -> Path | None:
        """The file the marts are kept in; None when they are in this process's memory."""
        return marts_file.marts_path(self.root) if self._owner is not None else None

    def _connection(self, path: str) -> duckdb.DuckDBPyConnection:
        con = duckdb.connect(path)
        if self.materialize:
            con.execute("set memory_limit = $limit", {"limit": query_memory()})
        if self.threads is not None:
            con.execute("set threads = $n", {"n": self.threads})
        return con

    def _open(self, persist: bool | None) -> duckdb.DuckDBPyConnection:
        """The marts file's connection when this process may own it (its tables and what
        they were built from loaded), else an in-memory one."""
        if not (self.materialize and marts_file.wanted(self.root, persist)):
            return self._connection(":memory:")
        owner = marts_file.MartsLock(self.root)
        if not owner.acquire():  # another process owns the file: marts in memory, as before it
            self.materialize = self.materialize and not self.kept_only
            return self._connection(":memory:")
        marts_file.remove_leftovers(self.root)
        path = marts_file.marts_path(self.root)
        try:
            con = self._connection(str(path))
        except duckdb.Error as error:
            if "could not set lock" in str(error).lower():  # opened by a program other than ours
                owner.release()
                return self._connection(":memory:")
            marts_file.discard(path)  # not a DuckDB file, or a damaged one: built again
            con = self._connection(str(path))
        self._owner = owner
        meta = marts_file.read_meta(con)
        if meta is not None and meta.sql_version == sql_version():
            try:
                self.held = held_of(con)
            except duckdb.Error:  # a table missing or unreadable: built again
                return con
            self.version, self.roster_digest = meta.version, meta.roster_digest
            self.held.batches = meta.batches
            marts_file.load_columns(con, self.columns)
        elif self.kept_only:  # no marts of this version kept: no build for a command
            con.close()
            owner.release()
            self._owner = None
            self.materialize = False
            return self._connection(":memory:")
        return con

    def refresh(self, *, force: bool = False) -> bool:
        """Bring the views up to the catalog when it has recorded batches since; True if it did.

        With the marts materialized, batches appended since are added incrementally (only
        their files are read, ``analytics/incremental.py``) and merged batches (compaction)
        only re-point the raw views; anything else, ``force``, or ``materialize=False``
        rebuilds everything (:meth:`_rebuild`). :attr:`last_refresh` says which ran."""
        catalog = read_catalog(self.root)
        digest = roster.roster_digest(self.root)
        version = catalog_version(catalog) + (f"+roster:{digest}" if digest else "")
        if version == self.version and not force and self._viewed:
            return False
        with self._lock:
            batches = list(catalog.get("batches", []))
            if version == self.version and not force and digest == self.roster_digest:
                self._views(self.con, catalog)  # the marts file is up to date: views only
                self.last_refresh = "opened"
                return True
            change = None
            if digest != self.roster_digest:  # another roster: every shown name may change
                force = True
            if self.materialize and self.version and not force:
                change = incremental.plan(self.held, batches)
            if change is None or not self._apply(change, catalog, version):
                self._rebuild(catalog, version)
            self.version = version
            self.held.batches = [entry["id"] for entry in batches]
        return True

    def _rebuild(self, catalog: dict[str, Any], version: str) -> None:
        """Every view over every listed file, every mart materialized from scratch: in a
        new file put in place of the old one (:func:`marts_file.swap`) when the marts are
        kept in a file, else on this connection."""
        self.last_refresh = "full"
        if self._owner is None:
            self._files.clear()  # every raw view made again
            for mart in (*STAGED, *MARTS, marts_file.STORED_IDS, ratings_mart.RATINGS):
                self._drop(self.con, mart)
            self._viewed = False
            self.roster_digest = roster.roster_digest(self.root)
            self._build(self.con, catalog)
            return
        path = marts_file.marts_path(self.root)
        built = marts_file.building_path(self.root)
        with contextlib.suppress(duckdb.Error):  # a damaged file may fail to close
            self.con.close()
        try:
            marts_file.discard(built)
            con = self._connection(str(built))
            try:
                self._files.clear()
                self._viewed = False
                self._columns_whole = True  # the new file keeps every file's columns
                digest = roster.roster_digest(self.root)
                self._build(con, catalog)
                batches = [entry["id"] for entry in catalog.get("batches", [])]
                marts_file.write_meta(con, marts_file.Meta(sql_version(), version, digest, batches))
                con.execute("checkpoint")
            finally:
                con.close()
            marts_file.swap(built, path)
            self.roster_digest = digest
        except BaseException:
            marts_file.discard(built)
            raise
        finally:  # the new file, or the old one when the build failed
            self.con = self._connection(str(path))
            self._files.clear()
            self._viewed = False
        self._views(self.con, catalog)

    def _build(self, con: duckdb.DuckDBPyConnection, catalog: dict[str, Any]) -> None:
        """The views over the listed files on ``con`` and (materializing) the marts as its
        tables, with the stored ids; :attr:`held` says what they hold. A damaged roster
        applies nothing (:attr:`roster_error` says why)."""
        roster.install(con, roster.name_rows(roster.roster_or_error(self.root)[0]))
        self._views(con, catalog)
        if self.materialize:
            con.execute("set memory_limit = $limit", {"limit": build_memory()})
            try:
                for mart in (*STAGED, *MATERIALIZED, *DERIVED):  # later ones read the earlier tables
                    incremental.keep(con, mart, SORTED_BY.get(mart))
            finally:
                con.execute("set memory_limit = $limit", {"limit": query_memory()})
            con.execute(
                f"create or replace table {marts_file.STORED_IDS} as select deal_id,"
                " case when deal_id like '%~rev%' then end_reason end as end_reason from raw_deals"
            )
            ratings_mart.build(con, self._every_placement(con))
            self.held = held_of(con)

    def _apply(self, change: incremental.Change, catalog: dict[str, Any], version: str) -> bool:
        """Add the appended batches' rows to the marts and re-point the raw views; False
        (nothing changed) when the delta cannot be applied exactly."""
        delta = None
        if change.appended:
            sql = [(SQL_DIR / name).read_text(encoding="utf-8") for name in VIEW_FILES[:2]]
            delta = incremental.compute(
                self.root,
                change.appended,
                self.held,
                self.columns,
                self.con,
                sql,
                (*STAGED[1:], *MATERIALIZED[1:]),
            )
            if delta is None or any(
                not set(rows.schema.names) <= set(self.con.table(name).columns)
                for name, rows in delta.marts.items()
            ):  # a column the held tables lack (a newer ingest's): rebuilt with it
                return False
        self.con.execute("begin transaction")
        try:
            if delta is not None:
                days, sessions = self._touched(delta)
                if delta.superseded != self.held.superseded:
                    self.con.execute(f"delete from {SUPERSEDED}")
                    self.con.execute(
                        f"insert into {SUPERSEDED} select unnest($ids)", {"ids": sorted(delta.superseded)}
                    )
                if delta.added:  # names newly shared: the held rows show them as "name (club)"
                    for update in incremental.RENAMES.values():
                        self.con.execute(update, {"added": delta.added})
                    self.con.execute("delete from mart_shared_names")
                    self.con.execute(
                        "insert into mart_shared_names select cast($names as varchar[])",
                        {"names": delta.names},
                    )
                for mart, rows in delta.marts.items():
                    if mart in SUMMED:
                        self._add_counts(mart, rows)
                        continue
                    if delta.removed:  # names are ours, never a caller's text
                        self.con.execute(
                            f"delete from {mart} where deal_id in (select unnest($ids))",
                            {"ids": delta.removed},
                        )
                    if rows.num_rows:
                        self.con.register("delta_rows", rows)
                        self.con.execute(f"insert into {mart} by name select * from delta_rows")
                        self.con.unregister("delta_rows")
                self._derive(days, renamed=bool(delta.added))
                if delta.added or None in sessions or not ratings_mart.regular(self.con):
                    ratings_mart.build(self.con, self._every_placement(self.con))
                else:
                    ratings_mart.refresh(self.con, {s for s in sessions if s is not None})
                if delta.stored:
                    self.con.execute(
                        f"insert into {marts_file.STORED_IDS} select unnest($ids), unnest($ends)",
                        {"ids": [i for i, _ in delta.stored], "ends": [e for _, e in delta.stored]},
                    )
            if self._owner is not None:  # what the file now holds, committed with it
                batches = [entry["id"] for entry in catalog.get("batches", [])]
                marts_file.write_meta(
                    self.con, marts_file.Meta(sql_version(), version, self.roster_digest, batches)
                )
            self._views(self.con, catalog, transaction=False)
            self.con.execute("commit")
        except BaseException:
            self.con.execute("rollback")
            raise
        if delta is not None:
            self.held.add(delta.stored)
            self.held.superseded = delta.superseded
        self.last_refresh = "merged" if change.merged and delta is None else "incremental"
        return True

    def _touched(self, delta: incremental.Delta) -> tuple[tuple[list[date], bool], set[str | None]]:
        """The days (and whether the deals without a day) whose :data:`DERIVED` rows the
        delta changes: its new deals' and those of the held deals it supersedes (every
        status: ``mart_sessions`` counts the invalid deals too), and every held day of
        their sessions (``mart_session_places`` ranks a session over all its days); and
        those sessions (``mart_ratings`` rates again from the first of them)."""
        found: set[date | None] = set()
        sessions: set[str | None] = set()
        deals = delta.marts.get("stg_deals")
        if deals is not None and deals.num_rows:
            self.con.register("delta_rows", deals)
            for day, session in self.con.execute(
                "select distinct played_date, session_id from delta_rows"
            ).fetchall():
                found.add(day)
                sessions.add(session)
            self.con.unregister("delta_rows")
        if delta.removed:
            for day, session in self.con.execute(
                "select distinct played_date, session_id from stg_deals where deal_id in (select unnest($ids))",
                {"ids": delta.removed},
            ).fetchall():
                found.add(day)
                sessions.add(session)
        if sessions:
            found.update(
                d
                for (d,) in self.con.execute(
                    "select distinct played_date from mart_session_days"
                    " where list_contains($ids, session_id) or ($no_id and session_id is null)",
                    {"ids": sorted(s for s in sessions if s is not None), "no_id": None in sessions},
                ).fetchall()
            )
        return (sorted(d for d in found if d is not None), None in found), sessions

    def _every_placement(self, con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
        """``session_placements`` with no filter (what ``mart_ratings`` rates), on ``con``
        itself: inside a refresh's transaction, a cursor would not see its changes."""
        params = bound_params(_params_of("session_placements"), Filters(), {})
        return con.execute(query_sql("session_placements"), params).df()

    def _derive(self, touched: tuple[list[date], bool], *, renamed: bool = False) -> None:
        """Make the :data:`DERIVED` marts' rows of the touched days again from the marts
        they read (already brought up to date in this transaction; names are ours); after
        names newly shared (``renamed``), those of :data:`RANKED_BY_NAME` whole."""
        days, no_day = touched
        for mart, macro in DERIVED.items():
            whole = renamed and mart in RANKED_BY_NAME
            if not (days or no_day or whole):
                continue
            params = {"all": whole, "days": days, "no_day": no_day}
            self.con.execute(
                f"delete from {mart} where $all or list_contains(cast($days as date[]), played_date)"
                " or ($no_day and played_date is null)",
                params,
            )
            self.con.execute(
                f"insert into {mart} by name select * from {macro}($all, cast($days as date[]), $no_day)",
                params,
            )

    def _add_counts(self, mart: str, rows: Any) -> None:
        """Add a batch's counts to a :data:`SUMMED` mart, one row per key as a full build
        makes it (inside the caller's transaction; names are ours, never a caller's text)."""
        key, count = SUMMED[mart]
        self.con.register("delta_rows", rows)
        merged = self.con.sql(
            f"select {key}, cast(sum({count}) as bigint) as {count} from"
            f" (select {key}, {count} from {mart} union all select {key}, {count} from delta_rows)"
            f" group by {key}"
        ).to_arrow_table()
        self.con.unregister("delta_rows")
        self.con.execute(f"delete from {mart}")
        self.con.register("merged_rows", merged)
        self.con.execute(f"insert into {mart} by name select * from merged_rows")
        self.con.unregister("merged_rows")

    def _views(
        self, con: duckdb.DuckDBPyConnection, catalog: dict[str, Any], *, transaction: bool = True
    ) -> None:
        """The raw views over the listed files and, the first time on a connection, the
        staging, mart and filter views but those materialized as tables (in one transaction:
        on a marts file each statement alone would be a commit)."""
        if transaction:
            con.execute("begin transaction")
        try:
            self._raw_views(con, catalog)
            if not self._viewed:
                tables = {
                    str(t)
                    for (t,) in con.execute(
                        "select table_name from duckdb_tables() where not temporary"
                        " and database_name = current_database() and schema_name = 'main'"
                    ).fetchall()
                }
                for name in VIEW_FILES:
                    text = (SQL_DIR / name).read_text(encoding="utf-8")
                    for statement in marts_file.view_statements(text, tables):
                        con.execute(statement)
                self._viewed = True
            if transaction:
                con.execute("commit")
        except BaseException:
            self._viewed = False
            if transaction:
                con.execute("rollback")
            raise

    def _raw_views(self, con: duckdb.DuckDBPyConnection, catalog: dict[str, Any]) -> None:
        """``raw_<table>`` over the files the catalog lists (``analytics/raw_views.py``);
        a table whose files are the same as before keeps its view."""
        files = listed_files(self.root, catalog.get("batches", []))
        for table, schema in SCHEMAS.items():
            listed = files.get(table, [])
            if self._files.get(table) == listed:
                continue
            self._drop(con, f"raw_{table}")
            create_raw(con, table, schema, listed, self.columns)
            self._files[table] = listed
        self.columns.forget({path for paths in files.values() for path in paths})
        if self._owner is not None:
            marts_file.save_columns(con, self.columns, everything=self._columns_whole)
            self._columns_whole = False

    @staticmethod
    def _drop(con: duckdb.DuckDBPyConnection, name: str) -> None:
        """Drop the view or table ``name`` (one of ours, never a caller's text)."""
        found = con.execute(
            "select table_type from information_schema.tables where table_name = $name", {"name": name}
        ).fetchall()
        for (kind,) in found:
            con.execute(f"drop {'view' if kind == 'VIEW' else 'table'} {name}")

    def query(self, name: str, filters: Filters | None = None, **options: Any) -> pd.DataFrame:
        """Run ``queries/<name>.sql`` with the filters bound as parameters. ``options`` are
        the query's own parameters beyond the filters (``session_list``: ``limit``,
        ``findings_only``); one not given is null, which means "all"."""
        sql = query_sql(name)
        try:
            params = bound_params(_params_of(name), filters, options)
        except KeyError as error:
            raise KeyError(f"query {name!r}: {error.args[0]}") from None
        frame: pd.DataFrame = self.con.cursor().execute(sql, params).df()
        return frame

    def sql(self, text: str, params: dict[str, Any] | None = None) -> pd.DataFrame:
        """Any read-only SQL over the views (bound parameters only), e.g. for the tests."""
        frame: pd.DataFrame = self.con.cursor().execute(text, params or {}).df()
        return frame

    def page(self, name: str, **params: Any) -> pd.DataFrame:
        """``analytics/sql/pages/<name>.sql`` with bound parameters (lists as lists); the
        table size (``seats``, added after the others) is all sizes unless given."""
        text = page_sql(name)
        if "$seats" in text:
            params.setdefault("seats", None)
        return self.sql(text, params)

    # -- players
    def player_stats(self, filters: Filters | None = None) -> pd.DataFrame:
        """One row per player: deals, 胡牌率, 自摸率, 点炮率, fan, points, kongs, 花猪, 查叫..."""
        return self.query("player_stats", filters)

    def player_card(self, player: str, filters: Filters | None = None) -> dict[str, Any] | None:
        """One player's row of :meth:`player_stats` as a dict, or None if it has no deals."""
        base = filters or Filters()
        frame = self.player_stats(
            Filters(player, base.club, base.date_from, base.date_to, base.rules, base.tablemates)
        )
        if frame.empty:
            return None
        row: dict[str, Any] = frame.iloc[0].to_dict()
        return row

    # -- 复盘 (the figures ingest kept: mart_review_seats)
    def player_review(self, filters: Filters | None = None) -> pd.DataFrame:
        """One row per player: the review summary (best %, average loss, backward %, 定缺
        agreement %, starting shanten beside the club's, deal-ins while not ready, wins
        passed, points by source); ``filters.player`` keeps one."""
        return self.query("player_review", filters)

    def review_deals(
        self,
        player: str,
        filters: Filters | None = None,
        *,
        costliest: bool = False,
        limit: int | None = None,
    ) -> pd.DataFrame:
        """The deals behind ``player``'s review figures (newest first), or with ``costliest``
        its deals with a discard off the best, the costliest first."""
        base = filters or Filters()
        return self.query(
            "review_deals",
            Filters(player, base.club, base.date_from, base.date_to, base.rules, base.tablemates, base.seats),
            costliest=costliest or None,
            limit=limit,
        )

    def players_named(self, name: str) -> list[str]:
        """The players (as shown) a name as written stands for: several when the name plays
        in several clubs, so a lookup by the bare name can say it is ambiguous."""
        frame = self.query("players_named", Filters(player=name))
        return [str(p) for p in frame["player"]]

    def guests(self) -> set[str]:
        """The players (as shown) a club's roster marks guests: leaderboards list them apart."""
        return {str(p) for p in self.query("guests")["player"]}

    def score_over_time(self, filters: Filters | None = None) -> pd.DataFrame:
        return self.query("score_over_time", filters)

    # -- fan
    def fan_by_pattern(self, filters: Filters | None = None) -> pd.DataFrame:
        return self.query("fan_by_pattern", filters)

    def fan_by_total(self, filters: Filters | None = None) -> pd.DataFrame:
        return self.query("fan_by_total", filters)

    def fan_roots(self, filters: Filters | None = None) -> pd.DataFrame:
        return self.query("fan_roots", filters)

    def fan_summary(self, filters: Filters | None = None) -> pd.DataFrame:
        return self.query("fan_summary", filters)

    # -- between players
    def head_to_head(self, filters: Filters | None = None) -> pd.DataFrame:
        return self.query("head_to_head", filters)

    def tablemates(self, filters: Filters | None = None) -> pd.DataFrame:
        return self.query("tablemates", filters)

    # -- audit
    def findings_by_code(self, filters: Filters | None = None) -> pd.DataFrame:
        return self.query("findings_by_code", filters)

    def findings_by_session(self, filters: Filters | None = None) -> pd.DataFrame:
        return self.query("findings_by_session", filters)

    def findings_summary(self, filters: Filters | None = None) -> pd.DataFrame:
        """The one count of findings and of deals with findings (``findings_summary.sql``),
        what the Overview, the Audit and ``chuanma stats`` all show."""
        return self.query("findings_summary", filters)

    def findings_by_player(self, filters: Filters | None = None) -> pd.DataFrame:
        return self.query("findings_by_player", filters)

    def deal_status(self) -> pd.DataFrame:
        return self.query("deal_status")

    # -- one deal, for the replay viewer
    def deal_events(self, deal_id: str) -> pd.DataFrame:
        """The deal's lines in order (``seq``), as stored in ``events``."""
        return self.sql(
            "select * from stg_events where deal_id = $deal_id order by seq", {"deal_id": deal_id}
        )

    def deal_ledger(self, deal_id: str) -> pd.DataFrame:
        """Every computed transfer of the deal in order, with its reason and players."""
        return self.sql(
            "select * from stg_ledger where deal_id = $deal_id order by seq", {"deal_id": deal_id}
        )

    def close(self) -> None:
        """Close the connection and give up the marts file (another process may own it now)."""
        self.con.close()
        if self._owner is not None:
            self._owner.release()
            self._owner = None

    # -- placements, rating, patterns, tablemates
    def session_placements(self, filters: Filters | None = None) -> pd.DataFrame:
        """Per session and player: the session's net and placement 1..4 (ties by seat)."""
        return self.query("session_placements", filters)

    def placements(self, filters: Filters | None = None) -> pd.DataFrame:
        """Per player: sessions, placements 1st..4th, their rates, average placement."""
        return self.query("placements", filters)

    def placements_by_table(self, filters: Filters | None = None) -> pd.DataFrame:
        """Placements per player and table size (4, 3 or 2 seats): like with like."""
        return self.query("placements_by_table", filters)

    def rating_history(self, filters: Filters | None = None) -> pd.DataFrame:
        """Pairwise Elo (analytics/rating.py) after every session; the player filter picks
        one player's rows from a rating computed over every player. With no other filter,
        read from ``mart_ratings`` (the same rows)."""
        player = filters.player if filters is not None else None
        if self._rated(filters):
            return ratings_mart.history(self.con, player)
        history = rating.rating_history(self.session_placements(without_player(filters)))
        if player is not None:
            history = history[history["player"] == player].reset_index(drop=True)
        return history

    def current_ratings(self, filters: Filters | None = None) -> pd.DataFrame:
        """Each player's rating after their last session, and their peak (the player
        filter ignored: ``rating.current_ratings``)."""
        if self._rated(filters):
            return ratings_mart.current(self.con)
        return rating.current_ratings(self.rating_history(without_player(filters)))

    def daily_ratings(self, filters: Filters | None = None) -> pd.DataFrame:
        """Each player's rating at the end of each day they played (``rating.daily_ratings``;
        the player filter ignored)."""
        if self._rated(filters):
            return ratings_mart.daily(self.con)
        return rating.daily_ratings(self.rating_history(without_player(filters)))

    def _rated(self, filters: Filters | None) -> bool:
        """Whether ``mart_ratings`` holds the rating under these filters: none but the
        player, or filters that keep every deal (a club's own warehouse with its club
        chosen: the same sessions, so the same ratings, without rating them again)."""
        if not self.materialize:
            return False
        rest = without_player(filters)
        if rest == Filters():
            return True
        kept = self.con.cursor().execute(KEEPS_EVERY_DEAL, bound_params(_KEEPS_PARAMS, rest, {})).fetchall()
        return bool(kept[0][0])

    def player_table(self, filters: Filters | None = None) -> pd.DataFrame:
        """:meth:`player_stats` with the placement columns and the rating added."""
        return with_placements(
            self.player_stats(filters), self.placements(filters), self.current_ratings(filters)
        )

    def pattern_rates(self, filters: Filters | None = None) -> pd.DataFrame:
        """Per player and pattern: wins with it / wins, beside the club's rate."""
        return self.query("pattern_rates", filters)

    def mate_records(self, filters: Filters | None = None) -> pd.DataFrame:
        """A player's record against each tablemate (deals, sessions, placed above, net)."""
        return self.query("mate_records", filters)


def without_player(filters: Filters | None) -> Filters:
    """The same filters for every player (a rating needs the whole table's sessions)."""
    return replace(filters or Filters(), player=None)


def with_placements(stats: pd.DataFrame, placements: pd.DataFrame, ratings: pd.DataFrame) -> pd.DataFrame:
    """The player table with ``sessions``, ``avg_placement``, ``placement_1..4`` (and
    rates), ``rating`` and ``rating_peak`` (``ratings``: ``Analytics.current_ratings``)
    added after its columns (same rows, same order)."""
    shared = [c for c in placements.columns if c != "player" and c in stats.columns]  # table_sizes
    extra = placements.drop(columns=shared).merge(ratings, on="player", how="left")
    merged: pd.DataFrame = stats.merge(extra, on="player", how="left")
    return merged


_OPEN: dict[Path, Analytics] = {}
_OPEN_LOCK = threading.Lock()


def connect(warehouse: str | Path = DEFAULT_WAREHOUSE) -> Analytics:
    """The one :class:`Analytics` of a warehouse in this process, refreshed to the
    catalog's latest batch."""
    key = Path(warehouse).resolve()
    with _OPEN_LOCK:
        found = _OPEN.get(key)
        if found is None:
            found = _OPEN[key] = Analytics(key)
        else:
            found.refresh()
        return found
