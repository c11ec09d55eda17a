"""The reader's fast path: a deal whose lines are all well-formed play events is
read from its bytes into records, and the ``LogFile`` is exactly what the line-by-line
path (``read_log_bytes(..., fast=False)``) gives, on clean, tampered and damaged logs."""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.events import Discard, Draw
from engine.rules import load_rules, preset_names
from engine.table import replay_refusal
from ingest.logs.builder import DealLog, LogFile
from ingest.logs.play_lines import KINDS, code_kind, line_code
from ingest.logs.reader import read_lines, read_text_bytes
from ingest.logs.source import ByteLines, Limits
from ingest.logs.writer import log_lines
from ingest.replay.files import read_log, read_log_bytes
from ingest.simulator.sheet_sessions import with_sheet_sessions
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer
from ingest.warehouse.deal_rows import deal_sha256

#: the presets the tile replay plays (the others, of other tables, it refuses for now)
REPLAYED = [preset for preset in preset_names() if replay_refusal(load_rules(preset)) is None]

MAX_LINE = 2048  # small, so a test can hold lines longer than the limit


def club(preset: str = "standard", sessions: int = 5, seed: int = 11) -> list[Any]:
    return list(simulate_club(ClubPlan(sessions=sessions, deals_per_session=8, rules=preset, seed=seed)))


def as_bytes(lines: list[bytes], ending: bytes = b"\n") -> bytes:
    return b"".join(line + ending for line in lines)


def encoded(lines: list[str]) -> list[bytes]:
    return [line.encode("utf-8") for line in lines]


def snapshot(log: LogFile) -> dict[str, Any]:
    """Everything a LogFile holds, field by field (a fast-read deal's lazy fields too)."""
    return {
        "path": log.path,
        "findings": log.findings,
        "stray": log.stray,
        "sessions": [
            {
                "session": s.session,
                "end": s.end,
                "findings": s.findings,
                "line": s.line,
                "raw_lines": s.raw_lines,
                "extras": s.extras,
                "deals": [deal_snapshot(d) for d in s.deals],
            }
            for s in log.sessions
        ],
    }


def deal_snapshot(d: DealLog) -> dict[str, Any]:
    return {
        "deal": d.deal,
        "events": d.events,
        "end": d.end,
        "findings": d.findings,
        "line_numbers": d.line_numbers,
        "texts": d.texts,
        "raw_lines": d.raw_lines,
        "last_line": d.last_line,
        "extras": d.extras,
        "sheet_events": d.sheet_events,
    }


def read_both(data: bytes, name: str = "club.jsonl", limits: Limits | None = None) -> LogFile:
    """The fast read of ``data``, after checking it equals the line-by-line read."""
    fast = read_log_bytes(data, name, limits)
    slow = read_log_bytes(data, name, limits, fast=False)
    assert all(d.records is None for _, d in slow.iter_deals())
    assert snapshot(fast) == snapshot(slow)
    assert fast == slow
    return fast


def fast_deals(log: LogFile) -> list[DealLog]:
    return [d for _, d in log.iter_deals() if d.records is not None]


def check_records(d: DealLog) -> None:
    """A fast-read deal: the i-th record is on line deal.line + 1 + i, nothing else in between."""
    records = d.records
    assert records is not None and d.end is not None
    first = d.deal.line + 1
    assert d.end.line == d.last_line == d.deal.line + len(records) + 1
    assert [e.line for e in d.events] == list(range(first, first + len(records)))
    kinds = [KINDS[code_kind(r)] if isinstance(r, int) else type(r).__name__[:-3].lower() for r in records]
    assert [type(e).__name__.lower() for e in d.events] == kinds
    assert d.line_numbers == list(range(d.deal.line, d.last_line + 1))
    assert d.findings == [] and d.extras == {} and d.sheet_events == []


# --- line damage the tamperer does not make (it tears lines and changes claims) --------

Damage = Callable[[list[bytes], int, random.Random], None]  # lines of the file, a line inside a deal


def _field(lines: list[bytes], at: int, **fields: Any) -> None:
    try:
        record = json.loads(lines[at])
    except ValueError:
        return  # a line the tamperer tore
    record.update(fields)
    lines[at] = json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _set_tile(lines: list[bytes], at: int, tile: Any) -> None:
    if b'"tile"' in lines[at]:
        _field(lines, at, tile=tile)


DAMAGE: dict[str, Damage] = {
    "unknown_field": lambda lines, at, rng: _field(lines, at, note="x"),
    "bad_tile": lambda lines, at, rng: _set_tile(lines, at, "0z"),
    "tile_as_list": lambda lines, at, rng: _set_tile(lines, at, ["1m"]),
    "bad_seat": lambda lines, at, rng: _field(lines, at, seat=7),
    "huge_delta": lambda lines, at, rng: _field(lines, at, deltas=[2**40, 0, 0, 0]),
    "non_ascii_time": lambda lines, at, rng: _field(lines, at, t="第一圈"),  # still well-formed
    "crlf": lambda lines, at, rng: lines.__setitem__(at, lines[at] + b"\r"),  # still well-formed
    "spaced": lambda lines, at, rng: lines.__setitem__(at, b"  " + lines[at] + b" \t"),  # well-formed
    "blank": lambda lines, at, rng: lines.insert(at, b""),
    "spaces": lambda lines, at, rng: lines.insert(at, b"   \t"),
    "cr_only": lambda lines, at, rng: lines.insert(at, b"\r"),
    "not_utf8": lambda lines, at, rng: lines.insert(at, b'{"type":"draw","seat":0,"tile":"1m","t":"\xff"}'),
    "torn": lambda lines, at, rng: lines.__setitem__(at, lines[at][: len(lines[at]) // 2]),
    "bom_inside": lambda lines, at, rng: lines.__setitem__(at, b"\xef\xbb\xbf" + lines[at]),
    "too_long": lambda lines, at, rng: lines.insert(
        at, b'{"type":"draw","seat":0,"tile":"1m"}' + b" " * 3000
    ),
    "deal_inside": lambda lines, at, rng: lines.insert(at, lines[_deal_line(lines, at)]),
    "session_inside": lambda lines, at, rng: lines.insert(at, _session_line(lines, at)),
    "session_end_inside": lambda lines, at, rng: lines.insert(at, b'{"type":"session_end"}'),
    "bad_exchange": lambda lines, at, rng: lines.insert(
        at, b'{"type":"exchange","direction":"across","tiles":["123m","0z",["1p","2p","3p"],"789s"]}'
    ),
    "exchange_as_lists": lambda lines, at, rng: lines.insert(
        at, b'{"type":"exchange","direction":"across","tiles":["123m","456m",["1p","2p","3p"],"789s"]}'
    ),  # well-formed (the replay may still object)
    "void": lambda lines, at, rng: lines.insert(at, b'{"type":"void","seat":2,"suit":"p"}'),
    "bad_void": lambda lines, at, rng: lines.insert(at, b'{"type":"void","seat":2,"suit":"z"}'),
    "not_an_object": lambda lines, at, rng: lines.insert(at, b"[1, 2]"),
    "no_type": lambda lines, at, rng: lines.insert(at, b'{"seat":1}'),
}


def _deal_line(lines: list[bytes], at: int) -> int:
    return max(i for i in range(at) if lines[i].startswith(b'{"type":"deal"'))


def _session_line(lines: list[bytes], at: int) -> bytes:
    return lines[max(i for i in range(at) if lines[i].startswith(b'{"type":"session"'))]


def damaged(lines: list[bytes], rate: float, seed: int) -> tuple[list[bytes], set[str]]:
    """``lines`` with about ``rate`` of the deals damaged once, each with one kind of DAMAGE;
    deal_end lines are damaged or dropped too."""
    rng = random.Random(seed)
    out = list(lines)
    used: set[str] = set()
    deals = [i for i, line in enumerate(out) if line.startswith(b'{"type":"deal"')]
    for start in reversed(deals):  # from the end, so an insertion moves no later deal
        if rng.random() >= rate:
            continue
        end = next(i for i in range(start + 1, len(out)) if out[i].startswith(b'{"type":"deal_end"'))
        if rng.random() < 0.1:
            del out[end]
            used.add("no_deal_end")
            continue
        kind = rng.choice(sorted(DAMAGE))
        at = rng.randint(start + 1, end)  # a play line or the deal_end line
        DAMAGE[kind](out, at, rng)
        used.add(kind)
    return out, used


# --- whole corpora -----------------------------------------------------------------------


@pytest.mark.parametrize("preset", REPLAYED)
def test_a_clean_corpus_reads_every_deal_fast_and_the_same(preset: str) -> None:
    lines = encoded(list(log_lines(club(preset))))
    log = read_both(as_bytes(lines))
    deals = [d for _, d in log.iter_deals()]
    assert len(deals) == 40 and fast_deals(log) == deals
    for d in deals:
        check_records(d)
    # the lazily built fields are those of the line-by-line read, line by line
    first = deals[0]
    assert first.texts == [line.decode() for line in lines[first.deal.line - 1 : first.last_line]]
    assert isinstance(first.events[0], (Draw, Discard)) or first.events[0].type in ("exchange", "void")


@pytest.mark.parametrize("preset", REPLAYED)
def test_a_tampered_and_damaged_corpus_reads_the_same(preset: str) -> None:
    seed = sum(map(ord, preset))
    lines = encoded(list(Tamperer(0.3, seed).lines(club(preset, sessions=8, seed=seed))))
    hurt, used = damaged(lines, 0.5, seed)
    assert len(used) >= 8, used  # many kinds of damage in one file
    log = read_both(as_bytes(hurt), limits=Limits(max_line=MAX_LINE))
    deals = [d for _, d in log.iter_deals()]
    fast = fast_deals(log)
    assert 0.3 * len(deals) < len(fast) < len(deals)  # both paths are taken
    for d in fast:
        check_records(d)
    assert all(d.records is None for d in deals if d.findings or d.end is None)


def test_every_kind_of_damage_falls_back_or_reads_the_same() -> None:
    """One deal, damaged one way at each of its lines in turn: the same LogFile each time;
    the well-formed damage keeps the fast path, the rest leaves it."""
    every = encoded(list(log_lines(club(sessions=1))))
    end = next(i for i, line in enumerate(every) if line.startswith(b'{"type":"deal_end"'))
    lines = every[: end + 1]  # the session line, the deal's lines
    kept = {"non_ascii_time", "crlf", "spaced", "exchange_as_lists", "void"}
    for kind, damage in DAMAGE.items():
        for at in (2, end // 2, end):
            hurt = list(lines)
            damage(hurt, at, random.Random(0))
            if hurt == lines:
                continue  # a line with no tile
            log = read_both(as_bytes(hurt), limits=Limits(max_line=MAX_LINE))
            first = log.sessions[0].deals[0]
            assert (first.records is not None) == (kind in kept), (kind, at)


def test_gzip_pieces_and_a_truncated_gzip_read_the_same(tmp_path: Path) -> None:
    """Over 1 MB of text: lines cross the pieces the text is inflated and split in."""
    lines = encoded(list(Tamperer(0.3, 5).lines(club(sessions=30, seed=5))))
    hurt, _ = damaged(lines, 0.2, 5)
    text = as_bytes(hurt)
    assert len(text) > 1 << 20
    plain = read_both(text)
    assert len(fast_deals(plain)) > 150
    packed = gzip.compress(text[: len(text) // 2]) + gzip.compress(text[len(text) // 2 :])
    assert read_both(packed) == plain  # gzip is known by its bytes
    path = tmp_path / "club.jsonl.gz"
    path.write_bytes(packed)
    assert read_log(path) == read_both(packed, str(path))
    cut = read_both(packed[: len(packed) // 3], "cut.jsonl.gz")  # the break falls inside a deal
    assert any("cut off" in f.message for f in cut.findings)
    assert cut.stray[-1][0] == cut.sessions[-1].deals[-1].last_line + 1


def test_crlf_bom_blank_lines_and_a_deal_cut_at_the_end() -> None:
    lines = encoded(list(log_lines(club(sessions=2))))
    blanks = list(lines)
    for at in (len(lines) - 5, 30, 3):  # blank lines inside deals and between them
        blanks.insert(at, b"")
    for data in (
        as_bytes(lines, b"\r\n"),
        b"\xef\xbb\xbf" + as_bytes(lines),
        as_bytes(blanks),
        b"\xef\xbb\xbf" + as_bytes(blanks, b"\r\n"),
        as_bytes(lines)[:-1],  # no newline after the last deal_end: still fast
        as_bytes(lines[:-3]),  # the last deal has no deal_end (and the session no end)
        as_bytes(lines[:-3])[:-1],
    ):
        log = read_both(data)
        assert len(fast_deals(log)) >= 14
        for d in fast_deals(log):
            check_records(d)
    assert read_both(as_bytes(lines, b"\r\n")).sessions[0].deals[0].texts[1].endswith("}")


def test_a_deal_first_in_the_file_and_a_bom_before_it() -> None:
    lines = encoded(list(log_lines(club(sessions=1))))[1:]  # no session line: the deal is line 1
    for data in (as_bytes(lines), b"\xef\xbb\xbf" + as_bytes(lines)):
        log = read_both(data)
        assert log.sessions[0].session is None and log.sessions[0].deals[0].records is not None


def test_score_sheet_deals_take_the_line_by_line_path() -> None:
    events = list(with_sheet_sessions(club(sessions=6), 0.5, 3))
    log = read_both(as_bytes(encoded(list(log_lines(events)))), "sheets.jsonl")
    sheet = [d for _, d in log.iter_deals() if d.deal.record == "sheet"]
    tiles = [d for _, d in log.iter_deals() if d.deal.record != "sheet"]
    assert sheet and tiles
    assert all(d.records is None for d in sheet) and any(d.sheet_events for d in sheet)
    assert all(d.records is not None for d in tiles)
    # a sheet's kong line that a tile log would read too: still the sheet's event
    lines = [POOL[0], b'{"type":"deal","deal_id":"e","record":"sheet"}', POOL[11], POOL[16]]
    (deal,) = read_both(as_bytes(lines)).sessions[0].deals
    assert deal.records is None and deal.events == [] and [e.line for e in deal.sheet_events] == [3]


def test_over_long_lines_and_the_line_limit() -> None:
    lines = encoded(list(log_lines(club(sessions=1))))
    longest = max(len(line) for line in lines)
    for limit in (longest - 1, longest, 64, 1024):
        read_both(as_bytes(lines), limits=Limits(max_line=limit))


def test_a_fast_deal_hashes_and_keeps_lines_like_any_other() -> None:
    data = as_bytes(encoded(list(log_lines(club(sessions=1)))))
    fast, slow = read_log_bytes(data, "a.jsonl"), read_log_bytes(data, "a.jsonl", fast=False)
    pairs = list(zip((d for _, d in fast.iter_deals()), (d for _, d in slow.iter_deals()), strict=True))
    for f, s in pairs:
        assert f.records is not None
        assert deal_sha256("key", f) == deal_sha256("key", s)
        expected = hashlib.sha256("\n".join(["key", *s.texts]).encode()).hexdigest()
        assert deal_sha256("key", s) == expected
    f, s = pairs[0]
    f.keep(999, "late")  # what the sheet converter does to a deal it already holds
    s.keep(999, "late")
    assert f == s and f.raw_lines[-1] == (999, "late")


def test_texts_and_events_are_built_apart_and_only_when_asked_for() -> None:
    """A deal's texts (hashed by ingest) do not build its events, nor its events its texts."""
    data = as_bytes(encoded(list(log_lines(club(sessions=1)))))
    first, second = read_log_bytes(data, "a.jsonl").sessions[0].deals[:2]
    slow_first, slow_second = read_log_bytes(data, "a.jsonl", fast=False).sessions[0].deals[:2]
    assert first._pending and first._raw is not None  # nothing built at reading
    assert first.texts == slow_first.texts and first._pending  # the texts alone
    assert second.events == slow_second.events and second._raw is not None  # the events alone
    assert first == slow_first and second == slow_second


def test_a_read_log_pickles_and_copies_with_its_records() -> None:
    """A worker process may send a LogFile back (pickle); the compiled class has no __dict__."""
    import copy
    import pickle

    log = read_log_bytes(as_bytes(encoded(list(log_lines(club(sessions=1))))), "p.jsonl")
    again = pickle.loads(pickle.dumps(log))
    assert again == log and copy.deepcopy(log) == log
    deals = [d for _, d in again.iter_deals()]
    assert all(d.records is not None for d in deals) and deals[0].records == log.sessions[0].deals[0].records


def test_read_head_keeps_the_first_bytes_and_read_source_hashes_the_whole_file(tmp_path: Path) -> None:
    import hashlib

    from ingest.logs.source import read_head, read_source

    data = random.Random(1).randbytes(3 << 20)
    path = tmp_path / "big.jsonl"
    path.write_bytes(data)
    whole = (hashlib.sha256(data).hexdigest(), len(data))
    for keep in (0, 1, 1 << 20, len(data) - 1, len(data), len(data) + 1):
        assert read_head(path, keep) == data[:keep]
        assert read_source(path, keep) == (data[:keep], *whole)
    assert read_source(path) == (data, *whole)
    with pytest.raises(OSError):
        read_head(tmp_path, 10)


# --- ingest's pieces of a file: read_text_bytes against read_lines ----------------------


def read_text_both(data: bytes, first: int = 1, limits: Limits | None = None) -> LogFile:
    """``read_text_bytes`` of UTF-8 ``data``, after checking it equals ``read_lines``."""
    pieces = data.decode("utf-8").split("\n")
    if pieces and pieces[-1] == "":
        pieces.pop()
    fast = read_text_bytes(data, "piece.jsonl", first, limits)
    slow = read_lines(pieces, "piece.jsonl", first, limits)
    assert snapshot(fast) == snapshot(slow)
    return fast


@pytest.mark.parametrize("first", [1, 1001])
def test_a_piece_of_a_file_reads_as_its_lines(first: int) -> None:
    lines = encoded(list(Tamperer(0.3, 9).lines(club(sessions=8, seed=9))))
    hurt, _ = damaged(lines, 0.5, 9)
    text = [line for line in hurt if _is_utf8(line)]  # ingest cuts only UTF-8 files
    log = read_text_both(b"\xef\xbb\xbf" + as_bytes(text, b"\r\n"), first, Limits(max_line=MAX_LINE))
    assert len(fast_deals(log)) > 20
    for d in fast_deals(log):
        check_records(d)
    piece = read_text_both(as_bytes(lines)[:-1], first)
    if first == 1:  # a whole file read as one piece reads as the file
        assert piece == read_log_bytes(as_bytes(lines), "piece.jsonl")


def test_a_piece_counts_its_line_limit_in_characters() -> None:
    """read_lines measures a line in characters, the file reader in bytes: a piece keeps
    read_lines' way, so ingest and its tests read what they read before."""
    wide = '{"type":"draw","seat":1,"tile":"4p","t":"' + "一" * 40 + '"}'  # 82 characters, 162 bytes
    lines = [POOL[0], POOL[1], wide.encode(), POOL[4], POOL[16]]
    for limit in (81, 82, 100, 161, 162):
        read_text_both(as_bytes(lines), 1, Limits(max_line=limit))
        read_text_both(b"\xef\xbb\xbf" + wide.encode() + b"\n" + as_bytes(lines), 1, Limits(max_line=limit))


def _is_utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# --- properties --------------------------------------------------------------------------

POOL = [
    b'{"type":"session","session_id":"s","players":["A","B","C","D"]}',
    b'{"type":"deal","deal_id":"d","dealer":0,"hands":["1112345678999m","123456789p1234s","2345678s456789m","11234m567p99p123s"]}',
    b'{"type":"deal","deal_id":"e","record":"sheet"}',
    b'{"type":"deal","deal_id":"d","dealer":0,"hands":["0z","","",""]}',
    b'{"type":"draw","seat":1,"tile":"4p"}',
    b'{"type":"discard","seat":1,"tile":"4p","t":1}',
    b'{"type":"draw","seat":1,"tile":"4p"}\r',
    b'{"type":"draw","seat":9,"tile":"4p"}',
    b'{"type":"draw","seat":1,"tile":"0z"}',
    b'{"type":"draw","seat":1,"tile":"4p","x":1}',
    b'{"type":"pong","seat":2,"tile":"4p"}',
    b'{"type":"kong","seat":2,"tile":"7p","kind":"exposed","deltas":[0,-1,1,0]}',
    b'{"type":"hu","seat":2,"tile":"3m","from":null,"fan":3,"patterns":["pinghu"]}',
    b'{"type":"hu","seat":2,"patterns":["pinghu"],"from":1}',
    b'{"type":"exchange","direction":"clockwise","tiles":["123m",["5p","6p","7p"],"999m","123s"]}',
    b'{"type":"void","seat":0,"suit":"s"}',
    b'{"type":"deal_end","reason":"three_won"}',
    b'{"type":"deal_end","reason":"three_won","ready":[1,null,null,null]}',
    b'{"type":"deal_end"}',
    b'{"type":"session_end","totals":[1,2,3,-6]}',
    b"",
    b"  ",
    b"\r",
    b"\xff\xfe{}",
    b'{"type":"draw","seat":1,',
    b'{"type":"draw","seat":1,"tile":"4p","t":"\xe4\xb8\x80"}',
    b"\xef\xbb\xbf" + b'{"type":"draw","seat":1,"tile":"4p"}',
    b'{"type":"draw","seat":1,"tile":"4p"}' + b" " * 200,
]


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.one_of(st.sampled_from(POOL), st.binary(max_size=20)), max_size=40),
    st.booleans(),
    st.booleans(),
)
def test_arbitrary_lines_read_the_same(lines: list[bytes], crlf: bool, trailing: bool) -> None:
    data = as_bytes(lines, b"\r\n" if crlf else b"\n")
    read_both(data if trailing or not data else data[:-1], limits=Limits(max_line=150))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(st.sampled_from([p for p in POOL if _is_utf8(p)]), st.text(max_size=20).map(str.encode)),
        max_size=40,
    ),
    st.sampled_from([1, 2, 50]),
    st.sampled_from([20, 60, 150]),
)
def test_arbitrary_text_reads_as_its_lines(lines: list[bytes], first: int, max_line: int) -> None:
    read_text_both(as_bytes(lines), first, Limits(max_line=max_line))


_PLAY_LINES = st.builds(
    lambda kind, seat, tile, t: (
        f'{{"type":"{kind}","seat":{seat},"tile":"{tile % 9 + 1}{"mps"[tile // 9]}"{t}}}'.encode()
    ),
    st.sampled_from(["draw", "discard", "pong"]),
    st.integers(0, 3),
    st.integers(0, 26),
    st.sampled_from(["", ',"t":7', ',"t":1234567']),
)


@st.composite
def _cut_text(draw: st.DrawFn) -> list[bytes]:
    """Lines (plain play lines among others) joined and cut into pieces anywhere."""
    lines = draw(
        st.lists(_PLAY_LINES | st.binary(max_size=20).map(lambda b: b.replace(b"\n", b"")), max_size=12)
    )
    text = b"\n".join(lines) + draw(st.sampled_from([b"", b"\n"]))
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=5)))
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]


@settings(max_examples=400)
@given(
    st.lists(st.binary(max_size=30).map(lambda b: b.replace(b"\x00", b"\n")), max_size=12) | _cut_text(),
    st.integers(min_value=1, max_value=80),
)
def test_batches_cut_the_same_lines_as_line_by_line(pieces: list[bytes], max_line: int) -> None:
    """A run of plain play lines comes as one part with its codes (one code a line), the
    rest line by line: expanded, the batches are the lines ``__iter__`` gives."""
    pieces = [p for p in pieces if p]
    one, other = ByteLines(pieces, max_line), ByteLines(pieces, max_line)
    by_line = list(one)
    batched = []
    for first, batch, runs, ascii in other.batches():
        assert not ascii or all(part.isascii() for part in batch)
        n = first
        for part, run in zip(batch, runs, strict=True):
            lines = part.split(b"\n") if run is not None else [part]
            assert run is None or run == [line_code(line) for line in lines]
            for line in lines:
                whole = len(line) <= max_line
                batched.append((n, line if whole else line[:max_line], whole))
                n += 1
    assert batched == by_line
    assert (other.complete, other.partial) == (one.complete, one.partial)


@settings(max_examples=500)
@given(st.text(alphabet="123456789mps0z中 ", max_size=20))
def test_compact_tiles_read_as_parse_tiles(text: str) -> None:
    """The deal line's hands: the parser's own compact reading agrees with the engine's,
    a 红中 (``7z``, ``中``) read as one (whether the table has them is the engine's to say)."""
    from engine.tiles import TileError, parse_tiles
    from ingest.logs.line_parser import _compact

    try:
        expected: tuple[int, ...] | str = tuple(parse_tiles(text, wild=True))
    except TileError as err:
        expected = str(err)
    try:
        got: tuple[int, ...] | str = _compact(text)
    except TileError as err:
        got = str(err)
    assert got == expected
