"""On a narrow screen the sidebar closes once a page is chosen from it, whatever the
browser's user agent says (Streamlit's own close asks for a mobile one; Playwright's
Chromium, like a phone showing the desktop site, does not send one), stays open while a
filter in it is changed, and stays open on a wide screen. Server and browser as in
test_dashboard_browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_dashboard_browser import CHROMIUM_ARGS, WAIT_MS, chromium, server

__all__ = ["chromium", "server"]  # fixtures, shared with test_dashboard_browser

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 900}


def _collapsed(page: Any) -> str | None:
    value: str | None = page.locator('[data-testid="stSidebar"]').get_attribute("data-collapsed")
    return value


def _open_sidebar(page: Any) -> None:
    page.locator('[data-testid="stExpandSidebarButton"]').click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stSidebar\"]').getAttribute('data-collapsed') === 'false'"
    )


def _go(page: Any, title: str) -> None:
    page.locator('[data-testid="stSidebarNavLink"]', has_text=title).first.click()
    page.get_by_role("heading", name=title).first.wait_for()
    page.wait_for_timeout(1500)  # the close is asked for after the page's run


def test_the_sidebar_closes_after_choosing_a_page_on_a_phone(chromium: Path, server: str) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        try:
            phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
            page = phone.new_page()
            page.set_default_timeout(WAIT_MS)
            page.goto(server)
            page.get_by_role("heading", name="Overview").first.wait_for()
            assert _collapsed(page) == "true"
            _open_sidebar(page)
            _go(page, "Players")
            assert _collapsed(page) == "true"
            _open_sidebar(page)  # a filter's change reruns the page: the sidebar stays
            page.locator('[data-testid="stSidebar"] label', has_text="English").first.click()
            page.wait_for_timeout(1500)
            page.locator('[data-testid="stSidebar"] label', has_text="中文").first.click()
            page.get_by_role("heading", name="玩家").first.wait_for()
            page.wait_for_timeout(1500)
            assert _collapsed(page) == "false"

            desk = browser.new_context(viewport=WIDE)
            wide = desk.new_page()
            wide.set_default_timeout(WAIT_MS)
            wide.goto(server)
            wide.get_by_role("heading", name="Overview").first.wait_for()
            assert _collapsed(wide) == "false"
            _go(wide, "Players")
            assert _collapsed(wide) == "false"  # a wide screen keeps its sidebar
        finally:
            browser.close()


#: Chromium's own desktop user agent (no "Mobile"): a phone showing the desktop site, or
#: a desktop window made narrow
DESKTOP_UA = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
)


def test_the_sidebar_starts_closed_at_390_px_with_a_desktop_browser(chromium: Path, server: str) -> None:
    """Streamlit keeps the sidebar's last state in the browser (localStorage) and prefers it
    to ``initial_sidebar_state``: once opened at 390 px (to switch the language), every
    reload and every new tab (a name's link) opened with the sidebar over the page."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        try:
            narrow = browser.new_context(viewport=PHONE, user_agent=DESKTOP_UA)
            page = narrow.new_page()
            page.set_default_timeout(WAIT_MS)
            page.goto(server)
            page.get_by_role("heading", name="Overview").first.wait_for()
            page.wait_for_timeout(1000)
            assert _collapsed(page) == "true"
            _open_sidebar(page)  # the browser remembers it open
            for path, title in (
                ("", "Overview"),
                ("/players", "Players"),
                ("/session", "The evening's result"),
            ):
                page.goto(server + path)
                page.get_by_role("heading", name=title).first.wait_for()
                page.wait_for_function(
                    "() => document.querySelector('[data-testid=\"stSidebar\"]')"
                    ".getAttribute('data-collapsed') === 'true'"
                )
                box = page.get_by_role("heading", name=title).first.bounding_box()
                assert box is not None and 0 <= box["x"] < PHONE["width"] / 2, path
                _open_sidebar(page)
        finally:
            browser.close()
