"""``chuanma validate`` and ``chuanma replay``: the audit of logs and score sheets, and one
deal shown turn by turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from dashboard.cli.options import (
    EXIT_FINDINGS,
    LangOption,
    MaxInflatedOption,
    MaxLineOption,
    echo_text,
    fail,
    language_or_fail,
    rules_or_fail,
    set_limits,
)


def validate(
    paths: Annotated[
        list[Path], typer.Argument(help="Logs (.jsonl, .jsonl.gz), score sheets (.csv, .xlsx) or folders.")
    ],
    rules: Annotated[
        str | None,
        typer.Option(help="Replay every deal under these rules instead of the log's (a preset or JSON)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="The validation report as one JSON object.")
    ] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Stop at the first finding.")] = False,
    only_findings: Annotated[
        bool,
        typer.Option(
            "--only-findings",
            help="List only the deals that are not ok (findings or invalid); the summary still counts every deal.",
        ),
    ] = False,
    lang: LangOption = "en",
    max_inflated_mb: MaxInflatedOption = None,
    max_line_kb: MaxLineOption = None,
) -> None:
    """Replay every deal and recheck every win, fan, payment and settlement.

    Exit 0 when every deal is ok, 3 when anything has findings or a deal is invalid
    (not replayed to its end: its status says so, never ok), 2 for a usage error or a
    path that cannot be read."""
    from dashboard.cli.reports import finding_line, validation_text
    from engine.replay import StrictStop
    from ingest.replay.validate import validate_paths

    language = language_or_fail(lang)
    override = rules_or_fail(rules)
    set_limits(max_inflated_mb, max_line_kb)
    try:
        report = validate_paths(paths, override, strict=strict)
    except FileNotFoundError as error:
        raise fail(str(error)) from None
    except StrictStop as stop:
        if as_json:
            typer.echo(json.dumps({"strict_stop": stop.finding.to_json(), "file": stop.finding.file}))
        else:
            typer.echo(f"{stop.finding.file}: " + finding_line(stop.finding, "", language))
        raise typer.Exit(EXIT_FINDINGS) from None
    if report.empty:
        raise fail(f"{', '.join(report.files)}: nothing to read (no deal, no session: empty or no record)")
    if as_json:
        from dashboard.findings_view import report_with_text

        data = report_with_text(report, language)
        if only_findings:
            data["deals"] = [deal for deal in data["deals"] if deal["status"] != "ok"]
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        echo_text(validation_text(report, language, only_findings=only_findings))
    raise typer.Exit(0 if report.ok else EXIT_FINDINGS)


def replay(
    file: Annotated[
        Path,
        typer.Argument(
            help="A log (.jsonl, .jsonl.gz), a score sheet, a platform's export, or a folder of them."
        ),
    ],
    deal: Annotated[str, typer.Option("--deal", help="The deal_id to replay.")],
    rules: Annotated[str | None, typer.Option(help="Replay under these rules instead of the log's.")] = None,
    lang: LangOption = "en",
) -> None:
    """Show one deal turn by turn: hands, melds, the wall, each payment and why, each finding.

    Exit 0 when the deal is ok, 3 when it has findings, 2 when it cannot be found."""
    from dashboard.cli.reports import replay_printer, say, seat_voice, sheet_printout
    from dashboard.findings_view import seat_base
    from ingest.replay.files import read_log
    from ingest.replay.session_replay import SessionReplay
    from ingest.replay.validate import find_logs

    language = language_or_fail(lang)
    override = rules_or_fail(rules)
    try:
        paths = find_logs([file])
    except FileNotFoundError as error:
        raise fail(str(error)) from None
    seen: list[str] = []
    found = None
    for path in paths:
        for session_log, candidate in read_log(path).iter_deals():
            seen.append(candidate.deal.deal_id)
            if candidate.deal.deal_id == deal:
                found, file = (session_log, candidate), path
                break
        if found is not None:
            break
    if found is None:
        held = (
            f"it holds {', '.join(seen[:5])}{' …' if len(seen) > 5 else ''}" if seen else "it holds no deal"
        )
        raise fail(f"{file}: no deal {deal!r} ({held})")
    session, deal_log = found
    driver = SessionReplay.of_log(session, override)
    if driver.rules is None:
        raise fail(f"the session's rules cannot be used: {driver.rules_error}")
    first = seat_base(deal_log.deal.record, str(file))  # the seats as the log counts them (a sheet 1-4)
    dealer = deal_log.deal.dealer + first
    typer.echo(say("cli_replay_head", language, deal=deal, rules=driver.rules.name, dealer=dealer))
    players = driver.players or ("?",) * 4
    typer.echo(
        say("cli_seats", language, seats=", ".join(f"{i} {name}" for i, name in enumerate(players, first)))
    )
    voice = seat_voice(driver.players or (), first)  # the findings name the players
    report = driver.replay(deal_log, on_step=replay_printer(typer.echo, language, voice))
    if report.record == "sheet":  # no tiles to show turn by turn: the priced sheet
        sheet_printout(report, typer.echo, voice)
    scores = " ".join(f"{s:+d}" for s in report.scores)
    status = report.status if language == "en" else say(f"status_{report.status}", language)
    typer.echo(say("cli_net", language, scores=scores, status=status, n=len(report.findings)))
    raise typer.Exit(0 if report.status == "ok" else EXIT_FINDINGS)
