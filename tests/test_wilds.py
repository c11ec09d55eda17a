"""红中 wild tiles and other tables at the level of one hand: the win test and the waits
against a brute force over every substitution (tests/wild_brute.py, a few thousand of
the seeded hands bench/wild_waits.py plays), golden hands worked by hand, the best reading's fan, 起手4红中, 无红中,
查叫 with 红中, and 缺一门 at tables of two suits."""

from __future__ import annotations

import itertools
import random

import pytest
from wild_brute import brute_win, check, make_case

from engine.fan import WinContext
from engine.hand import HandError, analyse_hand, is_win, parse_hand, ready_value, wait_mask, waits
from engine.rules import Rules, load_rules
from engine.score import score_win
from engine.shapes import wild_needs
from engine.tiles import WILD, format_tiles, parse_tiles, tile_name, to_counts

RED4 = load_rules({"preset": "standard", "wild_tiles": 4})
#: the wild rows on: 起手4红中 6, 无红中 1
RED4_ROWS = load_rules({"preset": "standard", "wild_tiles": 4, "fan": {"sihongzhong": 6, "wuhongzhong": 1}})
TEN_PS = load_rules({"preset": "standard", "seats": 3, "suits": "ps", "hand_size": 10, "wild_tiles": 4})
TEN_PS_VOID = load_rules(
    {"preset": "standard", "seats": 3, "suits": "ps", "hand_size": 10, "wild_tiles": 4, "two_suit_void": True}
)
SEVEN_MS = load_rules({"preset": "standard", "suits": "ms", "hand_size": 7, "wild_tiles": 4})


def hand_of(text: str, rules: Rules) -> tuple[list[int], tuple[int, ...], int]:
    """(counts, pongs, 红中) of a hand's text."""
    hand = parse_hand(text, rules)
    return hand.counts(), hand.pongs, hand.wilds


def win(text: str, rules: Rules) -> bool:
    counts, pongs, wilds = hand_of(text, rules)
    return is_win(counts, pongs, (), wilds, rules)


def wait_names(text: str, rules: Rules) -> str:
    counts, pongs, wilds = hand_of(text, rules)
    return format_tiles(waits(counts, pongs, (), wilds, rules))


# --- tiles ----------------------------------------------------------------------------


def test_hongzhong_is_tile_27_written_7z_or_zhong() -> None:
    assert parse_tiles("123m7z", wild=True) == [0, 1, 2, WILD]
    assert parse_tiles("中1m中", wild=True) == [WILD, 0, WILD]
    assert parse_tiles("77z", wild=True) == [WILD, WILD]
    assert parse_tiles(["7z", "中", "5p"], wild=True) == [WILD, WILD, 13]
    assert tile_name(WILD) == "7z"
    assert format_tiles([WILD, 13, 0, WILD]) == "1m5p77z"
    # only a reader that opts in takes it: a log's tiles stay the 27
    for text in ("7z", "中", "17z"):
        with pytest.raises(ValueError):
            parse_tiles(text)
    with pytest.raises(ValueError):
        parse_tiles("17z", wild=True)  # 1z is no tile


def test_a_hand_with_hongzhong_needs_a_table_with_them() -> None:
    with pytest.raises(ValueError, match="7z"):
        parse_hand("123456789m111p7z")  # today's table: no 红中
    with pytest.raises(HandError, match="cannot be ponged"):
        parse_hand("123456789m1p 中中中", RED4)
    with pytest.raises(ValueError, match="5 红中"):
        parse_hand("123456789m中中中中中", RED4)
    with pytest.raises(HandError, match="suits 'ps'"):
        parse_hand("123m456p789s1s", TEN_PS)
    with pytest.raises(HandError, match="a hand has 10 tiles"):
        parse_hand("123456789p111s7z", TEN_PS)


# --- golden hands, worked by hand -------------------------------------------------------


def test_needs_of_one_suit() -> None:
    # 1m 2m: a run with one 红中 (3m), or with the pair 3 (1m+中, 2m+中 would be two pairs)
    assert wild_needs((1, 1, 0, 0, 0, 0, 0, 0, 0)) == (1, 3)
    # 1111m: 111 + 1 needs two 红中 for sets (111 + 1中中), one for the pair (111 + 1中)
    assert wild_needs((4, 0, 0, 0, 0, 0, 0, 0, 0)) == (2, 1)
    # 13579m: 1中3, 5中?... 135 79: 1中3 (1), 5 (2: 5中中), 79 中 (1) = 4 for sets;
    # with the pair: 1中3 (1), 5中 (1, the pair), 7中9 (1) = 3
    assert wild_needs((1, 0, 1, 0, 1, 0, 1, 0, 1)) == (4, 3)
    # an empty suit: nothing for sets, a pair of 红中
    assert wild_needs((0,) * 9) == (0, 2)


@pytest.mark.parametrize(
    ("text", "rules", "expected"),
    [
        # ten-tile table (筒 and 条): 123p 456p 78s+中 (6s or 9s) 11s: three sets and a pair
        ("123p456p78s11s中", TEN_PS, True),
        # the same with 缺一门 at two suits (two_suit_void): 筒 and 条 both held, no win
        ("123p456p78s11s中", TEN_PS_VOID, False),
        # one suit only: 123p 456p 78p中 11p wins under two_suit_void too
        ("123p456p78p11p中", TEN_PS_VOID, True),
        # seven-tile table: 12m+中 (3m) and 555m and 99s: two sets and a pair
        ("12m555m99s中", SEVEN_MS, True),
        # seven pairs with two 红中: 11 33 55 77 99m, 1p+中, 2p+中
        ("1133557799m12p中中", RED4, True),
        # pairs are no win but at 13 tiles: 11 33 55m and 7s+中 are four pairs at the
        # seven-tile table, and no two sets and a pair (135m twice would need two 红中)
        ("113355m7s中", SEVEN_MS, False),
        # the 红中 as a fifth 1m: 111m + 1m中 (the pair), 222p 333p 345p
        ("1111m222p333p345p中", RED4, True),
        # 1 3 5 9p and one 红中: 1中3 is a run, 5 and 9 are left
        ("123m456m789m1359p中", RED4, False),
        # three suits held: no win (缺一门) whatever the 红中 stands for
        ("123m456m789p11s12p中", RED4, False),
        # four 红中 and two pongs: 12p+中 (3p), 中中中 a set, 99p the pair, 555p, 111p
        ("1299p中中中中 555p 111p", RED4, True),
    ],
)
def test_golden_wins(text: str, rules: Rules, expected: bool) -> None:
    assert win(text, rules) is expected
    counts, pongs, wilds = hand_of(text, rules)
    from wild_brute import Case

    assert brute_win(Case(rules, tuple(counts), wilds, pongs)) is expected


def test_golden_waits() -> None:
    # four sets and a 红中: it pairs with any tile of the two suits held; a 条 would be a
    # third suit (缺一门)
    assert wait_names("123m456m789m111p中", RED4) == "123456789m123456789p"
    # the same with no 红中: the plain wait (1p 1p 1p + x: x pairs nothing but a fourth 1p... 111p+1p is no pair:
    # 123m456m789m 111p 5p waits only on 5p)
    assert wait_names("123m456m789m111p5p", RED4) == "5p"
    # 1111m 222p 333p 45p 中: 3p or 6p (345p or 456p, and 111m + 1m中 the pair); 2m or 3m
    # (111m + 12m中 or 1中3m, the 筒 then 222p 33p 345p: 33p the pair); never 1m (four
    # held), and not 4p (222333445p is no sets and a pair, and 1111m needs the 红中)
    assert wait_names("1111m222p333p45p中", RED4) == "23m36p"
    # ten-tile table: 123p 456p 789s + 1s waits on 1s alone; with a 红中 for the 1s,
    # 123p 456p 789s 中: any tile of 筒 or 条
    assert wait_names("123p456p789s1s", TEN_PS) == "1s"
    assert wait_names("123p456p789s中", TEN_PS) == "123456789p123456789s"
    # with 缺一门 at two suits nothing completes a hand that holds both
    assert wait_names("123p456p789s中", TEN_PS_VOID) == ""
    assert wait_names("123p456p789p中", TEN_PS_VOID) == "123456789p"


def test_waits_of_today_table_unchanged_by_the_rules_argument() -> None:
    standard = load_rules("standard")
    rng = random.Random(7)
    for _ in range(300):
        tiles = rng.sample([t for t in range(18) for _ in range(4)], 13)
        counts = to_counts(tiles)
        assert wait_mask(counts, (), (), 0, standard) == wait_mask(counts)


# --- the brute force, a few thousand hands ----------------------------------------------


def test_win_test_and_waits_agree_with_every_substitution() -> None:
    rng = random.Random(20261207)
    tested = {True: 0, False: 0}
    wilds_seen = set()
    for _ in range(3000):
        case = make_case(rng)
        is_win_test, agree, _, _ = check(case)
        assert agree, case
        tested[is_win_test] += 1
        wilds_seen.add(case.wilds)
    assert min(tested.values()) > 1000
    assert {0, 1, 2, 3, 4, 5} <= wilds_seen


# --- fan: the best reading --------------------------------------------------------------


def fan_of(text: str, rules: Rules, context: WinContext | None = None) -> tuple[int, tuple[str, ...]]:
    report = analyse_hand(text, rules, context or WinContext())
    assert report.is_win, text
    assert report.fan is not None
    return report.fan, report.patterns


def test_best_reading_golden() -> None:
    # 中 as the fifth 1m (111m + 11m): 平胡, a root for 1m (held four times or more) and
    # one for 3p (333p and the 3p of 345p)
    assert fan_of("1111m222p333p345p中", RED4) == (3, ("pinghu", "gen", "gen"))
    # 1133557799m 1p 中中中: 中 pairs the 1p, 中中 make 11m 11m: 龙七对 (five) with its root
    # used, better than 七对 with 中中 as a pair of anything
    assert fan_of("1133557799m1p中中中", RED4) == (5, ("longqidui",))
    # 123456789m 111m 9m 中 (all 万): 中 as 9m makes the pair; 1m held four times: 清一色 + 根
    assert fan_of("123456789m111m9m中", RED4) == (4, ("qingyise", "gen"))
    # 22m 555m 88m 222p 55p and two 红中: read as triplets (22m中 555m 88m中 222p, 55p the
    # pair) it is 将对 4; read as pairs, 555m+中 and 222p+中 are two fours of a kind:
    # 22m 55m 55m 88m 22p 22p 55p, 龙七对 5 (one root used) + the other root = 6, the best
    assert fan_of("22m555m88m222p55p中中", RED4) == (6, ("longqidui", "gen"))
    # the same without seven pairs (a pong): 22m中 555m 88m中 55p, 222p melded: 将对 4
    assert fan_of("22m555m88m55p中中 222p", RED4) == (4, ("jiangdui",))


def test_best_reading_is_the_best_substitution() -> None:
    """Against every substitution of the 红中 by a tile (counts up to four), scored as a
    plain hand: ours is never lower, and equal where no reading can pass four copies."""
    rng = random.Random(99)
    compared = 0
    for _ in range(4000):
        case = make_case(rng)
        rules = load_rules({"preset": "standard", "suits": case.rules.suits, "hand_size": case.rules.hand_size,
                            "seats": case.rules.seats, "wild_tiles": case.rules.wild_tiles,
                            "two_suit_void": case.rules.two_suit_void})  # fmt: skip
        size = sum(case.concealed) + case.wilds + 3 * len(case.pongs)
        if not case.wilds or case.wilds > 3 or size != rules.hand_size + 1:
            continue
        ours = score_win(case.concealed, case.pongs, (), rules, WinContext(), -1, 0, case.wilds)
        best = None
        kinds = [("mps".index(s)) * 9 + r for s in rules.suits for r in range(9)]
        for chosen in itertools.combinations_with_replacement(kinds, case.wilds):
            counts = list(case.concealed)
            for tile in chosen:
                counts[tile] += 1
            held = list(counts)
            for tile in case.pongs:
                held[tile] += 3
            if max(held) > 4:
                continue
            result = score_win(counts, case.pongs, (), rules)
            if result is not None and (best is None or result.uncapped > best):
                best = result.uncapped
        if best is None:
            continue
        assert ours is not None and ours.uncapped >= best, case
        held = list(case.concealed)
        for tile in case.pongs:
            held[tile] += 3
        if max(held) + case.wilds <= 4:
            assert ours.uncapped == best, case
            compared += 1
    assert compared > 100


def test_sihongzhong_wins_at_once_and_wuhongzhong_adds() -> None:
    first = WinContext(self_draw=True, first_turn=True, dealer=False)
    # a non-dealer's 13 dealt tiles with four 红中: 起手4红中 wins whatever the rest is
    assert fan_of("中中中中123m456m129p", RED4_ROWS, first) == (6, ("sihongzhong",))
    # without the row scored it is a hand of 13 that waits
    report = analyse_hand("中中中中123m456m129p", RED4, first)
    assert not report.is_win
    assert report.waits
    # 无红中: a win holding none at a table that has them, +1 on the row's fan
    assert fan_of("123456789m111p55p", RED4_ROWS) == (2, ("pinghu", "wuhongzhong"))
    assert fan_of("123456789m111p5p中", RED4_ROWS) == (1, ("pinghu",))
    # off in every preset: the same win under standard's rows scores 平胡 alone
    assert fan_of("123456789m111p55p", RED4) == (1, ("pinghu",))


def test_two_suit_void_needs_one_suit_in_the_fan_too() -> None:
    hand = to_counts(parse_tiles("123p456p789s11s"))
    assert score_win(hand, (), (), TEN_PS) is not None
    assert score_win(hand, (), (), TEN_PS_VOID) is None


# --- 查叫 with 红中 -------------------------------------------------------------------------


def test_ready_value_with_hongzhong_is_over_its_suited_waits_at_their_best_reading() -> None:
    # 1133557799m 1p 中中 (13): every wait scores at its best reading; 1m makes
    # 111m+中 = 1111m... : 1p makes 11p and 中中 a pair of 1m (1111m): 龙七对 5; that is the
    # highest (赔大)
    counts, pongs, wilds = hand_of("1133557799m1p中中", RED4)
    assert ready_value(counts, pongs, (), RED4, wilds=wilds) == 5
    lowest = load_rules({"preset": "standard", "wild_tiles": 4, "no_ting_pays": "min"})
    # 赔小: the lowest over the same waits, each at its own best reading: a 筒 tile other
    # than 1p (2p): 中 pairs it, 中 pairs the 1p: 七对 3
    assert ready_value(counts, pongs, (), lowest, wilds=wilds) == 3
    # the text form lists the 红中 last among the waits (a drawn 红中 completes the hand)
    report = analyse_hand("1133557799m1p中中", RED4)
    assert report.waits[-1] == WILD
    assert report.ready_fan == 5


# --- the presets of other tables ------------------------------------------------------------


def test_the_presets_of_other_tables_play_their_hands() -> None:
    hongzhong = load_rules("hongzhong")
    assert (hongzhong.wild_tiles, hongzhong.pattern_fan("sihongzhong")) == (4, 6)
    # 起手4红中 at the dealt hand of a non-dealer: 6 fan, as 天胡
    first = WinContext(self_draw=True, first_turn=True)
    assert fan_of("中中中中123m456m129p", hongzhong, first) == (6, ("sihongzhong",))
    # 三人两房: 筒 and 条, both may be held: 123p 456p 789s 111s 55s is a plain win
    assert fan_of("123p456p789s111s55s", load_rules("sanren")) == (1, ("pinghu",))
    with pytest.raises(HandError, match="suits 'ps'"):
        parse_hand("123m456p789s11s55s", load_rules("sanren"))
    # 十张牌: ten tiles, the winning tile the eleventh; 123p 456p 789s 1s waits on 1s
    duangouka = load_rules("duangouka")
    assert fan_of("123p456p789s11s", duangouka) == (1, ("pinghu",))
    assert wait_names("123p456p789s1s", duangouka) == "1s"
