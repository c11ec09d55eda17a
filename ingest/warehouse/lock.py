"""One writer at a time: an ``flock`` the kernel drops when its process dies, so a dead
writer's lock never blocks the next one.

Writers wait their turn: a page saving a deal, an upload, a CLI ingest and a compaction
may all start at the same moment, and each takes the lock when the one before lets go.
The wait is bounded (:data:`DEFAULT_WAIT`); only past it does a writer give up with
:class:`WarehouseLocked`, naming the holder."""

from __future__ import annotations

import fcntl
import json
import os
import random
import socket
import time
from pathlib import Path
from typing import Final

from ingest.warehouse.catalog import LOCK, WarehouseError, utc_now

#: seconds a writer waits for the lock by default: a CLI ingest of a club's season (a few
#: minutes on this machine for 100,000 deals) must not make a save at the table fail, and a
#: writer that waits longer than this is more likely stuck behind something wrong than busy
DEFAULT_WAIT: Final = 600.0
#: the environment variable that sets another default wait (seconds), for a server whose
#: pages should give up sooner, or a test
WAIT_ENV: Final = "CHUANMA_WRITE_WAIT"
#: how often a waiting writer tries the lock again (seconds; a little random, so waiting
#: writers do not try in step)
POLL: Final = (0.02, 0.05)


def default_wait() -> float:
    """:data:`DEFAULT_WAIT`, or the seconds ``CHUANMA_WRITE_WAIT`` gives."""
    try:
        return max(0.0, float(os.environ.get(WAIT_ENV) or DEFAULT_WAIT))
    except ValueError:
        return DEFAULT_WAIT


class WarehouseLocked(WarehouseError):
    """Another writer held the warehouse's lock for longer than this one would wait."""


class IngestLock:
    """One writer at a time: an exclusive ``flock`` on ``ingest.lock``, which also names
    the holder's pid and start time for the message a writer that gives up prints.

    ``wait``: seconds to wait for the lock (0: give up at once; None: :func:`default_wait`)."""

    def __init__(self, root: Path, wait: float | None = None) -> None:
        self.path = root / LOCK
        self.wait = max(0.0, default_wait() if wait is None else wait)
        self.fd: int | None = None
        self.waited = 0.0  # seconds this writer waited for its turn

    def __enter__(self) -> IngestLock:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        began = time.monotonic()
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                waited = time.monotonic() - began
                if waited >= self.wait:
                    holder = self._holder(fd)
                    os.close(fd)
                    raise WarehouseLocked(
                        f"another ingest is writing to {self.path.parent} ({holder}); "
                        f"waited {waited:.0f} s for it (--wait); wait for it to finish, then run this one again"
                    ) from None
                time.sleep(min(random.uniform(*POLL), max(0.0, self.wait - waited)))
        self.waited = time.monotonic() - began
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
