"""Reading a page's tables as a reader sees them: a player's name in a table is a link to
the player's page (``players?player=NAME&...``, dashboard/player_links.py) whose cell holds
the address and shows the name. Tests that check the names read them back from the links
here, in one place, so each still compares names, not addresses."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import parse_qs, urlparse

import pandas as pd  # type: ignore[import-untyped]

#: the column every page's tables put the player's name (and so the link) in
PLAYER_COLUMN = "player"


def link_name(link: object) -> str | None:
    """The name a player link shows (None where the cell holds no link: a missing name)."""
    if link is None or (isinstance(link, float) and pd.isna(link)):
        return None
    url = urlparse(str(link))
    assert url.path == "players", link  # a link to the player page, not a bare name
    found = parse_qs(url.query).get("player")
    assert found, link
    return found[0]


def names(links: Iterable[object]) -> list[str]:
    """The names a column of player links shows, in the table's order (every cell a link)."""
    shown = [link_name(link) for link in links]
    assert None not in shown, shown
    return [name for name in shown if name is not None]


def read_names(table: pd.DataFrame, *columns: str) -> pd.DataFrame:
    """``table`` with the links of ``columns`` (the player's by default) read back to the
    names they show; a cell without a link stays missing."""
    out = table.copy()
    for column in columns or (PLAYER_COLUMN,):
        out[column] = [link_name(link) for link in out[column]]
    return out


def is_player_link(cell: object) -> bool:
    """Whether a table's cell holds a link to a player's page."""
    return isinstance(cell, str) and cell.startswith("players?player=")


def shown(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` as the reader sees it: every player link read back to the name it shows
    (for tests that look through whole tables, whatever column holds the names)."""
    return table.map(lambda cell: link_name(cell) if is_player_link(cell) else cell)
