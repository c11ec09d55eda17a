"""The table's live view (牌桌直播): what the Record page records, read-only, on every
player's phone, by the link (and QR code) the recorder shows. It needs no token but the
link's own (:mod:`dashboard.live_link`) and shows that one session only: the running
totals in points and, where the session has money settings, in 元; the deal under way
and the last deals with their payments. It refreshes itself every few seconds."""

from __future__ import annotations

from datetime import datetime
from typing import Final

import streamlit as st

from dashboard import page_kit
from dashboard.closing import money_of, read_closing
from dashboard.live_link import URL_TOKEN, live_draft
from dashboard.record_draft import Draft
from dashboard.record_session import deal_number, player_totals
from dashboard.record_text import event_text, payment_lines
from dashboard.safe_text import md
from dashboard.term_labels import rules_label
from dashboard.warehouse_location import warehouse_path
from engine.money import MoneyError, MoneyRule, settle_money, yuan
from ingest.sheets.record import DealFacts, WinFact, price

REFRESH_SECONDS: Final = 10
LAST_DEALS: Final = 5
#: a player's phone shows the table, not the dashboard's sidebar and filters
HIDE_FRAME: Final = (
    "<style>[data-testid='stSidebar'],[data-testid='stSidebarCollapsedControl'],"
    "[data-testid='stExpandSidebarButton']{display:none !important}</style>"
)


def money_rule(draft: Draft) -> MoneyRule | None:
    """The session's money settings: set while recording, else those of its close."""
    stored = draft.money
    if stored is None:
        closed = read_closing(warehouse_path(), draft.session.session_id)
        return None if closed is None else money_of(closed)
    try:
        return MoneyRule(**stored)
    except (TypeError, MoneyError):
        return None


def show_totals(draft: Draft) -> None:
    totals = player_totals(draft)
    rule = money_rule(draft)
    amounts: tuple[int, ...] | None = None
    if rule is not None:
        try:
            amounts = settle_money(list(totals.values()), rule).amounts
        except ValueError:
            amounts = None
    head = f"| {page_kit.t('player')} | {page_kit.t('live_points')} |"
    rule_line = "| --- | ---: |"
    if amounts is not None:
        head += f" {page_kit.t('yuan_unit')} |"
        rule_line += " ---: |"
    rows = []
    for n, (name, points) in enumerate(totals.items()):
        row = f"| {md(name)} | **{points:+d}** |"
        if amounts is not None:
            row += f" {yuan(amounts[n], sign=True)} |"
        rows.append(row)
    with st.container(key="live_totals"):
        st.markdown("\n".join([head, rule_line, *rows]))
        if rule is not None:
            st.caption(page_kit.t("live_money_rule", point=yuan(rule.fen_per_point)))


def deal_lines(draft: Draft, deal: DealFacts) -> list[str]:
    """Each event of a deal with its payments, and the 查叫 once entered."""
    session = draft.session_for(deal.deal_id)
    players = session.players
    if deal.nets is not None:  # quick entry: nothing but the nets
        return [f"- _{page_kit.t('record_quick_line')}_"]
    priced = price(session, deal)
    lines = []
    for number, fact in enumerate(deal.events):
        written = priced.patterns[number]
        shown = WinFact(fact.seat, fact.from_seat, written) if isinstance(fact, WinFact) and written else fact
        paid = "; ".join(payment_lines(priced.payments[number], players))
        lines.append(f"- {event_text(shown, priced.fans[number], players)}" + (f" — {paid}" if paid else ""))
    if deal.end is not None and priced.settlement:
        lines.append(
            f"- {page_kit.t('record_settlement')}: " + "; ".join(payment_lines(priced.settlement, players))
        )
    return lines or [f"- _{page_kit.t('record_no_events')}_"]


def show_deals(draft: Draft) -> None:
    session_id = draft.session.session_id
    current = draft.held or draft.current
    if current is not None and current.events and draft.closed_at is None:
        st.subheader(page_kit.t("live_under_way", n=deal_number(current.deal_id, session_id)))
        st.markdown("\n".join(deal_lines(draft, current)))
    shown = [d for d in draft.saved if not d.deleted][-LAST_DEALS:]
    if not shown:
        return
    st.subheader(page_kit.t("live_last_deals"))
    for deal in reversed(shown):
        scores = price(draft.session_for(deal.deal_id), deal).scores
        players = draft.session_for(deal.deal_id).players
        nets = " · ".join(f"{md(name)} {scores[s]:+d}" for s, name in enumerate(players))
        st.markdown(
            f"**{page_kit.t('record_deal', n=deal_number(deal.deal_id, session_id))}**: {nets}\n"
            + "\n".join(deal_lines(draft, deal))
        )


@st.fragment(run_every=REFRESH_SECONDS)
def live_body(token: str | None) -> None:
    """Read the session again and show it: every few seconds, on its own."""
    draft = live_draft(warehouse_path(), token)
    if draft is None:  # the link is wrong, or its session's draft went away
        st.warning(page_kit.t("live_unknown"), icon=":material/link_off:")
        return
    session = draft.session
    try:
        rules = rules_label(session.rule_set().name, page_kit.lang())
    except ValueError:
        rules = "?"
    stamp = datetime.now().strftime("%H:%M:%S")
    parts = [md(v) for v in (session.club, session.table, rules) if v]
    st.caption(" · ".join([*parts, page_kit.t("live_updated", at=stamp, s=REFRESH_SECONDS)]))
    if draft.closed_at is not None:
        st.info(page_kit.t("live_closed", at=draft.closed_at), icon=":material/flag:")
    show_totals(draft)
    show_deals(draft)


st.markdown(HIDE_FRAME, unsafe_allow_html=True)
st.title(page_kit.t("live_title"))
live_body(st.query_params.get(URL_TOKEN))
