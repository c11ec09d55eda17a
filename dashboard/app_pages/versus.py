"""Player vs player: two players side by side in the deals they played together (rates,
fan, points), the points that flowed between them, who placed above whom, and one
player's record against each tablemate. ``?a=NAME&b=NAME`` opens a pair."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import cached_queries, charts, export, page_kit, table_size
from dashboard.player_links import linked, player_column, player_link

A_KEY, B_KEY = "versus_a", "versus_b"
#: compared statistics: (column, label key, kind)
COMPARED: tuple[tuple[str, str, str], ...] = (
    ("deals", "deals", "int"),
    ("wins", "wins", "int"),
    ("win_rate", "win_rate", "pct"),
    ("self_draw_rate", "self_draw_rate", "pct"),
    ("deal_in_rate", "deal_in_rate", "pct"),
    ("avg_fan", "avg_fan", "num"),
    ("avg_win_points", "avg_win_points", "num"),
    ("net", "net", "int"),
    ("net_per_deal", "net_per_deal", "num"),
    ("kong_rate", "kong_rate", "num"),
    ("flower_pig_rate", "flower_pig_rate", "pct"),
    ("biggest_win", "biggest_win", "int"),
)
RATES = ("win_rate", "self_draw_rate", "deal_in_rate", "flower_pig_rate")


def shown(value: Any, kind: str) -> str:
    if kind == "pct":
        return page_kit.pct(value)
    if kind == "int":
        return page_kit.count(value)
    return page_kit.num(value)


def pick(key: str, players: list[str], asked: str | None, fallback: str) -> str:
    """A player picker that starts from the URL's choice, else ``fallback``."""
    if st.session_state.get(key) not in players:
        st.session_state[key] = asked if asked in players else fallback
    chosen: str = st.selectbox(page_kit.t("player_a" if key == A_KEY else "player_b"), players, key=key)
    return chosen


st.title(page_kit.t("page_versus"))
src = page_kit.page_source()
if src is not None:
    filters = table_size.one_size(page_kit.filters(), src, "versus_size")  # rates of one table size
    everyone = cached_queries.query("player_stats", filters, src=src)
    if len(everyone) < 2:
        st.info(page_kit.t("no_match"))
    else:
        players = sorted(str(p) for p in everyone["player"])
        left, right = st.columns(2)
        # opened on a pair that met: the busiest player and their most frequent tablemate
        busiest = str(everyone.sort_values(["deals", "player"], ascending=[False, True])["player"].iloc[0])
        with left:
            first = pick(A_KEY, players, st.query_params.get("a"), busiest)
        records = cached_queries.query("mate_records", replace(filters, player=first), src=src)
        met = [str(m) for m in records.sort_values("deals", ascending=False)["mate"] if str(m) in players]
        with right:
            second = pick(
                B_KEY, players, st.query_params.get("b"), met[0] if met else players[players[0] == first]
            )
        st.query_params["a"], st.query_params["b"] = first, second
        with left:  # each name a link to the player's own page
            player_link(first)
        with right:
            player_link(second)
        if first == second:
            st.info(page_kit.t("versus_same"))
        else:
            pair = records[records["mate"] == second]
            if pair.empty:
                st.info(page_kit.t("versus_never", a=first, b=second))
            else:
                row = pair.iloc[0]
                cols = st.columns(4)
                cols[0].metric(page_kit.t("deals_together"), page_kit.count(row["deals"]))
                cols[1].metric(page_kit.t("sessions_together"), page_kit.count(row["sessions"]))
                cols[2].metric(
                    page_kit.t("placed_above", a=first, b=second),
                    f"{page_kit.count(row['placed_above'])} / {page_kit.count(row['sessions'])}",
                )
                cols[3].metric(page_kit.t("net_between", a=first, b=second), f"{int(row['net_between']):+,}")
                together = cached_queries.query(
                    "player_stats", replace(filters, tablemates=(first, second)), src=src
                )
                both = together.set_index("player").loc[[first, second]]
                side = pd.DataFrame(
                    {
                        "statistic": [page_kit.t(key) for _, key, _ in COMPARED],
                        first: [shown(both.loc[first, col], kind) for col, _, kind in COMPARED],
                        second: [shown(both.loc[second, col], kind) for col, _, kind in COMPARED],
                    }
                )
                st.subheader(page_kit.t("versus_together"))
                chart_frame = pd.DataFrame(
                    {
                        "statistic": [page_kit.t(col) for col in RATES for _ in (first, second)],
                        "player": [who for _ in RATES for who in (first, second)],
                        "value": [
                            page_kit.plain(both.loc[who, col]) or 0.0
                            for col in RATES
                            for who in (first, second)
                        ],
                    }
                )
                left, right = st.columns([2, 3])
                with left:
                    export.table(side, f"versus-{first}-{second}", key="versus_side",
                                 column_config={"statistic": page_kit.t("statistic")})  # fmt: skip
                with right:
                    page_kit.chart(charts.versus_chart(chart_frame, page_kit.tr()))
        st.subheader(page_kit.t("mate_records_title", player=first))
        mates = page_kit.as_percent(records.drop(columns=["player"]), ["placed_above_rate"])
        export.table(
            linked(mates, ("mate",)),
            f"tablemates-{first}",
            full=mates,  # the CSV: names, not links
            key="versus_mates",
            column_config={
                "mate": player_column(page_kit.t("tablemate")),
                "deals": st.column_config.NumberColumn(page_kit.t("deals_together"), format="%d"),
                "sessions": st.column_config.NumberColumn(page_kit.t("sessions_together"), format="%d"),
                "placed_above": st.column_config.NumberColumn(page_kit.t("placed_above_short"), format="%d"),
                "placed_above_rate": page_kit.pct_column(page_kit.t("placed_above_rate")),
                "net": st.column_config.NumberColumn(page_kit.t("net_with"), format="%d"),
                "net_per_deal": st.column_config.NumberColumn(page_kit.t("net_per_deal"), format="%.2f"),
                "net_between": st.column_config.NumberColumn(page_kit.t("net_between_short"), format="%+d"),
            },
        )
