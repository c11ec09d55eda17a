"""Pattern rates: how often a player wins with 清一色, 对对胡, 七对, 根, 杠上花... per win,
beside the club's rate under the same filters, and every player's rates in one table."""

from __future__ import annotations

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import charts_extra, data, export, ui
from dashboard.i18n import pattern_label

st.title(ui.t("page_patterns"))
src = ui.page_source()
if src is not None:
    filters = ui.filters()
    rates = data.query("pattern_rates", filters, src=src)
    if rates.empty:
        st.info(ui.t("no_wins"))
    else:
        lang = ui.lang()
        rates = rates.assign(label=[pattern_label(p, lang) for p in rates["pattern"]])
        players = sorted({str(p) for p in rates["player"]})
        chosen = st.selectbox(ui.t("choose_player"), players, key="patterns_player")
        mine = rates[rates["player"] == chosen].sort_values(["kind", "rate"], ascending=[True, False])
        st.caption(
            ui.t("pattern_rates_help", wins=int(mine["wins"].iloc[0]), club=int(rates["club_wins"].iloc[0]))
        )
        ui.chart(charts_extra.pattern_rates_chart(mine, chosen, ui.tr()))
        export.table(
            mine[["label", "kind", "hits", "wins", "rate", "club_rate"]].assign(
                kind=[ui.t(f"pattern_kind_{k}") for k in mine["kind"]]
            ),
            f"patterns-{chosen}",
            key="patterns_mine",
            column_config={
                "label": ui.t("pattern"),
                "kind": ui.t("pattern_kind"),
                "hits": st.column_config.NumberColumn(ui.t("wins_with"), format="%d"),
                "wins": st.column_config.NumberColumn(ui.t("wins"), format="%d"),
                "rate": st.column_config.NumberColumn(chosen, format="percent"),
                "club_rate": st.column_config.NumberColumn(ui.t("club_value"), format="percent"),
            },
        )
        st.subheader(ui.t("pattern_matrix_title"))
        matrix = rates.pivot_table(index="player", columns="label", values="rate", aggfunc="first")
        club = rates.drop_duplicates("label").set_index("label")["club_rate"]
        matrix = pd.concat([matrix, club.to_frame(ui.t("club_value")).T]).fillna(0.0)
        order = list(club.sort_values(ascending=False).index)
        matrix = matrix[order].reset_index(names=ui.t("player"))
        export.table(
            matrix,
            "patterns-all-players",
            key="patterns_matrix",
            column_config={col: st.column_config.NumberColumn(col, format="percent") for col in order},
        )
