"""Invariants of the deal state machine after every event, over simulated deals.

The simulator plays legal deals through the engine (fixed seeds, each preset and several
overrides). Each deal is then replayed from its events with an ``on_step`` hook that checks
the whole state after every event (Mortal's habit): all 108 tiles accounted for, no fifth
copy anywhere, hand sizes that add up, points that sum to zero. Finally every deal is
written as log v1, read back and validated: it must be ``ok``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine.deal import Deal, Phase
from engine.events import DealEnd, Event, PlayEvent, SessionEnd, SessionStart
from engine.replay import FindingSink, ReplayOptions, replay_deal
from engine.rules import load_rules
from engine.settlement import deltas
from engine.tiles import COPIES, NUM_KINDS
from ingest.logs.writer import write_log
from ingest.replay.files import read_log
from ingest.replay.validate import validate_log
from ingest.simulator.simulate import STYLES, simulate_deal

DEALS_PER_CONFIG = 36  # 11 configurations: about 400 deals

CONFIGS: list[str | dict[str, Any]] = [
    "standard",
    "chengdu",
    "online",
    {"preset": "standard", "exchange_three": True},
    {"preset": "online", "exchange_three": True, "last_four_must_hu": True},
    {"preset": "standard", "end_condition": "first_hu"},
    {"preset": "standard", "self_draw_bonus": "add_fan", "haidi": True, "max_fan": 5},
    {"preset": "chengdu", "kong_bloom_after_exposed": "discard", "added_kong_same_turn_only": False},
    {"preset": "standard", "pass_rule": "off", "multiple_hu": False},
    {"preset": "standard", "dead_wait_counts": False, "no_ting_pays": "min", "kong_discard_transfer": False},
    {"preset": "online", "pass_rule": "same_tile", "exposed_kong_others": 2, "flower_pig_payment": 8},
]


class Checker:
    """The ``on_step`` hook: asserts the invariants and counts what it saw."""

    def __init__(self) -> None:
        self.steps = 0
        self.phases: set[Phase] = set()

    def __call__(self, event: PlayEvent | DealEnd, deal: Deal, sink: FindingSink) -> None:
        self.steps += 1
        self.phases.add(deal.phase)
        assert not sink.findings, [f.message for f in sink.findings]
        # 108 tiles: hands, melds and the table, plus what is left in the wall
        assert tiles_accounted(deal) == 108, event
        outside = [0] * NUM_KINDS
        for seat in range(4):
            assert min(deal.hands[seat]) >= 0, (event, seat)
            held = deal.held(seat)
            for tile in range(NUM_KINDS):
                outside[tile] += held[tile]
            for tile in deal.discards[seat]:
                outside[tile] += 1
        assert max(outside) <= COPIES, event  # no fifth copy anywhere, in no hand
        assert sum(outside) + deal.wall_left == 108
        assert 0 <= deal.wall_left <= 55
        # hand sizes: 13 for every seat still in, 14 for the one seat about to act
        sizes = [sum(deal.hands[s]) + 3 * len(deal.melds[s]) for s in deal.in_play]
        assert all(size in (13, 14) for size in sizes), (event, sizes)
        assert sizes.count(14) <= 1, (event, sizes)
        # points: every transfer moves points, so the ledger sums to zero
        assert sum(deltas(deal.ledger)) == 0
        assert all(t.amount > 0 and t.payer != t.payee for t in deal.ledger)
        for win in deal.wins:
            assert sum(win.deltas) == 0 and win.deltas[win.seat] > 0
        for kong in deal.kongs:
            assert sum(kong.deltas) == 0 and kong.deltas[kong.seat] >= 0
        assert len(deal.wins) <= 3


def tiles_accounted(deal: Deal) -> int:
    """Hands, melds and the table, plus what is left in the wall: 108 at every step."""
    outside = sum(sum(deal.held(seat)) + len(deal.discards[seat]) + len(deal.laid[seat]) for seat in range(4))
    return outside + deal.wall_left


def config_id(config: str | dict[str, Any]) -> str:
    return config if isinstance(config, str) else load_rules(config).name


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_invariants_after_every_event(config: str | dict[str, Any], tmp_path: Path) -> None:
    rules = load_rules(config)
    rng = random.Random(f"invariants-{rules.name}")
    base = 2 if "online" in rules.name else 1
    session = SessionStart("inv", ("A", "B", "C", "D"), rules=config, base=base)
    written: list[Event] = [session]
    totals = [0, 0, 0, 0]
    checker = Checker()
    ends: set[str] = set()
    for index in range(DEALS_PER_CONFIG):
        styles = [STYLES[(index + seat) % len(STYLES)] for seat in range(4)]
        start, events, end, played = simulate_deal(rng, f"inv-{index:03d}", index % 4, rules, styles, base)
        assert played.is_over() and end.reason == played.end_reason
        assert end.scores is not None and sum(end.scores) == 0
        report = replay_deal(
            start, events, end, rules, ReplayOptions(base=base, on_step=checker, keep_state=True)
        )
        assert report.status == "ok", [f.message for f in report.findings]
        assert report.scores == end.scores and report.deal is not None
        assert report.deal.is_over() and report.deal.end_reason == end.reason
        if rules.end_condition == "first_hu":
            assert len(report.wins) >= 1 or end.reason == "wall_exhausted"
        elif end.reason == "three_won":
            assert len({w.seat for w in report.wins}) == 3
        ends.add(end.reason)
        written += [start, *events, end]
        totals = [a + b for a, b in zip(totals, end.scores, strict=True)]
    written.append(SessionEnd((totals[0], totals[1], totals[2], totals[3])))
    assert checker.steps > 20 * DEALS_PER_CONFIG
    assert ends <= {"three_won", "wall_exhausted", "first_hu"}
    assert {Phase.ACT, Phase.CLAIM, Phase.ENDED} <= checker.phases
    # written as log v1 and read back, every deal validates ok
    path = tmp_path / "simulated.jsonl.gz"
    write_log(written, path)
    validation = validate_log(read_log(path))
    assert validation.ok, [(f.code, f.line, f.message) for f in validation.all_findings()][:5]
    assert [d.deal_id for d in validation.deals] == [f"inv-{i:03d}" for i in range(DEALS_PER_CONFIG)]
    assert validation.sessions[0].totals == tuple(totals)


def test_the_simulated_deals_cover_the_rules() -> None:
    """Across the standard deals the simulator reaches kongs, robs or not, 查叫 and wins
    of several kinds, so the invariants above are checked on more than plain play."""
    rules = load_rules("standard")
    rng = random.Random("coverage")
    kinds: set[str] = set()
    kong_kinds: set[str] = set()
    ends: set[str] = set()
    for index in range(60):
        styles = [STYLES[(index + seat) % len(STYLES)] for seat in range(4)]
        _, _, end, deal = simulate_deal(rng, f"cov-{index}", index % 4, rules, styles)
        kinds |= {w.kind for w in deal.wins}
        kong_kinds |= {k.kind for k in deal.kongs}
        ends.add(end.reason)
    assert {"discard", "self_draw"} <= kinds
    assert {"exposed", "added", "concealed"} <= kong_kinds
    assert ends == {"three_won", "wall_exhausted"}
