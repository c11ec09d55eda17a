"""Validation speed: read + replay + settlement + comparison of simulated deals.

Prints the median over rounds of deals per second on one core, beside the baseline of
reading the same file alone (the JSON and record conversion every validation pays), so
the ratio says how much the rules engine adds. ``--json`` prints one object last.

    .venv/bin/python bench/replay.py [--deals 2000] [--rounds 5] [--profile] [--json]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

# bench/ingest.py is named like the package: keep this folder off the import path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import engine.deal as engine_deal  # noqa: E402
from ingest.reader import read_log  # noqa: E402
from ingest.simulate import ClubPlan, simulate_club  # noqa: E402
from ingest.validate import validate_log  # noqa: E402
from ingest.writer import write_log  # noqa: E402


def corpus(deals: int, rules: str, folder: Path) -> Path:
    per_session = 8
    sessions = max(1, deals // per_session)
    path = folder / f"bench-{rules}-{sessions * per_session}.jsonl"
    write_log(
        simulate_club(ClubPlan(sessions=sessions, deals_per_session=per_session, rules=rules, seed=7)), path
    )
    return path


def timed(fn: object, rounds: int) -> list[float]:
    assert callable(fn)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--profile", action="store_true", help="print where the time goes")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        path = corpus(args.deals, args.rules, Path(tmp))
        simulate_s = time.perf_counter() - started  # one run: simulate + write the log
        log = read_log(path)
        deals = sum(len(s.deals) for s in log.sessions)
        events = sum(len(d.events) + 2 for s in log.sessions for d in s.deals)
        report = validate_log(log)
        assert report.ok, report.summary()
        read_times: list[float] = []
        full_times: list[float] = []
        for _ in range(args.rounds):  # interleaved so machine noise hits both
            read_times += timed(lambda: read_log(path), 1)
            full_times += timed(lambda: validate_log(read_log(path)), 1)
        if args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(lambda: validate_log(read_log(path)))
            pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    read_median = statistics.median(read_times)
    full_median = statistics.median(full_times)
    result = {
        "deals": deals,
        "events": events,
        "deals_per_s": round(deals / full_median, 1),
        "read_only_deals_per_s": round(deals / read_median, 1),
        "replay_share": round((full_median - read_median) / full_median, 3),
        "median_s": round(full_median, 4),
        "simulate_deals_per_s": round(deals / simulate_s, 1),
        "compiled": not engine_deal.__file__.endswith(".py"),
        "rounds": args.rounds,
        "rules": args.rules,
    }
    print(f"corpus: {deals} simulated deals, {events} events ({args.rules})")
    print(f"baseline read only : {result['read_only_deals_per_s']:>9.0f} deals/s (median of {args.rounds})")
    print(f"validate (read+replay+audit): {result['deals_per_s']:>9.0f} deals/s on one core")
    print(f"replay share of the time: {result['replay_share']:.0%}")
    print(f"simulate + write (one run): {result['simulate_deals_per_s']:>9.0f} deals/s")
    print(f"compiled with mypyc: {result['compiled']}")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
