"""The moves played in C (``ingest/replay/_moves.c``) against the same moves in Python
(``ingest/replay/fast_check.py``): the same report for every deal, tampered or not, under every
preset and the knobs the moves read; and the C moves take almost every clean deal (a
C half that always said "not here" would pass the differential tests but be useless)."""

from __future__ import annotations

import functools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.events import DealStart
from engine.replay import ReplayOptions
from engine.rules import load_rules
from ingest.logs.reader import read_text_bytes
from ingest.logs.records import DrawRec, HuRec, KongRec, PlayRecord, VoidRec
from ingest.logs.writer import log_lines
from ingest.replay import fast_plan
from ingest.replay.fast_check import fast_replay
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer

pytestmark = pytest.mark.skipif(
    not fast_plan.COMPILED, reason="the C moves are not built (or CHUANMA_PURE=1)"
)

#: preset, overrides: the knobs ``_moves.c`` reads, each turned away from its preset
VARIANTS = [
    ("standard", {}),
    ("chengdu", {}),
    ("online", {}),
    ("standard", {"void_declaration": "required", "void_discard_first": True}),
    ("standard", {"pass_rule": "same_tile"}),
    ("standard", {"pass_rule": "off", "multiple_hu": False}),
    ("standard", {"end_condition": "first_hu"}),
    ("standard", {"last_four_must_hu": True, "added_kong_same_turn_only": True}),
    ("standard", {"exchange_three": True}),
    ("standard", {"end_condition": "bloody_flow"}),
    ("chengdu", {"end_condition": "bloody_flow", "last_four_must_hu": True}),
    # the other tables (engine/table.py): the C moves take the table as arguments
    ("sanren", {}),
    ("duangouka", {}),
    ("sanren", {"end_condition": "bloody_flow", "pass_rule": "off"}),
    ("chengdu", {"seats": 2, "exchange_three": False}),
    ("online", {"seats": 3, "suits": "ms", "two_suit_void": True}),
    ("standard", {"hand_size": 10, "exchange_three": True}),
    ("chengdu", {"seats": 2, "suits": "s", "hand_size": 7, "exchange_three": False}),
]
#: the tables the C moves are handed in the tests below: (seats, tiles, wall, kinds) of a rule set
TABLES = [
    fast_plan.table_args(load_rules(spec))
    for spec in (
        "standard",
        "sanren",
        "duangouka",
        {"preset": "chengdu", "seats": 2, "exchange_three": False},
        {"preset": "chengdu", "seats": 2, "suits": "s", "hand_size": 7, "exchange_three": False},
    )
]


def spaced(line: str, index: int) -> str:
    """Every third line with a space after each comma: still valid, no longer the plain
    form, so its draw, discard or pong reaches the C moves as a decoded record."""
    return line.replace(",", ", ") if index % 3 == 0 else line


@pytest.mark.parametrize(("preset", "overrides"), VARIANTS)
@pytest.mark.parametrize("form", ["plain", "spaced"])
def test_c_moves_and_python_moves_give_the_same_report(
    preset: str, overrides: dict[str, object], form: str
) -> None:
    spec = {"preset": preset, **overrides}
    rules = load_rules(spec)
    plan = ClubPlan(sessions=12, deals_per_session=8, rules=spec, seed=5)
    lines = list(Tamperer(0.1, 5).lines(simulate_club(plan)))
    if form == "spaced":
        lines = [spaced(line, index) for index, line in enumerate(lines)]
    log = read_text_bytes("\n".join(lines).encode(), "t.jsonl")
    seen: Counter[str] = Counter()
    for session, deal in log.iter_deals():
        if deal.records is None or deal.findings:
            continue
        assert session.session is not None
        plan_out = fast_plan.plan_moves(deal.deal, deal.records, rules)
        seen["planned" if plan_out is not None else "not here"] += 1
        for keep_facts in (False, True):
            options = ReplayOptions(keep_state=keep_facts)
            by_c = fast_replay(deal.deal, deal.records, deal.end, rules, options)
            by_python = fast_replay(deal.deal, deal.records, deal.end, rules, options, c_moves=False)
            assert by_c == by_python, deal.deal.deal_id
            seen["clean" if by_c is not None else "handed off"] += keep_facts
    # 换三张 too: ingest/replay/fast_plan.py exchanges the tiles, the C moves play the rest
    assert seen["planned"] >= 0.8 * (seen["planned"] + seen["not here"]), seen
    assert seen["clean"] > 0, seen


#: records the C moves may be handed: play codes (also out of range), decoded records
#: with odd values, and types they do not take
odd_records = st.lists(
    st.integers(-(2**70), 2**70)
    | st.integers(0, 26 * 16 + 15)
    | st.builds(
        DrawRec, seat=st.integers(0, 3), tile=st.sampled_from(["1m", "9s", "0m", "5z", "", "55m", "5m\0"])
    )
    | st.builds(
        KongRec,
        seat=st.integers(0, 3),
        tile=st.just("5p"),
        kind=st.sampled_from(["exposed", "added", "concealed"]),
    )
    | st.builds(HuRec, seat=st.integers(0, 3), tile=st.just("5p"), from_=st.none() | st.integers(0, 3))
    | st.builds(VoidRec, seat=st.integers(0, 3), suit=st.sampled_from(["m", "p", "s"]))
    | st.just("not a record"),
    max_size=300,
)


@settings(max_examples=300, deadline=None)
@given(
    odd_records,
    st.integers(0, 3),
    st.lists(st.integers(0, 26), min_size=52, max_size=108),
    st.booleans(),
    st.integers(0, 1023),
    st.sampled_from(TABLES),
    st.integers(-1, 1),
)
def test_the_c_moves_take_any_records_without_harm(
    records: list[object],
    dealer: int,
    tiles: list[int],
    with_wall: bool,
    flags: int,
    table: tuple[int, int, int, int],
    off: int,
) -> None:
    """Whatever they are handed, at any table, the C moves answer a plan or "not here",
    never crash (``off``: a hand or the wall one tile short or long)."""
    seats, size, wall_size, kinds = table
    hands = tuple(tuple(tiles[seat * size : seat * size + size + off]) for seat in range(seats))
    wall = tuple(tiles[-wall_size - off :]) if with_wall and wall_size + off > 0 else None
    start = DealStart("d", dealer, hands, wall, line=1)
    plan = fast_plan._MOVES.replay_moves(
        records, 2, dealer, start.hands, start.wall, flags, seats, size, wall_size, kinds
    )
    assert plan is None or (isinstance(plan, tuple) and len(plan) == 3)


@functools.cache
def simulated_deals() -> list[tuple[DealStart, list[PlayRecord], str]]:
    out = []
    for rules in ("standard", "sanren", "duangouka"):
        plan = ClubPlan(sessions=4, deals_per_session=8, rules=rules, seed=9)
        log = read_text_bytes("\n".join(log_lines(simulate_club(plan))).encode(), "s.jsonl")
        out += [(deal.deal, deal.records, rules) for _, deal in log.iter_deals() if deal.records is not None]
    return out


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_c_moves_take_a_damaged_deal_without_harm(data: st.DataObject) -> None:
    """A real deal's records with a few dropped, doubled or replaced: deep into the moves."""
    start, records, rules = data.draw(st.sampled_from(simulated_deals()))
    damaged = list(records)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(damaged) - 1))
        how = data.draw(st.sampled_from(["drop", "double", "replace"]))
        if how == "drop":
            del damaged[at]
        elif how == "double":
            damaged.insert(at, damaged[at])
        else:
            damaged[at] = data.draw(st.integers(0, 26 * 16 + 15))
    flags = data.draw(st.integers(0, 1023))
    seats, size, wall_size, kinds = fast_plan.table_args(load_rules(rules))
    plan = fast_plan._MOVES.replay_moves(
        damaged, start.line + 1, start.dealer, start.hands, start.wall, flags, seats, size, wall_size, kinds
    )
    assert plan is None or (isinstance(plan, tuple) and len(plan) == 3)
