"""Fans: wins by base pattern and by total fan, 封顶率 and roots, and the rule sets side
by side."""

from __future__ import annotations

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import cached_queries, charts, page_kit
from dashboard.term_labels import pattern_label

st.title(page_kit.t("page_fans"))
src = page_kit.page_source()
if src is not None:
    filters = page_kit.filters()
    summary = cached_queries.query("fan_summary", filters, src=src)
    if summary.empty or int(summary["wins"].iloc[0]) == 0:
        st.info(page_kit.t("no_match"))
    else:
        row = summary.iloc[0]
        cols = st.columns(5)
        cols[0].metric(page_kit.t("wins"), page_kit.count(row["wins"]))
        cols[1].metric(page_kit.t("avg_fan"), page_kit.num(row["avg_fan"]))
        cols[2].metric(
            page_kit.t("avg_fan_uncapped_short"), page_kit.num(row["avg_fan_uncapped"]),
            help=page_kit.t("avg_fan_uncapped"),
        )  # fmt: skip
        cols[3].metric(page_kit.t("cap_rate"), page_kit.pct(row["cap_rate"]))
        cols[4].metric(page_kit.t("avg_roots"), page_kit.num(row["avg_roots"]))
        if int(row["sheet_wins"]):
            st.caption(page_kit.t("sheet_wins_in", sheets=int(row["sheet_wins"]), wins=int(row["wins"])))
        left, right = st.columns(2)
        with left:
            patterns = cached_queries.query("fan_by_pattern", filters, src=src)
            patterns = patterns.assign(
                label=[pattern_label(p, page_kit.lang()) for p in patterns["base_pattern"]]
            )
            page_kit.chart(charts.pattern_chart(patterns, page_kit.tr()))
        with right:
            page_kit.chart(
                charts.fan_total_chart(cached_queries.query("fan_by_total", filters, src=src), page_kit.tr())
            )
        left, right = st.columns(2)
        with left:
            page_kit.chart(
                charts.roots_chart(cached_queries.query("fan_roots", filters, src=src), page_kit.tr())
            )
        with right:
            by_rules = cached_queries.query("fan_by_rules", filters, src=src)
            st.subheader(page_kit.t("compare_rules"))
            table = (
                by_rules.assign(fan_wins=by_rules["fan"] * by_rules["wins"])
                .groupby("rules", as_index=False)
                .agg(wins=("wins", "sum"), fan_wins=("fan_wins", "sum"), capped=("capped", "sum"))
            )
            table["avg_fan"] = table["fan_wins"] / table["wins"]
            table["cap_rate"] = table["capped"] / table["wins"]
            page_kit.dataframe(
                page_kit.as_percent(table[["rules", "wins", "avg_fan", "cap_rate"]], ["cap_rate"]),
                hide_index=True,
                height=page_kit.table_height(len(table)),
                column_config={
                    "rules": page_kit.t("rules"),
                    "wins": page_kit.t("wins"),
                    "avg_fan": st.column_config.NumberColumn(page_kit.t("avg_fan"), format="%.2f"),
                    "cap_rate": page_kit.pct_column(page_kit.t("cap_rate")),
                },
                key="rules_table",
            )
        compare = pd.DataFrame(by_rules[["rules", "fan", "wins", "share"]])
        page_kit.chart(
            charts.fan_compare_chart(compare, page_kit.tr(), title_key="compare_title", group="rules")
        )
