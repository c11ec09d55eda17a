"""What one API server holds: its warehouse, one analytics connection shared by every
request (refreshed to the latest batch before each read, as the pages do), and who may
write."""

from __future__ import annotations

import hmac
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from analytics.queries import Analytics
from dashboard.api.errors import ApiError
from dashboard.token_guard import TokenGuard

LOCAL = frozenset({"localhost", "127.0.0.1", "::1"})


@dataclass
class ApiState:
    """``token``: writes need ``Authorization: Bearer <token>``; without one, writing is
    open only while the server listens on localhost (the Upload page's rule)."""

    warehouse: Path
    address: str = "localhost"
    token: str | None = None
    max_body: int = 64 << 20  # bytes of a request body
    guard: TokenGuard = field(default_factory=TokenGuard)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _analytics: Analytics | None = None

    @contextmanager
    def reading(self) -> Iterator[Analytics]:
        """The warehouse as of its latest batch; one request at a time (a DuckDB connection
        and its refresh are not shared across threads)."""
        with self._lock:
            if self._analytics is None:
                self._analytics = Analytics(self.warehouse)
            self._analytics.refresh()
            yield self._analytics

    def check_write(self, authorization: str | None, client: str) -> None:
        """Raise the :class:`ApiError` that refuses this write, if any. Wrong tokens are
        slowed per client (:mod:`dashboard.token_guard`) and logged."""
        if self.token is None:
            if self.address not in LOCAL:
                raise ApiError("forbidden", "writing is closed: this server listens beyond localhost "
                               "without a token (start it with --token)")  # fmt: skip
            return
        wait = self.guard.wait(client)
        if wait > 0:
            raise ApiError("too_many_tries", f"too many wrong tokens: try again in {wait:.0f} s",
                           headers={"Retry-After": str(int(wait) + 1)})  # fmt: skip
        given = (authorization or "").removeprefix("Bearer ").strip()
        if given and hmac.compare_digest(given.encode(), self.token.encode()):
            self.guard.passed(client)
            return
        if given:
            self.guard.missed(client)
        raise ApiError("unauthorized", "this server asks for a token: Authorization: Bearer <token>")

    def close(self) -> None:
        with self._lock:
            if self._analytics is not None:
                self._analytics.close()
                self._analytics = None
