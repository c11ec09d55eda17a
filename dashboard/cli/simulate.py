"""``chuanma simulate``: a bot club's legal deals written as log v1, some tampered with on
purpose (test data for the validator and the warehouse)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dashboard.cli.options import RulesOption, fail, rules_or_fail

PLAYERS_HELP = "Club members, at least the rules' seats (4, or 3 or 2); those seats sit at each session."


def simulate(
    out: Annotated[Path, typer.Option("--out", help="Log file to write (.jsonl, or .jsonl.gz to gzip).")],
    players: Annotated[int, typer.Option(min=2, help=PLAYERS_HELP)] = 12,
    sessions: Annotated[int, typer.Option(min=1)] = 10,
    deals_per_session: Annotated[int, typer.Option(min=1)] = 8,
    rules: RulesOption = "standard",
    seed: Annotated[int, typer.Option(help="Same seed, same bytes.")] = 1,
    start: Annotated[str, typer.Option(help="First evening, YYYY-MM-DD.")] = "2026-06-01",
    club: Annotated[
        str, typer.Option(help="The club's name, written on every session (and in its ids).")
    ] = "sample-club",
    tamper: Annotated[
        float,
        typer.Option(
            "--tamper",
            metavar="RATE",
            help="Corrupt about this share (0 to 1) of the deals, each with one or more known "
            "faults (wrong payment, fan or settlement, illegal hu, discard not held, wrong pong, "
            "missed forced hu, broken line, fifth tile), and of the session totals; needs --manifest.",
        ),
    ] = 0.0,
    manifest: Annotated[
        Path | None,
        typer.Option(
            "--manifest",
            metavar="FILE",
            help='With --tamper: one JSON line per corruption, {"deal_id", "line", "code", "kind"}: '
            "the file line where `chuanma validate` must report that finding code (a wrong total: "
            "the session_end line, deal_id the session's last deal).",
        ),
    ] = None,
    sheet_sessions: Annotated[
        float,
        typer.Option(
            "--sheet-sessions",
            metavar="RATE",
            help="Write about this share (0 to 1) of the sessions as score sheets (记分: kongs, "
            "wins with patterns, ready and 花猪 at the wall's end; no tiles), each deal the sheet "
            "version of the deal played. --tamper leaves their deals alone.",
        ),
    ] = 0.0,
) -> None:
    """Play legal deals through the rules engine and write them as log format v1.

    With --tamper, corrupt some deals on purpose and list each corruption in --manifest;
    with --sheet-sessions, write some sessions as score sheets. Exit 2 for a usage error."""
    from datetime import date

    from dashboard.cli.warehouse_reports import with_deal_progress
    from ingest.logs.writer import write_log
    from ingest.simulator.sheet_sessions import with_sheet_sessions
    from ingest.simulator.simulate import ClubPlan, simulate_club

    rule_spec = _playable_rules(rules, players)
    try:
        first = date.fromisoformat(start)
    except ValueError:
        raise fail(f"--start {start!r} is not a date (YYYY-MM-DD)") from None
    _check_shares(tamper, sheet_sessions, manifest, out, club)
    plan = ClubPlan(players, sessions, deals_per_session, rule_spec, seed, first, club=club)
    played = with_deal_progress(simulate_club(plan), sessions * deals_per_session)
    events = with_sheet_sessions(played, sheet_sessions, seed) if sheet_sessions > 0 else played
    if manifest is None:
        lines = write_log(events, out)
        typer.echo(f"wrote {sessions * deals_per_session} deals ({lines} lines) to {out}", err=True)
        return
    from ingest.logs.writer import write_lines
    from ingest.simulator.tamper import Tamperer, write_manifest

    tamperer = Tamperer(tamper, seed)
    lines = write_lines(tamperer.lines(events), out)
    write_manifest(tamperer.manifest, manifest)
    typer.echo(
        f"wrote {tamperer.deals} deals ({lines} lines) to {out}; tampered with {tamperer.tampered} "
        f"deals and {tamperer.wrong_totals} session totals ({len(tamperer.manifest)} corruptions, "
        f"listed in {manifest})",
        err=True,
    )


def _check_shares(tamper: float, sheet_sessions: float, manifest: Path | None, out: Path, club: str) -> None:
    """Usage errors of --tamper, --sheet-sessions, --manifest and --club (exit 2)."""
    if not club.strip():
        raise fail("--club needs a name")
    if not 0.0 <= tamper <= 1.0:
        raise fail(f"--tamper {tamper} is not a share of the deals: give a number from 0 to 1")
    if not 0.0 <= sheet_sessions <= 1.0:
        raise fail(
            f"--sheet-sessions {sheet_sessions} is not a share of the sessions: give a number from 0 to 1"
        )
    if tamper > 0 and manifest is None:
        raise fail("--tamper needs --manifest FILE: the list of corruptions the validator must find")
    if manifest is not None and manifest.resolve() == out.resolve():
        raise fail("--manifest and --out must be different files")


def _playable_rules(rules: str, players: int) -> str | dict[str, object]:
    """The ``--rules`` value as a preset name or an object, or a usage error: rules that do
    not load, a table the tile replay does not play yet (its words), or one with more seats
    than the club has ``players``."""
    import json as json_module

    from engine.table import replay_refusal, table_of

    loaded = rules_or_fail(rules)
    refusal = replay_refusal(loaded) if loaded is not None else None
    if refusal is not None:  # a table the tile replay does not play yet: no deal to simulate
        raise fail(f"--rules {rules}: {refusal}")
    seats = table_of(loaded).players if loaded is not None else 4
    if players < seats:  # a three-seat rule set is played by a club of three, a four-seat one needs four
        raise fail(
            f"--players {players}: --rules {rules} seats {seats} at each session, so the club needs {seats} or more"
        )
    spec: str | dict[str, object] = json_module.loads(rules) if rules.strip().startswith("{") else rules
    return spec
