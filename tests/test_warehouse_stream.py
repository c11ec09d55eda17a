"""Ingest as a pipeline with flat memory: a few chunks in flight however long the
files, each batch streamed to its Parquet files in row groups (the same files one write
of the whole batch gave), the stored ids kept compact, conflicts in any chunk quarantined
with their own line numbers."""

from __future__ import annotations

import contextlib
import gc
import gzip
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.compute as pc  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest
from warehouse_fixtures import read_table, sample_logs

import ingest.warehouse.known as known_module
import ingest.warehouse.run as run_module
from ingest.warehouse import ingest, read_catalog
from ingest.warehouse.batches import BatchWriter
from ingest.warehouse.chunks import Chunk, InProcess
from ingest.warehouse.known import KnownIds
from ingest.warehouse.rows import Facts
from ingest.warehouse.schema import SCHEMAS, encodings


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return sample_logs(tmp_path_factory.mktemp("logs"))


def _text(path: Path) -> str:
    data = path.read_bytes()
    return (gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data).decode()


def _kind(line: str) -> str | None:
    """A line's event type (None for a line that is not JSON: the sample has some)."""
    try:
        event = json.loads(line)
    except ValueError:
        return None
    return event.get("type") if isinstance(event, dict) else None


class CountingRunner(InProcess):
    """In process, counting the chunks submitted and not yet collected."""

    def __init__(self) -> None:
        self.outstanding = 0
        self.most = 0
        self.chunks = 0

    def submit(self, chunks: Sequence[Chunk]) -> list[Any]:
        self.outstanding += len(chunks)
        self.chunks += len(chunks)
        self.most = max(self.most, self.outstanding)
        return super().submit(chunks)

    def collect(self, tickets: Sequence[Any], done: Callable[[int], None]) -> list[Facts]:
        self.outstanding -= len(tickets)
        return super().collect(tickets, done)


def test_only_a_few_chunks_are_in_flight_however_many_there_are(
    tmp_path: Path, logs: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The files are cut as the workers need chunks, not all at once: what this process
    holds does not grow with the files (it held every chunk of two batches before)."""
    counting = CountingRunner()
    counting.workers = 2  # as a pool of two would be fed

    @contextlib.contextmanager
    def fake_runner(*args: Any, **kwargs: Any) -> Iterator[CountingRunner]:
        yield counting

    monkeypatch.setattr(run_module, "runner", fake_runner)
    summary = ingest(logs, tmp_path / "wh", workers=2, target_lines=100)
    ahead = 2 * run_module.CHUNKS_AHEAD
    assert counting.chunks > 3 * ahead  # many chunks went through ...
    assert counting.most == ahead + 1  # ... never more than a few at a time
    assert summary.read > 0 and summary.read == sum(summary.stored.values())


def test_a_conflict_in_a_later_chunk_keeps_its_own_lines(tmp_path: Path, logs: list[Path]) -> None:
    """A conflicting copy's raw lines come from its chunk, numbered as in its file."""
    warehouse = tmp_path / "warehouse"
    ingest([logs[0]], warehouse, workers=0)
    lines = _text(logs[0]).splitlines()
    deals = [n for n, line in enumerate(lines) if _kind(line) == "deal"]
    late = deals[-2]  # far into the file: in a chunk that does not begin at line 1
    event = json.loads(lines[late])
    event["dice"] = [6, 6, 6]
    lines[late] = json.dumps(event)
    changed = tmp_path / "changed.jsonl"
    changed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    summary = ingest([changed], warehouse, workers=0, target_lines=40)
    assert [c["deal_id"] for c in summary.conflicts] == [event["deal_id"]]
    assert summary.conflicts[0]["line"] == late + 1
    quarantine = read_table(warehouse, "quarantine")
    rows = quarantine.filter(pc.equal(quarantine["reason"], "conflicting_duplicate")).to_pylist()
    end = next(n for n in range(late, len(lines)) if _kind(lines[n]) == "deal_end")
    assert [r["line"] for r in rows] == list(range(late + 1, end + 2))
    assert [r["raw"] for r in rows] == lines[late : end + 1]


def test_a_deal_twice_in_one_chunk_is_stored_once(tmp_path: Path, logs: list[Path]) -> None:
    lines = _text(logs[0]).splitlines()
    first = next(n for n, line in enumerate(lines) if _kind(line) == "deal")
    end = next(n for n in range(first, len(lines)) if _kind(lines[n]) == "deal_end")
    twice = tmp_path / "twice.jsonl"
    twice.write_text("\n".join([*lines[: end + 1], *lines[first : end + 1], *lines[end + 1 :]]) + "\n")
    summary = ingest([twice], tmp_path / "wh", workers=0)
    assert summary.duplicates == 1 and not summary.conflicts
    assert read_table(tmp_path / "wh", "deals").num_rows == summary.read - 1


def test_known_ids_find_what_was_added(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(known_module, "_MERGE_EVERY", 5)  # merged into the sorted arrays often
    shas = {f"deal-{n}": f"{n:064x}" for n in range(40)}  # some end in zero bytes
    known = KnownIds(list(shas)[:10], [shas[d] for d in list(shas)[:10]])
    for deal_id in list(shas)[10:30]:
        known.add(deal_id, shas[deal_id])
    found = known.lookup([*shas, "deal-x", "ü\ud800"])
    assert found[:30] == [bytes.fromhex(shas[d][:32]) for d in list(shas)[:30]]
    assert found[30:] == [None] * 12
    sessions = KnownIds(["s1", "s2"])
    sessions.add("s3")
    assert [v is not None for v in sessions.lookup(["s1", "s3", "s4"])] == [True, True, False]
    assert len(known) == 30 and len(sessions) == 3


def _pieces(months: Sequence[str], rows: int) -> list[pa.Table]:
    """Pieces of a ``sessions`` table as chunks give them: each one month."""
    schema = SCHEMAS["sessions"]
    out = []
    for number, month in enumerate(months):
        ids = [f"s{number}-{i}" for i in range(rows)]
        columns = {f.name: pa.nulls(rows, f.type) for f in schema}
        columns["session_id"] = pa.array(ids)
        columns["month"] = pa.array([month] * rows)
        out.append(pa.table(columns, schema=schema))
    return out


def test_a_streamed_batch_writes_the_files_of_one_write(tmp_path: Path) -> None:
    """Pieces added one by one give, month by month, the bytes that ``pq.write_table`` of
    the month's rows gave (the way a batch was written whole before)."""
    months = ["2026-01", "2026-02", "2026-01", "2026-01", "2026-03", "2026-01"]
    pieces = _pieces(months, 700)
    writer = BatchWriter(tmp_path / "wh", row_group_rows=1000, buffer_bytes=1 << 30)
    for piece in pieces:
        writer.add("sessions", piece)
    catalog: dict[str, Any] = {"format": 1, "batches": []}
    batch = writer.commit(catalog, [])
    folder = tmp_path / "wh" / "batches" / batch / "sessions"
    for month in sorted(set(months)):
        rows = pa.concat_tables([p for p, m in zip(pieces, months, strict=True) if m == month])
        reference = tmp_path / f"{month}.parquet"
        pq.write_table(
            rows, reference, compression="zstd", row_group_size=1000, **encodings(SCHEMAS["sessions"])
        )
        written = folder / f"month={month}" / "part-0.parquet"
        assert written.read_bytes() == reference.read_bytes()
    assert pq.ParquetFile(folder / "month=2026-01" / "part-0.parquet").metadata.num_row_groups == 3
    assert read_catalog(tmp_path / "wh") == catalog and catalog["batches"][0]["rows"] == {"sessions": 4200}


def test_a_chunk_leaves_its_log_to_reference_counting(logs: list[Path]) -> None:
    """A worker frees a chunk's read log while the collector is still paused: no
    collection after the chunk walks the log's objects (with the log alive when the
    collector came back on, the first collection did, 3-5 ms a chunk)."""
    from ingest.warehouse.chunks import plan_chunks, validate_chunk

    chunk = plan_chunks(logs[0].name, "sha", logs[0].read_bytes(), 0)[0]
    seen: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(sum(1 for o in gc.get_objects(0) if type(o).__name__ in ("DealLog", "SessionLog")))

    gc.collect()
    gc.callbacks.append(watch)
    try:
        index, facts = validate_chunk(chunk)
        gc.collect(0)  # what the next allocations would start
    finally:
        gc.callbacks.remove(watch)
    assert index == 0 and facts.counts["read"] > 0
    assert seen and max(seen) == 0, f"collections walked {seen} logs' objects"


def test_dictionary_pieces_are_stored_as_their_values(tmp_path: Path) -> None:
    """``events`` pieces come from the workers with dictionary columns, each piece with a
    dictionary of its own (its values in another order); the writer unifies them before
    a row group: the file holds every row's own values, as plain strings."""
    schema = SCHEMAS["events"]
    pieces = []
    for number in range(5):
        rows = 300 + number
        columns: dict[str, Any] = {f.name: pa.nulls(rows, f.type) for f in schema}
        columns["deal_id"] = pa.array([f"d{(i * 7 + number) % 40}" for i in range(rows)])
        columns["month"] = pa.array(["2026-01"] * rows)
        columns["seq"] = pa.array(range(rows), pa.int32())
        columns["line"] = pa.array(range(number * 1000, number * 1000 + rows), pa.int32())
        columns["type"] = pa.array(["draw", "discard", "pong"][number % 3 :] * rows)[:rows]
        columns["tile"] = pa.array([f"{1 + (i + number) % 9}m" for i in range(rows)])
        plain = pa.table(columns, schema=schema)
        encoded = plain
        for name in ("deal_id", "month", "type", "tile"):
            index = encoded.schema.get_field_index(name)
            encoded = encoded.set_column(index, name, pc.dictionary_encode(encoded[name]))
        pieces.append((plain, encoded))
    writer = BatchWriter(tmp_path / "wh", row_group_rows=700, buffer_bytes=1 << 30)
    for _, encoded in pieces:
        writer.add("events", encoded)
    catalog: dict[str, Any] = {"format": 1, "batches": []}
    batch = writer.commit(catalog, [])
    written = tmp_path / "wh" / "batches" / batch / "events" / "month=2026-01" / "part-0.parquet"
    stored = pq.read_table(written, partitioning=None)
    assert stored.schema.field("deal_id").type == pa.string()
    assert stored.equals(pa.concat_tables([plain for plain, _ in pieces]).select(stored.column_names))


def test_a_batch_of_many_months_holds_no_more_than_its_buffer(tmp_path: Path) -> None:
    """However many months wait for their row groups, what waits stays under the buffer:
    the biggest waiting month is written early, as a shorter row group."""
    months = [f"2026-{m:02d}" for m in range(1, 13)] * 3
    pieces = _pieces(months, 500)
    buffer = 4 * pieces[0].nbytes
    writer = BatchWriter(tmp_path / "wh", row_group_rows=10_000, buffer_bytes=buffer)
    for piece in pieces:
        writer.add("sessions", piece)
        assert writer.waiting_bytes <= buffer
    catalog: dict[str, Any] = {"format": 1, "batches": []}
    batch = writer.commit(catalog, [])
    files = sorted((tmp_path / "wh" / "batches" / batch / "sessions").rglob("*.parquet"))
    stored = [sid for f in files for sid in pq.read_table(f, partitioning=None)["session_id"].to_pylist()]
    assert len(files) == 12 and sorted(stored) == sorted(
        sid for piece in pieces for sid in piece["session_id"].to_pylist()
    )


def test_a_failed_write_is_never_committed(
    tmp_path: Path, logs: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows are written on a thread: when a write fails (a full disk) after the batch's
    commit was already queued behind it, the commit is skipped, not run on half the rows."""
    import time

    from ingest.logs.writer import write_log
    from ingest.simulator.simulate import ClubPlan, simulate_club
    from ingest.warehouse import WarehouseError

    def slow_failure(self: BatchWriter, name: str, table: pa.Table) -> None:
        time.sleep(0.3)  # the commit is queued meanwhile
        raise OSError(28, "No space left on device")

    one_chunk = tmp_path / "one-session.jsonl"  # one chunk: its write is the batch's last
    write_log(simulate_club(ClubPlan(players=4, sessions=1, deals_per_session=3, seed=5)), one_chunk)
    monkeypatch.setattr(BatchWriter, "add", slow_failure)
    with pytest.raises(WarehouseError, match="No space left"):
        ingest([one_chunk], tmp_path / "wh", workers=0)
    assert read_catalog(tmp_path / "wh")["batches"] == []
    assert not (tmp_path / "wh" / "batches").exists() or not any((tmp_path / "wh" / "batches").iterdir())
