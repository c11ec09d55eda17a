"""The dashboard in a real browser: a Streamlit server on a free local port and Debian's
Chromium driven by Playwright (never a downloaded browser). It loads the overview and sees
its charts drawn, opens a player, uploads a log with a wrong kong payment, ingests it and
reads the ``payment_mismatch`` explained on the audit page, then follows the link to the
deal's replay; on the way it clicks a cell of the head-to-head matrix. Screenshots go to ``tests/artifacts/`` (ignored by git).

Chromium (and a CJK font, so the screenshots show 万 筒 条) is installed with apt when it is
missing; the test is skipped when that cannot be done (not root, no apt)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from urllib.parse import urljoin

import pytest
from test_dashboard_apptest import club_logs

from ingest.logs.writer import write_lines
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer
from ingest.warehouse import ingest

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "dashboard" / "app.py"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 30_000


def apt_install(*packages: str) -> bool:
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        return False
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update"], check=False, capture_output=True, env=env, timeout=600)
    done = subprocess.run(
        ["apt-get", "install", "-y", *packages], check=False, capture_output=True, env=env, timeout=900
    )
    return done.returncode == 0


def has_cjk_font() -> bool:
    if shutil.which("fc-list") is None:
        return False
    found = subprocess.run(["fc-list", ":lang=zh"], check=False, capture_output=True, text=True)
    return bool(found.stdout.strip())


@pytest.fixture(scope="module")
def chromium() -> Path:
    if not CHROMIUM.exists() and not apt_install("chromium"):
        pytest.skip("Debian's chromium is missing and cannot be installed here (needs root and apt)")
    if not has_cjk_font():
        apt_install("fonts-wqy-microhei")  # readable screenshots only; the test does not need it
    return CHROMIUM


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``streamlit run`` on a free port over a small warehouse; stopped (its whole process
    group) at the end."""
    folder = tmp_path_factory.mktemp("browser")
    ingest(club_logs(folder / "logs"), folder / "warehouse", workers=0)
    with serving(folder / "warehouse", folder / "server.log") as url:
        yield url


@contextmanager
def serving(warehouse: Path, log_path: Path) -> Iterator[str]:
    """``streamlit run`` on a free port over ``warehouse`` (its output in ``log_path``): the
    URL once it answers; its whole process group stopped at the end."""
    port = free_port()
    command = [
        sys.executable, "-m", "streamlit", "run", str(APP),
        "--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true",
        "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false",
        "--", "--warehouse", str(warehouse),
    ]  # fmt: skip
    log = open(log_path, "wb")  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(log_path.read_text(errors="replace"))
            time.sleep(0.3)
        yield url
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=15)
        log.close()


def kong_payment_log(folder: Path) -> Path:
    """One session of six deals, each with a wrong kong payment where it has a kong."""
    path = folder / "kong-payment.jsonl"
    tamperer = Tamperer(1.0, seed=3, kinds=["kong_payment"])
    plan = ClubPlan(sessions=1, deals_per_session=6, seed=21, club="upload-club", start=date(2026, 9, 1))
    write_lines(tamperer.lines(simulate_club(plan)), path)
    assert tamperer.manifest, "the log must hold a wrong kong payment"
    return path


def test_overview_player_upload_audit_and_replay_in_a_browser(
    chromium: Path, server: str, tmp_path: Path
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "failure.png").unlink(missing_ok=True)
    upload = kong_payment_log(tmp_path)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1800})
        page.set_default_timeout(WAIT_MS)
        try:
            # a deep link as the server's first request gets the app's frame (the sidebar)
            page.goto(f"{server}/fans")
            page.get_by_role("heading", name="Fans", exact=True).wait_for()
            page.get_by_text("Filters (all pages)").wait_for()

            # the overview: its charts drawn (Vega draws each as SVG: a title and its marks)
            page.goto(server)
            charts = page.locator("[data-testid='stVegaLiteChart'] svg.marks")
            charts.nth(2).wait_for()
            assert charts.count() >= 3
            for title in ("Deals per week", "Wins by total fan", "Deals by status"):
                chart = charts.filter(has_text=title)
                assert chart.count() == 1, title
                box = chart.bounding_box()
                assert box is not None and box["width"] > 200 and box["height"] > 150, title
                assert chart.locator("g[class*='mark-'] path").count() >= 3, title
            page.wait_for_timeout(500)
            page.screenshot(path=ARTIFACTS / "overview.png", full_page=True)

            # a player, by the sidebar's navigation and the player picker
            page.get_by_role("link", name="Players").first.click()
            page.get_by_text("Leaderboard (click a column to sort)").wait_for()
            picker = page.get_by_role("combobox", name="Choose a player")
            picker.click()
            page.keyboard.type("Bo")
            page.keyboard.press("Enter")
            page.get_by_role("heading", name="Bo", exact=True).wait_for()
            page.locator("[data-testid='stVegaLiteChart'] svg.marks").filter(
                has_text="Score over time"
            ).wait_for()
            page.wait_for_timeout(500)
            page.screenshot(path=ARTIFACTS / "player.png", full_page=True)

            # head-to-head: a click on a cell of the matrix lists the deals behind it
            page.get_by_role("link", name="Head-to-head").first.click()
            matrix = page.locator("[data-testid='stVegaLiteChart'] svg.marks").first
            cells = matrix.locator("g.mark-rect path")
            cells.nth(1).wait_for()
            cell = cells.nth(min(5, cells.count() - 1))
            label = cell.get_attribute("aria-label") or ""
            payee = label.split("Paid to: ")[1].split(";")[0]
            payer = label.split("Paid by: ")[1].split(";")[0]
            box = cell.bounding_box()
            assert box is not None
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.get_by_role("heading", name=f"The deals behind this cell: {payer} → {payee}").wait_for()
            page.wait_for_timeout(500)
            page.screenshot(path=ARTIFACTS / "head_to_head.png", full_page=True)

            # upload: validated at once, ingested on request
            page.get_by_role("link", name="Upload").first.click()
            page.locator("input[type='file']").set_input_files(str(upload))
            # the explained finding (a table's cells are hidden text: whichever draws first)
            page.locator("[data-testid='stAlert']").filter(has_text="payment_mismatch").first.wait_for()
            page.screenshot(path=ARTIFACTS / "upload.png", full_page=True)
            page.get_by_role("button", name="Ingest into the warehouse").click()
            page.get_by_text("Ingested.").first.wait_for(timeout=60_000)

            # the audit page explains the wrong kong payment
            page.get_by_role("link", name="See the findings on the Audit page").click()
            page.get_by_role("heading", name="Re-score a session under another rule set").wait_for()
            explained = page.locator(".cm-explained").filter(has_text="kong of").first
            explained.wait_for()
            text = explained.inner_text()
            assert explained.locator(".cm-tile").count() == 1  # the kong's tile, drawn as a tile
            # by name, the seat beside it, and the payments per player ("expected Ann +1, Bo −1")
            assert "(seat " in text and "under standard" in text, text
            assert "expected [" not in text and "recorded [" not in text, text
            assert page.get_by_text("payment_mismatch").count() > 0
            page.wait_for_timeout(500)
            page.screenshot(path=ARTIFACTS / "audit.png", full_page=True)

            # and its deal, turn by turn, opened at the finding
            page.get_by_role("link", name="Replay upload-club").first.click()
            page.locator(".cm-board").wait_for()
            assert page.locator(".cm-tile").count() > 40
            page.locator(".cm-finding").filter(has_text="payment_mismatch").first.wait_for()
            page.wait_for_timeout(500)
            page.screenshot(path=ARTIFACTS / "replay.png", full_page=True)
        except Exception:
            page.screenshot(path=ARTIFACTS / "failure.png", full_page=True)  # what the page showed
            raise
        finally:
            browser.close()


def test_the_url_keeps_language_filters_player_and_deal(chromium: Path, server: str) -> None:
    """A shared link shows the same page: ``?lang=zh&club=...&player=...`` restores the
    language, the filter and the player, on load and on reload; the sidebar's links and
    the tables' replay links keep them; ``/overview`` is the overview; no request leaves
    the server (the favicon is its own), no Deploy button; on a phone a hand stays on
    one row."""
    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        page.set_default_timeout(WAIT_MS)
        outside: list[str] = []
        page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(server) else None)
        try:
            page.goto(f"{server}/players?lang=zh&club=sample-club&player=Bo")
            page.get_by_role("heading", name="玩家", exact=True).wait_for()
            page.get_by_role("heading", name="Bo", exact=True).wait_for()
            for part in ("lang=zh", "club=sample-club", "player=Bo"):
                assert part in page.url, page.url
            page.reload()
            page.get_by_role("heading", name="Bo", exact=True).wait_for()
            assert "lang=zh" in page.url and "club=sample-club" in page.url
            assert page.get_by_text("Deploy", exact=True).count() == 0
            # players are per club: Ann plays in both clubs, so the link names one club's Ann
            page.goto(f"{server}/players?lang=zh&club=sample-club&player=Ann%20(sample-club)")
            page.get_by_role("heading", name="Ann (sample-club)", exact=True).wait_for()

            # the sidebar's navigation keeps the language and the filter
            page.get_by_role("link", name="审计").first.click()
            page.get_by_role("heading", name="审计", exact=True).wait_for()
            page.wait_for_function("() => location.search.includes('lang=zh')")
            assert "club=sample-club" in page.url, page.url
            link = page.locator("a[href*='replay?deal=']").first
            link.wait_for()
            href = link.get_attribute("href") or ""
            assert "lang=zh" in href and "club=sample-club" in href and "line=" in href, href
            # the link opened as a shared link is (a click's in-app navigation raced the old
            # page's URL write under load: the link itself is what a member shares)
            page.goto(urljoin(page.url, href))
            page.locator(".cm-board").wait_for()
            page.wait_for_function(
                "() => location.search.includes('deal=') && location.search.includes('lang=zh')"
            )
            deal_url = page.url

            # /overview is a deep link like the others
            page.goto(f"{server}/overview?lang=zh")
            page.get_by_role("heading", name="概览", exact=True).wait_for()
            assert page.get_by_text("Page not found").count() == 0
            icon = (
                page.locator("link[rel='shortcut icon'], link[rel='icon']").first.get_attribute("href") or ""
            )
            assert not icon.startswith("http") or icon.startswith(server), icon

            # a phone: every hand on one row of tiles
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            phone.set_default_timeout(WAIT_MS)
            phone.goto(deal_url)
            phone.locator(".cm-board").wait_for()
            phone.wait_for_timeout(500)
            heights = phone.eval_on_selector_all(
                ".cm-board tr td:nth-child(2) > .cm-tiles",
                "els => els.map(e => [e.getBoundingClientRect().height,"
                " e.querySelector('.cm-tile').getBoundingClientRect().height])",
            )
            assert heights and all(row < 1.6 * tile for row, tile in heights), heights
            phone.screenshot(path=ARTIFACTS / "replay_phone.png", full_page=True)
            phone.close()
            assert not outside, outside[:5]
        except Exception:
            page.screenshot(path=ARTIFACTS / "failure_url.png", full_page=True)
            raise
        finally:
            browser.close()


def test_find_a_deal_and_download_its_csv(chromium: Path, server: str, tmp_path: Path) -> None:
    """The search page by its deep link, a search by finding code, the result
    table downloaded as CSV (a real download), and the rating page's line drawn."""
    import csv
    import re

    sync_api = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1800}, accept_downloads=True)
        page.set_default_timeout(WAIT_MS)
        try:
            page.goto(f"{server}/search")
            page.get_by_role("heading", name="Find a deal", exact=True).wait_for()
            page.get_by_text("The club's biggest hands").wait_for()
            found = page.get_by_text(re.compile(r"^Matching deals: ")).first
            before = found.inner_text()
            picker = page.get_by_role("combobox", name="Finding code")
            picker.click()
            page.keyboard.type("payment_mismatch")
            page.keyboard.press("Enter")
            page.wait_for_function(
                "(before) => [...document.querySelectorAll('[data-testid=stMarkdownContainer]')]"
                ".some(e => e.innerText.startsWith('Matching deals: ') && e.innerText !== before)",
                arg=before,
            )
            shown = int(re.findall(r"\((\d+) shown\)", found.inner_text())[0])
            assert shown > 0
            # The count is drawn before the rerun replaces the table and its button; under
            # load the old button (the unfiltered deals) can still be clicked, so the file
            # is fetched again until the page has settled (at most five tries).
            for _ in range(5):
                page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden")
                with page.expect_download() as download:
                    page.get_by_role("button", name="Download CSV").first.click()
                saved = tmp_path / download.value.suggested_filename
                download.value.save_as(saved)
                rows = list(csv.DictReader(saved.read_text(encoding="utf-8-sig").splitlines()))
                if len(rows) == shown:
                    break
                page.wait_for_timeout(1000)
            assert saved.name == "deals-found.csv"
            assert len(rows) == shown
            assert all(r["replay"].startswith("replay?deal=") for r in rows)
            assert all("payment_mismatch" in r["finding_codes"] for r in rows)
            page.wait_for_timeout(300)
            page.screenshot(path=ARTIFACTS / "search.png", full_page=True)

            page.get_by_role("link", name="Placements & rating").first.click()
            page.get_by_role("heading", name="Placements & rating", exact=True).wait_for()
            lines = page.locator("[data-testid='stVegaLiteChart'] svg.marks").filter(
                has_text="Rating over time"
            )
            lines.wait_for()
            assert lines.locator("g[class*='mark-line'] path").count() >= 2
            page.wait_for_timeout(300)
            page.screenshot(path=ARTIFACTS / "ratings.png", full_page=True)
        except Exception:
            page.screenshot(path=ARTIFACTS / "failure-search.png", full_page=True)
            raise
        finally:
            browser.close()
