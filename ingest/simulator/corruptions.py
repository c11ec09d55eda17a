"""The corruptions the tamperer can make, one pure function a kind, and :data:`KINDS`, the
table of kinds: the finding code the validator must give, where, and when a kind applies.

Each function returns the corrupted deal and the mark where the validator must report it,
or ``None`` when the deal has no place for it (``ingest/simulator/tamper.py`` explains the
rules they keep: one code at one line each, an illegal event after every checked one).
A missed forced hu, which plays the deal again, is in ``ingest/simulator/forced_hu.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from engine.deal import Phase
from engine.events import DealEnd, Discard, Draw, Hu, Kong, PlayEvent, Pong
from engine.events import replace as replace_event
from engine.fan import PATTERNS, WinContext
from engine.tiles import NUM_KINDS
from ingest.simulator.forced_hu import forced_wins, kong_instead, missed_forced_hu, missed_forced_hu_by_kong
from ingest.simulator.tamper_types import (
    Applied,
    Corruption,
    DealRecord,
    Deltas,
    Mark,
    Stage,
    line_of,
    other_tile,
    walk,
)


# ----------------------------------------------------------------------------- helpers
def _shift(values: Sequence[int], rng: random.Random, base: int) -> Deltas:
    """Wrong but plausible point changes: doubled, one payer left out, or points moved
    between two seats. Always differs from ``values`` and still sums to what it did."""
    out = list(values)  # one a seat of the table
    seats = len(out)
    payers = [seat for seat in range(seats) if out[seat] < 0]
    payees = [seat for seat in range(seats) if out[seat] > 0]
    style = rng.randrange(3)
    if style == 0 and payers:
        out = [2 * v for v in out]
    elif style == 1 and len(payers) >= 2 and payees:
        payer = rng.choice(payers)
        payee = max(payees, key=lambda seat: out[seat])
        out[payee] += out[payer]
        out[payer] = 0
    else:
        gains, loses = rng.sample(range(seats), 2)
        amount = base * rng.choice((1, 2, 4))
        out[gains] += amount
        out[loses] -= amount
    return tuple(out)


def _replace_event(record: DealRecord, index: int, event: PlayEvent) -> DealRecord:
    events = list(record.events)
    events[index] = event
    return replace(record, events=tuple(events))


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
    return _wrong_deltas(record, rng, _kongs(record), "kong_payment")


def wrong_win_payment(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A win's recorded ``deltas`` differ from its payment."""
    return _wrong_deltas(record, rng, _paid_wins(record), "win_payment")


def _wrong_deltas(record: DealRecord, rng: random.Random, spots: list[int], kind: str) -> Applied | None:
    """One of the paid kongs or wins at ``spots`` recorded with wrong ``deltas``."""
    if not spots:
        return None
    index = rng.choice(spots)
    paid = record.events[index]
    assert isinstance(paid, (Kong, Hu)) and paid.deltas is not None
    changed = replace_event(paid, deltas=_shift(paid.deltas, rng, record.base))
    return Applied(_replace_event(record, index, changed), Mark(kind, "payment_mismatch", line_of(index)))


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
    return Applied(_replace_event(record, index, changed), Mark("fan", "fan_mismatch", line_of(index)))


def wrong_settlement(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """The deal_end's recorded 查叫 ``settlement`` differs from the computed one (the
    recorded ``scores`` are left right, so only the settlement is reported)."""
    settlement = record.end.settlement
    if settlement is None:
        return None
    end = replace_event(record.end, settlement=_shift(settlement, rng, record.base))
    return Applied(
        replace(record, end=end), Mark("settlement", "payment_mismatch", line_of(len(record.events)))
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
def _fake_win(
    seat: int, tile: int, from_seat: int | None, payers: Sequence[int], base: int, seats: int = 4
) -> Hu:
    """A hu claimed with a plausible 1-fan record (one entry a seat of the table)."""
    out = [0] * seats
    for payer in payers:
        out[payer] -= base
        out[seat] += base
    return Hu(seat, tile, from_seat, fan=1, patterns=("pinghu",), deltas=tuple(out))


def illegal_hu(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A hu on a hand that is no win: a seat that drew and cannot win declares 自摸 instead of
    its discard, or a seat that cannot win the open discard claims it (a line inserted
    right after the discard)."""
    self_draws: list[tuple[int, Hu]] = []  # (event index replaced, the fake win)
    claims: list[tuple[int, Hu]] = []  # (event index inserted before, the fake win)
    previous: PlayEvent | DealEnd | None = None
    for index, event, deal in walk(record):
        if line_of(index) > after:
            drawn = deal.last_draw
            if (
                isinstance(event, Discard)
                and isinstance(previous, Draw)
                and previous.seat == event.seat
                and drawn is not None
                and deal.self_draw_option() is None
            ):
                payers = [s for s in deal.in_play if s != event.seat]
                fake = _fake_win(event.seat, drawn, None, payers, record.base, len(record.start.hands))
                self_draws.append((index, fake))
            open_tile = deal.open_tile
            if deal.phase is Phase.CLAIM and open_tile is not None and not open_tile[2] and not open_tile[3]:
                source, tile = open_tile[0], open_tile[1]
                for seat in deal.in_play:
                    if seat != source and deal.win_on(seat, tile, WinContext()) is None:
                        fake = _fake_win(seat, tile, source, [source], record.base, len(record.start.hands))
                        claims.append((index, fake))
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
        inserted = line_of(index)
    return Applied(
        replace(record, events=tuple(events)), Mark("illegal_hu", "illegal_hu", line_of(index)), inserted
    )


def discard_not_held(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A discard of a tile the seat does not hold."""
    spots: list[tuple[int, list[int]]] = []
    for index, event, deal in walk(record):
        if isinstance(event, Discard) and line_of(index) > after:
            hand = deal.hands[event.seat]
            spots.append((index, [t for t in range(NUM_KINDS) if hand[t] == 0]))
    if not spots:
        return None
    index, missing = rng.choice(spots)
    discard = record.events[index]
    assert isinstance(discard, Discard)
    changed = replace_event(discard, tile=rng.choice(missing))
    return Applied(_replace_event(record, index, changed), Mark("not_in_hand", "not_in_hand", line_of(index)))


def pong_wrong_tile(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A pong of a tile that is not the last discard (one the seat holds a pair of, when it
    has one: the recorder took the wrong pair)."""
    spots: list[tuple[int, int]] = []
    for index, event, deal in walk(record):
        if isinstance(event, Pong) and line_of(index) > after:
            pairs = [t for t in range(NUM_KINDS) if deal.hands[event.seat][t] >= 2 and t != event.tile]
            spots.append((index, rng.choice(pairs) if pairs else other_tile(rng, event.tile)))
    if not spots:
        return None
    index, tile = rng.choice(spots)
    pong = record.events[index]
    assert isinstance(pong, Pong)
    return Applied(
        _replace_event(record, index, replace_event(pong, tile=tile)),
        Mark("illegal_pong", "illegal_pong", line_of(index)),
    )


def fifth_copy(record: DealRecord, rng: random.Random, after: int) -> Applied | None:
    """A fifth copy of a tile: one tile of a hand or of the recorded wall becomes another
    kind, of which the deal already has all four."""
    start = record.start
    if after >= 0 or start.wall is None:
        return None
    if rng.random() < 0.5:
        seat = rng.randrange(len(start.hands))
        hand = list(start.hands[seat])
        at = rng.randrange(len(hand))
        hand[at] = other_tile(rng, hand[at])
        hands = tuple(tuple(hand) if s == seat else h for s, h in enumerate(start.hands))
        changed = replace_event(start, hands=hands)
    else:
        wall = list(start.wall)
        at = rng.randrange(len(wall))
        wall[at] = other_tile(rng, wall[at])
        changed = replace_event(start, wall=tuple(wall))
    return Applied(replace(record, start=changed), Mark("tile_count", "tile_count", 0))


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
               lambda r: bool(kong_instead(r)), missed_forced_hu_by_kong, default=False),
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
