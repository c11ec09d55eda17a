"""Tell a platform record by its content (not its name) and read it as a log.

A chuanma log is JSON Lines; a platform record is one JSON document. Only a file whose
first bytes open a JSON object naming a platform's top-level keys is parsed whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from ingest.reader import LogFile

#: a platform's name and the keys its record's first bytes hold (data over code)
SIGNATURES: Final[tuple[tuple[str, tuple[bytes, ...]], ...]] = (
    ("open_mahjong", (b'"game_title"', b'"game_round"')),
)
HEAD: Final = 1 << 16  # where the signature keys must appear


def platform_of(data: bytes) -> str | None:
    """The platform whose record ``data`` is, or None for anything else (a chuanma log)."""
    head = data[:HEAD].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"{"):
        return None
    for name, keys in SIGNATURES:
        if any(key in head for key in keys) and b'"type"' not in head[:200]:
            return name
    return None


def read_platform_bytes(data: bytes, name: str) -> LogFile | None:
    """A platform record read as a log (None when ``data`` is no platform record)."""
    platform = platform_of(data)
    if platform == "open_mahjong":
        from ingest.platforms.open_mahjong import read_open_mahjong

        return read_open_mahjong(data, name)
    return None
