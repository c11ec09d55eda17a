"""ingest.logs.gcpause: the collector off inside, back on after, and no young pass left
owed for what the block made (nor a caller's frozen objects thawed)."""

from __future__ import annotations

import gc

from ingest.logs.gcpause import gc_paused


def test_paused_inside_and_back_on_after() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        kept = [[i] for i in range(50_000)]  # containers past any young threshold
        assert gc.get_count()[0] > gc.get_threshold()[0]
    assert gc.isenabled()
    assert gc.get_count()[0] < gc.get_threshold()[0]  # nothing owed: the block's objects are old
    assert len(kept) == 50_000


def test_left_off_when_the_caller_had_it_off() -> None:
    gc.disable()
    try:
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_callers_frozen_objects_stay_frozen() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with gc_paused():
            _ = [[i] for i in range(1_000)]
        assert gc.get_freeze_count() == frozen
        assert gc.isenabled()
    finally:
        gc.unfreeze()
