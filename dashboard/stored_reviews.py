"""复盘 kept with the marts, as a step after ingest: ``chuanma review --warehouse DIR --store``
(and ``chuanma ingest --review``) reviews the stored deals that have no ``reviews`` rows
yet and writes their rows as a batch of their own (Parquet, like every table).

Why not at ingest: reviewing a deal replays it through the whole engine and judges every
discard, many times the cost of ingest's fast check, and every upload, save and test
ingest would pay it. Here it is paid once per deal, when asked: the step is incremental (a
deal with rows is never reviewed again, so a second run does nothing), holds the
warehouse's lock like any writer, and runs the deals on worker processes.

What a deal gets (one row a seat, :func:`ingest.review.seat_rows.seat_rows`): a complete
tile deal its decisions' figures, replayed from its stored events; a score sheet its
points only (``why`` ``score_sheet``); a deal whose rules are unknown its points only
(``why`` ``unknown_rules``). Invalid deals and ids a revision supersedes are not reviewed.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

import duckdb
import pyarrow as pa  # type: ignore[import-untyped]

from dashboard.review_report import NO_RULES, Transfer
from ingest.review.deal_review import DealJudge, DealReview, money_of
from ingest.review.seat_rows import SCORE_SHEET, seat_rows
from ingest.warehouse.batches import BatchWriter
from ingest.warehouse.catalog import WarehouseError, why
from ingest.warehouse.lock import IngestLock
from ingest.warehouse.rows import Columns
from ingest.warehouse.schema import SCHEMAS

#: deals a worker reviews at a time (small enough that the bar moves, big enough that
#: sending them costs little beside judging them)
CHUNK_DEALS: Final = 100
#: chunks waiting per worker
AHEAD: Final = 3
#: the event columns :func:`ingest.warehouse.rows_decode.events_from_rows` reads
_EVENT_COLUMNS: Final = (
    "deal_id", "seq", "type", "seat", "line", "tile", "kind", "deltas", "from_seat", "fan", "patterns",
    "tiles", "settlement",
)  # fmt: skip
#: the stored deals with no review yet: complete, the latest revision (stg_deals), no rows
TODO_SQL: Final = (
    "select deal_id, month, rules, base, players, is_sheet from stg_deals"
    " where is_complete and deal_id not in (select deal_id from raw_reviews)"
)


@dataclass
class StoreSummary:
    """What one review step did (``chuanma review --store --json``)."""

    warehouse: str
    reviewed: int = 0  # deals given rows
    tile_deals: int = 0  # of them, replayed and judged
    rows: int = 0
    batch: str | None = None
    seconds: float = 0.0
    workers: int = 0
    marts: str | None = None  # how marts.duckdb was brought up to date, or why not
    waited: float = 0.0

    def to_json(self) -> dict[str, Any]:
        out = dict(vars(self))
        out["seconds"] = round(self.seconds, 3)
        out["waited"] = round(self.waited, 3)
        out["deals_per_s"] = round(self.reviewed / self.seconds, 1) if self.seconds > 0 else None
        return out


@dataclass
class _Deal:
    """A deal to review: its deals row and (a tile deal) its stored event rows."""

    deal_id: str
    month: str | None
    rules: str | None
    base: int | None
    players: list[str]
    sheet: bool
    replay: bool  # a tile deal under rules the engine knows: replayed from its events
    events: list[dict[str, Any]] = field(default_factory=list)
    ledger: list[Transfer] = field(default_factory=list)


def review_rows(deals: Sequence[_Deal]) -> list[tuple[Any, ...]]:
    """The ``reviews`` rows of some deals (in a worker process: no warehouse here)."""
    out: list[tuple[Any, ...]] = []
    for deal in deals:
        seats = len(deal.players)
        for seat, row in enumerate(_seat_rows(deal, seats)):
            out.append((deal.deal_id, deal.month, seat, deal.players[seat], *row))
    return out


def _seat_rows(deal: _Deal, seats: int) -> list[tuple[Any, ...]]:
    """One deal's rows from ``tiles`` on: judged on its replay, or its points only."""
    from engine.replay import FindingSink, ReplayOptions
    from engine.rules import rules_from_name
    from ingest.replay.session_replay import replay_one
    from ingest.warehouse.rows_decode import events_from_rows

    review = DealReview(deal.deal_id)
    rules = rules_from_name(str(deal.rules)) if deal.replay and deal.events else None
    if rules is None:
        review.tiles, review.why_no_tiles = False, SCORE_SHEET if deal.sheet else NO_RULES
        review.money = money_of(deal.ledger, seats)
        return seat_rows(review, None, None, seats)
    start, play, end = events_from_rows(deal.events)
    judge = DealJudge(review)
    options = ReplayOptions(base=deal.base or 1, keep_state=True, on_step=judge)
    report = replay_one(start, play, end, rules, options, FindingSink())
    judge.finish(report.complete)
    review.money = money_of(report.ledger, seats)
    return seat_rows(review, start, rules, seats)


class StoreProgress:
    """What the step reports while it runs; the CLI draws a bar from it. Default: silent."""

    def total(self, deals: int) -> None:
        """The deals to review."""

    def advance(self, deals: int) -> None:
        """Deals reviewed."""


def store_reviews(
    warehouse: str | Path,
    *,
    workers: int | None = None,
    progress: StoreProgress | None = None,
    wait: float | None = None,
    refresh_marts: bool = True,
) -> StoreSummary:
    """Review the stored deals that have none yet and record their rows as one batch
    (see the module docstring); ``workers``: processes (None: the machine's cores; 0: in
    this process). ``refresh_marts``: bring ``marts.duckdb`` up to date after, unless
    another process owns it (a dashboard, which refreshes itself)."""
    from analytics.queries import Analytics
    from ingest.warehouse.chunks import default_workers
    from ingest.warehouse.run import prepare

    began = time.perf_counter()
    root = Path(warehouse)
    progress = progress or StoreProgress()
    summary = StoreSummary(warehouse=str(root))
    workers = default_workers() if workers is None else workers
    summary.workers = workers
    try:
        with IngestLock(root, wait) as lock:
            summary.waited = lock.waited
            catalog = prepare(root)
            analytics = Analytics(root, materialize=False, persist=False)
            try:
                todo = analytics.sql(TODO_SQL)
                progress.total(len(todo))
                if len(todo):
                    _store(
                        root, catalog, analytics, todo.to_dict(orient="records"), workers, progress, summary
                    )
            finally:
                analytics.close()
    except OSError as error:
        raise WarehouseError(
            f"{error.filename or root}: cannot write to the warehouse ({why(error)})"
        ) from None
    if refresh_marts and summary.batch is not None:
        summary.marts = refresh(root)
    summary.seconds = time.perf_counter() - began
    return summary


def refresh(root: Path) -> str:
    """Bring ``marts.duckdb`` up to the catalog (how: ``warehouse marts``' words), or say
    that another process owns it."""
    from analytics.marts_file import MartsLock
    from analytics.queries import Analytics

    probe = MartsLock(root)
    if not probe.acquire():
        return "in use by another process (it refreshes itself)"
    probe.release()
    analytics = Analytics(root, persist=True)
    try:
        return analytics.last_refresh if analytics.marts_file is not None else "in memory only"
    finally:
        analytics.close()


def _store(
    root: Path,
    catalog: dict[str, Any],
    analytics: Any,
    todo: list[dict[str, Any]],
    workers: int,
    progress: StoreProgress,
    summary: StoreSummary,
) -> None:
    """Review ``todo`` (rows of :data:`TODO_SQL`) and commit their rows as one batch."""
    writer = BatchWriter(root)
    try:
        for rows, count in _reviewed(_chunks(analytics, todo), workers):
            columns = Columns(SCHEMAS["reviews"])
            columns.rows = rows
            writer.add("reviews", columns.to_arrow())
            summary.reviewed += count
            summary.rows += len(rows)
            progress.advance(count)
        summary.tile_deals = sum(1 for deal in todo if _deal(deal).replay)
        summary.batch = writer.commit(catalog, [])
    finally:
        writer.close()


def _reviewed(chunks: Iterator[list[_Deal]], workers: int) -> Iterator[tuple[list[tuple[Any, ...]], int]]:
    """Each chunk's rows and its deal count, in order: here, or on ``workers`` processes."""
    if workers <= 0:
        for chunk in chunks:
            yield review_rows(chunk), len(chunk)
        return
    context = multiprocessing.get_context("spawn")  # no fork of a process with threads
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        waiting: deque[tuple[concurrent.futures.Future[list[tuple[Any, ...]]], int]] = deque()
        for chunk in chunks:
            waiting.append((pool.submit(review_rows, chunk), len(chunk)))
            while len(waiting) > workers * AHEAD:
                future, count = waiting.popleft()
                yield future.result(), count
        while waiting:
            future, count = waiting.popleft()
            yield future.result(), count


def _chunks(analytics: Any, todo: list[dict[str, Any]]) -> Iterator[list[_Deal]]:
    """The deals to review, :data:`CHUNK_DEALS` at a time: those not replayed with their
    stored ledgers first, then the tile deals with their events (one sorted scan of
    ``events``, read as it goes)."""
    deals = [_deal(row) for row in todo]
    kept = [deal for deal in deals if not deal.replay]
    _ledgers(analytics, kept)
    for start in range(0, len(kept), CHUNK_DEALS):
        yield kept[start : start + CHUNK_DEALS]
    replayed = {deal.deal_id: deal for deal in deals if deal.replay}
    if not replayed:
        return
    con = analytics.con
    chunk: list[_Deal] = []
    current: _Deal | None = None
    con.register("review_todo", pa.table({"deal_id": pa.array(sorted(replayed), pa.string())}))
    try:
        reader = con.sql(
            f"select {', '.join(_EVENT_COLUMNS)} from stg_events semi join review_todo using (deal_id)"
            " order by deal_id, seq"
        ).to_arrow_reader(50_000)
        for batch in reader:
            for row in batch.to_pylist():
                if current is None or row["deal_id"] != current.deal_id:
                    if len(chunk) >= CHUNK_DEALS:
                        yield chunk
                        chunk = []
                    current = replayed.pop(str(row["deal_id"]))
                    chunk.append(current)
                current.events.append(row)
    finally:
        with contextlib.suppress(duckdb.Error):  # a result left unread (an error above) holds it
            con.unregister("review_todo")
    rest = list(replayed.values())  # any with no events stored: its points only
    for deal in rest:
        deal.replay = False
    _ledgers(analytics, rest)
    chunk.extend(rest)
    if chunk:
        yield chunk


def _deal(row: dict[str, Any]) -> _Deal:
    from ingest.warehouse.rows_decode import stored_int, stored_strs, stored_text

    rules, sheet = stored_text(row["rules"]), bool(row["is_sheet"])
    return _Deal(
        deal_id=str(row["deal_id"]),
        month=stored_text(row["month"]),
        rules=rules,
        base=stored_int(row["base"]),
        players=stored_strs(row["players"]),
        sheet=sheet,
        replay=not sheet and _known(rules),
    )


@cache
def _known(rules: str | None) -> bool:
    """Whether the engine knows a stored rules name (else the deal keeps its points only)."""
    from engine.rules import RulesError, rules_from_name

    try:
        rules_from_name(str(rules))
    except RulesError:
        return False
    return True


def _ledgers(analytics: Any, wanted: list[_Deal]) -> None:
    """The stored transfers of the deals not replayed (their points by source)."""
    if not wanted:
        return
    deals = {deal.deal_id: deal for deal in wanted}
    found = analytics.sql(
        "select deal_id, reason, payer, payee, amount from stg_ledger"
        " where deal_id in (select unnest($ids)) order by deal_id, seq",
        {"ids": [d.deal_id for d in wanted]},
    )
    for row in found.to_dict(orient="records"):
        deals[str(row["deal_id"])].ledger.append(
            Transfer(str(row["reason"]), int(row["payer"]), int(row["payee"]), int(row["amount"]))
        )
