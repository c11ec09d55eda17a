"""The added pages through ``streamlit.testing.v1.AppTest``, in English and
中文, on a small real warehouse: placements and rating, player vs player, find a deal (and
the biggest hands), pattern rates, the leaderboard's rating columns and the exports. The
numbers shown are compared with the analytics API or an independent DuckDB query; in 中文
every label a user reads (titles, headers, metrics, pickers, buttons, table columns,
chart titles) is Chinese, none is an untranslated key or English."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pandas as pd  # type: ignore[import-untyped]
import pytest
from page_reading import read_names
from PIL import Image, ImageChops, ImageDraw
from streamlit.testing.v1 import AppTest
from test_dashboard_apptest import APP, TIMEOUT, chart, frame, metrics

from analytics import rating
from analytics.queries import Analytics, Filters
from dashboard import export
from dashboard.cached_queries import RARE_PATTERNS
from dashboard.fonts import cjk_font
from dashboard.i18n import LABELS
from dashboard.warehouse_location import WAREHOUSE_ENV

PAGES = ("ratings", "versus", "search", "patterns")
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(params=["en", "zh"])
def lang(request: pytest.FixtureRequest) -> str:
    value: str = request.param
    return value


@pytest.fixture
def app(warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    return AppTest.from_file(APP, default_timeout=TIMEOUT)


def open_in(at: AppTest, page: str, lang: str) -> AppTest:
    at.session_state["lang"] = lang
    at.run()
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def word(lang: str, key: str) -> str:
    zh, en = LABELS[key]
    return zh if lang == "zh" else en


def column_labels(at: AppTest) -> list[str]:
    out = []
    for element in at.dataframe:
        config = json.loads(element.proto.columns or "{}")
        out += [c["label"] for c in config.values() if isinstance(c, dict) and c.get("label")]
    return out


def visible_labels(at: AppTest) -> list[str]:
    """Every fixed word on the page (data values such as names and numbers excluded)."""
    words = [e.value for e in at.title] + [e.value for e in at.subheader]
    words += (
        [m.label for m in at.metric] + [s.label for s in at.selectbox] + [n.label for n in at.number_input]
    )
    words += [b.proto.label for b in at.get("download_button")]
    words += column_labels(at)
    from test_dashboard_apptest import charts

    words += [str(spec.get("title")) for spec, _ in charts(at)]
    return words


def assert_in_language(at: AppTest, lang: str, names: set[str]) -> None:
    """No label is a raw key; in 中文 each has Chinese (a player's name alone is data)."""
    keys = set(LABELS)
    for text in visible_labels(at):
        assert text not in keys, f"untranslated key {text!r}"
        if lang == "zh" and text not in names:
            assert CJK.search(text), f"not Chinese: {text!r}"


def names(api: Analytics) -> set[str]:
    return {str(p) for p in api.player_stats()["player"]}


# ----------------------------------------------------------------------- placements and rating
def test_ratings_page(app: AppTest, api: Analytics, lang: str) -> None:
    at = open_in(app, "ratings", lang)
    assert at.title[0].value == word(lang, "page_ratings")
    table = read_names(frame(at, "player", "rating", "avg_placement"))
    expected = api.placements().merge(rating.current_ratings(api.rating_history()), on="player")
    expected = expected.set_index("player").loc[table["player"]]
    assert table["rating"].tolist() == pytest.approx(expected["rating"].tolist())
    assert table["avg_placement"].tolist() == pytest.approx(expected["avg_placement"].tolist())
    # rates show as percent (0-100), as every rate of the dashboard does
    assert table["placement_1_rate"].tolist() == pytest.approx((100 * expected["placement_1_rate"]).tolist())
    assert list(table["rating"]) == sorted(table["rating"], reverse=True)
    _, data = chart(at, word(lang, "rating_title"))
    daily = rating.daily_ratings(api.rating_history())
    assert {"played_date", "rating", "player"} <= set(data.columns)
    assert sorted(data["rating"].round(6)) == sorted(daily["rating"].round(6))
    _, data = chart(at, word(lang, "placements_title"))
    assert (
        data.groupby("player")["sessions"].sum().to_dict()
        == api.placements().set_index("player")["sessions"].to_dict()
    )
    sessions = frame(at, "session_id", "placement", "change")
    chosen = at.selectbox(key="ratings_player").value
    assert len(sessions) == len(api.session_placements(Filters(player=chosen)))
    assert_in_language(at, lang, names(api))


def deal_of(url: str) -> str:
    """The deal a replay link opens (links also carry the language and filters)."""
    return parse_qs(urlsplit(url).query)["deal"][0]


def test_leaderboard_has_rating_and_placements(app: AppTest, api: Analytics, lang: str) -> None:
    at = open_in(app, "players", lang)
    board = read_names(frame(at, "player", "win_rate", "rating"))
    table = api.player_table()
    assert list(board["player"]) == list(table["player"])
    for column, scale in (("rating", 1), ("avg_placement", 1), ("placement_1_rate", 100), ("net", 1)):
        # rates show as percent (0-100) on the leaderboard, as every rate of the dashboard does
        assert board[column].tolist() == pytest.approx([v * scale for v in table[column]]), column
    labels = [b.proto.label for b in at.get("download_button")]
    assert word(lang, "download_csv") in labels and word(lang, "download_card") in labels


# ----------------------------------------------------------------------- player vs player
def test_versus_opens_on_two_players_who_met(app: AppTest, api: Analytics, lang: str) -> None:
    """With no pair asked for, the page opens on the busiest player and the tablemate they
    shared most deals with, never on two players who never sat together."""
    at = open_in(app, "versus", lang)
    first, second = at.selectbox(key="versus_a").value, at.selectbox(key="versus_b").value
    busiest = api.player_stats().sort_values(["deals", "player"], ascending=[False, True])["player"].iloc[0]
    assert first == busiest
    mates = api.mate_records(Filters(player=first)).sort_values("deals", ascending=False)
    assert second == mates["mate"].iloc[0]
    assert not [i.value for i in at.info if word(lang, "deals_together") in i.value]
    assert word(lang, "deals_together") in metrics(at)


def test_versus_page(app: AppTest, api: Analytics, lang: str) -> None:
    at = open_in(app, "versus", lang)
    mates = api.tablemates()
    pair = mates.iloc[0]  # the pair that shared most deals
    first, second = str(pair["player"]), str(pair["mate"])
    at.selectbox(key="versus_a").set_value(first)
    at.selectbox(key="versus_b").set_value(second).run()
    assert not at.exception
    record = api.mate_records(Filters(player=first)).set_index("mate").loc[second]
    shown = metrics(at)
    assert shown[word(lang, "deals_together")] == f"{int(pair['deals']):,}" == f"{int(record['deals']):,}"
    assert shown[word(lang, "sessions_together")] == f"{int(record['sessions']):,}"
    assert f"{int(record['net_between']):+,}" in shown.values()
    flows = api.head_to_head()
    got = flows[(flows["from_player"] == second) & (flows["to_player"] == first)]["points"].sum()
    gave = flows[(flows["from_player"] == first) & (flows["to_player"] == second)]["points"].sum()
    assert int(record["net_between"]) == got - gave
    side = frame(at, "statistic", first, second)
    together = api.player_stats(Filters(tablemates=(first, second))).set_index("player")
    deals_row = side[side["statistic"] == word(lang, "deals")].iloc[0]
    assert deals_row[first] == f"{int(together.loc[first, 'deals']):,}" == deals_row[second]
    win_row = side[side["statistic"] == word(lang, "win_rate")].iloc[0]
    assert win_row[second] == f"{100 * together.loc[second, 'win_rate']:.1f}%"
    table = read_names(frame(at, "mate", "placed_above", "net_between"), "mate")
    expected = api.mate_records(Filters(player=first))
    assert table["mate"].tolist() == expected["mate"].tolist()
    assert table["net_between"].tolist() == expected["net_between"].tolist()
    assert at.query_params["a"] == first and at.query_params["b"] == second
    assert_in_language(at, lang, names(api))


# ----------------------------------------------------------------------- find a deal
def independent_search(api: Analytics, player: str | None, min_fan: int | None, pattern: str | None,
                       code: str | None, min_kongs: int | None) -> set[str]:  # fmt: skip
    """The search's answer from the stored deals and seats, in plain pandas."""
    deals = api.sql("select deal_id, club, players, finding_codes, kongs from raw_deals")
    clubs = (
        api.sql(
            "select distinct s.player, d.club from raw_seats s join raw_deals d using (deal_id) where d.club is not null"
        )
        .groupby("player")["club"]
        .nunique()
    )
    shared = set(clubs[clubs > 1].index)  # players are per club: such a name is shown "Name (club)"
    wins = api.sql(
        "select s.deal_id, s.fan, s.base_pattern, s.extras from raw_seats s join raw_deals d using (deal_id) "
        "where s.won and d.status in ('ok', 'findings')"
    )
    found = set()
    for row in deals.itertuples():
        mine = wins[wins["deal_id"] == row.deal_id]
        patterns = set(mine["base_pattern"]) | {e for x in mine["extras"] for e in x}
        sat = [f"{p} ({row.club})" if p in shared and row.club is not None else p for p in row.players]
        if player is not None and player not in sat:
            continue
        if code is not None and code not in list(row.finding_codes):
            continue
        if min_kongs is not None and row.kongs < min_kongs:
            continue
        if min_fan is not None and (mine.empty or mine["fan"].max() < min_fan):
            continue
        if pattern is not None and pattern not in patterns:
            continue
        found.add(str(row.deal_id))
    return found


def test_search_page(app: AppTest, api: Analytics, lang: str) -> None:
    at = open_in(app, "search", lang)
    everything = frame(at, "replay", "max_fan", "patterns")
    total = int(api.sql("select count(*) as n from raw_deals")["n"].iloc[0])
    assert len(everything) == min(total, 200)
    assert all(url.startswith("replay?deal=") for url in everything["replay"])
    board = [str(p) for p in api.player_stats()["player"]]
    name = next((p for p in board if p.endswith(" (east)")), board[0])  # one club's player of a shared name
    at.selectbox(key="search_player").set_value(name)
    at.number_input(key="search_min_fan").set_value(2)
    at.selectbox(key="search_pattern").set_value("gen").run()
    assert not at.exception
    shown = frame(at, "replay", "max_fan", "patterns")
    expected = independent_search(api, name, 2, "gen", None, None)
    assert expected, "the search must find something to compare"
    assert {deal_of(u) for u in shown["replay"]} == expected
    assert list(shown["max_fan"]) == sorted(shown["max_fan"], reverse=True)
    # a finding code (invalid deals included) and kongs
    codes = api.sql("select distinct unnest(finding_codes) as code from raw_deals order by code")["code"]
    code = next(str(c) for c in codes if independent_search(api, None, None, None, str(c), 1))
    at.selectbox(key="search_player").set_value("\u0000any")
    at.number_input(key="search_min_fan").set_value(0)
    at.selectbox(key="search_pattern").set_value("\u0000any")
    at.selectbox(key="search_code").set_value(code)
    at.number_input(key="search_min_kongs").set_value(1).run()
    shown = frame(at, "replay", "max_fan", "patterns")
    expected = independent_search(api, None, None, None, code, 1)
    assert {deal_of(u) for u in shown["replay"]} == expected
    found_text = word(lang, "search_found").split("{")[0]
    assert any(found_text in m.value for m in at.markdown)
    # a code of invalid deals only (no wins, no fan): they are found too
    invalid = api.sql(
        "select distinct unnest(finding_codes) as code from raw_deals where status = 'invalid' order by code"
    )["code"]
    at.number_input(key="search_min_kongs").set_value(0)
    at.selectbox(key="search_code").set_value(str(invalid.iloc[0])).run()
    shown = frame(at, "replay", "max_fan", "patterns")
    assert {deal_of(u) for u in shown["replay"]} == independent_search(
        api, None, None, None, str(invalid.iloc[0]), None
    )
    # the biggest hands: the highest fan before the cap first
    biggest = frame(at, "replay", "fan_uncapped", "win_points")
    top = api.sql("select max(fan_uncapped) as f from mart_wins")["f"].iloc[0]
    assert biggest["fan_uncapped"].iloc[0] == top
    assert list(biggest["fan_uncapped"]) == sorted(biggest["fan_uncapped"], reverse=True)
    assert_in_language(at, lang, names(api))


def test_rare_hands_are_listed(api: Analytics) -> None:
    """The rare-hand query on the same warehouse against a plain filter of the wins."""
    from dashboard.cached_queries import dashboard_sql

    params = {"club": None, "date_from": None, "date_to": None, "rules": None, "seats": None,
              "rare": list(RARE_PATTERNS), "limit": 1000}  # fmt: skip
    rare = api.sql(dashboard_sql("rare_hands"), params)
    wins = api.sql("select deal_id, player, base_pattern, extras from mart_wins")
    expected = wins[
        [
            b in RARE_PATTERNS or bool(set(e) & set(RARE_PATTERNS))
            for b, e in zip(wins["base_pattern"], wins["extras"], strict=True)
        ]
    ]
    assert sorted(zip(rare["deal_id"], rare["player"], strict=True)) == sorted(
        zip(expected["deal_id"], expected["player"], strict=True)
    )


# ----------------------------------------------------------------------- pattern rates
def test_patterns_page(app: AppTest, api: Analytics, lang: str) -> None:
    at = open_in(app, "patterns", lang)
    chosen = at.selectbox(key="patterns_player").value
    table = frame(at, "label", "hits", "rate", "club_rate")
    expected = api.pattern_rates(Filters(player=chosen))
    assert sorted(table["hits"]) == sorted(expected["hits"])
    assert sorted(table["rate"].round(7)) == sorted((100 * expected["rate"]).round(7))
    assert sorted(table["club_rate"].round(7)) == sorted((100 * expected["club_rate"]).round(7))
    _, data = chart(at, word(lang, "pattern_rates_title"))
    assert set(data["who"]) == {chosen, word(lang, "club_value")}
    assert_in_language(at, lang, names(api))


# ----------------------------------------------------------------------- export
def test_csv_export_round_trips() -> None:
    table = pd.DataFrame({"player": ["安", "Bo"], "net": [3, -3], "patterns": [["qidui", "gen"], []]})
    data = export.csv_bytes(table)
    assert data.startswith(b"\xef\xbb\xbf")  # a BOM: spreadsheets read 中文 as UTF-8
    back = pd.read_csv(io.BytesIO(data), encoding="utf-8-sig", keep_default_na=False)
    assert back["player"].tolist() == ["安", "Bo"] and back["net"].tolist() == [3, -3]
    assert back["patterns"].tolist() == ["qidui|gen", ""]


def test_csv_headers_are_the_shown_titles_in_chinese() -> None:
    import streamlit as st

    table = pd.DataFrame({"player": ["安"], "win_rate": [25.0], "net": [3]})
    config = {
        "player": "玩家",
        "win_rate": st.column_config.NumberColumn("胡牌率", format="%.1f%%"),
        "net": None,
    }
    titles = export.column_titles(config)
    assert titles == {"player": "玩家", "win_rate": "胡牌率"}
    zh = pd.read_csv(io.BytesIO(export.page_csv(table, titles, "zh")), encoding="utf-8-sig")
    en = pd.read_csv(io.BytesIO(export.page_csv(table, titles, "en")), encoding="utf-8-sig")
    assert list(zh.columns) == ["玩家", "胡牌率", "net"] and zh.iloc[0].tolist() == ["安", 25.0, 3]
    assert list(en.columns) == ["player", "win_rate", "net"]  # what scripts read stays


def test_player_card_png() -> None:
    png = export.card_png("Bo", [("Deals", "12"), ("胡牌率 Win rate", "25.0%")], footer="chuanma")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size[0] == export.WIDTH and image.size[1] > 100
    colours: Any = image.convert("L").getcolors(maxcolors=1 << 16)
    assert len(colours) > 2  # text was drawn, not a blank card
    assert export.file_name("张 三/x") == "张-三-x" and export.file_name("/?", "player") == "player"


def test_player_card_draws_chinese_in_the_pinned_font() -> None:
    """The card's 中文 title comes from the font the session image uses (the pip-installed
    Noto Sans CJK of ``dashboard/fonts.py``), not from whichever font the system has."""
    card = Image.open(io.BytesIO(export.card_png("张三 胡", []))).convert("RGB")
    expected = Image.new("RGB", card.size, "#ffffff")
    draw = ImageDraw.Draw(expected)
    draw.rectangle((0, 0, export.WIDTH, 8), fill="#c62828")
    draw.text((export.MARGIN, export.MARGIN), "张三 胡", fill="#1a1a1a", font=cjk_font(32))
    assert ImageChops.difference(card, expected).getbbox() is None


def test_added_pages_of_an_empty_warehouse_say_how_to_load_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WAREHOUSE_ENV, str(tmp_path / "nothing-yet"))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for page in PAGES:
        open_in(at, page, "en")
        assert any("The warehouse is empty" in i.value for i in at.info), page
