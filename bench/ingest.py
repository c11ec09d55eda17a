"""End-to-end ingest speed: simulated logs -> validated warehouse (read, replay, facts,
Parquet, catalog), with ``--workers 2`` against ``--workers 1`` on the same files, and
the warehouse's size on disk per event.

The corpus (``--deals`` simulated deals in ``--files`` gzip logs, fixed seeds) is built
once, in parallel, and kept in ``--corpus`` for the next run. Each measured run ingests
into a fresh warehouse. ``--json`` prints one object as the last line.

Beside the deals per second, each run is compared with the single-core decoding floor of
the same files, measured in the same run (gunzip every file and run
``msgspec.json.Decoder().decode`` over each line: what one core pays merely to parse), and
reports the peak resident memory of this process (the one that reads, cuts and writes) and
of the largest worker so far. ``--dask`` also runs each worker count on a Dask
``LocalCluster``, the local runner ingest used before the process pool.

    .venv/bin/python bench/ingest.py [--deals 100000] [--files 20] [--workers 2 1] [--dask] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import resource
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

# This file is named like the package it measures: keep its folder off the import path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import msgspec  # noqa: E402

from ingest.logs.source import gunzip  # noqa: E402
from ingest.logs.writer import write_log  # noqa: E402
from ingest.simulator.simulate import ClubPlan, simulate_club  # noqa: E402
from ingest.warehouse import ingest, read_catalog  # noqa: E402

DEALS_PER_SESSION = 8
PAGE = os.sysconf("SC_PAGE_SIZE")
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


def cpu_seconds() -> tuple[float, float]:
    """CPU seconds (user + system) used so far by this process and by its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def decoding_floor(files: list[Path]) -> tuple[float, float]:
    """Seconds (wall, CPU) one core takes to gunzip every file and decode each line with msgspec."""
    decode = msgspec.json.Decoder().decode
    started, cpu = time.perf_counter(), time.process_time()
    for path in files:
        raw, _ = gunzip(path.read_bytes())
        for line in raw.splitlines():
            if line:
                decode(line)
    return time.perf_counter() - started, time.process_time() - cpu


def peak_mb() -> tuple[float, float]:
    """Peak resident MB of this process and of the largest finished child process (a
    child's figure counts what it shared with this process when it was forked, so
    :class:`MemorySampler` gives the workers' own)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return round(own, 1), round(children, 1)


def _rss(pid: int) -> int:
    """Resident bytes of a process (0 once it is gone)."""
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def _children(pid: int) -> list[int]:
    """Every descendant of a process, from /proc (Linux)."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError, ValueError):
            for child in map(int, task.read_text().split()):
                out += [child, *_children(child)]
    return out


class MemorySampler:
    """Resident memory of this process and of each of its child processes (the workers),
    read from /proc every ``every`` seconds while a run lasts: the peaks, and the
    parent's peak in each quarter of the run, which shows whether memory grows with the
    deals read."""

    def __init__(self, every: float = 0.5) -> None:
        self.every = every
        self.samples: list[tuple[float, int, int]] = []  # (seconds, parent bytes, largest worker bytes)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._started = 0.0

    def __enter__(self) -> MemorySampler:
        self._started = time.perf_counter()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        me = os.getpid()
        while not self._stop.is_set():
            workers = [_rss(pid) for pid in _children(me)]
            self.samples.append((time.perf_counter() - self._started, _rss(me), max(workers, default=0)))
            self._stop.wait(self.every)

    def report(self) -> dict[str, Any]:
        mb = 1 << 20
        parent = [s[1] for s in self.samples] or [0]
        workers = [s[2] for s in self.samples] or [0]
        quarters = [
            round(
                max(parent[len(parent) * q // 4 : max(len(parent) * (q + 1) // 4, len(parent) * q // 4 + 1)])
                / mb
            )
            for q in range(4)
        ]
        return {
            "parent_sampled_peak_mb": round(max(parent) / mb),
            "worker_sampled_peak_mb": round(max(workers) / mb),
            "parent_peak_mb_by_quarter": quarters,
        }


def measure(files: list[Path], workers: int, scratch: Path, dask_local: bool = False) -> dict[str, Any]:
    warehouse = scratch / f"warehouse-w{workers}"
    shutil.rmtree(warehouse, ignore_errors=True)
    own_cpu, children_cpu = cpu_seconds()
    started = time.perf_counter()
    with MemorySampler() as memory:
        summary = ingest(files, warehouse, workers=workers, dask_local=dask_local)
    seconds = time.perf_counter() - started
    own_after, children_after = cpu_seconds()
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
    parent_mb, worker_mb = peak_mb()
    result = {
        "workers": workers,
        "runner": "dask" if dask_local and workers else "pool" if workers else "in process",
        "parent_peak_mb": parent_mb,
        "parent_cpu_s": round(own_after - own_cpu, 2),
        "workers_cpu_s": round(children_after - children_cpu, 2),
        "worker_peak_mb": worker_mb,
        "deals": summary.read,
        "events": events,
        "seconds": round(seconds, 2),
        "deals_per_s": round(summary.read / seconds, 1),
        "warehouse_bytes": folder_bytes(warehouse),
        "table_bytes": sizes,
        "events_bytes_per_event": round(sizes["events"] / events, 2) if events else None,
        "warehouse_bytes_per_event": round(folder_bytes(warehouse) / events, 2) if events else None,
        "batches": len(summary.batches),
        **memory.report(),
    }
    shutil.rmtree(warehouse, ignore_errors=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--workers", type=int, nargs="+", default=[2, 1])
    parser.add_argument("--corpus", type=Path, default=Path(tempfile.gettempdir()) / "chuanma-bench-corpus")
    parser.add_argument("--dask", action="store_true", help="also run on a Dask LocalCluster")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--corpus-only", action="store_true", help="simulate the corpus, measure nothing")
    args = parser.parse_args()
    files = corpus(args.corpus, args.deals, args.files)
    if args.corpus_only:
        return
    log_bytes = sum(f.stat().st_size for f in files)
    runs = []
    floors: list[tuple[float, float]] = []
    plan = [(w, False) for w in args.workers] + ([(w, True) for w in args.workers if w] if args.dask else [])
    with tempfile.TemporaryDirectory() as scratch:
        for workers, dask_local in plan:
            floors.append(decoding_floor(files))  # before each run: the floor shares its noise
            run = measure(files, workers, Path(scratch), dask_local)
            floor_s, floor_cpu_s = floors[-1]
            run["floor_s"] = round(floor_s, 2)
            run["floor_ratio"] = round(run["seconds"] / floor_s, 2)
            run["floor_cpu_s"] = round(floor_cpu_s, 2)
            run["cpu_ratio"] = round((run["parent_cpu_s"] + run["workers_cpu_s"]) / floor_cpu_s, 2)
            runs.append(run)
            print(
                f"--workers {workers} ({run['runner']}): {run['deals']} deals ({run['events']} events) in "
                f"{run['seconds']} s = {run['deals_per_s']:.0f} deals/s, {run['floor_ratio']}x the decoding "
                f"floor ({run['floor_s']} s); CPU {run['parent_cpu_s']} s here + {run['workers_cpu_s']} s "
                f"workers = {run['cpu_ratio']}x the floor's CPU; peak RSS {run['parent_peak_mb']} MB here, "
                f"{run['worker_peak_mb']} MB largest worker (sampled: {run['parent_sampled_peak_mb']} MB here, by quarter of the run "
                f"{run['parent_peak_mb_by_quarter']}; {run['worker_sampled_peak_mb']} MB largest worker); warehouse {run['warehouse_bytes'] / 1e6:.1f} MB, "
                f"events {run['events_bytes_per_event']} B/event, all tables {run['warehouse_bytes_per_event']} B/event",
                flush=True,
            )
    by_workers = {run["workers"]: run for run in runs if run["runner"] != "dask"}
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
