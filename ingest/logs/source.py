"""A log file's bytes, read under limits: a regular file only, gzip inflated piece by
piece with a cap on its size and its ratio (a gzip bomb stops at the limit with a finding,
never fills memory), and the bytes cut into numbered lines with a cap on a line's length.

The reader (``ingest/logs/reader.py``), ingest's chunk planner (``ingest/warehouse/chunks.py``)
and the warehouse read files through here, so every path obeys the same :class:`Limits`,
and a file name that is not UTF-8 is stored and printed the same way (:func:`file_name`).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Final

import msgspec

from engine.messages import Text, say
from ingest.logs.play_lines import split_plays

__all__ = [
    "GZIP_MAGIC",
    "PIECE",
    "RATIO_FLOOR",
    "ByteLines",
    "Inflate",
    "Limits",
    "file_name",
    "gunzip",
    "inflated_size",
    "mb",
    "name_bytes",
    "read_head",
    "read_source",
]

# --- limits ----------------------------------------------------------------------------

GZIP_MAGIC: Final = b"\x1f\x8b"
_CHUNK: Final = 1 << 13  # gzip input per step (small: the bomb check counts what was fed)
PIECE: Final = 1 << 20  # most inflated bytes one step may yield: memory stays bounded
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

    digest = hashlib.sha256()
    data, size = _read_regular(path, keep, digest.update)
    return data, digest.hexdigest(), size


def read_head(path: str | Path, keep: int) -> bytes:
    """The first ``keep`` bytes of a regular file (as :func:`read_source`, without the
    digest: the reader needs only the text, and hashing a log costs a tenth of reading it)."""
    return _read_regular(path, keep, None)[0]


def _read_regular(
    path: str | Path, keep: int | None, update: Callable[[bytes], object] | None
) -> tuple[bytes, int]:
    """The first ``keep`` bytes and the size read; every block goes through ``update``
    (all of the file then; without it, reading stops after ``keep`` bytes). The first
    block is the whole file as ``stat`` sees it (up to ``keep``): one allocation, and no
    copy when nothing follows (reading block by block and joining the blocks cost far more)."""
    import os
    import stat

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a special file"
            raise OSError(0, f"not a regular file ({kind}), skipped", str(path))
        kept: list[bytes] = []
        room = -1 if keep is None else keep  # -1: no limit
        size = 0
        hint = os.fstat(fd).st_size  # the first read takes the file in one allocation
        with os.fdopen(os.dup(fd), "rb") as handle:
            first = min(hint, keep) if keep is not None else hint
            while block := handle.read(first or PIECE):  # after the first: EOF, or what was appended
                first = 0
                if update is not None:
                    update(block)
                size += len(block)
                if room < 0:
                    kept.append(block)
                elif room > 0:
                    kept.append(block[:room] if len(block) > room else block)
                    room -= len(kept[-1])
                elif update is None:
                    break
    finally:
        os.close(fd)
    return b"".join(kept), size


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


class Inflate:
    """Gzip data inflated piece by piece (at most ``PIECE`` bytes each), every member,
    stopping after ``limit`` bytes; ``why`` says why it stopped early, if it did (a
    template and its values, so the finding reads in either language), ``problem`` the same
    in English."""

    def __init__(self, data: bytes, limit: int, max_ratio: float | None = None) -> None:
        self.data = data
        self.limit = limit
        self.max_ratio = max_ratio
        self.why: Text | None = None
        self.size = 0
        self.fed = 0  # compressed bytes consumed, over every member

    @property
    def problem(self) -> str | None:
        return self.why.en if self.why is not None else None

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
                    out = inflater.decompress(piece, PIECE)
                except zlib.error as err:
                    if fed:  # a fresh step: redo it byte by byte for what came before the break
                        yield from self._cap(b"".join(_salvage(data[:start], piece)))
                    self.why = self.why or say("gzip_corrupt", error=str(err))
                    return
                start += fed
                self.fed += fed
                yield from self._cap(out)
                if self.why:
                    return
                if not piece and not out:
                    break  # nothing more to give: the data ends inside the member
            if not inflater.eof:
                self.why = say("gzip_cut")
                return
            self.fed -= len(inflater.unused_data)  # fed again with the next member
            data = inflater.unused_data + data[start:]
            if not data.strip(b"\x00"):
                return
            if not data.startswith(GZIP_MAGIC):
                self.why = say("gzip_trailing")
                return

    def _cap(self, out: bytes) -> Iterator[bytes]:
        room = self.limit - self.size
        if len(out) > room:
            out = out[:room]
            self.why = say("gzip_too_large", limit=mb(self.limit))
        self.size += len(out)
        ratio = self.max_ratio
        if ratio is not None and self.size > RATIO_FLOOR and self.size > ratio * self.fed and not self.why:
            self.why = say("gzip_bomb", ratio=f"{ratio:g}")
        if out:
            yield out


def mb(size: int) -> str:
    """A size in plain words: MB, or KB below one MB."""
    return f"{size / (1 << 20):g} MB" if size >= 1 << 20 else f"{size / (1 << 10):g} KB"


def gunzip(data: bytes, limit: int | None = None) -> tuple[bytes, str | None]:
    """Decompress every gzip member (up to ``limit`` bytes, default the environment's
    limit); on a break return what came before it and why."""
    limits = Limits.from_env()
    inflate = Inflate(data, limits.max_inflated if limit is None else limit, limits.max_ratio)
    out = bytearray()
    for piece in inflate:
        out += piece
    return bytes(out), inflate.problem


def inflated_size(data: bytes, limit: int) -> int:
    """How many bytes gzip ``data`` inflates to, counting up to ``limit + 1`` and keeping
    none of them: ingest asks before it holds a file's text."""
    inflate = Inflate(data, limit + 1, Limits.from_env().max_ratio)
    size = sum(len(piece) for piece in inflate)
    return limit + 1 if inflate.problem and "times its size" in inflate.problem else size


class ByteLines:
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

    def batches(self) -> Iterator[tuple[int, list[bytes], list[Any], bool]]:
        """The same lines a piece at a time, split in C: ``(number of the first line, the
        parts, their play codes, whether they are all ASCII)``, where a run of plain play
        lines is one part and its codes a list (:func:`ingest.logs.play_lines.split_plays`; None
        for any other line). A line longer than ``max_line`` comes uncut (at most
        ``max_line`` plus a piece; the caller cuts it, as :meth:`__iter__` does) and, when
        it runs past its piece, the rest of it is skipped unread."""
        max_line = self.max_line
        buffer = b""
        skipping = False  # inside an over-long line already given
        n = 0  # newlines seen
        for piece in self.pieces:
            # the piece's first line is whole when nothing of it came before
            parts, runs, count = split_plays(piece, not buffer and not skipping, False)
            rest = parts.pop()
            runs.pop()
            count -= 1  # the text after the last newline is no line yet
            if not parts:  # no newline in this piece
                buffer = b"" if skipping else buffer + rest
            else:
                if skipping:  # the end of the over-long line
                    del parts[0], runs[0]
                    n += 1
                    count -= 1
                    skipping = False
                elif buffer:
                    parts[0] = buffer + parts[0]
                if parts:
                    yield n + 1, parts, runs, piece.isascii() and parts[0].isascii()
                    n += count
                buffer = rest
            if not skipping and len(buffer) > max_line:
                yield n + 1, [buffer], [None], False
                skipping = True
                buffer = b""
        self.complete = n
        if not skipping:
            self.partial = buffer
