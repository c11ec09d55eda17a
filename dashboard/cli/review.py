"""``chuanma review``: 复盘, how each player played (docs/cli.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from dashboard.cli.options import (
    DEFAULT_WAIT_S,
    LangOption,
    WaitOption,
    fail,
    language_or_fail,
    rules_or_fail,
)


def review(
    paths: Annotated[
        list[Path] | None, typer.Argument(help="Logs (.jsonl, .jsonl.gz), score sheets or folders.")
    ] = None,
    warehouse: Annotated[
        Path | None,
        typer.Option("--warehouse", help="Review the deals stored in this warehouse instead of logs."),
    ] = None,
    club: Annotated[
        str | None, typer.Option("--club", help="With --warehouse: only this club's deals.")
    ] = None,
    player: Annotated[
        str | None, typer.Option("--player", help="Only this player's deals and summary.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Every decision and each player's summary as JSON.")
    ] = False,
    rules: Annotated[str | None, typer.Option(help="Replay under these rules instead of the logs'.")] = None,
    store: Annotated[
        bool,
        typer.Option(
            "--store",
            help="With --warehouse: review the stored deals not reviewed yet and keep their figures "
            "with the marts (a second run does nothing).",
        ),
    ] = False,
    workers: Annotated[
        int | None, typer.Option(help="With --store: worker processes (default: the cores); 0: in process.")
    ] = None,
    wait: WaitOption = DEFAULT_WAIT_S,
    lang: LangOption = "en",
) -> None:
    """Review every decision of every tile deal: each discard against the best (shanten,
    effective tiles), 定缺, 换三张, wins passed, deal-ins, the wall's end; and each player's
    summary with where its points came from (score sheets: the points only). With
    --warehouse, the stored deals (the summaries as the review step kept them); with
    --warehouse --store, that step: the stored deals not reviewed yet are reviewed and
    their figures kept. Exit 2 for a path that cannot be read."""
    from dashboard.cli.reports import say
    from ingest.review import review_paths

    language = language_or_fail(lang)
    if (warehouse is None) == (not paths):
        raise fail("give logs to review, or --warehouse DIR (not both)")
    if store:
        from dashboard.cli.review_store import echo_store, run_store

        if warehouse is None or player is not None or club is not None or rules is not None:
            raise fail("--store goes with --warehouse alone (it reviews every deal not reviewed yet)")
        echo_store(run_store(warehouse, workers, wait, bar=not as_json), language, as_json)
        return
    if warehouse is not None:
        data: dict[str, Any] = _stored(warehouse, player, club)
        head = say("cli_review_stored", language, deals=len(data["deals"]), warehouse=warehouse)
    else:
        if club is not None:
            raise fail("--club goes with --warehouse")
        override = rules_or_fail(rules)
        try:
            report = review_paths(paths or [], override)
        except FileNotFoundError as error:
            raise fail(str(error)) from None
        data = report.to_json(player)
        if player is not None and player not in data["players"]:
            raise fail(f"no player {player!r} in these logs ({', '.join(sorted(report.players)) or 'none'})")
        head = say("cli_review_head", language, deals=len(data["deals"]), files=len(data["files"]))
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    lines = [head]
    pending = data.get("not_reviewed") or {}
    if pending.get("deals"):
        lines.append(say("cli_review_pending", language, **{k: pending[k] for k in ("deals", "command")}))
    club_start: float | None = data["club"]["average_start_shanten"]
    for name, summary in data["players"].items():
        lines.extend(_player_lines(name, summary, club_start, language))
    typer.echo("\n".join(lines))


def _stored(root: Path, player: str | None, club: str | None) -> dict[str, Any]:
    """The review of a warehouse's stored deals (dashboard/review_report.py), or exit 2."""
    from analytics.queries import Analytics, Filters
    from dashboard.review_report import warehouse_review
    from ingest.warehouse import WarehouseError

    if not (root / "catalog.json").is_file():
        raise fail(f"no warehouse at {root} (no catalog.json)")
    try:
        analytics = Analytics(root)
    except WarehouseError as error:
        raise fail(str(error)) from None
    try:
        data = warehouse_review(analytics, Filters(player=player, club=club))
    finally:
        analytics.close()
    data["not_reviewed"]["message"] = pending_message(data["not_reviewed"])
    if player is not None and player not in data["players"]:
        raise fail(f"no player {player!r} in this warehouse ({', '.join(sorted(data['players'])) or 'none'})")
    return data


def pending_message(pending: dict[str, Any]) -> dict[str, str] | None:
    """What the deals not reviewed yet mean and the command, in both languages (None: none)."""
    from dashboard.i18n import both

    if not pending["deals"]:
        return None
    return both("cli_review_pending", deals=pending["deals"], command=pending["command"])


def _show(value: Any) -> str:
    return "-" if value is None else str(value)


def _player_lines(name: str, s: dict[str, Any], club: float | None, language: Any) -> list[str]:
    from dashboard.cli.reports import say

    period = f" {s['period'][0]}..{s['period'][1]}" if s["period"] else ""
    return [
        say("cli_review_player", language, name=name, deals=s["deals"], tile_deals=s["tile_deals"], period=period),
        say(
            "cli_review_discards", language, discards=s["discards"], best=_show(s["best_pct"]),
            loss=_show(s["average_loss"]), backward=_show(s["backward_pct"]),
        ),
        say("cli_review_luck", language, void=_show(s["void_agreement_pct"]), start=_show(s["average_start_shanten"]), club=_show(club)),
        say(
            "cli_review_risk", language, deal_ins=s["deal_ins"], not_ready=s["deal_ins_not_ready"],
            forced=s["forced_deal_ins"], passes=s["passes"], fan=s["passed_fan"], won=s["passed_then_won"],
            won_fan=s["passed_then_won_fan"],
        ),
        say("cli_review_money", language, **s["money"]),
        *([say("cli_review_sheets", language, sheets=s["sheet_deals"])] if s.get("sheet_deals") else []),
        *([say("cli_review_not_reviewed", language, deals=s["not_reviewed"])] if s.get("not_reviewed") else []),
    ]  # fmt: skip
