"""复盘 on the pages, through ``streamlit.testing.v1.AppTest`` in English and
中文 on a real warehouse: the Review page shows the figures the review step kept (the
analytics API's numbers), each linked to a deal behind it, and the five costliest
decisions; before that step, it says how many deals wait and the command that reviews
them; the replay page shows the mover's shanten and a discard's verdict (the review's
own row)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from test_dashboard_added import assert_in_language, deal_of, names, open_in, word
from test_dashboard_apptest import APP, TIMEOUT, frame

from analytics.queries import Analytics, Filters
from dashboard.review_report import STORE_COMMAND, deal_review
from dashboard.stored_reviews import store_reviews
from dashboard.warehouse_location import WAREHOUSE_ENV


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample club ingested, not reviewed (ingest reviews nothing)."""
    from test_dashboard_apptest import club_logs

    from ingest.warehouse import ingest

    folder = tmp_path_factory.mktemp("review_pages")
    ingest(club_logs(folder / "logs"), folder / "ingested", workers=0)
    return folder / "ingested"


@pytest.fixture(scope="module")
def warehouse(ingested: Path) -> Path:
    """The same deals with the review step run (``chuanma review --warehouse --store``)."""
    root = ingested.parent / "reviewed"
    shutil.copytree(ingested, root)
    assert store_reviews(root, workers=0).reviewed > 0
    return root


@pytest.fixture(params=["en", "zh"])
def lang(request: pytest.FixtureRequest) -> str:
    value: str = request.param
    return value


@pytest.fixture
def app(warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    return AppTest.from_file(APP, default_timeout=TIMEOUT)


def test_review_page(app: AppTest, api: Analytics, lang: str) -> None:
    at = open_in(app, "review", lang)
    assert at.title[0].value == word(lang, "page_review")
    player = str(at.selectbox(key="review_player").value)
    kept = api.player_review(Filters(player=player))
    row = kept[kept["whole"]].iloc[0]
    figure, value, link = word(lang, "review_figure"), word(lang, "review_value"), word(lang, "review_deal")
    summary = frame(at, figure, value, link).set_index(figure)
    assert summary.loc[word(lang, "review_best_pct"), value] == str(row["best_pct"])
    assert summary.loc[word(lang, "review_average_loss"), value] == str(row["average_loss"])
    linked = [deal_of(url) for url in summary[link].dropna()]
    mine = set(api.review_deals(player)["deal_id"])
    assert linked and set(linked) <= mine  # each figure's link opens one of the player's deals
    replay = word(lang, "open_replay")
    costly = frame(at, replay, word(lang, "review_col_loss"), word(lang, "review_col_best"))
    expected = api.review_deals(player, costliest=True, limit=5)
    assert [deal_of(u) for u in costly[replay]] == list(expected["deal_id"])
    assert list(costly[word(lang, "review_col_loss")]) == sorted(
        costly[word(lang, "review_col_loss")], reverse=True
    )
    assert_in_language(at, lang, names(api))


def test_replay_shows_the_review_of_each_step(app: AppTest, api: Analytics, lang: str) -> None:
    costly = api.review_deals(str(api.player_review()["player"].iloc[0]), costliest=True, limit=1).iloc[0]
    rows = deal_review(api, str(costly["deal_id"]))
    assert rows is not None
    worst = next(r for r in rows["rows"] if r["kind"] == "discard" and r["line"] == int(costly["worst_line"]))
    at = app
    at.session_state["lang"] = lang
    at.run()
    at.query_params["deal"] = str(costly["deal_id"])
    at.query_params["line"] = str(int(costly["worst_line"]))
    at.switch_page("app_pages/replay.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert int(at.slider(key="replay_step").value) > 0  # type: ignore[arg-type]  # opened at the discard's line
    said = word(lang, "review_step_verdict").format(
        tile=worst["tile"], shanten=worst["shanten"], effective=worst["effective"], best=" ".join(worst["best"]),
        best_effective=worst["best_effective"], loss=worst["loss"],
    )  # fmt: skip
    assert any(said in w.value for w in at.warning), [w.value for w in at.warning]
    shanten = "向听" if lang == "zh" else "shanten"
    assert any(shanten in c.value for c in at.caption)


def test_review_page_before_the_review_step(
    ingested: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    monkeypatch.setenv(WAREHOUSE_ENV, str(ingested))
    at = open_in(AppTest.from_file(APP, default_timeout=TIMEOUT), "review", lang)
    analytics = Analytics(ingested)
    try:
        deals = int(analytics.sql("select count(*) as n from mart_deals")["n"][0])
    finally:
        analytics.close()
    said = word(lang, "review_pending").format(deals=deals, command=STORE_COMMAND.format(warehouse=ingested))
    assert any(w.value == said for w in at.warning), [w.value for w in at.warning]
    assert f"chuanma review --warehouse {ingested} --store" in said
