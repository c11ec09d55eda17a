"""Overview: the club at a glance (deals, sessions, players, dates, every win: wins per
deal and the repeated wins of 血流成河), activity by week, the fan distribution (every
win) and the share of deals with findings; a club that plays at several table sizes sees
its deals, sessions and wins per deal split by size too (a three-player table wins less
often per deal than a four-player one)."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import cached_queries, charts, page_kit, table_size
from dashboard.term_labels import code_label

st.title(page_kit.t("page_overview"))
src = page_kit.page_source()
if src is not None:
    filters = page_kit.filters()
    overview = cached_queries.query("overview", filters, src=src)
    if overview.empty:
        st.info(page_kit.t("no_match"))
    else:
        row = overview.iloc[0]
        audit = cached_queries.query("findings_summary", filters, src=src).iloc[0]
        cols = st.columns(4)
        cols[0].metric(page_kit.t("deals"), page_kit.count(row["deals"]))
        cols[1].metric(page_kit.t("sessions"), page_kit.count(row["sessions"]))
        cols[2].metric(page_kit.t("players"), page_kit.count(row["players"]))
        cols[3].metric(page_kit.t("findings_share"), page_kit.pct(row["findings_share"]))
        days = st.columns(2)  # a date needs a wider column than a count (no "2026-0…")
        days[0].metric(page_kit.t("first_day"), page_kit.day_text(row["first_day"]))
        days[1].metric(page_kit.t("last_day"), page_kit.day_text(row["last_day"]))
        second = st.columns(3)
        second[0].metric(page_kit.t("findings"), page_kit.count(audit["findings"]))
        second[1].metric(page_kit.t("deals_with_findings_n"), page_kit.count(audit["deals_with_findings"]))
        second[2].metric(page_kit.t("invalid_deals"), page_kit.count(row["invalid_deals"]))

        if int(row["complete_deals"]):  # every win (血流成河: a seat may win again in a deal)
            third = st.columns(3)
            third[0].metric(page_kit.t("all_wins"), page_kit.count(row["wins"]))
            third[1].metric(page_kit.t("wins_per_deal"), page_kit.num(row["wins_per_deal"]))
            third[2].metric(page_kit.t("repeat_wins"), page_kit.count(row["repeat_wins"]))
        sizes = table_size.table_sizes(src) if filters.seats is None else []
        if len(sizes) > 1:  # like with like: the figures above split by table size
            split = [
                (int(size), cached_queries.query("overview", replace(filters, seats=int(size)), src=src))
                for size in sizes
            ]
            by_size = pd.DataFrame(
                [
                    {
                        "table_size": page_kit.t("seats_n", n=size),
                        "deals": int(part["deals"].iloc[0]),
                        "sessions": int(part["sessions"].iloc[0]),
                        "players": int(part["players"].iloc[0]),
                        "wins_per_deal": page_kit.plain(part["wins_per_deal"].iloc[0]),
                    }
                    for size, part in split
                    if not part.empty and int(part["deals"].iloc[0])
                ]
            )
            if not by_size.empty:
                st.markdown(f"**{page_kit.t('by_table_size')}**")
                page_kit.dataframe(
                    by_size, hide_index=True, height=page_kit.table_height(len(by_size)), key="overview_sizes",
                    column_config={
                        "table_size": page_kit.t("table_size"),
                        "deals": st.column_config.NumberColumn(page_kit.t("deals"), format="%d"),
                        "sessions": st.column_config.NumberColumn(page_kit.t("sessions"), format="%d"),
                        "players": st.column_config.NumberColumn(page_kit.t("players"), format="%d"),
                        "wins_per_deal": st.column_config.NumberColumn(page_kit.t("wins_per_deal"), format="%.2f"),
                    },
                )  # fmt: skip
        if int(row["sheet_deals"]):
            st.caption(
                page_kit.t("sheet_deals_in", sheets=int(row["sheet_deals"]), tiles=int(row["tile_deals"]))
            )
        activity = cached_queries.query("activity", filters, src=src)
        if not activity.empty:
            page_kit.chart(charts.activity_chart(activity, page_kit.tr()))
        left, right = st.columns(2)
        with left:
            fans = cached_queries.query("fan_by_total", filters, src=src)
            if fans.empty:
                st.caption(page_kit.t("no_wins"))
            else:
                page_kit.chart(charts.fan_total_chart(fans, page_kit.tr()))
        with right:
            counts = [int(row["ok_deals"]), int(row["findings_deals"]), int(row["invalid_deals"])]
            status = pd.DataFrame(
                {
                    "status": ["ok", "findings", "invalid"],
                    "status_label": [
                        page_kit.t("status_ok"),
                        page_kit.t("status_findings"),
                        page_kit.t("status_invalid"),
                    ],
                    "deals": counts,
                    "share": [c / max(1, sum(counts)) for c in counts],
                }
            )
            page_kit.chart(charts.status_chart(status, page_kit.tr()))
        codes = cached_queries.query("findings_by_code", filters, src=src)
        codes = codes[codes["severity"] == "error"] if not codes.empty else codes
        if not codes.empty:
            st.subheader(page_kit.t("top_codes"))
            top = codes.head(10)
            page_kit.dataframe(
                top.assign(code=[code_label(str(c), page_kit.lang()) for c in top["code"]]),
                hide_index=True,
                height=page_kit.table_height(len(top)),
                column_config={
                    "code": page_kit.t("code"),
                    "severity": None,
                    "findings": page_kit.t("findings"),
                    "deals": page_kit.t("deals"),
                    "sessions": page_kit.t("sessions"),
                },
            )
            page_kit.page_link("audit", page_kit.t("page_audit"), ":material/search:")
