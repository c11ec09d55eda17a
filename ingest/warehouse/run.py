"""The ingest run: files read, cut into chunks, validated by the workers and committed in
batches, under the lock; and its summary (``chuanma ingest --json``).

Nothing is dropped silently: every deal read is counted ``ok``, ``findings`` or
``invalid``; an invalid deal is stored as a ``deals`` row and its raw lines go to
``quarantine``; lines of no deal go to ``quarantine`` with the reader's reason; a
``deal_id`` seen before with other content goes to ``quarantine`` as
``conflicting_duplicate``; one seen with the same content is a counted duplicate.
A file whose sha256 is in the catalog is skipped whole, which makes ingest idempotent.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]

from ingest.source import GZIP_MAGIC, Limits, file_name, gunzip, read_source
from ingest.validate import find_logs
from ingest.warehouse.batches import write_batch
from ingest.warehouse.catalog import (
    DEFAULT_WAREHOUSE,
    WarehouseError,
    read_columns,
    require_catalog,
    table_files,
    why,
)
from ingest.warehouse.chunks import TARGET_LINES, Runner, SchedulerError, WorkerLost, plan_chunks, runner
from ingest.warehouse.lock import IngestLock
from ingest.warehouse.recovery import cleanup, recover, verify_parts
from ingest.warehouse.rows import Columns, Facts
from ingest.warehouse.schema import NO_MONTH, SCHEMAS, TABLES

DEFAULT_BATCH_MB: Final = 64  # of log files as stored (gzip or not): about 90,000 gzip'd deals
#: tables whose rows belong to one deal and go when the deal is a duplicate
_DEAL_TABLES: Final = ("deals", "seats", "events", "ledger", "findings", "quarantine")


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
        str  # new, known (sha256 in the catalog), repeated (same bytes earlier in this run), unreadable: why
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
            },
            "where": {
                "ok": "deals, seats, events, ledger",
                "findings": "deals, seats, events, ledger; each finding in findings",
                "invalid": "deals (status invalid) and findings; raw lines in quarantine (reason invalid)",
                "duplicates_skipped": "already in the warehouse with the same content: not stored again",
                "conflicting_duplicates": "quarantine (reason conflicting_duplicate), raw lines kept",
                "stray_lines": "quarantine (reason stray), with the reader's reason",
            },
            "conflicts": self.conflicts,
            "quarantine_lines": dict(sorted(self.quarantine.items())),
            "rows": dict(self.rows),
            "batches": self.batches,
            "cleaned_up": self.cleaned,
            "recovered_batches": self.recovered,
            "moved_aside": self.moved_aside,
            "file_findings": self.file_findings,
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
@dataclass
class _Pending:
    """Files of the batch being built, and the tickets of their chunks."""

    entries: list[FileEntry] = field(default_factory=list)
    data: dict[str, bytes] = field(default_factory=dict)  # file -> bytes, for quarantining conflicts
    chunks: list[tuple[str, str]] = field(default_factory=list)  # (file, sha256) of each chunk
    tickets: list[Any] = field(default_factory=list)
    size: int = 0


def _known(root: Path, catalog: dict[str, Any]) -> tuple[dict[str, str], set[str], set[str]]:
    """deal_id -> content sha256, session ids, and file sha256s already recorded."""
    deals: dict[str, str] = {}
    files = table_files(root, "deals", catalog)
    if files:
        table = read_columns(files, ["deal_id", "content_sha256"])
        deals = dict(zip(table["deal_id"].to_pylist(), table["content_sha256"].to_pylist(), strict=True))
    sessions: set[str] = set()
    files = table_files(root, "sessions", catalog)
    if files:
        sessions = set(read_columns(files, ["session_id"])["session_id"].to_pylist())
    shas = {f["sha256"] for batch in catalog.get("batches", []) for f in batch.get("files", [])}
    return deals, sessions, shas


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
) -> IngestSummary:
    """Validate and store log files (see the module docstring); raises
    :class:`WarehouseLocked` when another ingest runs and ``FileNotFoundError`` for a
    path that does not exist."""
    began = time.perf_counter()
    progress = progress or Progress()
    files = find_logs(paths)
    root = Path(warehouse)
    summary = IngestSummary(warehouse=str(root))
    try:
        root.mkdir(parents=True, exist_ok=True)
        with IngestLock(root):
            catalog = require_catalog(root)
            summary.cleaned = cleanup(root, catalog)
            recovery = recover(root, catalog)
            summary.recovered, summary.moved_aside = recovery.recovered, recovery.moved_aside
            problems = verify_parts(root, catalog)
            if problems:
                raise WarehouseError(
                    f"{problems[0]}; nothing was ingested. See every problem with: "
                    f"chuanma warehouse check --warehouse {root}"
                )
            _run(
                files,
                root,
                catalog,
                summary,
                workers,
                scheduler,
                batch_mb,
                target_lines,
                progress,
                dask_local,
            )
    except SchedulerError as error:
        raise WarehouseError(str(error)) from None
    except OSError as error:  # the warehouse folder itself: read-only, full, gone
        where = error.filename or root
        raise WarehouseError(f"{where}: cannot write to the warehouse ({why(error)})") from None
    summary.seconds = time.perf_counter() - began
    return summary


def _run(
    files: Sequence[Path],
    root: Path,
    catalog: dict[str, Any],
    summary: IngestSummary,
    workers: int | None,
    scheduler: str | None,
    batch_mb: float,
    target_lines: int,
    progress: Progress,
    dask_local: bool = False,
) -> None:
    """Read, validate and commit the files in batches (the lock is held)."""
    known_deals, known_sessions, known_shas = _known(root, catalog)
    with runner(workers, scheduler, dask_local=dask_local) as run, _lost_worker_stops_cleanly():
        summary.workers = run.workers
        pending = _Pending()
        full: _Pending | None = None  # a full batch waiting for its commit
        run_shas: set[str] = set()
        index = 0
        for path in files:
            progress.note(f"reading {file_name(path)}")
            try:
                data, sha, size = read_source(path, Limits.from_env().max_inflated + 1)
            except OSError as error:  # vanished, unreadable, not a regular file
                summary.files.append(FileEntry(file_name(path), "", 0, f"unreadable: {why(error)}"))
                continue
            entry = FileEntry(file_name(path), sha, size, "new")
            summary.files.append(entry)
            if sha in known_shas or sha in run_shas:
                entry.status = "known" if sha in known_shas else "repeated"
                continue
            run_shas.add(sha)
            chunks = plan_chunks(entry.file, sha, data, index, target_lines)
            index += len(chunks)
            progress.add_total(len(chunks))
            pending.entries.append(entry)
            pending.data[entry.file] = data
            pending.chunks += [(chunk.file, chunk.sha256) for chunk in chunks]
            pending.tickets += run.submit(chunks)
            pending.size += len(data)
            if pending.size >= batch_mb * 1e6:
                # a full batch is committed once the next one is submitted, so the
                # workers validate that one while this process writes
                if full is not None:
                    _commit(root, catalog, run, full, summary, known_deals, known_sessions, progress)
                full, pending = pending, _Pending()
        for batch in (full, pending):
            if batch is not None and batch.entries:
                _commit(root, catalog, run, batch, summary, known_deals, known_sessions, progress)


def _commit(
    root: Path,
    catalog: dict[str, Any],
    run: Runner,
    pending: _Pending,
    summary: IngestSummary,
    known_deals: dict[str, str],
    known_sessions: set[str],
    progress: Progress,
) -> None:
    """Validate the pending files, keep what is new, and record it as one batch."""
    progress.note(f"validating {len(pending.entries)} file(s)")
    results = run.collect(pending.tickets, progress.advance)
    pending.tickets.clear()  # a pool's futures keep their packed results: let them go
    entries = {entry.file: entry for entry in pending.entries}
    kept: dict[str, list[pa.Table]] = {name: [] for name in TABLES}
    conflicts = Columns(SCHEMAS["quarantine"])
    file_lines: dict[str, list[str]] = {}  # split once, only for files with conflicts
    for (file, file_sha), facts in zip(pending.chunks, results, strict=True):
        entry = entries[file]
        drop: list[int] = []
        for number, (deal_id, sha, status, first, last) in enumerate(facts.deal_keys):
            summary.read += 1
            setattr(summary, status, getattr(summary, status) + 1)
            entry.deals += 1
            stored = known_deals.get(deal_id)
            if stored is None:
                known_deals[deal_id] = sha
                summary.stored[status] += 1
                continue
            drop.append(number)
            if stored == sha:
                summary.duplicates += 1
                continue
            summary.conflicts.append({"deal_id": deal_id, "file": file, "line": first, "status": status})
            if file not in file_lines:
                file_lines[file] = _file_lines(pending.data[file])
            for n, text in _source_lines(file_lines[file], first, last):
                conflicts.add(
                    NO_MONTH, "conflicting_duplicate",
                    f"deal_id {deal_id} is already stored with other content; this copy is kept here",
                    deal_id, None, file, file_sha, n, text,
                )  # fmt: skip
        entry.stray_lines += facts.counts.get("stray_lines", 0)
        for name, table in _new_rows(facts, drop, known_sessions).items():
            kept[name].append(table)
    if len(conflicts):
        kept["quarantine"].append(conflicts.to_arrow())
    tables = {
        name: pa.concat_tables(parts) if parts else SCHEMAS[name].empty_table()
        for name, parts in kept.items()
    }
    _count_problems(summary, tables)
    progress.note("writing batch")
    batch = write_batch(root, catalog, tables, [vars(e) for e in pending.entries])
    summary.batches.append(batch)
    for name, table in tables.items():
        summary.rows[name] += table.num_rows


def _new_rows(facts: Facts, drop: list[int], known_sessions: set[str]) -> dict[str, pa.Table]:
    """One chunk's tables without the rows already stored: the deals numbered in ``drop``
    (duplicates, conflicts), sessions seen before and those sessions' own findings."""
    out: dict[str, pa.Table] = {}
    sessions_seen: list[str] = []  # sessions stored before: their findings are too
    for name in TABLES:
        table = facts.tables[name]
        if name == "sessions":
            ids = table["session_id"].to_pylist()
            mask = [sid not in known_sessions for sid in ids]
            seen_before = [sid for sid, new in zip(ids, mask, strict=True) if not new]
            known_sessions.update(ids)
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


def _file_lines(data: bytes) -> list[str]:
    """A file's lines as the reader numbers them (line n at index n - 1); used only to
    quarantine conflicting duplicates, once per file however many there are."""
    if data.startswith(GZIP_MAGIC):
        data, _ = gunzip(data)
    lines = data.decode("utf-8", "replace").split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    return lines


def _source_lines(lines: list[str], first: int, last: int) -> Iterator[tuple[int, str]]:
    """Lines ``first..last`` (blank lines skipped, as the reader does)."""
    for n, line in enumerate(lines[first - 1 : last], first):
        line = line.rstrip("\r")
        if line and not line.isspace():
            yield n, line
