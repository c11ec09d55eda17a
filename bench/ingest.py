"""End-to-end ingest speed: simulated logs -> validated warehouse (read, replay, facts,
Parquet, catalog), with ``--workers 2`` against ``--workers 1`` on the same files, and
the warehouse's size on disk per event.

The corpus (``--deals`` simulated deals in ``--files`` gzip logs, fixed seeds) is built
once, in parallel, and kept in ``--corpus`` for the next run. Each measured run ingests
into a fresh warehouse. ``--json`` prints one object as the last line.

    .venv/bin/python bench/ingest.py [--deals 100000] [--files 20] [--workers 2 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# This file is named like the package it measures: keep its folder off the import path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from ingest.simulate import ClubPlan, simulate_club  # noqa: E402
from ingest.warehouse import ingest, read_catalog  # noqa: E402
from ingest.writer import write_log  # noqa: E402

DEALS_PER_SESSION = 8
GOAL_DEALS_PER_S = 3000


def _simulate(job: tuple[Path, int, int]) -> int:
    path, sessions, seed = job
    plan = ClubPlan(
        players=12, sessions=sessions, deals_per_session=DEALS_PER_SESSION, seed=seed, club=f"bench{seed}"
    )
    tmp = path.with_name("part-" + path.name)  # same suffix: gzip it the same way
    write_log(simulate_club(plan), tmp)
    tmp.rename(path)  # a corpus file exists only once complete
    return sessions * DEALS_PER_SESSION


def corpus(folder: Path, deals: int, files: int) -> list[Path]:
    """``files`` logs holding ``deals`` deals in all, simulated on every core (cached)."""
    folder.mkdir(parents=True, exist_ok=True)
    sessions = max(1, deals // DEALS_PER_SESSION // files)
    jobs = [
        (folder / f"club-{n:03d}-{sessions}x{DEALS_PER_SESSION}.jsonl.gz", sessions, 1000 + n)
        for n in range(files)
    ]
    todo = [job for job in jobs if not job[0].exists()]
    if todo:
        print(f"simulating {len(todo) * sessions * DEALS_PER_SESSION} deals into {folder} ...", flush=True)
        with multiprocessing.get_context("spawn").Pool() as pool:
            pool.map(_simulate, todo)
    return [job[0] for job in jobs]


def folder_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def measure(files: list[Path], workers: int, scratch: Path) -> dict[str, Any]:
    warehouse = scratch / f"warehouse-w{workers}"
    shutil.rmtree(warehouse, ignore_errors=True)
    started = time.perf_counter()
    summary = ingest(files, warehouse, workers=workers)
    seconds = time.perf_counter() - started
    assert summary.read == summary.stored["ok"] + summary.stored["findings"] + summary.stored["invalid"]
    catalog = read_catalog(warehouse)
    sizes = {}
    for table in summary.rows:
        parts = [
            warehouse / "batches" / b["id"] / part
            for b in catalog["batches"]
            for part in b["parts"].get(table, [])
        ]
        sizes[table] = sum(p.stat().st_size for p in parts)
    events = summary.rows["events"]
    result = {
        "workers": workers,
        "deals": summary.read,
        "events": events,
        "seconds": round(seconds, 2),
        "deals_per_s": round(summary.read / seconds, 1),
        "warehouse_bytes": folder_bytes(warehouse),
        "table_bytes": sizes,
        "events_bytes_per_event": round(sizes["events"] / events, 2) if events else None,
        "warehouse_bytes_per_event": round(folder_bytes(warehouse) / events, 2) if events else None,
    }
    shutil.rmtree(warehouse, ignore_errors=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--workers", type=int, nargs="+", default=[2, 1])
    parser.add_argument("--corpus", type=Path, default=Path(tempfile.gettempdir()) / "chuanma-bench-corpus")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    files = corpus(args.corpus, args.deals, args.files)
    log_bytes = sum(f.stat().st_size for f in files)
    runs = []
    with tempfile.TemporaryDirectory() as scratch:
        for workers in args.workers:
            run = measure(files, workers, Path(scratch))
            runs.append(run)
            print(
                f"--workers {workers}: {run['deals']} deals ({run['events']} events) in {run['seconds']} s = "
                f"{run['deals_per_s']:.0f} deals/s; warehouse {run['warehouse_bytes'] / 1e6:.1f} MB, "
                f"events {run['events_bytes_per_event']} B/event, all tables {run['warehouse_bytes_per_event']} B/event",
                flush=True,
            )
    by_workers = {run["workers"]: run for run in runs}
    speedup = None
    if 1 in by_workers and 2 in by_workers:
        speedup = round(by_workers[2]["deals_per_s"] / by_workers[1]["deals_per_s"], 2)
        print(f"speed-up of 2 workers over 1: {speedup}x")
    best = max(run["deals_per_s"] for run in runs)
    print(
        f"goal {GOAL_DEALS_PER_S} deals/s with 2 workers: {'met' if best >= GOAL_DEALS_PER_S else 'NOT met'}"
    )
    print(f"logs: {len(files)} gzip files, {log_bytes / 1e6:.1f} MB")
    if args.json:
        result = {
            "deals": runs[0]["deals"],
            "files": len(files),
            "log_bytes": log_bytes,
            "runs": runs,
            "speedup_2_over_1": speedup,
            "goal_deals_per_s": GOAL_DEALS_PER_S,
            "goal_met": bool(2 in by_workers and by_workers[2]["deals_per_s"] >= GOAL_DEALS_PER_S),
        }
        print(json.dumps(result))


if __name__ == "__main__":
    main()
