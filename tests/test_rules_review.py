"""An adversarial review of the deal engine against docs/rules.md: small hand-made deals,
each at a corner of a rule or where two rules meet, with the expected values worked out
by hand in the comments (multiplier = 2^(fan-1)). Every test cites the docs/rules.md section it
checks.

Short deals are played on :class:`engine.deal.Deal` directly; deals that must empty the
55-tile wall are written with the golden builder (``tests/golden/build_golden.py``, its
tsumogiri filler) and validated like a log.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from test_deal_invariants import tiles_accounted

from engine.deal import Deal, IllegalEvent
from engine.events import DealStart, Discard, Draw, Exchange, Finding, Hu, Kong, PlayEvent, Pong, Void
from engine.rules import load_rules
from engine.tiles import parse_tile, parse_tiles
from ingest.logs.reader import read_lines
from ingest.replay.validate import ValidationReport, validate_log

GOLDEN = Path(__file__).parent / "golden"


@cache
def builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_golden", GOLDEN / "build_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def validate(log: Any) -> ValidationReport:
    return validate_log(read_lines(log.text().splitlines(), "review.jsonl"))


def event(text: str, line: int) -> PlayEvent:
    """``"draw 1 5p"``, ``"discard 0 3s"``, ``"pong 2 8p"``, ``"kong 1 5s added"``,
    ``"hu 3 5p 2"`` (from seat 2) or ``"hu 3 5p -"`` (self-drawn)."""
    kind, seat_text, tile_text, *rest = text.split()
    seat, tile = int(seat_text), parse_tile(tile_text)
    if kind == "draw":
        return Draw(seat, tile, line=line)
    if kind == "discard":
        return Discard(seat, tile, line=line)
    if kind == "pong":
        return Pong(seat, tile, line=line)
    if kind == "kong":
        return Kong(seat, tile, rest[0], line=line)  # type: ignore[arg-type]
    assert kind == "hu", text
    return Hu(seat, tile, None if rest[0] == "-" else int(rest[0]), line=line)


def play(hands: Sequence[str], events: Sequence[str], rules: str | dict[str, Any] = "standard") -> Deal:
    """A deal with no recorded wall, dealer 0, the events applied in order (line 2 on)."""
    start = DealStart("review", 0, tuple(tuple(parse_tiles(hand)) for hand in hands), line=1)
    deal = Deal(start, load_rules(rules))
    for line, text in enumerate(events, 2):
        deal.apply(event(text, line))
    return deal


# ----------------------------------------------------------------------------- 海底
# Seats 0 and 1 never get ready (odd ranks in two suits, at most five pairs); seat 2
# holds 22446688m 2458p 8p (five pairs, no set: never ready) and a pair of 8p to pong;
# seat 3 (123456789m 1235p) waits on 5p alone. All four 5p are in the hands, so the
# filler never throws one, and one 8p is kept back to be the wall's last tile.
HAIDI_PONG_HANDS = ["355799p11355799s", "1335779m133779s", "22446688m24588p", "123456789m1235p"]


def test_a_discard_after_a_pong_of_the_last_tile_is_no_haidi() -> None:
    # docs/rules.md section 4, extras: "`haidi` 海底: win on the wall's last tile, drawn or discarded".
    # Seat 3 draws the last tile (8p) and throws it; seat 2 pongs it and throws 5p; seat 3
    # wins the 5p. That 5p is not the wall's last tile: 平胡 1 fan, x1 from seat 2, not
    # 平胡 + 海底 = 2 fan. The wall is empty, so 查叫 follows: seats 0, 1, 2 are neither
    # ready nor 花猪 (two suits each) and made no kong: nothing to settle.
    log = builder().Log("haidi-pong")
    log.session("review-haidi-pong", {"preset": "standard", "haidi": True})
    deal = log.deal("haidi-pong-1", HAIDI_PONG_HANDS)
    deal.discard(0, "3p")
    deal.filler([1, 2, 3, 0], 54, keep="8p")
    deal.turn(3, "8p")  # the wall's last tile, thrown
    deal.pong(2, "8p")
    deal.discard(2, "5p")
    deal.hu(3, "5p", 2, 1, ["pinghu"], [0, 0, -1, 1])
    deal.end("wall_exhausted", [0, 0, 0, 0], [0, 0, -1, 1])
    log.session_end([0, 0, -1, 1])
    report = validate(log)
    assert report.ok, [f.message for f in report.all_findings()]


# ----------------------------------------------------------------------------- 抢杠胡
ROB_HANDS = ["5s11m2m567m1p668899s", "1155s12377889p9m", "123456789p4677s", "123456789m3477s"]
ROB_EVENTS = [
    "discard 0 5s", "pong 1 5s", "discard 1 9m",
    "draw 2 3m", "discard 2 3m", "draw 3 4m", "discard 3 4m", "draw 0 8m", "discard 0 8m",
    "draw 1 5s", "kong 1 5s added",
]  # fmt: skip


def test_two_robbers_of_one_added_kong() -> None:
    # docs/rules.md section 2: only an added kong can be robbed; the robbed kong is void and earns
    # nothing; each rob is paid like a discard win by the konger; with several winners
    # the next draw is after the winner furthest from the konger (seat 3 of 2 and 3 after
    # seat 1), so seat 0. Seat 2 (123456789p 46s 77s) and seat 3 (123456789m 34s 77s)
    # both win 5s: 平胡 1 + 抢杠胡 1 = 2 fan, x2 from seat 1 each.
    deal = play(ROB_HANDS, [*ROB_EVENTS, "hu 2 5s 1", "hu 3 5s 1"])
    assert [(w.seat, w.kind, w.result.fan, sorted(w.result.patterns), w.deltas) for w in deal.wins] == [
        (2, "rob", 2, ["pinghu", "qiangganghu"], (0, -2, 2, 0)),
        (3, "rob", 2, ["pinghu", "qiangganghu"], (0, -2, 0, 2)),
    ]
    assert [(k.seat, k.kind, k.deltas, k.robbed) for k in deal.kongs] == [(1, "added", (0, 0, 0, 0), True)]
    assert deal.next_drawer() == 0
    deal.apply(event("draw 0 1s", 20))
    assert [(m.kind, m.tile) for m in deal.melds[1]] == [("pong", parse_tile("5s"))]  # the pong stands
    assert tiles_accounted(deal) == 108


def test_exposed_kong_others_pay_only_while_still_in() -> None:
    # docs/rules.md section 5: "each other seat still in pays exposed_kong_others (家家有)". Seat 1 wins
    # seat 0's 5p and leaves; seat 3 then 直杠s seat 2's 5s: seat 2 pays 1 (discarder),
    # seat 0 pays 1 (家家有), seat 1 nothing -> (-1, 0, -1, +2).
    hands = ["179m45p113346799s", "123456789m4699p", "2468m2468p2468s3s", "1122m337788p555s"]
    events = ["discard 0 5p", "hu 1 5p 0", "draw 2 5s", "discard 2 5s", "kong 3 5s exposed"]
    deal = play(hands, events, {"preset": "standard", "exposed_kong_others": 1})
    assert [(k.seat, k.kind, k.deltas) for k in deal.kongs] == [(3, "exposed", (-1, 0, -1, 2))]


# ----------------------------------------------------------------------------- messages
# docs/report.md, a finding: its message "says in plain words what is
# wrong and which rule says so"; where a rule decides it, the message names the rule in
# Chinese and in English. Each case: hands, events (the last one is refused), rules and
# the words its message must hold.
VOID_HANDS = ["9m123456789s4699p", "1m34678p1112229s", "2m33355777p6888s", "1133557799m345s"]
MULTI_HANDS = ["179m45p113346799s", "123456789m4699p", "5566p222555888s", "1122335778899p"]
EXCHANGE_HANDS = ["1133557799m666s5s", "123456789m7s159p", "111222p5599s467s", "1112334488s888p"]
MESSAGE_CASES: dict[str, tuple[list[str], list[str], str | dict[str, Any], tuple[str, ...]]] = {
    # docs/rules.md section 3, void_declaration: each seat declares a void suit (once)
    "void twice": (VOID_HANDS, ["void 0 m", "void 0 p"], "online", ("定缺", "void suit")),
    # docs/rules.md section 3: 换三张 comes "after the deal and before 定缺"
    "void before the exchange": (
        VOID_HANDS,
        ["void 0 m"],
        {"preset": "online", "exchange_three": True},
        ("定缺", "void suit", "换三张"),
    ),
    # docs/rules.md section 3, exchange_three: "every seat passes three tiles of one suit"
    "exchange mixed suits": (
        EXCHANGE_HANDS,
        ["exchange 666s 7s15p 467s 888p"],
        {"preset": "standard", "exchange_three": True},
        ("换三张", "exchange"),
    ),
    # docs/rules.md section 2: "hu beats pong and kong"
    "pong of a won discard": (
        MULTI_HANDS,
        ["discard 0 5p", "hu 1 5p 0", "pong 2 5p"],
        "chengdu",
        ("胡", "碰", "pong"),
    ),
    "kong of a won discard": (
        MULTI_HANDS,
        ["discard 0 5p", "hu 1 5p 0", "kong 2 5p exposed"],
        "chengdu",
        ("胡", "杠", "kong"),
    ),
    # docs/rules.md section 3 / 5: a self-drawn win (自摸) is on the tile the seat just drew
    "self-draw without a draw": (
        MULTI_HANDS,
        ["discard 0 5p", "pong 2 5p", "hu 2 8s -"],
        "chengdu",
        ("自摸", "self-draw"),
    ),
    "self-draw on another tile": (
        MULTI_HANDS,
        ["discard 0 9m", "draw 1 8s", "hu 1 4p -"],
        "chengdu",
        ("自摸", "self-draw"),
    ),
    # docs/rules.md section 5: a discard win (点炮) is on another seat's open discard
    "discard win on a tile not open": (
        MULTI_HANDS,
        ["discard 0 5p", "hu 1 4p 0"],
        "chengdu",
        ("点炮", "discard win"),
    ),
}


def special(text: str, line: int) -> PlayEvent:
    kind, *rest = text.split()
    if kind == "void":
        return Void(int(rest[0]), "mps".index(rest[1]), line=line)
    if kind == "exchange":
        return Exchange("clockwise", tuple(tuple(parse_tiles(given)) for given in rest), line=line)
    return event(text, line)


@pytest.mark.parametrize("name", sorted(MESSAGE_CASES))
def test_a_refused_event_names_its_rule_in_chinese_and_english(name: str) -> None:
    hands, events, rules, words = MESSAGE_CASES[name]
    start = DealStart("review", 0, tuple(tuple(parse_tiles(hand)) for hand in hands), line=1)
    deal = Deal(start, load_rules(rules))
    for line, text in enumerate(events[:-1], 2):
        deal.apply(special(text, line))
    with pytest.raises(IllegalEvent) as refused:
        deal.apply(special(events[-1], len(events) + 1))
    for word in words:
        assert word in refused.value.message, refused.value.message


def golden_lines(name: str) -> list[str]:
    return (GOLDEN / name).read_text(encoding="utf-8").splitlines()


def findings(lines: list[str]) -> list[Finding]:
    return list(validate_log(read_lines(lines, "review.jsonl")).all_findings())


def test_a_draw_from_the_empty_wall_names_the_rule() -> None:
    # docs/rules.md section 1 (55 tiles stay in the wall) and 6 (流局, the wall exhausted)
    lines = golden_lines("last_four.jsonl")
    lines.insert(len(lines) - 2, json.dumps({"type": "draw", "seat": 2, "tile": "9s"}))
    (finding,) = findings(lines)
    assert finding.code == "wall_mismatch"
    assert "流局" in finding.message and "wall" in finding.message, finding.message


def test_an_event_after_the_end_names_the_end_condition() -> None:
    # docs/rules.md section 3, end_condition: 血战到底 ends when three seats have won
    lines = golden_lines("multiple_hu.jsonl")
    lines.insert(len(lines) - 2, json.dumps({"type": "discard", "seat": 0, "tile": "1m"}))
    (finding,) = findings(lines)
    assert finding.code == "out_of_turn"
    assert "血战到底" in finding.message and "three" in finding.message, finding.message


def test_a_capped_fan_names_the_cap_in_chinese_and_english() -> None:
    # docs/rules.md section 4: "`max_fan` caps the total fan of a win" (seed 002: 封顶); the golden
    # 清七对 (5 fan) is capped at 4 under chengdu
    lines = golden_lines("multiple_hu.jsonl")
    hu = json.loads(lines[5])
    assert hu["fan"] == 4
    lines[5] = json.dumps({**hu, "fan": 5})
    (finding,) = findings(lines)
    assert finding.code == "fan_mismatch"
    assert "封顶" in finding.message and "max_fan" in finding.message, finding.message
