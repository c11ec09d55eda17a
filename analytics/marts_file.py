"""The marts kept in a DuckDB file beside the Parquet, ``<warehouse>/marts.duckdb``, so
opening a warehouse reads what the last process materialized instead of recomputing it.

The Parquet stays the source of truth: the file holds only what ``analytics/queries.py``
materializes (``STAGED`` and ``MATERIALIZED``), the roster it applied, the stored deal ids
(what the incremental refresh checks a new batch against) and :data:`META`, one row
saying what it was built from (the catalog version and its batch ids, the roster's digest,
and :func:`sql_version`, which changes with the SQL, the schema, this format or DuckDB).
Its views and macros are made again at every open (:func:`view_statements`): the raw
views name one catalog version's files.

Who writes: one process at a time *owns* the file (:class:`MartsLock`, an ``flock`` on
``marts.lock`` held while its connection is open; the kernel drops it when the process
dies). The owner opens the file read-write and applies new batches in one transaction
with the meta row (DuckDB's write-ahead log: a kill leaves the last committed state). A
file that is missing, of another :func:`sql_version`, or that cannot be opened is built
again into ``marts.duckdb.building-<pid>`` and put in place with ``os.replace`` (:func:`swap`):
a kill at any moment leaves the old file or the new one. Any other process opening the
warehouse while it is owned builds its marts in memory, as before the file (DuckDB lets one
process write a file, or several read it, never both).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import duckdb

from analytics.raw_views import FileColumns
from ingest.warehouse.catalog import fsync_dir, utc_now
from ingest.warehouse.schema import SCHEMAS

MARTS_FILE: Final = "marts.duckdb"
MARTS_LOCK: Final = "marts.lock"
BUILDING: Final = ".building-"  # marts.duckdb.building-<pid>: a build not yet in place
#: bump when what the file holds changes in a way :func:`sql_version` cannot see
FORMAT: Final = 1
META: Final = "marts_meta"
#: every stored deal id (and the end reason of revisions): what a new batch is checked against
STORED_IDS: Final = "marts_stored_ids"
#: each listed Parquet file's columns (``raw_views.FileColumns``): an open reads no footer
FILE_COLUMNS: Final = "marts_file_columns"
#: ``CHUANMA_MARTS=memory``: never use the file (every open builds the marts in memory)
ENV: Final = "CHUANMA_MARTS"
_VIEW = re.compile(r"\s*create\s+or\s+replace\s+view\s+(\w+)", re.IGNORECASE)


def marts_path(root: Path) -> Path:
    return root / MARTS_FILE


def sql_version(sql_texts: list[str], tables: tuple[str, ...]) -> str:
    """A digest of everything the stored tables depend on besides the data: a change of
    any of it makes the file stale (rebuilt on the next open)."""
    digest = hashlib.sha256()
    for part in (
        str(FORMAT),
        duckdb.__version__,
        *sql_texts,
        *tables,
        repr(sorted(map(str, SCHEMAS.items()))),
    ):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def view_statements(text: str, tables: set[str]) -> list[str]:
    """The statements of an SQL file but those making a view whose name is a stored table:
    a marts file keeps its views beside its tables (a cursor, which is a connection of its
    own, sees no temporary view), and the views made again at an open read those tables."""
    kept = []
    for statement in duckdb.extract_statements(text):
        found = _VIEW.match(statement.query)
        if found is None or found.group(1) not in tables:
            kept.append(statement.query)
    return kept


def wanted(root: Path, persist: bool | None) -> bool:
    """Whether to use the file: asked for, or (None) when the warehouse folder exists, may
    be written and ``CHUANMA_MARTS`` is not ``memory``."""
    if persist is not None:
        return persist and root.is_dir()
    return os.environ.get(ENV, "").strip().lower() != "memory" and root.is_dir() and os.access(root, os.W_OK)


class MartsLock:
    """The file's owner: an exclusive, non-blocking ``flock`` on ``marts.lock`` naming the
    holder (pid, since when), held until :meth:`release`."""

    def __init__(self, root: Path) -> None:
        self.path = root / MARTS_LOCK
        self.fd: int | None = None

    def acquire(self) -> bool:
        """True when this process now owns the file; False when another one does."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps({"pid": os.getpid(), "since": utc_now()}).encode())
        self.fd = fd
        return True

    def holder(self) -> str:
        """Who owns the file, as the lock file says (for a message)."""
        try:
            info = json.loads(self.path.read_bytes() or b"{}")
        except (OSError, ValueError):
            return "holder unknown"
        return f"pid {info.get('pid', '?')}, since {info.get('since', '?')}"

    def release(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, 0)
                fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


@dataclass
class Meta:
    """What the stored tables were built from."""

    sql_version: str
    version: str  # the catalog version, with the roster's digest (``Analytics.version``)
    roster_digest: str
    batches: list[str] = field(default_factory=list)


def write_meta(con: duckdb.DuckDBPyConnection, meta: Meta) -> None:
    """Replace the meta row (inside the caller's transaction, with the tables it describes)."""
    con.execute(f"create table if not exists {META} (key varchar, value varchar)")
    con.execute(f"delete from {META}")
    con.execute(
        f"insert into {META} select unnest($keys), unnest($values)",
        {
            "keys": ["format", "sql_version", "version", "roster_digest", "batches"],
            "values": [
                str(FORMAT),
                meta.sql_version,
                meta.version,
                meta.roster_digest,
                json.dumps(meta.batches),
            ],
        },
    )


def read_meta(con: duckdb.DuckDBPyConnection) -> Meta | None:
    """The meta row, or None when the file holds none (not a marts file, or another format)."""
    try:
        found = dict(con.execute(f"select key, value from {META}").fetchall())
        if found.get("format") != str(FORMAT):
            return None
        batches = json.loads(found["batches"])
        return Meta(found["sql_version"], found["version"], found["roster_digest"], [str(b) for b in batches])
    except (duckdb.Error, KeyError, ValueError, TypeError):
        return None


def building_path(root: Path) -> Path:
    return root / f"{MARTS_FILE}{BUILDING}{os.getpid()}"


def remove_leftovers(root: Path) -> None:
    """Builds a killed owner left (only the owner calls this: no build of another is running)."""
    for path in root.glob(f"{MARTS_FILE}{BUILDING}*"):
        with contextlib.suppress(OSError):
            path.unlink()


def swap(built: Path, target: Path) -> None:
    """Put a closed, complete build in place of ``target`` in one rename; the old file's
    write-ahead log goes first (replayed over the new file it would break it)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(f"{target}.wal")
    os.replace(built, target)
    fsync_dir(target.parent)


def discard(target: Path) -> None:
    """Remove a file that cannot be used (it is rebuilt; the Parquet holds every row)."""
    for path in (target, Path(f"{target}.wal")):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def save_columns(con: duckdb.DuckDBPyConnection, columns: FileColumns, *, everything: bool = False) -> None:
    """Keep the files' columns with the marts, inside the caller's transaction: the files
    read since and those gone (``everything``: the whole set, into a new file)."""
    added, gone = columns.take(everything=everything)
    if everything:
        con.execute(f"create or replace table {FILE_COLUMNS} (path varchar, columns varchar)")
    elif not added and not gone:
        return
    con.execute(f"create table if not exists {FILE_COLUMNS} (path varchar, columns varchar)")
    if gone:
        con.execute(f"delete from {FILE_COLUMNS} where path in (select unnest($paths))", {"paths": gone})
    if added:
        con.execute(
            f"insert into {FILE_COLUMNS} select unnest($paths), unnest($columns)",
            {"paths": list(added), "columns": list(added.values())},
        )


def load_columns(con: duckdb.DuckDBPyConnection, columns: FileColumns) -> None:
    """What :func:`save_columns` kept, if anything."""
    with contextlib.suppress(duckdb.Error):
        found = con.execute(f"select path, columns from {FILE_COLUMNS}").fetchall()
        columns.load([(str(path), str(text)) for path, text in found])
