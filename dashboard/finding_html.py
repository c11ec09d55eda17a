"""A finding's explanation as HTML, its tiles drawn as the page draws tiles.

Where a page shows a finding as its own block (the Audit page's explained cards, the
Replay page's findings), a tile in it is a tile face (:func:`dashboard.tiles_view.tile_html`,
small), as the hands beside it are drawn; a table cell keeps the text form ("5万"), which
a dataframe can show. The text is rendered from the finding's template in a voice whose
tiles are marks no text can hold (private-use characters), the whole HTML-escaped, and only
then each mark becomes its face: nothing from the data (a player's name, a deal id) is ever
read as HTML.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any, Final

from dashboard.findings_view import finding_text, named_voice, row_voice
from dashboard.i18n import Lang
from dashboard.tiles_view import tile_html
from engine.events import Finding
from engine.tiles import TileError, parse_tile
from engine.voice import Voice

_OPEN: Final = "\ue000"
_CLOSE: Final = "\ue001"


def _mark(name: str, lang: Lang) -> str:
    """A tile as a mark the escaped text keeps, to be drawn after escaping."""
    return f"{_OPEN}{name}{_CLOSE}"


def _face(name: str) -> str:
    try:
        return tile_html(parse_tile(name, wild=True), small=True)
    except (TileError, ValueError):
        return name  # already escaped with the text: a name that is no tile ("?") as it is


def drawn(text: str) -> str:
    """``text`` (tiles as marks) HTML-escaped, each mark a tile face; a stray mark left out."""
    out = []
    for part in escape(text).split(_OPEN):
        name, closed, rest = part.partition(_CLOSE)
        out.append(_face(name) + rest if closed else part)
    return "".join(out).replace(_CLOSE, "")


class _Tiles(Voice):
    """The default voice (no players to name) with its tiles as marks."""

    def tile(self, name: str, lang: Lang) -> str:
        return _mark(name, lang)


_TILES: Final = _Tiles()


def row_html(row: Mapping[str, Any], lang: Lang) -> str:
    """A stored finding's explanation (:func:`dashboard.findings_view.row_text`) as HTML."""
    return drawn(
        finding_text(
            row.get("message"), row.get("message_zh"), row.get("message_key"), row.get("message_values"),
            lang, row_voice(row, _mark) or _TILES,
        )
    )  # fmt: skip


def finding_html(
    finding: Finding | Any, lang: Lang, players: Sequence[str | None] = (), first: int = 0
) -> str:
    """A finding the page holds (its message, key and values) as HTML, ``players`` by name."""
    voice = (named_voice(list(players), first, _mark) if players else None) or _TILES
    text = finding_text(
        finding.message, finding.message_zh, finding.message_key, finding.message_values, lang, voice
    )
    return drawn(text)
