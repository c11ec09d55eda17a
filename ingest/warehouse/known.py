"""What the warehouse already holds, for ingest to tell new deals from duplicates and
conflicts: every stored ``deal_id`` with its content sha256, and every session id.

Kept compact, so an ingest's memory does not grow with the warehouse: a key is the
16-byte BLAKE2b digest of the id (two different ids share one with a probability of
about n² / 2¹²⁹: 10⁻²⁷ at a million deals), its value the first 16 bytes of the content
sha256, in two sorted NumPy arrays (32 bytes a deal, against ~240 for a ``dict`` of
strings); ids added since the last merge wait in a small ``dict``. A chunk's deals are
looked up with one ``searchsorted``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Final

import numpy as np

_MERGE_EVERY: Final = 1 << 16  # ids added before they join the sorted arrays
_KEY: Final = "S16"


def digest(text: str) -> bytes:
    """The key of an id: 16 bytes of BLAKE2b (any string, even one with lone surrogates)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def content_key(sha256: str) -> bytes:
    """The stored value of a content sha256: its first 16 bytes (a digest of anything else)."""
    try:
        return bytes.fromhex(sha256[:32]).ljust(16, b"\0")
    except ValueError:
        return digest(sha256)


class KnownIds:
    """A set of ids with a 16-byte value each (``b""`` when there is none)."""

    def __init__(self, ids: Iterable[str] = (), values: Iterable[str] | None = None) -> None:
        self._keys = np.empty(0, dtype=_KEY)
        self._values = np.empty(0, dtype=_KEY)
        self._recent: dict[bytes, bytes] = {}
        if values is None:
            for text in ids:
                self.add(text)
        else:
            for text, value in zip(ids, values, strict=True):
                self.add(text, value)
        self._merge()

    def __len__(self) -> int:
        return len(self._keys) + len(self._recent)

    def add(self, text: str, value: str | None = None) -> None:
        """Record an id (and its content sha256) unless it is recorded already."""
        self._recent.setdefault(digest(text), content_key(value) if value else b"")
        if len(self._recent) >= _MERGE_EVERY:
            self._merge()

    def lookup(self, ids: Sequence[str]) -> list[bytes | None]:
        """For each id, its recorded value (16 bytes; ``b""`` or zeros for an id without
        one) or None when it is new; ids added between lookups are seen by the next one."""
        keys = [digest(text) for text in ids]
        found: list[bytes | None] = [self._recent.get(key) for key in keys]
        if len(self._keys) and keys:
            wanted = np.array(keys, dtype=_KEY)
            at = np.minimum(np.searchsorted(self._keys, wanted), len(self._keys) - 1)
            hits = np.flatnonzero(self._keys[at] == wanted)
            for i in hits.tolist():  # NumPy drops an S16 value's trailing zero bytes
                found[i] = bytes(self._values[at[i]]).ljust(16, b"\0")
        return found

    def _merge(self) -> None:
        if not self._recent:
            return
        keys = np.concatenate([self._keys, np.array(list(self._recent), dtype=_KEY)])
        values = np.concatenate([self._values, np.array(list(self._recent.values()), dtype=_KEY)])
        order = np.argsort(keys, kind="stable")
        self._keys, self._values = keys[order], values[order]
        self._recent = {}
