"""A whole club night on a phone, in Debian's Chromium at 390×844, in both languages: the
organiser makes the roster on the Record page (no laptop), starts the session, records a
kong, a 自摸 and a win on a discard, opens the table's live view by its link, closes the
session at 2 元 a point, opens the Night page for the club and the date and reads the 元
settlement, then opens a player's page from a name there. Kept fast (< 90 s a language).
Helpers and server as in test_record_phone_browser / test_dashboard_browser."""

from __future__ import annotations

import time
from datetime import date
from pathlib import Path

import pytest
from test_dashboard_browser import ARTIFACTS, WAIT_MS, chromium, server
from test_record_phone_browser import PHONE, Thumb, browser_page

__all__ = ["chromium", "server"]  # fixtures, shared with test_dashboard_browser

PLAYERS = ("刘洋", "李娜", "王强", "张伟")
WORDS = {
    "en": {"title": "Record", "deal": "Deal {n}", "live": "Live table", "share": "Live table: scan",
           "night": "The club's night", "players": "Players", "yuan": "yuan"},
    "zh": {"title": "记分", "deal": "第 {n} 局", "live": "牌桌直播", "share": "牌桌直播：扫码看分",
           "night": "今晚结算", "players": "玩家", "yuan": "元"},
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_club_night_on_a_phone(chromium: Path, server: str, lang: str) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    words = WORDS[lang]
    club = f"night-{lang}"
    began = time.monotonic()
    with browser_page(chromium, PHONE) as page:
        page.on("dialog", lambda d: d.accept())
        page.goto(f"{server}/record?lang={lang}")
        page.get_by_role("heading", name=words["title"]).first.wait_for()
        thumb = Thumb(page, PHONE["height"])
        thumb.type_in("record_club", club)
        for n, name in enumerate(PLAYERS):
            thumb.type_in(f"record_player_{n}", name)
        thumb.tap("record_roster_add_typed")  # the roster, made on the page: the seats kept
        for n, name in enumerate(PLAYERS):  # a select box shows its choice in its input
            expect(page.locator(f".st-key-record_pick_{n} input")).to_have_value(name)
        session = f"{club}-walk"
        thumb.type_in("record_sid_input", session)
        thumb.tap("record_begin")
        page.get_by_role("heading", name=words["deal"].format(n="01")).wait_for()

        thumb.tap("record_action_0", "杠" if lang == "zh" else "Kong")
        thumb.tap("record_kong_who_0", "王强")
        thumb.tap("record_kong_kind_0", "直杠")
        thumb.tap("record_kong_from_0", "李娜")
        thumb.tap("record_kong_add_0")
        thumb.tap("record_win_who_1", "王强")
        thumb.tap("record_win_from_1", "自摸")
        thumb.tap("record_win_patterns_1", "清一色")
        thumb.tap("record_win_add_1")
        thumb.tap("record_win_who_2", "刘洋")
        thumb.tap("record_win_from_2", "张伟")
        thumb.tap("record_win_add_2")
        thumb.tap("record_save_3")
        page.get_by_role("heading", name=words["deal"].format(n="02")).wait_for()

        page.get_by_text(words["share"]).first.click()  # the live view, by its link
        link = page.locator("[data-testid='stCode'] code").first.inner_text().strip()
        assert "/live?t=" in link, link
        live = page.context.new_page()
        live.set_default_timeout(WAIT_MS)
        live.goto(link)
        live.get_by_role("heading", name=words["live"]).first.wait_for()
        expect(live.locator(".st-key-live_totals")).to_contain_text("王强")
        live.close()

        thumb.tap("record_close")
        box = page.locator(".st-key-record_money_point input")
        box.fill("2")
        box.press("Enter")
        thumb.settle()
        thumb.tap("record_close_yes")

        day = date.today().isoformat()
        page.goto(f"{server}/night?club={club}&night={day}&lang={lang}")
        page.get_by_role("heading", name=words["night"]).first.wait_for()
        settle = page.get_by_test_id("cm-night-settle")
        expect(settle).to_contain_text(words["yuan"])
        page.screenshot(path=ARTIFACTS / f"night_walk_{lang}.png", full_page=True)
        grid = page.locator("[data-testid='stDataFrame']").first
        grid.scroll_into_view_if_needed()
        # the name's address from the grid's accessible cells (place, player, ...): a tap on
        # the canvas of a touch context opened no tab in headless Chromium
        href = grid.locator("[role='gridcell']").nth(1).inner_text()
        assert href.startswith("players?player="), href
        player = page.context.new_page()
        player.set_default_timeout(WAIT_MS)
        player.goto(f"{server}/{href}")
        player.wait_for_url("**/players?player=*")
        player.get_by_role("heading", name=words["players"]).first.wait_for()
        name = str(player.locator(".st-key-player_choice input").input_value())
        assert any(name.startswith(p) for p in PLAYERS), name
    took = time.monotonic() - began
    assert took < 90, f"the night took {took:.0f} s"
