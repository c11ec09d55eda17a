"""Pause Python's cyclic garbage collector around bulk reading and replaying.

Reading a log builds hundreds of thousands of small lists and tuples that all stay alive
until the read ends, which is exactly what makes the collector's full passes expensive:
each one walks every live container, and they come more often as the heap grows. Nothing
the reader or the replay builds forms a reference cycle, so the collector finds nothing
to free, and its passes were about a quarter of reading time. Reference counting
still frees everything as usual, and the collector is switched back on afterwards (left
off if the caller had it off).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Run the block with the cyclic collector off."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
