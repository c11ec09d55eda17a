"""Head-to-head: the matrix of points that flowed between players (a row's player paid the
column's), and the deals behind a cell, one click away."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import charts, data, ui
from dashboard.i18n import reason_label
from dashboard.safe_text import md

FROM_KEY = "h2h_from"
TO_KEY = "h2h_to"
APPLIED_KEY = "h2h_applied"


def clicked_cell(event: Any) -> tuple[str, str] | None:
    """The (payer, payee) of the clicked cell, if any."""
    try:
        points = event.selection[charts.H2H_SELECTION]
    except (AttributeError, KeyError, TypeError):
        return None
    if isinstance(points, list) and points and isinstance(points[0], dict):
        first = points[0]
        if "from_player" in first and "to_player" in first:
            return str(first["from_player"]), str(first["to_player"])
    return None


st.title(ui.t("page_h2h"))
src = ui.page_source()
if src is not None:
    filters = ui.filters()
    flows = data.query("head_to_head", filters, src=src)
    if flows.empty:
        st.info(ui.t("no_match"))
    else:
        st.caption(ui.t("h2h_help"))
        event = st.altair_chart(
            charts.h2h_chart(flows, ui.tr()), width="stretch", on_select="rerun", key="h2h_chart"
        )
        players = sorted({str(p) for p in flows["from_player"]} | {str(p) for p in flows["to_player"]})
        cell = clicked_cell(event)
        if cell is not None and cell != st.session_state.get(APPLIED_KEY):
            st.session_state[FROM_KEY], st.session_state[TO_KEY] = cell
            st.session_state[APPLIED_KEY] = cell
        top = flows.iloc[0]
        if st.session_state.get(FROM_KEY) not in players:
            st.session_state[FROM_KEY] = str(top["from_player"])
        if st.session_state.get(TO_KEY) not in players:
            st.session_state[TO_KEY] = str(top["to_player"])
        left, right = st.columns(2)
        payer = left.selectbox(ui.t("payer"), players, key=FROM_KEY)
        payee = right.selectbox(ui.t("payee"), players, key=TO_KEY)
        pair = flows[(flows["from_player"] == payer) & (flows["to_player"] == payee)]
        st.subheader(f"{ui.t('deals_behind')}: {md(payer)} → {md(payee)}")
        if pair.empty:
            st.info(ui.t("no_flows"))
        else:
            cols = st.columns(3)
            cols[0].metric(ui.t("points"), ui.count(pair["points"].iloc[0]))
            cols[1].metric(ui.t("transfers"), ui.count(pair["transfers"].iloc[0]))
            cols[2].metric(ui.t("pair_net"), ui.count(pair["net"].iloc[0]))
            deals = data.sql("flow_deals", src=src, payer=payer, payee=payee, **data.filter_params(filters))
            deals = deals.assign(
                replay=[ui.replay_url(d) for d in deals["deal_id"]],
                reasons=[", ".join(reason_label(str(r), ui.lang()) for r in rs) for rs in deals["reasons"]],
            )
            st.dataframe(
                deals[["replay", "played_date", "session_id", "points", "reasons", "transfers"]],
                hide_index=True,
                height=ui.table_height(len(deals)),
                column_config={
                    "replay": st.column_config.LinkColumn(
                        ui.t("deal"), display_text=ui.REPLAY_TEXT, width="large"
                    ),
                    "played_date": ui.date_column(ui.t("day")),
                    "session_id": ui.t("session"),
                    "points": ui.t("points"),
                    "reasons": ui.t("reasons"),
                    "transfers": ui.t("transfers"),
                },
                key="h2h_deals",
            )
            first = str(deals["deal_id"].iloc[0])
            ui.replay_link(first)
