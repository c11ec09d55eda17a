"""A zip of records, as one body (the API's way to send a folder: a match of several
platform exports, a night's logs): its members read like a folder's files (the same kinds,
``ingest.replay.walk``), a spreadsheet (``.xlsx``, itself a zip) left to the sheet reader.
What the members would inflate to is bounded before any is read (a zip bomb)."""

from __future__ import annotations

import io
import zipfile
from pathlib import PurePosixPath

from ingest.logs.source import Limits
from ingest.platforms.detect import HEAD, platform_of
from ingest.replay.walk import KINDS, LOG_SUFFIXES, PLATFORM_SUFFIX

ZIP_MAGIC = b"PK\x03\x04"
EMPTY_ZIP = b"PK\x05\x06"  # an archive of no member is its end record alone


class ArchiveError(ValueError):
    """A zip that cannot be used: unreadable, too big inflated, or holding no record."""


def is_archive(data: bytes, name: str) -> bool:
    """Whether ``data`` is a zip of records (not a spreadsheet, which is a zip too)."""
    if not data.startswith((ZIP_MAGIC, EMPTY_ZIP)) or name.lower().endswith(".xlsx"):
        return False
    if name.lower().endswith(".zip"):
        return True
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
    except zipfile.BadZipFile:
        return False
    return "[Content_Types].xml" not in names


def archive_members(data: bytes, limits: Limits | None = None) -> list[tuple[str, bytes]]:
    """The records in a zip, by name in a stable order; :class:`ArchiveError` when it is
    unreadable, would inflate past the limit, or holds no record at all."""
    limits = limits or Limits.from_env()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            entries = [
                info for info in archive.infolist()
                if not info.is_dir() and not _hidden(info.filename)
                and info.filename.lower().endswith((*LOG_SUFFIXES, PLATFORM_SUFFIX))
            ]  # fmt: skip
            inflated = sum(info.file_size for info in entries)
            if inflated > limits.max_inflated:
                raise ArchiveError(
                    f"the zip's records inflate to {inflated >> 20} MB, over the limit of "
                    f"{limits.max_inflated >> 20} MB"
                )
            members = [
                (info.filename, archive.read(info)) for info in sorted(entries, key=lambda i: i.filename)
            ]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError) as error:
        raise ArchiveError(f"the zip cannot be read: {error}") from None
    records = [
        (name, body) for name, body in members
        if not name.lower().endswith(PLATFORM_SUFFIX) or platform_of(body[:HEAD]) is not None
    ]  # fmt: skip
    if not records:
        raise ArchiveError(f"the zip holds no record ({KINDS})")
    return records


def _hidden(name: str) -> bool:
    """A member no one meant to send: macOS's ``__MACOSX/`` copies and dot files."""
    parts = PurePosixPath(name).parts
    return any(part.startswith(".") or part == "__MACOSX" for part in parts)
