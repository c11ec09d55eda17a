"""Queries of ``analytics/sql/queries`` against their text at an earlier commit, paired.

Both texts run in one process on one connection (the working tree's marts), alternately
(old, new, old, new), so the ratio holds however loaded the machine is. A query whose old
text reads a mart or macro the working tree no longer has fails: this compares rewrites of
a query, not of the marts under it. The new text runs with the options a page passes
(``bench/queries.py`` ``PAGE_OPTIONS``); the busiest player is the ``player`` variant, and
the only tablemate of the ``mates`` one.

    .venv/bin/python bench/sql_against.py --rev 2e4f9a0 --warehouse /tmp/marts200k session_list shared_names
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [str(ROOT), *(p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench")]

from analytics.queries import Analytics, Filters, bound_params, params_named, query_sql  # noqa: E402
from bench.queries import PAGE_OPTIONS  # noqa: E402


def old_text(rev: str, name: str) -> str:
    path = f"analytics/sql/queries/{name}.sql"
    return subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout


def median_ms(analytics: Analytics, sql: str, params: dict[str, Any], repeat: int) -> float:
    analytics.con.cursor().execute(sql, params).df()  # warm-up
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        analytics.con.cursor().execute(sql, params).df()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("queries", nargs="+")
    parser.add_argument("--rev", required=True, help="the baseline commit")
    parser.add_argument("--warehouse", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    started = time.perf_counter()
    analytics = Analytics(args.warehouse)
    deals = int(analytics.sql("select count(*) as n from stg_deals")["n"][0])
    print(f"open {time.perf_counter() - started:.1f} s; {deals} deals; baseline {args.rev}")
    player = str(
        analytics.sql(
            "select player from mart_seat_deals group by player order by count(*) desc, player limit 1"
        )["player"][0]
    )
    print(f"{'query':20} {'filters':8} {'old ms':>9} {'new ms':>9} {'new/old':>8}")
    for name in args.queries:
        old, new = old_text(args.rev, name), query_sql(name)
        variants = (
            ("all", Filters()),
            ("player", Filters(player=player)),
            ("mates", Filters(tablemates=(player,))),
        )
        for label, filters in variants:
            old_params = bound_params(params_named(old), filters, {})
            new_params = bound_params(params_named(new), filters, PAGE_OPTIONS.get(name, {}))
            runs = [
                median_ms(analytics, sql, p, args.repeat)
                for sql, p in [(old, old_params), (new, new_params)] * 2
            ]
            old_ms, new_ms = (runs[0] + runs[2]) / 2, (runs[1] + runs[3]) / 2
            print(f"{name:20} {label:8} {old_ms:9.1f} {new_ms:9.1f} {new_ms / old_ms:8.2f}", flush=True)
    analytics.close()


if __name__ == "__main__":
    main()
