"""Dashboard page render times on a warehouse of at least ``--deals`` deals (default 200,000).

The warehouse is built once and kept in ``--warehouse`` the way ``bench/queries.py``
builds its own: a base of simulated deals (about 3% tampered with, so the audit page has
findings to list) is ingested for real, then its rows are copied under new ids up to the
target. Each page is run through ``streamlit.testing.v1.AppTest`` (the app's whole script:
sidebar, queries, charts, tables; what the server does before the browser draws):

- *startup*: the first run of the app (the one DuckDB connection opens and materializes
  the marts; once per server and catalog version);
- *cold*: a page with every ``st.cache_data`` entry cleared first (its queries all run);
- *warm*: the same page again (results from the cache, as for a second visitor).

With ``--browser`` it also starts ``streamlit run`` on a free local port and times each
page in Debian's Chromium (Playwright): from navigation to the page's charts or tiles
drawn, and the server's resident memory after each page's runs. Medians over ``--repeat``
runs; ``--json`` prints one object as the last line.

    .venv/bin/python bench/dashboard.py [--deals 200000] [--repeat 5] [--browser] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(ROOT), *(p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench")]

import streamlit as st  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from analytics.queries import Analytics  # noqa: E402
from bench.queries import build, stored_deals  # noqa: E402
from dashboard.warehouse_location import WAREHOUSE_ENV  # noqa: E402
from ingest.logs.writer import write_lines  # noqa: E402
from ingest.simulator.simulate import ClubPlan, simulate_club  # noqa: E402
from ingest.simulator.tamper import Tamperer  # noqa: E402

APP = ROOT / "dashboard" / "app.py"
GOAL_MS = 1000.0
FIRST_VISIT_GOAL_MS = 3000.0  # a new tab at a page's address
PAGES = ("overview", "players", "fans", "head_to_head", "replay", "audit", "upload",
         "ratings", "versus", "search", "patterns")  # fmt: skip


def base_logs(folder: Path, deals: int) -> list[Path]:
    """Simulated logs of about ``deals`` deals, 3% of them tampered with."""
    logs = []
    per_file = 2500
    for number in range(max(1, deals // per_file)):
        path = folder / f"base-{number}.jsonl.gz"
        plan = ClubPlan(players=16, sessions=per_file // 10, deals_per_session=10, seed=700 + number,
                        club=f"club{number % 3}", start=date(2026, 1 + number % 6, 1))  # fmt: skip
        write_lines(Tamperer(0.03, seed=number).lines(simulate_club(plan)), path)
        logs.append(path)
    return logs


def prepare(warehouse: Path, deals: int, base: int) -> None:
    if stored_deals(warehouse) >= deals:
        return
    with tempfile.TemporaryDirectory() as tmp:
        logs = base_logs(Path(tmp), base) if stored_deals(warehouse) == 0 else []
        build(warehouse, deals, base, logs)


def ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def run_page(at: AppTest, page: str) -> float:
    started = time.perf_counter()
    at.switch_page(f"app_pages/{page}.py").run()
    took = ms(started)
    if at.exception:
        raise RuntimeError(f"{page}: {at.exception[0].value}")
    return took


def apptest_times(warehouse: Path, repeat: int, upload: bytes) -> tuple[float, dict[str, dict[str, float]]]:
    os.environ[WAREHOUSE_ENV] = str(warehouse)
    analytics = Analytics(warehouse, materialize=False)
    deal = str(
        analytics.sql("select deal_id from stg_deals where status = 'findings' order by deal_id limit 1")[
            "deal_id"
        ].iloc[0]
    )
    analytics.close()
    at = AppTest.from_file(APP, default_timeout=600)
    started = time.perf_counter()
    at.run()
    startup = ms(started)
    results: dict[str, dict[str, float]] = {}
    for page in PAGES:
        if page == "replay":
            at.query_params["deal"] = deal
        cold, warm = [], []
        for _ in range(repeat):
            st.cache_data.clear()
            cold.append(run_page(at, page))
            warm.append(run_page(at, page))
        if page == "upload":  # the upload validated (a one-session log, 40 deals)
            at.file_uploader[0].set_value(("upload.jsonl", upload, "application/octet-stream"))
            validated = []
            for _ in range(repeat):
                st.cache_data.clear()
                started = time.perf_counter()
                at.run()
                validated.append(ms(started))
            results["upload+validate"] = {
                "cold": statistics.median(validated),
                "warm": statistics.median(validated),
            }
        results[page] = {"cold": statistics.median(cold), "warm": statistics.median(warm)}
        print(
            f"  {page:16} cold {results[page]['cold']:8.1f} ms   warm {results[page]['warm']:8.1f} ms",
            flush=True,
        )
    return startup, results


#: per page: its address, its title, and what must be drawn (a selector and how many)
BROWSER_PAGES: tuple[tuple[str, str, str, str, int], ...] = (
    ("overview", "", "Overview", "[data-testid='stVegaLiteChart'] svg.marks", 3),
    ("players", "players", "Players", "[data-testid='stVegaLiteChart'] svg.marks", 5),
    ("fans", "fans", "Fans", "[data-testid='stVegaLiteChart'] svg.marks", 4),
    ("head_to_head", "head-to-head", "Head-to-head", "[data-testid='stVegaLiteChart'] svg.marks", 1),
    ("replay", "replay", "Deal replay", ".cm-board", 1),
    ("audit", "audit", "Audit", "[data-testid='stVegaLiteChart'] svg.marks", 2),
    ("upload", "upload", "Upload", "[data-testid='stFileUploader']", 1),
    ("ratings", "ratings", "Placements & rating", "[data-testid='stVegaLiteChart'] svg.marks", 2),
    # the record table: the chart only when A and B met (a sidebar visit shows the first two names)
    ("versus", "versus", "Player vs player", "[data-testid='stDataFrame']", 1),
    ("search", "search", "Find a deal", "[data-testid='stDataFrame']", 2),
    ("patterns", "patterns", "Pattern rates", "[data-testid='stVegaLiteChart'] svg.marks", 1),
)


def release(warehouse: Path) -> None:
    """Close the AppTest runs' connection: it owns the marts file, and a server started
    while it does would build its marts in memory (not what a server start does)."""
    from dashboard import cached_queries

    cached_queries._analytics(str(warehouse.resolve())).close()
    st.cache_resource.clear()


def resident_mb(pid: int) -> float:
    """The resident memory of the server process (Linux: ``/proc/PID/status``), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def browser_times(warehouse: Path, repeat: int) -> dict[str, dict[str, float]]:
    """Each page in Chromium, median ms: *load* a new tab at the page's address (the app's
    scripts, the websocket, the run, the drawing); *nav* a click on the page's link in the
    sidebar (what a user does between pages), until its title and its charts are drawn."""
    import signal
    import socket
    import subprocess
    import urllib.request

    from playwright.sync_api import Locator, Page, sync_playwright

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    command = [
        sys.executable, "-m", "streamlit", "run", str(APP), "--server.port", str(port),
        "--server.address", "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false", "--", "--warehouse", str(warehouse),
    ]  # fmt: skip
    server = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    out: dict[str, dict[str, float]] = {}

    def sidebar_link(page: Page, title: str) -> Locator:
        """The page's link in the sidebar, its list opened first where the link is among
        those it folds away ("View 3 more")."""
        link = page.get_by_role("link", name=title, exact=True).first
        more = page.get_by_test_id("stSidebarNavViewButton")
        if not link.is_visible() and more.count():
            more.first.click()
        return link

    def drawn(page: Page, title: str, selector: str, count: int) -> None:
        page.get_by_role("heading", name=title, exact=True).first.wait_for()
        page.locator(selector).nth(count - 1).wait_for()
        page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden")

    try:
        for _ in range(600):
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.2)
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=args)
            page = browser.new_page(viewport={"width": 1400, "height": 1800})
            page.set_default_timeout(600_000)
            page.goto(url)  # the server's first run: connection and marts (startup)
            drawn(page, "Overview", BROWSER_PAGES[0][3], 3)
            for _, path, title, selector, count in BROWSER_PAGES:  # warm the server's caches
                page.goto(f"{url}/{path}")
                drawn(page, title, selector, count)
            for name, path, title, selector, count in BROWSER_PAGES:
                loads, navs = [], []
                for _ in range(repeat):
                    started = time.perf_counter()
                    page.goto(f"{url}/{path}")
                    drawn(page, title, selector, count)
                    loads.append(ms(started))
                    other = "Upload" if name != "upload" else "Overview"
                    sidebar_link(page, other).click()
                    page.get_by_role("heading", name=other, exact=True).first.wait_for()
                    page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden")
                    started = time.perf_counter()
                    sidebar_link(page, title).click()
                    drawn(page, title, selector, count)
                    navs.append(ms(started))
                out[name] = {
                    "load": statistics.median(loads),
                    "nav": statistics.median(navs),
                    "server_rss_mb": resident_mb(server.pid),
                }
                print(
                    f"  {name:16} new tab {out[name]['load']:8.1f} ms   sidebar link {out[name]['nav']:8.1f} ms"
                    f"   server {out[name]['server_rss_mb']:6.0f} MB resident",
                    flush=True,
                )
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--base-deals", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--browser", action="store_true", help="also time the pages in Chromium")
    parser.add_argument(
        "--warehouse", type=Path, default=Path(tempfile.gettempdir()) / "chuanma-bench-dashboard-warehouse"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    prepare(args.warehouse, args.deals, args.base_deals)
    analytics = Analytics(args.warehouse, materialize=False)
    counts = analytics.sql(
        "select (select count(*) from stg_deals) as deals, (select count(*) from stg_events) as events, "
        "(select count(*) from stg_findings) as findings"
    ).iloc[0]
    analytics.close()
    print(
        f"warehouse {args.warehouse}: {int(counts['deals'])} deals, {int(counts['events'])} events, "
        f"{int(counts['findings'])} findings"
    )
    upload = b"\n".join(
        line.encode()
        for line in Tamperer(0.2, seed=9).lines(
            simulate_club(ClubPlan(sessions=1, deals_per_session=40, seed=9))
        )
    )
    startup, pages = apptest_times(args.warehouse, args.repeat, upload)
    print(f"startup (connection + marts materialized + first overview): {startup:.0f} ms")
    browser: dict[str, dict[str, float]] = {}
    if args.browser:
        release(args.warehouse)
        print("in Chromium (server caches warm):")
        browser = browser_times(args.warehouse, args.repeat)
    worst = max(max(v["cold"], v["warm"]) for v in pages.values())
    worst_browser = max((v["nav"] for v in browser.values()), default=0.0)
    print(
        f"worst page: {worst:.0f} ms server-side (cold cache)"
        f"{'' if not browser else f', {worst_browser:.0f} ms in the browser (sidebar link)'}; "
        f"goal < {GOAL_MS:.0f} ms: {'met' if max(worst, worst_browser) < GOAL_MS else 'NOT met'}"
    )
    if browser:
        worst_load = max(v["load"] for v in browser.values())
        print(
            f"worst first visit (new tab): {worst_load:.0f} ms; goal < {FIRST_VISIT_GOAL_MS:.0f} ms: "
            f"{'met' if worst_load < FIRST_VISIT_GOAL_MS else 'NOT met'}"
        )
    if args.json:
        out: dict[str, Any] = {
            "deals": int(counts["deals"]),
            "events": int(counts["events"]),
            "repeat": args.repeat,
            "startup_ms": round(startup, 1),
            "pages_ms": {k: {kind: round(v, 1) for kind, v in times.items()} for k, times in pages.items()},
            "browser_ms": {k: {kind: round(v, 1) for kind, v in t.items()} for k, t in browser.items()},
            "worst_ms": round(max(worst, worst_browser), 1),
            "goal_ms": GOAL_MS,
            "goal_met": max(worst, worst_browser) < GOAL_MS,
        }
        print(json.dumps(out))


if __name__ == "__main__":
    main()
