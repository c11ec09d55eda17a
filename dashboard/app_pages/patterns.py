"""Pattern rates: how often a player wins with 清一色, 对对胡, 七对, 根, 杠上花... per win,
beside the club's rate under the same filters, and every player's rates in one table."""

from __future__ import annotations

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import cached_queries, charts, export, page_kit
from dashboard.player_links import player_link
from dashboard.term_labels import pattern_label

st.title(page_kit.t("page_patterns"))
src = page_kit.page_source()
if src is not None:
    filters = page_kit.filters()
    rates = cached_queries.query("pattern_rates", filters, src=src)
    if rates.empty:
        st.info(page_kit.t("no_wins"))
    else:
        lang = page_kit.lang()
        rates = rates.assign(label=[pattern_label(p, lang) for p in rates["pattern"]])
        players = sorted({str(p) for p in rates["player"]})
        chosen = st.selectbox(page_kit.t("choose_player"), players, key="patterns_player")
        player_link(chosen)  # the name, a link to the player's own page
        mine = rates[rates["player"] == chosen].sort_values(["kind", "rate"], ascending=[True, False])
        st.caption(
            page_kit.t(
                "pattern_rates_help", wins=int(mine["wins"].iloc[0]), club=int(rates["club_wins"].iloc[0])
            )
        )
        page_kit.chart(charts.pattern_rates_chart(mine, chosen, page_kit.tr()))
        export.table(
            page_kit.as_percent(
                mine[["label", "kind", "hits", "wins", "rate", "club_rate"]], ["rate", "club_rate"]
            ).assign(kind=[page_kit.t(f"pattern_kind_{k}") for k in mine["kind"]]),
            f"patterns-{chosen}",
            key="patterns_mine",
            column_config={
                "label": page_kit.t("pattern"),
                "kind": page_kit.t("pattern_kind"),
                "hits": st.column_config.NumberColumn(page_kit.t("wins_with"), format="%d"),
                "wins": st.column_config.NumberColumn(page_kit.t("wins"), format="%d"),
                "rate": page_kit.pct_column(chosen),
                "club_rate": page_kit.pct_column(page_kit.t("club_value")),
            },
        )
        st.subheader(page_kit.t("pattern_matrix_title"))
        matrix = rates.pivot_table(index="player", columns="label", values="rate", aggfunc="first")
        club = rates.drop_duplicates("label").set_index("label")["club_rate"]
        matrix = pd.concat([matrix, club.to_frame(page_kit.t("club_value")).T]).fillna(0.0)
        order = list(club.sort_values(ascending=False).index)
        matrix = matrix[order].reset_index(names=page_kit.t("player"))
        export.table(
            page_kit.as_percent(matrix, order),
            "patterns-all-players",
            key="patterns_matrix",
            column_config={col: page_kit.pct_column(col) for col in order},
        )
