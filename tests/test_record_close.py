"""Closing a session on the Record page (AppTest, both languages): it asks first and "Not
yet" keeps it open; "Yes" writes the closing record with the saved deals' totals and the
money settings, the session leaves "Continue a session", a link to it says it is closed,
and the Session result page opens with its money, worked out by hand below."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from page_reading import read_names
from streamlit.testing.v1 import AppTest
from test_record import APP, TIMEOUT, on_localhost, pick_win, start

from dashboard.closing import closing_path, read_closing, write_closing
from dashboard.i18n import Lang, label
from dashboard.record_draft import closed_path, list_drafts, load_draft
from dashboard.warehouse_location import WAREHOUSE_ENV
from engine.money import MoneyRule

__all__ = ["on_localhost"]  # the autouse fixture of test_record


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_close_a_session_with_its_money(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: Lang) -> None:
    warehouse = tmp_path / "wh"
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    start(at, "night", lang)
    pick_win(at, 0, 0, -1, [])  # A 自摸 平胡: 1 from each: +3 -1 -1 -1
    at.button(key="record_win_add_0").click().run()
    at.button(key="record_save_1").click().run()
    at.button(key="record_close").click().run()
    assert any(label("record_close_ask", lang).split("{")[0] in w.value for w in at.warning)
    at.button(key="record_close_no").click().run()  # not yet: still recording
    assert list_drafts(warehouse) == ["night"] and not closing_path(warehouse, "night").exists()

    at.button(key="record_close").click().run()
    at.number_input(key="record_money_point").set_value(0.5).run()
    at.selectbox(key="record_money_fee").set_value("fixed").run()
    at.number_input(key="record_money_fee_value").set_value(20.0).run()
    at.selectbox(key="record_money_rounding").set_value("jiao").run()
    at.button(key="record_close_yes").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.success[0].value == label("record_closed", lang).format(session="night")
    record = read_closing(warehouse, "night")
    assert record is not None and record["totals"] == [3, -1, -1, -1]
    assert record["money"] == {"fen_per_point": 50, "fee_kind": "fixed", "fee": 2000, "rounding": "jiao"}
    assert list_drafts(warehouse) == []  # left "Continue a session"
    kept = load_draft(warehouse, "night")
    assert kept is not None and kept.closed_at == record["closed_at"] and len(kept.saved) == 1
    assert closed_path(warehouse, "night").is_file() and not (warehouse / "drafts" / "night.json").exists()

    # the Session result opens with the money: 0.5 元 a point, 20 元 of table fee, 5 元 each:
    # A +3 -> 1.5 - 5 = -3.5 元; B, C, D -1 -> -0.5 - 5 = -5.5 元; all in 角; the house 20 元
    at.switch_page("app_pages/session.py").run()
    at.selectbox(key="session_pick").set_value("night").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.number_input(key="money_point").value == 0.5
    money = read_names(next(f.value for f in at.dataframe if "yuan" in f.value.columns))
    assert dict(zip(money["player"], money["yuan"], strict=True)) == {
        "A": -3.5,
        "B": -5.5,
        "C": -5.5,
        "D": -5.5,
    }

    again = AppTest.from_file(APP, default_timeout=TIMEOUT)  # a link to the closed session
    again.session_state["lang"] = lang
    again.query_params["record"] = "night"
    again.run()
    again.switch_page("app_pages/record.py").run()
    assert any("night" in i.value for i in again.info)
    assert [b for b in again.button if b.key == "record_begin"]  # the start form, not the session


def test_a_session_is_closed_once(tmp_path: Path) -> None:
    first = write_closing(tmp_path, "s1", (2, -2, 0, 0), MoneyRule(100), "2026-05-01T23:00")
    with pytest.raises(FileExistsError):
        write_closing(tmp_path, "s1", (0, 0, 0, 0), None, "2026-05-02T01:00")
    assert json.loads(first.read_text(encoding="utf-8"))["totals"] == [2, -2, 0, 0]  # the first stands
    assert list(tmp_path.joinpath("closings").iterdir()) == [first]  # no temp file left
