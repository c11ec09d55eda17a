"""The warehouse writer: every deal stored with its status, nothing dropped silently,
idempotence, conflicting duplicates, damaged files, the lock, crash leftovers, and the
same tables in process, on a pool of local worker processes and on a Dask LocalCluster."""

from __future__ import annotations

import gzip
import itertools
import json
import os
import shutil
import subprocess
import sys
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow.compute as pc  # type: ignore[import-untyped]
import pytest
from warehouse_fixtures import read_table, sample_logs, sorted_rows

from analytics.queries import Analytics
from ingest.replay.files import read_log
from ingest.replay.validate import validate_paths
from ingest.warehouse import (
    BATCHES,
    CATALOG,
    ORPHANS,
    STAGING,
    IngestLock,
    WarehouseLocked,
    ingest,
    read_catalog,
    table_files,
)
from ingest.warehouse.schema import SCHEMAS, TABLES

SORT_KEYS: dict[str, list[str]] = {
    "sessions": ["session_id"],
    "deals": ["deal_id"],
    "seats": ["deal_id", "seat"],
    "events": ["deal_id", "seq"],
    "ledger": ["deal_id", "seq"],
    "findings": ["file", "line", "code", "deal_id", "message"],
    "quarantine": ["file", "line", "reason", "raw"],
    "reviews": ["deal_id", "seat"],  # written by the review step, not by ingest (empty here)
}


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return sample_logs(tmp_path_factory.mktemp("logs"))


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory, logs: list[Path]) -> tuple[Path, dict[str, Any]]:
    """The sample logs ingested once in process, in small chunks (several per file)."""
    warehouse = tmp_path_factory.mktemp("wh") / "warehouse"
    summary = ingest(logs, warehouse, workers=0, target_lines=2000)
    return warehouse, summary.to_json()


def snapshot(warehouse: Path) -> dict[str, list[dict[str, Any]]]:
    return {name: sorted_rows(read_table(warehouse, name), SORT_KEYS[name]) for name in TABLES}


def test_every_deal_is_stored_with_its_status(logs: list[Path], stored: tuple[Path, dict[str, Any]]) -> None:
    warehouse, summary = stored
    report = validate_paths(logs)
    statuses = Counter("invalid" if not d.complete else d.status for d in report.deals)
    deals = summary["deals"]
    assert deals["read"] == len(report.deals) == deals["ok"] + deals["findings"] + deals["invalid"]
    assert {k: deals[k] for k in ("ok", "findings", "invalid")} == {
        s: statuses[s] for s in ("ok", "findings", "invalid")
    }
    table = read_table(warehouse, "deals")
    assert table.num_rows == deals["read"]
    assert Counter(table["status"].to_pylist()) == +statuses
    computed = {d.deal_id: list(d.scores) if d.complete else [0, 0, 0, 0] for d in report.deals}
    assert dict(zip(table["deal_id"].to_pylist(), table["scores"].to_pylist(), strict=True)) == computed
    complete = sum(1 for d in report.deals if d.complete)
    seats = read_table(warehouse, "seats")
    assert seats.num_rows == 4 * complete


def test_seat_facts_agree_with_the_ledger_and_the_events(stored: tuple[Path, dict[str, Any]]) -> None:
    warehouse, _ = stored
    analytics = Analytics(warehouse)
    mismatched = analytics.sql(
        """
        with paid as (
            select deal_id, seat, sum(amount) as net from (
                select deal_id, payee as seat, amount from stg_ledger
                union all select deal_id, payer as seat, -amount from stg_ledger
            ) group by deal_id, seat
        )
        select s.deal_id, s.seat, s.net, p.net as ledger_net
        from stg_seats as s left join paid as p using (deal_id, seat)
        where coalesce(p.net, 0) <> s.net
        """
    )
    assert mismatched.empty
    wins = analytics.sql(
        """
        select count(*) as n from stg_seats as s
        where s.won and not exists (
            select 1 from stg_events as e
            where e.deal_id = s.deal_id and e.type = 'hu' and e.seat = s.seat and e.tile = s.win_tile
        )
        """
    )
    assert wins["n"][0] == 0
    lines = analytics.sql("select count(*) as n, count(distinct deal_id) as deals from stg_events")
    assert lines["deals"][0] == analytics.sql("select count(*) as n from stg_deals where is_complete")["n"][0]
    analytics.close()


def test_tables_are_partitioned_by_month_and_compressed(stored: tuple[Path, dict[str, Any]]) -> None:
    warehouse, _ = stored
    catalog = read_catalog(warehouse)
    for batch in catalog["batches"]:
        for table, parts in batch["parts"].items():
            for part in parts:
                folder = Path(part).parent.name
                assert folder.startswith("month=") and (
                    folder == "month=none" or len(folder) == len("month=2026-06")
                )
                assert Path(part).parts[0] == table
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    events = pq.ParquetFile(table_files(warehouse, "events")[0])
    meta = events.metadata
    assert meta.row_group(0).column(0).compression == "ZSTD"
    # line numbers as deltas; the dictionary-encoded columns read back as plain strings
    columns = {
        meta.row_group(0).column(i).path_in_schema: meta.row_group(0).column(i)
        for i in range(meta.num_columns)
    }
    assert (
        "DELTA_BINARY_PACKED" in columns["line"].encodings
        and "DELTA_BINARY_PACKED" in columns["seq"].encodings
    )
    assert events.schema_arrow == SCHEMAS["events"]


def test_ingest_again_changes_nothing(
    tmp_path: Path, logs: list[Path], stored: tuple[Path, dict[str, Any]]
) -> None:
    warehouse = tmp_path / "warehouse"
    shutil.copytree(stored[0], warehouse)
    before = snapshot(warehouse)
    catalog = (warehouse / CATALOG).read_text()
    again = ingest(logs, warehouse, workers=0)
    assert [f.status for f in again.files] == ["known"] * len(logs)
    assert again.read == 0 and again.batches == [] and again.exit_code == 0
    assert (warehouse / CATALOG).read_text() == catalog
    # the same deals in a file with other bytes (a re-export): duplicates, skipped
    copy = tmp_path / "re-export.jsonl"
    copy.write_text(_text(logs[0]) + "\n", encoding="utf-8")
    third = ingest([copy, copy], warehouse, workers=0)
    assert [f.status for f in third.files] == ["new", "repeated"]
    assert third.duplicates == third.read > 0 and third.conflicts == []
    assert snapshot(warehouse) == before


def _text(path: Path) -> str:
    data = path.read_bytes()
    return (gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data).decode()


def test_conflicting_duplicate_goes_to_quarantine(tmp_path: Path, logs: list[Path]) -> None:
    warehouse = tmp_path / "warehouse"
    ingest([logs[0]], warehouse, workers=0)
    lines = _text(logs[0]).splitlines()
    first_deal = next(n for n, line in enumerate(lines) if json.loads(line)["type"] == "deal")
    event = json.loads(lines[first_deal])
    deal_id = event["deal_id"]
    event["dice"] = [6, 6, 6]  # same deal_id, other content
    lines[first_deal] = json.dumps(event)
    changed = tmp_path / "changed.jsonl"
    changed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    summary = ingest([changed], warehouse, workers=0)
    assert [c["deal_id"] for c in summary.conflicts] == [deal_id]
    assert summary.exit_code == 3
    assert summary.duplicates == summary.read - 1
    quarantine = read_table(warehouse, "quarantine")
    rows = quarantine.filter(pc.equal(quarantine["reason"], "conflicting_duplicate")).to_pylist()
    assert rows and {r["deal_id"] for r in rows} == {deal_id}
    assert rows[0]["line"] == first_deal + 1 and json.loads(rows[0]["raw"])["dice"] == [6, 6, 6]
    end = next(n for n in range(first_deal, len(lines)) if json.loads(lines[n])["type"] == "deal_end")
    assert [r["line"] for r in rows] == list(range(first_deal + 1, end + 2))
    deals = read_table(warehouse, "deals")
    stored = deals.filter(pc.equal(deals["deal_id"], deal_id))
    assert stored.num_rows == 1 and stored["file"][0].as_py() == str(logs[0])  # the first copy stays


def test_truncated_gzip_and_garbage_lose_nothing(tmp_path: Path, logs: list[Path]) -> None:
    text = _text(logs[0])
    lines = text.splitlines(keepends=True)
    third_deal = [n for n, line in enumerate(lines) if '"type":"deal"' in line][2]
    cut = sum(len(line) for line in lines[: third_deal + 10]) + 15  # inside a deal, inside a line
    packer = zlib.compressobj(wbits=31)
    head = packer.compress(text[:cut].encode()) + packer.flush(zlib.Z_SYNC_FLUSH)
    whole = head + packer.compress(text[cut:].encode()) + packer.flush()
    assert gzip.decompress(whole).decode() == text
    truncated = tmp_path / "cut.jsonl.gz"
    truncated.write_bytes(head)  # a download that stopped: the rest of the stream is missing
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(
        b'\x00\xffnot a log\n{"type": "nothing"}\n[1, 2]\n\n' + os.urandom(200).replace(b"\n", b" ")
    )
    warehouse = tmp_path / "warehouse"
    summary = ingest([truncated, garbage], warehouse, workers=0)
    assert summary.exit_code == 3
    read = read_log(truncated)
    assert summary.read == sum(len(s.deals) for s in read.sessions) == 3
    assert summary.invalid == 1  # the deal the cut runs through has no end
    quarantine = read_table(warehouse, "quarantine")
    by_file = Counter(zip(quarantine["file"].to_pylist(), quarantine["reason"].to_pylist(), strict=True))
    assert by_file[(str(garbage), "stray")] == 4  # every non-blank line of the garbage file
    assert by_file[(str(truncated), "stray")] == len(read.stray) == 1  # the cut-off line
    assert by_file[(str(truncated), "invalid")] == 10  # the third deal's complete lines
    invalid = read_table(warehouse, "deals").filter(
        pc.equal(read_table(warehouse, "deals")["status"], "invalid")
    )
    kept = quarantine.filter(pc.equal(quarantine["reason"], "invalid"))
    assert set(kept["deal_id"].to_pylist()) == set(invalid["deal_id"].to_pylist())
    findings = read_table(warehouse, "findings")
    assert any("gzip" in m for m in findings["message"].to_pylist())


def test_lock_refuses_a_second_ingest_with_a_clear_message(tmp_path: Path, logs: list[Path]) -> None:
    warehouse = tmp_path / "warehouse"
    warehouse.mkdir()
    with IngestLock(warehouse), pytest.raises(WarehouseLocked, match=rf"pid {os.getpid()}.*wait for it"):
        ingest(logs[:1], warehouse, workers=0, wait=0)
    # released: the next ingest runs (a dead holder's flock is released by the kernel)
    assert ingest(logs[:1], warehouse, workers=0).read > 0


def test_crash_leftovers_are_invisible_then_cleaned(
    tmp_path: Path, logs: list[Path], stored: tuple[Path, dict[str, Any]]
) -> None:
    warehouse = tmp_path / "warehouse"
    shutil.copytree(stored[0], warehouse)
    before = snapshot(warehouse)
    # what a kill -9 leaves: a half-written staging batch, a renamed but unrecorded batch,
    # a temporary catalog
    (warehouse / STAGING / "half" / "deals").mkdir(parents=True)
    (warehouse / STAGING / "half" / "deals" / "part-0.parquet").write_bytes(b"PAR1 cut off")
    recorded = read_catalog(warehouse)["batches"][0]["id"]
    shutil.copytree(warehouse / BATCHES / recorded, warehouse / BATCHES / "unrecorded")
    (warehouse / f"{CATALOG}.tmp-1234").write_text("{")
    assert snapshot(warehouse) == before  # readers see only recorded batches
    analytics = Analytics(warehouse)
    assert analytics.sql("select count(*) as n from stg_deals")["n"][0] == stored[1]["deals"]["read"]
    analytics.close()
    summary = ingest(logs, warehouse, workers=0)
    assert sorted(Path(p).name for p in summary.cleaned) == sorted(["half", f"{CATALOG}.tmp-1234"])
    assert not any((warehouse / STAGING).iterdir())
    assert sorted(p.name for p in (warehouse / BATCHES).iterdir()) == [recorded]
    # a batch folder is never deleted: this copy repeats stored deals, so it is set aside
    assert [Path(p.split(" -> ")[0]).name for p in summary.moved_aside] == ["unrecorded"]
    assert (warehouse / ORPHANS / "unrecorded" / "deals").is_dir()
    assert summary.exit_code == 3


def test_local_workers_give_the_same_tables(tmp_path: Path, logs: list[Path]) -> None:
    in_process = tmp_path / "in-process"
    one_piece = tmp_path / "one-piece"
    pool = tmp_path / "pool"
    cluster = tmp_path / "cluster"
    ingest(logs, in_process, workers=0, target_lines=1500)
    ingest(logs, one_piece, workers=0, target_lines=10**9)
    summary = ingest(logs, pool, workers=2, target_lines=1500)
    assert summary.workers == 2
    on_dask = ingest(logs, cluster, workers=2, target_lines=1500, dask_local=True)
    assert on_dask.workers == 2
    expected = snapshot(in_process)
    assert snapshot(pool) == expected
    assert snapshot(cluster) == expected
    assert snapshot(one_piece) == expected  # cutting files at session lines changes nothing


def test_local_workers_are_a_process_pool_not_a_cluster() -> None:
    from ingest.warehouse.chunks import DaskRunner, PoolRunner, runner

    with runner(2) as run:
        assert isinstance(run, PoolRunner) and run.workers == 2
        worker_pids = {run.pool.submit(os.getpid).result() for _ in range(4)}
        assert os.getpid() not in worker_pids  # chunks are validated in other processes
    with runner(1, dask_local=True) as run:
        assert isinstance(run, DaskRunner)


def test_workers_start_with_their_environment_and_the_parent_keeps_its_own() -> None:
    """numpy's OpenBLAS threads spin at import (0.11 s of CPU a process) and glibc's malloc
    gives freed chunks back to be faulted in again: the pool's workers get one thread and a
    malloc that keeps its memory, unless the user chose otherwise; the parent's environment
    is left as it was."""
    from ingest.warehouse.chunks import _WORKER_ENV, PoolRunner, runner

    assert set(_WORKER_ENV) == {"OPENBLAS_NUM_THREADS", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_"}
    before = {name: os.environ.get(name) for name in _WORKER_ENV}
    chosen = "MALLOC_TRIM_THRESHOLD_"
    os.environ[chosen] = "12345"  # the user's own value is kept
    try:
        with runner(1) as run:
            assert isinstance(run, PoolRunner)
            seen = {name: run.pool.submit(os.getenv, name).result() for name in _WORKER_ENV}
        assert os.environ[chosen] == "12345"
    finally:
        if before[chosen] is None:
            del os.environ[chosen]
        else:
            os.environ[chosen] = before[chosen]  # type: ignore[assignment]
    for name, value in _WORKER_ENV.items():
        if name == chosen:
            assert seen[name] == "12345"
        else:
            assert seen[name] == (before[name] or value)
        assert os.environ.get(name) == before[name]


def test_a_worker_validates_its_chunks_without_pandas(logs: list[Path]) -> None:
    """A pool worker never imports pandas (nor ``pyarrow.dataset``, which imports it):
    about 0.3 s of CPU and 33 MB in every worker. pyarrow's first ``pa.array`` of a Python
    list imported it, and so did ``Array.to_numpy`` (``chunks._start_worker``,
    ``rows._validity``). The pool runs in a fresh interpreter, as under ``chuanma ingest``:
    a spawned worker first imports its parent's main script, and in this test run that
    can be a Streamlit page an earlier test ran."""
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from ingest.warehouse.chunks import plan_chunks, runner\n"
        f"chunks = plan_chunks('log', 'sha', Path({str(logs[0])!r}).read_bytes(), 0, target_lines=2000)\n"
        "with runner(1) as run:\n"
        "    facts = run.collect(run.submit(chunks), lambda done: None)\n"
        "    probe = \"[name for name in ('pandas', 'pyarrow.dataset') if name in __import__('sys').modules]\"\n"
        "    imported = run.pool.submit(eval, probe).result()\n"
        "print(sum(table.num_rows for piece in facts for table in piece.tables.values()) > 0, imported)\n"
    )
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "[]"]


def test_files_are_cut_only_before_session_lines(logs: list[Path]) -> None:
    from ingest.warehouse.chunks import plan_chunks

    data = _text(logs[0]).encode()
    chunks = plan_chunks("x.jsonl", "sha", data, 5, target_lines=200)
    assert len(chunks) > 2 and [c.index for c in chunks] == list(range(5, 5 + len(chunks)))
    assert "".join(c.text or "" for c in chunks) == data.decode()
    lines = data.decode().split("\n")
    for chunk in chunks[1:]:
        assert chunk.text is not None and json.loads(chunk.text.split("\n", 1)[0])["type"] == "session"
        assert lines[chunk.line_offset] == chunk.text.split("\n", 1)[0]
    # however big the target, a chunk holds one month (so its rows are written unfiltered)
    whole = plan_chunks("x.jsonl", "sha", data, 0, target_lines=10**9)

    def months(text: str) -> list[str]:
        return [
            json.loads(line)["started_at"][:7] for line in text.splitlines() if '"type":"session"' in line
        ]

    per_chunk = [set(months(c.text or "")) for c in whole]
    assert all(len(m) == 1 for m in per_chunk) and len(whole) > 1
    assert [m.pop() for m in per_chunk] == sorted(set(months(data.decode())))


@pytest.mark.parametrize("local", [False, True])
def test_packed_facts_come_back_equal(logs: list[Path], local: bool) -> None:
    """What a worker sends (Arrow IPC: LZ4 to a cluster, plain from a local pool)
    unpacks to the very tables it built."""
    from ingest.warehouse.chunks import plan_chunks, validate_chunk, validate_chunk_packed

    chunk = plan_chunks("x.jsonl", "sha", _text(logs[0]).encode(), 0)[0]
    index, facts = validate_chunk(chunk)
    packed_index, packed = validate_chunk_packed(chunk, None if local else "lz4")
    assert packed.tables == {} and packed.packed_tables is not None
    sent = sum(len(data) for data in packed.packed_tables.values())
    assert (sent > 0.5 * sum(t.nbytes for t in facts.tables.values())) == local  # compressed or not
    back = packed.unpacked()
    assert packed_index == index and back.deal_keys == facts.deal_keys and back.counts == facts.counts
    assert back.tables.keys() == facts.tables.keys()
    assert all(back.tables[name].equals(facts.tables[name]) for name in facts.tables)


def test_cuts_fall_only_where_the_reader_opens_a_session(logs: list[Path]) -> None:
    """A line that JSON accepts as a session but the reader does not (a BOM mid-file, a
    NaN) is no cut: ingest must read every file exactly as ``chuanma validate`` does."""
    from ingest.logs.reader import read_lines
    from ingest.warehouse.chunks import plan_chunks, validate_chunk
    from ingest.warehouse.deal_rows import facts_of_log

    lines = _text(logs[0]).split("\n")
    months = {
        n: json.loads(line)["started_at"][:7] for n, line in enumerate(lines) if '"type":"session"' in line
    }
    sessions = list(months)
    new_month = [n for before, n in itertools.pairwise(sessions) if months[n] != months[before]]
    bom, nan = new_month[0], new_month[1]  # where a month begins: cut points unless unreadable
    lines[bom] = "\ufeff" + lines[bom]  # a Windows export appended with cat
    lines[nan] = lines[nan][:-1] + ',"x":NaN}'
    text = "\n".join(lines)
    chunks = plan_chunks("x.jsonl", "sha", text.encode(), 0, target_lines=10**9)
    starts = {chunk.line_offset for chunk in chunks}
    assert bom not in starts and nan not in starts and len(chunks) > 2
    whole = facts_of_log(read_lines(text.split("\n"), "x.jsonl"), "sha")
    pieces = [validate_chunk(chunk)[1] for chunk in chunks]
    assert [key for piece in pieces for key in piece.deal_keys] == whole.deal_keys


def test_an_out_of_range_start_time_is_no_time() -> None:
    from ingest.warehouse.rows import parse_time

    assert parse_time("0001-01-01T00:00:00+01:00") is None  # before year 1 once made UTC
    assert parse_time("2026-05-01T20:00:00+08:00") == parse_time("2026-05-01T12:00:00")


def test_a_lost_worker_process_stops_the_ingest_with_a_clear_error(
    tmp_path: Path, logs: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import concurrent.futures
    import contextlib
    import multiprocessing
    from collections.abc import Iterator, Sequence

    import ingest.warehouse.run as run_module
    from ingest.warehouse import IngestInterrupted, WarehouseError
    from ingest.warehouse.chunks import Chunk, PoolRunner

    class DyingWorkers(PoolRunner):
        def submit(self, chunks: Sequence[Chunk]) -> list[Any]:
            return [self.pool.submit(os._exit, 1) for _ in chunks]  # each worker dies at once

    @contextlib.contextmanager
    def dying_runner(*args: Any, **kwargs: Any) -> Iterator[PoolRunner]:
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
            yield DyingWorkers(pool, 1)

    monkeypatch.setattr(run_module, "runner", dying_runner)
    with pytest.raises(IngestInterrupted, match="ended abruptly") as raised:
        ingest(logs, tmp_path / "wh", workers=1)
    assert isinstance(raised.value, WarehouseError)  # the CLI's message and exit 2, no traceback
    assert not read_catalog(tmp_path / "wh").get("batches")  # nothing half-recorded
