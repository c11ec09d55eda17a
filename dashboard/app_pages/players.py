"""Players: the sortable leaderboard, and one player's numbers beside the club's, score
over time, fan distribution, how they win, whom they deal into and their tablemates."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from analytics.queries import Filters
from analytics.roster import guests_split
from analytics.seasons import split_ranked
from dashboard import cached_queries, charts, export, page_kit, table_size
from dashboard.player_links import linked, player_column
from dashboard.safe_text import md
from dashboard.session_result import session_url
from dashboard.term_labels import win_kind_label

PLAYER_KEY = "player_choice"
#: the player this page last put in the address: another one there is a link just followed
WRITTEN_KEY = "player_written"
#: leaderboard columns: (column, label key, kind)
BOARD: tuple[tuple[str, str, str], ...] = (
    ("player", "player", "player"),
    ("deals", "deals", "int"),
    ("wins", "wins", "int"),
    ("win_rate", "win_rate", "pct"),
    ("all_wins", "all_wins", "int"),  # 血流成河 only (BLOODY): every win, and those after the first
    ("repeat_wins", "repeat_wins", "int"),
    ("self_draw_rate", "self_draw_rate", "pct"),
    ("deal_in_rate", "deal_in_rate", "pct"),
    ("avg_fan", "avg_fan", "num"),
    ("avg_win_points", "avg_win_points", "num"),
    ("avg_deal_in_loss", "avg_deal_in_loss", "num"),
    ("net", "net", "int"),
    ("net_per_deal", "net_per_deal", "num"),
    ("kong_rate", "kong_rate", "num"),
    ("flower_pig_rate", "flower_pig_rate", "pct"),
    ("ready_at_end_rate", "ready_at_end_rate", "pct"),
    ("biggest_win", "biggest_win", "int"),
    # placements and rating (analytics/rating.py)
    ("rating", "rating", "num"),
    ("avg_placement", "avg_placement", "num"),
    ("placement_1_rate", "placement_1_rate", "pct"),
)
#: the leaderboard's columns shown only where some seat won again in a deal (血流成河)
BLOODY: frozenset[str] = frozenset({"all_wins", "repeat_wins"})
#: statistics compared with the club: (column, label key, kind, weight column)
COMPARED: tuple[tuple[str, str, str, str], ...] = (
    ("win_rate", "win_rate", "pct", "deals"),
    ("self_draw_rate", "self_draw_rate", "pct", "wins"),
    ("deal_in_rate", "deal_in_rate", "pct", "deals"),
    ("avg_fan", "avg_fan", "num", "all_wins"),  # over every win
    ("avg_win_points", "avg_win_points", "num", "wins"),
    ("avg_deal_in_loss", "avg_deal_in_loss", "num", "deal_ins"),
    ("net_per_deal", "net_per_deal", "num", "deals"),
    ("kong_rate", "kong_rate", "num", "deals"),
    ("flower_pig_rate", "flower_pig_rate", "pct", "deals"),
    ("ready_at_end_rate", "ready_at_end_rate", "pct", "wall_end_deals"),
    ("avg_win_turn", "avg_win_turn", "num", "wins"),
)


def column_config(kind: str, title: str) -> Any:
    if kind == "pct":
        return page_kit.pct_column(title)
    if kind == "num":
        return st.column_config.NumberColumn(title, format="%.2f")
    if kind == "int":
        return st.column_config.NumberColumn(title, format="%d")
    if kind == "player":  # the name, a link to the player's own page (shareable)
        return player_column(title)
    return st.column_config.TextColumn(title)


def club_value(stats: pd.DataFrame, column: str, weight: str) -> float | None:
    """The club's figure: the players' figures weighted by what each is a rate of."""
    known = stats[[column, weight]].dropna()
    total = float(known[weight].sum())
    if total == 0:
        return None
    return float((known[column] * known[weight]).sum()) / total


def show_nights(nights: pd.DataFrame) -> None:
    """A player's sessions: the latest ten, and the best and the worst three by net, each
    linked to its result (the player page a member shares by its address)."""
    if nights.empty:
        return
    shown = nights.assign(link=[session_url(str(s)) for s in nights["session_id"]])
    config = {
        "session_id": None,
        "link": st.column_config.LinkColumn(page_kit.t("session"), display_text=r"session\?session=([^&]*)"),
        "played_date": page_kit.date_column(page_kit.t("day")),
        "club": page_kit.t("club"),
        "rules": page_kit.t("rules"),
        "deals": page_kit.t("deals"),
        "net": page_kit.t("net"),
    }
    order = ["link", "played_date", "club", "rules", "deals", "net", "session_id"]
    recent, best, worst = st.tabs(
        [page_kit.t("recent_nights"), page_kit.t("best_nights"), page_kit.t("worst_nights")]
    )
    ranked = shown.sort_values(["net", "played_date"], ascending=[False, False])
    for tab, rows, key in (
        (recent, shown.head(10), "player_recent"),
        (best, ranked.head(3), "player_best"),
        (worst, ranked.tail(3).iloc[::-1], "player_worst"),
    ):
        with tab:
            page_kit.dataframe(rows[order], hide_index=True, column_config=config, key=key)


def named_player(src: cached_queries.Source, asked: str, players: list[str], club: str | None) -> str | None:
    """The player a link names: a player as listed, or a name as written (a session's, a
    night's) that the club (the link's, or the filter's) makes one; a bare name of several
    clubs' players is said to be ambiguous."""
    if asked in players:
        return asked
    named = cached_queries.query("players_named", Filters(player=asked), src=src)
    if club is not None:
        named = named[named["club"] == club]
    if len(named) == 1:
        return str(named["player"].iloc[0])
    if len(named) > 1:
        which = ", ".join(str(p) for p in named["player"])
        st.warning(page_kit.t("ambiguous_player", name=asked, players=which), icon=":material/group:")
    return None


def comparison(stats: pd.DataFrame, row: pd.Series) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "statistic": [page_kit.t(key) for _, key, _, _ in COMPARED],
            "player": [page_kit.plain(row[col]) for col, _, _, _ in COMPARED],
            "club": [club_value(stats, col, weight) for col, _, _, weight in COMPARED],
            "kind": [kind for _, _, kind, _ in COMPARED],
        }
    )


st.title(page_kit.t("page_players"))
src = page_kit.page_source()
if src is not None:
    filters = table_size.one_size(page_kit.filters(), src, "players_size")  # rates of one table size
    stats = cached_queries.player_table(filters, src=src)
    if stats.empty:
        st.info(page_kit.t("no_match"))
    else:
        shared = cached_queries.query("shared_names", filters, src=src)
        if not shared.empty:  # players are per club: one name in two clubs is two people, shown apart
            names = ", ".join(
                f"{p} ({', '.join(str(c) for c in cs)})"
                for p, cs in zip(shared["player"], shared["clubs"], strict=True)
            )
            st.warning(page_kit.t("shared_names", names=names), icon=":material/group:")
        st.subheader(page_kit.t("leaderboard"))
        min_deals, min_sessions = page_kit.ranking_minimum()
        least = int(
            st.number_input(
                page_kit.t("least_deals_ranked"), min_value=0, value=min_deals, step=1,
                key=f"least_deals_{page_kit.period_label(str(st.session_state.get(page_kit.PERIOD_KEY)))}",
            )
        )  # fmt: skip
        guest_names = set(cached_queries.query("guests", Filters(), src=src)["player"])
        members, guests = guests_split(stats, guest_names)  # the roster's guests, listed apart
        ranked, unranked = split_ranked(members, least, min_sessions)
        if least or min_sessions:
            st.caption(page_kit.t("ranked_rule", deals=least, sessions=min_sessions))
        bloody = bool(stats["repeat_wins"].fillna(0).sum() > 0)
        board = [c for c in BOARD if bloody or c[0] not in BLOODY]
        columns = [col for col, _, _ in board]
        percent = [col for col, _, kind in board if kind == "pct"]
        config = {col: column_config(kind, page_kit.t(key)) for col, key, kind in board}
        export.table(
            linked(page_kit.as_percent(ranked[columns], percent)),
            "leaderboard",
            full=page_kit.as_percent(ranked[columns], percent),  # the CSV: names, not links
            column_config=config,
            key="leaderboard",
        )
        for part, title, name in (
            (unranked, "not_ranked_title", "not-ranked"),
            (guests, "guests_title", "guests"),
        ):
            if not part.empty:  # below the leaderboard: too few deals (规定局数), then the guests
                st.markdown(f"**{page_kit.t(title)}**")
                export.table(
                    linked(page_kit.as_percent(part[columns], percent)),
                    name,
                    full=page_kit.as_percent(part[columns], percent),
                    column_config=config,
                    key=name.replace("-", "_"),
                )
        players = sorted(str(p) for p in stats["player"])
        given = st.query_params.get("player")
        asked = given if given is None else named_player(src, given, players, filters.club)
        chosen_before = st.session_state.get(PLAYER_KEY)
        if asked in players and (chosen_before is None or given != st.session_state.get(WRITTEN_KEY)):
            st.session_state[PLAYER_KEY] = asked  # a name's link just followed
        if st.session_state.get(PLAYER_KEY) not in players:
            st.session_state[PLAYER_KEY] = players[0]
        chosen = st.selectbox(page_kit.t("choose_player"), players, key=PLAYER_KEY)
        st.query_params["player"] = chosen
        st.session_state[WRITTEN_KEY] = chosen
        row = stats[stats["player"] == chosen].iloc[0]
        st.header(md(chosen))
        cols = st.columns(5)
        cols[0].metric(page_kit.t("deals"), page_kit.count(row["deals"]))
        cols[1].metric(page_kit.t("net"), page_kit.count(row["net"]))
        cols[2].metric(page_kit.t("win_rate"), page_kit.pct(row["win_rate"]))
        cols[3].metric(page_kit.t("deal_in_rate"), page_kit.pct(row["deal_in_rate"]))
        cols[4].metric(page_kit.t("biggest_win"), page_kit.count(row["biggest_win"]))
        if row["repeat_wins"] > 0:  # 血流成河: the deals won, every win, the repeated ones
            deals_won, every, again = int(row["wins"]), int(row["all_wins"]), int(row["repeat_wins"])
            st.caption(page_kit.t("repeat_wins_card", deals=deals_won, wins=every, repeat=again))
        export.download_card(chosen, row)
        show_nights(cached_queries.query("player_sessions", replace(filters, player=chosen), src=src))

        left, right = st.columns([2, 3])
        with left:
            st.subheader(page_kit.t("player_vs_club"))
            compared = comparison(stats, row)
            shown = compared.copy()
            for column in ("player", "club"):
                shown[column] = [
                    page_kit.pct(v) if kind == "pct" else page_kit.num(v)
                    for v, kind in zip(compared[column], compared["kind"], strict=True)
                ]
            page_kit.dataframe(
                shown.drop(columns=["kind"]),
                hide_index=True,
                height=page_kit.table_height(len(shown)),
                column_config={
                    "statistic": page_kit.t("statistic"),
                    "player": chosen,
                    "club": page_kit.t("club_value"),
                },
                key="player_vs_club",
            )
            if int(row["sheet_deals_excluded"]):
                st.caption(page_kit.t("sheet_turn_excluded", n=int(row["sheet_deals_excluded"])))
        with right:
            mine = replace(filters, player=chosen)
            score = cached_queries.query("score_over_time", mine, src=src)
            if not score.empty:
                page_kit.chart(charts.score_chart(score, page_kit.tr()))

        left, right = st.columns(2)
        with left:
            own = cached_queries.query("fan_by_total", mine, src=src)
            club = cached_queries.query("fan_by_total", filters, src=src)
            if own.empty:
                st.caption(page_kit.t("no_wins"))
            else:
                both = pd.concat(
                    [own.assign(who=chosen), club.assign(who=page_kit.t("club_value"))], ignore_index=True
                )[["who", "fan", "wins", "share"]]
                page_kit.chart(charts.fan_compare_chart(both, page_kit.tr()))
        with right:
            kinds = cached_queries.query("win_kinds", mine, src=src)
            if kinds.empty:
                st.caption(page_kit.t("no_wins"))
            else:
                kinds = kinds.assign(label=[win_kind_label(k, page_kit.lang()) for k in kinds["win_kind"]])
                page_kit.chart(charts.win_kind_chart(kinds, page_kit.tr()))
        left, right = st.columns(2)
        with left:
            deal_ins = cached_queries.query("deal_ins", mine, src=src)
            if deal_ins.empty:
                st.caption(page_kit.t("no_deal_ins"))
            else:
                page_kit.chart(charts.deal_in_chart(deal_ins, page_kit.tr()))
        with right:
            mates = cached_queries.query("tablemates", mine, src=src)
            if not mates.empty:
                page_kit.chart(charts.tablemates_chart(mates.head(10), page_kit.tr()))
