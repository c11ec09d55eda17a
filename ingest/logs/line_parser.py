"""One line of a log (docs/log-format.md, v1) decoded into an engine event, or a finding
that says in plain words what is wrong with it.

:class:`LineParser` has a fast path (msgspec decodes a valid line straight into its record)
and a slow one that explains a bad line: not JSON, no ``type``, an unknown type, a missing
or bad field, a bad tile, unknown fields (kept, with a warning). The log
builder (``ingest/logs/builder.py``) groups the parsed lines into sessions and deals; ingest's
chunk planner (``ingest/warehouse/chunks.py``) asks the same parser where sessions start. The
decoder and the record tables are public for the builder's and the reader's fast paths (a
draw or discard inside a deal).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

import msgspec

from engine.events import (
    DealEnd,
    DealStart,
    Discard,
    Draw,
    Event,
    Exchange,
    Finding,
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
from engine.messages import Text, article, in_rows, say, words
from engine.read_templates import json_error
from engine.tiles import ALL_TILES, SUITS, WILD, WILD_NAMES, TileError, parse_tile, parse_tiles, tile_name
from ingest.logs.records import (
    FIELD_MEANINGS,
    KNOWN_BY_CLASS,
    RECORD_TYPES,
    SHEET_RECORD_TYPES,
    AnyRecord,
    DealEndRec,
    DealRec,
    DiscardRec,
    DrawRec,
    ExchangeRec,
    HuRec,
    KongRec,
    PongRec,
    Record,
    SessionEndRec,
    SessionRec,
    SheetDealEndRec,
    SheetDealRec,
    SheetHuRec,
    SheetKongRec,
    SheetRecord,
    VoidRec,
)
from ingest.logs.revisions import revision_id

__all__ = [
    "DECODER",
    "DECODE_ERRORS",
    "FAST",
    "PLAY_TYPES",
    "TILE_IDS",
    "LineParser",
    "ParsedLine",
    "record_event",
    "show_value",
    "tiles_ok",
]

# --- tiles -----------------------------------------------------------------------------

TILE_IDS: Final[dict[str, int]] = {tile_name(t): t for t in ALL_TILES}
#: a list of tile names as ``parse_tiles(names, wild=True)`` reads it: a 红中 is one too
#: (a 红中 table's wall holds them: every such wall went the slow road, name by name)
_LIST_IDS: Final[dict[str, int]] = {**TILE_IDS, **dict.fromkeys(WILD_NAMES, WILD)}


class _BadTile(Exception):
    """A tile field that names no tile: the field and the tile reader's words."""

    def __init__(self, where: str, error: TileError) -> None:
        super().__init__(f"'{where}': {error}")
        self.where = where
        # the tile reader's words as its template where it names one (both languages)
        self.error: Text | str = say(error.key, **error.values) if error.key else str(error)


_RANK: Final[dict[str, int]] = {str(rank): rank - 1 for rank in range(1, 10)}
_SUIT_BASE: Final[dict[str, int]] = {suit: 9 * index for index, suit in enumerate(SUITS)}


def _compact(text: str) -> tuple[int, ...]:
    """``parse_tiles(text, wild=True)`` of a compact tile list, on a shorter road: every
    deal line has four hands. A 红中 reads as ``parse_tiles`` reads it (``7z``, ``77z``: 7s
    alone before ``z``; ``中`` where no digit waits); anything else that is not digits then
    their suit goes to ``parse_tiles``, which says what is wrong. Whether the table has
    红中 is the engine's to say (``engine/state.py``)."""
    tiles: list[int] = []
    start = 0  # the first digit of the group being read
    for index in range(len(text)):
        char = text[index]
        base = _SUIT_BASE.get(char, -1)
        if base < 0:
            if char == "z":
                if start == index:
                    return tuple(parse_tiles(text, wild=True))  # no digits before it: the error
                for at in range(start, index):
                    if text[at] != "7":
                        return tuple(parse_tiles(text, wild=True))  # not 7s: the error
                    tiles.append(WILD)
                start = index + 1
            elif char == "中" and start == index:
                tiles.append(WILD)
                start = index + 1
            continue
        if start == index:
            return tuple(parse_tiles(text, wild=True))  # a suit letter with no digits: the error
        for at in range(start, index):
            rank = _RANK.get(text[at], -1)
            if rank < 0:
                return tuple(parse_tiles(text, wild=True))  # not a digit: the error
            tiles.append(base + rank)
        start = index + 1
    if start != len(text):
        return tuple(parse_tiles(text, wild=True))  # digits with no suit letter, or a stray character
    return tuple(tiles)


#: single names and short lists repeat a lot, hands (13 or 14 tiles) and walls little
_short_compact: Final = lru_cache(maxsize=16384)(_compact)
_SHORT: Final = 8


def _tile(name: str, where: str) -> int:
    tile = TILE_IDS.get(name)
    if tile is None:
        try:
            return parse_tile(name, wild=True)
        except TileError as err:
            raise _BadTile(where, err) from None
    return tile


def _tiles(value: str | list[str], where: str) -> tuple[int, ...]:
    try:
        if isinstance(value, str):
            return _short_compact(value) if len(value) <= _SHORT else _compact(value)
        return tuple([_LIST_IDS[name] for name in value])
    except KeyError:
        try:
            return tuple(parse_tiles(value, wild=True))
        except TileError as err:
            raise _BadTile(where, err) from None
    except TileError as err:
        raise _BadTile(where, err) from None


# --- records -> engine events ----------------------------------------------------------


def _session(r: SessionRec, n: int) -> SessionStart:
    return SessionStart(
        session_id=r.session_id,
        players=r.players,
        rules=r.rules,
        base=r.base,
        club=r.club,
        table=r.table,
        started_at=r.started_at,
        line=n,
    )


def _deal(r: DealRec, n: int) -> DealStart:
    hands = tuple(_tiles(hand, f"hands[{i}]") for i, hand in enumerate(r.hands))
    wall = None if r.wall is None else _tiles(r.wall, "wall")
    dice = None if r.dice is None else (r.dice,) if isinstance(r.dice, int) else tuple(r.dice)
    deal_id = revision_id(r.deal_id, r.revision)
    return DealStart(deal_id=deal_id, dealer=r.dealer, hands=hands, wall=wall, dice=dice, line=n)


def _exchange(r: ExchangeRec, n: int) -> Exchange:
    tiles = tuple(_tiles(given, f"tiles[{i}]") for i, given in enumerate(r.tiles))
    return Exchange(direction=r.direction, tiles=tiles, line=n)


def _void(r: VoidRec, n: int) -> Void:
    return Void(seat=r.seat, suit=SUITS.index(r.suit), line=n)


def _draw(r: DrawRec, n: int) -> Draw:
    return Draw(seat=r.seat, tile=_tile(r.tile, "tile"), line=n)


def _discard(r: DiscardRec, n: int) -> Discard:
    return Discard(seat=r.seat, tile=_tile(r.tile, "tile"), line=n)


def _pong(r: PongRec, n: int) -> Pong:
    return Pong(seat=r.seat, tile=_tile(r.tile, "tile"), line=n)


def _kong(r: KongRec, n: int) -> Kong:
    return Kong(seat=r.seat, tile=_tile(r.tile, "tile"), kind=r.kind, deltas=r.deltas, line=n)


def _hu(r: HuRec, n: int) -> Hu:
    patterns = None if r.patterns is None else tuple(r.patterns)
    return Hu(
        seat=r.seat,
        tile=_tile(r.tile, "tile"),
        from_seat=r.from_,
        fan=r.fan,
        patterns=patterns,
        deltas=r.deltas,
        line=n,
    )


def _deal_end(r: DealEndRec, n: int) -> DealEnd:
    return DealEnd(reason=r.reason, settlement=r.settlement, scores=r.scores, line=n)


def _session_end(r: SessionEndRec, n: int) -> SessionEnd:
    return SessionEnd(totals=r.totals, line=n)


def _sheet_deal(r: SheetDealRec, n: int) -> DealStart:
    deal_id = revision_id(r.deal_id, r.revision)
    return DealStart(deal_id=deal_id, dealer=r.dealer, hands=(), line=n, record="sheet")


def _sheet_kong(r: SheetKongRec, n: int) -> SheetKong:
    tile = None if r.tile is None else _tile(r.tile, "tile")
    return SheetKong(r.seat, r.kind, r.from_, tile, r.deltas, r.same_turn, line=n)


def _sheet_hu(r: SheetHuRec, n: int) -> SheetHu:
    tile = None if r.tile is None else _tile(r.tile, "tile")
    return SheetHu(r.seat, r.from_, tuple(r.patterns), tile, r.fan, r.deltas, line=n)


def _sheet_end(r: SheetDealEndRec, n: int) -> DealEnd:
    pigs = None if r.flower_pigs is None else tuple(r.flower_pigs)
    return DealEnd(r.reason, r.settlement, r.scores, line=n, ready=r.ready, flower_pigs=pigs)


_Converter = Callable[[Any, int], Event | SheetEvent]
_CONVERT: Final[dict[type[Record], _Converter]] = {
    SessionRec: _session,
    DealRec: _deal,
    ExchangeRec: _exchange,
    VoidRec: _void,
    DrawRec: _draw,
    DiscardRec: _discard,
    PongRec: _pong,
    KongRec: _kong,
    HuRec: _hu,
    DealEndRec: _deal_end,
    SessionEndRec: _session_end,
    SheetDealRec: _sheet_deal,
    SheetKongRec: _sheet_kong,
    SheetHuRec: _sheet_hu,
    SheetDealEndRec: _sheet_end,
}
_TAG: Final[dict[type[Record], str]] = {
    cls: tag for types in (RECORD_TYPES, SHEET_RECORD_TYPES) for tag, cls in types.items()
} | {SheetDealRec: "deal"}


def record_event(rec: Record, n: int) -> Event | SheetEvent:
    """The event of a record that reads without a finding (its tiles name tiles), as
    :meth:`LineParser.parse` makes it: the reader builds a fast-read deal's events with it."""
    return _CONVERT[type(rec)](rec, n)


def tiles_ok(value: str | list[str]) -> bool:
    """Whether a tile list reads without a ``bad_tile`` finding (the reader's fast path asks)."""
    try:
        _tiles(value, "tiles")
    except _BadTile:
        return False
    return True


PLAY_TYPES: Final = frozenset({"exchange", "void", "draw", "discard", "pong", "kong", "hu"})
#: record types whose lines a deal takes without the general path (see LogBuilder.feed)
FAST: Final[dict[type, Callable[[int, int, int], Draw | Discard]]] = {DrawRec: Draw, DiscardRec: Discard}
DECODER: Final = msgspec.json.Decoder(AnyRecord)
_SHEET_DECODER: Final = msgspec.json.Decoder(SheetRecord)  # inside a score-sheet deal
# msgspec raises these on bad text: malformed JSON, lone surrogates, absurd nesting.
DECODE_ERRORS: Final = (msgspec.DecodeError, UnicodeError, RecursionError)


# --- one line --------------------------------------------------------------------------


@dataclass(slots=True)
class ParsedLine:
    """What one line says: its event type if recognisable, the event if readable."""

    kind: str | None
    event: Event | SheetEvent | None
    findings: list[Finding]
    extras: dict[str, Any] | None = None

    @property
    def error(self) -> Finding | None:
        return next((f for f in self.findings if f.severity == "error"), None)


def _json_kind(value: Any) -> Text:
    """What a JSON value is, in words of both languages ("an array" / 数组)."""
    if isinstance(value, dict):
        return say("json_object")
    if isinstance(value, list):
        return say("json_array")
    if isinstance(value, str):
        return say("json_string")
    if isinstance(value, bool):
        return say("json_true" if value else "json_false")
    if value is None:
        return say("json_null")
    return say("json_number")


def _meaning(name: str) -> dict[str, str]:
    """What field ``name`` must hold, in both languages."""
    zh, en = FIELD_MEANINGS[name]
    return words(zh, en)


def show_value(value: Any, limit: int = 60) -> str:
    """A value as a message shows it: its JSON, cut to ``limit`` characters (the reader's
    messages quote a bad deal id the same way)."""
    try:
        text = msgspec.json.encode(value).decode()
    except (TypeError, ValueError, OverflowError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _seat_of(obj: dict[str, Any]) -> int | None:
    seat = obj.get("seat")
    return seat if type(seat) is int and 0 <= seat <= 3 else None


#: the event types a line may have, as the unknown-type finding lists them
_TYPES: Final = ", ".join(RECORD_TYPES)
_MISSING = re.compile(r"Object missing required field `([^`]+)`(?: - at `\$(.*)`)?$")
_AT = re.compile(r" - at `\$\.([^.\[`]+)(.*)`$")


def _explain(err: msgspec.ValidationError, obj: dict[str, Any], kind: str, n: int) -> Text:
    """Turn msgspec's terse message into plain words naming the field and what it must be."""
    text = str(err)
    missing = _MISSING.match(text)
    if missing and not missing.group(2):
        name = missing.group(1)
        hint = say("read_field_hint", meaning=_meaning(name)) if name in FIELD_MEANINGS else ""
        return say("read_no_field", line=n, kind=kind, field=name, hint=hint)
    at = _AT.search(text)
    if at:
        name, rest = at.group(1), at.group(2)
        if name in FIELD_MEANINGS:
            where = say("read_field_at", at=name + rest) if rest else ""
            got = show_value(obj.get(name))
            return say("read_bad_field", line=n, field=name, meaning=_meaning(name), got=got, where=where)
    return say("read_not_valid", line=n, kind=kind, error=text)


class LineParser:
    """Decodes lines: a fast path for valid lines, a slow one that explains bad lines."""

    def __init__(self, name: str, rows: bool = False) -> None:
        self.name = name
        self.rows = rows  # the lines are a score sheet's rows: each finding says "row N"

    def finding(
        self,
        code: str,
        n: int,
        text: Text,
        seat: int | None = None,
        *,
        warning: bool = False,
        extra: dict[str, Any] | None = None,
    ) -> Finding:
        """A finding of line ``n`` (row ``n`` of a score sheet), its message a template with
        its values, so a page renders it again in the reader's language
        (:mod:`engine.read_templates`)."""
        if self.rows:
            text = in_rows(text)
        return Finding(
            code=code,
            line=n,
            seat=seat,
            message=text.en,
            severity="warning" if warning else "error",
            file=self.name,
            extra=extra or {},
            message_zh=text.zh,
            message_key=text.key,
            message_values=text.values,
        )

    def parse(self, n: int, text: str, sheet: bool = False) -> ParsedLine:
        try:
            rec = (_SHEET_DECODER if sheet else DECODER).decode(text)
        except DECODE_ERRORS:
            return self._slow(n, text, sheet)
        return self._convert(rec, n, None, [])

    def _convert(
        self, rec: Record, n: int, extras: dict[str, Any] | None, found: list[Finding]
    ) -> ParsedLine:
        cls = type(rec)
        kind = _TAG[cls]
        try:
            event = _CONVERT[cls](rec, n)
        except _BadTile as bad:
            seat = getattr(rec, "seat", None)
            text = say("read_bad_tile", line=n, field=bad.where, error=bad.error)
            found.append(self.finding("bad_tile", n, text, seat))
            return ParsedLine(kind, None, found, extras)
        return ParsedLine(kind, event, found, extras)

    def _slow(self, n: int, text: str, sheet: bool = False) -> ParsedLine:
        try:
            obj = msgspec.json.decode(text)
        except DECODE_ERRORS as err:
            said = say("read_not_json", line=n, error=json_error(str(err)))
            return ParsedLine(None, None, [self.finding("bad_record", n, said)])
        if not isinstance(obj, dict):
            said = say("read_not_object", line=n, got=_json_kind(obj))
            return ParsedLine(None, None, [self.finding("bad_record", n, said)])
        seat = _seat_of(obj)
        if "type" not in obj:
            said = say("read_no_type", line=n)
            return ParsedLine(None, None, [self.finding("bad_record", n, said, seat)])
        kind = obj["type"]
        if not isinstance(kind, str) or kind not in RECORD_TYPES:
            said = say("read_unknown_type", line=n, got=show_value(kind), types=_TYPES)
            return ParsedLine(None, None, [self.finding("bad_record", n, said, seat)])
        cls = (SHEET_RECORD_TYPES if sheet else RECORD_TYPES)[kind]
        if kind == "deal" and obj.get("record") == "sheet":
            cls = SheetDealRec
        known = KNOWN_BY_CLASS[cls]
        found: list[Finding] = []
        extras: dict[str, Any] | None = None
        unknown = [key for key in obj if key not in known]
        if unknown:
            extras = {key: obj.pop(key) for key in unknown}
            for key in unknown:
                said = say("read_unknown_field", line=n, field=key, a=article(kind), kind=kind)
                extra = {"field": key, "value": extras[key]}
                found.append(self.finding("unknown_field", n, said, seat, warning=True, extra=extra))
        try:
            rec = msgspec.convert(obj, cls)
        except msgspec.ValidationError as err:
            found.append(self.finding("bad_record", n, _explain(err, obj, kind, n), seat))
            return ParsedLine(kind, None, found, extras)
        return self._convert(rec, n, extras, found)
