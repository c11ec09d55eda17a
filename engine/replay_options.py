"""How a deal is replayed, beside what it is: one value (:class:`ReplayOptions`) that the
engine's replay (``engine/replay.py``), the sheet audit (``engine/sheet.py``) and the fast
check (``ingest/replay/fast_check.py``) take, instead of the same keywords in each."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from engine.deal import Deal
from engine.events import DealEnd, Finding, PlayEvent, SheetEvent
from engine.report import FindingSink

StepHook = Callable[[PlayEvent | DealEnd, Deal, FindingSink], None]


@dataclass(frozen=True)
class ReplayOptions:
    """How a deal is replayed, beside what it is (its start, events, end and rules).

    ``read_findings`` (lines of the deal the reader could not use) open its report;
    ``on_step(event, deal, sink)`` sees the state after every event (the replay views);
    ``sheet_events`` are a score sheet's declared facts; ``keep_state`` keeps the final
    :class:`Deal` in the report."""

    base: int = 1
    session_id: str | None = None
    keep_state: bool = False
    read_findings: Sequence[Finding] = ()
    on_step: StepHook | None = None
    sheet_events: Sequence[SheetEvent] = ()


#: the options of a plain replay: base 1, no session, nothing kept
PLAIN: Final = ReplayOptions()
