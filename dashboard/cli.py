"""The ``chuanma`` command line: one typer app; each command imports its layer lazily so
that a quick call such as ``chuanma hand`` starts in well under a second."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

app = typer.Typer(
    help="chuanma: replay, audit and statistics for Sichuan mahjong (四川麻将, 血战到底) logs.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

EXIT_USAGE = 2

if TYPE_CHECKING:
    from engine.rules import Rules

RulesOption = Annotated[
    str,
    typer.Option(
        "--rules",
        help="Preset name (standard, chengdu, online) or a JSON object of overrides, "
        'e.g. \'{"preset": "standard", "max_fan": 4}\'.',
    ),
]


@app.callback()
def root() -> None:
    """chuanma: replay, audit and statistics for Sichuan mahjong (四川麻将, 血战到底) logs."""


def fail(message: str) -> typer.Exit:
    typer.echo(f"chuanma: {message}", err=True)
    return typer.Exit(EXIT_USAGE)


# ``chuanma hand``'s arguments and the situation of the win (its WinContext flags)
HandsArgument = Annotated[
    list[str],
    typer.Argument(
        metavar="HAND...",
        help="Concealed tiles in compact form, then optional melds of 3 (pong) or 4 "
        "(kong) identical tiles, as one quoted argument: '12345678999p 1111m'.",
    ),
]
WinTileOption = Annotated[
    str | None,
    typer.Option(help="Winning tile of a 14-tile hand (default: its last concealed tile)."),
]
SelfDrawOption = Annotated[bool, typer.Option("--self-draw", help="自摸: won on a self-drawn tile.")]
AfterKongOption = Annotated[
    bool,
    typer.Option(
        "--after-kong",
        help="杠上花 with --self-draw (the kong's replacement tile), else 杠上炮 "
        "(the discarder had just konged).",
    ),
]
RobKongOption = Annotated[bool, typer.Option("--rob-kong", help="抢杠胡: won by robbing an added kong.")]
LastTileOption = Annotated[
    bool,
    typer.Option(
        "--last-tile",
        help="海底: won on the wall's last tile (scores where the rules' haidi knob is on).",
    ),
]
FirstTurnOption = Annotated[
    bool,
    typer.Option(
        "--first-turn",
        help="天胡 with --dealer, else 地胡: won on the first tiles (implies --self-draw).",
    ),
]
DealerOption = Annotated[
    bool, typer.Option("--dealer", help="The winner is the dealer (庄), for --first-turn.")
]


@app.command()
def hand(
    hands: HandsArgument,
    rules: RulesOption = "standard",
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per hand, one per line.")] = False,
    win_tile: WinTileOption = None,
    self_draw: SelfDrawOption = False,
    after_kong: AfterKongOption = False,
    rob_kong: RobKongOption = False,
    last_tile: LastTileOption = False,
    first_turn: FirstTurnOption = False,
    dealer: DealerOption = False,
) -> None:
    """Analyse hands: a 14-tile hand's win and fan (番), a 13-tile hand's waits (听牌) and
    its 查大叫 value. Exit 2 when a hand cannot be read."""
    from dashboard.hand_view import describe_report, report_json
    from engine.fan import WinContext
    from engine.hand import analyse_hand
    from engine.rules import RulesError, load_rules
    from engine.tiles import parse_tile

    try:
        rule_set = load_rules(rules)
    except RulesError as error:
        raise fail(str(error)) from None
    try:
        context = WinContext(
            self_draw=self_draw or first_turn,
            after_kong=after_kong,
            robbing_kong=rob_kong,
            last_tile=last_tile,
            first_turn=first_turn,
            dealer=dealer,
        )
        win = parse_tile(win_tile) if win_tile is not None else None
    except ValueError as error:
        raise fail(str(error)) from None
    out = []
    for text in hands:
        try:
            report = analyse_hand(text, rule_set, context, win)
        except ValueError as error:
            raise fail(f"hand {text!r}: {error}") from None
        out.append(
            json.dumps(report_json(report), ensure_ascii=False) if as_json else describe_report(report)
        )
    if not as_json:
        out.insert(0, f"rules: {rule_set.name}")
    typer.echo("\n".join(out))


EXIT_FINDINGS = 3

MaxInflatedOption = Annotated[
    float | None,
    typer.Option(
        "--max-inflated-mb",
        help="Read at most this many MB of text per file (a gzip bomb stops there, with a "
        "bad_record finding); default 256, or CHUANMA_MAX_INFLATED_MB.",
    ),
]
MaxLineOption = Annotated[
    float | None,
    typer.Option(
        "--max-line-kb",
        help="A longer line is a bad_record finding, read no further; default 1024, or CHUANMA_MAX_LINE_KB.",
    ),
]


def _set_limits(max_inflated_mb: float | None, max_line_kb: float | None) -> None:
    """The reader's limits go through the environment, so worker processes see them too."""
    import os

    for name, value in (("CHUANMA_MAX_INFLATED_MB", max_inflated_mb), ("CHUANMA_MAX_LINE_KB", max_line_kb)):
        if value is not None:
            if value <= 0:
                raise fail(
                    f"--{'max-inflated-mb' if 'INFLATED' in name else 'max-line-kb'} must be more than 0"
                )
            os.environ[name] = str(value)


def _echo_text(text: str) -> None:
    """Readable output with terminal control sequences (from names in the data) removed."""
    from dashboard.safe_text import strip_controls

    typer.echo(strip_controls(text))


def _rules_or_fail(spec: str | None) -> Rules | None:
    from engine.rules import RulesError, load_rules

    if spec is None:
        return None
    try:
        return load_rules(spec)
    except RulesError as error:
        raise fail(str(error)) from None


LangOption = Annotated[
    str,
    typer.Option(
        "--lang", metavar="en|zh", help="Language of the text report: en or zh (中文); --json is the same."
    ),
]


def _lang(value: str) -> Literal["en", "zh"]:
    if value not in ("en", "zh"):
        raise fail(f"--lang {value!r}: give en or zh")
    return "zh" if value == "zh" else "en"


@app.command()
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
    lang: LangOption = "en",
    max_inflated_mb: MaxInflatedOption = None,
    max_line_kb: MaxLineOption = None,
) -> None:
    """Replay every deal and recheck every win, fan, payment and settlement.

    Exit 0 when every deal is ok, 3 when anything has findings, 2 for a usage error
    or a path that cannot be read."""
    from dashboard.text_views import finding_line, validation_text
    from engine.replay import StrictStop
    from ingest.validate import validate_paths

    language = _lang(lang)
    override = _rules_or_fail(rules)
    _set_limits(max_inflated_mb, max_line_kb)
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
    if as_json:
        typer.echo(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        _echo_text(validation_text(report, language))
    raise typer.Exit(0 if report.ok else EXIT_FINDINGS)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A log file (.jsonl or .jsonl.gz).")],
    deal: Annotated[str, typer.Option("--deal", help="The deal_id to replay.")],
    rules: Annotated[str | None, typer.Option(help="Replay under these rules instead of the log's.")] = None,
    lang: LangOption = "en",
) -> None:
    """Show one deal turn by turn: hands, melds, the wall, each payment and why, each finding.

    Exit 0 when the deal is ok, 3 when it has findings, 2 when it cannot be found."""
    from dashboard.text_views import replay_printer, say, sheet_printout
    from ingest.reader import read_log
    from ingest.session_replay import SessionReplay

    language = _lang(lang)
    override = _rules_or_fail(rules)
    if not file.is_file():
        raise fail(f"{file}: no such file")
    found = next(((s, d) for s, d in read_log(file).iter_deals() if d.deal.deal_id == deal), None)
    if found is None:
        raise fail(f"{file}: no deal {deal!r}")
    session, deal_log = found
    driver = SessionReplay.of_log(session, override)
    if driver.rules is None:
        raise fail(f"the session's rules cannot be used: {driver.rules_error}")
    dealer = deal_log.deal.dealer
    typer.echo(say("cli_replay_head", language, deal=deal, rules=driver.rules.name, dealer=dealer))
    players = driver.players or ("?",) * 4
    typer.echo(say("cli_seats", language, seats=", ".join(f"{i} {name}" for i, name in enumerate(players))))
    report = driver.replay(deal_log, on_step=replay_printer(typer.echo, language))
    if report.record == "sheet":  # no tiles to show turn by turn: the priced sheet
        sheet_printout(report, typer.echo)
    scores = " ".join(f"{s:+d}" for s in report.scores)
    status = report.status if language == "en" else say(f"status_{report.status}", language)
    typer.echo(say("cli_net", language, scores=scores, status=status, n=len(report.findings)))
    raise typer.Exit(0 if report.status == "ok" else EXIT_FINDINGS)


@app.command()
def simulate(
    out: Annotated[Path, typer.Option("--out", help="Log file to write (.jsonl, or .jsonl.gz to gzip).")],
    players: Annotated[int, typer.Option(min=4, help="Club members; four sit at each session.")] = 12,
    sessions: Annotated[int, typer.Option(min=1)] = 10,
    deals_per_session: Annotated[int, typer.Option(min=1)] = 8,
    rules: RulesOption = "standard",
    seed: Annotated[int, typer.Option(help="Same seed, same bytes.")] = 1,
    start: Annotated[str, typer.Option(help="First evening, YYYY-MM-DD.")] = "2026-06-01",
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
    import json as json_module
    from datetime import date

    from ingest.sheet_sessions import with_sheet_sessions
    from ingest.simulate import ClubPlan, simulate_club
    from ingest.writer import write_log

    _rules_or_fail(rules)
    rule_spec: str | dict[str, object] = json_module.loads(rules) if rules.strip().startswith("{") else rules
    try:
        first = date.fromisoformat(start)
    except ValueError:
        raise fail(f"--start {start!r} is not a date (YYYY-MM-DD)") from None
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
    from dashboard.text_views_warehouse import with_deal_progress

    plan = ClubPlan(players, sessions, deals_per_session, rule_spec, seed, first)
    played = with_deal_progress(simulate_club(plan), sessions * deals_per_session)
    events = with_sheet_sessions(played, sheet_sessions, seed) if sheet_sessions > 0 else played
    if manifest is None:
        lines = write_log(events, out)
        typer.echo(f"wrote {sessions * deals_per_session} deals ({lines} lines) to {out}", err=True)
        return
    from ingest.tamper import Tamperer, write_manifest
    from ingest.writer import write_lines

    tamperer = Tamperer(tamper, seed)
    lines = write_lines(tamperer.lines(events), out)
    write_manifest(tamperer.manifest, manifest)
    typer.echo(
        f"wrote {tamperer.deals} deals ({lines} lines) to {out}; tampered with {tamperer.tampered} "
        f"deals and {tamperer.wrong_totals} session totals ({len(tamperer.manifest)} corruptions, "
        f"listed in {manifest})",
        err=True,
    )


# --------------------------------------------------------------------- warehouse
WarehouseOption = Annotated[
    Path, typer.Option("--warehouse", help="Warehouse folder (Parquet batches + catalog.json).")
]


@app.command()
def ingest(
    paths: Annotated[
        list[Path], typer.Argument(help="Logs (.jsonl, .jsonl.gz), score sheets (.csv, .xlsx) or folders.")
    ],
    warehouse: WarehouseOption = Path("data/warehouse"),
    workers: Annotated[
        int | None,
        typer.Option(help="Local worker processes (default: the machine's cores); 0: in process."),
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option(help="Run on an existing Dask cluster, e.g. tcp://HOST:8786.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="The summary as one JSON object on stdout.")
    ] = False,
    batch_mb: Annotated[
        float,
        typer.Option(help="Close a batch after the file that brings it to this many MB (0: one per file)."),
    ] = 64,
    max_inflated_mb: MaxInflatedOption = None,
    max_line_kb: MaxLineOption = None,
) -> None:
    """Validate logs and store them in the warehouse: every deal ok, findings or invalid,
    lines of no deal and conflicting duplicates in quarantine; files already ingested
    (same sha256) are skipped.

    Exit 0 when every deal read is ok, 3 when any has findings, is invalid, conflicts or
    left lines in quarantine, 2 for a usage error (bad path, warehouse locked)."""
    from dashboard.text_views_warehouse import CliProgress, ingest_text
    from ingest.warehouse import WarehouseError
    from ingest.warehouse import ingest as run_ingest

    if workers is not None and workers < 0:
        raise fail("--workers must be 0 (in process) or more")
    if workers is not None and scheduler is not None:
        raise fail("give --workers or --scheduler, not both")
    _set_limits(max_inflated_mb, max_line_kb)
    from ingest.warehouse.chunks import default_workers

    if workers is not None and workers > default_workers():
        typer.echo(
            f"chuanma: --workers {workers} is more than this machine's {default_workers()} cores; "
            f"using {default_workers()}",
            err=True,
        )
        workers = default_workers()
    try:
        with CliProgress(enabled=not as_json) as progress:
            summary = run_ingest(
                paths, warehouse, workers=workers, scheduler=scheduler, batch_mb=batch_mb, progress=progress
            )
    except (FileNotFoundError, WarehouseError) as error:
        raise fail(str(error)) from None
    for note in summary.recovered:
        typer.echo(
            f"chuanma: batch {note} was not in the catalog; its files were checked and it is listed again",
            err=True,
        )
    for note in summary.moved_aside:
        typer.echo(
            f"chuanma: WARNING: a batch folder the catalog did not list was moved aside: {note}", err=True
        )
    if as_json:
        typer.echo(json.dumps(summary.to_json(), ensure_ascii=False))
    else:
        _echo_text(ingest_text(summary))
    raise typer.Exit(summary.exit_code)


@app.command()
def stats(
    warehouse: WarehouseOption = Path("data/warehouse"),
    player: Annotated[str | None, typer.Option("--player", help="One player's card.")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="A JSON list, one object per player (all statistics).")
    ] = False,
    club: Annotated[str | None, typer.Option(help="Only this club's deals.")] = None,
    date_from: Annotated[str | None, typer.Option("--from", help="First day, YYYY-MM-DD.")] = None,
    date_to: Annotated[str | None, typer.Option("--to", help="Last day, YYYY-MM-DD.")] = None,
    rules: Annotated[str | None, typer.Option(help="Only deals under this rule set name.")] = None,
    with_players: Annotated[
        list[str] | None, typer.Option("--with", help="Only deals where this player sat too (repeatable).")
    ] = None,
    lang: LangOption = "en",
) -> None:
    """Player statistics from the warehouse: the player table, or one player's card.

    Exit 0 with statistics, 2 when the warehouse or the player has none."""
    from datetime import date

    from analytics.queries import Analytics, Filters
    from dashboard.text_views_warehouse import audit_text, player_card_text, player_table_text, records_json
    from ingest.warehouse import CATALOG, WarehouseError, batch_folders, require_readable

    try:
        if not (warehouse / CATALOG).is_file() and not batch_folders(warehouse):
            raise fail(f"{warehouse}: no warehouse here (run chuanma ingest first)")
        require_readable(warehouse)
    except WarehouseError as error:
        raise fail(str(error)) from None
    try:
        first = date.fromisoformat(date_from) if date_from else None
        last = date.fromisoformat(date_to) if date_to else None
    except ValueError as error:
        raise fail(f"--from/--to: {error}") from None
    language = _lang(lang)
    filters = Filters(player, club, first, last, rules, tuple(with_players or ()))
    analytics = Analytics(warehouse, materialize=False)  # one query: read the Parquet once
    try:
        frame = analytics.player_table(filters)  # player_stats + placements and rating (added keys)
        audit = analytics.findings_summary(filters) if player is None and not as_json else None
    finally:
        analytics.close()
    if player is not None and frame.empty:
        raise fail(f"no deals of player {player!r} in {warehouse}")
    if as_json:
        typer.echo(records_json(frame))
    elif player is not None:
        _echo_text(player_card_text(frame.iloc[0].to_dict(), language))
    else:
        _echo_text(player_table_text(frame, language))
        if audit is not None:
            _echo_text(audit_text(audit, language))


LOCAL_ADDRESSES = frozenset({"localhost", "127.0.0.1", "::1"})


@app.command()
def dashboard(
    warehouse: WarehouseOption = Path("data/warehouse"),
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to serve on.")] = 8501,
    address: Annotated[
        str,
        typer.Option(
            help="Address to listen on (default localhost only); beyond localhost the Upload "
            "page is read-only unless an upload token is set."
        ),
    ] = "localhost",
    upload_token: Annotated[
        str | None,
        typer.Option(
            "--upload-token",
            help="Ingesting on the Upload page asks for this token (or set CHUANMA_UPLOAD_TOKEN, "
            "or upload_token in .streamlit/secrets.toml).",
        ),
    ] = None,
) -> None:
    """Serve the dashboard (Streamlit) on http://ADDRESS:PORT for the warehouse's data.

    Runs until stopped (Ctrl-C or SIGTERM: this process becomes the server). An empty or
    missing warehouse shows how to load data."""
    import os
    import sys

    from dashboard.config import UPLOAD_TOKEN_ENV, WAREHOUSE_ENV

    script = Path(__file__).with_name("app.py")
    folder = warehouse.resolve()
    command = [
        sys.executable, "-m", "streamlit", "run", str(script),
        "--server.port", str(port), "--server.address", address, "--server.headless", "true",
        "--browser.gatherUsageStats", "false", "--client.toolbarMode", "viewer",
        "--", "--warehouse", str(folder),
    ]  # fmt: skip
    env = {**os.environ, WAREHOUSE_ENV: str(folder)}
    if upload_token is not None:
        env[UPLOAD_TOKEN_ENV] = upload_token
    if address not in LOCAL_ADDRESSES and not env.get(UPLOAD_TOKEN_ENV):
        typer.echo(
            f"chuanma dashboard: listening on {address}: the Upload page is read-only "
            "(set --upload-token to let those who know it ingest)",
            err=True,
        )
    typer.echo(f"chuanma dashboard: http://{address}:{port} (warehouse {folder}); Ctrl-C stops it", err=True)
    sys.stdout.flush()
    sys.stderr.flush()
    # exec: the server is this process, so a SIGTERM or Ctrl-C reaches it and no child is left
    try:
        os.execve(sys.executable, command, env)
    except OSError as error:
        raise fail(f"cannot start the dashboard ({error.strerror or error})") from None


# ----------------------------------------------------------------- warehouse care
warehouse_app = typer.Typer(
    help="Look after a warehouse: check every listed file, rebuild a lost catalog.",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(warehouse_app, name="warehouse")


@warehouse_app.command("check")
def warehouse_check(
    warehouse: WarehouseOption = Path("data/warehouse"),
    as_json: Annotated[bool, typer.Option("--json", help="The result as one JSON object.")] = False,
) -> None:
    """Open every file the catalog lists and read all its rows; list the batch folders it
    does not list. Exit 0 when all is well, 2 when anything is damaged or unlisted."""
    from ingest.warehouse import CATALOG, WarehouseError, read_catalog, unlisted_batches, verify_parts

    try:
        exists = (warehouse / CATALOG).exists()
        catalog = read_catalog(warehouse)
        problems = verify_parts(warehouse, catalog, full=True)
        unlisted = [str(p) for p in unlisted_batches(warehouse, catalog)]
    except WarehouseError as error:
        raise fail(str(error)) from None
    if unlisted:
        what = "is missing" if not exists else "does not list them"
        problems.append(
            f"{len(unlisted)} batch folder(s) not in the catalog ({warehouse / CATALOG} {what}): "
            f"{', '.join(unlisted)}; take them back with: chuanma warehouse rebuild-catalog --warehouse {warehouse}"
        )
    files = sum(len(p) for b in catalog["batches"] for p in b.get("parts", {}).values())
    if as_json:
        typer.echo(json.dumps({"warehouse": str(warehouse), "batches": len(catalog["batches"]),
                               "files": files, "problems": problems}, ensure_ascii=False))  # fmt: skip
    else:
        for problem in problems:
            _echo_text(f"PROBLEM {problem}")
        _echo_text(f"{warehouse}: {len(catalog['batches'])} batch(es), {files} file(s) checked, "
                   f"{len(problems)} problem(s)")  # fmt: skip
    raise typer.Exit(EXIT_USAGE if problems else 0)


@warehouse_app.command("rebuild-catalog")
def warehouse_rebuild(warehouse: WarehouseOption = Path("data/warehouse")) -> None:
    """Rebuild catalog.json from the batch folders (each holds its own entry, and its rows
    name their files): keeps what a readable catalog lists, adds every unlisted batch,
    moves unreadable ones to orphans/. A damaged catalog is kept beside, renamed.
    Exit 0, or 2 when the warehouse cannot be used (locked, read-only)."""
    from ingest.warehouse import WarehouseError, rebuild_catalog

    if not warehouse.is_dir():
        raise fail(f"{warehouse}: no such folder")
    try:
        done, kept = rebuild_catalog(warehouse)
    except WarehouseError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"{error.filename or warehouse}: {error.strerror or error}") from None
    if kept:
        _echo_text(f"the damaged catalog was kept as {warehouse / kept}")
    for batch in done.recovered:
        _echo_text(f"listed again: {batch}")
    for note in done.moved_aside:
        _echo_text(f"moved aside: {note}")
    _echo_text(
        f"{warehouse}: {len(done.recovered)} batch(es) listed again, {len(done.moved_aside)} moved aside"
    )


def main() -> None:
    app()


if __name__ == "__main__":
    main()
