"""Benchmark: the hot hand functions on plain hands (no 红中, thirteen tiles), to compare a
branch with main (run each with its own PYTHONPATH; the script uses only functions both
have).

10,000 seeded hands: each is 14 tiles drawn from a 108-tile wall of two suits (a quarter
built as wins: four sets and a pair), and its 13-tile counterpart (one tile taken out).
Times, per call, the median over rounds: ``engine.hand.wait_mask`` on the 13 tiles, the
win test ``engine.score.score_win`` on the 14 (None: no win), and the shape test
``regular_win_flags(c) is not None or is_seven_pairs(c)``.

Run: ``CHUANMA_PURE=1 PYTHONPATH=. .venv/bin/python bench/wild_speed.py [--hands N]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engine.hand import wait_mask
from engine.rules import load_rules
from engine.score import score_win
from engine.shapes import is_seven_pairs, regular_win_flags

SEED = 20261206


def _hands(count: int, rng: random.Random) -> list[list[int]]:
    hands: list[list[int]] = []
    while len(hands) < count:
        suits = rng.sample(range(3), 2)
        kinds = [suit * 9 + rank for suit in suits for rank in range(9)]
        counts = [0] * 27
        if rng.random() < 0.25:
            for _ in range(4):
                if rng.random() < 0.5:
                    tile = rng.choice(kinds)
                    counts[tile] += 3
                else:
                    start = rng.choice([k for k in kinds if k % 9 <= 6])
                    for tile in (start, start + 1, start + 2):
                        counts[tile] += 1
            counts[rng.choice(kinds)] += 2
        else:
            wall = [tile for tile in kinds for _ in range(4)]
            for tile in rng.sample(wall, 14):
                counts[tile] += 1
        if max(counts) <= 4:
            hands.append(counts)
    return hands


def _time(calls: Callable[[], None], rounds: int, per: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        calls()
        times.append((time.perf_counter() - start) / per * 1e6)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(SEED)
    full = _hands(args.hands, rng)
    ready = []
    for counts in full:
        less = list(counts)
        less[rng.choice([t for t in range(27) if less[t]])] -= 1
        ready.append(less)
    rules = load_rules("standard")

    def waits() -> None:
        for counts in ready:
            wait_mask(counts, (), ())

    def wins() -> None:
        for counts in full:
            score_win(counts, (), (), rules)

    def shapes() -> None:
        for counts in full:
            _ = regular_win_flags(counts) is not None or is_seven_pairs(counts)

    wins_found = sum(score_win(c, (), (), rules) is not None for c in full)
    ready_found = sum(wait_mask(c, (), ()) != 0 for c in ready)
    print(f"{len(full)} hands: {wins_found} wins, {ready_found} ready 13-tile hands")
    for name, calls in (("wait_mask", waits), ("score_win", wins), ("shape test", shapes)):
        print(f"{name:>10}: {_time(calls, args.rounds, len(full)):.3f} us a call (median of {args.rounds})")


if __name__ == "__main__":
    main()
