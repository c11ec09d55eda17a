"""Seasons (赛季) and the least deals to be ranked (规定局数): the seasons file, ``chuanma
season`` and ``chuanma stats --season``, and the sidebar's period (this month / this
season / a season by name) on the Players and Placements pages, on a small real warehouse.
Every figure is compared with the analytics API over the season's dates."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pandas as pd  # type: ignore[import-untyped]
import pytest
from page_reading import read_names
from streamlit.testing.v1 import AppTest
from test_dashboard_apptest import APP, TIMEOUT

from analytics.queries import Analytics, Filters
from analytics.seasons import (
    Season,
    SeasonError,
    add_season,
    current_season,
    find_season,
    load_seasons,
    month_of,
    remove_season,
    split_ranked,
)
from dashboard.i18n import Lang, label
from dashboard.warehouse_location import WAREHOUSE_ENV
from ingest.logs.writer import write_log
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import ingest

SPRING = Season("2026 春季", date(2026, 5, 1), date(2026, 5, 31), "west", min_deals=0)


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("seasons")
    log = folder / "club.jsonl"
    plan = ClubPlan(
        players=7, sessions=10, deals_per_session=4, seed=31, start=date(2026, 5, 1), club="west", days=60
    )
    write_log(simulate_club(plan), log)
    ingest([log], folder / "warehouse", workers=0)
    return folder / "warehouse"


def _table(warehouse: Path, filters: Filters) -> pd.DataFrame:
    api = Analytics(warehouse, materialize=False)
    try:
        return api.player_table(filters)
    finally:
        api.close()


def test_seasons_file_keeps_what_was_defined(tmp_path: Path) -> None:
    assert load_seasons(tmp_path) == []
    add_season(tmp_path, SPRING)
    summer = Season("夏季", date(2026, 6, 1), date(2026, 8, 31), None, min_deals=10, min_sessions=2)
    assert add_season(tmp_path, summer) == [SPRING, summer]
    again = Season(SPRING.name, SPRING.first, date(2026, 6, 5), "west")  # same name and club: replaced
    assert load_seasons(tmp_path) == [SPRING, summer]
    assert add_season(tmp_path, again) == [again, summer]
    assert find_season(load_seasons(tmp_path), "夏季", "west") == summer  # an every-club season is offered
    with pytest.raises(SeasonError, match="no season 'autumn'"):
        find_season(load_seasons(tmp_path), "autumn")
    with pytest.raises(SeasonError, match="ends"):
        add_season(tmp_path, Season("bad", date(2026, 6, 2), date(2026, 6, 1)))
    assert remove_season(tmp_path, SPRING.name, "west") == [summer]
    with pytest.raises(SeasonError, match="no season"):
        remove_season(tmp_path, SPRING.name, "west")
    (tmp_path / "seasons.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(SeasonError, match="cannot read"):
        load_seasons(tmp_path)


def test_this_month_and_this_season() -> None:
    assert month_of(date(2026, 2, 14)) == (date(2026, 2, 1), date(2026, 2, 28))
    assert month_of(date(2026, 12, 31)) == (date(2026, 12, 1), date(2026, 12, 31))
    summer = Season("夏季", date(2026, 6, 1), date(2026, 8, 31))
    seasons = [SPRING, summer]
    assert current_season(seasons, "west", date(2026, 5, 20)) == SPRING
    assert current_season(seasons, "east", date(2026, 5, 20)) is None  # spring is west's; summer not begun
    assert current_season(seasons, None, date(2026, 9, 15)) == summer  # between seasons: the last one
    assert current_season(seasons, None, date(2026, 4, 1)) is None


def test_split_ranked_keeps_order_and_asks_only_known_columns() -> None:
    board = pd.DataFrame({"player": ["a", "b", "c"], "deals": [30, 5, 12], "sessions": [3, 1, 2]})
    ranked, unranked = split_ranked(board, 10, 2)
    assert list(ranked["player"]) == ["a", "c"] and list(unranked["player"]) == ["b"]
    ranked, unranked = split_ranked(board[["player", "sessions"]], 100, 0)  # no deals column: all ranked
    assert len(ranked) == 3 and unranked.empty


def _chuanma(*args: str | Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("chuanma")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "dashboard.cli"]
    return subprocess.run(
        [*command, *map(str, args)], capture_output=True, text=True, encoding="utf-8", timeout=120
    )


def test_stats_over_a_season_with_its_least_deals(warehouse: Path, tmp_path: Path) -> None:
    copy = tmp_path / "wh"
    import shutil

    shutil.copytree(warehouse, copy)
    within = _table(copy, Filters(club="west", date_from=SPRING.first, date_to=SPRING.last))
    least = int(within["deals"].median()) + 1
    added = _chuanma(
        "season", "add", SPRING.name, "--from", "2026-05-01", "--to", "2026-05-31", "--club", "west",
        "--min-deals", str(least), "--warehouse", copy,
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    listed = json.loads(_chuanma("season", "list", "--json", "--warehouse", copy).stdout)
    assert listed == [{**SPRING.to_json(), "min_deals": least}]
    done = _chuanma("stats", "--season", SPRING.name, "--club", "west", "--json", "--warehouse", copy)
    assert done.returncode == 0, done.stderr
    rows = {r["player"]: r for r in json.loads(done.stdout)}
    assert {p: r["deals"] for p, r in rows.items()} == dict(
        zip(within["player"], within["deals"], strict=True)
    )
    assert {p for p, r in rows.items() if r["ranked"]} == set(within[within["deals"] >= least]["player"])
    assert any(not r["ranked"] for r in rows.values()) and any(r["ranked"] for r in rows.values())
    table = _chuanma("stats", "--season", SPRING.name, "--club", "west", "--warehouse", copy).stdout
    for player, row in rows.items():
        assert (player in table) == row["ranked"]
    both = _chuanma("stats", "--season", SPRING.name, "--from", "2026-05-01", "--warehouse", copy)
    assert both.returncode == 2 and "--season gives the dates" in both.stderr
    unknown = _chuanma("stats", "--season", "autumn", "--warehouse", copy)
    assert unknown.returncode == 2 and "no season 'autumn'" in unknown.stderr


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_players_and_placements_pages_read_a_season(
    warehouse: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: Lang
) -> None:
    import shutil

    copy = tmp_path / "wh"
    shutil.copytree(warehouse, copy)
    within = _table(copy, Filters(date_from=SPRING.first, date_to=SPRING.last))
    least = int(within["deals"].median()) + 1
    season = Season(SPRING.name, SPRING.first, SPRING.last, None, min_deals=least, min_sessions=2)
    add_season(copy, season)
    expected, below = split_ranked(within, least, 2)
    assert not expected.empty and not below.empty
    monkeypatch.setenv(WAREHOUSE_ENV, str(copy))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["lang"] = lang
    at.run()
    at.switch_page("app_pages/players.py")
    at.query_params["period"] = f"season:{SPRING.name}"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    period = at.selectbox(key="filter_period")
    assert period.value == f"season:{SPRING.name}"
    assert label("period_month", lang) in period.options  # this month is always offered
    shown = [read_names(t.value) for t in at.dataframe if "win_rate" in t.value.columns]
    assert set(shown[0]["player"]) == set(expected["player"])
    assert set(shown[1]["player"]) == set(below["player"])
    assert shown[0].set_index("player")["deals"].to_dict() == expected.set_index("player")["deals"].to_dict()
    assert label("ranked_rule", lang).format(deals=least, sessions=2) in [str(c.value) for c in at.caption]
    assert f"{SPRING.first.isoformat()} – {SPRING.last.isoformat()}" in [
        str(c.value) for c in at.sidebar.caption
    ]
    assert at.query_params["period"] == f"season:{SPRING.name}"  # a shared link keeps the season
    at.switch_page("app_pages/ratings.py").run()
    assert not at.exception, [e.value for e in at.exception]
    placed = [read_names(t.value) for t in at.dataframe if "placement_1_rate" in t.value.columns]
    api = Analytics(copy, materialize=False)
    sessions = api.placements(Filters(date_from=SPRING.first, date_to=SPRING.last)).set_index("player")[
        "sessions"
    ]
    api.close()
    assert set(placed[0]["player"]) == set(sessions[sessions >= 2].index)
    if (sessions < 2).any():
        assert set(placed[1]["player"]) == set(sessions[sessions < 2].index)


def test_this_month_reads_the_calendar_month(warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("app_pages/players.py")
    at.query_params["period"] = "month"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    first, last = month_of(date.today())
    assert f"{first.isoformat()} – {last.isoformat()}" in [str(c.value) for c in at.sidebar.caption]
    expected = _table(warehouse, Filters(date_from=first, date_to=last))
    if expected.empty:  # the sample club played in 2026-05..06: nothing this month
        assert label("no_match", "en") in [str(i.value) for i in at.info]
