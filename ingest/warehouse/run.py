"""The warehouse: Parquet batches, a catalog that lists them, and the one ingest that writes.

Layout under the warehouse folder::

    catalog.json                     the recorded batches; readers read only what it lists
    ingest.lock                      held (flock) by the ingest that writes; holds its pid
    staging/<batch>/...              a batch being written (removed by the next ingest)
    batches/<batch>/<table>/month=YYYY-MM/part-0.parquet

Why it survives ``kill -9`` at any moment: a batch is written whole into ``staging/``,
renamed into ``batches/`` (one atomic rename), and only then added to the catalog, which
is replaced atomically (temp file + ``os.replace``). A crash before the catalog write
leaves an unlisted folder that no reader opens; each batch carries its own catalog entry
(``batch.json``) and its rows name their source files, so the next ingest takes such a
folder back into the catalog (or, when it cannot be read, moves it to ``orphans/``, loudly):
no ingest ever deletes a batch. Only ``staging/`` leftovers (never renamed, so never a
batch) are removed. A missing catalog while batches exist stops ``ingest`` and ``stats``
with the command that rebuilds it (``chuanma warehouse rebuild-catalog``). The lock is
an ``flock``: the kernel drops it when its process dies, so a dead ingest's lock never
blocks the next one.

Nothing is dropped silently: every deal read is counted ``ok``, ``findings`` or
``invalid``; an invalid deal is stored as a ``deals`` row and its raw lines go to
``quarantine``; lines of no deal go to ``quarantine`` with the reader's reason; a
``deal_id`` seen before with other content goes to ``quarantine`` as
``conflicting_duplicate``; one seen with the same content is a counted duplicate.
A file whose sha256 is in the catalog is skipped whole, which makes ingest idempotent.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import shutil
import socket
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]
import pyarrow.dataset as ds  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from ingest.facts import NO_MONTH, SCHEMAS, TABLES
from ingest.parallel import TARGET_LINES, Runner, SchedulerError, WorkerLost, plan_chunks, runner
from ingest.reader import _GZIP_MAGIC, Limits, _gunzip, file_name, read_source
from ingest.validate import find_logs

DEFAULT_WAREHOUSE: Final = Path("data/warehouse")
CATALOG: Final = "catalog.json"
LOCK: Final = "ingest.lock"
STAGING: Final = "staging"
BATCHES: Final = "batches"
ORPHANS: Final = "orphans"
MANIFEST: Final = "batch.json"  # a batch's own catalog entry, written before its rename
FORMAT: Final = 1
DEFAULT_BATCH_MB: Final = 64  # of log files as stored (gzip or not): about 90,000 gzip'd deals
#: tables whose rows belong to one deal and go when the deal is a duplicate
_DEAL_TABLES: Final = ("deals", "seats", "events", "ledger", "findings", "quarantine")


class WarehouseError(RuntimeError):
    """The warehouse cannot be used as asked (a usage error for the CLI)."""


class WarehouseLocked(WarehouseError):
    """Another ingest holds the warehouse's lock."""


class IngestInterrupted(WarehouseError):
    """A worker process was lost; the batch in flight is not recorded."""


@contextlib.contextmanager
def _lost_worker_stops_cleanly() -> Iterator[None]:
    try:
        yield
    except WorkerLost as lost:
        raise IngestInterrupted(str(lost)) from lost


# ------------------------------------------------------------------------- catalog
def rebuild_hint(root: str | Path) -> str:
    return f"chuanma warehouse rebuild-catalog --warehouse {root}"


def read_catalog(root: str | Path) -> dict[str, Any]:
    """The catalog, or an empty one for a warehouse that has none yet; a catalog that
    cannot be read or makes no sense is a :class:`WarehouseError` naming the file."""
    path = Path(root) / CATALOG
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {"format": FORMAT, "batches": []}
    except (OSError, UnicodeDecodeError) as error:
        raise WarehouseError(f"{path}: cannot read the catalog ({_why(error)})") from None
    try:
        catalog = json.loads(text)
    except ValueError as error:
        raise WarehouseError(
            f"{path}: the catalog is not valid JSON ({error}); nothing was changed. "
            f"Rebuild it from the batches with: {rebuild_hint(root)}"
        ) from None
    if not isinstance(catalog, dict):
        raise WarehouseError(
            f"{path}: the catalog is not a JSON object; rebuild it with: {rebuild_hint(root)}"
        )
    if catalog.get("format") != FORMAT:
        raise WarehouseError(f"{path}: catalog format {catalog.get('format')!r}, expected {FORMAT}")
    batches = catalog.setdefault("batches", [])
    if not isinstance(batches, list) or not all(_entry_ok(batch) for batch in batches):
        raise WarehouseError(
            f"{path}: the catalog's batch list is damaged; rebuild it with: {rebuild_hint(root)}"
        )
    return catalog


def _entry_ok(batch: Any) -> bool:
    return (
        isinstance(batch, dict)
        and isinstance(batch.get("id"), str)
        and isinstance(batch.get("parts", {}), dict)
        and all(isinstance(v, list) for v in batch.get("parts", {}).values())
    )


def _why(error: BaseException) -> str:
    return (getattr(error, "strerror", None) or str(error)) if isinstance(error, OSError) else str(error)


def batch_folders(root: str | Path) -> list[Path]:
    """Every folder under ``batches/`` (listed or not), oldest first (ids begin with the time)."""
    folder = Path(root) / BATCHES
    try:
        return sorted(entry for entry in folder.iterdir() if entry.is_dir())
    except FileNotFoundError:
        return []
    except OSError as error:
        raise WarehouseError(f"{folder}: cannot list the batches ({_why(error)})") from None


def unlisted_batches(root: str | Path, catalog: dict[str, Any]) -> list[Path]:
    recorded = {batch["id"] for batch in catalog.get("batches", [])}
    return [entry for entry in batch_folders(root) if entry.name not in recorded]


def require_catalog(root: str | Path) -> dict[str, Any]:
    """The catalog of a warehouse about to be read or written; refuses (WarehouseError,
    nothing changed) when batches exist that the catalog does not list, e.g. a deleted or
    reset ``catalog.json``: reading or ingesting then would ignore or lose them."""
    catalog = read_catalog(root)
    unlisted = unlisted_batches(root, catalog)
    if unlisted and not (Path(root) / CATALOG).exists():
        raise WarehouseError(
            f"{Path(root) / CATALOG} is missing but {len(unlisted)} batch folder(s) exist under "
            f"{Path(root) / BATCHES}; nothing was changed. Rebuild the catalog with: {rebuild_hint(root)}"
        )
    return catalog


def verify_parts(root: str | Path, catalog: dict[str, Any], *, full: bool = False) -> list[str]:
    """Problems with the files the catalog lists, each naming its file: missing, not
    Parquet (truncated: no footer), fewer or more rows than recorded; ``full`` reads every
    row too (``chuanma warehouse check``)."""
    problems = []
    for batch in catalog.get("batches", []):
        for table, parts in batch.get("parts", {}).items():
            rows = 0
            for part in parts:
                path = Path(root) / BATCHES / batch["id"] / part
                try:
                    rows += pq.read_metadata(path).num_rows
                    if full:
                        pq.read_table(path)
                except FileNotFoundError:
                    problems.append(f"{path}: missing (listed in the catalog)")
                except (OSError, pa.ArrowException) as error:
                    problems.append(f"{path}: cannot be read as Parquet ({_why(error)})")
            recorded = batch.get("rows", {}).get(table)
            if recorded is not None and rows != recorded and not problems:
                problems.append(
                    f"{Path(root) / BATCHES / batch['id'] / table}: {rows} rows, the catalog records {recorded}"
                )
    return problems


def require_readable(root: str | Path) -> dict[str, Any]:
    """:func:`require_catalog`, then every listed file opens: what ``stats`` checks first."""
    catalog = require_catalog(root)
    unlisted = unlisted_batches(root, catalog)
    if unlisted:
        raise WarehouseError(
            f"{Path(root) / CATALOG} does not list {len(unlisted)} batch folder(s) "
            f"({', '.join(p.name for p in unlisted[:3])}{', ...' if len(unlisted) > 3 else ''}); "
            f"take them back with: {rebuild_hint(root)}"
        )
    problems = verify_parts(root, catalog)
    if problems:
        raise WarehouseError(
            f"{problems[0]}"
            + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")
            + f"; see every problem with: chuanma warehouse check --warehouse {root}"
        )
    return catalog


def catalog_version(catalog: dict[str, Any]) -> str:
    """Changes whenever a batch is recorded: a cache key for readers."""
    batches = catalog.get("batches", [])
    return f"{len(batches)}:{batches[-1]['id']}" if batches else "0:empty"


def table_files(root: str | Path, table: str, catalog: dict[str, Any] | None = None) -> list[str]:
    """The Parquet files of one table in every recorded batch (what readers may open)."""
    root = Path(root)
    catalog = catalog if catalog is not None else read_catalog(root)
    return [
        str(root / BATCHES / batch["id"] / part)
        for batch in catalog.get("batches", [])
        for part in batch.get("parts", {}).get(table, [])
    ]


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_catalog(root: Path, catalog: dict[str, Any]) -> None:
    tmp = root / f"{CATALOG}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as out:
        json.dump(catalog, out, ensure_ascii=False, indent=1)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, root / CATALOG)
    _fsync_dir(root)


# ------------------------------------------------------------------------- lock
class IngestLock:
    """One writer at a time: an exclusive ``flock`` on ``ingest.lock``, which also names
    the holder's pid and start time for the message another ingest prints."""

    def __init__(self, root: Path) -> None:
        self.path = root / LOCK
        self.fd: int | None = None

    def __enter__(self) -> IngestLock:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = self._holder(fd)
            os.close(fd)
            raise WarehouseLocked(
                f"another ingest is writing to {self.path.parent} ({holder}); "
                "wait for it to finish, then run this one again"
            ) from None
        os.ftruncate(fd, 0)
        info = {"pid": os.getpid(), "host": socket.gethostname(), "started": _now()}
        os.write(fd, json.dumps(info).encode())
        self.fd = fd
        return self

    @staticmethod
    def _holder(fd: int) -> str:
        try:
            info = json.loads(os.pread(fd, 4096, 0) or b"{}")
        except ValueError:
            return "holder unknown"
        return f"pid {info.get('pid', '?')} on {info.get('host', '?')}, since {info.get('started', '?')}"

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.ftruncate(self.fd, 0)
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def cleanup(root: Path, catalog: dict[str, Any]) -> list[str]:
    """Remove what a crashed ingest left that was never a batch: staging folders (a batch
    is complete only once renamed out of ``staging/``) and temporary catalogs. Batch
    folders are never deleted here (see :func:`recover`). Only called under the lock."""
    removed = []
    staging = root / STAGING
    if staging.is_dir():
        for entry in staging.iterdir():
            shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() else entry.unlink(missing_ok=True)
            removed.append(str(entry))
    for entry in root.glob(f"{CATALOG}.tmp-*"):
        entry.unlink(missing_ok=True)
        removed.append(str(entry))
    return removed


@dataclass
class Recovery:
    """What :func:`recover` did with the batch folders the catalog did not list."""

    recovered: list[str] = field(default_factory=list)
    moved_aside: list[str] = field(default_factory=list)  # "path: why"


def describe_batch(folder: Path) -> dict[str, Any]:
    """A batch folder's catalog entry: its ``batch.json`` when it has a good one, else
    rebuilt from its Parquet files (their rows name their source file and its sha256).
    Raises WarehouseError when a file cannot be read."""
    entry: dict[str, Any] | None = None
    with contextlib.suppress(OSError, ValueError):
        entry = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    if not _entry_ok(entry) or not isinstance(entry, dict) or entry.get("id") != folder.name:
        entry = _entry_from_parquet(folder)
    assert entry is not None
    problems = verify_parts(folder.parent.parent, {"batches": [entry]})
    if problems:
        raise WarehouseError("; ".join(problems))
    return entry


def _entry_from_parquet(folder: Path) -> dict[str, Any]:
    parts: dict[str, list[str]] = {}
    rows: dict[str, int] = {}
    sources: dict[tuple[str, str], int] = {}
    for path in sorted(folder.rglob("*.parquet")):
        relative = path.relative_to(folder).as_posix()
        table = relative.split("/", 1)[0]
        if table not in SCHEMAS:
            continue
        try:
            rows[table] = rows.get(table, 0) + pq.read_metadata(path).num_rows
            if table in ("deals", "sessions", "quarantine"):
                got = pq.read_table(path, columns=["file", "source_sha256"]).to_pylist()
        except (OSError, pa.ArrowException) as error:
            raise WarehouseError(f"{path}: cannot be read as Parquet ({_why(error)})") from None
        parts.setdefault(table, []).append(relative)
        if table in ("deals", "sessions", "quarantine"):
            for row in got:
                if row["source_sha256"]:
                    key = (row["file"], row["source_sha256"])
                    sources[key] = sources.get(key, 0) + (table == "deals")
    if not parts:
        raise WarehouseError(f"{folder}: no Parquet files in this batch folder")
    created = datetime.fromtimestamp(folder.stat().st_mtime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    files = [
        {"file": name, "sha256": sha, "bytes": 0, "status": "recovered", "deals": deals, "stray_lines": 0}
        for (name, sha), deals in sorted(sources.items())
    ]
    return {"id": folder.name, "created": created, "files": files, "rows": rows, "parts": parts}


def recover(root: Path, catalog: dict[str, Any], folders: Sequence[Path] | None = None) -> Recovery:
    """Take unlisted batch folders back into the catalog, oldest first; one that cannot be
    read is moved to ``orphans/`` (never deleted). Only called under the lock."""
    done = Recovery()
    known: set[str] | None = None
    for folder in unlisted_batches(root, catalog) if folders is None else folders:
        try:
            entry = describe_batch(folder)
            if known is None:
                files = table_files(root, "deals", catalog)
                known = set(_read_columns(files, ["deal_id"])["deal_id"].to_pylist()) if files else set()
            deals = [str(root / BATCHES / folder.name / part) for part in entry["parts"].get("deals", [])]
            ids = _read_columns(deals, ["deal_id"])["deal_id"].to_pylist() if deals else []
            if known.intersection(ids):
                raise WarehouseError("it holds deals the catalog's batches already hold (a copy?)")
            known.update(ids)
        except WarehouseError as error:
            target = root / ORPHANS / folder.name
            target.parent.mkdir(exist_ok=True)
            os.rename(folder, target)
            done.moved_aside.append(f"{folder} -> {target}: {error}")
            continue
        catalog["batches"].append(entry)
        done.recovered.append(folder.name)
    if done.recovered or done.moved_aside:
        catalog["format"] = FORMAT
        _write_catalog(root, catalog)
    return done


def rebuild_catalog(root: str | Path) -> tuple[Recovery, str | None]:
    """``chuanma warehouse rebuild-catalog``: under the lock, keep a readable catalog's
    entries and add every unlisted batch; a damaged catalog is kept beside as
    ``catalog.json.damaged-<time>`` and the catalog rebuilt from all batch folders."""
    root = Path(root)
    kept: str | None = None
    with IngestLock(root):
        try:
            catalog = read_catalog(root)
        except WarehouseError:
            kept = f"{CATALOG}.damaged-{datetime.now(UTC):%Y%m%dT%H%M%S}"
            os.replace(root / CATALOG, root / kept)
            catalog = {"format": FORMAT, "batches": []}
        done = recover(root, catalog)
        if not (root / CATALOG).exists():
            _write_catalog(root, catalog)
    return done, kept


# ------------------------------------------------------------------------- summary
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
        table = _read_columns(files, ["deal_id", "content_sha256"])
        deals = dict(zip(table["deal_id"].to_pylist(), table["content_sha256"].to_pylist(), strict=True))
    sessions: set[str] = set()
    files = table_files(root, "sessions", catalog)
    if files:
        sessions = set(_read_columns(files, ["session_id"])["session_id"].to_pylist())
    shas = {f["sha256"] for batch in catalog.get("batches", []) for f in batch.get("files", [])}
    return deals, sessions, shas


def _read_columns(files: list[str], columns: list[str]) -> pa.Table:
    try:
        return ds.dataset(files, format="parquet").to_table(columns=columns)
    except (OSError, pa.ArrowException) as error:
        raise WarehouseError(
            f"a file of the warehouse cannot be read ({_why(error)}); nothing was ingested. "
            f"See which with: chuanma warehouse check --warehouse {Path(files[0]).parents[4]}"
        ) from None


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
        raise WarehouseError(f"{where}: cannot write to the warehouse ({_why(error)})") from None
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
                summary.files.append(FileEntry(file_name(path), "", 0, f"unreadable: {_why(error)}"))
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
    conflict_rows: list[tuple[Any, ...]] = []
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
                conflict_rows.append(
                    (NO_MONTH, "conflicting_duplicate",
                     f"deal_id {deal_id} is already stored with other content; this copy is kept here",
                     deal_id, None, file, file_sha, n, text)
                )  # fmt: skip
        entry.stray_lines += facts.counts.get("stray_lines", 0)
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
            kept[name].append(table.drop_columns(["_deal"]))
    if conflict_rows:
        columns = list(zip(*conflict_rows, strict=True))
        schema = SCHEMAS["quarantine"]
        kept["quarantine"].append(
            pa.Table.from_arrays(
                [pa.array(col, type=f.type) for col, f in zip(columns, schema, strict=True)], schema=schema
            )
        )
    tables = {
        name: pa.concat_tables(parts) if parts else SCHEMAS[name].empty_table()
        for name, parts in kept.items()
    }
    found = tables["findings"]  # errors about a whole file or a session (a deal's are counted above)
    whole_file = pc.and_(
        pc.is_in(found["scope"], pa.array(["file", "session"])), pc.equal(found["severity"], "error")
    )
    summary.file_findings += pc.sum(pc.cast(pc.fill_null(whole_file, False), pa.int64())).as_py() or 0
    for reason, count in _count(tables["quarantine"]["reason"].to_pylist()).items():
        summary.quarantine[reason] = summary.quarantine.get(reason, 0) + count
    progress.note("writing batch")
    batch = write_batch(root, catalog, tables, [vars(e) for e in pending.entries])
    summary.batches.append(batch)
    for name, table in tables.items():
        summary.rows[name] += table.num_rows


def _count(values: Sequence[Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for value in values:
        out[str(value)] = out.get(str(value), 0) + 1
    return out


def _file_lines(data: bytes) -> list[str]:
    """A file's lines as the reader numbers them (line n at index n - 1); used only to
    quarantine conflicting duplicates, once per file however many there are."""
    if data.startswith(_GZIP_MAGIC):
        data, _ = _gunzip(data)
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


def write_batch(
    root: str | Path,
    catalog: dict[str, Any],
    tables: dict[str, pa.Table],
    files: Sequence[dict[str, Any]],
) -> str:
    """Write tables as one batch: staging, rename into ``batches/``, then the catalog.

    ``catalog`` is updated in place (the caller holds the lock). Also the way tests build
    a hand-made warehouse from hand-written rows."""
    root = Path(root)
    batch_id = f"{datetime.now(UTC):%Y%m%dT%H%M%S}-{secrets.token_hex(4)}"
    stage = root / STAGING / batch_id
    stage.mkdir(parents=True)
    parts: dict[str, list[str]] = {}
    rows: dict[str, int] = {}
    for name in TABLES:
        table = tables.get(name)
        if table is None or table.num_rows == 0:
            continue
        table, encoded = _conform(table, SCHEMAS[name])
        rows[name] = table.num_rows
        parts[name] = []
        for month, part in sorted(_split_by_month(table).items()):
            relative = f"{name}/month={month}/part-0.parquet"
            target = stage / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            # a dictionary column is written as plain strings; without the Arrow schema
            # in the file, every reader sees the table's own schema
            pq.write_table(
                part, target, compression="zstd", row_group_size=1 << 20, store_schema=not encoded,
                **_encodings(SCHEMAS[name]),
            )  # fmt: skip
            with open(target, "rb") as handle:
                os.fsync(handle.fileno())
            parts[name].append(relative)
    entry = {"id": batch_id, "created": _now(), "files": list(files), "rows": rows, "parts": parts}
    with open(stage / MANIFEST, "w", encoding="utf-8") as out:  # the batch describes itself
        json.dump(entry, out, ensure_ascii=False, indent=1)
        out.flush()
        os.fsync(out.fileno())
    _fsync_dir(stage)
    (root / BATCHES).mkdir(exist_ok=True)
    os.rename(stage, root / BATCHES / batch_id)
    _fsync_dir(root / BATCHES)
    catalog.setdefault("batches", []).append(entry)
    catalog["format"] = FORMAT
    _write_catalog(root, catalog)
    return batch_id


#: line numbers rise through a file: stored as deltas they take a few bits a row (the
#: events table's files are half the size), where a dictionary of them would not pay
_DELTA_COLUMNS: Final = frozenset({"seq", "line", "last_line"})


def _encodings(schema: pa.Schema) -> dict[str, Any]:
    """``pq.write_table`` options: delta encoding for line numbers, dictionaries for the rest."""
    delta = [f.name for f in schema if f.name in _DELTA_COLUMNS]
    return {
        "use_dictionary": [f.name for f in schema if f.name not in _DELTA_COLUMNS],
        "column_encoding": dict.fromkeys(delta, "DELTA_BINARY_PACKED"),
    }


def _conform(table: pa.Table, schema: pa.Schema) -> tuple[pa.Table, bool]:
    """``table`` in ``schema``'s column order and types, except that a dictionary column of
    the right value type stays one (see facts.EVENTS_WIRE); also whether any did."""
    columns = []
    encoded = False
    for wanted in schema:
        column = table[wanted.name]
        if pa.types.is_dictionary(column.type) and column.type.value_type == wanted.type:
            encoded = True
        elif column.type != wanted.type:
            column = column.cast(wanted.type)
        columns.append(column)
    return pa.Table.from_arrays(columns, names=schema.names), encoded


def _split_by_month(table: pa.Table) -> dict[str, pa.Table]:
    """The table's rows by ``month`` (null counts as NO_MONTH), piece by piece: a batch is
    a concatenation of chunks that mostly hold one month each, so most pieces go whole
    and only the few that straddle months are filtered."""
    pieces: dict[str, list[pa.RecordBatch]] = {}
    for piece in table.to_batches():
        months = piece.column("month")
        if months.null_count:
            piece = piece.set_column(
                piece.schema.get_field_index("month"), "month", pc.fill_null(months, NO_MONTH)
            )
            months = piece.column("month")
        whole = len(months) > 0 and pc.all(pc.equal(months, months[0])).as_py()
        values: list[str] = [months[0].as_py()] if whole else pc.unique(months).to_pylist()
        for month in values:
            part = piece if len(values) == 1 else piece.filter(pc.equal(months, month))
            pieces.setdefault(month, []).append(part)
    return {month: pa.Table.from_batches(batches, schema=table.schema) for month, batches in pieces.items()}


def open_for_write(root: str | Path) -> tuple[IngestLock, dict[str, Any]]:
    """Lock a warehouse and read its catalog, for callers of :func:`write_batch`
    (the hand-made test warehouses); use the lock as a context manager."""
    path = Path(root)
    path.mkdir(parents=True, exist_ok=True)
    return IngestLock(path), read_catalog(path)
