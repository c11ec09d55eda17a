"""The incremental refresh gives exactly what a from-scratch computation gives.

A warehouse is built by many small ingests (a tampered tile log, score-sheet deals saved
one by one as the Record page saves them, so a session spans batches, two revisions of a
deal, a deal that makes a name shared across clubs, renaming the held rows that show it),
then compacted (a merged batch replacing two); one connection is refreshed after each
step and compared, every mart table and every query of ``QUERIES`` and the staging views
the pages read (sorted rows), with a fresh ``Analytics(materialize=True)``.
"""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd  # type: ignore[import-untyped]
import pyarrow.dataset as ds  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest

from analytics.incremental import Held, plan
from analytics.queries import MARTS, QUERIES, Analytics
from dashboard.record_draft import save_deal
from ingest.logs.writer import write_lines
from ingest.sheets.record import DealFacts, EndFact, KongFact, SessionFacts, WinFact
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer
from ingest.warehouse import IngestLock, ingest, read_catalog, write_batch
from ingest.warehouse.catalog import BATCHES, batch_files, write_catalog
from ingest.warehouse.compact import FANOUT
from ingest.warehouse.schema import TABLES

GOLDEN = Path(__file__).resolve().parent / "golden"
#: the staging views the replay, search and session pages read directly
STAGING = ("stg_deals", "stg_seats", "stg_events", "stg_ledger", "stg_findings", "stg_sessions",
           "stg_quarantine", "stg_deal_revisions")  # fmt: skip

EVENING = SessionFacts("c1-2026-11-28-t1", ("Ann", "Bo", "Chen", "Du"), "standard", 1, "c1", "t1")
OTHER = SessionFacts("c9-2026-11-29-t1", ("Chen", "Wu", "Xi", "Yu"), "standard", 2, "c9", "t1")
STRANGERS = SessionFacts("c9-2026-11-29-t2", ("Wu", "Xi", "Yu", "Zed"), "standard", 1, "c9", "t2")


def sheet(deal_id: str, revision: int = 1, kong_from: int = 1) -> DealFacts:
    """A priced sheet deal: a 直杠, a 自摸 and a win on a discard, then 查叫."""
    return DealFacts(
        deal_id,
        0,
        (KongFact(2, "exposed", kong_from), WinFact(2, None, ("duiduihu",)), WinFact(0, 3, ("qingyise",))),
        EndFact((None, 2, None, None), (3,)),
        revision,
    )


def refused_log(folder: Path) -> Path:
    """tests/golden/cha_jiao.jsonl (one deal, a day of its own) under a knob value that does
    not exist: the deal is stored as invalid, with no seat rows."""
    lines = (GOLDEN / "cha_jiao.jsonl").read_text(encoding="utf-8").splitlines()
    session = json.loads(lines[0])
    session["rules"] = {"preset": "standard", "max_fan": "many"}
    path = folder / "refused.jsonl"
    path.write_text("\n".join([json.dumps(session), *lines[1:]]) + "\n", encoding="utf-8")
    return path


def normal(value: Any) -> Any:
    """A cell as a comparable value (lists as tuples, every null as None, floats rounded)."""
    if isinstance(value, list | tuple | np.ndarray):
        return tuple(normal(v) for v in value)
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float | np.floating):
        return None if math.isnan(value) else round(float(value), 9)
    if isinstance(value, np.integer | np.bool_):
        return value.item()
    return value


def rows(frame: pd.DataFrame) -> tuple[list[str], list[tuple[Any, ...]]]:
    """The columns (sorted) and the rows in that order, sorted."""
    columns = sorted(frame.columns)
    found = [tuple(normal(v) for v in row) for row in frame[columns].itertuples(index=False)]
    return columns, sorted(found, key=repr)


def snapshot(api: Analytics, queries: bool) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    """Every mart and staging view, and (``queries``) every query of ``QUERIES``: the
    queries read only those, so they are compared at the end of each kind of step."""
    out = {name: rows(api.sql(f"select * from {name}")) for name in (*MARTS, *STAGING)}
    if queries:
        out.update({f"query {name}": rows(api.query(name)) for name in QUERIES})
    return out


def assert_as_from_scratch(api: Analytics, warehouse: Path, queries: bool) -> None:
    fresh = Analytics(warehouse)
    try:
        assert fresh.last_refresh == "full"
        want, have = snapshot(fresh, queries), snapshot(api, queries)
        for name, expected in want.items():
            assert have[name] == expected, name
    finally:
        fresh.close()


def merge(warehouse: Path, ids: list[str]) -> str:
    """Replace batches ``ids`` by one batch holding exactly their rows (a compaction), and
    remove their folders: a view still reading them fails."""
    with IngestLock(warehouse):
        catalog = read_catalog(warehouse)
        merged = [b for b in catalog["batches"] if b["id"] in ids]
        tables = {}
        for name in TABLES:
            files = [str(warehouse / BATCHES / b["id"] / p) for b in merged for p in b["parts"].get(name, [])]
            if files:
                tables[name] = ds.dataset(files, format="parquet").to_table()
        catalog["batches"] = [b for b in catalog["batches"] if b["id"] not in ids]
        new_id = write_batch(
            warehouse, catalog, tables, [f for b in merged for f in batch_files(warehouse, b)]
        )
        catalog["batches"][-1]["merged_from"] = ids
        write_catalog(warehouse, catalog)
        for batch_id in ids:
            shutil.rmtree(warehouse / BATCHES / batch_id)
        return new_id


@pytest.fixture
def warehouse(tmp_path: Path) -> Path:
    log = tmp_path / "club.jsonl"
    plan_ = ClubPlan(players=6, sessions=3, deals_per_session=4, seed=5, club="c1", start=date(2026, 11, 1))
    write_lines(Tamperer(0.25, seed=3).lines(simulate_club(plan_)), log)
    ingest([log], tmp_path / "wh", workers=0)
    return tmp_path / "wh"


@pytest.fixture
def api(warehouse: Path) -> Iterator[Analytics]:
    opened = Analytics(warehouse)
    yield opened
    opened.close()


def step(api: Analytics, warehouse: Path, expected: str, *, queries: bool = False) -> None:
    assert api.refresh()
    assert api.last_refresh == expected
    assert_as_from_scratch(api, warehouse, queries)


def test_every_mart_equals_a_from_scratch_computation(api: Analytics, warehouse: Path) -> None:
    held = int(api.sql("select count(*) as n from mart_deals")["n"][0])
    assert held > 0 and not api.sql("select * from mart_findings").empty  # the tampered log has findings
    for number in (1, 2, 3):  # one session over three batches
        save_deal(warehouse, EVENING, sheet(f"{EVENING.session_id}-0{number}"))
        step(api, warehouse, "incremental", queries=number == 3)
    assert int(api.sql("select count(*) as n from mart_deals")["n"][0]) == held + 3
    corrected = f"{EVENING.session_id}-03"
    for revision in (2, 3):  # each revision supersedes the one before
        save_deal(warehouse, EVENING, sheet(corrected, revision, kong_from=(0, 1, 3, 0)[revision]))
        step(api, warehouse, "incremental", queries=revision == 3)
    assert api.sql("select deal_id from mart_deals where deal_id like $d", {"d": corrected + "%"})[
        "deal_id"
    ].tolist() == [f"{corrected}~rev3"]
    deleted = f"{EVENING.session_id}-02"  # a saved deal deleted (a revision that removes it)
    save_deal(warehouse, EVENING, replace(sheet(deleted, 2), events=(), end=None, deleted=True))
    step(api, warehouse, "incremental", queries=True)
    assert api.sql("select deal_id from mart_deals where deal_id like $d", {"d": deleted + "%"}).empty
    save_deal(warehouse, OTHER, sheet(f"{OTHER.session_id}-01"))  # Chen now plays in two clubs
    step(api, warehouse, "incremental", queries=True)  # every held "Chen" is now "Chen (c1)"
    assert api.sql("select names from mart_shared_names")["names"][0].tolist() == ["Chen"]
    assert "Chen (c1)" in set(api.sql("select player from mart_findings")["player"])  # the tile log's
    save_deal(warehouse, STRANGERS, sheet(f"{STRANGERS.session_id}-01"))
    step(api, warehouse, "incremental")
    refused = refused_log(warehouse.parent)  # its only deal is not replayed: no seat rows
    ingest([refused], warehouse, workers=0)
    step(api, warehouse, "incremental", queries=True)
    listed = api.query("session_list")
    assert listed[listed["invalid_deals"] > 0]["session_id"].tolist() == ["golden-cha-jiao"]
    save_deal(warehouse, OTHER, sheet(f"{OTHER.session_id}-02"))  # "Chen (c9)" again
    step(api, warehouse, "incremental", queries=True)
    assert "Chen (c9)" in set(api.sql("select player from mart_seat_deals")["player"])
    batches = [b["id"] for b in read_catalog(warehouse)["batches"]]
    merge(warehouse, batches[1:3])  # compaction of two held batches: the views move, the marts stay
    step(api, warehouse, "merged", queries=True)
    assert not any(
        b in str(f) for b in batches[1:3] for f in api.sql("select distinct file from stg_deals")["file"]
    )


def test_a_merge_of_an_unseen_batch_rebuilds(api: Analytics, warehouse: Path) -> None:
    save_deal(warehouse, EVENING, sheet(f"{EVENING.session_id}-01"))
    step(api, warehouse, "incremental")
    save_deal(warehouse, EVENING, sheet(f"{EVENING.session_id}-02"))  # not refreshed: never seen
    batches = [b["id"] for b in read_catalog(warehouse)["batches"]]
    merge(warehouse, batches[-2:])
    step(api, warehouse, "full")


def entry(batch_id: str, merged_from: list[str] | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {"id": batch_id, "parts": {}}
    if merged_from is not None:
        found["merged_from"] = merged_from
    return found


def test_plan_tells_appends_and_merges_from_what_it_cannot_apply() -> None:
    held = Held(batches=["a", "b", "c"])
    appended = plan(held, [entry("a"), entry("b"), entry("c"), entry("d")])
    assert appended is not None and [e["id"] for e in appended.appended] == ["d"] and not appended.merged
    merged = plan(held, [entry("c"), entry("ab", ["a", "b"]), entry("d")])
    assert merged is not None and merged.merged and [e["id"] for e in merged.appended] == ["d"]
    assert plan(held, [entry("a"), entry("c")]) is None  # b gone, no merge names it
    assert plan(held, [entry("c"), entry("abx", ["a", "b", "x"])]) is None  # x never held
    assert plan(held, [entry("ab", ["a", "b"]), entry("bc", ["b", "c"])]) is None  # b twice
    assert plan(held, [entry("ab", ["a", "b"]), entry("b"), entry("c")]) is None  # b still listed


def test_a_batch_of_new_columns_reads_beside_old_ones(tmp_path: Path) -> None:
    """A raw view over files of two column sets (``deals.record`` missing from old ones)."""
    warehouse = tmp_path / "wh"
    save_deal(warehouse, EVENING, sheet(f"{EVENING.session_id}-01"))
    catalog = read_catalog(warehouse)
    part = warehouse / BATCHES / catalog["batches"][0]["id"] / catalog["batches"][0]["parts"]["deals"][0]
    table = ds.dataset(str(part), format="parquet").to_table()
    pq.write_table(table.drop(["record"]), part)
    save_deal(warehouse, EVENING, sheet(f"{EVENING.session_id}-02"))
    api = Analytics(warehouse)
    try:
        found = api.sql("select deal_id, record from stg_deals order by deal_id")
        assert found["record"].tolist() == ["tiles", "sheet"]  # null in the old file: 'tiles'
    finally:
        api.close()


def test_saves_merged_on_the_threshold_never_cost_a_rebuild(api: Analytics, warehouse: Path) -> None:
    """A dashboard that refreshes after every save (the Record page reruns after one) is
    never sent to the full rebuild by the compaction those saves trigger: a save leaves its
    own batch out of its merge, so each refresh finds one batch appended and a merge of
    batches it holds."""
    merged = 0
    for number in range(1, 2 * FANOUT + 2):
        _, summary = save_deal(warehouse, EVENING, sheet(f"{EVENING.session_id}-{number:02d}"))
        merged += len(summary.merged)
        assert api.refresh()
        assert api.last_refresh == "incremental", number
    assert merged >= 2  # the threshold was crossed, twice
    assert_as_from_scratch(api, warehouse, queries=True)


def test_bloody_flow_wins_are_kept_by_the_incremental_refresh(api: Analytics, warehouse: Path) -> None:
    """血流成河's every-win columns (mart_seat_deals.win_count / win_fans, the days' all_wins)
    come out of an incremental refresh as out of a full build."""
    golden = Path(__file__).resolve().parent / "golden" / "bloody_flow.jsonl"
    ingest([golden], warehouse, workers=0)
    step(api, warehouse, "incremental", queries=True)
    bo = api.sql(
        "select win_count, win_fans from mart_seat_deals where deal_id = 'bloody-flow-standard-1' and seat = 1"
    )
    assert bo["win_count"].tolist() == [3] and list(bo["win_fans"][0]) == [1, 1, 1]
    assert int(api.sql("select sum(all_wins) - sum(wins) as n from mart_player_days")["n"][0]) == 6
