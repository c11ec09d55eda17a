"""A log's lines (docs/log-format.md, v1) grouped into sessions and deals of typed engine events.

The log builder is the I/O shell around ``engine``: it never raises on bad input. Every
problem is a ``Finding`` and every non-blank line ends up in exactly one place, so
quarantine can keep all of it with a reason:

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
- The first :data:`STRAY_LISTED` stray lines of a file are listed each with its own
  finding; the ones after share one finding that says so (a flood of stray lines, such as
  a gzip bomb of events, costs one finding, not one per line). Every stray line, listed or
  not, stays in ``LogFile.stray`` with its text, so nothing is lost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from engine.events import (
    DealEnd,
    DealStart,
    Discard,
    Draw,
    Finding,
    PlayEvent,
    Pong,
    SessionEnd,
    SessionStart,
    SheetEvent,
    SheetHu,
    SheetKong,
)
from engine.messages import Text, article, say
from engine.tiles import WILD, WILD_NAMES
from ingest.logs.line_parser import (
    DECODE_ERRORS,
    DECODER,
    FAST,
    PLAY_TYPES,
    TILE_IDS,
    LineParser,
    ParsedLine,
    record_event,
    show_value,
)
from ingest.logs.play_lines import KIND_DISCARD, KIND_DRAW, PLAY_TEXTS
from ingest.logs.records import DiscardRec, DrawRec, PlayRecord

#: a fast-read record's tile by name: the 27 kinds and the 红中 (``7z``, ``中``; whether
#: the table has them is the engine's to say)
_READ_TILES: Final[dict[str, int]] = {**TILE_IDS, **dict.fromkeys(WILD_NAMES, WILD)}

__all__ = ["STRAY_LISTED", "DealLog", "LogBuilder", "LogFile", "SessionLog", "file_finding"]


class DealLog:
    """One deal as read: its events in file order and what was wrong with its lines.

    A deal read on the fast path (every line between its ``deal`` and ``deal_end`` lines a
    play event that reads without a finding) holds its decoded ``records`` (the i-th on line
    ``deal.line + 1 + i``) and its lines' bytes; its ``events``, ``texts`` and
    ``line_numbers`` are built from them when first asked for, exactly as the line-by-line
    path builds them, so a checker that needs only the records never pays for them. Other
    deals have ``records`` None. Equality compares what is read, not how it was read.
    """

    def __init__(
        self,
        deal: DealStart,
        events: list[PlayEvent],
        end: DealEnd | None,
        findings: list[Finding],
        line_numbers: list[int],  # of its raw lines, in file order
        texts: list[str],  # its raw lines (two flat lists: no tuple per line for the collector to walk)
        last_line: int,
        extras: dict[int, dict[str, Any]] | None = None,  # unknown fields by line
        sheet_events: list[SheetEvent] | None = None,  # a score-sheet deal's kongs and wins
    ) -> None:
        self.deal = deal
        self._events = events
        self.end = end
        self.findings = findings
        self._line_numbers = line_numbers
        self._texts = texts
        self.last_line = last_line
        self.extras: dict[int, dict[str, Any]] = {} if extras is None else extras
        self.sheet_events: list[SheetEvent] = [] if sheet_events is None else sheet_events
        self.records: list[PlayRecord] | None = None
        self._raw: bytes | None = None  # the fast path's lines after the deal line, until unpacked
        self._pending = False  # the events of ``records`` are still to be built
        self._first = 0  # the line of the first record

    @property
    def events(self) -> list[PlayEvent]:
        if self._pending:
            self._build_events()
        return self._events

    @events.setter
    def events(self, events: list[PlayEvent]) -> None:
        self._pending = False
        self._events = events

    @property
    def texts(self) -> list[str]:
        if self._raw is not None:
            self._unpack()
        return self._texts

    @texts.setter
    def texts(self, texts: list[str]) -> None:
        self._unpack()
        self._texts = texts

    @property
    def line_numbers(self) -> list[int]:
        if self._raw is not None:
            self._unpack()
        return self._line_numbers

    @line_numbers.setter
    def line_numbers(self, numbers: list[int]) -> None:
        self._unpack()
        self._line_numbers = numbers

    @property
    def raw_lines(self) -> list[tuple[int, str]]:
        """(line number, text) of every line of the deal, its deal and deal_end lines too."""
        return list(zip(self.line_numbers, self.texts, strict=True))

    def keep(self, n: int, text: str) -> None:
        if self._raw is not None:
            self._unpack()
        self._line_numbers.append(n)
        self._texts.append(text)
        self.last_line = n

    def read_fast(self, records: list[PlayRecord], raw: bytes, end: DealEnd) -> None:
        """Close the deal read on the fast path: ``raw`` holds its lines after the deal line
        (bytes as read, ``\\r`` included, joined by ``\\n``: one object, which the garbage
        collector does not walk), the last one its deal_end line, which made ``end``."""
        self.records = records
        self._raw = raw
        self._pending = True
        self._first = end.line - len(records)
        self.end = end
        self.last_line = end.line

    def _build_events(self) -> None:
        """The events of a fast-read deal, as the line-by-line path makes them (apart from
        its texts: a checker that is content with the records and a hash of the text never
        pays for them)."""
        self._pending = False
        records = self.records
        assert records is not None
        self._events.extend(_events_of(records, self._first))

    def _unpack(self) -> None:
        """The texts and line numbers of a fast-read deal, as the line-by-line path keeps them."""
        raw = self._raw
        if raw is None:
            return
        self._raw = None
        first = self._first
        texts = raw.decode("utf-8").split("\n")
        if b"\r" in raw:
            texts = [text.rstrip("\r") for text in texts]
        self._texts.extend(texts)
        self._line_numbers.extend(range(first, first + len(texts)))

    @property
    def play_count(self) -> int:
        """How many play events the deal has (without building a fast-read deal's events)."""
        return len(self.records) if self._pending and self.records is not None else len(self._events)

    def text_pieces(self) -> tuple[bytes, ...]:
        """``"\\n".join(texts)`` as UTF-8, in pieces to hash one after the other: straight
        from a fast-read deal's bytes when they hold no ``\\r`` (the warehouse hashes it;
        building the texts, or joining the pieces, would cost more)."""
        raw = self._raw
        if raw is not None and b"\r" not in raw and len(self._texts) == 1:
            return (self._texts[0].encode("utf-8", "surrogatepass"), b"\n", raw)
        return ("\n".join(self.texts).encode("utf-8", "surrogatepass"),)

    def _view(self) -> tuple[Any, ...]:
        return (
            self.deal,
            self.events,
            self.end,
            self.findings,
            self.line_numbers,
            self.texts,
            self.last_line,
            self.extras,
            self.sheet_events,
        )

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled and copied as what was read (unpacked), with its records: the compiled
        class has no ``__dict__`` for the default way."""
        view = self._view()
        return (_revived, (*view, self.records))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DealLog):
            return NotImplemented
        return self._view() == other._view()

    def __repr__(self) -> str:
        fast = "" if self.records is None else f", records={len(self.records)}"
        return (
            f"DealLog(deal={self.deal!r}, events={self.events!r}, end={self.end!r}, "
            f"findings={self.findings!r}, line_numbers={self.line_numbers!r}, texts={self.texts!r}, "
            f"last_line={self.last_line!r}, extras={self.extras!r}, sheet_events={self.sheet_events!r}{fast})"
        )


def _revived(
    deal: DealStart,
    events: list[PlayEvent],
    end: DealEnd | None,
    findings: list[Finding],
    line_numbers: list[int],
    texts: list[str],
    last_line: int,
    extras: dict[int, dict[str, Any]],
    sheet_events: list[SheetEvent],
    records: list[PlayRecord] | None,
) -> DealLog:
    deal_log = DealLog(deal, events, end, findings, line_numbers, texts, last_line, extras, sheet_events)
    deal_log.records = records
    return deal_log


def _play_event(code: int, n: int) -> PlayEvent:
    """The draw, discard or pong of a play code on line ``n`` (code_kind, code_seat and
    code_tile inline: play_lines is not compiled)."""
    kind, seat, tile = code & 3, (code >> 2) & 3, code >> 4
    if kind == KIND_DRAW:
        return Draw(seat, tile, n)
    if kind == KIND_DISCARD:
        return Discard(seat, tile, n)
    return Pong(seat, tile, n)


def _events_of(records: list[PlayRecord], first: int) -> list[PlayEvent]:
    """The events of records read on consecutive lines from ``first``, as ``LogBuilder.feed`` makes them."""
    events: list[PlayEvent] = []
    n = first
    for rec in records:
        if isinstance(rec, int):
            events.append(_play_event(rec, n))
        elif isinstance(rec, DrawRec):
            events.append(Draw(rec.seat, _READ_TILES[rec.tile], n))
        elif isinstance(rec, DiscardRec):
            events.append(Discard(rec.seat, _READ_TILES[rec.tile], n))
        else:
            events.append(record_event(rec, n))  # type: ignore[arg-type]
        n += 1
    return events


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
    set_aside: list[int] = field(default_factory=list)  # deal lines that could not be read


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


# --- grouping lines into sessions and deals --------------------------------------------


#: stray lines of one file listed with their own finding; the rest share one
STRAY_LISTED: Final = 1000


class LogBuilder:
    """Routes each line to its deal, its session or ``stray`` (see the module docstring)."""

    def __init__(self, name: str, rows: bool = False) -> None:
        self.parser = LineParser(name, rows)  # rows: a score sheet's lines, numbered by its rows
        self.log = LogFile(path=name, sessions=[], stray=[], findings=[])
        self.session: SessionLog | None = None  # open to new deals
        self.deal: DealLog | None = None
        self.deal_unknown: set[str] = set()  # unknown field names already reported in self.deal
        self.sweep: Finding | None = None  # set while skipping the lines of an unreadable deal
        self.sweep_reported = False  # the sweep's finding is in log.findings once, when first used
        self.last_end: int | None = None  # line of the last deal_end, for stray messages
        self.stray_listed = 0  # stray lines reported with their own finding so far
        self.flood: Finding | None = None  # the finding shared by the stray lines past STRAY_LISTED
        self.last_session_end: int | None = None
        self.fresh: DealLog | None = None  # a deal just opened that the fast path may read (see _FastLines)

    def feed(self, n: int, text: str) -> None:
        if not text or text.isspace():
            return
        deal = self.deal
        if deal is not None:  # fast path: a draw or discard inside a deal (most lines)
            try:
                rec = DECODER.decode(text)
            except DECODE_ERRORS:
                rec = None
            make = FAST.get(type(rec))
            if make is not None:
                tile = TILE_IDS.get(rec.tile)
                if tile is not None:
                    deal.events.append(make(rec.seat, tile, n))
                    deal.keep(n, text)
                    return
        parsed = self.parser.parse(n, text, deal is not None and deal.deal.record == "sheet")
        kind = parsed.kind
        deal = self.deal
        if deal is not None and (kind is None or kind in PLAY_TYPES):
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

    def feed_play(self, n: int, code: int) -> None:
        """A plain draw, discard or pong a converter made (``ingest.platforms``), as its play
        code (:mod:`ingest.logs.play_lines`): what :meth:`feed` makes of its line, without
        writing the JSON and reading it back (most of a platform record's lines)."""
        text = PLAY_TEXTS[code]
        assert text is not None
        deal = self.deal
        if deal is None:
            self.feed(n, text)
            return
        deal.events.append(_play_event(code, n))
        deal.keep(n, text)

    def bad_line(self, n: int, text: str, message: Text) -> None:
        """A line that could not even be decoded as text: a finding wherever it falls."""
        parsed = ParsedLine(None, None, [self.parser.finding("bad_record", n, message)])
        if self.deal is not None:
            self.deal.keep(n, text)
            self.deal.findings.extend(parsed.findings)
        else:
            self._outside(n, text, parsed)

    def finish(self) -> LogFile:
        self.deal = None
        return self.log

    def hand_over(self, take: Callable[[SessionLog], None], every: bool = False) -> None:
        """Pass the sessions read to the end to ``take``, in file order, and forget them:
        every one but the last, which may still grow (``every``: the file has ended)."""
        sessions = self.log.sessions
        done = len(sessions) if every else len(sessions) - 1
        if done > 0:
            finished = sessions[:done]
            del sessions[:done]
            for session in finished:
                take(session)

    # -- deals

    def _deal_findings(self, deal: DealLog, n: int, parsed: ParsedLine) -> None:
        if parsed.extras:
            deal.extras[n] = parsed.extras
        for finding in parsed.findings:
            if finding.code == "unknown_field":
                name = finding.extra["field"]
                if name in self.deal_unknown:
                    continue
                self.deal_unknown.add(name)
            deal.findings.append(finding)

    def _open_deal(self, n: int, text: str, parsed: ParsedLine) -> None:
        self.deal = None
        self.sweep = None
        event = parsed.event
        if not isinstance(event, DealStart):
            error = parsed.error
            assert error is not None
            self.sweep = self.parser.finding("bad_record", n, say("read_deal_unreadable", line=n))
            self.sweep_reported = False
            if self.session is not None:  # its deal has no net, so neither has the session
                self.session.set_aside.append(n)
            self._stray(n, text, error, parsed.findings)
            return
        if self.session is None:
            if self.last_session_end is not None:
                where = say("read_after_session_end", end=self.last_session_end)
            else:
                where = say("read_before_session")
            message = say("read_deal_no_session", line=n, deal=show_value(event.deal_id), where=where)
            self.log.findings.append(self.parser.finding("bad_record", n, message))
            self.session = SessionLog(session=None, deals=[], end=None, findings=[])
            self.log.sessions.append(self.session)
        deal = DealLog(event, [], None, [], [n], [text], n)
        self.deal = deal
        self.deal_unknown = set()
        self.session.deals.append(deal)
        if parsed.findings:
            self._deal_findings(deal, n, parsed)
        elif event.record != "sheet":
            self.fresh = deal

    def end_fast(self, deal: DealLog, records: list[PlayRecord], raw: bytes, end: DealEnd) -> None:
        """Close the open deal read on the fast path, as :meth:`_end_deal` closes a deal
        whose lines all read without a finding."""
        deal.read_fast(records, raw, end)
        self.deal = None
        self.last_end = end.line

    def _end_deal(self, n: int, text: str, parsed: ParsedLine) -> None:
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

    def _open_session(self, n: int, text: str, parsed: ParsedLine) -> None:
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

    def _end_session(self, n: int, text: str, parsed: ParsedLine) -> None:
        self.deal = None
        self.sweep = None
        session = self.session
        if session is None or session.line is None:
            message = say("read_stray_session_end", line=n)
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

    def _outside(self, n: int, text: str, parsed: ParsedLine) -> None:
        if self.sweep is not None:
            self._stray(n, text, parsed.error or self.sweep, parsed.findings)
            return
        error = parsed.error
        if parsed.kind is not None:
            seat = getattr(parsed.event, "seat", None)
            if self.last_end is not None:
                context = say("read_last_deal_ended", end=self.last_end)
            else:
                context = say("read_no_deal_yet")
            kind = parsed.kind
            message = say("read_outside_deal", line=n, a=article(kind), kind=kind, context=context)
            error = self.parser.finding("bad_record", n, message, seat)
        assert error is not None
        self._stray(n, text, error, parsed.findings)

    def _stray(self, n: int, text: str, reason: Finding, others: list[Finding]) -> None:
        if reason is not self.sweep:
            if self.stray_listed >= STRAY_LISTED:
                if self.flood is None:
                    message = say("read_stray_flood", line=n, listed=STRAY_LISTED)
                    self.flood = self.parser.finding("bad_record", n, message)
                    self.log.findings.append(self.flood)
                self.log.stray.append((n, text, self.flood))
                return
            self.stray_listed += 1
        self.log.stray.append((n, text, reason))
        if reason is self.sweep:
            if not self.sweep_reported:
                self.log.findings.append(reason)
                self.sweep_reported = True
        else:
            self.log.findings.append(reason)
        self.log.findings.extend(f for f in others if f is not reason)


# --- a finding of the whole file


def file_finding(text: Text, name: str, line: int | None = None, warning: bool = False) -> Finding:
    """A ``bad_record`` finding of the whole file ``name`` (it cannot be opened, it is cut
    short), its message a template so it reads in the user's language."""
    return Finding(
        "bad_record", line, None, text.en, severity="warning" if warning else "error", file=name,
        message_zh=text.zh, message_key=text.key, message_values=text.values,
    )  # fmt: skip
