"""Merging small batches into bigger ones, so that a warehouse of many saves (one batch a
deal saved at the table) keeps few files and its queries stay as fast as one ingest's.

Tiered by month: a batch's *level* is ``floor(log8(deals))`` (1-7 deals: 0, 8-63: 1,
64-511: 2, ...), its *home* the latest month it holds. At the end of every ingest (see
:func:`tiered_run`): the batches of a month the saves have left are merged into one (so
each past month ends as one file per table, as if ingested at once: queries read as few
files as the same deals ingested whole), and among the batches of the month being saved,
eight of the last one's level become one of the next. A deal is so rewritten about
once a level within its month and once when the month closes; no merge holds more than
one month's deals (or eight batches of one level), so no save pays for rewriting the
whole warehouse; a batch of :data:`SEALED_LEVEL` (4,096 deals or more, e.g. an upload of
a season) is never merged again. ``chuanma warehouse compact`` merges every run of
unsealed batches next to each other into one.

The contract: the merged batch's catalog entry and its ``batch.json`` carry
``"merged_from"``, the ids of the batches it replaces in catalog order; its ``files`` (in
its ``batch.json``: the catalog keeps only their number) are the concatenation of theirs
(a file ingested before stays ``known``); each table's rows
keep their order within a month; the catalog with the merged entry in place of theirs is
written atomically. A merge is a batch like any other until then (written in
``staging/``, renamed into ``batches/``), so a ``kill -9`` at any moment leaves either
the old batches listed or the merged one, never both: the folders left behind are copies
(``recovery.py`` removes them). Merging removes the merged-away copies; no row is ever
lost (a merged batch whose row counts differ from its sources' is never recorded).
"""

from __future__ import annotations

import math
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import pyarrow.parquet as pq  # type: ignore[import-untyped]

from ingest.warehouse.batches import BatchWriter, new_batch_id
from ingest.warehouse.catalog import BATCHES, WarehouseError, batch_files, catalog_entry, write_catalog
from ingest.warehouse.recovery import remove_copy
from ingest.warehouse.schema import NO_MONTH, TABLES

FANOUT: Final = 8  # batches of a level merged into one of the next
SEALED_LEVEL: Final = 4  # 8**4 = 4,096 deals: such a batch is big enough, never merged again
#: unsealed batches past which the oldest eight are merged whatever their months (a month
#: each is the usual tail: 64 is five years of a club's months)
MAX_TAIL: Final = 64
#: for the crash tests: the stage of a merge at which this process kills itself (SIGKILL)
KILL_ENV: Final = "CHUANMA_KILL_DURING_MERGE"
STAGES: Final = ("written", "renamed", "recorded", "removing")


@dataclass
class Merge:
    """One merge done: the new batch and what it replaced."""

    id: str
    merged_from: list[str]
    deals: int
    rows: dict[str, int] = field(default_factory=dict)


def level(batch: dict[str, Any]) -> int:
    deals = int(batch.get("rows", {}).get("deals", 0))
    return min(SEALED_LEVEL, int(math.log(max(1, deals), FANOUT) + 1e-9))


def home_month(batch: dict[str, Any]) -> str:
    """The latest month a batch holds rows of (``NO_MONTH`` sorts first: a batch of
    undated rows only belongs with whatever comes next)."""
    months = [
        part.split("/")[1] for parts in batch.get("parts", {}).values() for part in parts if "/" in part
    ]
    dated = [month for month in months if month != f"month={NO_MONTH}"]
    return max(dated, default="")


def tiered_run(batches: list[dict[str, Any]]) -> tuple[int, int] | None:
    """The run of batches due for a merge (start, end), or None.

    Only the unsealed batches after the last sealed one are considered, in groups of
    neighbours with the same :func:`home_month`. A month the saves have left (every group
    but the last) is merged into one batch: one file per table and month, as one ingest
    of it would give, and a merge of one month's deals, however big the warehouse. In the
    last group (the month being saved) the tiered rule: when :data:`FANOUT` of its
    trailing batches are at the last one's level (smaller ones among them taken along).
    More than :data:`MAX_TAIL` unsealed batches (months saved in turn): the oldest eight."""
    start = len(batches)
    while start > 0 and level(batches[start - 1]) < SEALED_LEVEL:
        start -= 1
    groups: list[tuple[int, int]] = []
    for index in range(start, len(batches)):
        if groups and home_month(batches[index]) == home_month(batches[groups[-1][0]]):
            groups[-1] = groups[-1][0], index + 1
        else:
            groups.append((index, index + 1))
    for first, end in groups[:-1]:
        if end - first >= 2:
            return first, end
    if not groups:
        return None
    if len(batches) - start > MAX_TAIL:  # months saved in turn (old sheets typed in between)
        return start, start + FANOUT
    first = groups[-1][0]
    top = level(batches[-1])
    begin = len(batches)
    while begin > first and level(batches[begin - 1]) <= top:
        begin -= 1
    if sum(level(batch) == top for batch in batches[begin:]) < FANOUT:
        return None
    return begin, len(batches)


def full_runs(batches: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Every run of two or more unsealed batches next to each other (``compact``)."""
    runs, start = [], None
    for index, batch in enumerate([*batches, None]):
        small = batch is not None and level(batch) < SEALED_LEVEL
        if small and start is None:
            start = index
        elif not small and start is not None:
            if index - start >= 2:
                runs.append((start, index))
            start = None
    return runs


def merge(root: Path, catalog: dict[str, Any], start: int, end: int) -> Merge:
    """Merge ``catalog["batches"][start:end]`` into one batch and record it in their place
    (the caller holds the lock and has checked the listed files)."""
    run = catalog["batches"][start:end]
    ids = [batch["id"] for batch in run]
    writer = BatchWriter(root, batch_id=new_batch_id(ids[0].split("-", 1)[0]))
    try:
        for name in TABLES:
            for batch in run:
                for part in batch.get("parts", {}).get(name, []):
                    # ParquetFile, not read_table: no hive "month=" column from the path
                    writer.add(name, pq.ParquetFile(root / BATCHES / batch["id"] / part).read())
        expected: dict[str, int] = {}
        for batch in run:
            for name, count in batch.get("rows", {}).items():
                expected[name] = expected.get(name, 0) + count
        got = {name: count for name, count in writer.rows.items() if count}
        if got != {name: count for name, count in expected.items() if count}:
            raise WarehouseError(
                f"merging {', '.join(ids)}: rows {got} against {expected}; nothing was changed"
            )
        _stage("written")
        files = [f for batch in run for f in batch_files(root, batch)]
        entry = writer.seal(files, merged_from=ids)
    finally:
        writer.close()
    _stage("renamed")
    catalog["batches"][start:end] = [catalog_entry(entry)]  # files: in its batch.json
    write_catalog(root, catalog)
    _stage("recorded")
    for batch_id in ids:
        remove_copy(root, root / BATCHES / batch_id)
        _stage("removing")
    return Merge(entry["id"], ids, int(entry["rows"].get("deals", 0)), dict(entry["rows"]))


def compact_batches(
    root: Path,
    catalog: dict[str, Any],
    *,
    full: bool = False,
    note: Callable[[str], None] | None = None,
    hold: int = 0,
) -> list[Merge]:
    """Merge what is due (the tiered rule; ``full``: every run of unsealed batches).

    ``hold``: the last batches are left out (an ingest's own new batches): a reader that
    refreshed before this ingest then finds them appended, and a merge of batches it holds
    already, both of which it can apply without a rebuild (analytics/incremental.py);
    they are merged by a later ingest."""
    done: list[Merge] = []
    while True:
        batches = catalog["batches"][: len(catalog["batches"]) - hold]
        if full:
            runs = full_runs(batches)
            due = runs[-1] if runs else None  # from the end: the earlier runs' places hold
        else:
            due = tiered_run(batches)
        if due is None:
            return done
        if note is not None:
            note(f"merging {due[1] - due[0]} batches")
        done.append(merge(root, catalog, *due))


def _stage(name: str) -> None:
    """Where the crash tests kill a merge: ``CHUANMA_KILL_DURING_MERGE=<stage>``."""
    if os.environ.get(KILL_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)
