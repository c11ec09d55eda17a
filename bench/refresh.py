"""The dashboard's refresh after one more saved deal, on warehouses of many small batches.

The Record page saves each deal as one small file ingested alone, so a club's warehouse
holds one batch per saved deal. Each size of ``--sizes`` is a warehouse kept under
``--warehouse``: simulated deals ingested for real once (a base), then their rows written
back as batches: the last ``--small`` deals (all of them when fewer) one batch per deal,
the rest as one bulk batch, the way an imported history plus the deals saved since look.
At each size it times, over ``--repeat`` rounds (medians):

- *incremental*: ``Analytics.refresh()`` of an open connection after one more one-deal
  batch is recorded (what the dashboard's one connection pays after a save);
- *full*: the full rebuild of the same warehouse in the same run (``refresh(force=True)``,
  what every refresh paid before: views over every file, every mart materialized);
- *open*: a new ``Analytics(...)`` (a server start);
- *queries*: every query of ``analytics/sql/queries`` once, unfiltered: what the first
  browser session after a save pays, since ``dashboard/cached_queries.py`` keys its
  ``st.cache_data`` on the catalog version and every cached result is computed again.

Each added batch is a copy of one stored deal under a new id (``#addN``), so the
warehouse grows by one deal a round. ``--json`` prints one object as the last line.

    .venv/bin/python bench/refresh.py [--sizes 2000 20000] [--small 2000] [--repeat 5] [--json]
    .venv/bin/python bench/refresh.py --into /tmp/marts1m --repeat 3   # deals saved into its sessions
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import duckdb  # noqa: E402
import pyarrow as pa  # type: ignore[import-untyped]  # noqa: E402
import pyarrow.compute as pc  # type: ignore[import-untyped]  # noqa: E402
import pyarrow.dataset as ds  # type: ignore[import-untyped]  # noqa: E402

from analytics.queries import QUERIES, Analytics  # noqa: E402
from ingest.logs.writer import write_log  # noqa: E402
from ingest.simulator.simulate import ClubPlan, simulate_club  # noqa: E402
from ingest.warehouse import IngestLock, ingest, read_catalog, table_files, write_batch  # noqa: E402
from ingest.warehouse.schema import TABLES  # noqa: E402

GOAL_MS = 1000.0


def simulated_tables(deals: int, folder: Path) -> dict[str, pa.Table]:
    """Every table of ``deals`` simulated deals (2,500 a log, three clubs), ingested for real."""
    logs = []
    per_file = 2500
    for number in range(max(1, -(-deals // per_file))):
        path = folder / f"base-{number}.jsonl.gz"
        wanted = min(per_file, deals - number * per_file)
        plan = ClubPlan(players=16, sessions=max(1, wanted // 10), deals_per_session=10, seed=900 + number,
                        club=f"club{number % 3}", start=date(2026, 1 + number % 12, 1))  # fmt: skip
        write_log(simulate_club(plan), path)
        logs.append(path)
    base = folder / "base-warehouse"
    ingest(logs, base, workers=0)
    return {
        name: ds.dataset(files, format="parquet").to_table()
        for name in TABLES
        if (files := table_files(base, name))
    }


def rows_by_deal(tables: dict[str, pa.Table]) -> tuple[list[str], dict[str, dict[str, list[int]]]]:
    """The deal ids in order, and per table the row numbers of each deal (rows with no deal,
    and each session's row, go with its first deal, or the first deal of all)."""
    deal_ids = [str(d) for d in tables["deals"]["deal_id"].to_pylist()]
    session_of = dict(zip(deal_ids, tables["deals"]["session_id"].to_pylist(), strict=True))
    first_of_session: dict[str, str] = {}
    for deal in deal_ids:
        first_of_session.setdefault(str(session_of[deal]), deal)
    rows: dict[str, dict[str, list[int]]] = {}
    for name, table in tables.items():
        per: dict[str, list[int]] = {}
        deals = table["deal_id"].to_pylist() if "deal_id" in table.column_names else [None] * table.num_rows
        sessions = (
            table["session_id"].to_pylist() if "session_id" in table.column_names else [None] * table.num_rows
        )
        for index, (deal, session) in enumerate(zip(deals, sessions, strict=True)):
            owner = deal if deal is not None else first_of_session.get(str(session), deal_ids[0])
            per.setdefault(str(owner), []).append(index)
        rows[name] = per
    return deal_ids, rows


def build(warehouse: Path, deals: int, small: int) -> None:
    """A warehouse of ``deals`` deals: one bulk batch, then ``small`` one-deal batches."""
    if warehouse.exists() and read_catalog(warehouse)["batches"]:
        return
    print(f"building {warehouse}: {deals} deals, the last {min(small, deals)} one batch each ...", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        tables = simulated_tables(deals, Path(tmp))
        deal_ids, rows = rows_by_deal(tables)
        bulk = deal_ids[: max(0, len(deal_ids) - small)]
        groups = ([bulk] if bulk else []) + [[deal] for deal in deal_ids[len(bulk) :]]
        warehouse.mkdir(parents=True, exist_ok=True)
        with IngestLock(warehouse):
            catalog = read_catalog(warehouse)
            for number, group in enumerate(groups):
                parts = {
                    name: table.take(pa.array(taken, pa.int64()))
                    for name, table in tables.items()
                    if (taken := [i for deal in group for i in rows[name].get(deal, [])])
                }
                write_batch(
                    warehouse, catalog, parts, [{"file": f"bench {number}", "sha256": f"bench-{number}"}]
                )


def add_copy(warehouse: Path, number: int) -> None:
    """One more one-deal batch: a stored deal's rows under the id ``<deal>#add<number>``."""
    catalog = read_catalog(warehouse)
    last = catalog["batches"][-1]
    suffix = f"#add{number}"
    tables = {}
    for name in TABLES:
        files = [str(warehouse / "batches" / last["id"] / part) for part in last["parts"].get(name, [])]
        if not files:
            continue
        table = ds.dataset(files, format="parquet").to_table()
        for column in ("deal_id", "session_id"):
            if column in table.column_names:
                index = table.schema.get_field_index(column)
                table = table.set_column(
                    index, column, pc.binary_join_element_wise(table[column], suffix, "")
                )
        tables[name] = table
    with IngestLock(warehouse):
        catalog = read_catalog(warehouse)
        write_batch(warehouse, catalog, tables, [{"file": f"add {number}", "sha256": f"add-{number}"}])


def seconds(started: float) -> float:
    return time.perf_counter() - started


def measure(warehouse: Path, repeat: int) -> dict[str, Any]:
    """Medians (ms) of the incremental refresh, the full rebuild, a new connection and the queries."""
    batches = len(read_catalog(warehouse)["batches"])
    started = time.perf_counter()
    analytics = Analytics(warehouse)
    opened = [seconds(started)]
    incremental, full, queries = [], [], []
    for _ in range(repeat):
        add_copy(warehouse, len(read_catalog(warehouse)["batches"]))
        started = time.perf_counter()
        analytics.refresh()
        incremental.append(seconds(started))
        started = time.perf_counter()
        for name in QUERIES:
            analytics.query(name)
        queries.append(seconds(started))
        started = time.perf_counter()
        analytics.refresh(force=True)
        full.append(seconds(started))
    deals = int(analytics.sql("select count(*) as n from stg_deals")["n"][0])
    analytics.close()
    started = time.perf_counter()
    Analytics(warehouse).close()
    opened.append(seconds(started))
    inc, whole = statistics.median(incremental) * 1000, statistics.median(full) * 1000
    return {
        "deals": deals,
        "batches": batches + repeat,
        "incremental_ms": round(inc, 1),
        "full_ms": round(whole, 1),
        "ratio": round(whole / inc, 1) if inc else None,
        "open_ms": round(statistics.median(opened) * 1000, 1),
        "queries_ms": round(statistics.median(queries) * 1000, 1),
        "goal_met": inc <= GOAL_MS,
    }


def add_into_session(warehouse: Path, where: str, number: int) -> None:
    """One more one-deal batch whose deal joins a held session: a copy of a deal of the
    session rated first (``where`` "first") or last ("last", the one a table records into)
    under the id ``<deal>#into<number>``, in the same session (a deal saved into it)."""
    files = table_files(warehouse, "deals")
    order = "asc nulls first" if where == "first" else "desc nulls last"
    deal = duckdb.execute(
        f"select deal_id from read_parquet($files) order by played_at {order}, session_id {order.split()[0]} limit 1",
        {"files": files},
    ).fetchall()[0][0]
    tables = {}
    for name in TABLES:
        if name == "sessions" or not (paths := table_files(warehouse, name)):
            continue  # the session is held already
        table = ds.dataset(paths, format="parquet").to_table(filter=pc.field("deal_id") == deal)
        index = table.schema.get_field_index("deal_id")
        tables[name] = table.set_column(
            index, "deal_id", pc.binary_join_element_wise(table["deal_id"], f"#into{number}", "")
        )
    with IngestLock(warehouse):
        write_batch(
            warehouse,
            read_catalog(warehouse),
            tables,
            [{"file": f"into {number}", "sha256": f"into-{number}"}],
        )


def measure_into(warehouse: Path, repeat: int) -> dict[str, Any]:
    """Medians (ms) of the incremental refresh after a deal saved into the warehouse's first
    and into its last session (the rating is made again from the session it joins on)."""
    analytics = Analytics(warehouse)
    result: dict[str, Any] = {"deals": int(analytics.sql("select count(*) as n from stg_deals")["n"][0])}
    for where in ("last", "first"):
        times = []
        for _ in range(repeat):
            add_into_session(warehouse, where, len(read_catalog(warehouse)["batches"]))
            started = time.perf_counter()
            analytics.refresh()
            times.append(seconds(started))
        result[f"into_{where}_ms"] = round(statistics.median(times) * 1000, 1)
    analytics.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--small", type=int, default=2000, help="one-deal batches at each size")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--warehouse", type=Path, default=Path(tempfile.gettempdir()) / "chuanma-bench-refresh"
    )
    parser.add_argument(
        "--into",
        type=Path,
        help="a warehouse held (bench/queries.py's): deals saved into its sessions (it grows)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.into:
        into = measure_into(args.into, args.repeat)
        print(f"{into['deals']} deals: a deal saved into the last session {into['into_last_ms']} ms,"
              f" into the first {into['into_first_ms']} ms (median of {args.repeat}, incremental refresh)")  # fmt: skip
        if args.json:
            print(json.dumps({"goal_ms": GOAL_MS, "repeat": args.repeat, **into}))
        return
    results = {}
    print(
        f"{'deals':>8} {'batches':>8} {'incremental':>12} {'full':>10} {'ratio':>7} {'open':>10} {'queries':>10}  (median ms)"
    )
    for size in args.sizes:
        warehouse = args.warehouse / f"{size}-{args.small}"
        build(warehouse, size, args.small)
        result = measure(warehouse, args.repeat)
        results[str(size)] = result
        print(
            f"{result['deals']:>8} {result['batches']:>8} {result['incremental_ms']:>12.1f} {result['full_ms']:>10.1f}"
            f" {result['ratio']!s:>7} {result['open_ms']:>10.1f} {result['queries_ms']:>10.1f}",
            flush=True,
        )
    if args.json:
        print(json.dumps({"goal_ms": GOAL_MS, "repeat": args.repeat, "small": args.small, "sizes": results}))


if __name__ == "__main__":
    main()
