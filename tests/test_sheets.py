"""Score-sheet deals (log format "Score sheets"): golden sheets priced by hand, one test
per consistency check, mixed sessions, ingest, and the tiles-vs-sheet differential.

Set ``CHUANMA_SHEET_DEALS`` (e.g. 5000) for a longer differential run than the default.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from warehouse_fixtures import read_table

from engine.events import SessionEnd, SessionStart
from engine.replay import ReplayOptions, replay_deal
from engine.rules import load_rules, preset_names
from engine.table import replay_refusal
from ingest.logs.writer import event_json, sheet_json
from ingest.replay.validate import ValidationReport, validate_paths
from ingest.simulator.sheet_version import sheet_version
from ingest.simulator.simulate import STYLES, simulate_deal
from ingest.warehouse import ingest

#: the presets the tile replay plays (the others, of other tables, it refuses for now)
REPLAYED = [preset for preset in preset_names() if replay_refusal(load_rules(preset)) is None]

SESSION = {"type": "session", "session_id": "club7-t3", "players": ["Ann", "Bo", "Chen", "Du"], "base": 1}


def _write(tmp_path: Path, rules: str, lines: list[dict[str, Any]], totals: list[int] | None = None) -> Path:
    path = tmp_path / "sheet.jsonl"
    rows = [{**SESSION, "rules": rules}, *lines]
    if totals is not None:
        rows.append({"type": "session_end", "totals": totals})
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


def _validate(
    tmp_path: Path, rules: str, lines: list[dict[str, Any]], totals: list[int] | None = None
) -> ValidationReport:
    return validate_paths([_write(tmp_path, rules, lines, totals)])


def _deal(deal_id: str = "d1") -> dict[str, Any]:
    return {"type": "deal", "deal_id": deal_id, "record": "sheet", "dealer": 0}


# ------------------------------------------------------------------ golden sheets
# Each golden sheet records every payment; the numbers were worked out by hand from
# rules.md (the working is in the comments). No finding means the engine agrees.

GOLDEN: dict[str, tuple[str, list[dict[str, Any]], list[int]]] = {
    # standard: the spec's example. Seat 2 konged seat 1's discard (直杠: the discarder pays
    # 1, others 0) and won on the replacement: 平胡 1 + 根 1 + 杠上花 1 = 3 fan, x4 from
    # each seat still in. Wall empty: seat 3 is 花猪 (16 to seats 0 and 1), seat 1 not
    # ready pays seat 0 (ready at 2 fan) 2. Net: 0-4+18=14, -1-4+14=9, 1+12=13, -4-32=-36.
    "standard_kong_bloom_pig": (
        "standard",
        [
            _deal(),
            {"type": "kong", "seat": 2, "kind": "exposed", "from": 1, "deltas": [0, -1, 1, 0]},
            {"type": "hu", "seat": 2, "from": None, "patterns": ["pinghu", "gen", "gangshanghua"], "fan": 3,
             "deltas": [-4, -4, 12, -4]},
            {"type": "deal_end", "reason": "wall_exhausted", "ready": [2, None, None, None], "flower_pigs": [3],
             "settlement": [18, 14, 0, -32], "scores": [14, 9, 13, -36]},
        ],
        [14, 9, 13, -36],
    ),
    # chengdu, 一炮多响 on a 杠上炮: seat 1's 暗杠 earns 2 from each (6). Its next discard is
    # won by seat 0 (清对 4 + 杠上炮 1 = 5, capped at max_fan 4: x8) and seat 2 (平胡 1 + 杠上炮
    # 1 = 2: x2); each winner also gets the kong's 6 (呼叫转移): 14 and 8. Seat 3 then
    # self-draws 对对胡 2 fan: x2 from seat 1, the only other seat in, + 1 (自摸加底) = 3;
    # three have won. Net: -2+14=12, 6-14-8-3=-19, -2+8=6, -2+3=1.
    "chengdu_multiple_hu_on_kong_discard": (
        "chengdu",
        [
            _deal(),
            {"type": "kong", "seat": 1, "kind": "concealed", "deltas": [-2, 6, -2, -2]},
            {"type": "hu", "seat": 0, "from": 1, "patterns": ["qingdui", "gangshangpao"], "fan": 4,
             "deltas": [14, -14, 0, 0]},
            {"type": "hu", "seat": 2, "from": 1, "patterns": ["pinghu", "gangshangpao"], "fan": 2,
             "deltas": [0, -8, 8, 0]},
            {"type": "hu", "seat": 3, "from": None, "patterns": ["duiduihu"], "fan": 2, "deltas": [0, -3, 0, 3]},
            {"type": "deal_end", "reason": "three_won", "settlement": [0, 0, 0, 0], "scores": [12, -19, 6, 1]},
        ],
        [12, -19, 6, 1],
    ),
    # online, 抢杠 and 花猪 with kongs and 退税: seat 0 直杠 from seat 2 (discarder 2, others
    # 1 each: income 4); seat 3 暗杠 (2 each: income 6); seat 1's 弯杠 is robbed by seat 2
    # (平胡 + 抢杠胡 = 2 fan: seat 1 pays 2; the kong earns nothing); seat 0 弯杠 (1 each
    # from seats 1 and 3: income 2). Wall empty, seats 0, 1, 3 in: seat 3 花猪 pays 16 to
    # seats 0 and 1; seat 0 not ready pays seat 1 (ready at 3 fan) 4; 退税: seat 0 returns
    # 2+1+1 and 1+1, seat 3 (a 花猪 is not ready) returns 2 to each of 0, 1, 2.
    # Settlement: 16-4-6+2=8, 16+4+2+2=24, 2+2=4, -32-6+2=-36.
    # Net: 4-2+2+8=12, -1-2-2-1+24=18, -2-2+2+4=2, -1+6-1-36=-32.
    "online_rob_pig_refund": (
        "online",
        [
            _deal(),
            {"type": "kong", "seat": 0, "kind": "exposed", "from": 2, "tile": "5m", "deltas": [4, -1, -2, -1]},
            {"type": "kong", "seat": 3, "kind": "concealed", "deltas": [-2, -2, -2, 6]},
            {"type": "kong", "seat": 1, "kind": "added", "tile": "7p", "deltas": [0, 0, 0, 0]},
            {"type": "hu", "seat": 2, "from": 1, "tile": "7p", "patterns": ["pinghu", "qiangganghu"], "fan": 2,
             "deltas": [0, -2, 2, 0]},
            {"type": "kong", "seat": 0, "kind": "added", "deltas": [2, -1, 0, -1]},
            {"type": "deal_end", "reason": "wall_exhausted", "ready": [None, 3, None, None], "flower_pigs": [3],
             "settlement": [8, 24, 4, -36], "scores": [12, 18, 2, -32]},
        ],
        [12, 18, 2, -32],
    ),
    # standard, 退税 after a transfer: seat 0's 暗杠 earns 6 (2 each); seat 1 wins its next
    # discard (平胡 + 杠上炮 = 2 fan: 2, plus the 6 handed on). At the empty wall seat 0 is not
    # ready, but its kong has been handed on whole, so it returns nothing; seats 0 and 3
    # (not ready) pay seat 2 (ready at 1 fan) 1 each. Net: 6-8-1=-3, -2+8=6, -2+2=0, -2-1=-3.
    "standard_refund_after_transfer": (
        "standard",
        [
            _deal(),
            {"type": "kong", "seat": 0, "kind": "concealed", "deltas": [6, -2, -2, -2]},
            {"type": "hu", "seat": 1, "from": 0, "patterns": ["pinghu", "gangshangpao"], "fan": 2,
             "deltas": [-8, 8, 0, 0]},
            {"type": "deal_end", "reason": "wall_exhausted", "ready": [None, None, 1, None], "flower_pigs": [],
             "settlement": [-1, 0, 2, -1], "scores": [-3, 6, 0, -3]},
        ],
        [-3, 6, 0, -3],
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_sheet_agrees_with_the_hand_worked_payments(tmp_path: Path, name: str) -> None:
    rules, lines, net = GOLDEN[name]
    report = _validate(tmp_path, rules, lines, totals=net)
    assert [f.message for f in report.all_findings()] == []
    (deal,) = report.deals
    assert deal.scores == tuple(net)
    assert sum(net) == 0
    assert deal.to_json()["record"] == "sheet"
    assert report.sessions[0].totals == tuple(net)


def test_golden_sheet_with_a_wrong_payment_is_found(tmp_path: Path) -> None:
    rules, lines, net = GOLDEN["online_rob_pig_refund"]
    broken = [dict(line) for line in lines]
    broken[5]["deltas"] = [3, -1, 0, -1]  # the 弯杠 paid as if seat 2 were still in... wrongly
    report = _validate(tmp_path, rules, broken, totals=net)
    (finding,) = report.all_findings()
    assert (finding.code, finding.line, finding.seat) == ("payment_mismatch", 7, 0)
    assert finding.expected == [2, -1, 0, -1] and finding.recorded == [3, -1, 0, -1]
    assert finding.message_zh  # the Chinese message is written too


# ------------------------------------------------------------------ consistency checks
def _kong(seat: int, kind: str = "concealed", **more: Any) -> dict[str, Any]:
    return {"type": "kong", "seat": seat, "kind": kind, **more}


def _hu(seat: int, source: int | None, *patterns: str, **more: Any) -> dict[str, Any]:
    return {"type": "hu", "seat": seat, "from": source, "patterns": list(patterns), **more}


def _end(reason: str = "wall_exhausted", **more: Any) -> dict[str, Any]:
    return {"type": "deal_end", "reason": reason, **more}


READY: dict[str, Any] = {"ready": [None, None, None, None], "flower_pigs": []}
MENQING_ZHONGZHANG = '{"preset": "standard", "fan": {"menqing": 1, "zhongzhang": 1}}'

# name -> (rules, events after the deal line, (code, line, seat), expected, recorded)
CHECKS: dict[str, tuple[str, list[dict[str, Any]], tuple[str, int, int | None], Any, Any]] = {
    "kong_after_winning": (
        "standard", [_hu(1, 0, "pinghu"), _kong(1), _end(**READY)], ("out_of_turn", 4, 1), "a seat still in", 1,
    ),
    "second_win": (
        "standard", [_hu(1, 0, "pinghu"), _hu(1, 2, "pinghu"), _end(**READY)], ("out_of_turn", 4, 1),
        "a seat still in", 1,
    ),
    "discarder_has_won": (
        "standard", [_hu(1, 0, "pinghu"), _hu(2, 1, "pinghu"), _end(**READY)], ("out_of_turn", 4, 2),
        "a seat still in", 1,
    ),
    "win_after_three_won": (
        "standard",
        [_hu(1, 0, "pinghu"), _hu(2, 0, "pinghu"), _hu(3, 0, "pinghu"), _hu(0, None, "pinghu"), _end("three_won")],
        ("out_of_turn", 6, 0), "deal_end", "hu",
    ),
    "gen_below_kongs": (
        "standard", [_kong(1), _hu(1, 0, "duiduihu"), _end(**READY)], ("fan_mismatch", 4, 1),
        ["duiduihu", "gen"], ["duiduihu"],
    ),
    "seven_pairs_after_kong": (
        "standard", [_kong(1), _hu(1, 0, "qidui", "gen"), _end(**READY)], ("illegal_hu", 4, 1), "no kong", 1,
    ),
    "unknown_pattern": (
        "standard", [_hu(1, 0, "pinghu", "lucky"), _end(**READY)], ("bad_record", 3, 1),
        "a pattern of rules.md 4", "lucky",
    ),
    "two_base_patterns": (
        "standard", [_hu(1, 0, "pinghu", "qingyise"), _end(**READY)], ("fan_mismatch", 3, 1), 1, 2,
    ),
    "no_base_pattern": ("standard", [_hu(1, 0, "gen"), _end(**READY)], ("fan_mismatch", 3, 1), 1, 0),
    "pattern_not_in_rule_set": (
        "standard", [_hu(1, 0, "jingoudiao"), _end(**READY)], ("fan_mismatch", 3, 1), None, "jingoudiao",
    ),
    "ready_names_a_winner": (
        "standard", [_hu(1, 0, "pinghu"), _end(ready=[None, 2, None, None], flower_pigs=[])],
        ("bad_record", 4, 1), None, 2,
    ),
    "pig_names_a_winner": (
        "standard", [_hu(1, 0, "pinghu"), _end(ready=[None, None, None, None], flower_pigs=[1])],
        ("bad_record", 4, 1), None, 1,
    ),
    "pig_is_ready": (
        "standard", [_end(ready=[None, 2, None, None], flower_pigs=[1])], ("bad_record", 3, 1), None, 2,
    ),
    "ready_above_the_cap": (
        "chengdu", [_end(ready=[None, 6, None, None], flower_pigs=[])], ("fan_mismatch", 3, 1), 4, 6,
    ),
    "ready_missing": ("standard", [_end()], ("bad_record", 3, None), "ready", None),
    "ready_when_no_cha_jiao": (
        "standard",
        [_hu(1, 0, "pinghu"), _hu(2, 0, "pinghu"), _hu(3, 0, "pinghu"),
         _end("three_won", ready=[4, None, None, None], flower_pigs=[])],
        ("bad_record", 6, None), None, [4, None, None, None],
    ),
    "exposed_kong_without_from": ("standard", [_kong(1, "exposed"), _end(**READY)], ("bad_record", 3, 1), "from", None),
    "exposed_kong_from_itself": (
        "standard", [_kong(1, "exposed", **{"from": 1}), _end(**READY)], ("illegal_kong", 3, 1), "another seat", 1,
    ),
    "rob_without_added_kong": (
        "standard", [_kong(2), _hu(1, 2, "pinghu", "qiangganghu"), _end(**READY)], ("illegal_hu", 4, 1),
        "an added kong just before", 2,
    ),
    "kong_bloom_without_kong": (  # 杠上花 with no kong before: the win cannot be as written
        "standard", [_hu(1, None, "pinghu", "gangshanghua"), _end(**READY)], ("impossible_pattern", 3, 1),
        "the winner's kong just before", "gangshanghua",
    ),
    "kong_discard_without_kong": (
        "standard", [_hu(1, 2, "pinghu", "gangshangpao"), _end(**READY)], ("impossible_pattern", 3, 1),
        "the discarder's kong just before", "gangshangpao",
    ),
    "earthly_win_on_a_discard": (
        "standard", [_hu(1, 2, "dihu"), _end(**READY)], ("impossible_pattern", 3, 1), "a self-draw", "dihu",
    ),
    "earthly_win_of_the_dealer": (
        "standard", [_hu(0, None, "dihu"), _end(**READY)], ("impossible_pattern", 3, 0), "a non-dealer", "dihu",
    ),
    "heavenly_win_after_a_kong": (
        "standard", [_kong(0), _hu(0, None, "tianhu"), _end(**READY)], ("impossible_pattern", 4, 0),
        "the deal's first move", "tianhu",
    ),
    "menqing_after_an_exposed_kong": (  # 门清 scored, but the winner's 直杠 is on the sheet
        MENQING_ZHONGZHANG, [_kong(1, "exposed", **{"from": 2}), _hu(1, 0, "pinghu", "menqing"), _end(**READY)],
        ("impossible_pattern", 4, 1), "no exposed or added kong of the winner", "menqing",
    ),
    "zhongzhang_after_a_kong_of_nines": (  # 中张 scored, but the winner's 暗杠 is of 9s
        MENQING_ZHONGZHANG, [_kong(1, tile="9s"), _hu(1, 0, "pinghu", "zhongzhang"), _end(**READY)],
        ("impossible_pattern", 4, 1), "no kong of 1 or 9 by the winner", "zhongzhang",
    ),
    "earthly_win_after_a_win_in_bloody_flow": (  # 血流成河: seat 1 wins, then claims 地胡
        '{"preset": "standard", "end_condition": "bloody_flow"}',
        [_hu(1, 0, "pinghu"), _hu(1, None, "dihu"), _end(**READY)],
        ("impossible_pattern", 4, 1), "a first win", "dihu",
    ),
    "self_draw_fan_missing_under_add_fan": (
        '{"preset": "standard", "self_draw_bonus": "add_fan"}', [_hu(1, None, "pinghu"), _end(**READY)],
        ("fan_mismatch", 3, 1), ["pinghu", "zimo"], ["pinghu"],
    ),
    "recorded_fan": ("standard", [_hu(1, 0, "qingyise", fan=4), _end(**READY)], ("fan_mismatch", 3, 1), 3, 4),
    "win_deltas": (
        "standard", [_hu(1, 0, "qingyise", deltas=[-3, 3, 0, 0]), _end(**READY)], ("payment_mismatch", 3, 1),
        [-4, 4, 0, 0], [-3, 3, 0, 0],
    ),
    "kong_deltas": (
        "standard", [_kong(1, deltas=[-1, 3, -1, -1]), _end(**READY)], ("payment_mismatch", 3, 1),
        [-2, 6, -2, -2], [-1, 3, -1, -1],
    ),
    "settlement": (
        "standard", [_end(ready=[1, None, None, None], flower_pigs=[], settlement=[2, -1, -1, 0])],
        ("payment_mismatch", 3, None), [3, -1, -1, -1], [2, -1, -1, 0],
    ),
    "scores": (
        "standard", [_hu(1, 0, "pinghu"), _end(scores=[0, 0, 0, 0], **READY)], ("score_mismatch", 4, None),
        [-1, 1, 0, 0], [0, 0, 0, 0],
    ),
    "end_reason": (
        "standard", [_hu(1, 0, "pinghu"), _end("three_won")], ("wrong_end", 4, None), "wall_exhausted", "three_won",
    ),
    "tile_event_in_a_sheet": (
        "standard", [{"type": "discard", "seat": 0, "tile": "5m"}, _end(**READY)], ("bad_record", 3, 0), None, None,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_each_sheet_consistency_check_is_a_finding(tmp_path: Path, name: str) -> None:
    rules, events, (code, line, seat), expected, recorded = CHECKS[name]
    report = _validate(tmp_path, rules, [_deal(), *events])
    findings = [f for f in report.all_findings() if (f.code, f.line, f.seat) == (code, line, seat)]
    assert findings, [(f.code, f.line, f.seat, f.message) for f in report.all_findings()]
    finding = findings[0]
    assert (finding.expected, finding.recorded) == (expected, recorded)
    assert finding.rule is not None or code in ("score_mismatch", "wrong_end", "out_of_turn", "bad_record")
    assert finding.message and finding.message_zh


def test_validate_json_carries_record_and_chinese_messages(tmp_path: Path) -> None:
    rules, events, *_ = CHECKS["win_deltas"]
    out = _validate(tmp_path, rules, [_deal(), *events]).to_json()
    (deal,) = out["deals"]
    assert deal["record"] == "sheet"
    assert all(f["message_zh"] for f in deal["findings"])
    assert deal["computed"]["wins"][0]["tile"] is None  # the sheet names no tile


# ------------------------------------------------------------------ mixed sessions, ingest
def _mixed_session(preset: str, deals: int, seed: int) -> list[dict[str, Any]]:
    """A session whose even deals are tiles and odd deals their sheets (claims filled in)."""
    rules = load_rules(preset)
    rng = random.Random(seed)
    styles = [STYLES[k % len(STYLES)] for k in range(4)]
    start = SessionStart("mixed", ("Ann", "Bo", "Chen", "Du")[: rules.seats], rules=preset, base=1)
    rows: list[dict[str, Any]] = [event_json(start)]
    totals = [0] * rules.seats
    for index in range(deals):
        begin, events, end, _ = simulate_deal(rng, f"mixed-{index}", index % rules.seats, rules, styles)
        assert end.scores is not None
        totals = [a + b for a, b in zip(totals, end.scores, strict=True)]
        if index % 2:
            sheet = sheet_version(begin, events, end, rules, claims=True)
            rows += [sheet_json(sheet.start), *(sheet_json(e) for e in sheet.events), sheet_json(sheet.end)]
        else:
            rows += [event_json(begin), *(event_json(e) for e in events), event_json(end)]
    rows.append(event_json(SessionEnd(tuple(totals))))
    return rows


@pytest.mark.parametrize("preset", REPLAYED)
def test_mixed_session_validates_with_its_totals(tmp_path: Path, preset: str) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in _mixed_session(preset, 12, 3)))
    report = validate_paths([path])
    assert [f.message for f in report.all_findings()] == []
    records = [d.to_json().get("record", "tiles") for d in report.deals]
    assert records == ["tiles", "sheet"] * 6
    totals = report.sessions[0].totals
    assert totals is not None and sum(totals) == 0


def test_mixed_session_with_a_wrong_total_is_found(tmp_path: Path) -> None:
    rows = _mixed_session("standard", 4, 5)
    rows[-1]["totals"] = [t + d for t, d in zip(rows[-1]["totals"], [1, -1, 0, 0], strict=True)]
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    findings = list(validate_paths([path]).all_findings())
    assert [f.code for f in findings] == ["score_mismatch"]
    assert (
        findings[0].message.startswith("the session's totals are the sum")
        and "本场总分" in findings[0].message_zh
    )


def test_ingest_stores_sheet_deals_beside_tile_deals(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in _mixed_session("chengdu", 6, 9))
    )
    warehouse = tmp_path / "wh"
    summary = ingest([path], warehouse, workers=0)
    assert summary.read == 6
    deals = read_table(warehouse, "deals").to_pylist()
    assert sorted((d["deal_id"], d["status"]) for d in deals) == [(f"mixed-{i}", "ok") for i in range(6)]
    ledger = read_table(warehouse, "ledger").to_pylist()
    sheet_rows = [row for row in ledger if row["deal_id"] == "mixed-1"]
    scores = next(d["scores"] for d in deals if d["deal_id"] == "mixed-1")
    assert (
        sheet_rows
        and sum(r["amount"] for r in sheet_rows if r["payee"] == 0)
        - sum(r["amount"] for r in sheet_rows if r["payer"] == 0)
        == scores[0]
    )


# ------------------------------------------------------------------ the differential
DEALS = int(os.environ.get("CHUANMA_SHEET_DEALS", "200"))
VARIANTS: list[str | dict[str, Any]] = [
    *REPLAYED,
    {
        "preset": "standard",
        "self_draw_bonus": "add_fan",
        "kong_bloom_after_exposed": "discard",
        "haidi": True,
    },
    {"preset": "chengdu", "end_condition": "first_hu", "kong_bloom_after_exposed": "discard"},
    {"preset": "online", "multiple_hu": False, "no_ting_pays": "min", "dead_wait_counts": False},
    {"preset": "standard", "kong_discard_transfer": False, "max_fan": 3, "exposed_kong_others": 1},
]


def _priced(report: Any) -> tuple[Any, ...]:
    ledger = [(t.reason, t.payer, t.payee, t.amount, t.line) for t in report.ledger]
    wins = [(w.seat, w.from_seat, w.result, w.kind, w.deltas) for w in report.wins]
    kongs = [(k.seat, k.kind, k.line, k.deltas, k.robbed) for k in report.kongs]
    return ledger, wins, kongs, report.scores, report.settlement, report.end_reason


@pytest.mark.parametrize(
    "spec", VARIANTS, ids=lambda s: s if isinstance(s, str) else "-".join(map(str, s.values()))
)
def test_same_deal_as_tiles_and_as_sheet_gives_the_same_payments(spec: str | dict[str, Any]) -> None:
    rules = load_rules(spec)
    rng = random.Random(2026)
    deals = DEALS if isinstance(spec, str) else max(DEALS // 2, 50)
    kinds: set[str] = set()
    for index in range(deals):
        styles = [STYLES[(index + k) % len(STYLES)] for k in range(4)]
        start, events, end, _ = simulate_deal(rng, f"diff-{index}", index % rules.seats, rules, styles)
        tiles = replay_deal(start, events, end, rules)
        sheet = sheet_version(start, events, end, rules)  # facts only, no recorded claims
        audited = replay_deal(sheet.start, [], sheet.end, rules, ReplayOptions(sheet_events=sheet.events))
        assert tiles.findings == [] and audited.findings == [], (index, [f.message for f in audited.findings])
        assert _priced(audited) == _priced(tiles), index
        kinds |= {w.kind for w in tiles.wins} | {t.reason for t in tiles.ledger}
    if isinstance(spec, str) and deals >= 200:  # the deals cover what the sheet must price
        wanted = {"kong_discard", "self_draw", "discard", "no_ting"}
        wanted |= {"kong_transfer"} if rules.kong_discard_transfer is True else set()
        wanted |= {"tax_refund"} if rules.tax_refund else set()  # novikov has neither
        assert wanted <= kinds


# ------------------------------------------------------------------ the CLI
def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("chuanma")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "dashboard.cli"]
    return subprocess.run(
        [*command, *args], capture_output=True, text=True, encoding="utf-8", timeout=120, check=False
    )


def test_cli_validate_and_replay_a_sheet(tmp_path: Path) -> None:
    rules, lines, net = GOLDEN["chengdu_multiple_hu_on_kong_discard"]
    path = _write(tmp_path, rules, lines, totals=net)
    done = _cli("validate", "--json", str(path))
    assert done.returncode == 0, done.stderr
    (deal,) = json.loads(done.stdout)["deals"]
    assert deal["record"] == "sheet" and deal["computed"]["scores"] == net
    shown = _cli("replay", str(path), "--deal", "d1")
    assert shown.returncode == 0, shown.stderr
    # a sheet's seats by name, counted 1-4 as a sheet counts them
    players = json.loads(path.read_text(encoding="utf-8").splitlines()[0])["players"]
    assert "seats: " + ", ".join(f"{i} {name}" for i, name in enumerate(players, 1)) in shown.stdout
    kong, first, third = f"{players[1]} (seat 2)", f"{players[0]} (seat 1)", f"{players[2]} (seat 3)"
    assert f"pay: {kong} -> {first} 6 (呼叫转移 杠上炮 kong transfer)" in shown.stdout
    assert f"pay: {kong} -> {third} 6 (呼叫转移 杠上炮 kong transfer)" in shown.stdout
    assert f"net [{' '.join(f'{s:+d}' for s in net)}]; ok" in shown.stdout


def test_reader_explains_bad_sheet_lines_and_keeps_tile_deals_strict(tmp_path: Path) -> None:
    lines = [
        _deal(),
        {"type": "hu", "seat": 1, "from": 0},  # no patterns
        {"type": "kong", "seat": 1, "kind": "concealed", "colour": "red"},  # an unknown field
        _end(**READY),
        {"type": "deal", "deal_id": "t1", "dealer": 0, "hands": ["1m"] * 4},
        {"type": "kong", "seat": 1, "kind": "concealed"},  # a sheet kong inside a tile deal: no tile
        _end("wall_exhausted"),
    ]
    report = _validate(tmp_path, "standard", lines)
    sheet, tiles = report.deals
    (missing,) = [f for f in sheet.findings if f.line == 3]
    assert missing.code == "bad_record" and "'patterns'" in missing.message
    assert [(w.code, w.line) for w in sheet.warnings] == [("unknown_field", 4)]
    assert sheet.kongs and sheet.kongs[0].deltas == (-2, 6, -2, -2)
    assert any(f.code == "bad_record" and f.line == 7 and "'tile'" in f.message for f in tiles.findings)
