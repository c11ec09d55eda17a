"""Charts of the pages added by issue 13 (rating over time, placements, pattern rates,
player vs player), built like ``dashboard/charts.py``: the API's column names, a title,
named axes and tooltips, words from ``tr``."""

from __future__ import annotations

import altair as alt
import pandas as pd  # type: ignore[import-untyped]

from dashboard.charts import HEIGHT, Tr

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


def placement_chart(frame: pd.DataFrame, tr: Tr) -> alt.Chart:
    """Placement rates per player as stacked bars (1st at the left), best average first."""
    names = [tr(f"placement_{k}") for k in range(1, 5)]
    long = pd.DataFrame(
        {
            "player": [p for p in frame["player"] for _ in range(4)],
            "placement": [names[k] for _ in range(len(frame)) for k in range(4)],
            "order": [k + 1 for _ in range(len(frame)) for k in range(4)],
            "rate": [float(row[f"placement_{k + 1}_rate"]) for _, row in frame.iterrows() for k in range(4)],
            "sessions": [int(row[f"placement_{k + 1}"]) for _, row in frame.iterrows() for k in range(4)],
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
                "placement:N", title=tr("placement"), scale=alt.Scale(domain=names, range=PLACE_COLOURS)
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
