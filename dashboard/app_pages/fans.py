"""Fans: wins by base pattern and by total fan, 封顶率 and roots, and the rule sets side
by side."""

from __future__ import annotations

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import charts, data, ui
from dashboard.i18n import pattern_label

st.title(ui.t("page_fans"))
src = ui.page_source()
if src is not None:
    filters = ui.filters()
    summary = data.query("fan_summary", filters, src=src)
    if summary.empty or int(summary["wins"].iloc[0]) == 0:
        st.info(ui.t("no_match"))
    else:
        row = summary.iloc[0]
        cols = st.columns(5)
        cols[0].metric(ui.t("wins"), ui.count(row["wins"]))
        cols[1].metric(ui.t("avg_fan"), ui.num(row["avg_fan"]))
        cols[2].metric(ui.t("avg_fan_uncapped"), ui.num(row["avg_fan_uncapped"]))
        cols[3].metric(ui.t("cap_rate"), ui.pct(row["cap_rate"]))
        cols[4].metric(ui.t("avg_roots"), ui.num(row["avg_roots"]))
        if int(row["sheet_wins"]):
            st.caption(ui.t("sheet_wins_in", sheets=int(row["sheet_wins"]), wins=int(row["wins"])))
        left, right = st.columns(2)
        with left:
            patterns = data.query("fan_by_pattern", filters, src=src)
            patterns = patterns.assign(label=[pattern_label(p, ui.lang()) for p in patterns["base_pattern"]])
            ui.chart(charts.pattern_chart(patterns, ui.tr()))
        with right:
            ui.chart(charts.fan_total_chart(data.query("fan_by_total", filters, src=src), ui.tr()))
        left, right = st.columns(2)
        with left:
            ui.chart(charts.roots_chart(data.query("fan_roots", filters, src=src), ui.tr()))
        with right:
            by_rules = data.query("fan_by_rules", filters, src=src)
            st.subheader(ui.t("compare_rules"))
            table = (
                by_rules.assign(fan_wins=by_rules["fan"] * by_rules["wins"])
                .groupby("rules", as_index=False)
                .agg(wins=("wins", "sum"), fan_wins=("fan_wins", "sum"), capped=("capped", "sum"))
            )
            table["avg_fan"] = table["fan_wins"] / table["wins"]
            table["cap_rate"] = table["capped"] / table["wins"]
            st.dataframe(
                ui.as_percent(table[["rules", "wins", "avg_fan", "cap_rate"]], ["cap_rate"]),
                hide_index=True,
                height=ui.table_height(len(table)),
                column_config={
                    "rules": ui.t("rules"),
                    "wins": ui.t("wins"),
                    "avg_fan": st.column_config.NumberColumn(ui.t("avg_fan"), format="%.2f"),
                    "cap_rate": ui.pct_column(ui.t("cap_rate")),
                },
                key="rules_table",
            )
        compare = pd.DataFrame(by_rules[["rules", "fan", "wins", "share"]])
        ui.chart(charts.fan_compare_chart(compare, ui.tr(), title_key="compare_title", group="rules"))
