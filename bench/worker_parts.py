"""What ingest spends on its chunks, part by part, in this process.

The chunks are the ones ``chuanma ingest`` cuts (``plan_chunks``) from the first
``--files`` logs of the ingest benchmark's corpus (``bench/ingest.py --corpus-only``
makes it). Each chunk goes through a worker's steps: read (``_read_chunk``), replay and
rows (``FactBuilder.add_log``), the Arrow tables (``FactBuilder.build``), packing for the
trip back as a local pool's worker does (``Facts.packed(compression=None)``).
``--parent`` adds what the ingesting process spends around them: reading each file and
its sha256 (``read_source``), inflating and cutting it (``plan_chunks``), the pipe's
pickling both ways (``pickle`` of the chunk and of the packed result, dumped and loaded),
unpacking the tables, dropping stored deals (``_keep_new``) and writing the Parquet files
of one batch (``BatchWriter``, committed into a temporary warehouse). CPU seconds per
part, summed over the chunks, median of ``--rounds`` (after one warm-up round), beside
the decoding floor of the same files (gunzip, then ``msgspec.json.Decoder().decode`` of
each line). With ``--parent`` the sum is the whole pipeline's CPU on one core: two
workers can ingest at the floor's speed only if it is at most 2x the floor.

    .venv/bin/python bench/worker_parts.py [--files 2] [--rounds 3] [--parent] [--corpus DIR] [--json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import pickle
import statistics
import sys
import tempfile
import time
from pathlib import Path

# bench/ingest.py is named like the package: keep this folder off the import path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import msgspec  # noqa: E402

from ingest.logs.gcpause import gc_paused  # noqa: E402
from ingest.logs.source import read_source  # noqa: E402
from ingest.warehouse.batches import BatchWriter  # noqa: E402
from ingest.warehouse.catalog import require_catalog  # noqa: E402
from ingest.warehouse.chunks import Chunk, _read_chunk, plan_chunks  # noqa: E402
from ingest.warehouse.deal_rows import FactBuilder  # noqa: E402
from ingest.warehouse.known import KnownIds  # noqa: E402
from ingest.warehouse.rows import Facts  # noqa: E402
from ingest.warehouse.run import FileEntry, IngestSummary, _keep_new, _Planned  # noqa: E402

PARTS = ("read", "replay_rows", "tables", "pack")
PARENT_PARTS = ("source", "plan", "trip", "unpack", "keep_new", "write")


def one_round(chunks: list[Chunk]) -> dict[str, float]:
    """A worker's parts for every chunk."""
    spent = dict.fromkeys(PARTS, 0.0)
    for chunk in chunks:
        worker_steps(chunk, spent)
    return spent


def worker_steps(chunk: Chunk, spent: dict[str, float]) -> Facts:
    """One chunk through a worker's steps, their CPU added to ``spent``; the packed facts."""
    clock = time.process_time
    with gc_paused():  # as validate_chunk does
        started = clock()
        log = _read_chunk(chunk)
        read = clock()
        builder = FactBuilder(log.path, chunk.sha256)
        builder.add_log(log)
        rows = clock()
        facts = builder.build()
        tables = clock()
        del log, builder  # freed before the collector is back, as in validate_chunk
    packed = facts.packed(compression=None)
    done = clock()
    for part, seconds in zip(PARTS, (read - started, rows - read, tables - rows, done - tables), strict=True):
        spent[part] += seconds
    return packed


def whole_round(files: list[Path], root: Path) -> dict[str, float]:
    """The parent's parts around the workers' for every file, one batch written."""
    spent = dict.fromkeys(PARTS + PARENT_PARTS, 0.0)
    clock = time.process_time
    summary = IngestSummary(warehouse=str(root))
    known_deals, known_sessions = KnownIds(), KnownIds()
    root.mkdir(parents=True)
    catalog = require_catalog(root)
    writer = BatchWriter(root)
    entries = []
    index = 0
    for path in files:
        started = clock()
        data, sha, length = read_source(path)
        read = clock()
        chunks = plan_chunks(path.name, sha, data, index)
        spent["source"] += read - started
        spent["plan"] += clock() - read
        index += len(chunks)
        entry = FileEntry(path.name, sha, length, "new")
        entries.append(entry)
        for chunk in chunks:
            started = clock()
            sent = pickle.loads(pickle.dumps(chunk))
            spent["trip"] += clock() - started
            packed = worker_steps(sent, spent)
            started = clock()  # the result's trip back: pickled by the worker, unpickled here
            _, packed = pickle.loads(pickle.dumps((chunk.index, packed)))
            unpickled = clock()
            facts = packed.unpacked()
            unpacked = clock()
            tables = _keep_new(_Planned(chunk, entry, 0), facts, summary, known_deals, known_sessions)
            kept = clock()
            for name, table in tables.items():
                writer.add(name, table)
            spent["trip"] += unpickled - started
            spent["unpack"] += unpacked - unpickled
            spent["keep_new"] += kept - unpacked
            spent["write"] += clock() - kept
    started = clock()
    writer.commit(catalog, [vars(entry) for entry in entries])
    writer.close()
    spent["write"] += clock() - started
    return spent


def floor(files: list[Path]) -> float:
    decode = msgspec.json.Decoder().decode
    started = time.process_time()
    for path in files:
        for line in gzip.decompress(path.read_bytes()).splitlines():
            if line.strip():
                decode(line)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--parent", action="store_true", help="add the ingesting process's parts")
    parser.add_argument("--corpus", type=Path, default=Path(tempfile.gettempdir()) / "chuanma-bench-corpus")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    files = sorted(args.corpus.glob("*.jsonl.gz"))[: args.files]
    if len(files) < args.files:
        raise SystemExit(f"{args.corpus}: not {args.files} logs; run bench/ingest.py --corpus-only first")
    chunks: list[Chunk] = []
    for path in files:
        chunks += plan_chunks(path.name, "bench", path.read_bytes(), len(chunks))
    parts = PARTS + PARENT_PARTS if args.parent else PARTS
    with tempfile.TemporaryDirectory() as tmp:

        def measure(number: int) -> dict[str, float]:
            return whole_round(files, Path(tmp) / f"wh{number}") if args.parent else one_round(chunks)

        measure(0)  # warm-up: imports, lazily built tables
        rounds = [measure(number) for number in range(1, args.rounds + 1)]
    floors = [floor(files) for _ in range(args.rounds)]
    medians = {part: statistics.median(r[part] for r in rounds) for part in parts}
    base = statistics.median(floors)
    print(f"{len(files)} files, {len(chunks)} chunks, median of {args.rounds} rounds (CPU s)")
    print(f"{'floor':<12} {base:8.3f}")
    for part in parts:
        print(f"{part:<12} {medians[part]:8.3f}  {medians[part] / base:5.2f}x")
    total = sum(medians.values())
    print(f"{'all':<12} {total:8.3f}  {total / base:5.2f}x")
    if args.parent:
        print(
            "(two workers ingest at the floor's speed only if 'all' is at most 2x, with no loss to sharing)"
        )
    if args.json:
        print(json.dumps({"files": len(files), "chunks": len(chunks), "floor_s": round(base, 4),
                          **{f"{p}_s": round(v, 4) for p, v in medians.items()}}))  # fmt: skip


if __name__ == "__main__":
    main()
