"""Every player's name on every page links to the player's page (AppTest, real script runs
over the sample club's warehouse): a table's name column is a link column showing the name
(``players?player=NAME``, the language and filters after it, the club token when the page
was opened with one), a name outside a table a page link; the player page opens on the
player its address names, in a new session and after a link followed in the same one."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from streamlit.testing.v1 import AppTest

from analytics.queries import Analytics
from dashboard.access import add_grant
from dashboard.player_links import PLAYER_TEXT
from dashboard.token_guard import GUARD
from dashboard.warehouse_location import WAREHOUSE_ENV

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"


@pytest.fixture
def app(warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    return AppTest.from_file(APP, default_timeout=60)


@pytest.fixture(scope="module")
def names(api: Analytics) -> set[str]:
    """The players as listed ("Ann (east)": one name in two clubs) and as written ("Ann")."""
    listed = {str(p) for p in api.player_stats()["player"]}
    return listed | {p.split(" (")[0] for p in listed}


def run(at: AppTest, page: str, **params: str) -> AppTest:
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    if page != "overview":
        at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def table_links(at: AppTest) -> Iterator[tuple[str, str]]:
    """(column, address) of every cell of every table column shown as a player's link."""
    for element in at.dataframe:
        config = json.loads(element.proto.columns or "{}")
        for column, options in config.items():
            kind = options.get("type_config", {})
            if kind.get("type") == "link" and kind.get("display_text") == PLAYER_TEXT:
                yield from ((column, str(url)) for url in element.value[column].dropna())


def page_links(at: AppTest) -> list[dict[str, list[str]]]:
    """The query parameters of every page link to the players page."""
    return [
        parse_qs(link.proto.query_string)
        for link in at.get("page_link")
        if link.proto.page.endswith("players.py") or link.proto.page == "players"
    ]


def player_of(url: str) -> dict[str, list[str]]:
    """The parameters of a name's address, which must be the players page's, name first."""
    parsed = urlparse(url)
    assert parsed.path == "players", url
    assert parsed.query.startswith("player="), url  # the link column shows what comes first
    return parse_qs(parsed.query)


@pytest.mark.parametrize(
    ("page", "columns"),
    [
        ("players", {"player"}),
        ("session", {"player", "payer", "payee"}),
        ("night", {"player"}),
        ("ratings", {"player"}),
        ("search", {"player"}),
        ("versus", {"mate"}),
        ("audit", {"player"}),
    ],
)
def test_the_names_of_a_pages_tables_link_to_the_player(
    app: AppTest, names: set[str], page: str, columns: set[str]
) -> None:
    at = run(app, page)
    links = list(table_links(at))
    assert {column for column, _ in links} >= columns, page
    for _, url in links:
        params = player_of(url)
        assert params["player"][0] in names, url


@pytest.mark.parametrize("page", ["versus", "h2h", "ratings", "patterns"])
def test_the_names_beside_a_pages_pickers_link_to_the_player(
    app: AppTest, names: set[str], page: str
) -> None:
    at = run(app, {"h2h": "head_to_head"}.get(page, page))
    linked = page_links(at)
    assert linked, page
    assert all(params["player"][0] in names for params in linked)


def test_a_name_on_a_chinese_page_keeps_the_language_and_the_club(app: AppTest) -> None:
    at = run(app, "session", lang="zh")
    _, url = next(table_links(at))
    params = player_of(url)
    assert params["lang"] == ["zh"]
    assert params["club"]  # the session's club: players are per club


def test_the_player_page_opens_on_the_player_its_address_names(
    app: AppTest, api: Analytics, names: set[str]
) -> None:
    stats = api.player_stats().sort_values("player")
    wanted = str(stats["player"].iloc[-1])  # not the first, which the page opens on by itself
    at = run(app, "players", player=wanted)
    assert at.selectbox(key="player_choice").value == wanted
    assert any(h.value == wanted for h in at.header)
    # in the same session: a name's link from another page opens that player
    at.switch_page("app_pages/session.py").run()
    _, url = next(table_links(at))
    followed = player_of(url)  # a name as written ("Du") and the session's club
    at.switch_page("app_pages/players.py")
    at.query_params["player"], at.query_params["club"] = followed["player"][0], followed["club"][0]
    at.run()
    name, club = followed["player"][0], followed["club"][0]
    assert at.selectbox(key="player_choice").value in {name, f"{name} ({club})"}
    assert at.selectbox(key="player_choice").value != wanted


def test_a_club_token_stays_in_every_name_link(
    warehouse: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A link column opens a new tab (a new session): the token must be in the link."""
    copy = tmp_path / "warehouse"
    shutil.copytree(warehouse, copy)
    _, token = add_grant(copy, "sample-club", "viewer")
    monkeypatch.setenv(WAREHOUSE_ENV, str(copy))
    GUARD.clients.clear()
    at = run(AppTest.from_file(APP, default_timeout=60), "session", token=token)
    links = list(table_links(at))
    assert links
    for _, url in links:
        params = player_of(url)
        assert params["token"] == [token] and params["club"] == ["sample-club"]
    opened = run(
        AppTest.from_file(APP, default_timeout=60), "players", token=token, player=params["player"][0]
    )
    assert str(opened.selectbox(key="player_choice").value).startswith(params["player"][0])
