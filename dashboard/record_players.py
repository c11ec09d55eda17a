"""The Record page's seats (four, or the rule set's ``seats``), picked from the club's roster (``analytics/roster.py``):
a club with a roster offers its players only, and a new name takes an explicit "add to
the roster" step, so a typo never makes a new player. A club with no roster yet keeps the
free text inputs (nothing is added to a roster unasked) and the roster is made right there:
the page adds, renames, aliases and removes players as ``chuanma roster`` does."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from analytics.roster import (
    RosterError,
    add_alias,
    add_player,
    club_names,
    load_roster,
    remove_player,
    rename_player,
)
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


ROSTER_ACTIONS = ("add", "rename", "alias", "remove")
ACTION_KEY = "record_roster_action"
WHO_KEY = "record_roster_who"
TO_KEY = "record_roster_to"
DO_KEY = "record_roster_do"
TYPED_KEY = "record_roster_add_typed"


def change_roster(warehouse: Path, club: str, action: str, name: str, other: str) -> str:
    """One roster change made on the page (the CLI's own functions, so the page and
    ``chuanma roster`` keep one rule); the note to show, or raises :class:`RosterError`."""
    club = club.strip()
    if action == "add":
        add_player(warehouse, club, other)
        return page_kit.t("record_roster_added", name=md(other.strip()), club=md(club))
    if action == "rename":
        rename_player(warehouse, club, name, other)
        return page_kit.t("record_roster_renamed", name=md(name), new=md(other.strip()))
    if action == "alias":
        add_alias(warehouse, club, other, name)
        return page_kit.t("record_roster_aliased", name=md(name), alias=md(other.strip()))
    remove_player(warehouse, club, name)
    return page_kit.t("record_roster_removed", name=md(name), club=md(club))


def roster_editor(warehouse: Path, club: str, players: list[str], typed: list[str] | None = None) -> None:
    """The club's roster made and kept on the page (a first night needs no laptop): add a
    player, rename one (the old name stays an alias), give an alias, remove one. Open
    while the club has no roster; ``typed`` names (no roster yet) can be put on it at once."""
    with st.expander(page_kit.t("record_roster_title", club=md(club.strip())), expanded=not players):
        fresh = [n.strip() for n in typed or [] if n.strip() and n.strip() not in players]
        if fresh and st.button(
            page_kit.t("record_roster_add_typed", names="、".join(md(n) for n in fresh)),
            key=TYPED_KEY, use_container_width=True,
        ):  # fmt: skip
            for name in dict.fromkeys(fresh):
                try:
                    add_player(warehouse, club, name)
                except RosterError as error:
                    st.error(page_kit.t("record_roster_refused", error=md(str(error))))
                    return
            st.session_state[ADDED_KEY] = page_kit.t(
                "record_roster_added", name="、".join(md(n) for n in fresh), club=md(club.strip())
            )
            for n, name in enumerate(typed or []):  # the seats keep the names just typed
                if name.strip():
                    st.session_state[f"record_pick_{n}"] = name.strip()
            st.rerun()
        actions = ROSTER_ACTIONS if players else ROSTER_ACTIONS[:1]
        words = {a: page_kit.t(f"record_roster_do_{a}") for a in actions}  # format_func reads no state
        action = st.segmented_control(
            page_kit.t("record_roster_what"), list(actions), default="add", key=ACTION_KEY,
            format_func=words.__getitem__,
        ) or "add"  # fmt: skip
        name = ""
        if action != "add":
            shown = {n: md(n) for n in players}
            name = st.selectbox(
                page_kit.t("record_roster_which"), players, index=None, key=WHO_KEY,
                format_func=shown.__getitem__, placeholder=page_kit.t("record_roster_pick"),
            ) or ""  # fmt: skip
        other = ""
        if action != "remove":
            key = NEW_KEY if action == "add" else TO_KEY
            other = st.text_input(page_kit.t(f"record_roster_new_{action}"), key=key)
        button = ADD_KEY if action == "add" else DO_KEY
        if st.button(page_kit.t(f"record_roster_button_{action}"), key=button, use_container_width=True):
            try:
                note = change_roster(warehouse, club, action, name, other)
            except RosterError as error:
                st.error(page_kit.t("record_roster_refused", error=md(str(error))))
                return
            st.session_state[ADDED_KEY] = note
            for key in (NEW_KEY, TO_KEY, WHO_KEY):
                st.session_state.pop(key, None)
            st.rerun()
    added = st.session_state.pop(ADDED_KEY, None)
    if added:
        st.success(added)


def seat_inputs(warehouse: Path, club: str, seats: int = 4) -> list[str]:
    """The names of the table's ``seats`` as picked (a roster's) or typed (no roster); ""
    for a seat not filled: three inputs at a three-seat table, no empty fourth."""
    players = roster_of(warehouse, club)
    if not players:
        if club.strip():
            st.caption(page_kit.t("record_roster_none_page", club=md(club.strip())))
        typed = [
            st.text_input(page_kit.t("record_player", n=n + 1), key=f"record_player_{n}")
            for n in range(seats)
        ]
        if club.strip():
            roster_editor(warehouse, club, players, typed)
        return typed
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
    roster_editor(warehouse, club, players)
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
