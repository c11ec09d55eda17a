"""The ``raw_<table>`` views: one table's Parquet files as one relation in the schema's
columns, cheap to bind however many files there are.

DuckDB binds a view again at every query and at every view created over it. Reading the
files with ``union_by_name`` made each bind open every file's footer, and the staging and
mart views bind ``raw_deals`` a dozen times over: over thousands of one-deal batches,
creating the views alone took longer than any page. Here each file's columns are read once (:class:`FileColumns`
remembers them by path: a recorded file never changes), files with the same columns are
read together without ``union_by_name`` (a bind opens one footer per group, and a
warehouse has one or two groups), and each group is brought to the schema's columns in
the schema's order (a column a group lacks, such as ``deals.record`` in batches written
before it, reads as null).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from ingest.warehouse.catalog import BATCHES


class FileColumns:
    """Each Parquet file's columns (name and type), read once per path; what was read or
    forgotten since the last :meth:`take` is told apart, so the marts file keeps the set
    (an open reads no footer) at the cost of the new files only."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[tuple[str, str], ...]] = {}
        self._read: set[str] = set()  # since the last take
        self._gone: set[str] = set()

    def of(self, path: str) -> tuple[tuple[str, str], ...]:
        found = self._known.get(path)
        if found is None:
            schema = pq.read_schema(path)
            found = self._known[path] = tuple((f.name, str(f.type)) for f in schema)
            self._read.add(path)
            self._gone.discard(path)
        return found

    def forget(self, keep: set[str]) -> None:
        """Drop the files no longer listed (a compaction replaced them)."""
        for path in set(self._known) - keep:
            del self._known[path]
            self._read.discard(path)
            self._gone.add(path)

    def take(self, *, everything: bool = False) -> tuple[dict[str, str], list[str]]:
        """The files read since the last take (``everything``: every known file) with their
        columns as JSON text, and the files forgotten since."""
        paths = set(self._known) if everything else self._read
        added = {path: json.dumps(self._known[path]) for path in sorted(paths)}
        gone = sorted(self._gone)
        self._read, self._gone = set(), set()
        return added, gone

    def load(self, rows: list[tuple[str, str]]) -> None:
        """Take back what :meth:`take` gave (a recorded file never changes)."""
        for path, text in rows:
            self._known[path] = tuple((str(name), str(kind)) for name, kind in json.loads(text))


def listed_files(root: Path, batches: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Each table's files in the listed batches, in order (what ``catalog.table_files``
        gives, joined as strings: over thousands of batches its ``Path`` joins were a refresh's
    largest part)."""
    base = os.path.join(str(root), BATCHES)
    files: dict[str, list[str]] = {}
    for batch in batches:
        folder = os.path.join(base, batch["id"])
        for table, parts in batch.get("parts", {}).items():
            files.setdefault(table, []).extend(os.path.join(folder, part) for part in parts)
    return files


def groups(files: list[str], columns: FileColumns) -> list[tuple[list[str], list[str]]]:
    """The files grouped by their columns, in the order first seen: (files, column names)."""
    found: dict[tuple[tuple[str, str], ...], list[str]] = {}
    for path in files:
        found.setdefault(columns.of(path), []).append(path)
    return [(paths, [name for name, _ in key]) for key, paths in found.items()]


def create_raw(
    con: duckdb.DuckDBPyConnection, table: str, schema: pa.Schema, files: list[str], columns: FileColumns
) -> None:
    """``raw_<table>``: a view over the files, or an empty table of the schema when there
    are none (``table`` is one of the schema's names, never a caller's text)."""
    if files:
        raw_relation(con, schema, files, columns).create_view(f"raw_{table}")
    else:
        con.from_arrow(schema.empty_table()).create(f"raw_{table}")


def raw_relation(
    con: duckdb.DuckDBPyConnection, schema: pa.Schema, files: list[str], columns: FileColumns
) -> duckdb.DuckDBPyRelation:
    """The files (at least one) as one relation: ``schema``'s columns in its order, then any column a
    file holds beyond the schema (a newer ingest's), null where a file lacks one."""
    types = dict(zip(*_names_types(con, schema), strict=True))
    parts = [con.read_parquet(paths) for paths, _ in groups(files, columns)]
    for part in parts:
        for name, kind in zip(part.columns, part.types, strict=True):
            types.setdefault(name, kind)
    if len(parts) == 1 and parts[0].columns == list(types):
        return parts[0]  # the usual case: every file has the schema's columns (one bind less)
    relation: duckdb.DuckDBPyRelation | None = None
    for part in parts:
        have = set(part.columns)
        projection = ", ".join(  # names and types are the files' and the schema's, never a caller's
            f'"{name}"' if name in have else f'cast(null as {kind}) as "{name}"'
            for name, kind in types.items()
        )
        part = part.project(projection)
        relation = part if relation is None else relation.union(part)
    assert relation is not None
    return relation


def _names_types(con: duckdb.DuckDBPyConnection, schema: pa.Schema) -> tuple[list[str], list[Any]]:
    empty = con.from_arrow(schema.empty_table())
    return list(empty.columns), list(empty.types)
