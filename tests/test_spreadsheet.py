"""Score sheets (.csv/.xlsx) imported as log v1 sheet deals: the templates, the example
evening, Chinese headers and pattern names, GB18030, broken rows and net-only sheets."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.events import DealEnd, DealStart, Finding
from engine.replay import DealReport, FindingSink, ReplayOptions
from engine.rules import load_rules
from ingest.replay.files import read_log
from ingest.replay.session_replay import replay_one
from ingest.replay.validate import find_logs, validate_paths
from ingest.sheets.cells import Cell, column_letter, read_grid
from ingest.sheets.convert import SheetLog, convert_sheet, read_sheet_bytes
from ingest.sheets.net_only import NET_ONLY_NOTE
from ingest.warehouse.chunks import plan_chunks

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "data" / "templates"
EXAMPLE = TEMPLATES / "sheet-example.csv"
HEADER = ["局号", "事件", "座位", "杠型", "来自", "番型", "得分1", "得分2", "得分3", "得分4", "听牌", "花猪"]
SESSION = ["场次", "s1", "", "", "", "", "", "", "", "", "", ""]
PLAYERS = ["玩家", "Ann", "Bo", "Chen", "Du"]


def csv_rows(data: bytes) -> list[list[Cell]]:
    """The rows of a CSV's bytes, as the importer reads them."""
    return read_grid(data, "sheet.csv").rows


#: finding code -> the JSON fields (so the sheet cells) it is about, most specific first
FINDING_FIELDS: dict[str, tuple[str, ...]] = {
    "payment_mismatch": ("deltas", "settlement"),
    "fan_mismatch": ("patterns", "fan"),
    "score_mismatch": ("scores", "totals"),
    "illegal_hu": ("patterns", "seat"),
    "impossible_pattern": ("patterns", "from"),
    "out_of_turn": ("seat",),
    "wrong_end": ("ready", "flower_pigs"),
    "bad_record": ("seat", "from", "patterns", "kind"),
}


def column_of(log: SheetLog, line: int, json_field: str) -> str | None:
    """The column(s) a field of the line at this row came from (``S:V`` for points), as
    the sheet's ``fields`` keep it."""
    source = log.fields.get(line, {}).get(json_field)
    return None if source is None else source[1]


def row_of(log: SheetLog, line: int, json_field: str) -> int | None:
    """The sheet row a field came from: its line's row, but a deal_end gathers the 查叫 and
    本局 rows."""
    source = log.fields.get(line, {}).get(json_field)
    return None if source is None else source[0]


def cell_of(log: SheetLog, finding: Finding) -> str | None:
    """ "row N, column X" for a validator's finding on a sheet: the first field its code is
    about that the finding's row recorded (None when no cell is known)."""
    if finding.line is None:
        return None
    for json_field in FINDING_FIELDS.get(finding.code, ()):
        source = log.fields.get(finding.line, {}).get(json_field)
        if source is not None and source[1]:
            return f"row {source[0]}, column {source[1]}"
    return None


def xlsx_bytes(rows: list[list[Cell]], title: str = "记分") -> bytes:
    """A one-sheet workbook of these rows."""
    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet(title)
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def csv_bytes(rows: list[list[Any]], encoding: str = "utf-8") -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode(encoding)


def sheet(rows: list[list[Any]], name: str = "t.csv") -> SheetLog:
    """A sheet with a first block (session, players) above ``HEADER`` and these rows."""
    data = [SESSION, PLAYERS, HEADER, *rows]
    payload = xlsx_bytes(data) if name.endswith(".xlsx") else csv_bytes(data)
    return convert_sheet(payload, name)


def events(log: SheetLog, kind: str | None = None) -> list[dict[str, Any]]:
    return [obj for _, obj in log.lines if kind is None or obj["type"] == kind]


# --- the example evening and the templates --------------------------------------------

EXAMPLE_LINES: list[tuple[int, dict[str, Any]]] = [
    (2, {"type": "session", "session_id": "club7-2026-11-28-t3", "players": ["Ann", "Bo", "Chen", "Du"],
         "rules": "standard", "base": 1, "club": "club7", "table": "3", "started_at": "2026-11-28"}),
    (2, {"type": "deal", "deal_id": "club7-2026-11-28-t3-01", "record": "sheet", "dealer": 0}),
    (2, {"type": "kong", "seat": 2, "kind": "exposed", "from": 1, "deltas": [0, -1, 1, 0]}),
    (3, {"type": "hu", "seat": 2, "from": None, "patterns": ["duiduihu", "gen"], "fan": 3, "deltas": [-4, -4, 12, -4]}),
    (4, {"type": "hu", "seat": 0, "from": 3, "patterns": ["qingyise"], "fan": 3, "deltas": [4, 0, 0, -4]}),
    (5, {"type": "kong", "seat": 1, "kind": "concealed", "deltas": [0, 2, 0, -2]}),
    (7, {"type": "deal_end", "reason": "wall_exhausted", "ready": [None, 2, None, None], "flower_pigs": [3],
         "settlement": [0, 16, 0, -16], "scores": [0, 13, 13, -26]}),
    (8, {"type": "deal", "deal_id": "club7-2026-11-28-t3-02", "record": "sheet", "dealer": 2}),
    (8, {"type": "kong", "seat": 3, "kind": "added", "deltas": [-1, -1, -1, 3]}),
    (9, {"type": "hu", "seat": 0, "from": 1, "patterns": ["qidui"], "fan": 3, "deltas": [4, -4, 0, 0]}),
    (10, {"type": "hu", "seat": 2, "from": 1, "patterns": ["pinghu"], "fan": 1, "deltas": [0, -1, 1, 0]}),
    (11, {"type": "kong", "seat": 1, "kind": "concealed", "deltas": [0, 2, 0, -2]}),
    (12, {"type": "hu", "seat": 3, "from": None, "patterns": ["qingyise", "gen"], "fan": 4, "deltas": [0, -8, 0, 8]}),
    (13, {"type": "deal_end", "reason": "three_won", "scores": [3, -12, 0, 9]}),
    (14, {"type": "deal", "deal_id": "club7-2026-11-28-t3-03", "record": "sheet", "dealer": 0}),
    (14, {"type": "kong", "seat": 0, "kind": "exposed", "from": 2, "deltas": [1, 0, -1, 0]}),
    (15, {"type": "hu", "seat": 1, "from": 0, "patterns": ["pinghu", "gangshangpao"], "fan": 2, "deltas": [-3, 3, 0, 0]}),
    (17, {"type": "deal_end", "reason": "wall_exhausted", "ready": [None, None, 1, None],
          "settlement": [-1, 0, 2, -1], "scores": [-3, 3, 1, -1]}),
    (18, {"type": "session_end", "totals": [0, 4, 14, -18]}),
]  # fmt: skip


@pytest.mark.parametrize("name", ["sheet-example.csv", "sheet-example.xlsx"])
def test_the_example_evening_becomes_these_lines_row_by_row(name: str) -> None:
    log = convert_sheet((TEMPLATES / name).read_bytes(), name)
    assert log.findings == []
    assert len(log.lines) == len(EXAMPLE_LINES)
    for (row, obj), (want_row, want) in zip(log.lines, EXAMPLE_LINES, strict=True):
        assert (row, obj) == (want_row, want)
        assert list(obj) == list(want), "field order as in docs/log-format.md"


def test_each_field_names_its_column() -> None:
    log = convert_sheet(EXAMPLE.read_bytes(), EXAMPLE.name)
    assert log.columns["patterns"] == "Q"
    assert column_of(log, 3, "patterns") == "Q"
    assert column_of(log, 3, "deltas") == "S:V"
    assert column_of(log, 7, "ready") == "W" and row_of(log, 7, "ready") == 6, (
        "the deal_end line gathers rows 6 and 7"
    )
    assert row_of(log, 7, "scores") == 7 and row_of(log, 7, "settlement") == 6
    assert column_of(log, 2, "players") == "G,H,I,J"


def test_the_example_adds_up_as_worked_out_in_the_docs() -> None:
    """Each deal's rows sum to its 本局 row, and the deals to the 总分 row (docs/score-sheets.md)."""
    log = convert_sheet(EXAMPLE.read_bytes(), EXAMPLE.name)
    nets = []
    claimed: list[int] = [0, 0, 0, 0]
    for obj in events(log):
        for key in ("deltas", "settlement"):
            if key in obj:
                claimed = [a + b for a, b in zip(claimed, obj[key], strict=True)]
        if obj["type"] == "deal_end":
            assert claimed == obj["scores"]
            assert sum(claimed) == 0
            nets.append(claimed)
            claimed = [0, 0, 0, 0]
    totals = [sum(net[i] for net in nets) for i in range(4)]
    assert events(log, "session_end")[0]["totals"] == totals


def test_a_validator_finding_is_traced_to_its_cell() -> None:
    log = convert_sheet(EXAMPLE.read_bytes(), EXAMPLE.name)
    at = {(code, line): cell_of(log, Finding(code, line, None, "")) for code, line in
          [("payment_mismatch", 4), ("payment_mismatch", 7), ("fan_mismatch", 3), ("score_mismatch", 7),
           ("score_mismatch", 18), ("wrong_end", 7), ("payment_mismatch", 13), ("tile_count", 4)]}  # fmt: skip
    assert at == {
        ("payment_mismatch", 4): "row 4, column S:V",
        ("payment_mismatch", 7): "row 6, column S:V",
        ("fan_mismatch", 3): "row 3, column Q",
        ("score_mismatch", 7): "row 7, column S:V",
        ("score_mismatch", 18): "row 18, column S:V",
        ("wrong_end", 7): "row 6, column W",
        ("payment_mismatch", 13): None,
        ("tile_count", 4): None,
    }


def test_a_kong_bloom_with_no_kong_is_the_audits_finding_at_its_cell() -> None:
    # row 4: Bo 自摸 平胡 杠上花, but the row above is Ann's win, not a kong of Bo
    from ingest.replay.validate import validate_log
    from ingest.sheets.convert import log_of_sheet

    rows = [["1", "胡", "Ann", "", "Chen", "清一色"], ["1", "胡", "Bo", "", "自摸", "杠上花"], ["1", "查叫"]]
    log = sheet(rows)
    report = validate_log(log_of_sheet(log))
    found = [f for f in report.all_findings() if f.code == "impossible_pattern"]
    assert [(f.line, f.seat, f.recorded) for f in found] == [(5, 1, "gangshanghua")]
    assert "杠上花" in found[0].message and "自己开杠后紧接着自摸" in found[0].message_zh
    assert cell_of(log, found[0]) == "row 5, column F"


@pytest.mark.parametrize("name", ["sheet-template.csv", "sheet-template.xlsx"])
def test_the_empty_templates_are_read_without_a_finding(name: str) -> None:
    log = convert_sheet((TEMPLATES / name).read_bytes(), name)
    assert log.lines == [] and log.findings == []
    assert {"session", "deal", "event", "seat", "patterns", "points4", "ready", "flower_pigs"} <= set(
        log.columns
    )


def test_the_xlsx_templates_hold_the_csv_templates() -> None:
    for stem in ("sheet-template", "sheet-example"):
        from_csv = [[str(c) for c in row] for row in csv_rows((TEMPLATES / f"{stem}.csv").read_bytes())]
        import openpyxl

        book = openpyxl.load_workbook(TEMPLATES / f"{stem}.xlsx", read_only=True)
        from_xlsx = [
            ["" if c is None else str(c) for c in row]
            for row in book.worksheets[0].iter_rows(values_only=True)
        ]
        book.close()

        def trim(rows: list[list[str]]) -> list[list[str]]:
            return [row[: max((i + 1 for i, c in enumerate(row) if c), default=0)] for row in rows]

        assert trim(from_xlsx) == trim(from_csv)


# --- headers, names, encodings ------------------------------------------------------


def test_english_headers_and_ids_read_the_same_as_chinese() -> None:
    english = [
        [
            "session",
            "players",
            "deal",
            "event",
            "seat",
            "kind",
            "from",
            "patterns",
            "points 1",
            "Points 2",
            "POINTS_3",
            "points4",
        ],
        ["s1", "Ann,Bo,Chen,Du", "1", "kong", "2", "added", "", "", "1", "-3", "1", "1"],
        ["", "", "1", "hu", "Chen", "", "Ann", "qingyise gen", "-8", "0", "8", "0"],
    ]
    chinese = [
        ["场次", "玩家", "局号", "事件", "座位", "杠型", "来自", "番型", "得分1", "得分2", "得分3", "得分4"],
        ["s1", "Ann、Bo、Chen、Du", "1", "杠", "Bo", "巴杠", "", "", "1", "-3", "1", "1"],
        ["", "", "1", "胡", "3", "", "1", "清一色，根", "-8", "0", "8", "0"],
    ]
    a, b = convert_sheet(csv_bytes(english), "e.csv"), convert_sheet(csv_bytes(chinese), "c.csv")
    assert a.findings == b.findings == []
    assert a.lines == b.lines
    assert events(a, "kong")[0] == {"type": "kong", "seat": 1, "kind": "added", "deltas": [1, -3, 1, 1]}
    assert events(a, "hu")[0]["patterns"] == ["qingyise", "gen"]


@pytest.mark.parametrize(
    ("cell", "patterns", "self_draw"),
    [
        ("清一色", ["qingyise"], False),
        ("对对胡 根", ["duiduihu", "gen"], False),
        ("大对子+根", ["duiduihu", "gen"], False),
        ("碰碰胡", ["duiduihu"], False),
        ("七对", ["qidui"], False),
        ("暗七对", ["qidui"], False),
        ("龙七对", ["longqidui"], False),
        ("豪华七对", ["longqidui"], False),
        ("清对", ["qingdui"], False),
        ("清一色 对对胡", ["qingdui"], False),
        ("清一色 七对", ["qingqidui"], False),
        ("将对", ["jiangdui"], False),
        ("带幺九", ["daiyaojiu"], False),
        ("金钩钓", ["jingoudiao"], False),
        ("清幺九", ["qingdaiyao"], False),
        ("清龙七对", ["qinglongqidui"], False),
        ("天胡", ["tianhu"], True),
        ("地胡", ["dihu"], True),
        ("根", ["pinghu", "gen"], False),
        ("根×2", ["pinghu", "gen", "gen"], False),
        ("清一色 2根", ["qingyise", "gen", "gen"], False),
        ("两根", ["pinghu", "gen", "gen"], False),
        ("清一色根自摸", ["qingyise", "gen"], True),
        ("自摸", ["pinghu"], True),
        ("杠上花", ["pinghu", "gangshanghua"], True),
        ("杠开", ["pinghu", "gangshanghua"], True),
        ("平胡 杠上炮", ["pinghu", "gangshangpao"], False),
        ("抢杠", ["pinghu", "qiangganghu"], False),
        ("抢杠胡", ["pinghu", "qiangganghu"], False),
        ("海底", ["pinghu", "haidi"], False),
        ("海底捞月", ["pinghu", "haidi"], False),
        ("duiduihu gen gangshanghua", ["duiduihu", "gen", "gangshanghua"], True),
        ("根、清一色", ["qingyise", "gen"], False),
    ],
)
def test_pattern_names_become_engine_ids(cell: str, patterns: list[str], self_draw: bool) -> None:
    source = "" if self_draw else "2"
    log = sheet([["1", "胡", "1", "", source, cell, "", "", "", ""]])
    assert log.findings == []
    hu = events(log, "hu")[0]
    assert hu["patterns"] == patterns
    assert hu["from"] == (None if self_draw else 1)


def test_every_pattern_of_the_engine_is_read_by_its_chinese_name_and_its_id() -> None:
    from engine.vocabulary import PATTERNS

    for pid, (zh, _) in PATTERNS.items():
        for written in (zh, pid):
            log = sheet([["1", "胡", "1", "", "2", written, "", "", "", ""]])
            assert log.findings == [], written
            assert pid in events(log, "hu")[0]["patterns"], written


def test_self_draw_adds_the_zimo_extra_only_where_the_rules_score_it() -> None:
    rows = [["1", "胡", "1", "", "自摸", "清一色", "", "", "", ""]]
    plain = sheet(rows)
    assert events(plain, "hu")[0]["patterns"] == ["qingyise"]
    online_fan = convert_sheet(
        csv_bytes(
            [SESSION, PLAYERS, ["规则", '{"preset": "online", "self_draw_bonus": "add_fan"}'], HEADER, *rows]
        ),
        "r.csv",
    )
    assert events(online_fan, "hu")[0]["patterns"] == ["qingyise", "zimo"]


@pytest.mark.parametrize(
    ("kind", "expected"),
    [("直杠", "exposed"), ("明杠", "exposed"), ("点杠", "exposed"), ("弯杠", "added"), ("巴杠", "added"),
     ("面下杠", "added"), ("补杠", "added"), ("暗杠", "concealed"), ("下雨", "concealed"), ("Concealed", "concealed")],
)  # fmt: skip
def test_kong_kinds(kind: str, expected: str) -> None:
    source = "4" if expected == "exposed" else ""
    log = sheet([["1", "杠", "Ann", kind, source, "", "", "", "", ""]])
    assert log.findings == []
    kong = events(log, "kong")[0]
    assert kong["kind"] == expected
    assert kong.get("from") == (3 if expected == "exposed" else None)


@pytest.mark.parametrize("written", ["1", "Ann", "ann", "东", "1.0"])
def test_seats_by_number_name_or_wind(written: str) -> None:
    log = sheet([["1", "胡", written, "", "Du", "平胡", "", "", "", ""]])
    assert log.findings == []
    assert events(log, "hu")[0]["seat"] == 0


def test_gb18030_csv_from_a_chinese_excel_reads_like_utf8() -> None:
    text = EXAMPLE.read_bytes().decode("utf-8-sig")
    gb = convert_sheet(text.encode("gb18030"), "gb.csv")
    utf = convert_sheet(EXAMPLE.read_bytes(), "gb.csv")
    assert gb.encoding == "gb18030" and utf.encoding == "utf-8"
    assert gb.findings == [] and gb.lines == utf.lines


def test_utf8_without_bom_and_semicolons() -> None:
    rows = csv_rows(EXAMPLE.read_bytes())
    out = io.StringIO()
    csv.writer(out, delimiter=";").writerows(rows)
    log = convert_sheet(out.getvalue().encode("utf-8"), "semi.csv")
    assert log.lines == EXAMPLE_LINES


def test_session_fields_in_a_first_block_and_excel_dates() -> None:
    import datetime as dt

    rows: list[list[Cell]] = [
        ["场次", "evening-1"],
        ["日期", dt.datetime(2026, 11, 28, 19, 30)],
        ["玩家", "Ann", "Bo", "Chen", "Du"],
        ["底分", 2],
        [],
        ["局号", "事件", "座位", "来自", "番型", "得分1", "得分2", "得分3", "得分4"],
        [1, "胡", "Bo", "Ann", "七对", -8, 8, 0, 0],
    ]
    log = convert_sheet(xlsx_bytes(rows), "block.xlsx")
    assert log.findings == []
    assert log.lines[0] == (
        1,
        {"type": "session", "session_id": "evening-1", "players": ["Ann", "Bo", "Chen", "Du"], "base": 2,
         "started_at": "2026-11-28T19:30:00"},
    )  # fmt: skip
    assert log.lines[2] == (
        7,
        {"type": "hu", "seat": 1, "from": 0, "patterns": ["qidui"], "deltas": [-8, 8, 0, 0]},
    )


def test_a_new_session_value_opens_a_new_session() -> None:
    rows = [
        ["场次", "玩家1", "玩家2", "玩家3", "玩家4", "局号", "事件", "得分1", "得分2", "得分3", "得分4"],
        ["a", "Ann", "Bo", "Chen", "Du", "1", "本局", "1", "-1", "0", "0"],
        ["", "", "", "", "", "2", "本局", "2", "-2", "0", "0"],
        ["b", "Eve", "Bo", "Chen", "Du", "1", "本局", "0", "0", "3", "-3"],
    ]
    log = convert_sheet(csv_bytes(rows), "two.csv")
    assert log.findings == []
    sessions = events(log, "session")
    assert [s["session_id"] for s in sessions] == ["a", "b"]
    assert sessions[1]["players"] == ["Eve", "Bo", "Chen", "Du"]
    assert [d["deal_id"] for d in events(log, "deal")] == ["a-01", "a-02", "b-01"]
    assert [row for row, obj in log.lines if obj["type"] == "session_end"] == [3, 4]


# --- broken rows ----------------------------------------------------------------------

BROKEN = [
    # row 4: a good deal 1
    ["1", "杠", "Bo", "暗杠", "", "", "-2", "6", "-2", "-2", "", ""],
    # row 5: deal 2, the seat names nobody
    ["2", "胡", "Eve", "", "Ann", "平胡", "", "", "", "", "", ""],
    # row 6: deal 3, a kong kind nobody knows
    ["3", "杠", "Bo", "大杠", "", "", "", "", "", "", "", ""],
    # row 7: deal 4, points that are no number
    ["4", "胡", "Bo", "", "Ann", "平胡", "-1", "one", "0", "0", "", ""],
    # row 8: deal 5, a 直杠 without its discarder
    ["5", "杠", "Bo", "直杠", "", "", "", "", "", "", "", ""],
    # row 9: deal 6, a pattern nobody knows
    ["6", "胡", "Bo", "", "Ann", "清一色 大四喜", "", "", "", "", "", ""],
    # row 10: deal 7, an event nobody knows
    ["7", "吃", "Bo", "", "", "", "", "", "", "", "", ""],
    # row 11: deal 8, only three seats' points
    ["8", "胡", "Bo", "", "Ann", "平胡", "-1", "1", "0", "", "", ""],
    # row 12: deal 9, seat 0 (seats are 1-4 on a sheet)
    ["9", "胡", "0", "", "Ann", "平胡", "", "", "", "", "", ""],
    # row 13: deal 10, a hu with no discarder and no 自摸
    ["10", "胡", "Bo", "", "", "平胡", "", "", "", "", "", ""],
    # row 14: deal 11, a ready cell without a fan
    ["11", "查叫", "", "", "", "", "", "", "", "", "Bo", ""],
    # row 15: deal 11 again, a good 本局 row
    ["11", "本局", "", "", "", "", "0", "0", "0", "0", "", ""],
    # row 16: deal 12, a good win
    ["12", "胡", "Chen", "", "Du", "对对胡", "0", "0", "2", "-2", "", ""],
]
#: row -> (column letter, a word of the message); HEADER is row 3, its columns A..L
BROKEN_AT = {
    5: ("C", "no seat"),
    6: ("D", "kong kind"),
    7: ("H", "whole number"),
    8: ("E", "直杠"),
    9: ("F", "大四喜"),
    10: ("B", "unknown event"),
    11: ("J", "all four seats"),
    12: ("C", "numbered 1-4"),
    13: ("E", "自摸"),
    14: ("K", "ready seat"),
}


def test_each_unreadable_cell_is_a_finding_with_row_and_column_and_the_rest_goes_through() -> None:
    log = sheet(BROKEN)
    found = {f.line: f for _, f, _ in log.findings}
    assert set(found) == set(BROKEN_AT)
    for row, (letter, word) in BROKEN_AT.items():
        finding = found[row]
        assert finding.code == "bad_record"
        assert finding.extra == {"row": row, "column": letter}
        assert finding.message.startswith(f"row {row}, column {letter} (")
        assert word in finding.message, finding.message
    raw = {f.line: text for _, f, text in log.findings}
    assert raw[7] == "4,胡,Bo,,Ann,平胡,-1,one,0,0", "the row is kept as the sheet shows it"
    # the good rows: deal 1's kong, deal 11's net, deal 12's win
    assert events(log, "kong") == [
        {"type": "kong", "seat": 1, "kind": "concealed", "deltas": [-2, 6, -2, -2]}
    ]
    assert events(log, "hu") == [
        {"type": "hu", "seat": 2, "from": 3, "patterns": ["duiduihu"], "deltas": [0, 0, 2, -2]}
    ]
    ends = {obj["type"]: obj for row, obj in log.lines if row == 15}
    assert ends["deal_end"]["scores"] == [0, 0, 0, 0]
    # every deal but the unknown event's is still there, each closed
    deal_ids = [d["deal_id"] for d in events(log, "deal")]
    assert deal_ids == [f"s1-{n:02d}" for n in range(1, 13) if n != 7]
    assert len(events(log, "deal_end")) == len(deal_ids)
    # the findings belong to their deals
    owners = {f.line: deal_id for deal_id, f, _ in log.findings}
    assert owners[5] == "s1-02" and owners[14] == "s1-11"


def test_broken_rows_in_xlsx_name_the_same_cells() -> None:
    log = sheet(BROKEN, "broken.xlsx")
    assert {f.line: f.extra["column"] for _, f, _ in log.findings} == {
        r: c for r, (c, _) in BROKEN_AT.items()
    }


def test_bad_session_cells_name_their_column() -> None:
    rows = [
        ["场次", "日期", "底分", "玩家", "局号", "事件", "得分1", "得分2", "得分3", "得分4"],
        ["s", "28/11/2026", "zero", "Ann,Bo,Chen", "1", "本局", "0", "0", "0", "0"],
    ]
    log = convert_sheet(csv_bytes(rows), "s.csv")
    messages = sorted(f.message for _, f, _ in log.findings)
    assert [m.split(":")[0] for m in messages] == [
        "row 2, column B (日期)",
        "row 2, column C (底分)",
        "row 2, column D (玩家)",
    ]
    assert "players" not in events(log, "session")[0]
    assert len(events(log, "deal")) == 1
    read = read_sheet_bytes(csv_bytes(rows), "s.csv")
    (session,) = read.sessions
    assert {m.split(":")[0] for m in messages} <= {f.message.split(":")[0] for f in session.findings}


def test_unknown_columns_are_a_warning_and_ignored() -> None:
    rows = [
        ["局号", "事件", "心情", "得分1", "得分2", "得分3", "得分4"],
        ["1", "本局", "好", "1", "-1", "0", "0"],
    ]
    log = convert_sheet(csv_bytes(rows), "m.csv")
    (finding,) = [f for _, f, _ in log.findings]
    assert finding.severity == "warning" and "column C header '心情'" in finding.message


@pytest.mark.parametrize(
    ("payload", "name", "word"),
    [
        (b"PK\x03\x04 not really a zip", "bad.xlsx", "not a readable .xlsx"),
        (b"\xff\xfe\xff\x00\x81", "bad.csv", "neither UTF-8 nor GB18030"),
        ("名字,分数\nAnn,3\n".encode(), "nohead.csv", "no header row"),
    ],
)
def test_a_file_that_is_no_sheet_is_one_finding(payload: bytes, name: str, word: str) -> None:
    log = convert_sheet(payload, name)
    assert log.lines == []
    (finding,) = [f for _, f, _ in log.findings]
    assert finding.code == "bad_record" and word in finding.message


# --- net-only sheets ------------------------------------------------------------------

NET_ONLY_ROWS = [
    ["场次", "日期", "玩家1", "玩家2", "玩家3", "玩家4", "局号", "得分1", "得分2", "得分3", "得分4"],
    ["n1", "2026-11-29", "Ann", "Bo", "Chen", "Du", "1", "8", "-4", "-4", "0"],
    ["", "", "", "", "", "", "2", "-16", "16", "2", "-1"],
    ["", "", "", "", "", "", "3", "2", "2", "2", "-5"],
]


def test_a_net_only_sheet_becomes_deals_with_scores_only() -> None:
    log = convert_sheet(csv_bytes(NET_ONLY_ROWS), "net.csv")
    assert log.findings == []
    assert log.net_only == {"n1-01", "n1-02", "n1-03"}
    deals = [(row, obj) for row, obj in log.lines if obj["type"] in ("deal", "deal_end", "kong", "hu")]
    assert deals == [
        (2, {"type": "deal", "deal_id": "n1-01", "record": "sheet"}),
        (2, {"type": "deal_end", "reason": "net_only", "scores": [8, -4, -4, 0]}),
        (3, {"type": "deal", "deal_id": "n1-02", "record": "sheet"}),
        (3, {"type": "deal_end", "reason": "net_only", "scores": [-16, 16, 2, -1]}),
        (4, {"type": "deal", "deal_id": "n1-03", "record": "sheet"}),
        (4, {"type": "deal_end", "reason": "net_only", "scores": [2, 2, 2, -5]}),
    ]


def test_a_net_only_sheet_may_name_the_players_in_its_header() -> None:
    rows = [
        ["场次", "s9"],
        ["局", "Ann", "Bo", "Chen", "Du"],
        ["1", "8", "-4", "-4", "0"],
        ["2", "-1", "1", "0", "0"],
    ]
    log = convert_sheet(csv_bytes(rows), "names.csv")
    assert log.findings == []
    assert log.lines[0] == (
        1,
        {"type": "session", "session_id": "s9", "players": ["Ann", "Bo", "Chen", "Du"]},
    )
    assert [obj.get("scores") for _, obj in log.lines if obj["type"] == "deal_end"] == [
        [8, -4, -4, 0],
        [-1, 1, 0, 0],
    ]
    assert column_of(log, 4, "scores") == "B:E"


def _net_only(scores: tuple[int, int, int, int] | None) -> DealReport:
    """A net-only deal replayed through the seam every replay goes through."""
    start = DealStart(deal_id="n1-02", dealer=0, hands=((), (), (), ()), line=3)
    end = DealEnd(reason="net_only", scores=scores, line=3)
    return replay_one(
        start, [], end, load_rules("standard"), ReplayOptions(session_id="n1"), FindingSink(file="net.csv")
    )


def test_a_net_only_deal_checks_only_its_zero_sum_and_says_so() -> None:
    ok = _net_only((8, -4, -4, 0))
    assert ok.status == "ok" and ok.complete and ok.scores == (8, -4, -4, 0)
    assert [(w.code, w.message) for w in ok.warnings] == [("net_only", NET_ONLY_NOTE)]
    off = _net_only((-16, 16, 2, -1))
    (finding,) = off.findings
    assert (finding.code, finding.line, finding.recorded) == ("score_mismatch", 3, [-16, 16, 2, -1])
    assert "these add up to +1" in finding.message
    missing = _net_only(None)
    assert [f.code for f in missing.findings] == ["bad_record"]
    assert missing.status == "invalid" and not missing.replayed  # no nets: nothing was scored
    assert missing.end_reason == "net_only" and ok.end_reason == "net_only"


# --- wiring: validate, ingest, upload -------------------------------------------------


def test_folders_list_sheets_and_the_reader_names_rows(tmp_path: Path) -> None:
    (tmp_path / "evening.csv").write_bytes(EXAMPLE.read_bytes())
    (tmp_path / "evening.xlsx").write_bytes((TEMPLATES / "sheet-example.xlsx").read_bytes())
    (tmp_path / "notes.txt").write_text("no log")
    assert [p.name for p in find_logs([tmp_path])] == ["evening.csv", "evening.xlsx"]
    log = read_log(tmp_path / "evening.csv")
    messages = [f.message for f in log.findings] + [
        f.message for _, d in log.iter_deals() for f in d.findings
    ]
    assert messages == []  # the hand-worked example evening reads without a finding


def test_ingest_reads_a_sheet_whole() -> None:
    data = EXAMPLE.read_bytes()
    (chunk,) = plan_chunks("evening.csv", "sha", data, 0)
    assert chunk.data == data and chunk.payload is None


def test_the_row_of_a_stray_bad_row_is_kept_with_its_finding() -> None:
    log = read_sheet_bytes(
        csv_bytes([SESSION, PLAYERS, HEADER, ["", "本局", "", "", "", "", "1", "-1", "0", "0"]]), "x.csv"
    )
    strays = [(n, text, f.message) for n, text, f in log.stray if "deal number" in f.message]
    assert strays == [
        (
            4,
            ",本局,,,,,1,-1,0,0",
            "row 4, column A (局号): no deal number on this row or above it in this session",
        )
    ]


def test_the_example_validates_clean() -> None:
    report = validate_paths([EXAMPLE, TEMPLATES / "sheet-example.xlsx"])
    assert report.summary()["deals"] == 6
    assert [f.to_json() for f in report.all_findings()] == []
    assert [d.scores for d in report.deals[:3]] == [(0, 13, 13, -26), (3, -12, 0, 9), (-3, 3, 1, -1)]
    assert report.sessions[0].totals == (0, 4, 14, -18)


def test_validate_names_rows_of_a_tampered_sheet(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8-sig").replace("清一色,3,4,0,0,-4", "清一色,3,8,0,0,-8")
    path = tmp_path / "tampered.csv"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "dashboard.cli", "validate", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 3, done.stderr
    assert "row 4 Ann (seat 1) payment_mismatch" in done.stdout  # a sheet counts its seats 1-4


def test_a_net_only_sheet_validates_zero_sum_and_totals(tmp_path: Path) -> None:
    path = tmp_path / "net.csv"
    # the totals are the sum of the recorded nets, even of the deals that do not add up
    path.write_bytes(csv_bytes([*NET_ONLY_ROWS, ["", "", "", "", "", "", "总分", "-6", "14", "0", "-6"]]))
    report = validate_paths([path])
    codes = {d.deal_id: [f.code for f in d.findings] for d in report.deals}
    assert codes == {"n1-01": [], "n1-02": ["score_mismatch"], "n1-03": ["score_mismatch"]}
    assert all(NET_ONLY_NOTE in [w.message for w in d.warnings] for d in report.deals)
    assert report.sessions[0].totals == (-6, 14, 0, -6)
    assert report.sessions[0].findings == []


def test_column_letters() -> None:
    assert [column_letter(i) for i in (0, 25, 26, 51, 52, 701, 702)] == [
        "A",
        "Z",
        "AA",
        "AZ",
        "BA",
        "ZZ",
        "AAA",
    ]


def _upload(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> Any:
    from streamlit.testing.v1 import AppTest

    from dashboard.warehouse_location import WAREHOUSE_ENV

    monkeypatch.setenv(WAREHOUSE_ENV, str(tmp_path / "warehouse"))
    at = AppTest.from_file(str(ROOT / "dashboard" / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("app_pages/upload.py").run()
    at.file_uploader[0].set_value((name, (TEMPLATES / name).read_bytes(), "text/csv")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_upload_page_takes_a_sheet_and_names_its_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _upload(tmp_path, monkeypatch, "sheet-example.csv")
    assert [e.value for e in at.error] == []
    assert {m.label: m.value for m in at.metric}["Deals"] == "3"


def test_an_uploaded_xlsx_is_ingested(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from analytics.queries import Analytics

    at = _upload(tmp_path, monkeypatch, "sheet-example.xlsx")
    at.button(key="upload_ingest").click().run()
    assert not at.exception
    stored = Analytics(tmp_path / "warehouse")
    assert stored.sql("select count(*) as n from stg_deals")["n"].iloc[0] == 3
    stored.close()


WORDS = [
    "", "1", "2", "4", "0", "-3", "x", "Ann", "Eve", "东", "杠", "胡", "查叫", "本局", "总分", "直杠", "弯杠",
    "暗杠", "自摸", "清一色 根", "根×9", "七对", "流局", "三家胡", "Bo 2", "1:x", "Du", "1.5", "{", "标准",
    '{"preset": "chengdu"}', "2026-11-28", "局号", "s2",
]  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=4)), max_size=14), max_size=12))
def test_any_grid_under_the_header_is_read_without_a_traceback(body: list[list[str]]) -> None:
    rows: list[list[Cell]] = [SESSION, PLAYERS, HEADER, *body]  # type: ignore[list-item]
    log = read_sheet_bytes(csv_bytes(rows), "fuzz.csv")
    findings = [*log.findings, *(f for _, deal in log.iter_deals() for f in deal.findings)]
    findings += [f for session in log.sessions for f in session.findings]
    assert all(f.line is None or 1 <= f.line <= len(rows) for f in findings)
    assert not any(f.message.startswith("line ") for f in findings)


def _price(lines: list[dict[str, Any]]) -> list[tuple[str, list[int]]]:
    """An independent small pricer of the example's sheet deals from the engine's rules
    and settlement primitives (no robbing, no same-turn rule): each claim's computed
    points, so the example is checked before the validator prices sheet deals itself."""
    from engine.rules import load_rules
    from engine.settlement import (
        KongIncome,
        deltas,
        flower_pig_transfers,
        multiplier,
        no_ting_transfers,
        refund_transfers,
    )

    out: list[tuple[str, list[int]]] = []
    rules = load_rules("standard")
    base = 1
    won: set[int] = set()
    kongs: list[KongIncome] = []
    net = [0, 0, 0, 0]

    def book(what: str, points: list[int]) -> None:
        out.append((what, points))
        net[:] = [a + b for a, b in zip(net, points, strict=True)]

    for obj in lines:
        kind = obj["type"]
        still_in = [s for s in range(4) if s not in won]
        if kind == "deal":
            won, kongs, net[:] = set(), [], [0, 0, 0, 0]
        elif kind == "kong":
            seat = obj["seat"]
            each = {"added": rules.added_kong_each, "concealed": rules.concealed_kong_each}.get(
                obj["kind"], 0
            )
            paid = [(s, each * base) for s in still_in if s != seat]
            if obj["kind"] == "exposed":
                paid = [(obj["from"], rules.exposed_kong_discarder * base)]
                paid += [
                    (s, rules.exposed_kong_others * base) for s in still_in if s not in (seat, obj["from"])
                ]
            kongs.append(KongIncome(seat, 0, obj["kind"], 0, [(s, a) for s, a in paid if a]))
            points = [0, 0, 0, 0]
            for payer, amount in paid:
                points[payer] -= amount
                points[seat] += amount
            book("kong", points)
        elif kind == "hu":
            seat, source, patterns = obj["seat"], obj["from"], obj["patterns"]
            fan = (rules.pattern_fan(patterns[0]) or 0) + len(patterns) - 1
            unit = base * multiplier(fan if rules.max_fan is None else min(fan, rules.max_fan))
            points = [0, 0, 0, 0]
            payers = [s for s in still_in if s != seat] if source is None else [source]
            for payer in payers:
                points[payer] -= unit
                points[seat] += unit
            if "gangshangpao" in patterns and rules.kong_discard_transfer:
                kong = next(k for k in reversed(kongs) if k.seat == source)
                points[source] -= kong.income
                points[seat] += kong.income
                kong.handed_on += kong.income
            won.add(seat)
            book("hu", points)
        elif kind == "deal_end":
            if obj["reason"] == "wall_exhausted":
                pigs = set(obj.get("flower_pigs", []))
                ready = {s: f for s, f in enumerate(obj.get("ready", [None] * 4)) if f is not None}
                transfers = flower_pig_transfers(still_in, pigs, rules.flower_pig_points * base, 0)
                transfers += no_ting_transfers(still_in, pigs, ready, base, 0)
                transfers += refund_transfers(kongs, {s for s in still_in if s not in ready}, 0)
                book("settlement", list(deltas(transfers)))
            out.append(("scores", list(net)))
    return out


def test_the_example_claims_are_what_the_rules_price() -> None:
    log = convert_sheet(EXAMPLE.read_bytes(), EXAMPLE.name)
    claims = []
    for obj in events(log):
        if obj["type"] in ("kong", "hu"):
            claims.append((obj["type"], obj["deltas"]))
        elif obj["type"] == "deal_end":
            if "settlement" in obj:
                claims.append(("settlement", obj["settlement"]))
            claims.append(("scores", obj["scores"]))
    assert _price(events(log)) == claims
