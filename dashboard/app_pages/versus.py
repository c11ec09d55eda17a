"""Player vs player: two players side by side in the deals they played together (rates,
fan, points), the points that flowed between them, who placed above whom, and one
player's record against each tablemate. ``?a=NAME&b=NAME`` opens a pair."""

from __future__ import annotations

from typing import Any

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import charts_extra, data, export, ui

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
        return ui.pct(value)
    if kind == "int":
        return ui.count(value)
    return ui.num(value)


def pick(key: str, players: list[str], asked: str | None, fallback: str) -> str:
    """A player picker that starts from the URL's choice, else ``fallback``."""
    if st.session_state.get(key) not in players:
        st.session_state[key] = asked if asked in players else fallback
    chosen: str = st.selectbox(ui.t("player_a" if key == A_KEY else "player_b"), players, key=key)
    return chosen


st.title(ui.t("page_versus"))
src = ui.page_source()
if src is not None:
    filters = ui.filters()
    everyone = data.query("player_stats", filters, src=src)
    if len(everyone) < 2:
        st.info(ui.t("no_match"))
    else:
        players = sorted(str(p) for p in everyone["player"])
        left, right = st.columns(2)
        with left:
            first = pick(A_KEY, players, st.query_params.get("a"), players[0])
        with right:
            second = pick(B_KEY, players, st.query_params.get("b"), players[1])
        st.query_params["a"], st.query_params["b"] = first, second
        records = data.query("mate_records", ui.filters(player=first), src=src)
        if first == second:
            st.info(ui.t("versus_same"))
        else:
            pair = records[records["mate"] == second]
            if pair.empty:
                st.info(ui.t("versus_never", a=first, b=second))
            else:
                row = pair.iloc[0]
                cols = st.columns(4)
                cols[0].metric(ui.t("deals_together"), ui.count(row["deals"]))
                cols[1].metric(ui.t("sessions_together"), ui.count(row["sessions"]))
                cols[2].metric(
                    ui.t("placed_above", a=first, b=second),
                    f"{ui.count(row['placed_above'])} / {ui.count(row['sessions'])}",
                )
                cols[3].metric(ui.t("net_between", a=first, b=second), f"{int(row['net_between']):+,}")
                together = data.query("player_stats", ui.filters(tablemates=(first, second)), src=src)
                both = together.set_index("player").loc[[first, second]]
                side = pd.DataFrame(
                    {
                        "statistic": [ui.t(key) for _, key, _ in COMPARED],
                        first: [shown(both.loc[first, col], kind) for col, _, kind in COMPARED],
                        second: [shown(both.loc[second, col], kind) for col, _, kind in COMPARED],
                    }
                )
                st.subheader(ui.t("versus_together"))
                chart_frame = pd.DataFrame(
                    {
                        "statistic": [ui.t(col) for col in RATES for _ in (first, second)],
                        "player": [who for _ in RATES for who in (first, second)],
                        "value": [
                            ui.plain(both.loc[who, col]) or 0.0 for col in RATES for who in (first, second)
                        ],
                    }
                )
                left, right = st.columns([2, 3])
                with left:
                    export.table(side, f"versus-{first}-{second}", key="versus_side",
                                 column_config={"statistic": ui.t("statistic")})  # fmt: skip
                with right:
                    ui.chart(charts_extra.versus_chart(chart_frame, ui.tr()))
        st.subheader(ui.t("mate_records_title", player=first))
        export.table(
            records.drop(columns=["player"]),
            f"tablemates-{first}",
            key="versus_mates",
            column_config={
                "mate": ui.t("tablemate"),
                "deals": st.column_config.NumberColumn(ui.t("deals_together"), format="%d"),
                "sessions": st.column_config.NumberColumn(ui.t("sessions_together"), format="%d"),
                "placed_above": st.column_config.NumberColumn(ui.t("placed_above_short"), format="%d"),
                "placed_above_rate": st.column_config.NumberColumn(
                    ui.t("placed_above_rate"), format="percent"
                ),
                "net": st.column_config.NumberColumn(ui.t("net_with"), format="%d"),
                "net_per_deal": st.column_config.NumberColumn(ui.t("net_per_deal"), format="%.2f"),
                "net_between": st.column_config.NumberColumn(ui.t("net_between_short"), format="%+d"),
            },
        )
