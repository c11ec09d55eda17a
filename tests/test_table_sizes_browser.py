"""The main pages in a real browser (Debian's Chromium, Playwright; the server as in
test_dashboard_browser) over one club that plays four-player standard evenings and
three-player sanren ones: the overview splits its figures by table size, the players page
counts its rates at one size (a radio, four players first), the ratings page shows each
size's placements apart (no 4th at three), and a three-player session and deal show three
players: no fourth column, no empty fourth seat, no "seat 3" placeholder."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from test_dashboard_browser import ARTIFACTS, CHROMIUM_ARGS, WAIT_MS, chromium, serving

from ingest.logs.writer import write_log
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import ingest

__all__ = ["chromium"]  # a fixture, shared with test_dashboard_browser

CLUB = "mixed"
#: the first three-player session (the simulator's ids: club, day, index)
THREE_SESSION = f"{CLUB}-2026-05-02-00000"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("sizes_browser")
    logs = []
    for rules, seed, start in (("standard", 31, date(2026, 5, 1)), ("sanren", 32, date(2026, 5, 2))):
        plan = ClubPlan(
            players=5, sessions=2, deals_per_session=3, rules=rules, seed=seed, start=start, club=CLUB
        )
        logs.append(folder / f"{rules}.jsonl")
        write_log(simulate_club(plan), logs[-1])
    ingest(logs, folder / "warehouse", workers=0)
    with serving(folder / "warehouse", folder / "server.log") as url:
        yield url


def cell(page: Any, text: str) -> Any:
    """A table's cell or header holding ``text`` (the grid draws on a canvas and keeps its
    cells as hidden text, filled once drawn: waited for attached, not visible)."""
    found = page.locator("[data-testid='stDataFrame'] table[role='grid']").locator("th, td")
    found = found.filter(has_text=text).first
    found.wait_for(state="attached")
    return found


def headers(page: Any) -> list[list[str]]:
    """Each table's column headers, in order."""
    grids = page.locator("[data-testid='stDataFrame'] table[role='grid']")
    return [grids.nth(i).locator("th").all_text_contents() for i in range(grids.count())]


def grid_text(page: Any) -> str:
    """Every table's headers and cells."""
    return "\n".join(page.locator("[data-testid='stDataFrame'] table[role='grid']").all_text_contents())


def test_the_main_pages_at_three_and_four_seats(chromium: Path, server: str) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1800})
        page.set_default_timeout(WAIT_MS)
        try:
            page.goto(server)
            page.get_by_text("By table size").wait_for()
            page.get_by_role("combobox", name="Table size").wait_for()  # the sidebar offers it
            cell(page, "3 players")
            sizes = grid_text(page)
            assert "4 players" in sizes and "2 players" not in sizes

            # players: one size at a time, four first; three on a click
            page.goto(f"{server}/players")
            page.get_by_text("Leaderboard (click a column to sort)").wait_for()
            radio = page.get_by_role("radiogroup", name="Table size")
            sync_api.expect(radio.get_by_role("radio", name="4 players")).to_be_checked()
            radio.get_by_text("3 players").click()
            sync_api.expect(radio.get_by_role("radio", name="3 players")).to_be_checked()
            page.wait_for_timeout(500)
            page.screenshot(path=ARTIFACTS / "sizes_players.png", full_page=True)

            # ratings: placements per size, the three-player one with no 4th
            page.goto(f"{server}/ratings")
            page.get_by_role("heading", name="Placements by table size").wait_for()
            page.get_by_text("3 players", exact=True).wait_for()
            page.locator("[data-testid='stDataFrame'] table[role='grid']").nth(2).wait_for(state="attached")
            cell(page, "3rd rate")
            shown = headers(page)
            fourth = [columns for columns in shown if "4th rate" in columns]
            thirds = [columns for columns in shown if "3rd rate" in columns]
            assert len(fourth) == 1 and len(thirds) == 2, shown  # the four-player table only has a 4th
            assert not any("Average placement" in columns for columns in shown[:1]), shown  # ratings: none
            page.screenshot(path=ARTIFACTS / "sizes_ratings.png", full_page=True)

            # a three-player evening: three totals, three net columns, no placeholder seat
            page.goto(f"{server}/session?session={THREE_SESSION}")
            page.get_by_role("heading", name="Who pays whom").wait_for()
            # three totals, once the page has drawn them all (the first may come alone)
            sync_api.expect(page.locator("[data-testid='stMetric']")).to_have_count(3)
            cell(page, "Status")  # the deals' table: its net columns are the three players
            # the grid fills its hidden header text after the cell is attached: read it settled
            nets: list[str] = []
            for _ in range(40):
                nets = next((columns for columns in headers(page) if "Status" in columns), [])
                if nets:
                    break
                page.wait_for_timeout(250)
            assert nets, headers(page)
            names = [
                m.split("\n")[0] for m in page.locator("[data-testid='stMetricLabel']").all_inner_texts()
            ]
            # the metrics by place, the net columns by seat (right after the short deal label):
            # the same three names, no fourth
            assert len(names) == 3 and sorted(nets[nets.index("Deal") + 1 : nets.index("Status")]) == sorted(
                names
            )
            text = page.locator("[data-testid='stMain']").first.inner_text() + grid_text(page)
            assert "seat 3" not in text
            page.screenshot(path=ARTIFACTS / "sizes_session.png", full_page=True)

            # its first deal's replay: three hands on the board
            page.goto(f"{server}/replay?deal={THREE_SESSION}-01")
            page.locator(".cm-board").first.wait_for()
            assert page.locator(".cm-board td.cm-seat").count() == 3
            assert "seat 3" not in page.locator(".cm-board").first.inner_text()
            page.screenshot(path=ARTIFACTS / "sizes_replay.png", full_page=True)
        except Exception:
            page.screenshot(path=ARTIFACTS / "sizes_failure.png", full_page=True)
            raise
        finally:
            browser.close()
