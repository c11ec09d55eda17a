"""Merging small batches (``ingest/warehouse/compact.py``) and the saves that stay cheap:
every table's rows the same after a merge, the merge's contract (``merged_from``, the
files of all), idempotence and duplicates across merges and processes, revisions and
sheet deals still right, a damaged listed file still refused by name, ``kill -9`` at each
stage of a merge, and the tiered rule on plain data."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest
from warehouse_fixtures import sample_logs

from analytics.queries import Analytics
from dashboard.cli.options import DEFAULT_WAIT_S
from dashboard.record_draft import save_deal, upload_path
from ingest.sheets.record import DealFacts, EndFact, KongFact, SessionFacts, WinFact, log_text
from ingest.warehouse import (
    BATCHES,
    DEFAULT_WAIT,
    SCHEMAS,
    STAGING,
    WarehouseError,
    compact_batches,
    ingest,
    read_catalog,
    table_files,
)
from ingest.warehouse.catalog import batch_files
from ingest.warehouse.compact import FANOUT, MAX_TAIL, STAGES, full_runs, tiered_run

ROOT = Path(__file__).resolve().parents[1]
EVENING = SessionFacts("club9-2026-12-01-t1", ("Ann", "Bo", "Chen", "Du"), "standard", 1, "club9", "t1")
PLAYS = (
    (KongFact(2, "exposed", 1), WinFact(2, None, ("duiduihu",)), WinFact(0, 3, ("qingyise",))),
    (WinFact(0, 1, ("qidui",)), WinFact(2, 1, ("pinghu",))),
    (KongFact(0, "exposed", 2), WinFact(1, 0, ("pinghu",))),
)


def a_deal(number: int, session: SessionFacts = EVENING, revision: int = 1) -> DealFacts:
    """Deal ``number`` of ``session``: one of three plays, the wall's end with nobody ready."""
    plays = PLAYS[number % len(PLAYS)]
    end = (
        EndFact() if len({p.seat for p in plays if isinstance(p, WinFact)}) == 3 else EndFact((None,) * 4, ())
    )
    return DealFacts(f"{session.session_id}-{number:02d}", 0, plays, end, revision)


def rows(warehouse: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows, sorted (as text: some values are lists)."""
    out = {}
    for name in SCHEMAS:
        files = table_files(warehouse, name)
        found = [row for f in files for row in pq.ParquetFile(f).read().to_pylist()]
        out[name] = sorted(json.dumps(row, sort_keys=True, default=str) for row in found)
    return out  # type: ignore[return-value]


def chuanma(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "dashboard.cli", *map(str, args)]
    return subprocess.run(
        command,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, **(env or {})},
    )


def check_clean(warehouse: Path) -> dict[str, Any]:
    done = chuanma("warehouse", "check", "--warehouse", warehouse, "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    assert result["problems"] == []
    return result


@pytest.fixture
def small_batches(tmp_path: Path) -> Path:
    """Nine batches: two tile logs, seven recorded deals (as ``save_deal`` writes them),
    one a correction; none merged yet."""
    warehouse = tmp_path / "warehouse"
    for log in sample_logs(tmp_path / "logs")[:2]:
        ingest([log], warehouse, workers=0, merge=False)
    for deal in [*(a_deal(n) for n in range(1, 7)), a_deal(3, revision=2)]:  # 3 corrected
        text = log_text(EVENING, [deal])
        path = upload_path(warehouse, EVENING, deal, text)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        ingest([path], warehouse, workers=0, merge=False)
    assert len(read_catalog(warehouse)["batches"]) == 9
    return warehouse


# --------------------------------------------------------------- the merge itself
def test_a_merge_keeps_every_row_and_the_contract(small_batches: Path) -> None:
    warehouse = small_batches
    before, listed = rows(warehouse), read_catalog(warehouse)["batches"]
    listed_files = [f for b in listed for f in batch_files(warehouse, b)]  # before they go
    catalog = read_catalog(warehouse)
    (merge,) = compact_batches(warehouse, catalog, full=True)
    after = read_catalog(warehouse)
    (entry,) = after["batches"]
    assert entry["merged_from"] == merge.merged_from == [b["id"] for b in listed]
    # the files live in batch.json (catalog format 2); the catalog keeps their number
    manifest = json.loads((warehouse / BATCHES / entry["id"] / "batch.json").read_text(encoding="utf-8"))
    assert "files" not in entry and "files" not in json.dumps(after)
    assert manifest["files"] == listed_files and batch_files(warehouse, entry) == listed_files
    assert entry["file_count"] == len(manifest["files"]) == sum(b["file_count"] for b in listed)
    assert manifest["merged_from"] == entry["merged_from"]
    assert entry["rows"] == {
        name: sum(b["rows"].get(name, 0) for b in listed) for name in entry["rows"]
    } and sum(entry["rows"].values()) == sum(sum(b["rows"].values()) for b in listed)
    assert rows(warehouse) == before  # every table, row for row
    assert sorted(p.name for p in (warehouse / BATCHES).iterdir()) == [entry["id"]]  # the copies removed
    check_clean(warehouse)


def test_after_a_merge_files_are_known_and_revisions_still_count(small_batches: Path) -> None:
    warehouse = small_batches
    compact_batches(warehouse, read_catalog(warehouse), full=True)
    uploads = sorted((warehouse / "uploads").glob("*.jsonl"))
    again = ingest(uploads, warehouse, workers=0)
    assert {f.status for f in again.files} == {"known"} and again.read == 0
    # the same save is known; other content under a stored id, a conflict
    assert save_deal(warehouse, EVENING, a_deal(1))[1].files[0].status == "known"
    clash = save_deal(
        warehouse, EVENING, DealFacts(a_deal(2).deal_id, 0, PLAYS[0][:2], EndFact((None,) * 4, ()))
    )
    assert clash[1].conflicts and clash[1].stored == {"ok": 0, "findings": 0, "invalid": 0}
    api = Analytics(warehouse)
    try:
        revisions = api.sql("select deal_id, revision, is_latest from stg_deal_revisions order by revision")
        sheet = api.sql("select count(*) as n from stg_deals where record = 'sheet'")
    finally:
        api.close()
    assert revisions["deal_id"].tolist() == [a_deal(3).deal_id] * 2
    assert revisions["is_latest"].tolist() == [False, True]
    assert sheet["n"][0] == 6  # six saved deals count (the correction replaces deal 3)


def test_a_damaged_listed_file_is_still_refused_by_name(small_batches: Path) -> None:
    warehouse = small_batches
    save_deal(warehouse, EVENING, a_deal(7))  # this process has now checked every file once
    victim = Path(table_files(warehouse, "events")[0])
    victim.write_bytes(victim.read_bytes()[:-20])  # truncated: no footer
    with pytest.raises(WarehouseError, match=victim.name):
        save_deal(warehouse, EVENING, a_deal(8))


def test_ids_stored_by_another_process_are_seen(tmp_path: Path) -> None:
    warehouse = tmp_path / "warehouse"
    save_deal(warehouse, EVENING, a_deal(1))  # this process keeps the stored ids
    other = tmp_path / "other.jsonl"
    other.write_text(log_text(EVENING, [a_deal(2)]), encoding="utf-8")
    assert chuanma("ingest", other, "--warehouse", warehouse, "--workers", "0").returncode == 0
    clash = DealFacts(a_deal(2).deal_id, 0, PLAYS[0][:2], EndFact((None,) * 4, ()))
    assert save_deal(warehouse, EVENING, clash)[1].conflicts  # the other process's deal is known here


# --------------------------------------------------------------- the tiered rule
def entries(*deals: int, month: str = "2026-12") -> list[dict[str, Any]]:
    return [
        {"id": f"b{n}", "rows": {"deals": d}, "parts": {"deals": [f"deals/month={month}/part-0.parquet"]}}
        for n, d in enumerate(deals)
    ]


def test_the_tiered_rule() -> None:
    assert tiered_run(entries(*[1] * (FANOUT - 1))) is None
    assert tiered_run(entries(*[1] * FANOUT)) == (0, FANOUT)
    assert tiered_run(entries(5000, 100, *[1] * FANOUT)) == (2, 2 + FANOUT)  # not the bigger ones
    assert tiered_run(entries(1, 1, *[10] * (FANOUT - 1), 10)) == (0, FANOUT + 2)  # smaller ones taken along
    assert tiered_run(entries(*[5000] * 20)) is None  # sealed
    assert full_runs(entries(1, 2, 5000, 3, 4, 5, 6000, 7)) == [(0, 2), (3, 6)]
    # a month the saves have left is merged whole; the month being saved, tiered
    past = entries(1, 10, 100, month="2026-11") + entries(1, 1, month="2026-12")
    assert tiered_run(past) == (0, 3)
    assert tiered_run(entries(100, month="2026-11") + entries(1, 1, month="2026-12")) is None
    assert tiered_run(entries(5000, month="2026-10") + entries(3, 3, month="2026-10") + entries(1)) == (1, 3)
    turns = [e for n in range(MAX_TAIL + 1) for e in entries(1, month=f"20{10 + n % 2}-01")]
    assert tiered_run(turns) == (0, FANOUT)  # months in turn: never one group, still bounded


def test_saves_merge_on_the_threshold(tmp_path: Path) -> None:
    warehouse = tmp_path / "warehouse"
    summaries = [save_deal(warehouse, EVENING, a_deal(n))[1] for n in range(1, FANOUT + 2)]
    # a save leaves its own batch out of the merge (a dashboard that refreshed after the
    # previous save then applies both without a rebuild): the eighth small batch is merged
    # by the ninth save, with the seven before it
    assert [bool(s.merged) for s in summaries] == [False] * FANOUT + [True]
    catalog = read_catalog(warehouse)
    assert [len(b.get("merged_from", [])) for b in catalog["batches"]] == [FANOUT, 0]
    assert sum(b["rows"]["deals"] for b in catalog["batches"]) == FANOUT + 1
    check_clean(warehouse)


# --------------------------------------------------------------- kill -9 in a merge
@pytest.mark.parametrize("stage", STAGES)
def test_kill_9_at_each_stage_of_a_merge(stage: str, small_batches: Path) -> None:
    warehouse = small_batches
    before = rows(warehouse)
    killed = chuanma(
        "warehouse", "compact", "--warehouse", warehouse, env={"CHUANMA_KILL_DURING_MERGE": stage}
    )
    assert killed.returncode == -9, killed.stderr
    assert rows(warehouse) == before  # readable, each row counted once
    check_clean(warehouse)
    batches = read_catalog(warehouse)["batches"]
    assert len(batches) == (9 if stage in ("written", "renamed") else 1)
    api = Analytics(warehouse)
    try:
        counts = api.sql("select count(*) as n, count(distinct deal_id) as ids from raw_deals")
    finally:
        api.close()
    assert counts["n"][0] == counts["ids"][0] == sum(b["rows"].get("deals", 0) for b in batches)
    # the next writer removes what the merge left and merges what is due
    done = chuanma("warehouse", "compact", "--warehouse", warehouse, "--json")
    assert done.returncode == 0, done.stderr
    assert rows(warehouse) == before
    listed = [b["id"] for b in read_catalog(warehouse)["batches"]]
    assert sorted(p.name for p in (warehouse / BATCHES).iterdir()) == sorted(listed) and len(listed) == 1
    assert not any((warehouse / STAGING).iterdir())


def test_a_catalog_rebuilt_after_a_recorded_merge_counts_each_row_once(small_batches: Path) -> None:
    warehouse = small_batches
    before = rows(warehouse)
    killed = chuanma(
        "warehouse", "compact", "--warehouse", warehouse, env={"CHUANMA_KILL_DURING_MERGE": "recorded"}
    )
    assert killed.returncode == -9
    (warehouse / "catalog.json").write_text("{damaged", encoding="utf-8")
    rebuilt = chuanma("warehouse", "rebuild-catalog", "--warehouse", warehouse)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert rows(warehouse) == before and not (warehouse / "orphans").exists()
    assert len(read_catalog(warehouse)["batches"]) == 1
    check_clean(warehouse)


def test_the_cli_wait_is_the_lock_default() -> None:
    assert DEFAULT_WAIT_S == DEFAULT_WAIT
