"""A file handed in, read by its content into sessions and deals: a platform's record
(told by its first bytes), a score sheet (``.csv``/``.xlsx``), or else a log
(docs/log-format.md). Every file to replay, validate or store is read here."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.messages import say
from ingest.logs.builder import LogFile, SessionLog, file_finding
from ingest.logs.reader import read_jsonl_bytes
from ingest.logs.source import Limits, file_name, read_head
from ingest.platforms.detect import read_platform_bytes

__all__ = ["read_log", "read_log_bytes"]


def read_log_bytes(
    data: bytes,
    name: str,
    limits: Limits | None = None,
    fast: bool = True,
    on_session: Callable[[SessionLog], None] | None = None,
) -> LogFile:
    """Read a whole file's bytes, e.g. an upload: a platform's record or a score sheet
    converted, anything else a log (:func:`ingest.logs.reader.read_jsonl_bytes`, with
    ``limits`` and ``fast``). ``on_session`` takes each session as soon as it is read to
    its end (the ``LogFile`` returned then holds none)."""
    log = read_platform_bytes(data, name)  # a platform's record, told by its content
    if log is None and name.lower().endswith((".csv", ".xlsx")):
        from ingest.sheets.convert import read_sheet_bytes  # loaded for a sheet only: a quicker start

        log = read_sheet_bytes(data, name)
    if log is None:
        return read_jsonl_bytes(data, name, limits, fast, on_session)
    if on_session is not None:
        for session in log.sessions:
            on_session(session)
        log.sessions = []
    return log


def read_log(path: str | Path, on_session: Callable[[SessionLog], None] | None = None) -> LogFile:
    """Read a ``.jsonl``, ``.jsonl.gz``, ``.csv`` or ``.xlsx`` file; a file that cannot be
    opened is a finding. ``on_session``: as in :func:`read_log_bytes`."""
    name = file_name(path)
    try:
        data = read_head(path, Limits.from_env().max_inflated + 1)
    except OSError as err:
        text = say("read_cannot_open", file=name, error=str(err.strerror or err))
        return LogFile(name, [], [], [file_finding(text, name)])
    return read_log_bytes(data, name, on_session=on_session)
