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


#: Streamlit's own English, written by its widgets whatever the page's language
STREAMLIT_ENGLISH = ("View ", "Upload", "Drag and drop", "per file", "Copy to clipboard", "Browse files")


def test_the_chinese_upload_page_shows_none_of_streamlits_english(chromium: Path, server: str) -> None:
    """The 中文 Upload page on a phone, before and after a file is chosen: the uploader's
    "Upload" and "200MB per file • ..." are replaced by our words (CSS), the navigation
    lists every page (no "View 3 more"), and no code block brings a "Copy" button."""
    sync_api = pytest.importorskip("playwright.sync_api")
    sample = Path(__file__).resolve().parent / "golden" / "kongs_standard.jsonl"
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
            page.set_default_timeout(WAIT_MS)
            page.goto(f"{server}/upload?lang=zh")
            page.get_by_role("heading", name="上传").first.wait_for()
            _open_sidebar(page)  # the navigation, as a phone opens it
            page.wait_for_timeout(1000)
            shown = [page.locator("body").inner_text()]
            zone = page.locator('[data-testid="stFileUploaderDropzone"]')
            drawn = zone.evaluate(
                "z => [z.querySelector('button > div'), "
                "z.querySelector('[data-testid=stFileUploaderDropzoneInstructions] > div')]"
                ".map(e => getComputedStyle(e, '::after').content)"
            )
            assert drawn == ['"选择文件"', '"每个文件最大 200MB · JSONL、GZ、CSV、XLSX"'], drawn
            page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(sample))
            page.get_by_role("heading", name="校验结果").first.wait_for()
            page.wait_for_timeout(1000)
            shown.append(page.locator("body").inner_text())
        finally:
            browser.close()
    for text in shown:
        assert not [w for w in STREAMLIT_ENGLISH if w in text], text


def test_a_code_blocks_copy_button_speaks_chinese_on_a_chinese_page(chromium: Path, server: str) -> None:
    """Streamlit labels a code block's copy button "Copy to clipboard" (its tooltip and its
    name for a screen reader) whatever the language; on a 中文 page the session's chat text
    offers 复制 instead (dashboard/widget_words.py), and an English page keeps Streamlit's."""
    sync_api = pytest.importorskip("playwright.sync_api")
    labels: dict[str, tuple[str, str]] = {}
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        try:
            for lang in ("zh", "en"):
                page = browser.new_context(viewport=WIDE).new_page()
                page.set_default_timeout(WAIT_MS)
                page.goto(f"{server}/session?lang={lang}")
                block = page.locator('[data-testid="stCode"]').first
                block.wait_for()
                block.evaluate("e => e.scrollIntoView({block: 'center'})")  # clear of the sticky header
                block.hover()
                button = block.locator("button").first
                button.wait_for()
                box = button.bounding_box()  # the mouse moved there, not Playwright's scroll to it
                assert box is not None
                page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                tip = {"zh": "复制", "en": "Copy to clipboard"}[lang]
                page.get_by_text(tip, exact=True).last.wait_for()  # the tooltip, once it shows
                shown = page.locator("body").inner_text()
                labels[lang] = (str(button.get_attribute("aria-label")), str("Copy to clipboard" in shown))
        finally:
            browser.close()
    assert labels == {"zh": ("复制", "False"), "en": ("Copy to clipboard", "True")}, labels


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
