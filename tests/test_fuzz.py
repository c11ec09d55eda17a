"""Fuzzing: hypothesis over raw bytes (plain and gzip'd) and over
mutations of a valid log. The reader and the validator never raise; ingest never loses a
batch stored before, whatever the next file holds. Kept to a few seconds by ``settings``."""

from __future__ import annotations

import functools
import gzip
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.logs.source import Limits
from ingest.logs.writer import write_log
from ingest.replay.files import read_log_bytes
from ingest.replay.validate import validate_log
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import ingest, read_catalog

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SMALL = Limits(max_inflated=1 << 20, max_line=1 << 12)

_folder = Path(tempfile.mkdtemp(prefix="chuanma-fuzz-"))
VALID = write_log(
    simulate_club(ClubPlan(players=4, sessions=1, deals_per_session=1, seed=9)), _folder / "v.jsonl"
)
LOG = (_folder / "v.jsonl").read_bytes()
LINES = LOG.split(b"\n")


def read_and_validate(data: bytes, name: str) -> None:
    log = read_log_bytes(data, name, SMALL)
    report = validate_log(log)
    report.to_json()  # the report serialises too
    report.summary()


@FAST
@given(st.binary(max_size=4096))
def test_raw_bytes_never_raise(data: bytes) -> None:
    read_and_validate(data, "fuzz.jsonl")
    read_and_validate(gzip.compress(data), "fuzz.jsonl.gz")
    read_and_validate(gzip.compress(data)[: max(2, len(data) // 2)], "cut.jsonl.gz")


mutation = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, len(LOG) - 1), st.integers(0, 255)),
    st.tuples(st.just("cut"), st.integers(0, len(LOG) - 1), st.just(0)),
    st.tuples(st.just("drop"), st.integers(0, len(LINES) - 1), st.just(0)),
    st.tuples(st.just("dup"), st.integers(0, len(LINES) - 1), st.just(0)),
    st.tuples(
        st.just("number"), st.integers(0, len(LINES) - 1), st.sampled_from([2**31, -(2**63), 2**64, 10**30])
    ),
)


def mutate(steps: list[tuple[str, int, int]]) -> bytes:
    data = bytearray(LOG)
    for kind, where, value in steps:
        lines = bytes(data).split(b"\n")
        if kind == "flip" and where < len(data):
            data[where] = value
        elif kind == "cut":
            del data[where:]
        elif kind in ("drop", "dup", "number") and where < len(lines):
            if kind == "drop":
                del lines[where]
            elif kind == "dup":
                lines.insert(where, lines[where])
            else:
                lines[where] = (
                    lines[where]
                    .replace(b"[0,", b"[%d," % value, 1)
                    .replace(b'"base":1', b'"base":%d' % value)
                )
            data = bytearray(b"\n".join(lines))
    return bytes(data)


@FAST
@given(st.lists(mutation, min_size=1, max_size=4))
def test_mutated_logs_never_raise(steps: list[tuple[str, int, int]]) -> None:
    data = mutate(steps)
    read_and_validate(data, "m.jsonl")
    read_and_validate(gzip.compress(data), "m.jsonl.gz")


@functools.cache
def stored_warehouse() -> tuple[Path, list[str]]:
    """A warehouse holding the valid log, built once, and its batch ids."""
    warehouse = _folder / "warehouse"
    ingest([_folder / "v.jsonl"], warehouse, workers=0)
    return warehouse, [b["id"] for b in read_catalog(warehouse)["batches"]]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(mutation, min_size=1, max_size=3), st.booleans())
def test_ingest_never_loses_an_earlier_batch(steps: list[tuple[str, int, int]], zipped: bool) -> None:
    stored, before = stored_warehouse()
    case = Path(tempfile.mkdtemp(prefix="case-", dir=_folder))
    try:
        warehouse = case / "warehouse"
        shutil.copytree(stored, warehouse)
        data = mutate(steps)
        path = case / ("next.jsonl.gz" if zipped else "next.jsonl")
        path.write_bytes(gzip.compress(data) if zipped else data)
        summary = ingest([path], warehouse, workers=0)
        ids = [b["id"] for b in read_catalog(warehouse)["batches"]]
        assert ids[: len(before)] == before
        assert all((warehouse / "batches" / batch).is_dir() for batch in before)
        assert summary.exit_code in (0, 3)
    finally:
        shutil.rmtree(case, ignore_errors=True)
