"""Placements and rating: per session each player's place (1st..4th by session net, 1st..3rd
at a three-player table), the placement rates and average placement, and a pairwise Elo
rating (analytics/rating.py) as a line over time per player. A club of three-player
tables sees no 4th column; one that plays several table sizes sees its placements per size
only (``placements_by_table``: a table and a chart a size, each with that size's places),
never a 1st of three added to a 1st of four."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from analytics import rating
from analytics.roster import guests_split
from analytics.seasons import split_ranked
from dashboard import cached_queries, charts, export, page_kit
from dashboard.player_links import linked, player_column, player_link

#: the table's columns: (column, label key, kind)
COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("player", "player", "text"),
    ("rating", "rating", "num0"),
    ("rating_peak", "rating_peak", "num0"),
    ("sessions", "sessions", "int"),
    ("avg_placement", "avg_placement", "num"),
    ("placement_1_rate", "placement_1_rate", "pct"),
    ("placement_2_rate", "placement_2_rate", "pct"),
    ("placement_3_rate", "placement_3_rate", "pct"),
    ("placement_4_rate", "placement_4_rate", "pct"),
)
LAST_SESSIONS = 40  # shown on the page; the CSV holds them all
FORMATS = {"num": "%.2f", "num0": "%.0f", "int": "%d"}

st.title(page_kit.t("page_ratings"))
src = page_kit.page_source()
if src is not None:
    filters = page_kit.filters()
    placements = cached_queries.query("placements", filters, src=src)
    if placements.empty:
        st.info(page_kit.t("no_match"))
    else:
        by_table = cached_queries.query("placements_by_table", filters, src=src)
        sizes = sorted({int(n) for n in by_table["table_size"]}, reverse=True)
        mixed = len(sizes) > 1  # placements per size below; the ratings table has none
        places = sizes[0] if sizes else 4  # the biggest table
        shown = [
            c for c in COLUMNS
            if not (c[0].startswith("placement_") or c[0] == "avg_placement")
            or (not mixed and (c[0] == "avg_placement" or int(c[0].split("_")[1]) <= places))
        ]  # fmt: skip
        table = placements.merge(cached_queries.current_ratings(filters, src=src), on="player", how="left")
        table = table.sort_values(["rating", "player"], ascending=[False, True])[[c for c, _, _ in shown]]
        st.caption(page_kit.t("rating_rule", k=int(rating.K), initial=int(rating.INITIAL)))
        min_deals, min_sessions = page_kit.ranking_minimum()
        guest_names = set(cached_queries.query("guests", src=src)["player"])
        members, guests = guests_split(table, guest_names)  # the roster's guests, listed apart
        ranked, unranked = split_ranked(members, min_deals, min_sessions)  # a season's 规定局数 (sessions)
        if min_sessions:
            st.caption(page_kit.t("ranked_rule", deals=min_deals, sessions=min_sessions))
        percent = [col for col, _, kind in shown if kind == "pct"]
        config = {
            col: (
                player_column(page_kit.t(key))  # the name, a link to the player's page
                if kind == "text"
                else page_kit.pct_column(page_kit.t(key))
                if kind == "pct"
                else st.column_config.NumberColumn(page_kit.t(key), format=FORMATS[kind])
            )
            for col, key, kind in shown
        }
        export.table(
            linked(page_kit.as_percent(ranked, percent)), "placements", key="ratings_table",
            full=page_kit.as_percent(ranked, percent), column_config=config,
        )  # fmt: skip
        for part, title, name in (
            (unranked, "not_ranked_title", "not_ranked"),
            (guests, "guests_title", "guests"),
        ):
            if not part.empty:  # below the ratings: too few deals (规定局数), then the guests
                st.markdown(f"**{page_kit.t(title)}**")
                export.table(
                    linked(page_kit.as_percent(part, percent)), "placements-" + name.replace("_", "-"),
                    key="ratings_" + name, column_config=config, full=page_kit.as_percent(part, percent),
                )  # fmt: skip
        daily = cached_queries.daily_ratings(filters, src=src)
        if not daily.empty:
            page_kit.chart(charts.rating_chart(daily, page_kit.tr()))
        if mixed:  # like with like: a 3rd of three is no 3rd of four, so a table a size
            st.subheader(page_kit.t("placements_by_table"))
            st.caption(page_kit.t("rates_per_size"))
            for size in sizes:
                at_size = by_table[by_table["table_size"] == size].sort_values(["avg_placement", "player"])
                rates = [f"placement_{k}_rate" for k in range(1, size + 1)]
                columns = ["player", "sessions", "avg_placement", *rates]
                st.markdown(f"**{page_kit.t('seats_n', n=size)}**")
                export.table(
                    linked(page_kit.as_percent(at_size[columns], rates)), f"placements-{size}-players",
                    key=f"ratings_by_table_{size}", full=page_kit.as_percent(at_size[columns], rates),
                    column_config={
                        col: page_kit.pct_column(page_kit.t(col)) if col in rates
                        else st.column_config.NumberColumn(page_kit.t(col), format=FORMATS["num"])
                        if col == "avg_placement" else player_column(page_kit.t(col))
                        if col == "player" else page_kit.t(col)
                        for col in columns
                    },
                )  # fmt: skip
                page_kit.chart(charts.placement_chart(at_size, page_kit.tr(), size), key=f"placements_{size}")
        else:
            page_kit.chart(charts.placement_chart(placements, page_kit.tr(), places))
        players = sorted(str(p) for p in placements["player"])
        chosen = st.selectbox(page_kit.t("choose_player"), players, key="ratings_player")
        player_link(chosen)  # the name, a link to the player's own page
        mine = cached_queries.rating_history(filters, src=src, player=chosen).iloc[::-1]
        st.subheader(page_kit.t("sessions_of", player=chosen))
        every = mine[["session_id", "played_date", "placement", "net", "change", "rating"]]
        if mixed:  # "3rd" of three or of four: the table's size beside each place
            sizes_of = cached_queries.query("session_placements", replace(filters, player=chosen), src=src)
            every = every.merge(sizes_of[["session_id", "table_size"]], on="session_id", how="left")
            every.insert(3, "table_size", every.pop("table_size"))
        if len(every) > LAST_SESSIONS:
            st.caption(page_kit.t("last_sessions", shown=LAST_SESSIONS, total=f"{len(every):,}"))
        export.table(
            every.head(LAST_SESSIONS),
            f"sessions-{chosen}",
            key="ratings_sessions",
            full=every,
            column_config={
                "session_id": page_kit.t("session"),
                "played_date": st.column_config.DateColumn(page_kit.t("day"), format="YYYY-MM-DD"),
                "placement": st.column_config.NumberColumn(page_kit.t("placement"), format="%d"),
                "table_size": st.column_config.NumberColumn(page_kit.t("table_size"), format="%d"),
                "net": st.column_config.NumberColumn(page_kit.t("net"), format="%d"),
                "change": st.column_config.NumberColumn(page_kit.t("rating_change"), format="%+.1f"),
                "rating": st.column_config.NumberColumn(page_kit.t("rating"), format="%.0f"),
            },
        )
