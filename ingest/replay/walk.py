"""Which files a list of paths names: files as given, folders searched for ``*.jsonl``,
``*.jsonl.gz``, score sheets (``*.csv``, ``*.xlsx``) and platform records (``*.json``, told by
their content). Nothing is skipped silently: a log-named entry that is not a regular file (a FIFO, a device) and a folder that cannot be listed are returned too, so the reader
turns each into a finding that says why it was not read."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

LOG_SUFFIXES = (".jsonl", ".jsonl.gz", ".csv", ".xlsx")  # the last two: score sheets


def walk_logs(paths: Iterable[str | Path]) -> list[Path]:
    """The log files under ``paths`` in a stable order; FileNotFoundError for a path that
    does not exist."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(_walk(path)))
        elif path.exists() or path.is_symlink():
            found.append(path)
        else:
            raise FileNotFoundError(f"{path}: no such file or folder")
    return found


def _platform_record(path: Path) -> bool:
    """A ``.json`` file in a folder is taken when it is another platform's record (a dcmshi
    export is one JSON document a round); any other ``.json`` stays out, as before."""
    from ingest.platforms.detect import HEAD, platform_of

    try:
        with path.open("rb") as handle:
            return platform_of(handle.read(HEAD)) is not None
    except OSError:
        return False


def _walk(folder: Path) -> list[Path]:
    out: list[Path] = []
    unreadable: list[Path] = []

    def failed(error: OSError) -> None:
        if error.filename:
            unreadable.append(Path(error.filename))

    for where, folders, files in os.walk(folder, onerror=failed):
        folders.sort()
        for name in files:
            if name.endswith(LOG_SUFFIXES) or (
                name.endswith(".json") and _platform_record(Path(where) / name)
            ):
                entry = Path(where) / name
                if entry.is_file() or (entry.exists() and not entry.is_dir()):
                    out.append(entry)
    return out + unreadable
