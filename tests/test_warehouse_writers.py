"""Many writers at once: recorders in separate processes saving deals through the Record
page's ``save_deal`` at the same moment all succeed (each waits its turn for the lock),
every deal stored exactly once and ``chuanma warehouse check`` clean; and the lock's
bounded wait (a second writer waits, then writes; past a short wait, the clear error)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from warehouse_fixtures import hand_log

from analytics.queries import Analytics
from ingest.warehouse import IngestLock, WarehouseLocked, ingest, read_catalog

ROOT = Path(__file__).resolve().parents[1]
RECORDERS = 4
DEALS = 25  # each; bench/writers.py saves 200 each

#: one recorder: a session of DEALS deals saved one by one, each save's result printed
RECORDER = """
import json, sys
from pathlib import Path
from dashboard.record_draft import save_deal
from ingest.sheets.record import DealFacts, EndFact, SessionFacts, WinFact
warehouse, name, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
session = SessionFacts(name, ("Ann", "Bo", "Chen", name), "standard", 1, "club", name)
failed = 0
for number in range(1, count + 1):
    deal = DealFacts(f"{name}-{number:02d}", 0, (WinFact(number % 4, (number + 1) % 4, ("pinghu",)),),
                     EndFact((None,) * 4, ()))
    try:
        _, summary = save_deal(warehouse, session, deal)
        assert summary.stored["ok"] == 1, summary.to_json()
    except Exception as error:
        failed += 1
        print("FAILED", number, error, file=sys.stderr)
print(json.dumps({"failed": failed}))
"""


def test_four_recorders_saving_at_once_all_succeed(tmp_path: Path) -> None:
    warehouse = tmp_path / "warehouse"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    recorders = [
        subprocess.Popen(
            [sys.executable, "-c", RECORDER, str(warehouse), f"table{n}", str(DEALS)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(RECORDERS)
    ]
    results = [process.communicate(timeout=300) for process in recorders]
    for process, (out, err) in zip(recorders, results, strict=True):
        assert process.returncode == 0, err
        assert json.loads(out.splitlines()[-1]) == {"failed": 0}, err
    api = Analytics(warehouse)
    try:
        stored = api.sql("select deal_id, count(*) as n from raw_deals group by deal_id")
    finally:
        api.close()
    expected = {f"table{t}-{n:02d}" for t in range(RECORDERS) for n in range(1, DEALS + 1)}
    assert set(stored["deal_id"]) == expected and set(stored["n"]) == {1}  # each exactly once
    catalog = read_catalog(warehouse)
    assert sum(b["rows"]["deals"] for b in catalog["batches"]) == RECORDERS * DEALS
    assert len(catalog["batches"]) < RECORDERS * DEALS / 4  # merged as they went
    check = subprocess.run(
        [sys.executable, "-m", "dashboard.cli", "warehouse", "check", "--warehouse", str(warehouse), "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert check.returncode == 0 and json.loads(check.stdout)["problems"] == [], check.stdout


def test_a_second_writer_waits_its_turn(tmp_path: Path) -> None:
    warehouse = tmp_path / "warehouse"
    warehouse.mkdir()
    log = hand_log(tmp_path / "hand")
    held = IngestLock(warehouse).__enter__()
    releaser = threading.Timer(0.6, held.__exit__)
    releaser.start()
    began = time.monotonic()
    summary = ingest([log], warehouse, workers=0, wait=30)
    releaser.join()
    assert 0.5 <= summary.waited <= time.monotonic() - began and summary.read > 0
    assert summary.to_json()["waited_s"] >= 0.5


def test_past_the_wait_the_clear_error(tmp_path: Path) -> None:
    warehouse = tmp_path / "warehouse"
    warehouse.mkdir()
    log = hand_log(tmp_path / "hand")
    with IngestLock(warehouse):
        began = time.monotonic()
        with pytest.raises(WarehouseLocked, match=rf"another ingest is writing .*pid {os.getpid()}.*waited"):
            ingest([log], warehouse, workers=0, wait=0.3)
        assert 0.3 <= time.monotonic() - began < 5
        cli = subprocess.run(
            [
                sys.executable,
                "-m",
                "dashboard.cli",
                "ingest",
                str(log),
                "--warehouse",
                str(warehouse),
                "--workers",
                "0",
                "--wait",
                "0.2",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert cli.returncode == 2 and "another ingest is writing" in cli.stderr
    assert not read_catalog(warehouse)["batches"]  # nothing written


def test_the_default_wait_comes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``CHUANMA_WRITE_WAIT`` sets the wait of every writer that does not pass its own (the
    pages' saves and uploads): a server may give up sooner than the 600 s default."""
    from ingest.warehouse.lock import DEFAULT_WAIT, WAIT_ENV, default_wait

    assert default_wait() == DEFAULT_WAIT
    monkeypatch.setenv(WAIT_ENV, "0.2")
    assert default_wait() == 0.2
    warehouse = tmp_path / "warehouse"
    warehouse.mkdir()
    with IngestLock(warehouse):
        began = time.monotonic()
        with pytest.raises(WarehouseLocked, match="waited"):
            ingest([hand_log(tmp_path / "hand")], warehouse, workers=0)
        assert 0.2 <= time.monotonic() - began < 5
    monkeypatch.setenv(WAIT_ENV, "soon")
    assert default_wait() == DEFAULT_WAIT  # not a number: the default
