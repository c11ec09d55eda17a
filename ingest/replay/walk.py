"""Which files a list of paths names: files as given, folders searched for every kind of
record chuanma reads (``*.jsonl``, ``*.jsonl.gz``, score sheets ``*.csv``/``*.xlsx``, and a
platform's ``*.json`` export, told by its first bytes). Nothing is skipped silently: a
log-named entry that is not a regular file (a FIFO, a device) and a folder that cannot be
listed are returned too, so the reader turns each into a finding that says why it was not
read. Paths that name no record at all are an error, never an empty (clean) report."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ingest.platforms.detect import HEAD, platform_of

LOG_SUFFIXES = (".jsonl", ".jsonl.gz", ".csv", ".xlsx")  # the last two: score sheets
#: a folder's ``.json`` files are read when they open as a platform's record (a settings
#: or notes file beside the exports is no record)
PLATFORM_SUFFIX = ".json"
KINDS = ".jsonl, .jsonl.gz, .csv, .xlsx or a platform's .json export"


class NothingToRead(FileNotFoundError):
    """The paths hold no record: reading them would report nothing, which is not clean."""


def walk_logs(paths: Iterable[str | Path]) -> list[Path]:
    """The record files under ``paths`` in a stable order; FileNotFoundError for a path that
    does not exist, :class:`NothingToRead` when the paths hold no record at all."""
    found: list[Path] = []
    given: list[Path] = []
    for raw in paths:
        path = Path(raw)
        given.append(path)
        if path.is_dir():
            found.extend(sorted(_walk(path)))
        elif path.exists() or path.is_symlink():
            found.append(path)
        else:
            raise FileNotFoundError(f"{path}: no such file or folder")
    if not found:
        where = ", ".join(str(p) for p in given) or "no path given"
        raise NothingToRead(f"{where}: no record to read (a folder is searched for {KINDS})")
    return found


def _walk(folder: Path) -> list[Path]:
    out: list[Path] = []
    unreadable: list[Path] = []

    def failed(error: OSError) -> None:
        if error.filename:
            unreadable.append(Path(error.filename))

    for where, folders, files in os.walk(folder, onerror=failed):
        folders.sort()
        for name in files:
            entry = Path(where) / name
            if name.endswith(LOG_SUFFIXES):
                if entry.is_file() or (entry.exists() and not entry.is_dir()):
                    out.append(entry)
            elif name.endswith(PLATFORM_SUFFIX) and _is_platform_record(entry):
                out.append(entry)
    return out + unreadable


def _is_platform_record(path: Path) -> bool:
    """Whether a ``.json`` file opens as a platform's record (one that cannot be opened is
    handed on, for the reader to say why)."""
    if not path.is_file():
        return path.exists() and not path.is_dir()
    try:
        with path.open("rb") as handle:
            head = handle.read(HEAD)
    except OSError:
        return True
    return platform_of(head) is not None
