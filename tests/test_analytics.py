"""Every statistic against numbers worked out by hand from ``hand_log`` (see
``tests/warehouse_fixtures.py`` for the deals), on a real warehouse: ingest, Parquet,
DuckDB views and the query files."""

from __future__ import annotations

import math
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from warehouse_fixtures import hand_log

from analytics.queries import QUERIES, Analytics, Filters, connect
from ingest.warehouse import ingest

S1_RULES = 'standard+{"end_condition":"first_hu","max_fan":4}'
S2_RULES = 'standard+{"end_condition":"first_hu"}'
HAND_BO = "Bo (hand-club)"  # one name in two clubs: two players, each shown with the club
OTHER_BO = "Bo (other-club)"


@pytest.fixture(scope="module")
def hand_warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hand")
    summary = ingest([hand_log(folder / "logs")], folder / "warehouse", workers=0)
    assert (summary.read, summary.ok, summary.findings, summary.invalid) == (6, 4, 1, 1)
    return folder / "warehouse"


@pytest.fixture(scope="module", params=[True, False], ids=["marts-in-memory", "views-over-parquet"])
def hand(request: pytest.FixtureRequest, hand_warehouse: Path) -> Analytics:
    """Both ways of reading give the same numbers: marts materialized, or plain views."""
    analytics = Analytics(hand_warehouse, materialize=request.param)
    request.addfinalizer(analytics.close)
    return analytics


def by_player(frame: Any) -> dict[str, dict[str, Any]]:
    return {row["player"]: row for row in frame.to_dict(orient="records")}


def close(value: Any, expected: float | None) -> bool:
    if expected is None:
        return value is None or (isinstance(value, float) and math.isnan(value))
    return bool(value == pytest.approx(expected))


# Worked out by hand. A: Ann 天胡 6 fan capped at 4 (8 from each); B: Bo deals in 1 to
# Chen; C: Ann's concealed kong (2 from each) and 杠上花 3 fan (4 from each); F: wall
# exhausted, Bo 花猪 pays 16 to each, Chen not ready pays 1 to Ann and to Du; D (other
# club, in August): Bo deals in 1 to Fang, recorded with a wrong fan (findings); E invalid.
EXPECTED: dict[str, dict[str, float | int | str | None]] = {
    "Ann": {
        "deals": 4, "wins": 2, "win_rate": 0.5, "self_draws": 2, "self_draw_rate": 1.0,
        "deal_ins": 0, "deal_in_rate": 0.0, "avg_fan": 3.5, "avg_win_points": 18.0,
        "avg_deal_in_loss": None, "net": 59, "net_per_deal": 14.75, "kongs": 1, "kong_rate": 0.25,
        "kongs_exposed": 0, "kongs_added": 0, "kongs_concealed": 1, "kong_income": 6,
        "kong_income_per_deal": 1.5, "flower_pigs": 0, "flower_pig_rate": 0.0, "wall_end_deals": 1,
        "ready_at_end": 1, "ready_at_end_rate": 1.0, "cha_jiao_paid": 0, "cha_jiao_received": 17,
        "win_order_1": 2, "win_order_2": 0, "win_order_3": 0, "avg_win_turn": 0.5,
        "biggest_win": 24, "biggest_win_fan": 4, "biggest_win_deal": "A",
    },
    # players are per club: Bo of hand-club (A, B, C, F) and Bo of other-club (D) are two
    "Bo (hand-club)": {
        "deals": 4, "wins": 0, "win_rate": 0.0, "self_draws": 0, "self_draw_rate": None,
        "deal_ins": 1, "deal_in_rate": 0.25, "avg_fan": None, "avg_win_points": None,
        "avg_deal_in_loss": 1.0, "net": -63, "net_per_deal": -15.75, "kongs": 0, "kong_rate": 0.0,
        "kong_income": 0, "flower_pigs": 1, "flower_pig_rate": 0.25, "wall_end_deals": 1,
        "ready_at_end": 0, "ready_at_end_rate": 0.0, "cha_jiao_paid": 48, "cha_jiao_received": 0,
        "win_order_1": 0, "avg_win_turn": None, "biggest_win": None,
    },
    "Bo (other-club)": {
        "deals": 1, "wins": 0, "win_rate": 0.0, "self_draws": 0, "self_draw_rate": None,
        "deal_ins": 1, "deal_in_rate": 1.0, "avg_deal_in_loss": 1.0, "net": -1, "net_per_deal": -1.0,
        "flower_pigs": 0, "flower_pig_rate": 0.0, "wall_end_deals": 0, "ready_at_end_rate": None,
        "cha_jiao_paid": 0,
    },
    "Chen": {
        "deals": 4, "wins": 1, "win_rate": 0.25, "self_draws": 0, "self_draw_rate": 0.0,
        "deal_ins": 0, "avg_fan": 1.0, "avg_win_points": 1.0, "net": 1, "net_per_deal": 0.25,
        "flower_pigs": 0, "wall_end_deals": 1, "ready_at_end": 0, "ready_at_end_rate": 0.0,
        "cha_jiao_paid": 2, "cha_jiao_received": 16, "win_order_1": 1, "avg_win_turn": 0.0,
        "biggest_win": 1, "biggest_win_fan": 1, "biggest_win_deal": "B",
    },
    "Du": {
        "deals": 4, "wins": 0, "net": 3, "wall_end_deals": 1, "ready_at_end": 1,
        "ready_at_end_rate": 1.0, "cha_jiao_paid": 0, "cha_jiao_received": 17,
    },
    "Fang": {"deals": 1, "wins": 1, "win_rate": 1.0, "net": 1, "avg_fan": 1.0, "wall_end_deals": 0,
             "ready_at_end_rate": None},
    "Eve": {"deals": 1, "wins": 0, "net": 0},
    "Gao": {"deals": 1, "wins": 0, "net": 0},
}  # fmt: skip


def test_player_stats_match_the_hand_worked_numbers(hand: Analytics) -> None:
    frame = hand.player_stats()
    assert list(frame["player"]) == [
        "Ann",
        "Du",
        "Chen",
        "Fang",
        "Eve",
        "Gao",
        "Bo (other-club)",
        "Bo (hand-club)",
    ]  # net, then name
    rows = by_player(frame)
    wrong = {}
    for player, expected in EXPECTED.items():
        for key, value in expected.items():
            got = rows[player][key]
            same = close(got, value) if value is None or isinstance(value, float) else got == value
            if not same:
                wrong[(player, key)] = (got, value)
    assert not wrong
    assert frame["net"].sum() == 0


@pytest.mark.parametrize(
    ("filters", "bo"),
    [
        (Filters(club="hand-club"), {"deals": 4, "deal_ins": 1, "net": -63}),
        (Filters(date_to=date(2026, 7, 31)), {"deals": 4, "deal_ins": 1, "net": -63}),
        (Filters(date_from=date(2026, 8, 1)), {"deals": 1, "deal_ins": 1, "net": -1}),
        (Filters(rules=S2_RULES), {"deals": 1, "deal_ins": 1, "net": -1}),
        (Filters(rules=S1_RULES), {"deals": 4, "deal_ins": 1, "net": -63}),
        (Filters(tablemates=("Ann",)), {"deals": 4, "deal_ins": 1, "net": -63}),
        (Filters(tablemates=("Eve", "Fang")), {"deals": 1, "deal_ins": 1, "net": -1}),
        (
            Filters(club="hand-club", date_from=date(2026, 7, 4), date_to=date(2026, 7, 4)),
            {"deals": 4, "net": -63},
        ),
    ],
)
def test_filters(hand: Analytics, filters: Filters, bo: dict[str, int]) -> None:
    frame = hand.player_stats(filters)
    assert [p for p in frame["player"] if p.startswith("Bo")] == [HAND_BO if bo["net"] == -63 else OTHER_BO]
    row = by_player(frame)[HAND_BO if bo["net"] == -63 else OTHER_BO]
    assert {key: row[key] for key in bo} == bo


def test_filters_that_match_nothing(hand: Analytics) -> None:
    assert hand.player_stats(Filters(rules="chengdu")).empty
    assert hand.player_stats(Filters(tablemates=("Ann", "Eve"))).empty
    assert hand.player_card("Nobody") is None


def test_player_card_and_player_filter(hand: Analytics) -> None:
    card = hand.player_card("Ann", Filters(club="hand-club"))
    assert card is not None and card["deals"] == 4 and card["net"] == 59
    assert list(hand.player_stats(Filters(player="Chen"))["player"]) == ["Chen"]


def test_score_over_time(hand: Analytics) -> None:
    def rows(player: str) -> list[tuple[Any, ...]]:
        frame = hand.score_over_time(Filters(player=player))
        return [
            (r["played_date"].date(), r["deals"], r["net"], r["cumulative_net"])
            for r in frame.to_dict("records")
        ]

    assert rows(HAND_BO) == [(date(2026, 7, 4), 4, -63, -63)]
    assert rows(OTHER_BO) == [(date(2026, 8, 10), 1, -1, -1)]
    assert rows("Bo") == []  # the bare name is two players: no one's line


def test_fan_distribution(hand: Analytics) -> None:
    patterns = {r["base_pattern"]: r for r in hand.fan_by_pattern().to_dict("records")}
    assert patterns["pinghu"]["wins"] == 3 and patterns["tianhu"]["wins"] == 1
    assert patterns["pinghu"]["share"] == pytest.approx(0.75)
    assert patterns["pinghu"]["avg_fan"] == pytest.approx(5 / 3)  # B 1, C 3, D 1
    assert patterns["pinghu"]["avg_win_points"] == pytest.approx(14 / 3)  # 1 + 12 + 1
    assert patterns["tianhu"]["avg_fan"] == 4 and patterns["tianhu"]["avg_win_points"] == 24
    totals = [(r["fan"], r["wins"], r["capped"]) for r in hand.fan_by_total().to_dict("records")]
    assert totals == [(1, 2, 0), (3, 1, 0), (4, 1, 1)]
    roots = [(r["roots"], r["wins"]) for r in hand.fan_roots().to_dict("records")]
    assert roots == [(0, 3), (1, 1)]
    summary = hand.fan_summary().to_dict("records")[0]
    assert summary["wins"] == 4 and summary["capped"] == 1
    assert summary["cap_rate"] == pytest.approx(0.25)  # 封顶率: A's 6 fan cut to 4
    assert summary["avg_fan"] == pytest.approx(2.25) and summary["avg_fan_uncapped"] == pytest.approx(2.75)
    assert summary["roots"] == 1 and summary["wins_with_roots"] == 1
    only_ann = hand.fan_summary(Filters(player="Ann")).to_dict("records")[0]
    assert only_ann["wins"] == 2 and only_ann["avg_fan"] == pytest.approx(3.5)


def test_head_to_head_and_tablemates(hand: Analytics) -> None:
    flows = {(r["from_player"], r["to_player"]): r for r in hand.head_to_head().to_dict("records")}
    points = {pair: row["points"] for pair, row in flows.items()}
    assert points == {
        (HAND_BO, "Ann"): 8 + 2 + 4 + 16,  # A, C kong, C win, F 花猪
        ("Chen", "Ann"): 8 + 2 + 4 + 1,  # A, C kong, C win, F 查大叫
        ("Du", "Ann"): 8 + 2 + 4,
        (HAND_BO, "Chen"): 1 + 16,
        (HAND_BO, "Du"): 16,
        ("Chen", "Du"): 1,
        (OTHER_BO, "Fang"): 1,
    }
    assert flows[(HAND_BO, "Ann")]["net"] == 30 and flows[(HAND_BO, "Ann")]["transfers"] == 4
    only_fang = hand.head_to_head(Filters(player="Fang"))
    assert list(zip(only_fang["from_player"], only_fang["to_player"], strict=True)) == [(OTHER_BO, "Fang")]
    mates = {(r["player"], r["mate"]): r["deals"] for r in hand.tablemates().to_dict("records")}
    assert mates[(HAND_BO, "Ann")] == 4 and mates[(OTHER_BO, "Eve")] == 1 and ("Ann", "Eve") not in mates
    assert (
        (HAND_BO, "Eve") not in mates and (OTHER_BO, "Ann") not in mates and (HAND_BO, OTHER_BO) not in mates
    )
    first = hand.tablemates(Filters(player=HAND_BO)).iloc[0]
    assert first["mate"] in {"Ann", "Chen", "Du"} and first["deals"] == 4


def test_audit(hand: Analytics) -> None:
    codes = {(r["code"], r["severity"]): r["findings"] for r in hand.findings_by_code().to_dict("records")}
    assert codes == {("bad_record", "error"): 1, ("fan_mismatch", "error"): 1, ("not_in_hand", "error"): 1}
    sessions = {
        r["session_id"]: (r["findings"], r["deals"], list(r["codes"]))
        for r in hand.findings_by_session().to_dict("records")
    }
    assert sessions["s2"] == (2, 2, ["fan_mismatch", "not_in_hand"])
    players = {r["player"]: list(r["codes"]) for r in hand.findings_by_player().to_dict("records")}
    assert players == {OTHER_BO: ["not_in_hand"], "Fang": ["fan_mismatch"]}
    status = {(r["what"], r["label"]): r["count"] for r in hand.deal_status().to_dict("records")}
    assert status == {
        ("deals", "findings"): 1,
        ("deals", "invalid"): 1,
        ("deals", "ok"): 4,
        ("quarantine_lines", "invalid"): 3,
        ("quarantine_lines", "stray"): 1,
    }
    assert hand.findings_by_code(Filters(club="other-club"))["findings"].sum() == 2


def test_every_query_runs_on_an_empty_warehouse(tmp_path: Path) -> None:
    analytics = Analytics(tmp_path / "nothing-yet")
    for name in QUERIES:
        frame = analytics.query(name)
        # the two summaries are counts: zeros, one row, on an empty warehouse
        assert frame.empty or name in ("fan_summary", "findings_summary"), name
        if name == "findings_summary":
            assert frame.iloc[0].tolist() == [0] * 7  # four finding counts, then ok/findings/invalid deals
    analytics.close()


def test_connect_is_one_connection_per_warehouse_and_sees_new_batches(tmp_path: Path) -> None:
    warehouse = tmp_path / "wh"
    first = connect(warehouse)
    assert first.player_stats().empty
    ingest([hand_log(tmp_path / "logs")], warehouse, workers=0)
    again = connect(warehouse)
    assert again is first
    assert len(again.player_stats()) == 8  # seven names, Bo in two clubs
    assert again.refresh() is False  # nothing new since


def test_one_deal_for_the_replay_viewer(hand: Analytics) -> None:
    events = hand.deal_events("C")
    assert list(events["type"]) == ["deal", "kong", "draw", "hu", "deal_end"]
    assert list(events["seq"]) == [0, 1, 2, 3, 4]
    assert list(events["tiles"][0]) == ["123456789m15555s"] + ["2468m2468p23469s"] * 3  # the dealt hands
    assert events["kind"][1] == "concealed" and events["tile"][3] == "1s"
    ledger = hand.deal_ledger("C")
    assert list(ledger["reason"]) == ["kong_concealed"] * 3 + ["win_self_draw"] * 3
    assert list(ledger["amount"]) == [2, 2, 2, 4, 4, 4] and set(ledger["payee_player"]) == {"Ann"}
    assert list(ledger["line"]) == [events["line"][1]] * 3 + [events["line"][3]] * 3
    assert hand.deal_events("E").empty  # invalid: its lines are in quarantine


def test_session_list_counts_by_hand_and_reads_only_what_it_shows(hand: Analytics) -> None:
    """s1 (hand-club, 2026-07-04): A, B, C, F all ok, 4 tile deals; s2 (other-club,
    2026-08-10): D findings, E invalid (Bo discards a tile he does not hold). The latest
    first; the same rows from the sessions' mart (no player) and from the deals (a player)."""
    listed = hand.query("session_list")
    columns = ["session_id", "deals", "findings_deals", "invalid_deals", "tile_deals", "listed_sessions"]
    assert listed[columns].values.tolist() == [["s2", 2, 2, 1, 2, 2], ["s1", 4, 0, 0, 4, 2]]
    assert listed["players"].map(list).tolist() == [
        ["Eve", OTHER_BO, "Fang", "Gao"],
        ["Ann", HAND_BO, "Chen", "Du"],
    ]
    by_player = hand.query("session_list", Filters(player=OTHER_BO))
    same = [c for c in listed.columns if c not in ("players", "listed_sessions")]
    assert by_player[same].values.tolist() == listed.head(1)[same].values.tolist()
    assert by_player["listed_sessions"].tolist() == [1]
    assert hand.query("session_list", Filters(player=HAND_BO))["session_id"].tolist() == ["s1"]
    latest = hand.query("session_list", limit=1)
    assert latest["session_id"].tolist() == ["s2"] and latest["listed_sessions"].tolist() == [2]
    assert hand.query("session_list", Filters(club="hand-club"), findings_only=True).empty
    assert hand.query("session_list", findings_only=True)["session_id"].tolist() == ["s2"]
    with pytest.raises(KeyError, match="no option player"):
        hand.query("session_list", player="Ann")
