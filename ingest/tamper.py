"""Corrupt simulated logs on purpose, and say where the validator must find each corruption.

``chuanma simulate --tamper RATE --manifest FILE`` runs every simulated deal through
:class:`Tamperer`: about ``RATE`` of the deals get one or more corruptions of
:data:`KINDS`, and the manifest gets one line per corruption,
``{"deal_id", "line", "code", "kind"}``, where ``line`` is the final file line at which
``chuanma validate`` must report ``code``. ``kind`` names the corruption (three kinds share
``payment_mismatch``). About ``RATE`` of the sessions get a wrong total: its line is the
``session_end`` line and its ``deal_id`` is the session's last deal (so every entry names
a deal, and the session is the one that deal belongs to).

Each corruption is a pure function over one deal (its typed events, or its JSON lines for a
broken line) that uses the engine's :class:`engine.deal.Deal` where it needs the state, e.g.
the tiles a seat does not hold at a discard. A corruption is designed to give exactly one
finding code at exactly one line and nothing else, so a tampered deal's findings are its
manifest entries and an untouched deal has none:

- A corruption that stops the replay (an illegal event: ``illegal_hu``, ``not_in_hand``,
  ``illegal_pong``, ``tile_count``) is at most one per deal and comes after every other
  corruption the replay checks (after the first draw that follows it, so every check and
  every breach of the earlier ones has happened).
- A broken JSON line is a torn write followed by the retried line: the reader reports the
  torn line and the deal keeps all its events.
- A missed forced hu (``last_four_must_hu``) deletes a win of the last four and plays the
  rest of the deal again through the engine (the seat that did not win keeps its tiles; a
  self-drawn winning tile is discarded instead), so the rest stays legal and the recorded
  payments, settlement and scores stay the engine's. The validator reports it at the
  discard the seat could have won (for a self-draw: the seat's own discard of the drawn
  winning tile, which takes the place of the hu). A third way to miss it is a kong instead
  of a forced self-drawn win (``missed_forced_hu_kong``), reported at the kong; it needs a
  rare deal, so it is off by default and tested on its own (tests/test_tamper.py).
- Session totals are the sum of the recorded deal scores (as a recorder keeps them), so a
  deal played again does not by itself make the totals wrong. The validator does not
  compare the totals of a session with a deal whose replay stopped (docs/decisions.md), so
  a wrong total is only tampered in a session whose deals all replay to their end.

Deterministic: each deal's random choices come from a ``random.Random`` seeded with the
simulation seed, the deal's position in the file and its id, so the same seed gives the
same bytes, and the simulator's own random stream is not touched.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from pathlib import Path
from typing import Any, Literal

from engine.deal import Deal, Phase
from engine.events import (
    DealEnd,
    DealStart,
    Discard,
    Draw,
    Event,
    Hu,
    Kong,
    PlayEvent,
    Pong,
    SessionEnd,
    SessionStart,
    SheetEvent,
    SheetHu,
    SheetKong,
)
from engine.events import (
    replace as replace_event,
)
from engine.fan import PATTERNS, WinContext
from engine.rules import Rules, load_rules
from engine.settlement import deltas
from engine.tiles import NUM_KINDS
from ingest.writer import log_lines, write_lines

Deltas = tuple[int, int, int, int]
WALL_LAST = 54  # index of the wall's last tile: replacement draws come from the back


class Stage(IntEnum):
    """The order in which a deal's corruptions are applied."""

    REWRITE = 0  # plays part of the deal again (changes the events after a point)
    CLAIM = 1  # a recorded claim (deltas, fan, settlement): the replay goes on
    ILLEGAL = 2  # an illegal event: the replay of the deal stops there
    LINE = 3  # a raw line: the reader reports it, the replay does not see it
    SESSION = 4  # the session's totals


#: where the validator reports a kind: its deal line, an event, the deal_end, the session_end,
#: or a line the corruption inserts
Where = Literal["deal", "event", "deal_end", "session_end", "inserted"]


@dataclass(frozen=True)
class DealRecord:
    """One deal as recorded, with the rules it is played under; ``lines``, once set, are the
    deal's raw lines and replace the events (a broken line is no event)."""

    start: DealStart
    events: tuple[PlayEvent, ...]
    end: DealEnd
    rules: Rules
    base: int = 1
    # the last deal of a session that records totals, whose deals all replay to their end
    # (so the validator's sum of the session is the true one): its total may be tampered
    last_in_session: bool = False
    lines: tuple[str, ...] | None = None

    def render(self) -> tuple[str, ...]:
        """The deal's lines: the deal line, one per event, the deal_end line."""
        if self.lines is not None:
            return self.lines
        return tuple(log_lines([self.start, *self.events, self.end]))


@dataclass(frozen=True)
class Mark:
    """One corruption: the code the validator must report, and at which of the deal's lines
    (0 is the deal line; ``None`` is the session_end line)."""

    kind: str
    code: str
    index: int | None


@dataclass(frozen=True)
class Applied:
    record: DealRecord
    mark: Mark
    inserted: int | None = None  # a line was inserted at this index: later lines moved down one


@dataclass(frozen=True)
class ManifestEntry:
    deal_id: str | None
    line: int
    code: str
    kind: str

    def to_json(self) -> dict[str, Any]:
        return {"deal_id": self.deal_id, "line": self.line, "code": self.code, "kind": self.kind}


Apply = Callable[[DealRecord, random.Random, int], Applied | None]


@dataclass(frozen=True)
class Corruption:
    """A row of the table: a kind of corruption, the finding it must give, and where.

    ``apply(record, rng, after)`` returns the corrupted deal, or ``None`` when the deal has no
    place for it; an illegal event must sit at a line index greater than ``after``."""

    kind: str
    code: str
    stage: Stage
    where: Where
    description: str
    applies: Callable[[DealRecord], bool]
    apply: Apply
    default: bool = True  # chosen by the random tamperer (False: only when asked for)

    @property
    def checked_by_replay(self) -> bool:
        return self.stage in (Stage.REWRITE, Stage.CLAIM)


# ----------------------------------------------------------------------------- helpers
def _walk(record: DealRecord) -> Iterator[tuple[int, PlayEvent | DealEnd, Deal]]:
    """Each event with its index and the deal's state just before it (read it before the
    next step: the state then moves on)."""
    deal = Deal(record.start, record.rules, record.base)
    for index, event in enumerate((*record.events, record.end)):
        yield index, event, deal
        deal.apply(event)


def _line_of(event_index: int) -> int:
    return event_index + 1  # line 0 is the deal line


def _shift(values: Sequence[int], rng: random.Random, base: int) -> Deltas:
    """Wrong but plausible point changes: doubled, one payer left out, or points moved
    between two seats. Always differs from ``values`` and still sums to what it did."""
    out = [values[0], values[1], values[2], values[3]]
    payers = [seat for seat in range(4) if out[seat] < 0]
    payees = [seat for seat in range(4) if out[seat] > 0]
    style = rng.randrange(3)
    if style == 0 and payers:
        out = [2 * v for v in out]
    elif style == 1 and len(payers) >= 2 and payees:
        payer = rng.choice(payers)
        payee = max(payees, key=lambda seat: out[seat])
        out[payee] += out[payer]
        out[payer] = 0
    else:
        gains, loses = rng.sample(range(4), 2)
        amount = base * rng.choice((1, 2, 4))
        out[gains] += amount
        out[loses] -= amount
    return (out[0], out[1], out[2], out[3])


def _replace_event(record: DealRecord, index: int, event: PlayEvent) -> DealRecord:
    events = list(record.events)
    events[index] = event
    return replace(record, events=tuple(events))


def _other_tile(rng: random.Random, tile: int) -> int:
    return rng.choice([t for t in range(NUM_KINDS) if t != tile])


# ----------------------------------------------------------------- recorded claims
def _kongs(record: DealRecord) -> list[int]:
    return [i for i, e in enumerate(record.events) if isinstance(e, Kong) and e.deltas is not None]


def _paid_wins(record: DealRecord) -> list[int]:
    return [i for i, e in enumerate(record.events) if isinstance(e, Hu) and e.deltas is not None]


def _scored_wins(record: DealRecord) -> list[int]:
    return [
        i
        for i, e in enumerate(record.events)
        if isinstance(e, Hu) and (e.fan is not None or e.patterns is not None)
    ]


def wrong_kong_payment(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A kong's recorded ``deltas`` differ from what the rules pay for it."""
    spots = _kongs(record)
    if not spots:
        return None
    index = rng.choice(spots)
    kong = record.events[index]
    assert isinstance(kong, Kong) and kong.deltas is not None
    changed = replace_event(kong, deltas=_shift(kong.deltas, rng, record.base))
    return Applied(
        _replace_event(record, index, changed), Mark("kong_payment", "payment_mismatch", _line_of(index))
    )


def wrong_win_payment(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A win's recorded ``deltas`` differ from its payment."""
    spots = _paid_wins(record)
    if not spots:
        return None
    index = rng.choice(spots)
    hu = record.events[index]
    assert isinstance(hu, Hu) and hu.deltas is not None
    changed = replace_event(hu, deltas=_shift(hu.deltas, rng, record.base))
    return Applied(
        _replace_event(record, index, changed), Mark("win_payment", "payment_mismatch", _line_of(index))
    )


def wrong_fan(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A win's recorded ``fan`` or ``patterns`` differ from the computed ones: a fan too
    many or too few, a root (根) too many, an extra left out, or the wrong base pattern."""
    spots = _scored_wins(record)
    if not spots:
        return None
    index = rng.choice(spots)
    hu = record.events[index]
    assert isinstance(hu, Hu)
    styles: list[str] = []
    if hu.fan is not None:
        styles += ["fan_up", "fan_down"] if hu.fan > 1 else ["fan_up"]
    patterns = hu.patterns
    if patterns:
        styles += ["add_gen", "base"] + (["drop_extra"] if len(patterns) > 1 else [])
    style = rng.choice(styles)
    if style in ("fan_up", "fan_down"):
        assert hu.fan is not None
        changed = replace_event(hu, fan=hu.fan + (1 if style == "fan_up" else -1))
    else:
        assert patterns
        if style == "add_gen":
            new = (*patterns, "gen")
        elif style == "drop_extra":
            new = patterns[:-1]
        else:
            bases = [
                p.id for p in PATTERNS if p.id != patterns[0] and record.rules.pattern_fan(p.id) is not None
            ]
            new = (rng.choice(bases), *patterns[1:])
        changed = replace_event(hu, patterns=new)
    return Applied(_replace_event(record, index, changed), Mark("fan", "fan_mismatch", _line_of(index)))


def wrong_settlement(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """The deal_end's recorded 查叫 ``settlement`` differs from the computed one (the
    recorded ``scores`` are left right, so only the settlement is reported)."""
    settlement = record.end.settlement
    if settlement is None:
        return None
    end = replace_event(record.end, settlement=_shift(settlement, rng, record.base))
    return Applied(
        replace(record, end=end), Mark("settlement", "payment_mismatch", _line_of(len(record.events)))
    )


def wrong_total(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """The session's recorded ``totals`` differ from the sum of its deals (applied to the
    session_end by :class:`Tamperer`; see :func:`wrong_totals`)."""
    if not record.last_in_session:
        return None
    return Applied(record, Mark("total", "score_mismatch", None))


def wrong_totals(totals: Sequence[int], rng: random.Random, base: int = 1) -> Deltas:
    """The pure part of a wrong total."""
    return _shift(totals, rng, base)


# ----------------------------------------------------------------- illegal events
def _fake_win(seat: int, tile: int, from_seat: int | None, payers: Sequence[int], base: int) -> Hu:
    """A hu claimed with a plausible 1-fan record."""
    out = [0, 0, 0, 0]
    for payer in payers:
        out[payer] -= base
        out[seat] += base
    return Hu(seat, tile, from_seat, fan=1, patterns=("pinghu",), deltas=(out[0], out[1], out[2], out[3]))


def illegal_hu(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A hu on a hand that is no win: a seat that drew and cannot win declares 自摸 instead of
    its discard, or a seat that cannot win the open discard claims it (a line inserted
    right after the discard)."""
    self_draws: list[tuple[int, Hu]] = []  # (event index replaced, the fake win)
    claims: list[tuple[int, Hu]] = []  # (event index inserted before, the fake win)
    previous: PlayEvent | DealEnd | None = None
    for index, event, deal in _walk(record):
        if _line_of(index) > after:
            drawn = deal.last_draw
            if (
                isinstance(event, Discard)
                and isinstance(previous, Draw)
                and previous.seat == event.seat
                and drawn is not None
                and deal.self_draw_option() is None
            ):
                payers = [s for s in deal.in_play if s != event.seat]
                self_draws.append((index, _fake_win(event.seat, drawn, None, payers, record.base)))
            open_tile = deal.open_tile
            if deal.phase is Phase.CLAIM and open_tile is not None and not open_tile[2] and not open_tile[3]:
                source, tile = open_tile[0], open_tile[1]
                for seat in deal.in_play:
                    if seat != source and deal.win_on(seat, tile, WinContext()) is None:
                        claims.append((index, _fake_win(seat, tile, source, [source], record.base)))
        previous = event
    forms = [spots for spots in (self_draws, claims) if spots]
    if not forms:
        return None
    spots = rng.choice(forms)
    index, fake = rng.choice(spots)
    events = list(record.events)
    if spots is self_draws:
        events[index] = fake
        inserted = None
    else:
        events.insert(index, fake)
        inserted = _line_of(index)
    return Applied(
        replace(record, events=tuple(events)), Mark("illegal_hu", "illegal_hu", _line_of(index)), inserted
    )


def discard_not_held(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A discard of a tile the seat does not hold."""
    spots: list[tuple[int, list[int]]] = []
    for index, event, deal in _walk(record):
        if isinstance(event, Discard) and _line_of(index) > after:
            hand = deal.hands[event.seat]
            spots.append((index, [t for t in range(NUM_KINDS) if hand[t] == 0]))
    if not spots:
        return None
    index, missing = rng.choice(spots)
    discard = record.events[index]
    assert isinstance(discard, Discard)
    changed = replace_event(discard, tile=rng.choice(missing))
    return Applied(
        _replace_event(record, index, changed), Mark("not_in_hand", "not_in_hand", _line_of(index))
    )


def pong_wrong_tile(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A pong of a tile that is not the last discard (one the seat holds a pair of, when it
    has one: the recorder took the wrong pair)."""
    spots: list[tuple[int, int]] = []
    for index, event, deal in _walk(record):
        if isinstance(event, Pong) and _line_of(index) > after:
            pairs = [t for t in range(NUM_KINDS) if deal.hands[event.seat][t] >= 2 and t != event.tile]
            spots.append((index, rng.choice(pairs) if pairs else _other_tile(rng, event.tile)))
    if not spots:
        return None
    index, tile = rng.choice(spots)
    pong = record.events[index]
    assert isinstance(pong, Pong)
    return Applied(
        _replace_event(record, index, replace_event(pong, tile=tile)),
        Mark("illegal_pong", "illegal_pong", _line_of(index)),
    )


def fifth_copy(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A fifth copy of a tile: one tile of a hand or of the recorded wall becomes another
    kind, of which the deal already has all four."""
    start = record.start
    if after >= 0 or start.wall is None:
        return None
    if rng.random() < 0.5:
        seat = rng.randrange(4)
        hand = list(start.hands[seat])
        at = rng.randrange(len(hand))
        hand[at] = _other_tile(rng, hand[at])
        hands = tuple(tuple(hand) if s == seat else h for s, h in enumerate(start.hands))
        changed = replace_event(start, hands=hands)
    else:
        wall = list(start.wall)
        at = rng.randrange(len(wall))
        wall[at] = _other_tile(rng, wall[at])
        changed = replace_event(start, wall=tuple(wall))
    return Applied(replace(record, start=changed), Mark("tile_count", "tile_count", 0))


# ----------------------------------------------------------------- missed forced hu
def forced_wins(record: DealRecord) -> list[int]:
    """Indexes of the wins that ``last_four_must_hu`` forces: a self-draw of one of the last
    four tiles, or a win on a discard made during the last four (not a rob)."""
    if not record.rules.last_four_must_hu or record.start.wall is None:
        return []
    found = []
    for index, event, deal in _walk(record):
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
            event = replace_event(event, fan=win.result.fan, patterns=win.result.patterns, deltas=win.deltas)
        self.events.append(event)

    def claims(self, skip: int | None) -> bool:
        """Every seat (but ``skip``) that may win the open tile does; True if any did."""
        open_tile = self.deal.open_tile
        assert open_tile is not None
        source, tile = open_tile[0], open_tile[1]
        won = False
        for step in (1, 2, 3):
            seat = (source + step) % 4
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
        if drawn is not None and hand[drawn]:
            return drawn
        return next(t for t in range(NUM_KINDS) if hand[t])

    def draw(self, seat: int) -> None:
        if _from_back(self.deal):
            tile = self.wall[WALL_LAST - self.back]
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
        return DealEnd(deal.end_reason, settlement=deltas(deal.settlement), scores=deltas(deal.ledger))


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
        line = _line_of(index)
        offered = False
    else:
        rest.claims(skip=skipped.seat)  # the other winners of that discard still win it
        discard = max(i for i in range(index) if isinstance(record.events[i], Discard))
        line = _line_of(discard)
        offered = True
    end = rest.run(offered)
    changed = replace(record, events=(*record.events[:index], *rest.events), end=end)
    return Applied(changed, Mark("missed_forced_hu", "missed_forced_hu", line))


def _kong_instead(record: DealRecord) -> list[tuple[int, Kong]]:
    """Forced self-drawn wins where the winner could have made a kong instead."""
    spots = []
    forced = set(forced_wins(record))
    for index, event, deal in _walk(record):
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
    spots = _kong_instead(record)
    if not spots:
        return None
    index, kong = rng.choice(spots)
    rest = _replay_to(record, index)
    rest.play(kong)
    end = rest.run(offered=False)
    changed = replace(record, events=(*record.events[:index], *rest.events), end=end)
    return Applied(changed, Mark("missed_forced_hu_kong", "missed_forced_hu", _line_of(index)))


# ----------------------------------------------------------------- broken line
def broken_line(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A broken JSON line: a torn write (the first part of a line), then the line written
    again in full. Inserted inside the deal (after its deal line), so the deal keeps all its
    events and the reader reports the torn line."""
    lines = list(record.render())
    at = rng.randrange(1, len(lines))
    text = lines[at]
    torn = text[: rng.randrange(max(1, len(text) // 4), len(text))]
    lines.insert(at, torn)
    return Applied(replace(record, lines=tuple(lines)), Mark("bad_record", "bad_record", at), inserted=at)


# ----------------------------------------------------------------- the table
def _always(record: DealRecord) -> bool:
    return True


def _has_discard(record: DealRecord) -> bool:
    return any(isinstance(e, Discard) for e in record.events)


def _has_pong(record: DealRecord) -> bool:
    return any(isinstance(e, Pong) for e in record.events)


#: kind -> the finding code the validator must give, where, and when it applies
KINDS: tuple[Corruption, ...] = (
    Corruption("kong_payment", "payment_mismatch", Stage.CLAIM, "event",
               "a wrong kong payment (kong deltas)", lambda r: bool(_kongs(r)), wrong_kong_payment),
    Corruption("win_payment", "payment_mismatch", Stage.CLAIM, "event",
               "a wrong win payment (hu deltas)", lambda r: bool(_paid_wins(r)), wrong_win_payment),
    Corruption("fan", "fan_mismatch", Stage.CLAIM, "event",
               "a wrong fan or pattern list (hu fan, patterns)", lambda r: bool(_scored_wins(r)), wrong_fan),
    Corruption("settlement", "payment_mismatch", Stage.CLAIM, "deal_end",
               "a wrong 查叫 settlement (deal_end settlement)",
               lambda r: r.end.settlement is not None, wrong_settlement),
    Corruption("missed_forced_hu", "missed_forced_hu", Stage.REWRITE, "event",
               "a win of the last four left out (last_four_must_hu); reported at the discard it "
               "could have won", lambda r: bool(forced_wins(r)), missed_forced_hu),
    Corruption("missed_forced_hu_kong", "missed_forced_hu", Stage.REWRITE, "event",
               "a kong instead of a forced self-drawn win of the last four",
               lambda r: bool(_kong_instead(r)), missed_forced_hu_by_kong, default=False),
    Corruption("illegal_hu", "illegal_hu", Stage.ILLEGAL, "event",
               "a hu on a hand that is no win", _has_discard, illegal_hu),
    Corruption("not_in_hand", "not_in_hand", Stage.ILLEGAL, "event",
               "a discard of a tile the seat does not hold", _has_discard, discard_not_held),
    Corruption("illegal_pong", "illegal_pong", Stage.ILLEGAL, "event",
               "a pong of a tile that is not the last discard", _has_pong, pong_wrong_tile),
    Corruption("tile_count", "tile_count", Stage.ILLEGAL, "deal",
               "a fifth copy of a tile in a hand or the wall",
               lambda r: r.start.wall is not None, fifth_copy),
    Corruption("bad_record", "bad_record", Stage.LINE, "inserted",
               "a broken JSON line (a torn write before the line written again)", _always, broken_line),
    Corruption("total", "score_mismatch", Stage.SESSION, "session_end",
               "a wrong session total (session_end totals)", lambda r: r.last_in_session, wrong_total),
)  # fmt: skip
KIND_BY_NAME: dict[str, Corruption] = {c.kind: c for c in KINDS}
DEFAULT_KINDS: tuple[Corruption, ...] = tuple(c for c in KINDS if c.default)


def compatible(chosen: Sequence[Corruption], candidate: Corruption) -> bool:
    """Can ``candidate`` join ``chosen`` in one deal, each still found where it says?"""
    for other in chosen:
        if other.kind == candidate.kind:
            return False
        if other.stage is candidate.stage and candidate.stage in (Stage.ILLEGAL, Stage.REWRITE):
            return False  # the replay stops at the first illegal event; a rewrite moves the others
        pair = {other.stage, candidate.stage}
        if Stage.ILLEGAL in pair and (Stage.CLAIM in pair or Stage.REWRITE in pair):
            illegal, checked = (other, candidate) if other.stage is Stage.ILLEGAL else (candidate, other)
            if illegal.where == "deal" or checked.where == "deal_end":
                return False  # the illegal event could not come after the checked one
    return True


def choose_kinds(
    record: DealRecord, rng: random.Random, rate: float, kinds: Sequence[Corruption] = DEFAULT_KINDS
) -> list[Corruption]:
    """Whether to tamper with this deal (probability ``rate``) and with which of ``kinds``:
    one, sometimes two or three, among those that apply to it (a session's total is chosen
    for the session, by :class:`Tamperer`)."""
    if rate <= 0 or rng.random() >= rate:
        return []
    wanted = 1 + (rng.random() < 0.3) + (rng.random() < 0.1)
    candidates = [c for c in kinds if c.stage is not Stage.SESSION and c.applies(record)]
    rng.shuffle(candidates)
    chosen: list[Corruption] = []
    for candidate in candidates:
        if len(chosen) == wanted:
            break
        if compatible(chosen, candidate):
            chosen.append(candidate)
    return chosen


def _settled(record: DealRecord, index: int) -> int:
    """The line index by which the replay has checked everything about line ``index``: the
    first draw after it (an open discard closes, an added kong is paid), else the deal_end."""
    for event_index in range(index, len(record.events)):
        if isinstance(record.events[event_index], Draw):
            return _line_of(event_index)
    return _line_of(len(record.events))


def tamper_deal(
    record: DealRecord, kinds: Sequence[Corruption], rng: random.Random
) -> tuple[DealRecord, list[Mark]]:
    """Apply ``kinds`` in stage order; returns the corrupted deal and a mark per corruption
    that found a place (a kind with no place in this deal is left out)."""
    marks: list[Mark] = []
    for kind in sorted(kinds, key=lambda c: c.stage):
        checked = [m.index for m in marks if m.index is not None and KIND_BY_NAME[m.kind].checked_by_replay]
        after = max((_settled(record, index) for index in checked), default=-1)
        applied = kind.apply(record, rng, after)
        if applied is None:
            continue
        if applied.inserted is not None:
            marks = [
                replace(m, index=m.index + 1) if m.index is not None and m.index >= applied.inserted else m
                for m in marks
            ]
        record = applied.record
        marks.append(applied.mark)
    return record, marks


# ----------------------------------------------------------------- a whole log
@dataclass
class _Session:
    start: SessionStart
    deals: list[tuple[DealStart, list[PlayEvent | SheetEvent], DealEnd]]


class Tamperer:
    """Turns a well-formed event stream (the simulator's) into log lines, tampering with
    about ``rate`` of its deals (and of its sessions' totals); :attr:`manifest` fills up as
    the lines are produced."""

    def __init__(self, rate: float, seed: int, kinds: Sequence[str] | None = None) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"the tamper rate must be between 0 and 1, got {rate}")
        unknown = sorted(set(kinds or ()) - set(KIND_BY_NAME))
        if unknown:
            raise ValueError(f"unknown corruption kinds {unknown}; known: {sorted(KIND_BY_NAME)}")
        self.rate = rate
        self.seed = seed
        self.kinds = tuple(KIND_BY_NAME[k] for k in kinds) if kinds else DEFAULT_KINDS
        self.manifest: list[ManifestEntry] = []
        self.deals = 0
        self.tampered = 0  # deals
        self.wrong_totals = 0  # sessions
        self.line = 0  # lines produced so far

    def lines(self, events: Iterable[Event | SheetEvent]) -> Iterator[str]:
        session: _Session | None = None
        deal: tuple[DealStart, list[PlayEvent | SheetEvent]] | None = None
        for event in events:
            if isinstance(event, SessionStart):
                if session is not None:
                    yield from self._session(session, None)
                session = _Session(event, [])
            elif isinstance(event, SessionEnd):
                if session is None:
                    raise ValueError("a session_end with no session: tamper takes simulated logs")
                yield from self._session(session, event)
                session = None
            elif isinstance(event, DealStart):
                deal = (event, [])
            elif isinstance(event, DealEnd):
                if session is None or deal is None:
                    raise ValueError("a deal_end outside a session's deal: tamper takes simulated logs")
                session.deals.append((deal[0], deal[1], event))
                deal = None
            else:
                if deal is None:
                    raise ValueError(f"a {event.type} event outside a deal: tamper takes simulated logs")
                deal[1].append(event)
        if session is not None:
            yield from self._session(session, None)

    def _rng(self, *parts: object) -> random.Random:
        return random.Random("chuanma-tamper/" + "/".join(str(p) for p in (self.seed, *parts)))

    def _session(self, session: _Session, end: SessionEnd | None) -> Iterator[str]:
        start = session.start
        rules = load_rules(start.rules if start.rules is not None else "standard")
        yield from self._emit(log_lines([start]))
        totals = [0, 0, 0, 0]
        cut_short = False  # a deal of the session has an illegal event: its replay stops
        record: DealRecord | None = None
        for deal_start, events, deal_end in session.deals:
            self.deals += 1
            if deal_start.record == "sheet":  # a score sheet (--sheet-sessions): no tiles to tamper with
                yield from self._emit(log_lines([deal_start, *events, deal_end]))
                scores = deal_end.scores or (0, 0, 0, 0)
                totals = [a + b for a, b in zip(totals, scores, strict=True)]
                record = None
                continue
            plays = tuple(e for e in events if not isinstance(e, SheetKong | SheetHu))
            record = DealRecord(deal_start, plays, deal_end, rules, start.base)
            rng = self._rng(self.deals, deal_start.deal_id)
            kinds = choose_kinds(record, rng, self.rate, self.kinds)
            marks: list[Mark] = []
            if kinds:
                record, marks = tamper_deal(record, kinds, rng)
            if marks:
                self.tampered += 1
                cut_short |= any(KIND_BY_NAME[m.kind].stage is Stage.ILLEGAL for m in marks)
            first = self.line + 1
            for mark in sorted(marks, key=lambda m: m.index or 0):
                assert mark.index is not None
                self.manifest.append(
                    ManifestEntry(deal_start.deal_id, first + mark.index, mark.code, mark.kind)
                )
            yield from self._emit(record.render())
            scores = record.end.scores or (0, 0, 0, 0)
            totals = [a + b for a, b in zip(totals, scores, strict=True)]
        if end is None:
            return
        if end.totals is not None:
            recorded: Deltas = (totals[0], totals[1], totals[2], totals[3])  # as a recorder sums them
            if record is not None and not cut_short:
                recorded = self._session_kinds(replace(record, last_in_session=True), recorded, start)
            end = replace_event(end, totals=recorded)
        yield from self._emit(log_lines([end]))

    def _session_kinds(self, last: DealRecord, totals: Deltas, start: SessionStart) -> Deltas:
        """A wrong total, about ``rate`` of the sessions (only those whose deals all replay to
        their end); the manifest names the session's last deal and the session_end line."""
        kinds = [k for k in self.kinds if k.stage is Stage.SESSION and k.applies(last)]
        rng = self._rng(start.session_id, "totals")
        if not kinds or self.rate <= 0 or rng.random() >= self.rate:
            return totals
        for kind in kinds:
            applied = kind.apply(last, rng, -1)
            if applied is not None:
                totals = wrong_totals(totals, rng, start.base)
                self.manifest.append(
                    ManifestEntry(last.start.deal_id, self.line + 1, applied.mark.code, kind.kind)
                )
                self.wrong_totals += 1
        return totals

    def _emit(self, lines: Iterable[str]) -> Iterator[str]:
        for line in lines:
            self.line += 1
            yield line


def manifest_lines(entries: Iterable[ManifestEntry]) -> Iterator[str]:
    for entry in entries:
        yield json.dumps(entry.to_json(), ensure_ascii=False, separators=(",", ":"))


def write_manifest(entries: Iterable[ManifestEntry], path: str | Path) -> int:
    """One JSON line per corruption (gzip when the name ends in ``.gz``); returns the count."""
    return write_lines(manifest_lines(entries), path)


def read_manifest(path: str | Path) -> list[ManifestEntry]:
    """The entries of a manifest written by :func:`write_manifest`."""
    raw = Path(path).read_bytes()
    text = (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8")
    out = []
    for line in text.splitlines():
        if line.strip():
            obj = json.loads(line)
            out.append(ManifestEntry(obj["deal_id"], obj["line"], obj["code"], obj["kind"]))
    return out


__all__ = [
    "DEFAULT_KINDS",
    "KINDS",
    "KIND_BY_NAME",
    "Corruption",
    "DealRecord",
    "ManifestEntry",
    "Mark",
    "Stage",
    "Tamperer",
    "choose_kinds",
    "forced_wins",
    "read_manifest",
    "tamper_deal",
    "write_manifest",
    "wrong_totals",
]
