"""The warehouse rows of a deal checked on the fast path equal the engine's.

A file is read twice, once on the reader's fast path (deals keep their decoded records,
the fast check prices them, the events rows come from the records) and once line by line
(events, the engine's replay, rows from events): every table must hold the same rows, and
the deal hashes that tell duplicates from conflicts must be the same.
"""

from __future__ import annotations

from datetime import datetime

import pyarrow as pa  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.logs.writer import log_lines
from ingest.replay.files import read_log_bytes
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer
from ingest.warehouse.deal_rows import _seconds, facts_of_log


def _log_bytes(rules: str, tamper: float, seed: int, crlf: bool = False) -> bytes:
    events = simulate_club(ClubPlan(sessions=6, deals_per_session=6, rules=rules, seed=seed))
    lines = Tamperer(tamper, seed).lines(events) if tamper else log_lines(events)
    ending = "\r\n" if crlf else "\n"
    return "".join(line + ending for line in lines).encode("utf-8")


@pytest.mark.parametrize(
    ("rules", "tamper", "crlf"),
    [("standard", 0.0, False), ("chengdu", 0.2, False), ("online", 0.2, True)],
)
def test_rows_are_the_same_on_both_paths(rules: str, tamper: float, crlf: bool) -> None:
    data = _log_bytes(rules, tamper, seed=5, crlf=crlf)
    fast_log = read_log_bytes(data, "club.jsonl")
    slow_log = read_log_bytes(data, "club.jsonl", fast=False)
    fast_read = sum(1 for _, deal in fast_log.iter_deals() if deal.records is not None)
    assert fast_read > 0, "the fast path read no deal: this test would compare one path with itself"
    fast, slow = facts_of_log(fast_log, "sha"), facts_of_log(slow_log, "sha")
    assert fast.deal_keys == slow.deal_keys
    assert fast.tables.keys() == slow.tables.keys()
    for name in fast.tables:
        assert fast.tables[name].equals(slow.tables[name]), name


def test_a_fast_deal_counts_and_hashes_its_lines_whatever_was_built_first() -> None:
    """The rows count a deal's events and hash its text without building either; the
    answers must not depend on what an earlier caller already built."""
    data = _log_bytes("standard", 0.0, seed=9)
    fresh = [deal for _, deal in read_log_bytes(data, "club.jsonl").iter_deals()]
    texts_first = [deal for _, deal in read_log_bytes(data, "club.jsonl").iter_deals()]
    slow = [deal for _, deal in read_log_bytes(data, "club.jsonl", fast=False).iter_deals()]
    for deal in texts_first:
        assert deal.texts  # built before anything else
    for a, b, c in zip(fresh, texts_first, slow, strict=True):
        assert a.records is not None and b.records is not None
        assert a.play_count == b.play_count == c.play_count == len(c.events)
        joined = [b"".join(deal.text_pieces()) for deal in (a, b, c)]
        assert joined[0] == joined[1] == joined[2] == "\n".join(c.texts).encode()


@settings(max_examples=300, deadline=None)
@given(st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59, 59)))
def test_played_at_seconds_are_the_timestamp_arrow_makes_of_the_time(when: datetime) -> None:
    """Rows carry a session's time as seconds, computed once (``_seconds``): Arrow must
    store them as the same ``timestamp[s]`` it makes of the ``datetime`` itself."""
    when = when.replace(microsecond=0)  # as parse_time leaves it
    stamp = pa.timestamp("s")
    assert pa.array([_seconds(when)], stamp).equals(pa.array([when], stamp))
    assert _seconds(None) is None
