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
- The first :data:`STRAY_LISTED` stray lines of a file are listed each with its own
  finding; the ones after share one finding that says so (a flood of stray lines, such as
  a gzip bomb of events, costs one finding, not one per line). Every stray line, listed or
  not, stays in ``LogFile.stray`` with its text, so nothing is lost.
- Gzip is detected by its magic bytes. Truncated or corrupt gzip data: the complete lines
  before the break are read, a cut-off last line is stray, and ``LogFile.findings`` says
  where the data stopped.
- Lines that are not UTF-8 are ``bad_record`` findings; the raw text keeps them with
  replacement characters.

Speed: ``read_jsonl_bytes`` splits each inflated piece into lines in C, and a
deal whose lines after its ``deal`` line are all play events that read without a finding,
up to a ``deal_end`` that does too, is read on a fast path: each line decoded from its
bytes straight into its record (``DealLog.records``), with no text, event or list entry
per line; its events, texts and line numbers are built when first asked for. Any other
line sends the deal's lines through the line-by-line path, so the ``LogFile`` is the same
either way (``read_jsonl_bytes(..., fast=False)`` reads everything line by line;
``tests/test_fast_reader.py`` compares the two).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
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
from ingest.logs.gcpause import gc_paused
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
    tiles_ok,
)
from ingest.logs.play_lines import KIND_DISCARD, KIND_DRAW, code_kind, code_seat, code_tile, split_plays
from ingest.logs.records import (
    DealEndRec,
    DiscardRec,
    DrawRec,
    ExchangeRec,
    HuRec,
    KongRec,
    PlayRecord,
    PongRec,
    VoidRec,
)
from ingest.logs.source import GZIP_MAGIC, PIECE, ByteLines, Inflate, Limits, mb

__all__ = ["DealLog", "LogFile", "SessionLog", "read_jsonl_bytes", "read_lines", "read_text_bytes"]


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


def _events_of(records: list[PlayRecord], first: int) -> list[PlayEvent]:
    """The events of records read on consecutive lines from ``first``, as ``LogBuilder.feed`` makes them."""
    events: list[PlayEvent] = []
    n = first
    for rec in records:
        if isinstance(rec, int):
            kind, seat, tile = code_kind(rec), code_seat(rec), code_tile(rec)
            if kind == KIND_DRAW:
                events.append(Draw(seat, tile, n))
            elif kind == KIND_DISCARD:
                events.append(Discard(seat, tile, n))
            else:
                events.append(Pong(seat, tile, n))
        elif isinstance(rec, DrawRec):
            events.append(Draw(rec.seat, TILE_IDS[rec.tile], n))
        elif isinstance(rec, DiscardRec):
            events.append(Discard(rec.seat, TILE_IDS[rec.tile], n))
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

    def __init__(self, name: str) -> None:
        self.parser = LineParser(name)
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


# --- entry points ----------------------------------------------------------------------


def file_finding(text: Text, name: str, line: int | None = None, warning: bool = False) -> Finding:
    """A ``bad_record`` finding of the whole file ``name`` (it cannot be opened, it is cut
    short), its message a template so it reads in the user's language."""
    return Finding(
        "bad_record", line, None, text.en, severity="warning" if warning else "error", file=name,
        message_zh=text.zh, message_key=text.key, message_values=text.values,
    )  # fmt: skip


def read_lines(lines: Iterable[str], name: str, first: int = 1, limits: Limits | None = None) -> LogFile:
    """Read lines of text (one event each, with or without line endings); ``first`` is
    the first line's number (a piece of a file keeps the file's numbers)."""
    builder = LogBuilder(name)
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


def read_text_bytes(data: bytes, name: str, first: int = 1, limits: Limits | None = None) -> LogFile:
    """:func:`read_lines` of UTF-8 text held as bytes (a piece of a file that ingest cut at
    a session line), with the fast path of :func:`read_jsonl_bytes`: the same ``LogFile``
    as ``read_lines(data.decode().split("\\n"), ...)`` with a last empty piece dropped (line
    limit in characters, a BOM dropped from line 1 only)."""
    builder = LogBuilder(name)
    limits = limits or Limits.from_env()
    parts, runs, _ = split_plays(data, True, True)
    if not parts[-1]:
        parts.pop()
        runs.pop()
    with gc_paused():
        reader = _FastLines(builder, limits, chars=True)
        reader.feed(first, parts, runs, data.isascii())
        reader.flush()
    return builder.finish()


def read_jsonl_bytes(
    data: bytes,
    name: str,
    limits: Limits | None = None,
    fast: bool = True,
    on_session: Callable[[SessionLog], None] | None = None,
) -> LogFile:
    """Read a whole log file's bytes (plain or gzip JSON Lines), e.g. an upload. The text is
    inflated and split piece by piece, so memory follows what the log holds, never
    what a gzip bomb inflates to (see :class:`Limits`).

    ``fast`` reads a deal whose lines are all well-formed play events from their bytes
    (:class:`_FastLines`); False reads every line one by one. Both give the same ``LogFile``.

    ``on_session`` takes each session as soon as it is read to its end (in file order;
    the ``LogFile`` returned then holds none), so a caller that checks a session and lets
    it go holds one session's deals at a time, not the file's."""
    limits = limits or Limits.from_env()
    notes: list[Finding] = []
    inflate: Inflate | None = None
    pieces: Iterable[bytes]
    if data.startswith(GZIP_MAGIC):
        inflate = Inflate(data, limits.max_inflated, limits.max_ratio)
        pieces = inflate
    else:
        if name.endswith(".gz"):
            notes.append(file_finding(say("read_not_gzip", file=name), name, warning=True))
        pieces = _pieces(data, limits.max_inflated)
    builder = LogBuilder(name)
    lines = ByteLines(pieces, limits.max_line)
    with gc_paused():
        reader = _FastLines(builder, limits) if fast else None
        if reader is not None:
            for first, batch, runs, ascii in lines.batches():
                reader.feed(first, batch, runs, ascii)
                if on_session is not None:
                    builder.hand_over(on_session)
        else:
            for n, piece, whole in lines:
                _feed_bytes(builder, n, piece, whole, limits)
        problem = inflate.why if inflate is not None else None
        if problem is None and len(data) > limits.max_inflated:
            problem = say("read_too_large", limit=mb(limits.max_inflated))
        if problem is None and lines.partial:  # the last line, with no newline after it
            if reader is not None:
                reader.feed(lines.complete + 1, [lines.partial], [None], False)
            else:
                _feed_bytes(builder, lines.complete + 1, lines.partial, True, limits)
        if reader is not None:
            reader.flush()
        log = builder.finish()
        if on_session is not None:
            builder.hand_over(on_session, every=True)
    log.findings[:0] = notes
    if problem is not None:  # the break may cut a line in two: it is stray
        count = lines.complete
        lost = say("read_after_line", line=count) if count else say("read_before_first")
        finding = file_finding(say("read_cut", file=name, problem=problem, lost=lost), name, count + 1)
        log.findings.append(finding)
        if lines.partial.strip():
            log.stray.append((count + 1, lines.partial.decode("utf-8", "replace").rstrip("\r"), finding))
    return log


def _pieces(data: bytes, limit: int) -> Iterator[bytes]:
    """Plain text in pieces of :data:`PIECE` bytes, up to ``limit``, one at a time (a
    generator function: compiled, a generator expression here built every piece at once)."""
    view = memoryview(data)[:limit]
    for start in range(0, len(view), PIECE):
        yield bytes(view[start : start + PIECE])


class _FastLines:
    """Feeds a file's lines to a :class:`LogBuilder`, reading a deal's lines on a fast path.

    The ``deal`` line and every line outside a deal go through the builder one by one.
    After a deal line that reads without a finding (not a score sheet's), each following
    line is decoded straight from its bytes into its record: no text, no event, no list
    append per line. If every line up to the ``deal_end`` is a play event that reads
    without a finding, the deal keeps the records and the bytes (:meth:`DealLog.read_fast`);
    at the first line that is anything else (torn, unknown field, bad tile, blank, too
    long, not UTF-8, another deal or a session line, the end of the file) the lines held
    so far and that line go through the builder as usual, so the deal reads exactly as on
    the line-by-line path.
    """

    def __init__(self, builder: LogBuilder, limits: Limits, chars: bool = False) -> None:
        self.builder = builder
        self.limits = limits
        self.chars = chars  # the line limit counts characters, as read_lines does
        self.deal: DealLog | None = None  # the deal on the fast path
        self.first = 0  # the number of its first line after the deal line
        self.records: list[PlayRecord] = []
        self.lines: list[bytes] = []

    def feed(self, n: int, batch: list[bytes], runs: list[Any], ascii: bool) -> None:
        """Lines numbered from ``n``, as :func:`ingest.logs.play_lines.split_plays` gives them: a
        part of ``batch`` is one line, or a run of plain play lines whose play codes are
        ``runs`` at the same index (None for a line); ``ascii``: all of them are ASCII (so
        UTF-8)."""
        builder = self.builder
        limits = self.limits
        max_line = limits.max_line
        deal = self.deal
        records = self.records
        start = 0  # the index of the fast deal's first part in this batch (earlier ones: self.lines)
        i = 0
        size = len(batch)
        while i < size:
            run = runs[i]
            if run is not None:  # plain play lines
                if deal is not None:
                    records.extend(run)
                    n += len(run)
                else:  # outside a fast deal: one by one, as every line there
                    for line in batch[i].split(b"\n"):
                        self._line(n, line)
                        n += 1
                i += 1
                continue
            line = batch[i]
            if deal is not None:
                rec = _fast_record(line, max_line, ascii)
                if rec is not None:
                    if type(rec) is _DEAL_END:
                        end = record_event(rec, n)
                        assert isinstance(end, DealEnd)
                        builder.end_fast(deal, records, b"\n".join(self._held(batch, start, i + 1)), end)
                        deal = None
                    else:
                        records.append(rec)
                    n += 1
                    i += 1
                    continue
                _feed_lines(builder, self.first, self._held(batch, start, i), limits)
                deal = None
            self._line(n, line)
            fresh = builder.fresh
            if fresh is not None:
                builder.fresh = None
                deal = fresh
                self.first = n + 1
                records = []
                start = i + 1
            n += 1
            i += 1
        if deal is not None:
            self.lines.extend(batch[start:])
        self.deal = deal
        self.records = records

    def _line(self, n: int, line: bytes) -> None:
        """One line through the builder (cut when longer than ``max_line``)."""
        if len(line) > self.limits.max_line:
            self._long(n, line)
        else:
            _feed_bytes(self.builder, n, line, True, self.limits)

    def _long(self, n: int, line: bytes) -> None:
        """A line of more than ``max_line`` bytes: cut, or, counting characters as
        :func:`read_lines` does, maybe not."""
        limits = self.limits
        if not self.chars:
            _feed_bytes(self.builder, n, line[: limits.max_line], False, limits)
            return
        text = line.decode("utf-8", "replace")
        if n == 1 and text.startswith("\ufeff"):
            text = text[1:]
        if len(text) > limits.max_line:
            _feed_bytes(self.builder, n, text[:200].encode("utf-8", "replace"), False, limits)
        else:
            self.builder.feed(n, text.rstrip("\r"))

    def _held(self, batch: list[bytes], start: int, stop: int) -> list[bytes]:
        """The fast deal's lines so far: those of earlier batches, then ``batch[start:stop]``."""
        held = batch[start:stop]
        if self.lines:
            held = self.lines + held
            self.lines = []
        return held

    def flush(self) -> None:
        """The file ended inside a deal on the fast path: its lines go the usual way."""
        if self.deal is not None:
            _feed_lines(self.builder, self.first, self.lines, self.limits)
            self.deal = None
            self.lines = []
            self.records = []


_TILE, _PLAY, _EXCHANGE = 1, 2, 3
#: how the fast path checks a record of each type (a dict by type: cheaper than
#: isinstance over a tuple of classes once compiled); any other type leaves the fast path
_FAST_CHECK: Final[dict[type, int]] = {
    DrawRec: _TILE,
    DiscardRec: _TILE,
    PongRec: _TILE,
    KongRec: _TILE,
    HuRec: _TILE,
    VoidRec: _PLAY,
    DealEndRec: _PLAY,
    ExchangeRec: _EXCHANGE,
}
_DEAL_END: Final = DealEndRec
_DECODE: Final = DECODER.decode


def _fast_record(line: bytes, max_line: int, ascii: bool) -> Any:
    """The record of a line that the builder would take into a deal with no finding: a play
    event whose tiles are tiles, or a deal_end; None for anything else."""
    if len(line) > max_line or not (ascii or _utf8(line)):
        return None
    try:
        rec: Any = _DECODE(line)
    except DECODE_ERRORS:
        return None
    check = _FAST_CHECK.get(type(rec), 0)
    if check == _TILE:
        return rec if rec.tile in TILE_IDS else None  # another spelling: the parser explains it
    if check == _PLAY:
        return rec
    if check == _EXCHANGE:
        return rec if all(tiles_ok(given) for given in rec.tiles) else None
    return None


def _utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _feed_lines(builder: LogBuilder, first: int, parts: list[bytes], limits: Limits) -> None:
    """Lines numbered from ``first`` through the builder one by one; a part may be a run
    of play lines (:func:`ingest.logs.play_lines.split_plays`), which no line inside splits."""
    n = first
    for part in parts:
        for line in part.split(b"\n"):
            _feed_bytes(builder, n, line, True, limits)
            n += 1


def _feed_bytes(builder: LogBuilder, n: int, piece: bytes, whole: bool, limits: Limits) -> None:
    if not whole:
        shown = piece[:200].decode("utf-8", "replace") + "…"
        builder.bad_line(n, shown, say("read_long_line", line=n, limit=mb(limits.max_line)))
        return
    if n == 1 and piece.startswith(b"\xef\xbb\xbf"):
        piece = piece[3:]
    try:
        text = piece.decode("utf-8")
    except UnicodeDecodeError as err:
        raw = piece.decode("utf-8", "replace").rstrip("\r")
        byte = f"{piece[err.start]:#04x}"
        builder.bad_line(n, raw, say("read_not_utf8", line=n, at=err.start, byte=byte))
        return
    builder.feed(n, text.rstrip("\r"))
