"""Plain play lines as play codes: the C splitter (``ingest/logs/_lines.c``) and its
Python twin agree on every line, and a line gets a code only when msgspec would decode
it to exactly that draw, discard or pong."""

from __future__ import annotations

from itertools import pairwise

import msgspec
import pytest
from fast_diff import play_line
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.compiled import pure_requested
from engine.tiles import tile_name
from ingest.logs import play_lines
from ingest.logs.line_parser import DECODE_ERRORS, DECODER, TILE_IDS
from ingest.logs.play_lines import (
    FIRST_PLAY_TYPE,
    KINDS,
    code_kind,
    code_seat,
    code_tile,
    line_code,
    play_code,
    play_rows,
    py_line_code,
    py_play_rows,
    py_split_plays,
    split_plays,
)
from ingest.logs.records import DiscardRec, DrawRec, PlayRecord, PongRec
from ingest.warehouse.rows import _EVENT_TYPES as EVENT_TYPES

RECORDS: dict[type, str] = {DrawRec: "draw", DiscardRec: "discard", PongRec: "pong"}


def plain(kind: str, seat: int, tile: int, t: int | None) -> bytes:
    tail = "" if t is None else f',"t":{t}'
    return f'{{"type":"{kind}","seat":{seat},"tile":"{tile_name(tile)}"{tail}}}'.encode()


plain_lines = st.builds(
    plain,
    st.sampled_from(KINDS),
    st.integers(0, 3),
    st.integers(0, 26),
    st.none() | st.integers(0, 10**18 - 1),
)


@st.composite
def near_plain(draw: st.DrawFn) -> bytes:
    """A plain line with one byte changed, inserted or removed, or cut short."""
    line = bytearray(draw(plain_lines))
    at = draw(st.integers(0, len(line) - 1))
    how = draw(st.sampled_from(["change", "insert", "remove", "cut"]))
    byte = draw(st.sampled_from(b' "0123456789:,{}[]-.eEmpsz\\\r\t\xff'))
    if how == "change":
        line[at] = byte
    elif how == "insert":
        line.insert(at, byte)
    elif how == "remove":
        del line[at]
    else:
        del line[at:]
    return bytes(line)


def decoded_code(line: bytes) -> int:
    """What the reader would make of the line without the scanner: the play code of a
    draw, discard or pong record with a tile name and nothing but ``t`` besides, or -1."""
    try:
        rec = DECODER.decode(line)
    except DECODE_ERRORS:
        return -1
    if isinstance(rec, (DrawRec, DiscardRec, PongRec)) and rec.tile in TILE_IDS:
        return play_code(KINDS.index(RECORDS[type(rec)]), rec.seat, TILE_IDS[rec.tile])
    return -1


def test_the_c_scanner_is_built_for_a_compiled_run() -> None:
    """``make compile`` builds the scanner; only a pure-Python run uses the twin."""
    compiled = play_lines.COMPILED
    assert compiled is not pure_requested()


@settings(max_examples=400, deadline=None)
@given(plain_lines)
def test_a_plain_line_is_its_record(line: bytes) -> None:
    code = py_line_code(line)
    assert code >= 0 and code == line_code(line) == decoded_code(line)
    fields = msgspec.json.decode(line)
    assert (KINDS[code_kind(code)], code_seat(code), tile_name(code_tile(code))) == (
        fields["type"],
        fields["seat"],
        fields["tile"],
    )


def test_a_play_codes_kind_names_its_events_type() -> None:
    """The events table's type of a play row is FIRST_PLAY_TYPE + its kind (the C rows too)."""
    assert [EVENT_TYPES[FIRST_PLAY_TYPE + kind] for kind in range(len(KINDS))] == list(KINDS)


@settings(max_examples=1500, deadline=None)
@given(near_plain() | st.binary(max_size=60))
def test_c_and_python_agree_and_never_claim_what_msgspec_would_not_read(line: bytes) -> None:
    code = py_line_code(line)
    assert line_code(line) == code
    if code >= 0:  # a code only for a line msgspec reads as that very record
        assert decoded_code(line) == code


@pytest.mark.parametrize(
    "line",
    [
        b'{"type":"draw","seat":0,"tile":"5m","t":007}',  # not JSON: leading zeros
        b'{"type":"draw","seat":0,"tile":"5m","t":-1}',  # read by msgspec, but not plain
        b'{"type":"draw","seat":4,"tile":"5m"}',
        b'{"type":"draw","seat":0,"tile":"0m"}',
        b'{"type":"draw","seat":0,"tile":"5z"}',
        b'{"type":"draw", "seat":0,"tile":"5m"}',
        b'{"type":"draw","seat":0,"tile":"5m"}\r',
        b'{"type":"draw","seat":0,"tile":"5m","t":1234567890123456789}',  # 19 digits
        b'{"type":"hu","seat":0,"tile":"5m"}',
        b'{"type":"draw","seat":0,"tile":"5m","x":1}',
    ],
)
def test_lines_that_are_not_plain_get_no_code(line: bytes) -> None:
    assert py_line_code(line) == line_code(line) == -1


other_lines = st.sampled_from([b"", b"\r", b'{"type":"hu","seat":0,"tile":"5m"}', b"not json", b"\xff"])


@settings(max_examples=400, deadline=None)
@given(
    st.lists(plain_lines | near_plain() | other_lines, max_size=14),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_a_split_keeps_every_line_and_codes_each_run(
    lines: list[bytes], first_whole: bool, last_whole: bool, newline_at_end: bool
) -> None:
    """C and Python split alike; the parts are ``data.split(b"\n")`` with each run of
    plain play lines joined (so joining them gives the data back), each run's codes are
    its lines' codes, a run is as long as it can be, and the first and last lines are
    play lines only when said to be whole."""
    lines = [line.replace(b"\n", b"") for line in lines]
    data = b"\n".join(lines) + (b"\n" if newline_at_end else b"")
    parts, runs, count = split_plays(data, first_whole, last_whole)
    assert (parts, runs, count) == py_split_plays(data, first_whole, last_whole)
    split = data.split(b"\n")
    assert count == len(split) and len(parts) == len(runs)
    assert b"\n".join(parts) == data
    n = 0
    for part, run in zip(parts, runs, strict=True):
        held = part.split(b"\n")
        if run is None:
            assert len(held) == 1
            whole = (n > 0 or first_whole) and (n < len(split) - 1 or last_whole)
            assert not whole or py_line_code(part) < 0
        else:
            assert run == [py_line_code(line) for line in held] and min(run) >= 0
            assert (n > 0 or first_whole) and (n + len(held) < len(split) or last_whole)
        n += len(held)
    assert n == len(split)
    for before, after in pairwise(runs):
        assert before is None or after is None, "two runs side by side: one run was cut"


def test_play_line_is_the_inverse_of_line_code() -> None:
    for code in (play_code(kind, seat, tile) for kind in range(3) for seat in range(4) for tile in range(27)):
        assert line_code(play_line(code)) == code


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 26 * 16 + 15).filter(lambda code: code & 3 != 3) | st.just(None), max_size=20),
    st.integers(1, 2**31 - 100),
    st.integers(0, 3),
)
def test_play_rows_c_and_python_write_the_same_rows(codes: list[int | None], first: int, before: int) -> None:
    """A deal's rows in the events table's byte columns (a None stands for a decoded record)."""
    records: list[PlayRecord] = [DrawRec(seat=0, tile="1m") if code is None else code for code in codes]

    def columns() -> tuple[bytearray, bytearray, bytearray, bytearray]:
        return (
            bytearray(b"\0\0\0\1" * before),
            bytearray(b"\2" * before),
            bytearray(before),
            bytearray(before),
        )

    by_c, by_python = columns(), columns()
    assert play_rows(records, first, *by_c) == py_play_rows(records, first, *by_python)
    assert by_c == by_python
    lines, types, seats, tiles = by_python
    for index, code in enumerate(codes):
        row = before + index
        assert int.from_bytes(lines[4 * row : 4 * row + 4], "little") == first + index
        expected = (
            (255, 255, 255) if code is None else (3 + code_kind(code), code_seat(code), code_tile(code))
        )
        assert (types[row], seats[row], tiles[row]) == expected


def test_a_converters_play_code_reads_as_its_line() -> None:
    """``LogBuilder.feed_play`` (a platform converter's draw, discard or pong, with no JSON in
    between) keeps the text the writer writes and makes the event ``feed`` makes of it."""
    from ingest.logs.builder import LogBuilder
    from ingest.logs.play_lines import KINDS, PLAY_TEXTS, play_code

    start = '{"type":"deal","deal_id":"d","dealer":0,"hands":["","","",""],"wall":""}'
    by_code, by_text = LogBuilder("a"), LogBuilder("a")
    by_code.feed(1, start)
    by_text.feed(1, start)
    n = 2
    for kind, name in enumerate(KINDS):
        for seat in range(4):
            for tile in range(27):
                code = play_code(kind, seat, tile)
                obj = {"type": name, "seat": seat, "tile": f"{tile % 9 + 1}{'mps'[tile // 9]}"}
                assert PLAY_TEXTS[code] == msgspec.json.encode(obj).decode()
                by_code.feed_play(n, code)
                by_text.feed(n, msgspec.json.encode(obj).decode())
                n += 1
    made, read = by_code.finish(), by_text.finish()
    assert [d for _, d in made.iter_deals()] == [d for _, d in read.iter_deals()]
    assert len(next(made.iter_deals())[1].events) == 3 * 4 * 27
