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
from dashboard.access import AccessError, Grant, active, grant_of, load_grants
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

    def caller(self, authorization: str | None, client: str, role: str) -> Grant | None:
        """The grant a request acts under, or the :class:`ApiError` that refuses it.

        With the access file's tokens (``dashboard/access.py``) every request but the
        health check needs one allowing ``role``, and reads only its club (the grant is
        returned). Without them, as before tokens per club: reads are open; writes need
        ``--token`` if one was given, else a server on localhost (None is returned: every
        club). Wrong tokens are slowed per client and logged (``dashboard/token_guard.py``)."""
        grants = self.grants()
        if not active(grants) and (role == "viewer" or (self.token is None and self.address in LOCAL)):
            return None
        if not active(grants) and self.token is None:
            raise ApiError("forbidden", "writing is closed: this server listens beyond localhost "
                           "without a token (start it with --token, or add tokens: chuanma access add)")  # fmt: skip
        given = (authorization or "").removeprefix("Bearer ").strip()
        if not given:
            raise ApiError("unauthorized", "this server asks for a token: Authorization: Bearer <token>")
        # A right token always passes: one typo at a club's Wi-Fi (one address) must not
        # lock out everyone there. Wrong ones wait: a guesser is held, and with 32 random
        # bytes a token, no guess is ever right.
        if self.token is not None and hmac.compare_digest(given.encode(), self.token.encode()):
            self.guard.passed(client)
            return None  # the server's own token: every club
        grant = grant_of(grants, given)
        if grant is None:
            wait = self.guard.wait(client)
            if wait > 0:
                raise ApiError("too_many_tries", f"too many wrong tokens: try again in {wait:.0f} s",
                               headers={"Retry-After": str(int(wait) + 1)})  # fmt: skip
            self.guard.missed(client)
            raise ApiError("unauthorized", "this token is not known here (wrong, or revoked)")
        self.guard.passed(client)
        if not grant.allows(role):
            raise ApiError("forbidden", f"a {grant.role}'s token cannot do this (it needs a {role}'s)")
        return grant

    def grants(self) -> list[Grant]:
        try:
            return load_grants(self.warehouse)
        except AccessError as error:  # a damaged file must not open what it guarded
            raise ApiError("internal", "the access file cannot be read: the server's log says why") from error

    def close(self) -> None:
        with self._lock:
            if self._analytics is not None:
                self._analytics.close()
                self._analytics = None
