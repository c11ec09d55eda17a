"""kill -9 of a real ``chuanma ingest`` subprocess at random moments, several times: after
each kill the warehouse is readable and holds exactly its recorded batches; then one
clean ingest completes the job and leaves nothing behind."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq  # type: ignore[import-untyped]
from warehouse_fixtures import catalog_files

from analytics.queries import Analytics
from ingest.logs.writer import write_log
from ingest.replay.files import read_log
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import BATCHES, STAGING, read_catalog

FILES = 8
KILLS = 5
ROOT = Path(__file__).resolve().parents[1]


def ingest_process(files: list[Path], warehouse: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "dashboard.cli", "ingest", *map(str, files)]
    command += ["--warehouse", str(warehouse), "--workers", "0", "--batch-mb", "0", "--json"]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def check_readable(warehouse: Path) -> int:
    """Everything the catalog lists opens; readers count exactly the recorded rows."""
    catalog = read_catalog(warehouse)
    recorded = 0
    for batch in catalog["batches"]:
        for parts in batch["parts"].values():
            for part in parts:
                pq.read_metadata(warehouse / BATCHES / batch["id"] / part)
        recorded += batch["rows"].get("deals", 0)
    analytics = Analytics(warehouse)
    try:
        counts = analytics.sql("select count(*) as n, count(distinct deal_id) as ids from stg_deals")
    finally:
        analytics.close()
    assert counts["n"][0] == counts["ids"][0] == recorded
    return recorded


def test_kill_9_at_random_moments_then_a_clean_complete_ingest(tmp_path: Path) -> None:
    files = []
    for number in range(FILES):
        path = tmp_path / "logs" / f"evening-{number}.jsonl"
        plan = ClubPlan(players=6, sessions=3, deals_per_session=6, seed=100 + number, club=f"c{number}")
        write_log(simulate_club(plan), path)
        files.append(path)
    expected = sum(len(s.deals) for f in files for s in read_log(f).sessions)
    warehouse = tmp_path / "warehouse"

    started = time.perf_counter()
    timing = ingest_process(files, tmp_path / "timing-run")
    assert timing.wait(timeout=120) == 0
    full = time.perf_counter() - started

    rng = random.Random(20261129)
    stored = 0
    for _ in range(KILLS):
        process = ingest_process(files, warehouse)
        time.sleep(rng.uniform(0.05, full))
        process.kill()  # SIGKILL: no cleanup, no finally
        process.wait(timeout=30)
        now = check_readable(warehouse)
        assert now >= stored  # earlier batches intact
        stored = now

    final = ingest_process(files, warehouse)
    out, err = final.communicate(timeout=120)
    assert final.returncode == 0, err.decode()
    assert json.loads(out)["deals"]["read"] == expected - stored  # only what no batch recorded
    assert check_readable(warehouse) == expected
    catalog = read_catalog(warehouse)
    assert sorted(p.name for p in (warehouse / BATCHES).iterdir()) == sorted(
        b["id"] for b in catalog["batches"]
    )
    assert not any((warehouse / STAGING).iterdir())
    recorded = [f["sha256"] for f in catalog_files(warehouse, catalog)]
    assert len(recorded) == len(set(recorded)) == FILES
