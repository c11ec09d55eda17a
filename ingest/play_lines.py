"""Plain play lines as small ints (issue 14): the reader's fast path keeps a deal's draw,
discard and pong lines as *play codes*, not records.

A line in the exact form the writer gives it, ``{"type":"draw","seat":2,"tile":"5m","t":6500}``
(``"t"`` optional, a JSON whole number of at most 18 digits), decodes to exactly one
record (seat, tile, nothing else read), so the reader keeps ``tile * 16 + seat * 4 +
kind`` instead and moves on. A C scanner (``ingest/_lines.c``, built by ``make compile``)
does this at a few nanoseconds a line; :func:`py_scan_plays` is its Python twin and the
definition (``tests/test_play_lines.py`` holds the two together), used where the C
module is not built or ``CHUANMA_PURE=1`` asks for the Python code. Any other line stops
the scan and is decoded the usual way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from engine.mypyc_build import c_extension
from engine.tiles import tile_name
from ingest.records import PlayRecord

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


def code_kind(code: int) -> int:
    return code & 3


def code_seat(code: int) -> int:
    return (code >> 2) & 3


def code_tile(code: int) -> int:
    return code >> 4


def play_line(code: int) -> bytes:
    """The plain line of a play code (no ``"t"``): :func:`py_line_code`'s inverse."""
    kind, seat, tile = KINDS[code_kind(code)], code_seat(code), tile_name(code_tile(code))
    return f'{{"type":"{kind}","seat":{seat},"tile":"{tile}"}}'.encode()


def py_line_code(line: bytes) -> int:
    """The play code of a plain play line, or -1."""
    match = _PLAIN.fullmatch(line)
    if match is None:
        return -1
    kind, seat, rank, suit = match.groups()
    return play_code(_KIND[kind], int(seat), _SUIT[suit] * 9 + int(rank) - 1)


def py_scan_plays(lines: list[bytes], start: int, out: list[PlayRecord]) -> int:
    """Append the play codes of ``lines[start:]`` to ``out`` while they are plain play
    lines; return the index of the first line that is not (``len(lines)`` at the end)."""
    i = max(start, 0)
    while i < len(lines):
        code = py_line_code(lines[i])
        if code < 0:
            break
        out.append(code)
        i += 1
    return i


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


_C: Final[Any] = c_extension("ingest._lines")
#: the scanner the reader uses: C when built, else the Python twin
scan_plays: Final[Callable[[list[bytes], int, list[PlayRecord]], int]] = (
    _C.scan_plays if _C is not None else py_scan_plays
)
line_code: Final[Callable[[bytes], int]] = _C.line_code if _C is not None else py_line_code
play_rows: Final[PlayRows] = _C.play_rows if _C is not None else py_play_rows
COMPILED: Final = _C is not None
