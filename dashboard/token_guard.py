"""Wrong upload tokens are slowed down per client, with a growing delay, and logged.

A client is its address (``st.context.ip_address``; a visitor at this machine is
``localhost``): a reopened tab is a new Streamlit session but the same address, so the
count survives it. After each wrong token the client must wait before its next token is
even compared: 1 s, 2 s, 4 s ... up to :data:`MAX_WAIT` (a right token clears the
count). The wait is a time stamp, never a ``time.sleep`` in the script thread, so a
guessing client ties up no one else. Each wrong token is logged with the client and the
time; the token itself never is. The counts live in this process, shared by every
session, behind a lock (Streamlit runs each session's script in its own thread)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger("chuanma.dashboard.token")

FIRST_WAIT = 1.0  # seconds after the first wrong token
MAX_WAIT = 300.0  # the longest wait, reached after the 9th wrong token in a row
FORGET_AFTER = 3600.0  # a client quiet this long starts again from nothing


@dataclass
class Misses:
    count: int = 0
    last: float = 0.0  # when the last wrong token came
    until: float = 0.0  # no token of this client is compared before then


@dataclass
class TokenGuard:
    """Per-client counts of wrong tokens and the time each client may try again."""

    clock: Callable[[], float] = time.monotonic
    clients: dict[str, Misses] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def wait(self, client: str) -> float:
        """Seconds this client must still wait before a token of theirs is compared (0: none)."""
        with self.lock:
            misses = self.clients.get(client)
            return max(0.0, misses.until - self.clock()) if misses is not None else 0.0

    def missed(self, client: str) -> float:
        """Count a wrong token of ``client``, log it, and return the wait it earns."""
        now = self.clock()
        with self.lock:
            misses = self.clients.setdefault(client, Misses())
            if now - misses.last > FORGET_AFTER:
                misses.count = 0
            misses.count += 1
            misses.last = now
            delay = min(MAX_WAIT, FIRST_WAIT * 2.0 ** min(misses.count - 1, 30))
            misses.until = now + delay
            count = misses.count
            self._forget_quiet(now)
        log.warning(
            "wrong upload token from %s at %s (%d in a row); its next try in %.0f s",
            client, time.strftime("%Y-%m-%dT%H:%M:%S%z"), count, delay,
        )  # fmt: skip
        return delay

    def passed(self, client: str) -> None:
        """A right token: the client's count starts again."""
        with self.lock:
            self.clients.pop(client, None)

    def _forget_quiet(self, now: float) -> None:
        """Drop clients quiet for :data:`FORGET_AFTER` (the map stays small under a scan)."""
        if len(self.clients) > 1000:
            for client in [c for c, m in self.clients.items() if now - m.last > FORGET_AFTER]:
                del self.clients[client]


#: the process's one guard, shared by every session and page that asks for the token
GUARD = TokenGuard()
