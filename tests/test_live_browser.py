"""The table's live view in Debian's Chromium, on a phone (390×844) and a laptop
(1280×900), in English and Chinese: the Record page shows the QR code and the link; a
second browser (another player's phone, no token asked) opens the link and sees the
totals, then, without a reload, the win the recorder adds next (the view refreshes
itself). The Session result on a phone: the players' columns in view beside the short deal
labels. Server and browser as in test_dashboard_browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_dashboard_browser import ARTIFACTS, CHROMIUM_ARGS, WAIT_MS, chromium, server

__all__ = ["chromium", "server"]  # fixtures, shared with test_dashboard_browser

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 900}
WORDS = {
    "en": {
        "title": "Record",
        "start": "Start",
        "deal": "Deal 01",
        "live": "Live table",
        "share": "Live table: scan",
    },
    "zh": {
        "title": "记分",
        "start": "开始",
        "deal": "第 01 局",
        "live": "牌桌直播",
        "share": "牌桌直播：扫码看分",
    },
}


def settle(page: Any) -> None:
    page.wait_for_timeout(300)
    page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden")


def tap(page: Any, key: str, text: str | None = None) -> None:
    found = (
        page.locator(f".st-key-{key} button", has_text=text)
        if text
        else page.locator(f".st-key-{key} button")
    )
    found.first.click()
    settle(page)


@pytest.mark.parametrize(("lang", "viewport"), [("en", PHONE), ("zh", PHONE), ("zh", WIDE)])
def test_every_phone_at_the_table_follows_the_session(
    chromium: Path, server: str, lang: str, viewport: dict[str, int]
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    expect = sync_api.expect
    words = WORDS[lang]
    phone = viewport["width"] < 600
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        try:
            recorder = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone).new_page()
            recorder.set_default_timeout(WAIT_MS)
            recorder.goto(f"{server}/record?lang={lang}")
            recorder.get_by_role("heading", name=words["title"]).first.wait_for()
            session = f"live-{lang}-{viewport['width']}"
            for key, text in [("record_sid_input", session), *((f"record_player_{n}", name)
                              for n, name in enumerate(("Ann", "Bo", "Chen", "Du")))]:  # fmt: skip
                box = recorder.locator(f".st-key-{key} input")
                box.fill(text)
                box.press("Enter")
                settle(recorder)
            recorder.get_by_role("button", name=words["start"]).click()
            recorder.get_by_role("heading", name=words["deal"]).wait_for()
            recorder.get_by_text(words["share"]).first.click()  # the expander
            qr = recorder.locator(".st-key-record_live_qr img")
            qr.wait_for()
            box = qr.bounding_box()
            assert box is not None and box["width"] >= 150 and box["x"] + box["width"] <= viewport["width"]
            link = recorder.locator("[data-testid='stCode'] code").first.inner_text().strip()
            assert link.startswith(server) and "/live?t=" in link, link
            recorder.screenshot(path=ARTIFACTS / f"live_qr_{lang}_{viewport['width']}.png")

            player = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
            player.set_default_timeout(WAIT_MS)
            player.goto(link)
            player.get_by_role("heading", name=words["live"]).first.wait_for()
            totals = player.locator(".st-key-live_totals")
            expect(totals).to_contain_text("Chen")
            expect(player.get_by_test_id("stSidebar")).to_be_hidden()

            tap(recorder, "record_win_who_0", "Chen")
            tap(recorder, "record_win_from_0", "自摸")
            tap(recorder, "record_win_patterns_0", "清一色")
            tap(recorder, "record_win_add_0")
            # no reload: the view reads the session again by itself
            expect(totals).to_contain_text("+12", timeout=25_000)
            expect(player.get_by_text("Ann → Chen 4").first).to_be_visible()
            player.screenshot(path=ARTIFACTS / f"live_view_{lang}_{viewport['width']}.png", full_page=True)
        finally:
            browser.close()
