"""Audit: every finding, by code, session and player, each explained in plain words and
linked to its deal in the replay page; and a session re-scored under another rule set
beside its recorded and computed scores ("under chengdu Ann would have won 12 more")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import cached_queries, charts, page_kit, player_links
from dashboard.finding_html import row_html
from dashboard.findings_view import finding_place, payments_line, row_text, seat_base
from dashboard.rescore import Rescore, presets_for
from dashboard.revisions_view import show_revisions
from dashboard.safe_text import md
from dashboard.session_result import session_url
from dashboard.term_labels import code_label, rule_label, rule_set_name, rules_label
from dashboard.tiles_view import CSS

CODE_KEY = "audit_code"
SESSION_KEY = "audit_session"
PLAYER_KEY = "audit_player"
LINK_KEY = "audit_link"
RESCORE_SESSION_KEY = "rescore_session"
RESCORE_RULES_KEY = "rescore_rules"
LIMIT = 200  # rows in the table (the count says how many match)
EXPLAINED = 10  # findings written out in full, with a link each (the rest: the table above)


def pick(label: str, options: list[str], key: str, shown: Callable[[str], str] = str) -> str | None:
    """A select box whose first choice is "all"; returns None for it."""
    if st.session_state.get(key) not in (page_kit.ALL, *options):
        st.session_state[key] = page_kit.ALL
    names = {page_kit.ALL: page_kit.t("all"), **{v: shown(v) for v in options}}  # in this run's language
    value = st.selectbox(label, [page_kit.ALL, *options], key=key, format_func=names.__getitem__)
    return None if value == page_kit.ALL else str(value)


def place_of(row: dict[str, Any]) -> str:
    """Where a finding is: "第 3 局第 12 步" in a tile deal, a sheet's row, else the line."""
    rows = seat_base(row.get("deal_record"), row.get("file")) == 1
    return finding_place(row.get("line"), row.get("deal_line"), row.get("deal_no"), rows, page_kit.lang())


def sentence(player: str, difference: int, rules: str) -> str:
    if difference > 0:
        return page_kit.t("more", player=player, rules=rules, n=difference)
    if difference < 0:
        return page_kit.t("less", player=player, rules=rules, n=-difference)
    return page_kit.t("same", player=player, rules=rules)


def show_rescore(result: Rescore) -> None:
    table = result.per_player()
    skipped = [d for d in result.deals if d.rescored is None]
    named = md(rules_label(result.rules, page_kit.lang()))  # 中文: 成都麻将 chengdu, not the id alone
    if skipped:
        st.warning(
            page_kit.t("not_rescored", n=len(skipped), rules=named)
            + "; ".join(f"{md(d.deal_id)}: {md(d.problem_in(page_kit.lang()))}" for d in skipped[:5])
        )
    if len(skipped) == len(result.deals):
        return  # nothing re-scored: no "unchanged" for anyone, no table of zeros
    under = page_kit.t("rescored", rules=rules_label(result.rules, page_kit.lang()))
    for row in table.to_dict(orient="records"):
        st.markdown(
            f"- {sentence(player_links.player_md(str(row['player'])), int(row['difference']), named)}"
        )
    left, right = st.columns([3, 2])
    with left:
        page_kit.dataframe(
            player_links.linked(table),
            hide_index=True,
            height=page_kit.table_height(len(table)),
            column_config={
                "seat": page_kit.t("seat"),
                "player": player_links.player_column(page_kit.t("player")),
                "recorded": page_kit.t("recorded"),
                "computed": page_kit.t("computed"),
                "computed_rescored_deals": None,
                "rescored": under,
                "difference": page_kit.t("difference"),
            },
            key="rescore_table",
        )
    with right:
        long = pd.DataFrame(
            {
                "player": list(table["player"]) * 2,
                "kind": [page_kit.t("computed")] * len(table) + [under] * len(table),
                "points": list(table["computed_rescored_deals"]) + list(table["rescored"]),
            }
        )
        page_kit.chart(charts.rescore_chart(long, page_kit.tr()))
    with st.expander(page_kit.t("per_deal")):
        page_kit.dataframe(
            pd.DataFrame(
                {
                    "deal_id": [d.deal_id for d in result.deals],
                    "computed": [list(d.computed) for d in result.deals],
                    "recorded": [list(d.recorded) if d.recorded else None for d in result.deals],
                    "rescored": [list(d.rescored) if d.rescored else None for d in result.deals],
                    "problem": [d.problem_in(page_kit.lang()) or "–" for d in result.deals],
                }
            ),
            hide_index=True,
            column_config={
                "deal_id": page_kit.t("deal_id"),
                "computed": page_kit.t("computed"),
                "recorded": page_kit.t("recorded"),
                "rescored": under,
                "problem": page_kit.t("problem"),
            },
            key="rescore_deals",
        )


def show_invalid(found: pd.DataFrame) -> None:
    """The deals not replayed to their end, each with the finding that stopped it."""
    if found.empty:
        return
    st.subheader(page_kit.t("invalid_list"))
    st.caption(
        page_kit.t("invalid_help")
        + " "
        + page_kit.t("showing", shown=len(found), total=int(found["total"].iloc[0]))
    )
    table = found.assign(
        replay=[
            page_kit.replay_url(d, page_kit.plain(line) if scope == "deal" else None)
            for d, line, scope in zip(found["deal_id"], found["line"], found["scope"], strict=True)
        ],
        code_name=[code_label(page_kit.plain(c), page_kit.lang()) for c in found["code"]],
        explanation=[row_text(row, page_kit.lang()) for row in found.to_dict(orient="records")],
        place=[place_of(row) for row in found.to_dict(orient="records")],
    )
    page_kit.dataframe(
        page_kit.blanks(table[["deal_id", "replay", "session_id", "code_name", "place", "explanation"]]),
        hide_index=True,
        height=page_kit.table_height(len(table)),
        column_config={
            "deal_id": page_kit.t("deal_id"),
            "replay": st.column_config.LinkColumn(page_kit.t("deal"), display_text=page_kit.REPLAY_TEXT),
            "session_id": page_kit.t("session"),
            "code_name": page_kit.t("stopped_by"),
            "place": page_kit.t("place"),
            "explanation": st.column_config.TextColumn(page_kit.t("message"), width="large"),
        },
        key="invalid_table",
    )


st.title(page_kit.t("page_audit"))
src = page_kit.page_source()
if src is not None:
    filters = page_kit.filters()
    by_code = cached_queries.query("findings_by_code", filters, src=src)
    by_code = by_code[by_code["severity"] == "error"] if not by_code.empty else by_code
    sessions = cached_queries.query("findings_by_session", filters, src=src)
    session_ids = [str(s) for s in sessions["session_id"].dropna().head(2000)]
    linked = st.query_params.get("session")
    if linked and linked != st.session_state.get(LINK_KEY):
        st.session_state[LINK_KEY] = linked
        if linked not in session_ids:
            session_ids.insert(0, linked)
        st.session_state[SESSION_KEY] = linked
        st.session_state[RESCORE_SESSION_KEY] = linked
    summary = cached_queries.query("findings_summary", filters, src=src)
    if by_code.empty:
        st.success(page_kit.t("no_findings"))
    else:
        cols = st.columns(4)
        cols[0].metric(page_kit.t("findings"), page_kit.count(summary["findings"].iloc[0]))
        cols[1].metric(
            page_kit.t("deals_with_findings_n"), page_kit.count(summary["deals_with_findings"].iloc[0])
        )
        cols[2].metric(page_kit.t("sessions"), page_kit.count(summary["sessions_with_findings"].iloc[0]))
        cols[3].metric(page_kit.t("invalid_deals"), page_kit.count(summary["invalid_deals"].iloc[0]))
        named = by_code.assign(code_name=[code_label(str(c), page_kit.lang()) for c in by_code["code"]])
        page_kit.chart(charts.findings_code_chart(named, page_kit.tr()))

        st.subheader(page_kit.t("finding_list"))
        players = cached_queries.query("findings_by_player", filters, src=src)
        left, middle, right = st.columns(3)
        with left:
            code = pick(
                page_kit.t("code"),
                [str(c) for c in by_code["code"]],
                CODE_KEY,
                lambda c: code_label(c, page_kit.lang()),
            )
        with middle:
            session = pick(page_kit.t("session"), session_ids, SESSION_KEY)
        with right:
            player = pick(page_kit.t("player"), sorted(str(p) for p in players["player"]), PLAYER_KEY)
        found = cached_queries.sql(
            "findings_list",
            src=src,
            code=code,
            session_id=session,
            player=player,
            limit=LIMIT,
            **cached_queries.filter_params(filters),
        )
        if found.empty:
            st.info(page_kit.t("no_findings"))
        else:
            total = int(found["total"].iloc[0])
            st.caption(page_kit.t("showing", shown=len(found), total=total))
            explained = [row_text(row, page_kit.lang()) for row in found.to_dict(orient="records")]
            table = found.assign(
                code_name=[code_label(str(c), page_kit.lang()) for c in found["code"]],
                rule=[rule_label(r, page_kit.lang()) if isinstance(r, str) else None for r in found["rule"]],
                explanation=explained,
                replay=[
                    page_kit.replay_url(d, line) if isinstance(d, str) else None
                    for d, line in zip(found["deal_id"], found["line"], strict=True)
                ],
                session=[session_url(s) if isinstance(s, str) else None for s in found["session_id"]],
                place=[place_of(row) for row in found.to_dict(orient="records")],
            )
            shown = ["code", "code_name", "replay", "place", "player", "explanation", "rule", "session"]
            page_kit.dataframe(
                player_links.linked(page_kit.blanks(table[[*shown, "played_date", "message"]])),
                hide_index=True,
                height=page_kit.table_height(len(table)),
                column_order=[*shown, "played_date"],
                column_config={
                    "code": None,
                    "code_name": page_kit.t("code"),
                    "replay": st.column_config.LinkColumn(
                        page_kit.t("deal"), display_text=page_kit.REPLAY_TEXT
                    ),
                    "place": page_kit.t("place"),
                    "player": player_links.player_column(page_kit.t("player")),
                    "explanation": st.column_config.TextColumn(page_kit.t("message"), width="large"),
                    "rule": page_kit.t("rule"),
                    "session": st.column_config.LinkColumn(
                        page_kit.t("session"), display_text=r"session\?session=([^&]*)"
                    ),
                    "played_date": page_kit.date_column(page_kit.t("day")),
                },
                key="findings_table",
            )
            st.html(CSS)  # the tile faces of the cards' explanations
            for row in found.head(EXPLAINED).to_dict(orient="records"):
                with st.container(border=True):
                    line = page_kit.plain(row["line"])
                    where = " · ".join(
                        md(part)
                        for part in (
                            page_kit.plain(row["deal_id"])
                            or page_kit.plain(row["session_id"])
                            or page_kit.plain(row["file"]),
                            place_of(row) or None,
                        )
                        if part is not None
                    )
                    who = page_kit.plain(row["player"])
                    where += f" · {player_links.player_md(str(who))}" if who is not None else ""
                    rule = page_kit.plain(row["rule"])
                    named = rule_label(rule, page_kit.lang()) if isinstance(rule, str) else ""
                    ruled = f" · {page_kit.t('rule_ref', rule=md(named))}" if named else ""
                    st.markdown(f"**{code_label(str(row['code']), page_kit.lang())}** · {where}{ruled}")
                    st.html(f'<div class="cm-explained">{row_html(row, page_kit.lang())}</div>')
                    moved = payments_line(row["expected"], row["recorded"], row["players"], page_kit.lang())
                    if moved is not None:
                        st.markdown(f"**{md(moved)}**")
                    if isinstance(row["deal_id"], str):
                        page_kit.replay_link(row["deal_id"], line=line)

    show_invalid(
        cached_queries.sql("invalid_deals", src=src, limit=LIMIT, **cached_queries.filter_params(filters))
    )
    show_revisions(src, linked or None)  # corrected deals: every revision, the latest marked
    st.header(page_kit.t("rescore"))
    listed = cached_queries.query("session_list", filters, src=src, limit=cached_queries.PICKER_SESSIONS)
    options = list(dict.fromkeys([*session_ids, *(str(s) for s in listed["session_id"])]))
    if not options:
        st.info(page_kit.t("no_match"))
    else:
        if st.session_state.get(RESCORE_SESSION_KEY) not in options:
            st.session_state[RESCORE_SESSION_KEY] = options[0]
        left, right = st.columns([3, 1])
        chosen = left.selectbox(page_kit.t("session"), options, key=RESCORE_SESSION_KEY)
        presets = presets_for(chosen, listed)  # a three-player session under three-seat rules only
        if st.session_state.get(RESCORE_RULES_KEY) not in presets:
            st.session_state[RESCORE_RULES_KEY] = "chengdu" if "chengdu" in presets else presets[0]
        lang = page_kit.lang()
        rules = right.selectbox(page_kit.t("rescore_rules"), presets, key=RESCORE_RULES_KEY,
                                format_func=lambda p: rule_set_name(p, lang))  # fmt: skip
        st.page_link(
            page_kit.PAGES["session"], label=page_kit.t("session_open"), icon=":material/receipt_long:",
            query_params={"session": chosen},
        )  # fmt: skip
        result = cached_queries.rescore(chosen, rules, src=src)
        if result is None:
            st.info(page_kit.t("no_match"))
        else:
            show_rescore(result)
