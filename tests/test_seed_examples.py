"""Every 下叫 (waits) and fan example of seeds 002 and 003, under each of the three presets.

Expected values are worked out by hand from ``docs/rules.md`` (sections 3 and 4,
the fan table) and written next to each case; nothing here is computed by the engine.
Where a seed example is wrong (wrong tile count, or a shape docs/rules.md names differently),
the comment says so and the corrected hand is tested; docs/rules.md wins over the seeds.

Fan tuples are ``(standard, chengdu, online)``. Preset facts used throughout
(docs/presets.md): standard has no cap, chengdu caps at 4 fan, online at 7; chengdu
scores 带幺九 2, 将对 5, 清幺九 4, 金钩钓 3 and has no 龙七对/清龙七对 rows (七对 + 根 instead).

Seed examples that are wrong, each tested as corrected (and as written where meaningful):

* 002 赶场叫 "12345678万，胡369万" is an 8-tile fragment: completed with 123 99筒.
* 002 坎倒板 "2223 678 789万 123 456筒" and "2224 678 789万 123 456筒" are 16 tiles: one set
  is dropped (either 789万 or 456筒; the waits are the same).
* 003 七对 "2244552299万1199筒" holds four 2万: docs/rules.md makes it 龙七对 (chengdu 七对 + 根);
  the corrected 七对 is 2244557799万1199筒.
* 003 清对 "99887755221166筒" is seven pairs, i.e. 清七对; the corrected 清对 is
  999 888 555 222 11筒.
* 003 清幺九 "11123777888999铜": 铜 is a typo for 筒.
* 002's 将对 5番, 清七对 5番 and 清龙七对 6番 exceed chengdu's max_fan of 4 (its own 满格
  rule): under docs/rules.md they score 4, uncapped 5/5/6.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.fan import DISCARD_WIN, WinContext
from engine.hand import HandError, analyse_hand, parse_hand, ready_value
from engine.rules import Rules, load_rules
from engine.score import score_win
from engine.tiles import parse_tiles, to_counts

PRESETS = ("standard", "chengdu", "online")


@dataclass(frozen=True)
class F:
    """Expected fan result: capped fan, the patterns list (base first, then extras), and
    the uncapped fan when the cap cut it."""

    fan: int
    patterns: str
    uncapped: int | None = None


@dataclass(frozen=True)
class WaitCase:
    id: str
    hand: str
    waits: str  # compact form, in tile order
    ready: tuple[int, int, int]  # 查大叫 value (no_ting_pays = max) per preset


@dataclass(frozen=True)
class FanCase:
    id: str
    hand: str
    expect: tuple[F, F, F]
    context: WinContext = field(default=DISCARD_WIN)


def _same(f: F) -> tuple[F, F, F]:
    return (f, f, f)


def _check_fan(hand: str, rules: Rules, expected: F, context: WinContext = DISCARD_WIN) -> None:
    report = analyse_hand(hand, rules, context)
    assert report.is_win, f"{hand} should be a win under {rules.name}"
    assert report.result is not None
    assert report.fan == expected.fan
    assert list(report.patterns) == expected.patterns.split()
    assert report.result.uncapped == (expected.uncapped if expected.uncapped is not None else expected.fan)
    assert report.waits == ()
    assert report.ready_fan is None


# ---------------------------------------------------------------------------------------
# Seed 002, 下叫 (waits)
# ---------------------------------------------------------------------------------------

WAIT_CASES: tuple[WaitCase, ...] = (
    # 卡张 "123 46 万 123 66 789条，胡五万": 66s is the pair, 123s 789s done; 46m lacks 5m.
    # The manzu part (5 tiles) cannot hold the pair, so only 5m.  Win 123 456m 123 66 789s
    # is 平胡: 1 fan everywhere (456m has no terminal, so no 带幺九).
    WaitCase("kazhang", "12346m12366789s", "5m", (1, 1, 1)),
    # 两边梭 "123 567 万 123 56 99条，胡47条": 56s waits 4s (456) or 7s (567); 平胡 1.
    WaitCase("liangbiansuo", "123567m1235699s", "47s", (1, 1, 1)),
    # 边张 "234 66 789万 123 89条，胡7条": 89s can only become 789s; 平胡 1.
    WaitCase("bianzhang", "23466789m12389s", "7s", (1, 1, 1)),
    # 单钓 "123 456 789万，345 7筒，胡7筒": 9 manzu tiles are three sets, so the pinzu part
    # 3457+x must be set + pair: only 77p.  34567p has no pair.  平胡 1 (no 一条龙 in docs/rules.md).
    WaitCase("dandiao", "123456789m3457p", "7p", (1, 1, 1)),
    # 对出叫 "123 567 万 123 55 99条，胡5条和9条": 555s+99 or 55+999s; 平胡 1 either way.
    WaitCase("duichujiao", "123567m1235599s", "59s", (1, 1, 1)),
    # 赶场叫, five tiles "34567万 123 678 99筒，胡258万": 2m 234+567, 5m 345+567, 8m 345+678;
    # 12367899p is already sets + pair, and 34567m has no pair, so no pinzu wait.  平胡 1.
    WaitCase("ganchang-5", "34567m12367899p", "258m", (1, 1, 1)),
    # 赶场叫, seven tiles "1234567万 123 789筒，胡147万": 11+234+567, 123+44+567, 123+456+77.
    # Every other x leaves 8 manzu tiles with no pair that splits (checked rank by rank).
    # 平胡 1 (234/456 have no terminal).
    WaitCase("ganchang-7", "1234567m123789p", "147m", (1, 1, 1)),
    # 赶场叫 "2344567万 123 789筒，也胡147万": 1m 44+123+567, 4m 44+234+567 (three 4m, no
    # root), 7m 77+234+456.  平胡 1.
    WaitCase("ganchang-7b", "2344567m123789p", "147m", (1, 1, 1)),
    # 赶场叫, eight tiles "12345678万，胡369万": the seed gives only an 8-tile fragment; it is
    # completed to 13 tiles with 123 99筒 (already set + pair, so the manzu part must become
    # three sets: 123+345+678, 123+456+678, 123+456+789).  平胡 1 (456m in every reading).
    WaitCase("ganchang-8-completed", "12345678m12399p", "369m", (1, 1, 1)),
    # 坎倒板, adjacent tile.  The seed's "2223 678 789万 123 456筒" is 16 tiles (one set too
    # many); corrected by dropping 789万: 2223678m 123456p.  222+3 waits 3m (单钓), 22+23
    # waits 1m/4m (两边梭), so 1m 3m 4m ("胡14万带3万").  平胡 1 (2m only three copies).
    WaitCase("kandaoban-adjacent-corrected", "2223678m123456p", "134m", (1, 1, 1)),
    # The same seed hand corrected the other way (dropping 456筒 instead): same waits.
    WaitCase("kandaoban-adjacent-corrected-b", "2223678789m123p", "134m", (1, 1, 1)),
    # 坎倒板, gap tile: the seed's "2224 678 789万 123 456筒" is 16 tiles too; corrected to
    # 2224678m 123456p.  222+4 waits 4m, 22+24 waits 3m ("胡3万4万").  平胡 1.
    WaitCase("kandaoban-gap-corrected", "2224678m123456p", "34m", (1, 1, 1)),
    WaitCase("kandaoban-gap-corrected-b", "2224678789m123p", "34m", (1, 1, 1)),
    # 坎倒板, two adjacent tiles "22234 77万 123 456筒" (13 tiles, correct as written):
    # 222+34+77 waits 2m/5m, 22+234+77 waits 2m/7m (对出): "胡25万带7万".
    # Fans: 2m gives 2222m = one root: 222+234+77 平胡 + 根 = 2; 5m and 7m 平胡 1.
    # 查大叫 max over waits = 2 in every preset.
    WaitCase("kandaoban-two", "22234m77m123456p", "257m", (2, 2, 2)),
    # 坎倒板赶场叫 "11123456万 123 55筒，胡147万带5筒": 1m 111+123+456 (1111m: 根),
    # 4m 111+234+456, 7m 111+234+567; 5p 555p with 11+123+456m.  Fans 2,1,1,1: max 2.
    WaitCase("kandaoban-ganchang-1", "11123456m12355p", "147m5p", (2, 2, 2)),
    # 坎倒板赶场叫 "1112345678万 123筒，胡258带369万": 2m 111+22+345+678, 3m 11+123+345+678,
    # 5m 111+234+55+678, 6m 11+123+456+678, 8m 111+234+567+88, 9m 11+123+456+789.
    # 1m/4m/7m split nowhere.  Every win is 平胡 1 (a run without terminal in each reading).
    WaitCase("kandaoban-ganchang-2", "1112345678m123p", "235689m", (1, 1, 1)),
    # 九莲 "1112345678999万（筒、条），胡123456789": every rank of the suit.  Seed: "只算清一色
    # 或清一色带根" — 1m or 9m make four of a kind: 清一色 3 + 根 1 = 4; the others 清一色 3.
    # No 带幺九 reading (4,5,6 sit in runs without 1 or 9).  Max 4 (chengdu: exactly its cap).
    WaitCase("jiulian-m", "1112345678999m", "123456789m", (4, 4, 4)),
    WaitCase("jiulian-p", "1112345678999p", "123456789p", (4, 4, 4)),
    WaitCase("jiulian-s", "1112345678999s", "123456789s", (4, 4, 4)),
    # 金钩钓 "111 333 444万 222 6筒" as a ready hand: four pongs, single 6p.  Win on 6p:
    # standard/online have no 金钩钓 row -> 对对胡 2; chengdu 金钩钓 3.
    WaitCase("jingoudiao-ready", "6p 111m 333m 444m 222p", "6p", (2, 3, 2)),
)


@pytest.mark.parametrize(
    ("case", "preset"),
    [(c, p) for c in WAIT_CASES for p in PRESETS],
    ids=[f"{c.id}-{p}" for c in WAIT_CASES for p in PRESETS],
)
def test_seed_002_waits(case: WaitCase, preset: str) -> None:
    report = analyse_hand(case.hand, load_rules(preset))
    assert not report.is_win
    assert report.fan is None
    assert list(report.waits) == parse_tiles(case.waits)
    assert report.ready_fan == case.ready[PRESETS.index(preset)]


@pytest.mark.parametrize(
    "text",
    [
        "12345678m",  # 赶场叫's 8-tile fragment as the seed writes it
        "2223678789m123456p",  # 坎倒板 (adjacent) as written: 16 tiles
        "2224678789m123456p",  # 坎倒板 (gap) as written: 16 tiles
    ],
)
def test_seed_002_hands_of_the_wrong_size_are_rejected(text: str) -> None:
    with pytest.raises(HandError, match=r"counts (8|16) tiles"):
        parse_hand(text)


# ---------------------------------------------------------------------------------------
# Seed 002 and 003, fan examples
# ---------------------------------------------------------------------------------------

FAN_CASES: tuple[FanCase, ...] = (
    # --- seed 002 ---
    # 平胡 "123 345 789万 234 66筒": 1 fan.
    FanCase("002-pinghu", "123345789m23466p", _same(F(1, "pinghu"))),
    # 大对子 "111 333 444万 222 66筒": 对对胡 2 (not 将对: 1,3,4; not 带幺九: 333).
    FanCase("002-daduizi", "111333444m22266p", _same(F(2, "duiduihu"))),
    # 清一色 "111 234 345 666 88万": 3 (runs, so not 清对; no four of a kind).
    FanCase("002-qingyise", "11123434566688m", _same(F(3, "qingyise"))),
    # 清大对: the seed gives no hand; constructed 111 222 333 999 55万 -> 清对 4 (the
    # 123x3 reading still leaves 55, so no 清幺九).
    FanCase("002-qingdadui-constructed", "11122233399955m", _same(F(4, "qingdui"))),
    # 暗七对 "1133446677万 5588筒": 七对 3 (no regular reading: 3,4 without 5; 6,7 without 5/8).
    FanCase("002-anqidui", "1133446677m5588p", _same(F(3, "qidui"))),
    # 龙七对 "1133446666万 5588筒": 6666m is one root.  standard/online 龙七对 5 consumes it
    # (5 > 七对 3 + 根 1); chengdu has no 龙七对 row: 七对 3 + 根 1 = 4 (seed 002: "4番;×8倍").
    FanCase(
        "002-longqidui",
        "1133446666m5588p",
        (F(5, "longqidui"), F(4, "qidui gen"), F(5, "longqidui")),
    ),
    # 清七对: seed 002 has no hand; seed 003's 11334466778899条 below.  清龙七对 likewise.
    # 金钩钓 "111 333 444万 222 6筒" won on 6筒: four pongs + the pair.  chengdu 金钩钓 3;
    # standard/online do not score it: 对对胡 2.
    FanCase(
        "002-jingoudiao",
        "66p 111m 333m 444m 222p",
        (F(2, "duiduihu"), F(3, "jingoudiao"), F(2, "duiduihu")),
    ),
    # 带幺 "123 123 99万 123 789条": every set and the pair hold a 1 or 9.  带幺九 is 3 in
    # standard/online, 2 in chengdu (the seed's "2番").
    FanCase(
        "002-daiyao",
        "12312399m123789s",
        (F(3, "daiyaojiu"), F(2, "daiyaojiu"), F(3, "daiyaojiu")),
    ),
    # 清带幺: no hand in the seed; constructed 123 123 123 789 99万 (no four of a kind).
    # 清幺九: standard 5, chengdu 4 (the seed's "4番"), online 5.
    FanCase(
        "002-qingdaiyao-constructed",
        "11122233378999m",
        (F(5, "qingdaiyao"), F(4, "qingdaiyao"), F(5, "qingdaiyao")),
    ),
    # 将对 "222 555 88万 222 888筒": 对对胡 of 2/5/8 only.  standard/online 4; chengdu 5, cut
    # to its cap of 4 (docs/rules.md caps every pattern; the seed's "5番" is the uncapped value).
    FanCase(
        "002-jiangdui",
        "22255588m222888p",
        (F(4, "jiangdui"), F(4, "jiangdui", 5), F(4, "jiangdui")),
    ),
    # --- seed 003 ---
    # 平胡 "23445677筒345789条": 234+456+77p, 345+789s: 1.
    FanCase("003-pinghu", "23445677p345789s", _same(F(1, "pinghu"))),
    # 对对胡 "111222444万33399筒": 2 (no 3m, so no run reading).
    FanCase("003-duiduihu", "111222444m33399p", _same(F(2, "duiduihu"))),
    # 清一色 "11333222456999条" (digits unsorted as in the seed): 11 222 333 456 999: 3.
    FanCase("003-qingyise", "11333222456999s", _same(F(3, "qingyise"))),
    # 带幺九 "111222333万78999筒": read as 123x3 + 789 + 99: standard/online 3, chengdu 2.
    FanCase(
        "003-daiyaojiu",
        "111222333m78999p",
        (F(3, "daiyaojiu"), F(2, "daiyaojiu"), F(3, "daiyaojiu")),
    ),
    # 七对 "2244552299万1199筒" — WRONG in the seed: it holds four 2万 (22 + 22), which
    # docs/rules.md makes 龙七对 (four identical tiles count as two pairs and the kind is a
    # root).  As written: standard/online 龙七对 5; chengdu 七对 3 + 根 1 = 4.
    FanCase(
        "003-qidui-as-written",
        "2244552299m1199p",
        (F(5, "longqidui"), F(4, "qidui gen"), F(5, "longqidui")),
    ),
    # Corrected 七对: 2244557799万 1199筒 (second 22 -> 77): 3 everywhere.
    FanCase("003-qidui-corrected", "2244557799m1199p", _same(F(3, "qidui"))),
    # 清对 "99887755221166筒" — WRONG in the seed: it is seven pairs (11 22 55 66 77 88 99),
    # not all triplets; docs/rules.md: 清七对 5 (chengdu 5 cut to 4).  No regular reading: 11 22
    # without a 3 can only be pairs.
    FanCase(
        "003-qingdui-as-written",
        "99887755221166p",
        (F(5, "qingqidui"), F(4, "qingqidui", 5), F(5, "qingqidui")),
    ),
    # Corrected 清对: 999 888 555 222 11筒: 清对 4 everywhere (no 7p, so no 789 runs).
    FanCase("003-qingdui-corrected", "99988855522211p", _same(F(4, "qingdui"))),
    # 将对 "222555888条88855万": 对对胡 of 2/5/8 only: standard/online 4, chengdu 5 -> cap 4.
    FanCase(
        "003-jiangdui",
        "222555888s88855m",
        (F(4, "jiangdui"), F(4, "jiangdui", 5), F(4, "jiangdui")),
    ),
    # 龙七对 "11222244筒557799万": 2222p root consumed by 龙七对 (standard/online 5);
    # chengdu 七对 3 + 根 1 = 4.
    FanCase(
        "003-longqidui",
        "11222244p557799m",
        (F(5, "longqidui"), F(4, "qidui gen"), F(5, "longqidui")),
    ),
    # 清七对 "11334466778899条": 5; chengdu 5 cut to 4.  (678x2 leaves 11 33 44 99: no
    # regular reading.)
    FanCase(
        "003-qingqidui",
        "11334466778899s",
        (F(5, "qingqidui"), F(4, "qingqidui", 5), F(5, "qingqidui")),
    ),
    # 清幺九 "11123777888999铜" (铜 is the seed's typo for 筒): 11+123+789x3: standard/online
    # 5, chengdu 4.
    FanCase(
        "003-qingyaojiu",
        "11123777888999p",
        (F(5, "qingdaiyao"), F(4, "qingdaiyao"), F(5, "qingdaiyao")),
    ),
    # 清龙七对 "11224444557799万": standard/online 6 (root consumed; ties with 清七对 5 + 根
    # go to the later, more specific row); chengdu 清七对 5 + 根 1 = 6, cut to 4.
    FanCase(
        "003-qinglongqidui",
        "11224444557799m",
        (F(6, "qinglongqidui"), F(4, "qingqidui gen", 6), F(6, "qinglongqidui")),
    ),
)


@pytest.mark.parametrize(
    ("case", "preset"),
    [(c, p) for c in FAN_CASES for p in PRESETS],
    ids=[f"{c.id}-{p}" for c in FAN_CASES for p in PRESETS],
)
def test_seed_fan_examples(case: FanCase, preset: str) -> None:
    _check_fan(case.hand, load_rules(preset), case.expect[PRESETS.index(preset)], case.context)


# ---------------------------------------------------------------------------------------
# Extras (docs/rules.md section 4): 根, 杠上花, 杠上炮, 抢杠胡, 海底, 自摸加番, 天胡/地胡, the cap
# ---------------------------------------------------------------------------------------

SELF_DRAW = WinContext(self_draw=True)
BLOOM = WinContext(self_draw=True, after_kong=True)
KONG_DISCARD = WinContext(after_kong=True)
ROB = WinContext(robbing_kong=True)
LAST_DISCARD = WinContext(last_tile=True)
LAST_DRAW = WinContext(self_draw=True, last_tile=True)
TIANHU = WinContext(self_draw=True, first_turn=True, dealer=True)
DIHU = WinContext(self_draw=True, first_turn=True, dealer=False)

EXTRA_CASES: tuple[FanCase, ...] = (
    # 根 in the concealed hand: 1111m read 111+123m, 456 789 99p: 平胡 1 + 根 1 = 2.
    FanCase("gen-in-hand", "111123m45678999p", _same(F(2, "pinghu gen"))),
    # 根 from a pong plus the fourth tile in hand: pong 111m, hand 123m 456 789 99p.
    FanCase("gen-pong-plus-fourth", "123m45678999p 111m", _same(F(2, "pinghu gen"))),
    # 根 from a kong meld: kong 1111m, hand 123 456 789 99p: 平胡 + 根 = 2.
    FanCase("gen-kong-meld", "12345678999p 1111m", _same(F(2, "pinghu gen"))),
    # Three roots (1111 2222 3333m + 44m), also seven pairs.  standard: 清龙七对 6 uses one
    # root, + 2 = 8 (ties 清七对 5 + 3 = 8; the later row wins); online the same, cut to 7;
    # chengdu: 清七对 5 + 3 roots = 8, cut to 4.  The regular reading (清一色 3 + 3) is less.
    FanCase(
        "gen-three-roots",
        "11112222333344m",
        (F(8, "qinglongqidui gen gen"), F(4, "qingqidui gen gen gen", 8), F(7, "qinglongqidui gen gen", 8)),
    ),
    # 龙七对 with two roots 1111 3333m 55 77 99p: standard/online 5 + (2 - 1) = 6; chengdu
    # 七对 3 + 2 = 5, cut to 4 (seed 002: 每多一根翻倍).
    FanCase(
        "longqidui-two-roots",
        "11113333m557799p",
        (F(6, "longqidui gen"), F(4, "qidui gen gen", 5), F(6, "longqidui gen")),
    ),
    # Melds and patterns.  带幺九 with pongs of 1/9: 123 99m + pongs 111m 999p 111p; the pong
    # 111m and the 1m in hand make 1111m (根): standard/online 3 + 1 = 4, chengdu 2 + 1 = 3.
    FanCase(
        "daiyaojiu-with-pongs",
        "12399m 111m 999p 111p",
        (F(4, "daiyaojiu gen"), F(3, "daiyaojiu gen"), F(4, "daiyaojiu gen")),
    ),
    # A pong of 5p breaks 带幺九: 平胡 + 根 (1111m) = 2.
    FanCase("pong-without-terminal", "12399m 111m 999p 555p", _same(F(2, "pinghu gen"))),
    # 将对 from four pongs + 55m: standard/online 4; chengdu 将对 5 (beats 金钩钓 3), cap 4.
    FanCase(
        "jiangdui-melds",
        "55m 222m 888m 222p 555p",
        (F(4, "jiangdui"), F(4, "jiangdui", 5), F(4, "jiangdui")),
    ),
    # ... with a kong 2222m: + 根: standard/online 5, chengdu 6 -> 4.
    FanCase(
        "jiangdui-kong",
        "55m 2222m 888m 222p 555p",
        (F(5, "jiangdui gen"), F(4, "jiangdui gen", 6), F(5, "jiangdui gen")),
    ),
    # 金钩钓 with a kong 1111m: chengdu 3 + 根 = 4; standard/online 对对胡 2 + 根 = 3.
    FanCase(
        "jingoudiao-kong",
        "66p 1111m 333m 444m 222p",
        (F(3, "duiduihu gen"), F(4, "jingoudiao gen"), F(3, "duiduihu gen")),
    ),
    # 杠上花: self-draw on the kong's replacement: 平胡 + 根 (the kong) + 杠上花 = 3.
    # (standard's self_draw_bonus is none, chengdu/online add a base, not a fan.)
    FanCase("gangshanghua", "12345678999p 1111m", _same(F(3, "pinghu gen gangshanghua")), BLOOM),
    # 杠上炮: discard win right after the discarder's kong: 平胡 + 1 = 2.
    FanCase("gangshangpao", "123345789m23466p", _same(F(2, "pinghu gangshangpao")), KONG_DISCARD),
    # 抢杠胡: 平胡 + 1 = 2.
    FanCase("qiangganghu", "123345789m23466p", _same(F(2, "pinghu qiangganghu")), ROB),
    # 海底 is off in every preset: the last tile adds nothing.
    FanCase("haidi-off-discard", "123345789m23466p", _same(F(1, "pinghu")), LAST_DISCARD),
    FanCase("haidi-off-draw", "123345789m23466p", _same(F(1, "pinghu")), LAST_DRAW),
    # A plain self-draw adds no fan in any preset (standard none, chengdu/online add_base).
    FanCase("self-draw-no-fan", "123345789m23466p", _same(F(1, "pinghu")), SELF_DRAW),
    # 天胡 (dealer, first 14 tiles): standard/online 6; chengdu 'cap' = max_fan 4.
    FanCase("tianhu", "123345789m23466p", (F(6, "tianhu"), F(4, "tianhu"), F(6, "tianhu")), TIANHU),
    # 地胡 (non-dealer's first draw): the same numbers.
    FanCase("dihu", "123345789m23466p", (F(6, "dihu"), F(4, "dihu"), F(6, "dihu")), DIHU),
    # 天胡 on a 清对 hand: chengdu's 'cap' 4 ties 清对 4 on total and base fan; decisions.md
    # gives ties to the later row of the table, 天胡.  standard/online 6 beats 4 anyway.
    FanCase(
        "tianhu-ties-qingdui",
        "11122233399955m",
        (F(6, "tianhu"), F(4, "tianhu"), F(6, "tianhu")),
        TIANHU,
    ),
    # 天胡/地胡 need "no pong/kong before" (docs/rules.md section 4): with a kong meld the flag
    # scores nothing more than the self-draw it is: 平胡 + 根 = 2.
    FanCase("tianhu-not-with-melds", "12345678999p 1111m", _same(F(2, "pinghu gen")), TIANHU),
    FanCase("dihu-not-with-melds", "123m45678999p 111m", _same(F(2, "pinghu gen")), DIHU),
    # 天胡 with a root: standard 7, online 7 (= its cap), chengdu 4 + 1 = 5 cut to 4.
    FanCase(
        "tianhu-with-root",
        "111123m45678999p",
        (F(7, "tianhu gen"), F(4, "tianhu gen", 5), F(7, "tianhu gen")),
        TIANHU,
    ),
)


@pytest.mark.parametrize(
    ("case", "preset"),
    [(c, p) for c in EXTRA_CASES for p in PRESETS],
    ids=[f"{c.id}-{p}" for c in EXTRA_CASES for p in PRESETS],
)
def test_extras(case: FanCase, preset: str) -> None:
    _check_fan(case.hand, load_rules(preset), case.expect[PRESETS.index(preset)], case.context)


@pytest.mark.parametrize(
    ("overrides", "hand", "context", "expected"),
    [
        # 海底 only scores where the haidi knob is on: +1, on a discard or a draw.
        ({"haidi": True}, "123345789m23466p", LAST_DISCARD, F(2, "pinghu haidi")),
        ({"haidi": True}, "123345789m23466p", LAST_DRAW, F(2, "pinghu haidi")),
        ({"haidi": True}, "123345789m23466p", DISCARD_WIN, F(1, "pinghu")),
        # 自摸加番 (self_draw_bonus add_fan): +1 on a self-draw, nothing on a discard.
        ({"self_draw_bonus": "add_fan"}, "123345789m23466p", SELF_DRAW, F(2, "pinghu zimo")),
        ({"self_draw_bonus": "add_fan"}, "123345789m23466p", DISCARD_WIN, F(1, "pinghu")),
        # ... and it stacks on 杠上花 (a self-draw): 平胡 + 根 + 杠上花 + 自摸 = 4.
        ({"self_draw_bonus": "add_fan"}, "12345678999p 1111m", BLOOM, F(4, "pinghu gen gangshanghua zimo")),
        # 天胡 is self-drawn, so add_fan applies: 6 + 1 = 7.
        ({"self_draw_bonus": "add_fan"}, "123345789m23466p", TIANHU, F(7, "tianhu zimo")),
        # A cap on standard: 清龙七对 6 cut to 4.
        ({"max_fan": 4}, "11224444557799m", DISCARD_WIN, F(4, "qinglongqidui", 6)),
        # Every extra at once under a cap of 4: 平胡 1 + 根 + 杠上花 + 海底 + 自摸 = 5 -> 4.
        (
            {"max_fan": 4, "haidi": True, "self_draw_bonus": "add_fan"},
            "12345678999p 1111m",
            WinContext(self_draw=True, after_kong=True, last_tile=True),
            F(4, "pinghu gen gangshanghua haidi zimo", 5),
        ),
    ],
)
def test_standard_overrides(overrides: dict[str, Any], hand: str, context: WinContext, expected: F) -> None:
    _check_fan(hand, load_rules({"preset": "standard", **overrides}), expected, context)


def test_chengdu_self_draw_adds_a_base_not_a_fan() -> None:
    # chengdu's self_draw_bonus is add_base (seed 002 自摸加底): the fan stays 1.
    _check_fan("123345789m23466p", load_rules("chengdu"), F(1, "pinghu"), SELF_DRAW)


def test_tianhu_cap_follows_max_fan() -> None:
    # 'cap' is the rule set's max_fan: a chengdu table capped at 6 scores 天胡 6.
    rules = load_rules({"preset": "chengdu", "max_fan": 6})
    _check_fan("123345789m23466p", rules, F(6, "tianhu"), TIANHU)
    # Without any cap, 'cap' is the highest fan of any pattern of the rule set
    # (decisions.md); chengdu's highest rows are 将对 and 清七对, 5 fan.  (chengdu's
    # flower_pig_payment 'cap' needs a max_fan, so it is set to a number here.)
    uncapped = load_rules({"preset": "chengdu", "max_fan": "none", "flower_pig_payment": 16})
    _check_fan("123345789m23466p", uncapped, F(5, "tianhu"), TIANHU)


def test_first_turn_wins_are_self_drawn() -> None:
    with pytest.raises(ValueError, match="self-drawn"):
        WinContext(first_turn=True)


def test_cap_values_per_preset() -> None:
    # The same 清龙七对 with three roots scored on score_win directly: uncapped 8 under
    # standard, 7 under online, 4 under chengdu, and 4 under standard + max_fan 4.
    counts = to_counts(parse_tiles("11112222333344m"))
    fans = {name: score_win(counts, [], [], load_rules(name)) for name in ("standard", "chengdu", "online")}
    assert {k: (v.fan, v.uncapped) for k, v in fans.items() if v} == {
        "standard": (8, 8),
        "chengdu": (4, 8),
        "online": (7, 8),
    }
    capped = score_win(counts, [], [], load_rules({"preset": "standard", "max_fan": 4}))
    assert capped is not None
    assert (capped.fan, capped.uncapped, capped.base) == (4, 8, "qinglongqidui")


# ---------------------------------------------------------------------------------------
# 缺一门 and 查大叫
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_three_suits_is_no_win_and_has_no_waits(preset: str) -> None:
    rules = load_rules(preset)
    # 123m 456p 789s 123s 55s: sets + pair, but three suits (缺一门 is broken).
    report = analyse_hand("123m456p78912355s", rules)
    assert (report.is_win, report.fan, report.patterns) == (False, None, ())
    # Its 13-tile form would wait on 5s (123 55 789s) if it held two suits only ...
    two_suits = analyse_hand("123456m7891235s", rules)
    assert list(two_suits.waits) == parse_tiles("5s")
    assert two_suits.ready_fan == 1
    # ... with a third suit it has no wait and no 查大叫 value.
    three_suits = analyse_hand("123m456p7891235s", rules)
    assert three_suits.waits == ()
    assert three_suits.ready_fan is None
    # Melds count toward the suits: four pongs with 111s as the third suit.
    assert not analyse_hand("99m 111m 999p 111p 111s", rules).is_win
    assert analyse_hand("9m 111m 999p 111p 111s", rules).waits == ()
    # the same hand in two suits (pong 333m instead of 111s) waits on its single 9m
    assert list(analyse_hand("9m 111m 999p 111p 333m", rules).waits) == parse_tiles("9m")


@pytest.mark.parametrize(
    ("hand", "preset", "best", "worst"),
    [
        # 22234m77m 123456p waits 2m (平胡 + 根 = 2), 5m, 7m (1 each).
        ("22234m77m123456p", "standard", 2, 1),
        ("22234m77m123456p", "chengdu", 2, 1),
        # 九莲: 1m/9m give 清一色 + 根 = 4, the other seven 清一色 3.
        ("1112345678999m", "standard", 4, 3),
        ("1112345678999m", "chengdu", 4, 3),
        ("1112345678999m", "online", 4, 3),
        # 11224444557799m less one 9m waits 9m only: 清龙七对 6 (chengdu 清七对 5 + 根 -> 4).
        ("1122444455779m", "standard", 6, 6),
        ("1122444455779m", "chengdu", 4, 4),
        ("1122444455779m", "online", 6, 6),
    ],
)
def test_ready_value_max_and_min(hand: str, preset: str, best: int, worst: int) -> None:
    assert analyse_hand(hand, load_rules(preset)).ready_fan == best
    assert analyse_hand(hand, load_rules({"preset": preset, "no_ting_pays": "min"})).ready_fan == worst


def test_ready_value_ignores_situational_extras() -> None:
    # 查大叫 counts roots and the cap but no 自摸/海底 fan (docs/rules.md section 6).
    hand = parse_hand("22234m77m123456p")
    counts = hand.counts()
    plain = ready_value(counts, hand.pongs, hand.kongs, load_rules("standard"))
    generous = load_rules({"preset": "standard", "self_draw_bonus": "add_fan", "haidi": True})
    assert plain == 2
    assert ready_value(counts, hand.pongs, hand.kongs, generous) == 2
    # A two-suit hand without waits has no value: 12345678m needs 3m/6m/9m to be three sets,
    # but then 13579p is no set + pair; and 8 manzu tiles with no pair never complete.
    assert ready_value(to_counts(parse_tiles("12345678m13579p")), [], [], generous) is None
