"""``chuanma warehouse backup`` and ``restore``: a backup taken while an ingest runs is the
warehouse before or after that ingest, never between; a restored backup checks clean and
answers every query as the original; nothing already there is ever deleted."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analytics.queries import Analytics
from ingest.logs.writer import write_log
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import WarehouseError, ingest, read_catalog
from ingest.warehouse.backup import backup, restore
from ingest.warehouse.recovery import verify_parts

CLI = [sys.executable, "-m", "dashboard.cli"]


def deals_in(root: Path) -> int:
    return sum(int(b["rows"]["deals"]) for b in read_catalog(root)["batches"])


@pytest.fixture
def warehouse(tmp_path: Path) -> Path:
    """A warehouse of one small club (30 deals) and, beside it, a bigger log to ingest."""
    first = tmp_path / "first.jsonl"
    write_log(simulate_club(ClubPlan(players=6, sessions=3, deals_per_session=10, seed=31)), first)
    root = tmp_path / "warehouse"
    ingest([first], root, workers=0)
    plan = ClubPlan(players=8, sessions=40, deals_per_session=10, seed=32, club="second-club")
    write_log(simulate_club(plan), tmp_path / "second.jsonl")
    return root


def test_a_backup_during_an_ingest_is_before_or_after_it(warehouse: Path, tmp_path: Path) -> None:
    before = deals_in(warehouse)
    running = subprocess.Popen(
        [*CLI, "ingest", str(tmp_path / "second.jsonl"), "--warehouse", str(warehouse), "--workers", "0", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    taken: list[tuple[Path, bool]] = []  # each backup, and whether the ingest still ran when it began
    while running.poll() is None or not taken:
        dest = tmp_path / f"backup-{len(taken)}"
        still_running = running.poll() is None
        backup(warehouse, dest)
        taken.append((dest, still_running))
        time.sleep(0.05)
    running.wait(timeout=300)
    after = deals_in(warehouse)
    assert after == before + 400
    assert any(during for _, during in taken)  # at least one began while the ingest ran
    for dest, _ in taken:
        assert deals_in(dest) in (before, after), dest
        assert verify_parts(dest, read_catalog(dest), full=True) == []
        assert not (dest / "marts.duckdb").exists() and not (dest / "ingest.lock").exists()
    restored = tmp_path / "restored"
    last = taken[-1][0]
    assert restore(last, restored).deals == deals_in(last)
    check = subprocess.run([*CLI, "warehouse", "check", "--warehouse", str(restored), "--json"],
                           capture_output=True, text=True)  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    assert json.loads(check.stdout)["problems"] == []


def test_a_restored_warehouse_answers_as_the_original(warehouse: Path, tmp_path: Path) -> None:
    original = Analytics(warehouse)
    expected = original.player_stats()
    original.close()  # it built marts.duckdb, which the backup leaves out
    backup(warehouse, tmp_path / "copy")
    restore(tmp_path / "copy", tmp_path / "back")
    again = Analytics(tmp_path / "back")
    try:
        assert again.player_stats().equals(expected)
    finally:
        again.close()


def test_nothing_already_there_is_overwritten(warehouse: Path, tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "notes.txt").write_text("mine")
    with pytest.raises(WarehouseError, match="not empty"):
        backup(warehouse, taken)
    assert (taken / "notes.txt").read_text() == "mine"
    backup(warehouse, tmp_path / "copy")
    other = tmp_path / "other"
    ingest([tmp_path / "second.jsonl"], other, workers=0)
    with pytest.raises(WarehouseError, match="--replace"):
        restore(tmp_path / "copy", other)
    assert deals_in(other) == 400
    done = restore(tmp_path / "copy", other, replace=True)
    assert deals_in(other) == deals_in(warehouse)
    assert done.moved_aside is not None and deals_in(Path(done.moved_aside)) == 400  # kept, not deleted


def test_a_damaged_backup_is_not_restored(warehouse: Path, tmp_path: Path) -> None:
    backup(warehouse, tmp_path / "copy")
    part = next((tmp_path / "copy" / "batches").rglob("*.parquet"))
    part.write_bytes(part.read_bytes()[:100])  # cut short: no footer
    with pytest.raises(WarehouseError, match="damaged"):
        restore(tmp_path / "copy", tmp_path / "back")
    assert not (tmp_path / "back").exists()


def test_the_cli_says_what_it_copied_and_refuses_clearly(warehouse: Path, tmp_path: Path) -> None:
    done = subprocess.run([*CLI, "warehouse", "backup", str(tmp_path / "copy"), "--warehouse", str(warehouse),
                           "--json"], capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["deals"] == deals_in(warehouse)
    again = subprocess.run([*CLI, "warehouse", "backup", str(tmp_path / "copy"), "--warehouse", str(warehouse)],
                           capture_output=True, text=True)  # fmt: skip
    assert again.returncode == 2 and "not empty" in again.stderr
