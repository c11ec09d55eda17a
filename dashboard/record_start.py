"""The Record page's start (记分, dashboard/app_pages/record.py): continue a session in
progress, or start one: club, table, the rule set by its name with what changes the money,
its players (one a seat of the table the rule set plays) and the base."""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

import streamlit as st

from dashboard import page_kit, visitor
from dashboard.i18n import label
from dashboard.record_close import closed_note
from dashboard.record_draft import Draft, list_drafts, load_draft, save_draft
from dashboard.record_players import seat_inputs
from dashboard.safe_text import md
from engine.rules import RulesError, load_rules, preset_names
from engine.vocabulary import PRESET_NAMES, term
from ingest.sheets.record import SessionFacts

SID_KEY = "record_sid"  # the session being recorded, for this browser session
CUSTOM = "custom"


def owned_draft(warehouse: Any, session_id: str) -> bool:
    draft = load_draft(warehouse, session_id)
    return draft is not None and visitor.shows(draft.session.club)


# ------------------------------------------------------------------ start
def start_form(warehouse: Any) -> None:
    closed_note()
    kept = [sid for sid in list_drafts(warehouse) if visitor.club() is None or owned_draft(warehouse, sid)]
    if kept:
        st.subheader(page_kit.t("record_continue"))
        chosen = st.pills(
            page_kit.t("record_session_id"), kept, key="record_resume", label_visibility="collapsed"
        )
        if chosen:
            st.session_state[SID_KEY] = chosen
            st.rerun()
    st.subheader(page_kit.t("record_start"))
    if visitor.club() is not None:  # a club's recorder records for its club
        st.session_state["record_club"] = visitor.club()
    club = st.text_input(page_kit.t("record_club"), key="record_club", disabled=visitor.club() is not None)
    table = st.text_input(page_kit.t("record_table"), key="record_table")
    presets = [*PRESET_ORDER, *(p for p in preset_names() if p not in PRESET_ORDER), CUSTOM]
    shown = {p: preset_name(p, page_kit.lang()) for p in presets}  # format_func reads no state
    chosen_rules = st.segmented_control(
        page_kit.t("record_rules"), presets, default="standard", key="record_rules",
        format_func=shown.__getitem__,
    )  # fmt: skip
    if chosen_rules:
        st.caption(f"{page_kit.t('record_rules_money')}: {page_kit.t(f'record_rules_money_{chosen_rules}')}")
    with st.expander(page_kit.t("record_rules_all")):
        st.markdown("\n".join(f"- **{shown[p]}**: {page_kit.t(f'record_rules_money_{p}')}" for p in presets))
    override = ""
    if chosen_rules == CUSTOM:
        override = st.text_area(
            page_kit.t("record_override"),
            key="record_override",
            placeholder=page_kit.t("record_override_help"),
        )
    seats = table_seats(chosen_rules or "standard", override)
    names = seat_inputs(warehouse, club, seats)  # one a seat: no empty fourth at three
    base = st.number_input(page_kit.t("record_base"), min_value=1, value=1, step=1, key="record_base")
    default_id = "-".join(p for p in (club.strip(), date.today().isoformat(), table.strip()) if p)
    session_id = st.text_input(
        page_kit.t("record_session_id"), placeholder=default_id, key="record_sid_input"
    )
    if not st.button(
        page_kit.t("record_begin"), type="primary", key="record_begin", use_container_width=True
    ):
        return
    players = [name.strip() for name in names]
    if any(not name for name in players) or len(set(players)) != seats:
        st.error(page_kit.t("record_bad_players" if seats == 4 else "record_bad_players_n", n=seats))
        return
    rules: str | dict[str, Any] = chosen_rules or "standard"
    try:
        if chosen_rules == CUSTOM:
            spec = json.loads(override or "{}")
            if not isinstance(spec, dict):
                raise RulesError("rules must be a JSON object")
            rules = spec
        load_rules(rules)
    except (ValueError, RulesError) as error:
        st.error(page_kit.t("record_bad_rules", error=error))
        return
    chosen_id = session_id.strip() or default_id or "session"
    if load_draft(warehouse, chosen_id) is not None:  # never start over a session in progress
        st.error(page_kit.t("record_exists", session=md(chosen_id)))
        return
    session = SessionFacts(
        chosen_id, tuple(players), rules, int(base),
        club.strip() or None, table.strip() or None, datetime.now().strftime("%Y-%m-%dT%H:%M"),
    )  # fmt: skip
    draft = Draft(session)
    draft.current = draft.fresh_deal()
    save_draft(warehouse, draft)
    st.session_state[SID_KEY] = session.session_id
    st.rerun()


#: the rule sets in the order a club looks for them: the usual first
PRESET_ORDER = ("standard", "chengdu", "hongzhong", "online", "sanren", "duangouka", "novikov")


def preset_name(preset: str, lang: str) -> str:
    """A rule set by its name in the page's language (成都麻将 / Chengdu), never its bare id."""
    if preset == CUSTOM:
        return label("record_custom", "zh" if lang == "zh" else "en")
    return term(PRESET_NAMES, preset, lang) if preset in PRESET_NAMES else preset


def table_seats(chosen: str, override: str) -> int:
    """The seats of the rule set being picked (its players' inputs follow them): four
    where the rules cannot be read yet (the Begin button then says why)."""
    try:
        spec: Any = json.loads(override or "{}") if chosen == CUSTOM else chosen
        return load_rules(spec).seats if isinstance(spec, dict | str) else 4
    except (ValueError, RulesError):
        return 4
