"""Gap 6a: a late 弯杠 (an added kong whose fourth tile was not drawn this turn) on a score
sheet. The sheet kong's ``same_turn: false`` leaves it unpaid under
``added_kong_same_turn_only`` (chengdu) and paid as usual elsewhere (standard); the Record
page's facts, its drafts, and the spreadsheet import can all say it, and what they write
reads back and audits clean. Payments worked out by hand in the comments."""

from __future__ import annotations

import csv
import io
from typing import Any

from test_spreadsheet import column_of

from dashboard.record_draft import _deal, _deal_json
from ingest.replay.files import read_log_bytes
from ingest.replay.validate import validate_log
from ingest.sheets.convert import convert_sheet, read_sheet_bytes
from ingest.sheets.record import (
    DealFacts,
    EndFact,
    KongFact,
    SessionFacts,
    WinFact,
    deal_lines,
    log_text,
    price,
)

PLAYERS = ("Ann", "Bo", "Chen", "Du")


def session(rules: str) -> SessionFacts:
    return SessionFacts(f"late-{rules}", PLAYERS, rules, 1, "club7", "t1")


# Du (seat 3) makes a 弯杠 of a tile drawn long before, then wins by self-draw with
# 对对胡 + 根 (the kong): 2 + 1 = 3 fan, ×4 from each of the three other seats.
LATE = DealFacts(
    "late-01",
    0,
    (KongFact(3, "added", same_turn=False), WinFact(3, None, ("duiduihu", "gen"))),
    EndFact(),  # the other three play on; nobody ready, no 花猪: no 查叫 payment
)


def test_a_late_added_kong_is_unpaid_under_chengdu_and_paid_under_standard() -> None:
    # chengdu (added_kong_same_turn_only): the late kong earns nothing; 自摸加底 adds a base
    # to each payment: the win is 4 + 1 = 5 from each, Du +15. Three seats still in and not
    # ready: no 查大叫, and Du has left, so no 退税 either.
    chengdu = price(session("chengdu"), LATE)
    assert chengdu.payments[0] == [] and chengdu.scores == (-5, -5, -5, 15)
    # standard: it earns 1 from each (+3), then 4 from each for the win: Du +15.
    standard = price(session("standard"), LATE)
    assert standard.scores == (-5, -5, -5, 15)
    from engine.settlement import deltas

    assert deltas(standard.payments[0]) == (-1, -1, -1, 3)
    # the same kong drawn this turn earns its 1 from each under chengdu too: Du +3 +15
    drawn = DealFacts(LATE.deal_id, 0, (KongFact(3, "added"), LATE.events[1]), EndFact())
    assert price(session("chengdu"), drawn).scores == (-6, -6, -6, 18)


def test_the_record_page_writes_it_and_the_audit_reads_it() -> None:
    for rules in ("chengdu", "standard"):
        lines = deal_lines(session(rules), LATE)
        assert '"same_turn":false' in lines[1].replace(" ", ""), lines[1]
        report = validate_log(read_log_bytes(log_text(session(rules), [LATE]).encode(), "late.jsonl"))
        assert report.ok, [f.message for f in report.all_findings()]
    # a kong drawn this turn says nothing (the field's default), as the writer does
    drawn = DealFacts(LATE.deal_id, 0, (KongFact(3, "added"), LATE.events[1]), EndFact())
    assert "same_turn" not in deal_lines(session("chengdu"), drawn)[1]


def test_a_draft_keeps_it() -> None:
    assert _deal(_deal_json(LATE)) == LATE
    old = _deal_json(LATE)
    del old["events"][0]["same_turn"]  # a draft saved before the field: drawn this turn
    assert _deal(old).events[0] == KongFact(3, "added")


HEADER = ["局号", "事件", "座位", "杠型", "当巡", "番型", "得分1", "得分2", "得分3", "得分4", "听牌"]


def sheet_bytes(rows: list[list[Any]], rules: str = "chengdu") -> bytes:
    data = [["场次", "s1"], ["玩家", *PLAYERS], ["规则", rules], HEADER, *rows]
    out = io.StringIO()
    csv.writer(out).writerows(data)
    return out.getvalue().encode()


def test_the_spreadsheet_import_reads_the_column() -> None:
    rows = [
        ["1", "杠", "Du", "弯杠", "否", "", "0", "0", "0", "0"],  # late: unpaid under chengdu
        ["1", "胡", "Du", "自摸", "", "对对胡 根", "-5", "-5", "-5", "15"],  # 3 fan: 4 + 1 each
        ["1", "查叫", "", "流局", "", "", "-1", "2", "-1", "0", "Bo 1"],  # Ann, Chen pay Bo 1
        ["2", "杠", "Ann", "巴杠", "是", "", "3", "-1", "-1", "-1"],  # drawn this turn: paid
        ["2", "胡", "Ann", "自摸", "", "平胡 根", "9", "-3", "-3", "-3"],  # 2 fan: 2 + 1 each
        ["2", "查叫", "", "流局", "", "", "0", "2", "-1", "-1", "Bo 1"],  # Chen, Du pay Bo 1
    ]
    log = convert_sheet(sheet_bytes(rows), "late.csv")
    assert log.findings == []
    kongs = [obj for _, obj in log.lines if obj["type"] == "kong"]
    assert kongs[0]["same_turn"] is False and "same_turn" not in kongs[1]
    assert column_of(log, 5, "same_turn") == "E"  # rows 1-3 the first block, 4 the header
    report = validate_log(read_sheet_bytes(sheet_bytes(rows), "late.csv"))
    assert report.ok, [f.message for f in report.all_findings()]
    # the same sheet without the column: the late kong is taken as drawn this turn, and
    # its recorded zeros are a payment_mismatch under chengdu
    plain = [[c for i, c in enumerate(row) if i != 4] for row in rows]
    data = [["场次", "s1"], ["玩家", *PLAYERS], ["规则", "chengdu"], HEADER[:4] + HEADER[5:], *plain]
    out = io.StringIO()
    csv.writer(out).writerows(data)
    codes = {f.code for f in validate_log(read_sheet_bytes(out.getvalue().encode(), "p.csv")).all_findings()}
    assert "payment_mismatch" in codes


def test_a_bad_same_turn_cell_is_a_finding_naming_its_column() -> None:
    rows = [
        ["1", "杠", "Du", "暗杠", "否", "", "-2", "-2", "-2", "6"],  # not an added kong
        ["1", "杠", "Ann", "弯杠", "maybe", "", "", "", "", ""],  # not a yes or a no
        ["1", "查叫", "", "流局", "", "", "", "", "", "", ""],
    ]
    log = convert_sheet(sheet_bytes(rows), "bad.csv")
    messages = [finding.message for _, finding, _ in log.findings]
    assert len(messages) == 2, messages
    assert "same_turn" in messages[0] and "E" in messages[0], messages[0]
    assert "maybe" in messages[1], messages[1]


def test_the_record_page_checkbox_makes_a_late_added_kong(tmp_path: Any, monkeypatch: Any) -> None:
    """On the page, under chengdu: Du's 弯杠 with the box ticked earns nothing; once the next
    move shows nobody robbed it, the totals stay at zero (a kong drawn this turn: +3)."""
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    from dashboard.warehouse_location import WAREHOUSE_ENV

    monkeypatch.setenv(WAREHOUSE_ENV, str(tmp_path / "wh"))
    app = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
    at = AppTest.from_file(app, default_timeout=60)
    at.session_state["lang"] = "en"
    at.run()
    at.switch_page("app_pages/record.py").run()
    at.button_group(key="record_rules").set_value("chengdu").run()
    at.text_input(key="record_sid_input").input("late")
    for seat, name in enumerate(PLAYERS):
        at.text_input(key=f"record_player_{seat}").input(name)
    at.button(key="record_begin").click().run()
    at.button_group(key="record_action_0").set_value("kong").run()
    at.button_group(key="record_kong_who_0").set_value(3).run()
    at.button_group(key="record_kong_kind_0").set_value("added").run()
    at.checkbox(key="record_kong_late_0").check().run()
    at.button(key="record_kong_add_0").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert "(late: tile not drawn this turn)" in "\n".join(str(m.value) for m in at.markdown)
    # Ann's 自摸 平胡 next: 1 fan, ×1 + 自摸加底 1 from each of Bo, Chen, Du; the kong earned 0
    at.button_group(key="record_win_who_1").set_value(0).run()
    at.button_group(key="record_win_from_1").set_value(-1).run()
    at.button_group(key="record_win_patterns_1").set_value(["pinghu"]).run()
    at.button(key="record_win_add_1").click().run()
    assert not at.exception, [e.value for e in at.exception]
    metrics = {str(m.label): str(m.value) for m in at.metric}
    assert metrics == {"Ann": "+6", "Bo": "-2", "Chen": "-2", "Du": "-2"}
