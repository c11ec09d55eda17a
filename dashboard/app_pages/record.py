"""Record at the table (记分): a phone-sized page to keep a session's score sheet as it is
played. Start a session (club, table, four players, rule set, base), then per deal tap
each kong and win (patterns as chips, the fan shown as you pick) and, at the wall's end,
who is ready at what fan and who is 花猪. Every payment is priced by the engine
(:mod:`ingest.sheets.record`, the sheet audit's settlement core), shown with its reason,
and the session's totals run along. Saving writes the deal as sheet-deal lines under
``<warehouse>/uploads/`` and ingests it, as the Upload page does; a correction of a saved
deal is saved as its next revision. The session in progress is kept in
``<warehouse>/drafts/<session>.json`` and named in the URL (``?record=SESSION_ID``), so
a reload loses nothing (:mod:`dashboard.record_draft`).
"""

from __future__ import annotations

import json
import logging
from datetime import date, datetime
from typing import Any

import streamlit as st

from dashboard import page_kit
from dashboard.i18n import code_label, finding_message, label, pattern_label, reason_label
from dashboard.plain_errors import plain_error
from dashboard.record_draft import Draft, list_drafts, load_draft, safe_name, save_deal, save_draft
from dashboard.safe_text import md
from dashboard.upload_file import not_stored
from dashboard.warehouse_location import warehouse_path
from dashboard.write_access import may_write
from engine.fan import EXTRAS, PATTERNS
from engine.rules import Rules, RulesError, load_rules, preset_names
from engine.settlement import Transfer
from ingest.sheets.record import (
    KONG_KINDS,
    SEATS,
    DealFacts,
    EndFact,
    KongFact,
    Priced,
    SessionFacts,
    WinFact,
    picked_patterns,
    price,
    win_fan,
)
from ingest.warehouse import WarehouseError

URL_RECORD = "record"
SID_KEY = "record_sid"
STEP_KEY = "record_step"  # bumped after each recorded fact: the input chips start empty again
NOTE_KEY = "record_note"  # (deal id, revision, session id) of the last save
CUSTOM = "custom"
SELF = -1  # the "from" chip of a self-draw
#: extras a player picks (根 has its own count; 自摸加番 follows from the rules)
PICKED_EXTRAS = tuple(e for e in EXTRAS if e not in ("gen", "zimo"))
LANG = page_kit.lang()

st.markdown(
    "<style>div[data-testid='stButton'] button{min-height:3rem}</style>", unsafe_allow_html=True
)  # big tap targets on a phone


def word(key: str) -> str:
    """A label in the language of this run, for chip labels (``format_func`` is also called
    outside the run, where the session's language cannot be read)."""
    return label(key, LANG)


def step_key(name: str) -> str:
    return f"record_{name}_{st.session_state.get(STEP_KEY, 0)}"


def next_step() -> None:
    st.session_state[STEP_KEY] = st.session_state.get(STEP_KEY, 0) + 1


def open_draft(warehouse: Any) -> Draft | None:
    sid = st.session_state.get(SID_KEY) or st.query_params.get(URL_RECORD)
    if not sid:
        return None
    draft = load_draft(warehouse, sid)
    if draft is None:
        st.session_state.pop(SID_KEY, None)
        return None
    st.session_state[SID_KEY] = sid
    if st.query_params.get(URL_RECORD) != sid:
        st.query_params[URL_RECORD] = sid
    return draft


# ------------------------------------------------------------------ start
def start_form(warehouse: Any) -> None:
    kept = list_drafts(warehouse)
    if kept:
        st.subheader(page_kit.t("record_continue"))
        chosen = st.pills(
            page_kit.t("record_session_id"), kept, key="record_resume", label_visibility="collapsed"
        )
        if chosen:
            st.session_state[SID_KEY] = chosen
            st.rerun()
    st.subheader(page_kit.t("record_start"))
    club = st.text_input(page_kit.t("record_club"), key="record_club")
    table = st.text_input(page_kit.t("record_table"), key="record_table")
    names = [st.text_input(page_kit.t("record_player", n=n + 1), key=f"record_player_{n}") for n in SEATS]
    presets = [*preset_names(), CUSTOM]
    chosen_rules = st.segmented_control(
        page_kit.t("record_rules"), presets, default="standard", key="record_rules",
        format_func=lambda p: word("record_custom") if p == CUSTOM else p,
    )  # fmt: skip
    override = ""
    if chosen_rules == CUSTOM:
        override = st.text_area(
            page_kit.t("record_override"),
            key="record_override",
            placeholder=page_kit.t("record_override_help"),
        )
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
    if any(not name for name in players) or len(set(players)) != 4:
        st.error(page_kit.t("record_bad_players"))
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
        chosen_id, tuple(players), rules, int(base),  # type: ignore[arg-type]
        club.strip() or None, table.strip() or None, datetime.now().strftime("%Y-%m-%dT%H:%M"),
    )  # fmt: skip
    draft = Draft(session)
    draft.current = draft.fresh_deal()
    save_draft(warehouse, draft)
    st.session_state[SID_KEY] = session.session_id
    st.rerun()


# ------------------------------------------------------------------ one deal
def payment_lines(transfers: list[Transfer], names: tuple[str, ...]) -> list[str]:
    players = tuple(md(name) for name in names)
    return [
        page_kit.t(
            "record_pays", payer=players[t.payer], payee=players[t.payee], amount=t.amount,
            reason=reason_label(t.reason, page_kit.lang()),
        )
        for t in transfers
    ]  # fmt: skip


def event_text(fact: KongFact | WinFact, fan: int | None, names: tuple[str, ...]) -> str:
    players = tuple(md(name) for name in names)
    if isinstance(fact, KongFact):
        kind = page_kit.t(f"kong_kind_{fact.kind}")
        if fact.kind == "exposed" and fact.from_seat is not None:
            return page_kit.t(
                "record_kong_from", who=players[fact.seat], kind=kind, source=players[fact.from_seat]
            )
        return page_kit.t("record_kong_line", who=players[fact.seat], kind=kind)
    source = (
        page_kit.t("record_win_self")
        if fact.from_seat is None
        else page_kit.t("record_win_from", source=players[fact.from_seat])
    )
    patterns = " + ".join(pattern_label(p, page_kit.lang()) for p in fact.patterns)
    return page_kit.t(
        "record_win_line", who=players[fact.seat], source=source, patterns=patterns, fan=fan or "?"
    )


def show_events(deal: DealFacts, priced: Priced, players: tuple[str, ...]) -> None:
    st.subheader(page_kit.t("record_events"))
    if not deal.events:
        st.caption(page_kit.t("record_no_events"))
    for number, fact in enumerate(deal.events):
        paid = priced.payments[number]
        written = priced.patterns[number]
        shown = WinFact(fact.seat, fact.from_seat, written) if isinstance(fact, WinFact) and written else fact
        body = [f"**{number + 1}.** {event_text(shown, priced.fans[number], players)}"]
        body += [f"- {line}" for line in payment_lines(paid, players)]
        if isinstance(fact, KongFact) and fact.kind == "added" and not paid:
            body.append(f"- _{page_kit.t('record_pending')}_")
        st.markdown("\n".join(body))
    for finding in priced.findings:
        message = finding_message(finding.message, finding.message_zh, page_kit.lang())
        st.error(page_kit.t("record_problem", message=message), icon=":material/error:")


def won_seats(deal: DealFacts) -> list[int]:
    return [fact.seat for fact in deal.events if isinstance(fact, WinFact)]


def seat_pills(label: str, seats: list[int], players: tuple[str, ...], key: str) -> int | None:
    picked: int | None = st.pills(label, seats, format_func=lambda s: md(players[s]), key=key)
    return picked


def kong_input(draft: Draft, deal: DealFacts, still_in: list[int]) -> DealFacts | None:
    players = draft.session.players
    who = seat_pills(page_kit.t("record_who"), still_in, players, step_key("kong_who"))
    kind = st.segmented_control(
        page_kit.t("record_kind"), list(KONG_KINDS), format_func=lambda k: word(f"kong_kind_{k}"),
        key=step_key("kong_kind"),
    )  # fmt: skip
    source: int | None = None
    if kind == "exposed":
        others = [s for s in still_in if s != who]
        source = seat_pills(page_kit.t("record_from"), others, players, step_key("kong_from"))
    ready = who is not None and kind is not None and (kind != "exposed" or source is not None)
    if st.button(page_kit.t("record_add_kong"), type="primary", disabled=not ready, key=step_key("kong_add"),
                 use_container_width=True):  # fmt: skip
        assert who is not None and kind is not None
        return DealFacts(
            deal.deal_id, deal.dealer, (*deal.events, KongFact(who, kind, source)), None, deal.revision
        )
    return None


def pattern_options(rules: Rules) -> list[str]:
    bases = [p.id for p in PATTERNS if p.id != "pinghu" and rules.pattern_fan(p.id) is not None]
    extras = [e for e in PICKED_EXTRAS if e != "haidi" or rules.haidi]
    return bases + extras


def win_input(draft: Draft, deal: DealFacts, still_in: list[int], rules: Rules) -> DealFacts | None:
    players = draft.session.players
    who = seat_pills(page_kit.t("record_who"), still_in, players, step_key("win_who"))
    sources = [SELF, *(s for s in still_in if s != who)]
    source = st.pills(
        page_kit.t("record_from"), sources, key=step_key("win_from"),
        format_func=lambda s: word("record_self_draw") if s == SELF else md(players[s]),
    )  # fmt: skip
    picked = st.pills(
        page_kit.t("record_patterns"), pattern_options(rules), selection_mode="multi", key=step_key("win_patterns"),
        format_func=lambda p: pattern_label(p, LANG),
    )  # fmt: skip
    roots = st.segmented_control(
        page_kit.t("record_roots"), [0, 1, 2, 3, 4], default=0, key=step_key("win_roots")
    )
    win: WinFact | None = None
    if who is not None and source is not None:
        patterns = picked_patterns(list(picked or []), int(roots or 0))
        win = WinFact(who, None if source == SELF else int(source), patterns)
        fan, problems = win_fan(draft.session, deal, win)
        if fan is not None:
            capped = page_kit.t("record_fan_capped", cap=rules.max_fan) if fan == rules.max_fan else ""
            st.markdown(f"### {page_kit.t('record_fan', fan=fan)}{capped}")
        for finding in problems:
            message = finding_message(finding.message, finding.message_zh, page_kit.lang())
            st.warning(page_kit.t("record_problem", message=message), icon=":material/warning:")
            win = None
    if st.button(page_kit.t("record_add_win"), type="primary", disabled=win is None, key=step_key("win_add"),
                 use_container_width=True):  # fmt: skip
        assert win is not None
        return DealFacts(deal.deal_id, deal.dealer, (*deal.events, win), None, deal.revision)
    return None


def wall_end_input(draft: Draft, deal: DealFacts, still_in: list[int], rules: Rules) -> EndFact:
    players = draft.session.players
    st.subheader(page_kit.t("record_wall_end"))
    cap = rules.max_fan or 6
    pigs = st.pills(
        page_kit.t("record_pigs"), still_in, selection_mode="multi", format_func=lambda s: md(players[s]),
        key=step_key("end_pigs"),
    )  # fmt: skip
    ready: list[int | None] = [None, None, None, None]
    for seat in still_in:
        if seat in (pigs or []):
            continue
        fan = st.segmented_control(
            f"{md(players[seat])} · {page_kit.t('record_ready')}", [0, *range(1, cap + 1)], default=0,
            format_func=lambda f: word("record_not_ready") if f == 0 else str(f), key=step_key(f"end_ready_{seat}"),
        )  # fmt: skip
        ready[seat] = int(fan) if fan else None
    return EndFact(tuple(ready), tuple(sorted(pigs or [])))  # type: ignore[arg-type]


def deal_number(deal_id: str, session_id: str) -> str:
    return deal_id.removeprefix(f"{session_id}-")


def record_deal(warehouse: Any, draft: Draft, rules: Rules) -> None:
    deal = draft.current or draft.fresh_deal()
    session, players = draft.session, draft.session.players
    number = deal_number(deal.deal_id, session.session_id)
    if deal.revision > 1:
        st.header(page_kit.t("record_correcting", n=number, rev=deal.revision))
    else:
        st.header(page_kit.t("record_deal", n=number))
    dealer = st.segmented_control(
        page_kit.t("record_dealer"), list(SEATS), default=deal.dealer, format_func=lambda s: md(players[s]),
        key=f"record_dealer_{deal.deal_id}_{deal.revision}",
    )  # fmt: skip
    if dealer is not None and dealer != deal.dealer:
        deal = DealFacts(deal.deal_id, int(dealer), deal.events, deal.end, deal.revision)
        draft.current = deal
        save_draft(warehouse, draft)
    priced = price(session, deal)
    show_events(deal, priced, players)
    if deal.events and st.button(page_kit.t("record_undo"), key=step_key("undo"), use_container_width=True):
        draft.current = DealFacts(deal.deal_id, deal.dealer, deal.events[:-1], None, deal.revision)
        save_draft(warehouse, draft)
        next_step()
        st.rerun()
    won = won_seats(deal)
    still_in = [s for s in SEATS if s not in won]
    over = priced.end_reason != "wall_exhausted"
    changed: DealFacts | None = None
    end = EndFact()
    if over:
        st.success(page_kit.t("record_deal_over"))
    else:
        action = st.segmented_control(
            page_kit.t("record_events"), ["kong", "win"], default="win", key=step_key("action"),
            format_func=lambda a: word(f"record_{a}"), label_visibility="collapsed",
        )  # fmt: skip
        if action == "kong":
            changed = kong_input(draft, deal, still_in)
        else:
            changed = win_input(draft, deal, still_in, rules)
        end = wall_end_input(draft, deal, still_in, rules)
    if changed is not None:
        draft.current = changed
        save_draft(warehouse, draft)
        next_step()
        st.rerun()
    final = DealFacts(deal.deal_id, deal.dealer, deal.events, end, deal.revision)
    closing = price(session, final)
    if closing.settlement:
        st.markdown(f"**{page_kit.t('record_settlement')}**")
        st.markdown("\n".join(f"- {line}" for line in payment_lines(closing.settlement, players)))
    for finding in closing.findings:
        if finding.line == len(deal.events) + 2:
            message = finding_message(finding.message, finding.message_zh, page_kit.lang())
            st.error(page_kit.t("record_problem", message=message), icon=":material/error:")
    can_save = bool(deal.events or not over) and not closing.findings
    if st.button(page_kit.t("record_save"), type="primary", disabled=not can_save, key=step_key("save"),
                 use_container_width=True):  # fmt: skip
        save(warehouse, draft, final)
    if deal.revision > 1 and st.button(page_kit.t("record_cancel"), key=step_key("cancel")):
        draft.current = draft.fresh_deal()
        save_draft(warehouse, draft)
        next_step()
        st.rerun()


def save(warehouse: Any, draft: Draft, deal: DealFacts) -> None:
    """Save the ended deal; "Saved" only when it went into the warehouse as recorded.
    A warehouse or file error shows a plain message; its details go to the server's log."""
    try:
        path, summary = save_deal(warehouse, draft.session, deal)
    except (WarehouseError, OSError) as error:
        plain_error(error, "record save")
        return
    except ValueError as error:  # a fact the rules refuse: the recorder's to fix
        st.error(page_kit.t("record_save_failed", error=md(error)))
        return
    problem = not_stored(summary)
    if problem is not None and not summary.conflicts:
        logging.getLogger(__name__).warning("record save of %s: %s (%s)", deal.deal_id, problem, path)
        st.error(page_kit.t("record_not_stored", status=problem.split(" ")[0]))
        return
    if summary.conflicts:
        clash = summary.conflicts[0]["deal_id"]  # stored before with other content: kept, not replaced
        st.error(
            page_kit.t(
                "record_save_failed",
                error=f"{md(clash)}: {code_label('conflicting_duplicate', page_kit.lang())}",
            )
        )
        return
    ids = [d.deal_id for d in draft.saved]
    if deal.deal_id in ids:
        draft.saved[ids.index(deal.deal_id)] = deal
    else:
        draft.saved.append(deal)
    draft.current = draft.fresh_deal()
    save_draft(warehouse, draft)
    st.session_state[NOTE_KEY] = (deal.deal_id, deal.revision, draft.session.session_id)
    next_step()
    st.rerun()


# ------------------------------------------------------------------ the session
def session_totals(draft: Draft) -> tuple[int, ...]:
    totals = [0, 0, 0, 0]
    current = draft.current
    for deal in draft.saved:
        if current is not None and current.deal_id == deal.deal_id:
            deal = current  # a correction in progress counts instead
        for seat, points in enumerate(price(draft.session, deal).scores):
            totals[seat] += points
    if current is not None and current.deal_id not in {d.deal_id for d in draft.saved}:
        for seat, points in enumerate(price(draft.session, current).scores):
            totals[seat] += points
    return tuple(totals)


def show_totals(draft: Draft) -> None:
    st.subheader(page_kit.t("record_totals"))
    players = draft.session.players
    totals = session_totals(draft)
    for row in (0, 2):
        cols = st.columns(2)
        for offset in (0, 1):
            seat = row + offset
            cols[offset].metric(md(players[seat]), f"{totals[seat]:+d}")


def show_saved(warehouse: Any, draft: Draft) -> None:
    if not draft.saved:
        return
    st.subheader(page_kit.t("record_saved_deals"))
    players = draft.session.players
    for index, deal in enumerate(draft.saved):
        scores = price(draft.session, deal).scores
        text = " · ".join(f"{md(players[s])} {scores[s]:+d}" for s in SEATS)
        number = deal_number(deal.deal_id, draft.session.session_id)
        revision = f" ({page_kit.t('revision')} {deal.revision})" if deal.revision > 1 else ""
        cols = st.columns([3, 1])
        cols[0].markdown(f"**{page_kit.t('record_deal', n=number)}**{revision}: {text}")
        busy = draft.current is not None and bool(draft.current.events)  # a deal under way is not dropped
        if cols[1].button(
            page_kit.t("record_correct"),
            key=f"record_correct_{index}",
            use_container_width=True,
            disabled=busy,
        ):
            draft.current = DealFacts(deal.deal_id, deal.dealer, deal.events, None, deal.revision + 1)
            save_draft(warehouse, draft)
            next_step()
            st.rerun()


def session_link(session_id: str) -> None:
    page_kit.page_link(
        "session", page_kit.t("record_see_session"), ":material/receipt_long:", {"session": session_id}
    )


st.title(page_kit.t("page_record"))
st.caption(page_kit.t("record_help"))
warehouse = warehouse_path()
if not may_write(
    page_kit.t("record_token"),
    page_kit.t("record_token_help"),
    page_kit.t("record_read_only"),
    "record_token",
):
    st.stop()  # the Upload page's rule: drafts and saves are writes
draft = open_draft(warehouse)
if draft is None:
    start_form(warehouse)
else:
    session = draft.session
    try:
        rules = session.rule_set()
    except RulesError as error:
        st.error(page_kit.t("record_bad_rules", error=error))
        st.stop()
    where = " · ".join(md(v) for v in (session.club, session.table) if v)
    st.caption(
        f"{md(session.session_id)} · {where} · {md(rules.name)} · {page_kit.t('record_base')} {session.base}"
    )
    note = st.session_state.get(NOTE_KEY)
    if note is not None and note[2] == session.session_id:
        st.success(page_kit.t("record_saved", deal=md(note[0]), rev=note[1]))
        session_link(session.session_id)
    show_totals(draft)
    record_deal(warehouse, draft, rules)
    show_saved(warehouse, draft)
    if draft.saved:
        session_link(session.session_id)
    if st.button(page_kit.t("record_end_session"), key="record_close"):
        st.session_state.pop(SID_KEY, None)
        if URL_RECORD in st.query_params:
            del st.query_params[URL_RECORD]
        st.rerun()
    st.caption(page_kit.t("record_draft_kept", path=md(f"drafts/{safe_name(session.session_id)}.json")))
