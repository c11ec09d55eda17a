"""Any mutation of a valid log yields findings, never an exception.

The valid logs are golden logs and simulated deals with their recorded wall. A mutation
makes one real change: a tile changed, a line dropped, doubled or swapped with the next
(different) line, or a number changed. Validation must never raise, and must report a
finding unless the mutation can legitimately leave the log valid; each such case is
named in ``may_stay_valid_*`` with the reason, and for it only "no exception" is checked.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.events import Event, SessionEnd, SessionStart
from engine.rules import load_rules
from engine.tiles import parse_tiles, tile_name
from ingest.logs.reader import read_lines
from ingest.logs.writer import log_lines
from ingest.replay.validate import ValidationReport, validate_log
from ingest.simulator.simulate import STYLES, simulate_deal

GOLDEN = Path(__file__).parent / "golden"
TILES = [tile_name(t) for t in range(27)]
CLAIMS = ("deltas", "settlement", "scores", "totals")
NUMBERS = ("seat", "dealer", "from", "base", "fan", "dice", "t", *CLAIMS)

Lines = list[str]


def simulated(rules: str | dict[str, Any], seed: int, deals: int = 2) -> Lines:
    rule_set = load_rules(rules)
    rng = random.Random(seed)
    events: list[Event] = [SessionStart(f"sim-{seed}", ("A", "B", "C", "D"), rules=rules)]
    totals = [0, 0, 0, 0]
    for index in range(deals):
        start, played, end, _ = simulate_deal(rng, f"sim-{seed}-{index}", index % 4, rule_set, STYLES[index:])
        events += [start, *played, end]
        assert end.scores is not None
        totals = [a + b for a, b in zip(totals, end.scores, strict=True)]
    events.append(SessionEnd((totals[0], totals[1], totals[2], totals[3])))
    return list(log_lines(events))


def golden(name: str) -> Lines:
    return (GOLDEN / name).read_text(encoding="utf-8").splitlines()


BASES: dict[str, Lines] = {
    **{
        name: golden(name)
        for name in (
            "multiple_hu.jsonl",
            "kongs_standard.jsonl",
            "kongs_online.jsonl",
            "rob_kong.jsonl",
            "kong_bloom.jsonl",
            "kong_discard_transfer.jsonl",
            "tianhu_dihu.jsonl",
            "exchange_three.jsonl",
            "pass_rule.jsonl",
            "first_hu.jsonl",
            "last_four.jsonl",
        )
    },
    "simulated-standard": simulated("standard", 11),
    "simulated-online": simulated({"preset": "online", "exchange_three": True}, 12),
}


def validate(lines: Lines) -> ValidationReport:
    report = validate_log(read_lines(lines, "mutated.jsonl"))
    json.dumps(report.to_json(), ensure_ascii=False)  # the report itself must serialise
    return report


def events(lines: Lines) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines]


def test_the_bases_are_valid() -> None:
    for name, lines in BASES.items():
        assert validate(lines).ok, name


def check(mutated: Lines, may_stay_valid: bool, what: str) -> None:
    report = validate(mutated)  # never an exception
    if not may_stay_valid:
        assert not report.ok, f"no finding for {what}"


# The same examples on every run (derandomize); MUTATION_EXAMPLES=5000 for a deep run.
EXAMPLES = int(os.environ.get("MUTATION_EXAMPLES", "60"))
FAST = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
base_names = st.sampled_from(sorted(BASES))


# ----------------------------------------------------------------------------- a changed tile
def tile_places(parsed: list[dict[str, Any]]) -> list[tuple[int, str, int | None, int | None]]:
    """Every tile of the log: (line index, field, list index, tile index in it)."""
    places: list[tuple[int, str, int | None, int | None]] = []
    for index, event in enumerate(parsed):
        if "tile" in event:
            places.append((index, "tile", None, None))
        if event["type"] == "deal":
            for seat, hand in enumerate(event["hands"]):
                places += [(index, "hands", seat, j) for j in range(len(parse_tiles(hand)))]
            if "wall" in event:
                places += [(index, "wall", None, j) for j in range(len(parse_tiles(event["wall"])))]
        if event["type"] == "exchange":
            for seat, given in enumerate(event["tiles"]):
                places += [(index, "tiles", seat, j) for j in range(len(parse_tiles(given)))]
    return places


def walled(parsed: list[dict[str, Any]], index: int) -> bool:
    """Does the deal holding line ``index`` record its wall?"""
    for event in reversed(parsed[: index + 1]):
        if event["type"] == "deal":
            return "wall" in event
    return False


def may_stay_valid_tile(parsed: list[dict[str, Any]], index: int, field: str) -> bool:
    event = parsed[index]
    kind = event["type"]
    if field in ("hands", "wall") or kind == "draw":
        # With the wall recorded, hands + wall are exactly the 108 tiles, so a changed
        # hand or wall tile makes a fifth copy and a changed draw misses the wall. Without
        # a wall, a hand tile nobody plays, or a draw the seat then discards a held copy
        # of, is just another legal deal.
        return not walled(parsed, index)
    if kind == "pong" or (kind == "kong" and event["kind"] == "exposed"):
        return False  # must be the last discard
    if kind == "hu":
        if event["from"] is not None:
            return False  # must be the open discard or robbed kong
        before = parsed[index - 1]
        # a self-draw wins on the tile just drawn; 天胡 may name any of the dealer's tiles
        return not (before["type"] == "draw" and before["seat"] == event["seat"])
    # a different discard, exchange, concealed or added kong can be another legal play
    return True


@FAST
@given(st.data())
def test_a_changed_tile(data: st.DataObject) -> None:
    name = data.draw(base_names)
    lines = BASES[name]
    parsed = events(lines)
    index, field, outer, inner = data.draw(st.sampled_from(tile_places(parsed)))
    event = json.loads(lines[index])
    if field == "tile":
        old = event["tile"]
        event["tile"] = new = data.draw(st.sampled_from([t for t in TILES if t != old]))
    else:
        holder = event[field] if outer is None else event[field][outer]
        names = [tile_name(t) for t in parse_tiles(holder)]
        assert inner is not None
        old = names[inner]
        names[inner] = new = data.draw(st.sampled_from([t for t in TILES if t != old]))
        if outer is None:
            event[field] = names
        else:
            event[field][outer] = names
    mutated = [*lines[:index], json.dumps(event, ensure_ascii=False), *lines[index + 1 :]]
    check(mutated, may_stay_valid_tile(parsed, index, field), f"{name}:{index + 1} {field} {old}->{new}")


# ----------------------------------------------------------------------------- dropped, doubled, swapped
@FAST
@given(st.data())
def test_a_dropped_line(data: st.DataObject) -> None:
    name = data.draw(base_names)
    lines = BASES[name]
    index = data.draw(st.integers(0, len(lines) - 1))
    mutated = [*lines[:index], *lines[index + 1 :]]
    check(mutated, may_stay_valid_drop(events(lines), index), f"{name}: drop line {index + 1}")


def may_stay_valid_drop(parsed: list[dict[str, Any]], index: int) -> bool:
    kind = parsed[index]["type"]
    if kind == "session_end":
        return True  # optional: without it the totals are just not recorded
    # the discard after the wall's last draw, right before deal_end: a recorder may stop
    # after the last draw (docs/decisions.md; the drawn tile then counts as thrown, so
    # when the seat threw another tile its 查叫 may or may not change)
    before = parsed[index - 1]
    return (
        kind == "discard"
        and parsed[index + 1]["type"] == "deal_end"
        and (before["type"], before["seat"]) == ("draw", parsed[index]["seat"])
    )


@FAST
@given(st.data())
def test_a_doubled_line(data: st.DataObject) -> None:
    name = data.draw(base_names)
    lines = BASES[name]
    index = data.draw(st.integers(0, len(lines) - 1))
    kind = json.loads(lines[index])["type"]
    # a repeated session line opens an empty session (no deals, no end) before the real
    # one, which the log format allows; every other doubled line breaks the deal
    mutated = [*lines[: index + 1], lines[index], *lines[index + 1 :]]
    check(mutated, kind == "session", f"{name}: double line {index + 1}")


def may_stay_valid_swap(first: dict[str, Any], second: dict[str, Any]) -> bool:
    if first["type"] == second["type"] == "void":
        return True  # 定缺 declarations may come in any order
    # the winners of one discard (一炮多响) or of one robbed kong may be listed in any order
    return (
        first["type"] == second["type"] == "hu"
        and first["from"] is not None
        and (first["from"], first["tile"]) == (second["from"], second["tile"])
    )


@FAST
@given(st.data())
def test_swapped_lines(data: st.DataObject) -> None:
    name = data.draw(base_names)
    lines = BASES[name]
    different = [i for i in range(len(lines) - 1) if lines[i] != lines[i + 1]]
    index = data.draw(st.sampled_from(different))
    mutated = [*lines[:index], lines[index + 1], lines[index], *lines[index + 2 :]]
    parsed = events(lines)
    check(mutated, may_stay_valid_swap(parsed[index], parsed[index + 1]), f"{name}: swap {index + 1}")


# ----------------------------------------------------------------------------- a changed number
def number_places(parsed: list[dict[str, Any]]) -> list[tuple[int, str, int | None]]:
    places: list[tuple[int, str, int | None]] = []
    for index, event in enumerate(parsed):
        for key in NUMBERS:
            value = event.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                places.append((index, key, None))
            elif isinstance(value, list):
                places += [(index, key, i) for i, item in enumerate(value) if isinstance(item, int)]
    return places


def session_claims_all_zero(parsed: list[dict[str, Any]], index: int) -> bool:
    """Every recorded deltas/settlement/scores/totals of the session at ``index`` is 0."""
    for event in parsed[index + 1 :]:
        if event["type"] == "session":
            break
        if any(any(event.get(key) or []) for key in CLAIMS):
            return False
    return True


def may_stay_valid_number(parsed: list[dict[str, Any]], index: int, key: str) -> bool:
    if key in ("dice", "t"):
        return True  # recorded but never checked: the dice and the time play no part
    if key == "base":
        return session_claims_all_zero(parsed, index)  # all-zero claims scale to zero
    # seats, the dealer, the discarder, fan and every claimed point change something the
    # replay checks (turn order, hand sizes, the open tile, fan and payments)
    return False


@FAST
@given(st.data())
def test_a_changed_number(data: st.DataObject) -> None:
    name = data.draw(base_names)
    lines = BASES[name]
    parsed = events(lines)
    index, key, position = data.draw(st.sampled_from(number_places(parsed)))
    event = json.loads(lines[index])
    old = event[key] if position is None else event[key][position]
    new = data.draw(st.integers(-200, 200).filter(lambda n: n != old))
    if position is None:
        event[key] = new
    else:
        event[key][position] = new
    mutated = [*lines[:index], json.dumps(event, ensure_ascii=False), *lines[index + 1 :]]
    check(mutated, may_stay_valid_number(parsed, index, key), f"{name}:{index + 1} {key} {old}->{new}")
