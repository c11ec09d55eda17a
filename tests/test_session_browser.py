"""The evening's result on a phone: Debian's Chromium (Playwright) opens
``/session?session=...`` at a phone's size, sees the totals and who pays whom, downloads
the PNG (a real download, decoded with Pillow) and checks that on paper (print media) the
sidebar and the buttons are gone. Server and browser as in test_dashboard_browser."""

from __future__ import annotations

import io
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from PIL import Image
from test_dashboard_browser import ARTIFACTS, CHROMIUM_ARGS, WAIT_MS, chromium, server

from dashboard.session_image import WIDTH

__all__ = ["chromium", "server"]  # fixtures, shared with test_dashboard_browser

PHONE = {"width": 390, "height": 844}


def test_session_result_on_a_phone_downloads_its_png(chromium: Path, server: str, tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        try:
            # the page puts the session it shows into the address: take one from there
            first = browser.new_page()
            first.set_default_timeout(WAIT_MS)
            first.goto(f"{server}/session")
            first.get_by_role("heading", name="The evening's result").wait_for()
            first.wait_for_url("**/session?session=*")
            session = parse_qs(urlparse(first.url).query)["session"][0]
            first.close()

            context = browser.new_context(
                viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
            )
            page = context.new_page()
            page.set_default_timeout(WAIT_MS)
            page.goto(f"{server}/session?session={session}")
            page.get_by_role("heading", name="The evening's result").wait_for()
            page.get_by_role("heading", name="Who pays whom").wait_for()
            picked = page.get_by_role("combobox", name="Session", exact=True)
            sync_api.expect(picked).to_have_value(session)  # the link chose it
            button = page.get_by_role("button", name="Result image PNG")
            button.scroll_into_view_if_needed()
            box = button.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
            page.screenshot(path=ARTIFACTS / "session_phone.png", full_page=True)
            with page.expect_download() as caught:
                button.click()
            download = caught.value
            assert download.suggested_filename == f"session-{session}.png"
            saved = tmp_path / download.suggested_filename
            download.save_as(saved)
            image = Image.open(io.BytesIO(saved.read_bytes()))
            image.load()
            assert image.format == "PNG" and image.size[0] == WIDTH and image.size[1] > 500

            # on paper: no sidebar, no buttons, the result still there
            page.emulate_media(media="print")
            assert not page.get_by_role("button", name="Result image PNG").is_visible()
            assert page.get_by_role("heading", name="Who pays whom").is_visible()
            assert not page.locator("[data-testid='stSidebar']").is_visible()
            rows = page.locator(".cm-print table").nth(1).locator("tr")
            assert rows.first.is_visible() and rows.count() > 2  # every payment, on paper
            page.pdf(path=str(ARTIFACTS / "session_print.pdf"))
            page.screenshot(path=ARTIFACTS / "session_print.png", full_page=True)
            context.close()
        finally:
            browser.close()
