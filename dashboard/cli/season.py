"""``chuanma season``: a club's seasons (赛季), the date ranges its leaderboards are read
over, each with the least deals and sessions to be ranked (规定局数); kept in
``<warehouse>/seasons.json`` (``analytics/seasons.py``)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dashboard.cli.options import WarehouseOption, echo_text, fail

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

    from analytics.seasons import Season

season_app = typer.Typer(
    help="A club's seasons (赛季): add, list, remove. The dashboard's sidebar offers them as periods, "
    "and `chuanma stats --season NAME` reads its statistics over one.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
ClubOption = Annotated[
    str | None, typer.Option("--club", help="The club the season is of; without it, every club's.")
]


def _day(text: str, flag: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise fail(f"{flag} {text!r} is not a date (YYYY-MM-DD)") from None


@season_app.command("add")
def season_add(
    name: Annotated[str, typer.Argument(help="The season's name, e.g. '2026 春季'.")],
    first: Annotated[str, typer.Option("--from", help="Its first day, YYYY-MM-DD.")],
    last: Annotated[str, typer.Option("--to", help="Its last day, YYYY-MM-DD.")],
    club: ClubOption = None,
    min_deals: Annotated[
        int, typer.Option("--min-deals", help="规定局数: the least deals a player needs to be ranked.")
    ] = 0,
    min_sessions: Annotated[
        int, typer.Option("--min-sessions", help="The least sessions a player needs to be ranked.")
    ] = 0,
    warehouse: WarehouseOption = Path("data/warehouse"),
) -> None:
    """Define a season (a season of the same name and club is replaced). Exit 0, or 2
    when the dates or the numbers make no sense."""
    from analytics.seasons import Season, SeasonError, add_season

    season = Season(name, _day(first, "--from"), _day(last, "--to"), club, min_deals, min_sessions)
    try:
        add_season(warehouse, season)
    except SeasonError as error:
        raise fail(str(error)) from None
    echo_text(f"season {name!r}: {season.first} – {season.last}" + (f" (club {club})" if club else ""))


@season_app.command("list")
def season_list(
    warehouse: WarehouseOption = Path("data/warehouse"),
    as_json: Annotated[bool, typer.Option("--json", help="A JSON list, one object per season.")] = False,
) -> None:
    """The seasons defined, earliest first."""
    from analytics.seasons import SeasonError, load_seasons

    try:
        seasons = load_seasons(warehouse)
    except SeasonError as error:
        raise fail(str(error)) from None
    if as_json:
        typer.echo(json.dumps([s.to_json() for s in seasons], ensure_ascii=False))
        return
    for s in seasons:
        least = (
            f", ranked from {s.min_deals} deals / {s.min_sessions} sessions"
            if s.min_deals or s.min_sessions
            else ""
        )
        echo_text(f"{s.name}: {s.first} – {s.last} ({s.club or 'every club'}){least}")
    if not seasons:
        echo_text(f"no seasons defined in {warehouse} (add one with: chuanma season add NAME --from --to)")


@season_app.command("remove")
def season_remove(
    name: Annotated[str, typer.Argument(help="The season's name.")],
    club: ClubOption = None,
    warehouse: WarehouseOption = Path("data/warehouse"),
) -> None:
    """Forget a season's definition (no deal changes). Exit 2 when it is not defined."""
    from analytics.seasons import SeasonError, remove_season

    try:
        remove_season(warehouse, name, club)
    except SeasonError as error:
        raise fail(str(error)) from None
    echo_text(f"season {name!r} removed")


def season_or_fail(warehouse: Path, name: str, club: str | None) -> Season:
    """The season ``chuanma stats --season`` names, or a usage error saying which exist."""
    from analytics.seasons import SeasonError, find_season, load_seasons

    try:
        return find_season(load_seasons(warehouse), name, club)
    except SeasonError as error:
        raise fail(str(error)) from None


def with_ranked(frame: pd.DataFrame, season: Season, *, only_ranked: bool) -> pd.DataFrame:
    """The player table with ``ranked`` (the season's least deals and sessions met) when
    the season sets a minimum; ``only_ranked`` keeps the ranked players alone."""
    if not (season.min_deals or season.min_sessions):
        return frame
    from analytics.seasons import split_ranked

    ranked, _ = split_ranked(frame, season.min_deals, season.min_sessions)
    marked = frame.assign(ranked=frame.index.isin(ranked.index))
    return marked[marked["ranked"]] if only_ranked else marked
