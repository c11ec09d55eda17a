"""Recording a short session on a phone (390×844) in Debian's Chromium (Playwright): start
a session, tap a kong and a 自摸 with its pattern chip, see the priced payments and the
totals, save, follow the link to the session result and download its PNG (a real
download, decoded with Pillow); and, in Chinese, the sheet audit's check under the chips,
a pattern corrected in place and the question before an empty 流局 is saved. Server and
browser as in test_dashboard_browser."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from test_dashboard_browser import ARTIFACTS, CHROMIUM_ARGS, WAIT_MS, chromium, server

from dashboard.session_image import WIDTH

__all__ = ["chromium", "server"]  # fixtures, shared with test_dashboard_browser

PHONE = {"width": 390, "height": 844}


@contextlib.contextmanager
def phone_page(chromium: Path) -> Iterator[Any]:
    """A phone-sized page (390×844, touch) of Debian's Chromium, closed after."""
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(
                viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
            )
            page = context.new_page()
            page.set_default_timeout(WAIT_MS)
            yield page
            context.close()
        finally:
            browser.close()


def settle(page: Any) -> None:
    """Wait for the rerun a tap or an entry starts."""
    page.wait_for_timeout(300)
    page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden")


def tap(page: Any, key: str, text: str) -> None:
    page.locator(f".st-key-{key} button", has_text=text).first.click()
    settle(page)


def type_in(page: Any, key: str, text: str) -> None:
    box = page.locator(f".st-key-{key} input")
    box.fill(text)
    box.press("Enter")
    settle(page)


def test_record_a_session_on_a_phone_then_download_its_png(
    chromium: Path, server: str, tmp_path: Path
) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    with phone_page(chromium) as page:
        page.goto(f"{server}/record")
        page.get_by_role("heading", name="Record").first.wait_for()

        type_in(page, "record_club", "phoneclub")
        type_in(page, "record_table", "t9")
        type_in(page, "record_sid_input", "phone-night")
        for seat, name in enumerate(("Ann", "Bo", "Chen", "Du")):
            type_in(page, f"record_player_{seat}", name)
        start = page.get_by_role("button", name="Start")
        box = start.bounding_box()
        assert box is not None and box["height"] >= 40 and box["x"] + box["width"] <= PHONE["width"]
        start.click()
        page.get_by_role("heading", name="Deal 01").wait_for()
        page.wait_for_url("**/record?*record=phone-night*")

        # Chen 直杠 from Bo: Bo pays 1
        tap(page, "record_action_0", "Kong")
        tap(page, "record_kong_who_0", "Chen")
        tap(page, "record_kong_kind_0", "直杠")
        tap(page, "record_kong_from_0", "Bo")
        page.locator(".st-key-record_kong_add_0 button").click()
        page.get_by_text("Bo → Chen 1 (直杠 exposed kong)").first.wait_for()

        # Chen 自摸 对对胡 (+ 根 of his kong): 3 fan, 4 from each
        tap(page, "record_win_who_1", "Chen")
        tap(page, "record_win_from_1", "自摸")
        tap(page, "record_win_patterns_1", "对对胡")
        page.get_by_role("heading", name="3 fan").wait_for()
        page.locator(".st-key-record_win_add_1 button").click()
        page.get_by_text("Ann → Chen 4 (自摸 self-draw win)").first.wait_for()
        expect(page.get_by_test_id("stMetric").filter(has_text="Chen")).to_contain_text("+13")
        page.screenshot(path=ARTIFACTS / "record_phone.png", full_page=True)

        page.locator(".st-key-record_save_2 button").click()
        page.get_by_text("Saved phone-night-01 (revision 1).").wait_for()
        link = page.get_by_role("link", name="See the session result").first
        link.click()
        page.get_by_role("heading", name="The evening's result").wait_for()
        page.wait_for_url("**/session?*session=phone-night*")
        expect(page.get_by_test_id("stMetric").filter(has_text="Chen")).to_contain_text("13")
        button = page.get_by_role("button", name="Result image PNG")
        button.scroll_into_view_if_needed()
        with page.expect_download() as caught:
            button.click()
        download = caught.value
        assert download.suggested_filename == "session-phoneclub-phone-night.png"
        saved = tmp_path / download.suggested_filename
        download.save_as(saved)
        image = Image.open(io.BytesIO(saved.read_bytes()))
        image.load()
        assert image.format == "PNG" and image.size[0] == WIDTH


def test_check_and_correct_on_a_phone_in_chinese(chromium: Path, server: str) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    with phone_page(chromium) as page:
        page.goto(f"{server}/record?lang=zh")
        page.get_by_role("heading", name="记分").first.wait_for()

        def chip(key: str, text: str, on: bool = True) -> None:
            """Tap a chip and wait for the rerun it starts; tapped again if the chip
            is not as wanted then (a tap during the rerun before can be lost when
            the machine is busy)."""
            button = page.locator(f".st-key-{key} button", has_text=text).first
            for _ in range(3):
                button.click()
                page.wait_for_timeout(300)
                page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden")
                if (button.get_attribute("data-selected") == "true") == on:
                    return
            raise AssertionError(f"chip {text} of {key} did not take")

        for key, text in [("record_sid_input", "phone-fix"), *((f"record_player_{n}", name)
                          for n, name in enumerate(("Ann", "Bo", "Chen", "Du")))]:  # fmt: skip
            box = page.locator(f".st-key-{key} input")
            box.fill(text)
            box.press("Enter")
            page.wait_for_timeout(200)
        page.get_by_role("button", name="开始").click()
        page.get_by_role("heading", name="第 01 局").wait_for()

        # Bo 自摸 杠上花 with no kong before: the audit's finding, and no way to add it
        chip("record_win_who_0", "Bo")
        chip("record_win_from_0", "自摸")
        chip("record_win_patterns_0", "杠上花")
        page.get_by_text("杠上花是自己开杠后紧接着自摸").wait_for()
        expect(page.locator(".st-key-record_win_add_0 button")).to_be_disabled()
        chip("record_win_patterns_0", "杠上花", on=False)  # off again
        chip("record_win_patterns_0", "清一色")  # 3 fan: 4 from each
        page.get_by_role("heading", name="3 番").wait_for()
        page.locator(".st-key-record_win_add_0 button").click()
        page.get_by_text("Ann → Bo 4（自摸）").first.wait_for()

        # it was a 清对: open event 1 as recorded, one more chip, replace (4 fan: 8 from each)
        chip("record_edit_pick_1", "1")
        chip("record_edit0_win_patterns_1", "对对胡")
        page.locator(".st-key-record_edit_replace_1 button").click()
        page.get_by_text("Ann → Bo 8（自摸）").first.wait_for()
        expect(page.get_by_test_id("stMetric").filter(has_text="Bo")).to_contain_text("+24")
        page.locator(".st-key-record_save_2 button").click()
        page.get_by_text("已保存 phone-fix-01（第 1 版）。").wait_for()

        # deal 2 saved with nothing in it: the page asks first
        page.get_by_role("heading", name="第 02 局").wait_for()
        page.locator(".st-key-record_save_3 button").click()
        page.get_by_text("流局：没人胡，也没人杠？").wait_for()
        page.screenshot(path=ARTIFACTS / "record_phone_zh.png", full_page=True)
        page.locator(".st-key-record_save_empty_3 button").click()
        page.get_by_text("已保存 phone-fix-02（第 1 版）。").wait_for()


def test_record_a_three_player_deal_on_a_phone(chromium: Path, server: str) -> None:
    """A three-seat table (筒 and 条, ``{"seats": 3}``): three name inputs and no fourth,
    Bo 暗杠 paid by the two others (2 each), Chen 自摸 清一色 paid by two (4 each), Ann on
    Bo's discard 对对胡 (2): all but one have won, the deal is over; the totals
    [-4, -2, +6] on the page and on the session result, three players and no fourth."""
    expect = pytest.importorskip("playwright.sync_api").expect
    with phone_page(chromium) as page:
        page.goto(f"{server}/record")
        page.get_by_role("heading", name="Record").first.wait_for()

        type_in(page, "record_club", "threeclub")
        type_in(page, "record_sid_input", "three-night")
        tap(page, "record_rules", "Custom")
        override = page.locator(".st-key-record_override textarea")
        override.fill('{"preset": "standard", "seats": 3, "suits": "ps"}')
        override.press("Control+Enter")
        settle(page)
        page.locator(".st-key-record_player_2 input").wait_for()
        expect(page.locator(".st-key-record_player_3")).to_have_count(0)  # no empty fourth
        for seat, name in enumerate(("Ann", "Bo", "Chen")):
            type_in(page, f"record_player_{seat}", name)
        page.get_by_role("button", name="Start").click()
        page.get_by_role("heading", name="Deal 01").wait_for()

        tap(page, "record_action_0", "Kong")
        tap(page, "record_kong_who_0", "Bo")
        tap(page, "record_kong_kind_0", "暗杠")
        page.locator(".st-key-record_kong_add_0 button").click()
        page.get_by_text("Ann → Bo 2 (暗杠 concealed kong)").first.wait_for()
        page.get_by_text("Chen → Bo 2 (暗杠 concealed kong)").first.wait_for()

        tap(page, "record_win_who_1", "Chen")
        tap(page, "record_win_from_1", "自摸")
        tap(page, "record_win_patterns_1", "清一色")
        page.get_by_role("heading", name="3 fan").wait_for()
        page.locator(".st-key-record_win_add_1 button").click()
        page.get_by_text("Ann → Chen 4 (自摸 self-draw win)").first.wait_for()
        page.get_by_text("Bo → Chen 4 (自摸 self-draw win)").first.wait_for()

        tap(page, "record_win_who_2", "Ann")
        tap(page, "record_win_from_2", "Bo")
        tap(page, "record_win_patterns_2", "对对胡")
        page.get_by_role("heading", name="2 fan").wait_for()
        page.locator(".st-key-record_win_add_2 button").click()
        page.get_by_text("Bo → Ann 2").first.wait_for()
        page.get_by_text("All but one have won: the deal is over.").wait_for()
        metrics = page.get_by_test_id("stMetric")
        expect(metrics).to_have_count(3)
        expect(metrics.filter(has_text="Chen")).to_contain_text("+6")
        expect(metrics.filter(has_text="Ann")).to_contain_text("-4")
        page.screenshot(path=ARTIFACTS / "record_three_phone.png", full_page=True)

        page.locator(".st-key-record_save_3 button").click()
        page.get_by_text("Saved three-night-01 (revision 1).").wait_for()
        page.get_by_role("link", name="See the session result").first.click()
        page.get_by_role("heading", name="The evening's result").wait_for()
        shown = page.get_by_test_id("stMetric")
        expect(shown).to_have_count(3)
        expect(shown.filter(has_text="Chen")).to_contain_text("6")
        expect(shown.filter(has_text="Bo")).to_contain_text("-2")
