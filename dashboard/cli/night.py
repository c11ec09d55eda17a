"""``chuanma night``: a club's night (今晚结算) settled at once: every session the club
played on a date, per player across the tables, and who pays whom in 元 once
(``dashboard/night.py``), as the chat text, JSON, a PNG and CSV files."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dashboard.cli.options import LangOption, WarehouseOption, echo_text, fail, language_or_fail

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]


def night(
    club: Annotated[str, typer.Option("--club", help="The club (俱乐部) whose night it is.")],
    day: Annotated[
        str, typer.Option("--date", help="The night's date, YYYY-MM-DD (the sessions that began on it).")
    ],
    warehouse: WarehouseOption = Path("data/warehouse"),
    as_json: Annotated[
        bool,
        typer.Option("--json", help="One JSON object: sessions, players, transfers, fee_lines, chat_text."),
    ] = False,
    lang: LangOption = "en",
    png: Annotated[
        Path | None, typer.Option("--png", help="Also write the night's picture (PNG) here.")
    ] = None,
    csv: Annotated[
        Path | None,
        typer.Option(
            "--csv",
            help="Also write the players' CSV here (points and yuan per session and in all), "
            "and who pays whom beside it as <name>-transfers.csv.",
        ),
    ] = None,
) -> None:
    """A club's night (今晚结算): every session of the club on --date settled at once, per
    player across the tables; who pays whom in yuan (元) once, the table fee (台费) as each
    player's own line. A session without money settings (closed without a value of a point)
    counts in points only, and the night names it.

    Exit 0, or 2 for an unknown club or a night without sessions."""
    from analytics.queries import Analytics, Filters
    from dashboard.cli.warehouse import _require_warehouse
    from dashboard.night import chat_text as night_text
    from dashboard.night import load_night, night_dates, night_json, night_png, players_frame, transfers_frame
    from dashboard.session_result import csv_bytes

    language = language_or_fail(lang)
    try:
        when = date.fromisoformat(day)
    except ValueError:
        raise fail(f"--date {day!r} is not a date (YYYY-MM-DD)") from None
    _require_warehouse(warehouse)
    analytics = Analytics(warehouse, kept_only=True)  # the marts the pages keep, never a build
    try:
        clubs = sorted({str(c) for c in analytics.query("filter_options")["club"].dropna()})
        if club not in clubs:
            raise fail(f"no club {club!r} in {warehouse} (clubs: {', '.join(clubs) or 'none'})")

        def lister(filters: Filters) -> pd.DataFrame:
            return analytics.query("session_list", filters, limit=None)

        def pager(name: str, session_id: str) -> pd.DataFrame:
            return analytics.page(name, session_id=session_id)

        found = load_night(lister, pager, warehouse, club, when)
        if found is None:
            nights = ", ".join(d.isoformat() for d in night_dates(lister, club)[:5])
            raise fail(f"club {club!r} played no session on {when} (its latest nights: {nights or 'none'})")
    finally:
        analytics.close()
    if png is not None:
        png.write_bytes(night_png(found, language))
    if csv is not None:
        csv.write_bytes(csv_bytes(players_frame(found)))
        csv.with_name(f"{csv.stem}-transfers.csv").write_bytes(csv_bytes(transfers_frame(found)))
    if as_json:
        typer.echo(json.dumps(night_json(found, language), ensure_ascii=False))
    else:
        echo_text(night_text(found, language))
