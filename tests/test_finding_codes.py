"""Every finding code of docs/report.md, each from a small log that triggers it and
nothing else; then ``chuanma validate``'s exit codes, ``--json``, ``--strict`` and ``--rules``.

The logs are golden logs (``tests/golden``, valid and hand-checked) with one change, so
that the one change is the only thing wrong. Where a finding is about a rule, its message
must name the rule in Chinese and in English.
"""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from engine.events import SessionEnd, SessionStart
from engine.rules import load_rules
from ingest.logs.reader import read_lines
from ingest.logs.writer import log_lines
from ingest.replay.validate import ValidationReport, validate_log
from ingest.sheets.record import DealFacts, EndFact, Fact, KongFact, SessionFacts, WinFact, log_text
from ingest.simulator.simulate import STYLES, simulate_deal

GOLDEN = Path(__file__).parent / "golden"
CHUANMA = Path(sys.executable).parent / "chuanma"

Lines = list[str]


def golden(name: str) -> Lines:
    return (GOLDEN / name).read_text(encoding="utf-8").splitlines()


def find(lines: Lines, deal_id: str | None = None, **match: Any) -> int:
    """Index of the first line (of deal ``deal_id``, if given) whose fields match."""
    inside = deal_id is None
    for index, text in enumerate(lines):
        event = json.loads(text)
        if event["type"] == "deal" and deal_id is not None:
            inside = event["deal_id"] == deal_id
        elif inside and all(event.get(key) == value for key, value in match.items()):
            return index
    raise AssertionError(f"no line {match} in {deal_id}")


def changed(lines: Lines, index: int, **fields: Any) -> Lines:
    event = json.loads(lines[index])
    event.update(fields)
    return [*lines[:index], json.dumps(event, ensure_ascii=False), *lines[index + 1 :]]


def inserted(lines: Lines, index: int, line: str | dict[str, Any]) -> Lines:
    text = line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)
    return [*lines[:index], text, *lines[index:]]


def dropped(lines: Lines, index: int) -> Lines:
    return [*lines[:index], *lines[index + 1 :]]


def validate(lines: Lines, name: str = "case.jsonl") -> ValidationReport:
    return validate_log(read_lines(lines, name))


def load_builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_golden", GOLDEN / "build_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def simulated_lines(seed: int = 7) -> Lines:
    """One simulated standard deal with its recorded wall, as a one-deal session."""
    rules = load_rules("standard")
    start, events, end, _ = simulate_deal(random.Random(seed), "sim-1", 0, rules, STYLES[:4])
    assert end.scores is not None
    session = SessionStart("sim", ("A", "B", "C", "D"), rules="standard")
    return list(log_lines([session, start, *events, end, SessionEnd(end.scores)]))


# ----------------------------------------------------------------------------- the cases
@dataclass(frozen=True)
class Case:
    code: str
    lines: Callable[[], tuple[Lines, int]]  # the log, and the 1-based line of the finding
    seat: int | None
    words: tuple[str, ...] = ()  # the rule's name in Chinese and English, for rule codes


def not_json() -> tuple[Lines, int]:
    lines = golden("multiple_hu.jsonl")
    return inserted(lines, 3, '{"type": "discard", "seat": 1, "tile": "5p"'), 4


def missing_field() -> tuple[Lines, int]:
    lines = golden("multiple_hu.jsonl")
    return inserted(lines, 3, {"type": "discard", "seat": 1}), 4


def bad_tile() -> tuple[Lines, int]:
    lines = golden("multiple_hu.jsonl")
    return inserted(lines, 3, {"type": "discard", "seat": 2, "tile": "0p"}), 4


def fifth_copy_dealt() -> tuple[Lines, int]:
    # seat 2 is dealt a third 5p for a 6p: with seat 0's and seat 3's, five 5p
    lines = golden("multiple_hu.jsonl")
    deal = json.loads(lines[1])
    hands = [deal["hands"][0], deal["hands"][1], "5556p222555888s", deal["hands"][3]]
    return changed(lines, 1, hands=hands), 2


def fifth_copy_drawn() -> tuple[Lines, int]:
    # all four 9s are out of the wall (seat 0 one, seat 1 two, seat 2 one): seat 1 draws a fifth
    lines = golden("first_hu.jsonl")
    index = find(lines, "first-hu-tsumo", type="draw", seat=1)
    lines = changed(changed(lines, index, tile="9s"), index + 1, tile="9s")
    return lines, index + 1


def out_of_turn() -> tuple[Lines, int]:
    lines = golden("first_hu.jsonl")
    index = find(lines, "first-hu-tsumo", type="draw", seat=2)
    return changed(lines, index, seat=3), index + 1


def not_in_hand() -> tuple[Lines, int]:
    lines = golden("multiple_hu.jsonl")  # the dealer holds no 2m
    return changed(lines, 2, tile="2m"), 3


def pong_wrong_tile() -> tuple[Lines, int]:
    lines = golden("kongs_standard.jsonl")
    index = find(lines, type="pong")
    return changed(lines, index, tile="9s"), index + 1


def added_kong_without_pong() -> tuple[Lines, int]:
    lines = golden("kongs_standard.jsonl")
    index = find(lines, type="kong", kind="added")
    return changed(lines, index, tile="5s"), index + 1


def exposed_kong_wrong_tile() -> tuple[Lines, int]:
    lines = golden("kongs_standard.jsonl")
    index = find(lines, type="kong", kind="exposed")
    return changed(lines, index, tile="3m"), index + 1


def hu_no_shape() -> tuple[Lines, int]:
    # seat 1 (123s 456s 999p 88p 89s) draws 4p: two suits, but no winning shape
    lines = golden("pass_rule.jsonl")
    index = find(lines, "pass-any-1", type="draw", seat=1)
    return inserted(lines, index + 1, {"type": "hu", "seat": 1, "tile": "4p", "from": None}), index + 2


def hu_three_suits() -> tuple[Lines, int]:
    # seat 3 (1147m 2369p 13467s) draws 8p: three suits
    lines = golden("kongs_standard.jsonl")
    index = find(lines, type="draw", seat=3)
    return inserted(lines, index + 1, {"type": "hu", "seat": 3, "tile": "8p", "from": None}), index + 2


def hu_holding_void() -> tuple[Lines, int]:
    # seat 1 declares s void but keeps its s tiles (void_discard_first off, so that the
    # discard order is no finding), then wins 5p while holding them
    lines = golden("void_online.jsonl")
    lines = changed(lines, 0, rules={"preset": "online", "void_discard_first": False})
    lines = changed(lines, find(lines, type="void", seat=1), suit="s")
    index = find(lines, type="hu", seat=1)
    return lines, index + 1


def hu_after_pass() -> tuple[Lines, int]:
    # seat 3 passed seat 0's 4p and has not drawn since
    lines = golden("pass_rule.jsonl")
    index = find(lines, "pass-any-1", type="discard", seat=1)
    return inserted(lines, index + 1, {"type": "hu", "seat": 3, "tile": "4p", "from": 1}), index + 2


LAST_FOUR_HANDS = ["357799p11355799s", "123456789m1235p", "22446688m24688p", "1335779m133779s"]


def missed_last_four(self_draw: bool) -> tuple[Lines, int]:
    """The last_four golden deal, but seat 1 lets a 5p of the last four go by.

    Seat 1 (123m 456m 789m 123p 5p) stays ready on 5p to the end. 查大叫 (hand-worked):
    seats 0, 2, 3 are not ready and pay seat 1 2^(1-1) = 1 each -> (-1, 3, -1, -1)."""
    builder = load_builder()
    log = builder.Log("missed")
    log.session("missed-last-four", "standard")
    deal = log.deal("missed-1", LAST_FOUR_HANDS)
    deal.discard(0, "3p")
    deal.filler([1, 2, 3, 0], 50, keep="5p5p")
    deal.turn(3, "5p")  # draw 51: a pass, not yet the last four
    if self_draw:
        deal.filler([0], 1, keep="5p")  # draw 52 (the fourth-last tile)
        deal.turn(1, "5p")  # draw 53: seat 1 draws its winning tile and throws it
        deal.filler([2, 3], 2)
    else:
        deal.turn(0, "5p")  # draw 52: seat 1 could win it and does not
        deal.filler([1, 2, 3], 3)
    deal.end("wall_exhausted", [-1, 3, -1, -1], [-1, 3, -1, -1])
    log.session_end([-1, 3, -1, -1])
    lines = log.text().splitlines()
    seat = 1 if self_draw else 0
    # the discard of the 5p of the last four
    indexes = [
        i
        for i, text in enumerate(lines)
        if json.loads(text) == {"type": "discard", "seat": seat, "tile": "5p"}
    ]
    return lines, indexes[-1] + 1


def missed_last_four_by_kong() -> tuple[Lines, int]:
    """Seat 1 (123456m 111p 23p 99m: wins 1p with 平胡 + 根, 4p, 9m) draws the fourth 1p
    as draw 53, one of the last four, and makes a 暗杠 of it instead of winning.

    Hand-worked claims: the 暗杠 takes 2 from each of 0, 2, 3 -> (-2, 6, -2, -2); at the
    empty wall seat 1 is still ready (4p: 平胡 1 + 根 of the 1p kong = 2 fan), so 查大叫
    has seats 0, 2, 3 pay it 2 each -> (-2, 6, -2, -2); scores (-4, 12, -4, -4)."""
    builder = load_builder()
    log = builder.Log("kong-instead")
    log.session("missed-by-kong", "standard")
    hands = [LAST_FOUR_HANDS[0], "123456m111p23p99m", *LAST_FOUR_HANDS[2:]]
    deal = log.deal("missed-by-kong-1", hands)
    deal.discard(0, "3p")
    deal.filler([1, 2, 3, 0], 52, keep="1p")
    deal.draw(1, "1p")
    deal.kong(1, "1p", "concealed", [-2, 6, -2, -2])
    deal.rest([1, 2])  # the replacement (thrown), then seat 2's last draw
    deal.end("wall_exhausted", [-2, 6, -2, -2], [-4, 12, -4, -4])
    log.session_end([-4, 12, -4, -4])
    lines = log.text().splitlines()
    kong = '{"type":"kong","seat":1,"tile":"1p","kind":"concealed","deltas":[-2,6,-2,-2]}'
    return lines, lines.index(kong) + 1


def void_discard_order() -> tuple[Lines, int]:
    # seat 3 (void p, holding 2p 3p 6p 9p) draws 1m and throws it instead of a p tile
    lines = golden("kongs_online.jsonl")
    index = find(lines, type="draw", seat=3)
    lines = changed(changed(lines, index, tile="1m"), index + 1, tile="1m")
    return lines, index + 2


def void_not_declared() -> tuple[Lines, int]:
    lines = golden("kongs_online.jsonl")
    lines = dropped(lines, find(lines, type="void", seat=3))
    return lines, find(lines, type="kong") + 1  # the dealer's first action


def wall_draw_mismatch() -> tuple[Lines, int]:
    lines = simulated_lines()
    index = find(lines, type="draw")
    drawn = json.loads(lines[index])["tile"]
    other = "1m" if drawn != "1m" else "2m"
    return changed(lines, index, tile=other), index + 1


def draw_from_empty_wall() -> tuple[Lines, int]:
    lines = golden("last_four.jsonl")
    index = find(lines, type="deal_end")
    return inserted(lines, index, {"type": "draw", "seat": 2, "tile": "9s"}), index + 1


def winner_plays_on() -> tuple[Lines, int]:
    # seat 1 won on the 5p of the last four; it draws again in seat 2's place
    lines = golden("last_four.jsonl")
    index = find(lines, type="hu") + 1
    return changed(lines, index, seat=1), index + 1


def fixed_hand_changed() -> tuple[Lines, int]:
    # 血流成河: seat 1 has won; on its last turn it keeps the drawn tile and throws its 1m
    lines = golden("bloody_flow.jsonl")
    end = find(lines, "bloody-flow-standard-1", type="deal_end")
    events = [json.loads(text) for text in lines[:end]]
    index = max(i for i, event in enumerate(events) if event["type"] == "discard" and event["seat"] == 1)
    return changed(lines, index, tile="1m"), index + 1


def wrong_reason() -> tuple[Lines, int]:
    lines = golden("multiple_hu.jsonl")
    return changed(lines, 6, reason="wall_exhausted"), 7


def end_too_early() -> tuple[Lines, int]:
    lines = dropped(golden("multiple_hu.jsonl"), 5)  # seat 3's win is gone: two have won
    return lines, 6


def no_deal_end() -> tuple[Lines, int]:
    lines = dropped(golden("multiple_hu.jsonl"), 6)
    return lines, 2  # reported at the deal line


def fan_changed() -> tuple[Lines, int]:
    lines = golden("multiple_hu.jsonl")  # 清七对 5 fan, capped at 4 under chengdu
    return changed(lines, 5, fan=5), 6


def patterns_changed() -> tuple[Lines, int]:
    lines = golden("multiple_hu.jsonl")
    return changed(lines, 4, patterns=["jiangdui"]), 5


def kong_deltas_changed() -> tuple[Lines, int]:
    lines = golden("kongs_standard.jsonl")
    index = find(lines, type="kong", kind="exposed")
    return changed(lines, index, deltas=[-2, 2, 0, 0]), index + 1


def hu_deltas_changed() -> tuple[Lines, int]:
    lines = golden("multiple_hu.jsonl")
    return changed(lines, 3, deltas=[-2, 2, 0, 0]), 4


def settlement_changed() -> tuple[Lines, int]:
    lines = golden("cha_jiao.jsonl")
    index = find(lines, type="deal_end")
    return changed(lines, index, settlement=[5, 42, 0, -47]), index + 1


def scores_changed() -> tuple[Lines, int]:
    lines = golden("multiple_hu.jsonl")
    return changed(lines, 6, scores=[-10, 0, 2, 8]), 7


def totals_changed() -> tuple[Lines, int]:
    lines = golden("multiple_hu.jsonl")
    return changed(lines, 7, totals=[-10, 0, 2, 8]), 8


def sheet_lines(*events: Fact, dealer: int = 0) -> Lines:
    """A valid one-deal score-sheet log (standard), as the Record page writes it."""
    session = SessionFacts("sheet", ("A", "B", "C", "D"))
    return log_text(session, [DealFacts("sheet-01", dealer, events, EndFact())]).splitlines()


def kong_discard_from_another() -> tuple[Lines, int]:
    # A 直杠 from C, then B wins 平胡 + 杠上炮 on A's next discard; written on D's discard,
    # the 杠上炮 follows no kong of the discarder
    lines = sheet_lines(KongFact(0, "exposed", 2), WinFact(1, 0, ("pinghu", "gangshangpao")))
    return changed(lines, 3, **{"from": 3}), 4


def heavenly_not_the_dealer() -> tuple[Lines, int]:
    # A (the dealer) wins 天胡; the deal line then names B as the dealer
    lines = sheet_lines(WinFact(0, None, ("tianhu",)))
    return changed(lines, 1, dealer=1), 3


CASES: dict[str, Case] = {
    "not json": Case("bad_record", not_json, None),
    "missing field": Case("bad_record", missing_field, 1),
    "bad tile": Case("bad_tile", bad_tile, 2),
    "fifth copy dealt": Case("tile_count", fifth_copy_dealt, None),
    "fifth copy drawn": Case("tile_count", fifth_copy_drawn, 1),
    "out of turn": Case("out_of_turn", out_of_turn, 3, ("轮流", "turn order")),
    "not in hand": Case("not_in_hand", not_in_hand, 0),
    "pong wrong tile": Case("illegal_pong", pong_wrong_tile, 2, ("碰", "pong")),
    "added kong without pong": Case("illegal_kong", added_kong_without_pong, 2, ("弯杠", "added kong")),
    "exposed kong wrong tile": Case("illegal_kong", exposed_kong_wrong_tile, 1, ("直杠", "exposed kong")),
    "hu no shape": Case("illegal_hu", hu_no_shape, 1, ("七对", "seven pairs")),
    "hu three suits": Case("illegal_hu", hu_three_suits, 3, ("缺一门", "two suits")),
    "hu holding void": Case("illegal_hu", hu_holding_void, 1, ("定缺", "void suit")),
    "hu after pass": Case("illegal_hu", hu_after_pass, 3, ("过水不胡", "pass_rule")),
    "missed last four discard": Case(
        "missed_forced_hu", lambda: missed_last_four(False), 1, ("最后四张", "last four")
    ),
    "missed last four self-draw": Case(
        "missed_forced_hu", lambda: missed_last_four(True), 1, ("最后四张", "last four")
    ),
    "missed last four by kong": Case(
        "missed_forced_hu", missed_last_four_by_kong, 1, ("最后四张", "last four")
    ),
    "void discard order": Case("void_rule", void_discard_order, 3, ("定缺", "void_discard_first")),
    "void not declared": Case("void_rule", void_not_declared, 3, ("定缺", "void suit")),
    "wall draw mismatch": Case("wall_mismatch", wall_draw_mismatch, 1),
    "draw from empty wall": Case("wall_mismatch", draw_from_empty_wall, 2),
    "a winner plays on": Case("out_of_turn", winner_plays_on, 1, ("血战到底", "has won")),
    "a fixed hand changed": Case("fixed_hand", fixed_hand_changed, 1, ("血流成河", "胡后不改牌")),
    "wrong reason": Case("wrong_end", wrong_reason, None, ("血战到底", "three")),
    "end too early": Case("wrong_end", end_too_early, None, ("血战到底", "three")),
    "no deal_end": Case("wrong_end", no_deal_end, None),
    "fan changed": Case("fan_mismatch", fan_changed, 3, ("清七对", "max_fan")),
    "patterns changed": Case("fan_mismatch", patterns_changed, 2, ("对对胡", "all triplets")),
    "kong deltas changed": Case("payment_mismatch", kong_deltas_changed, 1, ("直杠", "exposed kong")),
    "hu deltas changed": Case("payment_mismatch", hu_deltas_changed, 1, ("点炮", "discard win")),
    "settlement changed": Case("payment_mismatch", settlement_changed, None, ("查花猪", "flower pig")),
    "scores changed": Case("score_mismatch", scores_changed, None),
    "totals changed": Case("score_mismatch", totals_changed, None),
    "杠上炮 after no kong": Case(
        "impossible_pattern", kong_discard_from_another, 1, ("杠上炮", "discarder's kong")
    ),
    "天胡 not the dealer": Case("impossible_pattern", heavenly_not_the_dealer, 0, ("天胡", "dealer")),
}

SPEC_CODES = {
    "bad_record", "bad_tile", "tile_count", "out_of_turn", "not_in_hand", "illegal_pong",
    "illegal_kong", "illegal_hu", "missed_forced_hu", "void_rule", "wall_mismatch",
    "wrong_end", "fan_mismatch", "payment_mismatch", "score_mismatch", "impossible_pattern",
    "fixed_hand",
}  # fmt: skip


def test_every_spec_code_has_a_case() -> None:
    assert {case.code for case in CASES.values()} == SPEC_CODES


@pytest.mark.parametrize("name", sorted(CASES))
def test_finding_code(name: str) -> None:
    case = CASES[name]
    lines, line = case.lines()
    report = validate(lines)
    findings = list(report.all_findings())
    assert {f.code for f in findings} == {case.code}, [(f.code, f.line, f.message) for f in findings]
    assert len(findings) == 1, [(f.code, f.line, f.message) for f in findings]
    finding = findings[0]
    assert (finding.line, finding.seat) == (line, case.seat), finding.message
    assert finding.message
    for word in case.words:
        assert word in finding.message, finding.message


def test_the_golden_bases_are_valid() -> None:
    for name in ("multiple_hu.jsonl", "kongs_standard.jsonl", "kongs_online.jsonl", "first_hu.jsonl"):
        assert validate(golden(name)).ok, name
    assert validate(simulated_lines()).ok
    lines, _ = missed_last_four(False)
    # without the forced win the same deal is valid: the knob decides
    lines[0] = lines[0].replace(
        '"rules":"standard"', '"rules":{"preset":"standard","last_four_must_hu":false}'
    )
    assert validate(lines).ok


def test_a_finding_carries_what_was_expected_and_recorded() -> None:
    lines, _ = kong_deltas_changed()
    (finding,) = validate(lines).all_findings()
    assert finding.expected == [-1, 1, 0, 0] and finding.recorded == [-2, 2, 0, 0]
    assert finding.to_json()["code"] == "payment_mismatch"


def test_a_bad_deal_does_not_stop_the_others() -> None:
    lines = golden("pass_rule.jsonl")
    index = find(lines, "pass-any-1", type="discard", seat=1)
    lines = inserted(lines, index + 1, {"type": "hu", "seat": 3, "tile": "4p", "from": 1})
    report = validate(lines)
    assert [(d.deal_id, d.status) for d in report.deals] == [
        ("pass-any-1", "invalid"),  # an illegal win stops its replay: not replayed to its end
        ("pass-same-tile-1", "ok"),
        ("pass-same-tile-2", "ok"),
        ("pass-no-higher-1", "ok"),
    ]


# ----------------------------------------------------------------------------- the command line
def chuanma(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CHUANMA), *map(str, args)], capture_output=True, text=True, check=False)


def write(tmp_path: Path, name: str, lines: Lines) -> Path:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_exit_codes(tmp_path: Path) -> None:
    assert chuanma("validate", GOLDEN / "multiple_hu.jsonl").returncode == 0
    bad = write(tmp_path, "bad.jsonl", fan_changed()[0])
    run = chuanma("validate", GOLDEN / "multiple_hu.jsonl", bad)
    assert run.returncode == 3
    assert "fan_mismatch" in run.stdout
    missing = chuanma("validate", tmp_path / "no-such-file.jsonl")
    assert missing.returncode == 2
    assert "no-such-file.jsonl" in missing.stderr


def test_json_report_shape(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.jsonl", kong_deltas_changed()[0])
    run = chuanma("validate", "--json", GOLDEN / "multiple_hu.jsonl", bad)
    assert run.returncode == 3
    report = json.loads(run.stdout)
    assert set(report) >= {"deals", "summary"}
    assert [d["deal_id"] for d in report["deals"]] == ["multiple-hu-1", "kongs-standard-1"]
    for deal in report["deals"]:
        assert set(deal) >= {"deal_id", "session_id", "file", "line", "status", "findings", "computed"}
        assert deal["line"] == 2
        assert len(deal["computed"]["scores"]) == 4 and all(
            isinstance(s, int) for s in deal["computed"]["scores"]
        )
        for win in deal["computed"]["wins"]:
            assert set(win) >= {"seat", "fan", "patterns"}
    ok, bad_deal = report["deals"]
    assert (ok["status"], ok["findings"], ok["session_id"]) == ("ok", [], "golden-multiple-hu")
    assert ok["computed"]["scores"] == [-11, 1, 2, 8]
    assert [(w["seat"], w["fan"], w["patterns"]) for w in ok["computed"]["wins"]] == [
        (1, 1, ["pinghu"]),
        (2, 2, ["duiduihu"]),
        (3, 4, ["qingqidui"]),
    ]
    assert bad_deal["status"] == "findings" and bad_deal["file"] == str(bad)
    (finding,) = bad_deal["findings"]
    assert set(finding) >= {"code", "line", "seat", "message", "expected", "recorded"}
    assert (finding["code"], finding["line"], finding["seat"]) == ("payment_mismatch", 6, 1)
    assert (finding["expected"], finding["recorded"]) == ([-1, 1, 0, 0], [-2, 2, 0, 0])
    summary = report["summary"]
    assert (summary["deals"], summary["ok"], summary["findings"]) == (2, 1, 1)
    assert summary["by_code"] == {"payment_mismatch": 1}


def test_strict_stops_at_the_first_finding(tmp_path: Path) -> None:
    lines, _ = fan_changed()
    lines = changed(lines, 3, deltas=[-2, 2, 0, 0])  # a second finding, on an earlier line
    path = write(tmp_path, "two.jsonl", lines)
    lenient = json.loads(chuanma("validate", "--json", path).stdout)
    assert [(f["code"], f["line"]) for f in lenient["deals"][0]["findings"]] == [
        ("payment_mismatch", 4),
        ("fan_mismatch", 6),
    ]
    run = chuanma("validate", "--json", "--strict", path)
    assert run.returncode == 3
    stopped = json.loads(run.stdout)
    assert (stopped["strict_stop"]["code"], stopped["strict_stop"]["line"]) == ("payment_mismatch", 4)
    assert "deals" not in stopped


def test_rules_option_rescores_a_log(tmp_path: Path) -> None:
    # kongs_standard under chengdu: the 直杠 costs its discarder 2 instead of 1, so the
    # scores become the chengdu ones worked out in test_golden: (5, 1, 3, -9)
    run = chuanma("validate", "--json", "--rules", "chengdu", GOLDEN / "kongs_standard.jsonl")
    assert run.returncode == 3
    report = json.loads(run.stdout)
    (deal,) = report["deals"]
    assert deal["computed"]["scores"] == [5, 1, 3, -9]
    assert deal["computed"]["rules"] == "chengdu"
    codes = [(f["code"], f["line"]) for f in deal["findings"]]
    assert codes == [("payment_mismatch", 6), ("score_mismatch", 26)]
    assert chuanma("validate", "--rules", "standard", GOLDEN / "kongs_standard.jsonl").returncode == 0
    assert chuanma("validate", "--rules", "no-such-preset", GOLDEN / "kongs_standard.jsonl").returncode == 2


@pytest.mark.parametrize(
    ("rules", "needs_en", "needs_zh"),
    [
        ("standard", "four sets and a pair, or 七对 (seven pairs)", "四组加一对，或七对"),
        ("duangouka", "three sets and a pair", "三组加一对"),
        ({"preset": "duangouka", "hand_size": 7}, "two sets and a pair", "两组加一对"),
    ],
    ids=["13-tiles", "10-tiles", "7-tiles"],
)
def test_no_shape_names_what_a_win_needs_at_the_table(
    rules: str | dict[str, Any], needs_en: str, needs_zh: str
) -> None:
    """A hand that is no win is told what a win needs at its table: four sets and a pair or
    七对 with 13 tiles, three sets and a pair with ten (no 七对 there), two with seven."""
    from engine.fan import WinContext
    from engine.move_checks import legal_win
    from engine.moves import IllegalEvent

    table = load_rules(rules)
    counts = [0] * 27
    for tile in (9, 11, 13, 15, 17, 18, 20, 22, 24, 26, 26)[: table.hand_size + 1]:
        counts[tile] += 1  # scattered 筒 and 条: no sets at all
    with pytest.raises(IllegalEvent) as caught:
        legal_win(table, 1, counts, [], [], 0, 0, WinContext(self_draw=True), 26)
    text = caught.value.text
    assert caught.value.code == "illegal_hu" and text.key.startswith("no_shape")
    assert text.en.endswith(f"needs {needs_en}") and text.zh.endswith(f"须{needs_zh}")
