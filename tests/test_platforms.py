"""Records of other platforms (docs/platforms.md): golden records written by hand from
the published formats, read by content through the real commands.

tests/golden/platforms/open_mahjong_sichuan.json: three 川麻 rounds of
open_mahjong_unity (the sidecar ``.expected.json`` says what each should give): a clean
round, one with a wrong settle_hu payment, one with an unreadable tick.

tests/golden/platforms/open_mahjong_kongs.json: five copies of a 血战 round with an
exposed, an added and a concealed kong (刮风下雨) that ends at an empty wall (查大叫 and 退税
in liuju chajiao ticks): as the platform pays it, then each payment tick changed once.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from warehouse_fixtures import read_table

from ingest.platforms.detect import platform_of
from ingest.platforms.emit import log_of
from ingest.platforms.open_mahjong import convert_open_mahjong, read_open_mahjong
from ingest.platforms.open_mahjong_rules import UnknownFan, patterns_of
from ingest.platforms.voids import Inferred, infer_void
from ingest.replay.files import read_log_bytes
from ingest.replay.validate import validate_log

GOLDEN = Path(__file__).parent / "golden" / "platforms"
RECORD = GOLDEN / "open_mahjong_sichuan.json"
EXPECTED = json.loads((GOLDEN / "open_mahjong_sichuan.expected.json").read_text(encoding="utf-8"))
KONGS = GOLDEN / "open_mahjong_kongs.json"
KONGS_EXPECTED = json.loads((GOLDEN / "open_mahjong_kongs.expected.json").read_text(encoding="utf-8"))


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


def test_platform_inferred_says_where_the_moves_leave_the_void_open() -> None:
    """A 定缺 the moves decide goes into the log with no word (seat 1's s, as the golden
    plays it); one the moves leave open is a ``platform_inferred`` warning saying which
    suits they allow (seat 3: m or s)."""
    record = _record()
    converted = convert_open_mahjong(json.dumps(record).encode(), "record.json")
    voids = [obj for line, obj in converted.objects() if obj["type"] == "void" and line // 1000 == 1]
    assert voids[1] == {"type": "void", "seat": 1, "suit": "s"}
    deal = _deals(_validate(record))["r1"]
    (open_void,) = [f for f in deal.warnings if f.code == "platform_inferred"]  # seats 0-2 decided
    assert open_void.seat == 3 and open_void.severity == "warning"
    assert "seat 3's void suit m is inferred (the moves allow m, s)" in open_void.message


def test_a_suit_dealt_none_of_is_the_inferred_void() -> None:
    """A seat dealt no 条 plays its other suits from the first discard: the moves allow
    m and s (it pongs 5p), and the suit it holds none of is taken, not the one it
    discarded first (seed 201 of the round trip, tests/test_platform_roundtrip.py)."""
    hand = [f"{r}m" for r in (2, 3, 4, 5, 6, 9)] + [f"{r}p" for r in (2, 2, 5, 5, 6, 6, 9)]
    moves = [{"type": "pong", "seat": 3, "tile": "5p"}, {"type": "discard", "seat": 3, "tile": "9m"}]
    assert infer_void(3, hand, moves) == Inferred("s", ("m", "s"))
    assert infer_void(3, hand[6:], moves[1:]).suit == "m"  # none of m and of s: the first discarded


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


def test_kong_and_wall_end_rounds_match_the_sidecar() -> None:
    report = validate_log(read_open_mahjong(KONGS.read_bytes(), KONGS.name))
    deals = _deals(report)
    assert len(deals) == len(KONGS_EXPECTED["rounds"])
    for key, want in KONGS_EXPECTED["rounds"].items():
        deal = deals[f"r{key.rsplit('_', 1)[1]}"]
        assert deal.status == want["status"], key
        assert _codes(deal) == [(code, want["line"]) for code in want["codes"]], key
        if "expected" in want:  # the finding says what chuanma pays and what the record says
            assert deal.findings[0].message.endswith(
                f"expected {want['expected']}, recorded {want['recorded']}"
            )
        assert list(deal.scores) == KONGS_EXPECTED["scores"], key  # chuanma's own payments
        assert [f.code for f in deal.warnings if f.code != "platform_inferred"] == []
    assert report.to_json()["sessions"][0]["computed"]["totals"] == KONGS_EXPECTED["totals"]


def test_kong_payments_and_the_wall_end_settlement_worked_by_hand() -> None:
    """Round 1 of open_mahjong_kongs.json, payment by payment, under the record's rules
    (chengdu's kong knobs, 查大叫 at the highest value of the waits, 退税)."""
    converted = convert_open_mahjong(KONGS.read_bytes(), KONGS.name)
    lines = {line: obj for line, obj in converted.objects() if line // 1000 == 1}
    kong = {"type": "kong", "seat": 0, "tile": "9s", "kind": "exposed"}
    # tick 13: seat 2 draws the fourth 5s, 暗杠 (下雨): 2 from each of the three others
    assert lines[1013] == {**kong, "seat": 2, "tile": "5s", "kind": "concealed", "deltas": [-2, -2, 6, -2]}
    # tick 18: seat 0 kongs seat 3's discarded 9s, 直杠 (刮风): 2 from the discarder only
    assert lines[1018] == {**kong, "deltas": [2, 0, 0, -2]}
    # tick 28: seat 0 draws the fourth 1m onto its pong (tick 8), 加杠 (下雨): 1 from each other
    assert lines[1028] == {**kong, "tile": "1m", "kind": "added", "deltas": [3, -1, -1, -1]}
    # the kongs during play: [-2 + 2 + 3, -2 - 1, 6 - 1, -2 - 2 - 1] = [3, -3, 5, -5]
    # tick 114 is the last discard of the 55th wall tile; ticks 116-119 are the chajiao:
    #   seat 0, not ready (2468m137s beside its two kongs): 退税, 2 back to seat 3 for the
    #     直杠 and 1 back to each other for the 加杠: [-5, 1, 1, 3]
    #   seat 1, ready (234567m2345678p, waits 2p 5p 8p, 平和): the platform's 0 fan is one
    #     point (chuanma's 1 fan, 2 ** 0), paid by each seat not ready, 0 and 2: [-1, 2, -1, 0]
    #   seat 2, not ready (13s22588999p beside its 暗杠): 退税, 2 back to each: [2, 2, -6, 2]
    #   seat 3, ready (2334455667789p, waits 3p 6p 9p, 清一色): the platform's 2 fan is 4
    #     points (chuanma's 3 fan, 2 ** 2), from seats 0 and 2: [-4, 0, -4, 8]
    #   settlement: [-5 - 1 + 2 - 4, 1 + 2 + 2 + 0, 1 - 1 - 6 - 4, 3 + 0 + 2 + 8] = [-8, 5, -10, 13]
    assert lines[1121] == {"type": "deal_end", "reason": "wall_exhausted", "settlement": [-8, 5, -10, 13]}
    # the round: [3 - 8, -3 + 5, 5 - 10, -5 + 13] = [-5, 2, -5, 8] (every kong refunded:
    # what is left is the 查大叫, -1 - 4 for each seat not ready, 2 and 8 for the ready ones)
    deal = _deals(validate_log(log_of(converted)))["r1"]
    assert _codes(deal) == [] and list(deal.scores) == [-5, 2, -5, 8]
    assert sum(1 for obj in lines.values() if obj["type"] == "draw") == 55  # the whole wall drawn


def test_each_platform_fan_name_is_a_chuanma_pattern() -> None:
    """Every 川麻 fan of the platform (om:game_calculation/sichuan/sichuan_hepai_check.py)
    as chuanma's pattern keys: one base pattern (the highest of the rule set) and an
    extra per 杠, 根 and situational fan."""
    assert patterns_of(["平和"]) == ["pinghu"]
    assert patterns_of(["根"]) == ["pinghu", "gen"]  # the platform drops 平和 beside another fan
    assert patterns_of(["杠", "根"]) == ["pinghu", "gen", "gen"]  # a kong is chuanma's root too
    assert patterns_of(["大对子"]) == ["duiduihu"]
    assert patterns_of(["清一色"]) == ["qingyise"]
    assert patterns_of(["七对"]) == ["qidui"]
    assert patterns_of(["清一色", "大对子"]) == ["qingdui"]
    assert patterns_of(["七对", "清一色", "根"]) == ["qingqidui", "gen"]
    assert patterns_of(["大对子", "金钩钓"]) == ["jingoudiao"]
    assert patterns_of(["清一色", "大对子", "金钩钓"]) == ["qingdui"]  # 清金钩钓 is not scored
    situational = ["杠上花", "杠上炮", "抢杠", "海底"]
    assert patterns_of(situational) == ["pinghu", "gangshanghua", "gangshangpao", "qiangganghu", "haidi"]
    assert patterns_of(["对对和"]) == patterns_of(["大对子"])  # the platform's own other name
    assert patterns_of(["清七对"]) == ["qingqidui"]
    for names in (["自摸"], ["金钩钓"], ["七对", "大对子"]):  # no such fan; no such hand
        with pytest.raises(UnknownFan):
            patterns_of(names)


def test_a_win_under_other_fan_names_is_a_fan_mismatch() -> None:
    record = _record()
    ticks = record["game_round"]["round_index_1"]["action_ticks"]
    ticks[1][3] = ["大对子"]  # seat 1's 平和 win on 5p said to be 对对和; its payment stays 1
    deal = _deals(_validate(record))["r1"]
    assert _codes(deal) == [("fan_mismatch", 1002)]
    assert deal.findings[0].expected == ["pinghu"] and deal.findings[0].recorded == ["duiduihu"]


def test_an_unknown_fan_name_is_a_finding_and_the_payment_still_checked() -> None:
    record = _record()
    ticks = record["game_round"]["round_index_2"]["action_ticks"]
    ticks[3][3] = ["清一色", "龙王"]  # seat 3's win: a fan the platform has not
    deal = _deals(_validate(record))["r2"]
    assert _codes(deal) == [("bad_record", 2004), ("payment_mismatch", 2004)]  # the golden's wrong 4
    assert "'龙王' is none of the platform's 川麻 fans" in deal.findings[0].message


def test_a_platform_finding_carries_its_template_and_reads_in_chinese() -> None:
    """A converter's findings are templates with their values, like the reader's: they
    render again in either language, and ``--lang zh`` says them in Chinese."""
    from dashboard.cli.reports import validation_text
    from engine.messages import TEMPLATES, render

    record = _record()
    record["game_title"]["hepai_limit"] = 2
    record["game_round"]["round_index_1"]["action_ticks"][0] = ["c", 45, "F"]  # 45: no 川麻 tile
    report = _validate(record)
    outside = [*report.file_findings, *(f for session in report.sessions for f in session.findings)]
    found = [*outside, *(f for deal in report.deals for f in (*deal.findings, *deal.warnings))]
    keys = {f.message_key for f in found}
    assert {"open_mahjong_tick_left_out", "open_mahjong_void", "open_mahjong_hepai_limit"} <= keys
    for f in found:
        assert f.message_key in TEMPLATES, f.message
        assert render(f.message_key, f.message_values, "en") == f.message
        assert render(f.message_key, f.message_values, "zh") == f.message_zh
    zh = validation_text(report, "zh")
    assert "round_index_1 第1手：45 is no 川麻 tile (11-19, 21-29, 31-39)；此手略去，本局继续" in zh
    assert "round_index_1 tick 1: 45 is no 川麻 tile" in validation_text(report)
