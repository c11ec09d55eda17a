"""Markdown from the data and the URL is shown as text, and who may
write through the Upload page, through Streamlit's AppTest on a warehouse whose
player names and session and deal ids are markdown."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from analytics.queries import Analytics
from dashboard.safe_text import md, strip_controls
from dashboard.token_guard import GUARD
from dashboard.warehouse_location import UPLOAD_TOKEN_ENV, WAREHOUSE_ENV
from ingest.logs.writer import write_lines
from ingest.simulator.simulate import ClubPlan, simulate_club
from ingest.simulator.tamper import Tamperer
from ingest.warehouse import ingest

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"
EVIL_NAME = "**Bold** [link](https://x.example) ![img](https://x.example/i.png)"
EVIL_PREFIX = "[s](https://x.example)"
URL_DEAL = "[Session expired](https://x.example)"
#: what may never be in markdown sent to the browser: a link or an image made of data
RAW = ("](https://x.example", "**Bold**")


def evil_lines(seed: int) -> Iterator[str]:
    tamperer = Tamperer(1.0, seed=seed, kinds=["kong_payment"])
    for line in tamperer.lines(
        simulate_club(ClubPlan(players=4, sessions=2, deals_per_session=4, seed=seed))
    ):
        try:
            record = json.loads(line)
        except ValueError:
            yield line
            continue
        if "players" in record:
            record["players"][0] = EVIL_NAME
        for key in ("session_id", "deal_id"):
            if key in record:
                record[key] = EVIL_PREFIX + record[key]
        yield json.dumps(record, ensure_ascii=False)


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("evil")
    write_lines(evil_lines(5), folder / "evil.jsonl")
    ingest([folder / "evil.jsonl"], folder / "warehouse", workers=0)
    return folder / "warehouse"


@pytest.fixture
def app(warehouse: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    return AppTest.from_file(APP, default_timeout=60)


def markdown_sent(at: AppTest) -> list[str]:
    """Every markdown string the page rendered (text elements, alerts, headers, captions)."""
    out = []
    for kind in (
        "markdown",
        "caption",
        "header",
        "subheader",
        "title",
        "warning",
        "error",
        "info",
        "success",
    ):
        out += [str(e.value) for e in getattr(at, kind)]
    return out


def assert_no_raw_markdown(at: AppTest) -> list[str]:
    assert not at.exception, [e.value for e in at.exception]
    sent = markdown_sent(at)
    for text in sent:
        for raw in RAW:
            assert raw not in text, text
    return sent


def test_md_escapes_every_markdown_construct() -> None:
    assert md(EVIL_NAME) == (
        r"\*\*Bold\*\* \[link\]\(https\://x\.example\) \!\[img\]\(https\://x\.example/i\.png\)"
    )
    assert md("a\nb") == "a b" and md("Ann") == "Ann" and md("张三") == "张三"
    assert strip_controls("A\x1b[31mnn\x1b]0;t\x07\x9b2J\tb\n") == "Ann\tb\n"


def test_players_page_shows_names_as_text(app: AppTest, warehouse: Path) -> None:
    app.run()
    app.switch_page("app_pages/players.py").run()
    app.selectbox(key="player_choice").set_value(EVIL_NAME).run()
    sent = assert_no_raw_markdown(app)
    assert md(EVIL_NAME) in sent


def test_head_to_head_shows_names_as_text(app: AppTest) -> None:
    app.run()
    app.switch_page("app_pages/head_to_head.py").run()
    app.selectbox(key="h2h_from").set_value(EVIL_NAME).run()
    sent = assert_no_raw_markdown(app)
    assert any(md(EVIL_NAME) in text for text in sent)


def test_replay_shows_ids_names_and_the_url_parameter_as_text(app: AppTest, warehouse: Path) -> None:
    app.run()
    app.query_params["deal"] = URL_DEAL
    app.switch_page("app_pages/replay.py").run()
    sent = assert_no_raw_markdown(app)
    assert any(md(URL_DEAL) in text for text in app.warning.values), sent
    api = Analytics(warehouse)
    deal = str(
        api.sql("select deal_id from stg_deals order by status = 'findings' desc, 1 limit 1")["deal_id"][0]
    )
    api.close()
    fresh = AppTest.from_file(APP, default_timeout=60)
    fresh.run()
    fresh.query_params["deal"] = deal
    fresh.switch_page("app_pages/replay.py").run()
    sent = assert_no_raw_markdown(fresh)
    assert any(md(deal) in text for text in sent)


def test_audit_shows_ids_and_names_as_text(app: AppTest) -> None:
    app.run()
    app.switch_page("app_pages/audit.py").run()
    sent = assert_no_raw_markdown(app)
    assert any(md(EVIL_PREFIX) in text for text in sent)


# ------------------------------------------------------------------ who may write
def upload_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, address: str, token: str | None, given: str | None = None
) -> AppTest:
    """The Upload page with a log dropped on it; with a token set, ``given`` is typed first
    (the file field appears only once the token is right)."""
    log = tmp_path / "log.jsonl"
    write_lines(evil_lines(7), log)
    monkeypatch.setenv(WAREHOUSE_ENV, str(tmp_path / "warehouse"))
    if token is None:
        monkeypatch.delenv(UPLOAD_TOKEN_ENV, raising=False)
    else:
        monkeypatch.setenv(UPLOAD_TOKEN_ENV, token)
    config.set_option("server.address", address)
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/upload.py").run()
    if given is not None:
        at.text_input(key="upload_token").set_value(given).run()
    at.file_uploader[0].set_value(("log.jsonl", log.read_bytes(), "application/octet-stream")).run()
    assert not at.exception
    return at


@pytest.fixture(autouse=True)
def restore_address() -> Iterator[None]:
    """The server address the upload tests set is Streamlit's process-wide option."""
    previous = config.get_option("server.address")
    yield
    config.set_option("server.address", previous)


def stored(tmp_path: Path) -> bool:
    return (tmp_path / "warehouse" / "catalog.json").exists()


def test_upload_is_read_only_beyond_localhost_without_a_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = upload_page(tmp_path, monkeypatch, "0.0.0.0", None)
    assert any("Read-only" in i.value for i in at.info)
    assert at.button(key="upload_ingest").disabled
    assert not stored(tmp_path)
    assert_no_raw_markdown(at)  # the upload's findings and name are text too


def test_upload_token_is_asked_and_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WAREHOUSE_ENV, str(tmp_path / "warehouse"))
    monkeypatch.setenv(UPLOAD_TOKEN_ENV, "s3cret")
    config.set_option("server.address", "0.0.0.0")
    GUARD.clients.clear()
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/upload.py").run()
    at.text_input(key="upload_token").set_value("wrong").run()
    assert any("Wrong token" in e.value for e in at.error)
    assert not at.file_uploader  # no file field before the right token
    GUARD.clients.clear()  # the wrong token's wait (token_guard) is tested apart
    at = upload_page(tmp_path, monkeypatch, "0.0.0.0", "s3cret", given="s3cret")
    at.button(key="upload_ingest").click().run()
    assert not at.exception
    assert stored(tmp_path)


def test_upload_on_localhost_needs_no_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = upload_page(tmp_path, monkeypatch, "localhost", None)
    at.button(key="upload_ingest").click().run()
    assert not at.exception
    assert stored(tmp_path)


def test_a_lost_catalog_is_said_on_every_page(
    warehouse: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    copy = tmp_path / "warehouse"
    shutil.copytree(warehouse, copy)
    (copy / "catalog.json").unlink()
    monkeypatch.setenv(WAREHOUSE_ENV, str(copy))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/players.py").run()
    assert not at.exception
    shown = [e.value for e in at.error]  # a plain message: the file and the repair go to the log
    assert any("chuanma warehouse check" in e for e in shown), shown
    assert not any(str(copy) in e for e in shown), shown
