"""Score-sheet deals in the warehouse and its statistics.

The same simulated clubs are ingested three times: as tile logs, as their score sheets
(``chuanma simulate --sheet-sessions 1``: every deal the sheet version of the deal played)
and mixed. Every statistic that does not need tiles is equal between the tile and the
sheet warehouses; the ones that need tiles (the win turn, the events) leave the sheet deals
out and report how many. A warehouse written before the ``record`` column still reads,
alone and beside new batches; the Overview, Players, Fans and Replay pages show both kinds.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pandas as pd  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest
from page_reading import read_names
from streamlit.testing.v1 import AppTest
from test_cli_ingest_stats import run

from analytics.queries import Analytics, Filters
from dashboard.i18n import label
from dashboard.warehouse_location import WAREHOUSE_ENV
from ingest.logs.writer import write_log
from ingest.simulator.sheet_sessions import with_sheet_sessions
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import ingest, table_files

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
PLANS = (
    ClubPlan(players=6, sessions=8, deals_per_session=8, seed=21, start=date(2026, 4, 1), days=30),
    ClubPlan(
        players=5, sessions=4, deals_per_session=8, rules="chengdu", seed=22, start=date(2026, 5, 1),
        club="east", days=10,
    ),
)  # fmt: skip
#: a later club, ingested on its own as sheets into a warehouse of the old schema
LATER = ClubPlan(
    players=4, sessions=3, deals_per_session=6, seed=23, start=date(2026, 7, 1), club="west", days=5
)
#: columns only a tile deal can fill (null on a sheet deal's seat rows), and the record's own
TILE_ONLY = ["void_suit", "win_turn", "win_tile"]
#: per query: columns that tell tiles from sheets (the counts of sheet deals, the win turn)
DIFFERS = {
    "player_stats": ["avg_win_turn", "sheet_deals", "sheet_deals_excluded"],
    "fan_summary": ["sheet_wins"],
    "overview": ["sheet_deals", "tile_deals"],
    "session_list": ["tile_deals"],
}
SAME = (
    "player_stats", "fan_by_pattern", "fan_by_total", "fan_roots", "fan_summary", "fan_by_rules",
    "head_to_head", "tablemates", "win_kinds", "deal_ins", "score_over_time", "overview", "activity",
    "deal_status", "session_list",
)  # fmt: skip


def _logs(folder: Path, plans: tuple[ClubPlan, ...], rate: float) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, plan in enumerate(plans):
        path = folder / f"club{index}.jsonl"
        write_log(with_sheet_sessions(simulate_club(plan), rate, plan.seed), path)
        paths.append(path)
    return paths


def _sheet_deals(paths: list[Path]) -> dict[str, tuple[tuple[str, str | None], ...]]:
    """deal_id -> the players of its session with its club (players are per club), for every
    sheet deal of the logs (read as text)."""
    out: dict[str, tuple[tuple[str, str | None], ...]] = {}
    for path in paths:
        players: tuple[tuple[str, str | None], ...] = ()
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:  # a line --tamper broke on purpose
                continue
            if row.get("type") == "session":
                players = tuple((p, row.get("club")) for p in row["players"])
            elif row.get("type") == "deal" and row.get("record") == "sheet":
                out[row["deal_id"]] = players
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[Path]]]:
    root = tmp_path_factory.mktemp("sheetstats")
    out = {}
    for name, rate in (("tiles", 0.0), ("sheets", 1.0), ("mixed", 0.5)):
        logs = _logs(root / name / "logs", PLANS, rate)
        summary = ingest(logs, root / name / "warehouse", workers=0)
        assert (summary.findings, summary.invalid) == (0, 0), name  # the sheets carry true claims
        out[name] = (root / name / "warehouse", logs)
    return out


@pytest.fixture(scope="module")
def apis(built: dict[str, tuple[Path, list[Path]]]) -> Iterator[dict[str, Analytics]]:
    opened = {name: Analytics(folder) for name, (folder, _) in built.items()}
    yield opened
    for api in opened.values():
        api.close()


def _sorted(frame: pd.DataFrame) -> pd.DataFrame:
    if frame.empty:
        return frame.reset_index(drop=True)
    keys = [c for c in frame.columns if frame[c].map(lambda v: not isinstance(v, list | tuple)).all()]
    as_text = frame.astype(str)
    return frame.loc[as_text.sort_values(keys).index].reset_index(drop=True)


def test_the_logs_hold_what_each_warehouse_needs(built: dict[str, tuple[Path, list[Path]]]) -> None:
    tiles, sheets, mixed = (_sheet_deals(built[name][1]) for name in ("tiles", "sheets", "mixed"))
    total = sum(p.sessions * p.deals_per_session for p in PLANS)
    assert (len(tiles), len(sheets)) == (0, total)
    assert 0 < len(mixed) < total  # both kinds


def test_sheet_seat_rows_equal_the_tile_ones(apis: dict[str, Analytics]) -> None:
    """Seats, deals and ledger of a sheet deal hold what the same deal as tiles holds."""
    seats = "select * exclude ({}) from mart_seat_deals order by deal_id, seat"
    tiles = apis["tiles"].sql(seats.format(", ".join([*TILE_ONLY, "record", "is_sheet"])))
    sheets = apis["sheets"].sql(seats.format(", ".join([*TILE_ONLY, "record", "is_sheet"])))
    assert len(tiles) == 4 * sum(p.sessions * p.deals_per_session for p in PLANS)
    assert tiles["won"].sum() > 0 and tiles["kongs"].sum() > 0 and tiles["ready_at_end"].notna().any()
    pd.testing.assert_frame_equal(tiles, sheets)
    tile_cols = apis["sheets"].sql(f"select {', '.join(TILE_ONLY)}, record from mart_seat_deals")
    assert tile_cols[TILE_ONLY].isna().all().all() and set(tile_cols["record"]) == {"sheet"}
    assert apis["tiles"].sql("select distinct record from mart_seat_deals")["record"].tolist() == ["tiles"]

    deals = (
        "select deal_id, status, end_reason, wins, self_draws, kongs, still_in_at_end, flower_pigs, "
        "scores, record from stg_deals order by deal_id"
    )
    tile_deals, sheet_deals = apis["tiles"].sql(deals), apis["sheets"].sql(deals)
    assert set(tile_deals.pop("record")) == {"tiles"} and set(sheet_deals.pop("record")) == {"sheet"}
    pd.testing.assert_frame_equal(tile_deals, sheet_deals)

    ledger = "select deal_id, seq, reason, payer, payee, amount, payer_player, payee_player from stg_ledger order by deal_id, seq"
    pd.testing.assert_frame_equal(apis["tiles"].sql(ledger), apis["sheets"].sql(ledger))
    count = "select count(*) as n from stg_events"
    assert apis["sheets"].sql(count)["n"].iloc[0] == 0 < apis["tiles"].sql(count)["n"].iloc[0]


@pytest.mark.parametrize("query", SAME)
@pytest.mark.parametrize(
    "filters",
    [Filters(), Filters(player="Ann (east)"), Filters(club="east"), Filters(tablemates=("Bo (east)",))],
)
def test_statistics_without_tiles_are_equal(apis: dict[str, Analytics], query: str, filters: Filters) -> None:
    tiles, sheets = (apis[name].query(query, filters) for name in ("tiles", "sheets"))
    assert not tiles.empty
    drop = DIFFERS.get(query, [])
    pd.testing.assert_frame_equal(
        _sorted(tiles.drop(columns=drop)), _sorted(sheets.drop(columns=drop)), check_dtype=False
    )


def test_tile_only_statistics_leave_sheets_out_and_count_them(
    apis: dict[str, Analytics], built: dict[str, tuple[Path, list[Path]]]
) -> None:
    tiles, sheets, mixed = (
        apis[name].player_stats().set_index("player") for name in ("tiles", "sheets", "mixed")
    )
    assert (tiles["sheet_deals_excluded"] == 0).all() and tiles["avg_win_turn"].notna().any()
    assert sheets["avg_win_turn"].isna().all()
    assert (sheets["sheet_deals_excluded"] == sheets["deals"]).all()
    assert (sheets["sheet_deals"] == sheets["deals"]).all()
    # mixed: each player's count is its seats in the logs' sheet deals, the win turn the
    # tile warehouse's average over the other deals
    sheet_deals = _sheet_deals(built["mixed"][1])
    clubs = (
        apis["mixed"]
        .sql(
            "select distinct s.player, d.club from raw_seats s join raw_deals d using (deal_id) where d.club is not null"
        )
        .groupby("player")["club"]
        .nunique()
    )
    shared = set(clubs[clubs > 1].index)  # a name in several clubs is one player per club: "Name (club)"
    expected = Counter(
        f"{name} ({club})" if name in shared and club is not None else name
        for players in sheet_deals.values()
        for name, club in players
    )
    assert any(" (" in p for p in expected), "the two clubs share a name"
    assert mixed["sheet_deals_excluded"].to_dict() == {p: expected.get(p, 0) for p in mixed.index}
    turns = (
        apis["tiles"]
        .sql(
            "select player, avg(win_turn) as turn from mart_seat_deals where won and deal_id not in "
            "(select unnest($ids)) group by player",
            {"ids": sorted(sheet_deals)},
        )
        .set_index("player")["turn"]
    )
    shown = mixed["avg_win_turn"].dropna()
    assert len(shown) > 0
    pd.testing.assert_series_equal(shown.sort_index(), turns.loc[shown.index].sort_index(), check_names=False)
    overview = apis["mixed"].query("overview").iloc[0]
    assert (overview["sheet_deals"], overview["tile_deals"]) == (
        len(sheet_deals),
        overview["deals"] - len(sheet_deals),
    )
    fans = apis["mixed"].query("fan_summary").iloc[0]
    sheet_wins = apis["mixed"].sql("select count(*) as n from mart_wins where record = 'sheet'")["n"].iloc[0]
    assert 0 < fans["sheet_wins"] == sheet_wins < fans["wins"]


def test_stats_cli_keeps_every_key_and_adds_the_excluded_count(
    built: dict[str, tuple[Path, list[Path]]],
) -> None:
    tiles, sheets = (
        json.loads(run("stats", "--warehouse", built[n][0], "--json").stdout) for n in ("tiles", "sheets")
    )
    assert [r["player"] for r in tiles] == [r["player"] for r in sheets]
    for tile_row, sheet_row in zip(tiles, sheets, strict=True):
        assert list(tile_row) == list(sheet_row)  # the same keys, in the same order
        assert tile_row["sheet_deals_excluded"] == 0
        assert sheet_row["sheet_deals_excluded"] == sheet_row["deals"] > 0
        assert sheet_row["avg_win_turn"] is None
        same = {k: v for k, v in tile_row.items() if k not in DIFFERS["player_stats"]}
        assert same == {k: sheet_row[k] for k in same}
    card = run("stats", "--warehouse", built["sheets"][0], "--player", "Ann (east)")  # players are per club
    assert card.returncode == 0, card.stderr
    deals = next(r["deals"] for r in sheets if r["player"] == "Ann (east)")
    assert label("cli_sheet_card", "en").format(n=deals) in card.stdout
    plain = run("stats", "--warehouse", built["tiles"][0], "--player", "Ann (east)")
    assert "score sheets" not in plain.stdout


# ------------------------------------------------------------- a warehouse of the old schema
def _strip_record(warehouse: Path) -> int:
    """Rewrite the deals files as an ingest before the ``record`` column wrote them."""
    files = table_files(warehouse, "deals")
    for name in files:
        table = pq.read_table(name)
        pq.write_table(table.drop_columns(["record"]), name)
    return len(files)


def test_a_warehouse_written_before_the_record_column_reads(
    tmp_path: Path, built: dict[str, tuple[Path, list[Path]]], apis: dict[str, Analytics]
) -> None:
    old = tmp_path / "old"
    shutil.copytree(built["tiles"][0], old)
    assert _strip_record(old) > 0
    assert all("record" not in pq.read_schema(f).names for f in table_files(old, "deals"))
    api = Analytics(old)
    try:
        assert api.sql("select distinct record from stg_deals")["record"].tolist() == ["tiles"]
        for query in SAME:
            pd.testing.assert_frame_equal(api.query(query), apis["tiles"].query(query))
    finally:
        api.close()
    # a new batch (with the column, sheet deals) beside the old ones
    later = _logs(tmp_path / "later", (LATER,), 1.0)
    summary = ingest(later, old, workers=0)
    assert (summary.findings, summary.invalid) == (0, 0)
    api = Analytics(old)
    try:
        records = api.sql("select club, record, count(*) as n from stg_deals group by all order by all")
        expected = [("east", "tiles"), ("sample-club", "tiles"), ("west", "sheet")]
        assert list(zip(records["club"], records["record"], strict=True)) == expected
        assert records["n"].iloc[2] == LATER.sessions * LATER.deals_per_session
        west = api.player_stats(Filters(club="west"))
        assert (west["sheet_deals_excluded"] == west["deals"]).all() and west["avg_win_turn"].isna().all()
        before = api.player_stats(Filters(club="east"))
        pd.testing.assert_frame_equal(before, apis["tiles"].player_stats(Filters(club="east")))
        assert int(api.query("overview")["sheet_deals"].iloc[0]) == LATER.sessions * LATER.deals_per_session
    finally:
        api.close()


# ------------------------------------------------------------------------ the dashboard
@pytest.fixture
def mixed_app(built: dict[str, tuple[Path, list[Path]]], monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(built["mixed"][0]))
    return AppTest.from_file(APP, default_timeout=60)


def _open(at: AppTest, page: str, **params: str) -> AppTest:
    at.run()
    at.switch_page(f"app_pages/{page}.py")
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _captions(at: AppTest) -> list[str]:
    return [str(c.value) for c in at.caption]


def test_overview_counts_both_kinds(mixed_app: AppTest, apis: dict[str, Analytics]) -> None:
    at = _open(mixed_app, "overview")
    row = apis["mixed"].query("overview").iloc[0]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics[label("deals", "en")] == f"{int(row['deals']):,}"
    text = label("sheet_deals_in", "en").format(sheets=int(row["sheet_deals"]), tiles=int(row["tile_deals"]))
    assert text in _captions(at)


def test_fans_page_counts_sheet_wins(mixed_app: AppTest, apis: dict[str, Analytics]) -> None:
    at = _open(mixed_app, "fans")
    row = apis["mixed"].query("fan_summary").iloc[0]
    assert label("sheet_wins_in", "en").format(
        sheets=int(row["sheet_wins"]), wins=int(row["wins"])
    ) in _captions(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics[label("wins", "en")] == f"{int(row['wins']):,}"


def test_players_page_says_what_the_win_turn_leaves_out(
    mixed_app: AppTest, apis: dict[str, Analytics]
) -> None:
    stats = apis["mixed"].player_stats().set_index("player")
    player = next(p for p in sorted(stats.index) if stats.loc[p, "sheet_deals_excluded"] > 0)
    at = _open(mixed_app, "players", player=player)
    board = read_names(
        next(t.value for t in at.dataframe if "deals" in t.value.columns and "player" in t.value.columns)
    )
    assert board.set_index("player")["deals"].to_dict() == stats["deals"].to_dict()  # sheets counted
    n = int(stats.loc[player, "sheet_deals_excluded"])
    assert label("sheet_turn_excluded", "en").format(n=n) in _captions(at)


def test_replay_page_sends_a_sheet_deal_to_its_session(
    mixed_app: AppTest, built: dict[str, tuple[Path, list[Path]]]
) -> None:
    deal_id = sorted(_sheet_deals(built["mixed"][1]))[0]
    at = _open(mixed_app, "replay", deal=deal_id)
    assert [i.value for i in at.info] == [label("deal_is_sheet", "en")]
    assert not at.error


def test_replay_page_opens_on_the_latest_session_with_tiles(
    mixed_app: AppTest, apis: dict[str, Analytics]
) -> None:
    api = apis["mixed"]
    every = api.query("session_list")
    for day in sorted({d.date() for d in every["played_at"]}, reverse=True):  # a range ending in sheets
        sessions = api.query("session_list", Filters(date_to=day))
        if int(sessions["tile_deals"].iloc[0]) == 0 and (sessions["tile_deals"] > 0).any():
            break
    else:
        raise AssertionError("no date range whose latest session is a score sheet")
    latest_tiles = str(sessions[sessions["tile_deals"] > 0]["session_id"].iloc[0])
    at = _open(mixed_app, "replay", to=day.isoformat())
    assert at.selectbox(key="replay_session").value == latest_tiles
    assert label("deal_is_sheet", "en") not in [i.value for i in at.info]
    assert at.slider(key="replay_step").max > 0  # a deal to step through


# ------------------------------------------------------------- chuanma simulate --sheet-sessions
def test_simulate_sheet_sessions_cli(tmp_path: Path) -> None:
    """Rate 0 writes the bytes of no flag; a rate writes whole sessions as sheets that
    validate clean; --tamper corrupts only the tile deals and each corruption is found."""
    common = ("simulate", "--sessions", "6", "--deals-per-session", "5", "--seed", "9")
    plain, zero, mixed = tmp_path / "plain.jsonl", tmp_path / "zero.jsonl", tmp_path / "mixed.jsonl"
    assert run(*common, "--out", plain).returncode == 0
    assert run(*common, "--out", zero, "--sheet-sessions", "0").returncode == 0
    assert plain.read_bytes() == zero.read_bytes()
    manifest = tmp_path / "manifest.jsonl"
    made = run(*common, "--out", mixed, "--sheet-sessions", "0.5", "--tamper", "0.4", "--manifest", manifest)
    assert made.returncode == 0, made.stderr
    sheets = _sheet_deals([mixed])
    sessions = {deal_id.rsplit("-", 1)[0] for deal_id in sheets}
    assert 0 < len(sessions) < 6 and len(sheets) == 5 * len(sessions)  # whole sessions
    entries = [json.loads(line) for line in manifest.read_text(encoding="utf-8").splitlines()]
    deal_entries = [e for e in entries if e["kind"] != "total"]
    assert deal_entries and not any(e["deal_id"] in sheets for e in deal_entries)
    checked = run("validate", mixed, "--json")
    report = json.loads(checked.stdout)
    found = {(f["code"], f["line"]) for d in report["deals"] for f in d["findings"]}
    assert {(e["code"], e["line"]) for e in deal_entries} <= found
    by_id = {d["deal_id"]: d for d in report["deals"]}
    assert all(by_id[d]["status"] == "ok" and by_id[d]["record"] == "sheet" for d in sheets)
    bad = run(*common, "--out", tmp_path / "bad.jsonl", "--sheet-sessions", "1.5")
    assert bad.returncode == 2 and "--sheet-sessions" in bad.stderr
