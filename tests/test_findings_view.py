"""A payment finding's expected and recorded payments by player, on the Audit page and as
text: "Ann −4, Bo +4", not "[-4, 4, 0, 0]"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from test_dashboard_apptest import APP, TIMEOUT

from analytics.queries import Analytics
from dashboard.findings_view import payments_line, per_player, seat_amounts
from dashboard.i18n import Lang, label
from dashboard.warehouse_location import WAREHOUSE_ENV

PLAYERS = ["张三", "李四", "王五", "赵六"]


def test_payments_by_player() -> None:
    assert per_player([-4, 4, 0, 0], PLAYERS, "zh") == "张三 \u22124, 李四 +4"
    assert per_player([0, 0, 0, 0], PLAYERS, "en") == "no payment"
    assert payments_line("[1, -1, 0, 0]", "[0, 0, 0, 0]", PLAYERS, "en") == (
        "Expected: 张三 +1, 李四 \u22121 · recorded: no payment"
    )
    assert payments_line('["pinghu", "gen"]', '["dihu"]', PLAYERS, "en") is None  # patterns, not payments
    assert payments_line("4", "5", PLAYERS, "en") is None
    assert seat_amounts("[1, true, 0, 0]", 4) is None and seat_amounts("[1, 2]", 4) is None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_audit_names_who_pays(warehouse: Path, monkeypatch: pytest.MonkeyPatch, lang: Lang) -> None:
    api = Analytics(warehouse)
    try:
        found = api.sql(
            "select expected, recorded, players from mart_findings where code = 'payment_mismatch' "
            "and severity = 'error' and deal_id is not null order by played_date desc nulls last, "
            "session_id, deal_id, line limit 1"
        )
    finally:
        api.close()
    assert not found.empty
    row = found.iloc[0]
    players = [str(p) for p in row["players"]]
    expected = per_player(json.loads(row["expected"]), players, lang)
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["lang"] = lang
    at.run()
    at.switch_page("app_pages/audit.py").run()
    at.selectbox(key="audit_code").set_value("payment_mismatch").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = [m.value.replace("\\", "") for m in at.markdown]  # md() escapes markdown
    start = label("expected_recorded", lang).split("{")[0]
    lines = [m for m in shown if m.startswith(f"**{start}")]
    assert lines and any(expected in m for m in lines)
