"""dcmshi/sichuan-mahjong replay exports (docs/platforms.md): the seeded wall ported from
the app, then a golden export of three rounds read by content through the real commands.

tests/golden/platforms/dcmshi_replays.json: one match's three rounds (the sidecar
``.expected.json`` says what each gives): a clean first round, a round whose results
claim a wrong payment, a round with an action no app writes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from warehouse_fixtures import read_table

from ingest.platforms.dcmshi import chuanma_seat, convert_dcmshi, read_dcmshi, tile_name
from ingest.platforms.dcmshi_rng import Rng, break_offset, build_wall, deal_wall, seed_hash, throw_for_seats
from ingest.platforms.detect import platform_of
from ingest.replay.files import read_log_bytes
from ingest.replay.validate import validate_log

GOLDEN = Path(__file__).parent / "golden" / "platforms"
EXPORT = GOLDEN / "dcmshi_replays.json"
EXPECTED = json.loads((GOLDEN / "dcmshi_replays.expected.json").read_text(encoding="utf-8"))
MASK = 0xFFFFFFFF


ROOT = Path(__file__).parent.parent


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """The real CLI, as ``python -m`` from this checkout (an installed ``chuanma`` script
    may belong to another checkout sharing the environment)."""
    return subprocess.run(
        [sys.executable, "-m", "dashboard.cli", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
        cwd=ROOT,
    )


def _records() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(EXPORT.read_text(encoding="utf-8"))
    return data


def _validate(records: list[dict[str, Any]] | dict[str, Any]) -> Any:
    return validate_log(read_dcmshi(json.dumps(records).encode(), "export.json"))


def _deals(report: Any) -> dict[str, Any]:
    return {deal.deal_id.rsplit("-", 1)[1]: deal for deal in report.deals}


def _codes(deal: Any) -> list[tuple[str, int | None]]:
    return [(f.code, f.line) for f in deal.findings]


# -- the wall ------------------------------------------------------------------


def test_seed_hash_is_javas_string_hash_over_utf16_units() -> None:
    # by hand: h = 31 * h + code, kept to 32 bits
    assert seed_hash("a") == 97
    assert seed_hash("ab") == 31 * 97 + 98
    text = "0b6f7c1e-2c4a-4f7e-9a51-3d2e8c1f0a9b"  # a UUID, what the server seeds with
    assert seed_hash(text) == sum(ord(c) * 31 ** (len(text) - 1 - i) for i, c in enumerate(text)) & MASK
    # charCodeAt reads UTF-16 units: the emoji is the two surrogates 0xD83D 0xDE00
    assert seed_hash("a😀b") == (((97 * 31 + 0xD83D) * 31 + 0xDE00) * 31 + 98) & MASK


def test_rng_matches_the_apps_generator() -> None:
    """Vectors from rng.ts's createRng run under Node.js (JavaScript number semantics)."""
    for seed, first in {
        "hello": [431686969, 3931469927, 813273022],
        "0b6f7c1e-2c4a-4f7e-9a51-3d2e8c1f0a9b": [535032811, 939090133, 3676459452],
        "a😀b": [1505359638, 1456459096, 2630228480],
    }.items():
        rng = Rng(seed)
        assert [rng.next(), rng.next(), rng.next()] == first, seed


def test_wall_is_the_apps_shuffle() -> None:
    wall = build_wall("hello")
    assert sorted(wall) == list(range(108))
    assert wall[:12] == [5, 92, 13, 36, 28, 1, 91, 71, 9, 22, 99, 46]  # tiles.ts buildWall under Node.js
    assert wall[-4:] == [41, 0, 64, 61]


def test_dice_seat_east_and_break_the_wall() -> None:
    # "hello:dice" throws (6,5) (6,3) (1,4) (6,3): seat 0's 11 is highest, East is 0; East
    # then throws (5,6): sum 11, (11 - 1) % 4 = 2 seats back from East is seat 2, whose
    # quarter is (4 - 2) % 4 = 2; the lower die 5 is the indent: 2 * 27 + 27 - 5 * 2 = 71.
    dice = Rng("hello:dice")
    assert throw_for_seats(dice) == 0
    assert break_offset(dice, 0) == 71
    dealt = deal_wall("hello", None, True)
    wall = build_wall("hello")
    assert (dealt.dealer, dealt.seating_throw) == (0, True)
    assert list(dealt.wall) == wall[71:] + wall[:71]
    # a later round: no seating throw, so East's throw is the stream's first (6,5): 2 back
    # from seat 1 is seat 3, quarter 1: 27 + 17 = 44
    assert list(deal_wall("hello", 1, True).wall) == wall[44:] + wall[:44]


def test_seats_turn_the_other_way_round() -> None:
    # the app plays by decreasing seat (nextActiveSeat), chuanma by increasing
    assert [chuanma_seat(s) for s in range(4)] == [0, 3, 2, 1]
    assert [tile_name(t) for t in (0, 35, 36, 71, 72, 107)] == ["1m", "9m", "1p", "9p", "1s", "9s"]


# -- the golden export -----------------------------------------------------------


def test_golden_records_match_the_sidecar() -> None:
    report = _validate(_records())
    deals = _deals(report)
    assert report.file_findings == []
    for n, want in EXPECTED["records"].items():
        deal = deals[f"r{n}"]
        assert [c for c, _ in _codes(deal)] == want["codes"], _codes(deal)
        assert [line for _, line in _codes(deal)] == want.get("lines", [])
        assert list(deal.scores) == want["scores"]


def test_clean_round_its_wins_and_payments() -> None:
    log = read_dcmshi(EXPORT.read_bytes(), "export.json")
    session = log.sessions[0].session
    # results name Ada, Bo, Cai, Dong at app seats 0-3; chuanma seats run 0, 3, 2, 1
    assert session is not None and list(session.players) == ["Ada", "Dong", "Cai", "Bo"]
    deal = _deals(validate_log(log))["r1"]
    assert _codes(deal) == []
    # app seat 1 (chuanma 3) deals; seat 0 wins 7p off seat 1 (1 point), seat 3 wins 8s off
    # seat 1 (1), seat 1 self-draws 2s and seat 2, the only seat still in, pays 1 + 1:
    # app seats [1, -1 - 1 + 2, -2, 1] = [1, 0, -2, 1], in chuanma order [1, 1, -2, 0]
    assert list(deal.scores) == [1, 1, -2, 0]


def test_the_dealer_and_the_seating_throw_are_inferred() -> None:
    deals = _deals(_validate(_records()))
    notes = {n: [f for f in deals[n].warnings if f.code == "platform_inferred"] for n in ("r1", "r2", "r3")}
    assert [(f.line, f.seat) for f in notes["r1"]] == [(1000, 3)]  # app seat 1
    assert "first round (the seating throw ran)" in notes["r1"][0].message
    # record 2: the seating throw would seat app seat 0 too; the tile ids decide
    assert [(f.line, f.seat) for f in notes["r2"]] == [(2000, 0)]
    assert "a later round" in notes["r2"][0].message and "the moves decide it" in notes["r2"][0].message


def test_wrong_payment_is_found_at_its_action() -> None:
    deal = _deals(_validate(_records()))["r2"]
    # action 83: app seat 2 (chuanma 2) wins 2p off seat 0 with 234p 789p 99p + pongs:
    # a plain win, 1 point; the results claim AllPungs (2) and the net follows it
    found = {f.code: f for f in deal.findings}
    assert found["payment_mismatch"].line == 2083
    assert found["score_mismatch"].line == 2999
    assert list(deal.scores) == [1, -3, 1, 1]


def test_an_unreadable_action_is_a_finding_and_the_other_records_are_checked() -> None:
    records = _records()
    records[0]["actionLog"][44] = {"t": "discard", "seat": 1, "tile": "7p"}  # a tile id must be a number
    deals = _deals(_validate(records))
    assert ("bad_record", 1045) in _codes(deals["r1"])
    assert _codes(deals["r3"]) == [("bad_record", 3020)]
    assert "'chi'" in deals["r3"].findings[0].message


def test_a_record_without_a_seed_is_set_aside() -> None:
    records = _records()
    del records[1]["seed"]
    report = _validate(records)
    assert sorted(_deals(report)) == ["r1", "r3"]
    assert [(f.code, f.line) for f in report.file_findings] == [("bad_record", 2000)]


def test_rules_come_from_the_config() -> None:
    record = _records()[0]
    header = convert_dcmshi(json.dumps(record).encode(), "one.json").objects()[0][1]
    rules = header["rules"]
    assert (rules["preset"], rules["max_fan"], rules["void_discard_first"]) == ("novikov", 4, True)
    assert rules["flower_pig_payment"] == 0 and rules["fan"] == {"tianhu": "cap", "dihu": "cap"}
    record["config"] |= {"fanCap": 2, "enableFlowerPig": True, "voidDiscardRule": "lenient", "turbo": True}
    converted = convert_dcmshi(json.dumps(record).encode(), "one.json")
    rules = converted.objects()[0][1]["rules"]
    assert (rules["max_fan"], rules["flower_pig_payment"], rules["void_discard_first"]) == (3, "cap", False)
    assert sorted(f.code for deal, f in converted.findings if deal is None) == [
        "platform_rule",
        "platform_rule",
    ]
    record["config"]["fanCap"] = "three"
    converted = convert_dcmshi(json.dumps(record).encode(), "one.json")
    assert converted.lines == []
    assert [f.code for _, f in converted.findings] == ["bad_record"]


def test_a_false_self_draw_is_a_platform_rule_and_the_net_is_not_checked() -> None:
    record = _records()[0]
    # before action 13 (seat 1 discards) seat 1 declares a win it does not have: the app
    # fines it and seat 1 plays on
    record["actionLog"].insert(12, {"t": "declareHuOnDraw", "seat": 1})
    deal = _deals(_validate(record))["r1"]
    assert _codes(deal) == []
    rules = [(f.code, f.line) for f in deal.warnings if f.code == "platform_rule"]
    assert rules == [("platform_rule", 1013), ("platform_rule", 1999)]


def test_detection_by_content_not_name() -> None:
    data = EXPORT.read_bytes()
    assert platform_of(data) == "dcmshi"
    assert platform_of(json.dumps(_records()[0]).encode()) == "dcmshi"  # one round, unlisted
    assert platform_of(b'[{"seed": "x"}]') is None
    assert platform_of((GOLDEN / "open_mahjong_sichuan.json").read_bytes()) == "open_mahjong"
    log = read_log_bytes(data, "replays.jsonl")  # the name says JSON Lines; the content decides
    assert len(list(log.iter_deals())) == 3
    broken = read_log_bytes(data[:-40], "cut.json")
    assert [f.code for f in broken.findings] == ["bad_record"]


def test_cli_validate_json_reads_the_export(tmp_path: Path) -> None:
    target = tmp_path / "download.txt"  # no telling name
    target.write_bytes(EXPORT.read_bytes())
    done = run("validate", target, "--json")
    report = json.loads(done.stdout)
    statuses = {d["deal_id"].rsplit("-", 1)[1]: d["status"] for d in report["deals"]}
    assert statuses == {"r1": "ok", "r2": "findings", "r3": "findings"}, done.stderr
    # [1, 1, -2, 0] + [1, -3, 1, 1] + [-4, -1, -1, 6]
    assert report["sessions"][0]["computed"]["totals"] == EXPECTED["totals"] == [-2, -3, -2, 7]


def test_ingest_into_a_warehouse(tmp_path: Path) -> None:
    warehouse = tmp_path / "wh"
    done = run("ingest", EXPORT, "--warehouse", warehouse, "--workers", "0", "--json")
    assert done.returncode in (0, 1, 3), done.stderr
    deals = read_table(warehouse, "deals")
    assert sorted(deals["status"].to_pylist()) == ["findings", "findings", "ok"]


# -- 换三张 and kongs: tests/golden/platforms/dcmshi_kongs.json ---------------------

KONGS = GOLDEN / "dcmshi_kongs.json"


def _kongs() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(KONGS.read_text(encoding="utf-8"))
    return data


def test_exchange_kongs_and_their_payments() -> None:
    """One round (app seat 0 deals, 换三张 on), worked by hand in app seats:

    action 39, seat 0's concealed kong of 9s: 2 from each of seats 1, 2, 3;
    52, seat 1 self-draws 7p (999m 11p 234p 567p + pong 1m, a plain win, 1): 2 from each;
    57, seat 2's exposed kong of seat 3's 3m: 2 from seat 3;
    73, seat 2 wins 6p off seat 3 (77m 456p 567p + kong 3m + pong 2m: Kong, 2);
    89, seat 3 adds the 5m it just drew to its pong: 1 from seat 0, the only seat still in;
    99, seat 0 wins 3p off seat 3 (234p 33p 234s 345s + kong 9s: Kong, 2).
    Net: seat 0 6 - 2 - 1 + 2 = 5, seat 1 -2 + 6 = 4, seat 2 -2 - 2 + 2 + 2 = 0,
    seat 3 -2 - 2 - 2 - 2 + 1 - 2 = -9; in chuanma's order [s0, s3, s2, s1].
    """
    record = _kongs()
    lines = [obj for _, obj in convert_dcmshi(json.dumps(record).encode(), "kongs.json").objects()]
    exchange = next(obj for obj in lines if obj["type"] == "exchange")
    # "kong-198" hashes even: ccw, app seat s gives to s - 1, chuanma seat c to c + 1
    assert seed_hash("kong-198") & 1 == 0
    assert exchange["direction"] == "counterclockwise"
    # what each gives, in chuanma's order: app seats 0, 3 (ids 53 59 66), 2, 1
    assert exchange["tiles"] == [
        ["5m", "8m", "8m"],
        ["5p", "6p", "8p"],
        ["1p", "3p", "4p"],
        ["3s", "9s", "9s"],
    ]
    kongs = [(obj["seat"], obj["tile"], obj["kind"]) for obj in lines if obj["type"] == "kong"]
    assert kongs == [(0, "9s", "concealed"), (2, "3m", "exposed"), (1, "5m", "added")]
    deal = _deals(_validate(record))["r1"]
    assert _codes(deal) == []
    assert list(deal.scores) == [5, -9, 0, 4]
    record["results"]["players"][3]["scoreDelta"] = -8  # the app's net for seat 3 is -9
    deal = _deals(_validate(record))["r1"]
    assert _codes(deal) == [("score_mismatch", 1999)]


def test_a_robbed_added_kong_is_a_win_off_the_konger() -> None:
    record = _kongs()
    del record["results"]  # no results to tell a win from a false one: every claim stands
    # a claim right after seat 3's added kong of 5m (action 89) is a rob of it
    record["actionLog"].insert(89, {"t": "claim", "seat": 0, "claim": {"kind": "hu"}})
    lines = [
        (line, obj) for line, obj in convert_dcmshi(json.dumps(record).encode(), "robbed.json").objects()
    ]
    robbed = next((line, obj) for line, obj in lines if obj["type"] == "hu" and obj["tile"] == "5m")
    assert robbed == (1090, {"type": "hu", "seat": 0, "tile": "5m", "from": 1})
    # no replacement draw for the konger after a rob: the next line is the next action's
    after = [obj for line, obj in lines if line in (1089, 1090)]
    assert [obj["type"] for obj in after] == ["kong", "hu"]


def test_api_validate_path_tells_the_export_by_its_bytes() -> None:
    """POST /v1/validate names an upload by its first bytes, then reads it as here."""
    from dashboard.api.writes import file_name

    data = EXPORT.read_bytes()
    named = file_name(None, data)
    statuses = sorted(d.status for d in validate_log(read_log_bytes(data, named)).deals)
    assert statuses == ["findings", "findings", "ok"]


def test_an_unreadable_result_is_a_finding_and_its_win_still_replays() -> None:
    record = _records()[0]
    record["results"]["players"][0]["hu"]["handValue"] = 3  # 2 ** fan: 3 is none
    deal = _deals(_validate(record))["r1"]
    assert _codes(deal) == [("bad_record", 1999)]
    assert "handValue 3" in deal.findings[0].message
    assert [f.code for f in deal.warnings] == ["platform_inferred"]  # the win is no false one
    assert list(deal.scores) == [1, 1, -2, 0]  # replayed as before; the net is not claimed


def test_the_wall_runs_out_and_the_ready_seat_is_paid() -> None:
    """tests/golden/platforms/dcmshi_wall_end.json, by hand in app seats: seat 2 wins 1s off
    seat 1 (1), seat 3 wins 7p off seat 0 (1); the wall runs out with seats 0 and 1 in.
    Seat 0 holds 111m 22m 3m 44m 66m + pong 8m: on 3m it is 111m 234m 234m 66m, all 万,
    FullFlush (2 fan, 4; no all-pung reading: the one 3m needs a chow). Seat 1
    (2m 333m 44m 4s + pongs 9m 5m) waits on nothing, so it pays seat 0 its 4 (calcTMV).
    Net: seat 0 -1 + 4 = 3, seat 1 -1 - 4 = -5, seats 2 and 3 +1.
    """
    record = json.loads((GOLDEN / "dcmshi_wall_end.json").read_text(encoding="utf-8"))
    deal = _deals(_validate(record))["r1"]
    assert _codes(deal) == []
    end = convert_dcmshi(json.dumps(record).encode(), "wall.json").objects()[-2][1]
    assert end == {"type": "deal_end", "reason": "wall_exhausted", "scores": [3, 1, 1, -5]}
    assert list(deal.settlement) == [4, 0, 0, -4]  # chuanma seats: app 1 is 3
    assert list(deal.scores) == [3, 1, 1, -5]


def test_passes_and_an_expired_window_change_nothing_but_a_stray_pass_is_a_finding() -> None:
    record = json.loads((GOLDEN / "dcmshi_wall_end.json").read_text(encoding="utf-8"))
    assert record["actionLog"][13] == {"t": "claim", "seat": 1, "claim": {"kind": "pung"}}  # of seat 2's 9m
    record["actionLog"][14:14] = [{"t": "pass", "seat": 0}, {"t": "claimWindowExpire"}]
    deal = _deals(_validate(record))["r1"]
    assert _codes(deal) == []
    assert list(deal.scores) == [3, 1, 1, -5]
    record["actionLog"].insert(1, {"t": "pass", "seat": 3})  # during the 定缺: no window is open
    deal = _deals(_validate(record))["r1"]
    assert _codes(deal) == [("bad_record", 1002)]
    assert "no claim window open" in deal.findings[0].message


def test_every_finding_of_an_export_carries_its_template() -> None:
    """The converter's findings (an inferred dealer, an action left out, a config field it
    cannot map) render again from their key and values in both languages."""
    from engine.messages import TEMPLATES, render

    records = _records()
    records[0]["config"] = {**records[0].get("config", {}), "turbo": True}
    records[0]["actionLog"].insert(1, {"t": "chi", "seat": 0})
    report = _validate(records)
    outside = [*report.file_findings, *(f for session in report.sessions for f in session.findings)]
    found = [*outside, *(f for deal in report.deals for f in (*deal.findings, *deal.warnings))]
    keys = {f.message_key for f in found}
    assert {"dcmshi_dealer", "dcmshi_action_left_out", "platform_note"} <= keys, keys
    for f in found:
        assert f.message_key in TEMPLATES, f.message
        assert render(f.message_key, f.message_values, "en") == f.message
        assert render(f.message_key, f.message_values, "zh") == f.message_zh
