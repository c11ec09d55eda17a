"""The evening's money on the Session result page (AppTest, both languages): with a value
of a point, a fee and a rounding in the address, each player's 元 after the fee equals
engine.money over the page's own totals (which test_session_page holds equal to DuckDB),
the transfers in 元 are listed, and the text for the group chat names every player with
points and 元; without a value, no money is shown. File names keep a club's Chinese name."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd  # type: ignore[import-untyped]
import pytest
from page_reading import read_names
from streamlit.testing.v1 import AppTest
from test_dashboard_apptest import APP, TIMEOUT, frame
from test_session_page import busy_session, db, expected_totals, open_session, warehouse

from dashboard.i18n import Lang, label
from dashboard.session_result import SessionResult, chat_text, file_stem
from engine.money import MoneyRule, settle_money, yuan

__all__ = ["db", "warehouse"]  # fixtures, shared with test_session_page


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_money_after_a_fixed_fee_rounded_to_the_yuan(
    warehouse: Path, db: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch, lang: Lang
) -> None:
    session = busy_session(db)
    totals = expected_totals(db, session)
    plain = open_session(warehouse, monkeypatch, session, lang)
    assert "money_point" in [n.key for n in plain.number_input]
    assert not any("yuan" in f.value.columns for f in plain.dataframe)  # no price yet: no money
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["lang"] = lang
    at.query_params.update(session=session, yuan="0.5", fee="fixed", fee_value="40", round="yuan")
    at.run()
    at.switch_page("app_pages/session.py").run()
    assert not at.exception, [e.value for e in at.exception]
    page_totals = read_names(frame(at, "place", "player", "total"))
    players = list(page_totals["player"])
    money_table = read_names(frame(at, "player", "yuan"))
    seats = {name: seat for seat, name in enumerate(_players(db, session))}
    points = [0] * len(seats)
    for name, total in totals.items():
        points[seats[name]] = total
    expected = settle_money(points, MoneyRule(50, "fixed", 4000, "yuan"))
    shown = dict(zip(money_table["player"], money_table["yuan"], strict=True))
    assert shown == {name: expected.amounts[seat] / 100 for name, seat in seats.items()}
    assert sum(shown.values()) == pytest.approx(-40.0)  # the table fee, 40 元, to the house
    assert all(value % 1 == 0 for value in shown.values())  # rounded to the yuan
    chat = next(c.value for c in at.code)
    for name in players:
        seat = seats[name]
        assert (
            f"{name} " in chat
            and f"{yuan(expected.amounts[seat], sign=True)} {label('yuan_unit', lang)}" in chat
        )
    assert label("settle_title", lang) in chat
    # the fee is each player's own line (40 元 AA at a table of four: 10 元 each), nobody's
    # debt to "the table fee" (台费) among the transfers
    assert label("money_fee_each", lang).format(amount="10") in chat
    assert label("money_house", lang) not in chat.replace(
        label("money_fee_each", lang).format(amount="10"), ""
    )
    assert at.query_params["round"] == "yuan"  # a shared link keeps the money


def _players(db: duckdb.DuckDBPyConnection, session: str) -> list[str]:
    row = db.execute("select players from sessions where session_id = ? limit 1", [session]).fetchone()
    assert row is not None
    return [str(p) for p in row[0]]


def _result(club: str | None, session_id: str) -> SessionResult:
    return SessionResult(
        session_id, club, "t1", "2026-05-01 19:00", "standard", 1, ("张三", "李四", "王五", "赵六"),
        (12, -4, -8, 0), None, pd.DataFrame({"status": []}), pd.DataFrame(), (),
    )  # fmt: skip


def test_file_names_keep_the_club_and_chinese() -> None:
    assert file_stem(_result("川麻俱乐部", "0501-夜场")) == "session-川麻俱乐部-0501-夜场"
    assert file_stem(_result("川麻俱乐部", "川麻俱乐部-0501")) == "session-川麻俱乐部-0501"  # named once
    assert file_stem(_result(None, "a/b c")) == "session-a-b-c"
    assert file_stem(_result("x", "")) == "session-x-result"


def test_chat_text_lists_every_player_in_points_without_a_price() -> None:
    text = chat_text(_result("川麻俱乐部", "0501"), "zh")
    lines = text.splitlines()
    assert lines[0].startswith("本场结算 0501 (川麻俱乐部 · t1 · 2026-05-01 19:00)")
    assert lines[1:5] == ["1. 张三 +12", "2. 赵六 0", "3. 李四 -4", "4. 王五 -8"]
    assert "元" not in text  # no price: points only
