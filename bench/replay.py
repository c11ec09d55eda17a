"""Validation speed: read + replay + settlement + comparison of simulated deals.

Prints the median over rounds of deals per second on one core, beside the baseline of
reading the same file alone (the JSON and record conversion every validation pays), so
the ratio says how much the rules engine adds. ``--profile`` adds where the time goes:
reading, the deal state machine by event type, and the rest of the audit (comparing the
recorder's claims, building the report); cProfile cannot see inside the compiled
modules, so these are timers around the engine's own calls. ``--json`` prints one
object last.

    .venv/bin/python bench/replay.py [--deals 20000] [--rounds 5] [--profile] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

# bench/ingest.py is named like the package: keep this folder off the import path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import engine.deal as engine_deal  # noqa: E402
from engine.deal import Deal  # noqa: E402
from ingest.logs.builder import LogFile  # noqa: E402
from ingest.logs.writer import write_log  # noqa: E402
from ingest.replay.files import read_log  # noqa: E402
from ingest.replay.session_replay import session_rules  # noqa: E402
from ingest.replay.validate import validate_log  # noqa: E402
from ingest.simulator.simulate import ClubPlan, simulate_club  # noqa: E402


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


def _engine_pass(log: LogFile, timers: dict[str, float] | None, counts: dict[str, int]) -> float:
    """Run the deal state machine over every deal; with ``timers``, time each call too."""
    clock = time.perf_counter
    began = clock()
    for session in log.sessions:
        rules = session_rules(session, None)
        for deal_log in session.deals:
            started = clock()
            deal = Deal(deal_log.deal, rules)
            if timers is not None:
                timers["deal set-up"] = timers.get("deal set-up", 0.0) + clock() - started
                counts["deal set-up"] = counts.get("deal set-up", 0) + 1
            for event in [*deal_log.events, deal_log.end]:
                assert event is not None
                started = clock()
                deal.apply(event)
                if timers is not None:
                    timers[event.type] = timers.get(event.type, 0.0) + clock() - started
                    counts[event.type] = counts.get(event.type, 0) + 1
    return clock() - began


def profile(log: LogFile, read_s: float, full_s: float) -> None:
    """Where one validation's time goes: reading, the deal state machine (its total timed
    in one block, split by event type in proportion to per-call timers, which add their
    own cost), and the rest of the audit (comparing the recorder's claims, the report)."""
    gc.disable()  # as validation runs (ingest.logs.gcpause): no collector pauses in the timers
    engine_s = _engine_pass(log, None, {})
    timers: dict[str, float] = {}
    counts: dict[str, int] = {}
    _engine_pass(log, timers, counts)
    gc.enable()
    scale = engine_s / sum(timers.values())
    rows: list[tuple[str, float, int | None]] = [
        ("read (JSON lines -> events, grouped in deals)", read_s, None)
    ]
    rows += [(f"engine: {kind}", seconds * scale, counts[kind]) for kind, seconds in timers.items()]
    rows.append(("audit (compare claims, report)", max(0.0, full_s - read_s - engine_s), None))
    print(f"where the time goes (one validation, median {full_s:.2f} s):")
    for name, seconds, count in rows:
        each = f"{seconds / count * 1e9:>9.0f} ns each" if count else ""
        print(f"  {name:<48} {seconds:>7.3f} s {seconds / full_s:>6.1%} {each}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
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
            profile(log, statistics.median(read_times), statistics.median(full_times))
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
