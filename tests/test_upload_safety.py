"""The Upload and Record pages as a careless network and a hostile visitor meet them: a
torn upload file at its final name is replaced and the deal stored right, "Saved" only
for a deal that went in as recorded, no upload read without the token, wrong tokens
slowed per client (measured) and logged without the token, and no page showing the
warehouse's path, a pid or the host name."""

from __future__ import annotations

import hashlib
import logging
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest
from test_safe_text import markdown_sent

from analytics.queries import Analytics
from dashboard.record_draft import save_deal, upload_path
from dashboard.token_guard import FIRST_WAIT, GUARD, MAX_WAIT, TokenGuard
from dashboard.upload_file import not_stored, saved_path, write_upload
from dashboard.warehouse_location import UPLOAD_TOKEN_ENV, WAREHOUSE_ENV
from ingest.sheets.record import DealFacts, EndFact, KongFact, SessionFacts, WinFact, log_text
from ingest.warehouse import ingest
from ingest.warehouse.lock import WAIT_ENV, IngestLock

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "dashboard" / "app.py"
GOLDEN = ROOT / "tests" / "golden"
EVENING = SessionFacts("club7-2026-11-28-t3", ("Ann", "Bo", "Chen", "Du"), "standard", 1, "club7", "t3")
DEAL = DealFacts(
    "club7-2026-11-28-t3-01",
    0,
    (KongFact(2, "exposed", 1), WinFact(2, None, ("duiduihu",)), WinFact(0, 3, ("qingyise",))),
    EndFact((None, 2, None, None), (3,)),
)


@pytest.fixture(autouse=True)
def fresh_guard() -> Iterator[None]:
    """The token guard and the server address are process-wide: each test starts clean."""
    previous = config.get_option("server.address")
    GUARD.clients.clear()
    yield
    GUARD.clients.clear()
    config.set_option("server.address", previous)


def statuses(warehouse: Path) -> dict[str, str]:
    api = Analytics(warehouse, materialize=False)
    try:
        rows = api.sql("select deal_id, status from stg_deals")
    finally:
        api.close()
    return dict(zip(rows["deal_id"], rows["status"], strict=True))


# ------------------------------------------------------------------ torn uploads
def test_a_torn_record_file_is_replaced_and_the_deal_stored_right(tmp_path: Path) -> None:
    warehouse = tmp_path / "wh"
    text = log_text(EVENING, [DEAL])
    path = upload_path(warehouse, EVENING, DEAL, text)
    path.parent.mkdir(parents=True)
    path.write_bytes(text.encode()[: len(text) // 2])  # a write cut short at the final name
    saved, summary = save_deal(warehouse, EVENING, DEAL)
    assert saved == path and path.read_text(encoding="utf-8") == text
    assert not_stored(summary) is None and summary.stored["ok"] == 1
    assert statuses(warehouse) == {DEAL.deal_id: "ok"}
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left


def test_a_torn_file_ingested_is_not_called_saved(tmp_path: Path) -> None:
    """What "Saved" hangs on: the half file, ingested, is an invalid deal, and not_stored says so."""
    text = log_text(EVENING, [DEAL]).encode()
    half = tmp_path / "half.jsonl"
    half.write_bytes(text[: len(text) * 2 // 3])
    problem = not_stored(ingest([half], tmp_path / "wh", workers=0))
    assert problem is not None and problem.startswith(("invalid", "quarantine")), problem


def test_write_upload_keeps_a_whole_file_and_replaces_a_wrong_one(tmp_path: Path) -> None:
    path = tmp_path / "uploads" / "x.jsonl"
    assert write_upload(path, b"abc\n") is True
    assert write_upload(path, b"abc\n") is False  # the same bytes: kept, not written again
    path.write_bytes(b"ab")
    assert write_upload(path, b"abc\n") is True and path.read_bytes() == b"abc\n"


def test_the_upload_page_replaces_a_torn_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warehouse = tmp_path / "wh"
    data = (GOLDEN / "kong_bloom.jsonl").read_bytes()
    path = saved_path(warehouse, hashlib.sha256(data).hexdigest(), "kong_bloom.jsonl")
    path.parent.mkdir(parents=True)
    path.write_bytes(data[: len(data) // 2])
    at = page(monkeypatch, warehouse, "localhost", None)
    at.file_uploader[0].set_value(("kong_bloom.jsonl", data, "application/octet-stream")).run()
    at.button(key="upload_ingest").click().run()
    assert not at.exception and path.read_bytes() == data
    assert statuses(warehouse) == {"kong-bloom-1": "ok"}
    (report,) = [t.value for t in at.text]  # the ingest's summary, without the folder
    assert "<warehouse>" in report and str(tmp_path) not in report


# ------------------------------------------------------------------ the token first
def page(monkeypatch: pytest.MonkeyPatch, warehouse: Path, address: str, token: str | None) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    if token is None:
        monkeypatch.delenv(UPLOAD_TOKEN_ENV, raising=False)
    else:
        monkeypatch.setenv(UPLOAD_TOKEN_ENV, token)
    config.set_option("server.address", address)
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/upload.py").run()
    assert not at.exception
    return at


def test_without_the_token_no_upload_is_taken_or_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = page(monkeypatch, tmp_path / "wh", "0.0.0.0", "s3cret")
    assert not at.file_uploader  # no field to send a file to
    assert any("upload token first" in i.value for i in at.info)
    at.text_input(key="upload_token").set_value("guess").run()
    assert not at.file_uploader and "upload_report" not in at.session_state
    assert not (tmp_path / "wh").exists()


def test_a_read_only_server_reads_no_big_upload(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = page(monkeypatch, tmp_path / "wh", "0.0.0.0", None)
    one = (GOLDEN / "kong_bloom.jsonl").read_bytes()
    big = one * (5 * 1024 * 1024 // len(one))  # 5 MB, beyond the 4 MB a read-only server reads
    at.file_uploader[0].set_value(("big.jsonl", big, "application/octet-stream")).run()
    assert not at.exception
    assert any("was not read" in e.value for e in at.error)
    assert "upload_report" not in at.session_state and not at.dataframe  # not validated


def test_wrong_tokens_wait_longer_each_time_per_client() -> None:
    now = [1000.0]
    guard = TokenGuard(clock=lambda: now[0])
    waits = [guard.missed("10.0.0.1") for _ in range(12)]
    assert waits[:4] == [FIRST_WAIT, 2 * FIRST_WAIT, 4 * FIRST_WAIT, 8 * FIRST_WAIT]
    assert waits[-1] == MAX_WAIT and waits == sorted(waits)
    assert guard.wait("10.0.0.1") == MAX_WAIT and guard.wait("10.0.0.2") == 0.0  # others unaffected
    now[0] += MAX_WAIT
    assert guard.wait("10.0.0.1") == 0.0
    guard.passed("10.0.0.1")
    assert guard.missed("10.0.0.1") == FIRST_WAIT  # a right token starts the count again


def test_token_guesses_are_slowed_without_blocking_and_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Measured: a tab tries a token as fast as it can for 2 s; only the guesses after
    each wait are compared (1 s, then 2 s: two in all), and no rerun sleeps."""
    at = page(monkeypatch, tmp_path / "wh", "0.0.0.0", "s3cret")
    caplog.set_level(logging.WARNING, logger="chuanma.dashboard.token")
    compared = 0
    slowest = 0.0
    start = time.monotonic()
    guess = 0
    while time.monotonic() - start < 2.0:
        guess += 1
        before = time.monotonic()
        at.text_input(key="upload_token").set_value(f"guess-{guess}").run()
        slowest = max(slowest, time.monotonic() - before)
        compared += any("Wrong token" in e.value for e in at.error)
    waited = [w.value for w in at.warning if "try again in" in w.value]
    assert guess > 4 and compared == 2, (guess, compared)
    assert waited, "the last guesses were refused with the wait"
    assert slowest < FIRST_WAIT, f"a rerun took {slowest:.2f} s: the guard must not sleep"
    logged = [r.getMessage() for r in caplog.records if "wrong upload token" in r.getMessage()]
    assert len(logged) == 2 and all("localhost" in m for m in logged)
    assert not any("guess-" in m for m in logged)  # the token is never logged
    print(f"\nguesses tried in 2 s: {guess}, compared: {compared}, slowest rerun {slowest:.3f} s")


# ------------------------------------------------------------------ plain errors
def test_a_refused_ingest_shows_no_path_pid_or_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    warehouse = tmp_path / "wh"
    warehouse.mkdir()
    at = page(monkeypatch, warehouse, "localhost", None)
    at.file_uploader[0].set_value(("k.jsonl", (GOLDEN / "kong_bloom.jsonl").read_bytes(), "text/plain")).run()
    caplog.set_level(logging.ERROR, logger="chuanma.dashboard")
    monkeypatch.setenv(WAIT_ENV, "0.3")  # the page waits its turn this long, not the default 600 s
    with IngestLock(warehouse):  # another ingest is writing
        at.button(key="upload_ingest").click().run()
    assert not at.exception
    shown = " ".join(e.value for e in at.error)
    assert "warehouse could not be written" in shown
    for secret in (str(tmp_path), str(os.getpid()), socket.gethostname()):
        assert secret not in shown, secret
    assert any(str(warehouse) in r.getMessage() for r in caplog.records)  # the details: the log


def shown_text(at: AppTest) -> str:
    """Every text the page rendered: markdown, alerts, headers, captions, code blocks."""
    return "\n".join([*markdown_sent(at), *(str(e.value) for e in at.code)])


@pytest.mark.parametrize("catalog", ["empty", "lost"])
def test_no_page_shows_the_warehouse_path_to_a_remote_visitor(
    catalog: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server beyond localhost, its warehouse empty (how to load data) or its catalog
    lost (a WarehouseError on every page): no page names the folder, a pid or the host."""
    warehouse = tmp_path / "wh"
    if catalog == "lost":
        ingest([GOLDEN / "kong_bloom.jsonl"], warehouse, workers=0)
        (warehouse / "catalog.json").unlink()
    at = page(monkeypatch, warehouse, "0.0.0.0", "s3cret")
    for name in sorted(p.stem for p in (ROOT / "dashboard" / "app_pages").glob("*.py")):
        at.switch_page(f"app_pages/{name}.py").run()
        assert not at.exception, (name, [e.value for e in at.exception])
        text = shown_text(at)
        for secret in (str(tmp_path), str(os.getpid()), socket.gethostname()):
            assert secret not in text, (name, secret, text)
