"""Per-suit lookup tables: win shapes and waits as dictionary look-ups, not searches.

A suit's nine counts form one base-5 key (``sum(count[r] * 5**r)``). Every count vector
that splits into sets (triplets or runs) plus at most one pair is enumerated once at
import (a few tens of ms); its flags say which readings exist. A concealed hand is a
regular win when every suit's key is in the table and the tile total is 2 mod 3, which
leaves exactly one suit holding the pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

POW5: Final[tuple[int, ...]] = tuple(5**rank for rank in range(9))

#: some reading of the suit uses triplets only (plus the pair): 对对胡
ALL_TRIPLETS: Final = 1
#: some reading has a 1 or a 9 in every set and in the pair: 带幺九
ALL_TERMINAL: Final = 2


def _sets() -> list[tuple[int, int, bool, bool]]:
    """Every set of one suit as (its key, its lowest rank, is a triplet, holds a 1 or 9)."""
    triplets = [(3 * POW5[rank], rank, True, rank in (0, 8)) for rank in range(9)]
    runs = [(POW5[rank] + POW5[rank + 1] + POW5[rank + 2], rank, False, rank in (0, 6)) for rank in range(7)]
    return triplets + runs


def _build() -> tuple[dict[int, int], dict[int, int]]:
    """Both tables, on integer keys (a set fits when no rank goes above 4 copies); built at
    import, so every command pays for it: no tuples, one digit list per node."""
    sets = _sets()
    flags: dict[int, int] = {}
    # Depth-first over multisets of 0-4 sets (non-decreasing index), never above 4 copies.
    stack: list[tuple[int, int, int, int]] = [(0, 0, 0, ALL_TRIPLETS | ALL_TERMINAL)]
    while stack:
        key, start, depth, bits = stack.pop()
        flags[key] = flags.get(key, 0) | bits
        digits = [(key // POW5[rank]) % 5 for rank in range(9)]
        for rank in range(9):
            if digits[rank] <= 2:
                pair_bits = bits if rank in (0, 8) else bits & ~ALL_TERMINAL
                pair_key = key + 2 * POW5[rank]
                flags[pair_key] = flags.get(pair_key, 0) | pair_bits
        if depth == 4:
            continue
        for index in range(start, len(sets)):
            set_key, low, is_triplet, has_terminal = sets[index]
            if is_triplet:
                if digits[low] > 1:
                    continue
            elif digits[low] > 3 or digits[low + 1] > 3 or digits[low + 2] > 3:
                continue
            new_bits = bits
            if not is_triplet:
                new_bits &= ~ALL_TRIPLETS
            if not has_terminal:
                new_bits &= ~ALL_TERMINAL
            stack.append((key + set_key, index, depth + 1, new_bits))
    waits: dict[int, int] = {}
    for key in flags:
        rest = key
        rank = 0
        while rest:
            if rest % 5:
                missing = key - POW5[rank]
                waits[missing] = waits.get(missing, 0) | (1 << rank)
            rest //= 5
            rank += 1
    return flags, waits


#: complete suit key -> ALL_TRIPLETS / ALL_TERMINAL bits (present means "complete")
_TABLES = _build()
SHAPE_FLAGS: Final[dict[int, int]] = _TABLES[0]
#: suit key -> bitmask of ranks whose addition makes the key complete
WAIT_MASK: Final[dict[int, int]] = _TABLES[1]


def suit_keys(c: Sequence[int]) -> tuple[int, int, int]:
    """The three suit keys of a 27-long count vector (unrolled: this is the hot path)."""
    return (
        c[0] + 5 * c[1] + 25 * c[2] + 125 * c[3] + 625 * c[4]
        + 3125 * c[5] + 15625 * c[6] + 78125 * c[7] + 390625 * c[8],
        c[9] + 5 * c[10] + 25 * c[11] + 125 * c[12] + 625 * c[13]
        + 3125 * c[14] + 15625 * c[15] + 78125 * c[16] + 390625 * c[17],
        c[18] + 5 * c[19] + 25 * c[20] + 125 * c[21] + 625 * c[22]
        + 3125 * c[23] + 15625 * c[24] + 78125 * c[25] + 390625 * c[26],
    )  # fmt: skip


def _even_keys() -> frozenset[int]:
    """Suit keys whose every count is even (0, 2 or 4): the suits of a seven-pairs hand."""
    keys = [0]
    for rank in range(9):
        keys = [key + count * POW5[rank] for key in keys for count in (0, 2, 4)]
    return frozenset(keys)


#: suit keys with every count even
EVEN_KEYS: Final[frozenset[int]] = _even_keys()


def regular_win_flags(counts: Sequence[int]) -> int | None:
    """Flags shared by all suits when ``counts`` (concealed tiles, 3n+2 of them) form sets
    plus one pair; ``None`` when they do not."""
    if sum(counts) % 3 != 2:
        return None
    k0, k1, k2 = suit_keys(counts)
    f0 = SHAPE_FLAGS.get(k0)
    f1 = SHAPE_FLAGS.get(k1)
    f2 = SHAPE_FLAGS.get(k2)
    if f0 is None or f1 is None or f2 is None:
        return None
    return f0 & f1 & f2


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """Fourteen concealed tiles in pairs; four of a kind counts as two pairs (龙七对)."""
    if sum(counts) != 14:
        return False
    k0, k1, k2 = suit_keys(counts)
    return k0 in EVEN_KEYS and k1 in EVEN_KEYS and k2 in EVEN_KEYS


def is_win_shape_keys(k0: int, k1: int, k2: int, total: int, seven_pairs: bool) -> bool:
    """Sets plus a pair, or (``seven_pairs`` allowed) seven pairs, from the three suit keys
    and the tile total a caller keeps up to date: a few look-ups. 缺一门 is not checked."""
    if total % 3 == 2 and k0 in SHAPE_FLAGS and k1 in SHAPE_FLAGS and k2 in SHAPE_FLAGS:
        return True
    return seven_pairs and total == 14 and k0 in EVEN_KEYS and k1 in EVEN_KEYS and k2 in EVEN_KEYS


def concealed_wait_mask(counts: Sequence[int], *, seven_pairs: bool) -> int:
    """27-bit mask of tiles that make ``counts`` (3n+1 concealed tiles) a win shape: sets
    plus a pair, or, with ``seven_pairs``, seven pairs. 缺一门 and copies are not checked.

    A tile goes into a suit whose key has a wait entry while the other two suits are
    already complete; the residues then leave exactly one pair.
    """
    total = sum(counts)
    if total % 3 != 1:
        return 0
    k0, k1, k2 = suit_keys(counts)
    c0, c1, c2 = k0 in SHAPE_FLAGS, k1 in SHAPE_FLAGS, k2 in SHAPE_FLAGS
    mask = 0
    if c1 and c2:
        mask |= WAIT_MASK.get(k0, 0)
    if c0 and c2:
        mask |= WAIT_MASK.get(k1, 0) << 9
    if c0 and c1:
        mask |= WAIT_MASK.get(k2, 0) << 18
    if seven_pairs and total == 13:
        mask |= seven_pairs_wait_mask(counts)
    return mask


def may_wait_keys(k0: int, k1: int, k2: int, total: int, seven_pairs: bool) -> bool:
    """False when no tile can complete the concealed tiles of these suit keys (``total``
    tiles): the suit-key test of :func:`concealed_wait_mask`, for a caller that keeps the
    keys (True: seven pairs may wait, or a suit does)."""
    if total % 3 != 1:
        return False
    if seven_pairs and total == 13:
        return True
    c0 = k0 in SHAPE_FLAGS
    c1 = k1 in SHAPE_FLAGS
    c2 = k2 in SHAPE_FLAGS
    return bool(
        (c1 and c2 and WAIT_MASK.get(k0, 0))
        or (c0 and c2 and WAIT_MASK.get(k1, 0))
        or (c0 and c1 and WAIT_MASK.get(k2, 0))
    )


def seven_pairs_wait_mask(counts: Sequence[int]) -> int:
    """For 13 concealed tiles: the one odd kind, if every other kind is paired."""
    if sum(counts) != 13:
        return 0
    odd = [tile for tile, count in enumerate(counts) if count % 2]
    return 1 << odd[0] if len(odd) == 1 else 0


# --- 红中 wild tiles (癞子): a 红中 stands for any tile of the table's suits, in a set or
# the pair, in any number (a wild is no copy of a tile: 1111m plus a 红中 may read
# 111m + 1m中 as the pair; docs/decisions.md, "红中"). Count vectors stay the 27 suited
# kinds; the wilds are counted beside them. Nothing here runs for a hand without one.

#: nine counts of one suit (any size) -> (wilds it needs to be sets only, wilds it needs to
#: be sets and one pair); filled on demand, a few hundred entries a game
_NEEDS: Final[dict[tuple[int, ...], tuple[int, int]]] = {}
#: a lower bound no real need reaches (more wilds than a hand can hold)
_NEVER: Final = 99


def wild_needs(ranks: tuple[int, ...]) -> tuple[int, int]:
    """How many 红中 the nine counts ``ranks`` of one suit need to be complete: as sets only
    (0 for an empty suit), and as sets plus one pair (2 for an empty suit: a pair of 红中).

    The lowest rank held must go into a set or the pair; taking as many real tiles of it
    (and, for a run, of the ranks above) as the group can hold is never worse, since a real
    tile another group would take can swap places with the 红中 (the brute force of
    bench/wild_waits.py and tests/test_wilds.py checks this reading against every
    substitution)."""
    known = _NEEDS.get(ranks)
    if known is not None:
        return known
    low = 0
    while low < 9 and not ranks[low]:
        low += 1
    if low == 9:
        result = (0, 2)
    else:
        held = list(ranks)
        sets_need = _NEVER
        pair_need = _NEVER
        # a triplet of the lowest rank
        real = min(held[low], 3)
        held[low] -= real
        rest_sets, rest_pair = wild_needs(tuple(held))
        held[low] += real
        sets_need = min(sets_need, 3 - real + rest_sets)
        pair_need = min(pair_need, 3 - real + rest_pair)
        # a run holding the lowest rank: from it, or ending at 9
        start = min(low, 6)
        taken = []
        for rank in range(start, start + 3):
            if rank >= low and held[rank]:
                held[rank] -= 1
                taken.append(rank)
        rest_sets, rest_pair = wild_needs(tuple(held))
        for rank in taken:
            held[rank] += 1
        sets_need = min(sets_need, 3 - len(taken) + rest_sets)
        pair_need = min(pair_need, 3 - len(taken) + rest_pair)
        # the pair of the lowest rank
        real = min(held[low], 2)
        held[low] -= real
        rest_sets, _ = wild_needs(tuple(held))
        pair_need = min(pair_need, 2 - real + rest_sets)
        result = (sets_need, min(pair_need, sets_need + 2))
    _NEEDS[ranks] = result
    return result


def wild_win(counts: Sequence[int], wilds: int, seven_pairs: bool) -> bool:
    """Whether ``counts`` (27 suited kinds) and ``wilds`` 红中, 3n+2 tiles in all, form sets
    plus one pair with each 红中 standing for a tile, or (``seven_pairs``) seven pairs, a
    红中 pairing with any tile. 缺一门 is not checked."""
    total = sum(counts) + wilds
    if total % 3 == 2:
        s0, p0 = wild_needs(tuple(counts[0:9]))
        s1, p1 = wild_needs(tuple(counts[9:18]))
        s2, p2 = wild_needs(tuple(counts[18:27]))
        if s0 + s1 + s2 + min(p0 - s0, p1 - s1, p2 - s2) <= wilds:
            return True
    if seven_pairs and total == 14:
        odd = 0
        for count in counts:
            odd += count & 1
        return odd <= wilds  # each odd kind pairs with a 红中; the 红中 left pair up
    return False


def wild_wait_mask(counts: Sequence[int], wilds: int, seven_pairs: bool, kinds: int) -> int:
    """27-bit mask of the tiles among ``kinds`` (a 27-bit mask: the table's suits) that
    make ``counts`` and ``wilds`` 红中 (3n+1 tiles) a win by :func:`wild_win`. 缺一门 and
    copies are not checked."""
    if (sum(counts) + wilds) % 3 != 1 or not wild_win(counts, wilds + 1, seven_pairs):
        return 0  # a 红中 drawn completes whatever a tile would: no tile can
    held = list(counts)
    mask = 0
    for tile in range(27):
        if kinds >> tile & 1:
            held[tile] += 1
            if wild_win(held, wilds, seven_pairs):
                mask |= 1 << tile
            held[tile] -= 1
    return mask
