"""The golden logs of ``tests/golden/``: every rule feature in a small hand-made deal.

Each expected value below was worked out by hand, with the working in the comment next
to it (multiplier = 2^(fan-1): 1 fan x1, 2 x2, 3 x4, 4 x8, 5 x16, 6 x32, 7 x64). The
logs record the same hand-worked claims, so ``chuanma validate`` reporting every deal
``ok`` means engine and log agree; the comparisons here mean both agree with the paper.
The last tests check that the rules these deals rely on really bite: the same log under
other rules, or with one line added, must give the finding that rule calls for.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from engine.events import Finding
from engine.replay import DealReport
from engine.rules import load_rules
from engine.tiles import tile_name
from ingest.logs.reader import read_lines
from ingest.replay.files import read_log
from ingest.replay.validate import ValidationReport, validate_log

GOLDEN = Path(__file__).parent / "golden"
CHUANMA = Path(sys.executable).parent / "chuanma"

Four = tuple[int, int, int, int]
NONE: Four = (0, 0, 0, 0)


@dataclass(frozen=True)
class Kong:
    seat: int
    kind: str
    deltas: Four


@dataclass(frozen=True)
class Win:
    seat: int
    tile: str
    fan: int
    patterns: tuple[str, ...]
    deltas: Four


@dataclass(frozen=True)
class Expected:
    file: str
    reason: str
    scores: Four
    kongs: tuple[Kong, ...] = ()
    wins: tuple[Win, ...] = ()
    settlement: Four = NONE


# 一炮多响 of 4p by seat 3 in the three kong deals: each winner holds one kong, so
# 平胡 1 + 根 1 (the kong's four tiles) = 2 fan -> x2 from seat 3.
#   seat 0: 123s 789p 456p 55p + 暗杠 9999s; seat 1: 345m 678m 234p 99m + 直杠 2222m;
#   seat 2: 234s 567s 111p 44p + 弯杠 8888s.
KONG_WINS = (
    Win(0, "4p", 2, ("pinghu", "gen"), (2, 0, 0, -2)),
    Win(1, "4p", 2, ("pinghu", "gen"), (0, 2, 0, -2)),
    Win(2, "4p", 2, ("pinghu", "gen"), (0, 0, 2, -2)),
)
# 暗杠 9s by seat 0 before its first discard: concealed_kong_each 2 from seats 1, 2, 3
# (2 in every preset).
CONCEALED_9S = Kong(0, "concealed", (6, -2, -2, -2))

EXPECTED: dict[str, Expected] = {
    # ---------------------------------------------------------------- kongs, standard
    "kongs-standard-1": Expected(
        "kongs_standard.jsonl",
        "three_won",
        kongs=(
            CONCEALED_9S,
            # 直杠 2m off seat 0's discard, standard: the discarder pays 1, others 0
            Kong(1, "exposed", (-1, 1, 0, 0)),
            # 弯杠 8s drawn this turn: added_kong_each 1 from each other seat still in (0, 1, 3)
            Kong(2, "added", (-1, -1, 3, -1)),
        ),
        wins=KONG_WINS,
        # seat 0: +6 -1 -1 +2 = 6; seat 1: -2 +1 -1 +2 = 0; seat 2: -2 +3 +2 = 3;
        # seat 3: -2 -1 -6 = -9
        scores=(6, 0, 3, -9),
    ),
    # ---------------------------------------------------------------- kongs, chengdu
    "kongs-chengdu-1": Expected(
        "kongs_chengdu.jsonl",
        "three_won",
        kongs=(
            CONCEALED_9S,
            # 直杠 chengdu: exposed_kong_discarder 2, others 0
            Kong(1, "exposed", (-2, 2, 0, 0)),
            # 弯杠 of the 8s drawn this very turn: added_kong_same_turn_only is met, 1 each
            Kong(2, "added", (-1, -1, 3, -1)),
        ),
        wins=KONG_WINS,  # 2 fan is under chengdu's cap of 4
        # seat 0: 6 -2 -1 +2 = 5; seat 1: -2 +2 -1 +2 = 1; seat 2: -2 +3 +2 = 3; seat 3: -2 -1 -6 = -9
        scores=(5, 1, 3, -9),
    ),
    "kongs-chengdu-2": Expected(
        "kongs_chengdu.jsonl",
        "three_won",
        kongs=(
            CONCEALED_9S,
            Kong(1, "exposed", (-2, 2, 0, 0)),
            # 弯杠 of an 8s held since the pong, declared on a turn that drew 4p:
            # added_kong_same_turn_only (seed 002) -> it earns nothing
            Kong(2, "added", NONE),
        ),
        wins=KONG_WINS,
        # seat 0: 6 -2 +2 = 6; seat 1: -2 +2 +2 = 2; seat 2: -2 +0 +2 = 0; seat 3: -2 -6 = -8
        scores=(6, 2, 0, -8),
    ),
    # ---------------------------------------------------------------- kongs, online (定缺 m s m p)
    "kongs-online-1": Expected(
        "kongs_online.jsonl",
        "three_won",
        kongs=(
            CONCEALED_9S,
            # 直杠 online: discarder seat 0 pays 2, each other seat still in (2, 3) pays 1 (家家有)
            Kong(1, "exposed", (-2, 4, -1, -1)),
            Kong(2, "added", (-1, -1, 3, -1)),
        ),
        wins=KONG_WINS,
        # seat 0: 6 -2 -1 +2 = 5; seat 1: -2 +4 -1 +2 = 3; seat 2: -2 -1 +3 +2 = 2;
        # seat 3: -2 -1 -1 -6 = -10
        scores=(5, 3, 2, -10),
    ),
    # ---------------------------------------------------------------- 抢杠胡
    "rob-kong-1": Expected(
        "rob_kong.jsonl",
        "three_won",
        # seat 1's 弯杠 5s is robbed: void, earns nothing (刮风下雨无效)
        kongs=(Kong(1, "added", NONE),),
        wins=(
            # seat 3 robs 5s: 123m 456m 789m 345s 77s, 平胡 1 + 抢杠胡 1 = 2 fan -> x2,
            # paid by the konger like a discard
            Win(3, "5s", 2, ("pinghu", "qiangganghu"), (0, -2, 0, 2)),
            # the next draw is seat 0's (first seat after the winner); its 6p is won twice:
            # seat 1: 555s (the pong stands again) 123p 789p 678p 11s, 平胡 1 -> x1
            Win(1, "6p", 1, ("pinghu",), (-1, 1, 0, 0)),
            # seat 2: 234p 345p 456p 456p 99p, 清一色 3 + 根 (four 4p) 1 = 4 -> x8
            Win(2, "6p", 4, ("qingyise", "gen"), (-8, 0, 8, 0)),
        ),
        # seat 0: -1 -8 = -9; seat 1: -2 +1 = -1; seat 2: 8; seat 3: 2
        scores=(-9, -1, 8, 2),
    ),
    # ---------------------------------------------------------------- 杠上花 after each kong kind
    "kong-bloom-1": Expected(
        "kong_bloom.jsonl",
        "three_won",
        kongs=(
            Kong(0, "concealed", (6, -2, -2, -2)),  # 暗杠 1m: 2 from each of 1, 2, 3
            Kong(1, "exposed", (0, 1, -1, 0)),  # 直杠 5p off seat 2: the discarder pays 1
            Kong(2, "added", (0, 0, 1, -1)),  # 弯杠 9m: only seat 3 is still in to pay 1
        ),
        wins=(
            # every bloom: 平胡 1 + 根 (the kong) 1 + 杠上花 1 = 3 fan -> x4 from each seat still in
            Win(0, "9p", 3, ("pinghu", "gen", "gangshanghua"), (12, -4, -4, -4)),  # 1111m 234m 567m 999p 88m
            # after the exposed kong: kong_bloom_after_exposed self_draw -> seats 2 and 3 pay
            Win(1, "8p", 3, ("pinghu", "gen", "gangshanghua"), (0, 8, -4, -4)),  # 5555p 123s 456s 888p 77s
            Win(2, "1s", 3, ("pinghu", "gen", "gangshanghua"), (0, 0, 4, -4)),  # 9999m 234m 567m 111s 99s
        ),
        # seat 0: 6 +12 = 18; seat 1: -2 -4 +1 +8 = 3; seat 2: -2 -4 -1 -4 +1 +4 = -6;
        # seat 3: -2 -4 -4 -1 -4 = -15
        scores=(18, 3, -6, -15),
    ),
    "kong-bloom-discard-1": Expected(
        "kong_bloom_exposed_discard.jsonl",  # chengdu + kong_bloom_after_exposed: discard
        "three_won",
        kongs=(
            Kong(0, "concealed", (6, -2, -2, -2)),
            Kong(1, "exposed", (0, 2, -2, 0)),  # chengdu 直杠: the discarder pays 2
            Kong(2, "added", (0, 0, 1, -1)),  # the 9m was drawn this turn: it earns
        ),
        wins=(
            # 3 fan (under the cap of 4) -> x4, plus 自摸加底 1 from each payer: 5 each
            Win(0, "9p", 3, ("pinghu", "gen", "gangshanghua"), (15, -5, -5, -5)),
            # bloom after the exposed kong counts as a discard: seat 2, who fed the kong,
            # pays x4 alone and no 自摸加底 (docs/decisions.md); the fan keeps 杠上花
            Win(1, "8p", 3, ("pinghu", "gen", "gangshanghua"), (0, 4, -4, 0)),
            Win(2, "1s", 3, ("pinghu", "gen", "gangshanghua"), (0, 0, 5, -5)),  # seat 3: 4 + 1
        ),
        # seat 0: 6 +15 = 21; seat 1: -2 -5 +2 +4 = -1; seat 2: -2 -5 -2 -4 +1 +5 = -7;
        # seat 3: -2 -5 -1 -5 = -13
        scores=(21, -1, -7, -13),
    ),
    # ---------------------------------------------------------------- 杠上炮 + 呼叫转移
    "gangshangpao-1": Expected(
        "kong_discard_transfer.jsonl",
        "three_won",
        kongs=(Kong(0, "concealed", (6, -2, -2, -2)),),  # 暗杠 9p: the kong earns 6
        wins=(
            # seat 0 discards 5s after its kong's replacement draw; seats 1 and 3 win it.
            # seat 1: 123m 456m 789m 345s 99s, 平胡 1 + 杠上炮 1 = 2 fan -> 2, plus the
            # kong's income 6 handed on (呼叫转移) = 8
            Win(1, "5s", 2, ("pinghu", "gangshangpao"), (-8, 8, 0, 0)),
            # seat 3: 111p 333p 666s 555s 88s, 对对胡 2 + 杠上炮 1 = 3 -> 4, + 6 again = 10
            Win(3, "5s", 3, ("duiduihu", "gangshangpao"), (-10, 0, 0, 10)),
            # seat 3 is the winner furthest from the discarder, so seat 0 draws next; its
            # 6s is an ordinary discard: seat 2, 234p 567p 888p 678s 22s, 平胡 1 -> x1
            Win(2, "6s", 1, ("pinghu",), (-1, 0, 1, 0)),
        ),
        # seat 0: 6 -8 -10 -1 = -13; seat 1: -2 +8 = 6; seat 2: -2 +1 = -1; seat 3: -2 +10 = 8
        scores=(-13, 6, -1, 8),
    ),
    # ---------------------------------------------------------------- 一炮多响 (chengdu)
    "multiple-hu-1": Expected(
        "multiple_hu.jsonl",
        "three_won",
        wins=(
            Win(1, "5p", 1, ("pinghu",), (-1, 1, 0, 0)),  # 123m 456m 789m 456p 99p
            Win(2, "5p", 2, ("duiduihu",), (-2, 0, 2, 0)),  # 222s 555s 888s 555p 66p (66p: no 将对)
            # 11p 22p 33p 55p 77p 88p 99p: 清七对 5 fan, capped at chengdu's max_fan 4 -> x8
            Win(3, "5p", 4, ("qingqidui",), (-8, 0, 0, 8)),
        ),
        scores=(-11, 1, 2, 8),  # seat 0 pays 1 + 2 + 8
    ),
    # ---------------------------------------------------------------- 天胡 地胡
    "tianhu-standard-1": Expected(
        "tianhu_dihu.jsonl",
        "three_won",
        wins=(
            # dealer's 14 tiles 123s 456s 789s 123p 55p: 天胡 6 fan -> x32 from each of 3
            Win(0, "5p", 6, ("tianhu",), (96, -32, -32, -32)),
            # seat 1's first draw 4m: 123m 123m 44m 456p 789p, 地胡 6 -> x32 from 2 and 3
            Win(1, "4m", 6, ("dihu",), (0, 64, -32, -32)),
            # seat 2's first draw 9m: 555m 567m 66m 888m 999m: 地胡 6 beats 清一色 3;
            # + 根 (four 5m) = 7 fan -> x64 from seat 3
            Win(2, "9m", 7, ("dihu", "gen"), (0, 0, 64, -64)),
        ),
        # seat 1: -32 +64 = 32; seat 2: -32 -32 +64 = 0; seat 3: -32 -32 -64 = -128
        scores=(96, 32, 0, -128),
    ),
    "tianhu-chengdu-1": Expected(
        "tianhu_dihu.jsonl",
        "three_won",
        wins=(
            # chengdu: 天胡/地胡 are "cap" = max_fan 4 -> x8, plus 自摸加底 1 = 9 per payer
            Win(0, "5p", 4, ("tianhu",), (27, -9, -9, -9)),
            Win(1, "4m", 4, ("dihu",), (0, 18, -9, -9)),
            # 地胡 4 + 根 1 = 5 beats 清一色 3 + 根 1 = 4; capped at 4 -> 8 + 1
            Win(2, "9m", 4, ("dihu", "gen"), (0, 0, 9, -9)),
        ),
        # seat 1: -9 +18 = 9; seat 2: -9 -9 +9 = -9; seat 3: -27
        scores=(27, 9, -9, -27),
    ),
    # ---------------------------------------------------------------- 海底 (haidi on)
    "haidi-self-draw": Expected(
        "haidi.jsonl",
        "wall_exhausted",
        # seat 3 draws the wall's last tile 5p: 123m 456m 789m 123p 55p, 平胡 1 + 海底 1 = 2
        # -> x2 from each of seats 0, 1, 2
        wins=(Win(3, "5p", 2, ("pinghu", "haidi"), (-2, -2, -2, 6)),),
        # 查叫 among 0, 1, 2: none ready (odd or even ranks only, no set), none holds
        # three suits -> nothing to settle
        scores=(-2, -2, -2, 6),
    ),
    "haidi-discard": Expected(
        "haidi.jsonl",
        "wall_exhausted",
        # seat 3 discards the last tile 5p; seat 1 wins it: 平胡 1 + 海底 1 = 2 -> x2
        wins=(Win(1, "5p", 2, ("pinghu", "haidi"), (0, 2, 0, -2)),),
        scores=(0, 2, 0, -2),
    ),
    # ---------------------------------------------------------------- 最后四张
    "last-four-1": Expected(
        "last_four.jsonl",
        "wall_exhausted",
        # seat 1 (waits only 5p) passes seat 3's 5p on draw 51, then wins seat 0's 5p on
        # draw 52 (the fourth-last tile) although it has not drawn since: the pass rule
        # does not apply to the last four. 平胡 1 -> x1 from seat 0.
        wins=(Win(1, "5p", 1, ("pinghu",), (-1, 1, 0, 0)),),
        scores=(-1, 1, 0, 0),  # 查叫 among 0, 2, 3: none ready, no 花猪
    ),
    # ---------------------------------------------------------------- 查花猪 + 查大叫 + 退税
    "cha-jiao-1": Expected(
        "cha_jiao.jsonl",
        "wall_exhausted",
        kongs=(
            Kong(3, "exposed", (-1, 0, 0, 1)),  # 直杠 7m off seat 0: the discarder pays 1
            Kong(2, "concealed", (-2, -2, 6, -2)),  # 暗杠 9p: 2 from each of 0, 1, 3
        ),
        # At the empty wall all four are in:
        #   seat 0: 123m 456m 99m 111p 23p, ready on 1p (平胡 + 根 four 1p = 2 fan) or 4p (1);
        #   seat 1: 123s 456s 789s 5567s, ready on 5s (清一色 3 + 根 four 5s = 4) or 8s (3);
        #   seat 2: 1p 444p 6p 888s 2s 6s + 暗杠 9p: two suits, not ready;
        #   seat 3: 88m 99m 47p 1359s + 直杠 7m: three suits, a 花猪.
        # 查花猪: seat 3 pays 16 to each of 0, 1, 2         -> (16, 16, 16, -48)
        # 查大叫 (赔大, max): seat 2 pays seat 0 2^(2-1) = 2 and seat 1 2^(4-1) = 8 -> (2, 8, -10, 0)
        # 退税: not ready seats 2 and 3 return their kongs: seat 2 gives back 2 to each of
        #   0, 1, 3 -> (2, 2, -6, 2); seat 3 (a 花猪 too) gives seat 0 its 1 -> (1, 0, 0, -1)
        # settlement: seat 0 16+2+2+1 = 21; seat 1 16+8+2 = 26; seat 2 16-10-6 = 0;
        #   seat 3 -48+2-1 = -47
        settlement=(21, 26, 0, -47),
        # scores = kongs + settlement: 21-1-2 = 18; 26-2 = 24; 0+6 = 6; -47+1-2 = -48
        scores=(18, 24, 6, -48),
    ),
    # ---------------------------------------------------------------- 退税 less the 呼叫转移
    "refund-after-transfer-1": Expected(
        "refund_after_transfer.jsonl",
        "wall_exhausted",
        kongs=(
            Kong(1, "concealed", (-2, 6, -2, -2)),  # 暗杠 9s: 2 from each of 0, 2, 3
            Kong(1, "exposed", (-1, 1, 0, 0)),  # 直杠 9m off seat 0: the discarder pays 1
        ),
        # seat 1 throws the 直杠's replacement 4p; seat 2 (123p 789p 456p 111s 44s) wins:
        # 平胡 1 + 杠上炮 1 = 2 fan -> 2, + that kong's income 1 handed on = 3
        wins=(Win(2, "4p", 2, ("pinghu", "gangshangpao"), (0, -3, 3, 0)),),
        # At the empty wall 0, 1 and 3 are in:
        #   seat 0: 123m 456m 78m 11m 555p, ready on 6m or 9m: 平胡 1 fan;
        #   seat 1: 2468s 357m + 暗杠 9999s + 直杠 999m: two suits, not ready;
        #   seat 3: 1m 22m 666m 8m 33s 55s 77s: two suits, not ready.
        # 查大叫: seats 1 and 3 each pay seat 0 2^0 = 1           -> (2, -1, 0, -1)
        # 退税: seat 1 returns the 暗杠's 2 to each of 0, 2, 3     -> (2, -6, 2, 2)
        #   (seat 2 has won, and still gets its 2 back); the 直杠's 1 was all handed on
        #   to seat 2 by 呼叫转移, so nothing of it is left to return.
        # settlement: (4, -7, 2, 1)
        settlement=(4, -7, 2, 1),
        # seat 0: -2 -1 +4 = 1; seat 1: 6 +1 -3 -7 = -3; seat 2: -2 +3 +2 = 3; seat 3: -2 +1 = -1
        scores=(1, -3, 3, -1),
    ),
    # ---------------------------------------------------------------- 死叫 (dead_wait_counts false)
    "dead-wait-1": Expected(
        "dead_wait.jsonl",
        "wall_exhausted",
        # seat 2 (123456789p 234s 9s) waits only 9s, and all four 9s are visible to it:
        # its own one and seat 1's pong of the other three. With dead_wait_counts false it
        # is not ready. Seat 3 (1234555667789m) is ready: 5m is 清一色 3 + 根 1 = 4 fan
        # (the fourth 5m is in seat 0's hand, unseen by seat 3), 8m 3 fan -> max 4.
        # 查大叫: seats 0, 1 and 2, not ready, each pay seat 3 2^(4-1) = 8. No kongs, no 花猪.
        settlement=(-8, -8, -8, 24),
        scores=(-8, -8, -8, 24),
    ),
    "dead-wait-2": Expected(
        "dead_wait.jsonl",
        "wall_exhausted",
        # Same hands; seat 0 throws 5m first, so seat 3's 5m wait (4 fan) is dead: its own
        # three and that one on the table. Its 8m wait (清一色 3 fan) stays live: seat 0
        # holds 888m. At the empty wall:
        #   seat 0: 12m 888m 11s 33s 5s 77s 9s, two suits, not ready;
        #   seat 1: 224466m 2468s 99s 1p, three suits: a 花猪;
        #   seat 2: 123456789p 234s 9s, ready on 9s (seats 0 and 1 hold the others,
        #     unseen by seat 2): 平胡 1 fan;
        #   seat 3: ready by 8m only, so 3 fan: a dead wait sets no value either.
        # 查花猪: seat 1 pays 16 to each of 0, 2, 3    -> (16, -48, 16, 16)
        # 查大叫: seat 0 pays seat 2 2^0 = 1, seat 3 2^2 = 4 -> (-5, 0, 1, 4)
        settlement=(11, -48, 17, 20),
        scores=(11, -48, 17, 20),
    ),
    # ---------------------------------------------------------------- first_hu
    "first-hu-ron": Expected(
        "first_hu.jsonl",
        "first_hu",
        wins=(
            # seat 0's first discard 5p is won by two seats; both count, then the deal ends
            Win(1, "5p", 1, ("pinghu",), (-1, 1, 0, 0)),  # 123m 456m 789m 456p 11p
            Win(3, "5p", 3, ("qidui",), (-4, 0, 0, 4)),  # 11s 22s 33s 55p 66p 77p 88p: 七对 3 -> x4
        ),
        scores=(-5, 1, 0, 4),
    ),
    "first-hu-tsumo": Expected(
        "first_hu.jsonl",
        "first_hu",
        # the dealer's second draw 4p: 123m 456m 789m 234p 55p, 平胡 1, self-draw with
        # self_draw_bonus none -> 1 from each of 1, 2, 3; the deal ends at once
        wins=(Win(0, "4p", 1, ("pinghu",), (3, -1, -1, -1)),),
        scores=(3, -1, -1, -1),
    ),
    # ---------------------------------------------------------------- 自摸加底 (chengdu)
    "zimo-add-base-1": Expected(
        "self_draw_bonus.jsonl",
        "three_won",
        wins=(
            # 123m 456m 789m 234p 55p: 平胡 1 -> 1 + 1 (加底) from each of 0, 2, 3
            Win(1, "4p", 1, ("pinghu",), (-2, 6, -2, -2)),
            # 111s 333s 555s 999p 77p: 对对胡 2 -> 2 + 1 from each of 0, 3
            Win(2, "9p", 2, ("duiduihu",), (-3, 0, 6, -3)),
            # 222m 345m 678m 999m 44m: 清一色 3 -> 4 + 1 from seat 0
            Win(3, "9m", 3, ("qingyise",), (-5, 0, 0, 5)),
        ),
        # seat 0: -2 -3 -5 = -10; seat 2: -2 +6 = 4; seat 3: -2 -3 +5 = 0
        scores=(-10, 6, 4, 0),
    ),
    # ---------------------------------------------------------------- 自摸加番 (standard + add_fan)
    "zimo-add-fan-1": Expected(
        "self_draw_bonus.jsonl",
        "three_won",
        wins=(
            Win(1, "4p", 2, ("pinghu", "zimo"), (-2, 6, -2, -2)),  # 1 + 1 = 2 fan -> 2 each
            Win(2, "9p", 3, ("duiduihu", "zimo"), (-4, 0, 8, -4)),  # 2 + 1 = 3 -> 4 each
            Win(3, "9m", 4, ("qingyise", "zimo"), (-8, 0, 0, 8)),  # 3 + 1 = 4 -> 8
        ),
        # seat 0: -2 -4 -8 = -14; seat 2: -2 +8 = 6; seat 3: -2 -4 +8 = 2
        scores=(-14, 6, 6, 2),
    ),
    # ---------------------------------------------------------------- 定缺 (online)
    "void-online-1": Expected(
        "void_online.jsonl",
        "three_won",
        # voids m, m, m, p: seats 0, 1, 2 each discard their one m first (9m, 1m, 2m) and
        # win void-free; seat 3 (void p) draws 5p and throws it, won by all three:
        wins=(
            Win(0, "5p", 1, ("pinghu",), (1, 0, 0, -1)),  # 123s 456s 789s 456p 99p
            Win(1, "5p", 1, ("pinghu",), (0, 1, 0, -1)),  # 345p 678p 111s 222s 99s
            Win(2, "5p", 2, ("duiduihu",), (0, 0, 2, -2)),  # 333p 555p 777p 888s 66s
        ),
        scores=(1, 1, 2, -4),
    ),
    # ---------------------------------------------------------------- 换三张 (clockwise: to seat s+3)
    "exchange-three-1": Expected(
        "exchange_three.jsonl",
        "three_won",
        wins=(
            # seat 1 gets seat 2's 467s: 123m 456m 789m 456s 77s, 平胡 1
            Win(1, "5s", 1, ("pinghu",), (-1, 1, 0, 0)),
            # seat 2 gets seat 3's 888p: 111p 222p 888p 555s 99s, 对对胡 2 -> x2
            Win(2, "5s", 2, ("duiduihu",), (-2, 0, 2, 0)),
            # seat 3 gets seat 0's 666s: 111s 234s 345s 666s 88s, 清一色 3 -> x4
            Win(3, "5s", 3, ("qingyise",), (-4, 0, 0, 4)),
        ),
        scores=(-7, 1, 2, 4),
    ),
    # ---------------------------------------------------------------- 过水不胡
    # Seat 3 holds 123m 456m 99m 111p 23p: 1p wins 平胡 + 根 (four 1p) = 2 fan, 4p wins 1.
    # The closing 7s from seat 0: seat 1 123s 456s 789s 999p 88p 平胡 1; seat 2
    # 555p 666p 333s 777s 22s 对对胡 2.
    "pass-any-1": Expected(
        "pass_rule.jsonl",
        "three_won",
        wins=(
            # passed 4p (1 fan), barred from seat 1's 4p (any, not more fan), then wins
            # seat 2's 1p: 2 fan > 1 passed, pass_rule_higher_fan_ok -> allowed; x2
            Win(3, "1p", 2, ("pinghu", "gen"), (0, 0, -2, 2)),
            Win(1, "7s", 1, ("pinghu",), (-1, 1, 0, 0)),
            Win(2, "7s", 2, ("duiduihu",), (-2, 0, 2, 0)),
        ),
        scores=(-3, 1, 0, 2),
    ),
    "pass-same-tile-1": Expected(
        "pass_rule.jsonl",
        "three_won",
        # same events under chengdu (same_tile): the 4p after the pass is barred (the same
        # tile), the 1p is allowed because it is another tile (higher fan does not count here)
        wins=(
            Win(3, "1p", 2, ("pinghu", "gen"), (0, 0, -2, 2)),
            Win(1, "7s", 1, ("pinghu",), (-1, 1, 0, 0)),
            Win(2, "7s", 2, ("duiduihu",), (-2, 0, 2, 0)),
        ),
        scores=(-3, 1, 0, 2),
    ),
    "pass-same-tile-2": Expected(
        "pass_rule.jsonl",
        "three_won",
        wins=(
            # passes seat 0's 1p (2 fan), then wins seat 1's 4p (1 fan, less) before its
            # own draw: allowed under same_tile only; x1 from seat 1
            Win(3, "4p", 1, ("pinghu",), (0, -1, 0, 1)),
            Win(1, "7s", 1, ("pinghu",), (-1, 1, 0, 0)),
            Win(2, "7s", 2, ("duiduihu",), (-2, 0, 2, 0)),
        ),
        # seat 0: -1 -2 = -3; seat 1: -1 +1 = 0; seat 2: 2; seat 3: 1
        scores=(-3, 0, 2, 1),
    ),
    "pass-no-higher-1": Expected(
        "pass_rule.jsonl",
        "three_won",
        wins=(
            # pass_rule any without the higher-fan exception: 4p and 1p are both barred
            # until seat 3 draws (5s); then seat 0's next 4p is won: 平胡 1 -> x1
            Win(3, "4p", 1, ("pinghu",), (-1, 0, 0, 1)),
            Win(1, "7s", 1, ("pinghu",), (-1, 1, 0, 0)),
            Win(2, "7s", 2, ("duiduihu",), (-2, 0, 2, 0)),
        ),
        scores=(-4, 1, 2, 1),
    ),
    # ---------------------------------------------------------------- 血流成河 (bloody_flow)
    # Seat 1 holds 123456789m 11p 46p (waits 5p: 平胡 1), seat 3 112233s 667788p 5p (七对 3);
    # seat 0 (22m 3399p 4567899s: three suits) and seat 2 (35779m 12246889s: two suits, not
    # ready) never win. Every winning 5p is laid aside and the winners play on.
    "bloody-flow-standard-1": Expected(
        "bloody_flow.jsonl",
        "wall_exhausted",
        wins=(
            Win(1, "5p", 1, ("pinghu",), (-1, 1, 0, 0)),  # seat 0's 5p: x1
            Win(3, "5p", 3, ("qidui",), (-4, 0, 0, 4)),  # the same 5p (一炮多响): x4
            # seat 1 self-draws a 5p on a later turn (a second win, no 地胡): all three pay x1,
            # seat 3 too, since a winner stays in
            Win(1, "5p", 1, ("pinghu",), (-1, 3, -1, -1)),
            Win(1, "5p", 1, ("pinghu",), (0, 1, -1, 0)),  # seat 2's 5p: x1
            Win(3, "5p", 3, ("qidui",), (0, 0, -4, 4)),  # and seat 3's third win: x4
        ),
        # 查叫 among seats 0 and 2 only: seat 0 (花猪) pays seat 2 (no 花猪) 16; seat 2 is not
        # ready and nobody is, so no 查大叫; no kongs, so no 退税
        settlement=(-16, 0, 16, 0),
        # seat 0: -1 -4 -1 -16 = -22; seat 1: 1 +3 +1 = 5; seat 2: -1 -1 -4 +16 = 10;
        # seat 3: 4 -1 +4 = 7
        scores=(-22, 5, 10, 7),
    ),
    "bloody-flow-chengdu-1": Expected(
        "bloody_flow.jsonl",
        "wall_exhausted",
        wins=(
            Win(1, "5p", 1, ("pinghu",), (-1, 1, 0, 0)),
            Win(3, "5p", 3, ("qidui",), (-4, 0, 0, 4)),
            Win(1, "5p", 1, ("pinghu",), (-2, 6, -2, -2)),  # 自摸加底: x1 + 1 base from each
            Win(1, "5p", 1, ("pinghu",), (0, 1, -1, 0)),
            Win(3, "5p", 3, ("qidui",), (0, 0, -4, 4)),
        ),
        settlement=(-8, 0, 8, 0),  # 花猪 pays 满格: the multiplier of max_fan 4, 2^3 = 8
        # seat 0: -1 -4 -2 -8 = -15; seat 1: 1 +6 +1 = 8; seat 2: -2 -1 -4 +8 = 1;
        # seat 3: 4 -2 +4 = 6
        scores=(-15, 8, 1, 6),
    ),
}

#: session_end.totals: the sum of the session's deal scores
TOTALS: dict[str, Four] = {
    "golden-kongs-standard": (6, 0, 3, -9),
    "golden-bloody-flow-standard": (-22, 5, 10, 7),
    "golden-bloody-flow-chengdu": (-15, 8, 1, 6),
    "golden-kongs-chengdu": (11, 3, 3, -17),  # (5, 1, 3, -9) + (6, 2, 0, -8)
    "golden-kongs-online": (5, 3, 2, -10),
    "golden-rob-kong": (-9, -1, 8, 2),
    "golden-kong-bloom": (18, 3, -6, -15),
    "golden-kong-bloom-discard": (21, -1, -7, -13),
    "golden-gangshangpao": (-13, 6, -1, 8),
    "golden-multiple-hu": (-11, 1, 2, 8),
    "golden-tianhu-standard": (96, 32, 0, -128),
    "golden-tianhu-chengdu": (27, 9, -9, -27),
    "golden-haidi": (-2, 0, -2, 4),  # (-2, -2, -2, 6) + (0, 2, 0, -2)
    "golden-last-four": (-1, 1, 0, 0),
    "golden-cha-jiao": (18, 24, 6, -48),
    "golden-refund-after-transfer": (1, -3, 3, -1),
    "golden-dead-wait": (3, -56, 9, 44),  # (-8, -8, -8, 24) + (11, -48, 17, 20)
    "golden-first-hu": (-2, 0, -1, 3),  # (-5, 1, 0, 4) + (3, -1, -1, -1)
    "golden-zimo-add-base": (-10, 6, 4, 0),
    "golden-zimo-add-fan": (-14, 6, 6, 2),
    "golden-void-online": (1, 1, 2, -4),
    "golden-exchange-three": (-7, 1, 2, 4),
    "golden-pass-any": (-3, 1, 0, 2),
    "golden-pass-same-tile": (-6, 1, 2, 3),  # (-3, 1, 0, 2) + (-3, 0, 2, 1)
    "golden-pass-no-higher": (-4, 1, 2, 1),
}


def load_builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_golden", GOLDEN / "build_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def validated(name: str) -> ValidationReport:
    return validate_log(read_log(GOLDEN / name))


def deal_report(deal_id: str) -> DealReport:
    expected = EXPECTED[deal_id]
    return next(d for d in validated(expected.file).deals if d.deal_id == deal_id)


def golden_files() -> list[str]:
    return sorted(p.name for p in GOLDEN.glob("*.jsonl"))


def test_the_builder_writes_the_goldens_byte_for_byte() -> None:
    texts: dict[str, str] = load_builder().golden_texts()
    assert sorted(texts) == golden_files()
    for name, text in texts.items():
        assert (GOLDEN / name).read_bytes() == text.encode("utf-8"), (
            f"{name}: rerun tests/golden/build_golden.py"
        )


def test_every_golden_deal_has_hand_worked_values() -> None:
    deal_ids = [d.deal_id for name in golden_files() for d in validated(name).deals]
    assert sorted(deal_ids) == sorted(EXPECTED)
    sessions = [s.session_id for name in golden_files() for s in validated(name).sessions]
    assert sorted(s for s in sessions if s is not None) == sorted(TOTALS)


@pytest.mark.parametrize("deal_id", sorted(EXPECTED))
def test_golden_deal(deal_id: str) -> None:
    expected = EXPECTED[deal_id]
    report = deal_report(deal_id)
    assert report.findings == [], [f.message for f in report.findings]
    assert report.status == "ok" and report.complete
    assert report.end_reason == expected.reason
    assert [(k.seat, k.kind, k.deltas) for k in report.kongs] == [
        (k.seat, k.kind, k.deltas) for k in expected.kongs
    ]
    computed = [
        Win(w.seat, tile_name(w.tile), w.result.fan, w.result.patterns, w.deltas) for w in report.wins
    ]
    assert [_canonical(w) for w in computed] == [_canonical(w) for w in expected.wins]
    assert report.settlement == expected.settlement
    assert report.scores == expected.scores
    assert sum(report.scores) == 0


def _canonical(win: Win) -> tuple[int, str, int, str, Counter[str], Four]:
    """Patterns compare as a multiset, the base pattern first (docs/log-format.md)."""
    return (win.seat, win.tile, win.fan, win.patterns[0], Counter(win.patterns), win.deltas)


def test_golden_session_totals() -> None:
    for name in golden_files():
        for session in validated(name).sessions:
            assert session.findings == []
            assert session.session_id is not None
            assert session.totals == TOTALS[session.session_id], session.session_id


def test_chuanma_validate_reports_every_golden_deal_ok() -> None:
    logs = [str(path) for path in sorted(GOLDEN.glob("*.jsonl"))]  # the folder also holds platforms/
    run = subprocess.run(
        [str(CHUANMA), "validate", *logs, "--json"], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    report = json.loads(run.stdout)
    assert report["summary"]["deals"] == len(EXPECTED) == report["summary"]["ok"]
    for deal in report["deals"]:
        expected = EXPECTED[deal["deal_id"]]
        assert deal["status"] == "ok" and deal["findings"] == []
        assert Path(deal["file"]).name == expected.file
        assert tuple(deal["computed"]["scores"]) == expected.scores
        wins = [(w["seat"], w["fan"], Counter(w["patterns"])) for w in deal["computed"]["wins"]]
        assert wins == [(w.seat, w.fan, Counter(w.patterns)) for w in expected.wins]


# ----------------------------------------------------------------------------- the rules bite
def replay(
    name: str, rules: str | dict[str, Any] | None = None, lines: list[str] | None = None
) -> ValidationReport:
    text = lines if lines is not None else (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    return validate_log(read_lines(text, name), load_rules(rules) if rules is not None else None)


def findings_of(report: ValidationReport, deal_id: str) -> list[Finding]:
    return next(d for d in report.deals if d.deal_id == deal_id).findings


def line_of(name: str, deal_id: str, **match: Any) -> int:
    """The 1-based line of the first event of ``deal_id`` whose fields match."""
    inside = False
    for number, text in enumerate((GOLDEN / name).read_text(encoding="utf-8").splitlines(), 1):
        event = json.loads(text)
        if event["type"] == "deal":
            inside = event["deal_id"] == deal_id
        elif inside and all(event.get(key) == value for key, value in match.items()):
            return number
    raise AssertionError(f"no {match} in {deal_id}")


@pytest.mark.parametrize(
    ("deal_id", "after", "hu"),
    [
        # seat 3 passed seat 0's 4p; seat 1's 4p comes before seat 3 draws again:
        # any (1 fan is not more than the 1 fan passed) and same_tile both bar it
        ("pass-any-1", {"type": "discard", "seat": 1}, {"seat": 3, "tile": "4p", "from": 1}),
        ("pass-same-tile-1", {"type": "discard", "seat": 1}, {"seat": 3, "tile": "4p", "from": 1}),
        # without pass_rule_higher_fan_ok, the 2-fan 1p is barred as well
        ("pass-no-higher-1", {"type": "discard", "seat": 2}, {"seat": 3, "tile": "1p", "from": 2}),
    ],
)
def test_a_win_the_pass_rule_bars_is_illegal(deal_id: str, after: dict[str, Any], hu: dict[str, Any]) -> None:
    lines = (GOLDEN / "pass_rule.jsonl").read_text(encoding="utf-8").splitlines()
    at = line_of("pass_rule.jsonl", deal_id, **after)
    lines.insert(at, json.dumps({"type": "hu", **hu}))
    findings = findings_of(replay("pass_rule.jsonl", lines=lines), deal_id)
    assert [(f.code, f.line, f.seat, f.rule) for f in findings] == [("illegal_hu", at + 1, 3, "pass_rule")]
    assert "过水不胡" in findings[0].message and "pass_rule" in findings[0].message


@pytest.mark.parametrize(
    ("deal_id", "rules", "tile"),
    [
        # the 1p after passing 4p is allowed by the higher fan only: barred without it
        ("pass-any-1", {"preset": "standard", "pass_rule_higher_fan_ok": False}, "1p"),
        # the 4p (1 fan) after passing 1p (2 fan) is allowed by same_tile only
        ("pass-same-tile-2", "standard", "4p"),
    ],
)
def test_the_allowed_win_needs_its_pass_rule(deal_id: str, rules: str | dict[str, Any], tile: str) -> None:
    findings = findings_of(replay("pass_rule.jsonl", rules), deal_id)
    hu_line = line_of("pass_rule.jsonl", deal_id, type="hu", seat=3)
    assert [(f.code, f.line, f.seat) for f in findings] == [("illegal_hu", hu_line, 3)]
    assert tile in findings[0].message


def test_the_last_four_are_won_past_a_pass_even_without_the_forced_win() -> None:
    # seed 001 (online, where the last four need not be won): 只有加番时或者牌城剩最后4张时可以胡
    # -- the pass rule lifts for the last four whether or not last_four_must_hu is on.
    report = replay("last_four.jsonl", {"preset": "standard", "last_four_must_hu": False})
    assert report.ok


def test_the_exchange_direction_matters() -> None:
    # counterclockwise passes to s+1: seat 2 would get seat 1's 159p and lose its 对对胡 wait
    lines = [
        line.replace('"clockwise"', '"counterclockwise"')
        for line in (GOLDEN / "exchange_three.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    findings = findings_of(replay("exchange_three.jsonl", lines=lines), "exchange-three-1")
    assert [(f.code, f.seat) for f in findings] == [("illegal_hu", 2)]


def test_a_dead_wait_counts_under_the_default_rules() -> None:
    # dead_wait_counts true: seat 2's 9s wait makes it ready (平胡 1 fan). 查大叫: seats 0
    # and 1 pay seat 3 8 and seat 2 2^(1-1) = 1 each; seat 2 pays nobody:
    # (-9, -9, +2, +16)
    report = replay("dead_wait.jsonl", "standard")
    deal = report.deals[0]
    assert deal.settlement == deal.scores == (-9, -9, 2, 16)
    assert [f.code for f in deal.findings] == ["payment_mismatch", "score_mismatch"]


def test_an_exposed_kong_bloom_paid_as_a_discard() -> None:
    # standard + kong_bloom_after_exposed discard: seat 1's bloom (3 fan, x4) is paid by
    # seat 2 alone: (0, 4, -4, 0); scores (18, 3-8+4, -6, -15+4) = (18, -1, -6, -11)
    report = replay("kong_bloom.jsonl", {"preset": "standard", "kong_bloom_after_exposed": "discard"})
    deal = report.deals[0]
    assert deal.wins[1].deltas == (0, 4, -4, 0)
    assert deal.scores == (18, -1, -6, -11)


def test_a_log_that_stops_after_the_last_draw_is_settled_on_the_drawers_13_tiles() -> None:
    # decisions.md accepts a recorder that stops right after the wall's last draw. In
    # cha-jiao-1 that draw is seat 0's 9s: seat 0 still counts as ready on its 13 tiles
    # (not a 花猪 holding 14 with a third suit), so the settlement is the golden one.
    lines = (GOLDEN / "cha_jiao.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[-3]) == {"type": "discard", "seat": 0, "tile": "9s"}
    report = replay("cha_jiao.jsonl", lines=lines[:-3] + lines[-2:])
    assert report.ok, [f.message for f in report.all_findings()]
    assert report.deals[0].settlement == EXPECTED["cha-jiao-1"].settlement


@pytest.mark.parametrize("name", golden_files())
def test_base_two_doubles_every_payment(name: str) -> None:
    # decisions.md: a payment is base x multiplier, and kong payments, 自摸加底, 花猪,
    # 查大叫 and 退税 scale the same way. So with base 2 every hand-worked number doubles.
    lines = []
    for text in (GOLDEN / name).read_text(encoding="utf-8").splitlines():
        event = json.loads(text)
        if event["type"] == "session":
            event["base"] = 2
        for key in ("deltas", "settlement", "scores", "totals"):
            if key in event:
                event[key] = [2 * points for points in event[key]]
        lines.append(json.dumps(event, ensure_ascii=False))
    report = replay(name, lines=lines)
    assert report.ok, [f.message for f in report.all_findings()]
    for deal in report.deals:
        assert deal.scores == tuple(2 * points for points in EXPECTED[deal.deal_id].scores)


def test_an_exposed_kong_bloom_paid_as_a_discard_gets_no_self_draw_fan() -> None:
    # standard + discard mode + 自摸加番: the blooms after the concealed and the added
    # kong are self-draws, 3 + zimo 1 = 4 fan -> x8 (seat 0: 8 from each of 3; seat 2:
    # 8 from seat 3). Seat 1's bloom after the exposed kong counts as a discard (放炮):
    # no zimo, 3 fan -> x4 from the feeder, seat 2.
    rules = {"preset": "standard", "kong_bloom_after_exposed": "discard", "self_draw_bonus": "add_fan"}
    deal = replay("kong_bloom.jsonl", rules).deals[0]
    assert [(w.seat, w.result.fan, sorted(w.result.patterns), w.deltas) for w in deal.wins] == [
        (0, 4, ["gangshanghua", "gen", "pinghu", "zimo"], (24, -8, -8, -8)),
        (1, 3, ["gangshanghua", "gen", "pinghu"], (0, 4, -4, 0)),
        (2, 4, ["gangshanghua", "gen", "pinghu", "zimo"], (0, 0, 8, -8)),
    ]
    # kongs (6, -2, -2, -2) + (0, 1, -1, 0) + (0, 0, 1, -1); seat 0: 6 + 24 = 30;
    # seat 1: -2 -8 +1 +4 = -5; seat 2: -2 -8 -1 -4 +1 +8 = -6; seat 3: -2 -8 -1 -8 = -19
    assert deal.scores == (30, -5, -6, -19)
