"""Overview: the club at a glance (deals, sessions, players, dates), activity by week,
the fan distribution and the share of deals with findings."""

from __future__ import annotations

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import charts, data, ui
from dashboard.i18n import code_label

st.title(ui.t("page_overview"))
src = ui.page_source()
if src is not None:
    filters = ui.filters()
    overview = data.query("overview", filters, src=src)
    if overview.empty:
        st.info(ui.t("no_match"))
    else:
        row = overview.iloc[0]
        audit = data.query("findings_summary", filters, src=src).iloc[0]
        cols = st.columns(4)
        cols[0].metric(ui.t("deals"), ui.count(row["deals"]))
        cols[1].metric(ui.t("sessions"), ui.count(row["sessions"]))
        cols[2].metric(ui.t("players"), ui.count(row["players"]))
        cols[3].metric(ui.t("findings_share"), ui.pct(row["findings_share"]))
        second = st.columns(5)
        second[0].metric(ui.t("first_day"), ui.day_text(row["first_day"]))
        second[1].metric(ui.t("last_day"), ui.day_text(row["last_day"]))
        second[2].metric(ui.t("findings"), ui.count(audit["findings"]))
        second[3].metric(ui.t("deals_with_findings_n"), ui.count(audit["deals_with_findings"]))
        second[4].metric(ui.t("invalid_deals"), ui.count(row["invalid_deals"]))

        if int(row["sheet_deals"]):
            st.caption(ui.t("sheet_deals_in", sheets=int(row["sheet_deals"]), tiles=int(row["tile_deals"])))
        activity = data.query("activity", filters, src=src)
        if not activity.empty:
            ui.chart(charts.activity_chart(activity, ui.tr()))
        left, right = st.columns(2)
        with left:
            fans = data.query("fan_by_total", filters, src=src)
            if fans.empty:
                st.caption(ui.t("no_wins"))
            else:
                ui.chart(charts.fan_total_chart(fans, ui.tr()))
        with right:
            counts = [int(row["ok_deals"]), int(row["findings_deals"]), int(row["invalid_deals"])]
            status = pd.DataFrame(
                {
                    "status": ["ok", "findings", "invalid"],
                    "status_label": [ui.t("status_ok"), ui.t("status_findings"), ui.t("status_invalid")],
                    "deals": counts,
                    "share": [c / max(1, sum(counts)) for c in counts],
                }
            )
            ui.chart(charts.status_chart(status, ui.tr()))
        codes = data.query("findings_by_code", filters, src=src)
        codes = codes[codes["severity"] == "error"] if not codes.empty else codes
        if not codes.empty:
            st.subheader(ui.t("top_codes"))
            top = codes.head(10)
            st.dataframe(
                top.assign(code=[code_label(str(c), ui.lang()) for c in top["code"]]),
                hide_index=True,
                height=ui.table_height(len(top)),
                column_config={
                    "code": ui.t("code"),
                    "severity": None,
                    "findings": ui.t("findings"),
                    "deals": ui.t("deals"),
                    "sessions": ui.t("sessions"),
                },
            )
            ui.page_link("audit", ui.t("page_audit"), ":material/search:")
