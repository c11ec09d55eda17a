"""The state of one deal in integer form, and the moves that open no claim (换三张, 定缺):
the base of both movers, the explaining replay (:class:`engine.deal.Deal`) and the fast
check (:class:`ingest.replay.fast_check.FastDeal`), which run the same moves on it
(:mod:`engine.claims`, :mod:`engine.deal`'s :class:`engine.deal.DealMoves`).

The state holds each seat's concealed counts (with their base-5 suit keys), its pongs and
kongs as tile lists, its discards, the wall, whose move it is (a phase code of
:mod:`engine.move_codes`) and what is open for claims. A breach that leaves the deal
playable goes to :meth:`DealState.note` (the explaining replay keeps it, the fast check
gives the deal up); a move the rules forbid raises :class:`engine.moves.IllegalEvent`.
Payments are not priced here: the settlement core (:class:`engine.settle.Settler`) holds
who has won, the ledger and the kongs' income.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

import msgspec

from engine import move_codes
from engine.events import DealStart
from engine.fan import FanResult, WinContext
from engine.hand import held_counts, ready_value, wait_mask
from engine.messages import doing, play
from engine.move_checks import check_exchange, check_void, heavenly, self_draw_context
from engine.moves import (
    IllegalEvent,
    OpenTile,
    PassRecord,
    exchanges,
    haidi_on_any_discard,
    holds_void,
    live_waits,
    opening_phase,
    phase_after_exchange,
    ready_waits,
)
from engine.rules import Rules
from engine.score import score_win
from engine.settle import Settler
from engine.settlement import KongIncome, Transfer
from engine.shapes import POW5, is_win_shape_keys, may_wait_keys, wild_win
from engine.table import table_of
from engine.tiles import COPIES, NUM_KINDS, SUITS, WILD, tile_name

WALL_SIZE: Final = move_codes.WALL_SIZE  # engine/move_codes.py: one table for every mover
LAST_FOUR: Final = move_codes.LAST_FOUR
SEATS: Final[tuple[int, int, int, int]] = (0, 1, 2, 3)
#: 换三张: the seat each seat passes to is ``(seat + step) % players``; "across" only at four
EXCHANGE_STEP = {"counterclockwise": 1, "across": 2, "clockwise": -1}
NO_TILE: Final = -1  # no tile drawn
# the phase codes (engine/move_codes.py), as this module's own: mypyc reads a Final of its
# own module as a C static, another module's through that module's dict on every use
EXCHANGE: Final = move_codes.EXCHANGE
VOID: Final = move_codes.VOID
ACT: Final = move_codes.ACT
DRAW: Final = move_codes.DRAW
REPLACEMENT: Final = move_codes.REPLACEMENT
CLAIM: Final = move_codes.CLAIM
ROB: Final = move_codes.ROB
ENDED: Final = move_codes.ENDED
#: a tile's suit, and its weight in its suit's base-5 key
SUIT_OF: Final[tuple[int, ...]] = tuple(tile // 9 for tile in range(NUM_KINDS))
STEP_OF: Final[tuple[int, ...]] = tuple(POW5[tile % 9] for tile in range(NUM_KINDS))
_SUIT: Final = SUIT_OF
_STEP: Final = STEP_OF


class Phase(Enum):
    EXCHANGE = "exchange"  # 换三张 expected
    VOID = "void"  # 定缺 declarations expected
    ACT = "act"  # `current` holds 3n+2 tiles: discard, kong or self-drawn hu
    DRAW = "draw"  # `current` must draw
    REPLACEMENT = "replacement"  # `current` must draw its kong's replacement
    CLAIM = "claim"  # a discard is open: hu, pong, exposed kong, or the next draw
    ROB = "rob"  # an added kong is open for 抢杠胡
    ENDED = "ended"


#: the phases by their code (engine/move_codes.py, which the moves' rules answer in)
PHASES: Final[tuple[Phase, ...]] = tuple(Phase(name) for name in move_codes.PHASES)


class HandOff(Exception):
    """The deal leaves the fast check: the explaining replay plays it (raised by the fast
    check's side of the moves, never by the explaining replay's)."""


@dataclass(slots=True)
class Meld:
    kind: str  # pong, exposed, added, concealed
    tile: int
    from_seat: int | None


class Win(msgspec.Struct, frozen=True, gc=False):
    seat: int
    tile: int
    from_seat: int | None
    result: FanResult
    kind: str  # self_draw, discard, rob, kong_bloom (杠上花), kong_discard (杠上炮)
    line: int
    order: int  # 1, 2, 3
    turn: int  # the winner's draws so far
    deltas: tuple[int, int, int, int]
    transfers: tuple[Transfer, ...]


class KongMade(msgspec.Struct, frozen=True, gc=False):
    seat: int
    tile: int
    kind: str
    line: int
    deltas: tuple[int, int, int, int]  # zeros for a robbed or unpaid kong
    robbed: bool = False


class DealState:
    """One deal's state in integer form (see the module docstring); the moves that open no
    claim (换三张, 定缺) and the queries the claims and the wins ask."""

    def __init__(self, start: DealStart, rules: Rules, base: int = 1, deal_in: bool = True) -> None:
        """``deal_in=False``: no tiles dealt (the fast check's pricing of a plan played in C
        loads every seat it reads)."""
        self.start = start
        self.rules = rules
        self.base = base
        self.dealer = start.dealer
        #: the table (engine/table.py): the seats that play, in order, and the wall's size
        table = table_of(rules)
        self.players: int = table.players
        self.order: tuple[int, ...] = table.order
        self.wall_total: int = table.wall_size
        self.dealt: int = table.hand  # a non-dealer's tiles (the dealer one more)
        self.today: bool = table.today  # today's table: its own messages, no kind outside the set
        self.kinds: tuple[bool, ...] = table.kinds  # each kind: in the table's set
        #: 红中 (docs/decisions.md, "红中"): a table with them checks this one flag before
        #: any 红中 path, so a table without them pays nothing more
        self.wild_table: bool = table.wild_copies > 0
        self.haidi_any: bool = haidi_on_any_discard(rules)  # 海底 on any discard once the wall is empty
        self.wild_copies: int = table.wild_copies  # 红中 in the set
        self.wilds: list[int] = [0, 0, 0, 0]  # 红中 among each seat's concealed tiles
        self.wilds_out = 0  # 红中 out of the wall (dealt or drawn)
        self.hands: list[list[int]] = [[0] * NUM_KINDS for _ in SEATS]
        self.keys: list[int] = [0] * 12  # seat * 3 + suit: base-5 suit keys (engine.shapes)
        self.sizes: list[int] = [0, 0, 0, 0]  # concealed suited tiles (the 红中 are ``wilds``)
        self.ponged: list[list[int]] = [[], [], [], []]
        self.konged: list[list[int]] = [[], [], [], []]  # every kong kind, in order made
        self.hidden: list[int] = [0, 0, 0, 0]  # how many of each seat's kongs are 暗杠
        self.discards: list[list[int]] = [[], [], [], []]  # unclaimed discards on the table
        self.laid: list[list[int]] = [[], [], [], []]  # 血流成河: winning tiles laid aside
        self.void: list[int | None] = [None] * 4
        self.draws = [0, 0, 0, 0]
        self.settler = Settler(rules, base)  # prices every payment from the facts below
        self.won = self.settler.won  # the same list: who is still in decides who pays
        self.left = self.settler.left  # who has left the deal: the winners, none under 血流成河
        self.stays = self.settler.stays  # 血流成河: a winner plays on
        self.wall_left = self.wall_total
        self.wall = start.wall
        self.front = 0
        self.back = 0
        self.out_of_wall: list[int] = [0] * NUM_KINDS  # tiles leave the wall only by draws
        self.wins: list[Win] = []
        self.made: list[KongMade] = []
        self.kong_income: list[KongIncome] = self.settler.kong_income
        self.ledger: list[Transfer] = self.settler.ledger
        self.settled = False
        self.end_reason: str | None = None
        self.breaches: list[IllegalEvent] = []  # breaches that do not stop the replay
        self.ready_at_end: dict[int, int] = {}  # seat -> 查大叫 fan, at an empty wall
        self.pigs: set[int] = set()  # 花猪 at an empty wall
        self.all_fans = True  # 查叫 works out every ready seat's fan, paid or not
        self.passes = PassRecord(rules)  # 过水不胡
        self.open: OpenTile | None = None
        self.drawn = NO_TILE  # the tile drawn this turn
        self.after_kong = False  # this turn follows a kong's replacement draw
        self.pending_seat = -1  # an added kong open for 抢杠胡: its seat, tile, line
        self.pending_tile = NO_TILE
        self.pending_line = 0
        self.pending_drawn = False  # its tile was drawn this turn
        self.pending_deltas: tuple[int, ...] | None = None  # its recorded payment
        self.any_claim = False  # a pong or kong happened (地胡 needs none)
        self.any_discard = False
        self.current = start.dealer
        self.stage = ACT  # the phase's code (engine/move_codes.py)
        if deal_in:
            self._deal_in(start)

    # ----------------------------------------------------------------- set-up
    def _deal_in(self, start: DealStart) -> None:
        today = self.today
        if not 0 <= start.dealer < self.players:
            key = "dealer_seat" if today else "table_dealer_seat"
            raise IllegalEvent("bad_record", play(key, got=start.dealer, top=self.players - 1))
        if len(start.hands) != self.players:
            if today:
                raise IllegalEvent("tile_count", play("four_hands", count=len(start.hands)))
            raise IllegalEvent("tile_count", play("table_hands", count=len(start.hands), seats=self.players))
        seen = [0] * NUM_KINDS
        keys = self.keys
        dealt = self.dealt
        for seat in self.order:
            hand = start.hands[seat]
            size = dealt + 1 if seat == start.dealer else dealt
            if len(hand) != size:
                if today:
                    role = play("role_dealer" if seat == start.dealer else "role_other")
                else:
                    role = play(
                        "table_role_dealer" if seat == start.dealer else "table_role_other", size=size
                    )
                raise IllegalEvent(
                    "tile_count",
                    play("dealt_size", seat=seat, count=len(hand), role=role),
                    seat,
                    rule="rules.md 1",
                    expected=size,
                    recorded=len(hand),
                )
            suited: Sequence[int] = hand
            if self.wild_table:
                suited = self.take_wilds(seat, hand)
                size -= self.wilds[seat]
            counts = self.hands[seat]
            try:
                for tile in suited:
                    counts[tile] += 1  # (a 红中 at a table without them: no count, IndexError)
                    seen[tile] += 1
                    keys[seat * 3 + _SUIT[tile]] += _STEP[tile]
            except IndexError:
                raise self.off_table(WILD, sum(1 for tile in hand if tile == WILD)) from None
            self.sizes[seat] = size
        self.out_of_wall = list(seen)
        wall_total = self.wall_total
        if self.wall is not None:
            if len(self.wall) != wall_total:
                key = "wall_size" if today else "table_wall_size"
                raise IllegalEvent(
                    "tile_count",
                    play(key, count=len(self.wall), expected=wall_total),
                    expected=wall_total,
                    recorded=len(self.wall),
                )
            wall: Sequence[int] = self.wall
            if self.wild_table:
                wall = self.count_wall_wilds(wall)
            try:
                for tile in wall:
                    seen[tile] += 1
            except IndexError:
                raise self.off_table(WILD, sum(1 for tile in wall if tile == WILD)) from None
        in_set = self.kinds
        for tile in range(NUM_KINDS):
            if not today and seen[tile] and not in_set[tile]:
                raise IllegalEvent(
                    "tile_count",
                    play("tile_off_table", tile=tile_name(tile), suits=self.rules_suits()),
                    expected=0,
                    recorded=seen[tile],
                )
            if seen[tile] > COPIES:
                raise IllegalEvent(
                    "tile_count",
                    play("copies_dealt", count=seen[tile], tile=tile_name(tile)),
                    expected=COPIES,
                    recorded=seen[tile],
                )
            if not today and not in_set[tile]:
                self.out_of_wall[tile] = COPIES  # none in the set: a draw of one is no tile of the wall
        self.stage = opening_phase(self.rules)

    def take_wilds(self, seat: int, hand: Sequence[int]) -> list[int]:
        """The seat's dealt tiles without their 红中, which it holds beside the 27 counts
        (``wilds``)."""
        wilds = sum(1 for tile in hand if tile == WILD)
        self.wilds[seat] = wilds
        self.wilds_out += wilds
        self.check_wild_copies(self.wilds_out)
        return [tile for tile in hand if tile != WILD]

    def count_wall_wilds(self, wall: Sequence[int]) -> list[int]:
        """The recorded wall without its 红中, counted against the set's."""
        wilds = sum(1 for tile in wall if tile == WILD)
        self.check_wild_copies(self.wilds_out + wilds)
        return [tile for tile in wall if tile != WILD]

    def check_wild_copies(self, count: int) -> None:
        if count > self.wild_copies:
            raise IllegalEvent(
                "tile_count",
                play("wild_copies", count=count, expected=self.wild_copies),
                expected=self.wild_copies,
                recorded=count,
            )

    def off_table(self, tile: int, count: int, seat: int | None = None) -> IllegalEvent:
        """A tile the table's set does not hold (a suit not in play, a 红中 at a table
        without them)."""
        return IllegalEvent(
            "tile_count",
            play("tile_off_table", tile=tile_name(tile), suits=self.rules_suits()),
            seat,
            expected=0,
            recorded=count,
        )

    def rules_suits(self) -> str:
        """The suits in the wall, as letters (万 m, 筒 p, 条 s)."""
        in_set = self.kinds
        return "".join(SUITS[suit] for suit in range(3) if in_set[suit * 9])

    def in_set(self, tile: int) -> bool:
        """Is the tile's kind in the table's set?"""
        return self.kinds[tile]

    def move(self, seat: int, tile: int, count: int) -> None:
        """Every change of a concealed hand goes through here, so its suit keys and size
        stay true."""
        self.hands[seat][tile] += count
        self.sizes[seat] += count
        self.keys[seat * 3 + _SUIT[tile]] += count * _STEP[tile]

    def shape_with(self, seat: int, tile: int) -> bool:
        """Do the seat's concealed tiles (plus ``tile``; NO_TILE: as held) form sets and a
        pair, or seven pairs? (A seat holding 红中: :meth:`wild_shape_with`.)"""
        if self.wild_table and self.wilds[seat]:
            return self.wild_shape_with(seat, tile)
        base = seat * 3
        keys = self.keys
        k0 = keys[base]
        k1 = keys[base + 1]
        k2 = keys[base + 2]
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
        return is_win_shape_keys(k0, k1, k2, total, not self.ponged[seat] and not self.konged[seat])

    def wild_shape_with(self, seat: int, tile: int) -> bool:
        """:meth:`shape_with` of a seat holding 红中 (``engine.shapes.wild_win``)."""
        counts = self.hands[seat]
        if tile != NO_TILE:
            counts = list(counts)
            counts[tile] += 1
        melds = len(self.ponged[seat]) + len(self.konged[seat])
        return wild_win(counts, self.wilds[seat], self.dealt == 13 and not melds)

    # ----------------------------------------------------------------- hooks
    def note(self, breach: IllegalEvent) -> None:
        """A breach that leaves the deal playable: kept (the fast check gives the deal up)."""
        self.breaches.append(breach)

    def melded(self, seat: int, kind: str, tile: int, from_seat: int | None) -> None:
        """A pong or kong made (``added``: a pong became a kong; ``robbed``: that kong was
        robbed, the pong stands again): the explaining replay keeps its melds."""

    def check_kongs_known(self, seat: int) -> None:
        """Before a seat's tiles are scored: the fast check gives up where it cannot tell
        the seat's 暗杠."""

    # ----------------------------------------------------------------- queries
    @property
    def settlement(self) -> list[Transfer]:
        """The 查叫 transfers at an empty wall (empty before or without it)."""
        return self.settler.settlement

    @property
    def in_play(self) -> list[int]:
        """The seats still in the deal (every seat under 血流成河)."""
        return [seat for seat in self.order if not self.left[seat]]

    @property
    def never_won(self) -> list[int]:
        """The seats that have not won: 查叫 judges them."""
        return [seat for seat in self.order if not self.won[seat]]

    @property
    def open_tile(self) -> tuple[int, int, bool, tuple[int, ...]] | None:
        """The tile open for claims: (seat, tile, is an added kong, winners so far)."""
        o = self.open
        return None if o is None else (o.seat, o.tile, o.rob, tuple(o.winners))

    def last_drawn(self) -> int | None:
        """The tile drawn this turn, or None."""
        return None if self.drawn == NO_TILE else self.drawn

    def hand_fixed(self, seat: int) -> bool:
        """血流成河's 胡后不改牌: the seat has won and plays on with its hand fixed."""
        return self.stays and self.won[seat]

    def pongs(self, seat: int) -> list[int]:
        return self.ponged[seat]

    def kong_tiles(self, seat: int) -> list[int]:
        return self.konged[seat]

    def concealed_kongs(self, seat: int) -> int:
        """How many of the seat's kongs are 暗杠 (门清 keeps them)."""
        return self.hidden[seat]

    def held(self, seat: int) -> list[int]:
        return held_counts(self.hands[seat], self.ponged[seat], self.konged[seat])

    def _seen_counts(self) -> list[int]:
        """Copies of each kind outside the wall: hands, melds, discards."""
        seen = [0] * NUM_KINDS
        for seat in self.order:
            for tile, count in enumerate(self.held(seat)):
                seen[tile] += count
            for tile in self.discards[seat]:
                if tile != WILD:  # a discarded 红中 is no copy of a kind
                    seen[tile] += 1
            for tile in self.laid[seat]:
                if tile != WILD:
                    seen[tile] += 1
        return seen

    def tiles_held(self, seat: int) -> int:
        """Every tile the seat holds, melds (a kong is four) and 红中 included."""
        return sum(self.held(seat)) + self.wilds[seat]

    def is_over(self) -> bool:
        return self.stage == ENDED

    def holds_void(self, seat: int, counts: list[int] | None = None) -> bool:
        """Does the seat hold its void suit (``counts``: these tiles, melds included)?"""
        return holds_void(counts if counts is not None else self.held(seat), self.void[seat], self.rules)

    def win_on(self, seat: int, tile: int, context: WinContext) -> FanResult | None:
        """The fan of ``seat`` winning with ``tile`` added to its hand, or ``None`` when the
        tiles are no win or break 定缺 (the pass rule is checked separately)."""
        if not self.shape_with(seat, tile):
            return None
        counts = list(self.hands[seat])
        counts[tile] += 1
        return self.win_counts(seat, counts, context, tile)

    def win_counts(
        self, seat: int, counts: list[int], context: WinContext, win_tile: int = NO_TILE
    ) -> FanResult | None:
        """The fan of ``counts`` (with the winning tile ``win_tile``; NO_TILE: the drawn tile)."""
        pongs = self.ponged[seat]
        kongs = self.konged[seat]
        if holds_void(held_counts(counts, pongs, kongs), self.void[seat], self.rules):
            return None
        self.check_kongs_known(seat)
        if win_tile == NO_TILE:
            win_tile = self.drawn
        wilds = self.wilds[seat] if self.wild_table else 0
        return score_win(counts, pongs, kongs, self.rules, context, win_tile, self.hidden[seat], wilds)

    def ready_waits(self, seat: int) -> int:
        """The waits that make a seat ready at 查叫 (:func:`engine.moves.ready_waits`),
        only the live ones under ``dead_wait_counts: false``; the suit keys first rule most
        hands out."""
        base = seat * 3
        keys = self.keys
        seven_pairs = not self.ponged[seat] and not self.konged[seat]
        wilds = self.wilds[seat] if self.wild_table else 0
        if not wilds and not may_wait_keys(
            keys[base], keys[base + 1], keys[base + 2], self.sizes[seat], seven_pairs
        ):
            return 0
        waits = ready_waits(
            self.hands[seat], self.ponged[seat], self.konged[seat], self.void[seat], self.rules, wilds
        )
        if waits and not self.rules.dead_wait_counts:
            waits = live_waits(waits, self._unseen_by(seat))
        return waits

    def ready_fan(self, seat: int, waits: int) -> int | None:
        """查大叫 value of a seat's 13-tile hand over its ``waits``."""
        self.check_kongs_known(seat)
        hand, pongs, kongs = self.hands[seat], self.ponged[seat], self.konged[seat]
        wilds = self.wilds[seat] if self.wild_table else 0
        return ready_value(hand, pongs, kongs, self.rules, waits, self.hidden[seat], wilds)

    def waits_of(self, seat: int, counts: list[int]) -> int:
        """The waits of ``counts`` on the seat's melds (and its 红中): a fixed hand's kong
        keeps them (血流成河, 胡后不改牌)."""
        if self.wild_table:
            return wait_mask(counts, self.ponged[seat], self.konged[seat], self.wilds[seat], self.rules)
        return wait_mask(counts, self.ponged[seat], self.konged[seat])

    def _unseen_by(self, seat: int) -> list[int]:
        """Copies a seat cannot see: the wall and the concealed hands of others still in."""
        seen = self._seen_counts()
        unseen = [COPIES - count for count in seen]  # the wall
        for other in self.in_play:
            if other != seat:
                for tile, count in enumerate(self.hands[other]):
                    unseen[tile] += count
        return unseen

    def heavenly(self, seat: int) -> bool:
        """天胡 (:func:`engine.move_checks.heavenly`)."""
        return heavenly(seat, self.dealer, self.draws[seat], self.any_discard, self.any_claim)

    def self_draw_context(self, seat: int) -> WinContext:
        first, drew = self.heavenly(seat), self.drawn != NO_TILE
        context = self_draw_context(
            seat, self.dealer, self.draws[seat], self.any_claim, drew, self.won[seat], first, self.after_kong,
            self.wall_left,
        )  # fmt: skip
        if self.wild_table and context.first_turn and self.drawn == WILD and self.wilds[seat] < 5:
            # a 地胡 on the 红中 that made four: not 起手4红中 (four dealt)
            return WinContext(
                self_draw=True, after_kong=context.after_kong, last_tile=context.last_tile, first_turn=True,
                dealer=context.dealer, wilds_dealt=False,
            )  # fmt: skip
        return context

    # ----------------------------------------------------------------- checks
    def expect_seat(self, seat: int, what: str) -> None:
        if not 0 <= seat < self.players:
            if self.today:
                raise IllegalEvent("bad_record", play("seat_range", got=seat))
            raise IllegalEvent("bad_record", play("table_seat_range", got=seat, top=self.players - 1))
        if self.left[seat]:
            raise IllegalEvent(
                "out_of_turn",
                play("won_already", seat=seat, what=doing(what)),
                seat,
            )

    def check_voids_declared(self) -> None:
        if self.stage == VOID:
            missing = [seat for seat in self.order if self.void[seat] is None]
            raise IllegalEvent(
                "void_rule",
                play("void_missing", missing=missing),
                missing[0],
                rule="void_declaration",
            )
        if self.stage == EXCHANGE:
            raise IllegalEvent("out_of_turn", play("play_before_exchange"), rule="exchange_three")

    # ----------------------------------------------------------------- exchange and void
    def exchange(self, direction: str, given: Sequence[Sequence[int]]) -> None:
        """换三张: every seat passes three tiles of one suit, all in one direction."""
        if self.stage != EXCHANGE:
            why = play("exchange_off" if not exchanges(self.rules) else "exchange_not_now")
            raise IllegalEvent("out_of_turn", play("exchange_here", why=why), rule="exchange_three")
        players = self.players
        if direction == "across" and players != 4:
            raise IllegalEvent(
                "illegal_exchange", play("exchange_across", seats=players), rule="exchange_three"
            )
        check_exchange(given, self.hands, players)
        step = EXCHANGE_STEP[direction]
        for seat, three in enumerate(given):
            for tile in three:
                self.move(seat, tile, -1)
                self.move((seat + step) % players, tile, 1)
        self.stage = phase_after_exchange(self.rules)

    def declare_void(self, seat: int, suit: int) -> None:
        """定缺: a seat declares the suit it will not keep."""
        self.expect_seat(seat, "declare a void suit")
        stage = self.stage
        check_void(self.rules, seat, self.void[seat] is not None, stage == VOID, stage == EXCHANGE)
        if not self.today and not self.in_set(suit * 9):
            raise IllegalEvent(
                "void_rule",
                play("void_off_table", seat=seat, suit=SUITS[suit % 3], suits=self.rules_suits()),
                seat,
                rule="void_declaration",
            )
        self.void[seat] = suit
        if stage == VOID and all(self.void[other] is not None for other in self.order):
            self.stage = ACT

    # ----------------------------------------------------------------- the table
    def lay_aside(self, seat: int, tile: int) -> None:
        """血流成河: the winning tile is laid aside face up; the seat keeps its other tiles."""
        self.laid[seat].append(tile)

    def end_deal(self, reason: str) -> None:
        self.end_reason = reason
        self.stage = ENDED
        self.open = None
