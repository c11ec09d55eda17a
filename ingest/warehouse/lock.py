"""One ingest writes at a time: an ``flock`` the kernel drops when its process dies, so a
dead ingest's lock never blocks the next one."""

from __future__ import annotations

import fcntl
import json
import os
import socket
from pathlib import Path

from ingest.warehouse.catalog import LOCK, WarehouseError, utc_now


class WarehouseLocked(WarehouseError):
    """Another ingest holds the warehouse's lock."""


class IngestLock:
    """One writer at a time: an exclusive ``flock`` on ``ingest.lock``, which also names
    the holder's pid and start time for the message another ingest prints."""

    def __init__(self, root: Path) -> None:
        self.path = root / LOCK
        self.fd: int | None = None

    def __enter__(self) -> IngestLock:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = self._holder(fd)
            os.close(fd)
            raise WarehouseLocked(
                f"another ingest is writing to {self.path.parent} ({holder}); "
                "wait for it to finish, then run this one again"
            ) from None
        os.ftruncate(fd, 0)
        info = {"pid": os.getpid(), "host": socket.gethostname(), "started": utc_now()}
        os.write(fd, json.dumps(info).encode())
        self.fd = fd
        return self

    @staticmethod
    def _holder(fd: int) -> str:
        try:
            info = json.loads(os.pread(fd, 4096, 0) or b"{}")
        except ValueError:
            return "holder unknown"
        return f"pid {info.get('pid', '?')} on {info.get('host', '?')}, since {info.get('started', '?')}"

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.ftruncate(self.fd, 0)
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None
