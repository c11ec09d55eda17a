"""Proof by brute force: the win test and the waits with 红中 wild tiles, at hand sizes
13, 10 and 7 and at tables of three, two and one suit, against every substitution
(tests/wild_brute.py, which knows nothing of ``engine.shapes.wild_needs``), over a hundred
thousand seeded hands; tests/test_wilds.py runs a few thousand of the same.

Run: ``CHUANMA_PURE=1 PYTHONPATH=. .venv/bin/python bench/wild_waits.py [--hands 100000]``;
it prints the hands by table and wild count, the wins and ready hands found, the
disagreements (none expected) and the time of each side.
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

from wild_brute import SEED, Case, brute_waits, brute_win, make_case  # noqa: E402

from engine.hand import is_win, wait_mask  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases = [make_case(rng) for _ in range(args.hands)]
    by_table: Counter[str] = Counter()
    by_wilds: Counter[int] = Counter()
    for case in cases:
        by_table[
            f"{case.rules.suits}/{case.rules.hand_size}{'/void' if case.rules.two_suit_void else ''}"
        ] += 1
        by_wilds[case.wilds] += 1
    start = time.process_time()
    ours_answers = []
    for case in cases:
        size = sum(case.concealed) + case.wilds + 3 * len(case.pongs)
        if size == case.rules.hand_size + 1:
            ours_answers.append(int(is_win(case.concealed, case.pongs, (), case.wilds, case.rules)))
        else:
            ours_answers.append(wait_mask(case.concealed, case.pongs, (), case.wilds, case.rules))
    ours_time = time.process_time() - start
    start = time.process_time()
    wins = ready = tests = waits = 0
    wrong: list[Case] = []
    for case, ours in zip(cases, ours_answers, strict=True):
        size = sum(case.concealed) + case.wilds + 3 * len(case.pongs)
        if size == case.rules.hand_size + 1:
            tests += 1
            theirs = int(brute_win(case))
            wins += theirs
        else:
            waits += 1
            theirs = brute_waits(case)
            ready += theirs != 0
        if ours != theirs:
            wrong.append(case)
    brute_time = time.process_time() - start
    print(f"{len(cases):,} hands (seed {args.seed}): {tests:,} win tests ({wins:,} wins), "
          f"{waits:,} wait lists ({ready:,} ready)")  # fmt: skip
    print("by table (suits/hand size):", ", ".join(f"{k} {v:,}" for k, v in sorted(by_table.items())))
    print("by 红中 held:", ", ".join(f"{k}: {v:,}" for k, v in sorted(by_wilds.items())))
    print(f"engine: {ours_time:.2f} s CPU ({ours_time / len(cases) * 1e6:.1f} us a hand); "
          f"brute force: {brute_time:.2f} s CPU")  # fmt: skip
    print(f"disagreements: {len(wrong)}")
    for case in wrong[:10]:
        print("  ", case)


if __name__ == "__main__":
    main()
