"""The Audit's re-score and counts as a club reads them: where no deal of a session can be
re-scored (score sheets), the page says so and nothing else (no "unchanged" for everyone
beside it); the counts' axes step by whole numbers."""

from __future__ import annotations

from pathlib import Path

import pandas as pd  # type: ignore[import-untyped]
import pytest
from streamlit.testing.v1 import AppTest

from dashboard import charts
from dashboard.warehouse_location import WAREHOUSE_ENV
from ingest.logs.writer import log_lines, write_lines
from ingest.simulator.sheet_sessions import with_sheet_sessions
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import ingest

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"


def test_nothing_re_scored_says_so_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A club of score sheets only: re-scoring a session under chengdu re-scores no deal
    (a sheet has no tiles); the page warns once and says nothing per player."""
    plan = ClubPlan(players=4, sessions=1, deals_per_session=3, seed=5)
    log = tmp_path / "sheets.jsonl"
    write_lines(log_lines(with_sheet_sessions(simulate_club(plan), 1.0, 5)), log)
    ingest([log], tmp_path / "warehouse", workers=0)
    monkeypatch.setenv(WAREHOUSE_ENV, str(tmp_path / "warehouse"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/audit.py").run()
    session = at.selectbox(key="rescore_session").options[0]
    at.selectbox(key="rescore_session").set_value(session)
    at.selectbox(key="rescore_rules").set_value("chengdu").run()
    assert not at.exception, [e.value for e in at.exception]
    assert [w.value for w in at.warning if "chengdu" in w.value]
    assert not [m.value for m in at.markdown if "under chengdu" in m.value or "unchanged" in m.value]


def test_counts_step_by_whole_numbers() -> None:
    def tr(key: str) -> str:
        return key

    findings = pd.DataFrame({"code": ["score_mismatch"], "findings": [1], "deals": [1], "sessions": [1]})
    points = pd.DataFrame({"player": ["Ann", "Ann"], "kind": ["computed", "rescored"], "points": [0, 0]})
    for chart in (charts.findings_code_chart(findings, tr), charts.rescore_chart(points, tr)):
        spec = chart.to_dict()
        encodings = [spec.get("encoding", {})] + [
            layer.get("encoding", {}) for layer in spec.get("layer", [])
        ]
        axes = [enc[axis]["axis"] for enc in encodings for axis in ("x", "y") if "axis" in enc.get(axis, {})]
        counted = [axis for axis in axes if axis.get("format") == "d"]
        assert counted and all(axis["tickMinStep"] == 1 for axis in counted), axes


def test_a_rescore_names_the_rule_set_in_the_pages_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """中文: "按 成都麻将 chengdu 规则…", the preset's Chinese name before its id."""
    log = tmp_path / "tiles.jsonl"
    write_lines(log_lines(simulate_club(ClubPlan(players=4, sessions=1, deals_per_session=3, seed=6))), log)
    ingest([log], tmp_path / "warehouse", workers=0)
    monkeypatch.setenv(WAREHOUSE_ENV, str(tmp_path / "warehouse"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = "zh"
    at.run()
    at.switch_page("app_pages/audit.py").run()
    at.selectbox(key="rescore_session").set_value(at.selectbox(key="rescore_session").options[0])
    at.selectbox(key="rescore_rules").set_value("chengdu").run()
    assert not at.exception, [e.value for e in at.exception]
    said = [m.value for m in at.markdown if "规则" in m.value and "chengdu" in m.value]
    assert said and all("成都麻将 chengdu" in line for line in said), said
