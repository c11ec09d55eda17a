"""The brute force that proves :mod:`engine.shanten`: every replacement, up to two.

It knows nothing of the per-suit distance table. A hand waiting to draw is 0 from ready
when some tile it may draw completes it (``engine.hand.wait_mask`` at its table, or a
drawn 红中, the win holding no tile of its 定缺 suit), 1 when some one tile out and one
tile in make it ready, 2 when some two out and two in do; beyond that the brute force says
"more than 2" (None). The waits it leans on are proved on their own (tests/test_hand_properties.py,
tests/wild_brute.py). Hands are seeded: random wins with 0-3 tiles replaced (so most are
within reach of the brute force), pure random hands, seven pairs with four of a kind, at
tables of 13, 10 and 7 tiles, with pongs, a declared void suit and 红中.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.rules import Rules, load_rules
from engine.shapes import concealed_wait_mask, wild_wait_mask, wild_win
from engine.tiles import COPIES, NUM_KINDS, WILD
from engine.wilds import held_suits, suit_count, suit_limit

SEED = 20261207
#: (suits, hand size, two_suit_void) of the tables dealt at, the first most often
TABLES: tuple[tuple[str, int, bool], ...] = (
    ("mps", 13, False),
    ("mps", 13, False),
    ("mps", 13, False),
    ("mps", 10, False),
    ("mps", 7, False),
    ("ps", 13, True),
    ("mp", 10, False),
)


@dataclass
class Case:
    """One hand waiting to draw: 27 counts, its 红中, its pongs, its 定缺 (or None)."""

    rules: Rules
    counts: list[int]
    wilds: int
    pongs: tuple[int, ...]
    void: int | None
    kind: str = field(default="near")

    def held(self, tile: int) -> int:
        return self.counts[tile] + 3 * self.pongs.count(tile)

    def kinds(self) -> list[int]:
        return [("mps".index(letter)) * 9 + rank for letter in self.rules.suits for rank in range(9)]

    def text(self) -> str:
        from engine.tiles import format_tiles

        tiles = [t for t in range(NUM_KINDS) for _ in range(self.counts[t])] + [WILD] * self.wilds
        melds = " ".join(format_tiles([t] * 3) for t in self.pongs)
        return f"{format_tiles(tiles)} {melds}".strip() + (
            f" void {'mps'[self.void]}" if self.void is not None else ""
        )


def _void_free(case: Case, counts: list[int]) -> bool:
    if case.void is None:
        return True
    base = 9 * case.void
    return not any(counts[base : base + 9]) and all(t // 9 != case.void for t in case.pongs)


def ready(case: Case, counts: list[int], wilds: int) -> bool:
    """Some tile the seat may draw (a kind it holds fewer than four of concealed, or a
    红中) makes a win shape (``engine.shapes``) that keeps to the table's suits, 缺一门 and
    its 定缺. Copies in its melds are not asked about (shanten does not ask whether the
    tiles are left)."""
    if not _void_free(case, counts):
        return False
    rules = case.rules
    seven = rules.hand_size == 13 and not case.pongs
    kinds = 0
    for tile in case.kinds():
        if counts[tile] < COPIES and tile // 9 != case.void:
            kinds |= 1 << tile
    if wilds:
        mask = wild_wait_mask(counts, wilds, seven, kinds)
    else:
        mask = concealed_wait_mask(counts, seven_pairs=seven) & kinds
    limit = suit_limit(rules)
    suits = held_suits(counts, case.pongs, ())
    for tile in range(NUM_KINDS):
        if mask >> tile & 1 and suit_count(suits | 1 << (tile // 9)) <= limit:
            return True
    if rules.wild_tiles and wilds < rules.wild_tiles and suit_count(suits) <= limit:
        return wild_win(counts, wilds + 1, seven)
    return False


def _drawable(case: Case, counts: list[int], wilds: int) -> list[int]:
    out = [t for t in case.kinds() if counts[t] < COPIES]
    if case.rules.wild_tiles and wilds < case.rules.wild_tiles:
        out.append(WILD)
    return out


def _move(counts: list[int], wilds: int, tile: int, delta: int) -> int:
    if tile == WILD:
        return wilds + delta
    counts[tile] += delta
    return wilds


def brute_shanten(case: Case, most: int = 2) -> int | None:
    """The fewest replacements (0-``most``) that make the hand ready; None: more."""
    counts = list(case.counts)
    wilds = case.wilds
    if ready(case, counts, wilds):
        return 0
    held = [t for t in range(NUM_KINDS) if counts[t]] + ([WILD] if wilds else [])
    for out in held:
        w1 = _move(counts, wilds, out, -1)
        for tile in _drawable(case, counts, w1):
            if tile == out:
                continue
            w2 = _move(counts, w1, tile, 1)
            found = ready(case, counts, w2)
            _move(counts, w2, tile, -1)
            if found:
                _move(counts, w1, out, 1)
                return 1
        _move(counts, w1, out, 1)
    if most < 2:
        return None
    for i, first in enumerate(held):
        for second in held[i:]:
            w1 = _move(counts, wilds, first, -1)
            if (counts[second] if second != WILD else w1) <= 0:
                _move(counts, w1, first, 1)
                continue
            w1 = _move(counts, w1, second, -1)
            draws = [t for t in _drawable(case, counts, w1) if t not in (first, second)]
            for j, one in enumerate(draws):
                w2 = _move(counts, w1, one, 1)
                for two in draws[j:]:
                    if (counts[two] >= COPIES) if two != WILD else w2 >= case.rules.wild_tiles:
                        continue
                    w3 = _move(counts, w2, two, 1)
                    found = ready(case, counts, w3)
                    _move(counts, w3, two, -1)
                    if found:
                        _move(counts, w2, one, -1)
                        _move(counts, w1, second, 1)
                        _move(counts, wilds - (first == WILD), first, 1)
                        return 2
                _move(counts, w2, one, -1)
            w1 = _move(counts, w1, second, 1)
            _move(counts, w1, first, 1)
    return None


_RULES: dict[tuple[str, int, bool, int], Rules] = {}


def table_rules(suits: str, hand_size: int, two_suit_void: bool, wild_tiles: int) -> Rules:
    """The standard preset at this table, with the most seats its wall deals to."""
    key = (suits, hand_size, two_suit_void, wild_tiles)
    if key not in _RULES:
        tiles = 36 * len(suits) + wild_tiles
        seats = next(n for n in (4, 3, 2) if tiles - (n * hand_size + 1) >= n)
        _RULES[key] = load_rules(
            {
                "preset": "standard",
                "suits": suits,
                "hand_size": hand_size,
                "seats": seats,
                "wild_tiles": wild_tiles,
                "two_suit_void": two_suit_void,
            }
        )
    return _RULES[key]


# --- the hands ----------------------------------------------------------------------


def _put(case: Case, tile: int, rng: random.Random) -> bool:
    if tile == WILD:
        if case.wilds >= case.rules.wild_tiles:
            return False
        case.wilds += 1
        return True
    if case.held(tile) >= COPIES:
        return False
    case.counts[tile] += 1
    return True


def make_case(rng: random.Random) -> Case:
    """A seeded hand waiting to draw (3n+1 concealed tiles with its 红中)."""
    suits, size, two_void = rng.choice(TABLES)
    wild_table = rng.random() < 0.25
    rules = table_rules(suits, size, two_void, 4 if wild_table else 0)
    case = Case(rules, [0] * NUM_KINDS, 0, (), None)
    kinds = case.kinds()
    shape = rng.random()
    melds = rng.choice((0, 0, 0, 1, 1, 2)) if size >= 10 else rng.choice((0, 0, 1))
    pongs: list[int] = []
    for _ in range(melds):
        tile = rng.choice(kinds)
        if tile not in pongs:
            pongs.append(tile)
    case.pongs = tuple(pongs)
    need = size - 3 * len(pongs)  # concealed tiles of a hand waiting to draw
    if len(rules.suits) == 3 and rng.random() < 0.4:
        case.void = rng.randrange(3)
    if shape < 0.12:  # pure random tiles
        case.kind = "random"
        while sum(case.counts) + case.wilds < need:
            _put(case, WILD if wild_table and rng.random() < 0.05 else rng.choice(kinds), rng)
        return case
    if shape < 0.22 and size == 13 and not pongs:  # seven pairs, often with four of a kind
        case.kind = "pairs"
        picks = rng.sample(kinds, 7)
        if rng.random() < 0.6:
            picks[1] = picks[0]
        for tile in picks:
            _put(case, tile, rng)
            _put(case, tile, rng)
    else:  # a win: sets and a pair in the suits a win may keep
        case.kind = "near"
        keep = [s for s in ("mps".index(x) for x in rules.suits) if s != case.void]
        rng.shuffle(keep)
        keep = keep[: 2 if len(rules.suits) == 3 else (1 if two_void else len(keep))]
        pool = [t for t in kinds if t // 9 in keep]
        for _ in range(need // 3):
            for _attempt in range(20):
                start = rng.choice(pool)
                group = [start] * 3 if rng.random() < 0.35 or start % 9 > 6 else [start, start + 1, start + 2]
                if all(case.held(t) + group.count(t) <= COPIES for t in group):
                    for t in group:
                        case.counts[t] += 1
                    break
        for _attempt in range(20):
            tile = rng.choice(pool)
            if case.held(tile) <= 2:
                case.counts[tile] += 2
                break
        if wild_table:
            for _ in range(rng.choice((0, 0, 1, 1, 2))):  # some tiles become 红中
                held = [t for t in range(NUM_KINDS) if case.counts[t]]
                if held:
                    case.counts[rng.choice(held)] -= 1
                    case.wilds += 1
    # one tile out (the hand waits to draw), then 0-3 replaced
    while sum(case.counts) + case.wilds > need:
        held = [t for t in range(NUM_KINDS) if case.counts[t]] + [WILD] * (case.wilds > 0)
        tile = rng.choice(held)
        _move_case(case, tile, -1)
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3))):
        held = [t for t in range(NUM_KINDS) if case.counts[t]] + [WILD] * (case.wilds > 0)
        out = rng.choice(held)
        _move_case(case, out, -1)
        while not _put(case, WILD if wild_table and rng.random() < 0.05 else rng.choice(kinds), rng):
            pass
    while sum(case.counts) + case.wilds < need:  # a win the copies cut short
        _put(case, rng.choice(kinds), rng)
    return case


def _move_case(case: Case, tile: int, delta: int) -> None:
    if tile == WILD:
        case.wilds += delta
    else:
        case.counts[tile] += delta
