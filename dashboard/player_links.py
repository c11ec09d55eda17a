"""Every player's name on every page is a link to their page: ``players?player=NAME`` (the
name first, so a table's link column shows the name alone), with the language, the filters
(the club among them: players are per club) and the club's access token when the page was
opened with one. A table's link opens a new browser tab, a new session of the app: without
the token in the link, a club's member would be asked for it again."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final
from urllib.parse import urlencode

import pandas as pd  # type: ignore[import-untyped]
import streamlit as st

from dashboard import access_gate, page_kit
from dashboard.safe_text import md

PLAYERS_PATH: Final = "players"
PLAYER_PARAM: Final = "player"
#: the name in a :func:`player_url`, for ``LinkColumn(display_text=...)`` (the browser
#: shows it decoded: 刘洋, not %E5%88%98%E6%B4%8B)
PLAYER_TEXT: Final = r"players\?player=([^&]*)"


def link_params() -> dict[str, str]:
    """The language, the filters and the club token this page was opened with."""
    params = page_kit.shared_params()
    token = st.session_state.get(access_gate.KEPT_KEY)
    if token:
        params[access_gate.PARAM] = str(token)
    return params


def player_params(name: str, club: str | None = None) -> dict[str, str]:
    """The player page's parameters for ``name`` (of ``club`` when the page knows it)."""
    params = {PLAYER_PARAM: name, **link_params()}
    if club:
        params[page_kit.URL_CLUB] = club
    return params


def player_url(name: str, club: str | None = None) -> str:
    """The player page's address for ``name``, relative to the app's pages (for tables)."""
    return f"{PLAYERS_PATH}?{urlencode(player_params(name, club))}"


def player_column(title: str, **options: Any) -> Any:
    """A table column of :func:`player_url` links showing the names."""
    return st.column_config.LinkColumn(title, display_text=PLAYER_TEXT, **options)


def linked(
    frame: pd.DataFrame, columns: Iterable[str] = ("player",), club: str | None = None
) -> pd.DataFrame:
    """``frame`` with the names of ``columns`` as :func:`player_url` links (a missing name,
    or the "–" :func:`page_kit.blanks` put there, stays missing); shown with :func:`player_column`."""
    out = frame.copy()
    for column in columns:
        out[column] = [
            None if page_kit.plain(name) in (None, page_kit.MISSING) else player_url(str(name), club)
            for name in out[column]
        ]
    return out


def player_link(name: str, club: str | None = None) -> None:
    """A name outside a table: a link to the player's page in this tab."""
    st.page_link(
        page_kit.PAGES["players"],
        label=md(name),
        icon=":material/person:",
        query_params=player_params(name, club),
    )


def player_md(name: str, club: str | None = None) -> str:
    """A name in Markdown text: ``[name](players?player=...)`` (the name escaped)."""
    return f"[{md(name)}]({player_url(name, club)})"
