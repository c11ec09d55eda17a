"""Opening a warehouse: how long ``Analytics(warehouse)`` takes and how much memory the
process holds after every page's queries ran once (the goals: open <= 1 s, <= 500 MB).

Each open runs in a process of its own (a server start), ``--repeat`` times; the first
open after an ingest also builds or updates ``marts.duckdb`` and is reported apart. The
child then runs every query of ``analytics/sql/queries`` with the filters
``bench/queries.py`` uses and reports its peak resident set (``ru_maxrss``).
``--memory`` opens as before the marts file (marts built in memory at every open).

    .venv/bin/python bench/open.py --warehouse /tmp/marts200k [--repeat 5] [--memory] [--json]
"""

from __future__ import annotations

import argparse
import inspect
import json
import resource
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]


def child(warehouse: Path, memory: bool, queries: bool) -> dict[str, float | str]:
    """One open (and, with ``queries``, every query once) in this process."""
    from analytics.queries import QUERIES, Analytics, Filters

    kwargs = {"persist": False} if memory and "persist" in inspect.signature(Analytics).parameters else {}
    started = time.perf_counter()
    analytics = Analytics(warehouse, **kwargs)
    opened = (time.perf_counter() - started) * 1000
    rss_open = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if queries:
        player = str(
            analytics.sql("select player from mart_seat_deals group by 1 order by count(*) desc limit 1")[
                "player"
            ][0]
        )
        club = str(analytics.sql("select club from mart_deals limit 1")["club"][0])
        variants = (Filters(), Filters(player=player), Filters(tablemates=(player,)),
                    Filters(club=club, date_from=date(2026, 2, 1), date_to=date(2026, 4, 30)))  # fmt: skip
        for name in QUERIES:
            for filters in variants:
                analytics.query(name, filters)
    how = getattr(analytics, "last_refresh", "")
    analytics.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "open_ms": round(opened, 1),
        "peak_rss_open_mb": round(rss_open),
        "peak_rss_mb": round(peak),
        "how": how,
    }


def run_child(warehouse: Path, memory: bool, queries: bool) -> dict[str, float | str]:
    args = [sys.executable, __file__, "--child", "--warehouse", str(warehouse)]
    args += ["--memory"] if memory else []
    args += ["--queries"] if queries else []
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    found: dict[str, float | str] = json.loads(out.strip().splitlines()[-1])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--memory", action="store_true", help="no marts file: build the marts in memory")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--queries", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.warehouse, args.memory, args.queries)))
        return
    first = run_child(args.warehouse, args.memory, queries=False)
    opens = [run_child(args.warehouse, args.memory, queries=False) for _ in range(args.repeat)]
    pages = run_child(args.warehouse, args.memory, queries=True)
    result = {
        "first_open_ms": first["open_ms"],
        "first_open_how": first["how"],
        "open_median_ms": statistics.median(float(o["open_ms"]) for o in opens),
        "open_how": sorted({str(o["how"]) for o in opens}),
        "peak_rss_open_mb": pages["peak_rss_open_mb"],
        "peak_rss_after_every_query_mb": pages["peak_rss_mb"],
        "repeat": args.repeat,
        "memory": args.memory,
    }
    print(
        f"first open {result['first_open_ms']:.0f} ms ({result['first_open_how']}); "
        f"open median {result['open_median_ms']:.0f} ms over {args.repeat} ({', '.join(result['open_how'])}); "
        f"peak resident after open {result['peak_rss_open_mb']} MB, peak after every query "
        f"{result['peak_rss_after_every_query_mb']} MB"
    )
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
