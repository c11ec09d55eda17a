"""The marts kept in ``<warehouse>/marts.duckdb`` (``analytics/marts_file.py``) are exactly
what a from-scratch computation gives, however the warehouse grew and whatever happened
to the file.

A warehouse is built by many small ingests (a tampered tile log, score-sheet deals saved
one by one, a second club's tile log that makes names shared, revisions of a deal and a
deleted deal, a roster change, ``chuanma warehouse compact``), the warehouse is opened
afresh after every step (the file brought up to date: built, opened, or the new batches
applied) and every table the file holds is compared row for row with an in-memory
``Analytics(persist=False)`` built from the Parquet alone. Then: a damaged or stale file is
built again; a second process reads while the owner refreshes; a kill -9 in the middle of
a rebuild or a refresh leaves a file that opens to the right numbers.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pytest
from test_marts_incremental import EVENING, OTHER, STRANGERS, rows, sheet
from typer.testing import CliRunner

from analytics import roster
from analytics.marts_file import BUILDING, FILE_COLUMNS, MARTS_FILE, META
from analytics.queries import QUERIES, Analytics
from dashboard.cli import app
from dashboard.record_draft import save_deal
from ingest.logs.writer import write_lines
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer
from ingest.warehouse import ingest

ROOT = Path(__file__).resolve().parents[1]
Snapshot = dict[str, tuple[list[str], list[tuple[Any, ...]]]]


def tile_log(folder: Path, club: str, seed: int) -> Path:
    log = folder / f"{club}-{seed}.jsonl"
    plan = ClubPlan(players=6, sessions=2, deals_per_session=4, seed=seed, club=club, start=date(2026, 11, 1))
    write_lines(Tamperer(0.25, seed=seed).lines(simulate_club(plan)), log)
    return log


@pytest.fixture
def warehouse(tmp_path: Path) -> Path:
    ingest([tile_log(tmp_path, "c1", 5)], tmp_path / "wh", workers=0)
    return tmp_path / "wh"


def stored_tables(api: Analytics) -> list[str]:
    """Every table the marts file holds but its meta row and the files' columns."""
    found = api.con.execute(
        "select table_name from duckdb_tables() where not temporary and database_name = current_database()"
    ).fetchall()
    return sorted(str(t) for (t,) in found if t not in (META, FILE_COLUMNS))


def snapshot(api: Analytics, tables: list[str], queries: bool) -> Snapshot:
    out = {name: rows(api.sql(f"select * from {name}")) for name in tables}
    if queries:
        out.update({f"query {name}": rows(api.query(name)) for name in QUERIES})
    return out


def reopen_and_compare(warehouse: Path, expected: str, *, queries: bool = False) -> None:
    """Open the warehouse as a new process would; its file's tables (and, ``queries``,
    every query) equal an in-memory build from the Parquet."""
    api = Analytics(warehouse)
    try:
        assert api.marts_file == warehouse / MARTS_FILE
        assert api.last_refresh == expected
        tables = stored_tables(api)
        assert {"mart_deals", "mart_seat_deals", "mart_findings", "stg_deals", "stg_superseded"} <= set(
            tables
        )
        have = snapshot(api, tables, queries)
    finally:
        api.close()
    fresh = Analytics(warehouse, persist=False)
    try:
        assert fresh.marts_file is None and fresh.last_refresh == "full"
        want = snapshot(fresh, tables, queries)
    finally:
        fresh.close()
    for name, rows_wanted in want.items():
        assert have[name] == rows_wanted, name


def test_the_file_equals_a_from_scratch_computation_after_every_step(warehouse: Path, tmp_path: Path) -> None:
    assert not (warehouse / MARTS_FILE).exists()
    reopen_and_compare(warehouse, "full", queries=True)  # no file yet: built
    reopen_and_compare(warehouse, "opened")  # up to date: read as it is
    for number in (1, 2, 3):  # one session over three batches
        save_deal(warehouse, EVENING, sheet(f"{EVENING.session_id}-0{number}"))
        reopen_and_compare(warehouse, "incremental", queries=number == 3)
    ingest([tile_log(tmp_path, "c2", 8)], warehouse, workers=0)  # a second club: names shared
    reopen_and_compare(warehouse, "incremental", queries=True)
    corrected = f"{EVENING.session_id}-03"
    for revision in (2, 3):
        save_deal(warehouse, EVENING, sheet(corrected, revision, kong_from=(0, 1, 3, 0)[revision]))
        reopen_and_compare(warehouse, "incremental")
    deleted = f"{EVENING.session_id}-02"
    save_deal(warehouse, EVENING, replace(sheet(deleted, 2), events=(), end=None, deleted=True))
    save_deal(warehouse, OTHER, sheet(f"{OTHER.session_id}-01"))  # two saves between opens
    reopen_and_compare(warehouse, "incremental", queries=True)
    roster.add_player(warehouse, "c1", "Bo")
    roster.add_alias(warehouse, "c1", "Du", "Bo")  # Du's deals now count for Bo
    reopen_and_compare(warehouse, "full", queries=True)  # another roster: built again
    save_deal(warehouse, STRANGERS, sheet(f"{STRANGERS.session_id}-01"))
    reopen_and_compare(warehouse, "incremental")
    result = CliRunner().invoke(app, ["warehouse", "compact", "--warehouse", str(warehouse), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["merged"]  # batches were merged
    reopen_and_compare(warehouse, "merged", queries=True)
    save_deal(warehouse, OTHER, sheet(f"{OTHER.session_id}-02"))
    reopen_and_compare(warehouse, "incremental", queries=True)


def test_one_connection_refreshed_keeps_the_file_current(warehouse: Path) -> None:
    """The dashboard's way: one connection kept open, refreshed after each save; what it
    committed is what the next process opens."""
    api = Analytics(warehouse)
    try:
        for number in (1, 2):
            save_deal(warehouse, EVENING, sheet(f"{EVENING.session_id}-0{number}"))
            assert api.refresh() and api.last_refresh == "incremental"
    finally:
        api.close()
    reopen_and_compare(warehouse, "opened", queries=True)


def damage(path: Path, how: str) -> None:
    if how == "garbage":
        path.write_bytes(b"not a DuckDB file\n" * 4096)
    elif how == "truncated":
        path.write_bytes(path.read_bytes()[:4096])
    elif how == "empty":
        path.write_bytes(b"")
    else:
        con = duckdb.connect(str(path))
        if how == "other-sql":  # what a code change of the SQL does
            con.execute(f"update {META} set value = 'older' where key = 'sql_version'")
        else:  # no meta row: not known what it was built from
            con.execute(f"drop table {META}")
        con.close()


@pytest.mark.parametrize("how", ["garbage", "truncated", "empty", "other-sql", "no-meta"])
def test_a_damaged_or_stale_file_is_built_again(warehouse: Path, how: str) -> None:
    Analytics(warehouse).close()
    damage(warehouse / MARTS_FILE, how)
    leftover = warehouse / f"{MARTS_FILE}{BUILDING}999999"  # a killed build's
    leftover.write_bytes(b"half")
    reopen_and_compare(warehouse, "full", queries=True)
    assert not leftover.exists()
    reopen_and_compare(warehouse, "opened")


def test_the_cli_builds_and_rebuilds_the_file(warehouse: Path) -> None:
    runner = CliRunner()
    first = runner.invoke(app, ["warehouse", "marts", "--warehouse", str(warehouse), "--json"])
    assert first.exit_code == 0, first.output
    assert json.loads(first.output)["refresh"] == "full"
    again = runner.invoke(app, ["warehouse", "marts", "--warehouse", str(warehouse), "--json"])
    assert json.loads(again.output)["refresh"] == "opened"
    forced = runner.invoke(app, ["warehouse", "marts", "--warehouse", str(warehouse), "--rebuild"])
    assert forced.exit_code == 0 and "built from the Parquet" in forced.output
    api = Analytics(warehouse)  # this process owns the file now: the command says so
    try:
        busy = runner.invoke(app, ["warehouse", "marts", "--warehouse", str(warehouse)])
        assert busy.exit_code == 2 and "in use by another process" in busy.output
    finally:
        api.close()
    missing = runner.invoke(app, ["warehouse", "marts", "--warehouse", str(warehouse / "nothing")])
    assert missing.exit_code == 2


READER = """
import json, sys
from analytics.queries import Analytics
api = Analytics(sys.argv[1])
deals = int(api.sql("select count(*) as n from mart_deals")["n"][0])
stats = len(api.player_stats())
print(json.dumps({"file": api.marts_file is not None, "how": api.last_refresh, "deals": deals, "players": stats}))
api.close()
"""


def reader(warehouse: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", READER, str(warehouse)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )


def read(process: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = process.communicate(timeout=300)
    assert process.returncode == 0
    found: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return found


def count(warehouse: Path) -> int:
    api = Analytics(warehouse, persist=False)
    try:
        return int(api.sql("select count(*) as n from mart_deals")["n"][0])
    finally:
        api.close()


def test_a_second_process_reads_while_one_refreshes(warehouse: Path) -> None:
    before = count(warehouse)
    owner = Analytics(warehouse)
    try:
        assert owner.marts_file is not None
        second = reader(warehouse)  # starts while the owner holds the file
        for number in (1, 2):
            save_deal(warehouse, EVENING, sheet(f"{EVENING.session_id}-0{number}"))
            assert owner.refresh() and owner.last_refresh == "incremental"
        seen = read(second)
        assert not seen["file"] and seen["how"] == "full"  # its own marts, in memory
        assert before <= seen["deals"] <= before + 2 and seen["players"] > 0
        assert read(reader(warehouse))["deals"] == before + 2  # the same numbers, from memory
    finally:
        owner.close()
    after = read(reader(warehouse))  # the owner gone: the next process owns the file
    assert after == {"file": True, "how": "opened", "deals": before + 2, "players": after["players"]}


KILLED = """
import sys
from analytics.queries import Analytics
from dashboard.record_draft import save_deal
from test_marts_incremental import EVENING, sheet
api = Analytics(sys.argv[1])
print("open", flush=True)
number = 10
while True:
    if sys.argv[2] == "rebuild":
        api.refresh(force=True)
    else:
        number += 1
        save_deal(api.root, EVENING, sheet(f"{EVENING.session_id}-{number}"))
        api.refresh()
"""


@pytest.mark.parametrize("what", ["rebuild", "refresh"])
def test_a_kill_at_any_moment_leaves_a_file_that_opens_right(warehouse: Path, what: str) -> None:
    Analytics(warehouse).close()
    for delay in (0.4, 1.1, 2.3):
        process = subprocess.Popen(
            [sys.executable, "-c", KILLED, str(warehouse), what],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT / "tests")},
        )
        assert process.stdout is not None and process.stdout.readline().strip() == "open"
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        api = Analytics(warehouse)
        try:
            assert api.marts_file is not None and api.last_refresh in ("opened", "incremental", "full")
        finally:
            api.close()
        reopen_and_compare(warehouse, "opened", queries=delay > 2)


def test_a_build_has_a_memory_limit_of_its_own(warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full build runs under the build's limit (sorting ten million deals' seat rows needs
    more than the queries' 400 MB), and the queries under theirs once it ends."""
    monkeypatch.setenv("CHUANMA_DUCKDB_BUILD_MEMORY", "1MB")
    with pytest.raises(duckdb.OutOfMemoryException):
        Analytics(warehouse, persist=False)
    monkeypatch.setenv("CHUANMA_DUCKDB_BUILD_MEMORY", "900MB")
    monkeypatch.setenv("CHUANMA_DUCKDB_MEMORY", "300MB")
    api = Analytics(warehouse, persist=False)
    probe = duckdb.connect()
    probe.execute("set memory_limit = '300MB'")
    want = probe.execute("select current_setting('memory_limit')").fetchall()
    assert api.con.execute("select current_setting('memory_limit')").fetchall() == want
    assert len(api.query("overview")) > 0
    api.close()


def test_a_command_reads_the_kept_marts_and_never_builds_them(warehouse: Path) -> None:
    """``chuanma stats`` and ``chuanma night`` open ``Analytics(kept_only=True)``: with no
    marts file it reads the Parquet (no file made: a build costs minutes at millions of
    deals); with the pages' file it opens it (``last_refresh == "opened"``) and answers as
    the Parquet does; while another process owns the file it reads the Parquet again."""
    runner = CliRunner()
    args = ["stats", "--warehouse", str(warehouse), "--json"]
    bare = Analytics(warehouse, kept_only=True)
    assert bare.marts_file is None and not bare.materialize
    bare.close()
    assert not (warehouse / MARTS_FILE).exists()
    from_parquet = runner.invoke(app, args)
    assert from_parquet.exit_code == 0, from_parquet.output
    assert not (warehouse / MARTS_FILE).exists()
    Analytics(warehouse).close()  # the pages' first open keeps the marts
    kept = Analytics(warehouse, kept_only=True)
    assert kept.marts_file == warehouse / MARTS_FILE and kept.last_refresh == "opened"
    kept.close()
    from_marts = runner.invoke(app, args)
    assert from_marts.exit_code == 0, from_marts.output
    assert json.loads(from_marts.output) == json.loads(from_parquet.output)
    owner = Analytics(warehouse)  # a dashboard holds the file
    try:
        other = Analytics(warehouse, kept_only=True)
        assert other.marts_file is None and not other.materialize
        other.close()
    finally:
        owner.close()


FOOTERS_CHECK = """
import json, sys
from pathlib import Path
from ingest.warehouse import read_catalog
from ingest.warehouse.recovery import verify_parts
root = Path(sys.argv[1])
print(json.dumps(verify_parts(root, read_catalog(root))))
"""


def test_a_commands_footer_check_reads_only_files_it_has_not_read(warehouse: Path) -> None:
    """Every command checks that each listed Parquet file opens with the rows the catalog
    records (``require_readable``); the row counts read are kept in ``footers.json`` by
    each file's size, mtime and inode, so the next process reads only new or changed files.
    Shown by a kept count made wrong: a fresh process believes it (no footer read) until the
    file itself changes, which is read again, and a truncated file is still found."""

    def check() -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", FOOTERS_CHECK, str(warehouse)], capture_output=True, text=True, check=True
        )
        found: list[str] = json.loads(done.stdout)
        return found

    assert check() == []
    kept = warehouse / "footers.json"
    entries = json.loads(kept.read_text())
    assert entries and all((warehouse / name).is_file() for name, *_ in entries)
    name = entries[0][0]
    entries[0][4] += 1  # a count the file does not hold: believed, so never read again
    kept.write_text(json.dumps(entries))
    assert any("rows, the catalog records" in p for p in check())
    part = warehouse / name
    os.utime(part, ns=(part.stat().st_atime_ns, part.stat().st_mtime_ns + 1_000_000))
    assert check() == []  # the file changed: its footer read again
    part.write_bytes(part.read_bytes()[:-20])  # torn: no footer
    assert any("cannot be read as Parquet" in p for p in check())
