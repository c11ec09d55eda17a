"""Tokens on a phone (AppTest, real Streamlit script runs): the club token is asked on the
page, not in a closed sidebar; once accepted it stays in the link, so a bookmark or a
reload opens the club without typing it again; a typo from the club's address never holds
the right token back. The upload token of the Record and Upload pages likewise."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.access import add_grant
from dashboard.token_guard import GUARD
from dashboard.warehouse_location import UPLOAD_TOKEN_ENV, WAREHOUSE_ENV

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"


def fresh(warehouse: Path, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    monkeypatch.setenv(WAREHOUSE_ENV, str(warehouse))
    GUARD.clients.clear()
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in params.items():
        at.query_params[name] = value
    return at


def test_the_club_token_is_asked_on_the_page_and_kept_in_the_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, token = add_grant(tmp_path, "east", "viewer")
    at = fresh(tmp_path, monkeypatch)
    at.run()
    assert [field.label for field in at.text_input] == ["Club token"]  # on the page
    assert not at.sidebar.text_input
    at.text_input(key="access_token").input("wrong-token").run()  # a typo first ...
    assert any("Wrong token" in e.value for e in at.error), [e.value for e in at.error]
    at.text_input(key="access_token").input(token).run()  # ... the right one passes at once
    assert not at.exception and not at.warning, [w.value for w in at.warning]
    assert any("viewer of east" in c.value for c in at.sidebar.caption)
    assert at.query_params["token"] == [token] or at.query_params["token"] == token
    again = fresh(tmp_path, monkeypatch, token=token)  # the bookmarked link, a new session
    again.run()
    assert not again.text_input and not again.exception
    assert any("viewer of east" in c.value for c in again.sidebar.caption)


def test_a_revoked_or_wrong_token_in_the_link_asks_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_grant(tmp_path, "east", "viewer")
    at = fresh(tmp_path, monkeypatch, token="not-a-token")
    at.run()
    assert [field.label for field in at.text_input] == ["Club token"]
    assert any("asks for a club's token" in i.value for i in at.info)


def test_the_upload_token_is_kept_for_the_record_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(UPLOAD_TOKEN_ENV, "s3cret-upload-token")
    at = fresh(tmp_path, monkeypatch, write="s3cret-upload-token")
    at.run()
    at.switch_page("app_pages/record.py").run()
    assert not at.exception
    assert not [f for f in at.text_input if f.key == "record_token"]  # the link's token was taken
    at.switch_page("app_pages/upload.py").run()
    assert not [f for f in at.text_input if f.key == "upload_token"]
    assert at.get("file_uploader")
