"""Differential test against the ``mahjong`` library (PyPI, 2.1.0): win shapes and waits.

Thousands of seeded two-suit hands (uniform draws, constructed wins and seven pairs,
near-wins with one tile swapped, ready hands with one tile taken out, some with pong or
kong melds) are judged by our engine and by ``mahjong.agari.Agari.is_agari`` (34-array:
man 0-8, pin 9-17, sou 18-26, the same ids as ours for m, p, s; honours stay 0).

Two rule differences are filtered precisely, never by skipping broadly:

* 龙七对: docs/rules.md section 3 counts four identical tiles as two pairs, mahjong's seven
  pairs wants seven different pairs.  A 14-tile meld-free hand whose every count is even
  and that holds a four of a kind is left out of the comparison and must be a win for us.
* the fifth copy: a wait tile of which the seat already holds four (hand + melds) is not
  a wait for us; mahjong, given a count of 5, may call it a win.  Such tiles are left out
  and must not be among our waits.

The hands stay in two suits, so 缺一门 never decides a case here (it is tested in
test_seed_examples.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from mahjong.agari import Agari
from mahjong.hand_calculating.divider import HandDivider
from test_fan_table import hand_features

from engine.fan import DISCARD_WIN
from engine.hand import waits
from engine.rules import load_rules
from engine.score import score_win

STANDARD = load_rules("standard")
SEED = 20240611


@dataclass(frozen=True)
class Hand:
    concealed: tuple[int, ...]  # 27 counts
    pongs: tuple[int, ...] = ()
    kongs: tuple[int, ...] = ()

    def held(self) -> list[int]:
        held = list(self.concealed)
        for tile in self.pongs:
            held[tile] += 3
        for tile in self.kongs:
            held[tile] += 4
        return held


def _to_34(counts: Sequence[int]) -> list[int]:
    return [*counts, 0, 0, 0, 0, 0, 0, 0]


def _mahjong_win(counts: Sequence[int]) -> bool:
    return bool(Agari.is_agari(_to_34(counts)))


def _dragon_seven_pairs(counts: Sequence[int]) -> bool:
    """14 concealed tiles, all counts even, one of them 4: our 龙七对, not mahjong's 七対子."""
    return sum(counts) == 14 and all(c % 2 == 0 for c in counts) and 4 in counts


# --- hand generators (deterministic: everything comes from one seeded Random) ---------


def _suits(rng: random.Random) -> tuple[int, ...]:
    if rng.random() < 0.1:
        return (rng.randrange(3),)
    return tuple(sorted(rng.sample(range(3), 2)))


def _kinds(suits: Sequence[int]) -> list[int]:
    return [suit * 9 + rank for suit in suits for rank in range(9)]


def _uniform(rng: random.Random, size: int) -> Hand:
    pool = [tile for tile in _kinds(_suits(rng)) for _ in range(4)]
    counts = [0] * 27
    for tile in rng.sample(pool, size):
        counts[tile] += 1
    return Hand(tuple(counts))


def _regular_win(
    rng: random.Random, melds: int = 0, triplet_share: float = 0.45, terminal_share: float = 0.0
) -> Hand:
    """Four sets + a pair from two suits (never above four copies), about
    ``triplet_share`` of them triplets and ``terminal_share`` of the sets and the pair
    drawn among those holding a 1 or a 9; ``melds`` of the triplets (when there are that
    many) become pongs or kongs."""
    suits = _suits(rng)
    all_kinds = _kinds(suits)
    while True:
        counts = [0] * 27
        triplets: list[int] = []
        for _ in range(4):
            for _attempt in range(20):
                terminal = rng.random() < terminal_share
                kinds = [k for k in all_kinds if k % 9 in (0, 8)] if terminal else all_kinds
                if rng.random() < triplet_share:
                    kind = rng.choice(kinds)
                    if counts[kind] == 0 or (counts[kind] <= 1 and rng.random() < 0.3):
                        counts[kind] += 3
                        triplets.append(kind)
                        break
                else:
                    suit = rng.choice(suits)
                    start = suit * 9 + (rng.choice((0, 6)) if terminal else rng.randrange(7))
                    if all(counts[start + i] <= 3 for i in range(3)):
                        for i in range(3):
                            counts[start + i] += 1
                        break
        terminal = rng.random() < terminal_share
        pair_kinds = [k for k in all_kinds if counts[k] <= 2 and (not terminal or k % 9 in (0, 8))]
        if sum(counts) != 12 or not pair_kinds:
            continue
        counts[rng.choice(pair_kinds)] += 2
        break
    pongs: list[int] = []
    kongs: list[int] = []
    for kind in triplets[:melds]:
        counts[kind] -= 3
        if counts[kind] == 0 and rng.random() < 0.4:
            kongs.append(kind)
        else:
            pongs.append(kind)
    return Hand(tuple(counts), tuple(pongs), tuple(kongs))


def _seven_pairs(rng: random.Random) -> Hand:
    kinds = _kinds(_suits(rng))
    counts = [0] * 27
    while sum(counts) < 14:
        kind = rng.choice(kinds)
        if counts[kind] <= 2 and (counts[kind] == 0 or rng.random() < 0.3):
            counts[kind] += 2
    return Hand(tuple(counts))


def _win(rng: random.Random) -> Hand:
    roll = rng.random()
    if roll < 0.15:
        return _seven_pairs(rng)
    return _regular_win(rng, melds=rng.choice((0, 0, 0, 1, 2, 3, 4)) if roll > 0.6 else 0)


def _remove_one(rng: random.Random, hand: Hand) -> Hand:
    counts = list(hand.concealed)
    tiles = [t for t in range(27) for _ in range(counts[t])]
    counts[rng.choice(tiles)] -= 1
    return Hand(tuple(counts), hand.pongs, hand.kongs)


def _add_one(rng: random.Random, hand: Hand) -> Hand:
    """Add a tile of a suit the hand already uses, never a fifth copy."""
    held = hand.held()
    suits = {t // 9 for t in range(27) if held[t]}
    choices = [t for t in range(27) if t // 9 in suits and held[t] < 4]
    counts = list(hand.concealed)
    counts[rng.choice(choices)] += 1
    return Hand(tuple(counts), hand.pongs, hand.kongs)


def hands_14(rng: random.Random) -> Iterator[Hand]:
    for _ in range(2500):
        yield _uniform(rng, 14)
    for _ in range(2500):
        yield _win(rng)
    for _ in range(2500):  # near-wins: one tile replaced
        yield _add_one(rng, _remove_one(rng, _win(rng)))


def hands_13(rng: random.Random) -> Iterator[Hand]:
    for _ in range(1500):
        yield _uniform(rng, 13)
    for _ in range(2500):  # ready by construction
        yield _remove_one(rng, _win(rng))
    for _ in range(1500):  # a ready hand with one more tile swapped
        yield _add_one(rng, _remove_one(rng, _remove_one(rng, _win(rng))))


# --- the tests --------------------------------------------------------------------------


def test_win_answers_agree_with_mahjong() -> None:
    rng = random.Random(SEED)
    compared = wins = dragon = 0
    for hand in hands_14(rng):
        ours = score_win(hand.concealed, hand.pongs, hand.kongs, STANDARD) is not None
        if not hand.pongs and not hand.kongs and _dragon_seven_pairs(hand.concealed):
            dragon += 1
            assert ours, f"龙七对 shape {hand} must be a win (docs/rules.md section 3)"
            continue
        theirs = _mahjong_win(hand.concealed)  # the concealed part alone, melds are sets
        assert ours == theirs, f"{hand}: ours {ours}, mahjong {theirs}"
        compared += 1
        wins += ours
    # the comparison is not vacuous: plenty of wins and non-wins, few filtered cases
    print(f"14 tiles: {compared} compared, {wins} wins, {dragon} 龙七对 filtered")
    assert compared >= 7000
    assert 2000 <= wins <= compared - 3000
    assert 20 <= dragon <= 400


def test_waits_agree_with_mahjong() -> None:
    rng = random.Random(SEED + 1)
    ready = compared_tiles = fifth_copy = fifth_copy_mahjong_win = dragon = 0
    for hand in hands_13(rng):
        ours = set(waits(hand.concealed, hand.pongs, hand.kongs))
        held = hand.held()
        meld_free = not hand.pongs and not hand.kongs
        for tile in range(27):
            with_tile = list(hand.concealed)
            with_tile[tile] += 1
            if held[tile] >= 4:
                fifth_copy += 1
                assert tile not in ours, f"{hand}: wait {tile} would be a fifth copy"
                fifth_copy_mahjong_win += _mahjong_win(with_tile)
                continue
            if meld_free and _dragon_seven_pairs(with_tile):
                dragon += 1
                assert tile in ours, f"{hand}: {tile} makes a 龙七对 and must be a wait"
                continue
            theirs = _mahjong_win(with_tile)
            assert (tile in ours) == theirs, f"{hand}: tile {tile}: ours {tile in ours}, mahjong {theirs}"
            compared_tiles += 1
        ready += bool(ours)
    print(f"13 tiles: {ready} ready, {compared_tiles} tiles compared, {fifth_copy} fifth copies")
    print(f"  ({fifth_copy_mahjong_win} accepted by mahjong), {dragon} 龙七对 waits filtered")
    assert ready >= 2500
    assert compared_tiles + fifth_copy + dragon == 5500 * 27  # every tile of every hand
    assert fifth_copy >= 50  # the filter is exercised ...
    assert dragon >= 20
    assert fifth_copy_mahjong_win >= 1  # ... and it matters: mahjong would accept a 5th copy


def test_pattern_readings_agree_with_mahjong_divider() -> None:
    """For meld-free regular wins: some reading is all triplets (对对胡) / has a 1 or 9 in
    every set and the pair (带幺九) exactly when one of HandDivider's divisions is."""
    rng = random.Random(SEED + 2)
    checked = triplets = terminals = 0
    for _ in range(3000):
        roll = rng.random()
        if roll < 0.2:
            hand = _seven_pairs(rng)
        else:
            hand = _regular_win(
                rng,
                triplet_share=0.9 if roll < 0.4 else 0.45,
                terminal_share=0.9 if 0.4 <= roll < 0.7 else 0.0,
            )
        counts = hand.concealed
        features = hand_features(counts, [], 0, DISCARD_WIN)
        assert features is not None
        divisions = [d for d in HandDivider.divide_hand(_to_34(counts)) if len(d) == 5]
        all_triplets = any(all(len(set(block)) == 1 for block in d) for d in divisions)
        all_terminal = any(all(any(t % 9 in (0, 8) for t in block) for block in d) for d in divisions)
        assert ("triplets" in features) == all_triplets, hand
        assert ("terminals" in features) == all_terminal, hand
        checked += 1
        triplets += all_triplets
        terminals += all_terminal
    print(f"readings: {checked} wins, {triplets} all-triplet, {terminals} all-terminal")
    assert checked == 3000
    assert triplets >= 100
    assert terminals >= 100
