"""``chuanma hand`` run as a real console script in subprocesses: the --json contract,
melds, --win-tile, situation flags, --rules, errors (exit 2) and speed."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

KEYS = ["hand", "is_win", "fan", "patterns", "waits", "ready_fan"]


def _command() -> list[str]:
    script = Path(sys.executable).with_name("chuanma")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "dashboard.cli"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*_command(), "hand", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )


def run_json(*args: str) -> list[dict[str, Any]]:
    done = run("--json", *args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    objects = [json.loads(line) for line in lines]
    for obj in objects:
        assert list(obj)[:6] == KEYS  # the contract's keys first, as ever; then the shanten's
        assert list(obj)[6:] in (["shanten", "effective"], ["shanten", "discards"])
    return objects


def one(*args: str) -> dict[str, Any]:
    (obj,) = run_json(*args)
    return obj


def test_json_contract_one_object_per_hand_in_input_order() -> None:
    hands = [
        "1112345678999m",  # 九莲: waits 1m-9m; 1m/9m give 清一色 + 根 = 4
        "11122233399955m",  # 清对 4
        "12345678999p 1111m",  # kong meld: 平胡 + 根 = 2
        "1133446666m5588p",  # 龙七对 5 (standard)
        "11122233399956m",  # 14 tiles, no win (56m cannot be a set)
        "12345678m13579p",  # 13 tiles, no wait
        "11123456s12355p",  # waits 1s 4s 7s and 5p: printed p before s
    ]
    objects = run_json(*hands)
    assert [o["hand"] for o in objects] == hands
    assert [{key: o[key] for key in KEYS} for o in objects] == [
        {
            "hand": hands[0],
            "is_win": False,
            "fan": None,
            "patterns": [],
            "waits": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"],
            "ready_fan": 4,
        },
        {"hand": hands[1], "is_win": True, "fan": 4, "patterns": ["qingdui"], "waits": [], "ready_fan": None},
        {
            "hand": hands[2],
            "is_win": True,
            "fan": 2,
            "patterns": ["pinghu", "gen"],
            "waits": [],
            "ready_fan": None,
        },
        {
            "hand": hands[3],
            "is_win": True,
            "fan": 5,
            "patterns": ["longqidui"],
            "waits": [],
            "ready_fan": None,
        },
        {"hand": hands[4], "is_win": False, "fan": None, "patterns": [], "waits": [], "ready_fan": None},
        {"hand": hands[5], "is_win": False, "fan": None, "patterns": [], "waits": [], "ready_fan": None},
        {
            "hand": hands[6],
            "is_win": False,
            "fan": None,
            "patterns": [],
            "waits": ["5p", "1s", "4s", "7s"],
            # 1s makes 1111s (根): 111 123 456s 123 55p = 平胡 + 根 = 2
            "ready_fan": 2,
        },
    ]


def test_melds_in_a_ready_hand() -> None:
    # 金钩钓 ready: four pongs, single 6p.  standard 对对胡 2, chengdu 金钩钓 3.
    hand = "6p 111m 333m 444m 222p"
    assert one(hand)["waits"] == ["6p"]
    assert one(hand)["ready_fan"] == 2
    assert one("--rules", "chengdu", hand)["ready_fan"] == 3
    # a pong whose fourth copy is in hand: 123m 456 789 99p + pong 111m = 平胡 + 根
    assert one("123m45678999p 111m")["patterns"] == ["pinghu", "gen"]


def test_win_tile() -> None:
    assert one("--win-tile", "1p", "12345678999p 1111m")["fan"] == 2
    assert one("--win-tile", "9p", "12345678999p 1111m")["patterns"] == ["pinghu", "gen"]
    missing = run("--win-tile", "5m", "12345678999p 1111m")
    assert missing.returncode == 2
    assert "5m is not among the concealed tiles" in missing.stderr
    thirteen = run("--win-tile", "1m", "1112345678999m")
    assert thirteen.returncode == 2
    assert "14-tile hand only" in thirteen.stderr
    bad = run("--win-tile", "0m", "12345678999p 1111m")
    assert bad.returncode == 2
    assert "'0m' is not a tile" in bad.stderr


KONG_HAND = "12345678999p 1111m"  # 平胡 + 根 (the kong)
PLAIN = "123345789m23466p"  # 平胡, no root


@pytest.mark.parametrize(
    ("args", "fan", "patterns"),
    [
        (["--self-draw", KONG_HAND], 2, ["pinghu", "gen"]),  # standard: no 自摸 fan
        (["--self-draw", "--after-kong", KONG_HAND], 3, ["pinghu", "gen", "gangshanghua"]),
        (["--after-kong", PLAIN], 2, ["pinghu", "gangshangpao"]),
        (["--rob-kong", PLAIN], 2, ["pinghu", "qiangganghu"]),
        (["--last-tile", PLAIN], 1, ["pinghu"]),  # haidi is off in standard
        (["--rules", '{"preset": "standard", "haidi": true}', "--last-tile", PLAIN], 2, ["pinghu", "haidi"]),
        (
            ["--rules", '{"preset": "standard", "self_draw_bonus": "add_fan"}', "--self-draw", PLAIN],
            2,
            ["pinghu", "zimo"],
        ),
        (["--first-turn", "--dealer", PLAIN], 6, ["tianhu"]),
        (["--first-turn", PLAIN], 6, ["dihu"]),
        (["--rules", "chengdu", "--first-turn", "--dealer", PLAIN], 4, ["tianhu"]),  # 'cap'
        # 地胡 needs no pong or kong before: with a kong meld it is a plain self-draw
        (["--first-turn", KONG_HAND], 2, ["pinghu", "gen"]),
        # --first-turn implies --self-draw: add_fan gives 天胡 6 + 自摸 1
        (
            [
                "--rules",
                '{"preset": "standard", "self_draw_bonus": "add_fan"}',
                "--first-turn",
                "--dealer",
                PLAIN,
            ],
            7,
            ["tianhu", "zimo"],
        ),
    ],
)
def test_situation_flags(args: list[str], fan: int, patterns: list[str]) -> None:
    obj = one(*args)
    assert (obj["is_win"], obj["fan"], obj["patterns"]) == (True, fan, patterns)


def test_contradictory_flags_exit_2() -> None:
    done = run("--rob-kong", "--self-draw", PLAIN)
    assert done.returncode == 2
    assert "rob a kong" in done.stderr


@pytest.mark.parametrize(
    ("rules", "hand", "fan", "patterns"),
    [
        ("chengdu", "1133446666m5588p", 4, ["qidui", "gen"]),  # no 龙七对 row: 七对 3 + 根
        ("online", "1133446666m5588p", 5, ["longqidui"]),
        ("standard", "11224444557799m", 6, ["qinglongqidui"]),
        ('{"preset": "standard", "max_fan": 4}', "11224444557799m", 4, ["qinglongqidui"]),
        ('{"preset": "chengdu", "fan": {"daiyaojiu": 3}}', "12312399m123789s", 3, ["daiyaojiu"]),
        ("chengdu", "12312399m123789s", 2, ["daiyaojiu"]),
    ],
)
def test_rules_option(rules: str, hand: str, fan: int, patterns: list[str]) -> None:
    obj = one("--rules", rules, hand)
    assert (obj["fan"], obj["patterns"]) == (fan, patterns)


@pytest.mark.parametrize(
    ("hand", "problem"),
    [
        ("1x23456789m1234p", "unexpected 'x'"),  # bad tile
        ("0123456789m123p", "unexpected '0'"),
        ("11111m23456789p", "5 copies of 1m"),  # fifth copy in hand
        ("123456789p99p1m 1111m", "5 copies of 1m"),  # fifth copy with a kong meld
        ("123456789m123p", "counts 12 tiles"),
        ("123456789m123456p", "counts 15 tiles"),
        ("12345678999p 123m", "meld '123m' must be three (pong) or four (kong) identical tiles"),
        ("12345678999p 11m", "meld '11m' must be three"),
        ("", "empty hand"),
    ],
)
def test_malformed_hand_exits_2_naming_the_problem(hand: str, problem: str) -> None:
    done = run("--json", "1112345678999m", hand)
    assert done.returncode == 2
    assert problem in done.stderr
    assert f"hand {hand!r}" in done.stderr


@pytest.mark.parametrize(
    ("rules", "problem"),
    [
        ("sichuan", "unknown preset 'sichuan'"),
        ('{"preset": "standard", "max_fan": 0}', "max_fan"),
        ('{"preset": "standard", "colour": 1}', "unknown knob 'colour'"),
        ('{"preset": "standard",', "rules JSON cannot be read"),
        ('{"fan": {"pinghu": "none"}}', "fan of 'pinghu' cannot be 'none'"),  # was a crash
    ],
)
def test_bad_rules_exit_2(rules: str, problem: str) -> None:
    done = run("--rules", rules, "1112345678999m")
    assert done.returncode == 2
    assert problem in done.stderr
    assert done.stdout == ""


def test_readable_output_has_chinese_and_english_names() -> None:
    done = run(
        "--rules",
        "chengdu",
        "11122233399955m",
        "11224444557799m",
        "1112345678999m",
        "12345678m13579p",
        "11122233399956m",
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "rules: chengdu"
    assert len(lines) == 6
    assert "胡 win" in lines[1]
    assert "4 番 fan" in lines[1]
    assert "清对 pure all triplets" in lines[1]
    # 清七对 5 + 根 1 = 6, cut to chengdu's 4
    assert "清七对 pure seven pairs" in lines[2]
    assert "根 root" in lines[2]
    assert "capped from 6" in lines[2]
    assert "听牌 ready" in lines[3]
    assert "1m 2m 3m 4m 5m 6m 7m 8m 9m" in lines[3]
    assert "查大叫" in lines[3]
    assert "未听牌 not ready" in lines[4]
    assert "不能胡 no win" in lines[5]


def test_two_thousand_hands_in_one_call_are_quick() -> None:
    rng = random.Random(7)
    pool = [f"{rank}{suit}" for suit in "mp" for rank in range(1, 10) for _ in range(4)]
    hands = []
    for index in range(2000):
        tiles = sorted(rng.sample(pool, 13 + index % 2), key=lambda n: (n[1], n[0]))
        hands.append("".join(f"{name[0]}{name[1]}" for name in tiles))
    hands[::7] = ["1112345678999m"] * len(hands[::7])
    start = time.perf_counter()
    done = run("--json", *hands)
    elapsed = time.perf_counter() - start
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2000
    assert json.loads(lines[0])["waits"] == [f"{r}m" for r in range(1, 10)]
    assert [json.loads(line)["hand"] for line in lines] == hands
    assert elapsed < 10, f"2000 hands took {elapsed:.1f} s"


def test_a_concealed_kong_in_brackets_keeps_menqing() -> None:
    # 234p 567p 789p 55p + 1111s, with 门清 scored (1): written open, 平胡 1 + 根 1 = 2 fan; in
    # brackets (暗杠) it keeps 门清: 3; the same 13 tiles wait on 2p 5p 8p, valued at 3
    rules = '{"preset": "standard", "fan": {"menqing": 1}}'
    assert one("--rules", rules, "23456778955p 1111s")["fan"] == 2
    concealed = one("--rules", rules, "23456778955p [1111s]")
    assert (concealed["fan"], concealed["patterns"]) == (3, ["pinghu", "gen", "menqing"])
    ready = one("--rules", rules, "2345677895p [1111s]")
    assert (ready["waits"], ready["ready_fan"]) == (["2p", "5p", "8p"], 3)
    done = run("2345677895p [111s]")  # a pong cannot be concealed
    assert done.returncode == 2 and "暗杠" in done.stderr


def test_hongzhong_and_other_tables_through_the_command() -> None:
    """红中 written 7z or 中 at a table with them (--rules), the waits ending with 7z; a
    ten-tile table's hand; a 红中 where the table has none exits 2."""
    rules = '{"preset": "standard", "wild_tiles": 4}'
    # four sets and a 红中: it pairs with any 万 or 筒 (a 条 would be a third suit)
    (ready,) = run_json("--rules", rules, "123456789m111p中")
    assert ready["waits"] == [f"{r}{s}" for s in "mp" for r in range(1, 10)] + ["7z"]
    assert ready["ready_fan"] == 2  # a 1p: 1111p, 平胡 and a root
    # 1111m + 中 is 111m and the pair 1m中, with 222p 333p 345p: 平胡 + two roots (1m, 3p)
    assert one("--rules", rules, "1111m222p333p345p7z")["patterns"] == ["pinghu", "gen", "gen"]
    assert one("--rules", "hongzhong", "--first-turn", "中中中中123m456m129p")["patterns"] == ["sihongzhong"]
    assert one("--rules", "duangouka", "123p456p789s1s")["waits"] == ["1s"]
    done = run("123456789m111p中")
    assert done.returncode == 2 and "中" in done.stderr
    text = run("--rules", rules, "123456789m111p7z")
    assert text.returncode == 0 and "waits 1m" in text.stdout and "7z;" in text.stdout


def test_shanten_effective_and_discards() -> None:
    """向听数 and 有效牌 worked by hand: 九莲 waits on every 万 (1m and 9m: one left, the
    hand holds three); a void 万 hand of thirteen 万 is 13 from ready; 11122233399955m is a
    win (-1) whose best discard 1m leaves 1122233399955m... ready on 1m (1 left), 4m (4),
    5m (2): 7 tiles; a kong seen by the hand alone."""
    ready = one("1112345678999m")
    assert ready["shanten"] == 0
    assert ready["effective"] == [{"tile": f"{r}m", "left": 1 if r in (1, 9) else 3} for r in range(1, 10)]
    # 定缺 万: every 万 must go, 13 of them: 13 from ready
    assert one("--void", "m", "1112345678999m")["shanten"] == 13
    # a win of 14 tiles is -1; its best discard keeps it ready with the most tiles
    win = one("11122233399955m")
    assert win["shanten"] == -1
    first = win["discards"][0]
    assert (first["tile"], first["shanten"], first["effective_count"]) == ("1m", 0, 7)
    # melds: alone, a hand sees its own kong (1m: 4 - 4 = 0 left, so none listed)
    kong = one("2345677895p 1111s")
    assert kong["shanten"] == 0
    assert [e["tile"] for e in kong["effective"]] == ["2p", "5p", "8p"]
    assert [e["left"] for e in kong["effective"]] == [3, 2, 3]  # 5p: two held


def test_void_option_must_be_a_suit_of_the_table() -> None:
    done = run("--void", "z", "1112345678999m")
    assert done.returncode == 2 and "--void" in done.stderr
