"""What an ingest worker spends on its chunks, part by part, in this process (issue 14).

The chunks are the ones ``chuanma ingest`` cuts (``plan_chunks``) from the first
``--files`` logs of the ingest benchmark's corpus (``bench/ingest.py --corpus-only``
makes it). Each chunk goes through a worker's steps: read (``_read_chunk``), replay and
rows (``FactBuilder.add_log``), the Arrow tables (``FactBuilder.build``), packing for the
trip back as a local pool's worker does (``Facts.packed(compression=None)``). CPU
seconds per part, summed over the chunks, median of ``--rounds`` (after one warm-up
round), beside the decoding floor of the same files (gunzip, then
``msgspec.json.Decoder().decode`` of each line).

    .venv/bin/python bench/worker_parts.py [--files 2] [--rounds 3] [--corpus DIR] [--json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

# bench/ingest.py is named like the package: keep this folder off the import path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import msgspec  # noqa: E402

from ingest.gcpause import gc_paused  # noqa: E402
from ingest.warehouse.chunks import Chunk, _read_chunk, plan_chunks  # noqa: E402
from ingest.warehouse.deal_rows import FactBuilder  # noqa: E402

PARTS = ("read", "replay_rows", "tables", "pack")


def one_round(chunks: list[Chunk]) -> dict[str, float]:
    spent = dict.fromkeys(PARTS, 0.0)
    clock = time.process_time
    for chunk in chunks:
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
        facts.packed(compression=None)
        packed = clock()
        for part, seconds in zip(
            PARTS, (read - started, rows - read, tables - rows, packed - tables), strict=True
        ):
            spent[part] += seconds
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
    parser.add_argument("--corpus", type=Path, default=Path(tempfile.gettempdir()) / "chuanma-bench-corpus")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    files = sorted(args.corpus.glob("*.jsonl.gz"))[: args.files]
    if len(files) < args.files:
        raise SystemExit(f"{args.corpus}: not {args.files} logs; run bench/ingest.py --corpus-only first")
    chunks: list[Chunk] = []
    for path in files:
        chunks += plan_chunks(path.name, "bench", path.read_bytes(), len(chunks))
    one_round(chunks)  # warm-up: imports, lazily built tables
    rounds = [one_round(chunks) for _ in range(args.rounds)]
    floors = [floor(files) for _ in range(args.rounds)]
    medians = {part: statistics.median(r[part] for r in rounds) for part in PARTS}
    base = statistics.median(floors)
    print(f"{len(files)} files, {len(chunks)} chunks, median of {args.rounds} rounds (CPU s)")
    print(f"{'floor':<12} {base:8.3f}")
    for part in PARTS:
        print(f"{part:<12} {medians[part]:8.3f}  {medians[part] / base:5.2f}x")
    total = sum(medians.values())
    print(f"{'all':<12} {total:8.3f}  {total / base:5.2f}x")
    if args.json:
        print(json.dumps({"files": len(files), "chunks": len(chunks), "floor_s": round(base, 4),
                          **{f"{p}_s": round(v, 4) for p, v in medians.items()}}))  # fmt: skip


if __name__ == "__main__":
    main()
