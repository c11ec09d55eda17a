"""``chuanma ingest``, ``chuanma stats`` and ``chuanma warehouse check|rebuild-catalog|compact``:
logs into the warehouse, statistics out of it, and its care."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

    from analytics.queries import Analytics
    from ingest.warehouse import IngestSummary

from dashboard.cli.options import (
    DEFAULT_WAIT_S,
    EXIT_USAGE,
    LangOption,
    MaxInflatedOption,
    MaxLineOption,
    WaitOption,
    WarehouseOption,
    echo_text,
    fail,
    language_or_fail,
    set_limits,
)

REVIEW_HELP = "Then review the stored deals not reviewed yet (chuanma review --warehouse DIR --store)."


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
    wait: WaitOption = DEFAULT_WAIT_S,
    review: Annotated[bool, typer.Option("--review", help=REVIEW_HELP)] = False,
    lang: LangOption = "en",
) -> None:
    """Validate logs and store them in the warehouse: every deal ok, findings or invalid,
    lines of no deal and conflicting duplicates in quarantine; files already ingested
    (same sha256) are skipped. Small batches are merged at the end (see warehouse compact).
    The review (复盘) is a step of its own after this one: --review runs it right after.
    When another writer (a page's save, an upload, another ingest) holds the warehouse,
    this one waits its turn, up to --wait seconds.

    Exit 0 when every deal read is ok, 3 when any has findings, is invalid, conflicts or
    left lines in quarantine, 2 for a usage error (bad path, warehouse locked)."""
    from dashboard.cli.warehouse_reports import CliProgress
    from dashboard.ingest_report import ingest_text
    from ingest.warehouse import WarehouseError
    from ingest.warehouse import ingest as run_ingest

    if workers is not None and workers < 0:
        raise fail("--workers must be 0 (in process) or more")
    if workers is not None and scheduler is not None:
        raise fail("give --workers or --scheduler, not both")
    set_limits(max_inflated_mb, max_line_kb)
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
                paths,
                warehouse,
                workers=workers,
                scheduler=scheduler,
                batch_mb=batch_mb,
                progress=progress,
                wait=wait,
            )
    except (FileNotFoundError, WarehouseError) as error:
        raise fail(str(error)) from None
    _echo_notes(summary)
    if summary.read_nothing:
        names = ", ".join(f.file for f in summary.files)
        raise fail(f"{names}: nothing to read (no deal, no session: empty or no record)")
    if review:  # the review step, after the ingest's own lock is released
        _echo_with_review(summary, warehouse, workers, wait, as_json, lang)
    elif as_json:
        typer.echo(json.dumps(summary.to_json(), ensure_ascii=False))
    else:
        echo_text(ingest_text(summary))
    raise typer.Exit(summary.exit_code)


def _echo_with_review(
    summary: IngestSummary, warehouse: Path, workers: int | None, wait: float, as_json: bool, lang: str
) -> None:
    """``ingest --review``: the review step, then the ingest's report with its line (its
    object under ``review`` in the JSON)."""
    from dashboard.cli.review_store import run_store, store_text
    from dashboard.ingest_report import ingest_text

    reviewed = run_store(warehouse, workers, wait, bar=not as_json)
    if as_json:
        typer.echo(json.dumps({**summary.to_json(), "review": reviewed.to_json()}, ensure_ascii=False))
        return
    echo_text(ingest_text(summary))
    typer.echo(store_text(reviewed, language_or_fail(lang)))


def _echo_notes(summary: IngestSummary) -> None:
    """What the ingest mended or could not do, on stderr (the report stays on stdout)."""
    for note in summary.recovered:
        typer.echo(
            f"chuanma: batch {note} was not in the catalog; its files were checked and it is listed again",
            err=True,
        )
    for note in summary.moved_aside:
        typer.echo(
            f"chuanma: WARNING: a batch folder the catalog did not list was moved aside: {note}", err=True
        )
    if summary.merge_error:
        typer.echo(f"chuanma: WARNING: {summary.merge_error}", err=True)


SeatsOption = Annotated[
    int | None,
    typer.Option(
        "--seats",
        min=2,
        max=4,
        help="Only tables of this size (4, 3 or 2 players): a club that plays at several sizes "
        "gets each size's rates apart.",
    ),
]


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
    season: Annotated[
        str | None,
        typer.Option(
            "--season",
            help="Over one season's dates (chuanma season add); with its least deals/sessions, "
            "the JSON gains 'ranked' and the table lists only the ranked players.",
        ),
    ] = None,
    lang: LangOption = "en",
    seats: SeatsOption = None,
) -> None:
    """Player statistics from the warehouse: the player table, or one player's card.

    Exit 0 with statistics, 2 when the warehouse or the player has none."""
    from datetime import date

    from analytics.queries import Analytics, Filters
    from dashboard.cli.warehouse_reports import audit_text, player_card_text, player_table_text, records_json

    _require_warehouse(warehouse)
    try:
        first = date.fromisoformat(date_from) if date_from else None
        last = date.fromisoformat(date_to) if date_to else None
    except ValueError as error:
        raise fail(f"--from/--to: {error}") from None
    language = language_or_fail(lang)
    chosen = None
    if season is not None:
        from dashboard.cli.season import season_or_fail

        if first or last:
            raise fail("--season gives the dates: leave out --from and --to")
        chosen = season_or_fail(warehouse, season, club)
        first, last = chosen.first, chosen.last
    filters = Filters(player, club, first, last, rules, tuple(with_players or ()), seats)
    analytics = Analytics(warehouse, kept_only=True)  # the marts the pages keep, never a build
    _warn_if_roster_unreadable(analytics)
    try:
        frame = analytics.player_table(filters)  # player_stats + placements and rating (added keys)
        audit = analytics.findings_summary(filters) if player is None and not as_json else None
        named = analytics.players_named(player) if player is not None and frame.empty else []
        guests = analytics.guests() if player is None else set()
    finally:
        analytics.close()
    if len(named) > 1:  # players are per club: the bare name is several people
        shown = ", ".join(repr(p) for p in named)
        raise fail(f"{player!r} plays in several clubs, so it is several players: {shown}; pick one")
    if player is not None and frame.empty:
        raise fail(f"no deals of player {player!r} in {warehouse}")
    if seats is None and not as_json:
        _warn_if_sizes_mixed(frame)
    if chosen is not None:
        from dashboard.cli.season import with_ranked

        frame = with_ranked(frame, chosen, only_ranked=not as_json and player is None)
    frame, listed_apart = _guests_apart(frame, guests, as_json=as_json)
    if as_json:
        typer.echo(records_json(frame))
    elif player is not None:
        echo_text(player_card_text(frame.iloc[0].to_dict(), language))
    else:
        echo_text(player_table_text(frame, language) + _guests_line(listed_apart))
        if audit is not None:
            echo_text(audit_text(audit, language))


def _require_warehouse(warehouse: Path) -> None:
    """A usage error (exit 2) where there is no warehouse, or one that cannot be read."""
    from ingest.warehouse import CATALOG, WarehouseError, batch_folders, require_readable

    try:
        if not (warehouse / CATALOG).is_file() and not batch_folders(warehouse):
            raise fail(f"{warehouse}: no warehouse here (run chuanma ingest first)")
        require_readable(warehouse)
    except WarehouseError as error:
        raise fail(str(error)) from None


def _warn_if_sizes_mixed(frame: pd.DataFrame) -> None:
    """Rates over tables of several sizes mix them (a three-player table wins more often per
    deal than a four-player one): say so on stderr, with the flag that keeps them apart."""
    sizes = sorted({int(n) for row in frame.get("table_sizes", []) for n in row})
    if len(sizes) > 1:
        listed = ", ".join(str(n) for n in sizes)
        typer.echo(
            f"note: these deals were played at tables of {listed} players; --seats N counts one size",
            err=True,
        )


def _warn_if_roster_unreadable(analytics: Analytics) -> None:
    """Names as recorded when the roster cannot be read: say so on stderr (JSON stays clean)."""
    if analytics.roster_error is not None:
        typer.echo(f"warning: {analytics.roster_error}; names are shown as recorded", err=True)


def _guests_apart(
    frame: pd.DataFrame, guests: set[str], *, as_json: bool
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The player table and the roster's guests listed apart (``analytics/roster.py``): in
    JSON every row is marked ``guest`` (an added key, only when the roster has guests); the
    text table leaves them out and names them below it."""
    if not guests:
        return frame, frame.iloc[0:0]
    if as_json:
        return frame.assign(guest=frame["player"].isin(sorted(guests))), frame.iloc[0:0]
    from analytics.roster import guests_split

    members, apart = guests_split(frame, guests)
    return members, apart


def _guests_line(apart: pd.DataFrame) -> str:
    """The line under the text table naming the guests it leaves out ("" for none)."""
    names = ", ".join(str(p) for p in apart["player"])
    return f"\nguests (not ranked) / 客人: {names}" if names else ""


# ----------------------------------------------------------------- warehouse care
warehouse_app = typer.Typer(
    help="Look after a warehouse: check every listed file, rebuild a lost catalog, merge small batches.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


@warehouse_app.command("check")
def warehouse_check(
    warehouse: WarehouseOption = Path("data/warehouse"),
    as_json: Annotated[bool, typer.Option("--json", help="The result as one JSON object.")] = False,
) -> None:
    """Open every file the catalog lists and read all its rows; list the batch folders it
    does not list. Exit 0 when all is well, 2 when anything is damaged or unlisted."""
    from ingest.warehouse import (
        CATALOG,
        WarehouseError,
        merge_leftovers,
        read_catalog,
        unlisted_batches,
        verify_parts,
    )

    try:
        exists = (warehouse / CATALOG).exists()
        catalog = read_catalog(warehouse)
        problems = verify_parts(warehouse, catalog, full=True)
        unlisted = [str(p) for p in unlisted_batches(warehouse, catalog)]
        copies = [str(p) for p in merge_leftovers(warehouse, catalog)]
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
                               "files": files, "problems": problems, "merge_leftovers": copies},
                              ensure_ascii=False))  # fmt: skip
    else:
        for problem in problems:
            echo_text(f"PROBLEM {problem}")
        for copy in copies:
            echo_text(
                f"note: {copy} is a copy a merge left (its rows are in a listed batch); the next write removes it"
            )
        echo_text(f"{warehouse}: {len(catalog['batches'])} batch(es), {files} file(s) checked, "
                   f"{len(problems)} problem(s)")  # fmt: skip
    raise typer.Exit(EXIT_USAGE if problems else 0)


@warehouse_app.command("rebuild-catalog")
def warehouse_rebuild(
    warehouse: WarehouseOption = Path("data/warehouse"), wait: WaitOption = DEFAULT_WAIT_S
) -> None:
    """Rebuild catalog.json from the batch folders (each holds its own entry, and its rows
    name their files): keeps what a readable catalog lists, adds every unlisted batch,
    moves unreadable ones to orphans/. A damaged catalog is kept beside, renamed.
    Exit 0, or 2 when the warehouse cannot be used (locked, read-only)."""
    from ingest.warehouse import WarehouseError, rebuild_catalog

    if not warehouse.is_dir():
        raise fail(f"{warehouse}: no such folder")
    try:
        done, kept = rebuild_catalog(warehouse, wait)
    except WarehouseError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"{error.filename or warehouse}: {error.strerror or error}") from None
    if kept:
        echo_text(f"the damaged catalog was kept as {warehouse / kept}")
    for batch in done.recovered:
        echo_text(f"listed again: {batch}")
    for note in done.moved_aside:
        echo_text(f"moved aside: {note}")
    for copy in done.removed_copies:
        echo_text(f"removed a merge's leftover copy: {copy}")
    echo_text(
        f"{warehouse}: {len(done.recovered)} batch(es) listed again, {len(done.moved_aside)} moved aside"
    )


@warehouse_app.command("compact")
def warehouse_compact(
    warehouse: WarehouseOption = Path("data/warehouse"),
    as_json: Annotated[bool, typer.Option("--json", help="The merges as one JSON object.")] = False,
    wait: WaitOption = DEFAULT_WAIT_S,
) -> None:
    """Merge every run of small batches next to each other into one batch (each ingest
    already merges on a threshold; this merges all of them now): fewer files, the same
    rows. The merged batch lists the ids it replaces (merged_from) and the files of all;
    the batches it replaces are removed once it is recorded; a kill at any moment loses
    nothing. Exit 0, or 2 when the warehouse cannot be used (locked past --wait,
    damaged, read-only)."""
    import time

    from ingest.warehouse import IngestLock, WarehouseError, compact_batches, prepare

    if not warehouse.is_dir():
        raise fail(f"{warehouse}: no such folder")
    began = time.perf_counter()
    try:
        with IngestLock(warehouse, wait):
            catalog = prepare(warehouse)
            before = _counts(catalog)
            merges = compact_batches(warehouse, catalog, full=True)
            after = _counts(catalog)
    except WarehouseError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"{error.filename or warehouse}: {error.strerror or error}") from None
    if as_json:
        out = {
            "warehouse": str(warehouse),
            "merged": [{"id": m.id, "merged_from": m.merged_from, "deals": m.deals} for m in merges],
            "batches": {"before": before[0], "after": after[0]},
            "files": {"before": before[1], "after": after[1]},
            "seconds": round(time.perf_counter() - began, 3),
        }
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    for merge in merges:
        echo_text(f"merged {len(merge.merged_from)} batches ({merge.deals} deals) into {merge.id}")
    echo_text(
        f"{warehouse}: {before[0]} batch(es) and {before[1]} file(s) before, {after[0]} and {after[1]} now"
    )


def _counts(catalog: dict[str, object]) -> tuple[int, int]:
    batches = catalog["batches"]
    assert isinstance(batches, list)
    return len(batches), sum(len(parts) for batch in batches for parts in batch.get("parts", {}).values())


@warehouse_app.command("marts")
def warehouse_marts(
    warehouse: WarehouseOption = Path("data/warehouse"),
    rebuild: Annotated[
        bool,
        typer.Option("--rebuild", help="Build the file again from the Parquet even when it is up to date."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="The result as one JSON object.")] = False,
) -> None:
    """Bring marts.duckdb, the marts the dashboard reads (kept beside the Parquet, which
    stays the source of truth), up to the catalog: batches recorded since are added, a
    missing, stale or damaged file is built again from the Parquet (--rebuild: always).
    Exit 0, or 2 when the warehouse cannot be used (no catalog, damaged, read-only) or
    another process owns the file (a running dashboard, which keeps it up to date itself)."""
    import time

    from analytics.marts_file import MARTS_FILE, MartsLock
    from analytics.queries import Analytics

    _require_warehouse(warehouse)
    probe = MartsLock(warehouse)  # ask first: a busy file would mean a whole build in memory
    if not probe.acquire():
        raise fail(
            f"{warehouse / MARTS_FILE} is in use by another process ({probe.holder()}), which keeps it up to date"
        )
    probe.release()
    began = time.perf_counter()
    analytics = Analytics(warehouse, persist=True)
    try:
        if analytics.marts_file is None:
            raise fail(
                f"{warehouse / MARTS_FILE} could not be opened for writing (in use, or a read-only folder)"
            )
        if rebuild and analytics.last_refresh != "full":
            analytics.refresh(force=True)
        done = analytics.last_refresh
        deals = int(analytics.sql("select count(*) as n from mart_deals")["n"][0])
    finally:
        analytics.close()
    seconds = round(time.perf_counter() - began, 3)
    size = (warehouse / MARTS_FILE).stat().st_size
    if as_json:
        out = {"warehouse": str(warehouse), "file": str(warehouse / MARTS_FILE), "refresh": done,
               "deals": deals, "bytes": size, "seconds": seconds}  # fmt: skip
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    said = {"full": "built from the Parquet", "incremental": "new batches added",
            "merged": "merged batches followed", "opened": "already up to date"}  # fmt: skip
    echo_text(f"{warehouse / MARTS_FILE}: {said.get(done, done)} in {seconds:.1f} s "
              f"({deals} complete deals, {size / 1e6:.1f} MB)")  # fmt: skip
