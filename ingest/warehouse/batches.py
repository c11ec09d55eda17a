"""Writing one batch: every table's rows into ``staging/<batch>/``, one atomic rename into
``batches/``, then the catalog. A crash before the catalog write leaves an unlisted folder
that carries its own catalog entry (``batch.json``): see ``recovery.py``.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from ingest.warehouse.catalog import (
    BATCHES,
    MANIFEST,
    STAGING,
    catalog_entry,
    fsync_dir,
    utc_now,
    write_catalog,
)
from ingest.warehouse.schema import NO_MONTH, SCHEMAS, TABLES, encodings

#: rows per Parquet row group, as ``pq.write_table`` wrote a batch's month whole before
ROW_GROUP_ROWS: Final = 1 << 20
#: rows waiting for their row group, all tables and months of a batch together: past this,
#: the biggest waiting piece is written as a shorter row group, so a batch of many months
#: never holds much more than this in memory (a batch held whole grows with its deals)
BUFFER_BYTES: Final = 64 << 20


def new_batch_id(at: str | None = None) -> str:
    """A batch id: the time (``at``, else now) and 8 random hex digits; ids sort by time."""
    return f"{at or f'{datetime.now(UTC):%Y%m%dT%H%M%S}'}-{secrets.token_hex(4)}"


class BatchWriter:
    """One batch, written as its rows arrive: each table's rows go to one Parquet file per
    month under ``staging/<batch>/`` in row groups of :data:`ROW_GROUP_ROWS` (the same
    files ``pq.write_table`` of the whole batch gave), and :meth:`commit` renames the
    folder into ``batches/`` and records it. Until then the batch is a ``staging/``
    leftover that the next ingest removes: committed whole or not at all."""

    def __init__(
        self,
        root: str | Path,
        *,
        row_group_rows: int = ROW_GROUP_ROWS,
        buffer_bytes: int = BUFFER_BYTES,
        batch_id: str | None = None,
    ) -> None:
        self.root = Path(root)
        self.batch_id = batch_id or new_batch_id()
        self.stage = self.root / STAGING / self.batch_id
        self.stage.mkdir(parents=True)
        self.row_group_rows = row_group_rows
        self.buffer_bytes = buffer_bytes
        self.rows: dict[str, int] = {}
        self._waiting: dict[tuple[str, str], list[pa.Table]] = {}  # (table, month) -> pieces
        self._waiting_rows: dict[tuple[str, str], int] = {}
        self._waiting_bytes = 0
        self._writers: dict[tuple[str, str], tuple[pq.ParquetWriter, pa.Schema]] = {}

    @property
    def waiting_bytes(self) -> int:
        """Bytes of rows held for their row groups."""
        return self._waiting_bytes

    def add(self, name: str, table: pa.Table) -> None:
        """Rows of table ``name`` (any column order; dictionary columns allowed)."""
        if table.num_rows == 0:
            return
        table, encoded = _conform(table, SCHEMAS[name])
        self.rows[name] = self.rows.get(name, 0) + table.num_rows
        for month, part in _split_by_month(table).items():
            key = (name, month)
            self._waiting.setdefault(key, []).append(part)
            self._waiting_rows[key] = self._waiting_rows.get(key, 0) + part.num_rows
            self._waiting_bytes += part.nbytes
            if self._waiting_rows[key] >= self.row_group_rows:
                self._flush(key, encoded, whole_groups=True)
        while self._waiting_bytes > self.buffer_bytes:
            biggest = max(self._waiting, key=lambda k: self._waiting_rows[k])
            self._flush(biggest, encoded=_is_encoded(self._waiting[biggest][0]), whole_groups=False)

    def _flush(self, key: tuple[str, str], encoded: bool, *, whole_groups: bool) -> None:
        """Write a (table, month)'s waiting rows: only whole row groups (the rest keeps
        waiting) or all of them."""
        pieces = self._waiting.pop(key)
        self._waiting_rows.pop(key)
        self._waiting_bytes -= sum(piece.nbytes for piece in pieces)
        table = pa.concat_tables(pieces) if len(pieces) > 1 else pieces[0]
        keep = table.num_rows % self.row_group_rows if whole_groups else 0
        if keep:
            rest = table.slice(table.num_rows - keep)
            table = table.slice(0, table.num_rows - keep)
            self._waiting[key], self._waiting_rows[key] = [rest], keep
            self._waiting_bytes += rest.nbytes
        opened = self._writers.get(key)
        if opened is None:
            name, month = key
            target = self.stage / name / f"month={month}" / "part-0.parquet"
            target.parent.mkdir(parents=True, exist_ok=True)
            # a dictionary column is written as plain strings; without the Arrow schema
            # in the file, every reader sees the table's own schema
            writer = pq.ParquetWriter(
                target, table.schema, compression="zstd", store_schema=not encoded,
                **encodings(SCHEMAS[name]),
            )  # fmt: skip
            self._writers[key] = writer, table.schema
        else:
            writer, schema = opened
            if table.schema != schema:  # a dictionary column after plain ones, or back
                table = table.cast(schema)
        if encoded and table.column(0).num_chunks > 1:
            # one dictionary per column over the pieces: Parquet takes the indices of a
            # dictionary as they are, but a new dictionary at every piece sent each of its
            # values through the dictionary encoder's hash again
            table = table.unify_dictionaries()
        writer.write_table(table, row_group_size=self.row_group_rows)

    def commit(self, catalog: dict[str, Any], files: Sequence[dict[str, Any]]) -> str:
        """Write what waits, close and sync the files, rename the folder into ``batches/``
        and record it in ``catalog`` (updated in place; the caller holds the lock)."""
        entry = self.seal(files)
        catalog.setdefault("batches", []).append(catalog_entry(entry))  # files: in batch.json
        write_catalog(self.root, catalog)
        return self.batch_id

    def seal(self, files: Sequence[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        """Write what waits, close and sync the files, write ``batch.json`` (the entry,
        with ``extra`` keys) and rename the folder into ``batches/``: the batch is whole
        but not yet recorded. Returns its catalog entry."""
        for key in sorted(self._waiting):
            self._flush(key, _is_encoded(self._waiting[key][0]), whole_groups=False)
        parts: dict[str, list[str]] = {}
        for (name, month), (writer, _) in sorted(self._writers.items()):
            writer.close()
            relative = f"{name}/month={month}/part-0.parquet"
            with open(self.stage / relative, "rb") as handle:
                os.fsync(handle.fileno())
            parts.setdefault(name, []).append(relative)
        self._writers.clear()
        rows = {name: self.rows[name] for name in TABLES if name in self.rows}
        parts = {name: parts[name] for name in TABLES if name in parts}
        entry = {
            "id": self.batch_id,
            "created": utc_now(),
            "files": list(files),
            "rows": rows,
            "parts": parts,
            **extra,
        }
        with open(self.stage / MANIFEST, "w", encoding="utf-8") as out:  # the batch describes itself
            out.write(
                json.dumps(entry, ensure_ascii=False)
            )  # one line: the C encoder (a merge's entry is long)
            out.flush()
            os.fsync(out.fileno())
        fsync_dir(self.stage)
        (self.root / BATCHES).mkdir(exist_ok=True)
        os.rename(self.stage, self.root / BATCHES / self.batch_id)
        fsync_dir(self.root / BATCHES)
        return entry

    def close(self) -> None:
        """Give up an uncommitted batch: close its files (``staging/`` is cleaned by the next ingest)."""
        for writer, _ in self._writers.values():
            with contextlib.suppress(OSError, pa.ArrowException):
                writer.close()
        self._writers.clear()
        self._waiting.clear()


def write_batch(
    root: str | Path,
    catalog: dict[str, Any],
    tables: dict[str, pa.Table],
    files: Sequence[dict[str, Any]],
) -> str:
    """Write tables as one batch: staging, rename into ``batches/``, then the catalog.

    ``catalog`` is updated in place (the caller holds the lock). Also the way tests build
    a hand-made warehouse from hand-written rows."""
    writer = BatchWriter(root)
    try:
        for name in TABLES:
            table = tables.get(name)
            if table is not None:
                writer.add(name, table)
        return writer.commit(catalog, files)
    finally:
        writer.close()


def _is_encoded(table: pa.Table) -> bool:
    return any(pa.types.is_dictionary(f.type) for f in table.schema)


def _conform(table: pa.Table, schema: pa.Schema) -> tuple[pa.Table, bool]:
    """``table`` in ``schema``'s column order and types, except that a dictionary column of
    the right value type stays one (see schema.EVENTS_WIRE); also whether any did."""
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
        if pa.types.is_dictionary(months.type):  # events: compare the indices, not strings
            keys, names = months.indices, months.dictionary
        else:
            keys, names = months, None
        whole = len(keys) > 0 and pc.all(pc.equal(keys, keys[0])).as_py()
        values = [keys[0].as_py()] if whole else pc.unique(keys).to_pylist()
        for key in values:
            part = piece if len(values) == 1 else piece.filter(pc.equal(keys, key))
            month = names[key].as_py() if names is not None else key
            pieces.setdefault(month, []).append(part)
    return {month: pa.Table.from_batches(batches, schema=table.schema) for month, batches in pieces.items()}
