"""Every dashboard page through ``streamlit.testing.v1.AppTest`` on a small warehouse built
from simulated (and deliberately tampered) logs: the numbers rendered equal the analytics
API's, each chart's Vega-Lite spec and data hold the expected fields, no page raises, and
an empty warehouse says how to load data. The replay and re-score helpers are checked
against what ingest stored."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd  # type: ignore[import-untyped]
import pyarrow as pa  # type: ignore[import-untyped]
import pytest
from page_reading import names
from streamlit import config
from streamlit.testing.v1 import AppTest

from analytics.queries import Analytics, Filters
from dashboard.cached_queries import dashboard_sql
from dashboard.deal_steps import replay_from_rows
from dashboard.rescore import rescore_session
from dashboard.tiles_view import board_html, tile_html
from dashboard.warehouse_location import WAREHOUSE_ENV
from engine.rules import rules_from_name
from engine.tiles import parse_tile
from ingest.logs.writer import write_lines, write_log
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer
from ingest.warehouse import ingest
from ingest.warehouse.rows_decode import events_from_rows

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
TIMEOUT = 60


def club_logs(folder: Path) -> list[Path]:
    """A standard club with tampered deals (findings and invalid deals) and a small
    chengdu club, so two rule sets can be compared."""
    folder.mkdir(parents=True, exist_ok=True)
    tampered = folder / "club.jsonl.gz"
    tamperer = Tamperer(0.15, seed=5)
    plan = ClubPlan(players=8, sessions=12, deals_per_session=6, seed=11, start=date(2026, 5, 1), days=60)
    write_lines(tamperer.lines(simulate_club(plan)), tampered)
    other = folder / "chengdu.jsonl.gz"
    plan = ClubPlan(
        players=6,
        sessions=3,
        deals_per_session=6,
        rules="chengdu",
        seed=12,
        start=date(2026, 6, 1),
        club="east",
        days=20,
    )
    write_log(simulate_club(plan), other)
    return [tampered, other]


@pytest.fixture(scope="session")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("dash")
    summary = ingest(club_logs(folder / "logs"), folder / "warehouse", workers=0)
    assert summary.findings > 0 and summary.invalid > 0
    return folder / "warehouse"


@pytest.fixture(scope="session")
def api(warehouse: Path) -> Iterator[Analytics]:
    analytics = Analytics(warehouse)
    yield analytics
    analytics.close()


@pytest.fixture
def app(warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    return AppTest.from_file(APP, default_timeout=TIMEOUT)


def open_page(at: AppTest, page: str | None = None) -> AppTest:
    at.run()
    if page is not None:
        at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def frame(at: AppTest, *columns: str) -> pd.DataFrame:
    """The first table holding all these columns (AppTest does not keep a table's key)."""
    for element in at.dataframe:
        value: pd.DataFrame = element.value
        if set(columns) <= set(value.columns):
            return value
    raise AssertionError(f"no table with columns {columns}")


def stored_events(api: Analytics, month: str, deal_ids: list[str]) -> pd.DataFrame:
    ids = sorted(deal_ids)
    params = {"month": month, "first": ids[0], "last": ids[-1], "deal_ids": ids}
    events: pd.DataFrame = api.sql(dashboard_sql("deal_events"), params)
    return events


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def charts(at: AppTest) -> list[tuple[dict[str, Any], pd.DataFrame]]:
    """Each Altair chart's Vega-Lite spec and its data (the first dataset)."""
    out = []
    for element in at.get("vega_lite_chart"):
        proto: Any = element.proto
        spec = json.loads(proto.spec)
        frames = [pa.ipc.open_stream(d.data.data).read_pandas() for d in proto.datasets]
        out.append((spec, frames[0] if frames else pd.DataFrame()))
    return out


def chart(at: AppTest, title: str) -> tuple[dict[str, Any], pd.DataFrame]:
    for spec, data in charts(at):
        if spec.get("title") == title:
            return spec, data
    raise AssertionError(f"no chart titled {title!r}: {[s.get('title') for s, _ in charts(at)]}")


def fields(spec: dict[str, Any]) -> set[str]:
    """Every field the chart encodes, with its tooltips (layers included)."""
    found: set[str] = set()
    for part in [spec, *spec.get("layer", [])]:
        for channel in part.get("encoding", {}).values():
            for item in channel if isinstance(channel, list) else [channel]:
                if isinstance(item, dict) and "field" in item:
                    found.add(item["field"])
    return found


def titles(spec: dict[str, Any]) -> set[str]:
    found: set[str] = set()
    for part in [spec, *spec.get("layer", [])]:
        for channel in part.get("encoding", {}).values():
            if isinstance(channel, dict) and channel.get("title"):
                found.add(channel["title"])
    return found


# ----------------------------------------------------------------------- pages
def test_overview_numbers_and_charts(app: AppTest, api: Analytics) -> None:
    at = open_page(app)
    row = api.query("overview").iloc[0]
    shown = metrics(at)
    assert shown["Deals"] == f"{int(row['deals']):,}"
    assert shown["Sessions"] == f"{int(row['sessions']):,}"
    assert shown["Players"] == f"{int(row['players']):,}"
    assert shown["First day"] == str(row["first_day"].date())
    assert shown["Last day"] == str(row["last_day"].date())
    assert shown["Share of deals with findings"] == f"{100 * row['findings_share']:.1f}%"
    assert shown["Invalid deals"] == str(int(row["invalid_deals"]))

    spec, data = chart(at, "Deals per week")
    assert {"week", "deals", "kind"} <= fields(spec) and {"Week", "Deals"} <= titles(spec)
    assert data["deals"].sum() == row["deals"]
    assert all(isinstance(t, dict) for t in spec["encoding"]["tooltip"])
    spec, data = chart(at, "Wins by total fan")
    assert {"fan", "wins", "share"} <= fields(spec)
    assert data["wins"].sum() == api.fan_by_total()["wins"].sum()
    spec, data = chart(at, "Deals by status")
    assert dict(zip(data["status"], data["deals"], strict=True)) == {
        "ok": row["ok_deals"],
        "findings": row["findings_deals"],
        "invalid": row["invalid_deals"],
    }


def test_filters_apply_to_every_page(app: AppTest, api: Analytics) -> None:
    at = open_page(app)
    at.selectbox(key="filter_club").set_value("east").run()
    assert metrics(at)["Deals"] == str(int(api.query("overview", Filters(club="east"))["deals"].iloc[0]))
    # AppTest drops the entry point's sidebar from the tree after a page switch (a browser
    # keeps it), so the choice is carried in the session state as the browser's would be
    at.session_state["filter_club"] = "east"
    at.switch_page("app_pages/players.py").run()
    board = frame(at, "player", "win_rate")
    assert sorted(names(board["player"])) == sorted(api.player_stats(Filters(club="east"))["player"])


def test_a_players_page_lists_their_nights(app: AppTest, api: Analytics) -> None:
    """The player page (shareable by ``?player=``) lists the player's latest sessions and
    their best and worst nights, each net as the session's deals add it up."""
    stats = api.player_stats()
    player = str(stats.sort_values("deals", ascending=False)["player"].iloc[0])
    app.query_params["player"] = player
    at = open_page(app, "players")
    nights = api.query("player_sessions", Filters(player=player))
    assert len(nights) >= 2 and int(nights["net"].sum()) == int(stats.set_index("player").loc[player, "net"])
    shown = frame(at, "link", "net", "deals")
    assert shown["net"].tolist() == nights["net"].head(10).tolist()
    assert all(link.startswith("session?session=") for link in shown["link"])
    best = [t for t in at.dataframe if "link" in t.value.columns][1].value
    assert best["net"].tolist() == sorted(nights["net"], reverse=True)[:3]


def test_players_leaderboard_and_card(app: AppTest, api: Analytics) -> None:
    at = open_page(app, "players")
    stats = api.player_stats()
    board = frame(at, "player", "win_rate")
    assert names(board["player"]) == list(stats["player"])  # each name a link to its page
    for column in ("deals", "wins", "net", "avg_fan"):
        assert board[column].tolist() == pytest.approx(stats[column].tolist(), nan_ok=True), column
    for column in ("win_rate", "deal_in_rate"):  # shown as percentages, one decimal
        assert (board[column] / 100).tolist() == pytest.approx(stats[column].tolist(), nan_ok=True), column

    name = str(stats.sort_values("deals").iloc[-1]["player"])
    at.selectbox(key="player_choice").set_value(name).run()
    assert not at.exception
    card = stats[stats["player"] == name].iloc[0]
    shown = metrics(at)
    assert shown["Net"] == f"{int(card['net']):,}"
    assert shown["Win rate"] == f"{100 * card['win_rate']:.1f}%"
    compared = frame(at, "statistic")
    win_rate = compared[compared["statistic"] == "Win rate"].iloc[0]
    assert win_rate["player"] == f"{100 * card['win_rate']:.1f}%"
    club_rate = stats["wins"].sum() / stats["deals"].sum()
    assert win_rate["club"] == f"{100 * club_rate:.1f}%"

    spec, data = chart(at, "Score over time")
    expected = api.score_over_time(Filters(player=name))
    assert {"played_date", "cumulative_net"} <= fields(spec)
    assert data["cumulative_net"].tolist() == expected["cumulative_net"].tolist()
    spec, data = chart(at, "How they win")
    kinds = api.query("win_kinds", Filters(player=name))
    assert data["wins"].sum() == kinds["wins"].sum() == card["wins"]
    spec, data = chart(at, "Whom they deal into")
    assert {"winner", "points", "deal_ins"} <= fields(spec)
    spec, data = chart(at, "Most frequent tablemates")
    assert set(data["player"]) == {name}
    spec, data = chart(at, "Fan distribution: player and club")
    assert set(data["who"]) == {name, "Club"}


def test_fans_page(app: AppTest, api: Analytics) -> None:
    at = open_page(app, "fans")
    summary = api.fan_summary().iloc[0]
    shown = metrics(at)
    assert shown["Wins"] == f"{int(summary['wins']):,}"
    assert shown["Cap rate (封顶率)"] == f"{100 * summary['cap_rate']:.1f}%"
    spec, data = chart(at, "Wins by base pattern")
    assert {"label", "wins", "share"} <= fields(spec)
    assert data["wins"].sum() == summary["wins"]
    spec, data = chart(at, "Wins by number of roots (根)")
    assert data.set_index("roots")["wins"].to_dict() == api.fan_roots().set_index("roots")["wins"].to_dict()
    spec, data = chart(at, "Fan distribution by rule set")
    assert set(data["rules"]) == {"standard", "chengdu"}
    table = frame(at, "rules", "cap_rate")
    assert set(table["rules"]) == {"standard", "chengdu"}
    assert table["wins"].sum() == summary["wins"]


def test_head_to_head_matrix_and_the_deals_behind_a_cell(app: AppTest, api: Analytics) -> None:
    at = open_page(app, "head_to_head")
    flows = api.head_to_head()
    spec, data = chart(at, "Points that flowed (row paid column)")
    assert {"from_player", "to_player", "points"} <= fields(spec)
    assert data["points"].sum() == flows["points"].sum()
    assert spec["params"][0]["name"] == "cell"
    pair = flows.iloc[-1]
    at.selectbox(key="h2h_from").set_value(pair["from_player"])
    at.selectbox(key="h2h_to").set_value(pair["to_player"]).run()
    deals = frame(at, "replay", "reasons")
    assert deals["points"].sum() == pair["points"]
    assert all(url.startswith("replay?deal=") for url in deals["replay"])


def test_replay_page_steps_through_a_deal_with_a_finding(app: AppTest, api: Analytics) -> None:
    found = api.sql(
        "select deal_id, line, message from stg_findings where code = 'payment_mismatch' "
        "and deal_id in (select deal_id from stg_deals where status = 'findings') order by deal_id limit 1"
    ).iloc[0]
    at = app
    at.run()
    at.query_params["deal"] = found["deal_id"]
    at.switch_page("app_pages/replay.py").run()
    assert not at.exception
    errors = [h.value for h in at.html if "cm-finding" in h.value]  # findings: HTML, tiles drawn
    assert any("payment_mismatch" in e and f"line {found['line']}" in e for e in errors), errors
    step = int(at.slider(key="replay_step").value)  # type: ignore[arg-type]
    assert step > 0
    board = next(h.value for h in at.html if "cm-board" in h.value)
    assert board.count('class="cm-tile') >= 13 * 4 - 12 and "data-tile=" in board
    ledger = frame(at, "payer", "payee", "amount")
    payments = api.sql(
        "select count(*) as n from stg_ledger where deal_id = $d and (line between 1 and $line "
        "or (line = 0 and $line >= (select last_line from stg_deals where deal_id = $d)))",
        {"d": found["deal_id"], "line": int(found["line"])},
    )
    assert len(ledger) == payments["n"].iloc[0]
    at.button[2].click().run()  # Next
    assert at.slider(key="replay_step").value == step + 1
    at.button[0].click().run()  # Start
    assert at.slider(key="replay_step").value == 0
    assert "ev_" not in at.markdown[0].value


def test_replay_of_an_invalid_deal_shows_where_it_stops(app: AppTest, api: Analytics) -> None:
    deal = api.sql(
        "select d.deal_id, arg_max(f.code, f.line) as code from stg_deals d join stg_findings f using (deal_id) "
        "where d.status = 'invalid' group by d.deal_id order by 1 limit 1"
    ).iloc[0]
    at = app
    at.run()
    at.query_params["deal"] = deal["deal_id"]
    at.switch_page("app_pages/replay.py").run()
    assert not at.exception
    at.button[3].click().run()  # End: the step where the replay stopped
    assert any(deal["code"] in h.value for h in at.html if "cm-finding" in h.value)


def test_audit_page_lists_explains_and_rescores(app: AppTest, api: Analytics) -> None:
    at = open_page(app, "audit")
    codes = api.findings_by_code()
    errors = codes[codes["severity"] == "error"]
    assert metrics(at)["Findings"] == f"{int(errors['findings'].sum()):,}"
    _, data = chart(at, "Findings by code")
    assert data.set_index("code")["findings"].to_dict() == errors.set_index("code")["findings"].to_dict()
    at.selectbox(key="audit_code").set_value("payment_mismatch").run()
    table = frame(at, "code", "message", "replay")
    assert len(table) == errors[errors["code"] == "payment_mismatch"]["findings"].iloc[0]
    assert set(table["code"]) == {"payment_mismatch"}
    assert any("payment_mismatch" in m.value for m in at.markdown)
    assert [link.value for link in at.page_link if "Replay" in link.value]

    session = str(api.findings_by_session()["session_id"].dropna().iloc[0])
    at.selectbox(key="rescore_session").set_value(session)
    at.selectbox(key="rescore_rules").set_value("chengdu").run()
    assert not at.exception
    shown = frame(at, "rescored", "difference")
    deals = api.sql(dashboard_sql("session_deals"), {"session_id": session})
    events = stored_events(api, str(deals["month"].iloc[0]), [str(d) for d in deals["deal_id"]])
    expected = rescore_session(session, deals, events, "chengdu").per_player()
    assert shown["rescored"].tolist() == expected["rescored"].tolist()
    assert shown["computed"].tolist() == [int(sum(s[i] for s in deals["scores"])) for i in range(4)]
    sentences = [m.value for m in at.markdown if "under chengdu" in m.value]
    assert len(sentences) == 4


def test_upload_validates_at_once_and_ingests_on_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "kong.jsonl"
    tamperer = Tamperer(1.0, seed=3, kinds=["kong_payment"])
    write_lines(tamperer.lines(simulate_club(ClubPlan(sessions=1, deals_per_session=6, seed=21))), log)
    assert tamperer.manifest
    empty = tmp_path / "warehouse"
    monkeypatch.setenv(WAREHOUSE_ENV, str(empty))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    address = config.get_option("server.address")
    config.set_option("server.address", "localhost")  # ingesting is open on localhost only
    try:
        open_page(at, "upload")
        at.file_uploader[0].set_value(("kong.jsonl", log.read_bytes(), "application/octet-stream")).run()
        assert not at.exception
        assert metrics(at)["Deals"] == "6"
        assert any("payment_mismatch" in e.value for e in at.error)
        at.button(key="upload_ingest").click().run()
    finally:
        config.set_option("server.address", address)
    assert not at.exception
    assert any("Ingested" in s.value for s in at.success)
    stored = Analytics(empty)
    assert stored.sql("select count(*) as n from stg_deals")["n"].iloc[0] == 6
    stored.close()
    at.switch_page("app_pages/audit.py").run()
    assert any("payment_mismatch" in m.value for m in at.markdown)


def test_every_page_of_an_empty_warehouse_says_how_to_load_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WAREHOUSE_ENV, str(tmp_path / "nothing-yet"))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for page in (None, "players", "fans", "head_to_head", "replay", "audit"):
        open_page(at, page)
        assert any("The warehouse is empty" in i.value for i in at.info), page
        assert any("make demo" in c.value for c in at.code), page
    open_page(at, "upload")
    assert len(at.file_uploader) == 1


def test_language_switch_changes_the_labels(app: AppTest) -> None:
    at = open_page(app)
    at.radio(key="lang").set_value("zh").run()
    assert at.title[0].value == "概览"
    assert "牌局" in metrics(at)
    at.session_state["lang"] = "zh"  # see test_filters_apply_to_every_page
    at.switch_page("app_pages/fans.py").run()
    assert at.title[0].value == "番数"
    assert not at.exception


# ----------------------------------------------------------------------- helpers
def test_every_stored_deal_replays_to_its_stored_findings_and_scores(api: Analytics) -> None:
    deals = api.sql("select deal_id from stg_deals order by deal_id")
    for deal_id in deals["deal_id"]:
        header = api.sql(dashboard_sql("deal_header"), {"deal_id": deal_id}).iloc[0].to_dict()
        stored = api.sql(dashboard_sql("deal_findings"), {"deal_id": deal_id})
        if header["status"] == "invalid":
            raw = api.sql(dashboard_sql("deal_raw_lines"), {"deal_id": deal_id})
            replay = replay_from_rows(header, pd.DataFrame(), raw, stored)
        else:
            events = stored_events(api, header["month"], [deal_id])
            replay = replay_from_rows(header, events, pd.DataFrame(), stored)
            assert list(replay.scores) == list(header["scores"]), deal_id
            assert (
                sum(p.amount for s in replay.steps for p in s.payments)
                == api.sql(
                    "select coalesce(sum(amount), 0) as a from stg_ledger where deal_id = $d", {"d": deal_id}
                )["a"].iloc[0]
            )
        assert replay.error is None, deal_id
        at_steps = sorted((f.line, f.code) for s in replay.steps for f in s.findings)
        assert at_steps == sorted(zip(stored["line"], stored["code"], strict=True)), deal_id


def test_events_from_rows_round_trip_and_rules_names() -> None:
    rules = rules_from_name('chengdu+{"max_fan":5}')
    assert rules.max_fan == 5 and rules.name == 'chengdu+{"max_fan":5}'
    rows = [
        {"deal_id": "d", "seq": 0, "line": 2, "type": "deal", "seat": 0, "tile": None, "from_seat": None,
         "kind": None, "tiles": ["1112345678999m", "1p", "2p", "3p"], "fan": None, "patterns": None,
         "deltas": [3, 4], "settlement": None},
        {"deal_id": "d", "seq": 1, "line": 3, "type": "kong", "seat": 1, "tile": "5p", "from_seat": None,
         "kind": "exposed", "tiles": None, "fan": None, "patterns": None, "deltas": [0, 1, -1, 0],
         "settlement": None},
        {"deal_id": "d", "seq": 2, "line": 4, "type": "hu", "seat": 2, "tile": "5p", "from_seat": float("nan"),
         "kind": None, "tiles": None, "fan": 2.0, "patterns": ["pinghu", "gen"], "deltas": None,
         "settlement": None},
    ]  # fmt: skip
    start, events, end = events_from_rows(rows)
    assert start.dice == (3, 4) and start.hands[1] == (parse_tile("1p"),) and end is None
    assert events[0].type == "kong" and events[0].deltas == (0, 1, -1, 0)
    hu = events[1]
    assert hu.type == "hu" and hu.from_seat is None and hu.fan == 2 and hu.patterns == ("pinghu", "gen")


def test_tiles_are_drawn_as_faces() -> None:
    face = tile_html(parse_tile("5m"))
    assert "5" in face and "万" in face and "cm-m" in face
    assert "筒" in tile_html(parse_tile("1p")) and "条" in tile_html(parse_tile("9s"))
    board = board_html(
        ["Ann", "Bo", "Chen", "Du"],
        [[0, 1, 2], [9], [18], []],
        [[("pong", 4)], [("concealed", 13)], [], []],
        [[26], [], [], []],
        labels={"dealer": "dealer", "void": "void", "won": "won", "scores": "Score", "discards": "Discards"},
        dealer=0,
        won=[False, False, True, False],
        void=[None, 1, None, None],
        scores=[1, -1, 0, 0],
        acting=0,
        hot_tile=2,
    )
    assert board.count("cm-hot") == 1 and "cm-back" in board and "Ann" in board and "won" in board
