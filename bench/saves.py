"""Saves at the table, one deal at a time, as the Record page saves them.

``--deals N`` (default 20,000) deals are saved one by one through
``dashboard.record_draft.save_deal`` (one upload file and one ingest each, the page's
path) into a fresh warehouse: sessions of 20 deals at tables of four drawn from a club of
twelve, one evening a day from 2026-01-01, with kongs, wins of a few patterns, 一炮多响 and 花猪
varied by a seeded generator. It prints the median time of the first 100 saves and of the
last 100 and their ratio, the batch and file counts at the end, then times every
analytics query (``analytics.queries.QUERIES`` through ``Analytics``, the dashboard's
materialised object) on that warehouse against the same deals ingested at once (the
baseline, built in the same run from the same upload files), each query's fastest of
``--repeat`` runs and the ratio (the fastest run of each, the two warehouses in turn:
a busy machine slows both alike). ``--json`` prints one JSON object as the last line.

    .venv/bin/python bench/saves.py [--deals 20000] [--repeat 7] [--keep DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from analytics.queries import QUERIES, Analytics  # noqa: E402
from dashboard.record_draft import save_deal  # noqa: E402
from ingest.sheets.record import (  # noqa: E402
    DealFacts,
    EndFact,
    Fact,
    KongFact,
    SessionFacts,
    WinFact,
    deal_lines,
)
from ingest.warehouse import BATCHES, ingest, read_catalog  # noqa: E402

PLAYERS = ("Ann", "Bo", "Chen", "Du", "Eve", "Fang", "Gao", "Hu", "Ivy", "Jin", "Kai", "Li")
PATTERNS = (("pinghu",), ("pinghu",), ("duiduihu",), ("qingyise",), ("qidui",), ("qingyise", "duiduihu"))
DEALS_PER_SESSION = 20
FIRST_DAY = date(2026, 1, 1)


def one_deal(rng: random.Random, deal_id: str, dealer: int) -> DealFacts:
    """A plausible ended deal: up to two kongs, one to three wins, sometimes a 花猪."""
    events: list[Fact] = []
    for _ in range(rng.choice((0, 0, 1, 2))):
        seat = rng.randrange(4)
        kind = rng.choice(("exposed", "added", "concealed"))
        events.append(KongFact(seat, kind, (seat + rng.randrange(1, 4)) % 4 if kind == "exposed" else None))
    winners = rng.sample(range(4), rng.choice((1, 1, 2, 3)))
    for seat in winners:
        from_seat = None if rng.random() < 0.4 else rng.choice([s for s in range(4) if s not in winners])
        events.append(WinFact(seat, from_seat, rng.choice(PATTERNS)))
    losers = [s for s in range(4) if s not in winners]
    if len(losers) < 2:  # three won: the deal ends there, no 查叫
        return DealFacts(deal_id, dealer, tuple(events), EndFact())
    pigs = (rng.choice(losers),) if rng.random() < 0.1 else ()
    return DealFacts(deal_id, dealer, tuple(events), EndFact((None,) * 4, pigs))


def valid_deal(rng: random.Random, session: SessionFacts, deal_id: str, dealer: int) -> DealFacts:
    """:func:`one_deal` drawn again until the engine can price it (a 七对 after a kong is not)."""
    while True:
        deal = one_deal(rng, deal_id, dealer)
        try:
            deal_lines(session, deal)
        except ValueError:
            continue
        return deal


def deals(count: int, seed: int = 20261202) -> Iterator[tuple[SessionFacts, DealFacts]]:
    """``count`` (session, deal) pairs, sessions of :data:`DEALS_PER_SESSION` deals."""
    rng = random.Random(seed)
    for number in range(count):
        if number % DEALS_PER_SESSION == 0:
            day = number // DEALS_PER_SESSION
            a, b, c, d = rng.sample(PLAYERS, 4)
            when = (FIRST_DAY + timedelta(days=day)).isoformat()  # an evening a day
            session = SessionFacts(
                f"bench-{when}-s{day}",
                (a, b, c, d),
                "standard",
                1,
                "benchclub",
                f"t{day % 5}",
                f"{when}T19:00:00",
            )
        deal_id = f"{session.session_id}-{number % DEALS_PER_SESSION + 1:02d}"
        yield session, valid_deal(rng, session, deal_id, rng.randrange(4))


def file_count(warehouse: Path) -> tuple[int, int]:
    catalog = read_catalog(warehouse)
    files = sum(len(parts) for batch in catalog["batches"] for parts in batch["parts"].values())
    return len(catalog["batches"]), files


def query_times(ours: Path, theirs: Path, repeat: int) -> dict[str, tuple[float, float]]:
    """Each query's fastest of ``repeat`` runs in ms (after one warm-up) on the dashboard's
    Analytics of both warehouses, the two run in turn (a busy machine slows both alike;
    the fastest run is the one least disturbed), and a forced refresh of each."""
    both = [Analytics(ours), Analytics(theirs)]
    try:
        out: dict[str, tuple[float, float]] = {}
        for name in [*QUERIES, "(refresh)"]:
            runs: list[list[float]] = [[], []]
            for _ in range(repeat + 1):
                for side, analytics in enumerate(both):
                    began = time.perf_counter()
                    if name == "(refresh)":
                        analytics.refresh(force=True)
                    else:
                        analytics.query(name)
                    runs[side].append((time.perf_counter() - began) * 1000)
            out[name] = min(runs[0][1:]), min(runs[1][1:])
        return out
    finally:
        for analytics in both:
            analytics.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="build the warehouses here (kept) instead of a temp folder")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="chuanma-saves-"))
    saved, whole = folder / "saved", folder / "whole"
    for old in (saved, whole):
        shutil.rmtree(old, ignore_errors=True)
    times: list[float] = []
    cpu: list[float] = []
    merging: list[float] = []  # the saves that merged batches at their end
    began = time.perf_counter()
    for number, (session, deal) in enumerate(deals(args.deals), 1):
        start, start_cpu = time.perf_counter(), time.process_time()
        _, summary = save_deal(saved, session, deal)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        if summary.merged:
            merging.append(times[-1])
        assert summary.stored["ok"] + summary.stored["findings"] + summary.stored["invalid"] == 1, summary
        if not args.json and number % 1000 == 0:
            print(f"{number} saves, last 100 median {statistics.median(times[-100:]):.1f} ms", flush=True)
    total = time.perf_counter() - began
    batches, files = file_count(saved)
    ingest(sorted((saved / "uploads").glob("*.jsonl")), whole, workers=0)
    whole_batches, whole_files = file_count(whole)
    first, last = statistics.median(times[:100]), statistics.median(times[-100:])
    first_cpu, last_cpu = statistics.median(cpu[:100]), statistics.median(cpu[-100:])
    timed = query_times(saved, whole, args.repeat)
    ours = {name: mine for name, (mine, _) in timed.items()}
    base = {name: theirs for name, (_, theirs) in timed.items()}
    result: dict[str, Any] = {
        "deals": args.deals,
        "first_100_median_ms": round(first, 1),
        "last_100_median_ms": round(last, 1),
        "last_over_first": round(last / first, 2),
        "first_100_median_cpu_ms": round(first_cpu, 1),
        "last_100_median_cpu_ms": round(last_cpu, 1),
        "slowest_save_ms": round(max(times), 1),
        "saves_that_merged": len(merging),
        "merging_save_median_ms": round(statistics.median(merging), 1) if merging else None,
        "total_s": round(total, 1),
        "batches": batches,
        "files": files,
        "baseline_batches": whole_batches,
        "baseline_files": whole_files,
        "folders": sum(1 for _ in (saved / BATCHES).iterdir()),
        "queries_ms": {name: [round(ours[name], 2), round(base[name], 2)] for name in ours},
        "query_ratios": {name: round(ours[name] / base[name], 2) if base[name] else None for name in ours},
    }
    result["worst_query_ratio"] = max(r for r in result["query_ratios"].values() if r is not None)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.deals} saves in {total:.0f} s: first 100 median {first:.1f} ms, last 100 {last:.1f} ms "
          f"({last / first:.2f}x), slowest {max(times):.0f} ms; CPU {first_cpu:.1f} -> {last_cpu:.1f} ms; "
          f"{len(merging)} saves merged, median {result['merging_save_median_ms']} ms")  # fmt: skip
    print(
        f"saved one by one: {batches} batches, {files} files; ingested at once: {whole_batches}, {whole_files}"
    )
    print(f"{'query (fastest of runs)':28} {'saved ms':>9} {'at once':>9} {'ratio':>6}")
    for name, (mine, theirs) in result["queries_ms"].items():
        print(f"{name:28} {mine:9.2f} {theirs:9.2f} {result['query_ratios'][name] or 0:6.2f}")
    print(f"worst ratio {result['worst_query_ratio']:.2f}")


if __name__ == "__main__":
    main()
