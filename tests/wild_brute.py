"""The brute force of 红中 wild tiles, shared by tests/test_wilds.py (a few thousand seeded
hands) and bench/wild_waits.py (a hundred thousand): the win test and the waits against
every substitution, at hand sizes 13, 10 and 7 and at tables of three, two and one suit.

The brute force knows nothing of ``engine.shapes.wild_needs``: it replaces the hand's 红中
by every multiset of the table's kinds and asks a plain win test of each substituted
hand. The substitution is walked suit by suit (a plain win is sets in every suit and the
pair in one, so each split of the 红中 among the suits is tried, and in each suit every
multiset of its share: ``itertools.combinations_with_replacement``); a suit's plain test
is the ``mahjong`` library's ``Agari.is_agari`` where no kind is held more than four times
(it misreads larger counts), else a textbook backtracking over sets and one pair. Seven
pairs (13-tile hands without a meld): a 红中 beside each odd kind, the rest in pairs.
缺一门 is checked on the suits each substituted hand holds with its melds (two suits at
most where three are in play, one with ``two_suit_void`` at two). A tile is a wait when
the hand plus that tile is a win so, and the seat holds fewer than four of it.

``engine.hand.is_win`` and ``engine.hand.wait_mask`` must agree on every hand: seeded
random hands, a share built as wins (sets and a pair, then some tiles turned into 红中, some
hands one tile short), the rest drawn at random from the table's wall, some with pongs.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from mahjong.agari import Agari

from engine.hand import is_win, wait_mask
from engine.rules import Rules, load_rules

SEED = 20261206
#: (suits, hand_size, two_suit_void) of the tables the hands are dealt at
TABLES: tuple[tuple[str, int, bool], ...] = (
    ("mps", 13, False),
    ("ps", 13, False),
    ("ps", 13, True),
    ("mp", 10, False),
    ("ps", 10, True),
    ("mps", 10, False),
    ("ms", 7, False),
    ("mps", 7, False),
    ("s", 7, False),
    ("p", 13, False),
)
#: how many 红中 a hand holds, and how often (five and more only where eight are in the wall)
WILD_WEIGHTS: tuple[tuple[int, int], ...] = (
    (0, 14),
    (1, 30),
    (2, 26),
    (3, 16),
    (4, 10),
    (5, 2),
    (6, 1),
    (8, 1),
)


@dataclass(frozen=True)
class Case:
    """One hand at one table: the 27 counts of its concealed suited tiles, its 红中, its pongs."""

    rules: Rules
    concealed: tuple[int, ...]
    wilds: int
    pongs: tuple[int, ...]


def table_rules(suits: str, hand_size: int, two_suit_void: bool, wilds: int) -> Rules:
    """The standard preset at this table, with the most seats its wall deals to."""
    wild_tiles = 8 if wilds > 4 else 4
    tiles = 36 * len(suits) + wild_tiles
    seats = next(n for n in (4, 3, 2) if tiles - (n * hand_size + 1) >= n)
    return load_rules(
        {
            "preset": "standard",
            "suits": suits,
            "hand_size": hand_size,
            "seats": seats,
            "wild_tiles": wild_tiles,
            "two_suit_void": two_suit_void,
        }
    )


def _kinds(rules: Rules) -> list[int]:
    return [("mps".index(letter)) * 9 + rank for letter in rules.suits for rank in range(9)]


def suit_limit(rules: Rules) -> int:
    if len(rules.suits) == 3:
        return 2
    return 1 if rules.two_suit_void else len(rules.suits)


# --- the plain tests of a substituted suit (no 红中 left) -------------------------


def _backtrack(counts: list[int], pair: bool) -> bool:
    """Sets and (``pair``) exactly one pair from nine counts of any size: the textbook search."""
    rank = next((r for r in range(9) if counts[r]), -1)
    if rank < 0:
        return not pair
    if pair and counts[rank] >= 2:
        counts[rank] -= 2
        found = _backtrack(counts, False)
        counts[rank] += 2
        if found:
            return True
    if counts[rank] >= 3:
        counts[rank] -= 3
        found = _backtrack(counts, pair)
        counts[rank] += 3
        if found:
            return True
    if rank <= 6 and counts[rank + 1] and counts[rank + 2]:
        for r in (rank, rank + 1, rank + 2):
            counts[r] -= 1
        found = _backtrack(counts, pair)
        for r in (rank, rank + 1, rank + 2):
            counts[r] += 1
        return found
    return False


@cache
def plain_suit(ranks: tuple[int, ...], pair: bool) -> bool:
    """Nine counts of one suit as sets (and one pair): ``mahjong``'s ``Agari.is_agari`` where
    no count passes four (a pair of 東 stands in for the pair of another suit), else the
    backtracking."""
    if max(ranks) <= 4:
        tiles = [*ranks, *([0] * 25)]
        if not pair:
            tiles[27] = 2
        return bool(Agari.is_agari(tiles))
    return _backtrack(list(ranks), pair)


@cache
def suit_ways(ranks: tuple[int, ...], wilds: int) -> tuple[bool, bool]:
    """Whether some multiset of ``wilds`` tiles of this suit, added to ``ranks``, makes sets
    only, and whether some makes sets and a pair: every multiset tried."""
    sets = pair = False
    for chosen in itertools.combinations_with_replacement(range(9), wilds):
        counts = list(ranks)
        for rank in chosen:
            counts[rank] += 1
        key = tuple(counts)
        sets = sets or plain_suit(key, False)
        pair = pair or plain_suit(key, True)
        if sets and pair:
            break
    return sets, pair


def brute_shape(counts: Sequence[int], wilds: int, rules: Rules, pongs: Sequence[int]) -> bool:
    """Some substitution of the 红中 by tiles of the table makes a win: the substitution
    split by suit (``k`` 红中 into a suit, every multiset of them there), one suit holding
    the pair, 缺一门 on the suits the substituted hand holds with its melds; or seven pairs."""
    limit = suit_limit(rules)
    table = ["mps".index(letter) for letter in rules.suits]
    ranks = {suit: tuple(counts[suit * 9 : suit * 9 + 9]) for suit in range(3)}
    meld_suits = {tile // 9 for tile in pongs}
    for split in itertools.product(range(wilds + 1), repeat=len(table)):
        if sum(split) != wilds:
            continue
        used = set(meld_suits)
        for suit, k in zip(table, split, strict=True):
            if k or any(ranks[suit]):
                used.add(suit)
        if any(ranks[suit] != (0,) * 9 for suit in range(3) if suit not in table) or len(used) > limit:
            continue
        ways = [suit_ways(ranks[suit], k) for suit, k in zip(table, split, strict=True)]
        for pair_at in range(len(table)):
            if ways[pair_at][1] and all(w[0] for i, w in enumerate(ways) if i != pair_at):
                return True
    if rules.hand_size == 13 and not pongs and sum(counts) + wilds == 14:
        held = {tile // 9 for tile in range(27) if counts[tile]}
        odd = sum(count % 2 for count in counts)  # a 红中 beside each odd kind, the rest in pairs
        return odd <= wilds and (wilds - odd) % 2 == 0 and len(held or {0}) <= limit
    return False


def brute_win(case: Case) -> bool:
    if sum(case.concealed) + case.wilds + 3 * len(case.pongs) != case.rules.hand_size + 1:
        return False
    return brute_shape(case.concealed, case.wilds, case.rules, case.pongs)


def brute_waits(case: Case) -> int:
    """27-bit mask: each tile of the table the seat holds fewer than four of that, added,
    makes the hand a win by :func:`brute_shape`."""
    held = list(case.concealed)
    for tile in case.pongs:
        held[tile] += 3
    mask = 0
    counts = list(case.concealed)
    for tile in _kinds(case.rules):
        if held[tile] >= 4:
            continue
        counts[tile] += 1
        if brute_shape(counts, case.wilds, case.rules, case.pongs):
            mask |= 1 << tile
        counts[tile] -= 1
    return mask


# --- the hands -----------------------------------------------------------------------


def _groups(rng: random.Random, kinds: list[int], count: int) -> list[list[int]]:
    groups = []
    for _ in range(count):
        if rng.random() < 0.45:
            groups.append([rng.choice(kinds)] * 3)
        else:
            start = rng.choice([k for k in kinds if k % 9 <= 6])
            groups.append([start, start + 1, start + 2])
    return groups


def make_case(rng: random.Random) -> Case:
    """A hand of ``hand_size`` or one more tiles at a random table, 红中 and pongs included."""
    suits, hand_size, void = rng.choice(TABLES)
    wilds = rng.choices([w for w, _ in WILD_WEIGHTS], [n for _, n in WILD_WEIGHTS])[0]
    if wilds > hand_size - 2:
        wilds = hand_size - 2
    rules = table_rules(suits, hand_size, void, wilds)
    kinds = _kinds(rules)
    sets = (hand_size - 1) // 3
    melds = rng.choice((0, 0, 0, 1, 2)) if sets > 1 else 0
    size = hand_size + 1 - (1 if rng.random() < 0.5 else 0)  # a win to test, or a hand to wait
    wilds = min(wilds, size - 3 * melds - 1)
    while True:
        pongs = rng.sample(kinds, melds)
        if rng.random() < 0.6:  # built: sets and a pair, with its own suits
            suit = rng.choice(kinds) // 9
            play = kinds if rng.random() < 0.5 else [k for k in kinds if k // 9 == suit]
            tiles = [t for group in _groups(rng, play, sets - len(pongs)) for t in group]
            tiles += [rng.choice(play)] * 2
            if rng.random() < 0.3:  # a tile swapped
                tiles[rng.randrange(len(tiles))] = rng.choice(play)
            rng.shuffle(tiles)
            tiles = tiles[: size - 3 * len(pongs) - wilds]
        else:
            wall = [t for t in kinds for _ in range(4)]
            tiles = rng.sample(wall, size - 3 * len(pongs) - wilds)
        counts = [0] * 27
        for tile in tiles:
            counts[tile] += 1
        held = list(counts)
        for tile in pongs:
            held[tile] += 3
        if max(held) <= 4:
            return Case(rules, tuple(counts), wilds, tuple(pongs))


def check(case: Case) -> tuple[bool, bool, int, int]:
    """(ours, the brute force's) for the win test or the waits, by the hand's size."""
    size = sum(case.concealed) + case.wilds + 3 * len(case.pongs)
    if size == case.rules.hand_size + 1:
        ours = is_win(case.concealed, case.pongs, (), case.wilds, case.rules)
        return True, ours == brute_win(case), int(ours), 0
    mask = wait_mask(case.concealed, case.pongs, (), case.wilds, case.rules)
    return False, mask == brute_waits(case), 0, mask
