"""What every page shares: the language switch, the filters (club, dates, rule set) that
apply to all pages, the empty-warehouse message, the plain message when the warehouse or a
file fails, and small display helpers.

The sidebar widgets live in ``app.py``'s run, which happens before every page, so their
values (kept in ``st.session_state``) follow the user from page to page.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any, Final

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from analytics.queries import Filters
from analytics.seasons import Season, SeasonError, current_season, load_seasons, month_of
from dashboard import cached_queries, visitor
from dashboard.i18n import LANG_NAMES, LANGS, Lang, label
from dashboard.safe_text import md
from dashboard.term_labels import rules_label

LANG_KEY: Final = "lang"
CLUB_KEY: Final = "filter_club"
RULES_KEY: Final = "filter_rules"
SEATS_KEY: Final = "filter_seats"  # the table size (4, 3 or 2 players, as text), or ALL
DATES_KEY: Final = "filter_dates"
SPAN_KEY: Final = "filter_dates_span"  # the warehouse's first and last day: no date filter
PERIOD_KEY: Final = "filter_period"  # ALL (the dates as chosen), "month", "season" or SEASON_TAG + name
SEASONS_KEY: Final = "filter_seasons"  # the seasons offered under the club chosen, as last read
SEASON_TAG: Final = "season:"
ALL: Final = "\u0000all"  # the "no filter" choice (no club or rule set can be named so)

FAVICON: Final = Path(__file__).parent / "static" / "favicon.png"

#: the pages, by file (relative to app.py), for ``st.page_link`` and ``st.switch_page``
PAGES: Final = {
    "overview": "app_pages/overview.py",
    "players": "app_pages/players.py",
    "fans": "app_pages/fans.py",
    "h2h": "app_pages/head_to_head.py",
    "replay": "app_pages/replay.py",
    "audit": "app_pages/audit.py",
    "upload": "app_pages/upload.py",
    "session": "app_pages/session.py",
    # the pages added after the first ones
    "ratings": "app_pages/ratings.py",
    "versus": "app_pages/versus.py",
    "search": "app_pages/search.py",
    "patterns": "app_pages/patterns.py",
    "record": "app_pages/record.py",
    "night": "app_pages/night.py",  # 今晚结算: a club's night settled at once
    "live": "app_pages/live.py",  # the table's live view, by its link only (dashboard/live_link.py)
    "review": "app_pages/review.py",  # 复盘: one player's review
}

#: the state a link carries: query parameter -> what it restores (the pages add theirs:
#: ``player`` on Players, ``deal`` and ``line`` on Replay)
URL_LANG: Final = "lang"
URL_CLUB: Final = "club"
URL_RULES: Final = "rules"
URL_SEATS: Final = "seats"
URL_FROM: Final = "from"
URL_TO: Final = "to"
URL_PERIOD: Final = "period"  # month | season (this one), or a season's name after SEASON_TAG
SHARED_PARAMS: Final = (URL_LANG, URL_CLUB, URL_RULES, URL_FROM, URL_TO, URL_PERIOD, URL_SEATS)
WRITTEN_KEY: Final = "url_written"  # what the frame last wrote to the URL


def asked_param(name: str) -> str | None:
    """A query parameter the user (a link, a reload) brought, not one this session wrote."""
    value = st.query_params.get(name)
    written: dict[str, str] = st.session_state.get(WRITTEN_KEY, {})
    if not value or written.get(name) == value:
        return None
    return str(value)


def restore_language() -> None:
    """``?lang=zh`` chooses the language (before the switch is drawn)."""
    asked = asked_param(URL_LANG)
    if asked in LANGS:
        st.session_state[LANG_KEY] = asked


def _iso(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def shared_params() -> dict[str, str]:
    """The language and the filters as query parameters (only what differs from the
    defaults), for the URL and for every link a page draws."""
    out: dict[str, str] = {}
    if lang() != "en":
        out[URL_LANG] = lang()
    for name, key in ((URL_CLUB, CLUB_KEY), (URL_RULES, RULES_KEY), (URL_SEATS, SEATS_KEY)):
        value = st.session_state.get(key, ALL)
        if value != ALL and value is not None:
            out[name] = str(value)
    period = st.session_state.get(PERIOD_KEY, ALL)
    if period not in (ALL, None):
        out[URL_PERIOD] = str(period)  # the period stands for its dates
        return out
    chosen = st.session_state.get(DATES_KEY)
    span = st.session_state.get(SPAN_KEY)
    if isinstance(chosen, tuple | list) and chosen and span is not None:
        first, last = chosen[0], chosen[-1]
        if first > span[0]:
            out[URL_FROM] = first.isoformat()
        if last < span[1]:
            out[URL_TO] = last.isoformat()
    return out


def write_url() -> None:
    """Keep the shared state in the address bar, so a reload or a shared link shows the
    same page (a page's own parameters, such as ``player``, are left alone)."""
    wanted = shared_params()
    for name in SHARED_PARAMS:
        if name in wanted:
            if st.query_params.get(name) != wanted[name]:
                st.query_params[name] = wanted[name]
        elif name in st.query_params:
            del st.query_params[name]
    st.session_state[WRITTEN_KEY] = dict(wanted)


def lang() -> Lang:
    value = st.session_state.get(LANG_KEY, "en")
    return "zh" if value == "zh" else "en"


def t(key: str, **values: Any) -> str:
    """The label in the chosen language, with ``{name}`` fields filled in."""
    text = label(key, lang())
    return text.format(**values) if values else text


def tr() -> Callable[[str], str]:
    """The label function of the chosen language, for the charts."""
    chosen = lang()
    return lambda key: label(key, chosen)


def language_switch() -> None:
    restore_language()
    st.sidebar.radio(
        "语言 / Language",
        LANGS,
        format_func=lambda code: LANG_NAMES[code],
        key=LANG_KEY,
        horizontal=True,
    )


def filter_sidebar(src: cached_queries.Source) -> None:
    """Club, rule set and dates, chosen from what the warehouse holds; above them, a word
    when the roster cannot be read (the file and the reason in the server's log only)."""
    broken = cached_queries.roster_error(src)
    if broken is not None:
        logging.getLogger("chuanma.dashboard").error("the roster: %s", broken)
        st.sidebar.warning(t("roster_unreadable"), icon=":material/warning:")
    options = cached_queries.query("filter_options", src=src) if not src.is_empty else pd.DataFrame()
    st.sidebar.subheader(t("filters"))
    if options.empty:
        st.sidebar.caption(t("no_match"))
        return
    clubs = sorted({str(c) for c in options["club"].dropna()})
    only = visitor.club()
    if only is not None:  # a club's token: its club only, no "all"
        options = options[options["club"] == only]
        clubs = [only]
        st.session_state[CLUB_KEY] = only
    rules = sorted({str(r) for r in options["rules"].dropna()})
    for name, key, known in ((URL_CLUB, CLUB_KEY, clubs), (URL_RULES, RULES_KEY, rules)):
        asked = asked_param(name)
        if asked in known:
            st.session_state[key] = asked
    if st.session_state.get(CLUB_KEY, ALL) not in (ALL, *clubs):
        st.session_state[CLUB_KEY] = ALL
    if st.session_state.get(RULES_KEY, ALL) not in (ALL, *rules):
        st.session_state[RULES_KEY] = ALL
    everything = t("all")
    st.sidebar.selectbox(
        t("club"), clubs if only is not None else [ALL, *clubs], key=CLUB_KEY,
        format_func=lambda v: everything if v == ALL else v,
    )  # fmt: skip
    shown = {name: rules_label(name, lang()) for name in rules}  # in this run's language
    st.sidebar.selectbox(
        t("rules"), [ALL, *rules], key=RULES_KEY, format_func=lambda v: everything if v == ALL else shown[v]
    )
    days = options[["first_day", "last_day"]].dropna()
    if not days.empty:
        span = (_day(days["first_day"].min()), _day(days["last_day"].max()))
        before = st.session_state.get(SPAN_KEY)
        chosen = st.session_state.get(DATES_KEY)
        if chosen is None or before != span:
            # a new batch moved the span: a choice of the whole old span follows it, and
            # any other choice is kept inside the new one
            kept: tuple[date, ...] = tuple(chosen) if isinstance(chosen, tuple | list) else ()
            whole = not kept or before is None or kept == tuple(before)
            st.session_state[DATES_KEY] = span if whole else _clamp(kept, span)
            st.session_state[SPAN_KEY] = span
        asked_from, asked_to = _iso(asked_param(URL_FROM)), _iso(asked_param(URL_TO))
        if asked_from is not None or asked_to is not None:
            now = st.session_state.get(DATES_KEY) or span
            st.session_state[DATES_KEY] = _clamp((asked_from or now[0], asked_to or now[-1]), span)
        period_picker(src)
        if st.session_state.get(PERIOD_KEY, ALL) == ALL:
            st.sidebar.date_input(t("dates"), min_value=span[0], max_value=span[1], key=DATES_KEY)


def today() -> date:
    """The day "this month" and "this season" mean (the server's local date)."""
    return date.today()


def period_picker(src: cached_queries.Source) -> None:
    """This month / this season / a season by name / all (the dates as chosen): the
    seasons are the club's (``chuanma season add``), offered under the club filter."""
    try:
        seasons = load_seasons(src.path)
    except SeasonError as error:
        st.sidebar.warning(t("seasons_unreadable", error=error))
        seasons = []
    club = st.session_state.get(CLUB_KEY, ALL)
    offered = [s for s in seasons if s.applies_to(None if club == ALL else club)]
    st.session_state[SEASONS_KEY] = offered
    choices = [ALL, "month"]
    if current_season(offered, None if club == ALL else club, today()) is not None:
        choices.append("season")
    choices += [SEASON_TAG + name for name in dict.fromkeys(s.name for s in reversed(offered))]
    asked = asked_param(URL_PERIOD)
    if asked in choices:
        st.session_state[PERIOD_KEY] = asked
    if st.session_state.get(PERIOD_KEY, ALL) not in choices:
        st.session_state[PERIOD_KEY] = ALL
    names = {choice: period_label(choice) for choice in choices}  # in this run's language
    st.sidebar.selectbox(t("period"), choices, key=PERIOD_KEY, format_func=names.__getitem__)
    dates = period_dates()
    if dates is not None:
        st.sidebar.caption(f"{dates[0].isoformat()} – {dates[1].isoformat()}")


def period_label(choice: str) -> str:
    if choice == ALL:
        return t("period_all")
    if choice.startswith(SEASON_TAG):
        return f"{t('season')}: {choice.removeprefix(SEASON_TAG)}"
    return t(f"period_{choice}")


def chosen_season() -> Season | None:
    """The season the period names (this season, or one by name), if any."""
    period = str(st.session_state.get(PERIOD_KEY, ALL))
    offered: list[Season] = st.session_state.get(SEASONS_KEY, [])
    club = st.session_state.get(CLUB_KEY, ALL)
    if period == "season":
        return current_season(offered, None if club == ALL else club, today())
    if period.startswith(SEASON_TAG):
        name = period.removeprefix(SEASON_TAG)
        named = sorted((s for s in offered if s.name == name), key=lambda s: s.club is None)
        return named[0] if named else None
    return None


def period_dates() -> tuple[date, date] | None:
    """The first and last day of the chosen period, or None for the dates as chosen."""
    period = st.session_state.get(PERIOD_KEY, ALL)
    if period == "month":
        return month_of(today())
    season = chosen_season()
    return None if season is None else (season.first, season.last)


def ranking_minimum() -> tuple[int, int]:
    """The least deals and sessions to be ranked (规定局数) of the season chosen, else none."""
    season = chosen_season()
    return (0, 0) if season is None else (season.min_deals, season.min_sessions)


def _clamp(chosen: tuple[date, ...], span: tuple[date, date]) -> tuple[date, ...]:
    return tuple(min(max(day, span[0]), span[1]) for day in chosen) or span


def _day(value: Any) -> date:
    day: date = pd.Timestamp(value).date()
    return day


def filters(player: str | None = None, tablemates: tuple[str, ...] = ()) -> Filters:
    """The shared filters as chosen in the sidebar (plus a player, for one page)."""
    club = visitor.club() or st.session_state.get(CLUB_KEY, ALL)
    rules = st.session_state.get(RULES_KEY, ALL)
    seats = st.session_state.get(SEATS_KEY, ALL)
    chosen = st.session_state.get(DATES_KEY)
    first = last = None
    period = period_dates()
    if period is not None:
        first, last = period
    elif isinstance(chosen, tuple | list) and chosen:
        first = chosen[0]
        last = chosen[1] if len(chosen) > 1 else chosen[0]
        span = st.session_state.get(SPAN_KEY)
        if span is not None and first <= span[0] and last >= span[1]:
            first = last = None  # the whole span: undated rows (file findings) stay in
    return Filters(
        player=player,
        club=None if club == ALL else club,
        date_from=first,
        date_to=last,
        rules=None if rules == ALL else rules,
        tablemates=tablemates,
        seats=None if seats in (ALL, None) else int(seats),
    )


def empty_warehouse(src: cached_queries.Source) -> None:
    """How to load data, instead of an error, when the warehouse holds nothing yet. The
    warehouse's path is shown only to a visitor at this machine (a server on localhost):
    where it lives is no business of a visitor from elsewhere."""
    where = "WAREHOUSE" if visitor.listens_beyond_localhost() else src.path
    shown = "" if visitor.listens_beyond_localhost() else f" ({md(src.path)})"
    st.info(f"**{t('empty_title')}**{shown}\n\n{t('empty_body')}", icon=":material/inbox:")
    st.code(
        "make demo\n"
        "# or, step by step:\n"
        ".venv/bin/chuanma simulate --out data/demo/club.jsonl.gz --sessions 50\n"
        f".venv/bin/chuanma ingest data/demo/ --warehouse {where}\n"
        f".venv/bin/chuanma dashboard --warehouse {where}",
        language="sh",
    )
    st.page_link(PAGES["upload"], label=t("page_upload"), icon=":material/upload:")


def page_source() -> cached_queries.Source | None:
    """The warehouse for a page that needs data: None (after saying how to load some)
    when it is empty."""
    from dashboard.warehouse_location import warehouse_path
    from ingest.warehouse import WarehouseError, require_catalog

    try:  # a lost or damaged catalog: a plain message here, the file and the repair in the log
        require_catalog(warehouse_path())
        src = cached_queries.source()
    except WarehouseError as error:
        plain_error(error, "reading the warehouse", "read_failed")
        return None
    if src.is_empty:
        empty_warehouse(src)
        return None
    return src


def plain_error(error: BaseException, doing: str, key: str = "write_failed") -> None:
    """Log ``error`` with what the page was ``doing`` and show the plain message ``key``:
    the details (paths, the writer's pid and host, the OS error) go to the server's log
    only, where whoever runs the dashboard reads them (and the CLI prints them: ``chuanma
    ingest``, ``chuanma warehouse check``). A page is seen by anyone who can reach the
    server; where the warehouse lives and which host writes to it is not theirs to know."""
    logging.getLogger("chuanma.dashboard").error("%s failed: %s: %s", doing, type(error).__name__, error)
    st.error(t(key), icon=":material/error:")


def chart(figure: Any, *, key: str | None = None) -> None:
    st.altair_chart(figure, width="stretch", key=key)


def plain(value: Any) -> Any:
    """numpy and pandas scalars as Python values; NaN, NaT and NA as None."""
    if value is None or value is pd.NaT or value is pd.NA:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def day_text(value: Any) -> str:
    """A date (or timestamp) as YYYY-MM-DD."""
    value = plain(value)
    return "–" if value is None else str(pd.Timestamp(value).date())


PCT_DIGITS: Final = 1  # every percentage of the dashboard: one formatter, one decimal


def pct(value: Any) -> str:
    """A share (0..1) as a percentage, the one way every page writes one."""
    value = plain(value)
    return "–" if value is None else f"{100 * float(value):.{PCT_DIGITS}f}%"


def pct_column(title: str) -> Any:
    """A table column of percentages (see :func:`as_percent`) written as :func:`pct`
    writes them (Streamlit's own "percent" format varies its decimals)."""
    return st.column_config.NumberColumn(title, format=f"%.{PCT_DIGITS}f%%")


def as_percent(frame: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """The shares (0..1) of ``columns`` as percentages (0..100) for :func:`pct_column`;
    still numbers, so a click on the header sorts them."""
    return frame.assign(**{column: frame[column] * 100 for column in columns})


#: what a table shows for a missing value (Streamlit's default is a grey "None")
MISSING: Final = "–"


def dataframe(data: Any, **options: Any) -> Any:
    """``st.dataframe`` with :data:`MISSING` in empty cells: every table of the pages."""
    options.setdefault("placeholder", MISSING)
    return st.dataframe(data, **options)


def date_column(title: str) -> Any:
    """A table column of dates, without a time of day."""
    return st.column_config.DateColumn(title, format="YYYY-MM-DD")


ROW_PX: Final = 35
MAX_TABLE_ROWS: Final = 20


def table_height(rows: int) -> int:
    """A table's height that shows every row up to :data:`MAX_TABLE_ROWS` (the default
    height hides the last one behind a scroll bar)."""
    return ROW_PX * (min(rows, MAX_TABLE_ROWS) + 1) + 3


def blanks(frame: pd.DataFrame) -> pd.DataFrame:
    """A frame for display: missing text as "–" instead of "None"/"nan" (numbers are left
    to the column's format, which shows an empty cell)."""
    out = frame.copy()
    for column in out.columns:
        if out[column].dtype == object:
            out[column] = [
                ("–" if plain(v) is None else v) if not isinstance(v, list | tuple) else v
                for v in out[column]
            ]
    return out


def count(value: Any) -> str:
    """A count, whatever numeric type the frame gave it."""
    value = plain(value)
    return "–" if value is None else f"{int(value):,}"


def num(value: Any, digits: int = 2) -> str:
    value = plain(value)
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def _deal_params(deal_id: str, line: Any = None) -> dict[str, str]:
    params = {"deal": deal_id}
    at = plain(line)
    if at is not None:
        params["line"] = str(int(at))
    return {**params, **shared_params()}


def replay_link(deal_id: str, text: str | None = None, *, line: Any = None) -> None:
    """A link that opens one deal in the replay page (at the finding of ``line``), with
    the language and filters."""
    st.page_link(
        PAGES["replay"],
        label=text or f"{t('open_replay')} {md(deal_id)}",
        icon=":material/play_arrow:",
        query_params=_deal_params(deal_id, line),
    )


def replay_url(deal_id: str, line: Any = None) -> str:
    """The replay page's address for a deal, relative to the app's pages (for tables);
    the deal id comes first, so a column can show it with ``REPLAY_TEXT``."""
    from urllib.parse import urlencode

    return "replay?" + urlencode(_deal_params(deal_id, line))


#: the deal id of a :func:`replay_url`, for ``LinkColumn(display_text=...)``
REPLAY_TEXT: Final = r"replay\?deal=([^&]*)"


def page_link(page: str, label: str, icon: str, params: dict[str, str] | None = None) -> None:
    """``st.page_link`` that keeps the language and filters."""
    st.page_link(PAGES[page], label=label, icon=icon, query_params={**shared_params(), **(params or {})})
