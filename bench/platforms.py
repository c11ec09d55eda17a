"""A platform's record against the same deals as a chuanma log, in one run.

For every platform record under the folders given (default: the records the tests keep,
``tests/golden/platforms``; point it at more, e.g. a folder of real exports), the record is
converted once to the log lines its importer feeds the reader, and written as a ``.jsonl``
beside nothing: bytes in memory. Then, round after round, interleaved so machine noise hits
both alike, each is validated the way ``chuanma validate`` does (read, replay, report):

- ``record``: the platform's bytes (detect, convert, read, replay);
- ``log``: the converted log's bytes (read, replay) -- the baseline.

The figures are medians over rounds of deals per second and the ratio record / log
(the importer's cost on top of reading the same deals as a log). Each round validates every
record ``--repeat`` times, so small folders still give steady figures.

    .venv/bin/python bench/platforms.py [FOLDER ...] [--rounds 7] [--repeat 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

# bench/ingest.py is named like the package: keep this folder off the import path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from ingest.logs.reader import read_jsonl_bytes  # noqa: E402
from ingest.platforms.detect import platform_of  # noqa: E402
from ingest.platforms.emit import line_text  # noqa: E402
from ingest.replay.files import read_log_bytes  # noqa: E402
from ingest.replay.validate import validate_log  # noqa: E402

DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "golden" / "platforms"


@dataclass
class Record:
    """One platform record and the same deals as a log."""

    name: str
    platform: str
    data: bytes
    log: bytes
    deals: int


def converted_log(data: bytes, name: str, platform: str) -> bytes:
    """The log lines the importer hands the reader, as a ``.jsonl`` file's bytes."""
    if platform == "open_mahjong":
        from ingest.platforms.open_mahjong import convert_open_mahjong as convert
    else:
        from ingest.platforms.dcmshi import convert_dcmshi as convert
    lines = [obj for _, obj in sorted(convert(data, name).lines, key=lambda pair: pair[0])]
    return "".join(line_text(obj) + "\n" for obj in lines).encode("utf-8")


def records(folders: list[Path]) -> list[Record]:
    found: list[Record] = []
    for folder in folders:
        for path in sorted(folder.rglob("*.json")):
            data = path.read_bytes()
            platform = platform_of(data)
            if platform is None:
                continue
            log = converted_log(data, path.name, platform)
            deals = len(validate_log(read_log_bytes(data, path.name)).deals)
            found.append(Record(path.name, platform, data, log, deals))
    return found


def timed(batch: list[Record], as_log: bool, repeat: int) -> float:
    began = time.perf_counter()
    for _ in range(repeat):
        for record in batch:
            if as_log:
                validate_log(read_jsonl_bytes(record.log, record.name + ".jsonl"))
            else:
                validate_log(read_log_bytes(record.data, record.name))
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, default=[DEFAULT])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    found = records(args.folders)
    out: dict[str, dict[str, float]] = {}
    for platform in sorted({r.platform for r in found}):
        batch = [r for r in found if r.platform == platform]
        deals = sum(r.deals for r in batch) * args.repeat
        record_s, log_s = [], []
        for _ in range(args.rounds):
            log_s.append(timed(batch, True, args.repeat))
            record_s.append(timed(batch, False, args.repeat))
        rec, log = statistics.median(record_s), statistics.median(log_s)
        out[platform] = {
            "files": len(batch),
            "deals": deals // args.repeat,
            "record_deals_per_s": round(deals / rec),
            "log_deals_per_s": round(deals / log),
            "ratio_record_to_log": round(rec / log, 2),
        }
    if args.json:
        print(json.dumps(out))
        return
    print(f"{'platform':<12} {'files':>5} {'deals':>6} {'record d/s':>11} {'log d/s':>9} {'record/log':>10}")
    for platform, row in out.items():
        print(
            f"{platform:<12} {row['files']:>5} {row['deals']:>6} {row['record_deals_per_s']:>11} "
            f"{row['log_deals_per_s']:>9} {row['ratio_record_to_log']:>9}x"
        )


if __name__ == "__main__":
    main()
