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
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Final, Protocol

import pyarrow as pa  # type: ignore[import-untyped]

from engine.events import SessionStart
from ingest.logs.builder import LogFile
from ingest.logs.gcpause import gc_paused
from ingest.logs.line_parser import LineParser
from ingest.logs.reader import read_text_bytes
from ingest.logs.source import GZIP_MAGIC, Inflate, Limits
from ingest.platforms.detect import platform_of
from ingest.replay.files import read_log_bytes
from ingest.warehouse.deal_rows import facts_of_log
from ingest.warehouse.rows import Facts, month_of, parse_time

TARGET_LINES: Final = 60_000  # about 500 deals: small enough to balance, big enough to amortise


#: a chunk sent to a remote scheduler travels compressed (JSON text shrinks about tenfold, and
#: zstd at level 1 is quick); to a local process it goes as it is: a pipe moves it for less CPU
_CODEC: Final = pa.Codec("zstd", compression_level=1)
#: a file's chunks wait until the whole file is read (its gzip may turn out cut off or its
#: bytes not UTF-8: then it goes whole to the reader); past this many bytes of text they
#: wait compressed, so a huge file costs a tenth of its text in memory
_HOLD_RAW: Final = 64 << 20
_SESSION: Final = b'"session"'


@dataclass(frozen=True)
class Chunk:
    """A piece of one file: UTF-8 text cut at a session line (``payload``), or a damaged
    file's bytes whole (``data``)."""

    index: int  # order over the whole run
    file: str
    sha256: str
    payload: bytes | None  # the piece's text (zstd-compressed when ``compressed``)
    data: bytes | None
    line_offset: int  # lines of the file before this piece
    size: int = 0  # of the piece's text, uncompressed
    limits: Limits = field(default_factory=Limits)  # the reader's, as the planning process had them
    compressed: bool = False

    @property
    def raw(self) -> bytes | None:
        """The piece's text as UTF-8 bytes (what the reader's fast path reads)."""
        if self.payload is None:
            return None
        if not self.compressed:
            return self.payload
        raw: bytes = _CODEC.decompress(self.payload, decompressed_size=self.size, asbytes=True)
        return raw

    @property
    def text(self) -> str | None:
        raw = self.raw
        return None if raw is None else raw.decode("utf-8")

    def packed(self) -> Chunk:
        """This chunk with its text compressed, for a trip over a network."""
        if self.payload is None or self.compressed:
            return self
        return replace(self, payload=_CODEC.compress(self.payload, asbytes=True), compressed=True)


def _session_month(parser: LineParser, line: bytes) -> str | None:
    """The warehouse month of a line the reader takes as a ``session`` line (it opens a
    session there even when the line is unreadable); None for any other line. The
    reader's own parser decides, so ingest cuts exactly where ``validate`` starts afresh."""
    parsed = parser.parse(0, line.decode("utf-8"))
    if parsed.kind != "session":
        return None
    event = parsed.event
    return month_of(parse_time(event.started_at if isinstance(event, SessionStart) else None))


class _Cutter:
    """A file's text, fed piece by piece as it inflates, cut into chunks.

    A chunk starts at a ``session`` line (found by its ``"session"`` value, then parsed)
    once the chunk before it holds ``target_lines`` lines, or when the session's month
    differs from the chunk's: a chunk then holds one month, which the warehouse writes
    without filtering its rows. One ``find`` pass and one newline count over the text,
    one parse per session line: linear, and no more than one piece of text is held
    besides the chunks themselves."""

    def __init__(self, name: str, sha256: str, first_index: int, target_lines: int, limits: Limits) -> None:
        self.name, self.sha256, self.limits = name, sha256, limits
        self.index = first_index
        self.target_lines = max(1, target_lines)
        self.chunks: list[Chunk] = []
        self.held = 0  # bytes of raw text held in self.chunks
        self.parser = LineParser("")
        self.tail: list[bytes] = []  # an incomplete last line, waiting for the next piece
        self.parts: list[memoryview] = []  # the chunk being built, in pieces
        self.lines = 0  # newlines in self.parts
        self.line_offset = 0  # of the chunk being built
        self.month: str | None = None  # of the chunk being built, once it has a session
        self.started = False  # past the file's first line (where a BOM is skipped)

    def feed(self, piece: bytes) -> bool:
        """Take the next piece of text; False when it is not UTF-8."""
        end = piece.rfind(b"\n") + 1
        if not end:  # inside a long line: joined once its end comes
            self.tail.append(piece)
            return True
        buf = b"".join([*self.tail, piece]) if self.tail else piece
        end += len(buf) - len(piece)
        self.tail = [buf[end:]] if end < len(buf) else []
        return self._scan(buf, end)

    def finish(self) -> list[Chunk] | None:
        """The file's chunks (None when its text is not UTF-8)."""
        tail = b"".join(self.tail)
        if tail and not self._scan(tail, len(tail)):
            return None
        if self.parts or not self.chunks:
            self._emit()
        return self.chunks

    def _scan(self, buf: bytes, end: int) -> bool:
        """Cut ``buf[:end]`` (whole lines, but for the file's last one)."""
        if not buf.isascii():
            try:
                buf[:end].decode("utf-8")
            except UnicodeDecodeError:
                return False
        view = memoryview(buf)
        pos = counted = 0  # where the chunk being built begins in buf; newlines counted up to
        lines = self.lines
        found = buf.find(_SESSION, 0, end)
        while found >= 0:
            start = buf.rfind(b"\n", 0, found) + 1
            stop = buf.find(b"\n", found, end)
            stop = end if stop < 0 else stop
            line = buf[start:stop].rstrip(b"\r")
            if start == 0 and not self.started:
                line = line.removeprefix(b"\xef\xbb\xbf")  # as the reader does on line 1 only
            month = _session_month(self.parser, line)
            if month is not None:
                lines += buf.count(b"\n", counted, start)
                counted = start
                if lines and (lines >= self.target_lines or (self.month is not None and month != self.month)):
                    self.parts.append(view[pos:start])
                    self.lines = lines
                    self._emit()
                    pos, lines = start, 0
                self.month = month
            found = buf.find(_SESSION, stop, end)
        self.parts.append(view[pos:end])
        self.lines = lines + buf.count(b"\n", counted, end)
        self.started = True
        return True

    def _emit(self) -> None:
        text = b"".join(self.parts)
        self.parts = []
        chunk = Chunk(
            self.index, self.name, self.sha256, text, None, self.line_offset, len(text), self.limits
        )
        self.chunks.append(chunk)
        self.index += 1
        self.line_offset += self.lines
        self.lines = 0
        self.held += len(text)
        if self.held > _HOLD_RAW:
            self.chunks = [c.packed() for c in self.chunks]
            self.held = 0


def plan_chunks(
    name: str, sha256: str, data: bytes, first_index: int, target_lines: int = TARGET_LINES
) -> list[Chunk]:
    """Cut one file's bytes into chunks numbered from ``first_index``, inflating a gzip
    file piece by piece (once: no text of the whole file is ever held). A damaged file
    (cut-off or corrupt gzip, a gzip bomb past the limits, bytes that are not UTF-8) goes
    whole to the reader, which reads it piece by piece up to the limit, as ``validate`` does."""
    limits = Limits.from_env()
    damaged = [Chunk(first_index, name, sha256, None, data, 0, limits=limits)]
    if name.lower().endswith((".csv", ".xlsx")):  # a score sheet: converted whole by the reader
        return damaged
    if platform_of(data) is not None:  # a platform's record: one JSON document, converted whole
        return damaged
    gzipped = data.startswith(GZIP_MAGIC)
    if not gzipped and (name.endswith(".gz") or len(data) > limits.max_inflated):
        return damaged  # the reader warns about the name, or reads up to the limit
    cutter = _Cutter(name, sha256, first_index, target_lines, limits)
    inflate = Inflate(data, limits.max_inflated, limits.max_ratio) if gzipped else None
    for piece in inflate if inflate is not None else (data,):
        if not cutter.feed(piece):
            return damaged
    chunks = cutter.finish()
    if chunks is None or (inflate is not None and inflate.problem is not None):
        return damaged
    return chunks


def validate_chunk(chunk: Chunk) -> tuple[int, Facts]:
    """Read, replay and extract one chunk (runs on a worker; pure)."""
    with gc_paused():  # the whole chunk
        log = _read_chunk(chunk)
        try:
            facts = facts_of_log(log, chunk.sha256)
        except (pa.ArrowException, OverflowError, ValueError) as error:
            facts = facts_of_log(_set_aside(log, error), chunk.sha256)
        # freed before the collector is back: a ``return`` in the block left the log alive
        # for the first collection after it, which walked every one of its containers
        # (a share of a worker's CPU for every chunk)
        del log
    return chunk.index, facts


def _set_aside(log: LogFile, error: Exception) -> LogFile:
    """The last resort when a piece's rows cannot be stored (a number computed from
    in-range claims still overflows a column, say): every line of it goes to quarantine
    with one ``bad_record`` finding that says why, rather than stopping the ingest."""
    from engine.messages import say
    from ingest.logs.builder import file_finding

    first = min((n for n, *_ in _all_lines(log)), default=0)
    finding = file_finding(say("store_set_aside", file=log.path, first=first, error=str(error)), log.path)
    stray = sorted(((n, text, finding) for n, text in _all_lines(log)), key=lambda item: item[0])
    return LogFile(log.path, [], stray, [*log.findings, finding])


def _all_lines(log: LogFile) -> list[tuple[int, str]]:
    lines = [(n, text) for n, text, _ in log.stray]
    for session in log.sessions:
        lines += session.raw_lines
        for deal in session.deals:
            lines += deal.raw_lines
    return lines


def validate_chunk_packed(chunk: Chunk, compression: str | None = "lz4") -> tuple[int, Facts]:
    """:func:`validate_chunk` with the tables packed for the trip back from a worker: LZ4
    across a network, uncompressed (None) through a local pipe (see :meth:`Facts.packed`)."""
    index, facts = validate_chunk(chunk)
    return index, facts.packed(compression)


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
        return [self.client.submit(validate_chunk_packed, chunk.packed(), pure=False) for chunk in chunks]

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
    two workers, and starting it took seconds. A pool has none of that;
    chunks and results travel pickled, both uncompressed (a local pipe)."""

    def __init__(self, pool: concurrent.futures.Executor, workers: int) -> None:
        self.pool = pool
        self.workers = workers

    def submit(self, chunks: Sequence[Chunk]) -> list[Any]:
        try:
            return [self.pool.submit(validate_chunk_packed, chunk, None) for chunk in chunks]
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


#: what the spawned workers need in their environment (they copy ``os.environ`` when they
#: start):
#: - one OpenBLAS thread, since numpy's starts one a core at import and they spin a while
#:   (CPU spent in every process) for matrix routines ingest never calls;
#: - glibc's malloc keeping what it frees: by default a block of a few MB (a chunk's text,
#:   its columns, the tables packed for the pipe) is mapped for itself and unmapped when
#:   freed, and the heap's top is given back, so the next chunk faults the same memory in
#:   again, page by zeroed page (these settings spare an ingest most of those page
#:   faults). A worker's memory then stays at its peak until it ends.
_WORKER_ENV: Final = {
    "OPENBLAS_NUM_THREADS": "1",
    "MALLOC_MMAP_THRESHOLD_": str(256 << 20),
    "MALLOC_TRIM_THRESHOLD_": str(1 << 30),
}


@contextmanager
def _worker_env() -> Iterator[None]:
    """:data:`_WORKER_ENV` while the pool's workers start; a value already set is kept."""
    added = {name: value for name, value in _WORKER_ENV.items() if name not in os.environ}
    os.environ.update(added)
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)


class _NoPandas:
    """An import finder that finds no pandas (see :func:`_start_worker`)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "pandas":
            raise ModuleNotFoundError("a worker converts no pandas objects", name=name)


def _start_worker() -> None:
    """A pool worker's first step. pyarrow looks for pandas at its first ``pa.array`` of
    a Python list (to tell pandas objects apart) and imports it: CPU and memory spent in
    every worker, for nothing a worker converts. Shown no pandas that once, pyarrow
    never looks again; ``import pandas`` itself still works."""
    if "pandas" in sys.modules:
        return
    finder = _NoPandas()
    sys.meta_path.insert(0, finder)
    try:
        pa.array([0])
    finally:
        sys.meta_path.remove(finder)


@contextmanager
def runner(
    workers: int | None = None, scheduler: str | None = None, *, dask_local: bool = False
) -> Iterator[Runner]:
    """The runner for ``--workers N`` / ``--scheduler ADDR``; the processes it starts are
    ended on the way out, so no worker process outlives the ingest. ``dask_local`` runs
    the local workers on a Dask ``LocalCluster`` instead of a process pool (slower; kept
    so ``bench/ingest.py`` can compare the two)."""
    if scheduler is None and workers == 0:
        yield InProcess()
        return
    if scheduler is None and not dask_local:
        count = workers if workers is not None else default_workers()
        context = multiprocessing.get_context("spawn")  # no fork of a process with threads
        with (
            _worker_env(),
            concurrent.futures.ProcessPoolExecutor(
                count, mp_context=context, initializer=_start_worker
            ) as pool,
        ):
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
