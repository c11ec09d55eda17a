"""Read a log's bytes or text (docs/log-format.md, v1) into sessions and deals, through the
log builder (:mod:`ingest.logs.builder`, which says where each line goes and why).

Decisions on the bytes, where the format is silent (also in docs/log-format.md):

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
from typing import Any, Final

from engine.events import DealEnd, Finding
from engine.messages import say
from engine.tiles import WILD_NAMES
from ingest.logs.builder import DealLog, LogBuilder, LogFile, SessionLog, file_finding
from ingest.logs.gcpause import gc_paused
from ingest.logs.line_parser import DECODE_ERRORS, DECODER, TILE_IDS, record_event, tiles_ok
from ingest.logs.play_lines import split_plays
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

__all__ = ["read_jsonl_bytes", "read_lines", "read_text_bytes"]


# --- entry points ----------------------------------------------------------------------


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
_WILD_NAMES: Final = frozenset(WILD_NAMES)


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
        if rec.tile in TILE_IDS or rec.tile in _WILD_NAMES:  # a 红中: the table says if it is one
            return rec
        return None  # another spelling: the parser explains it
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
