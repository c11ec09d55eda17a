"""The Record page's session part (记分): the running totals and the saved deals, each
to correct or delete. Both write the deal's next revision, so nothing stored is
overwritten; a deal under way waits aside (``Draft.held``) and comes back after. The save
itself is the page's (``save``: it writes, ingests and says what happened).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import streamlit as st

from dashboard import page_kit
from dashboard.record_draft import Draft, save_draft
from dashboard.record_inputs import next_step
from dashboard.safe_text import md
from ingest.sheets.record import DealFacts, price

DELETE_KEY = "record_delete"  # the saved deal id whose deletion waits for a yes
Save = Callable[[Any, Draft, DealFacts], None]


def deal_number(deal_id: str, session_id: str) -> str:
    return deal_id.removeprefix(f"{session_id}-")


def session_totals(draft: Draft) -> tuple[int, ...]:
    """Each seat's sum over the saved deals, the deal kept aside and the deal being
    recorded (a correction counts instead of its saved revision; 查叫 once entered)."""
    deals = {deal.deal_id: deal for deal in draft.saved}
    for deal in (draft.held, draft.current):
        if deal is not None:
            deals[deal.deal_id] = deal
    totals = [0] * len(draft.session.players)  # one a seat of the table
    for deal in deals.values():
        if deal.deleted:
            continue
        for seat, points in enumerate(price(draft.session, deal).scores):
            totals[seat] += points
    return tuple(totals)


def player_totals(draft: Draft, *, saved_only: bool = False) -> dict[str, int]:
    """Each player's sum, by name (a player who left keeps what they won or lost, a
    substitute counts from their first deal): the table's players first, in seat order."""
    deals = {deal.deal_id: deal for deal in draft.saved}
    for deal in () if saved_only else (draft.held, draft.current):
        if deal is not None:
            deals[deal.deal_id] = deal
    totals = dict.fromkeys(draft.session.players, 0)
    for deal in deals.values():
        if deal.deleted:
            continue
        session = draft.session_for(deal.deal_id)
        for name, points in zip(session.players, price(session, deal).scores, strict=True):
            totals[name] = totals.get(name, 0) + points
    return totals


def show_totals(draft: Draft) -> None:
    """The running totals in one row (a phone's first screen keeps room for the deal)."""
    totals = list(player_totals(draft).items())  # per player: the seats may have changed
    with st.container(key="record_totals"):
        for column, (name, points) in zip(st.columns(len(totals)), totals, strict=True):
            column.metric(md(name), f"{points:+d}")


def saved_line(draft: Draft, deal: DealFacts) -> str:
    """One saved deal on one line: its short number, then each player's points."""
    number = deal_number(deal.deal_id, draft.session.session_id)
    revision = f" ({page_kit.t('revision')} {deal.revision})" if deal.revision > 1 else ""
    title = f"**{page_kit.t('record_deal', n=number)}**{revision}"
    if deal.deleted:
        return f"{title}: _{page_kit.t('revision_deleted')}_"
    session = draft.session_for(deal.deal_id)
    scores = price(session, deal).scores
    return f"{title}: " + " · ".join(f"{md(name)} {scores[s]:+d}" for s, name in enumerate(session.players))


def show_saved(warehouse: Any, draft: Draft, save: Save) -> None:
    """The saved deals, one line each, newest first; correcting or deleting one (both
    saved as its next revision) is picked in one place below, so a night of twenty deals
    does not push the close off the phone's screen."""
    if not draft.saved:
        return
    st.subheader(page_kit.t("record_saved_deals"))
    st.markdown("  \n".join(saved_line(draft, deal) for deal in reversed(draft.saved)))
    live = [index for index, deal in enumerate(draft.saved) if not deal.deleted]
    if not live:
        return
    session_id = draft.session.session_id
    numbers = {i: page_kit.t("record_deal", n=deal_number(draft.saved[i].deal_id, session_id)) for i in live}
    busy = draft.correcting()  # one correction at a time
    with st.expander(
        page_kit.t("record_saved_actions"), expanded=st.session_state.get(DELETE_KEY) is not None
    ):
        index = st.selectbox(
            page_kit.t("record_saved_pick"), live, index=len(live) - 1, key=f"record_saved_pick_{len(draft.saved)}",
            format_func=numbers.__getitem__,
        )  # fmt: skip
        if index is None:
            return
        deal = draft.saved[index]
        number = deal_number(deal.deal_id, session_id)
        cols = st.columns(2)
        if cols[0].button(
            page_kit.t("record_correct"),
            key=f"record_correct_{index}",
            use_container_width=True,
            disabled=busy,
        ):
            set_aside(draft)
            draft.current = replace(deal, revision=deal.revision + 1)
            save_draft(warehouse, draft)
            next_step()
            st.rerun()
        if cols[1].button(
            page_kit.t("record_delete"), key=f"record_delete_{index}", use_container_width=True, disabled=busy
        ):
            st.session_state[DELETE_KEY] = deal.deal_id
        if st.session_state.get(DELETE_KEY) == deal.deal_id and not busy:
            confirm_delete(warehouse, draft, deal, index, number, save)


def set_aside(draft: Draft) -> None:
    """Keep the deal under way, whole, while a saved deal is corrected or deleted."""
    if draft.current is not None and not draft.correcting():
        draft.held = draft.current


def confirm_delete(
    warehouse: Any, draft: Draft, deal: DealFacts, index: int, number: str, save: Save
) -> None:
    """Ask once; yes saves the deal's next revision marked deleted (nothing is erased)."""
    st.warning(page_kit.t("record_delete_ask", n=number), icon=":material/delete:")
    if st.button(page_kit.t("record_delete_yes"), type="primary", key=f"record_delete_yes_{index}",
                 use_container_width=True):  # fmt: skip
        st.session_state.pop(DELETE_KEY, None)
        set_aside(draft)
        save(warehouse, draft, replace(deal, revision=deal.revision + 1, deleted=True))
    if st.button(page_kit.t("record_delete_no"), key=f"record_delete_no_{index}", use_container_width=True):
        st.session_state.pop(DELETE_KEY, None)
        st.rerun()
