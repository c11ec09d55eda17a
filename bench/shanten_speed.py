"""Shanten speed: the engine's (engine/shanten.py, one table look-up a suit) against the
``mahjong`` library's ``Shanten.calculate_shanten`` on the same random 13- and 14-tile
hands of two suits (where both count alike), and the effective tiles of a hand. Prints the
medians of ``--rounds`` rounds, per hand, and the ratio.

Run: ``CHUANMA_PURE=1 PYTHONPATH=. .venv/bin/python bench/shanten_speed.py [--hands 5000] [--rounds 5]``
(without CHUANMA_PURE the compiled build where there is one).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from mahjong.shanten import Shanten  # noqa: E402

from engine.shanten import Hand13, shanten, situation, unseen_alone  # noqa: E402
from engine.shanten_table import suit_table  # noqa: E402
from engine.tiles import to_counts  # noqa: E402


def hands(count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    out = []
    for index in range(count):
        suits = rng.sample(range(3), 2)
        pool = [suit * 9 + rank for suit in suits for rank in range(9) for _ in range(3)]  # no four of a kind
        out.append(to_counts(rng.sample(pool, 13 + index % 2)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    start = time.perf_counter()
    suit_table()
    print(f"table built in {time.perf_counter() - start:.2f} s (once a process)")
    sample = hands(args.hands, 7)
    library = Shanten()
    sit = situation()
    ours: list[float] = []
    theirs: list[float] = []
    effective: list[float] = []
    for _ in range(args.rounds):
        start = time.perf_counter()
        mine = [shanten(counts, sit) for counts in sample]
        ours.append((time.perf_counter() - start) / len(sample))
        start = time.perf_counter()
        other = [library.calculate_shanten([*c, 0, 0, 0, 0, 0, 0, 0], use_kokushi=False) for c in sample]
        theirs.append((time.perf_counter() - start) / len(sample))
        assert mine == other  # two suits, no void, no four of a kind: the same count
        waiting = [c for c in sample if sum(c) == 13]
        start = time.perf_counter()
        for counts in waiting:
            Hand13(counts, sit).effective(unseen_alone(counts, []))
        effective.append((time.perf_counter() - start) / len(waiting))
    a, b, e = statistics.median(ours), statistics.median(theirs), statistics.median(effective)
    print(
        f"shanten, engine:          {a * 1e6:8.1f} us a hand (median of {args.rounds} rounds, {len(sample)} hands)"
    )
    print(f"shanten, mahjong library: {b * 1e6:8.1f} us a hand")
    print(f"ratio library / engine:   {b / a:8.1f}x")
    print(f"effective tiles of a 13-tile hand, engine: {e * 1e6:8.1f} us a hand")


if __name__ == "__main__":
    main()
