"""A missed forced hu (``last_four_must_hu``): a win of the last four left out, or a kong
played instead of a forced self-drawn win, and the rest of the deal played again through
the engine so it stays legal and its payments, settlement and scores stay the engine's
(``ingest/simulator/tamper.py`` explains where the validator reports it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from engine.deal import Deal, Phase
from engine.events import DealEnd, Discard, Draw, Hu, Kong, PlayEvent
from engine.events import replace as replace_event
from engine.settlement import seat_deltas
from engine.tiles import NUM_KINDS, WILD
from ingest.simulator.tamper_types import Applied, DealRecord, Mark, line_of, walk


# ----------------------------------------------------------------- missed forced hu
def forced_wins(record: DealRecord) -> list[int]:
    """Indexes of the wins that ``last_four_must_hu`` forces: a self-draw of one of the last
    four tiles, or a win on a discard made during the last four (not a rob)."""
    if not record.rules.last_four_must_hu or record.start.wall is None:
        return []
    found = []
    for index, event, deal in walk(record):
        if isinstance(event, DealEnd):
            break
        if not isinstance(event, Hu) or not deal.in_last_four():
            continue
        if event.from_seat is None:
            if deal.last_draw is not None:
                found.append(index)
        else:
            open_tile = deal.open_tile
            if open_tile is not None and not open_tile[2]:
                found.append(index)
    return found


def _from_back(deal: Deal) -> bool:
    """The next draw is a kong's replacement (from the back of the wall)."""
    if deal.phase is Phase.REPLACEMENT:
        return True
    open_tile = deal.open_tile
    return deal.phase is Phase.ROB and open_tile is not None and not open_tile[3]


class _PlayOut:
    """Plays a deal to its end from a given state: every win the rules allow is taken,
    otherwise the drawn tile is discarded (a 定缺 tile first where the rules say so)."""

    def __init__(self, deal: Deal, wall: Sequence[int], front: int, back: int) -> None:
        self.deal = deal
        self.wall = wall
        self.front = front
        self.back = back
        self.events: list[PlayEvent] = []

    def play(self, event: PlayEvent) -> None:
        self.deal.apply(event)
        if isinstance(event, Hu):
            win = self.deal.wins[-1]
            seats = len(self.deal.order)
            deltas = win.deltas[:seats]
            event = replace_event(event, fan=win.result.fan, patterns=win.result.patterns, deltas=deltas)
        self.events.append(event)

    def claims(self, skip: int | None) -> bool:
        """Every seat (but ``skip``) that may win the open tile does; True if any did."""
        open_tile = self.deal.open_tile
        assert open_tile is not None
        source, tile = open_tile[0], open_tile[1]
        won = False
        seats = len(self.deal.order)
        for step in range(1, seats):
            seat = (source + step) % seats
            if seat != skip and self.deal.claim_option(seat) is not None:
                self.play(Hu(seat, tile, source))
                won = True
        return won

    def discard_tile(self) -> int:
        deal = self.deal
        seat = deal.current
        hand = deal.hands[seat]
        suit = deal.void[seat]
        if deal.rules.void_discard_first and suit is not None:
            void_tiles = [t for t in range(suit * 9, suit * 9 + 9) if hand[t]]
            if void_tiles:
                return void_tiles[0]
        drawn = deal.last_draw
        if drawn is not None and drawn != WILD and hand[drawn]:
            return drawn
        return next((t for t in range(NUM_KINDS) if hand[t]), WILD)  # a 红中 when nothing else is left

    def draw(self, seat: int) -> None:
        if _from_back(self.deal):
            tile = self.wall[len(self.wall) - 1 - self.back]
            self.back += 1
        else:
            tile = self.wall[self.front]
            self.front += 1
        self.play(Draw(seat, tile))

    def run(self, offered: bool) -> DealEnd:
        """``offered``: the open tile, if any, has already been offered to the seats."""
        deal = self.deal
        while not deal.is_over():
            phase = deal.phase
            if phase in (Phase.DRAW, Phase.REPLACEMENT):
                self.draw(deal.current)
            elif phase is Phase.ACT:
                if deal.self_draw_option() is not None:
                    drawn = deal.last_draw
                    assert drawn is not None
                    self.play(Hu(deal.current, drawn, None))
                else:
                    self.play(Discard(deal.current, self.discard_tile()))
                    offered = False
            elif phase in (Phase.CLAIM, Phase.ROB):
                if not offered:
                    offered = True
                    if self.claims(None):
                        continue
                open_tile = deal.open_tile
                drawer = open_tile[0] if open_tile is not None and _from_back(deal) else deal.next_drawer()
                if drawer is None:
                    break  # the wall is empty: the deal ends on its deal_end line
                self.draw(drawer)
            else:  # pragma: no cover - exchange and 定缺 come before any win
                raise AssertionError(f"unexpected phase {phase}")
        deal.apply(DealEnd("?"))
        assert deal.end_reason is not None
        seats = len(deal.order)  # one entry a seat of the table
        return DealEnd(
            deal.end_reason,
            settlement=seat_deltas(deal.settlement, seats),
            scores=seat_deltas(deal.ledger, seats),
        )


def _replay_to(record: DealRecord, index: int) -> _PlayOut:
    """The deal's state before event ``index``, ready to be played on from there."""
    assert record.start.wall is not None
    deal = Deal(record.start, record.rules, record.base)
    front = back = 0
    for event in record.events[:index]:
        if isinstance(event, Draw):
            if _from_back(deal):
                back += 1
            else:
                front += 1
        deal.apply(event)
    return _PlayOut(deal, record.start.wall, front, back)


def missed_forced_hu(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A seat does not win a tile of the last four that it could win on: the win is deleted
    and the deal is played on from there (see the module docstring)."""
    spots = forced_wins(record)
    if not spots:
        return None
    index = rng.choice(spots)
    skipped = record.events[index]
    assert isinstance(skipped, Hu)
    rest = _replay_to(record, index)
    if skipped.from_seat is None:
        rest.play(Discard(skipped.seat, skipped.tile))  # keeps its tiles, lets the winning one go
        line = line_of(index)
        offered = False
    else:
        rest.claims(skip=skipped.seat)  # the other winners of that discard still win it
        discard = max(i for i in range(index) if isinstance(record.events[i], Discard))
        line = line_of(discard)
        offered = True
    end = rest.run(offered)
    changed = replace(record, events=(*record.events[:index], *rest.events), end=end)
    return Applied(changed, Mark("missed_forced_hu", "missed_forced_hu", line))


def kong_instead(record: DealRecord) -> list[tuple[int, Kong]]:
    """Forced self-drawn wins where the winner could have made a kong instead."""
    spots = []
    forced = set(forced_wins(record))
    for index, event, deal in walk(record):
        if index in forced and isinstance(event, Hu) and event.from_seat is None and deal.wall_left > 0:
            hand = deal.hands[event.seat]
            spots += [(index, Kong(event.seat, t, "concealed")) for t in range(NUM_KINDS) if hand[t] == 4]
            spots += [(index, Kong(event.seat, t, "added")) for t in deal.pongs(event.seat) if hand[t]]
        if index >= max(forced, default=-1):
            break
    return spots


def missed_forced_hu_by_kong(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A seat that drew one of the last four tiles and could win on it makes a kong instead
    (concealed, or added to its pong); the deal is played on from there. The validator
    should report ``missed_forced_hu`` at the kong line."""
    spots = kong_instead(record)
    if not spots:
        return None
    index, kong = rng.choice(spots)
    rest = _replay_to(record, index)
    rest.play(kong)
    end = rest.run(offered=False)
    changed = replace(record, events=(*record.events[:index], *rest.events), end=end)
    return Applied(changed, Mark("missed_forced_hu_kong", "missed_forced_hu", line_of(index)))
