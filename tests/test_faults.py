"""The warehouse under faults: a missing, reset, truncated or
garbage catalog, a deleted or truncated Parquet file, a read-only folder, and kill -9 at
random moments of real ``chuanma ingest`` runs (mid-batch-write too), each followed by
another ingest: nothing stored is ever lost, every refusal names the file and the command
that repairs it (exit 2, no traceback), and the statistics end equal to a clean run's."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ingest.logs.writer import write_log
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import BATCHES, CATALOG, MANIFEST, ORPHANS, read_catalog
from ingest.warehouse.catalog import batch_files

ROOT = Path(__file__).resolve().parents[1]
FILES = 6


def chuanma(*args: str | Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "dashboard.cli", *map(str, args)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False)


def ingest_args(files: list[Path], warehouse: Path) -> list[str | Path]:
    return ["ingest", *files, "--warehouse", warehouse, "--workers", "0", "--batch-mb", "0", "--json"]


def stats(warehouse: Path) -> list[dict[str, object]]:
    done = chuanma("stats", "--warehouse", warehouse, "--json")
    assert done.returncode == 0, done.stderr
    rows: list[dict[str, object]] = json.loads(done.stdout)
    return sorted(rows, key=lambda row: str(row["player"]))


def no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout, done.stderr


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("fault-logs")
    files = []
    for number in range(FILES):
        path = folder / f"evening-{number}.jsonl"
        write_log(
            simulate_club(
                ClubPlan(players=6, sessions=2, deals_per_session=5, seed=40 + number, club=f"c{number}")
            ),
            path,
        )
        files.append(path)
    return files


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory, logs: list[Path]) -> tuple[Path, list[dict[str, object]]]:
    """One batch per file (--batch-mb 0), ingested once without faults, and its statistics."""
    warehouse = tmp_path_factory.mktemp("fault-clean") / "warehouse"
    done = chuanma(*ingest_args(logs, warehouse))
    assert done.returncode == 0, done.stderr
    assert len(read_catalog(warehouse)["batches"]) == FILES
    return warehouse, stats(warehouse)


def copy(clean: tuple[Path, list[dict[str, object]]], tmp_path: Path) -> Path:
    warehouse = tmp_path / "warehouse"
    shutil.copytree(clean[0], warehouse)
    return warehouse


@pytest.mark.parametrize("how", ["deleted", "reset"])
def test_a_lost_catalog_never_costs_a_batch(
    how: str, clean: tuple[Path, list[dict[str, object]]], logs: list[Path], tmp_path: Path
) -> None:
    warehouse = copy(clean, tmp_path)
    batches = sorted(p.name for p in (warehouse / BATCHES).iterdir())
    if how == "deleted":
        (warehouse / CATALOG).unlink()
        for command in (ingest_args(logs[:1], warehouse), ["stats", "--warehouse", warehouse]):
            refused = chuanma(*command)
            assert refused.returncode == 2, refused.stdout
            no_traceback(refused)
            assert "rebuild-catalog --warehouse" in refused.stderr and CATALOG in refused.stderr
        assert sorted(p.name for p in (warehouse / BATCHES).iterdir()) == batches  # nothing touched
        check = chuanma("warehouse", "check", "--warehouse", warehouse)
        assert check.returncode == 2 and "not in the catalog" in check.stdout
        rebuilt = chuanma("warehouse", "rebuild-catalog", "--warehouse", warehouse)
        assert rebuilt.returncode == 0, rebuilt.stderr
        assert f"{len(batches)} batch(es) listed again" in rebuilt.stdout
    else:
        (warehouse / CATALOG).write_text('{"format": 1}')
        again = chuanma(*ingest_args(logs, warehouse))  # takes the batches back, stores nothing twice
        assert again.returncode == 0, again.stderr
        summary = json.loads(again.stdout)
        assert sorted(summary["recovered_batches"]) == batches
        assert summary["deals"]["read"] == 0 and "listed again" in again.stderr
    assert sorted(b["id"] for b in read_catalog(warehouse)["batches"]) == batches
    assert chuanma("warehouse", "check", "--warehouse", warehouse).returncode == 0
    assert stats(warehouse) == clean[1]


def test_a_batch_without_its_manifest_is_rebuilt_from_its_rows(
    clean: tuple[Path, list[dict[str, object]]], logs: list[Path], tmp_path: Path
) -> None:
    """Batches written before batch.json existed: their rows name their files."""
    warehouse = copy(clean, tmp_path)
    catalog = read_catalog(warehouse)
    for batch in catalog["batches"]:
        (warehouse / BATCHES / batch["id"] / MANIFEST).unlink()
    (warehouse / CATALOG).unlink()
    assert chuanma("warehouse", "rebuild-catalog", "--warehouse", warehouse).returncode == 0
    rebuilt = read_catalog(warehouse)
    for listing in (rebuilt, catalog):
        listing["batches"].sort(key=lambda b: b["id"])
    assert [b["parts"] for b in rebuilt["batches"]] == [b["parts"] for b in catalog["batches"]]
    assert [b["rows"] for b in rebuilt["batches"]] == [b["rows"] for b in catalog["batches"]]
    shas = [[f["sha256"] for f in batch_files(warehouse, b)] for b in catalog["batches"]]
    assert [[f["sha256"] for f in batch_files(warehouse, b)] for b in rebuilt["batches"]] == shas
    again = chuanma(*ingest_args(logs, warehouse))  # every file is known again: nothing read
    assert again.returncode == 0 and json.loads(again.stdout)["deals"]["read"] == 0
    assert stats(warehouse) == clean[1]


@pytest.mark.parametrize("damage", ["truncated", "garbage", "not a list"])
def test_a_damaged_catalog_is_named_and_rebuilt(
    damage: str, clean: tuple[Path, list[dict[str, object]]], logs: list[Path], tmp_path: Path
) -> None:
    warehouse = copy(clean, tmp_path)
    text = (warehouse / CATALOG).read_text()
    bad = {
        "truncated": text[: len(text) // 2],
        "garbage": "\x00\xff garbage",
        "not a list": '{"format":1,"batches":7}',
    }
    (warehouse / CATALOG).write_text(bad[damage], errors="surrogateescape")
    for command in (
        ingest_args(logs, warehouse),
        ["stats", "--warehouse", warehouse],
        ["warehouse", "check", "--warehouse", warehouse],
    ):
        refused = chuanma(*command)
        assert refused.returncode == 2, (command, refused.stdout, refused.stderr)
        no_traceback(refused)
        assert str(warehouse / CATALOG) in refused.stderr
    rebuilt = chuanma("warehouse", "rebuild-catalog", "--warehouse", warehouse)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "damaged catalog was kept" in rebuilt.stdout
    assert stats(warehouse) == clean[1]


@pytest.mark.parametrize("damage", ["deleted", "truncated"])
def test_a_damaged_parquet_file_is_named(
    damage: str, clean: tuple[Path, list[dict[str, object]]], logs: list[Path], tmp_path: Path
) -> None:
    warehouse = copy(clean, tmp_path)
    batch = read_catalog(warehouse)["batches"][2]
    part = warehouse / BATCHES / batch["id"] / batch["parts"]["deals"][0]
    if damage == "deleted":
        part.unlink()
    else:
        part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])
    for command in (
        ingest_args(logs, warehouse),
        ["stats", "--warehouse", warehouse],
        ["warehouse", "check", "--warehouse", warehouse],
    ):
        refused = chuanma(*command)
        assert refused.returncode == 2, (command, refused.stdout, refused.stderr)
        no_traceback(refused)
        assert str(part) in refused.stderr + refused.stdout


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_a_read_only_warehouse_is_a_clear_error(
    clean: tuple[Path, list[dict[str, object]]], logs: list[Path], tmp_path: Path
) -> None:
    warehouse = copy(clean, tmp_path)
    (warehouse / "ingest.lock").unlink(missing_ok=True)
    warehouse.chmod(0o555)
    try:
        refused = chuanma(*ingest_args(logs, warehouse))
    finally:
        warehouse.chmod(0o755)
    assert refused.returncode == 2
    no_traceback(refused)
    assert "cannot write to the warehouse" in refused.stderr


def test_a_read_only_warehouse_as_root_too(
    clean: tuple[Path, list[dict[str, object]]], logs: list[Path], tmp_path: Path
) -> None:
    """Root ignores permissions, so the folder is made unwritable another way: a file
    where the warehouse's staging folder must go."""
    warehouse = copy(clean, tmp_path)
    (warehouse / "staging").rmdir() if (warehouse / "staging").is_dir() else None
    (warehouse / "staging").write_text("not a folder")
    extra = tmp_path / "extra.jsonl"
    write_log(simulate_club(ClubPlan(players=4, sessions=1, deals_per_session=2, seed=99, club="x")), extra)
    refused = chuanma(*ingest_args([extra], warehouse))
    assert refused.returncode == 2, refused.stdout
    no_traceback(refused)
    assert "staging" in refused.stderr and "cannot write to the warehouse" in refused.stderr
    (warehouse / "staging").unlink()
    assert stats(warehouse) == clean[1]  # what was stored is untouched


def test_an_unreadable_unlisted_batch_is_moved_aside_loudly(
    clean: tuple[Path, list[dict[str, object]]], logs: list[Path], tmp_path: Path
) -> None:
    warehouse = copy(clean, tmp_path)
    stray = warehouse / BATCHES / "20990101T000000-deadbeef"
    (stray / "deals" / "month=2099-01").mkdir(parents=True)
    (stray / "deals" / "month=2099-01" / "part-0.parquet").write_bytes(b"PAR1 cut")
    done = chuanma(*ingest_args(logs, warehouse))
    assert done.returncode == 3, done.stderr  # something needs a look
    assert "moved aside" in done.stderr and stray.name in done.stderr
    assert (warehouse / ORPHANS / stray.name / "deals").is_dir()
    assert stats(warehouse) == clean[1]


def test_kill_9_at_random_moments_then_ingest_again_equals_a_clean_run(
    clean: tuple[Path, list[dict[str, object]]], logs: list[Path], tmp_path: Path
) -> None:
    """Kills land anywhere: reading, validating, writing a batch's Parquet files, between
    the rename and the catalog; after each, another ingest; the end is the clean run."""
    warehouse = tmp_path / "warehouse"
    started = time.perf_counter()
    timing = chuanma(*ingest_args(logs, tmp_path / "timing"))
    assert timing.returncode == 0
    full = time.perf_counter() - started
    rng = random.Random(int(os.environ.get("CHUANMA_FAULT_SEED", "20261201")))
    for _ in range(6):
        command = [sys.executable, "-m", "dashboard.cli", *map(str, ingest_args(logs, warehouse))]
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, full))
        process.kill()
        process.wait(timeout=30)
        if (warehouse / CATALOG).exists():
            listed = chuanma("warehouse", "check", "--warehouse", warehouse)
            assert "cannot be read" not in listed.stdout and "missing" not in listed.stdout, listed.stdout
    final = chuanma(*ingest_args(logs, warehouse))
    assert final.returncode == 0, final.stderr
    assert chuanma("warehouse", "check", "--warehouse", warehouse).returncode == 0
    assert stats(warehouse) == clean[1]
    assert not (warehouse / ORPHANS).exists()


def test_kill_9_mid_batch_write_then_ingest_again(
    clean: tuple[Path, list[dict[str, object]]], logs: list[Path], tmp_path: Path
) -> None:
    """A kill exactly inside write_batch: after the Parquet files, after the rename (the
    batch is in batches/ but not in the catalog: the next ingest lists it again)."""
    warehouse = tmp_path / "warehouse"
    for point in ("parquet", "rename"):
        script = (
            "import os, sys\n"
            "import ingest.warehouse.batches as w\n"
            "real_rename, real_write = os.rename, w.write_catalog\n"
            f"point = {point!r}\n"
            "def rename(a, b):\n"
            "    if point == 'parquet': os.kill(os.getpid(), 9)\n"
            "    real_rename(a, b)\n"
            "def write_catalog(root, catalog):\n"
            "    if point == 'rename' and len(catalog['batches']) == 2: os.kill(os.getpid(), 9)\n"
            "    real_write(root, catalog)\n"
            "w.os.rename = rename\n"
            "w.write_catalog = write_catalog\n"
            "from dashboard.cli import main\n"
            "sys.argv = ['chuanma', *sys.argv[1:]]\n"
            "main()\n"
        )
        killed = subprocess.run(
            [sys.executable, "-c", script, *map(str, ingest_args(logs, warehouse))],
            cwd=ROOT, capture_output=True, text=True, timeout=180, check=False,
        )  # fmt: skip
        assert killed.returncode == -9, killed.stderr
    final = chuanma(*ingest_args(logs, warehouse))
    assert final.returncode == 0, final.stderr
    summary = json.loads(final.stdout)
    assert len(summary["recovered_batches"]) == 1  # the renamed, unrecorded batch came back
    assert stats(warehouse) == clean[1]
