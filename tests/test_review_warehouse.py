"""复盘 kept with the marts: a step after ingest (``chuanma review --warehouse DIR
--store``, or ``chuanma ingest --review``) writes each seat's review figures (the
``reviews`` table), ``chuanma review --warehouse`` and the API read them and replay a
stored deal's decisions, and they agree with ``chuanma review`` of the same logs. Ingest
itself reviews nothing (its fast check stays fast); until the step runs, the CLI and the
API say how many deals wait and the command. A score sheet's deal has its points only
and says why."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_api import CLI, Server, call, start

from analytics.queries import Analytics, Filters
from dashboard.review_report import deal_review, warehouse_review

REVIEW = Path(__file__).parent / "golden" / "review"


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("review_wh") / "warehouse"
    done = subprocess.run(
        [*CLI, "ingest", str(REVIEW), "--warehouse", str(root), "--workers", "0"], capture_output=True
    )
    assert done.returncode in (0, 3), done.stderr
    stored = subprocess.run(
        [*CLI, "review", "--warehouse", str(root), "--store", "--workers", "0", "--json"],
        capture_output=True,
        text=True,
    )
    assert stored.returncode == 0, stored.stderr
    assert json.loads(stored.stdout)["reviewed"] == 2
    return root


def test_ingest_reviews_nothing_and_the_cli_says_how_to(tmp_path: Path) -> None:
    root = tmp_path / "warehouse"
    done = subprocess.run([*CLI, "ingest", str(REVIEW), "--warehouse", str(root), "--workers", "0", "--json"],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode in (0, 3) and json.loads(done.stdout)["rows"]["reviews"] == 0, done.stderr
    data = run_json("--warehouse", str(root))
    command = f"chuanma review --warehouse {root} --store"
    assert data["not_reviewed"]["deals"] == 2 and data["not_reviewed"]["command"] == command
    assert (
        command in data["not_reviewed"]["message"]["en"]
        and "没有复盘" in data["not_reviewed"]["message"]["zh"]
    )
    assert data["players"]["Ann"]["not_reviewed"] == 2 and data["players"]["Ann"]["tile_deals"] == 0
    for lang, words in (("en", "2 deals are not reviewed yet"), ("zh", "还有 2 局没有复盘")):
        said = subprocess.run(
            [*CLI, "review", "--warehouse", str(root), "--lang", lang], capture_output=True, text=True
        )
        assert said.returncode == 0 and words in said.stdout and command in said.stdout, said.stderr


def test_the_review_step_is_incremental(tmp_path: Path) -> None:
    root = tmp_path / "warehouse"
    done = subprocess.run(
        [*CLI, "ingest", str(REVIEW), "--warehouse", str(root), "--workers", "0", "--review", "--json"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode in (0, 3), done.stderr
    first = json.loads(done.stdout)["review"]
    assert (first["reviewed"], first["tile_deals"], first["rows"]) == (2, 1, 8) and first["batch"]
    assert run_json("--warehouse", str(root))["not_reviewed"]["deals"] == 0
    again = subprocess.run(
        [*CLI, "review", "--warehouse", str(root), "--store", "--json"], capture_output=True, text=True
    )
    assert again.returncode == 0, again.stderr
    assert (json.loads(again.stdout)["reviewed"], json.loads(again.stdout)["batch"]) == (0, None)
    assert len(list((root / "batches").glob("*/reviews"))) == 1  # one batch of review rows


def run_json(*args: str) -> dict[str, Any]:
    done = subprocess.run([*CLI, "review", *args, "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


SAME = (
    "deals", "tile_deals", "period", "discards", "best_pct", "average_loss", "backward_pct", "void_agreement_pct",
    "average_start_shanten", "deal_ins", "deal_ins_not_ready", "forced_deal_ins", "passes", "passed_fan",
    "passed_then_won", "passed_then_won_fan", "money",
)  # fmt: skip


def test_the_warehouse_review_agrees_with_the_logs(warehouse: Path) -> None:
    logs = run_json(str(REVIEW))
    stored = run_json("--warehouse", str(warehouse))
    assert set(stored["players"]) == set(logs["players"]) == {"Ann", "Bo", "Chen", "Du"}
    for name, summary in logs["players"].items():
        assert {k: stored["players"][name][k] for k in SAME} == {k: summary[k] for k in SAME}, name
        assert stored["players"][name]["by_period"].keys() == summary["by_period"].keys()
    assert stored["club"] == logs["club"]
    by_id = {deal["deal_id"]: deal for deal in stored["deals"]}
    for deal in logs["deals"]:
        assert by_id[deal["deal_id"]]["rows"] == deal["rows"]
        assert by_id[deal["deal_id"]]["money"] == deal["money"]


def test_a_score_sheet_has_its_points_and_says_why(warehouse: Path) -> None:
    stored = run_json("--warehouse", str(warehouse), "--player", "Ann")
    (sheet,) = [deal for deal in stored["deals"] if not deal["tiles"]]
    assert (
        sheet["why"] == "score_sheet" and sheet["rows"] == [] and any(any(m.values()) for m in sheet["money"])
    )
    ann = stored["players"]["Ann"]
    assert (ann["deals"], ann["tile_deals"], ann["sheet_deals"], ann["not_reviewed"]) == (2, 1, 1, 0)
    for lang, words in (("en", "score sheet records no tiles"), ("zh", "记分表不记牌")):
        done = subprocess.run(
            [*CLI, "review", "--warehouse", str(warehouse), "--lang", lang], capture_output=True, text=True
        )
        assert done.returncode == 0 and words in done.stdout, done.stderr


def test_the_figures_are_kept_with_the_marts(warehouse: Path) -> None:
    analytics = Analytics(warehouse)
    try:
        kept = analytics.sql(
            "select count(*) as n, count(*) filter (where tiles) as tiles from mart_review_seats"
        )
        assert (int(kept["n"][0]), int(kept["tiles"][0])) == (8, 4)  # two deals of four seats
        chen = analytics.player_review(Filters(player="Chen"))
        assert int(chen.loc[chen["whole"], "forced_deal_ins"].iloc[0]) == 3
        assert analytics.review_deals("Chen", costliest=True).empty  # no discard off the best
        assert len(analytics.review_deals("Chen")) == 2
        assert deal_review(analytics, "no-such-deal") is None
        assert warehouse_review(analytics, Filters(club="no-such-club"))["players"] == {}
    finally:
        analytics.close()


def test_usage_errors(warehouse: Path, tmp_path: Path) -> None:
    for args in (["--warehouse", str(warehouse), str(REVIEW)], [], ["--warehouse", str(tmp_path)],
                 ["--warehouse", str(warehouse), "--player", "Nobody"], [str(REVIEW), "--club", "x"],
                 [str(REVIEW), "--store"], ["--warehouse", str(tmp_path), "--store"],
                 ["--warehouse", str(warehouse), "--store", "--player", "Ann"]):  # fmt: skip
        done = subprocess.run([*CLI, "review", *args], capture_output=True, text=True)
        assert done.returncode == 2, (args, done.stdout)


@pytest.fixture(scope="module")
def server(warehouse: Path) -> Iterator[Server]:
    process, running = start(warehouse)
    try:
        yield running
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_api_serves_the_clis_json(server: Server, warehouse: Path) -> None:
    cli = run_json("--warehouse", str(warehouse), "--player", "Bo")
    answer = call(server.url + "/v1/players/Bo/review")
    assert answer.status == 200 and answer.body == cli
    deal = cli["deals"][0]
    got = call(server.url + f"/v1/deals/{deal['deal_id']}/review")
    assert got.status == 200 and got.body == deal
    assert call(server.url + "/v1/deals/nope/review").status == 404
    assert call(server.url + "/v1/players/Nobody/review").status == 404
    one = call(server.url + "/v1/players/Bo/review?deals=1").body
    assert len(one["deals"]) == 1 and one["players"] == cli["players"]
