"""Write the golden logs of ``tests/golden/`` (log format v1, one file per rule feature).

Every deal here is made by hand: the hands, each event and every recorded claim
(``kong.deltas``, ``hu.fan``/``patterns``/``deltas``, ``deal_end.settlement``/``scores``,
``session_end.totals``) were worked out on paper; ``tests/test_golden.py`` repeats the
working next to its expected values. This script imports nothing from the engine, so a
wrong engine cannot write its own answers into the goldens. Its only automation is the
filler of the deals that must empty the 55-tile wall: tsumogiri turns (the seat draws a
tile and discards the same tile) that take the lowest tiles still unseen, in tile order,
keeping back the tiles a deal needs later.

Run ``python tests/golden/build_golden.py [FOLDER]`` to (re)write the files; the
committed ``.jsonl`` files are the goldens and a test checks that this script still
writes them byte for byte.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
NAMES = tuple(f"{rank}{suit}" for suit in "mps" for rank in range(1, 10))
PLAYERS = ["Ann", "Bo", "Chen", "Du"]
WALL = 55  # tiles left after the deal (docs/rules.md section 1)

Json = dict[str, Any]
Four = list[int]


def tiles(text: str) -> list[str]:
    """``"123m55p"`` -> ``["1m", "2m", "3m", "5p", "5p"]``."""
    out: list[str] = []
    digits: list[str] = []
    for char in text:
        if char.isdigit():
            digits.append(char)
        else:
            assert char in "mps" and digits, text
            out.extend(digit + char for digit in digits)
            digits = []
    assert not digits, text
    return out


class Log:
    """The lines of one golden file."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines: list[Json] = []

    def session(self, session_id: str, rules: str | Json, base: int = 1) -> None:
        self.lines.append(
            {"type": "session", "session_id": session_id, "players": PLAYERS, "rules": rules, "base": base}
        )

    def deal(self, deal_id: str, hands: list[str], dealer: int = 0) -> Deal:
        return Deal(self, deal_id, dealer, hands)

    def session_end(self, totals: Four) -> None:
        assert sum(totals) == 0, totals
        self.lines.append({"type": "session_end", "totals": totals})

    def text(self) -> str:
        return "".join(
            json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in self.lines
        )


class Deal:
    """One deal's events; tracks the tiles still unseen (the wall) for the filler."""

    def __init__(self, log: Log, deal_id: str, dealer: int, hands: list[str]) -> None:
        self.lines = log.lines
        self.unseen: Counter[str] = Counter({name: 4 for name in NAMES})
        for seat, hand in enumerate(hands):
            held = tiles(hand)
            assert len(held) == (14 if seat == dealer else 13), (deal_id, seat, len(held))
            self.unseen.subtract(held)
        assert min(self.unseen.values()) >= 0, (deal_id, -self.unseen)
        self.drawn = 0
        self.lines.append({"type": "deal", "deal_id": deal_id, "dealer": dealer, "hands": hands})

    def _emit(self, line: Json) -> None:
        self.lines.append(line)

    def exchange(self, direction: str, given: list[str]) -> None:
        self._emit({"type": "exchange", "direction": direction, "tiles": given})

    def void(self, seat: int, suit: str) -> None:
        self._emit({"type": "void", "seat": seat, "suit": suit})

    def draw(self, seat: int, tile: str) -> None:
        assert self.unseen[tile] > 0, f"no {tile} left to draw"
        self.unseen[tile] -= 1
        self.drawn += 1
        assert self.drawn <= WALL, "the wall holds 55 tiles"
        self._emit({"type": "draw", "seat": seat, "tile": tile})

    def discard(self, seat: int, tile: str) -> None:
        self._emit({"type": "discard", "seat": seat, "tile": tile})

    def turn(self, seat: int, tile: str) -> None:
        """Tsumogiri: draw a tile and discard it."""
        self.draw(seat, tile)
        self.discard(seat, tile)

    def pong(self, seat: int, tile: str) -> None:
        self._emit({"type": "pong", "seat": seat, "tile": tile})

    def kong(self, seat: int, tile: str, kind: str, deltas: Four) -> None:
        assert sum(deltas) == 0, deltas
        self._emit({"type": "kong", "seat": seat, "tile": tile, "kind": kind, "deltas": deltas})

    def hu(
        self, seat: int, tile: str, source: int | None, fan: int, patterns: list[str], deltas: Four
    ) -> None:
        assert sum(deltas) == 0, deltas
        self._emit(
            {
                "type": "hu",
                "seat": seat,
                "tile": tile,
                "from": source,
                "fan": fan,
                "patterns": patterns,
                "deltas": deltas,
            }
        )

    def filler(self, seats: list[int], count: int, keep: str = "") -> None:
        """``count`` tsumogiri turns by ``seats`` in rotation, each drawing the lowest
        unseen tile (in the order 1m..9s) other than the ``keep`` tiles."""
        kept = Counter(tiles(keep))
        for index in range(count):
            tile = next(name for name in NAMES if self.unseen[name] - kept[name] > 0)
            self.turn(seats[index % len(seats)], tile)

    def rest(self, seats: list[int]) -> None:
        """Filler turns until the wall is empty."""
        self.filler(seats, WALL - self.drawn)

    def end(self, reason: str, settlement: Four, scores: Four) -> None:
        assert sum(settlement) == 0 and sum(scores) == 0, (settlement, scores)
        if reason == "wall_exhausted":
            assert self.drawn == WALL and not +self.unseen, "an exhausted wall leaves nothing unseen"
        self._emit({"type": "deal_end", "reason": reason, "settlement": settlement, "scores": scores})


# ----------------------------------------------------------------------------- kongs
KONG_HANDS = ["1239999s5556789p", "22234567899m23p", "23456788s1114p9m", "1147m2369p13467s"]


def kong_deal(
    log: Log, deal_id: str, exposed: Four, added: Four, scores: Four, *, voids: bool = False
) -> None:
    """Seat 0 暗杠 9s, seat 1 直杠 2m off seat 0, seat 2 弯杠 8s on a tile drawn this turn;
    seat 3 then feeds 4p to all three (一炮多响)."""
    deal = log.deal(deal_id, KONG_HANDS)
    if voids:
        for seat, suit in enumerate("msmp"):
            deal.void(seat, suit)
    deal.kong(0, "9s", "concealed", [6, -2, -2, -2])
    deal.turn(0, "2m")
    deal.kong(1, "2m", "exposed", exposed)
    deal.turn(1, "8s")
    deal.pong(2, "8s")
    deal.discard(2, "9m")
    deal.turn(3, "8p")
    deal.turn(0, "1m")
    deal.turn(1, "5m")
    deal.draw(2, "8s")
    deal.kong(2, "8s", "added", added)
    deal.turn(2, "7m")
    deal.turn(3, "4p")
    for seat in (0, 1, 2):
        deal.hu(
            seat, "4p", 3, 2, ["pinghu", "gen"], [2 if s == seat else -2 if s == 3 else 0 for s in range(4)]
        )
    deal.end("three_won", [0, 0, 0, 0], scores)


def kongs_standard() -> Log:
    log = Log("kongs_standard")
    log.session("golden-kongs-standard", "standard")
    kong_deal(log, "kongs-standard-1", [-1, 1, 0, 0], [-1, -1, 3, -1], [6, 0, 3, -9])
    log.session_end([6, 0, 3, -9])
    return log


def kongs_chengdu() -> Log:
    log = Log("kongs_chengdu")
    log.session("golden-kongs-chengdu", "chengdu")
    kong_deal(log, "kongs-chengdu-1", [-2, 2, 0, 0], [-1, -1, 3, -1], [5, 1, 3, -9])
    # The added kong of a tile held since the pong, declared on a turn that drew 4p.
    hands = [KONG_HANDS[0], KONG_HANDS[1], "234567888s111p9m", KONG_HANDS[3]]
    deal = log.deal("kongs-chengdu-2", hands)
    deal.kong(0, "9s", "concealed", [6, -2, -2, -2])
    deal.turn(0, "2m")
    deal.kong(1, "2m", "exposed", [-2, 2, 0, 0])
    deal.turn(1, "8s")
    deal.pong(2, "8s")
    deal.discard(2, "9m")
    deal.turn(3, "8p")
    deal.turn(0, "1m")
    deal.turn(1, "5m")
    deal.draw(2, "4p")
    deal.kong(2, "8s", "added", [0, 0, 0, 0])
    deal.turn(2, "7m")
    deal.turn(3, "4p")
    deal.hu(0, "4p", 3, 2, ["pinghu", "gen"], [2, 0, 0, -2])
    deal.hu(1, "4p", 3, 2, ["pinghu", "gen"], [0, 2, 0, -2])
    deal.hu(2, "4p", 3, 2, ["pinghu", "gen"], [0, 0, 2, -2])
    deal.end("three_won", [0, 0, 0, 0], [6, 2, 0, -8])
    log.session_end([11, 3, 3, -17])
    return log


def kongs_online() -> Log:
    log = Log("kongs_online")
    log.session("golden-kongs-online", "online")
    kong_deal(log, "kongs-online-1", [-2, 4, -1, -1], [-1, -1, 3, -1], [5, 3, 2, -10], voids=True)
    log.session_end([5, 3, 2, -10])
    return log


# ----------------------------------------------------------------------------- 抢杠胡
def rob_kong() -> Log:
    log = Log("rob_kong")
    log.session("golden-rob-kong", "standard")
    hands = ["5s11m2m567m1p668899s", "1155s12377889p9m", "2334444555699p", "123456789m3477s"]
    deal = log.deal("rob-kong-1", hands)
    deal.discard(0, "5s")
    deal.pong(1, "5s")
    deal.discard(1, "9m")
    deal.turn(2, "3m")
    deal.turn(3, "4m")
    deal.turn(0, "8m")
    deal.draw(1, "5s")
    deal.kong(1, "5s", "added", [0, 0, 0, 0])
    deal.hu(3, "5s", 1, 2, ["pinghu", "qiangganghu"], [0, -2, 0, 2])
    deal.turn(0, "6p")
    deal.hu(1, "6p", 0, 1, ["pinghu"], [-1, 1, 0, 0])
    deal.hu(2, "6p", 0, 4, ["qingyise", "gen"], [-8, 0, 8, 0])
    deal.end("three_won", [0, 0, 0, 0], [-9, -1, 8, 2])
    log.session_end([-9, -1, 8, 2])
    return log


# ----------------------------------------------------------------------------- 杠上花
BLOOM_HANDS = ["111123456788m99p", "55588p12345677s", "23456799m5p1199s", "258m13467p23568s"]


def bloom_deal(log: Log, deal_id: str, wins: list[Four], exposed: Four, scores: Four) -> None:
    """Three 杠上花: seat 0 after its 暗杠, seat 1 after a 直杠, seat 2 after a 弯杠."""
    deal = log.deal(deal_id, BLOOM_HANDS)
    deal.kong(0, "1m", "concealed", [6, -2, -2, -2])
    deal.draw(0, "9p")
    deal.hu(0, "9p", None, 3, ["pinghu", "gen", "gangshanghua"], wins[0])
    deal.turn(1, "9m")
    deal.pong(2, "9m")
    deal.discard(2, "5p")
    deal.kong(1, "5p", "exposed", exposed)
    deal.draw(1, "8p")
    deal.hu(1, "8p", None, 3, ["pinghu", "gen", "gangshanghua"], wins[1])
    deal.draw(2, "9m")
    deal.kong(2, "9m", "added", [0, 0, 1, -1])
    deal.draw(2, "1s")
    deal.hu(2, "1s", None, 3, ["pinghu", "gen", "gangshanghua"], wins[2])
    deal.end("three_won", [0, 0, 0, 0], scores)


def kong_bloom() -> Log:
    log = Log("kong_bloom")
    log.session("golden-kong-bloom", "standard")
    wins = [[12, -4, -4, -4], [0, 8, -4, -4], [0, 0, 4, -4]]
    bloom_deal(log, "kong-bloom-1", wins, [0, 1, -1, 0], [18, 3, -6, -15])
    log.session_end([18, 3, -6, -15])
    return log


def kong_bloom_exposed_discard() -> Log:
    log = Log("kong_bloom_exposed_discard")
    log.session("golden-kong-bloom-discard", {"preset": "chengdu", "kong_bloom_after_exposed": "discard"})
    wins = [[15, -5, -5, -5], [0, 4, -4, 0], [0, 0, 5, -5]]
    bloom_deal(log, "kong-bloom-discard-1", wins, [0, 2, -2, 0], [21, -1, -7, -13])
    log.session_end([21, -1, -7, -13])
    return log


# ----------------------------------------------------------------------------- 杠上炮
def kong_discard_transfer() -> Log:
    log = Log("kong_discard_transfer")
    log.session("golden-gangshangpao", "standard")
    hands = ["112233m9999p1179s", "123456789m3499s", "234567888p2278s", "111333p5566688s"]
    deal = log.deal("gangshangpao-1", hands)
    deal.kong(0, "9p", "concealed", [6, -2, -2, -2])
    deal.turn(0, "5s")
    deal.hu(1, "5s", 0, 2, ["pinghu", "gangshangpao"], [-8, 8, 0, 0])
    deal.hu(3, "5s", 0, 3, ["duiduihu", "gangshangpao"], [-10, 0, 0, 10])
    deal.turn(0, "6s")
    deal.hu(2, "6s", 0, 1, ["pinghu"], [-1, 0, 1, 0])
    deal.end("three_won", [0, 0, 0, 0], [-13, 6, -1, 8])
    log.session_end([-13, 6, -1, 8])
    return log


# ----------------------------------------------------------------------------- 一炮多响
def multiple_hu() -> Log:
    log = Log("multiple_hu")
    log.session("golden-multiple-hu", "chengdu")
    hands = ["179m45p113346799s", "123456789m4699p", "5566p222555888s", "1122335778899p"]
    deal = log.deal("multiple-hu-1", hands)
    deal.discard(0, "5p")
    deal.hu(1, "5p", 0, 1, ["pinghu"], [-1, 1, 0, 0])
    deal.hu(2, "5p", 0, 2, ["duiduihu"], [-2, 0, 2, 0])
    deal.hu(3, "5p", 0, 4, ["qingqidui"], [-8, 0, 0, 8])
    deal.end("three_won", [0, 0, 0, 0], [-11, 1, 2, 8])
    log.session_end([-11, 1, 2, 8])
    return log


# ----------------------------------------------------------------------------- 天胡 地胡
TIAN_HANDS = ["123456789s12355p", "112233m4m456789p", "5555666788899m", "17m69p123456789s"]


def tianhu_dihu() -> Log:
    log = Log("tianhu_dihu")
    log.session("golden-tianhu-standard", "standard")
    deal = log.deal("tianhu-standard-1", TIAN_HANDS)
    deal.hu(0, "5p", None, 6, ["tianhu"], [96, -32, -32, -32])
    deal.draw(1, "4m")
    deal.hu(1, "4m", None, 6, ["dihu"], [0, 64, -32, -32])
    deal.draw(2, "9m")
    deal.hu(2, "9m", None, 7, ["dihu", "gen"], [0, 0, 64, -64])
    deal.end("three_won", [0, 0, 0, 0], [96, 32, 0, -128])
    log.session_end([96, 32, 0, -128])
    log.session("golden-tianhu-chengdu", "chengdu")
    deal = log.deal("tianhu-chengdu-1", TIAN_HANDS)
    deal.hu(0, "5p", None, 4, ["tianhu"], [27, -9, -9, -9])
    deal.draw(1, "4m")
    deal.hu(1, "4m", None, 4, ["dihu"], [0, 18, -9, -9])
    deal.draw(2, "9m")
    deal.hu(2, "9m", None, 4, ["dihu", "gen"], [0, 0, 9, -9])
    deal.end("three_won", [0, 0, 0, 0], [27, 9, -9, -27])
    log.session_end([27, 9, -9, -27])
    return log


# ----------------------------------------------------------------------------- 海底
# Seats that never get ready: odd ranks only (or even ranks only) in two suits, at
# most five pairs, so no set (no triplet, no three ranks in a row) and no 七对.
HAIDI_HANDS = ["355799p11355799s", "1335779m133779s", "22446688m24688p", "123456789m1235p"]


def haidi() -> Log:
    log = Log("haidi")
    log.session("golden-haidi", {"preset": "standard", "haidi": True})
    deal = log.deal("haidi-self-draw", HAIDI_HANDS)
    deal.discard(0, "3p")
    deal.filler([1, 2, 3, 0], WALL - 1, keep="5p")
    deal.draw(3, "5p")  # the wall's last tile
    deal.hu(3, "5p", None, 2, ["pinghu", "haidi"], [-2, -2, -2, 6])
    deal.end("wall_exhausted", [0, 0, 0, 0], [-2, -2, -2, 6])
    hands = [HAIDI_HANDS[0], HAIDI_HANDS[3], HAIDI_HANDS[2], HAIDI_HANDS[1]]
    deal = log.deal("haidi-discard", hands)
    deal.discard(0, "3p")
    deal.filler([1, 2, 3, 0], WALL - 1, keep="5p")
    deal.turn(3, "5p")  # the wall's last tile, discarded
    deal.hu(1, "5p", 3, 2, ["pinghu", "haidi"], [0, 2, 0, -2])
    deal.end("wall_exhausted", [0, 0, 0, 0], [0, 2, 0, -2])
    log.session_end([-2, 0, -2, 4])
    return log


# ----------------------------------------------------------------------------- 最后四张
def last_four() -> Log:
    log = Log("last_four")
    log.session("golden-last-four", "standard")
    hands = ["357799p11355799s", "123456789m1235p", "22446688m24688p", "1335779m133779s"]
    deal = log.deal("last-four-1", hands)
    deal.discard(0, "3p")
    deal.filler([1, 2, 3, 0], 50, keep="5p5p")
    deal.turn(3, "5p")  # draw 51: seat 1 passes (4 tiles remain, not yet the last four)
    deal.turn(0, "5p")  # draw 52, the fourth-last tile: seat 1 must win it despite its pass
    deal.hu(1, "5p", 0, 1, ["pinghu"], [-1, 1, 0, 0])
    deal.filler([2, 3, 0], 3)
    deal.end("wall_exhausted", [0, 0, 0, 0], [-1, 1, 0, 0])
    log.session_end([-1, 1, 0, 0])
    return log


# ----------------------------------------------------------------------------- 查叫
def cha_jiao() -> Log:
    log = Log("cha_jiao")
    log.session("golden-cha-jiao", "standard")
    hands = ["1234567m99m111p23p", "1234555667789s", "14446p9999p2888s", "7778899m47p1359s"]
    deal = log.deal("cha-jiao-1", hands)
    deal.discard(0, "7m")
    deal.kong(3, "7m", "exposed", [-1, 0, 0, 1])
    deal.filler([3, 0, 1], 3)  # seat 3's replacement, then seats 0 and 1
    deal.draw(2, "6s")
    deal.kong(2, "9p", "concealed", [-2, -2, 6, -2])
    deal.filler([2], 1)  # seat 2's replacement
    deal.rest([3, 0, 1, 2])
    deal.end("wall_exhausted", [21, 26, 0, -47], [18, 24, 6, -48])
    log.session_end([18, 24, 6, -48])
    return log


# ----------------------------------------------------------------------------- 退税 after 呼叫转移
def refund_after_transfer() -> Log:
    log = Log("refund_after_transfer")
    log.session("golden-refund-after-transfer", "standard")
    hands = ["1234567811m555p1p", "9999s999m2468s35m", "123p789p56p111s44s", "1226668m335577s"]
    deal = log.deal("refund-after-transfer-1", hands)
    deal.discard(0, "1p")
    deal.draw(1, "7m")
    deal.kong(1, "9s", "concealed", [-2, 6, -2, -2])
    deal.turn(1, "8p")  # the replacement
    deal.turn(2, "9p")
    deal.turn(3, "2p")
    deal.turn(0, "9m")
    deal.kong(1, "9m", "exposed", [-1, 1, 0, 0])
    deal.turn(1, "4p")  # the replacement, thrown: 杠上炮
    deal.hu(2, "4p", 1, 2, ["pinghu", "gangshangpao"], [0, -3, 3, 0])
    deal.rest([3, 0, 1])
    deal.end("wall_exhausted", [4, -7, 2, 1], [1, -3, 3, -1])
    log.session_end([1, -3, 3, -1])
    return log


# ----------------------------------------------------------------------------- 死叫
def dead_wait() -> Log:
    log = Log("dead_wait")
    log.session("golden-dead-wait", {"preset": "standard", "dead_wait_counts": False})
    hands = ["125888m11335779s", "224466m2468s99s1p", "123456789p234s9s", "1234555667789m"]
    deal = log.deal("dead-wait-1", hands)
    deal.discard(0, "9s")
    deal.pong(1, "9s")
    deal.discard(1, "1p")
    deal.rest([2, 3, 0, 1])
    deal.end("wall_exhausted", [-8, -8, -8, 24], [-8, -8, -8, 24])
    # Seat 3's 5m (4 fan) wait dies with seat 0's first discard; its 8m (3 fan) stays live.
    deal = log.deal("dead-wait-2", hands)
    deal.discard(0, "5m")
    deal.rest([1, 2, 3, 0])
    deal.end("wall_exhausted", [11, -48, 17, 20], [11, -48, 17, 20])
    log.session_end([3, -56, 9, 44])
    return log


# ----------------------------------------------------------------------------- first_hu
def first_hu() -> Log:
    log = Log("first_hu")
    log.session("golden-first-hu", {"preset": "standard", "end_condition": "first_hu"})
    hands = ["22m33599p4567899s", "123456789m1146p", "35779m24p224688s", "112233s667788p5p"]
    deal = log.deal("first-hu-ron", hands)
    deal.discard(0, "5p")
    deal.hu(1, "5p", 0, 1, ["pinghu"], [-1, 1, 0, 0])
    deal.hu(3, "5p", 0, 3, ["qidui"], [-4, 0, 0, 4])
    deal.end("first_hu", [0, 0, 0, 0], [-5, 1, 0, 4])
    hands = ["123456789m2355p9s", "1135799s246688p", "224688m1335779s", "3579m1799p24688s"]
    deal = log.deal("first-hu-tsumo", hands)
    deal.discard(0, "9s")
    deal.turn(1, "1m")
    deal.turn(2, "3p")
    deal.turn(3, "7s")
    deal.draw(0, "4p")
    deal.hu(0, "4p", None, 1, ["pinghu"], [3, -1, -1, -1])
    deal.end("first_hu", [0, 0, 0, 0], [3, -1, -1, -1])
    log.session_end([-2, 0, -1, 3])
    return log


# ----------------------------------------------------------------------------- 自摸加底 / 自摸加番
SELF_DRAW_HANDS = ["156m11368p246789s", "123456789m2355p", "111333555s7799p", "2223444567899m"]


def self_draw_deal(log: Log, deal_id: str, wins: list[tuple[int, list[str], Four]], scores: Four) -> None:
    deal = log.deal(deal_id, SELF_DRAW_HANDS)
    deal.discard(0, "1m")
    deal.turn(1, "8s")
    deal.turn(2, "8p")
    deal.turn(3, "6s")
    deal.turn(0, "2s")
    for seat, tile, (fan, patterns, deltas) in zip((1, 2, 3), ("4p", "9p", "9m"), wins, strict=True):
        deal.draw(seat, tile)
        deal.hu(seat, tile, None, fan, patterns, deltas)
    deal.end("three_won", [0, 0, 0, 0], scores)


def self_draw_bonus() -> Log:
    log = Log("self_draw_bonus")
    log.session("golden-zimo-add-base", "chengdu")
    wins = [
        (1, ["pinghu"], [-2, 6, -2, -2]),
        (2, ["duiduihu"], [-3, 0, 6, -3]),
        (3, ["qingyise"], [-5, 0, 0, 5]),
    ]
    self_draw_deal(log, "zimo-add-base-1", wins, [-10, 6, 4, 0])
    log.session_end([-10, 6, 4, 0])
    log.session("golden-zimo-add-fan", {"preset": "standard", "self_draw_bonus": "add_fan"})
    wins = [
        (2, ["pinghu", "zimo"], [-2, 6, -2, -2]),
        (3, ["duiduihu", "zimo"], [-4, 0, 8, -4]),
        (4, ["qingyise", "zimo"], [-8, 0, 0, 8]),
    ]
    self_draw_deal(log, "zimo-add-fan-1", wins, [-14, 6, 6, 2])
    log.session_end([-14, 6, 6, 2])
    return log


# ----------------------------------------------------------------------------- 定缺
def void_online() -> Log:
    log = Log("void_online")
    log.session("golden-void-online", "online")
    hands = ["9m123456789s4699p", "1m34678p1112229s", "2m33355777p6888s", "1133557799m345s"]
    deal = log.deal("void-online-1", hands)
    for seat, suit in enumerate("mmmp"):
        deal.void(seat, suit)
    deal.discard(0, "9m")
    deal.draw(1, "9s")
    deal.discard(1, "1m")
    deal.draw(2, "6s")
    deal.discard(2, "2m")
    deal.turn(3, "5p")
    deal.hu(0, "5p", 3, 1, ["pinghu"], [1, 0, 0, -1])
    deal.hu(1, "5p", 3, 1, ["pinghu"], [0, 1, 0, -1])
    deal.hu(2, "5p", 3, 2, ["duiduihu"], [0, 0, 2, -2])
    deal.end("three_won", [0, 0, 0, 0], [1, 1, 2, -4])
    log.session_end([1, 1, 2, -4])
    return log


# ----------------------------------------------------------------------------- 换三张
def exchange_three() -> Log:
    log = Log("exchange_three")
    log.session("golden-exchange-three", {"preset": "standard", "exchange_three": True})
    hands = ["1133557799m666s5s", "123456789m7s159p", "111222p5599s467s", "1112334488s888p"]
    deal = log.deal("exchange-three-1", hands)
    deal.exchange("clockwise", ["666s", "159p", "467s", "888p"])
    deal.discard(0, "5s")
    deal.hu(1, "5s", 0, 1, ["pinghu"], [-1, 1, 0, 0])
    deal.hu(2, "5s", 0, 2, ["duiduihu"], [-2, 0, 2, 0])
    deal.hu(3, "5s", 0, 3, ["qingyise"], [-4, 0, 0, 4])
    deal.end("three_won", [0, 0, 0, 0], [-7, 1, 2, 4])
    log.session_end([-7, 1, 2, 4])
    return log


# ----------------------------------------------------------------------------- 过水不胡
PASS_HANDS = ["4p77m88m5p7p44s66s99s1s", "123s456s999p88p89s", "555666p333s22s77s", "123456m111p23p99m"]


def pass_then_win(log: Log, deal_id: str) -> None:
    """Seat 3 (waits 1p for 2 fan, 4p for 1 fan) passes 4p, is barred from the next 4p,
    then wins 1p before its own draw; seat 0 then feeds 7s to seats 1 and 2."""
    deal = log.deal(deal_id, PASS_HANDS)
    deal.discard(0, "4p")
    deal.turn(1, "4p")
    deal.turn(2, "1p")
    deal.hu(3, "1p", 2, 2, ["pinghu", "gen"], [0, 0, -2, 2])
    deal.turn(0, "7s")
    deal.hu(1, "7s", 0, 1, ["pinghu"], [-1, 1, 0, 0])
    deal.hu(2, "7s", 0, 2, ["duiduihu"], [-2, 0, 2, 0])
    deal.end("three_won", [0, 0, 0, 0], [-3, 1, 0, 2])


def pass_rule() -> Log:
    log = Log("pass_rule")
    log.session("golden-pass-any", "standard")
    pass_then_win(log, "pass-any-1")
    log.session_end([-3, 1, 0, 2])
    log.session("golden-pass-same-tile", "chengdu")
    pass_then_win(log, "pass-same-tile-1")
    # Seat 3 passes 1p (2 fan) and wins 4p (1 fan) before drawing: another tile.
    deal = log.deal("pass-same-tile-2", ["1p" + PASS_HANDS[0][2:], *PASS_HANDS[1:]])
    deal.discard(0, "1p")
    deal.turn(1, "4p")
    deal.hu(3, "4p", 1, 1, ["pinghu"], [0, -1, 0, 1])
    deal.turn(0, "7s")
    deal.hu(1, "7s", 0, 1, ["pinghu"], [-1, 1, 0, 0])
    deal.hu(2, "7s", 0, 2, ["duiduihu"], [-2, 0, 2, 0])
    deal.end("three_won", [0, 0, 0, 0], [-3, 0, 2, 1])
    log.session_end([-6, 1, 2, 3])
    log.session("golden-pass-no-higher", {"preset": "standard", "pass_rule_higher_fan_ok": False})
    deal = log.deal("pass-no-higher-1", PASS_HANDS)
    deal.discard(0, "4p")
    deal.turn(1, "4p")
    deal.turn(2, "1p")  # barred too: any pass, and a higher fan does not help here
    deal.turn(3, "5s")  # seat 3's own draw lifts the restriction
    deal.turn(0, "4p")
    deal.hu(3, "4p", 0, 1, ["pinghu"], [-1, 0, 0, 1])
    deal.turn(0, "7s")
    deal.hu(1, "7s", 0, 1, ["pinghu"], [-1, 1, 0, 0])
    deal.hu(2, "7s", 0, 2, ["duiduihu"], [-2, 0, 2, 0])
    deal.end("three_won", [0, 0, 0, 0], [-4, 1, 2, 1])
    log.session_end([-4, 1, 2, 1])
    return log


# ----------------------------------------------------------------------------- 血流成河
BLOODY_FLOW_HANDS = ["22m33599p4567899s", "123456789m1146p", "35779m12246889s", "112233s667788p5p"]


def bloody_flow_deal(log: Log, deal_id: str, self_draw: Four, pig: Four, scores: Four) -> None:
    """Seats 1 (wait 5p, 平胡) and 3 (wait 5p, 七对) win seat 0's 5p, stay in, and win
    again: seat 1 self-draws a 5p, then both win seat 2's 5p (一炮多响 of two repeat
    winners); seat 0 (three suits) is the 花猪 of the two that never won."""
    deal = log.deal(deal_id, BLOODY_FLOW_HANDS)
    deal.discard(0, "5p")
    deal.hu(1, "5p", 0, 1, ["pinghu"], [-1, 1, 0, 0])
    deal.hu(3, "5p", 0, 3, ["qidui"], [-4, 0, 0, 4])
    deal.filler([0], 1, keep="5p5p")  # seat 0 draws after the winner furthest from it
    deal.draw(1, "5p")
    deal.hu(1, "5p", None, 1, ["pinghu"], self_draw)
    deal.filler([2, 3, 0, 1], 8, keep="5p")  # seats 1 and 3 throw each tile they draw
    deal.draw(2, "5p")
    deal.discard(2, "5p")
    deal.hu(1, "5p", 2, 1, ["pinghu"], [0, 1, -1, 0])
    deal.hu(3, "5p", 2, 3, ["qidui"], [0, 0, -4, 4])
    deal.rest([2, 3, 0, 1])
    deal.end("wall_exhausted", pig, scores)


def bloody_flow() -> Log:
    log = Log("bloody_flow")
    log.session("golden-bloody-flow-standard", {"preset": "standard", "end_condition": "bloody_flow"})
    bloody_flow_deal(log, "bloody-flow-standard-1", [-1, 3, -1, -1], [-16, 0, 16, 0], [-22, 5, 10, 7])
    log.session_end([-22, 5, 10, 7])
    log.session("golden-bloody-flow-chengdu", {"preset": "chengdu", "end_condition": "bloody_flow"})
    bloody_flow_deal(log, "bloody-flow-chengdu-1", [-2, 6, -2, -2], [-8, 0, 8, 0], [-15, 8, 1, 6])
    log.session_end([-15, 8, 1, 6])
    return log


BUILDERS = (
    bloody_flow,
    kongs_standard,
    kongs_chengdu,
    kongs_online,
    rob_kong,
    kong_bloom,
    kong_bloom_exposed_discard,
    kong_discard_transfer,
    multiple_hu,
    tianhu_dihu,
    haidi,
    last_four,
    cha_jiao,
    refund_after_transfer,
    dead_wait,
    first_hu,
    self_draw_bonus,
    void_online,
    exchange_three,
    pass_rule,
)


def golden_texts() -> dict[str, str]:
    """File name -> the text of each golden log."""
    out = {}
    for build in BUILDERS:
        log = build()
        out[log.name + ".jsonl"] = log.text()
    return out


def write_all(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in golden_texts().items():
        path = folder / name
        path.write_bytes(text.encode("utf-8"))
        written.append(path)
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    for path in write_all(target):
        print(path)
