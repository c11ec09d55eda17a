"""Some simulated sessions as a club's score sheets: ``chuanma simulate --sheet-sessions``.

The demo warehouse should hold both kinds of record (tile logs and 记分 sheets), so each
page shows statistics over both. A session picked here has every deal replaced by its
sheet version (:func:`ingest.simulator.sheet_version.sheet_version`, with the recorder's claims,
so its points and totals are what the tile deal scored). The pick has its own random
stream, so that a run without sheet sessions deals the same from the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from engine.events import DealEnd, DealStart, Event, PlayEvent, SessionEnd, SessionStart, SheetEvent
from engine.rules import Rules, load_rules
from ingest.simulator.sheet_version import sheet_version


def with_sheet_sessions(events: Iterable[Event], rate: float, seed: int) -> Iterator[Event | SheetEvent]:
    """``events`` (a simulated club) with about ``rate`` (0 to 1) of its sessions as sheets."""
    rng = random.Random(f"chuanma-sheets/{seed}")
    rules: Rules | None = None  # the open session's rule set when it is a sheet session
    base = 1
    deal: tuple[DealStart, list[PlayEvent]] | None = None
    for event in events:
        if isinstance(event, SessionStart):
            picked = rate > 0 and rng.random() < rate
            rules = load_rules(event.rules if event.rules is not None else "standard") if picked else None
            base = event.base
            yield event
        elif rules is None:
            yield event
        elif isinstance(event, DealStart):
            deal = (event, [])
        elif isinstance(event, DealEnd):
            assert deal is not None, "a deal_end outside a deal: sheet sessions take simulated logs"
            sheet = sheet_version(deal[0], deal[1], event, rules, base, claims=True)
            yield sheet.start
            yield from sheet.events
            yield sheet.end
            deal = None
        elif isinstance(event, SessionEnd):
            yield event
        else:
            assert deal is not None, (
                f"a {event.type} event outside a deal: sheet sessions take simulated logs"
            )
            deal[1].append(event)
