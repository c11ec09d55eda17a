"""A score sheet under 血流成河 (``end_condition: bloody_flow``): one row per win, so a seat
that wins again is simply another 胡 row; nothing in the import merges or refuses it, three
winners do not end the deal, and 查叫 is for the seats that never won. The same sheet is
priced under two presets (standard, chengdu), every row's points worked out by hand in
the comments and written on the sheet, so the validator checks them. The templates list
every column the template header names, 当巡 / same_turn among them."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from test_spreadsheet import HEADER, PLAYERS, SESSION, csv_bytes

from ingest.replay.validate import validate_log
from ingest.sheets.convert import convert_sheet, log_of_sheet
from ingest.sheets.terms import COLUMN_ALIASES

TEMPLATES = Path(__file__).resolve().parent.parent / "data" / "templates"

# Ann, Bo, Chen, Du are seats 1-4; 平胡 1 fan pays 1 a payer, 2 fan 2 (2^(fan-1) × base 1).
# standard: no 自摸加底, 暗杠 2 from each, 花猪 pays 16.
# chengdu: 自摸加底 (each payer one base more on a self-draw), max_fan 4, 花猪 pays the cap 8.
ROWS = {
    # deal 1: Bo, Chen and Du win (three winners), then Bo kongs and wins again
    #                                                 standard          chengdu
    "bo_self": ("1", "胡", "Bo", "", "自摸", "平胡"),  # [-1, 3, -1, -1]  [-2, 6, -2, -2]
    "chen_on_ann": ("1", "胡", "Chen", "", "Ann", "平胡"),  # [-1, 0, 1, 0]  same
    "du_self": ("1", "胡", "Du", "", "自摸", "平胡"),  # [-1, -1, -1, 3]  [-2, -2, -2, 6]
    "bo_kong": ("1", "杠", "Bo", "暗杠"),  # [-2, 6, -2, -2]  same: all four still in
    "bo_on_chen": ("1", "胡", "Bo", "", "Chen", "平胡 根"),  # 2 fan: [0, 2, -2, 0]  same
    # 查叫 for Ann alone (the one who never won): ready, but nobody left to pay: [0, 0, 0, 0]
    "end_1": ("1", "查叫", "", "", "", "", "", "", "", "", "Ann 1"),
    # deal 2: Bo wins twice by self-draw, then 查叫 among Ann, Chen, Du
    "bo_self_2": ("2", "胡", "Bo", "", "自摸", "平胡"),  # [-1, 3, -1, -1]  [-2, 6, -2, -2]
    "bo_again": ("2", "胡", "Bo", "", "自摸", "对对胡"),  # 2 fan: [-2, 6, -2, -2]  3 each: [-3, 9, -3, -3]
    # Du 花猪 pays each of Ann and Chen 16 (chengdu 8); Ann, not ready, pays Chen
    # 2^(2-1) = 2 (查大叫); nobody has a kong to return (退税):
    #   standard [16 - 2, 0, 16 + 2, -32] = [14, 0, 18, -32]; chengdu [6, 0, 10, -16]
    "end_2": ("2", "查叫", "", "", "", "", "", "", "", "", "Chen 2", "Du"),
}
POINTS = {
    "standard": {
        "bo_self": [-1, 3, -1, -1], "chen_on_ann": [-1, 0, 1, 0], "du_self": [-1, -1, -1, 3],
        "bo_kong": [-2, 6, -2, -2], "bo_on_chen": [0, 2, -2, 0], "end_1": [0, 0, 0, 0],
        "bo_self_2": [-1, 3, -1, -1], "bo_again": [-2, 6, -2, -2], "end_2": [14, 0, 18, -32],
    },
    "chengdu": {
        "bo_self": [-2, 6, -2, -2], "chen_on_ann": [-1, 0, 1, 0], "du_self": [-2, -2, -2, 6],
        "bo_kong": [-2, 6, -2, -2], "bo_on_chen": [0, 2, -2, 0], "end_1": [0, 0, 0, 0],
        "bo_self_2": [-2, 6, -2, -2], "bo_again": [-3, 9, -3, -3], "end_2": [6, 0, 10, -16],
    },
}  # fmt: skip
# the deals' nets, each the sum of its rows above
SCORES = {
    "standard": {"s1-01": (-5, 10, -5, 0), "s1-02": (11, 9, 15, -35)},
    "chengdu": {"s1-01": (-7, 12, -7, 2), "s1-02": (1, 15, 5, -21)},
}


def flow_sheet(preset: str, end_condition: str = "bloody_flow", points: bool = True) -> bytes:
    """The two deals as a sheet: each row's points in 得分1-4 (after 番型, as HEADER has it)."""
    rules = json.dumps({"preset": preset, "end_condition": end_condition})
    rows = []
    for name, cells in ROWS.items():
        row = list(cells) + [""] * (len(HEADER) - len(cells))
        if points:
            row[6:10] = [str(p) for p in POINTS[preset][name]]
        rows.append(row)
    return csv_bytes([SESSION, ["规则", rules], PLAYERS, HEADER, *rows])


@pytest.mark.parametrize("preset", ["standard", "chengdu"])
def test_a_seat_wins_again_on_a_sheet(preset: str) -> None:
    log = convert_sheet(flow_sheet(preset), "flow.csv")
    assert log.findings == []
    wins = [obj["seat"] for _, obj in log.lines if obj["type"] == "hu"]
    assert wins == [1, 2, 3, 1, 1, 1]  # each 胡 row its own win: nothing merged
    ends = [obj for _, obj in log.lines if obj["type"] == "deal_end"]
    assert [end["reason"] for end in ends] == ["wall_exhausted", "wall_exhausted"]  # not three_won
    report = validate_log(log_of_sheet(log))
    assert report.summary()["finding_count"] == 0, [f.message for f in report.all_findings()]
    assert {d.deal_id: tuple(d.scores) for d in report.deals} == SCORES[preset]


def test_under_bloody_the_same_sheet_ends_at_the_third_winner() -> None:
    # 血战到底 (standard): Du's win is the third, so the deal is over before Bo's kong
    log = convert_sheet(flow_sheet("standard", "bloody", points=False), "blood.csv")
    report = validate_log(log_of_sheet(log))
    found = [(f.code, f.line) for f in report.all_findings()]
    assert ("out_of_turn", 8) in found  # row 8: Bo's 暗杠


def test_a_winner_is_no_part_of_cha_jiao_on_a_sheet() -> None:
    data = flow_sheet("standard", points=False).decode().replace("Chen 2", "Bo 2")
    report = validate_log(log_of_sheet(convert_sheet(data.encode(), "ready.csv")))
    found = [(f.code, f.seat) for f in report.all_findings()]
    assert ("bad_record", 1) in found  # Bo won: no 查大叫 for Bo


#: the templates' header row: one column per key, "中文 / english"
TEMPLATE_COLUMNS = (
    "session", "date", "club", "table", "rules", "base",
    "player1", "player2", "player3", "player4",
    "deal", "dealer", "event", "seat", "kind", "from", "patterns", "fan",
    "points1", "points2", "points3", "points4", "ready", "flower_pigs", "same_turn", "note",
)  # fmt: skip


@pytest.mark.parametrize("stem", ["sheet-template", "sheet-example"])
def test_the_templates_list_every_template_column(stem: str) -> None:
    text = (TEMPLATES / f"{stem}.csv").read_text(encoding="utf-8-sig")
    header = next(csv.reader(io.StringIO(text)))
    assert header == [f"{COLUMN_ALIASES[key][0]} / {key}" for key in TEMPLATE_COLUMNS]
    assert "当巡 / same_turn" in header
    log = convert_sheet((TEMPLATES / f"{stem}.csv").read_bytes(), f"{stem}.csv")
    assert "same_turn" in log.columns and log.findings == []
