"""Benchmark: our waits and win test against the ``mahjong`` library's, on the same hands.

Builds a seeded list of realistic 14-tile concealed hands in one or two suits (regular
wins, seven pairs, near-wins a tile or two away, random draws from the two-suit wall)
and their 13-tile counterparts (each 14-tile hand less one random tile, so a win gives a
ready hand), checks that both implementations give the same answers, then times:

* win test: ours is what a replay calls for 14 concealed tiles,
  ``regular_win_flags(counts) is not None or is_seven_pairs(counts)``;
  mahjong's is ``Agari.is_agari(tiles_34)``.
* waits: ours is ``engine.hand.wait_mask(counts, (), ())``; mahjong's is a loop of
  ``Agari.is_agari`` over the 27 tiles (skipping a tile already held four times, as ours
  does).
* ours from keys: the same answers from the three per-suit base-5 keys and the tile
  total, as a replay could keep them up to date tile by tile (computed before timing).

Each implementation is timed over the whole hand list per round, the order of ours and
mahjong's alternating between rounds; the figure is the median over rounds of the
per-call time (round time / hands) in microseconds, and the ratio is mahjong / ours.

Run from the repository root: ``.venv/bin/python bench/waits.py [--json]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from mahjong.agari import Agari

from engine.hand import wait_mask
from engine.shapes import POW5, SHAPE_FLAGS, WAIT_MASK, is_seven_pairs, regular_win_flags, suit_keys
from engine.tiles import NUM_KINDS, format_tiles

DEFAULT_SEED = 20240607
DEFAULT_HANDS = 3000
DEFAULT_REPEAT = 11
WAITS_GOAL = 20.0
WIN_GOAL = 2.0

#: share of each kind of 14-tile hand (the rest are random draws)
WIN_SHARE = 0.25
SEVEN_PAIRS_SHARE = 0.05
NEAR_SHARE = 0.35
#: share of hands in a single suit (清一色 material); the others use two suits
ONE_SUIT_SHARE = 0.1

Counts = list[int]
#: (man key, pin key, sou key, tile total)
KeyState = tuple[int, int, int, int]
T = TypeVar("T")


# --- hands -------------------------------------------------------------------------------


def _add_pair(counts: Counts, rng: random.Random, suits: Sequence[int]) -> None:
    while True:
        tile = rng.choice(suits) * 9 + rng.randrange(9)
        if counts[tile] <= 2:
            counts[tile] += 2
            return


def _add_set(counts: Counts, rng: random.Random, suits: Sequence[int]) -> None:
    while True:
        base = rng.choice(suits) * 9
        if rng.random() < 0.3:
            tiles = [base + rng.randrange(9)] * 3
        else:
            start = base + rng.randrange(7)
            tiles = [start, start + 1, start + 2]
        for tile in tiles:
            counts[tile] += 1
        if all(counts[tile] <= 4 for tile in tiles):
            return
        for tile in tiles:
            counts[tile] -= 1


def regular_win(rng: random.Random, suits: Sequence[int]) -> Counts:
    """Four sets and a pair."""
    counts = [0] * NUM_KINDS
    _add_pair(counts, rng, suits)
    for _ in range(4):
        _add_set(counts, rng, suits)
    return counts


def seven_pairs(rng: random.Random, suits: Sequence[int]) -> Counts:
    """Seven pairs; one in five holds a kind twice (four of a kind, 龙七对)."""
    kinds = [suit * 9 + rank for suit in suits for rank in range(9)]
    pairs = rng.sample(kinds, 6 if rng.random() < 0.2 else 7)
    counts = [0] * NUM_KINDS
    for tile in pairs:
        counts[tile] += 2
    if len(pairs) == 6:
        counts[rng.choice(pairs)] += 2
    return counts


def _draw(counts: Counts, rng: random.Random, suits: Sequence[int]) -> None:
    while True:
        tile = rng.choice(suits) * 9 + rng.randrange(9)
        if counts[tile] < 4:
            counts[tile] += 1
            return


def _discard(counts: Counts, rng: random.Random) -> None:
    held = [tile for tile in range(NUM_KINDS) for _ in range(counts[tile])]
    counts[rng.choice(held)] -= 1


def near_win(rng: random.Random, suits: Sequence[int]) -> Counts:
    """A win with one or two tiles swapped for random ones of the hand's suits."""
    counts = regular_win(rng, suits) if rng.random() < 0.85 else seven_pairs(rng, suits)
    for _ in range(rng.choice((1, 1, 2))):
        _discard(counts, rng)
        _draw(counts, rng, suits)
    return counts


def random_hand(rng: random.Random, suits: Sequence[int], size: int = 14) -> Counts:
    """``size`` tiles drawn from the wall of the hand's suits (four copies of each)."""
    wall = [suit * 9 + rank for suit in suits for rank in range(9) for _ in range(4)]
    counts = [0] * NUM_KINDS
    for tile in rng.sample(wall, size):
        counts[tile] += 1
    return counts


def build_hands(count: int, seed: int) -> tuple[list[Counts], list[Counts]]:
    """``count`` 14-tile hands and, for each, the 13-tile hand less one random tile."""
    rng = random.Random(seed)
    fourteen: list[Counts] = []
    for _ in range(count):
        if rng.random() < ONE_SUIT_SHARE:
            suits: list[int] = [rng.randrange(3)]
        else:
            suits = sorted(rng.sample(range(3), 2))
        pick = rng.random()
        if pick < WIN_SHARE:
            hand = regular_win(rng, suits)
        elif pick < WIN_SHARE + SEVEN_PAIRS_SHARE:
            hand = seven_pairs(rng, suits)
        elif pick < WIN_SHARE + SEVEN_PAIRS_SHARE + NEAR_SHARE:
            hand = near_win(rng, suits)
        else:
            hand = random_hand(rng, suits)
        fourteen.append(hand)
    thirteen: list[Counts] = []
    for hand in fourteen:
        smaller = list(hand)
        _discard(smaller, rng)
        thirteen.append(smaller)
    return fourteen, thirteen


def to_34(counts: Sequence[int]) -> Counts:
    """mahjong's 34-array: man, pin, sou as ours, then seven empty honours."""
    return [*counts, 0, 0, 0, 0, 0, 0, 0]


def key_state(counts: Sequence[int]) -> KeyState:
    man, pin, sou = suit_keys(counts)
    return man, pin, sou, sum(counts)


# --- the implementations -----------------------------------------------------------------


def ours_is_win(counts: Sequence[int]) -> bool:
    return regular_win_flags(counts) is not None or is_seven_pairs(counts)


_NO_MELDS: tuple[int, ...] = ()


def ours_waits(counts: Sequence[int]) -> int:
    return wait_mask(counts, _NO_MELDS, _NO_MELDS)


def mahjong_is_win(tiles_34: Sequence[int]) -> bool:
    return bool(Agari.is_agari(tiles_34))


def mahjong_waits(tiles_34: Counts) -> int:
    """27-bit mask of the tiles whose addition ``Agari.is_agari`` accepts."""
    is_agari = Agari.is_agari
    mask = 0
    for tile in range(NUM_KINDS):
        if tiles_34[tile] < 4:
            tiles_34[tile] += 1
            if is_agari(tiles_34):
                mask |= 1 << tile
            tiles_34[tile] -= 1
    return mask


def _even_keys() -> frozenset[int]:
    """Suit keys whose every count is even (0, 2 or 4)."""
    return frozenset(
        sum(count * POW5[rank] for rank, count in enumerate(counts))
        for counts in itertools.product((0, 2, 4), repeat=9)
    )


EVEN_KEYS = _even_keys()
#: suit key with exactly one odd count (1 or 3), the others even -> bit of that rank
ONE_ODD: dict[int, int] = {
    key + POW5[rank]: 1 << rank for key in EVEN_KEYS for rank in range(9) if (key // POW5[rank]) % 5 != 4
}


def keys_is_win(state: KeyState) -> bool:
    man, pin, sou, total = state
    if total % 3 == 2 and man in SHAPE_FLAGS and pin in SHAPE_FLAGS and sou in SHAPE_FLAGS:
        return True
    return total == 14 and man in EVEN_KEYS and pin in EVEN_KEYS and sou in EVEN_KEYS


def keys_waits(state: KeyState) -> int:
    """``wait_mask`` for concealed tiles only. No melds means no tile held four times can
    be a wait (a complete suit never exceeds four of a kind), so no copy check."""
    man, pin, sou, total = state
    if total % 3 != 1 or (man and pin and sou):
        return 0
    man_done = man in SHAPE_FLAGS
    pin_done = pin in SHAPE_FLAGS
    sou_done = sou in SHAPE_FLAGS
    mask = 0
    if pin_done and sou_done:
        mask = WAIT_MASK.get(man, 0)
    if man_done and sou_done:
        mask |= WAIT_MASK.get(pin, 0) << 9
    if man_done and pin_done:
        mask |= WAIT_MASK.get(sou, 0) << 18
    if total == 13:
        if pin in EVEN_KEYS and sou in EVEN_KEYS:
            mask |= ONE_ODD.get(man, 0)
        if man in EVEN_KEYS and sou in EVEN_KEYS:
            mask |= ONE_ODD.get(pin, 0) << 9
        if man in EVEN_KEYS and pin in EVEN_KEYS:
            mask |= ONE_ODD.get(sou, 0) << 18
    return mask


# --- agreement ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Agreement:
    name: str
    compared: int
    agree: int
    excluded: int
    mismatches: list[str]

    def line(self) -> str:
        return (
            f"{self.name}: {self.agree}/{self.compared} hands agree "
            f"({self.excluded} excluded: seven pairs with four of a kind, which mahjong does not count)"
        )


def _dragon_pairs(counts: Sequence[int]) -> bool:
    """Seven pairs holding four of a kind: a win for us (龙七对), not for mahjong."""
    return is_seven_pairs(counts) and 4 in counts and regular_win_flags(counts) is None


def check_wins(fourteen: Sequence[Counts]) -> Agreement:
    compared = agree = excluded = 0
    mismatches: list[str] = []
    for counts in fourteen:
        ours = ours_is_win(counts)
        if keys_is_win(key_state(counts)) != ours:
            mismatches.append(f"{format_tiles_counts(counts)}: ours from keys differs from ours")
        if _dragon_pairs(counts):
            excluded += 1
            continue
        compared += 1
        theirs = mahjong_is_win(to_34(counts))
        if ours == theirs:
            agree += 1
        else:
            mismatches.append(f"{format_tiles_counts(counts)}: ours {ours}, mahjong {theirs}")
    return Agreement("win test", compared, agree, excluded, mismatches)


def check_waits(thirteen: Sequence[Counts]) -> Agreement:
    compared = agree = excluded = 0
    mismatches: list[str] = []
    for counts in thirteen:
        ours = ours_waits(counts)
        if keys_waits(key_state(counts)) != ours:
            mismatches.append(f"{format_tiles_counts(counts)}: ours from keys differs from ours")
        theirs = mahjong_waits(to_34(counts))
        dragon = any(ours >> tile & 1 and _dragon_pairs(_plus(counts, tile)) for tile in range(NUM_KINDS))
        if dragon:
            excluded += 1
            continue
        compared += 1
        if ours == theirs:
            agree += 1
        else:
            mismatches.append(f"{format_tiles_counts(counts)}: ours {ours:#x}, mahjong {theirs:#x}")
    return Agreement("waits", compared, agree, excluded, mismatches)


def _plus(counts: Sequence[int], tile: int) -> Counts:
    more = list(counts)
    more[tile] += 1
    return more


def format_tiles_counts(counts: Sequence[int]) -> str:
    return format_tiles(tile for tile in range(NUM_KINDS) for _ in range(counts[tile]))


# --- timing ------------------------------------------------------------------------------


def _round_ns(function: Callable[[T], object], inputs: Sequence[T]) -> int:
    start = time.perf_counter_ns()
    for item in inputs:
        function(item)
    return time.perf_counter_ns() - start


@dataclass
class Timing:
    name: str
    function: Callable[..., object]
    inputs: Sequence[object]
    rounds_ns: list[int]

    def median_us(self) -> float:
        return statistics.median(self.rounds_ns) / len(self.inputs) / 1000.0


def run(
    fourteen: list[Counts], thirteen: list[Counts], repeat: int
) -> dict[str, tuple[Timing, Timing, Timing]]:
    """Per measure: (ours, ours from keys, mahjong), each timed ``repeat`` times."""
    # Inputs in each implementation's own form, built before timing; mahjong's waits loop
    # restores every count it bumps, so one list per hand serves every round.
    win_34 = [to_34(counts) for counts in fourteen]
    waits_34 = [to_34(counts) for counts in thirteen]
    win_keys = [key_state(counts) for counts in fourteen]
    waits_keys = [key_state(counts) for counts in thirteen]
    measures: dict[str, tuple[Timing, Timing, Timing]] = {
        "win test": (
            Timing("ours", ours_is_win, fourteen, []),
            Timing("ours from keys", keys_is_win, win_keys, []),
            Timing("mahjong", mahjong_is_win, win_34, []),
        ),
        "waits": (
            Timing("ours", ours_waits, thirteen, []),
            Timing("ours from keys", keys_waits, waits_keys, []),
            Timing("mahjong", mahjong_waits, waits_34, []),
        ),
    }
    for timings in measures.values():  # warm-up, untimed
        for timing in timings:
            _round_ns(timing.function, timing.inputs)
    for round_index in range(repeat):
        for timings in measures.values():
            order = timings if round_index % 2 == 0 else timings[::-1]
            for timing in order:
                timing.rounds_ns.append(_round_ns(timing.function, timing.inputs))
    return measures


# --- report ------------------------------------------------------------------------------


def _table(measures: dict[str, tuple[Timing, Timing, Timing]]) -> list[str]:
    header = (
        f"{'measure':<10} {'ours µs':>9} {'mahjong µs':>11} {'ratio':>7}   {'from keys µs':>12} {'ratio':>7}"
    )
    lines = [header, "-" * len(header)]
    for name, (ours, keys, theirs) in measures.items():
        theirs_us = theirs.median_us()
        lines.append(
            f"{name:<10} {ours.median_us():>9.3f} {theirs_us:>11.3f} {theirs_us / ours.median_us():>6.1f}x"
            f"   {keys.median_us():>12.3f} {theirs_us / keys.median_us():>6.1f}x"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"hand seed (default {DEFAULT_SEED})")
    parser.add_argument(
        "--hands", type=int, default=DEFAULT_HANDS, help=f"hands per list (default {DEFAULT_HANDS})"
    )
    parser.add_argument(
        "--repeat", type=int, default=DEFAULT_REPEAT, help=f"timing rounds (default {DEFAULT_REPEAT})"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object of the figures last")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.repeat < 1:
        parser.error("--hands and --repeat must be at least 1")

    fourteen, thirteen = build_hands(args.hands, args.seed)
    wins = sum(ours_is_win(counts) for counts in fourteen)
    ready = sum(ours_waits(counts) != 0 for counts in thirteen)
    print(
        f"{args.hands} hands (seed {args.seed}): {wins} of the 14-tile hands are wins, "
        f"{ready} of the 13-tile hands are ready; {args.repeat} timing rounds"
    )
    agreements = [check_wins(fourteen), check_waits(thirteen)]
    for agreement in agreements:
        print(agreement.line())
    mismatches = [line for agreement in agreements for line in agreement.mismatches]
    if mismatches:
        print(f"{len(mismatches)} disagreements, so the timings would not compare equal work:")
        for line in mismatches[:10]:
            print(f"  {line}")
        return 1

    measures = run(fourteen, thirteen, args.repeat)
    print("median per call over rounds; ratio = mahjong / ours")
    for line in _table(measures):
        print(line)
    ours_win, keys_win, theirs_win = measures["win test"]
    ours_wait, keys_wait, theirs_wait = measures["waits"]
    figures: dict[str, object] = {
        "waits_ratio": round(theirs_wait.median_us() / ours_wait.median_us(), 2),
        "win_ratio": round(theirs_win.median_us() / ours_win.median_us(), 2),
        "ours_waits_us": round(ours_wait.median_us(), 3),
        "mahjong_waits_us": round(theirs_wait.median_us(), 3),
        "ours_win_us": round(ours_win.median_us(), 3),
        "mahjong_win_us": round(theirs_win.median_us(), 3),
        "keys_waits_us": round(keys_wait.median_us(), 3),
        "keys_win_us": round(keys_win.median_us(), 3),
        "keys_waits_ratio": round(theirs_wait.median_us() / keys_wait.median_us(), 2),
        "keys_win_ratio": round(theirs_win.median_us() / keys_win.median_us(), 2),
        "hands": args.hands,
        "repeat": args.repeat,
        "seed": args.seed,
        "win_agree": agreements[0].agree,
        "win_compared": agreements[0].compared,
        "win_excluded": agreements[0].excluded,
        "waits_agree": agreements[1].agree,
        "waits_compared": agreements[1].compared,
        "waits_excluded": agreements[1].excluded,
    }
    waits_ok = theirs_wait.median_us() / ours_wait.median_us() >= WAITS_GOAL
    win_ok = theirs_win.median_us() / ours_win.median_us() >= WIN_GOAL
    figures["waits_goal_met"] = waits_ok
    figures["win_goal_met"] = win_ok
    print(
        f"goals: waits >= {WAITS_GOAL:g}x {'met' if waits_ok else 'NOT met'}, "
        f"win test >= {WIN_GOAL:g}x {'met' if win_ok else 'NOT met'}"
    )
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
