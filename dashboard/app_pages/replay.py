"""Deal replay: choose a session and a deal (or follow a link with ``?deal=``), then step
through it with the slider or the buttons: the four hands, melds, discards and the wall
drawn as tiles, the ledger growing with each payment and its reason, each finding at its
event. The one page that reads events: one deal's, replayed through the rules engine."""

from __future__ import annotations

from html import escape

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import cached_queries, page_kit, visitor
from dashboard.deal_steps import DealReplay, Step, StepFinding
from dashboard.finding_html import finding_html
from dashboard.findings_view import seat_base
from dashboard.review_view import show_step_review
from dashboard.safe_text import md
from dashboard.term_labels import (
    code_label,
    end_reason_label,
    pattern_label,
    reason_label,
    rule_label,
    rules_label,
    win_kind_label,
)
from dashboard.tiles_view import CSS, SUIT_CHARS, board_html
from engine.tiles import SUITS, WILD, rank_of, suit_of

SESSION_KEY = "replay_session"
DEAL_KEY = "replay_deal"
STEP_KEY = "replay_step"
FOR_KEY = "replay_for"  # the deal the step belongs to
LINK_KEY = "replay_link"  # the last ?deal= followed
LINE_KEY = "replay_open_line"  # the line of the finding a link asked to open at
ONLY_KEY = "replay_only_findings"
STATUSES = ("ok", "findings", "invalid")


def tile_text(tile: int | None) -> str:
    if tile == WILD:
        return "红中"
    return "" if tile is None else f"{rank_of(tile)}{SUIT_CHARS[suit_of(tile)]}"


def event_text(step: Step, replay: DealReplay) -> str:
    """What happened at a step, in words, with the players' names."""
    names = replay.players
    who = names[step.seat] if step.seat is not None and 0 <= step.seat < 4 else "?"
    tile = tile_text(step.tile)
    if step.kind == "deal":
        return page_kit.t("ev_deal", p=names[replay.dealer])
    if step.kind == "exchange":
        return page_kit.t("ev_exchange", d=step.detail or "")
    if step.kind == "void":
        suit = SUIT_CHARS[SUITS.index(step.detail)] if step.detail in ("m", "p", "s") else "?"
        return page_kit.t("ev_void", p=who, suit=suit)
    if step.kind in ("draw", "discard", "pong"):
        return page_kit.t(f"ev_{step.kind}", p=who, tile=tile)
    if step.kind == "kong":
        return page_kit.t(
            "ev_kong", p=who, kind=reason_label(f"kong_{step.detail}", page_kit.lang()), tile=tile
        )
    if step.kind == "hu":
        if step.from_seat is None:
            return page_kit.t("ev_hu_self", p=who, tile=tile)
        return page_kit.t("ev_hu_from", p=who, q=names[step.from_seat], tile=tile)
    return page_kit.t("ev_end", reason=end_reason_label(step.detail, page_kit.lang()))


def move(delta: int, last: int) -> None:
    st.session_state[STEP_KEY] = max(0, min(last, int(st.session_state.get(STEP_KEY, 0)) + delta))


def go(index: int) -> None:
    st.session_state[STEP_KEY] = index


def choose_deal(src: cached_queries.Source) -> str | None:
    """Session and deal pickers; a ``?deal=`` link chooses both."""
    linked = st.query_params.get("deal")
    if linked and linked != st.session_state.get(LINK_KEY):
        st.session_state[LINK_KEY] = linked
        header = cached_queries.sql("deal_header", src=src, deal_id=linked)
        if header.empty or not visitor.shows(header["club"].iloc[0]):  # another club's: not there
            st.warning(f"{page_kit.t('deal_not_found')} ({md(linked)})")
        else:
            st.session_state[SESSION_KEY] = str(header["session_id"].iloc[0])
            st.session_state[DEAL_KEY] = linked
            st.session_state[FOR_KEY] = None  # open it at its first finding, or the linked one
            line = st.query_params.get("line")
            st.session_state[LINE_KEY] = int(line) if line and line.isdigit() else None
    only = st.checkbox(page_kit.t("only_findings"), key=ONLY_KEY)
    sessions = cached_queries.query(
        "session_list", page_kit.filters(), src=src, limit=cached_queries.PICKER_SESSIONS, findings_only=only
    )
    ids = [str(s) for s in sessions["session_id"]]
    chosen_session = st.session_state.get(SESSION_KEY)
    if chosen_session and chosen_session not in ids:
        ids.insert(0, str(chosen_session))
    if not ids:
        st.info(page_kit.t("no_match"))
        return None
    if st.session_state.get(SESSION_KEY) not in ids:  # the latest session with tiles to draw
        tiles = sessions[sessions["tile_deals"] > 0]["session_id"].astype(str)
        st.session_state[SESSION_KEY] = next((s for s in tiles if s in ids), ids[0])
    left, right = st.columns([3, 2])
    session = left.selectbox(page_kit.t("session"), ids, key=SESSION_KEY)
    deals = cached_queries.sql("session_deals", src=src, session_id=session)
    if deals.empty:
        return None
    deal_ids = [str(d) for d in deals["deal_id"]]
    status = dict(zip(deal_ids, deals["status"], strict=True))
    if st.session_state.get(DEAL_KEY) not in deal_ids:
        st.session_state[DEAL_KEY] = deal_ids[0]
    marks = {"ok": "✓", "findings": "!", "invalid": "✗"}
    chosen = str(
        right.selectbox(
            page_kit.t("deal"),
            deal_ids,
            key=DEAL_KEY,
            format_func=lambda d: f"{marks.get(str(status[d]), '')} {d}",
        )
    )
    if st.query_params.get("deal") != chosen:  # the address names the deal shown
        st.query_params["deal"] = chosen
        if "line" in st.query_params:
            del st.query_params["line"]
        st.session_state[LINK_KEY] = chosen
    return chosen


def opening_step(replay: DealReplay, line: int | None) -> int:
    """Where a link opens a deal: at the finding of ``line`` (the one clicked in the
    audit), else at the step of ``line`` (a decision the Review page lists), else at the
    first finding."""
    found = replay.finding_steps()
    if line is not None:
        for step in replay.steps:
            if any(f.line == line for f in step.findings):
                return step.index
        for step in replay.steps:
            if step.line == line:
                return step.index
    return found[0] if found else 0


def finding_block(finding: StepFinding, players: list[str], first: int) -> str:
    """A finding as the page shows it, as HTML: its code, line and rule, its explanation
    with the players' names and its tiles drawn as the board draws them (all text escaped)."""
    line = f"{page_kit.t('line_n', n=finding.line)}" if finding.line is not None else ""
    named = rule_label(finding.rule, page_kit.lang()) if finding.rule else ""
    rule = f" · {page_kit.t('rule_ref', rule=named)}" if named else ""
    message = finding_html(finding, page_kit.lang(), players, first)
    head = escape(f"{code_label(finding.code, page_kit.lang())}")
    return f'<div class="cm-finding" role="alert"><b>{head}</b> ({escape(line + rule)}): {message}</div>'


def show(replay: DealReplay, src: cached_queries.Source) -> None:
    """The page for one deal: its header, the step controls, the board at the chosen step,
    then the ledger so far beside every finding of the deal."""
    keep_step_in_range(replay)
    st.caption(deal_caption(replay))
    index = step_controls(replay)
    show_board(replay, index)
    show_step_review(replay, index, src)  # 复盘: the mover's shanten, a discard's verdict
    left, right = st.columns([3, 2])
    with left:
        show_ledger(replay, index)
    with right:
        show_findings(replay)


def keep_step_in_range(replay: DealReplay) -> None:
    """A new deal opens at its first step, or at the finding a link named; the step then
    stays within the deal's steps."""
    last = len(replay.steps) - 1
    if st.session_state.get(FOR_KEY) != replay.deal_id:
        opened_by_link = st.session_state.get(FOR_KEY, "") is None
        line = st.session_state.get(LINE_KEY)
        st.session_state[STEP_KEY] = opening_step(replay, line) if opened_by_link else 0
        st.session_state[FOR_KEY] = replay.deal_id
    st.session_state[STEP_KEY] = max(0, min(last, int(st.session_state.get(STEP_KEY, 0))))


def deal_caption(replay: DealReplay) -> str:
    """Who sits where, the rules, the base and the status, on one line."""
    t = page_kit.t
    names = ", ".join(f"{seat} {md(name)}" for seat, name in enumerate(replay.players))
    status = t("status_" + replay.status) if replay.status in STATUSES else replay.status
    return (
        f"**{md(replay.deal_id)}** · {names} · {t('under_rules')} {md(rules_label(replay.rules, page_kit.lang()))} · "
        f"{t('base')} {replay.base} · {t('status')}: **{status}**"
    )


def step_controls(replay: DealReplay) -> int:
    """First, previous, next, last, next finding and the slider; the step they chose."""
    last = len(replay.steps) - 1
    cols = st.columns([1, 1, 1, 1, 1.4])
    cols[0].button(page_kit.t("first"), icon=":material/first_page:", on_click=go, args=(0,), width="stretch")
    cols[1].button(
        page_kit.t("prev"), icon=":material/chevron_left:", on_click=move, args=(-1, last), width="stretch"
    )
    cols[2].button(
        page_kit.t("next"), icon=":material/chevron_right:", on_click=move, args=(1, last), width="stretch"
    )
    cols[3].button(
        page_kit.t("last"), icon=":material/last_page:", on_click=go, args=(last,), width="stretch"
    )
    later = [i for i in replay.finding_steps() if i > int(st.session_state[STEP_KEY])]
    cols[4].button(
        page_kit.t("next_finding"),
        icon=":material/warning:",
        on_click=go,
        args=(later[0] if later else last,),
        disabled=not later,
        width="stretch",
    )
    index = int(st.slider(page_kit.t("step"), 0, max(last, 1), key=STEP_KEY, disabled=last == 0))
    return min(index, last)


def show_board(replay: DealReplay, index: int) -> None:
    """The step in words, the wall left, the four hands drawn as tiles, then the win and
    the findings raised at this step."""
    step = replay.steps[index]
    top = st.columns([4, 1])
    top[0].markdown(f"#### {event_text(step, replay)}")
    top[0].caption(page_kit.t("step_of", i=index, n=len(replay.steps) - 1, line=step.line))
    top[1].metric(page_kit.t("wall"), step.wall_left)
    labels = {key: page_kit.t(key) for key in ("dealer", "void", "won", "scores", "discards", "laid")}
    st.html(
        board_html(
            replay.players,
            step.hands,
            step.melds,
            step.discards,
            labels=labels,
            dealer=replay.dealer,
            won=step.won,
            void=step.void,
            scores=step.scores,
            acting=step.seat if step.kind != "deal" else None,
            hot_tile=step.tile if step.kind in ("draw", "pong", "kong", "hu") else None,
            laid=step.laid,
            win_counts=step.win_counts,
        )
    )
    for win in step.wins:
        patterns = " + ".join(pattern_label(p, page_kit.lang()) for p in dict.fromkeys(win.patterns))
        st.success(
            page_kit.t(
                "win_note",
                p=md(replay.players[win.seat]),
                patterns=patterns,
                fan=win.fan,
                kind=win_kind_label(win.kind, page_kit.lang()),
            ),
            icon=":material/emoji_events:",
        )
    for finding in step.findings:
        st.html(finding_block(finding, list(replay.players), seat_base(replay.record)))


def show_ledger(replay: DealReplay, index: int) -> None:
    """Every payment up to this step, this step's in words and marked new."""
    steps = replay.steps
    step = steps[index]
    st.subheader(page_kit.t("ledger"))
    ledger = [
        {
            "step": s.index,
            "line": p.line,
            "reason": reason_label(p.reason, page_kit.lang()),
            "payer": replay.players[p.payer],
            "payee": replay.players[p.payee],
            "amount": p.amount,
            "new": s.index == index,
        }
        for s in steps[: index + 1]
        for p in s.payments
    ]
    for payment in step.payments:
        st.markdown(
            ":material/payments: "
            + page_kit.t(
                "pay_note",
                payer=md(replay.players[payment.payer]),
                payee=md(replay.players[payment.payee]),
                amount=payment.amount,
                reason=reason_label(payment.reason, page_kit.lang()),
            )
        )
    if ledger:
        page_kit.dataframe(
            pd.DataFrame(ledger),
            hide_index=True,
            height=page_kit.table_height(len(ledger)),
            column_config={
                "step": page_kit.t("step"),
                "line": page_kit.t("line"),
                "reason": page_kit.t("reason"),
                "payer": page_kit.t("payer"),
                "payee": page_kit.t("payee"),
                "amount": page_kit.t("amount"),
                "new": st.column_config.CheckboxColumn(page_kit.t("new")),
            },
            key="replay_ledger",
        )
    else:
        st.caption("—")


def show_findings(replay: DealReplay) -> None:
    """Every finding of the deal, each a button that jumps to its step."""
    st.subheader(page_kit.t("all_findings"))
    noted = [(s.index, f) for s in replay.steps for f in s.findings]
    if not noted:
        st.caption(page_kit.t("no_findings_deal"))
    for number, (where, finding) in enumerate(noted):
        st.button(
            f"{page_kit.t('jump')} {where} · {code_label(finding.code, page_kit.lang())} · "
            + (page_kit.t("line_n", n=finding.line) if finding.line is not None else ""),
            on_click=go,
            args=(where,),
            key=f"jump-{number}",
        )


st.title(page_kit.t("page_replay"))
st.html(CSS)
src = page_kit.page_source()
if src is not None:
    deal_id = choose_deal(src)
    header = cached_queries.sql("deal_header", src=src, deal_id=deal_id) if deal_id is not None else None
    if header is not None and not header.empty and header["record"].iloc[0] == "sheet":
        st.info(page_kit.t("deal_is_sheet"), icon=":material/receipt_long:")  # no tiles, no steps
        page_kit.page_link(
            "session",
            page_kit.t("session_open"),
            ":material/receipt_long:",
            {"session": str(header["session_id"].iloc[0])},
        )
    elif deal_id is not None:
        replay = cached_queries.replay(deal_id, src=src)
        if replay is None:
            st.warning(page_kit.t("deal_not_found"))
        elif replay.error is not None or not replay.steps:
            st.error(page_kit.t("deal_cannot_replay") + md(replay.error or ""))
        else:
            show(replay, src)
