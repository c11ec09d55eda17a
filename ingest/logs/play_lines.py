"""Plain play lines as small ints: the reader's fast path keeps a deal's draw,
discard and pong lines as *play codes*, not records.

A line in the exact form the writer gives it, ``{"type":"draw","seat":2,"tile":"5m","t":6500}``
(``"t"`` optional, a JSON whole number of at most 18 digits), decodes to exactly one
record (seat, tile, nothing else read), so the reader keeps ``tile * 16 + seat * 4 +
kind`` instead and moves on. A C scanner (``ingest/logs/_lines.c``, built by ``make compile``)
does this at a few nanoseconds a line, as it splits a piece of text into lines (a run of
play lines stays one part: one object, not one a line); :func:`py_split_plays` is its
Python twin and the definition (``tests/test_play_lines.py`` holds the two together), used
where the C module is not built or ``CHUANMA_PURE=1`` asks for the Python code. Any other
line is decoded the usual way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from engine.compiled import c_extension
from engine.tiles import tile_name
from ingest.logs.records import PlayRecord

KIND_DRAW: Final = 0
KIND_DISCARD: Final = 1
KIND_PONG: Final = 2
KINDS: Final = ("draw", "discard", "pong")

_PLAIN: Final = re.compile(
    rb'\{"type":"(draw|discard|pong)","seat":([0-3]),"tile":"([1-9])([mps])"(?:,"t":(?:0|[1-9][0-9]{0,17}))?\}'
)
_KIND: Final = {b"draw": KIND_DRAW, b"discard": KIND_DISCARD, b"pong": KIND_PONG}
_SUIT: Final = {b"m": 0, b"p": 1, b"s": 2}


def play_code(kind: int, seat: int, tile: int) -> int:
    return tile * 16 + seat * 4 + kind


def _play_text(code: int) -> str:
    return f'{{"type":"{KINDS[code & 3]}","seat":{(code >> 2) & 3},"tile":"{tile_name(code >> 4)}"}}'


#: the line of each play code, as the writer (and msgspec) write it, by code (None: no code)
PLAY_TEXTS: Final[tuple[str | None, ...]] = tuple(
    _play_text(code) if code & 3 < len(KINDS) else None for code in range(27 * 16)
)


# (ingest/replay/fast_check.py and ingest/logs/builder.py, compiled, unpack a code inline)
def code_kind(code: int) -> int:
    return code & 3


def code_seat(code: int) -> int:
    return (code >> 2) & 3


def code_tile(code: int) -> int:
    return code >> 4


def py_line_code(line: bytes) -> int:
    """The play code of a plain play line, or -1."""
    match = _PLAIN.fullmatch(line)
    if match is None:
        return -1
    kind, seat, rank, suit = match.groups()
    return play_code(_KIND[kind], int(seat), _SUIT[suit] * 9 + int(rank) - 1)


def py_split_plays(data: bytes, first_whole: bool, last_whole: bool) -> tuple[list[bytes], list[Any], int]:
    """``data.split(b"\n")`` with every run of consecutive plain play lines made one part
    (its lines joined by ``\n``, as they are in ``data``): ``(parts, runs, lines)``, where
    ``runs[i]`` is the list of part ``i``'s play codes (None for any other part) and
    ``lines`` how many lines the parts hold. The first line counts as a play line only when
    ``first_whole``, the last (after the last newline) only when ``last_whole``: a piece may
    begin or end inside a line."""
    lines = data.split(b"\n")
    last = len(lines) - 1
    parts: list[bytes] = []
    runs: list[Any] = []
    codes: list[int] | None = None
    start = 0
    for i, line in enumerate(lines):
        eligible = (i > 0 or first_whole) and (i < last or last_whole)
        code = py_line_code(line) if eligible else -1
        if code >= 0:
            if codes is None:
                codes, start = [], i
            codes.append(code)
            continue
        if codes is not None:
            parts.append(b"\n".join(lines[start:i]))
            runs.append(codes)
            codes = None
        parts.append(line)
        runs.append(None)
    if codes is not None:
        parts.append(b"\n".join(lines[start:]))
        runs.append(codes)
    return parts, runs, len(lines)


#: the events table's type code of a play code's kind (ingest.warehouse.rows: draw 3, discard 4, pong 5)
FIRST_PLAY_TYPE: Final = 3
NULL_BYTE: Final = 255  # a row's byte that is null (a seat or tile), or not filled yet


def py_play_rows(
    records: list[PlayRecord],
    first: int,
    lines: bytearray,
    types: bytearray,
    seats: bytearray,
    tiles: bytearray,
) -> list[int]:
    """A row per record appended to the events table's byte columns (line: int32 little
    endian; type, seat, tile: a byte each): a play code fills its row, any other record
    leaves :data:`NULL_BYTE` for the caller, and the indices of those are returned."""
    others: list[int] = []
    for index, rec in enumerate(records):
        lines += (first + index).to_bytes(4, "little")
        if isinstance(rec, int):
            types.append(FIRST_PLAY_TYPE + code_kind(rec))
            seats.append(code_seat(rec))
            tiles.append(code_tile(rec))
        else:
            types.append(NULL_BYTE)
            seats.append(NULL_BYTE)
            tiles.append(NULL_BYTE)
            others.append(index)
    return others


PlayRows = Callable[[list[PlayRecord], int, bytearray, bytearray, bytearray, bytearray], list[int]]


_C: Final[Any] = c_extension("ingest.logs._lines")
#: the splitter the reader uses: C when built, else the Python twin
split_plays: Final[Callable[[bytes, bool, bool], tuple[list[bytes], list[Any], int]]] = (
    _C.split_plays if _C is not None else py_split_plays
)
line_code: Final[Callable[[bytes], int]] = _C.line_code if _C is not None else py_line_code
play_rows: Final[PlayRows] = _C.play_rows if _C is not None else py_play_rows
COMPILED: Final = _C is not None
