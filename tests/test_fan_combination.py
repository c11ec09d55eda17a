"""The fan knobs and rows: ``fan_combination`` (highest or sum), ``jingoudiao_needs_four_melds``,
the new base patterns (将金钩钓, 清金钩钓, 十八罗汉, 清十八罗汉), 门清 and 中张, and the extras
as rows of the fan table.

Every fan below is worked out by hand in the comment beside it (multiplier = 2^(fan-1):
1 fan x1, 2 x2, 3 x4, 4 x8, 5 x16, 6 x32, 7 x64, 8 x128), under at least two presets;
payments through the settler every path prices with. Then properties (``sum`` never
scores less than ``highest``), a score sheet priced by hand, whole simulated deals the
audit (engine and fast path) agrees with, and 6b: a tile the seat holds four of is no
wait, under either ``dead_wait_counts``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_hand_properties import PROPS, Built, winning_hands

from engine.events import Hu
from engine.fan import DISCARD_WIN, EXTRA_IDS, FanResult, WinContext, adds_up
from engine.hand import ready_value, wait_mask
from engine.rules import RulesError, knob_values, load_rules
from engine.score import score_win
from engine.settle import Settler
from engine.settlement import deltas
from engine.tiles import parse_tile, parse_tiles, to_counts
from ingest.logs.writer import write_log
from ingest.replay.files import read_log
from ingest.replay.validate import validate_log, validate_paths
from ingest.simulator.simulate import ClubPlan, simulate_club

STANDARD = load_rules("standard")
CHENGDU = load_rules("chengdu")
#: chengdu without its cap of 4 getting in the way (满格 follows: 2^7)
CHENGDU8 = load_rules({"preset": "chengdu", "max_fan": 8})
CHENGDU8_SUM = load_rules({"preset": "chengdu", "max_fan": 8, "fan_combination": "sum"})
STANDARD_SUM = load_rules({"preset": "standard", "fan_combination": "sum"})


def score(
    concealed: str,
    melds: str = "",
    rules: Any = STANDARD,
    win: str | None = None,
    concealed_kongs: int = 0,
    context: WinContext = DISCARD_WIN,
) -> FanResult:
    """Score ``concealed`` (the winning tile included) with melds written "111m 2222p"."""
    pongs: list[int] = []
    kongs: list[int] = []
    for meld in melds.split():
        tiles = parse_tiles(meld)
        (kongs if len(tiles) == 4 else pongs).append(tiles[0])
    counts = to_counts(parse_tiles(concealed), check=False)
    tile = -1 if win is None else parse_tile(win)
    result = score_win(counts, pongs, kongs, load_rules(rules), context, tile, concealed_kongs)
    assert result is not None, concealed
    return result


def discard_deltas(fan: int, winner: int = 0, discarder: int = 1) -> tuple[int, int, int, int]:
    settler = Settler(STANDARD)
    settler.win_discard(winner, discarder, fan, 1, False)
    return deltas(settler.ledger)


# ------------------------------------------------------------------ the knobs
def test_the_presets_keep_todays_fan_knobs() -> None:
    for rules in (STANDARD, CHENGDU, load_rules("online")):
        assert rules.fan_combination == "highest"
        assert rules.jingoudiao_needs_four_melds is True
        for extra in ("gen", "gangshanghua", "gangshangpao", "qiangganghu", "haidi", "zimo"):
            assert rules.pattern_fan(extra) == 1, (rules.name, extra)
        for off in (
            "menqing",
            "zhongzhang",
            "jiangjingoudiao",
            "qingjingoudiao",
            "shibaluohan",
            "qingshibaluohan",
        ):
            assert rules.pattern_fan(off) is None, (rules.name, off)
    values = knob_values()
    assert values["fan_combination"] == ("highest", "sum")
    assert values["jingoudiao_needs_four_melds"] == (False, True)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"fan_combination": "add"}, "knob 'fan_combination' must be one of"),
        ({"jingoudiao_needs_four_melds": "yes"}, "must be true or false"),
        ({"fan": {"gen": "cap"}}, "fan of the extra 'gen'"),
        ({"fan": {"menqing": 0}}, "fan of 'menqing'"),
        ({"fan": {"shibaluohan": -1}}, "fan of 'shibaluohan'"),
    ],
)
def test_bad_fan_values_are_rules_errors(spec: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        load_rules({"preset": "standard", **spec})


def test_an_extra_row_left_out_of_a_table_is_worth_one() -> None:
    # a rule set built before the extras were rows: an override names none of them
    rules = load_rules({"preset": "online", "fan": {"qidui": 4}})
    assert rules.pattern_fan("gen") == rules.pattern_fan("zimo") == 1
    assert (
        load_rules({"preset": "standard", "fan": {"menqing": "none"}}).name
        == 'standard+{"fan":{"menqing":"none"}}'
    )


# ------------------------------------------------------------------ 清一色 + 对对胡 + 金钩钓
# 55m in hand (the winning tile), pongs 111m 222m 333m 999m: one suit, all triplets, four
# melds (金钩钓). No root (no kind held four times), no 1 or 9 in every set (222m).
HOOK = ("55m", "111m 222m 333m 999m")


def test_pure_golden_hook_highest_and_sum() -> None:
    # chengdu (highest): 平胡 1, 对对胡 2, 清一色 3, 金钩钓 3, 清对 4 -> 清对 4 at its cap 4.
    result = score(*HOOK, rules=CHENGDU, win="5m")
    assert (result.fan, result.patterns) == (4, ("qingdui",))
    assert discard_deltas(result.fan) == (8, -8, 0, 0)  # 2^3
    # chengdu, cap 8, highest: still 清对 4 -> x8
    assert score(*HOOK, rules=CHENGDU8, win="5m").fan == 4
    # chengdu, cap 8, sum: each pattern adds its doublings (fan - 1) to the plain win's 1:
    # 清一色 3 + 金钩钓 3 + 对对胡 2 = 1 + 2 + 2 + 1 = 6; 清对 4 + 金钩钓 3 = 1 + 3 + 2 = 6 too,
    # but uses the same features (one suit, triplets, the hook): the set found first stays
    # (清对 holds one suit and triplets: it adds to neither 清一色 nor 对对胡).
    result = score(*HOOK, rules=CHENGDU8_SUM, win="5m")
    assert (result.fan, result.uncapped) == (6, 6)
    assert result.patterns == ("qingyise", "jingoudiao", "duiduihu")  # highest fan first
    assert discard_deltas(result.fan) == (32, -32, 0, 0)  # 2^5
    # standard (金钩钓 not scored): highest 清对 4; sum 清一色 3 + 对对胡 2 = 1 + 2 + 1 = 4,
    # the 清对 of the table (x8), as the Sichuan Bloody Rules' flush 2 + all triplets 1 = 3
    assert score(*HOOK, rules=STANDARD).patterns == ("qingdui",)
    result = score(*HOOK, rules=STANDARD_SUM)
    assert (result.fan, result.patterns) == (4, ("qingyise", "duiduihu"))
    assert discard_deltas(result.fan) == (8, -8, 0, 0)


def test_the_pure_golden_hook_row() -> None:
    # 清金钩钓 at 5 under chengdu cap 8: highest 5 beats 清对 4. Under sum (no feature
    # counted twice in either set) 清一色 3 + 金钩钓 3 + 对对胡 2 = 1 + 2 + 2 + 1 = 6.
    rules = {"preset": "chengdu", "max_fan": 8, "fan": {"qingjingoudiao": 5}}
    assert score(*HOOK, rules=rules).patterns == ("qingjingoudiao",)
    summed = score(*HOOK, rules={**rules, "fan_combination": "sum", "fan": {"qingjingoudiao": 6}})
    # 清金钩钓 6 + 对对胡 2 = 1 + 5 + 1 = 7 beats 清一色 + 金钩钓 + 对对胡 = 6
    assert (summed.fan, summed.patterns) == (7, ("qingjingoudiao", "duiduihu"))


# ------------------------------------------------------------------ jingoudiao_needs_four_melds
# 111m 333m 666m 55p in hand, pong 999p: all triplets with one meld only.
ONE_MELD = ("111m333m666m55p", "999p")


def test_golden_hook_without_four_melds() -> None:
    loose = {"preset": "chengdu", "jingoudiao_needs_four_melds": False}
    # won on 5p (the pair, a single-tile wait): chengdu 对对胡 2 -> x2; with the knob off
    # 金钩钓 3 -> x4
    assert score(*ONE_MELD, rules=CHENGDU, win="5p").patterns == ("duiduihu",)
    result = score(*ONE_MELD, rules=loose, win="5p")
    assert (result.fan, result.patterns) == (3, ("jingoudiao",))
    assert discard_deltas(result.fan) == (4, -4, 0, 0)
    # won on 6m, which made a triplet (a two-pair wait 66m/55p): no 金钩钓, 对对胡 2
    assert score(*ONE_MELD, rules=loose, win="6m").patterns == ("duiduihu",)
    # the winning tile not known: only the four-meld form is found
    assert score(*ONE_MELD, rules=loose).patterns == ("duiduihu",)
    # standard does not score 金钩钓: the knob changes nothing there
    assert (
        score(*ONE_MELD, rules={"preset": "standard", "jingoudiao_needs_four_melds": False}, win="5p").fan
        == 2
    )
    # 将金钩钓 (2-5-8 only): 222m 555m 88p 555p, won on 8p, knob off, 将金钩钓 at 5:
    # chengdu 将对 5 ties it, the later row 将金钩钓 wins the tie (decisions.md)
    result = score("222m555m88p", "555p 888m", rules={**loose, "fan": {"jiangjingoudiao": 5}}, win="8p")
    assert (result.fan, result.base) == (4, "jiangjingoudiao")  # capped at 4


def test_golden_hook_waits_value_the_pair_wait() -> None:
    # 查大叫 of 111m 333m 666m 5p + pong 999p: waits 5p only (a single-tile wait on the
    # pair). Chengdu: 对对胡 2; knob off: 金钩钓 3.
    counts = to_counts(parse_tiles("111m333m666m5p"))
    pongs = [parse_tile("9p")]
    assert ready_value(counts, pongs, [], CHENGDU) == 2
    loose = load_rules({"preset": "chengdu", "jingoudiao_needs_four_melds": False})
    assert ready_value(counts, pongs, [], loose) == 3


# ------------------------------------------------------------------ 门清 and 中张
def test_menqing_zhongzhang() -> None:
    on = {"preset": "chengdu", "fan": {"menqing": 1, "zhongzhang": 1}}
    # 234m 456m 678m 345p 88p, no meld, no 1 or 9, on a discard: chengdu 平胡 1 -> x1;
    # 门清中张 on: 平胡 1 + 门清 1 + 中张 1 = 3 -> x4
    assert score("234m456m678m345p88p", rules=CHENGDU).fan == 1
    result = score("234m456m678m345p88p", rules=on)
    assert (result.fan, result.patterns) == (3, ("pinghu", "menqing", "zhongzhang"))
    assert discard_deltas(result.fan) == (4, -4, 0, 0)
    # the same with a kong of 7m: 平胡 1 + 根 1 + 中张 1, and 门清 when the kong is concealed
    assert score("234m456m345p88p", "7777m", rules=on, concealed_kongs=1).fan == 4
    assert score("234m456m345p88p", "7777m", rules=on, concealed_kongs=0).patterns == (
        "pinghu",
        "gen",
        "zhongzhang",
    )
    # a pong ends 门清; a 9 anywhere ends 中张
    assert score("234m456m345p88p", "777m", rules=on).patterns == ("pinghu", "zhongzhang")
    assert score("234m456m789m345p88p", rules=on).patterns == ("pinghu", "menqing")
    # standard with the option, self-drawn (自摸加番 off in standard): 清一色 3 + 门清 1 = 4
    std_on = {"preset": "standard", "fan": {"menqing": 1, "zhongzhang": 1}}
    assert score("123m456m789m123m55m", rules=std_on, context=WinContext(self_draw=True)).fan == 4


# ------------------------------------------------------------------ 十八罗汉
def test_shibaluohan() -> None:
    melds = "2222m 3333m 5555p 6666p"
    # four kongs and 88p: standard 对对胡 2 + 根 4 = 6 (十八罗汉 not scored)
    assert score("88p", melds, rules=STANDARD).fan == 6
    # 十八罗汉 at 6: 6 + 根 4 = 10 (no cap in standard) -> x512
    result = score("88p", melds, rules={"preset": "standard", "fan": {"shibaluohan": 6}})
    assert (result.fan, result.base, result.extras.count("gen")) == (10, "shibaluohan", 4)
    # sum: 十八罗汉 6 + 对对胡 2 (triplets, a feature 十八罗汉 does not need) = 1 + 5 + 1 = 7,
    # + 根 4 = 11
    summed = score(
        "88p", melds, rules={"preset": "standard", "fan_combination": "sum", "fan": {"shibaluohan": 6}}
    )
    assert (summed.fan, summed.patterns[:2]) == (11, ("shibaluohan", "duiduihu"))
    # chengdu (cap 4): 金钩钓 3 + 根 4 = 7 -> 4; 清十八罗汉 of one suit at 4 + 根 4 -> 4
    assert score("88p", melds, rules=CHENGDU).fan == 4
    pure = score(
        "55m",
        "1111m 2222m 3333m 4444m",
        rules={"preset": "chengdu", "max_fan": 8, "fan": {"qingshibaluohan": 6}},
    )
    assert (pure.fan, pure.base) == (8, "qingshibaluohan")  # 6 + 根 4 = 10, capped at 8


# ------------------------------------------------------------------ readings under sum
def test_sum_adds_within_one_reading_only() -> None:
    # 111222333m 99m + pong 999p reads as triplets (对对胡 2) or as 123m x3 with 99m and
    # 999p (带幺九 3), never both: standard highest 3, sum 3 too (not 2 + 3 = 5)
    assert score("111222333m99m", "999p", rules=STANDARD).patterns == ("daiyaojiu",)
    assert score("111222333m99m", "999p", rules=STANDARD_SUM).patterns == ("daiyaojiu",)
    # 1111m 22m 33m 55m 66m 77m (seven pairs, one suit, four 1m): standard highest 清龙七对 6
    # (its root used); sum: 龙七对 5 + 清一色 3 = 1 + 4 + 2 = 7 (the root used) beats
    # 七对 3 + 清一色 3 + 根 1 = 1 + 2 + 2 + 1 = 6 and 清龙七对 6
    assert score("11112233556677m", rules=STANDARD).patterns == ("qinglongqidui",)
    summed = score("11112233556677m", rules=STANDARD_SUM)
    assert (summed.fan, summed.patterns) == (7, ("longqidui", "qingyise"))
    # 平胡 alone: 123m 456m 789m 234p 55p is 1 either way
    assert score("123m456m789m234p55p", rules=STANDARD_SUM).patterns == ("pinghu",)


def test_which_declared_patterns_add_up() -> None:
    assert adds_up(["qingyise", "duiduihu", "jingoudiao"])
    assert adds_up(["qingdui", "jingoudiao"])
    assert adds_up(["pinghu"])
    assert not adds_up(["qingdui", "qingyise"])  # one suit twice
    assert not adds_up(["duiduihu", "daiyaojiu"])  # two readings
    assert not adds_up(["pinghu", "qingyise"])  # 平胡 only alone
    assert not adds_up(["shibaluohan", "jingoudiao"])


SUM_RULES = [
    STANDARD_SUM,
    load_rules({"preset": "chengdu", "max_fan": None, "flower_pig_payment": 16, "fan_combination": "sum"}),
    load_rules(
        {"preset": "online", "fan_combination": "sum", "jingoudiao_needs_four_melds": False,
         "fan": {"jingoudiao": 2, "qingjingoudiao": 4, "shibaluohan": 5, "menqing": 1, "zhongzhang": 1}}
    ),
]  # fmt: skip


@PROPS
@given(winning_hands(), st.integers(0, 2), st.integers(0, 26))
def test_sum_never_scores_less_than_highest(hand: Built, which: int, tile: int) -> None:
    """The best single pattern is itself a set that adds up, so ``sum`` >= ``highest``;
    the patterns ``sum`` picks add up by :func:`adds_up`."""
    summed_rules = SUM_RULES[which]
    highest_rules = load_rules({**_spec(summed_rules), "fan_combination": "highest"})
    counts = hand.counts()
    win = tile if counts[tile] else -1
    summed = score_win(counts, hand.pongs, hand.kongs, summed_rules, DISCARD_WIN, win)
    highest = score_win(counts, hand.pongs, hand.kongs, highest_rules, DISCARD_WIN, win)
    assert summed is not None and highest is not None
    assert summed.uncapped >= highest.uncapped
    assert adds_up([summed.base, *summed.also])


def _spec(rules: Any) -> dict[str, Any]:
    preset, _, overrides = rules.name.partition("+")
    return {"preset": preset, **(json.loads(overrides) if overrides else {})}


# ------------------------------------------------------------------ a score sheet
SESSION = {"type": "session", "session_id": "s1", "players": ["Ann", "Bo", "Chen", "Du"], "base": 1}
SUM_SHEET_RULES = {
    "preset": "chengdu", "max_fan": 8, "fan_combination": "sum", "fan": {"menqing": 1, "zhongzhang": 1},
}  # fmt: skip


def _sheet(tmp_path: Path, rules: Any, lines: list[dict[str, Any]]) -> Path:
    path = tmp_path / "sheet.jsonl"
    rows = [
        {**SESSION, "rules": rules},
        {"type": "deal", "deal_id": "d1", "record": "sheet", "dealer": 0},
        *lines,
    ]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_sheet_under_sum(tmp_path: Path) -> None:
    # chengdu, cap 8, sum, 门清中张 on:
    # seat 0 wins seat 1's discard: 清一色 3 + 对对胡 2 + 金钩钓 3 = 1 + 2 + 1 + 2 = 6 -> x32
    # from seat 1; seat 2 wins seat 3's discard: 平胡 1 + 门清 1 + 中张 1 = 3 -> x4 from
    # seat 3; seat 3 self-draws 七对 3 + 清一色 3 = 1 + 2 + 2 = 5 -> x16 + 1 (自摸加底) from
    # seat 1, the only seat still in; three have won. Net: 32, -32-17 = -49, 4, -4+17 = 13.
    lines: list[dict[str, Any]] = [
        {"type": "hu", "seat": 0, "from": 1, "patterns": ["qingyise", "duiduihu", "jingoudiao"], "fan": 6,
         "deltas": [32, -32, 0, 0]},
        {"type": "hu", "seat": 2, "from": 3, "patterns": ["pinghu", "menqing", "zhongzhang"], "fan": 3,
         "deltas": [0, 0, 4, -4]},
        {"type": "hu", "seat": 3, "from": None, "patterns": ["qidui", "qingyise"], "fan": 5, "deltas": [0, -17, 0, 17]},
        {"type": "deal_end", "reason": "three_won", "settlement": [0, 0, 0, 0], "scores": [32, -49, 4, 13]},
    ]  # fmt: skip
    report = validate_paths([_sheet(tmp_path, SUM_SHEET_RULES, lines)])
    assert [f.message for f in report.all_findings()] == []
    assert report.deals[0].scores == (32, -49, 4, 13)
    # under chengdu (highest) the first win declares three base patterns: fan_mismatch
    report = validate_paths([_sheet(tmp_path, "chengdu", lines)])
    assert [f.code for f in report.all_findings()][:1] == ["fan_mismatch"]
    # 清对 with 清一色 counts one suit twice: fan_mismatch under the rule fan_combination
    bad = [{"type": "hu", "seat": 0, "from": 1, "patterns": ["qingdui", "qingyise"]}, *lines[1:]]
    (finding, *_) = validate_paths([_sheet(tmp_path, SUM_SHEET_RULES, bad)]).all_findings()
    assert (finding.code, finding.rule) == ("fan_mismatch", "fan_combination")


# ------------------------------------------------------------------ whole deals
HOUSE = [
    {"preset": "standard", "fan_combination": "sum"},
    {"preset": "chengdu", "fan_combination": "sum", "jingoudiao_needs_four_melds": False,
     "fan": {"menqing": 1, "zhongzhang": 1, "qingjingoudiao": 4}},
    {"preset": "online", "fan": {"menqing": 1, "zhongzhang": 1, "gen": 2, "gangshanghua": 2}},
]  # fmt: skip


@pytest.mark.parametrize("house", HOUSE, ids=["standard-sum", "chengdu-sum-loose-menqing", "online-rows"])
def test_whole_deals_under_the_fan_knobs(tmp_path: Path, house: dict[str, Any]) -> None:
    """The simulator plays and records wins under the knobs; the audit (the fast path and
    the engine) agrees; the same log under the plain preset differs somewhere."""
    plan = ClubPlan(players=6, sessions=16, deals_per_session=12, seed=26, rules=house)
    path = tmp_path / "fan.jsonl"
    records = list(simulate_club(plan))
    write_log(records, path)
    if house.get("fan_combination") == "sum":  # some win adds two base patterns up
        wins = [r.patterns for r in records if isinstance(r, Hu) and r.patterns is not None]
        bases = [[p for p in patterns if p not in EXTRA_IDS] for patterns in wins]
        assert any(len(b) > 1 for b in bases)
    audited = validate_log(read_log(path))
    assert audited.ok, [f.message for f in audited.all_findings()][:3]
    plain = validate_log(read_log(path), load_rules(house["preset"]))
    codes = {f.code for f in plain.all_findings()}
    assert codes & {"fan_mismatch", "payment_mismatch"}, codes


# ------------------------------------------------------------------ 6b: a wait on one's own kong
def test_a_tile_the_seat_holds_four_of_is_no_wait() -> None:
    # 123m 456m 789m 5p in hand and a kong of 5p: the hand needs a fifth 5p, so it has no
    # wait at all: not ready at 查叫, under dead_wait_counts true as under false.
    counts = to_counts(parse_tiles("123m456m789m5p"))
    kongs = [parse_tile("5p")]
    assert wait_mask(counts, [], kongs) == 0
    for dead in (True, False):
        rules = load_rules({"preset": "standard", "dead_wait_counts": dead})
        assert ready_value(counts, [], kongs, rules) is None
    # a pong of 5p and the fourth in hand: no wait either
    assert wait_mask(counts, [parse_tile("5p")], []) == 0
    # a 5p kong elsewhere is not the seat's own: with a 5p single in hand and no kong the
    # hand waits on 5p (平胡 1), whatever the other copies' whereabouts (death is 查叫's)
    assert wait_mask(counts, [], []) == 1 << parse_tile("5p")


# ------------------------------------------------------------------ the novikov preset
NOVIKOV = load_rules("novikov")


def test_novikov_scores_as_the_sichuan_bloody_rules() -> None:
    """Their fan (plain win 0, paying 1, 2, 4, at most 8) is chuanma's less one; each hand
    below worked out in their count and in chuanma's (docs/presets.md, "novikov")."""
    # 111m 333m 666m 55p + pong 999p on a discard: all triplets 1 -> 2 points.
    # chuanma: 对对胡 2 -> x2 from the discarder.
    result = score("111m333m666m55p", "999p", rules=NOVIKOV)
    assert (result.fan, result.patterns) == (2, ("duiduihu",))
    assert discard_deltas(result.fan) == (2, -2, 0, 0)
    # HOOK: full flush 2 + golden single wait 2 (in place of all triplets) = 4 -> 8 at most.
    # chuanma: 清一色 3 + 金钩钓 2 + 对对胡 2 = 1 + 2 + 1 + 1 = 5, capped at 4 -> x8.
    result = score(*HOOK, rules=NOVIKOV, win="5m")
    assert (result.fan, result.uncapped) == (4, 5)
    assert result.patterns == ("qingyise", "duiduihu", "jingoudiao")
    assert discard_deltas(result.fan) == (8, -8, 0, 0)
    # seven pairs of two suits holding four 1m: seven pairs 2 + a root 1 = 3 -> 8.
    # chuanma: 七对 3 + 根 1 = 1 + 2 + 1 = 4 -> x8 (龙七对 is not a row of its own).
    result = score("1111m2233m55p6677p", rules=NOVIKOV)
    assert (result.fan, result.patterns) == (4, ("qidui", "gen"))
    # full flush of sequences, won on the last tile: flush 2 + under the sea 1 = 3 -> 8.
    result = score("123m456m789m234m55m", rules=NOVIKOV, context=WinContext(last_tile=True))
    assert (result.fan, result.patterns) == (4, ("qingyise", "haidi"))
    # a plain self-draw: 1 point, +1 from each payer (自摸加底): 2 from each of three.
    plain = score("123m456m789m234p55p", rules=NOVIKOV, context=WinContext(self_draw=True))
    assert (plain.fan, plain.patterns) == (1, ("pinghu",))
    settler = Settler(NOVIKOV)
    settler.win_self_draw(0, plain.fan, 1, None)
    assert deltas(settler.ledger) == (6, -2, -2, -2)


def test_novikov_deals_play_and_audit_clean(tmp_path: Path) -> None:
    """The simulator plays whole deals under the preset (定缺, 换三张, the bloody end) and
    the audit agrees with every payment it wrote."""
    plan = ClubPlan(players=5, sessions=8, deals_per_session=8, seed=41, rules="novikov")
    path = tmp_path / "novikov.jsonl"
    records = list(simulate_club(plan))
    write_log(records, path)
    audited = validate_log(read_log(path))
    assert audited.ok, [f.message for f in audited.all_findings()][:3]
    wins = [r.patterns for r in records if isinstance(r, Hu) and r.patterns is not None]
    assert wins and all("qingdui" not in patterns for patterns in wins)
