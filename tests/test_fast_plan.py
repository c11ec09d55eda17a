"""The moves played in C (``ingest/_moves.c``, issue 14) against the same moves in Python
(``ingest/fast_check.py``): the same report for every deal, tampered or not, under every
preset and the knobs the moves read; and the C moves take almost every clean deal (a
C half that always said "not here" would pass the differential tests but be useless)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.rules import load_rules
from ingest import fast_plan
from ingest.fast_check import fast_replay
from ingest.reader import read_text_bytes
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
            by_c = fast_replay(deal.deal, deal.records, deal.end, rules, keep_facts=keep_facts)
            by_python = fast_replay(
                deal.deal, deal.records, deal.end, rules, keep_facts=keep_facts, c_moves=False
            )
            assert by_c == by_python, deal.deal.deal_id
            seen["clean" if by_c is not None else "handed off"] += keep_facts
    if rules.exchange_three:  # 换三张 is the engine's: neither fast path takes it
        assert seen["planned"] == seen["clean"] == 0, seen
    else:
        assert seen["planned"] >= 0.8 * (seen["planned"] + seen["not here"]), seen
        assert seen["clean"] > 0, seen
