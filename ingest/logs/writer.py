"""Events back to log format v1 JSON: the inverse of the reader, used by the simulator."""

from __future__ import annotations

import gzip
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, Final

import msgspec

from engine.events import (
    DealEnd,
    DealStart,
    Discard,
    Draw,
    Event,
    Exchange,
    Hu,
    Kong,
    Pong,
    SessionEnd,
    SessionStart,
    SheetEvent,
    SheetHu,
    SheetKong,
    Void,
)
from engine.tiles import SUITS, format_tiles, tile_name

#: compact JSON with non-ASCII kept (what ``json.dumps(ensure_ascii=False,
#: separators=(",", ":"))`` writes, byte for byte), and much faster
_ENCODE: Final = msgspec.json.Encoder().encode


def _tiles_in_order(tiles: tuple[int, ...]) -> list[str]:
    return [tile_name(t) for t in tiles]


def event_json(event: Event | SheetEvent, t: int | str | None = None) -> dict[str, Any]:
    """One event as the JSON object of its log line (optional claims only when known); a
    score sheet's lines as :func:`sheet_json` writes them."""
    if (
        isinstance(event, SheetKong | SheetHu)
        or (isinstance(event, DealStart) and event.record == "sheet")
        or (isinstance(event, DealEnd) and (event.ready is not None or event.flower_pigs is not None))
    ):
        sheet = sheet_json(event)
        if t is not None:
            sheet["t"] = t
        return sheet
    out: dict[str, Any] = {"type": event.type}
    if isinstance(event, SessionStart):
        out["session_id"] = event.session_id
        out["players"] = list(event.players)
        if event.rules is not None:
            out["rules"] = event.rules
        out["base"] = event.base
        for key in ("club", "table", "started_at"):
            value = getattr(event, key)
            if value is not None:
                out[key] = value
    elif isinstance(event, DealStart):
        out["deal_id"] = event.deal_id
        out["dealer"] = event.dealer
        out["hands"] = [format_tiles(hand) for hand in event.hands]
        if event.wall is not None:
            out["wall"] = _tiles_in_order(event.wall)  # drawing order matters: no sorting
        if event.dice is not None:
            out["dice"] = list(event.dice)
    elif isinstance(event, Exchange):
        out["direction"] = event.direction
        out["tiles"] = [format_tiles(given) for given in event.tiles]
    elif isinstance(event, Void):
        out["seat"] = event.seat
        out["suit"] = SUITS[event.suit]
    elif isinstance(event, Draw | Discard | Pong):
        out["seat"] = event.seat
        out["tile"] = tile_name(event.tile)
    elif isinstance(event, Kong):
        out["seat"] = event.seat
        out["tile"] = tile_name(event.tile)
        out["kind"] = event.kind
        if event.deltas is not None:
            out["deltas"] = list(event.deltas)
    elif isinstance(event, Hu):
        out["seat"] = event.seat
        out["tile"] = tile_name(event.tile)
        out["from"] = event.from_seat
        if event.fan is not None:
            out["fan"] = event.fan
        if event.patterns is not None:
            out["patterns"] = list(event.patterns)
        if event.deltas is not None:
            out["deltas"] = list(event.deltas)
    elif isinstance(event, DealEnd):
        out["reason"] = event.reason
        if event.settlement is not None:
            out["settlement"] = list(event.settlement)
        if event.scores is not None:
            out["scores"] = list(event.scores)
    elif isinstance(event, SessionEnd) and event.totals is not None:
        out["totals"] = list(event.totals)
    if t is not None:
        out["t"] = t
    return out


def log_lines(events: Iterable[Event | SheetEvent]) -> Iterator[str]:
    """JSON lines with ``t``: ISO time on session lines, milliseconds into the deal otherwise."""
    clock = 0
    for event in events:
        if isinstance(event, DealStart):
            clock = 0
        elif not isinstance(event, SessionStart | SessionEnd):
            clock += 2500 if isinstance(event, Draw) else 4000
        t = None if isinstance(event, SessionStart | SessionEnd) else clock
        yield _ENCODE(event_json(event, t)).decode("utf-8")


def write_log(events: Iterable[Event | SheetEvent], path: str | Path) -> int:
    """Write events as log v1 (gzip when the name ends in ``.gz``, reproducibly: no
    timestamp in the gzip header); returns the number of lines."""
    return write_lines(log_lines(events), path)


def write_lines(lines: Iterable[str], path: str | Path) -> int:
    """Write ready-made lines (one event each, no line ending) the way :func:`write_log`
    does: gzip when the name ends in ``.gz``, no timestamp, atomically. The tamperer uses
    it for lines that are deliberately no event at all."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with open(partial, "wb") as raw:
        if path.name.endswith(".gz"):
            # level 6 (gzip's own default) rather than Python's 9: much faster for a few more bytes
            with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0, filename="") as zipped:
                count = _write_lines(zipped, lines)
        else:
            count = _write_lines(raw, lines)
    os.replace(partial, path)  # an interrupted run leaves no half file under the real name
    return count


def _write_lines(stream: IO[bytes] | gzip.GzipFile, lines: Iterable[str]) -> int:
    count = 0
    for line in lines:
        stream.write(line.encode("utf-8") + b"\n")
        count += 1
    return count


def sheet_json(event: DealStart | SheetEvent | DealEnd) -> dict[str, Any]:
    """One line of a sheet deal as log-format JSON (optional fields only when known)."""
    if isinstance(event, DealStart):
        return {"type": "deal", "deal_id": event.deal_id, "record": "sheet", "dealer": event.dealer}
    if isinstance(event, DealEnd):
        out: dict[str, Any] = {"type": "deal_end", "reason": event.reason}
        extra: dict[str, Any] = {"ready": event.ready, "flower_pigs": event.flower_pigs}
        extra |= {"settlement": event.settlement, "scores": event.scores}
    elif isinstance(event, SheetKong):
        out = {"type": "kong", "seat": event.seat, "kind": event.kind}
        if event.kind == "exposed":
            out["from"] = event.from_seat
        extra = {"tile": event.tile, "deltas": event.deltas, "same_turn": None if event.same_turn else False}
    else:
        out = {"type": "hu", "seat": event.seat, "from": event.from_seat, "patterns": list(event.patterns)}
        extra = {"tile": event.tile, "fan": event.fan, "deltas": event.deltas}
    for key, value in extra.items():
        if value is None:
            continue
        if key == "tile":
            out[key] = tile_name(value)
        else:
            out[key] = list(value) if isinstance(value, tuple) else value
    return out
