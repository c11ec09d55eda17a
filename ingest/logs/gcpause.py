"""Pause Python's cyclic garbage collector around bulk reading and replaying.

Reading a log builds hundreds of thousands of small lists and tuples that all stay alive
until the read ends, which is exactly what makes the collector's full passes expensive:
each one walks every live container, and they come more often as the heap grows. Nothing
the reader or the replay builds forms a reference cycle, so the collector finds nothing
to free, and its passes were about a quarter of reading time. Reference counting
still frees everything as usual, and the collector is switched back on afterwards (left
off if the caller had it off).

Switching it back on is not free by itself: every container made during the pause is
still in the youngest generation, and its count is far past the threshold, so the first
allocation after the pause ran a young collection that walked all of them (a validation's
whole report: 13% of validating a 红中 log). The pause ends by moving them to the oldest
generation instead (``gc.freeze()`` then ``gc.unfreeze()``: two list splices, and the
young count back to 0), where only the next full pass, which would walk them anyway,
looks at them; skipped when the caller holds frozen objects of its own.
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
        if gc.get_freeze_count() == 0:  # never thaw what the caller froze
            gc.freeze()
            gc.unfreeze()
        gc.enable()
