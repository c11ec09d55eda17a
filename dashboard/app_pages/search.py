"""Find a deal: search by player, the sidebar's dates and filters, the least fan of its
best win, a pattern, a finding code or a least number of kongs; and the club's biggest
hands (highest fan, 天胡/地胡, 龙七对...). Every row links to its replay (``?deal=``)."""

from __future__ import annotations

from typing import Any

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import cached_queries, export, page_kit
from dashboard.player_links import linked, player_column
from dashboard.term_labels import code_label, pattern_label, win_kind_label
from engine.vocabulary import PATTERNS

ANY = "\u0000any"


def labels(patterns: Any) -> str:
    if patterns is None or patterns is pd.NA or (isinstance(patterns, float) and pd.isna(patterns)):
        return ""
    return ", ".join(pattern_label(str(p), page_kit.lang()) for p in list(patterns))


def labels_of_codes(codes: Any) -> str:
    if codes is None or codes is pd.NA or (isinstance(codes, float) and pd.isna(codes)):
        return ""
    return ", ".join(code_label(str(c), page_kit.lang()) for c in list(codes))


def hands_table(frame: pd.DataFrame, name: str, key: str) -> None:
    """A list of wins, each linking to its deal's replay."""
    lang = page_kit.lang()
    shown = pd.DataFrame(
        {
            "replay": [page_kit.replay_url(str(d)) for d in frame["deal_id"]],
            "played_date": frame["played_date"],
            "player": frame["player"],
            "fan": frame["fan"],
            "fan_uncapped": frame["fan_uncapped"],
            "pattern": [
                labels([b, *list(e)]) for b, e in zip(frame["base_pattern"], frame["extras"], strict=True)
            ],
            "win_kind": [win_kind_label(k, lang) for k in frame["win_kind"]],
            "win_points": frame["win_points"],
        }
    )
    export.table(
        linked(shown),
        name,
        key=key,
        full=shown,  # the CSV: names, not links
        column_config={
            "replay": st.column_config.LinkColumn(page_kit.t("deal"), display_text=page_kit.REPLAY_TEXT),
            "played_date": st.column_config.DateColumn(page_kit.t("day"), format="YYYY-MM-DD"),
            "player": player_column(page_kit.t("player")),
            "fan": st.column_config.NumberColumn(page_kit.t("fan"), format="%d"),
            "fan_uncapped": st.column_config.NumberColumn(page_kit.t("fan_uncapped"), format="%d"),
            "pattern": page_kit.t("pattern"),
            "win_kind": page_kit.t("win_kind"),
            "win_points": st.column_config.NumberColumn(page_kit.t("points"), format="%d"),
        },
    )


st.title(page_kit.t("page_search"))
src = page_kit.page_source()
if src is not None:
    filters = page_kit.filters()
    players = sorted(str(p) for p in cached_queries.query("player_stats", filters, src=src)["player"])
    codes = sorted(
        str(c) for c in cached_queries.query("findings_by_code", filters, src=src)["code"].dropna().unique()
    )
    lang = page_kit.lang()
    everything = page_kit.t("any")
    st.caption(page_kit.t("search_help"))
    cols = st.columns(5)
    player = cols[0].selectbox(page_kit.t("player"), [ANY, *players], key="search_player",
                               format_func=lambda v: everything if v == ANY else code_label(v, lang))  # fmt: skip
    min_fan = cols[1].number_input(
        page_kit.t("min_fan"), min_value=0, max_value=99, value=0, key="search_min_fan"
    )
    pattern = cols[2].selectbox(page_kit.t("pattern"), [ANY, *PATTERNS], key="search_pattern",
                                format_func=lambda v: everything if v == ANY else pattern_label(v, lang))  # fmt: skip
    code = cols[3].selectbox(page_kit.t("finding_code"), [ANY, *codes], key="search_code",
                             format_func=lambda v: everything if v == ANY else code_label(v, lang))  # fmt: skip
    min_kongs = cols[4].number_input(
        page_kit.t("min_kongs"), min_value=0, max_value=16, value=0, key="search_min_kongs"
    )
    found = cached_queries.search(
        filters,
        src=src,
        player=None if player == ANY else player,
        min_fan=int(min_fan) or None,
        pattern=None if pattern == ANY else pattern,
        code=None if code == ANY else code,
        min_kongs=int(min_kongs) or None,
    )
    matches = int(found["matches"].iloc[0]) if not found.empty else 0
    st.markdown(page_kit.t("search_found", matches=f"{matches:,}", shown=len(found)))
    if not found.empty:
        shown = pd.DataFrame(
            {
                "replay": [page_kit.replay_url(str(d)) for d in found["deal_id"]],
                "played_date": found["played_date"],
                "players": found["players"],
                "winners": found["winners"].fillna(""),
                "max_fan": found["max_fan"],
                "patterns": [labels(p) for p in found["patterns"]],
                "kongs": found["kongs"],
                "finding_codes": [labels_of_codes(c) for c in found["finding_codes"]],
                "status": [page_kit.t(f"status_{s}") for s in found["status"]],
            }
        )
        export.table(
            shown,
            "deals-found",
            key="search_results",
            column_config={
                "replay": st.column_config.LinkColumn(page_kit.t("deal"), display_text=page_kit.REPLAY_TEXT),
                "played_date": st.column_config.DateColumn(page_kit.t("day"), format="YYYY-MM-DD"),
                "players": page_kit.t("players"),
                "winners": page_kit.t("winners"),
                "max_fan": st.column_config.NumberColumn(page_kit.t("max_fan"), format="%d"),
                "patterns": page_kit.t("patterns"),
                "kongs": st.column_config.NumberColumn(page_kit.t("kongs"), format="%d"),
                "finding_codes": page_kit.t("findings"),
                "status": page_kit.t("status"),
            },
        )
    st.subheader(page_kit.t("biggest_hands_title"))
    biggest = cached_queries.biggest_hands(filters, src=src)
    if biggest.empty:
        st.caption(page_kit.t("no_wins"))
    else:
        hands_table(biggest, "biggest-hands", "search_biggest")
    st.subheader(page_kit.t("rare_hands_title"))
    st.caption(page_kit.t("rare_hands_help", patterns=labels(cached_queries.RARE_PATTERNS)))
    rare = cached_queries.rare_hands(filters, src=src)
    if rare.empty:
        st.caption(page_kit.t("no_rare_hands"))
    else:
        hands_table(rare, "rare-hands", "search_rare")
