"""Writing one batch: every table's rows into ``staging/<batch>/``, one atomic rename into
``batches/``, then the catalog. A crash before the catalog write leaves an unlisted folder
that carries its own catalog entry (``batch.json``): see ``recovery.py``.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from ingest.warehouse.catalog import (
    BATCHES,
    FORMAT,
    MANIFEST,
    STAGING,
    fsync_dir,
    read_catalog,
    utc_now,
    write_catalog,
)
from ingest.warehouse.lock import IngestLock
from ingest.warehouse.schema import NO_MONTH, SCHEMAS, TABLES, encodings


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
                **encodings(SCHEMAS[name]),
            )  # fmt: skip
            with open(target, "rb") as handle:
                os.fsync(handle.fileno())
            parts[name].append(relative)
    entry = {"id": batch_id, "created": utc_now(), "files": list(files), "rows": rows, "parts": parts}
    with open(stage / MANIFEST, "w", encoding="utf-8") as out:  # the batch describes itself
        json.dump(entry, out, ensure_ascii=False, indent=1)
        out.flush()
        os.fsync(out.fileno())
    fsync_dir(stage)
    (root / BATCHES).mkdir(exist_ok=True)
    os.rename(stage, root / BATCHES / batch_id)
    fsync_dir(root / BATCHES)
    catalog.setdefault("batches", []).append(entry)
    catalog["format"] = FORMAT
    write_catalog(root, catalog)
    return batch_id


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
