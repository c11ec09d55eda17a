"""``chuanma ingest`` and ``chuanma stats`` as real console scripts: the summary, exit
codes (0 all ok, 3 findings, 2 usage), idempotence, the lock, the --json contracts; and
``--scheduler`` on an existing Dask cluster giving the in-process tables."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from test_warehouse import SORT_KEYS
from warehouse_fixtures import hand_log, read_table, sample_logs, sorted_rows

from ingest.logs.writer import write_log
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import IngestLock, ingest
from ingest.warehouse.schema import TABLES


def _command() -> list[str]:
    script = Path(sys.executable).with_name("chuanma")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "dashboard.cli"]


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*_command(), *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli")


def test_ingest_summary_exit_codes_and_idempotence(folder: Path) -> None:
    warehouse = folder / "hand-wh"
    log = hand_log(folder / "hand")
    first = run("ingest", log, "--warehouse", warehouse, "--workers", "0", "--json")
    assert first.returncode == 3, first.stderr  # findings, an invalid deal, a stray line
    summary = json.loads(first.stdout)
    deals = summary["deals"]
    assert (deals["read"], deals["ok"], deals["findings"], deals["invalid"]) == (6, 4, 1, 1)
    assert deals["stored"] == {"ok": 4, "findings": 1, "invalid": 1}
    assert summary["quarantine_lines"] == {"invalid": 3, "stray": 1}
    assert set(summary["where"]) >= {"ok", "findings", "invalid", "conflicting_duplicates", "stray_lines"}
    again = run("ingest", log, "--warehouse", warehouse, "--workers", "0")
    assert again.returncode == 0, again.stderr
    assert "1 already ingested" in again.stdout and "the warehouse is unchanged" in again.stdout
    assert "deals read 0 = ok 0 + findings 0 + invalid 0" in again.stdout


def test_ingest_sample_exit_code_and_stats_json(folder: Path) -> None:
    warehouse = folder / "sample-wh"
    logs = sample_logs(folder / "sample")
    done = run("ingest", *logs, "--warehouse", warehouse, "--workers", "0", "--json")
    summary = json.loads(done.stdout)
    all_ok = summary["deals"]["read"] == summary["deals"]["ok"] and not summary["quarantine_lines"]
    assert done.returncode == (0 if all_ok else 3), done.stderr
    statuses = Counter(read_table(warehouse, "deals")["status"].to_pylist())
    assert {k: summary["deals"][k] for k in statuses} == dict(statuses)
    stats = run("stats", "--warehouse", warehouse, "--json")
    assert stats.returncode == 0, stats.stderr
    players: list[dict[str, Any]] = json.loads(stats.stdout)
    assert players and all(
        {"player", "deals", "wins", "self_draws", "deal_ins", "net"} <= set(p) for p in players
    )
    assert sum(p["net"] for p in players) == 0
    complete = statuses["ok"] + statuses["findings"]  # invalid deals count in no statistic
    assert sum(p["deals"] for p in players) == 4 * complete
    table = run("stats", "--warehouse", warehouse)
    assert table.returncode == 0 and "胡牌率" in table.stdout and players[0]["player"] in table.stdout


def test_ingest_of_clean_logs_exits_0(folder: Path) -> None:
    log = folder / "clean" / "club.jsonl"
    write_log(simulate_club(ClubPlan(players=5, sessions=2, deals_per_session=3, seed=5)), log)
    done = run("ingest", log, "--warehouse", folder / "clean-wh", "--workers", "0")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "deals read 6 = ok 6 + findings 0 + invalid 0" in done.stdout


def test_stats_card_filters_and_usage_errors(folder: Path) -> None:
    warehouse = folder / "card-wh"
    ingest([hand_log(folder / "card")], warehouse, workers=0)
    card = run("stats", "--warehouse", warehouse, "--player", "Ann")
    assert card.returncode == 0, card.stderr
    assert card.stdout.startswith("Ann: 4 deals, net +59") and "流局听牌率" in card.stdout
    # players are per club: Bo plays in hand-club and other-club, so is two players
    one = run(
        "stats",
        "--warehouse",
        warehouse,
        "--player",
        "Bo (hand-club)",
        "--json",
        "--club",
        "hand-club",
        "--with",
        "Ann",
    )
    rows = json.loads(one.stdout)
    assert [(r["player"], r["deals"], r["deal_ins"], r["net"]) for r in rows] == [
        ("Bo (hand-club)", 4, 1, -63)
    ]
    dated = run("stats", "--warehouse", warehouse, "--json", "--from", "2026-08-01")
    assert {r["player"] for r in json.loads(dated.stdout)} == {"Eve", "Bo (other-club)", "Fang", "Gao"}
    ambiguous = run("stats", "--warehouse", warehouse, "--player", "Bo")
    assert ambiguous.returncode == 2 and "several players" in ambiguous.stderr
    assert "'Bo (hand-club)', 'Bo (other-club)'" in ambiguous.stderr
    nobody = run("stats", "--warehouse", warehouse, "--player", "Nobody")
    assert nobody.returncode == 2 and "Nobody" in nobody.stderr
    empty = run("stats", "--warehouse", folder / "no-such-warehouse")
    assert empty.returncode == 2 and "chuanma ingest" in empty.stderr
    bad_date = run("stats", "--warehouse", warehouse, "--from", "August")
    assert bad_date.returncode == 2


def test_ingest_usage_errors(folder: Path) -> None:
    warehouse = folder / "usage-wh"
    missing = run("ingest", folder / "missing.jsonl", "--warehouse", warehouse)
    assert missing.returncode == 2 and "missing.jsonl" in missing.stderr
    log = hand_log(folder / "usage")
    both = run("ingest", log, "--warehouse", warehouse, "--workers", "2", "--scheduler", "tcp://127.0.0.1:1")
    assert both.returncode == 2 and "not both" in both.stderr
    negative = run("ingest", log, "--warehouse", warehouse, "--workers", "-1")
    assert negative.returncode == 2
    warehouse.mkdir(exist_ok=True)
    with IngestLock(warehouse):
        locked = run("ingest", log, "--warehouse", warehouse, "--workers", "0", "--wait", "0")
    assert locked.returncode == 2 and "another ingest is writing" in locked.stderr


def test_scheduler_address_gives_the_in_process_tables(tmp_path: Path) -> None:
    from distributed import LocalCluster

    logs = sample_logs(tmp_path / "logs")
    ingest(logs, tmp_path / "local", workers=0, target_lines=3000)
    with LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster:  # type: ignore[no-untyped-call]
        summary = ingest(logs, tmp_path / "remote", scheduler=cluster.scheduler_address, target_lines=3000)
    assert summary.workers == 2
    for name in TABLES:
        local = sorted_rows(read_table(tmp_path / "local", name), SORT_KEYS[name])
        remote = sorted_rows(read_table(tmp_path / "remote", name), SORT_KEYS[name])
        assert remote == local, name
