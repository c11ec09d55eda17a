"""Closing a session on the Record page (散场): it asks first, shows the totals of the
saved deals and takes the money settings (value of a point, table fee, rounding), then
writes the closing record (``dashboard/closing.py``) and marks the draft closed, so the
session leaves "Continue a session"; the Session result page opens with its money."""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import Any, Final

import streamlit as st

from dashboard import money_view, page_kit
from dashboard.closing import write_closing
from dashboard.record_draft import Draft, save_draft
from dashboard.record_session import deal_number, player_totals, session_totals
from dashboard.safe_text import md
from engine.money import MoneyError, MoneyRule

ASK_KEY: Final = "record_close_ask"  # the session whose close waits for a yes
CLOSED_KEY: Final = "record_closed"  # the session just closed, for the start form's note


def saved_totals(draft: Draft) -> tuple[int, ...]:
    """The totals of the saved deals only (a deal under way is not part of the close)."""
    return session_totals(Draft(draft.session, list(draft.saved)))


def close_block(warehouse: Any, draft: Draft) -> bool:
    """The close button and its question; True once the session is closed."""
    session = draft.session
    if st.session_state.get(ASK_KEY) != session.session_id:
        if st.button(page_kit.t("record_end_session"), key="record_close", use_container_width=True):
            st.session_state[ASK_KEY] = session.session_id
            st.rerun()
        return False
    with st.container(border=True):
        st.warning(page_kit.t("record_close_ask", session=md(session.session_id)), icon=":material/help:")
        totals = saved_totals(draft)
        by_player = player_totals(draft, saved_only=True)  # per player: the seats may have changed
        st.markdown(" · ".join(f"{md(name)} {points:+d}" for name, points in by_player.items()))
        under_way = draft.current if draft.current is not None and draft.current.events else draft.held
        if under_way is not None:
            st.info(page_kit.t("record_close_unsaved", n=deal_number(under_way.deal_id, session.session_id)))
        st.caption(page_kit.t("money_help"))
        if draft.money is not None:  # the settings the live view showed 元 with, to start from
            with contextlib.suppress(TypeError, MoneyError):
                money_view.seed("record_money", money_view.values_of(MoneyRule(**draft.money)))
        rule = money_view.money_widgets("record_money")
        yes, no = st.columns(2)
        if no.button(page_kit.t("record_close_no"), key="record_close_no", use_container_width=True):
            st.session_state.pop(ASK_KEY, None)
            st.rerun()
        if not yes.button(page_kit.t("record_close_yes"), type="primary", key="record_close_yes",
                          use_container_width=True):  # fmt: skip
            return False
    closed_at = datetime.now().strftime("%Y-%m-%dT%H:%M")
    with contextlib.suppress(FileExistsError):  # closed before (another tab): the first close stands
        write_closing(
            warehouse,
            session.session_id,
            totals,
            rule,
            closed_at,
            by_player if draft.seats_changed() else None,
        )
    draft.closed_at = closed_at
    save_draft(warehouse, draft)
    st.session_state.pop(ASK_KEY, None)
    st.session_state[CLOSED_KEY] = session.session_id
    return True


def closed_note() -> None:
    """On the start form: the session just closed, with the way to its result."""
    closed = st.session_state.pop(CLOSED_KEY, None)
    if closed is None:
        return
    st.success(page_kit.t("record_closed", session=md(closed)))
    page_kit.page_link(
        "session", page_kit.t("record_see_session"), ":material/receipt_long:", {"session": closed}
    )
