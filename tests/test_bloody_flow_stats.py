"""血流成河 (end_condition bloody_flow) in the statistics and the replay: every win counted,
the win rate still "deals won", worked out by hand from ``tests/golden/bloody_flow.jsonl``.

Both deals of the golden log (bloody-flow-standard-1 under standard, bloody-flow-chengdu-1
under chengdu) have the same five wins, in order (players Ann, Bo, Chen, Du = seats 0-3):
  1. Bo (1) wins Ann's 5p, 平胡 1 fan           (Bo's first win)
  2. Du (3) wins the same 5p, 七对 3 fan         (一炮多响; Du's first win)
  3. Bo self-draws 5p, 1 fan                      (Bo again: a repeated win)
  4. Bo wins Chen's 5p, 1 fan                     (Bo's third win: repeated)
  5. Du wins the same 5p, 3 fan                   (Du's second win: repeated)
so per deal: 5 wins, Bo 3 and Du 2; repeated wins 2 (Bo) + 1 (Du) = 3; Ann and Chen none.
Over both deals: Bo 6 wins in 2 deals won (win rate 2/2, not 6/2), Du 4 in 2, 10 wins,
wins per deal 10 / 2 = 5, repeated 6; the fans: six wins of 1 fan (Bo's), four of 3 (Du's).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics.queries import Analytics, Filters
from dashboard.deal_steps import replay_from_rows
from dashboard.tiles_view import board_html
from engine.tiles import parse_tile
from ingest.warehouse import ingest

GOLDEN = Path(__file__).resolve().parent / "golden" / "bloody_flow.jsonl"
DEAL = "bloody-flow-standard-1"


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bloody")
    summary = ingest([GOLDEN], folder / "warehouse", workers=0)
    assert (summary.read, summary.ok, summary.findings, summary.invalid) == (2, 2, 0, 0)
    return folder / "warehouse"


@pytest.fixture(scope="module", params=[True, False], ids=["marts-in-memory", "views-over-parquet"])
def bloody(request: pytest.FixtureRequest, warehouse: Path) -> Analytics:
    analytics = Analytics(warehouse, materialize=request.param)
    request.addfinalizer(analytics.close)
    return analytics


def standard_rules(bloody: Analytics) -> str:
    return str(bloody.sql("select rules from stg_deals where deal_id = $d", {"d": DEAL})["rules"].iloc[0])


def test_seat_rows_keep_every_win_and_describe_the_first(bloody: Analytics) -> None:
    rows = bloody.sql(
        "select seat, won, win_order, win_kind, win_from_seat, fan, win_count, win_fans "
        "from mart_seat_deals where deal_id = $d order by seat",
        {"d": DEAL},
    )
    assert rows["win_count"].tolist() == [0, 3, 0, 2]
    assert [list(f) for f in rows["win_fans"]] == [[], [1, 1, 1], [], [3, 3]]
    bo, du = rows.iloc[1], rows.iloc[3]
    # the first win: Bo's on Ann's 5p (order 1), Du's on the same 5p (order 2)
    assert (bo["win_order"], bo["win_kind"], bo["win_from_seat"], bo["fan"]) == (1, "discard", 0, 1)
    assert (du["win_order"], du["win_kind"], du["win_from_seat"], du["fan"]) == (2, "discard", 0, 3)


def test_win_rate_counts_deals_and_every_win_is_counted(bloody: Analytics) -> None:
    stats = {row["player"]: row for row in bloody.player_stats().to_dict(orient="records")}
    # Bo: 2 deals, won in both (win rate 1.0, not 3.0), 6 wins of which 4 repeated
    assert (stats["Bo"]["deals"], stats["Bo"]["wins"], stats["Bo"]["win_rate"]) == (2, 2, 1.0)
    assert (stats["Bo"]["all_wins"], stats["Bo"]["repeat_wins"], stats["Bo"]["wins_per_deal"]) == (6, 4, 3.0)
    assert stats["Bo"]["avg_fan"] == 1.0
    # Du: 2 deals won, 4 wins (one repeated per deal), each 3 fan
    assert (stats["Du"]["wins"], stats["Du"]["all_wins"], stats["Du"]["repeat_wins"]) == (2, 4, 2)
    assert stats["Du"]["avg_fan"] == 3.0 and stats["Du"]["win_rate"] == 1.0
    for never in ("Ann", "Chen"):
        assert (stats[never]["wins"], stats[never]["all_wins"], stats[never]["repeat_wins"]) == (0, 0, 0)
    # one deal (the standard one): Bo's 3 wins count 1 deal won
    picked = bloody.player_stats(Filters(rules=standard_rules(bloody)))
    one = {row["player"]: row for row in picked.to_dict(orient="records")}
    bo = one["Bo"]
    assert (bo["deals"], bo["wins"], bo["win_rate"], bo["all_wins"]) == (1, 1, 1.0, 3)
    assert one["Bo"]["repeat_wins"] == 2 and one["Du"]["repeat_wins"] == 1
    # with tablemates the sums come from the seat rows, not the days' mart: the same numbers
    mates = bloody.player_stats(Filters(tablemates=("Ann",)))
    seated = mates.set_index("player").loc["Bo"]
    assert (seated["wins"], seated["all_wins"], seated["repeat_wins"], seated["avg_fan"]) == (2, 6, 4, 1.0)


def test_overview_counts_wins_per_deal_and_repeated_wins(bloody: Analytics) -> None:
    both = bloody.query("overview").iloc[0]
    assert (both["complete_deals"], both["wins"]) == (2, 10)
    assert (both["wins_per_deal"], both["repeat_wins"]) == (5.0, 6)
    one = bloody.query("overview", Filters(rules=standard_rules(bloody))).iloc[0]
    assert (one["wins"], one["wins_per_deal"], one["repeat_wins"]) == (5, 5.0, 3)


def test_fan_distribution_counts_every_win(bloody: Analytics) -> None:
    fans = bloody.fan_by_total()
    assert fans[["fan", "wins", "capped"]].values.tolist() == [[1, 6, 0], [3, 4, 0]]
    assert fans["share"].tolist() == [0.6, 0.4]
    assert bloody.fan_by_total(Filters(player="Bo"))[["fan", "wins"]].values.tolist() == [[1, 6]]


def test_replay_lays_the_winning_tiles_aside_step_by_step(bloody: Analytics) -> None:
    deal = bloody.page("deal_header", deal_id=DEAL).iloc[0].to_dict()
    replay = replay_from_rows(deal, bloody.deal_events(DEAL), bloody.page("deal_raw_lines", deal_id=DEAL))
    assert replay.error is None and replay.steps
    five_p = parse_tile("5p")
    hus = [step for step in replay.steps if step.kind == "hu"]
    # the tile of a 一炮多响 goes to its first winner (Bo): Du, the second, lays nothing aside
    assert [(step.seat, step.laid[step.seat or 0], step.win_counts) for step in hus] == [
        (1, (five_p,), (0, 1, 0, 0)),
        (3, (), (0, 1, 0, 1)),
        (1, (five_p, five_p), (0, 2, 0, 1)),
        (1, (five_p,) * 3, (0, 3, 0, 1)),
        (3, (), (0, 3, 0, 2)),
    ]
    assert replay.steps[0].laid == ((), (), (), ())
    last = replay.steps[-1]
    assert last.laid == ((), (five_p,) * 3, (), ()) and last.win_counts == (0, 3, 0, 2)
    labels = {"dealer": "dealer", "void": "void", "won": "won", "scores": "Score", "discards": "Discards"}
    board = board_html(
        replay.players, last.hands, last.melds, last.discards, labels={**labels, "laid": "胡 laid aside"},
        dealer=replay.dealer, won=last.won, void=last.void, scores=last.scores, laid=last.laid,
        win_counts=last.win_counts,
    )  # fmt: skip
    assert 'data-laid="5p 5p 5p"' in board and board.count("cm-laid") == 1 and "胡 laid aside" in board
    assert "won ×3" in board and "won ×2" in board  # Bo won three times, Du twice
    # a board without laid tiles (血战, or before any win) shows none
    first = replay.steps[0]
    plain = board_html(
        replay.players, first.hands, first.melds, first.discards, labels=labels,
        dealer=replay.dealer, won=first.won, void=first.void, scores=first.scores, laid=first.laid,
    )  # fmt: skip
    assert "cm-laid" not in plain


# ------------------------------------------------------------------ the dashboard pages
def test_pages_show_every_win_and_the_laid_tiles(warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from page_reading import read_names
    from streamlit.testing.v1 import AppTest
    from test_dashboard_apptest import APP, TIMEOUT, frame, metrics, open_page

    from dashboard.warehouse_location import WAREHOUSE_ENV

    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    at = open_page(AppTest.from_file(APP, default_timeout=TIMEOUT), "overview")
    shown = metrics(at)  # both deals: 10 wins, 5 a deal, 6 after a seat's first
    assert (shown["All wins"], shown["Wins per deal"], shown["Repeated wins (血流成河)"]) == (
        "10",
        "5.00",
        "6",
    )
    at = open_page(AppTest.from_file(APP, default_timeout=TIMEOUT), "players")
    board = read_names(frame(at, "player", "wins", "all_wins", "repeat_wins")).set_index("player")
    assert board.loc["Bo", ["wins", "all_wins", "repeat_wins"]].tolist() == [2, 6, 4]
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.query_params["deal"] = DEAL
    at.switch_page("app_pages/replay.py").run()
    assert not at.exception, [e.value for e in at.exception]
    # step 2: Bo's first win (on Ann's 5p), its tile laid aside
    at.slider(key="replay_step").set_value(2).run()
    board = next(h.value for h in at.html if "cm-board" in h.value)
    assert 'data-laid="5p"' in board and board.count("cm-laid") == 1 and "胡 laid aside" in board
    slider = at.slider(key="replay_step")
    slider.set_value(slider.max).run()  # the end: Bo's three tiles laid aside, won ×3; Du ×2
    board = next(h.value for h in at.html if "cm-board" in h.value)
    assert 'data-laid="5p 5p 5p"' in board and "×3" in board and "×2" in board


def test_deal_search_reads_every_win(bloody: Analytics) -> None:
    def search(**asked: object) -> list[tuple[str, int, str]]:
        params: dict[str, object] = {"min_kongs": None, "pattern": None, "min_fan": None, "code": None}
        params |= {"club": None, "date_from": None, "date_to": None, "rules": None, "player": None}
        found = bloody.page("deal_search", **{**params, "limit": 10, **asked})
        return [(r["deal_id"], r["max_fan"], r["winners"]) for r in found.to_dict(orient="records")]

    # Bo won three times (1 fan each), Du twice (3 fan each): each win's fan after the name
    winners = "Bo 1+1+1, Du 3+3"
    assert sorted(search()) == [("bloody-flow-chengdu-1", 3, winners), (DEAL, 3, winners)]
    assert search(min_fan=4) == []
