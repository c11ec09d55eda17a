"""The fast check (``ingest.replay.fast_check.fast_replay``) on 血流成河 deals
(``end_condition: bloody_flow``) against the explaining engine, as ``tests/test_fast_check.py``
does for the other rules: simulated clubs, a fifth of their deals tampered with and a tenth
changed at random, and the same promise (``tests/fast_diff.py``): never call clean a deal
the engine flags, give the engine's report for the others, and hand few clean deals to
the engine.

The simulator's winners never break 胡后不改牌, so two corpora do on purpose: one where a
fixed hand throws another tile than the one it drew (the engine's ``fixed_hand``), and one
played by a copy of the simulator whose fixed hands kong the tile they draw whenever they
can (a kong that keeps the waits is clean, one that changes them is ``fixed_hand``).
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fast_diff import Tally, check_sessions, club_sessions, corpus_sessions
from test_fast_check import MAX_HANDOFF, shown

from engine.deal import Deal
from engine.events import DealStart, Discard, Event, Kong, PlayEvent, Pong, SessionEnd, SessionStart
from engine.events import replace as replace_event
from engine.rules import load_rules
from ingest import simulator
from ingest.logs.writer import log_lines
from ingest.replay.fast_check import fast_replay
from ingest.simulator.simulate import ClubPlan

BLOODY_FLOW: dict[str, dict[str, Any]] = {
    "standard": {"preset": "standard", "end_condition": "bloody_flow"},
    "chengdu": {"preset": "chengdu", "end_condition": "bloody_flow"},
    "online": {"preset": "online", "end_condition": "bloody_flow"},
}
SEEDS = {"standard": 2601, "chengdu": 2602, "online": 2603}


def _plan(name: str, sessions: int = 20, seed: int | None = None) -> ClubPlan:
    return ClubPlan(
        players=8,
        sessions=sessions,
        deals_per_session=8,
        rules=BLOODY_FLOW[name],
        seed=SEEDS[name] if seed is None else seed,
    )


@pytest.fixture(scope="module")
def tallies() -> dict[str, Tally]:
    out = {
        name: check_sessions(corpus_sessions(_plan(name), 0.2, 0.1), fast_replay, corpus=f"bloody-{name}")
        for name in BLOODY_FLOW
    }
    for name, tally in out.items():
        print(f"fast_check bloody_flow {name}: {tally.summary()}")
    return out


@pytest.mark.parametrize("name", list(BLOODY_FLOW))
def test_fast_path_agrees_with_the_engine_under_bloody_flow(tallies: dict[str, Tally], name: str) -> None:
    tally = tallies[name]
    assert tally.deals == 160
    assert tally.clean >= 0.5 * tally.deals and tally.flagged >= 0.1 * tally.deals, tally.summary()
    assert not tally.disagreements, shown(tally)


@pytest.mark.parametrize("name", list(BLOODY_FLOW))
def test_fast_path_rarely_hands_off_a_clean_bloody_flow_deal(tallies: dict[str, Tally], name: str) -> None:
    """Before the fast path played 血流成河, every one of these deals was handed off."""
    tally = tallies[name]
    assert tally.handoff_rate <= MAX_HANDOFF, tally.summary()


def test_the_fast_path_confirms_repeated_wins() -> None:
    """Clean deals where a winner won again (so it drew, paid and won on with its hand
    fixed) and where one deal had more than three wins are confirmed by the fast path."""
    lines = [line for session in corpus_sessions(_plan("standard", 4), 0.0) for line in session]
    winners: list[list[int]] = []
    for line in lines:
        if line.startswith('{"type":"deal"'):
            winners.append([])
        elif line.startswith('{"type":"hu"'):
            winners[-1].append(json.loads(line)["seat"])
    assert any(len(seats) > 3 for seats in winners), winners
    assert sum(len(seats) > len(set(seats)) for seats in winners) >= 5, winners
    tally = check_sessions([lines], fast_replay, corpus="bloody-repeat")
    assert tally.fast_clean == tally.clean == tally.deals == len(winners), tally.summary()


# -------------------------------------------------------------------- 胡后不改牌 broken on purpose
def _swap_fixed_discards(events: list[Event], rng: random.Random) -> Iterator[Event]:
    """The session's events with, in about half of the deals, the first discard of a fixed
    hand's drawn tile replaced by another tile it holds (the rest of the deal as played)."""
    first = events[0]
    assert isinstance(first, SessionStart) and first.rules is not None
    rules = load_rules(first.rules)
    deal: Deal | None = None
    swapped = False
    for event in events:
        if isinstance(event, DealStart):
            deal = Deal(event, rules)
            swapped = rng.random() < 0.5
        elif deal is not None and isinstance(event, Discard) and not swapped:
            seat = event.seat
            if deal.hand_fixed(seat) and deal.last_draw == event.tile:
                others = [tile for tile, count in enumerate(deal.hands[seat]) if count and tile != event.tile]
                if others:
                    event = Discard(seat, rng.choice(others), line=event.line)
                    swapped = True
        if deal is not None and isinstance(event, PlayEvent) and not deal.is_over():
            try:
                deal.apply(event)
            except ValueError:
                deal = None  # the swap broke the rest of the deal: the engine's finding
        yield event


def test_a_fixed_hand_discarding_another_tile_is_handed_off() -> None:
    rng = random.Random(26)
    sessions = [
        list(log_lines(_swap_fixed_discards(events, rng))) for events in club_sessions(_plan("chengdu", 12))
    ]
    tally = check_sessions(sessions, fast_replay, corpus="bloody-fixed-discard")
    assert tally.codes["fixed_hand"] >= 10, (tally.summary(), tally.codes)
    assert not tally.disagreements, shown(tally)
    assert tally.handoff_rate <= MAX_HANDOFF, tally.summary()


# -------------------------------------------------------------------- fixed hands that kong or pong
def _simulator_copy(made: list[str], pongs: bool) -> ModuleType:
    """A pure-Python copy of ``ingest.simulator.simulate`` (the module may be compiled, and
    a compiled module's functions cannot be replaced) whose fixed hands kong the tile they
    draw whenever the tiles allow it (an added kong of a pong, a concealed kong of a
    fourth) and any discard nobody claimed that they hold three of, and with ``pongs`` pong
    one they hold a pair of; each move noted in ``made``."""
    path = Path(simulator.__file__ or "").with_name("simulate.py")
    spec = importlib.util.spec_from_file_location(_COPY, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    acted, claimed = getattr(module, "_act"), getattr(module, "_claims")  # noqa: B009 - replaced below

    def act(deal: Deal, rec: Any, bot: Any, rng: random.Random) -> None:
        kong = _fixed_kong(deal)
        if kong is None:
            acted(deal, rec, bot, rng)
            return
        made.append(kong.kind)
        rec.play(replace_event(kong, line=rec.next_line))

    def claims(deal: Deal, rec: Any, bots: Any, rng: random.Random) -> bool:
        if claimed(deal, rec, bots, rng):
            return True
        claim = _fixed_claim(deal, pongs)
        if claim is not None:
            made.append(claim.kind if isinstance(claim, Kong) else "pong")
            rec.play(replace_event(claim, line=rec.next_line))
        return claim is not None

    setattr(module, "_act", act)  # noqa: B010
    setattr(module, "_claims", claims)  # noqa: B010
    return module


_COPY = "bloody_fixed_simulate"


def _fixed_kong(deal: Deal) -> Kong | None:
    """The kong a fixed hand can make of the tile it drew, if it does not win on it."""
    seat, drawn = deal.current, deal.last_draw
    if not deal.hand_fixed(seat) or drawn is None or deal.wall_left == 0:
        return None
    if deal.self_draw_option() is not None:
        return None
    if drawn in deal.pongs(seat):
        return Kong(seat, drawn, "added")
    return Kong(seat, drawn, "concealed") if deal.hands[seat][drawn] == 4 else None


def _fixed_claim(deal: Deal, pongs: bool) -> Kong | Pong | None:
    """An exposed kong of the open discard (nobody won it) by a fixed hand holding three of
    it, or with ``pongs`` a pong by one holding a pair."""
    open_tile = deal.open_tile
    if open_tile is None or open_tile[2] or open_tile[3]:
        return None
    source, tile = open_tile[0], open_tile[1]
    for seat in ((source + step) % 4 for step in (1, 2, 3)):
        if not deal.hand_fixed(seat):
            continue
        if deal.hands[seat][tile] == 3 and deal.wall_left > 0:
            return Kong(seat, tile, "exposed")
        if pongs and deal.hands[seat][tile] == 2:
            return Pong(seat, tile)
    return None


def _fixed_corpus(made: list[str], pongs: bool, seed: int) -> list[list[str]]:
    copy = _simulator_copy(made, pongs)
    try:
        events = copy.simulate_club(_plan("standard", 40, seed=seed))
        return [list(log_lines(session)) for session in _sessions(events)]
    finally:
        del sys.modules[_COPY]


def test_a_fixed_hands_kong_is_checked_as_the_engine_checks_it() -> None:
    made: list[str] = []
    tally = check_sessions(_fixed_corpus(made, False, 2604), fast_replay, corpus="bloody-fixed-kong")
    assert not tally.disagreements, shown(tally)
    # some kongs kept the waits (clean, confirmed by the fast path), some did not
    assert tally.codes["fixed_hand"] >= 3 and tally.flagged == tally.codes["fixed_hand"], tally.codes
    assert tally.handoff_rate <= MAX_HANDOFF, tally.summary()
    assert made.count("added") >= 20 and made.count("exposed") >= 20 and made.count("concealed") >= 5, made


def test_a_fixed_hands_pong_is_handed_off() -> None:
    made: list[str] = []
    tally = check_sessions(_fixed_corpus(made, True, 2605), fast_replay, corpus="bloody-fixed-pong")
    assert not tally.disagreements, shown(tally)
    assert tally.codes["fixed_hand"] >= 20 and tally.flagged == tally.codes["fixed_hand"], tally.codes
    assert made.count("pong") >= 20 and tally.fast_clean == tally.clean, (made, tally.summary())


def _sessions(events: Iterator[Event]) -> Iterator[list[Event]]:
    session: list[Event] = []
    for event in events:
        session.append(event)
        if isinstance(event, SessionEnd):
            yield session
            session = []
