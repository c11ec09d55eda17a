"""Simulated 血流成河 (``end_condition: bloody_flow``) deals: winners play on, hands fixed.

The simulator's bots for a seat that has won throw the tile they draw unless it wins, so a
seat may win several times and every deal runs to the empty wall. Each deal is replayed
with an ``on_step`` hook (the pattern of tests/test_deal_invariants.py) and the sessions are
written as log v1 and validated with no findings.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_deal_invariants import config_id, tiles_accounted

from engine.deal import Deal
from engine.events import DealEnd, Event, PlayEvent, SessionEnd, SessionStart
from engine.replay import FindingSink, ReplayOptions, replay_deal
from engine.rules import load_rules
from engine.settlement import deltas
from engine.tiles import COPIES, NUM_KINDS
from ingest.logs.writer import write_log
from ingest.replay.files import read_log
from ingest.replay.validate import validate_log
from ingest.simulator.simulate import STYLES, ClubPlan, simulate_club, simulate_deal

BLOODY_FLOW: list[dict[str, Any]] = [
    {"preset": "standard", "end_condition": "bloody_flow"},
    {"preset": "chengdu", "end_condition": "bloody_flow"},
]


def _check_step(event: PlayEvent | DealEnd, deal: Deal, sink: FindingSink) -> None:
    """108 tiles (laid winning tiles counted), no fifth copy, nobody leaves, points sum to 0."""
    assert not sink.findings, [f.message for f in sink.findings]
    assert tiles_accounted(deal) == 108, event
    outside = [0] * NUM_KINDS
    for seat in range(4):
        for tile, count in enumerate(deal.held(seat)):
            outside[tile] += count
        for tile in (*deal.discards[seat], *deal.laid[seat]):
            outside[tile] += 1
    assert max(outside) <= COPIES, event
    assert not any(deal.left)
    assert sum(deltas(deal.ledger)) == 0


def _play(rules_config: dict[str, Any], seed: int, count: int) -> list[Deal]:
    rules = load_rules(rules_config)
    rng = random.Random(seed)
    played: list[Deal] = []
    for index in range(count):
        styles = [STYLES[(index + seat) % len(STYLES)] for seat in range(4)]
        start, events, end, deal = simulate_deal(rng, f"bf-{index:03d}", index % 4, rules, styles)
        assert end.reason == "wall_exhausted" and deal.wall_left == 0
        assert end.scores is not None and sum(end.scores) == 0
        assert end.settlement is not None and sum(end.settlement) == 0
        report = replay_deal(start, events, end, rules, ReplayOptions(on_step=_check_step, keep_state=True))
        assert report.status == "ok", [f.message for f in report.findings]
        assert report.scores == end.scores
        played.append(deal)
    return played


@pytest.mark.parametrize("config", BLOODY_FLOW, ids=config_id)
def test_simulated_bloody_flow_sessions_validate(config: dict[str, Any], tmp_path: Path) -> None:
    plan = ClubPlan(players=8, sessions=3, deals_per_session=6, rules=config, seed=26, club="xueliu")
    written: list[Event] = list(simulate_club(plan))
    path = tmp_path / "bloody_flow.jsonl"
    write_log(written, path)
    validation = validate_log(read_log(path))
    assert validation.ok, [(f.code, f.line, f.message) for f in validation.all_findings()][:5]
    assert len(validation.deals) == 18
    assert sum(isinstance(e, SessionStart) for e in written) == 3
    assert sum(isinstance(e, SessionEnd) for e in written) == 3
    ends = [e for e in written if isinstance(e, DealEnd)]
    assert {e.reason for e in ends} == {"wall_exhausted"}


@pytest.mark.parametrize("config", BLOODY_FLOW, ids=config_id)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_bloody_flow_invariants_over_seeds(config: dict[str, Any], seed: int) -> None:
    for deal in _play(config, seed, 4):
        assert all(deal.won[win.seat] for win in deal.wins) and not any(deal.left)


@pytest.mark.parametrize("config", BLOODY_FLOW, ids=config_id)
def test_a_winner_wins_again(config: dict[str, Any]) -> None:
    """Winners stay in and win again: across a batch some seat wins more than once."""
    deals = _play(config, 2026, 24)
    repeats = [d for d in deals if any([w.seat for w in d.wins].count(s) > 1 for s in range(4))]
    assert len(repeats) >= 3, [[w.seat for w in d.wins] for d in deals]
    assert any(len({w.seat for w in d.wins}) >= 2 for d in deals)
