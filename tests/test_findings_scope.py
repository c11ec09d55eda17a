"""A session total recorded wrong is a finding of its session, not of a deal: a club's view
(the Audit filtered to the club, ``chuanma stats --club``, a club token's ``/v1/findings``)
keeps it, as the unfiltered view does. Real ingest, Parquet and DuckDB marts."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from analytics.queries import Analytics, Filters
from ingest.logs.writer import log_lines
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import ingest

CLUB = "chengdu-east"


def wrong_total_log(folder: Path) -> Path:
    """Two sessions of club CLUB; the first one's session_end totals off by 5 for seats 0/1."""
    plan = ClubPlan(players=4, sessions=2, deals_per_session=3, seed=41, club=CLUB, start=date(2026, 11, 2))
    lines = [json.loads(line) for line in log_lines(simulate_club(plan))]
    end = next(line for line in lines if line["type"] == "session_end")
    end["totals"] = [end["totals"][0] + 5, end["totals"][1] - 5, *end["totals"][2:]]
    path = folder / "night.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module", params=[True, False], ids=["marts", "views"])
def analytics(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Analytics:
    folder = tmp_path_factory.mktemp("scope")
    ingest([wrong_total_log(folder)], folder / "warehouse", workers=0)
    reader = Analytics(folder / "warehouse", materialize=request.param)
    request.addfinalizer(reader.close)
    return reader


def test_a_clubs_filter_keeps_its_session_total_finding(analytics: Analytics) -> None:
    everyone = analytics.findings_summary().iloc[0]
    club = analytics.findings_summary(Filters(club=CLUB)).iloc[0]
    assert everyone["session_findings"] == 1
    assert club["session_findings"] == 1 and club["findings"] == everyone["findings"]
    dated = analytics.findings_summary(Filters(club=CLUB, date_from=date(2026, 11, 2))).iloc[0]
    assert dated["session_findings"] == 1  # the session's day, not a deal's, dates it
    other = analytics.findings_summary(Filters(club="west")).iloc[0]
    assert other["findings"] == 0


def test_the_findings_list_of_the_club_names_the_session(analytics: Analytics) -> None:
    codes = analytics.findings_by_code(Filters(club=CLUB))
    assert dict(zip(codes["code"], codes["findings"], strict=True)).get("score_mismatch", 0) >= 1
