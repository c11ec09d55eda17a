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


def test_a_blank_sheet_is_offered_and_an_upload_is_told_plainly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page offers the blank score sheet a paper club starts from; after storing, it
    says in one sentence what went in (the worker count and row counts stay in Details)."""
    from streamlit import config

    plan = ClubPlan(players=4, sessions=1, deals_per_session=2, seed=9, start=date(2026, 11, 3))
    body = "".join(line + "\n" for line in log_lines(simulate_club(plan))).encode()
    address = config.get_option("server.address")
    config.set_option("server.address", "localhost")  # storing is open on localhost only
    try:
        at = uploaded(tmp_path, monkeypatch, "night.jsonl", body)
        labels = [button.proto.label for button in at.get("download_button")]
        assert "Download a blank score sheet" in labels
        at.button(key="upload_ingest").click().run()
    finally:
        config.set_option("server.address", address)
    assert not at.exception
    assert any("Stored 2 deals: 2 ok" in m.value for m in at.markdown), [m.value for m in at.markdown]
    assert not any("workers" in m.value or "in process" in m.value for m in at.markdown)
