"""Validation spread over processes: files cut into chunks at session lines, each chunk
read, replayed and turned into Arrow facts by :func:`validate_chunk`.

The cut depends only on the data and ``target_lines``, never on the number of workers,
so ``--workers 0`` (in process), ``--workers N`` (a pool of N local processes) and a
remote Dask scheduler give the same chunks and therefore the same tables. A chunk is cut only before a line that
parses as a ``session`` event, where the reader starts afresh anyway (and at every change
of month, so a chunk's rows go to one month's files whole); a chunk keeps its
line numbers: the reader numbers its lines from the piece's first line. Damaged files (cut-off or corrupt gzip, bytes that are not
UTF-8) are never cut: the reader sees them whole, as ``chuanma validate`` would.

A remote scheduler's workers must have this package installed (``pip install chuanma``):
chunks travel as data, so the workers need no access to the files.
"""

from __future__ import annotations

import concurrent.futures
import logging
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

import pyarrow as pa  # type: ignore[import-untyped]

from engine.events import SessionStart
from ingest.gcpause import gc_paused
from ingest.line_parser import LineParser
from ingest.reader import LogFile, read_log_bytes, read_text_bytes
from ingest.source import GZIP_MAGIC, Limits, gunzip, inflated_size
from ingest.warehouse.deal_rows import facts_of_log
from ingest.warehouse.rows import Facts, month_of, parse_time

TARGET_LINES: Final = 60_000  # about 500 deals: small enough to balance, big enough to amortise


#: chunks travel compressed (JSON text shrinks about tenfold at ~850 MB/s): shipping text to
#: the workers and Arrow tables back was a fifth of an ingest's CPU time
_CODEC: Final = pa.Codec("zstd", compression_level=1)


@dataclass(frozen=True)
class Chunk:
    """A piece of one file: UTF-8 text cut at a session line (``payload``, compressed), or
    a damaged file's bytes whole (``data``)."""

    index: int  # order over the whole run
    file: str
    sha256: str
    payload: bytes | None  # the piece's text, zstd-compressed
    data: bytes | None
    line_offset: int  # lines of the file before this piece
    size: int = 0  # of the piece's text, uncompressed
    limits: Limits = field(default_factory=Limits)  # the reader's, as the planning process had them

    @property
    def raw(self) -> bytes | None:
        """The piece's text as UTF-8 bytes (what the reader's fast path reads)."""
        if self.payload is None:
            return None
        raw: bytes = _CODEC.decompress(self.payload, decompressed_size=self.size, asbytes=True)
        return raw

    @property
    def text(self) -> str | None:
        raw = self.raw
        return None if raw is None else raw.decode("utf-8")


def _session_month(parser: LineParser, line: bytes) -> str | None:
    """The warehouse month of a line the reader takes as a ``session`` line (it opens a
    session there even when the line is unreadable); None for any other line. The
    reader's own parser decides, so ingest cuts exactly where ``validate`` starts afresh."""
    parsed = parser.parse(0, line.decode("utf-8"))
    if parsed.kind != "session":
        return None
    event = parsed.event
    return month_of(parse_time(event.started_at if isinstance(event, SessionStart) else None))


def _cut_points(text: bytes, target_lines: int) -> list[tuple[int, int]]:
    """(byte offset, line offset) of each piece's start after the first.

    A piece starts at a ``session`` line (found by its ``"session"`` value) once the
    piece before it holds ``target_lines`` lines' worth of bytes, or when the session's
    month differs from the piece's: a piece then holds one month, which the warehouse
    writes without filtering its rows. One pass of ``find`` over the text, one JSON parse
    per session line and one newline count per piece: linear in the text.
    """
    points: list[tuple[int, int]] = []
    size = len(text)
    step = max(1, int(target_lines * size / (text.count(b"\n") + 1)))
    last_pos = last_line = 0
    month: str | None = None  # of the piece being built, once it has a session
    parser = LineParser("")
    found = text.find(b'"session"')
    while found >= 0:
        line_start = text.rfind(b"\n", 0, found) + 1
        end = text.find(b"\n", found)
        end = size if end < 0 else end
        line = text[line_start:end].rstrip(b"\r")
        if line_start == 0:
            line = line.removeprefix(b"\xef\xbb\xbf")  # as the reader does on line 1 only
        session_month = _session_month(parser, line)
        if session_month is not None:
            full = line_start - last_pos >= step
            if line_start > last_pos and (full or (month is not None and session_month != month)):
                lines = last_line + text.count(b"\n", last_pos, line_start)
                points.append((line_start, lines))
                last_pos, last_line = line_start, lines
            month = session_month
        found = text.find(b'"session"', end)
    return points


def plan_chunks(
    name: str, sha256: str, data: bytes, first_index: int, target_lines: int = TARGET_LINES
) -> list[Chunk]:
    """Cut one file's bytes into chunks numbered from ``first_index``. A file past the
    limits (a gzip bomb: its size is counted first, keeping nothing) goes whole to the
    reader, which reads it piece by piece up to the limit, as ``validate`` does."""
    limits = Limits.from_env()
    damaged = [Chunk(first_index, name, sha256, None, data, 0, limits=limits)]
    if name.lower().endswith((".csv", ".xlsx")):  # a score sheet: converted whole by the reader
        return damaged
    raw = data
    if data.startswith(GZIP_MAGIC):
        if inflated_size(data, limits.max_inflated) > limits.max_inflated:
            return damaged
        raw, problem = gunzip(data, limits.max_inflated)
        if problem is not None:
            return damaged
    elif len(data) > limits.max_inflated:
        return damaged
    if not raw.isascii():
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            return damaged
    if not data.startswith(GZIP_MAGIC) and name.endswith(".gz"):
        return damaged  # the reader warns about the name
    starts = [(0, 0), *_cut_points(raw, target_lines)]
    chunks = []
    view = memoryview(raw)
    for number, (pos, line) in enumerate(starts):
        end = starts[number + 1][0] if number + 1 < len(starts) else len(raw)
        payload = _CODEC.compress(view[pos:end], asbytes=True)
        chunks.append(Chunk(first_index + number, name, sha256, payload, None, line, end - pos, limits))
    return chunks


def validate_chunk(chunk: Chunk) -> tuple[int, Facts]:
    """Read, replay and extract one chunk (runs on a worker; pure)."""
    with gc_paused():  # the whole chunk: its log is freed before the collector is back
        log = _read_chunk(chunk)
        try:
            return chunk.index, facts_of_log(log, chunk.sha256)
        except (pa.ArrowException, OverflowError, ValueError) as error:
            return chunk.index, facts_of_log(_set_aside(log, error), chunk.sha256)


def _set_aside(log: LogFile, error: Exception) -> LogFile:
    """The last resort when a piece's rows cannot be stored (a number computed from
    in-range claims still overflows a column, say): every line of it goes to quarantine
    with one ``bad_record`` finding that says why, rather than stopping the ingest."""
    from engine.events import Finding

    message = (
        f"{log.path}: this part of the file (lines {min((n for n, *_ in _all_lines(log)), default=0)}+) "
        f"could not be stored ({error}); its lines are kept in quarantine"
    )
    finding = Finding("bad_record", None, None, message, file=log.path)
    stray = sorted(((n, text, finding) for n, text in _all_lines(log)), key=lambda item: item[0])
    return LogFile(log.path, [], stray, [*log.findings, finding])


def _all_lines(log: LogFile) -> list[tuple[int, str]]:
    lines = [(n, text) for n, text, _ in log.stray]
    for session in log.sessions:
        lines += session.raw_lines
        for deal in session.deals:
            lines += deal.raw_lines
    return lines


def validate_chunk_packed(chunk: Chunk) -> tuple[int, Facts]:
    """:func:`validate_chunk` with the tables packed for the trip back from a worker."""
    index, facts = validate_chunk(chunk)
    return index, facts.packed()


def _read_chunk(chunk: Chunk) -> LogFile:
    if chunk.data is not None:
        return read_log_bytes(chunk.data, chunk.file, chunk.limits)
    raw = chunk.raw
    assert raw is not None
    return read_text_bytes(raw, chunk.file, first=chunk.line_offset + 1, limits=chunk.limits)


class Runner(Protocol):
    """Runs chunks somewhere: ``submit`` as soon as a file is planned (a cluster starts on
    them while the next file is read) and get one ticket per chunk; ``collect`` the facts
    of some tickets, in ticket order, while later ones keep the workers busy."""

    workers: int

    def submit(self, chunks: Sequence[Chunk]) -> list[Any]: ...

    def collect(self, tickets: Sequence[Any], done: Callable[[int], None]) -> list[Facts]: ...


class InProcess:
    """``--workers 0``: this process, one chunk after another, when collected."""

    workers = 0

    def submit(self, chunks: Sequence[Chunk]) -> list[Any]:
        return list(chunks)

    def collect(self, tickets: Sequence[Any], done: Callable[[int], None]) -> list[Facts]:
        out = []
        for chunk in tickets:
            out.append(validate_chunk(chunk)[1])
            done(1)
        return out


class DaskRunner:
    """A Dask client: one task per chunk (a future is its ticket)."""

    def __init__(self, client: Any, workers: int) -> None:
        self.client = client
        self.workers = workers

    def submit(self, chunks: Sequence[Chunk]) -> list[Any]:
        # chunks go with their tasks (not scattered first: a scattered chunk pins its task
        # to the worker that got the data, and they all went to one worker)
        return [self.client.submit(validate_chunk_packed, chunk, pure=False) for chunk in chunks]

    def collect(self, tickets: Sequence[Any], done: Callable[[int], None]) -> list[Facts]:
        import distributed

        as_completed: Any = distributed.as_completed
        if not tickets:
            return []
        results: dict[int, Facts] = {}
        for future in as_completed(tickets, loop=self.client.loop):
            index, facts = future.result()
            results[index] = facts.unpacked()
            done(1)
            future.release()
        return [results[index] for index in sorted(results)]


class WorkerLost(RuntimeError):
    """A worker process ended abruptly (killed, out of memory): a pool, unlike a Dask
    cluster, does not run its chunks again elsewhere."""


class PoolRunner:
    """``--workers N`` on this machine: N spawned processes of a standard process pool.

    Not a Dask ``LocalCluster``: on a 2-core machine its scheduler, nannies, heartbeats
    and system monitor ran in and beside the ingesting process and took CPU time from the
    two workers, and starting it cost seconds (bench/README.md). A pool has none of that;
    chunks and results travel the same way (pickled, results packed)."""

    def __init__(self, pool: concurrent.futures.Executor, workers: int) -> None:
        self.pool = pool
        self.workers = workers

    def submit(self, chunks: Sequence[Chunk]) -> list[Any]:
        try:
            return [self.pool.submit(validate_chunk_packed, chunk) for chunk in chunks]
        except concurrent.futures.BrokenExecutor as error:
            raise WorkerLost(_LOST) from error

    def collect(self, tickets: Sequence[Any], done: Callable[[int], None]) -> list[Facts]:
        results: dict[int, Facts] = {}
        try:
            for future in concurrent.futures.as_completed(tickets):
                index, facts = future.result()
                results[index] = facts.unpacked()
                done(1)
        except concurrent.futures.BrokenExecutor as error:
            raise WorkerLost(_LOST) from error
        return [results[index] for index in sorted(results)]


_LOST: Final = (
    "a worker process ended abruptly (killed, or out of memory?); the batch being validated "
    "was not recorded, earlier batches are; run the ingest again (files already stored are skipped), "
    "with fewer --workers or --workers 0 if it happens again"
)


def default_workers() -> int:
    return os.cpu_count() or 1


SCHEDULER_TIMEOUT: Final = 5.0  # seconds to reach a scheduler before giving up


class SchedulerError(RuntimeError):
    """The ``--scheduler`` address is malformed or nothing answers there."""


def _connect(client_class: Any, scheduler: str) -> Any:
    """A client of the scheduler, within a few seconds, or a :class:`SchedulerError`."""
    from distributed.comm.addressing import get_address_host_port, parse_address

    try:
        scheme, _ = parse_address(scheduler)
        if scheme in ("tcp", "tls"):
            get_address_host_port(scheduler)
    except (ValueError, TypeError) as error:
        raise SchedulerError(
            f"--scheduler {scheduler!r} is not a scheduler address ({error}); give e.g. tcp://HOST:8786"
        ) from None
    try:
        return client_class(scheduler, set_as_default=False, timeout=SCHEDULER_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as error:
        raise SchedulerError(
            f"cannot reach the Dask scheduler at {scheduler} within {SCHEDULER_TIMEOUT:g} s ({error}); "
            "is it running? (dask scheduler), or run without --scheduler"
        ) from None


@contextmanager
def runner(
    workers: int | None = None, scheduler: str | None = None, *, dask_local: bool = False
) -> Iterator[Runner]:
    """The runner for ``--workers N`` / ``--scheduler ADDR``; the processes it starts are
    ended on the way out, so no worker process outlives the ingest. ``dask_local`` runs
    the local workers on a Dask ``LocalCluster`` instead of a process pool (what ingest
    did before; kept for ``bench/ingest.py`` to compare)."""
    if scheduler is None and workers == 0:
        yield InProcess()
        return
    if scheduler is None and not dask_local:
        count = workers if workers is not None else default_workers()
        context = multiprocessing.get_context("spawn")  # no fork of a process with threads
        with concurrent.futures.ProcessPoolExecutor(count, mp_context=context) as pool:
            yield PoolRunner(pool, count)
        return
    import distributed

    client_class: Any = distributed.Client
    cluster_class: Any = distributed.LocalCluster
    if scheduler is not None:
        client = _connect(client_class, scheduler)
        try:
            count = len(client.scheduler_info().get("workers", {}))
            yield DaskRunner(client, count)
        finally:
            client.close()
        return
    count = workers if workers is not None else default_workers()
    cluster = cluster_class(
        n_workers=count,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    try:
        client = client_class(cluster, set_as_default=False)
        try:
            yield DaskRunner(client, count)
        finally:
            client.close()
    finally:
        cluster.close()
