"""A name is a link in the browser too: Debian's Chromium (Playwright) opens a session's
result, clicks a player's name in its totals table (a Streamlit data grid, drawn on a
canvas: the click goes to the cell's place) and lands on that player's page, in the tab
the link opens. Server and browser as in test_dashboard_browser."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from test_dashboard_browser import ARTIFACTS, CHROMIUM_ARGS, WAIT_MS, chromium, server

__all__ = ["chromium", "server"]  # fixtures, shared with test_dashboard_browser

WIDE = {"width": 1280, "height": 900}
ROW_PX = 35  # a data grid's row (and header) height


def open_first_name(context: Any, page: Any, grid: Any) -> Any:
    """Click along the grid's first row until a name's link opens its tab (the cells are
    drawn on a canvas: the page holds no element per cell to click); returns that tab."""
    box = grid.bounding_box()
    assert box is not None
    y = box["y"] + ROW_PX * 1.5  # the first row, under the header
    for x in range(int(box["x"]) + 10, int(box["x"] + box["width"]), 16):
        page.mouse.click(x, y)
        page.wait_for_timeout(120)
        if len(context.pages) > 1:
            return context.pages[-1]
    raise AssertionError("no link in the grid's first row")


def test_a_name_on_the_session_page_opens_the_players_page(chromium: Path, server: str) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport=WIDE)
            page = context.new_page()
            page.set_default_timeout(WAIT_MS)
            page.goto(f"{server}/session?lang=zh")
            page.get_by_role("heading", name="本场结算").wait_for()
            grid = page.locator("[data-testid='stDataFrame']").first  # the totals: place, seat, player
            grid.wait_for()
            first = grid.locator("[role='gridcell']").nth(2).inner_text()  # place, seat, player
            name = parse_qs(urlparse(first).query)["player"][0]
            player = open_first_name(context, page, grid)
            player.set_default_timeout(WAIT_MS)
            player.wait_for_url("**/players?player=*")
            assert parse_qs(urlparse(player.url).query)["player"][0].startswith(name)
            assert parse_qs(urlparse(player.url).query)["lang"] == ["zh"]  # the language kept
            player.get_by_role("heading", name="玩家").first.wait_for()
            picked = player.get_by_role("combobox", name="选择玩家")
            assert str(picked.input_value()).startswith(name)
            player.get_by_role("heading", name=re.compile(rf"^{re.escape(name)}")).first.wait_for()
            player.screenshot(path=ARTIFACTS / "links_player.png")
        finally:
            browser.close()
