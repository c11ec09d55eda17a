"""Tokens per club (``chuanma access``): a viewer of club east reads nothing of club west,
through the HTTP API and through the dashboard in Chromium; a recorder stores its own
club's sessions only; an admin manages its club's tokens; a revoked token opens nothing;
the access file holds no token."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_api import CLI, Server, call, start
from test_dashboard_browser import APP, CHROMIUM_ARGS, ROOT, WAIT_MS, chromium, free_port

from ingest.logs.writer import write_log
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.warehouse import ingest

__all__ = ["chromium"]  # a fixture, shared with test_dashboard_browser


@dataclass(frozen=True)
class Clubs:
    warehouse: Path
    east_log: Path
    west_log: Path
    tokens: dict[str, str]  # role of east (or "west_viewer") -> token


def add_token(warehouse: Path, club: str, role: str) -> str:
    done = subprocess.run([*CLI, "access", "add", "--club", club, "--role", role, "--warehouse", str(warehouse),
                           "--json"], capture_output=True, text=True, check=True)  # fmt: skip
    token: str = json.loads(done.stdout)["token"]
    return token


@pytest.fixture(scope="module")
def clubs(tmp_path_factory: pytest.TempPathFactory) -> Clubs:
    folder = tmp_path_factory.mktemp("access")
    east, west, more = folder / "east.jsonl", folder / "west.jsonl", folder / "east-more.jsonl"
    write_log(simulate_club(ClubPlan(players=6, sessions=2, deals_per_session=3, seed=41, club="east")), east)
    write_log(simulate_club(ClubPlan(players=6, sessions=2, deals_per_session=3, seed=42, club="west")), west)
    write_log(simulate_club(ClubPlan(players=6, sessions=1, deals_per_session=2, seed=43, club="east")), more)
    ingest([east, west], folder / "warehouse", workers=0)
    tokens = {role: add_token(folder / "warehouse", "east", role) for role in ("viewer", "recorder", "admin")}
    tokens["west_viewer"] = add_token(folder / "warehouse", "west", "viewer")
    return Clubs(folder / "warehouse", more, west, tokens)


@pytest.fixture(scope="module")
def api(clubs: Clubs) -> Iterator[Server]:
    process, running = start(clubs.warehouse)
    try:
        yield running
    finally:
        process.terminate()
        process.wait(timeout=30)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def west_ids(api: Server, clubs: Clubs) -> tuple[str, str]:
    """A session and a deal of club west, as west's own viewer sees them."""
    sessions = call(api.url + "/v1/sessions", headers=bearer(clubs.tokens["west_viewer"])).body["sessions"]
    session = sessions[0]["session_id"]
    deal = call(api.url + f"/v1/sessions/{session}", headers=bearer(clubs.tokens["west_viewer"])).body[
        "deals"
    ][0]
    return session, deal["deal_id"]


def test_the_access_file_holds_no_token(clubs: Clubs) -> None:
    text = (clubs.warehouse / "access.json").read_text()
    assert all(token.split("_", 2)[2] not in text for token in clubs.tokens.values())
    assert oct((clubs.warehouse / "access.json").stat().st_mode & 0o777) == "0o600"


def test_with_club_tokens_every_read_needs_one(api: Server) -> None:
    assert call(api.url + "/v1/health").status == 200  # the health check stays open
    for path in ("/v1/sessions", "/v1/players", "/v1/findings"):
        assert call(api.url + path).body["error"]["code"] == "unauthorized"


def test_a_viewer_of_east_reads_nothing_of_west(api: Server, clubs: Clubs) -> None:
    east = bearer(clubs.tokens["viewer"])
    session, deal = west_ids(api, clubs)
    listed = call(api.url + "/v1/sessions", headers=east).body["sessions"]
    assert listed and {row["club"] for row in listed} == {"east"}
    assert call(api.url + "/v1/sessions?club=west", headers=east).body["error"]["code"] == "forbidden"
    assert call(api.url + f"/v1/sessions/{session}", headers=east).status == 404
    assert call(api.url + f"/v1/deals/{deal}", headers=east).status == 404
    board = call(api.url + "/v1/players", headers=east).body["players"]
    assert sum(row["deals"] for row in board) == 4 * 6  # east's six deals, four seats each
    found = call(api.url + "/v1/findings", headers=east).body["findings"]
    assert all(row["club"] == "east" for row in found)


def test_a_viewer_validates_but_does_not_store(api: Server, clubs: Clubs) -> None:
    body = clubs.east_log.read_bytes()
    assert call(api.url + "/v1/validate", body, bearer(clubs.tokens["viewer"])).status == 200
    refused = call(api.url + "/v1/ingest", body, bearer(clubs.tokens["viewer"]))
    assert refused.status == 403 and "recorder" in refused.body["error"]["message"]


def test_a_recorder_stores_its_own_club_only(api: Server, clubs: Clubs) -> None:
    recorder = bearer(clubs.tokens["recorder"])
    other = call(api.url + "/v1/ingest", clubs.west_log.read_bytes(), recorder)
    assert other.status == 403 and "west" in other.body["error"]["message"]
    own = call(api.url + "/v1/ingest", clubs.east_log.read_bytes(), recorder)
    assert own.status == 200 and own.body["deals"]["read"] == 2


def test_an_admin_manages_its_club_tokens(api: Server, clubs: Clubs) -> None:
    admin = bearer(clubs.tokens["admin"])
    listed = call(api.url + "/v1/access/tokens", headers=admin).body["tokens"]
    assert {row["club"] for row in listed} == {"east"} and len(listed) == 3  # not west's
    assert all("secret_sha256" not in row and "token" not in row for row in listed)
    made = call(api.url + "/v1/access/tokens?role=viewer&label=bot", b"", admin)
    assert made.status == 200, made.body
    assert call(api.url + "/v1/sessions", headers=bearer(made.body["token"])).status == 200
    request = urllib.request.Request(api.url + f"/v1/access/tokens/{made.body['id']}", method="DELETE",
                                     headers=admin)  # fmt: skip
    with urllib.request.urlopen(request) as answer:
        assert json.loads(answer.read())["revoked"]
    assert call(api.url + "/v1/sessions", headers=bearer(made.body["token"])).status == 401
    time.sleep(1.1)  # a revoked token counts as a wrong one: this client waits a second
    viewer = call(api.url + "/v1/access/tokens", headers=bearer(clubs.tokens["viewer"]))
    assert viewer.status == 403


# -- the dashboard ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dashboard(clubs: Clubs) -> Iterator[str]:
    port = free_port()
    command = [
        sys.executable, "-m", "streamlit", "run", str(APP), "--server.port", str(port),
        "--server.address", "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false", "--", "--warehouse", str(clubs.warehouse),
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
                               start_new_session=True)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.3)
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=15)


def test_the_dashboard_shows_a_viewer_its_club_only(
    chromium: Path, dashboard: str, api: Server, clubs: Clubs
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    session, deal = west_ids(api, clubs)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(WAIT_MS)
            page.goto(dashboard)
            page.get_by_text("This dashboard asks for a club's token").wait_for()
            assert page.get_by_role("heading", name="Overview").count() == 0  # no page before a token
            field = page.get_by_role("textbox", name="Club token")
            field.fill(clubs.tokens["viewer"])
            field.press("Enter")
            page.get_by_text("viewer of east").wait_for()
            page.get_by_role("heading", name="Overview").first.wait_for()
            club = page.get_by_role("combobox", name="Club", exact=True)
            sync_api.expect(club).to_have_value("east")
            options = page.get_by_role("option")
            for _ in range(5):  # a rerun still drawing the sidebar may close the list a click opened
                page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden")
                club.click()
                with contextlib.suppress(sync_api.TimeoutError):
                    options.first.wait_for(timeout=3000)
                    break
                page.keyboard.press("Escape")
            options.first.wait_for()  # the list opens after the click
            assert [options.nth(i).inner_text() for i in range(options.count())] == ["east"]
            page.keyboard.press("Escape")
            page.goto(f"{dashboard}/session?session={urllib.parse.quote(session)}")
            page.get_by_role("textbox", name="Club token").fill(
                clubs.tokens["viewer"]
            )  # a new page load: the token again
            page.get_by_role("textbox", name="Club token").press("Enter")
            page.get_by_text("No such session").wait_for()
            page.goto(f"{dashboard}/replay?deal={urllib.parse.quote(deal)}")
            page.get_by_role("textbox", name="Club token").fill(clubs.tokens["viewer"])
            page.get_by_role("textbox", name="Club token").press("Enter")
            page.get_by_text("No such deal").wait_for()
            page.goto(f"{dashboard}/upload")
            page.get_by_role("textbox", name="Club token").fill(clubs.tokens["viewer"])
            page.get_by_role("textbox", name="Club token").press("Enter")
            page.get_by_text("Recording and uploading need a recorder's token").wait_for()
            assert "west" not in page.content()
        finally:
            browser.close()
