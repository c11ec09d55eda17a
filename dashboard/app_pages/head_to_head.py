"""Head-to-head: the matrix of points that flowed between players (a row's player paid the
column's), and the deals behind a cell, one click away."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import cached_queries, charts, page_kit
from dashboard.player_links import player_link
from dashboard.safe_text import md
from dashboard.term_labels import reason_label

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


st.title(page_kit.t("page_h2h"))
src = page_kit.page_source()
if src is not None:
    filters = page_kit.filters()
    flows = cached_queries.query("head_to_head", filters, src=src)
    if flows.empty:
        st.info(page_kit.t("no_match"))
    else:
        st.caption(page_kit.t("h2h_help"))
        event = st.altair_chart(
            charts.h2h_chart(flows, page_kit.tr()), width="stretch", on_select="rerun", key="h2h_chart"
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
        payer = left.selectbox(page_kit.t("payer"), players, key=FROM_KEY)
        payee = right.selectbox(page_kit.t("payee"), players, key=TO_KEY)
        with left:  # each name a link to the player's own page
            player_link(payer)
        with right:
            player_link(payee)
        pair = flows[(flows["from_player"] == payer) & (flows["to_player"] == payee)]
        st.subheader(f"{page_kit.t('deals_behind')}: {md(payer)} → {md(payee)}")
        if pair.empty:
            st.info(page_kit.t("no_flows"))
        else:
            cols = st.columns(3)
            cols[0].metric(page_kit.t("points"), page_kit.count(pair["points"].iloc[0]))
            cols[1].metric(page_kit.t("transfers"), page_kit.count(pair["transfers"].iloc[0]))
            cols[2].metric(page_kit.t("pair_net"), page_kit.count(pair["net"].iloc[0]))
            deals = cached_queries.sql(
                "flow_deals", src=src, payer=payer, payee=payee, **cached_queries.filter_params(filters)
            )
            deals = deals.assign(
                replay=[page_kit.replay_url(d) for d in deals["deal_id"]],
                reasons=[
                    ", ".join(reason_label(str(r), page_kit.lang()) for r in rs) for rs in deals["reasons"]
                ],
            )
            page_kit.dataframe(
                deals[["replay", "played_date", "session_id", "points", "reasons", "transfers"]],
                hide_index=True,
                height=page_kit.table_height(len(deals)),
                column_config={
                    "replay": st.column_config.LinkColumn(
                        page_kit.t("deal"), display_text=page_kit.REPLAY_TEXT, width="large"
                    ),
                    "played_date": page_kit.date_column(page_kit.t("day")),
                    "session_id": page_kit.t("session"),
                    "points": page_kit.t("points"),
                    "reasons": page_kit.t("reasons"),
                    "transfers": page_kit.t("transfers"),
                },
                key="h2h_deals",
            )
            first = str(deals["deal_id"].iloc[0])
            page_kit.replay_link(first)
