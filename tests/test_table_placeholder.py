"""No grey "None" in any table: every table of the pages goes through
``page_kit.dataframe``, which shows a dash for a missing value. Checked on the code (no
page calls ``st.dataframe`` itself) and on the pages with the most empty cells (the
Audit page's findings, whose session findings have no player or deal; the Session
result's findings; Find a deal), through AppTest."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from test_dashboard_apptest import APP, TIMEOUT

from dashboard import page_kit
from dashboard.warehouse_location import WAREHOUSE_ENV

DASHBOARD = Path(page_kit.__file__).parent


def test_no_page_draws_a_table_without_the_placeholder() -> None:
    direct = [
        f"{path.relative_to(DASHBOARD)}:{n}"
        for path in sorted(DASHBOARD.rglob("*.py"))
        if path.name != "page_kit.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bst\.dataframe\(", line)
    ]
    assert direct == []


@pytest.mark.parametrize("page", ["audit", "session", "search", "players", "overview"])
def test_every_table_shows_a_dash_for_a_missing_value(
    warehouse: Path, monkeypatch: pytest.MonkeyPatch, page: str
) -> None:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    tables = list(at.dataframe)
    assert tables, page
    assert {t.proto.placeholder for t in tables} == {page_kit.MISSING}
    if page == "audit":  # the findings hold empty cells (a session total has no player)
        assert any(t.value.isna().any().any() for t in tables)
