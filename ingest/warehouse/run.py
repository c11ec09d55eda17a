"""The ingest run: files read, cut into chunks, validated by the workers and committed in
batches, under the lock; and its summary (``chuanma ingest --json``).

Nothing is dropped silently: every deal read is counted ``ok``, ``findings`` or
``invalid``; an invalid deal is stored as a ``deals`` row and its raw lines go to
``quarantine``; lines of no deal go to ``quarantine`` with the reader's reason; a
``deal_id`` seen before with other content goes to ``quarantine`` as
``conflicting_duplicate``; one seen with the same content is a counted duplicate.
A file whose sha256 is in the catalog is skipped whole, which makes ingest idempotent.

An ingest of one small file costs the same however big the warehouse is: the stored ids
are kept between the ingests of a process (``stored.py``), a listed file is opened again
only when it changed (``recovery.verify_parts``), and the small batches are merged on a
threshold at the end of the ingest, under the lock (``compact.py``). A writer that finds
the lock taken waits its turn (``wait`` seconds; by default :func:`~ingest.warehouse.lock.default_wait`).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]

from ingest.logs.source import GZIP_MAGIC, Limits, file_name, gunzip, read_source
from ingest.replay.validate import find_logs
from ingest.warehouse.batches import BatchWriter
from ingest.warehouse.catalog import DEFAULT_WAREHOUSE, WarehouseError, require_catalog, why
from ingest.warehouse.chunks import (
    TARGET_LINES,
    Chunk,
    Runner,
    SchedulerError,
    WorkerLost,
    plan_chunks,
    runner,
)
from ingest.warehouse.compact import compact_batches
from ingest.warehouse.known import KnownIds, content_key
from ingest.warehouse.lock import IngestLock
from ingest.warehouse.recovery import cleanup, recover, verify_parts
from ingest.warehouse.rows import Columns, Facts
from ingest.warehouse.schema import NO_MONTH, SCHEMAS, TABLES
from ingest.warehouse.stored import StoredIds, keep, keep_catalog, take, take_catalog

DEFAULT_BATCH_MB: Final = 64  # of log files as stored (gzip or not): about 90,000 gzip'd deals
#: tables whose rows belong to one deal and go when the deal is a duplicate
_DEAL_TABLES: Final = ("deals", "seats", "events", "ledger", "findings", "quarantine", "reviews")


class IngestInterrupted(WarehouseError):
    """A worker process was lost; the batch in flight is not recorded."""


@contextlib.contextmanager
def _lost_worker_stops_cleanly() -> Iterator[None]:
    try:
        yield
    except WorkerLost as lost:
        raise IngestInterrupted(str(lost)) from lost


@dataclass
class FileEntry:
    file: str
    sha256: str
    bytes: int
    status: (
        str  # new, known (sha256 in the catalog), repeated (same bytes earlier in this run), empty
        # (nothing but blanks: not stored), unreadable: why
    )
    deals: int = 0
    stray_lines: int = 0


@dataclass
class IngestSummary:
    """What one ingest read and where each piece went (``chuanma ingest --json``)."""

    warehouse: str
    files: list[FileEntry] = field(default_factory=list)
    read: int = 0
    ok: int = 0
    findings: int = 0
    invalid: int = 0
    stored: dict[str, int] = field(default_factory=lambda: {"ok": 0, "findings": 0, "invalid": 0})
    duplicates: int = 0  # same deal_id, same content: already stored, skipped
    set_aside: int = 0  # deal lines that could not be read: no deal, their lines quarantined
    conflicts: list[dict[str, Any]] = field(default_factory=list)  # same deal_id, other content
    quarantine: dict[str, int] = field(default_factory=dict)  # lines by reason
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TABLES, 0))
    batches: list[str] = field(default_factory=list)
    cleaned: list[str] = field(default_factory=list)
    recovered: list[str] = field(default_factory=list)  # unlisted batch folders taken back
    moved_aside: list[str] = field(default_factory=list)  # unreadable ones, moved to orphans/
    file_findings: int = 0  # errors about a whole file (cut-off gzip, too big) or a session
    seconds: float = 0.0
    workers: int = 0
    merged: list[dict[str, Any]] = field(default_factory=list)  # merges after the batches: id, merged_from
    merge_error: str | None = None  # a merge that failed: nothing lost, the small batches stay
    waited: float = 0.0  # seconds spent waiting for another writer's lock

    @property
    def all_ok(self) -> bool:
        unreadable = any(f.status.startswith("unreadable") for f in self.files)
        return (
            self.read == self.ok
            and not self.conflicts
            and not self.quarantine
            and not unreadable
            and not self.file_findings
            and not self.moved_aside
        )

    @property
    def exit_code(self) -> int:
        return 0 if self.all_ok else 3

    @property
    def read_nothing(self) -> bool:
        """Every file held nothing at all (status ``empty``, not stored): an error for the
        caller, never a clean ingest."""
        return bool(self.files) and all(f.status == "empty" for f in self.files)

    def to_json(self) -> dict[str, Any]:
        return {
            "warehouse": self.warehouse,
            "files": [vars(f) for f in self.files],
            "deals": {
                "read": self.read,
                "ok": self.ok,
                "findings": self.findings,
                "invalid": self.invalid,
                "stored": dict(self.stored),
                "duplicates_skipped": self.duplicates,
                "conflicting_duplicates": len(self.conflicts),
                "set_aside": self.set_aside,
            },
            "where": {
                "ok": "deals, seats, events, ledger",
                "findings": "deals, seats, events, ledger; each finding in findings",
                "invalid": "deals (status invalid) and findings; raw lines in quarantine (reason invalid)",
                "duplicates_skipped": "already in the warehouse with the same content: not stored again",
                "conflicting_duplicates": "quarantine (reason conflicting_duplicate), raw lines kept",
                "stray_lines": "quarantine (reason stray), with the reader's reason",
                "set_aside": "deal lines that could not be read: no deal row; their lines in quarantine (reason stray)",
            },
            "conflicts": self.conflicts,
            "quarantine_lines": dict(sorted(self.quarantine.items())),
            "rows": dict(self.rows),
            "batches": self.batches,
            "cleaned_up": self.cleaned,
            "recovered_batches": self.recovered,
            "moved_aside": self.moved_aside,
            "file_findings": self.file_findings,
            "merged_batches": self.merged,
            "merge_error": self.merge_error,
            "waited_s": round(self.waited, 3),
            "seconds": round(self.seconds, 3),
            "deals_per_s": round(self.read / self.seconds, 1) if self.seconds > 0 else None,
            "workers": self.workers,
        }


class Progress:
    """What ingest reports while it runs; the CLI draws a bar from it. Default: silent."""

    def add_total(self, chunks: int) -> None:
        """More chunks are planned."""

    def advance(self, chunks: int) -> None:
        """Chunks are done."""

    def note(self, text: str) -> None:
        """A stage begins (reading, writing a batch, ...)."""


# ------------------------------------------------------------------------- ingest
#: chunks handed to the workers ahead of the one being stored, per worker: enough that a
#: worker never waits while this process writes, few enough that memory stays flat
CHUNKS_AHEAD: Final = 4


@dataclass
class _Planned:
    """A chunk on its way: its file's entry and the number of the batch it belongs to."""

    chunk: Chunk
    entry: FileEntry
    batch: int


@dataclass
class _Batch:
    """The batch being written: its files and its Parquet writer (opened at its first rows)."""

    number: int
    entries: list[FileEntry] = field(default_factory=list)
    writer: BatchWriter | None = None


def ingest(
    paths: Iterable[str | Path],
    warehouse: str | Path = DEFAULT_WAREHOUSE,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    batch_mb: float = DEFAULT_BATCH_MB,
    target_lines: int = TARGET_LINES,
    progress: Progress | None = None,
    dask_local: bool = False,
    wait: float | None = None,
    merge: bool = True,
) -> IngestSummary:
    """Validate and store log files (see the module docstring); waits up to ``wait``
    seconds for another writer, then raises :class:`WarehouseLocked`; raises
    ``FileNotFoundError`` for a path that does not exist. ``merge``: merge small batches
    on the threshold at the end (``compact.py``)."""
    began = time.perf_counter()
    progress = progress or Progress()
    files = find_logs(paths)
    root = Path(warehouse)
    summary = IngestSummary(warehouse=str(root))
    try:
        root.mkdir(parents=True, exist_ok=True)
        with IngestLock(root, wait) as lock:
            summary.waited = lock.waited
            catalog = prepare(root, summary)
            ids = take(root, catalog)
            _run(
                files,
                root,
                catalog,
                summary,
                ids,
                workers,
                scheduler,
                batch_mb,
                target_lines,
                progress,
                dask_local,
            )
            if merge:
                _merge(root, catalog, summary, progress)
            if summary.merge_error is None:  # else the catalog in memory may not be the one on disk
                keep(root, ids, catalog)
                keep_catalog(root, catalog)
    except SchedulerError as error:
        raise WarehouseError(str(error)) from None
    except OSError as error:  # the warehouse folder itself: read-only, full, gone
        where = error.filename or root
        raise WarehouseError(f"{where}: cannot write to the warehouse ({why(error)})") from None
    summary.seconds = time.perf_counter() - began
    return summary


def prepare(root: Path, summary: IngestSummary | None = None) -> dict[str, Any]:
    """What every writer does first, under the lock: the catalog, a crash's leftovers
    removed or taken back, every listed file checked (a damaged one stops the write,
    nothing changed)."""
    catalog = take_catalog(root) or require_catalog(root)
    cleaned = cleanup(root, catalog)
    recovery = recover(root, catalog)
    if summary is not None:
        summary.cleaned = cleaned + recovery.removed_copies
        summary.recovered, summary.moved_aside = recovery.recovered, recovery.moved_aside
    problems = verify_parts(root, catalog)
    if problems:
        raise WarehouseError(
            f"{problems[0]}; nothing was ingested. See every problem with: "
            f"chuanma warehouse check --warehouse {root}"
        )
    return catalog


def _merge(root: Path, catalog: dict[str, Any], summary: IngestSummary, progress: Progress) -> None:
    """The threshold merge after the batches are recorded: what it cannot do (a full
    disk) leaves the small batches as they are, said in the summary, and the ingest stands."""
    try:
        for done in compact_batches(root, catalog, note=progress.note, hold=len(summary.batches)):
            summary.merged.append({"id": done.id, "merged_from": done.merged_from})
    except (OSError, WarehouseError, pa.ArrowException) as error:
        summary.merge_error = f"small batches not merged ({why(error)}); run: chuanma warehouse compact"


def _run(
    files: Sequence[Path],
    root: Path,
    catalog: dict[str, Any],
    summary: IngestSummary,
    ids: StoredIds,
    workers: int | None,
    scheduler: str | None,
    batch_mb: float,
    target_lines: int,
    progress: Progress,
    dask_local: bool = False,
) -> None:
    """Read, validate and commit the files in batches (the lock is held).

    A pipeline: files are cut into chunks as the workers need them (a few chunks per
    worker ahead), each chunk's rows are stored as soon as it is back, in the order of the
    files, and a batch is committed when its last chunk is stored while the workers go on
    with the next batch's. This process never holds more than a few chunks and the rows
    waiting for their Parquet row groups, however many deals the files hold."""
    known_deals, known_sessions, known_shas = ids.deals, ids.sessions, ids.shas
    with runner(workers, scheduler, dask_local=dask_local) as run, _lost_worker_stops_cleanly():
        summary.workers = run.workers
        ahead = max(1, run.workers * CHUNKS_AHEAD)
        with _Store(root, catalog, summary, known_deals, known_sessions, progress, ahead) as store:
            in_flight: deque[tuple[Any, _Planned]] = deque()
            for planned in _plan(files, summary, known_shas, batch_mb, target_lines, progress):
                in_flight.append((run.submit([planned.chunk])[0], planned))
                while len(in_flight) > ahead:
                    store.take(run, *in_flight.popleft())
            while in_flight:
                store.take(run, *in_flight.popleft())
            store.finish()


def _plan(
    files: Sequence[Path],
    summary: IngestSummary,
    known_shas: set[str],
    batch_mb: float,
    target_lines: int,
    progress: Progress,
) -> Iterator[_Planned]:
    """Each new file's chunks, as they are needed, numbered by the batch they go in: a
    batch closes once its files hold ``batch_mb`` MB of logs."""
    run_shas: set[str] = set()
    index = 0
    batch = size = 0
    for path in files:
        progress.note(f"reading {file_name(path)}")
        try:
            data, sha, length = read_source(path, Limits.from_env().max_inflated + 1)
        except OSError as error:  # vanished, unreadable, not a regular file
            summary.files.append(FileEntry(file_name(path), "", 0, f"unreadable: {why(error)}"))
            continue
        entry = FileEntry(file_name(path), sha, length, "new")
        summary.files.append(entry)
        if not data or data.isspace():  # nothing to read: not stored, so never "known" later
            entry.status = "empty"
            continue
        if sha in known_shas or sha in run_shas:
            entry.status = "known" if sha in known_shas else "repeated"
            continue
        run_shas.add(sha)
        chunks = plan_chunks(entry.file, sha, data, index, target_lines)
        del data
        index += len(chunks)
        progress.add_total(len(chunks))
        for chunk in chunks:
            yield _Planned(chunk, entry, batch)
        del chunks
        size += length
        if size >= batch_mb * 1e6:
            batch, size = batch + 1, 0


def _keep_new(
    planned: _Planned,
    facts: Facts,
    summary: IngestSummary,
    known_deals: KnownIds,
    known_sessions: KnownIds,
) -> dict[str, pa.Table]:
    """A chunk's tables without what is stored already; duplicates counted, conflicts
    quarantined with their raw lines."""
    chunk, entry = planned.chunk, planned.entry
    drop: list[int] = []
    conflicts = Columns(SCHEMAS["quarantine"])
    lines: list[str] | None = None  # the chunk's lines, split only for a conflict
    before = known_deals.lookup([key[0] for key in facts.deal_keys])
    here: dict[str, str] = {}  # deals of this chunk stored so far
    for number, (deal_id, sha, status, first, last) in enumerate(facts.deal_keys):
        summary.read += 1
        setattr(summary, status, getattr(summary, status) + 1)
        entry.deals += 1
        earlier = here.get(deal_id)
        stored = before[number] if earlier is None else content_key(earlier)
        if stored is None:
            here[deal_id] = sha
            known_deals.add(deal_id, sha)
            summary.stored[status] += 1
            continue
        drop.append(number)
        if stored == content_key(sha):
            summary.duplicates += 1
            continue
        summary.conflicts.append({"deal_id": deal_id, "file": chunk.file, "line": first, "status": status})
        if lines is None:
            lines = _chunk_lines(chunk)
        for n, text in _source_lines(lines, chunk.line_offset, first, last):
            conflicts.add(
                NO_MONTH, "conflicting_duplicate",
                f"deal_id {deal_id} is already stored with other content; this copy is kept here",
                deal_id, None, chunk.file, chunk.sha256, n, text,
            )  # fmt: skip
    entry.stray_lines += facts.counts.get("stray_lines", 0)
    summary.set_aside += facts.counts.get("set_aside", 0)
    tables = _new_rows(facts, drop, known_sessions)
    if len(conflicts):
        tables["quarantine"] = pa.concat_tables([tables["quarantine"], conflicts.to_arrow()])
    return tables


class _Store:
    """Where the chunks' rows go, in file order: new rows into the batch's Parquet
    writer, on a thread of its own (Arrow writes without the GIL), so this process goes
    on feeding the workers while a row group or a batch's commit is written.

    The writes run in order; at most ``ahead`` wait, so the rows waiting for the writer
    stay a few chunks' worth. A write's error (disk full, read-only) comes out of the
    next :meth:`take` or :meth:`finish`; a batch is committed only once every chunk of
    it is written, and on any error the batch being written stays a ``staging/``
    leftover, which the next ingest removes."""

    def __init__(
        self,
        root: Path,
        catalog: dict[str, Any],
        summary: IngestSummary,
        known_deals: KnownIds,
        known_sessions: KnownIds,
        progress: Progress,
        ahead: int,
    ) -> None:
        self.root, self.catalog, self.summary, self.progress = root, catalog, summary, progress
        self.known_deals, self.known_sessions = known_deals, known_sessions
        self.ahead = ahead
        self.batch: _Batch | None = None
        self.thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="chuanma-write")
        self.writes: deque[concurrent.futures.Future[None]] = deque()
        self.failed = False  # a write raised: the ones after it are skipped

    def __enter__(self) -> _Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.thread.shutdown(wait=True)  # what was queued ends (an earlier batch's commit too)
        if self.batch is not None and self.batch.writer is not None:
            self.batch.writer.close()  # not committed: its staging folder goes at the next ingest

    def take(self, run: Runner, ticket: Any, planned: _Planned) -> None:
        """Store one chunk's new rows in its batch, committing the batch before it when
        this chunk is the first of the next."""
        (facts,) = run.collect([ticket], self.progress.advance)
        batch = self.batch
        if batch is not None and batch.number != planned.batch:
            self.progress.note("writing batch")
            self._write(_commit, self.catalog, batch, self.summary)
            batch = None
        if batch is None:
            batch = self.batch = _Batch(planned.batch, writer=BatchWriter(self.root))
        if not batch.entries or batch.entries[-1] is not planned.entry:
            batch.entries.append(planned.entry)
        tables = _keep_new(planned, facts, self.summary, self.known_deals, self.known_sessions)
        _count_problems(self.summary, tables)
        self._write(_add, batch.writer, tables)

    def finish(self) -> None:
        """Commit the last batch and wait for every write."""
        if self.batch is not None:
            self.progress.note("writing batch")
            self._write(_commit, self.catalog, self.batch, self.summary)
        while self.writes:
            self.writes.popleft().result()
        self.batch = None

    def _write(self, job: Callable[..., None], *args: Any) -> None:
        self.writes.append(self.thread.submit(self._guarded, job, *args))
        while self.writes and (len(self.writes) > self.ahead or self.writes[0].done()):
            self.writes.popleft().result()  # raises what the write raised

    def _guarded(self, job: Callable[..., None], *args: Any) -> None:
        """Run a write unless one before it failed: a batch whose rows were not all
        written must never be committed."""
        if self.failed:
            return
        try:
            job(*args)
        except BaseException:
            self.failed = True
            raise


def _add(writer: BatchWriter | None, tables: dict[str, pa.Table]) -> None:
    assert writer is not None
    for name, table in tables.items():
        writer.add(name, table)


def _commit(catalog: dict[str, Any], batch: _Batch, summary: IngestSummary) -> None:
    """Record a batch whose every chunk is written (on the writing thread: no progress
    drawn here, a Streamlit bar is drawn from the page's own thread only)."""
    assert batch.writer is not None
    batch_id = batch.writer.commit(catalog, [vars(e) for e in batch.entries])
    summary.batches.append(batch_id)
    for name in TABLES:
        summary.rows[name] += batch.writer.rows.get(name, 0)


def _new_rows(facts: Facts, drop: list[int], known_sessions: KnownIds) -> dict[str, pa.Table]:
    """One chunk's tables without the rows already stored: the deals numbered in ``drop``
    (duplicates, conflicts), sessions seen before and those sessions' own findings."""
    out: dict[str, pa.Table] = {}
    sessions_seen: list[str] = []  # sessions stored before: their findings are too
    for name in TABLES:
        table = facts.tables[name]
        if name == "sessions":
            ids = table["session_id"].to_pylist()
            mask = [found is None for found in known_sessions.lookup(ids)]
            seen_before = [sid for sid, new in zip(ids, mask, strict=True) if not new]
            for sid in ids:
                known_sessions.add(sid)
            table = table.filter(pa.array(mask, type=pa.bool_()))
            sessions_seen = seen_before
        if drop and name in _DEAL_TABLES:
            table = table.filter(pc.invert(pc.is_in(table["_deal"], pa.array(drop, type=pa.int32()))))
        if name == "findings" and sessions_seen:  # a session's own findings, stored once
            again = pc.and_(
                pc.equal(table["scope"], "session"),
                pc.is_in(table["session_id"], pa.array(sessions_seen, type=pa.string())),
            )
            table = table.filter(pc.invert(pc.fill_null(again, False)))
        out[name] = table.drop_columns(["_deal"])
    return out


def _count_problems(summary: IngestSummary, tables: dict[str, pa.Table]) -> None:
    """Add a batch's errors about a whole file or a session (a deal's are counted as its
    status) and its quarantined lines by reason to the summary."""
    found = tables["findings"]
    whole_file = pc.and_(
        pc.is_in(found["scope"], pa.array(["file", "session"])), pc.equal(found["severity"], "error")
    )
    summary.file_findings += pc.sum(pc.cast(pc.fill_null(whole_file, False), pa.int64())).as_py() or 0
    for reason, count in _count(tables["quarantine"]["reason"].to_pylist()).items():
        summary.quarantine[reason] = summary.quarantine.get(reason, 0) + count


def _count(values: Sequence[Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for value in values:
        out[str(value)] = out.get(str(value), 0) + 1
    return out


def _chunk_lines(chunk: Chunk) -> list[str]:
    """A chunk's lines as the reader numbers them (its line n at index n - 1 -
    ``line_offset``); used only to quarantine conflicting duplicates."""
    if chunk.text is not None:
        text = chunk.text
    else:
        data = chunk.data or b""
        if data.startswith(GZIP_MAGIC):
            data, _ = gunzip(data)
        text = data.decode("utf-8", "replace")
    lines = text.split("\n")
    if chunk.line_offset == 0 and lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    return lines


def _source_lines(lines: list[str], offset: int, first: int, last: int) -> Iterator[tuple[int, str]]:
    """Lines ``first..last`` of a piece that begins after line ``offset`` (blank lines
    skipped, as the reader does)."""
    for n, line in enumerate(lines[first - 1 - offset : last - offset], first):
        line = line.rstrip("\r")
        if line and not line.isspace():
            yield n, line
