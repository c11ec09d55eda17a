"""A club's night (今晚结算): choose a club and one of the dates it played (or follow
``?club=...&night=YYYY-MM-DD``), then every session of that night settled at once per
player across the tables (``dashboard/night.py``): each player's points and 元 per session
and in all, who pays whom in 元 once, each player's table fee, and the sessions that count
in points only; as the chat text, a PNG and CSV files, the same as ``chuanma night``."""

from __future__ import annotations

from datetime import date
from html import escape

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from analytics.queries import Filters
from dashboard import cached_queries, page_kit, visitor
from dashboard.export import file_name
from dashboard.night import (
    Night,
    chat_text,
    load_night,
    localised_night,
    night_dates,
    night_png,
    players_frame,
    transfer_lines,
    transfers_frame,
)
from dashboard.player_links import linked, player_column
from dashboard.session_result import csv_bytes

CLUB_KEY = "night_club"
DATE_KEY = "night_date"
URL_NIGHT = "night"  # the date in the address; the club is the shared ``club`` parameter


def choose(src: cached_queries.Source) -> tuple[str, date] | None:
    """The club (the visitor's own with a club token) and one of its nights, the latest first."""
    options = cached_queries.query("filter_options", src=src)
    clubs = sorted({str(c) for c in options["club"].dropna()})
    only = visitor.club()
    if only is not None:
        clubs = [c for c in clubs if c == only]
    if not clubs:
        st.info(page_kit.t("no_match"))
        return None
    linked = st.query_params.get(page_kit.URL_CLUB)
    if st.session_state.get(CLUB_KEY) not in clubs:
        st.session_state[CLUB_KEY] = linked if linked in clubs else clubs[0]
    left, right = st.columns(2)
    club = str(left.selectbox(page_kit.t("night_club"), clubs, key=CLUB_KEY))

    def lister(filters: Filters) -> pd.DataFrame:
        return cached_queries.query("session_list", filters, src=src, limit=None)

    days = night_dates(lister, club)
    if not days:
        st.info(page_kit.t("night_no_club"))
        return None
    asked = st.query_params.get(URL_NIGHT)
    if st.session_state.get(DATE_KEY) not in days:
        wanted = next((d for d in days if d.isoformat() == asked), days[0])
        st.session_state[DATE_KEY] = wanted
    day = right.selectbox(page_kit.t("night_date"), days, format_func=date.isoformat, key=DATE_KEY)
    if st.query_params.get(URL_NIGHT) != day.isoformat():
        st.query_params[URL_NIGHT] = day.isoformat()  # a shared link shows the same night
    return club, day


def load(src: cached_queries.Source, club: str, day: date) -> Night | None:
    def lister(filters: Filters) -> pd.DataFrame:
        return cached_queries.query("session_list", filters, src=src, limit=None)

    def pager(name: str, session_id: str) -> pd.DataFrame:
        return cached_queries.sql(name, src=src, session_id=session_id)

    return load_night(lister, pager, src.path, club, day)


def show(night: Night) -> None:
    lang = page_kit.lang()
    st.caption(page_kit.t("night_help"))
    if night.points_only:
        named = night.names()
        only = ", ".join(named[s] for s in night.points_only)
        st.info(page_kit.t("night_points_only", sessions=only))
    st.subheader(page_kit.t("night_players"))
    players = players_frame(night)
    named = night.names()
    config: dict[str, object] = {
        "place": page_kit.t("session_place"),
        "player": player_column(page_kit.t("player")),  # each name a link to the player's page
        "points": page_kit.t("session_total"),
        "yuan": st.column_config.NumberColumn(page_kit.t("yuan_column"), format="%.2f"),
        "fee": st.column_config.NumberColumn(page_kit.t("money_fee_column"), format="%.2f"),
        "yuan_before_fee": None,
    }
    for sid, name in named.items():
        config[f"points_{sid}"] = f"{name} · {page_kit.t('points_unit')}"
        config[f"yuan_{sid}"] = st.column_config.NumberColumn(
            f"{name} · {page_kit.t('yuan_unit')}", format="%.2f"
        )
    page_kit.dataframe(
        linked(players, club=night.club), hide_index=True, column_config=config, key="night_players"
    )
    st.subheader(page_kit.t("settle_title"))
    lines = transfer_lines(night, lang)
    if lines:
        items = "".join(f"<li>{escape(line)}</li>" for line in lines)
        st.html(f'<ol class="cm-settle" data-testid="cm-night-settle">{items}</ol>')
    else:
        st.success(page_kit.t("settle_square"))
    st.subheader(page_kit.t("chat_title"))
    st.caption(page_kit.t("chat_help"))
    st.code(chat_text(night, lang), language=None)
    st.subheader(page_kit.t("session_export"))
    stem = file_name(f"night-{night.club}-{night.day.isoformat()}", "night")
    cols = st.columns(3)
    cols[0].download_button(
        page_kit.t("download_night_players"),
        csv_bytes(localised_night(players, lang)),
        file_name=f"{stem}.csv",
        mime="text/csv",
        key="night_csv_players",
        icon=":material/download:",
        width="stretch",
    )
    cols[1].download_button(
        page_kit.t("download_transfers"),
        csv_bytes(localised_night(transfers_frame(night), lang)),
        file_name=f"{stem}-transfers.csv",
        mime="text/csv",
        key="night_csv_transfers",
        icon=":material/download:",
        width="stretch",
    )
    cols[2].download_button(
        page_kit.t("download_png"),
        night_png(night, lang),
        file_name=f"{stem}.png",
        mime="image/png",
        key="night_png",
        icon=":material/image:",
        type="primary",
        width="stretch",
    )


st.title(page_kit.t("night_title"))
src = page_kit.page_source()
if src is not None:
    chosen = choose(src)
    if chosen is not None:
        found = load(src, *chosen)
        if found is None:
            st.warning(page_kit.t("night_no_session", club=chosen[0], date=chosen[1].isoformat()))
        else:
            show(found)
