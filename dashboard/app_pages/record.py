"""Record at the table (记分): a phone-sized page to keep a session's score sheet as it is
played. Start a session (club, table, rule set, its players: four, or three or two where
the rule set's ``seats`` says so, base), then per deal tap
each kong and win (patterns as chips, the fan shown as you pick) and, at the wall's end,
who is ready at what fan and who is 花猪. Every payment is priced by the engine
(:mod:`ingest.sheets.record`, the sheet audit's settlement core), shown with its reason,
and the session's totals run along. Saving writes the deal as sheet-deal lines under
``<warehouse>/uploads/`` and ingests it, as the Upload page does; a correction of a saved
deal is saved as its next revision. The session in progress is kept in
``<warehouse>/drafts/<session>.json`` and named in the URL (``?record=SESSION_ID``), so
a reload loses nothing (:mod:`dashboard.record_draft`). Any event of the deal can be
edited or removed in place; the chips are :mod:`dashboard.record_inputs` (which show the
sheet audit's finding before a fact is added), the totals and the saved deals (corrected
or deleted as a revision) :mod:`dashboard.record_session`.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import asdict, replace
from typing import Any
from urllib.parse import urlsplit

import streamlit as st
import streamlit.components.v1 as components

from dashboard import money_view, page_kit, visitor
from dashboard.findings_view import finding_said
from dashboard.i18n import label
from dashboard.live_link import live_token, live_url, qr_png
from dashboard.record_close import close_block
from dashboard.record_draft import Draft, load_draft, safe_name, save_deal, save_draft
from dashboard.record_inputs import fact_input, next_step, step_key, wall_end_input
from dashboard.record_players import substitute_form
from dashboard.record_session import deal_number, show_saved, show_totals
from dashboard.record_start import SID_KEY, start_form
from dashboard.record_text import event_text, payment_lines
from dashboard.safe_text import md
from dashboard.term_labels import code_label, rules_label
from dashboard.upload_file import not_stored
from dashboard.warehouse_location import warehouse_path
from dashboard.write_access import may_write
from engine.money import MoneyError, MoneyRule
from engine.rules import Rules, RulesError
from ingest.sheets.record import (
    DealFacts,
    EndFact,
    KongFact,
    Priced,
    WinFact,
    price,
    seats_after,
)
from ingest.warehouse import WarehouseError

URL_RECORD = "record"
NOTE_KEY = "record_note"  # (deal id, revision, session id) of the last save
EMPTY_KEY = "record_empty"  # the deal id whose save as an empty 流局 waits for a yes
LAST_KEY = "record_last"  # (deal id, revision, event number) of the event just added
MODE_KEY = "record_mode"  # "events" (tap each kong and win) or "nets" (quick entry), kept for the next deals
SCROLL_KEY = "record_scroll"  # the run after an Add scrolls the confirmation into view, once
#: a phone keeps its scroll position over a rerun, so the list that grew above pushes the
#: confirmation down: this brings it (and the next event's chips under it) into view
SCROLL_SCRIPT = (
    "<script>const box = window.parent.document.querySelector('.st-key-record_last');"
    "if (box) box.scrollIntoView({block: 'start', behavior: 'instant'});</script>"
)
LANG = page_kit.lang()

st.markdown(
    "<style>div[data-testid='stButton'] button{min-height:3rem}"
    # a phone's first screen: a smaller title, the totals in one row (Streamlit stacks
    # columns below 640px), the last event's confirmation and the save kept apart
    "h1{font-size:1.6rem !important;padding-top:0 !important}"
    ".st-key-record_totals [data-testid='stHorizontalBlock']{flex-wrap:nowrap;gap:.3rem}"
    ".st-key-record_totals [data-testid='stColumn']{min-width:0 !important;width:auto !important;flex:1 1 0 !important}"
    ".st-key-record_totals [data-testid='stMetricValue']{font-size:1.15rem}"
    ".st-key-record_totals [data-testid='stMetricLabel'] p{font-size:.8rem}"
    ".st-key-record_totals [data-testid='stMetric']{padding:0}"
    ".st-key-record_last{scroll-margin-top:4.5rem}"  # clear of the app's top bar once scrolled to
    "</style>",
    unsafe_allow_html=True,
)  # big tap targets on a phone


def word(key: str) -> str:
    """A label in the language of this run, for chip labels (``format_func`` is also called
    outside the run, where the session's language cannot be read)."""
    return label(key, LANG)


def open_draft(warehouse: Any) -> Draft | None:
    sid = st.session_state.get(SID_KEY) or st.query_params.get(URL_RECORD)
    if not sid:
        return None
    draft = load_draft(warehouse, sid)
    if draft is not None and not visitor.shows(draft.session.club):  # another club's draft: not there
        draft = None
    if draft is None or draft.closed_at is not None:  # a closed session records no more
        if draft is not None:
            st.info(page_kit.t("record_was_closed", session=md(sid), at=draft.closed_at))
        st.session_state.pop(SID_KEY, None)
        return None
    st.session_state[SID_KEY] = sid
    if st.query_params.get(URL_RECORD) != sid:
        st.query_params[URL_RECORD] = sid
    return draft


# ------------------------------------------------------------------ one deal
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
        last = number == len(deal.events) - 1 and deal.end is None  # paid once the next move shows no rob
        if isinstance(fact, KongFact) and fact.kind == "added" and not paid and last:
            body.append(f"- _{page_kit.t('record_pending')}_")
        st.markdown("\n".join(body))
    for finding in priced.findings:
        message = finding_said(finding, page_kit.lang(), players, 1, md)  # a sheet's seats 1-4
        st.error(page_kit.t("record_problem", message=message), icon=":material/error:")


def keep(warehouse: Any, draft: Draft, deal: DealFacts) -> DealFacts:
    """The deal being recorded as changed by a tap, written to the draft at once."""
    draft.current = deal
    save_draft(warehouse, draft)
    return deal


def edit_pick(deal: DealFacts) -> int | None:
    """Which recorded event to edit in place (its number's chip), if any."""
    if not deal.events:
        return None
    picked: int | None = st.pills(
        page_kit.t("record_edit_pick"), list(range(len(deal.events))), format_func=lambda i: str(i + 1),
        key=step_key("edit_pick"),
    )  # fmt: skip
    return picked


def edit_event(draft: Draft, deal: DealFacts, index: int, rules: Rules) -> DealFacts | None:
    """The chips of event ``index`` as recorded: replace it, remove it, or keep it. Seats
    that left before it are out (a winner, unless under 血流成河 it stays in); what changes
    after it is the audit's to check again."""
    old = deal.events[index]
    before = replace(deal, events=deal.events[:index], end=None)
    seats, _ = seats_after(rules, before.events)
    n = index + 1
    st.subheader(page_kit.t("record_edit_title", n=n))
    _, fact = fact_input(draft.session_for(deal.deal_id), before, seats, rules, f"edit{index}_", old, LANG)
    rest = deal.events[index + 1 :]
    if st.button(page_kit.t("record_edit_replace", n=n), type="primary", disabled=fact is None,
                 key=step_key("edit_replace"), use_container_width=True):  # fmt: skip
        assert fact is not None
        return replace(deal, events=(*deal.events[:index], fact, *rest))
    if st.button(
        page_kit.t("record_edit_remove", n=n), key=step_key("edit_remove"), use_container_width=True
    ):
        return replace(deal, events=(*deal.events[:index], *rest))
    if st.button(page_kit.t("record_edit_cancel"), key=step_key("edit_cancel"), use_container_width=True):
        next_step()
        st.rerun()
    return None


def add_event(draft: Draft, deal: DealFacts, still_in: list[int], rules: Rules) -> DealFacts | None:
    """The chips of the next kong or win, and its Add button."""
    action, fact = fact_input(
        draft.session_for(deal.deal_id), replace(deal, end=None), still_in, rules, "", None, LANG
    )
    text = page_kit.t("record_add_kong" if action == "kong" else "record_add_win")
    if st.button(text, type="primary", disabled=fact is None, key=step_key(f"{action}_add"),
                 use_container_width=True):  # fmt: skip
        assert fact is not None
        return replace(deal, events=(*deal.events, fact))
    return None


def save_button(warehouse: Any, draft: Draft, deal: DealFacts, final: DealFacts, allowed: bool) -> None:
    """Save; a deal with nothing in it (no kong, no win, no 查叫 payment) asks first."""
    if st.button(page_kit.t("record_save"), disabled=not allowed, key=step_key("save"),
                 icon=":material/save:", use_container_width=True):  # fmt: skip
        if deal.events or price(draft.session, final).settlement:
            save(warehouse, draft, final)
        else:
            st.session_state[EMPTY_KEY] = deal.deal_id
    if st.session_state.get(EMPTY_KEY) != deal.deal_id or deal.events:
        return
    st.warning(page_kit.t("record_empty_ask"), icon=":material/help:")
    if st.button(page_kit.t("record_empty_yes"), type="primary", key=step_key("save_empty"),
                 use_container_width=True):  # fmt: skip
        st.session_state.pop(EMPTY_KEY, None)
        save(warehouse, draft, final)
    if st.button(page_kit.t("record_empty_no"), key=step_key("save_empty_no"), use_container_width=True):
        st.session_state.pop(EMPTY_KEY, None)
        st.rerun()


def confirm_last(deal: DealFacts, priced: Priced, players: tuple[str, ...]) -> None:
    """The event just added and its payments, above the next event's chips and scrolled
    into view once (on a phone the event list is out of view by then): the recorder sees
    what was charged to whom, and taps on."""
    last = st.session_state.get(LAST_KEY)
    if last is None or last[:2] != (deal.deal_id, deal.revision) or last[2] >= len(deal.events):
        return
    number = last[2]
    fact = deal.events[number]
    written = priced.patterns[number]
    shown = WinFact(fact.seat, fact.from_seat, written) if isinstance(fact, WinFact) and written else fact
    lines = [f"{number + 1}. {event_text(shown, priced.fans[number], players)}"]
    lines += [f"- {line}" for line in payment_lines(priced.payments[number], players)]
    if isinstance(fact, KongFact) and fact.kind == "added" and not priced.payments[number]:
        lines.append(f"- _{page_kit.t('record_pending')}_")
    with st.container(border=True, key="record_last"):  # not a success box: those say what was saved
        st.markdown(
            f":green[:material/check_circle: **{page_kit.t('record_just_added')}**] " + "\n".join(lines)
        )
    if st.session_state.pop(SCROLL_KEY, False):
        components.html(SCROLL_SCRIPT, height=0)


def quick_mode(deal: DealFacts) -> bool:
    """Whether this deal is entered as nets only (quick entry): the recorder's choice, kept
    for the next deals; a saved quick deal being corrected opens as one."""
    modes = {"events": page_kit.t("record_mode_events"), "nets": page_kit.t("record_mode_nets")}
    if deal.nets is not None:
        st.session_state[MODE_KEY] = "nets"
    mode = st.segmented_control(
        page_kit.t("record_mode"), list(modes), key=MODE_KEY, format_func=modes.__getitem__,
        default="events", label_visibility="collapsed",
    )  # fmt: skip
    return mode == "nets"


def quick_entry(warehouse: Any, draft: Draft, deal: DealFacts, players: tuple[str, ...]) -> None:
    """Each player's points for the deal, adding up to zero, saved as a net-only sheet deal:
    the audit can check only the zero sum and the totals, and its report says so (the
    ``net_only`` warning)."""
    st.caption(page_kit.t("record_quick_help"))
    was = deal.nets or (0,) * len(players)
    nets = [
        int(st.number_input(md(name), value=int(was[seat]), step=1, key=step_key(f"net_{seat}")))
        for seat, name in enumerate(players)
    ]
    total = sum(nets)
    if total:
        st.warning(page_kit.t("record_quick_sum", sum=f"{total:+d}"), icon=":material/calculate:")
    st.divider()
    if st.button(
        page_kit.t("record_quick_save"), key=step_key("net_save"), icon=":material/save:",
        disabled=bool(total) or not any(nets), use_container_width=True,
    ):  # fmt: skip
        save(warehouse, draft, replace(deal, events=(), end=EndFact(), nets=tuple(nets)))
    if deal.revision > 1 and st.button(page_kit.t("record_cancel"), key=step_key("cancel")):
        draft.current, draft.held = draft.held or draft.fresh_deal(), None
        save_draft(warehouse, draft)
        next_step()
        st.rerun()


def record_deal(warehouse: Any, draft: Draft, rules: Rules) -> None:
    deal = draft.current or draft.fresh_deal()
    session = draft.session_for(deal.deal_id)  # a correction: who played that deal
    players = session.players
    number = deal_number(deal.deal_id, session.session_id)
    if deal.revision > 1:
        st.header(page_kit.t("record_correcting", n=number, rev=deal.revision))
    else:
        st.header(page_kit.t("record_deal", n=number))
    if draft.held is not None:
        st.info(page_kit.t("record_held", n=deal_number(draft.held.deal_id, session.session_id)))
    dealer = st.segmented_control(
        page_kit.t("record_dealer"), list(session.seats), default=deal.dealer,
        format_func=lambda s: md(players[s]),
        key=f"record_dealer_{deal.deal_id}_{deal.revision}",
    )  # fmt: skip
    if dealer is not None and dealer != deal.dealer:
        deal = keep(warehouse, draft, replace(deal, dealer=int(dealer)))
    if not deal.events and quick_mode(deal):  # a table that keeps only the nets
        quick_entry(warehouse, draft, deal, players)
        return
    priced = price(session, replace(deal, end=None))  # the events; 查叫 below
    show_events(deal, priced, players)
    if deal.events and st.button(page_kit.t("record_undo"), key=step_key("undo"), use_container_width=True):
        keep(warehouse, draft, replace(deal, events=deal.events[:-1]))
        next_step()
        st.rerun()
    still_in, never_won = seats_after(rules, deal.events)  # under 血流成河 a winner stays in
    over = priced.end_reason != "wall_exhausted"
    editing = edit_pick(deal)
    # one step's inputs at a time, on a phone: the 查叫 chips once the wall is empty (open
    # again on a reload of a deal whose 查叫 was entered; a correction opens on its events)
    wall_end = (
        not over
        and editing is None
        and st.toggle(
            page_kit.t("record_wall_end_open"),
            value=deal.end is not None and deal.revision == 1,
            key=step_key("wall_open"),
        )
    )
    confirm_last(deal, priced, players)  # the event just added, the next one's chips right under it
    changed: DealFacts | None = None
    if editing is not None:
        changed = edit_event(draft, deal, editing, rules)
    elif over:
        rest = len(players) != 4 and priced.end_reason == "three_won"  # at three seats, two won
        st.success(page_kit.t("record_deal_over_rest" if rest else "record_deal_over"))
    elif not wall_end:
        changed = add_event(draft, deal, still_in, rules)
        if changed is not None:  # confirmed on the next run, scrolled to once
            st.session_state[LAST_KEY] = (deal.deal_id, deal.revision, len(changed.events) - 1)
            st.session_state[SCROLL_KEY] = True
    if changed is not None:
        keep(warehouse, draft, changed)
        next_step()
        st.rerun()
    end = EndFact() if over else deal.end or EndFact()  # the 查叫 as entered, while its chips are closed
    entered = None if over else deal.end
    if wall_end:
        end = wall_end_input(players, never_won, rules, deal.end, LANG)  # 查叫: who never won
        entered = end if deal.end is not None or end != EndFact() else None
    if entered != deal.end:  # the running totals count the 查叫 as soon as it is entered
        deal = keep(warehouse, draft, replace(deal, end=entered))
    final = replace(deal, end=end)
    closing = price(session, final)
    st.divider()  # the save stands apart from 记胡: another look, not the next tap down
    if closing.settlement:
        st.markdown(f"**{page_kit.t('record_settlement')}**")
        st.markdown("\n".join(f"- {line}" for line in payment_lines(closing.settlement, players)))
    for finding in closing.findings:
        if finding.line == len(deal.events) + 2:
            message = finding_said(finding, page_kit.lang(), players, 1, md)
            st.error(page_kit.t("record_problem", message=message), icon=":material/error:")
    save_button(warehouse, draft, deal, final, bool(deal.events or not over) and not closing.findings)
    if deal.revision > 1 and st.button(page_kit.t("record_cancel"), key=step_key("cancel")):
        draft.current, draft.held = draft.held or draft.fresh_deal(), None
        save_draft(warehouse, draft)
        next_step()
        st.rerun()


def save(warehouse: Any, draft: Draft, deal: DealFacts) -> None:
    """Save the ended deal; "Saved" only when it went into the warehouse as recorded.
    A warehouse or file error shows a plain message; its details go to the server's log."""
    try:
        path, summary = save_deal(warehouse, draft.session_for(deal.deal_id), deal)
    except (WarehouseError, OSError) as error:
        page_kit.plain_error(error, "record save")
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
    if draft.deal_players:  # the seats changed in this session: who played it, kept with it
        draft.deal_players.setdefault(deal.deal_id, draft.session_for(deal.deal_id).players)
    if deal.deal_id in ids:
        draft.saved[ids.index(deal.deal_id)] = deal
    else:
        draft.saved.append(deal)
    draft.current = draft.fresh_deal()
    save_draft(warehouse, draft)
    st.session_state[NOTE_KEY] = (deal.deal_id, deal.revision, draft.session.session_id)
    next_step()
    st.rerun()


def page_base() -> str:
    """The dashboard's address as this browser reached it (scheme, host, path prefix), for
    a link another phone opens; "" where it cannot be told (the link is then relative)."""
    url = str(st.context.url or "")
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return ""
    path = parts.path.rstrip("/")
    path = path[: -len("/record")] if path.endswith("/record") else path
    return f"{parts.scheme}://{parts.netloc}{path}"


def live_block(warehouse: Any, draft: Draft) -> None:
    """The table's live view for every player: its QR code and link (made the first time
    this is drawn), and the money settings it shows 元 with (kept in the draft)."""
    with st.expander(page_kit.t("live_share"), icon=":material/qr_code_2:"):
        token = live_token(warehouse, draft)
        link = live_url(page_base(), token, LANG)
        st.caption(page_kit.t("live_share_help"))
        with st.container(key="record_live_qr"):
            st.image(qr_png(link), width=222, caption=page_kit.t("live_scan"))
        st.code(link, language=None)
        if draft.money is not None:
            with contextlib.suppress(TypeError, MoneyError):
                money_view.seed("record_live_money", money_view.values_of(MoneyRule(**draft.money)))
        st.caption(page_kit.t("live_money_help"))
        rule = money_view.money_widgets("record_live_money")
        wanted = None if rule is None else asdict(rule)
        if wanted != draft.money:
            draft.money = wanted
            save_draft(warehouse, draft)


def session_link(session_id: str) -> None:
    page_kit.page_link(
        "session", page_kit.t("record_see_session"), ":material/receipt_long:", {"session": session_id}
    )


st.title(page_kit.t("page_record"))
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
    st.caption(page_kit.t("record_help"))  # a session under way needs the first screen for its totals
    start_form(warehouse)
else:
    session = draft.session
    try:
        rules = session.rule_set()
    except RulesError as error:
        st.error(page_kit.t("record_bad_rules", error=error))
        st.stop()
    parts = [session.session_id, session.club, session.table, rules_label(rules.name, LANG)]
    st.caption(" · ".join([*(md(v) for v in parts if v), f"{page_kit.t('record_base')} {session.base}"]))
    note = st.session_state.get(NOTE_KEY)
    if note is not None and note[2] == session.session_id:
        gone = any(d.deal_id == note[0] and d.deleted for d in draft.saved)
        st.success(page_kit.t("record_deleted" if gone else "record_saved", deal=md(note[0]), rev=note[1]))
        session_link(session.session_id)
    if draft.resume_held():  # a correction was saved: the deal under way comes back
        save_draft(warehouse, draft)
    totals_box = st.container()  # filled after the deal, so a 查叫 just entered counts
    live_block(warehouse, draft)
    record_deal(warehouse, draft, rules)
    substitute_form(warehouse, draft)
    with totals_box:
        show_totals(draft)
    show_saved(warehouse, draft, save)
    if draft.saved:
        session_link(session.session_id)
    if close_block(warehouse, draft):  # asked, confirmed, the closing record written
        st.session_state.pop(SID_KEY, None)
        if URL_RECORD in st.query_params:
            del st.query_params[URL_RECORD]
        st.rerun()
    st.caption(page_kit.t("record_draft_kept", path=f"`drafts/{safe_name(session.session_id)}.json`"))
