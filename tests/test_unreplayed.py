"""A deal not replayed to its end is never called ok: a session whose rules are refused,
a deal line set aside unread and a cut-off gzip, through ``validate`` (text and
``--json``), ``ingest --json``, ``chuanma stats`` and the Overview and Audit pages."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd  # type: ignore[import-untyped]
import pyarrow as pa  # type: ignore[import-untyped]
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.warehouse_location import WAREHOUSE_ENV
from ingest.replay.validate import validate_paths

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
APP = ROOT / "dashboard" / "app.py"
BAD_KNOB = {"preset": "standard", "kong_discard_transfer": "sometimes"}


def chuanma(*args: str | Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "dashboard.cli", *map(str, args)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)


def refused_rules(folder: Path) -> Path:
    """cha_jiao.jsonl (one deal) whose session line asks for a knob value that does not exist."""
    lines = (GOLDEN / "cha_jiao.jsonl").read_text(encoding="utf-8").splitlines()
    session = json.loads(lines[0])
    session["rules"] = BAD_KNOB
    path = folder / "refused.jsonl"
    path.write_text("\n".join([json.dumps(session), *lines[1:]]) + "\n", encoding="utf-8")
    return path


def set_aside(folder: Path) -> Path:
    """exchange_three.jsonl (one deal) with its deal line missing ``dealer``: that deal is set aside unread."""
    lines = (GOLDEN / "exchange_three.jsonl").read_text(encoding="utf-8").splitlines()
    deal = json.loads(lines[1])
    del deal["dealer"]
    path = folder / "set_aside.jsonl"
    path.write_text("\n".join([lines[0], json.dumps(deal), *lines[2:]]) + "\n", encoding="utf-8")
    return path


def cut_gzip(folder: Path) -> Path:
    """pass_rule.jsonl gzipped and cut at two thirds: its last read deal has no deal_end."""
    data = gzip.compress((GOLDEN / "pass_rule.jsonl").read_bytes())
    path = folder / "cut.jsonl.gz"
    path.write_bytes(data[: len(data) * 2 // 3])
    return path


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("unreplayed")
    return [refused_rules(folder), set_aside(folder), cut_gzip(folder), GOLDEN / "kong_bloom.jsonl"]


@pytest.fixture(scope="module")
def warehouse(logs: list[Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    wh = tmp_path_factory.mktemp("wh") / "warehouse"
    done = chuanma("ingest", *logs, "--warehouse", wh, "--workers", "0", "--json")
    assert done.returncode == 3, done.stderr
    return wh, json.loads(done.stdout)


def charts(at: AppTest) -> list[tuple[dict[str, object], pd.DataFrame]]:
    """Each Altair chart's Vega-Lite spec and its first dataset."""
    out = []
    for element in at.get("vega_lite_chart"):
        proto: Any = element.proto
        frames = [pa.ipc.open_stream(d.data.data).read_pandas() for d in proto.datasets]
        out.append((json.loads(proto.spec), frames[0] if frames else pd.DataFrame()))
    return out


def test_validate_json_calls_no_unreplayed_deal_ok(logs: list[Path]) -> None:
    refused, aside, cut, clean = logs
    report = json.loads(chuanma("validate", "--json", refused, aside, cut, clean).stdout)
    by_file: dict[str, list[dict[str, Any]]] = {}
    for deal in report["deals"]:
        by_file.setdefault(Path(deal["file"]).name, []).append(deal)
    (never,) = by_file["refused.jsonl"]
    assert never["status"] == "invalid" and never["findings"] == []
    assert never["stopped_by"] == {"code": "bad_record", "line": 1, "scope": "session"}
    assert never["computed"]["scores"] is None and never["computed"]["settlement"] is None
    (stopped,) = by_file["cut.jsonl.gz"]
    assert stopped["status"] == "invalid" and stopped["stopped_by"]["code"] == "wrong_end"
    assert "set_aside.jsonl" not in by_file  # its one deal could not be read
    summary = report["summary"]
    clean_deals = len(by_file["kong_bloom.jsonl"])
    assert all(d["status"] == "ok" for d in by_file["kong_bloom.jsonl"])
    assert (summary["ok"], summary["findings"], summary["invalid"], summary["set_aside"]) == (
        clean_deals,
        0,
        2,
        1,
    )
    assert summary["ok"] + summary["findings"] + summary["invalid"] == summary["deals"]
    sessions = {Path(s["file"]).name: s for s in report["sessions"]}
    assert sessions["refused.jsonl"]["computed"]["totals"] is None
    assert sessions["set_aside.jsonl"]["set_aside"] == 1  # and its totals go unchecked:
    assert [f["code"] for f in sessions["set_aside.jsonl"]["findings"]] == []
    every = [f for d in report["deals"] for f in d["findings"]]
    every += [f for s in report["sessions"] for f in s["findings"]]
    every += [f for file in report["files"] for f in file["findings"]]
    assert every and all(any("\u4e00" <= ch <= "\u9fff" for ch in f["message_zh"]) for f in every)


def test_validate_text_marks_them_invalid(logs: list[Path]) -> None:
    refused, aside, cut, _ = logs
    done = chuanma("validate", refused, aside, cut)
    assert done.returncode == 3
    lines = done.stdout.splitlines()
    assert not [line for line in lines if line.startswith("ok")]
    assert "INVALID  cha-jiao-1  [not replayed]" in done.stdout
    assert "not replayed: the session's rules at line 1 cannot be used" in done.stdout
    assert lines[-1].startswith("2 deals in 3 sessions from 3 files: 0 ok, 0 with findings, 2 not replayed")
    assert "1 deal lines set aside unread" in lines[-1]
    zh = chuanma("validate", "--lang", "zh", refused).stdout
    assert "未回放" in zh and "本场规则无法使用" in zh


def test_validate_api_agrees_with_the_command(logs: list[Path]) -> None:
    report = validate_paths(logs[:3])
    assert [d.status for d in report.deals] == ["invalid", "invalid"]
    assert all(not d.replayed for d in report.deals if d.rules == "?")


def test_ingest_and_stats_count_them_apart(
    warehouse: tuple[Path, dict[str, object]], logs: list[Path]
) -> None:
    wh, summary = warehouse
    report = validate_paths(logs).summary()
    deals = summary["deals"]
    assert isinstance(deals, dict)
    assert (deals["ok"], deals["findings"], deals["invalid"]) == (
        report["ok"],
        report["findings"],
        report["invalid"],
    )
    stats = chuanma("stats", "--warehouse", wh)
    expected = f"{report['ok']} ok, 0 with findings, 2 not replayed to their end (invalid)"
    assert expected in stats.stdout, stats.stdout


def test_overview_and_audit_show_them_apart(
    warehouse: tuple[Path, dict[str, object]], monkeypatch: pytest.MonkeyPatch, logs: list[Path]
) -> None:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse[0]))
    report = validate_paths(logs).summary()
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = {m.label: m.value for m in at.metric}
    assert shown["Invalid deals"] == "2" and shown["Deals"] == str(report["deals"])
    assert shown["Deals with findings"] == "1"  # the audit's count: the cut deal holds its wrong_end
    _, data = next((spec, data) for spec, data in charts(at) if spec.get("title") == "Deals by status")
    assert dict(zip(data["status"], data["deals"], strict=True)) == {
        "ok": report["ok"],
        "findings": 0,
        "invalid": 2,
    }
    at.switch_page("app_pages/audit.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert {m.label: m.value for m in at.metric}["Invalid deals"] == "2"
    (table,) = [t.value for t in at.dataframe if "code_name" in t.value.columns and "replay" in t.value.columns
                and "explanation" in t.value.columns and "session_id" in t.value.columns]  # fmt: skip
    assert sorted(table["deal_id"]) == ["cha-jiao-1", "pass-any-1"]
    stops = dict(zip(table["deal_id"], table["place"], strict=True))
    assert stops == {"cha-jiao-1": "line 1", "pass-any-1": "deal 1, its start"}  # where each stops
