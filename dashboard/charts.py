"""Every chart of the dashboard, in one place: Altair specs with a title, named axes and
tooltips, built from the DataFrames the analytics API returns.

Each function takes the frame and ``tr`` (the language's label function) and returns a
chart; the pages only place them. Column names stay the API's (``wins``, ``share``...),
so a test can read a chart's data and compare it with the API.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import altair as alt
import pandas as pd  # type: ignore[import-untyped]

Tr = Callable[[str], str]
HEIGHT = 260
#: ok, findings, invalid; and the suit-like palette of the tiles for categories
STATUS_COLOURS = ["#2e7d32", "#f9a825", "#c62828"]


def _titled(chart: alt.Chart, title: str, height: int = HEIGHT) -> alt.Chart:
    titled: alt.Chart = chart.properties(title=title, height=height, width="container")
    configured: alt.Chart = titled.configure_axis(labelLimit=LABEL_LIMIT).configure_legend(
        labelLimit=LABEL_LIMIT
    )
    return configured


#: pixels a label may take before Vega-Lite cuts it with "…" (its default, 180, cut names)
LABEL_LIMIT = 400
#: pixels per row of a horizontal bar chart, so no two names overlap
ROW_PX = 24


def _date_axis(tr: Tr) -> alt.Axis:
    """Dates written in the language (Vega's own month names are English): an explicit
    format from the labels (``%m月%d日`` / ``%b %d``)."""
    return alt.Axis(format=tr("axis_date"), labelOverlap=True)


def activity_chart(frame: pd.DataFrame, tr: Tr) -> alt.Chart:
    """Deals per week, stacked: ok, with findings, and invalid (not replayed to their end)."""
    invalid = frame["invalid_deals"] if "invalid_deals" in frame.columns else frame["deals"] * 0
    long = pd.DataFrame(
        {
            "week": list(frame["week"]) * 3,
            "kind": [tr("deals_ok")] * len(frame)
            + [tr("deals_with_findings")] * len(frame)
            + [tr("status_invalid")] * len(frame),
            "deals": list(frame["deals"] - frame["findings_deals"])
            + list(frame["findings_deals"] - invalid)
            + list(invalid),
        }
    )
    long["week"] = pd.to_datetime(long["week"])
    chart = (
        alt.Chart(long)
        .mark_bar(width=alt.RelativeBandSize(0.85))
        .encode(
            x=alt.X("yearweek(week):T", title=tr("week"), axis=_date_axis(tr)),
            y=alt.Y("deals:Q", title=tr("deals"), stack="zero"),
            color=alt.Color(
                "kind:N",
                title=tr("deal_kind"),
                scale=alt.Scale(range=[STATUS_COLOURS[0], STATUS_COLOURS[1], STATUS_COLOURS[2]]),
                sort=[tr("deals_ok"), tr("deals_with_findings"), tr("status_invalid")],
            ),
            tooltip=[
                alt.Tooltip("week:T", title=tr("week"), format="%Y-%m-%d"),
                alt.Tooltip("kind:N", title=tr("deal_kind")),
                alt.Tooltip("deals:Q", title=tr("deals")),
            ],
        )
    )
    return _titled(chart, tr("activity_title"))


def status_chart(frame: pd.DataFrame, tr: Tr) -> alt.Chart:
    """Deals by status (ok, findings, invalid) as a ring."""
    chart = (
        alt.Chart(frame)
        .mark_arc(innerRadius=55)
        .encode(
            theta=alt.Theta("deals:Q", title=tr("deals")),
            color=alt.Color(
                "status_label:N",
                title=tr("status"),
                sort=list(frame["status_label"]),
                scale=alt.Scale(domain=list(frame["status_label"]), range=STATUS_COLOURS[: len(frame)]),
            ),
            tooltip=[
                alt.Tooltip("status_label:N", title=tr("status")),
                alt.Tooltip("deals:Q", title=tr("deals")),
                alt.Tooltip("share:Q", title=tr("share"), format=".1%"),
            ],
        )
    )
    return _titled(chart, tr("status_title"))


def fan_total_chart(frame: pd.DataFrame, tr: Tr) -> alt.Chart:
    """Wins by total fan after the cap; the capped wins in their own colour."""
    data = frame.assign(uncapped=frame["wins"] - frame["capped"])
    long = pd.DataFrame(
        {
            "fan": list(data["fan"]) * 2,
            "kind": [tr("wins")] * len(data) + [tr("capped")] * len(data),
            "wins": list(data["uncapped"]) + list(data["capped"]),
            "share": list(data["share"]) * 2,
        }
    )
    chart = (
        alt.Chart(long)
        .mark_bar()
        .encode(
            x=alt.X("fan:O", title=tr("fan")),
            y=alt.Y("wins:Q", title=tr("wins"), stack="zero"),
            color=alt.Color(
                "kind:N",
                title="",
                scale=alt.Scale(domain=[tr("wins"), tr("capped")], range=["#1565c0", "#c62828"]),
            ),
            tooltip=[
                alt.Tooltip("fan:O", title=tr("fan")),
                alt.Tooltip("kind:N", title=""),
                alt.Tooltip("wins:Q", title=tr("wins")),
                alt.Tooltip("share:Q", title=tr("share"), format=".1%"),
            ],
        )
    )
    return _titled(chart, tr("fan_total_title"))


def pattern_chart(frame: pd.DataFrame, tr: Tr) -> alt.Chart:
    """Wins by base pattern (``label`` holds the pattern's name in the language)."""
    chart = (
        alt.Chart(frame)
        .mark_bar(color="#1565c0")
        .encode(
            y=alt.Y("label:N", title=tr("pattern"), sort="-x", axis=alt.Axis(labelOverlap=False)),
            x=alt.X("wins:Q", title=tr("wins")),
            tooltip=[
                alt.Tooltip("label:N", title=tr("pattern")),
                alt.Tooltip("wins:Q", title=tr("wins")),
                alt.Tooltip("share:Q", title=tr("share"), format=".1%"),
                alt.Tooltip("avg_fan:Q", title=tr("avg_fan"), format=".2f"),
                alt.Tooltip("avg_win_points:Q", title=tr("avg_win_points"), format=".1f"),
            ],
        )
    )
    return _titled(chart, tr("pattern_title"), max(HEIGHT, 90 + ROW_PX * len(frame)))


def roots_chart(frame: pd.DataFrame, tr: Tr) -> alt.Chart:
    chart = (
        alt.Chart(frame)
        .mark_bar(color="#2e7d32")
        .encode(
            x=alt.X("roots:O", title=tr("roots")),
            y=alt.Y("wins:Q", title=tr("wins")),
            tooltip=[
                alt.Tooltip("roots:O", title=tr("roots")),
                alt.Tooltip("wins:Q", title=tr("wins")),
                alt.Tooltip("share:Q", title=tr("share"), format=".1%"),
            ],
        )
    )
    return _titled(chart, tr("roots_title"))


def score_chart(frame: pd.DataFrame, tr: Tr) -> alt.Chart:
    """A player's running net by day."""
    data = frame.assign(played_date=pd.to_datetime(frame["played_date"]))
    chart = (
        alt.Chart(data)
        .mark_line(point=True, color="#6a1b9a")
        .encode(
            x=alt.X("played_date:T", title=tr("day"), axis=_date_axis(tr)),
            y=alt.Y("cumulative_net:Q", title=tr("cumulative_net")),
            tooltip=[
                alt.Tooltip("played_date:T", title=tr("day"), format="%Y-%m-%d"),
                alt.Tooltip("deals:Q", title=tr("deals")),
                alt.Tooltip("net:Q", title=tr("net")),
                alt.Tooltip("cumulative_net:Q", title=tr("cumulative_net")),
            ],
        )
    )
    return _titled(chart, tr("score_title"))


def fan_compare_chart(
    frame: pd.DataFrame, tr: Tr, title_key: str = "fan_dist_title", group: str = "who"
) -> alt.Chart:
    """Share of wins by total fan, grouped (a player and the club; or rule sets)."""
    chart = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("fan:O", title=tr("fan")),
            xOffset=alt.XOffset(f"{group}:N"),
            y=alt.Y("share:Q", title=tr("share"), axis=alt.Axis(format="%")),
            color=alt.Color(f"{group}:N", title=tr(group)),
            tooltip=[
                alt.Tooltip(f"{group}:N", title=tr(group)),
                alt.Tooltip("fan:O", title=tr("fan")),
                alt.Tooltip("wins:Q", title=tr("wins")),
                alt.Tooltip("share:Q", title=tr("share"), format=".1%"),
            ],
        )
    )
    return _titled(chart, tr(title_key))


def _ranked_bars(
    frame: pd.DataFrame,
    tr: Tr,
    *,
    label: tuple[str, str],
    value: str,
    tooltips: list[tuple[str, str | None]],
    color: str,
    title_key: str,
) -> alt.Chart:
    """Horizontal bars, longest first, every label shown: ``label`` is (field, label key),
    ``tooltips`` the quantitative fields (field, number format) after the label."""
    field, label_key = label
    chart = (
        alt.Chart(frame)
        .mark_bar(color=color)
        .encode(
            y=alt.Y(f"{field}:N", title=tr(label_key), sort="-x", axis=alt.Axis(labelOverlap=False)),
            x=alt.X(f"{value}:Q", title=tr(value)),
            tooltip=[
                alt.Tooltip(f"{field}:N", title=tr(label_key)),
                *(
                    alt.Tooltip(f"{name}:Q", title=tr(name), format=fmt)
                    if fmt
                    else alt.Tooltip(f"{name}:Q", title=tr(name))
                    for name, fmt in tooltips
                ),
            ],
        )
    )
    return _titled(chart, tr(title_key), max(200, 40 + ROW_PX * len(frame)))


def win_kind_chart(frame: pd.DataFrame, tr: Tr) -> alt.Chart:
    """How a player wins: wins by kind (``label`` is the kind's name)."""
    return _ranked_bars(
        frame, tr, label=("label", "win_kind"), value="wins", color="#2e7d32", title_key="win_kinds_title",
        tooltips=[("wins", None), ("share", ".1%"), ("avg_fan", ".2f"), ("points", None)],
    )  # fmt: skip


def deal_in_chart(frame: pd.DataFrame, tr: Tr) -> alt.Chart:
    """Where a player loses: points paid to each winner they dealt into."""
    return _ranked_bars(
        frame, tr, label=("winner", "winner"), value="points", color="#c62828", title_key="deal_ins_title",
        tooltips=[("deal_ins", None), ("points", None)],
    )  # fmt: skip


def tablemates_chart(frame: pd.DataFrame, tr: Tr) -> alt.Chart:
    """A player's most frequent tablemates and their net against them."""
    return _ranked_bars(
        frame, tr, label=("mate", "mate"), value="deals", color="#1565c0", title_key="tablemates_title",
        tooltips=[("deals", None), ("net", None)],
    )  # fmt: skip


H2H_SELECTION = "cell"


def h2h_chart(frame: pd.DataFrame, tr: Tr) -> alt.LayerChart:
    """The matrix of points that flowed: a row's player paid the column's; click a cell."""
    cell = alt.selection_point(name=H2H_SELECTION, fields=["from_player", "to_player"], on="click")
    players = max(frame["to_player"].nunique(), 1)
    # every column named: slanted names need no more room than the cell is wide
    base = alt.Chart(frame).encode(
        x=alt.X(
            "to_player:N", title=tr("payee"),
            axis=alt.Axis(orient="top", labelAngle=-45 if players > 6 else 0, labelOverlap=False, labelLimit=120),
        ),
        y=alt.Y("from_player:N", title=tr("payer"), axis=alt.Axis(labelOverlap=False)),
    )  # fmt: skip
    rect = (
        base.mark_rect(stroke="#ffffff")
        .encode(
            color=alt.Color("points:Q", title=tr("points"), scale=alt.Scale(scheme="oranges")),
            opacity=alt.condition(cell, alt.value(1.0), alt.value(0.45)),
            tooltip=[
                alt.Tooltip("from_player:N", title=tr("payer")),
                alt.Tooltip("to_player:N", title=tr("payee")),
                alt.Tooltip("points:Q", title=tr("points")),
                alt.Tooltip("transfers:Q", title=tr("transfers")),
                alt.Tooltip("net:Q", title=tr("pair_net")),
            ],
        )
        .add_params(cell)
    )
    # the numbers fit their cell: smaller as the table grows, none past 12 players (the
    # colour and the tooltip still tell); on a phone's width 19 columns leave no room
    layers: list[alt.Chart] = [rect]
    if players <= 12:
        layers.append(base.mark_text(fontSize=11 if players <= 8 else 9).encode(text=alt.Text("points:Q")))
    return alt.LayerChart(layer=layers).properties(
        title=tr("h2h_title"), height=max(260, 34 * frame["from_player"].nunique())
    )


#: an axis of whole numbers (findings, points): ticks 1 apart at least, no "0.05" or "0.000000"
COUNT_AXIS: Final = alt.Axis(format="d", tickMinStep=1)


def findings_code_chart(frame: pd.DataFrame, tr: Tr) -> alt.Chart:
    """Findings by code; ``code_name`` (the code with its name in the language) labels it."""
    named = "code_name" if "code_name" in frame.columns else "code"
    chart = (
        alt.Chart(frame)
        .mark_bar(color="#c62828")
        .encode(
            y=alt.Y(f"{named}:N", title=tr("code"), sort="-x", axis=alt.Axis(labelOverlap=False)),
            x=alt.X("findings:Q", title=tr("findings"), axis=COUNT_AXIS),
            tooltip=[
                alt.Tooltip(f"{named}:N", title=tr("code")),
                alt.Tooltip("findings:Q", title=tr("findings")),
                alt.Tooltip("deals:Q", title=tr("deals")),
                alt.Tooltip("sessions:Q", title=tr("sessions")),
            ],
        )
    )
    return _titled(chart, tr("audit_by_code"), max(160, 90 + ROW_PX * len(frame)))


def rescore_chart(frame: pd.DataFrame, tr: Tr) -> alt.Chart:
    """Per player: the computed total and the re-scored one, side by side (``kind``)."""
    chart = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("player:N", title=tr("player")),
            xOffset=alt.XOffset("kind:N"),
            y=alt.Y("points:Q", title=tr("points"), axis=COUNT_AXIS),
            color=alt.Color("kind:N", title="", scale=alt.Scale(range=["#1565c0", "#f9a825"])),
            tooltip=[
                alt.Tooltip("player:N", title=tr("player")),
                alt.Tooltip("kind:N", title=""),
                alt.Tooltip("points:Q", title=tr("points")),
            ],
        )
    )
    return _titled(chart, tr("rescore_title"), 240)


# ------------------------------------------------------------------ rating, placements, versus
#: 1st..4th: green to red
PLACE_COLOURS = ["#2e7d32", "#9ccc65", "#ffb74d", "#c62828"]


def rating_chart(frame: pd.DataFrame, tr: Tr) -> alt.Chart:
    """Each player's rating at the end of each day played, one line per player."""
    data = frame.assign(played_date=pd.to_datetime(frame["played_date"]))
    chart = (
        alt.Chart(data)
        .mark_line(interpolate="step-after", strokeWidth=1.5)
        .encode(
            x=alt.X("played_date:T", title=tr("day"), axis=alt.Axis(format="%Y-%m-%d")),
            y=alt.Y("rating:Q", title=tr("rating"), scale=alt.Scale(zero=False)),
            color=alt.Color("player:N", title=tr("player")),
            tooltip=[
                alt.Tooltip("player:N", title=tr("player")),
                alt.Tooltip("played_date:T", title=tr("day"), format="%Y-%m-%d"),
                alt.Tooltip("rating:Q", title=tr("rating"), format=".0f"),
                alt.Tooltip("sessions:Q", title=tr("sessions")),
            ],
        )
    )
    titled: alt.Chart = chart.properties(title=tr("rating_title"), height=HEIGHT + 60, width="container")
    return titled


def placement_chart(frame: pd.DataFrame, tr: Tr, places: int = 4) -> alt.Chart:
    """Placement rates per player as stacked bars (1st at the left), best average first;
    ``places``: the biggest table's seats (three: no 4th in the legend)."""
    names = [tr(f"placement_{k}") for k in range(1, places + 1)]
    long = pd.DataFrame(
        {
            "player": [p for p in frame["player"] for _ in range(places)],
            "placement": [names[k] for _ in range(len(frame)) for k in range(places)],
            "order": [k + 1 for _ in range(len(frame)) for k in range(places)],
            "rate": [
                float(row[f"placement_{k + 1}_rate"]) for _, row in frame.iterrows() for k in range(places)
            ],
            "sessions": [
                int(row[f"placement_{k + 1}"]) for _, row in frame.iterrows() for k in range(places)
            ],
        }
    )
    chart = (
        alt.Chart(long)
        .mark_bar()
        .encode(
            y=alt.Y(
                "player:N", title=tr("player"), sort=list(frame["player"]), axis=alt.Axis(labelOverlap=False)
            ),
            x=alt.X("rate:Q", title=tr("share"), stack="normalize", axis=alt.Axis(format="%")),
            color=alt.Color(
                "placement:N",
                title=tr("placement"),
                scale=alt.Scale(domain=names, range=PLACE_COLOURS[:places]),
            ),
            order=alt.Order("order:Q"),
            tooltip=[
                alt.Tooltip("player:N", title=tr("player")),
                alt.Tooltip("placement:N", title=tr("placement")),
                alt.Tooltip("sessions:Q", title=tr("sessions")),
                alt.Tooltip("rate:Q", title=tr("share"), format=".1%"),
            ],
        )
    )
    height = max(HEIGHT, 26 * len(frame))
    titled: alt.Chart = chart.properties(title=tr("placements_title"), height=height, width="container")
    return titled


def pattern_rates_chart(frame: pd.DataFrame, who: str, tr: Tr) -> alt.Chart:
    """A player's pattern rates (per win) beside the club's: ``label``, ``rate``, ``club_rate``."""
    long = pd.DataFrame(
        {
            "label": list(frame["label"]) * 2,
            "who": [who] * len(frame) + [tr("club_value")] * len(frame),
            "rate": list(frame["rate"]) + list(frame["club_rate"]),
        }
    )
    chart = (
        alt.Chart(long)
        .mark_bar()
        .encode(
            y=alt.Y("label:N", title=tr("pattern"), sort=list(frame["label"]), axis=alt.Axis(labelLimit=260)),
            yOffset=alt.YOffset("who:N", sort=[who, tr("club_value")]),
            x=alt.X("rate:Q", title=tr("per_win"), axis=alt.Axis(format="%")),
            color=alt.Color(
                "who:N", title="", sort=[who, tr("club_value")], scale=alt.Scale(range=["#1565c0", "#9e9e9e"])
            ),
            tooltip=[
                alt.Tooltip("label:N", title=tr("pattern")),
                alt.Tooltip("who:N", title=""),
                alt.Tooltip("rate:Q", title=tr("per_win"), format=".1%"),
            ],
        )
    )
    height = max(HEIGHT, 34 * len(frame))
    titled: alt.Chart = chart.properties(title=tr("pattern_rates_title"), height=height, width="container")
    return titled


def versus_chart(frame: pd.DataFrame, tr: Tr) -> alt.Chart:
    """Two players' rates side by side (``statistic``, ``player``, ``value``), in the deals
    they played together."""
    chart = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            y=alt.Y("statistic:N", title="", sort=None, axis=alt.Axis(labelLimit=200)),
            yOffset=alt.YOffset("player:N"),
            x=alt.X("value:Q", title=tr("share"), axis=alt.Axis(format="%")),
            color=alt.Color("player:N", title=tr("player"), scale=alt.Scale(range=["#1565c0", "#ef6c00"])),
            tooltip=[
                alt.Tooltip("statistic:N", title=tr("statistic")),
                alt.Tooltip("player:N", title=tr("player")),
                alt.Tooltip("value:Q", title=tr("share"), format=".1%"),
            ],
        )
    )
    titled: alt.Chart = chart.properties(title=tr("versus_rates_title"), height=HEIGHT, width="container")
    return titled
