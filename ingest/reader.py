"""Read game logs (docs/log-format.md, v1) into typed engine events, grouped by session and deal.

This is the I/O shell around ``engine``: it never raises on bad input. Every problem is a
``Finding`` and every non-blank line ends up in exactly one place, so quarantine can keep
all of it with a reason:

- a deal's ``raw_lines`` (its ``deal`` line, every line up to its ``deal_end``, that line);
- a session's ``raw_lines`` (its ``session`` and ``session_end`` lines);
- ``LogFile.stray``, with the finding that explains why the line belongs to no deal.

Decisions where the format is silent (also in docs/log-format.md):

- A bad line inside a deal (not JSON, unknown ``type``, missing field, bad value, bad tile)
  is a finding of that deal; the line stays in the deal's ``raw_lines`` and the deal keeps
  its other events. The replay then sees the deal without that event.
- A ``deal`` line that cannot be read (bad value or bad tile) opens no deal: it is stray
  with its own finding, and its lines up to its ``deal_end`` (or the next ``deal``,
  ``session`` or ``session_end``) are stray with one shared finding that points at it.
- A ``session`` line that cannot be read still opens a session: ``SessionLog.session`` is
  None, the finding is in ``SessionLog.findings``, and the following deals are read as
  usual, so a caller may still replay them (with default rules) or quarantine them all.
- Deals before any ``session`` line, or after a ``session_end`` and before the next
  ``session``, are grouped in a ``SessionLog`` with ``session=None`` and ``line=None``;
  each such deal gets a ``bad_record`` finding in ``LogFile.findings``.
- A deal with no ``deal_end`` (the next deal, session, session_end or end of file came
  first) has ``end=None``; the replay reports it (``wrong_end``). A ``deal_end`` that
  cannot be read still closes its deal, also with ``end=None`` and a finding.
- A ``session_end`` closes the open deal and the session (one that cannot be read too,
  leaving ``end=None``); one with no open session line is stray.
- Unknown fields are warnings (``unknown_field``): reported at the first line of a deal
  that has them (once per field name per deal, so a recorder that adds a field to every
  line does not bury the real findings), and kept in ``DealLog.extras`` by line number
  (``SessionLog.extras`` for session lines).
- Blank lines are skipped (they are in no ``raw_lines``); line numbers count them.
- Gzip is detected by its magic bytes. Truncated or corrupt gzip data: the complete lines
  before the break are read, a cut-off last line is stray, and ``LogFile.findings`` says
  where the data stopped.
- Lines that are not UTF-8 are ``bad_record`` findings; the raw text keeps them with
  replacement characters.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
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
    PlayEvent,
    Pong,
    SessionEnd,
    SessionStart,
    SheetEvent,
    SheetHu,
    SheetKong,
    Void,
)
from engine.tiles import ALL_TILES, SUITS, TileError, parse_tile, parse_tiles, tile_name
from ingest.gcpause import gc_paused
from ingest.records import (
    FIELD_MEANING,
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
from ingest.revisions import revision_id

__all__ = ["DealLog", "LogFile", "SessionLog", "read_lines", "read_log", "read_log_bytes"]


@dataclass
class DealLog:
    """One deal as read: its events in file order and what was wrong with its lines."""

    deal: DealStart
    events: list[PlayEvent]
    end: DealEnd | None
    findings: list[Finding]
    line_numbers: list[int]  # of its raw lines, in file order
    texts: list[str]  # its raw lines (two flat lists: no tuple per line for the collector to walk)
    last_line: int
    extras: dict[int, dict[str, Any]] = field(default_factory=dict)  # unknown fields by line
    sheet_events: list[SheetEvent] = field(default_factory=list)  # a score-sheet deal's kongs and wins

    @property
    def raw_lines(self) -> list[tuple[int, str]]:
        """(line number, text) of every line of the deal, its deal and deal_end lines too."""
        return list(zip(self.line_numbers, self.texts, strict=True))

    def keep(self, n: int, text: str) -> None:
        self.line_numbers.append(n)
        self.texts.append(text)
        self.last_line = n


@dataclass
class SessionLog:
    """A session's deals; ``session`` is None when its line was missing or unreadable."""

    session: SessionStart | None
    deals: list[DealLog]
    end: SessionEnd | None
    findings: list[Finding]
    line: int | None = None  # the session line; None when the file had none for these deals
    raw_lines: list[tuple[int, str]] = field(default_factory=list)  # session + session_end lines
    extras: dict[int, dict[str, Any]] = field(default_factory=dict)


@dataclass
class LogFile:
    """Everything read from one file; ``stray`` holds the lines that belong to no deal."""

    path: str
    sessions: list[SessionLog]
    stray: list[tuple[int, str, Finding]]
    findings: list[Finding]

    def iter_deals(self) -> Iterator[tuple[SessionLog, DealLog]]:
        for session in self.sessions:
            for deal in session.deals:
                yield session, deal


# --- tiles -----------------------------------------------------------------------------

_TILE_IDS: Final[dict[str, int]] = {tile_name(t): t for t in ALL_TILES}


class _BadTile(Exception):
    """A tile field that names no tile; carries the finding's message."""


@lru_cache(maxsize=16384)
def _compact(text: str) -> tuple[int, ...]:
    # Hands and walls repeat little, but single names and short lists repeat a lot.
    return tuple(parse_tiles(text))


def _tile(name: str, where: str) -> int:
    tile = _TILE_IDS.get(name)
    if tile is None:
        try:
            return parse_tile(name)
        except TileError as err:
            raise _BadTile(f"'{where}': {err}") from None
    return tile


def _tiles(value: str | list[str], where: str) -> tuple[int, ...]:
    try:
        if isinstance(value, str):
            return _compact(value)
        return tuple([_TILE_IDS[name] for name in value])
    except KeyError:
        try:
            return tuple(parse_tiles(value))
        except TileError as err:
            raise _BadTile(f"'{where}': {err}") from None
    except TileError as err:
        raise _BadTile(f"'{where}': {err}") from None


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
_PLAY_TYPES: Final = frozenset({"exchange", "void", "draw", "discard", "pong", "kong", "hu"})
#: record types whose lines a deal takes without the general path (see _Builder.feed)
_FAST: Final[dict[type, Callable[[int, int, int], Draw | Discard]]] = {DrawRec: Draw, DiscardRec: Discard}
_DECODER: Final = msgspec.json.Decoder(AnyRecord)
_SHEET_DECODER: Final = msgspec.json.Decoder(SheetRecord)  # inside a score-sheet deal
# msgspec raises these on bad text: malformed JSON, lone surrogates, absurd nesting.
_DECODE_ERRORS: Final = (msgspec.DecodeError, UnicodeError, RecursionError)


# --- one line --------------------------------------------------------------------------


@dataclass(slots=True)
class _Line:
    """What one line says: its event type if recognisable, the event if readable."""

    kind: str | None
    event: Event | SheetEvent | None
    findings: list[Finding]
    extras: dict[str, Any] | None = None

    @property
    def error(self) -> Finding | None:
        return next((f for f in self.findings if f.severity == "error"), None)


def _json_kind(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return "a number"


def _show(value: Any, limit: int = 60) -> str:
    try:
        text = msgspec.json.encode(value).decode()
    except (TypeError, ValueError, OverflowError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _seat_of(obj: dict[str, Any]) -> int | None:
    seat = obj.get("seat")
    return seat if type(seat) is int and 0 <= seat <= 3 else None


_MISSING = re.compile(r"Object missing required field `([^`]+)`(?: - at `\$(.*)`)?$")
_AT = re.compile(r" - at `\$\.([^.\[`]+)(.*)`$")


def _explain(err: msgspec.ValidationError, obj: dict[str, Any], kind: str, n: int) -> str:
    """Turn msgspec's terse message into plain words naming the field and what it must be."""
    text = str(err)
    missing = _MISSING.match(text)
    if missing and not missing.group(2):
        name = missing.group(1)
        meaning = FIELD_MEANING.get(name)
        hint = f" ({meaning})" if meaning else ""
        return f"line {n}: the {kind} event has no '{name}' field{hint}"
    at = _AT.search(text)
    if at:
        name, rest = at.group(1), at.group(2)
        meaning = FIELD_MEANING.get(name)
        if meaning:
            where = f" (at {name}{rest})" if rest else ""
            return f"line {n}: '{name}' must be {meaning}, got {_show(obj.get(name))}{where}"
    return f"line {n}: the {kind} event is not valid: {text}"


class _Parser:
    """Decodes lines: a fast path for valid lines, a slow one that explains bad lines."""

    def __init__(self, name: str) -> None:
        self.name = name

    def finding(
        self,
        code: str,
        n: int,
        message: str,
        seat: int | None = None,
        *,
        warning: bool = False,
        extra: dict[str, Any] | None = None,
    ) -> Finding:
        return Finding(
            code=code,
            line=n,
            seat=seat,
            message=message,
            severity="warning" if warning else "error",
            file=self.name,
            extra=extra or {},
        )

    def parse(self, n: int, text: str, sheet: bool = False) -> _Line:
        try:
            rec = (_SHEET_DECODER if sheet else _DECODER).decode(text)
        except _DECODE_ERRORS:
            return self._slow(n, text, sheet)
        return self._convert(rec, n, None, [])

    def _convert(self, rec: Record, n: int, extras: dict[str, Any] | None, found: list[Finding]) -> _Line:
        cls = type(rec)
        kind = _TAG[cls]
        try:
            event = _CONVERT[cls](rec, n)
        except _BadTile as bad:
            seat = getattr(rec, "seat", None)
            found.append(self.finding("bad_tile", n, f"line {n}: {bad}", seat))
            return _Line(kind, None, found, extras)
        return _Line(kind, event, found, extras)

    def _slow(self, n: int, text: str, sheet: bool = False) -> _Line:
        try:
            obj = msgspec.json.decode(text)
        except _DECODE_ERRORS as err:
            return _Line(None, None, [self.finding("bad_record", n, f"line {n}: not valid JSON ({err})")])
        if not isinstance(obj, dict):
            message = f"line {n}: expected a JSON object {{...}}, got {_json_kind(obj)}"
            return _Line(None, None, [self.finding("bad_record", n, message)])
        seat = _seat_of(obj)
        if "type" not in obj:
            message = f"line {n}: the object has no 'type' field, so it is no event of the log format"
            return _Line(None, None, [self.finding("bad_record", n, message, seat)])
        kind = obj["type"]
        if not isinstance(kind, str) or kind not in RECORD_TYPES:
            message = f"line {n}: unknown event type {_show(kind)}; expected {FIELD_MEANING['type']}"
            return _Line(None, None, [self.finding("bad_record", n, message, seat)])
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
                message = f"line {n}: unknown field '{key}' on a {kind} event; kept, but not checked"
                extra = {"field": key, "value": extras[key]}
                found.append(self.finding("unknown_field", n, message, seat, warning=True, extra=extra))
        try:
            rec = msgspec.convert(obj, cls)
        except msgspec.ValidationError as err:
            found.append(self.finding("bad_record", n, _explain(err, obj, kind, n), seat))
            return _Line(kind, None, found, extras)
        return self._convert(rec, n, extras, found)


# --- grouping lines into sessions and deals --------------------------------------------


class _Builder:
    """Routes each line to its deal, its session or ``stray`` (see the module docstring)."""

    def __init__(self, name: str) -> None:
        self.parser = _Parser(name)
        self.log = LogFile(path=name, sessions=[], stray=[], findings=[])
        self.session: SessionLog | None = None  # open to new deals
        self.deal: DealLog | None = None
        self.deal_unknown: set[str] = set()  # unknown field names already reported in self.deal
        self.sweep: Finding | None = None  # set while skipping the lines of an unreadable deal
        self.sweep_reported = False  # the sweep's finding is in log.findings once, when first used
        self.last_end: int | None = None  # line of the last deal_end, for stray messages
        self.last_session_end: int | None = None

    def feed(self, n: int, text: str) -> None:
        if not text or text.isspace():
            return
        deal = self.deal
        if deal is not None:  # fast path: a draw or discard inside a deal (most lines)
            try:
                rec = _DECODER.decode(text)
            except _DECODE_ERRORS:
                rec = None
            make = _FAST.get(type(rec))
            if make is not None:
                tile = _TILE_IDS.get(rec.tile)
                if tile is not None:
                    deal.events.append(make(rec.seat, tile, n))
                    deal.keep(n, text)
                    return
        parsed = self.parser.parse(n, text, deal is not None and deal.deal.record == "sheet")
        kind = parsed.kind
        deal = self.deal
        if deal is not None and (kind is None or kind in _PLAY_TYPES):
            deal.keep(n, text)
            event = parsed.event
            if isinstance(event, (SheetKong, SheetHu)):
                deal.sheet_events.append(event)
            elif event is not None:
                deal.events.append(event)  # type: ignore[arg-type]
            if parsed.findings:
                self._deal_findings(deal, n, parsed)
        elif kind == "deal":
            self._open_deal(n, text, parsed)
        elif kind == "deal_end":
            self._end_deal(n, text, parsed)
        elif kind == "session":
            self._open_session(n, text, parsed)
        elif kind == "session_end":
            self._end_session(n, text, parsed)
        else:
            self._outside(n, text, parsed)

    def bad_line(self, n: int, text: str, message: str) -> None:
        """A line that could not even be decoded as text: a finding wherever it falls."""
        parsed = _Line(None, None, [self.parser.finding("bad_record", n, f"line {n}: {message}")])
        if self.deal is not None:
            self.deal.keep(n, text)
            self.deal.findings.extend(parsed.findings)
        else:
            self._outside(n, text, parsed)

    def finish(self) -> LogFile:
        self.deal = None
        return self.log

    # -- deals

    def _deal_findings(self, deal: DealLog, n: int, parsed: _Line) -> None:
        if parsed.extras:
            deal.extras[n] = parsed.extras
        for finding in parsed.findings:
            if finding.code == "unknown_field":
                name = finding.extra["field"]
                if name in self.deal_unknown:
                    continue
                self.deal_unknown.add(name)
            deal.findings.append(finding)

    def _open_deal(self, n: int, text: str, parsed: _Line) -> None:
        self.deal = None
        self.sweep = None
        event = parsed.event
        if not isinstance(event, DealStart):
            error = parsed.error
            assert error is not None
            message = (
                f"line {n}: the deal opened here could not be read, so its lines up to the next "
                "deal or session line are set aside with it"
            )
            self.sweep = self.parser.finding("bad_record", n, message)
            self.sweep_reported = False
            self._stray(n, text, error, parsed.findings)
            return
        if self.session is None:
            if self.last_session_end is not None:
                where = f"after the session_end at line {self.last_session_end}, before a new session line"
            else:
                where = "before any session line"
            message = f"line {n}: deal {_show(event.deal_id)} comes {where}, so it has no players or rules"
            self.log.findings.append(self.parser.finding("bad_record", n, message))
            self.session = SessionLog(session=None, deals=[], end=None, findings=[])
            self.log.sessions.append(self.session)
        deal = DealLog(event, [], None, [], [n], [text], n)
        self.deal = deal
        self.deal_unknown = set()
        self.session.deals.append(deal)
        if parsed.findings:
            self._deal_findings(deal, n, parsed)

    def _end_deal(self, n: int, text: str, parsed: _Line) -> None:
        deal = self.deal
        if deal is None:
            self._outside(n, text, parsed)
            if self.sweep is not None:
                self.sweep = None
                self.last_end = n
            return
        deal.keep(n, text)
        if isinstance(parsed.event, DealEnd):
            deal.end = parsed.event
        if parsed.findings:
            self._deal_findings(deal, n, parsed)
        self.deal = None
        self.last_end = n

    # -- sessions

    def _open_session(self, n: int, text: str, parsed: _Line) -> None:
        self.deal = None
        self.sweep = None
        self.last_end = None  # stray lines are placed within their session (and a file
        # cut at session lines for ingest reads the same)
        event = parsed.event if isinstance(parsed.event, SessionStart) else None
        session = SessionLog(
            session=event, deals=[], end=None, findings=list(parsed.findings), line=n, raw_lines=[(n, text)]
        )
        if parsed.extras:
            session.extras[n] = parsed.extras
        self.log.sessions.append(session)
        self.session = session

    def _end_session(self, n: int, text: str, parsed: _Line) -> None:
        self.deal = None
        self.sweep = None
        session = self.session
        if session is None or session.line is None:
            message = f"line {n}: a session_end with no session line before it"
            self._stray(n, text, self.parser.finding("bad_record", n, message), parsed.findings)
            self.session = None
            return
        session.raw_lines.append((n, text))
        session.findings.extend(parsed.findings)
        if parsed.extras:
            session.extras[n] = parsed.extras
        if isinstance(parsed.event, SessionEnd):
            session.end = parsed.event
        self.session = None
        self.last_session_end = n

    # -- lines that belong to no deal

    def _outside(self, n: int, text: str, parsed: _Line) -> None:
        if self.sweep is not None:
            self._stray(n, text, parsed.error or self.sweep, parsed.findings)
            return
        error = parsed.error
        if parsed.kind is not None:
            seat = getattr(parsed.event, "seat", None)
            if self.last_end is not None:
                context = f"the last deal ended at line {self.last_end}"
            else:
                context = "no deal has started yet"
            message = f"line {n}: a {parsed.kind} event outside any deal ({context})"
            error = self.parser.finding("bad_record", n, message, seat)
        assert error is not None
        self._stray(n, text, error, parsed.findings)

    def _stray(self, n: int, text: str, reason: Finding, others: list[Finding]) -> None:
        self.log.stray.append((n, text, reason))
        if reason is self.sweep:
            if not self.sweep_reported:
                self.log.findings.append(reason)
                self.sweep_reported = True
        else:
            self.log.findings.append(reason)
        self.log.findings.extend(f for f in others if f is not reason)


# --- entry points ----------------------------------------------------------------------

_GZIP_MAGIC: Final = b"\x1f\x8b"
_CHUNK: Final = 1 << 13  # gzip input per step (small: the bomb check counts what was fed)
_PIECE: Final = 1 << 20  # most inflated bytes one step may yield: memory stays bounded
MAX_INFLATED: Final = 256 << 20  # the default limits of :class:`Limits` (module constants:
MAX_LINE: Final = 1 << 20  # mypyc reads no dataclass default through the class)
MAX_RATIO: Final = 40.0


class Limits(msgspec.Struct, frozen=True):
    """What one file may cost: a gzip bomb (1 MB that inflates to 1 GB) or a line of
    hundreds of MB is read up to these and no further, with a ``bad_record`` finding.

    ``max_ratio``: past ``RATIO_FLOOR`` bytes, gzip data that inflates more than this
    many times the compressed bytes read so far is taken for a bomb (game logs inflate
    about 8 times). Defaults from ``CHUANMA_MAX_INFLATED_MB``, ``CHUANMA_MAX_LINE_KB``
    and ``CHUANMA_MAX_GZIP_RATIO`` (the CLI's ``--max-inflated-mb`` and
    ``--max-line-kb`` set the first two); a club's 20,000-deal log is about 135 MB of
    text, so the default leaves room. A msgspec Struct, not a dataclass: it travels to the
    ingest's worker processes with each chunk, and a compiled frozen dataclass does not
    unpickle there."""

    max_inflated: int = MAX_INFLATED  # bytes of text per file
    max_line: int = MAX_LINE  # bytes per line
    max_ratio: float = MAX_RATIO

    @classmethod
    def from_env(cls) -> Limits:
        return cls(
            int(_env_number("CHUANMA_MAX_INFLATED_MB", MAX_INFLATED, 1 << 20)),
            int(_env_number("CHUANMA_MAX_LINE_KB", MAX_LINE, 1 << 10)),
            _env_number("CHUANMA_MAX_GZIP_RATIO", MAX_RATIO, 1),
        )


def _env_number(name: str, default: float, unit: int) -> float:
    """A positive number of ``unit`` from the environment, else ``default`` (a module
    function: mypyc cannot compile a closure inside a Struct's method)."""
    import os

    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value * unit if value > 0 else default


RATIO_FLOOR: Final = 1 << 20  # inflated bytes before the ratio counts (a log of 1 MB is ~150 deals)


def file_name(path: str | Path) -> str:
    """A path as stored and printed: valid UTF-8 always. A name that is not UTF-8 (bytes
    kept by Python as surrogates) has each such byte written ``\\xNN``, which
    :func:`name_bytes` turns back into the bytes."""
    name = str(path)
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return name


def name_bytes(stored: str) -> bytes:
    """The file name's bytes from :func:`file_name`'s text (its inverse for such names)."""
    return re.sub(rb"\\x([0-9a-f]{2})", lambda m: bytes([int(m.group(1), 16)]), stored.encode("utf-8"))


def read_source(path: str | Path, keep: int | None = None) -> tuple[bytes, str, int]:
    """A log file's bytes (the first ``keep`` of them), the whole file's sha256 and size,
    read only if it is a regular file: a FIFO or a device would block or never end, so it
    is an OSError, as a missing file is."""
    import hashlib
    import os
    import stat

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a special file"
            raise OSError(0, f"not a regular file ({kind}), skipped", str(path))
        digest = hashlib.sha256()
        kept = bytearray()
        size = 0
        with os.fdopen(os.dup(fd), "rb") as handle:
            while block := handle.read(_PIECE * 8):
                digest.update(block)
                size += len(block)
                if keep is None or len(kept) < keep:
                    kept += block if keep is None else block[: keep - len(kept)]
    finally:
        os.close(fd)
    return bytes(kept), digest.hexdigest(), size


def _salvage(good: bytes, piece: bytes) -> list[bytes]:
    """The output of a failing gzip step up to the bad byte: redo it one byte at a time.

    ``good`` is the member's input before the step (its output is already kept). Only
    runs on corrupt data, so replaying the member is an acceptable cost.
    """
    inflater = zlib.decompressobj(wbits=31)
    inflater.decompress(good)
    out: list[bytes] = []
    for start in range(len(piece)):
        try:
            out.append(inflater.decompress(piece[start : start + 1]))
        except zlib.error:
            break
    return out


class _Inflate:
    """Gzip data inflated piece by piece (at most ``_PIECE`` bytes each), every member,
    stopping after ``limit`` bytes; ``problem`` says why it stopped early, if it did."""

    def __init__(self, data: bytes, limit: int, max_ratio: float | None = None) -> None:
        self.data = data
        self.limit = limit
        self.max_ratio = max_ratio
        self.problem: str | None = None
        self.size = 0
        self.fed = 0  # compressed bytes consumed, over every member

    def __iter__(self) -> Iterator[bytes]:
        data = self.data
        while True:
            inflater = zlib.decompressobj(wbits=31)
            start = 0
            while not inflater.eof:
                if inflater.unconsumed_tail:
                    piece, fed = inflater.unconsumed_tail, 0
                else:  # b"" once the data is used up: zlib may still owe output
                    piece = data[start : start + _CHUNK]
                    fed = len(piece)
                try:
                    out = inflater.decompress(piece, _PIECE)
                except zlib.error as err:
                    if fed:  # a fresh step: redo it byte by byte for what came before the break
                        yield from self._cap(b"".join(_salvage(data[:start], piece)))
                    self.problem = self.problem or f"the gzip data is corrupt ({err})"
                    return
                start += fed
                self.fed += fed
                yield from self._cap(out)
                if self.problem:
                    return
                if not piece and not out:
                    break  # nothing more to give: the data ends inside the member
            if not inflater.eof:
                self.problem = "the gzip data is cut off (truncated file)"
                return
            self.fed -= len(inflater.unused_data)  # fed again with the next member
            data = inflater.unused_data + data[start:]
            if not data.strip(b"\x00"):
                return
            if not data.startswith(_GZIP_MAGIC):
                self.problem = "the gzip data is followed by bytes that are not gzip"
                return

    def _cap(self, out: bytes) -> Iterator[bytes]:
        room = self.limit - self.size
        if len(out) > room:
            out = out[:room]
            self.problem = f"it inflates to more than {_mb(self.limit)} (the limit: --max-inflated-mb)"
        self.size += len(out)
        ratio = self.max_ratio
        if (
            ratio is not None
            and self.size > RATIO_FLOOR
            and self.size > ratio * self.fed
            and not self.problem
        ):
            self.problem = (
                f"it inflates more than {ratio:g} times its size (a gzip bomb?; "
                "the limit: CHUANMA_MAX_GZIP_RATIO)"
            )
        if out:
            yield out


def _mb(size: int) -> str:
    """A size in plain words: MB, or KB below one MB."""
    return f"{size / (1 << 20):g} MB" if size >= 1 << 20 else f"{size / (1 << 10):g} KB"


def _gunzip(data: bytes, limit: int | None = None) -> tuple[bytes, str | None]:
    """Decompress every gzip member (up to ``limit`` bytes, default the environment's
    limit); on a break return what came before it and why."""
    limits = Limits.from_env()
    inflate = _Inflate(data, limits.max_inflated if limit is None else limit, limits.max_ratio)
    out = bytearray()
    for piece in inflate:
        out += piece
    return bytes(out), inflate.problem


def inflated_size(data: bytes, limit: int) -> int:
    """How many bytes gzip ``data`` inflates to, counting up to ``limit + 1`` and keeping
    none of them: ingest asks before it holds a file's text."""
    inflate = _Inflate(data, limit + 1, Limits.from_env().max_ratio)
    size = sum(len(piece) for piece in inflate)
    return limit + 1 if inflate.problem and "times its size" in inflate.problem else size


def read_lines(lines: Iterable[str], name: str, first: int = 1, limits: Limits | None = None) -> LogFile:
    """Read lines of text (one event each, with or without line endings); ``first`` is
    the first line's number (a piece of a file keeps the file's numbers)."""
    builder = _Builder(name)
    limits = limits or Limits.from_env()
    with gc_paused():
        for n, line in enumerate(lines, first):
            if n == 1 and line.startswith("\ufeff"):
                line = line[1:]
            if len(line) > limits.max_line:
                _feed_bytes(builder, n, line[:200].encode("utf-8", "replace"), False, limits)
                continue
            builder.feed(n, line.rstrip("\r\n"))
    return builder.finish()


def read_log_bytes(data: bytes, name: str, limits: Limits | None = None) -> LogFile:
    """Read a whole file's bytes (plain or gzip JSON Lines, or a ``.csv``/``.xlsx`` score
    sheet, read through this reader by ``ingest.spreadsheet``), e.g. an upload. The text is
    inflated and split piece by piece, so memory follows what the log holds, never
    what a gzip bomb inflates to (see :class:`Limits`)."""
    if name.lower().endswith((".csv", ".xlsx")):
        from ingest.spreadsheet import read_sheet_bytes

        return read_sheet_bytes(data, name)
    limits = limits or Limits.from_env()
    notes: list[Finding] = []
    inflate: _Inflate | None = None
    pieces: Iterable[bytes]
    if data.startswith(_GZIP_MAGIC):
        inflate = _Inflate(data, limits.max_inflated, limits.max_ratio)
        pieces = inflate
    else:
        if name.endswith(".gz"):
            message = f"{name}: named .gz but is not gzip data; read as plain text"
            notes.append(Finding("bad_record", None, None, message, severity="warning", file=name))
        view = memoryview(data)[: limits.max_inflated]
        pieces = (bytes(view[i : i + _PIECE]) for i in range(0, len(view), _PIECE))
    builder = _Builder(name)
    lines = _Lines(pieces, limits.max_line)
    with gc_paused():
        for n, piece, whole in lines:
            _feed_bytes(builder, n, piece, whole, limits)
        problem = inflate.problem if inflate is not None else None
        if problem is None and len(data) > limits.max_inflated:
            problem = f"it is larger than {_mb(limits.max_inflated)} (the limit: --max-inflated-mb)"
        if problem is None and lines.partial:  # the last line, with no newline after it
            _feed_bytes(builder, lines.complete + 1, lines.partial, True, limits)
    log = builder.finish()
    log.findings[:0] = notes
    if problem is not None:  # the break may cut a line in two: it is stray
        count = lines.complete
        lost = f"after line {count}" if count else "before the first line"
        message = f"{name}: {problem}; it stops {lost}, the complete lines before that were read"
        finding = Finding("bad_record", count + 1, None, message, file=name)
        log.findings.append(finding)
        if lines.partial.strip():
            log.stray.append((count + 1, lines.partial.decode("utf-8", "replace").rstrip("\r"), finding))
    return log


def _feed_bytes(builder: _Builder, n: int, piece: bytes, whole: bool, limits: Limits) -> None:
    if not whole:
        shown = piece[:200].decode("utf-8", "replace") + "…"
        why = f"the line is longer than {_mb(limits.max_line)} (the limit: --max-line-kb); its first 200 bytes are kept"
        builder.bad_line(n, shown, why)
        return
    if n == 1 and piece.startswith(b"\xef\xbb\xbf"):
        piece = piece[3:]
    try:
        text = piece.decode("utf-8")
    except UnicodeDecodeError as err:
        raw = piece.decode("utf-8", "replace").rstrip("\r")
        builder.bad_line(n, raw, f"not UTF-8 text (byte {err.start} is {piece[err.start]:#04x})")
        return
    builder.feed(n, text.rstrip("\r"))


class _Lines:
    """Numbered lines from pieces of bytes: ``(n, bytes, whole)``; a line longer than
    ``max_line`` comes once, cut (``whole`` False), the rest of it skipped unread. The
    text after the last newline is held back in ``partial``: the caller decides whether
    it is a line (the file ended) or a cut-off one (the data broke)."""

    def __init__(self, pieces: Iterable[bytes], max_line: int) -> None:
        self.pieces = pieces
        self.max_line = max_line
        self.complete = 0  # newlines seen
        self.partial = b""

    def __iter__(self) -> Iterator[tuple[int, bytes, bool]]:
        buffer = b""
        skipping = False  # inside an over-long line
        n = 0
        for piece in self.pieces:
            data = buffer + piece if buffer else piece
            start = 0
            while True:
                end = data.find(b"\n", start)
                if end < 0:
                    break
                n += 1
                if not skipping:
                    if end - start > self.max_line:
                        yield n, data[start : start + self.max_line], False
                    else:
                        yield n, data[start:end], True
                skipping = False
                start = end + 1
            buffer = data[start:]
            if not skipping and len(buffer) > self.max_line:
                yield n + 1, buffer[: self.max_line], False
                skipping = True
            if skipping:
                buffer = b""
        self.complete = n
        if not skipping:
            self.partial = buffer


def read_log(path: str | Path) -> LogFile:
    """Read a ``.jsonl``, ``.jsonl.gz``, ``.csv`` or ``.xlsx`` file; a file that cannot be
    opened is a finding."""
    name = file_name(path)
    try:
        data = read_source(path, Limits.from_env().max_inflated + 1)[0]
    except OSError as err:
        message = f"{name}: cannot read the file ({err.strerror or err})"
        return LogFile(name, [], [], [Finding("bad_record", None, None, message, file=name)])
    return read_log_bytes(data, name)
