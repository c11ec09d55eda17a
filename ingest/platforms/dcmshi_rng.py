"""The wall of a dcmshi/sichuan-mahjong deal, rebuilt from its seed.

The app's replay export holds no wall, only the seed it was shuffled from, so the
generator, the shuffle and the dice that break the wall are ported here exactly, with
JavaScript's number semantics (32-bit ``| 0``, ``>>> 0``, ``Math.imul``, UTF-16
``charCodeAt``). Ported from the repository ``dcmshi/sichuan-mahjong``:
``packages/engine/src/rng.ts`` (splitmix32 seeding of xoshiro128**),
``packages/engine/src/tiles.ts`` (``buildWall``: Fisher-Yates over ids 0-107),
``packages/engine/src/dice.ts`` (``throwForSeats``, ``throwForWall``, ``rotateWall``) and
``packages/engine/src/state.ts`` (``createGame``: the dice stream is the seed plus
``":dice"``, the wall is the shuffle rotated by the break).
"""

from __future__ import annotations

from dataclasses import dataclass

MASK = 0xFFFFFFFF
TILES = 108
PER_SIDE = TILES // 4  # four walls of 27 (dice.ts TILES_PER_WALL)
MAX_SEATING_ROUNDS = 4  # dice.ts: one throw plus three re-rolls


def _u32(x: int) -> int:
    """``x >>> 0``."""
    return x & MASK


def _i32(x: int) -> int:
    """``x | 0``."""
    x &= MASK
    return x - (1 << 32) if x & 0x80000000 else x


def _imul(a: int, b: int) -> int:
    """``Math.imul``: the low 32 bits of the product, signed."""
    return _i32((a & MASK) * (b & MASK))


def _splitmix32(h: int) -> int:
    h = _i32(h + 0x9E3779B9)
    z = h
    z = _i32(_imul(z ^ (_u32(z) >> 16), 0x85EBCA6B))
    z = _i32(_imul(z ^ (_u32(z) >> 13), 0xC2B2AE35))
    return _u32(z ^ (_u32(z) >> 16))


def seed_hash(seed: str) -> int:
    """The string hash ``h = imul(31, h) + charCodeAt(i) | 0`` over UTF-16 code units."""
    h = 0
    units = seed.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(units), 2):
        h = _i32(_imul(31, h) + (units[i] | units[i + 1] << 8))
    return _u32(h)


class Rng:
    """xoshiro128** seeded by splitmix32 from the string hash (rng.ts ``createRng``)."""

    def __init__(self, seed: str) -> None:
        s0 = _splitmix32(seed_hash(seed))
        s1 = _splitmix32(s0)
        s2 = _splitmix32(s1)
        s3 = _splitmix32(s2)
        # four attributes, not a list: no list made and unpacked a call (a wall is 107 calls)
        self.s0, self.s1, self.s2, self.s3 = s0, s1, s2, s3

    def next(self) -> int:
        """A uint32. The state stays unsigned, so JavaScript's ``Math.imul`` and ``>>> 0``
        are the low 32 bits of the product: one mask each, no sign to restore."""
        s0, s1, s2, s3 = self.s0, self.s1, self.s2, self.s3
        x = (s1 * 5) & MASK
        result = ((((x << 7) | (x >> 25)) & MASK) * 9) & MASK
        t = (s1 << 9) & MASK
        s2 ^= s0
        s3 ^= s1
        self.s1 = s1 ^ s2
        self.s0 = s0 ^ s3
        self.s2 = s2 ^ t
        self.s3 = ((s3 << 11) | (s3 >> 21)) & MASK
        return result

    def next_int(self, n: int) -> int:
        """``next() % n`` (no rejection: the app's own modulo bias is part of the deal)."""
        return self.next() % n


def build_wall(seed: str) -> list[int]:
    """tiles.ts ``buildWall``: ids 0-107 shuffled from the last index down."""
    wall = list(range(TILES))
    rng = Rng(seed)
    for i in range(TILES - 1, 0, -1):
        j = rng.next_int(i + 1)
        wall[i], wall[j] = wall[j], wall[i]
    return wall


def _pair(rng: Rng) -> tuple[int, int]:
    a = rng.next_int(6) + 1
    return a, rng.next_int(6) + 1


def throw_for_seats(rng: Rng) -> int:
    """dice.ts ``throwForSeats``: the highest sum is East; ties re-throw among the tied,
    and after four rounds the lowest tied seat takes it."""
    contenders = [0, 1, 2, 3]
    for _ in range(MAX_SEATING_ROUNDS):
        sums = {seat: sum(_pair(rng)) for seat in contenders}
        best = max(sums.values())
        winners = [seat for seat in contenders if sums[seat] == best]
        if len(winners) == 1:
            return winners[0]
        contenders = winners
    return contenders[0]


def break_offset(rng: Rng, dealer: int) -> int:
    """dice.ts ``throwForWall``: East's throw picks the wall (counted by decreasing seat)
    and the lower die the indent in stacks of two; the result rotates the wall array."""
    a, b = _pair(rng)
    step = (a + b - 1) % 4
    wall_seat = (dealer - step + 4) % 4
    quarter = (4 - wall_seat) % 4
    return (quarter * PER_SIDE + (PER_SIDE - min(a, b) * 2)) % TILES


@dataclass(frozen=True)
class Dealt:
    """A deal as createGame makes it: East, the rotated wall (tile ids), whether the
    seating throw ran."""

    dealer: int
    wall: tuple[int, ...]
    seating_throw: bool


def deal_wall(seed: str, dealer: int | None, seating_throw: bool) -> Dealt:
    """state.ts ``createGame``: with no dealer given and the seating throw on, the dice
    stream first seats East; then East throws for the break (same stream)."""
    dice = Rng(f"{seed}:dice")
    if dealer is None:
        dealer = throw_for_seats(dice) if seating_throw else 0
        ran = seating_throw
    else:
        ran = False
    k = break_offset(dice, dealer)
    wall = build_wall(seed)
    return Dealt(dealer, tuple(wall[k:] + wall[:k]), ran)
