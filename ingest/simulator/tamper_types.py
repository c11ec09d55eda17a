"""What the tamperer works with: a deal as recorded (:class:`DealRecord`), a kind of
corruption (:class:`Corruption`, a row of ``ingest/simulator/corruptions.py``'s table), the
mark it leaves (where the validator must report which code), and the helpers the
corruptions share. The machinery that picks and applies them is ``ingest/simulator/tamper.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import Literal

from engine.deal import Deal
from engine.events import DealEnd, DealStart, PlayEvent
from engine.rules import Rules
from engine.tiles import NUM_KINDS
from ingest.logs.writer import log_lines

Deltas = tuple[int, ...]  # one a seat of the table


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
def walk(record: DealRecord) -> Iterator[tuple[int, PlayEvent | DealEnd, Deal]]:
    """Each event with its index and the deal's state just before it (read it before the
    next step: the state then moves on)."""
    deal = Deal(record.start, record.rules, record.base)
    for index, event in enumerate((*record.events, record.end)):
        yield index, event, deal
        deal.apply(event)


def line_of(event_index: int) -> int:
    """The deal line of an event: line 0 is the deal line."""
    return event_index + 1


def other_tile(rng: random.Random, tile: int) -> int:
    """Any tile kind but ``tile`` (a wrong tile the seat may not hold)."""
    return rng.choice([t for t in range(NUM_KINDS) if t != tile])
