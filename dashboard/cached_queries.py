"""Where the pages get their data: one DuckDB connection per warehouse for the whole
server, and every result cached per catalog version.

Streamlit's own advice, applied: the :class:`analytics.queries.Analytics` object (one
DuckDB connection with the marts materialized, kept in ``<warehouse>/marts.duckdb`` so a
server start reads them instead of computing them: ``analytics/README.md``, "The marts
file") is an ``st.cache_resource``, shared by every session; each query runs on its own cursor, so sessions do not wait for each other. Results
go through ``st.cache_data`` keyed by the warehouse's version, which changes only when an
ingest records a batch: a page that was drawn once is drawn again from memory, and a new
batch is seen on the next rerun without restarting the server. That rerun's
:meth:`Analytics.refresh` reads only the new batches' files and adds their rows to the
materialized marts (``analytics/README.md``, "Refresh"); each page's queries then run
once more under the new version (``bench/refresh.py`` times both).

Queries are the ``.sql`` files of ``analytics/sql/queries`` (the shared filters only) and
of ``analytics/sql/pages`` (one deal, one session, one cell, a search: parameters of their
own). Both are run with bound parameters only. The rating (``analytics/rating.py``) is
read from ``mart_ratings`` with no filter (``analytics/ratings_mart.py``), else computed in
Python from the per-session placements of every player under the shared filters; either
is cached per catalog version like every query.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Final

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from analytics.queries import Analytics, Filters, page_sql, with_placements, without_player
from dashboard.deal_steps import DealReplay, replay_from_rows
from dashboard.rescore import Rescore, rescore_session
from dashboard.warehouse_location import warehouse_path

#: the shared filters as a hashable tuple: player, club, date_from, date_to, rules, tablemates
FilterKey = tuple[str | None, str | None, date | None, date | None, str | None, tuple[str, ...], int | None]


@st.cache_resource(show_spinner=False)
def _analytics(path: str) -> Analytics:
    """The server's one connection to a warehouse (it owns the marts file, if no other
    process does)."""
    return Analytics(path)


@dataclass(frozen=True)
class Source:
    """A warehouse as of one catalog version: what every cached result is keyed by."""

    path: str
    version: str

    @property
    def is_empty(self) -> bool:
        return self.version.startswith("0:")


def source() -> Source:
    """The warehouse, refreshed to its latest recorded batch (reads ``catalog.json``)."""
    path = str(warehouse_path())
    analytics = _analytics(path)
    analytics.refresh()
    return Source(path, analytics.version)


def roster_error(src: Source) -> str | None:
    """Why the warehouse's roster cannot be read (its names are then shown as recorded)."""
    return _analytics(src.path).roster_error


def filter_key(filters: Filters) -> FilterKey:
    return (
        filters.player,
        filters.club,
        filters.date_from,
        filters.date_to,
        filters.rules,
        filters.tablemates,
        filters.seats,
    )


@st.cache_data(show_spinner=False, max_entries=1024)
def _query(
    path: str, version: str, name: str, key: FilterKey, options: tuple[tuple[str, Any], ...] = ()
) -> pd.DataFrame:
    return _analytics(path).query(name, Filters(*key), **dict(options))


#: the latest sessions a session picker (Replay, Session, Audit) lists
PICKER_SESSIONS: Final = 300


def query(
    name: str, filters: Filters | None = None, *, src: Source | None = None, **options: Any
) -> pd.DataFrame:
    """``analytics/sql/queries/<name>.sql`` under the filters, cached per version; ``options``
    as :meth:`Analytics.query` takes them (``limit=PICKER_SESSIONS``: read only the rows a picker shows)."""
    src = src or source()
    return _query(
        src.path, src.version, name, filter_key(filters or Filters()), tuple(sorted(options.items()))
    )


def dashboard_sql(name: str) -> str:
    """The text of ``analytics/sql/pages/<name>.sql``."""
    return page_sql(name)


@st.cache_data(show_spinner=False, max_entries=1024)
def _sql(path: str, version: str, name: str, params: tuple[tuple[str, Any], ...]) -> pd.DataFrame:
    values = {key: list(value) if isinstance(value, tuple) else value for key, value in params}
    return _analytics(path).sql(dashboard_sql(name), values)


def sql(name: str, *, src: Source | None = None, **params: Any) -> pd.DataFrame:
    """``analytics/sql/pages/<name>.sql`` with bound parameters (lists as tuples), cached."""
    src = src or source()
    if "$seats" in dashboard_sql(name):  # the table size, added after the others: all unless given
        params.setdefault("seats", None)
    frozen = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))
    return _sql(src.path, src.version, name, frozen)


def filter_params(filters: Filters) -> dict[str, Any]:
    """The shared filters as the parameters of a ``analytics/sql/pages`` file."""
    return {
        "club": filters.club,
        "date_from": filters.date_from,
        "date_to": filters.date_to,
        "rules": filters.rules,
        "seats": filters.seats,
    }


# ------------------------------------------------------------------ one deal, one session
def deal_events(src: Source, month: str, deal_ids: list[str]) -> pd.DataFrame:
    """The ``events`` rows of some deals of one month (``analytics/sql/pages/deal_events.sql``)."""
    ordered = sorted(deal_ids)
    return sql("deal_events", src=src, month=month, first=ordered[0], last=ordered[-1], deal_ids=ordered)


@st.cache_data(show_spinner=False, max_entries=256)
def _replay(path: str, version: str, deal_id: str) -> DealReplay | None:
    src = Source(path, version)
    header = sql("deal_header", src=src, deal_id=deal_id)
    if header.empty:
        return None
    deal = header.iloc[0].to_dict()
    events = pd.DataFrame()
    raw = pd.DataFrame()
    if deal["status"] == "invalid":
        raw = sql("deal_raw_lines", src=src, deal_id=deal_id)
    else:
        events = deal_events(src, str(deal["month"]), [deal_id])
    stored = sql("deal_findings", src=src, deal_id=deal_id)
    return replay_from_rows(deal, events, raw, stored)


def replay(deal_id: str, *, src: Source | None = None) -> DealReplay | None:
    """One deal replayed step by step (from the events table, or the quarantined raw lines
    of a deal that could not be replayed to its end); None when no such deal."""
    src = src or source()
    return _replay(src.path, src.version, deal_id)


@st.cache_data(show_spinner=False, max_entries=128)
def _rescore(path: str, version: str, session_id: str, rules: str) -> Rescore | None:
    src = Source(path, version)
    deals = sql("session_deals", src=src, session_id=session_id)
    if deals.empty:
        return None
    complete = deals[deals["status"] != "invalid"]
    events = pd.DataFrame()
    if not complete.empty:
        events = deal_events(src, str(complete["month"].iloc[0]), [str(d) for d in complete["deal_id"]])
    return rescore_session(session_id, deals, events, rules)


def rescore(session_id: str, rules: str, *, src: Source | None = None) -> Rescore | None:
    """A session's deals replayed under another rule set, beside the stored scores."""
    src = src or source()
    return _rescore(src.path, src.version, session_id, rules)


# ------------------------------------------------------------------ placements, rating, search
#: wins listed among the club's rare hands when their base pattern or an extra is one of
#: these (天胡, 地胡, 清十八罗汉, 十八罗汉, 清金钩钓, 将金钩钓, 龙七对, 清龙七对, 清七对, 清幺九,
#: 清对, 将对, 金钩钓)
RARE_PATTERNS: Final = ("tianhu", "dihu", "qingshibaluohan", "shibaluohan", "qingjingoudiao",
                        "jiangjingoudiao", "qinglongqidui", "longqidui", "qingqidui", "qingdaiyao",
                        "qingdui", "jiangdui", "jingoudiao")  # fmt: skip
SEARCH_LIMIT: Final = 200


@st.cache_data(show_spinner=False, max_entries=256)
def _history(path: str, version: str, key: FilterKey) -> pd.DataFrame:
    return _analytics(path).rating_history(Filters(*key))


def rating_history(filters: Filters, *, src: Source, player: str | None = None) -> pd.DataFrame:
    """Every player's rating after each session, or ``player``'s rows only (the player
    filter is ignored: a rating needs every player's results)."""
    key = filter_key(without_player(filters))
    return _history(src.path, src.version, (player, *key[1:]))


@st.cache_data(show_spinner=False, max_entries=256)
def _ratings(path: str, version: str, key: FilterKey, daily: bool) -> pd.DataFrame:
    analytics = _analytics(path)
    return analytics.daily_ratings(Filters(*key)) if daily else analytics.current_ratings(Filters(*key))


def current_ratings(filters: Filters, *, src: Source) -> pd.DataFrame:
    """Each player's last rating and peak under the filters (``Analytics.current_ratings``)."""
    return _ratings(src.path, src.version, filter_key(without_player(filters)), False)


def daily_ratings(filters: Filters, *, src: Source) -> pd.DataFrame:
    """Each player's rating at the end of each day (``Analytics.daily_ratings``)."""
    return _ratings(src.path, src.version, filter_key(without_player(filters)), True)


def player_table(filters: Filters, *, src: Source) -> pd.DataFrame:
    """The leaderboard: ``player_stats`` with placements and rating (``Analytics.player_table``)."""
    return with_placements(
        query("player_stats", filters, src=src),
        query("placements", filters, src=src),
        current_ratings(filters, src=src),
    )


def search(filters: Filters, *, src: Source, **criteria: Any) -> pd.DataFrame:
    """Deals matching ``analytics/sql/pages/deal_search.sql`` (player, min_fan, pattern, code,
    min_kongs; None = any), at most :data:`SEARCH_LIMIT`."""
    params = {"player": None, "min_fan": None, "pattern": None, "code": None, "min_kongs": None}
    params.update(criteria)
    return sql("deal_search", src=src, limit=SEARCH_LIMIT, **params, **filter_params(filters))


def biggest_hands(filters: Filters, *, src: Source, limit: int = 25) -> pd.DataFrame:
    return sql("biggest_hands", src=src, limit=limit, **filter_params(filters))


def rare_hands(filters: Filters, *, src: Source, limit: int = 100) -> pd.DataFrame:
    return sql("rare_hands", src=src, limit=limit, rare=list(RARE_PATTERNS), **filter_params(filters))
