"""``chuanma validate`` checks each session as soon as it is read and lets it go
(``ingest.replay.validate._validate_as_read``, ``read_log(path, on_session=...)``): the report must
be the one of reading the whole file first, whatever the file holds, and the reader must
hand sessions over while it reads, not only at the end."""

from __future__ import annotations

import gzip
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from ingest.logs.builder import LogBuilder, SessionLog
from ingest.logs.source import PIECE
from ingest.logs.writer import log_lines
from ingest.replay.files import read_log
from ingest.replay.validate import validate_log, validate_paths
from ingest.simulator.sheet_sessions import with_sheet_sessions
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer

SESSION = '{"type":"session","session_id":"%s","players":["A","B","C","D"],"rules":"standard"}'


def _club_lines(sessions: int, seed: int, tamper: float = 0.0) -> list[str]:
    events = list(simulate_club(ClubPlan(sessions=sessions, deals_per_session=8, seed=seed)))
    return list(Tamperer(tamper, seed).lines(events)) if tamper else list(log_lines(events))


def _messy(lines: list[str], seed: int) -> list[str]:
    """Stray lines between sessions, a deal before any session, a session_end with no
    session, a torn line, a blank line: every place the reader puts a finding outside a deal."""
    rng = random.Random(seed)
    out = list(lines)
    sessions = [i for i, line in enumerate(out) if line.startswith('{"type":"session"')]
    for at in sorted(rng.sample(sessions[1:], min(3, len(sessions) - 1)), reverse=True):
        out.insert(
            at, rng.choice(['{"type":"discard","seat":0,"tile":"1s"}', '{"type":"dra', "", "not json"])
        )
    deal = next(i for i, line in enumerate(out) if line.startswith('{"type":"deal"'))
    end = next(i for i in range(deal, len(out)) if out[i].startswith('{"type":"deal_end"'))
    return ['{"type":"session_end"}', *out[deal : end + 1], *out, '{"type":"discard","seat":1,"tile":"2m"}']


def _write(path: Path, lines: list[str]) -> Path:
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    path.write_bytes(gzip.compress(data) if path.suffix == ".gz" else data)
    return path


@pytest.mark.parametrize(
    ("name", "tamper", "messy"),
    [("clean.jsonl", 0.0, False), ("tampered.jsonl.gz", 0.3, False), ("messy.jsonl", 0.2, True)],
)
def test_the_report_is_that_of_the_whole_file(tmp_path: Path, name: str, tamper: float, messy: bool) -> None:
    lines = _club_lines(6, seed=len(name), tamper=tamper)
    if messy:
        lines = _messy(lines, seed=3)
    path = _write(tmp_path / name, lines)
    whole = validate_log(read_log(path)).to_json()
    assert validate_paths([path]).to_json() == whole
    assert whole["summary"]["deals"] >= 48 and (tamper == 0.0) == (whole["summary"]["finding_count"] == 0)


def test_several_files_and_a_score_sheet_session(tmp_path: Path) -> None:
    events = list(simulate_club(ClubPlan(sessions=4, deals_per_session=8, seed=5)))
    first = _write(tmp_path / "a.jsonl", list(log_lines(with_sheet_sessions(events, 0.5, seed=5))))
    second = _write(tmp_path / "b.jsonl", _messy(_club_lines(3, seed=8, tamper=0.2), seed=8))
    whole = validate_log(read_log(first))
    validate_log(read_log(second), report=whole)
    assert validate_paths([first, second]).to_json() == whole.to_json()


def test_sessions_are_handed_over_in_file_order_and_not_kept(tmp_path: Path) -> None:
    lines = _messy(_club_lines(40, seed=2), seed=2)
    path = _write(tmp_path / "big.jsonl", lines)
    assert path.stat().st_size > 2 * PIECE  # read in several pieces
    whole = read_log(path)
    handed: list[SessionLog] = []
    streamed = read_log(path, on_session=handed.append)
    assert streamed.sessions == [] and streamed.findings == whole.findings and streamed.stray == whole.stray
    assert handed == whole.sessions
    assert len(handed) > 40  # the deal before any session has a session of its own


def test_memory_holds_a_session_not_the_file(tmp_path: Path) -> None:
    """The point of checking as read: the peak of Python allocations while validating a
    file of several pieces is well under that of reading it whole first (measured here
    with tracemalloc: 13.0 MB against 19.2 MB for this file; the rest is the file's bytes,
    a piece being cut and the reports)."""
    import tracemalloc

    path = _write(tmp_path / "big.jsonl", _club_lines(120, seed=6))
    assert path.stat().st_size > 4 * PIECE

    def peak(run: Callable[[], object]) -> int:
        tracemalloc.start()
        try:
            run()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    whole = peak(lambda: validate_log(read_log(path)))
    as_read = peak(lambda: validate_paths([path]))
    assert as_read < 0.75 * whole, (as_read, whole)


def test_hand_over_keeps_the_last_session_until_the_end() -> None:
    builder = LogBuilder("three.jsonl")
    for n, text in enumerate([SESSION % "s1", SESSION % "s2", '{"type":"session_end"}', SESSION % "s3"], 1):
        builder.feed(n, text)
    taken: list[SessionLog] = []
    builder.hand_over(taken.append)
    assert [s.session.session_id for s in taken if s.session] == ["s1", "s2"]
    builder.hand_over(taken.append)  # nothing new is complete
    assert len(taken) == 2
    builder.hand_over(taken.append, every=True)
    assert [s.session.session_id for s in taken if s.session] == ["s1", "s2", "s3"]
    assert builder.finish().sessions == []


def test_strict_still_stops_at_the_whole_files_first_finding(tmp_path: Path) -> None:
    """``--strict`` reads the whole file first: a stray line after a flawed session is
    still the first finding it reports, as before sessions were checked as read."""
    from engine.report import StrictStop

    lines = [*_club_lines(2, seed=4, tamper=1.0), '{"type":"discard","seat":0,"tile":"1s"}']
    path = _write(tmp_path / "strict.jsonl", lines)
    with pytest.raises(StrictStop) as stop:
        validate_paths([path], strict=True)
    assert stop.value.finding.code == "bad_record" and stop.value.finding.line == len(lines)
