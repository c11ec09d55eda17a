"""The dashboard at a three-player table (AppTest, in English and Chinese): the evening's
result shows three players and three net columns, no empty fourth, with the golden
evening's totals (tests/test_sheet_seats.py); a sheet deal's replay page points to it."""

from __future__ import annotations

from pathlib import Path

import pytest
from page_reading import read_names
from streamlit.testing.v1 import AppTest
from test_dashboard_apptest import APP, TIMEOUT, frame, metrics
from test_sheet_seats import GOLDEN, write_csv

from dashboard.warehouse_location import WAREHOUSE_ENV
from ingest.warehouse import ingest


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("three")
    summary = ingest([write_csv(folder / "three.csv", GOLDEN)], folder / "warehouse", workers=0)
    assert (summary.ok, summary.findings, summary.invalid) == (2, 0, 0)
    return folder / "warehouse"


def open_page(
    warehouse: Path, monkeypatch: pytest.MonkeyPatch, page: str, lang: str, **params: str
) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["lang"] = lang
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_session_page_shows_three_players(
    warehouse: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    at = open_page(warehouse, monkeypatch, "session", lang, session="s3")
    shown = metrics(at)
    # totals [-7, 0, 7]: three metrics, one a player, no "seat 3" placeholder
    assert {name: shown[name] for name in ("Ann", "Bo", "Chen")} == {"Ann": "-7", "Bo": "0", "Chen": "+7"}
    assert not any(label.startswith("seat ") for label in shown)
    totals = read_names(frame(at, "place", "player", "total"))
    assert totals["player"].tolist() == ["Chen", "Bo", "Ann"] and totals["total"].tolist() == [7, 0, -7]
    deals = frame(at, "status", "findings")
    nets = [c for c in deals.columns if c.startswith("net_")]
    assert nets == ["net_0", "net_1", "net_2"]
    assert deals[nets].values.tolist() == [[-4, -2, 6], [-3, 2, 1]]
    payments = read_names(frame(at, "payer", "payee", "amount"), "payer", "payee")
    assert set(payments["payer"]) | set(payments["payee"]) <= {"Ann", "Bo", "Chen"}


def test_a_three_player_sheet_deal_on_the_replay_page(
    warehouse: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = open_page(warehouse, monkeypatch, "replay", "en", deal="s3-01")
    assert not at.error


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The golden three-player evening, a two-player sheet and the four-player example."""
    from test_sheet_seats import ROOT, TWO_HEADER, TWO_ROWS

    folder = tmp_path_factory.mktemp("mixed")
    files = [
        write_csv(folder / "three.csv", GOLDEN),
        write_csv(folder / "two.csv", TWO_ROWS, TWO_HEADER),
        ROOT / "data" / "templates" / "sheet-example.csv",
    ]
    ingest(files, folder / "warehouse", workers=0)
    return folder / "warehouse"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_ratings_page_of_a_three_player_club_has_no_fourth_place(
    warehouse: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    at = open_page(warehouse, monkeypatch, "ratings", lang)
    table = frame(at, "player", "placement_1_rate")
    assert "placement_3_rate" in table.columns and "placement_4_rate" not in table.columns
    assert not any("placement_4_rate" in element.value.columns for element in at.dataframe)


def test_the_ratings_page_of_a_mixed_club_ranks_per_table_size(
    mixed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = open_page(mixed, monkeypatch, "ratings", "en")
    table = read_names(frame(at, "player", "rating"))  # the ratings: no placements, which mix sizes
    assert sorted(table["player"]) == ["Ann", "Bo", "Chen", "Du"]
    assert not any(c.startswith("placement_") or c == "avg_placement" for c in table.columns)
    # one table a size, each with its own places: a 4th at four only, a 3rd at three and four
    rates = {c for c in (e.value.columns for e in at.dataframe) for c in c if c.startswith("placement_")}
    per_size = [read_names(e.value) for e in at.dataframe if "placement_1_rate" in e.value.columns]
    places = [max(int(c.split("_")[1]) for c in t.columns if c.endswith("_rate")) for t in per_size]
    assert places == [4, 3, 2] and "placement_4_rate" in rates
    three = per_size[1].set_index("player")
    assert three.loc["Ann", "placement_3_rate"] == 100.0  # shown as percent: Ann was 3rd of three
    assert "Placements by table size" in [h.value for h in at.subheader]
    assert [m.value.strip("*") for m in at.markdown if m.value.startswith("**")][-3:] == [
        "4 players", "3 players", "2 players",
    ]  # fmt: skip
