"""The state of a deal on the fast path (:mod:`ingest.replay.fast_check`): hands as counts and
base-5 suit keys, melds as tile lists, the wall, whose move it is, the tiles opened for
claims, and the queries the moves and wins ask. A mirror of :mod:`engine.state` on plain
integers; the pass rule is :mod:`engine.moves`'s, as the engine's.
"""

from __future__ import annotations

from typing import Final

from engine import move_codes, shapes
from engine.events import DealStart
from engine.fan import FanResult, WinContext, score_win
from engine.hand import held_counts
from engine.move_checks import heavenly, self_draw_context
from engine.moves import (
    OpenTile,
    PassRecord,
    holds_void,
    missed_forced,
    must_win_draw,
    next_seat,
    opening_phase,
)
from engine.report import DealFacts
from engine.rules import Rules
from engine.settle import Settler
from engine.shapes import is_win_shape_keys, may_wait_keys
from engine.state import KongMade, Win
from engine.tiles import COPIES, NUM_KINDS
from ingest.replay.fast_plan import SeatState

# the table and the phases (engine/move_codes.py: one list for the engine,
# this fast path and the C moves)
WALL_SIZE: Final = move_codes.WALL_SIZE
LAST_FOUR: Final = move_codes.LAST_FOUR
EXCHANGE: Final = move_codes.EXCHANGE
VOID: Final = move_codes.VOID
ACT: Final = move_codes.ACT
DRAW: Final = move_codes.DRAW
REPLACEMENT: Final = move_codes.REPLACEMENT
CLAIM: Final = move_codes.CLAIM
ROB: Final = move_codes.ROB
ENDED: Final = move_codes.ENDED

NO_TILE: Final = -1
# Module-level copies: mypyc reads a Final of its own module as a C static, another
# module's through that module's dict on every use.
_SUIT: Final[tuple[int, ...]] = tuple(tile // 9 for tile in range(NUM_KINDS))
#: a tile's weight in its suit's base-5 key
_STEP: Final[tuple[int, ...]] = tuple(shapes.POW5[tile % 9] for tile in range(NUM_KINDS))


class HandOff(Exception):
    """The deal leaves the fast path: the engine replays it."""


class FastState:
    """One deal's state as plain integers and lists (see the module docstring)."""

    def __init__(
        self, start: DealStart, rules: Rules, base: int, keep_facts: bool, deal_in: bool = True
    ) -> None:
        """``deal_in=False``: no tiles dealt (a plan's pricing loads every seat it reads)."""
        self.rules = rules
        # 门清 scored: the kinds of the kongs (暗杠 or not) matter, and are not kept here
        self.menqing_scored = rules.pattern_fan("menqing") is not None
        self.keep_facts = keep_facts  # the rows need every ready seat's fan (DealFacts)
        self.dealer = start.dealer
        self.hands: list[list[int]] = [[0] * NUM_KINDS for _ in range(4)]
        self.keys: list[int] = [0] * 12  # seat * 3 + suit: base-5 suit keys (engine.shapes)
        self.sizes: list[int] = [0, 0, 0, 0]
        self.pongs: list[list[int]] = [[], [], [], []]
        self.kongs: list[list[int]] = [[], [], [], []]  # every kong kind, in order made
        self.void: list[int] = [-1, -1, -1, -1]
        self.draws: list[int] = [0, 0, 0, 0]
        self.settler = Settler(rules, base)
        self.won = self.settler.won
        self.left = self.settler.left  # who has left: the winners, nobody under 血流成河
        self.stays = self.settler.stays  # 血流成河: a winner plays on with its hand fixed
        self.wins: list[Win] = []
        self.made: list[KongMade] = []
        self.wall_left = WALL_SIZE
        self.front = 0
        self.back = 0
        self.current = start.dealer
        self.open: OpenTile | None = None
        self.passes = PassRecord(rules)  # 过水不胡, worked out when a seat wins a discard
        self.last_draw = NO_TILE
        self.after_kong = False
        self.any_claim = False
        self.any_discard = False
        self.pending_seat = -1  # an added kong waiting for robbers
        self.pending_tile = NO_TILE
        self.pending_line = 0
        self.pending_drawn = False
        self.pending_deltas: tuple[int, int, int, int] | None = None
        self.end_reason: str | None = None
        self.settlement = (0, 0, 0, 0)  # the deltas of the 查叫 transfers
        self.scores = (0, 0, 0, 0)  # the deal's net
        self.settled = False
        self.ready_at_end: dict[int, int] = {}
        self.pigs: set[int] = set()
        self.phase = ACT
        if deal_in:
            self._deal_in(start)
        else:
            self.out_of_wall = [0] * NUM_KINDS
            self.wall = start.wall

    # ------------------------------------------------------------------ set-up
    def _deal_in(self, start: DealStart) -> None:
        if not 0 <= start.dealer <= 3 or len(start.hands) != 4:
            raise HandOff
        seen = [0] * NUM_KINDS
        for seat in range(4):
            hand = start.hands[seat]
            if len(hand) != (14 if seat == start.dealer else 13):
                raise HandOff
            counts = self.hands[seat]
            keys = self.keys
            for tile in hand:
                counts[tile] += 1
                seen[tile] += 1
                keys[seat * 3 + _SUIT[tile]] += _STEP[tile]
            self.sizes[seat] = len(hand)
        self.out_of_wall = list(seen)
        wall = start.wall
        self.wall = wall
        if wall is not None:
            if len(wall) != WALL_SIZE:
                raise HandOff
            for tile in wall:
                seen[tile] += 1
        for count in seen:
            if count > COPIES:
                raise HandOff
        self.phase = opening_phase(self.rules)

    # ------------------------------------------------------------------ helpers
    def load_seat(self, seat: int, state: SeatState) -> None:
        """Take a seat's tiles, melds, draws and void from a plan (ingest.replay.fast_plan)."""
        counts, pongs, kongs, draws, void, (k0, k1, k2), size = state
        self.hands[seat] = counts
        self.sizes[seat] = size
        self.keys[seat * 3] = k0
        self.keys[seat * 3 + 1] = k1
        self.keys[seat * 3 + 2] = k2
        self.pongs[seat] = pongs
        self.kongs[seat] = kongs
        self.draws[seat] = draws
        self.void[seat] = void

    def move(self, seat: int, tile: int, count: int) -> None:
        self.hands[seat][tile] += count
        self.sizes[seat] += count
        index = seat * 3 + _SUIT[tile]
        self.keys[index] += count * _STEP[tile]

    def shape_with(self, seat: int, tile: int) -> bool:
        """engine.state.DealState.shape_with: sets and a pair (or seven pairs) with ``tile``
        added (NO_TILE: as held)."""
        base = seat * 3
        k0 = self.keys[base]
        k1 = self.keys[base + 1]
        k2 = self.keys[base + 2]
        total = self.sizes[seat]
        if tile != NO_TILE:
            total += 1
            suit = _SUIT[tile]
            step = _STEP[tile]
            if suit == 0:
                k0 += step
            elif suit == 1:
                k1 += step
            else:
                k2 += step
        return is_win_shape_keys(k0, k1, k2, total, not self.pongs[seat] and not self.kongs[seat])

    def holds_void(self, seat: int, held: list[int]) -> bool:
        return holds_void(held, self.void[seat], self.rules)

    def win_counts(
        self, seat: int, counts: list[int], context: WinContext, win_tile: int = NO_TILE
    ) -> FanResult | None:
        """engine.state.DealState.win_counts (``win_tile`` NO_TILE: the drawn tile)."""
        pongs = self.pongs[seat]
        kongs = self.kongs[seat]
        if self.holds_void(seat, held_counts(counts, pongs, kongs)):
            return None
        self.check_kongs_known(seat)
        if win_tile == NO_TILE:
            win_tile = self.last_draw
        return score_win(counts, pongs, kongs, self.rules, context, win_tile)

    def check_kongs_known(self, seat: int) -> None:
        """门清 needs to know which kongs are 暗杠, which this state does not keep: a seat
        with kongs and no pong under a rule set that scores 门清 is the engine's."""
        if self.menqing_scored and self.kongs[seat] and not self.pongs[seat]:
            raise HandOff

    def win_on(self, seat: int, tile: int, context: WinContext) -> FanResult | None:
        if not self.shape_with(seat, tile):
            return None
        counts = list(self.hands[seat])
        counts[tile] += 1
        return self.win_counts(seat, counts, context, tile)

    def heavenly(self, seat: int) -> bool:
        return heavenly(seat, self.dealer, self.draws[seat], self.any_discard, self.any_claim)

    def self_draw_context(self, seat: int) -> WinContext:
        first, drew = self.heavenly(seat), self.last_draw != NO_TILE
        return self_draw_context(
            seat, self.dealer, self.draws[seat], self.any_claim, drew, self.won[seat], first, self.after_kong,
            self.wall_left,
        )  # fmt: skip

    def next_seat(self, seat: int) -> int:
        """The first seat after ``seat`` still in (:func:`engine.moves.next_seat`)."""
        following = next_seat(seat, self.left)
        if following is None:
            raise HandOff
        return following

    def still_in(self, seat: int) -> None:
        if self.left[seat]:
            raise HandOff

    def hand_fixed(self, seat: int) -> bool:
        """血流成河's 胡后不改牌 (engine.state.DealState.hand_fixed): the seat has won and
        plays on; a move that changes its hand is the engine's finding (``fixed_hand``)."""
        return self.stays and self.won[seat]

    def no_void_phase(self) -> None:
        if self.phase == VOID or self.phase == EXCHANGE:
            raise HandOff

    def check_missed_self_draw(self, seat: int) -> None:
        """最后四张: a seat that drew one of the last four tiles and could win must win."""
        if not must_win_draw(self.rules, self.wall_left, self.last_draw != NO_TILE):
            return
        if not self.shape_with(seat, NO_TILE):
            return
        context = WinContext(self_draw=True, after_kong=self.after_kong, last_tile=self.wall_left == 0)
        if self.win_counts(seat, self.hands[seat], context) is not None:
            raise HandOff

    # ------------------------------------------------------------------ claims
    def check_missed_discard(self, open_tile: OpenTile) -> None:
        """engine.claims.DealClaims.check_missed_discard: a missed forced win of the last
        four (missed_forced_hu) is the engine's."""
        if missed_forced(self.rules, open_tile, self.left, self.win_on):
            raise HandOff

    def pass_blocks(self, seat: int, fan: int) -> bool:
        """engine.claims.DealClaims.pass_blocks: the same :class:`engine.moves.PassRecord`."""
        return self.passes.blocks(seat, fan, self.win_on)

    def end(self, reason: str) -> None:
        self.end_reason = reason
        self.phase = ENDED
        self.open = None

    def may_be_ready(self, seat: int) -> bool:
        """False when no tile can complete the seat's concealed tiles
        (:func:`engine.shapes.may_wait_keys`), so its waits need not be worked out."""
        base = seat * 3
        keys = self.keys
        seven_pairs = not self.pongs[seat] and not self.kongs[seat]
        return may_wait_keys(keys[base], keys[base + 1], keys[base + 2], self.sizes[seat], seven_pairs)

    def facts(self) -> DealFacts:
        void = tuple([suit if suit >= 0 else None for suit in self.void])
        still_in = self.left.count(False)
        return DealFacts(
            self.dealer,
            void,
            tuple(self.settler.settlement),
            frozenset(self.pigs),
            self.ready_at_end,
            still_in,
        )
