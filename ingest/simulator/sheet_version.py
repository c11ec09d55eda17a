"""A tile deal as a club would write it on its score sheet (docs/log-format.md, "Score
sheets"): the kongs (who, kind, from whom), the wins with their patterns, and at an empty
wall who is ready at what fan and who is a 花猪. The simulator's deals become sheet deals
this way, so the differential test can check that the same deal priced from tiles and
priced from the sheet gives the same payments; the JSON writer here writes them as log
lines (golden files, demo data)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.deal import Deal
from engine.events import DealEnd, DealStart, Hu, Kong, PlayEvent, SheetEvent, SheetHu, SheetKong
from engine.rules import Rules


@dataclass(frozen=True)
class SheetDeal:
    start: DealStart
    events: list[SheetEvent]
    end: DealEnd


def sheet_version(
    start: DealStart,
    events: Sequence[PlayEvent],
    end: DealEnd,
    rules: Rules,
    base: int = 1,
    *,
    claims: bool = False,
) -> SheetDeal:
    """The sheet of a legal tile deal; ``claims`` also copies the recorder's fan and
    deltas (computed by the tile replay) onto it."""
    deal = Deal(start, rules, base)
    out: list[SheetEvent] = []
    for event in events:
        if isinstance(event, Kong):
            open_tile = deal.open_tile
            feeder = open_tile[0] if event.kind == "exposed" and open_tile is not None else None
            same_turn = deal.last_draw == event.tile  # what added_kong_same_turn_only asks
            deal.apply(event)
            out.append(
                SheetKong(event.seat, event.kind, feeder, event.tile, same_turn=same_turn, line=event.line)
            )
        elif isinstance(event, Hu):
            deal.apply(event)
            win = deal.wins[-1]
            fan = win.result.fan if claims else None
            paid = win.deltas[: len(deal.order)] if claims else None  # one a seat
            out.append(
                SheetHu(
                    event.seat, event.from_seat, win.result.patterns, event.tile, fan, paid, line=event.line
                )
            )
        else:
            deal.apply(event)
    deal.apply(DealEnd("?"))
    settled = deal.end_reason == "wall_exhausted" and len(deal.in_play) >= 2
    ready = tuple(deal.ready_at_end.get(seat) for seat in deal.order) if settled else None
    pigs = tuple(sorted(deal.pigs)) if settled else None
    if claims:
        kong_deltas = {made.line: made.deltas[: len(deal.order)] for made in deal.kongs}
        out = [_with_deltas(ev, kong_deltas.get(ev.line)) if isinstance(ev, SheetKong) else ev for ev in out]
    sheet_end = DealEnd(
        deal.end_reason or "?",
        end.settlement if claims else None,
        end.scores if claims else None,
        line=end.line,
        ready=ready,
        flower_pigs=pigs,
    )
    sheet_start = DealStart(start.deal_id, start.dealer, (), line=start.line, record="sheet")
    return SheetDeal(sheet_start, out, sheet_end)


def _with_deltas(ev: SheetKong, paid: tuple[int, ...] | None) -> SheetKong:
    return SheetKong(ev.seat, ev.kind, ev.from_seat, ev.tile, paid, ev.same_turn, line=ev.line)
