"""Tell a platform record by its content (not its name) and read it as a log.

A chuanma log is JSON Lines; a platform record is one JSON document. Only a file whose
first bytes open a JSON object (or, for a platform whose export may list several, an
array) naming all of a platform's top-level keys is parsed whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from ingest.logs.builder import LogFile

#: a platform's name, the keys its record's first bytes hold (any for open_mahjong, all
#: for dcmshi: "seed" alone is too common), and whether a JSON array of records is one
SIGNATURES: Final[tuple[tuple[str, tuple[bytes, ...], bool, bool], ...]] = (
    ("open_mahjong", (b'"game_title"', b'"game_round"'), False, False),
    ("dcmshi", (b'"actionLog"', b'"seed"'), True, True),
)
HEAD: Final = 1 << 16  # where the signature keys must appear


def platform_of(data: bytes) -> str | None:
    """The platform whose record ``data`` is, or None for anything else (a chuanma log)."""
    head = data[:HEAD].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith((b"{", b"[")):
        return None
    for name, keys, every, listed in SIGNATURES:
        if head.startswith(b"[") and not listed:
            continue
        found = all(key in head for key in keys) if every else any(key in head for key in keys)
        if found and b'"type"' not in head[:200]:
            return name
    return None


def read_platform_bytes(data: bytes, name: str) -> LogFile | None:
    """A platform record read as a log (None when ``data`` is no platform record)."""
    platform = platform_of(data)
    if platform == "open_mahjong":
        from ingest.platforms.open_mahjong import read_open_mahjong

        return read_open_mahjong(data, name)
    if platform == "dcmshi":
        from ingest.platforms.dcmshi import read_dcmshi

        return read_dcmshi(data, name)
    return None
