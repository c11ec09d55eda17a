"""``chuanma review`` against ``chuanma validate`` of the same simulated log (the goal: the
review of a 5,000-deal log in at most 10x the validation's time). The corpus is
bench/validate_floor.py's (a simulated club, standard rules, seed 7); both run in this
process, ``validate_paths`` and ``review_paths``, interleaved rounds, CPU medians.

Run: ``CHUANMA_PURE=1 PYTHONPATH=. .venv/bin/python bench/review_speed.py [--deals 5000] [--rounds 3]``
(without CHUANMA_PURE the compiled build where there is one; the review itself is pure Python).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(ROOT), *(p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench")]

from bench.validate_floor import corpus  # noqa: E402
from engine.shanten_table import suit_table  # noqa: E402
from ingest.replay.validate import validate_paths  # noqa: E402
from ingest.review import review_paths  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    start = time.process_time()
    suit_table()
    print(
        f"shanten table built in {time.process_time() - start:.2f} s CPU (once a process, not counted below)"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = corpus(args.deals, 0.0, Path(folder))
        validate: list[float] = []
        review: list[float] = []
        for _ in range(args.rounds):
            start = time.process_time()
            report = validate_paths([path])
            validate.append(time.process_time() - start)
            start = time.process_time()
            reviewed = review_paths([path])
            review.append(time.process_time() - start)
        rows = sum(len(deal["rows"]) for deal in reviewed.deals)
        a, b = statistics.median(validate), statistics.median(review)
        print(f"{len(report.deals)} deals, {rows} decisions reviewed")
        print(f"validate: {a:8.2f} s CPU (median of {args.rounds})")
        print(f"review:   {b:8.2f} s CPU")
        print(f"ratio:    {b / a:8.1f}x (goal: at most 10x)")


if __name__ == "__main__":
    main()
