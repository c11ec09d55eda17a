"""The log reader: events come out typed, bad lines become findings, and no line is lost."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.events import DealEnd, Discard, Draw, Exchange, Hu, Kong, Pong, SessionEnd, Void
from engine.tiles import parse_tile, parse_tiles
from ingest.logs.builder import LogFile
from ingest.logs.reader import read_lines
from ingest.replay.files import read_log, read_log_bytes

HANDS = ["11234m567p99p123s", "1112345678999m", "123456789p1234s", "2345678s456789m"]
HANDS_AS_LISTS = [[f"{r}m" for r in "1123456789"] + ["1p", "2p", "3p", "4p"], *HANDS[1:]]


def j(**fields: Any) -> str:
    """One event line; ``from_`` stands for the JSON key ``from``."""
    if "from_" in fields:
        fields["from"] = fields.pop("from_")
    return json.dumps(fields, separators=(",", ":"))


def session(sid: str = "s1", **more: Any) -> str:
    return j(type="session", session_id=sid, players=["Ann", "Bo", "Chen", "Du"], **more)


def deal(did: str = "d1", hands: Any = None, dealer: Any = 0, **more: Any) -> str:
    return j(type="deal", deal_id=did, dealer=dealer, hands=HANDS if hands is None else hands, **more)


def draw(seat: int = 1, tile: str = "4p", **more: Any) -> str:
    return j(type="draw", seat=seat, tile=tile, **more)


def discard(seat: int = 0, tile: str = "1s") -> str:
    return j(type="discard", seat=seat, tile=tile)


def deal_end(reason: str = "wall_exhausted", **more: Any) -> str:
    return j(type="deal_end", reason=reason, **more)


def write(tmp_path: Path, lines: list[str], name: str = "log.jsonl", *, gz: bool = False) -> Path:
    path = tmp_path / name
    data = ("\n".join(lines) + "\n").encode()
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


def accounted(log: LogFile) -> list[int]:
    """Every line number the reader put somewhere (deal, session or stray), with repeats."""
    numbers = [n for _, d in log.iter_deals() for n, _ in d.raw_lines]
    numbers += [n for s in log.sessions for n, _ in s.raw_lines]
    numbers += [n for n, _, _ in log.stray]
    return sorted(numbers)


def non_blank(lines: list[str]) -> list[int]:
    return [n for n, line in enumerate(lines, 1) if line.strip()]


def only_deal(log: LogFile) -> Any:
    deals = [d for _, d in log.iter_deals()]
    assert len(deals) == 1
    return deals[0]


def codes(findings: Any) -> list[str]:
    return [f.code for f in findings]


# --- well-formed files ---------------------------------------------------------------

FULL_FILE = [
    session("s1", rules="standard", base=2, club="club7"),
    deal("s1-01", wall="123456789m"),
    j(type="exchange", direction="clockwise", tiles=["123m", ["5p", "6p", "7p"], "999m", "123s"]),
    j(type="void", seat=0, suit="s"),
    discard(0, "1s"),
    draw(1, "4p"),
    j(type="pong", seat=2, tile="4p"),
    j(type="kong", seat=2, tile="7p", kind="exposed", deltas=[0, -1, 1, 0]),
    j(type="hu", seat=2, tile="3m", from_=None, fan=3, patterns=["pinghu", "gen"], deltas=[-4, -4, 12, -4]),
    j(type="hu", seat=3, tile="3m", from_=1),
    deal_end("three_won", settlement=[0, 0, 0, 0], scores=[1, 2, 3, -6]),
    j(type="session_end", totals=[1, 2, 3, -6]),
    session("s2", rules={"preset": "chengdu", "max_fan": 5}),
    deal("s2-01", hands=HANDS_AS_LISTS),
    draw(1, "9s"),
    deal_end(),
    deal("s2-02"),
    deal_end(),
]


@pytest.mark.parametrize("gz", [False, True])
def test_reads_sessions_deals_and_every_event_type(tmp_path: Path, gz: bool) -> None:
    name = "log.jsonl.gz" if gz else "log.jsonl"
    log = read_log(write(tmp_path, FULL_FILE, name, gz=gz))
    assert log.findings == [] and log.stray == []
    assert log.path.endswith(name)
    first, second = log.sessions
    assert first.session is not None and first.session.session_id == "s1"
    assert first.session.players == ("Ann", "Bo", "Chen", "Du")
    assert (first.session.rules, first.session.base, first.session.club) == ("standard", 2, "club7")
    assert first.end == SessionEnd(totals=(1, 2, 3, -6), line=12)
    assert second.session is not None and second.session.rules == {"preset": "chengdu", "max_fan": 5}
    assert second.session.base == 1 and second.end is None
    assert [d.deal.deal_id for d in second.deals] == ["s2-01", "s2-02"]

    d = first.deals[0]
    assert d.deal.line == 2 and d.deal.dealer == 0
    assert d.deal.hands == tuple(tuple(parse_tiles(h)) for h in HANDS)
    assert d.deal.wall == tuple(range(9))
    assert [type(e) for e in d.events] == [Exchange, Void, Discard, Draw, Pong, Kong, Hu, Hu]
    assert [e.line for e in d.events] == list(range(3, 11))
    exchange, void, _, drawn, _, kong, zimo, ron = d.events
    assert isinstance(exchange, Exchange) and exchange.direction == "clockwise"
    assert exchange.tiles[1] == (parse_tile("5p"), parse_tile("6p"), parse_tile("7p"))
    assert isinstance(void, Void) and void.suit == 2
    assert drawn == Draw(seat=1, tile=parse_tile("4p"), line=6)
    assert isinstance(kong, Kong) and kong.kind == "exposed" and kong.deltas == (0, -1, 1, 0)
    assert isinstance(zimo, Hu) and zimo.from_seat is None and zimo.fan == 3
    assert zimo.patterns == ("pinghu", "gen") and zimo.deltas == (-4, -4, 12, -4)
    assert isinstance(ron, Hu) and ron.from_seat == 1 and ron.fan is None
    assert d.end == DealEnd(reason="three_won", settlement=(0, 0, 0, 0), scores=(1, 2, 3, -6), line=11)
    assert d.last_line == 11
    assert [n for n, _ in d.raw_lines] == list(range(2, 12))
    assert d.raw_lines[0][1] == FULL_FILE[1]
    assert second.deals[0].deal.hands[0] == tuple(parse_tiles("1123456789m1234p"))
    assert accounted(log) == non_blank(FULL_FILE)


def test_gzip_is_recognised_by_its_bytes_not_its_name(tmp_path: Path) -> None:
    hidden = read_log(write(tmp_path, FULL_FILE, "looks_plain.jsonl", gz=True))
    assert hidden.findings == [] and len(hidden.sessions) == 2
    fake = read_log(write(tmp_path, FULL_FILE, "not_really.jsonl.gz"))
    assert len(fake.sessions) == 2
    assert [(f.code, f.severity) for f in fake.findings] == [("bad_record", "warning")]


def test_reading_pauses_the_collector_and_gives_it_back() -> None:
    import gc

    lines = [session(), deal(), draw(), deal_end()]
    assert gc.isenabled()
    assert only_deal(read_lines(lines, "on.jsonl")).events and gc.isenabled()
    gc.disable()  # a caller that runs with the collector off keeps it off
    try:
        assert only_deal(read_lines(lines, "off.jsonl")).events and not gc.isenabled()
    finally:
        gc.enable()


def test_bytes_and_path_give_the_same_result(tmp_path: Path) -> None:
    path = write(tmp_path, FULL_FILE, gz=True)
    assert read_log_bytes(path.read_bytes(), str(path)) == read_log(path)


def test_line_numbers_count_blank_lines_and_crlf() -> None:
    lines = ["", session(), "   ", deal(), "", "", draw(), deal_end(), ""]
    log = read_lines([line + "\r\n" for line in lines], "crlf.jsonl")
    d = only_deal(log)
    assert d.deal.line == 4 and d.events[0].line == 7 and d.end is not None and d.end.line == 8
    assert [n for n, _ in d.raw_lines] == [4, 7, 8]
    assert d.raw_lines[1][1] == draw()
    assert accounted(log) == non_blank(lines)


def test_time_stamps_are_accepted_and_ignored() -> None:
    lines = [session(t="2026-11-28T19:00:00+08:00"), deal(t=0), draw(t=1534.5), deal_end(t="soon")]
    log = read_lines(lines, "t.jsonl")
    assert log.findings == [] and only_deal(log).findings == []
    assert only_deal(log).events == [Draw(seat=1, tile=parse_tile("4p"), line=3)]


# --- one finding per line, and the deal goes on ----------------------------------------

BAD_RECORDS = [
    ("not json", "{type: draw}", None, "not valid JSON"),
    ("not an object", "[1, 2, 3]", None, "expected a JSON object"),
    ("unknown type", j(type="chow", seat=1, tile="3m"), 1, "unknown event type"),
    ("no type", j(seat=2, tile="3m"), 2, "no 'type' field"),
    ("missing field", j(type="discard", seat=1), 1, "no 'tile' field"),
    ("missing from", j(type="hu", seat=1, tile="3m"), 1, "no 'from' field"),
    ("bad seat", draw(seat=5), None, "'seat' must be a seat number 0-3, got 5"),
    ("seat as text", j(type="draw", seat="1", tile="4p"), None, "'seat' must be"),
    ("seat as bool", j(type="draw", seat=True, tile="4p"), None, "'seat' must be"),
    ("bad kind", j(type="kong", seat=1, tile="3m", kind="open"), 1, "'kind' must be one of exposed"),
    ("bad direction", j(type="exchange", direction="left", tiles=["1m"] * 4), None, "'direction'"),
    ("bad suit", j(type="void", seat=1, suit="z"), 1, "'suit' must be one of m, p, s"),
    ("short deltas", j(type="kong", seat=1, tile="3m", kind="added", deltas=[1]), 1, "'deltas'"),
    ("from not a seat", j(type="hu", seat=1, tile="3m", from_=4), 1, "'from' must be"),
    ("bad fan", j(type="hu", seat=1, tile="3m", from_=0, fan=-1), 1, "'fan'"),
]


@pytest.mark.parametrize(("label", "bad", "seat", "words"), BAD_RECORDS, ids=[b[0] for b in BAD_RECORDS])
def test_bad_record_inside_a_deal_is_a_deal_finding(
    label: str, bad: str, seat: int | None, words: str
) -> None:
    lines = [session(), deal(), draw(1), bad, discard(1), deal_end()]
    log = read_lines(lines, "bad.jsonl")
    d = only_deal(log)
    assert codes(d.findings) == ["bad_record"], label
    finding = d.findings[0]
    assert finding.line == 4 and finding.seat == seat and finding.severity == "error"
    assert finding.message.startswith("line 4: ") and words in finding.message
    assert finding.file == "bad.jsonl"
    assert [e.line for e in d.events] == [3, 5] and d.end is not None
    assert (4, bad) in d.raw_lines
    assert log.findings == [] and log.stray == []


@pytest.mark.parametrize(
    ("line", "field"),
    [
        (j(type="session", session_id="s", players=["a"]), "players"),
        (j(type="session", session_id="s", players=["a", "b", "c", "d", "e"]), "players"),
        (j(type="session", session_id="", players=["a", "b", "c", "d"]), "session_id"),
        (j(type="session", session_id="s", players=["a", "b", "c", "d"], base=0), "base"),
        (j(type="session_end", totals=[1, 2, 3, 4.5]), "totals"),
    ],
)
def test_bad_session_lines_name_the_field(line: str, field: str) -> None:
    log = read_lines([session(), line] if "session_end" in line else [line], "s.jsonl")
    findings = [f for s in log.sessions for f in s.findings] + log.findings
    assert codes(findings) == ["bad_record"]
    assert f"'{field}' must be" in findings[0].message


@pytest.mark.parametrize(
    ("line", "field"),
    [
        (deal(dealer=7), "dealer"),
        (deal(hands=HANDS[:1]), "hands"),
        (deal(hands=[1, 2, 3, 4]), "hands"),
        (deal_end(settlement=[1, 2, 3, "4"]), "settlement"),
        (j(type="deal_end", reason=3), "reason"),
        (j(type="deal_end", reason="three_won", scores=None, settlement="x"), "settlement"),
    ],
)
def test_bad_deal_and_deal_end_lines_name_the_field(line: str, field: str) -> None:
    lines = [session(), deal(), line]
    log = read_lines(lines, "d.jsonl")
    messages = [f.message for f in log.findings] + [
        f.message for _, d in log.iter_deals() for f in d.findings
    ]
    assert any(f"'{field}' must be" in m for m in messages), messages


def test_bad_tile_in_an_event_or_a_deal_line() -> None:
    lines = [
        session(),
        deal(),
        draw(2, "0m"),
        j(type="exchange", direction="across", tiles=["123m", ["1m", "2x", "3m"], "123p", "123s"]),
        discard(1, "5p"),
        deal_end(),
        deal("d2", hands=[*HANDS[:3], "12345z"]),
        draw(1),
        deal_end(),
        deal("d3", wall=["1m", "10m"]),
        deal_end(),
    ]
    log = read_lines(lines, "tiles.jsonl")
    d = only_deal(log)
    assert [(f.code, f.line, f.seat) for f in d.findings] == [("bad_tile", 3, 2), ("bad_tile", 4, None)]
    assert "'0m' is not a tile" in d.findings[0].message
    assert "tiles[1]" in d.findings[1].message and "'2x'" in d.findings[1].message
    assert [e.line for e in d.events] == [5]
    tile_findings = [f for f in log.findings if f.code == "bad_tile"]
    assert [f.line for f in tile_findings] == [7, 10]
    assert "hands[3]" in tile_findings[0].message and "wall" in tile_findings[1].message


def test_unknown_fields_are_warnings_kept_and_reported_once_per_deal() -> None:
    lines = [
        session(venue="upstairs"),
        deal(),
        draw(1, player="Bo"),
        draw(2, player="Chen"),
        discard(2),
        deal_end(),
        deal("d2"),
        draw(0, player="Ann", mood="ok"),
        deal_end(),
    ]
    log = read_lines(lines, "extra.jsonl")
    assert log.findings == [] and log.stray == []
    s = log.sessions[0]
    assert [(f.code, f.severity, f.line) for f in s.findings] == [("unknown_field", "warning", 1)]
    assert s.extras == {1: {"venue": "upstairs"}}
    first, second = s.deals
    assert [(f.code, f.severity, f.line) for f in first.findings] == [("unknown_field", "warning", 3)]
    assert "'player'" in first.findings[0].message and first.findings[0].seat == 1
    assert first.extras == {3: {"player": "Bo"}, 4: {"player": "Chen"}}
    assert [e.line for e in first.events] == [3, 4, 5]
    assert sorted(f.extra["field"] for f in second.findings) == ["mood", "player"]
    assert second.events == [Draw(seat=0, tile=parse_tile("4p"), line=8)]


# --- structure: deals without ends, lines outside deals ---------------------------------


def test_deal_without_deal_end_is_closed_by_the_next_deal_or_the_end_of_file() -> None:
    lines = [session(), deal("d1"), draw(), deal("d2"), discard(), j(type="session_end"), deal_end()]
    log = read_lines(lines, "open.jsonl")
    d1, d2 = log.sessions[0].deals
    assert d1.end is None and d1.last_line == 3 and [e.line for e in d1.events] == [3]
    assert d2.end is None and d2.last_line == 5
    assert log.sessions[0].end == SessionEnd(line=6)
    assert [n for n, _, _ in log.stray] == [7]
    assert accounted(log) == non_blank(lines)
    eof = read_lines([session(), deal(), draw()], "eof.jsonl")
    assert only_deal(eof).end is None and only_deal(eof).events[0].line == 3


def test_events_outside_any_deal_are_stray_with_a_reason() -> None:
    lines = [
        draw(),
        session(),
        discard(),
        deal(),
        deal_end(),
        draw(3),
        "garbage between deals",
        deal_end(),
        j(type="session_end"),
        j(type="session_end"),
    ]
    log = read_lines(lines, "stray.jsonl")
    stray = {n: f for n, _, f in log.stray}
    assert sorted(stray) == [1, 3, 6, 7, 8, 10]
    assert "outside any deal (no deal has started yet)" in stray[1].message
    assert "outside any deal" in stray[6].message and "ended at line 5" in stray[6].message
    assert stray[6].seat == 3
    assert "not valid JSON" in stray[7].message
    assert "no session line before it" in stray[10].message
    assert all(f.code == "bad_record" and f.line == n for n, f in stray.items())
    assert all(f in log.findings for f in stray.values())
    assert (7, "garbage between deals", stray[7]) in log.stray
    assert accounted(log) == non_blank(lines)


def test_lines_of_an_unreadable_deal_are_set_aside_with_it() -> None:
    lines = [
        session(),
        deal("bad", dealer=9),
        draw(),
        "nonsense",
        deal_end(),
        discard(),
        deal("good"),
        draw(),
    ]
    log = read_lines(lines, "baddeal.jsonl")
    d = only_deal(log)
    assert d.deal.deal_id == "good" and [e.line for e in d.events] == [8]
    stray = {n: f for n, _, f in log.stray}
    assert sorted(stray) == [2, 3, 4, 5, 6]
    assert "'dealer' must be a seat number 0-3, got 9" in stray[2].message
    assert stray[3] is stray[5] and stray[3].line == 2 and "could not be read" in stray[3].message
    assert "not valid JSON" in stray[4].message
    assert "outside any deal" in stray[6].message
    assert codes(log.findings).count("bad_record") == len(log.findings) == 4
    assert accounted(log) == non_blank(lines)


def test_unreadable_session_line_still_groups_its_deals() -> None:
    lines = [j(type="session", session_id="s"), deal(), draw(), deal_end(), j(type="session_end")]
    log = read_lines(lines, "badsession.jsonl")
    (s,) = log.sessions
    assert s.session is None and s.line == 1 and s.end == SessionEnd(line=5)
    assert codes(s.findings) == ["bad_record"] and "no 'players' field" in s.findings[0].message
    assert only_deal(log).end is not None and log.findings == []
    assert accounted(log) == non_blank(lines)


def test_deals_before_a_session_or_after_its_end_have_no_session() -> None:
    lines = [deal("early"), deal_end(), session(), deal("in"), j(type="session_end"), deal("late")]
    log = read_lines(lines, "orphans.jsonl")
    assert [(s.session is None, [d.deal.deal_id for d in s.deals]) for s in log.sessions] == [
        (True, ["early"]),
        (False, ["in"]),
        (True, ["late"]),
    ]
    assert [(f.code, f.line) for f in log.findings] == [("bad_record", 1), ("bad_record", 6)]
    assert "before any session line" in log.findings[0].message
    assert "after the session_end at line 5" in log.findings[1].message
    assert accounted(log) == non_blank(lines)


# --- files that are damaged ----------------------------------------------------------


def test_truncated_gzip_keeps_the_complete_lines_before_the_break(tmp_path: Path) -> None:
    lines = [session(), deal()] + [draw(i % 4, "5m") for i in range(2000)] + [deal_end()]
    data = gzip.compress(("\n".join(lines) + "\n").encode())
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(data[: len(data) // 2])
    log = read_log(path)
    d = only_deal(log)
    assert d.end is None and len(d.events) > 100
    assert [e.line for e in d.events] == list(range(3, 3 + len(d.events)))
    (problem,) = log.findings
    assert problem.code == "bad_record" and "cut off" in problem.message
    assert problem.line == d.last_line + 1 and f"after line {d.last_line}" in problem.message
    assert [(n, f) for n, _, f in log.stray] == [(d.last_line + 1, problem)]
    assert lines[d.last_line].startswith(log.stray[0][1])


def test_corrupt_gzip_is_a_finding_and_keeps_what_came_before(tmp_path: Path) -> None:
    lines = [session(), deal()] + [draw(i % 4, f"{i % 9 + 1}p") for i in range(20000)] + [deal_end()]
    data = bytearray(gzip.compress(("\n".join(lines) + "\n").encode()))
    for i in range(len(data) * 3 // 4, len(data) * 3 // 4 + 64):
        data[i] ^= 0x5A
    log = read_log_bytes(bytes(data), "corrupt.jsonl.gz")
    assert any("corrupt" in f.message for f in log.findings)
    assert len(only_deal(log).events) > 1000


def test_unreadable_path_is_a_finding(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.jsonl", tmp_path):
        log = read_log(path)
        assert log.sessions == [] and codes(log.findings) == ["bad_record"]
        assert "cannot read" in log.findings[0].message


def test_lines_that_are_not_utf8_are_findings(tmp_path: Path) -> None:
    data = "\n".join([session(), deal(), draw()]).encode() + b"\n\xff\xfe{}\n" + deal_end().encode()
    log = read_log(write_bytes(tmp_path / "latin.jsonl", data))
    d = only_deal(log)
    assert d.end is not None and [(f.code, f.line) for f in d.findings] == [("bad_record", 4)]
    assert "not UTF-8" in d.findings[0].message


def write_bytes(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("prefix", [b"", b"\x1f\x8b"])
def test_random_bytes_give_findings_not_exceptions(tmp_path: Path, prefix: bytes) -> None:
    data = prefix + random.Random(7).randbytes(20000)
    log = read_log(write_bytes(tmp_path / "noise.jsonl.gz", data))
    assert log.findings and log.sessions == []


# --- properties ----------------------------------------------------------------------

EVENT_LINES = [
    session(),
    deal(),
    draw(),
    discard(),
    deal_end(),
    j(type="session_end"),
    j(type="hu", seat=1, tile="3m", from_=None),
    draw(9),
    deal(dealer=5),
    j(type="session", session_id=""),
    draw(tile="0z", x=1),
    "",
]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(EVENT_LINES), st.text(max_size=40)), max_size=30))
def test_arbitrary_lines_never_raise_and_every_line_is_kept_once(lines: list[str]) -> None:
    log = read_lines(lines, "any.jsonl")
    texts = [line.removeprefix("\ufeff") if n == 1 else line for n, line in enumerate(lines, 1)]
    assert accounted(log) == non_blank([text.rstrip("\r\n") for text in texts])


@settings(max_examples=200)
@given(st.binary(max_size=300), st.booleans())
def test_arbitrary_bytes_never_raise(data: bytes, gz_magic: bool) -> None:
    read_log_bytes(b"\x1f\x8b" + data if gz_magic else data, "any.jsonl")
