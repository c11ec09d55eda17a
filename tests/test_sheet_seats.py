"""Score sheets at three- and two-player tables (the rules' ``seats``): one player, one
points column and one entry of every list a seat; the audit pays at the table's seats
(a self-draw by every other seat still in, 刮风下雨 likewise, the deal over when all but one
have won, 查叫 among those left); a four-player sheet reads exactly as before."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path
from typing import Any

from engine.rules import load_rules
from ingest.replay.validate import validate_paths
from ingest.sheets.convert import convert_sheet

ROOT = Path(__file__).resolve().parent.parent
THREE = '{"preset":"standard","seats":3,"suits":"ps"}'
TWO = '{"preset":"standard","seats":2,"suits":"m","hand_size":7}'
HEADER = [
    "场次 / session", "规则 / rules", "玩家1 / player1", "玩家2 / player2", "玩家3 / player3",
    "局号 / deal", "庄家 / dealer", "事件 / event", "座位 / seat", "杠型 / kind", "来自 / from",
    "番型 / patterns", "得分1 / points1", "得分2 / points2", "得分3 / points3", "听牌 / ready",
]  # fmt: skip

# The golden three-player evening (standard at 筒 and 条, base 1), worked out by hand.
# Players Ann, Bo, Chen (seats 0-2). Standard: concealed kong 2 from each other seat still
# in, exposed kong 1 from the discarder, fan ×2^(fan−1), no 自摸 bonus, 退税 on.
#
# Deal 1 (dealer Ann):
#   row 2  Bo 暗杠: 2 from each of Ann and Chen                   [-2,  4, -2]
#   row 3  Chen 自摸 清一色 3 fan ×4, paid by the two others       [-4, -4,  8]
#   row 4  Ann wins on Bo's discard, 对对胡 2 fan ×2               [ 2, -2,  0]
#          two of three have won: all but one, the deal is over (three_won)
#   net                                                           [-4, -2,  6]
# Deal 2 (dealer Chen):
#   row 6  Ann 直杠 from Bo: Bo pays 1                             [ 1, -1,  0]
#   row 7  Bo 自摸 平胡 1 fan ×1, paid by Ann and Chen             [-1,  2, -1]
#   row 8  查叫 at the wall: Ann and Chen still in; Chen ready at 2 fan, Ann not:
#          Ann pays Chen ×2 = 2 (查大叫); 退税: Ann's kong earned 1 from Bo, she is
#          not ready and returns it                               [-3,  1,  2]
#   net                                                           [-3,  2,  1]
# Totals: [-4, -2, 6] + [-3, 2, 1] = [-7, 0, 7], summing to zero.
GOLDEN = [
    ["s3", THREE, "Ann", "Bo", "Chen", "1", "Ann", "杠", "Bo", "暗杠", "", "", "-2", "4", "-2", ""],
    ["", "", "", "", "", "1", "", "胡", "Chen", "", "自摸", "清一色", "-4", "-4", "8", ""],
    ["", "", "", "", "", "1", "", "胡", "Ann", "", "Bo", "对对胡", "2", "-2", "0", ""],
    ["", "", "", "", "", "1", "", "本局", "", "", "", "", "-4", "-2", "6", ""],
    ["", "", "", "", "", "2", "Chen", "杠", "Ann", "直杠", "Bo", "", "1", "-1", "0", ""],
    ["", "", "", "", "", "2", "", "胡", "Bo", "", "自摸", "平胡", "-1", "2", "-1", ""],
    ["", "", "", "", "", "2", "", "查叫", "", "", "", "", "-3", "1", "2", "Chen 2"],
    ["", "", "", "", "", "2", "", "本局", "", "", "", "", "-3", "2", "1", ""],
    ["", "", "", "", "", "", "", "总分", "", "", "", "", "-7", "0", "7", ""],
]


def write_csv(path: Path, rows: list[list[Any]], header: list[str] = HEADER) -> Path:
    out = io.StringIO()
    csv.writer(out).writerows([header, *rows])
    path.write_bytes(out.getvalue().encode("utf-8"))
    return path


def report_of(path: Path) -> Any:
    return validate_paths([str(path)])


def test_the_golden_three_player_evening_checks_out(tmp_path: Path) -> None:
    report = report_of(write_csv(tmp_path / "three.csv", GOLDEN))
    assert list(report.all_findings()) == []
    deals = [deal.to_json() for deal in report.deals]
    assert [d["computed"]["scores"] for d in deals] == [[-4, -2, 6], [-3, 2, 1]]
    assert [d["computed"]["end_reason"] for d in deals] == ["three_won", "wall_exhausted"]
    assert deals[1]["computed"]["settlement"] == [-3, 1, 2]
    session = report.sessions[0]
    assert session.totals == (-7, 0, 7) and sum(session.totals) == 0
    assert report.ok


def test_the_sheet_becomes_three_wide_lines() -> None:
    out = io.StringIO()
    csv.writer(out).writerows([HEADER, *GOLDEN])
    log = convert_sheet(out.getvalue().encode(), "three.csv")
    lines = [obj for _, obj in log.lines]
    assert lines[0]["players"] == ["Ann", "Bo", "Chen"]
    assert lines[0]["rules"] == json.loads(THREE)
    assert [obj["deltas"] for obj in lines if obj["type"] in ("kong", "hu")] == [
        [-2, 4, -2], [-4, -4, 8], [2, -2, 0], [1, -1, 0], [-1, 2, -1],
    ]  # fmt: skip
    ends = [obj for obj in lines if obj["type"] == "deal_end"]
    assert ends[1]["ready"] == [None, None, 2] and ends[1]["settlement"] == [-3, 1, 2]
    assert lines[-1] == {"type": "session_end", "totals": [-7, 0, 7]}


def test_a_wrong_payment_is_found_at_its_row_and_seat(tmp_path: Path) -> None:
    rows = [list(row) for row in GOLDEN]
    # Chen's self-draw written as if a fourth seat paid too: 12 for Chen (it is 8)
    rows[1][12:15] = ["-4", "-4", "12"]
    report = report_of(write_csv(tmp_path / "wrong.csv", rows))
    found = [f for f in report.all_findings() if f.code == "payment_mismatch"]
    assert [(f.line, f.seat, f.expected, f.recorded) for f in found] == [(3, 2, [-4, -4, 8], [-4, -4, 12])]
    assert not report.ok


def test_a_fourth_seat_at_a_three_seat_table_is_a_finding(tmp_path: Path) -> None:
    rows = [list(row) for row in GOLDEN]
    rows[1][8] = "4"  # seat 4 wins: the table has three
    report = report_of(write_csv(tmp_path / "seat4.csv", rows))
    found = [f for f in report.all_findings() if f.line == 3]
    assert [f.code for f in found] == ["bad_record"]
    assert "numbered 1-3" in found[0].message


def test_a_fourth_points_column_must_stay_empty(tmp_path: Path) -> None:
    header = [*HEADER[:15], "得分4 / points4", HEADER[15]]
    rows = [[*row[:15], "", row[15]] for row in GOLDEN]
    rows[0][15] = "0"
    report = report_of(write_csv(tmp_path / "points4.csv", rows, header))
    found = [f for f in report.all_findings() if f.line == 2]
    assert [f.code for f in found] == ["bad_record"]
    assert "points4" in found[0].message and "3 seats" in found[0].message


def test_four_names_at_a_three_seat_table_say_so(tmp_path: Path) -> None:
    header = [*HEADER[:5], "玩家4 / player4", *HEADER[5:]]
    rows = [[*row[:5], "Du" if index == 0 else "", *row[5:]] for index, row in enumerate(GOLDEN)]
    report = report_of(write_csv(tmp_path / "names.csv", rows, header))
    assert any("3 player names are needed" in f.message for f in report.all_findings())
    assert not report.ok


# Two players (standard, 万 only, seven-tile hands), worked out by hand:
#   deal 1: Ann 暗杠, Bo pays 2 [2, -2]; Bo 自摸 平胡 ×1, Ann pays 1 [-1, 1]: one of two
#           has won, all but one: the deal is over; net [1, -1]
#   deal 2: the wall runs out, 查叫: Ann ready at 1 fan, Bo not: Bo pays 1 [1, -1]
#   totals [2, -2]
TWO_HEADER = [*HEADER[:4], *HEADER[5:14], HEADER[15]]
TWO_ROWS = [
    ["s2", TWO, "Ann", "Bo", "1", "Ann", "杠", "Ann", "暗杠", "", "", "2", "-2", ""],
    ["", "", "", "", "1", "", "胡", "Bo", "", "自摸", "平胡", "-1", "1", ""],
    ["", "", "", "", "2", "Bo", "查叫", "", "", "", "", "1", "-1", "Ann 1"],
    ["", "", "", "", "2", "", "本局", "", "", "", "", "1", "-1", ""],
    ["", "", "", "", "", "", "总分", "", "", "", "", "2", "-2", ""],
]


def test_a_two_player_sheet(tmp_path: Path) -> None:
    report = report_of(write_csv(tmp_path / "two.csv", TWO_ROWS, TWO_HEADER))
    assert list(report.all_findings()) == []
    deals = [deal.to_json() for deal in report.deals]
    assert [d["computed"]["scores"] for d in deals] == [[1, -1], [1, -1]]
    assert [d["computed"]["end_reason"] for d in deals] == ["three_won", "wall_exhausted"]
    assert report.sessions[0].totals == (2, -2)


def test_a_tile_log_of_a_table_not_replayed_yet_is_refused_in_words(tmp_path: Path) -> None:
    log = tmp_path / "mixed.jsonl"
    wild = {
        **json.loads(THREE),
        "wild_tiles": 4,
        "exchange_three": True,
    }  # 换三张 with 红中: not replayed yet
    session = {"type": "session", "session_id": "m", "players": ["A", "B", "C"], "rules": wild}
    lines = [
        session,
        {"type": "deal", "deal_id": "sheet-1", "record": "sheet", "dealer": 0},
        {"type": "hu", "seat": 1, "from": None, "patterns": ["pinghu"], "deltas": [-1, 2, -1]},
        {"type": "hu", "seat": 2, "from": 0, "patterns": ["pinghu"], "deltas": [-1, 0, 1]},
        {"type": "deal_end", "reason": "three_won", "scores": [-2, 2, 0]},
        {"type": "deal", "deal_id": "tiles-1", "dealer": 0, "hands": ["1p", "1p", "1p", "1p"]},
        {"type": "deal_end", "reason": "wall_exhausted"},
        {"type": "session_end"},
    ]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    report = report_of(log)
    statuses = {deal.deal_id: deal.status for deal in report.deals}
    assert statuses == {"sheet-1": "ok", "tiles-1": "invalid"}
    refused = [f for f in report.all_findings()]
    assert [(f.code, f.line, f.message_key) for f in refused] == [("bad_record", 6, "tile_table_refused")]
    assert "the tile replay plays" in refused[0].message and "记分表" in refused[0].message_zh


def test_seats_follow_the_rules() -> None:
    assert load_rules(json.loads(THREE)).seats == 3
    assert load_rules(json.loads(TWO)).seats == 2


def test_a_four_player_sheet_reads_byte_for_byte_as_before() -> None:
    """The example evening's lines, as the importer wrote them before tables had seats
    (sha256 of ``row json`` lines, measured on the four-seat importer)."""
    for name in ("sheet-example.csv", "sheet-example.xlsx"):
        log = convert_sheet((ROOT / "data" / "templates" / name).read_bytes(), name)
        text = "\n".join(f"{row} " + json.dumps(obj, ensure_ascii=False) for row, obj in log.lines)
        digest = hashlib.sha256(text.encode()).hexdigest()
        assert digest == "c822b5f87c41c719e1ee1e28ffd4cba796324593bed6ed47d68be20788acef85", name
        assert (len(log.lines), len(log.findings)) == (19, 0)


def test_a_three_player_sheet_in_a_warehouse_and_its_statistics(tmp_path: Path) -> None:
    """Ingested into a real warehouse (Parquet, read by DuckDB) beside a two-player sheet
    and the four-player example: as many seat rows as seats, placements 1st-3rd at three."""
    from analytics.queries import Analytics, Filters
    from ingest.warehouse import ingest

    three = write_csv(tmp_path / "three.csv", GOLDEN)
    two = write_csv(tmp_path / "two.csv", TWO_ROWS, TWO_HEADER)
    four = ROOT / "data" / "templates" / "sheet-example.csv"
    summary = ingest([three, two, four], tmp_path / "wh", workers=0)
    assert (summary.findings, summary.invalid) == (0, 0)
    # 2 deals × 3 seats + 2 × 2 + 3 × 4
    assert summary.rows["seats"] == 22 and summary.rows["deals"] == 7
    api = Analytics(tmp_path / "wh")
    try:
        seats = api.sql(
            "select deal_id, count(*) as n, sum(net) as net from mart_seat_deals group by 1 order by 1"
        )
        assert dict(zip(seats["deal_id"], seats["n"], strict=True)) == {
            "s3-01": 3, "s3-02": 3, "s2-01": 2, "s2-02": 2,
            "club7-2026-11-28-t3-01": 4, "club7-2026-11-28-t3-02": 4, "club7-2026-11-28-t3-03": 4,
        }  # fmt: skip
        assert (seats["net"] == 0).all()
        deals = api.sql("select deal_id, players, scores from stg_deals where deal_id = 's3-02'")
        assert list(deals["players"][0]) == ["Ann", "Bo", "Chen"] and list(deals["scores"][0]) == [-3, 2, 1]

        places = api.query("session_placements")
        s3 = places[places["session_id"] == "s3"].sort_values("placement")
        # totals [-7, 0, 7]: Chen 1st, Bo 2nd, Ann 3rd, at a table of three
        assert list(zip(s3["player"], s3["net"], s3["placement"], s3["table_size"], strict=True)) == [
            ("Chen", 7, 1, 3), ("Bo", 0, 2, 3), ("Ann", -7, 3, 3),
        ]  # fmt: skip
        four_places = places[places["session_id"] == "club7-2026-11-28-t3"]
        assert sorted(four_places["placement"]) == [1, 2, 3, 4] and set(four_places["table_size"]) == {4}

        by_table = api.placements_by_table().set_index(["player", "table_size"])
        assert by_table.loc[("Ann", 3), ["sessions", "placement_3", "placement_4"]].tolist() == [1, 1, 0]
        assert by_table.loc[("Ann", 2), ["sessions", "placement_1"]].tolist() == [1, 1]
        assert by_table.loc[("Ann", 4), ["sessions", "placement_4"]].tolist() == [1, 0]  # Ann 0: 3rd of four
        assert by_table.loc[("Ann", 4), "placement_3"] == 1
        assert by_table.loc[("Chen", 3), "placement_1_rate"] == 1.0
        ranked = api.query("session_placements", Filters(player="Chen"))
        assert set(ranked["placement"]) <= {1, 2, 3, 4}
        stats = api.player_stats().set_index("player")
        # Chen: two deals at three seats (one self-draw win) and three of the example
        assert stats.loc["Chen", "deals"] == 5
    finally:
        api.close()


def test_the_cli_validates_and_ingests_a_three_player_sheet_in_both_languages(tmp_path: Path) -> None:
    from test_cli_ingest_stats import run

    rows = [list(row) for row in GOLDEN]
    rows[1][12:15] = ["-4", "-4", "12"]  # Chen's self-draw: 8, not 12
    wrong = write_csv(tmp_path / "wrong.csv", rows)
    english = run("validate", wrong, "--lang", "en")
    assert english.returncode == 3, english.stderr  # any finding
    assert "row 3 Chen (seat 3) payment_mismatch" in english.stdout
    assert "expected Ann −4, Bo −4, Chen +8, recorded Ann −4, Bo −4, Chen +12" in english.stdout
    chinese = run("validate", wrong, "--lang", "zh")
    assert "表格第 3 行 Chen（3 号位） 付分不符" in chinese.stdout
    good = write_csv(tmp_path / "three.csv", GOLDEN)
    checked = run("validate", good, "--json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    session = json.loads(checked.stdout)["sessions"][0]
    assert session["players"] == ["Ann", "Bo", "Chen"] and session["computed"]["totals"] == [-7, 0, 7]
    stored = run("ingest", good, "--warehouse", tmp_path / "wh")
    assert stored.returncode == 0, stored.stdout + stored.stderr
    assert "seats 6" in stored.stdout
    stats = run("stats", "--warehouse", tmp_path / "wh", "--json")
    assert {p["player"]: p["sessions"] for p in json.loads(stats.stdout)} == {"Ann": 1, "Bo": 1, "Chen": 1}


def test_the_record_page_s_facts_at_a_three_seat_table(tmp_path: Path) -> None:
    """The Record page's pricing (ingest/sheets/record.py) writes the golden evening's
    second deal as three-wide lines that the audit passes, with the hand-worked points."""
    from ingest.sheets.record import DealFacts, EndFact, KongFact, SessionFacts, WinFact, log_text, price

    session = SessionFacts("rec3", ("Ann", "Bo", "Chen"), json.loads(THREE))
    assert session.seats == (0, 1, 2)
    events = (KongFact(0, "exposed", 1), WinFact(1, None, ("pinghu",)))
    # the page's default end has four entries: fitted to the table's three
    deal = DealFacts("rec3-02", 2, events, EndFact((None, None, 2, None)))
    priced = price(session, deal)
    assert priced.findings == [] and priced.scores == (-3, 2, 1)
    text = log_text(session, [deal])
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[-1] == {
        "type": "deal_end", "reason": "wall_exhausted", "ready": [None, None, 2], "flower_pigs": [],
        "settlement": [-3, 1, 2], "scores": [-3, 2, 1],
    }  # fmt: skip
    path = tmp_path / "rec3.jsonl"
    path.write_text(text + '{"type":"session_end","totals":[-3,2,1]}\n', encoding="utf-8")
    report = report_of(path)
    assert list(report.all_findings()) == [] and report.ok
    # all but one have won at three seats: the deal is over after two wins
    over = price(
        session, DealFacts("rec3-03", 0, (WinFact(1, None, ("pinghu",)), WinFact(2, 0, ("pinghu",))))
    )
    assert over.end_reason == "three_won" and over.scores == (-2, 2, 0)


def test_a_three_player_workbook_reads_as_its_csv(tmp_path: Path) -> None:
    """The same evening as an .xlsx (openpyxl, numbers as numbers): the same report."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(HEADER)
    for row in GOLDEN:
        sheet.append([int(cell) if cell.lstrip("-").isdigit() else (cell or None) for cell in row])
    book.save(tmp_path / "three.xlsx")
    workbook = report_of(tmp_path / "three.xlsx")
    text = report_of(write_csv(tmp_path / "three.csv", GOLDEN))
    assert list(workbook.all_findings()) == [] and workbook.sessions[0].totals == (-7, 0, 7)
    assert [d.to_json()["computed"] for d in workbook.deals] == [d.to_json()["computed"] for d in text.deals]


def test_a_net_only_three_player_sheet(tmp_path: Path) -> None:
    """Nets only, the players' names as the points columns' headers: three columns, three
    players; a row whose nets do not add up to zero is found."""
    rows = [
        ["局号", "Ann", "Bo", "Chen"],
        ["1", "-4", "-2", "6"],
        ["2", "-3", "2", "2"],  # sums to +1
    ]
    path = tmp_path / "nets.csv"
    out = io.StringIO()
    csv.writer(out).writerows([["规则 / rules", THREE], *rows])
    path.write_bytes(out.getvalue().encode("utf-8"))
    report = report_of(path)
    assert report.sessions[0].players == ("Ann", "Bo", "Chen")
    found = [(f.code, f.line) for f in report.all_findings()]
    assert found == [("score_mismatch", 4)]
    assert [d.to_json()["computed"]["scores"] for d in report.deals] == [[-4, -2, 6], [-3, 2, 2]]


# --- a property: any legal deal recorded at 2, 3 or 4 seats audits clean and sums to zero ---

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

TABLES = {4: {"preset": "standard"}, 3: json.loads(THREE), 2: json.loads(TWO)}
_BASES = ("pinghu", "duiduihu", "qingyise")


@st.composite
def recorded_deals(draw: st.DrawFn) -> tuple[int, list[Any]]:
    """A table size and one deal's facts in an order the rules allow: kongs and wins by
    seats still in, from seats still in, then 查叫 among the seats that never won."""
    from ingest.sheets.record import DealFacts, EndFact, KongFact, SessionFacts, WinFact, price, seats_after

    seats = draw(st.sampled_from(sorted(TABLES)))
    session = SessionFacts("p", tuple(f"P{n}" for n in range(seats)), TABLES[seats])
    rules = session.rule_set()
    events: list[Any] = []
    for _ in range(draw(st.integers(0, 6))):
        still_in, _never = seats_after(rules, events)
        if price(session, DealFacts("p-01", 0, tuple(events))).end_reason != "wall_exhausted":
            break
        who = draw(st.sampled_from(still_in))
        others = [s for s in still_in if s != who]
        if draw(st.booleans()):
            kind = draw(st.sampled_from(["exposed", "added", "concealed"]))
            source = draw(st.sampled_from(others)) if kind == "exposed" and others else None
            if kind == "exposed" and source is None:
                kind = "concealed"
            events.append(KongFact(who, kind, source))
        else:
            source = draw(st.sampled_from([None, *others]))
            events.append(WinFact(who, source, (draw(st.sampled_from(_BASES)),)))
    _, never_won = seats_after(rules, events)
    over = price(session, DealFacts("p-01", 0, tuple(events))).end_reason != "wall_exhausted"
    if over or len(never_won) < 2:  # no 查叫: the page records the end as it is
        never_won = []
    from engine.moves import flower_pigs_possible

    may_pig = never_won and flower_pigs_possible(rules)  # a one-suit table has no 花猪
    pigs = tuple(sorted(draw(st.sets(st.sampled_from(never_won))))) if may_pig else ()
    ready: list[int | None] = [None] * seats
    for seat in never_won:
        if seat not in pigs and draw(st.booleans()):
            ready[seat] = draw(st.integers(1, 4))
    deal = DealFacts("p-01", draw(st.integers(0, seats - 1)), tuple(events), EndFact(tuple(ready), pigs))
    return seats, [session, deal]


@settings(max_examples=60, deadline=None)
@given(recorded_deals())
def test_any_recorded_deal_at_any_table_audits_clean(case: tuple[int, list[Any]]) -> None:
    from ingest.replay.files import read_log_bytes
    from ingest.replay.session_replay import SessionReplay
    from ingest.sheets.record import log_text, price

    seats, (session, deal) = case
    priced = price(session, deal)
    assert priced.findings == [], priced.findings
    assert len(priced.scores) == seats and sum(priced.scores) == 0
    text = log_text(session, [deal])
    log = read_log_bytes(text.encode(), "p.jsonl")
    [read] = log.sessions
    driver = SessionReplay.of_log(read)
    for _, deal_log in log.iter_deals():
        report = driver.replay(deal_log)
        assert report.findings == [] and report.complete, report.findings
        assert report.scores == priced.scores
        # every payment is between seats of the table
        assert all(t.payer < seats and t.payee < seats for t in report.ledger)
    assert driver.totals_tuple() == priced.scores


def test_the_three_player_example_is_the_golden_evening() -> None:
    """data/templates/sheet-example-three.csv holds the rows worked out above."""
    path = ROOT / "data" / "templates" / "sheet-example-three.csv"
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    assert rows == [HEADER, *GOLDEN]
    report = report_of(path)
    assert list(report.all_findings()) == [] and report.sessions[0].totals == (-7, 0, 7)
