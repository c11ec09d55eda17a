"""The per-suit table behind :mod:`engine.shanten`: for every count vector of one suit (its
base-5 key, as in :mod:`engine.shapes`), how many tiles it lacks to become ``j`` sets and
``p`` pairs (``j`` 0-4, ``p`` 0-1), tiles it holds beyond them thrown away.

That is the distance to the nearest complete shape, ``min over T of sum(max(0, T[r] -
h[r]))`` over every target ``T`` of ``j`` sets (triplets or runs) and ``p`` pairs with at
most ``cap`` copies of a rank (4: a seat cannot draw a fifth copy; more for a hand holding
红中, which may stand for a fifth). A hand's shanten adds the suits' distances
(:mod:`engine.shanten`), so it is exact where the usual block count is not (a kind the
hand holds four of is no tile it can wait on).

The table is built once per process with numpy, rank by rank from 9 down to 1 over every
key at once (about a second), the state being the runs still open from the two ranks
below. It is kept as one ``bytes`` of ``5**9 * 10`` entries (index ``key * 10 + 2 * j +
p``) so that a look-up from plain Python is one index. Not compiled (numpy does the work).
"""

from __future__ import annotations

from typing import Any

#: sets and pairs a suit may hold in a target: j 0-4, p 0-1
MAX_SETS = 4
WIDTH = 2 * (MAX_SETS + 1)
#: "no target": above any real distance, within a byte
UNREACHABLE = 99

_TABLES: dict[int, bytes] = {}


def suit_table(cap: int = 4) -> bytes:
    """The table for targets of at most ``cap`` copies a rank (built on first use)."""
    table = _TABLES.get(cap)
    if table is None:
        table = _TABLES[cap] = _build(cap)
    return table


def _build(cap: int) -> bytes:
    import numpy as np

    inf = UNREACHABLE
    # states: (x, y) = runs started at the rank before (they need this rank and the next) and
    # two ranks before (they need this rank only); x + y <= 4 (at most four sets). Rank 1
    # (index 0) is reached in state (0, 0) only, rank 2 in (x, 0): the big arrays hold those.
    every = [(x, y) for x in range(5) for y in range(5) if x + y <= MAX_SETS]

    def reachable(rank: int) -> list[tuple[int, int]]:
        return [(0, 0)] if rank == 0 else [(x, 0) for x in range(5)] if rank == 1 else every

    sets = MAX_SETS + 1
    # after the ninth rank: only the empty state, j = p = 0, costs nothing. Layout (state,
    # j, p, suffix key) keeps each slab contiguous; uint8 sums never pass 255 (99 + 9 * 9)
    child_states = {state: i for i, state in enumerate(every)}
    child: Any = np.full((len(every), sets, 2, 1), inf, dtype=np.uint8)
    child[child_states[(0, 0)], 0, 0, 0] = 0
    held: Any = np.arange(5, dtype=np.int16)
    for rank in range(8, -1, -1):
        rest = 5 ** (8 - rank)
        states = reachable(rank)
        here: Any = np.full((len(states), sets, 2, rest, 5), inf, dtype=np.uint8)
        for s, (x, y) in enumerate(states):
            for a in range(1 if rank >= 7 else 5):  # a run starting here needs two ranks above
                nxt = child_states.get((a, x))
                if nxt is None:
                    continue
                for t in (0, 1):
                    for q in (0, 1):
                        used = x + y + a + 3 * t + 2 * q
                        if used > cap:
                            continue
                        added = a + t
                        miss: Any = np.maximum(used - held, 0).astype(np.uint8)
                        for p in range(2 - q):
                            for j in range(sets - added):
                                cost = child[nxt, j, p][:, None] + miss[None, :]  # (rest, 5)
                                view = here[s, j + added, p + q]
                                np.minimum(view, cost, out=view)
        child = here.reshape(len(states), sets, 2, rest * 5)
        child_states = {state: i for i, state in enumerate(states)}
    table = np.minimum(child[child_states[(0, 0)]], inf)  # (j, p, key)
    return bytes(np.ascontiguousarray(table.transpose(2, 0, 1)).tobytes())
