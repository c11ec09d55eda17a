"""The table size (几人桌: four, three or two players) where a club plays at more than one:
the sidebar's choice (every page's filters carry it) and, on a page of rates, one size at a
time, so a three-player table's rates are never added to a four-player one's unasked."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from analytics.queries import Filters
from dashboard import cached_queries, page_kit


def sizes_of(options: pd.DataFrame) -> list[str]:
    """The table sizes (players a table: "4", "3", "2", biggest first) among the
    ``filter_options`` rows under the club and rule set chosen."""
    club, rules = (
        st.session_state.get(page_kit.CLUB_KEY, page_kit.ALL),
        st.session_state.get(page_kit.RULES_KEY, page_kit.ALL),
    )
    kept = options
    if club != page_kit.ALL:
        kept = kept[kept["club"] == club]
    if rules != page_kit.ALL:
        kept = kept[kept["rules"] == rules]
    return [str(n) for n in sorted({int(n) for n in kept["seats"].dropna() if int(n) > 0}, reverse=True)]


def seats_picker(src: cached_queries.Source) -> None:
    """The table size (几人桌) in the sidebar, below the other filters, offered where the
    club plays at more than one: a rate of a three-player table is no rate of a four-player
    one, so a page can keep them apart."""
    sizes = [] if src.is_empty else table_sizes(src)
    asked = page_kit.asked_param(page_kit.URL_SEATS)
    if asked in sizes:
        st.session_state[page_kit.SEATS_KEY] = asked
    if len(sizes) < 2 or st.session_state.get(page_kit.SEATS_KEY, page_kit.ALL) not in (page_kit.ALL, *sizes):
        st.session_state[page_kit.SEATS_KEY] = page_kit.ALL  # one size: nothing to choose, nothing mixed
    if len(sizes) > 1:
        everything = page_kit.t("all")
        st.sidebar.selectbox(
            page_kit.t("table_size"), [page_kit.ALL, *sizes], key=page_kit.SEATS_KEY,
            format_func=lambda v: everything if v == page_kit.ALL else page_kit.t("seats_n", n=v),
        )  # fmt: skip


def table_sizes(src: cached_queries.Source) -> list[str]:
    """The table sizes under the sidebar's club and rule set (biggest first; see
    :func:`sizes_of`)."""
    options = cached_queries.query("filter_options", src=src)
    return [] if options.empty else sizes_of(options)


def one_size(filters: Filters, src: cached_queries.Source, key: str) -> Filters:
    """``filters`` at one table size: as the sidebar chose, else (the club plays at several
    sizes, all chosen) the size picked here, the biggest first, so a rate on the page never
    mixes three-player tables with four-player ones."""
    if filters.seats is not None:
        return filters
    sizes = table_sizes(src)
    if len(sizes) < 2:
        return filters
    if st.session_state.get(key) not in sizes:
        st.session_state[key] = sizes[0]
    chosen = st.radio(
        page_kit.t("table_size"), sizes, key=key, horizontal=True, format_func=lambda v: page_kit.t("seats_n", n=v),
        help=page_kit.t("rates_per_size"),
    )  # fmt: skip
    return replace(filters, seats=int(chosen))
