"""The evening's result (本场结算): choose a session (or follow ``?session=SESSION_ID``),
then see each player's total, who pays whom with the fewest transfers, each deal's
payments with their reasons and the session's findings (linked to the replay and the
audit). The totals, payments and transfers download as CSV, the result as a PNG for the
club's group chat, and the page prints on paper (print CSS)."""

from __future__ import annotations

from html import escape
from typing import Any

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import cached_queries, money_view, page_kit, visitor
from dashboard.closing import money_of, read_closing
from dashboard.findings_view import row_text
from dashboard.player_links import linked, player_column
from dashboard.session_image import session_png
from dashboard.session_result import (
    SessionMoney,
    SessionResult,
    build_result,
    chat_text,
    csv_bytes,
    deal_label,
    file_stem,
    localised,
    money_frame,
    money_lines,
    payments_frame,
    session_money,
    status_label,
    totals_frame,
    transfer_lines,
    transfers_frame,
)
from dashboard.term_labels import code_label, rule_label, rules_label
from engine.money import MoneyRule, yuan

SESSION_KEY = "session_pick"
#: the money settings, each kept in the address (``?yuan=0.5&fee=fixed&fee_value=40&round=yuan``)
#: so a shared link shows the same money: (widget key, query parameter)
MONEY_PARAMS = (("point", "yuan"), ("fee", "fee"), ("fee_value", "fee_value"), ("rounding", "round"))
CLOSING_KEY = "session_money_closing"  # the session whose closing record filled the money
LINK_KEY = "session_link"  # the last ?session= followed
FINDINGS_LIMIT = 500

#: on paper: no sidebar, toolbar or buttons; tables not cut in the middle of a row
PRINT_CSS = """
<style>
@page { size: A4; margin: 12mm; }
@media print {
  [data-testid="stSidebar"], [data-testid="stHeader"], [data-testid="stToolbar"],
  [data-testid="stDownloadButton"], [data-testid="stSelectbox"], [data-testid="stDataFrame"],
  .cm-noprint { display: none !important; }
  .cm-print { display: block !important; }
  .st-key-session_screen_only { display: none !important; }
  [data-testid="stAppViewContainer"] > section, .block-container { padding: 0 !important; max-width: 100% !important; }
  .cm-settle li, [data-testid="stDataFrame"] { break-inside: avoid; }
  body { background: white !important; }
}
.cm-settle { font-size: 1.25rem; line-height: 2.1rem; margin: 0 0 .5rem 0; padding-left: 1.2rem; }
.cm-settle b { font-variant-numeric: tabular-nums; }
.cm-print { display: none; }
.cm-print table { border-collapse: collapse; width: 100%; font-size: 10pt; margin-bottom: 8pt; }
.cm-print th, .cm-print td { border-bottom: 1px solid #ccc; padding: 2pt 6pt; text-align: left; }
.cm-print td.n { text-align: right; font-variant-numeric: tabular-nums; }
.cm-print tr { break-inside: avoid; }
/* a table's toolbar (search, download, full screen) sits above its top edge: room for it,
   so it never covers the widget above (the 取整 select on a phone) */
.st-key-session_money_box, .st-key-session_deals_box { padding-top: 2.25rem; }
/* the totals in one row on a phone (Streamlit stacks columns below 640px) */
.st-key-session_totals_row [data-testid='stHorizontalBlock'] { flex-wrap: nowrap; gap: .3rem; }
.st-key-session_totals_row [data-testid='stColumn'] { min-width: 0 !important; width: auto !important; flex: 1 1 0 !important; }
.st-key-session_totals_row [data-testid='stMetricValue'] { font-size: 1.3rem; }
</style>
"""


def choose_session(src: cached_queries.Source) -> str | None:
    """The session picker under the shared filters; a ``?session=`` link chooses it."""
    linked = st.query_params.get("session")
    if linked and linked != st.session_state.get(LINK_KEY):
        st.session_state[LINK_KEY] = linked
        st.session_state[SESSION_KEY] = linked
    sessions = cached_queries.query(
        "session_list", page_kit.filters(), src=src, limit=cached_queries.PICKER_SESSIONS
    )
    ids = [str(s) for s in sessions["session_id"]]
    chosen = st.session_state.get(SESSION_KEY)
    if chosen and chosen not in ids:
        ids.insert(0, str(chosen))
    if not ids:
        st.info(page_kit.t("no_match"))
        return None
    if st.session_state.get(SESSION_KEY) not in ids:
        st.session_state[SESSION_KEY] = ids[0]
    session = str(st.selectbox(page_kit.t("session"), ids, key=SESSION_KEY))
    if st.query_params.get("session") != session:
        st.query_params["session"] = session  # the address names what is shown: shareable
        st.session_state[LINK_KEY] = session
    return session


def load(src: cached_queries.Source, session_id: str) -> SessionResult | None:
    header = cached_queries.sql("session_header", src=src, session_id=session_id)
    if header.empty or not visitor.shows(header["club"].iloc[0]):  # another club's: not there
        return None
    deals = cached_queries.sql("session_deals", src=src, session_id=session_id)
    ledger = cached_queries.sql("session_ledger", src=src, session_id=session_id)
    return build_result(header.iloc[0].to_dict(), deals, ledger)


def show_totals(result: SessionResult) -> None:
    st.subheader(page_kit.t("session_totals"))
    with st.container(key="session_totals_row"):  # one row on a phone too (see PRINT_CSS)
        cols = st.columns(len(result.players))
        for col, seat in zip(cols, result.ranking(), strict=True):
            col.metric(result.players[seat], f"{result.totals[seat]:+,}" if result.totals[seat] else "0")
    if result.invalid_deals:
        st.warning(page_kit.t("session_invalid", n=result.invalid_deals))
    totals = totals_frame(result, page_kit.lang())
    if "recorded" in totals and (totals["recorded"] != totals["total"]).any():
        st.warning(page_kit.t("session_recorded_differs"))
    counted = totals.assign(seat=totals["seat"] + 1)  # seats as people count them: 1 to 4
    page_kit.dataframe(
        linked(counted, club=result.club),
        hide_index=True,
        column_config={
            "place": page_kit.t("session_place"),
            "seat": page_kit.t("session_seat"),
            "player": player_column(page_kit.t("player")),
            "total": page_kit.t("session_total"),
            "recorded": page_kit.t("recorded"),
        },
        key="session_totals",
    )


def show_settlement(result: SessionResult) -> None:
    st.subheader(page_kit.t("settle_title"))
    st.caption(page_kit.t("settle_help"))
    if result.problem is not None:
        st.error(f"{page_kit.t('settle_unbalanced')} ({result.problem})")
        return
    lines = transfer_lines(result, page_kit.lang())
    if not lines:
        st.success(page_kit.t("settle_square"))
        return
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    st.html(f'<ol class="cm-settle" data-testid="cm-settle">{items}</ol>')
    page_kit.dataframe(
        linked(transfers_frame(result), ("payer", "payee"), result.club),
        hide_index=True,
        column_config={
            "payer": player_column(page_kit.t("payer")),
            "payee": player_column(page_kit.t("payee")),
            "amount": page_kit.t("amount"),
        },
        key="session_transfers",
    )


def _number(text: str | None) -> float:
    try:
        return max(0.0, float(text)) if text else 0.0
    except ValueError:
        return 0.0


def money_inputs(src: cached_queries.Source, session_id: str) -> MoneyRule | None:
    """The value of a point, the fee and the rounding: from the address first, else from
    the session's closing record (the Record page's close); kept in the address."""
    asked: dict[str, Any] = {name: st.query_params.get(param) for name, param in MONEY_PARAMS}
    if any(v is not None for v in asked.values()):
        for name in ("point", "fee_value"):
            asked[name] = None if asked[name] is None else _number(asked[name])
        money_view.seed("money", asked)
    elif st.session_state.get(CLOSING_KEY) != session_id:
        st.session_state[CLOSING_KEY] = session_id
        closed = read_closing(src.path, session_id)
        if closed is not None:
            for name in money_view.FIELDS:
                st.session_state.pop(f"money_{name}", None)
            money_view.seed("money", money_view.values_of(money_of(closed)))
    rule = money_view.money_widgets("money")
    for name, param in MONEY_PARAMS:
        value = st.session_state.get(f"money_{name}")
        wanted = (
            None
            if value in (None, 0.0, "none", "fen")
            else f"{value:g}"
            if isinstance(value, float)
            else str(value)
        )
        if wanted is None and param in st.query_params:
            del st.query_params[param]
        elif wanted is not None and st.query_params.get(param) != wanted:
            st.query_params[param] = wanted
    return rule


def show_money(src: cached_queries.Source, result: SessionResult) -> SessionMoney | None:
    """Who pays whom in 元 (between players) and each player's table fee; returns the
    money every export carries (the chat text, the CSV files, the PNG)."""
    st.subheader(page_kit.t("money_title"))
    st.caption(page_kit.t("money_help"))
    money = session_money(result, money_inputs(src, result.session_id))
    if money is None:
        return None
    box = st.container(key="session_money_box")  # room above the table for its toolbar
    box.dataframe(
        linked(money_frame(result, money), club=result.club),
        placeholder=page_kit.MISSING,
        hide_index=True,
        column_config={
            "place": page_kit.t("session_place"),
            "player": player_column(page_kit.t("player")),
            "total": page_kit.t("session_total"),
            "yuan": st.column_config.NumberColumn(page_kit.t("yuan_column"), format="%.2f"),
            "fee": st.column_config.NumberColumn(page_kit.t("money_fee_column"), format="%.2f"),
        },
        key="session_money",
    )
    lines = money_lines(result, money, page_kit.lang())
    if lines:
        st.html('<ol class="cm-settle">' + "".join(f"<li>{escape(line)}</li>" for line in lines) + "</ol>")
    if money.money.house:
        st.caption(page_kit.t("money_house_total", amount=yuan(money.money.house)))
    return money


def show_chat(result: SessionResult, money: SessionMoney | None) -> None:
    st.subheader(page_kit.t("chat_title"))
    st.caption(page_kit.t("chat_help"))
    st.code(chat_text(result, page_kit.lang(), money), language=None)


def show_deals(result: SessionResult) -> None:
    st.subheader(page_kit.t("session_deals"))
    lang = page_kit.lang()
    ids = [str(d) for d in result.deals["deal_id"]]
    deals = result.deals.assign(
        replay=[page_kit.replay_url(d) for d in ids],
        short=[deal_label(d, result.session_id, lang) for d in ids],  # not the id: it takes the width
        status=[status_label(str(s), lang) for s in result.deals["status"]],
    )
    nets = {f"net_{seat}": name for seat, name in enumerate(result.players)}
    st.container(key="session_deals_box").dataframe(  # room above the table for its toolbar
        deals[["short", *nets, "status", "findings", "replay"]],
        placeholder=page_kit.MISSING,
        hide_index=True,
        column_config={
            "short": st.column_config.TextColumn(page_kit.t("deal"), pinned=True),
            "replay": st.column_config.LinkColumn(
                page_kit.t("session_replay_link"), display_text=page_kit.t("session_replay_link")
            ),
            "status": page_kit.t("status"),
            "findings": page_kit.t("findings"),
            **nets,
        },
        key="session_deals",
    )
    st.subheader(page_kit.t("session_payments"))
    payments = payments_frame(result, page_kit.lang())
    payments = payments.assign(
        deal_id=[deal_label(str(d), result.session_id, lang) for d in payments["deal_id"]]
    )
    page_kit.dataframe(
        payments[["deal_id", "reason_label", "payer", "payee", "amount", "line"]],
        hide_index=True,
        column_config={
            "deal_id": page_kit.t("deal"),
            "line": page_kit.t("line"),
            "reason_label": page_kit.t("reason"),
            "payer": page_kit.t("payer"),
            "payee": page_kit.t("payee"),
            "amount": page_kit.t("amount"),
        },
        key="session_payments",
    )


def show_findings(src: cached_queries.Source, result: SessionResult) -> pd.DataFrame:
    st.subheader(page_kit.t("session_findings"))
    found = cached_queries.sql(
        "findings_list",
        src=src,
        code=None,
        session_id=result.session_id,
        player=None,
        limit=FINDINGS_LIMIT,
        club=None,
        date_from=None,
        date_to=None,
        rules=None,
    )
    st.page_link(
        page_kit.PAGES["audit"],
        label=page_kit.t("session_in_audit"),
        icon=":material/search:",
        query_params={"session": result.session_id},
    )
    if found.empty:
        st.caption(page_kit.t("no_findings"))
        return found
    table = found.assign(
        replay=[page_kit.replay_url(str(d)) if isinstance(d, str) else None for d in found["deal_id"]],
        rule=[rule_label(r, page_kit.lang()) if isinstance(r, str) else None for r in found["rule"]],
        code_name=[code_label(str(c), page_kit.lang()) for c in found["code"]],
        explanation=[row_text(row, page_kit.lang()) for row in found.to_dict(orient="records")],
    )
    page_kit.dataframe(
        linked(
            page_kit.blanks(table[["code_name", "replay", "line", "player", "explanation", "rule"]]),
            club=result.club,
        ),
        hide_index=True,
        column_config={
            "code_name": page_kit.t("code"),
            "replay": st.column_config.LinkColumn(page_kit.t("deal"), display_text=page_kit.REPLAY_TEXT),
            "line": page_kit.t("line"),
            "player": player_column(page_kit.t("player")),
            "explanation": st.column_config.TextColumn(page_kit.t("message"), width="large"),
            "rule": page_kit.t("rule"),
        },
        key="session_findings",
    )
    return found


def print_html(result: SessionResult, findings: pd.DataFrame) -> str:
    """What paper gets instead of the scrolling tables (which print only their visible
    rows): the totals and every payment, deal by deal, as plain HTML tables."""
    lang = page_kit.lang()
    head = "".join(f"<th>{escape(page_kit.t(k))}</th>" for k in ("session_place", "player", "session_total"))
    rows = "".join(
        f"<tr><td>{r['place']}</td><td>{escape(str(r['player']))}</td><td class='n'>{r['total']}</td></tr>"
        for r in totals_frame(result, lang).to_dict(orient="records")
    )
    keys = ("deal", "reason", "payer", "payee", "amount")
    pay_head = "".join(f"<th>{escape(page_kit.t(k))}</th>" for k in keys)
    pay_rows = "".join(
        f"<tr><td>{escape(str(r['deal_id']))}</td><td>{escape(str(r['reason_label']))}</td>"
        f"<td>{escape(str(r['payer']))}</td><td>{escape(str(r['payee']))}</td>"
        f"<td class='n'>{r['amount']}</td></tr>"
        for r in payments_frame(result, lang).to_dict(orient="records")
    )
    found_rows = (
        "".join(
            f"<tr><td>{escape(code_label(str(r['code']), lang))}</td><td>{escape(str(r['deal_id'] or ''))}</td>"
            f"<td>{escape(row_text(r, lang))}</td></tr>"
            for r in findings.to_dict(orient="records")
        )
        or f"<tr><td>{escape(page_kit.t('no_findings'))}</td></tr>"
    )
    return (
        f'<div class="cm-print"><h3>{escape(page_kit.t("session_totals"))}</h3>'
        f"<table><tr>{head}</tr>{rows}</table>"
        f"<h3>{escape(page_kit.t('session_payments'))}</h3><table><tr>{pay_head}</tr>{pay_rows}</table>"
        f"<h3>{escape(page_kit.t('session_findings'))}</h3><table>{found_rows}</table></div>"
    )


def show_exports(result: SessionResult, money: SessionMoney | None) -> None:
    """The CSV files and the PNG, with the money the page shows (元 after the fee); on the
    中文 page the CSV headers are Chinese, on the English one the column ids."""
    st.subheader(page_kit.t("session_export"))
    stem = file_stem(result)
    lang = page_kit.lang()
    cols = st.columns(4)
    files = (
        ("download_totals", totals_frame(result, lang, money), "totals"),
        ("download_payments", payments_frame(result, lang), "payments"),
        ("download_transfers", transfers_frame(result, money), "transfers"),
    )
    for col, (key, frame, name) in zip(cols, files, strict=False):
        col.download_button(
            page_kit.t(key),
            csv_bytes(localised(frame, lang)),
            file_name=f"{stem}-{name}.csv",
            mime="text/csv",
            key=f"session_csv_{name}",
            icon=":material/download:",
            width="stretch",
        )
    cols[3].download_button(
        page_kit.t("download_png"),
        session_png(result, lang, money),
        file_name=f"{stem}.png",
        mime="image/png",
        key="session_png",
        icon=":material/image:",
        type="primary",
        width="stretch",
    )
    st.caption(page_kit.t("print_hint"))


st.title(page_kit.t("session_title"))
st.html(PRINT_CSS)
src = page_kit.page_source()
if src is not None:
    session_id = choose_session(src)
    if session_id is not None:
        result = load(src, session_id)
        if result is None:
            st.warning(f"{page_kit.t('session_not_found')} ({session_id})")
        else:
            where = " · ".join(str(p) for p in (result.club, result.table, result.played_at) if p)
            st.caption(
                f"{where} · {page_kit.t('under_rules')} `{rules_label(result.rules, page_kit.lang())}` · {page_kit.t('base')} {result.base} · "
                f"{len(result.deals)} {page_kit.t('deals').lower()}"
            )
            show_totals(result)
            show_settlement(result)
            with st.container(key="session_screen_only"):  # paper gets print_html instead
                money = show_money(src, result)
                show_chat(result, money)
                show_exports(result, money)
                show_deals(result)
                findings = show_findings(src, result)
            st.html(print_html(result, findings))
