"""The Record page's seats (four, or the rule set's ``seats``), picked from the club's roster (``analytics/roster.py``):
a club with a roster offers its players only, and a new name takes an explicit "add to
the roster" step, so a typo never makes a new player. A club with no roster yet keeps the
free text inputs (nothing is added to a roster unasked)."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from analytics.roster import RosterError, add_player, club_names, load_roster
from dashboard import page_kit
from dashboard.record_draft import Draft, save_draft
from dashboard.safe_text import md

SUB_SEAT_KEY = "record_sub_seat"
SUB_NAME_KEY = "record_sub_name"
SUB_KEY = "record_substitute"
NEW_KEY = "record_new_player"
ADD_KEY = "record_add_player"
ADDED_KEY = "record_added_note"


def roster_of(warehouse: Path, club: str) -> list[str]:
    """The club's players the seats offer; none for no club, no roster or a bad file
    (whose error is shown)."""
    if not club.strip():
        return []
    try:
        return club_names(load_roster(warehouse), club.strip())
    except RosterError as error:
        st.error(page_kit.t("record_roster_bad", error=md(str(error))))
        return []


def add_to_roster(warehouse: Path, club: str) -> None:
    """The explicit step that puts a new name on the club's roster."""
    with st.expander(page_kit.t("record_roster_add"), expanded=False):
        name = st.text_input(page_kit.t("record_roster_new"), key=NEW_KEY)
        if st.button(page_kit.t("record_roster_add_button"), key=ADD_KEY):
            try:
                add_player(warehouse, club, name)
            except RosterError as error:
                st.error(page_kit.t("record_roster_refused", error=md(str(error))))
                return
            st.session_state[ADDED_KEY] = name.strip()
            st.session_state.pop(NEW_KEY, None)
            st.rerun()
    added = st.session_state.pop(ADDED_KEY, None)
    if added:
        st.success(page_kit.t("record_roster_added", name=md(added), club=md(club.strip())))


def seat_inputs(warehouse: Path, club: str, seats: int = 4) -> list[str]:
    """The names of the table's ``seats`` as picked (a roster's) or typed (no roster); ""
    for a seat not filled: three inputs at a three-seat table, no empty fourth."""
    players = roster_of(warehouse, club)
    if not players:
        if club.strip():
            st.caption(page_kit.t("record_roster_none", club=md(club.strip())))
        return [
            st.text_input(page_kit.t("record_player", n=n + 1), key=f"record_player_{n}")
            for n in range(seats)
        ]
    shown = {name: md(name) for name in players}  # precomputed: format_func reads no state
    picked = [
        st.selectbox(
            page_kit.t("record_player", n=n + 1),
            players,
            index=None,
            key=f"record_pick_{n}",
            format_func=shown.__getitem__,
            placeholder=page_kit.t("record_roster_pick"),
        )
        for n in range(seats)
    ]
    add_to_roster(warehouse, club)
    return [name or "" for name in picked]


def substitute_form(warehouse: Path, draft: Draft) -> None:
    """Between deals, a player leaves and a substitute takes the seat (换人): the next deals
    are played by the new table, the saved ones keep theirs, and the totals are per player."""
    deal = draft.current
    if deal is not None and (deal.events or draft.correcting()):
        return
    players = draft.session.players
    seated = {seat: md(players[seat]) for seat in range(len(players))}  # format_func reads no state
    with st.expander(page_kit.t("record_sub_title"), expanded=False):
        seat = st.selectbox(
            page_kit.t("record_sub_seat"), list(seated), key=SUB_SEAT_KEY, format_func=seated.__getitem__
        )
        roster = [n for n in roster_of(warehouse, draft.session.club or "") if n not in players]
        if roster:
            shown = {name: md(name) for name in roster}
            name = st.selectbox(
                page_kit.t("record_sub_name"), roster, index=None, key=SUB_NAME_KEY,
                format_func=shown.__getitem__, placeholder=page_kit.t("record_roster_pick"),
            )  # fmt: skip
        else:
            name = st.text_input(page_kit.t("record_sub_name"), key=SUB_NAME_KEY)
        if not st.button(page_kit.t("record_sub_button"), key=SUB_KEY, use_container_width=True):
            return
        try:
            draft.substitute(int(seat), name or "")
        except ValueError as error:
            st.error(page_kit.t("record_sub_refused", error=md(str(error))))
            return
        save_draft(warehouse, draft)
        st.rerun()
