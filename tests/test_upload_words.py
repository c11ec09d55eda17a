"""The Upload page's findings as a club reads them (AppTest, a real Streamlit script run):
a wrong session total names the players with their amounts, not bare lists; a score
sheet's finding says "row", as docs/score-sheets.md counts it, a log's "line"."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.warehouse_location import WAREHOUSE_ENV
from ingest.logs.writer import log_lines
from ingest.simulator.simulate import ClubPlan, simulate_club

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"


def uploaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, data: bytes) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(tmp_path / "warehouse"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/upload.py").run()
    at.file_uploader[0].set_value((name, data, "application/octet-stream")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_wrong_session_total_names_the_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plan = ClubPlan(players=4, sessions=1, deals_per_session=2, seed=8, start=date(2026, 11, 2))
    lines = [json.loads(line) for line in log_lines(simulate_club(plan))]
    end = lines[-1]
    assert end["type"] == "session_end"
    end["totals"] = [end["totals"][0] + 5, end["totals"][1] - 5, *end["totals"][2:]]
    players = lines[0]["players"]
    body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode()
    at = uploaded(tmp_path, monkeypatch, "night.jsonl", body)
    (said,) = [e.value for e in at.error if "totals are the sum" in e.value]
    assert all(name in said for name in players), said
    assert "[" not in said.split("totals are the sum")[1], said  # amounts by name, no bare list


def test_a_sheets_finding_counts_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sheet = "局号,事件\n1,乱写\n".encode()
    at = uploaded(tmp_path, monkeypatch, "night.csv", sheet)
    shown = [e.value for e in at.error]
    assert shown and all("line " not in said for said in shown), shown
    assert any("row " in said for said in shown), shown
