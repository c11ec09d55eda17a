"""向听数 and 有效牌 (engine/shanten.py): against every replacement (tests/shanten_brute.py),
against the ``mahjong`` library where the rules coincide, by hand, and the best discard's
property (hypothesis). bench/shanten_proof.py runs the brute force over 100,000 hands."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong.shanten import Shanten
from shanten_brute import SEED, brute_shanten, make_case

from engine.rules import load_rules
from engine.shanten import NO_WIN, Hand13, analyse_shanten, shanten, situation, unseen_alone
from engine.tiles import WILD, parse_tiles, to_counts


def _counts(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


def test_against_every_replacement() -> None:
    """Seeded hands of every kind (13, 10, 7 tiles; pongs; 定缺; 红中; seven pairs with four
    of a kind): the engine's shanten is the brute force's count, or above 2 where the brute
    force finds no ready hand within two replacements."""
    rng = random.Random(SEED)
    kinds: set[str] = set()
    for _ in range(250):
        case = make_case(rng)
        kinds.add(case.kind)
        sit = situation(case.rules, case.pongs, case.void, wild=bool(case.rules.wild_tiles))
        fast = shanten(case.counts, sit, case.wilds)
        brute = brute_shanten(case)
        assert (fast > 2) if brute is None else fast == brute, case.text()
    assert kinds == {"near", "random", "pairs"}


def _library_hand(rng: random.Random) -> list[int]:
    """13 tiles of two suits (缺一门 holds without a choice), no four of a kind."""
    suits = rng.sample(range(3), 2)
    pool = [suit * 9 + rank for suit in suits for rank in range(9) for _ in range(3)]
    return to_counts(rng.sample(pool, 13))


def test_against_the_mahjong_library_where_the_rules_coincide() -> None:
    """Two suits, no void, no 红中, no four of a kind: the same count as ``Shanten``, seven
    pairs included, for a hand waiting to draw and one that must discard."""
    library = Shanten()
    rng = random.Random(SEED)
    sit = situation()
    for _ in range(1500):
        counts = _library_hand(rng)
        if rng.random() < 0.5:  # a fourteenth tile
            tile = rng.choice([t for t in range(27) if counts[t] and counts[t] < 3])
            counts[tile] += 1
        tiles_34 = [*counts, 0, 0, 0, 0, 0, 0, 0]
        assert shanten(counts, sit) == library.calculate_shanten(tiles_34, use_kokushi=False), counts


def test_by_hand() -> None:
    """Worked by hand (the counts in the comments)."""
    sit = situation()
    # 九莲宝灯: ready on every 万
    assert shanten(_counts("1112345678999m"), sit) == 0
    # 123m 456m 789m 1234p: four sets... 1234p is a set and a single: ready (1p or 4p)
    assert shanten(_counts("123456789m1234p"), sit) == -1 + 1  # 14 tiles: discard 1p/4p, ready
    # 定缺 筒 on the same: four 筒 must go, three sets of 万 stay: 14 - 9 = 5 missing: 4
    assert shanten(_counts("123456789m1234p"), situation(void=1)) == 4
    # seven pairs with four of a kind (龙七对): 1111m is two pairs, 223344m55p: six pairs + 1
    assert shanten(_counts("1111223344m55p6p"), sit) == 0
    assert shanten(_counts("1111223344m55p66p"), sit) == -1
    # one meld (9s): 1111223344m, 3 sets and a pair from 10 tiles: 111m 123m 234m and 4m
    # waiting on its pair: ready
    assert shanten(_counts("1111223344m"), situation(melds=[26])) == 0
    # a ten-tile table: 3 sets and a pair; 123m 456m 78m 9p: 78m waits, 9p single: 1
    ten = load_rules({"preset": "standard", "hand_size": 10, "seats": 4})
    assert shanten(_counts("12345678m9p1s"), situation(ten)) == 1
    # seven tiles: 2 sets and a pair; 123m 55m 7p: the second set lacks two tiles (7p + 2):
    # 14 - ... a win of 8 tiles from 123m 55m 7p: 2 missing, 1 from ready
    seven = load_rules({"preset": "standard", "hand_size": 7, "seats": 4})
    assert shanten(_counts("12355m7p"), situation(seven)) == 1
    assert shanten(_counts("12355m78p"), situation(seven)) == 1 - 1  # 78p waits 6p/9p: ready
    # a meld of the void suit: never a win
    assert shanten(_counts("123456789m1p"), situation(melds=[9], void=1)) == NO_WIN


def test_a_red_dragon_stands_for_a_tile() -> None:
    rules = load_rules({"preset": "standard", "wild_tiles": 4})
    sit = situation(rules, wild=True)
    # 123456789m111p + 红中: ready (the 红中 pairs with any tile)
    assert shanten(_counts("123456789m111p"), sit, 1) == 0
    # 1111m + 红中 + 222p 333p 345p: 111m and the pair 1m中 (a fifth 1m, read by the 红中)
    assert shanten(_counts("1111m222p333p345p"), sit, 1) == -1
    # a hand alone: the 红中 left are the table's less the ones held
    report = analyse_shanten(_counts("123456789m111p"), [], [], 1, rules)
    assert report.shanten == 0 and (WILD, 3) in report.effective


def test_effective_tiles_count_what_the_seat_cannot_see() -> None:
    counts = _counts("1112345678999m")
    hand = Hand13(counts, situation())
    left = unseen_alone(counts, [])
    left[4] = 0  # every other 5m seen on the table
    effective = dict(hand.effective(left))
    assert effective[4] == 0 and effective[0] == 1 and sum(effective.values()) == 1 + 3 * 6 + 0 + 1


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 26), min_size=14, max_size=14), st.sampled_from([None, 0, 1, 2]))
def test_the_best_discard_is_never_worse_than_another(tiles: list[int], void: int | None) -> None:
    counts = [0] * 27
    for tile in tiles:
        counts[tile] = min(counts[tile] + 1, 4)
    while sum(counts) < 14:
        counts[next(t for t in range(27) if counts[t] < 4)] += 1
    options = Hand13(counts, situation(void=void)).options(unseen_alone(counts, []))
    best = options[0]
    assert all(best.shanten <= other.shanten for other in options)
    assert all(
        best.effective_count >= other.effective_count for other in options if other.shanten == best.shanten
    )
    # the hand's own shanten is the best discard's (a win: -1, its discards ready or better)
    assert shanten(counts, situation(void=void)) in (best.shanten, -1)


def test_the_quick_effective_tiles_and_discards_are_the_plain_ones() -> None:
    """Hand13.effective and discard_shantens read the best readings' table entries; trying
    every draw and every discard in full gives the same, over seeded hands of every kind."""
    rng = random.Random(SEED + 1)
    for _ in range(300):
        case = make_case(rng)
        sit = situation(case.rules, case.pongs, case.void, wild=bool(case.rules.wild_tiles))
        hand = Hand13(case.counts, sit, case.wilds)
        left = unseen_alone(case.counts, case.pongs)
        wild_left = case.rules.wild_tiles - case.wilds
        assert hand.effective(left, wild_left) == hand._effective_plain(left, wild_left), case.text()
        drawn = rng.choice([t for t in case.kinds() if case.counts[t] < 4])
        hand.add(drawn, 1)
        plain = {}
        for tile in [t for t in range(27) if hand.counts[t]] + ([WILD] if hand.wilds else []):
            hand.add(tile, -1)
            plain[tile] = hand.shanten()
            hand.add(tile, 1)
        assert hand.discard_shantens() == plain, case.text()
