"""Records of other platforms (docs/platforms.md): golden records written by hand from
the published formats, read by content through the real commands.

tests/golden/platforms/open_mahjong_sichuan.json: three 川麻 rounds of
open_mahjong_unity (the sidecar ``.expected.json`` says what each should give): a clean
round, one with a wrong settle_hu payment, one with an unreadable tick.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from warehouse_fixtures import read_table

from ingest.platforms.detect import platform_of
from ingest.platforms.open_mahjong import convert_open_mahjong, read_open_mahjong
from ingest.reader import read_log_bytes
from ingest.validate import validate_log

GOLDEN = Path(__file__).parent / "golden" / "platforms"
RECORD = GOLDEN / "open_mahjong_sichuan.json"
EXPECTED = json.loads((GOLDEN / "open_mahjong_sichuan.expected.json").read_text(encoding="utf-8"))


def _command() -> list[str]:
    script = Path(sys.executable).with_name("chuanma")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "dashboard.cli"]


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*_command(), *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )


def _deals(report: Any) -> dict[str, Any]:
    return {deal.deal_id.rsplit("-", 1)[1]: deal for deal in report.deals}


def _codes(deal: Any, severity: str = "error") -> list[tuple[str, int | None]]:
    found = deal.findings if severity == "error" else deal.warnings
    return [(f.code, f.line) for f in found]


def _validate(record: dict[str, Any]) -> Any:
    return validate_log(read_open_mahjong(json.dumps(record, ensure_ascii=False).encode(), "record.json"))


def _record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORD.read_text(encoding="utf-8"))
    return data


def test_golden_record_rounds_match_the_sidecar() -> None:
    deals = _deals(_validate(_record()))
    for n, want in EXPECTED["rounds"].items():
        deal = deals[f"r{n.rsplit('_', 1)[1]}"]
        assert [c for c, _ in _codes(deal)] == want["codes"], _codes(deal)
        if "line" in want:
            assert _codes(deal)[0][1] == want["line"]


def test_clean_round_has_no_error_and_its_payments() -> None:
    deal = _deals(_validate(_record()))["r1"]
    assert _codes(deal) == []
    assert list(deal.scores) == [-11, 1, 2, 8]


def test_platform_inferred_says_which_void_the_moves_decide() -> None:
    deal = _deals(_validate(_record()))["r1"]
    inferred = [f for f in deal.warnings if f.code == "platform_inferred"]
    assert [f.seat for f in inferred] == [0, 1, 2, 3]
    assert all(f.severity == "warning" for f in inferred)
    assert "void suit s is inferred (the moves decide it)" in inferred[1].message


def test_platform_rule_for_a_rule_chuanma_cannot_express() -> None:
    record = _record()
    record["game_title"]["sub_rule"] = "sichuan/xueliu"
    converted = convert_open_mahjong(json.dumps(record).encode(), "xueliu.json")
    assert converted.lines == []
    assert [f.code for _, f in converted.findings] == ["platform_rule"]
    record = _record()
    record["game_title"]["hepai_limit"] = 2
    log = read_open_mahjong(json.dumps(record).encode(), "limit.json")
    assert [f.code for f in log.findings] == ["platform_rule"]


def test_an_unreadable_tile_is_a_finding_and_the_other_rounds_are_checked() -> None:
    record = _record()
    record["game_round"]["round_index_1"]["action_ticks"][0] = ["c", 45, "F"]  # 45: no 川麻 tile
    deals = _deals(_validate(record))
    assert ("bad_record", 1001) in _codes(deals["r1"])
    assert _codes(deals["r3"]) == [("bad_record", 3001)]


def test_a_round_that_cannot_be_read_is_set_aside_with_a_finding() -> None:
    record = _record()
    record["game_round"]["round_index_2"]["p1_tiles"] = "not a list"
    report = _validate(record)
    deals = _deals(report)
    assert sorted(deals) == ["r1", "r3"]
    assert [(f.code, f.line) for f in report.file_findings] == [("bad_record", 2000)]
    assert "round_index_2" in report.file_findings[0].message


def test_detection_by_content_not_name() -> None:
    data = RECORD.read_bytes()
    assert platform_of(data) == "open_mahjong"
    assert platform_of(b'{"type":"session","session_id":"s","players":["a","b","c","d"]}\n') is None
    log = read_log_bytes(data, "record.jsonl")  # the name says JSON Lines; the content decides
    assert len(list(log.iter_deals())) == 3
    broken = read_log_bytes(data[:-40], "cut.json")
    assert [f.code for f in broken.findings] == ["bad_record"]


def test_cli_validate_json_reads_the_record(tmp_path: Path) -> None:
    target = tmp_path / "export.txt"  # no telling name
    target.write_bytes(RECORD.read_bytes())
    done = run("validate", target, "--json")
    report = json.loads(done.stdout)
    statuses = {d["deal_id"].rsplit("-", 1)[1]: d["status"] for d in report["deals"]}
    assert statuses == {"r1": "ok", "r2": "findings", "r3": "findings"}, done.stderr
    assert report["sessions"][0]["computed"]["totals"] == EXPECTED["totals"]


def test_ingest_into_a_warehouse(tmp_path: Path) -> None:
    warehouse = tmp_path / "wh"
    done = run("ingest", RECORD, "--warehouse", warehouse, "--workers", "0", "--json")
    assert done.returncode in (0, 1, 3), done.stderr
    deals = read_table(warehouse, "deals")
    assert sorted(deals["status"].to_pylist()) == ["findings", "findings", "ok"]


def test_api_validate_path_tells_the_record_by_its_bytes() -> None:
    """POST /v1/validate names an upload by its first bytes, then reads it as here."""
    from dashboard.api.writes import file_name

    data = RECORD.read_bytes()
    named = file_name(None, data)
    statuses = sorted(d.status for d in validate_log(read_log_bytes(data, named)).deals)
    assert statuses == ["findings", "findings", "ok"]
