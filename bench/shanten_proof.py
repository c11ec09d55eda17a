"""Proof by brute force: the engine's shanten (engine/shanten.py) against every replacement
(tests/shanten_brute.py, which knows nothing of the distance table) over a hundred thousand
seeded hands: tables of 13, 10 and 7 tiles, pongs, a declared void suit, seven pairs with
four of a kind, 红中. A hand the brute force finds no ready hand for within two
replacements must be above 2 for the engine too.

Run: ``CHUANMA_PURE=1 PYTHONPATH=. .venv/bin/python bench/shanten_proof.py [--hands 100000]``;
it prints the hands by kind and brute count, the disagreements (none expected) and the
time of each side.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the brute force

from shanten_brute import SEED, brute_shanten, make_case  # noqa: E402

from engine.shanten import shanten, situation  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    seen: Counter[str] = Counter()
    features: Counter[str] = Counter()
    wrong = 0
    fast_time = brute_time = 0.0
    for number in range(args.hands):
        case = make_case(rng)
        sit = situation(case.rules, case.pongs, case.void, wild=bool(case.rules.wild_tiles))
        start = time.perf_counter()
        fast = shanten(case.counts, sit, case.wilds)
        middle = time.perf_counter()
        brute = brute_shanten(case)
        brute_time += time.perf_counter() - middle
        fast_time += middle - start
        seen[f"{case.kind} {'>2' if brute is None else brute}"] += 1
        features[f"{case.rules.hand_size} tiles"] += 1
        features["pongs"] += bool(case.pongs)
        features["void"] += case.void is not None
        features["红中 held"] += case.wilds > 0
        features["four of a kind"] += max(case.counts) == 4
        if (fast <= 2) if brute is None else fast != brute:
            wrong += 1
            if wrong <= 20:
                print(f"DISAGREE {case.text()} at {case.rules.name}: engine {fast}, brute force {brute}")
        if (number + 1) % 10_000 == 0:
            print(f"{number + 1} hands, {wrong} disagreements", flush=True)
    print("hands by kind and brute-force count:", dict(sorted(seen.items())))
    print("features:", dict(sorted(features.items())))
    print(f"{args.hands} hands, {wrong} disagreements")
    print(f"engine {fast_time:.2f} s (table build included), brute force {brute_time:.1f} s")


if __name__ == "__main__":
    main()
