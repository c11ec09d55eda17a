"""One deal as a state machine: ``Deal(start, rules).apply(event)`` for every event.

The state holds each seat's concealed counts, melds and discards, the wall, whose move it
is and what is open for claims (a discard, an added kong that may be robbed). ``apply``
raises :class:`IllegalEvent` (carrying a finding code of docs/report.md) for a move
the rules forbid; the state is then not to be trusted and the replay of the deal stops.
Breaches that leave the deal playable (定缺 discard order, a missed forced win) are
collected in ``breaches`` instead. Everything it computes (payments,
fan of each win, the 查叫 settlement) goes to ``wins`` and the ``ledger``; comparing them
with what the recorder claimed is :mod:`engine.replay`'s job.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Final

from engine.events import DealEnd, DealStart, Discard, Draw, Exchange, Hu, Kong, PlayEvent, Pong, Void
from engine.fan import DISCARD_WIN, FanResult, WinContext, score_win
from engine.hand import held_counts, ready_value, wait_mask
from engine.rules import Rules
from engine.settlement import (
    KongIncome,
    Transfer,
    deltas,
    flower_pig_transfers,
    multiplier,
    no_ting_transfers,
    refund_transfers,
)
from engine.shapes import POW5, is_win_shape_keys, suit_keys
from engine.tiles import COPIES, NUM_KINDS, SUITS, suits_used, tile_name

WALL_SIZE: Final = 55
LAST_FOUR: Final = 4
SEATS: Final[tuple[int, int, int, int]] = (0, 1, 2, 3)
EXCHANGE_STEP = {"counterclockwise": 1, "across": 2, "clockwise": 3}


class IllegalEvent(ValueError):
    """An event the rules forbid; ``code`` is the finding code of the spec."""

    def __init__(
        self,
        code: str,
        message: str,
        seat: int | None = None,
        *,
        rule: str | None = None,
        expected: object = None,
        recorded: object = None,
        line: int | None = None,
    ) -> None:
        super().__init__(message)
        self.line = line  # where it happened, when not the event being applied
        self.code = code
        self.message = message
        self.seat = seat
        self.rule = rule
        self.expected = expected
        self.recorded = recorded


class Phase(Enum):
    EXCHANGE = "exchange"  # 换三张 expected
    VOID = "void"  # 定缺 declarations expected
    ACT = "act"  # `current` holds 3n+2 tiles: discard, kong or self-drawn hu
    DRAW = "draw"  # `current` must draw
    REPLACEMENT = "replacement"  # `current` must draw its kong's replacement
    CLAIM = "claim"  # a discard is open: hu, pong, exposed kong, or the next draw
    ROB = "rob"  # an added kong is open for 抢杠胡
    ENDED = "ended"


@dataclass(slots=True)
class Meld:
    kind: str  # pong, exposed, added, concealed
    tile: int
    from_seat: int | None


@dataclass(frozen=True, slots=True)
class Win:
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


@dataclass(frozen=True, slots=True)
class KongMade:
    seat: int
    tile: int
    kind: str
    line: int
    deltas: tuple[int, int, int, int]  # zeros for a robbed or unpaid kong
    robbed: bool = False


class _OpenTile:
    """A discard or an added kong that other seats may win on."""

    __slots__ = ("after_kong", "context", "last_four", "last_tile", "line", "rob", "seat", "tile", "winners")

    def __init__(
        self, seat: int, tile: int, line: int, after_kong: bool, last_tile: bool, last_four: bool, rob: bool
    ) -> None:
        self.seat = seat
        self.tile = tile
        self.line = line
        self.after_kong = after_kong  # 杠上炮: the discarder had just konged
        self.last_tile = last_tile  # 海底: the discard right after the wall's last draw
        self.last_four = last_four
        self.rob = rob
        self.winners: list[int] = []
        self.context = (  # how a win on it would count
            WinContext(after_kong=after_kong, robbing_kong=rob, last_tile=last_tile)
            if after_kong or rob or last_tile
            else DISCARD_WIN
        )


def next_seat(seat: int, won: list[bool]) -> int | None:
    """The first seat after ``seat`` in turn order that is still in the deal."""
    for step in (1, 2, 3):
        candidate = (seat + step) % 4
        if not won[candidate]:
            return candidate
    return None


class Deal:
    """The state of one deal under one rule set; see the module docstring."""

    def __init__(self, start: DealStart, rules: Rules, base: int = 1) -> None:
        self.start = start
        self.rules = rules
        self.base = base
        self.dealer = start.dealer
        self.hands: list[list[int]] = [[0] * NUM_KINDS for _ in SEATS]
        self.melds: list[list[Meld]] = [[] for _ in SEATS]
        self.discards: list[list[int]] = [[] for _ in SEATS]  # unclaimed discards on the table
        self.won = [False] * 4
        self.void: list[int | None] = [None] * 4
        self.draws = [0] * 4
        self.wall_left = WALL_SIZE
        self.wall = start.wall
        self._front = 0
        self._back = 0
        self.wins: list[Win] = []
        self.kongs: list[KongMade] = []
        self.kong_income: list[KongIncome] = []
        self.ledger: list[Transfer] = []
        self.settlement: list[Transfer] = []
        self._settled = False
        self.end_reason: str | None = None
        self.breaches: list[IllegalEvent] = []  # breaches that do not stop the replay
        self.ready_at_end: dict[int, int] = {}  # seat -> 查大叫 fan, at an empty wall
        self.pigs: set[int] = set()  # 花猪 at an empty wall
        self._passed: list[dict[int, int] | None] = [None] * 4  # tile -> fan passed (过水)
        self._open: _OpenTile | None = None
        self._last_draw: int | None = None
        self._after_kong = False  # this turn follows a kong's replacement draw
        self._last_kong: KongIncome | None = None
        self._last_kong_feeder: int | None = None
        self._pending_added: tuple[Kong, Meld, bool] | None = None  # kong, its meld, drawn this turn
        self._any_claim = False  # a pong or kong happened (地胡 needs none)
        self._any_discard = False
        self._deal_in(start)

    # ----------------------------------------------------------------- set-up
    def _deal_in(self, start: DealStart) -> None:
        if start.dealer not in SEATS:
            raise IllegalEvent("bad_record", f"dealer must be a seat 0-3, got {start.dealer}")
        if len(start.hands) != 4:
            raise IllegalEvent("tile_count", f"a deal has four hands, got {len(start.hands)}")
        for seat, hand in enumerate(start.hands):
            size = 14 if seat == start.dealer else 13
            if len(hand) != size:
                role = "the dealer (庄) holds 14" if seat == start.dealer else "a non-dealer holds 13"
                raise IllegalEvent(
                    "tile_count",
                    f"seat {seat} is dealt {len(hand)} tiles; {role}",
                    seat,
                    rule="docs/rules.md 1",
                    expected=size,
                    recorded=len(hand),
                )
            for tile in hand:
                self.hands[seat][tile] += 1
        seen = self._seen_counts()
        self._out_of_wall = list(seen)  # tiles leave the wall only by draws
        if self.wall is not None:
            if len(self.wall) != WALL_SIZE:
                raise IllegalEvent(
                    "tile_count",
                    f"the recorded wall (牌墙) holds {len(self.wall)} tiles; 55 stay after the deal "
                    "(108 tiles, 53 dealt)",
                    expected=WALL_SIZE,
                    recorded=len(self.wall),
                )
            for tile in self.wall:
                seen[tile] += 1
        for tile in range(NUM_KINDS):
            if seen[tile] > COPIES:
                raise IllegalEvent(
                    "tile_count",
                    f"{seen[tile]} copies of {tile_name(tile)} dealt; the set (108 张) has four of each tile",
                    expected=COPIES,
                    recorded=seen[tile],
                )
        self._keys = [list(suit_keys(hand)) for hand in self.hands]  # per seat, kept by _move
        self._sizes = [sum(hand) for hand in self.hands]
        self.current = start.dealer
        if self.rules.exchange_three:
            self.phase = Phase.EXCHANGE
        elif self.rules.void_declaration == "required":
            self.phase = Phase.VOID
        else:
            self.phase = Phase.ACT

    def _move(self, seat: int, tile: int, count: int) -> None:
        """Every change of a concealed hand goes through here, so its suit keys and size
        stay true."""
        self.hands[seat][tile] += count
        self._sizes[seat] += count
        self._keys[seat][tile // 9] += count * POW5[tile % 9]

    def _shape_with(self, seat: int, tile: int | None) -> bool:
        """Do the seat's concealed tiles (plus ``tile``) form sets and a pair, or seven pairs?"""
        k0, k1, k2 = self._keys[seat]
        total = self._sizes[seat]
        if tile is not None:
            total += 1
            suit = tile // 9
            step = POW5[tile - 9 * suit]
            if suit == 0:
                k0 += step
            elif suit == 1:
                k1 += step
            else:
                k2 += step
        return is_win_shape_keys(k0, k1, k2, total, not self.melds[seat])

    # ----------------------------------------------------------------- queries
    @property
    def in_play(self) -> list[int]:
        return [seat for seat in SEATS if not self.won[seat]]

    def pongs(self, seat: int) -> list[int]:
        return [m.tile for m in self.melds[seat] if m.kind == "pong"]

    def kong_tiles(self, seat: int) -> list[int]:
        return [m.tile for m in self.melds[seat] if m.kind != "pong"]

    def held(self, seat: int) -> list[int]:
        return held_counts(self.hands[seat], self.pongs(seat), self.kong_tiles(seat))

    def _seen_counts(self) -> list[int]:
        """Copies of each kind outside the wall: hands, melds, discards."""
        seen = [0] * NUM_KINDS
        for seat in SEATS:
            for tile, count in enumerate(self.held(seat)):
                seen[tile] += count
            for tile in self.discards[seat]:
                seen[tile] += 1
        return seen

    def tiles_accounted(self) -> int:
        """Hands + melds + table + wall: 108 at every step (an invariant for tests)."""
        return sum(self._seen_counts()) + self.wall_left

    def is_over(self) -> bool:
        return self.phase is Phase.ENDED

    def _holds_void(self, seat: int, counts: list[int] | None = None) -> bool:
        suit = self.void[seat]
        if suit is None or self.rules.void_declaration != "required":
            return False
        held = counts if counts is not None else self.held(seat)
        return any(held[suit * 9 : suit * 9 + 9])

    def win_on(self, seat: int, tile: int, context: WinContext) -> FanResult | None:
        """The fan of ``seat`` winning with ``tile`` added to its hand, or ``None`` when the
        tiles are no win or break 定缺 (the pass rule is checked separately)."""
        if not self._shape_with(seat, tile):
            return None
        counts = list(self.hands[seat])
        counts[tile] += 1
        return self._win_counts(seat, counts, context)

    def _win_counts(self, seat: int, counts: list[int], context: WinContext) -> FanResult | None:
        if self._holds_void(seat, held_counts(counts, self.pongs(seat), self.kong_tiles(seat))):
            return None
        return score_win(counts, self.pongs(seat), self.kong_tiles(seat), self.rules, context)

    def _pass_blocks(self, seat: int, tile: int, fan: int) -> bool:
        passed = self._passed[seat]
        rule = self.rules.pass_rule
        if passed is None or rule == "off":
            return False
        relevant = passed.values() if rule == "any" else [passed[tile]] if tile in passed else []
        if not relevant:
            return False
        return not (self.rules.pass_rule_higher_fan_ok and fan > max(relevant))

    def ready_fan(self, seat: int) -> int | None:
        """查大叫 value of a seat's 13-tile hand, honouring 定缺 and ``dead_wait_counts``."""
        hand = self.hands[seat]
        pongs, kongs = self.pongs(seat), self.kong_tiles(seat)
        if self._holds_void(seat):
            return None
        mask = wait_mask(hand, pongs, kongs)
        if not mask:
            return None
        if not self.rules.dead_wait_counts:
            unseen = self._unseen_by(seat)
            live = [t for t in range(NUM_KINDS) if mask >> t & 1 and unseen[t] > 0]
            if not live:
                return None
            # 死叫不算叫: a dead wait neither makes the seat ready nor sets its value
            fans = []
            for tile in live:
                counts = list(hand)
                counts[tile] += 1
                result = score_win(counts, pongs, kongs, self.rules, DISCARD_WIN)
                if result is not None:
                    fans.append(result.fan)
            if not fans:
                return None
            return max(fans) if self.rules.no_ting_pays == "max" else min(fans)
        return ready_value(hand, pongs, kongs, self.rules)

    def _unseen_by(self, seat: int) -> list[int]:
        """Copies a seat cannot see: the wall and the concealed hands of others still in."""
        seen = self._seen_counts()
        unseen = [COPIES - count for count in seen]  # the wall
        for other in self.in_play:
            if other != seat:
                for tile, count in enumerate(self.hands[other]):
                    unseen[tile] += count
        return unseen

    # ----------------------------------------------------------------- apply
    def apply(self, event: PlayEvent | DealEnd) -> None:
        """Apply one event; raises :class:`IllegalEvent` when the rules forbid it."""
        kind = event.type
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise IllegalEvent("out_of_turn", f"a {kind!r} event inside a deal")
        if self.phase is Phase.ENDED and kind != "deal_end":
            raise IllegalEvent(
                "out_of_turn",
                f"{kind} after the deal has ended ({self.end_reason}): {self.end_rule()}",
                getattr(event, "seat", None),
            )
        handler(self, event)

    def _expect_seat(self, seat: int, what: str) -> None:
        if seat not in SEATS:
            raise IllegalEvent("bad_record", f"seat must be 0-3, got {seat}")
        if self.won[seat]:
            raise IllegalEvent(
                "out_of_turn",
                f"seat {seat} has already won and may not {what}: 血战到底 (bloody), a seat that has won "
                "leaves the deal",
                seat,
            )

    def _out_of_turn(self, seat: int, what: str) -> IllegalEvent:
        expected = {
            Phase.EXCHANGE: "the 换三张 exchange",
            Phase.VOID: "the 定缺 declarations",
            Phase.ACT: f"seat {self.current} to discard, kong or win",
            Phase.DRAW: f"seat {self.current} to draw",
            Phase.REPLACEMENT: f"seat {self.current} to draw its kong's replacement tile",
            Phase.CLAIM: "a claim on the discard or the next draw"
            if self.next_drawer() is not None or not self._open or not self._open.winners
            else f"the end of the deal: {self.end_rule()}",
            Phase.ROB: "a rob of the added kong or the konger's replacement draw",
            Phase.ENDED: "the end of the deal",
        }[self.phase]
        return IllegalEvent(
            "out_of_turn",
            f"seat {seat} may not {what} now: waiting for {expected} (轮流, turn order: after a seat "
            "plays, the next seat still in)",
            seat,
        )

    # -- exchange and void
    def _on_exchange(self, event: Exchange) -> None:
        if self.phase is not Phase.EXCHANGE:
            why = "换三张 is off under these rules" if not self.rules.exchange_three else "not now"
            raise IllegalEvent("out_of_turn", f"an exchange (换三张) here: {why}", rule="exchange_three")
        if len(event.tiles) != 4 or any(len(given) != 3 for given in event.tiles):
            raise IllegalEvent(
                "illegal_exchange",
                "换三张 (exchange three): each seat passes exactly three tiles of one suit",
            )
        for seat, given in enumerate(event.tiles):
            if len({tile // 9 for tile in given}) != 1:
                raise IllegalEvent(
                    "illegal_exchange",
                    f"换三张 (exchange three): seat {seat} must pass three tiles of one suit",
                    seat,
                )
            need = [0] * NUM_KINDS
            for tile in given:
                need[tile] += 1
            if any(need[t] > self.hands[seat][t] for t in range(NUM_KINDS)):
                raise IllegalEvent(
                    "not_in_hand",
                    f"换三张 (exchange three): seat {seat} does not hold the tiles it passes",
                    seat,
                )
        step = EXCHANGE_STEP[event.direction]
        for seat, given in enumerate(event.tiles):
            for tile in given:
                self._move(seat, tile, -1)
                self._move((seat + step) % 4, tile, 1)
        self.phase = Phase.VOID if self.rules.void_declaration == "required" else Phase.ACT

    def _on_void(self, event: Void) -> None:
        seat = event.seat
        self._expect_seat(seat, "declare a void suit")
        if self.void[seat] is not None:
            raise IllegalEvent(
                "void_rule",
                f"seat {seat} declares 定缺 (void suit) twice: each seat declares one void suit",
                seat,
                rule="void_declaration",
            )
        if self.phase is not Phase.VOID and self.rules.void_declaration == "required":
            when = "before the 换三张 exchange" if self.phase is Phase.EXCHANGE else "after play began"
            raise IllegalEvent(
                "void_rule",
                f"seat {seat} declares 定缺 (void suit) {when}: the void suit is declared after 换三张 "
                "(exchange three) and before the dealer's first action",
                seat,
                rule="void_declaration",
            )
        self.void[seat] = event.suit
        if self.phase is Phase.VOID and all(v is not None for v in self.void):
            self.phase = Phase.ACT

    def _check_voids_declared(self) -> None:
        if self.phase is Phase.VOID:
            missing = [seat for seat in SEATS if self.void[seat] is None]
            raise IllegalEvent(
                "void_rule",
                f"seats {missing} have not declared 定缺 (void suit) before play",
                missing[0],
                rule="void_declaration",
            )
        if self.phase is Phase.EXCHANGE:
            raise IllegalEvent("out_of_turn", "play began before the 换三张 exchange", rule="exchange_three")

    # -- draws
    @staticmethod
    def _empty_wall(seat: int) -> str:
        return (
            f"seat {seat} draws from an empty wall: the wall (牌墙) holds 55 tiles after the deal, and "
            "when they are drawn the deal ends (流局, wall exhausted)"
        )

    def _on_draw(self, event: Draw) -> None:
        phase = self.phase
        if phase is Phase.VOID or phase is Phase.EXCHANGE:
            self._check_voids_declared()
        seat, tile = event.seat, event.tile
        self._expect_seat(seat, "draw")
        if phase is Phase.CLAIM or phase is Phase.ROB:
            self._resolve_open()
        if self.phase is Phase.ENDED and self.wall_left == 0:
            raise IllegalEvent("wall_mismatch", self._empty_wall(seat), seat)
        if self.phase not in (Phase.DRAW, Phase.REPLACEMENT) or seat != self.current:
            raise self._out_of_turn(seat, "draw")
        replacement = self.phase is Phase.REPLACEMENT
        if self.wall_left == 0:
            raise IllegalEvent("wall_mismatch", self._empty_wall(seat), seat)
        if self.wall is not None:
            index = WALL_SIZE - 1 - self._back if replacement else self._front
            expected = self.wall[index]
            if tile != expected:
                where = "the back (replacement draw)" if replacement else "the front"
                raise IllegalEvent(
                    "wall_mismatch",
                    f"seat {seat} draws {tile_name(tile)} but the recorded wall's next tile "
                    f"from {where} is {tile_name(expected)}",
                    seat,
                    expected=tile_name(expected),
                    recorded=tile_name(tile),
                )
        if self._out_of_wall[tile] >= COPIES:
            raise IllegalEvent(
                "tile_count",
                f"seat {seat} draws a fifth {tile_name(tile)}: all four are already out of the wall "
                "(108 张: four of each tile)",
                seat,
            )
        self.wall_left -= 1
        self._out_of_wall[tile] += 1
        if replacement:
            self._back += 1
        else:
            self._front += 1
            self._after_kong = False
        self._move(seat, tile, 1)
        self.draws[seat] += 1
        self._last_draw = tile
        self._passed[seat] = None  # 过水不胡 lasts until the seat's own next draw
        self.phase = Phase.ACT

    # -- discards
    def _on_discard(self, event: Discard) -> None:
        if self.phase is Phase.VOID or self.phase is Phase.EXCHANGE:
            self._check_voids_declared()
        seat, tile = event.seat, event.tile
        self._expect_seat(seat, "discard")
        if self.phase is Phase.ROB and seat == self.current:
            raise self._out_of_turn(seat, "discard before drawing the kong's replacement")
        if self.phase is not Phase.ACT or seat != self.current:
            raise self._out_of_turn(seat, "discard")
        if self.hands[seat][tile] == 0:
            raise IllegalEvent(
                "not_in_hand", f"seat {seat} discards {tile_name(tile)}, which it does not hold", seat
            )
        suit = self.void[seat]
        if (
            suit is not None
            and self.rules.void_discard_first
            and tile // 9 != suit
            and any(self.hands[seat][suit * 9 : suit * 9 + 9])
        ):
            self.breaches.append(
                IllegalEvent(
                    "void_rule",
                    f"seat {seat} discards {tile_name(tile)} while holding tiles of its void suit "
                    f"{SUITS[suit]}: 定缺 tiles must go first (void_discard_first)",
                    seat,
                    rule="void_discard_first",
                )
            )
        if self.wall_left < LAST_FOUR:
            self._check_missed_self_draw(seat)
        self._move(seat, tile, -1)
        self.discards[seat].append(tile)
        self._any_discard = True
        self._open = _OpenTile(
            seat,
            tile,
            event.line,
            self._after_kong,
            # 海底: the discard of the seat that drew the wall's last tile; after a pong
            # of that discard, the ponger's discard is no tile of the wall
            self.wall_left == 0 and self._last_draw is not None,
            self.wall_left < LAST_FOUR,
            False,
        )
        self._last_draw = None
        self.phase = Phase.CLAIM

    def in_last_four(self) -> bool:
        """最后四张 begins with the draw of the wall's fourth-last tile: from then on every
        tile drawn or discarded is one of the last four (docs/decisions.md)."""
        return self.wall_left < LAST_FOUR

    def _check_missed_self_draw(self, seat: int) -> None:
        """最后四张: a seat that drew one of the last four tiles and could win must win."""
        if not (self.rules.last_four_must_hu and self.in_last_four() and self._last_draw is not None):
            return
        context = WinContext(self_draw=True, after_kong=self._after_kong, last_tile=self.wall_left == 0)
        if self._win_counts(seat, self.hands[seat], context) is not None:
            self.breaches.append(
                IllegalEvent(
                    "missed_forced_hu",
                    f"seat {seat} drew {tile_name(self._last_draw)}, one of the wall's last four tiles, "
                    "and could win on it: 最后四张 must be won (last_four_must_hu)",
                    seat,
                    rule="last_four_must_hu",
                )
            )

    def _resolve_open(self) -> None:
        """Before any event but a win on it, an open discard or added kong closes."""
        if self.phase is Phase.ROB:
            if self._open is not None and self._open.winners:
                self._close_claims()
            else:
                self._settle_added_kong()
        elif self.phase is Phase.CLAIM:
            self._close_claims()

    def _record_passes(self, open_tile: _OpenTile) -> None:
        """Every seat that could have won the open tile and did not has passed it (过水),
        or, on one of the last four tiles, missed a forced win."""
        if open_tile.winners and not self.rules.multiple_hu:
            return  # nobody else could win it
        context = open_tile.context
        won = self.won
        for seat in SEATS:
            if won[seat] or seat == open_tile.seat or seat in open_tile.winners:
                continue
            if not self._shape_with(seat, open_tile.tile):
                continue
            result = self.win_on(seat, open_tile.tile, context)
            if result is None:
                continue
            if open_tile.last_four:
                if self.rules.last_four_must_hu:
                    self.breaches.append(
                        IllegalEvent(
                            "missed_forced_hu",
                            f"seat {seat} did not win on {tile_name(open_tile.tile)}, one of the wall's last "
                            "four tiles, though it could: 最后四张 must be won (last_four_must_hu)",
                            seat,
                            rule="last_four_must_hu",
                            line=open_tile.line,
                        )
                    )
                continue  # the pass rule does not apply to the last four
            if self._pass_blocks(seat, open_tile.tile, result.fan):
                continue  # it could not have won anyway
            passed = self._passed[seat] or {}
            passed[open_tile.tile] = max(result.fan, passed.get(open_tile.tile, 0))
            self._passed[seat] = passed

    def _close_claims(self) -> None:
        """The open discard or kong closes without a (further) claim: passes are recorded
        and the turn moves on, after the winners if there were any."""
        open_tile = self._open
        assert open_tile is not None
        self._record_passes(open_tile)
        self._open = None
        if open_tile.rob and not open_tile.winners:
            return  # the added kong stands; the caller pays it
        if open_tile.winners and self._check_end_after_win():
            return
        if self.wall_left == 0:
            self._end("wall_exhausted")
            return
        following = self._next_after(open_tile)
        assert following is not None
        self.current = following
        self.phase = Phase.DRAW

    def _next_after(self, open_tile: _OpenTile) -> int | None:
        """The first seat still in after the discarder, or after the winner furthest from
        the discarder in turn order when the tile was won."""
        if not open_tile.winners:
            return next_seat(open_tile.seat, self.won)
        after = max(open_tile.winners, key=lambda w: (w - open_tile.seat) % 4)
        return next_seat(after, self.won)

    def next_drawer(self) -> int | None:
        """Who draws next if nobody (else) claims the open discard; ``None`` at an empty wall."""
        if self._open is None:
            return self.current if self.phase in (Phase.DRAW, Phase.REPLACEMENT) else None
        if self._open.rob and not self._open.winners:
            return self._open.seat  # the konger's replacement draw
        ends = self._open.winners and (self.rules.end_condition == "first_hu" or self.won.count(True) >= 3)
        if self.wall_left == 0 or ends:
            return None
        return self._next_after(self._open)

    # -- pongs and kongs
    def _on_pong(self, event: Pong) -> None:
        self._check_voids_declared()
        seat = event.seat
        self._expect_seat(seat, "pong")
        open_tile = self._open
        if self.phase is not Phase.CLAIM or open_tile is None or open_tile.rob:
            raise self._out_of_turn(seat, "pong")
        if open_tile.winners:
            raise IllegalEvent(
                "out_of_turn",
                f"seat {seat} pongs a discard that has been won: 胡 beats 碰 and 杠 (a win takes the "
                "discard before any pong or kong)",
                seat,
            )
        if seat == open_tile.seat:
            raise IllegalEvent(
                "illegal_pong",
                f"seat {seat} pongs its own discard: 碰 (pong) takes another seat's discard",
                seat,
            )
        if event.tile != open_tile.tile:
            raise IllegalEvent(
                "illegal_pong",
                f"seat {seat} pongs {tile_name(event.tile)} but the last discard is {tile_name(open_tile.tile)}: "
                "碰 (pong) takes the last discard",
                seat,
                expected=tile_name(open_tile.tile),
                recorded=tile_name(event.tile),
            )
        if self.hands[seat][event.tile] < 2:
            raise IllegalEvent(
                "not_in_hand",
                f"seat {seat} pongs {tile_name(event.tile)} without a pair of it: 碰 (pong) is two in hand "
                "+ another seat's discard",
                seat,
            )
        self._check_void_claim(seat, event.tile, "pong")
        self._record_passes(open_tile)  # a pong instead of a possible win is a pass
        self._open = None
        self.discards[open_tile.seat].pop()
        self._move(seat, event.tile, -2)
        self.melds[seat].append(Meld("pong", event.tile, open_tile.seat))
        self._any_claim = True
        self.current = seat
        self._last_draw = None
        self._after_kong = False
        self.phase = Phase.ACT

    def _check_void_claim(self, seat: int, tile: int, what: str) -> None:
        if self.rules.void_declaration == "required" and self.void[seat] == tile // 9:
            raise IllegalEvent(
                "void_rule",
                f"seat {seat} claims {tile_name(tile)} by {what}, a tile of its 定缺 void suit",
                seat,
                rule="void_declaration",
            )

    @staticmethod
    def _no_wall_kong(seat: int) -> str:
        return (
            f"seat {seat} konged with no tile left in the wall: 杠后补牌 (a kong draws a replacement "
            "tile), so no kong without a tile left"
        )

    def _on_kong(self, event: Kong) -> None:
        self._check_voids_declared()
        seat = event.seat
        self._expect_seat(seat, "kong")
        if self.phase is Phase.ROB:
            self._resolve_open()
        if event.kind == "exposed":
            self._exposed_kong(event)
        elif event.kind in ("added", "concealed"):
            if self.phase is not Phase.ACT or seat != self.current:
                raise self._out_of_turn(seat, f"make a {event.kind} kong")
            if self.wall_left == 0:
                raise IllegalEvent("illegal_kong", self._no_wall_kong(seat), seat)
            self._check_missed_self_draw(seat)  # a kong instead of a forced win of the last four
            if event.kind == "concealed":
                self._concealed_kong(event)
            else:
                self._added_kong(event)
        else:
            raise IllegalEvent("bad_record", f"unknown kong kind {event.kind!r}", seat)

    def _exposed_kong(self, event: Kong) -> None:
        seat = event.seat
        open_tile = self._open
        if self.phase is not Phase.CLAIM or open_tile is None or open_tile.rob:
            raise self._out_of_turn(seat, "make an exposed kong")
        if open_tile.winners:
            raise IllegalEvent(
                "out_of_turn",
                f"seat {seat} kongs a discard that has been won: 胡 beats 碰 and 杠 (a win takes the "
                "discard before any pong or kong)",
                seat,
            )
        if seat == open_tile.seat or event.tile != open_tile.tile:
            raise IllegalEvent(
                "illegal_kong",
                f"seat {seat} makes an exposed kong of {tile_name(event.tile)}; the last discard is "
                f"{tile_name(open_tile.tile)} by seat {open_tile.seat}: 直杠 (exposed kong) takes another "
                "seat's last discard",
                seat,
            )
        if self.hands[seat][event.tile] < 3:
            raise IllegalEvent(
                "not_in_hand",
                f"seat {seat} kongs {tile_name(event.tile)} without three of it: 直杠 (exposed kong) is three "
                "in hand + another seat's discard",
                seat,
            )
        if self.wall_left == 0:
            raise IllegalEvent("illegal_kong", self._no_wall_kong(seat), seat)
        self._check_void_claim(seat, event.tile, "kong")
        self._record_passes(open_tile)
        self._open = None
        self.discards[open_tile.seat].pop()
        self._move(seat, event.tile, -3)
        self.melds[seat].append(Meld("exposed", event.tile, open_tile.seat))
        self._any_claim = True
        payers = [(open_tile.seat, self.rules.exposed_kong_discarder)] + [
            (other, self.rules.exposed_kong_others)
            for other in self.in_play
            if other not in (seat, open_tile.seat)
        ]
        self._pay_kong(seat, event, payers, feeder=open_tile.seat)

    def _concealed_kong(self, event: Kong) -> None:
        seat = event.seat
        if self.hands[seat][event.tile] < 4:
            raise IllegalEvent(
                "not_in_hand",
                f"seat {seat} makes a concealed kong of {tile_name(event.tile)} without four: 暗杠 "
                "(concealed kong) is four in hand",
                seat,
            )
        self._move(seat, event.tile, -4)
        self.melds[seat].append(Meld("concealed", event.tile, None))
        self._any_claim = True
        payers = [(other, self.rules.concealed_kong_each) for other in self.in_play if other != seat]
        self._pay_kong(seat, event, payers, feeder=None)

    def _added_kong(self, event: Kong) -> None:
        seat = event.seat
        meld = next((m for m in self.melds[seat] if m.kind == "pong" and m.tile == event.tile), None)
        if meld is None:
            raise IllegalEvent(
                "illegal_kong",
                f"seat {seat} adds to a pong of {tile_name(event.tile)} it does not have: 弯杠 (added kong) "
                "adds the fourth tile to the seat's own pong",
                seat,
            )
        if self.hands[seat][event.tile] < 1:
            raise IllegalEvent(
                "not_in_hand",
                f"seat {seat} adds {tile_name(event.tile)} to its pong without holding it: 弯杠 (added "
                "kong) is the seat's own pong + the fourth tile",
                seat,
            )
        self._move(seat, event.tile, -1)
        meld.kind = "added"
        self._any_claim = True
        self._pending_added = (event, meld, self._last_draw == event.tile)
        self._open = _OpenTile(
            seat, event.tile, event.line, after_kong=False, last_tile=False, last_four=False, rob=True
        )
        self.phase = Phase.ROB

    def _settle_added_kong(self) -> None:
        """Nobody robbed the added kong: record passes, pay it, the konger draws."""
        assert self._pending_added is not None
        event, _, drawn_this_turn = self._pending_added
        self._close_claims()
        earns = drawn_this_turn or not self.rules.added_kong_same_turn_only
        each = self.rules.added_kong_each if earns else 0
        payers = [(other, each) for other in self.in_play if other != event.seat]
        self._pending_added = None
        self._pay_kong(event.seat, event, payers, feeder=None)

    def _pay_kong(self, seat: int, event: Kong, payers: list[tuple[int, int]], feeder: int | None) -> None:
        income = KongIncome(seat, event.tile, event.kind, event.line)
        transfers = []
        for payer, units in payers:
            amount = units * self.base
            if amount:
                transfers.append(Transfer("kong_" + event.kind, payer, seat, amount, event.line))
                income.paid_by.append((payer, amount))
        self.ledger.extend(transfers)
        self.kong_income.append(income)
        self.kongs.append(KongMade(seat, event.tile, event.kind, event.line, deltas(transfers)))
        self._last_kong = income
        self._last_kong_feeder = feeder
        self.current = seat
        self._after_kong = True
        self._last_draw = None
        self.phase = Phase.REPLACEMENT

    # -- wins
    def _on_hu(self, event: Hu) -> None:
        self._check_voids_declared()
        seat = event.seat
        self._expect_seat(seat, "win")
        if event.from_seat is None:
            self._self_draw_win(event)
        else:
            self._claim_win(event)

    def _heavenly(self, seat: int) -> bool:
        """天胡: the dealer's first 14 tiles, before any discard or claim."""
        return seat == self.dealer and self.draws[seat] == 0 and not self._any_discard and not self._any_claim

    def _self_draw_context(self, seat: int) -> WinContext:
        heavenly = self._heavenly(seat)
        earthly = (  # 地胡: a non-dealer's first draw, no pong or kong before it
            seat != self.dealer
            and self.draws[seat] == 1
            and not self._any_claim
            and self._last_draw is not None
        )
        return WinContext(
            self_draw=True,
            after_kong=self._after_kong,
            last_tile=self.wall_left == 0,
            first_turn=heavenly or earthly,
            dealer=heavenly,
        )

    def self_draw_option(self) -> FanResult | None:
        """What the seat to act would score by declaring 自摸 now; ``None``: no legal win."""
        seat = self.current
        if self.phase is not Phase.ACT or (self._last_draw is None and not self._heavenly(seat)):
            return None
        if not self._shape_with(seat, None):
            return None
        return self._win_counts(seat, self.hands[seat], self._self_draw_context(seat))

    def claim_option(self, seat: int) -> FanResult | None:
        """What ``seat`` would score by winning the open discard or added kong now, the
        pass rule and 一炮多响 included; ``None``: it may not."""
        open_tile = self._open
        if self.phase not in (Phase.CLAIM, Phase.ROB) or open_tile is None:
            return None
        if seat == open_tile.seat or self.won[seat] or seat in open_tile.winners:
            return None
        if open_tile.winners and not self.rules.multiple_hu:
            return None
        result = self.win_on(seat, open_tile.tile, open_tile.context)
        if result is None or (
            not open_tile.last_four and self._pass_blocks(seat, open_tile.tile, result.fan)
        ):
            return None
        return result

    @property
    def open_tile(self) -> tuple[int, int, bool, tuple[int, ...]] | None:
        """The tile open for claims: (seat, tile, is an added kong, winners so far)."""
        o = self._open
        return None if o is None else (o.seat, o.tile, o.rob, tuple(o.winners))

    @property
    def last_draw(self) -> int | None:
        """The tile the seat to act drew this turn (``None`` after a pong or at the start)."""
        return self._last_draw

    def _self_draw_win(self, event: Hu) -> None:
        seat = event.seat
        if self.phase is Phase.ROB:
            raise self._out_of_turn(seat, "win by self-draw")
        if self.phase is not Phase.ACT or seat != self.current:
            raise self._out_of_turn(seat, "win by self-draw")
        heavenly = self._heavenly(seat)
        if self._last_draw is None and not heavenly:
            raise IllegalEvent(
                "illegal_hu",
                f"seat {seat} claims a self-drawn win without having drawn: 自摸 (self-draw) wins on "
                "the tile the seat just drew",
                seat,
            )
        if self.hands[seat][event.tile] == 0 or (not heavenly and event.tile != self._last_draw):
            drawn = tile_name(self._last_draw) if self._last_draw is not None else "nothing"
            raise IllegalEvent(
                "illegal_hu",
                f"seat {seat} claims a self-drawn win on {tile_name(event.tile)} but drew {drawn}: 自摸 "
                "(self-draw) wins on the tile the seat just drew",
                seat,
                expected=drawn,
                recorded=tile_name(event.tile),
            )
        bloom_feeder = self._last_kong_feeder if self._after_kong else None
        context = self._self_draw_context(seat)
        result = self._legal_win(seat, self.hands[seat], context, event.tile)
        transfers: list[Transfer] = []
        exposed_bloom = (
            self._after_kong
            and self._last_kong is not None
            and self._last_kong.kind == "exposed"
            and self.rules.kong_bloom_after_exposed == "discard"
            and bloom_feeder is not None
        )
        if exposed_bloom and self.rules.self_draw_bonus == "add_fan":
            # it counts as a discard win (放炮): no 自摸 bonus, neither 自摸加底 nor 自摸加番
            plain = replace(self.rules, self_draw_bonus="none")
            rescored = score_win(self.hands[seat], self.pongs(seat), self.kong_tiles(seat), plain, context)
            assert rescored is not None
            result = rescored
        unit = self.base * multiplier(result.fan)
        if exposed_bloom:
            assert bloom_feeder is not None
            transfers.append(Transfer("win_discard", bloom_feeder, seat, unit, event.line))
        else:
            for payer in self.in_play:
                if payer == seat:
                    continue
                transfers.append(Transfer("win_self_draw", payer, seat, unit, event.line))
                if self.rules.self_draw_bonus == "add_base":
                    transfers.append(Transfer("self_draw_bonus", payer, seat, self.base, event.line))
        kind = "kong_bloom" if self._after_kong else "self_draw"
        self._record_win(event, result, kind, transfers)
        if self._check_end_after_win():
            return
        following = next_seat(seat, self.won)
        if self.wall_left == 0:
            self._end("wall_exhausted")
            return
        assert following is not None
        self.current = following
        self._last_draw = None
        self.phase = Phase.DRAW

    def _claim_win(self, event: Hu) -> None:
        seat = event.seat
        open_tile = self._open
        if self.phase not in (Phase.CLAIM, Phase.ROB) or open_tile is None:
            raise self._out_of_turn(seat, "win on a discard")
        if event.from_seat != open_tile.seat or event.tile != open_tile.tile:
            source = "robbed kong" if open_tile.rob else "discard"
            rule = (
                "抢杠胡 (robbing a kong) wins the tile of the added kong"
                if open_tile.rob
                else "点炮 (discard win) wins the open discard"
            )
            raise IllegalEvent(
                "illegal_hu",
                f"seat {seat} claims a win on {tile_name(event.tile)} from seat {event.from_seat}, but the open "
                f"{source} is {tile_name(open_tile.tile)} from seat {open_tile.seat}: {rule}",
                seat,
            )
        if seat == open_tile.seat:
            raise IllegalEvent(
                "illegal_hu",
                f"seat {seat} claims a win on its own discard: 点炮 (discard win) is on another seat's discard",
                seat,
            )
        if seat in open_tile.winners:
            raise IllegalEvent("illegal_hu", f"seat {seat} wins the same tile twice", seat)
        if open_tile.winners and not self.rules.multiple_hu:
            raise IllegalEvent(
                "illegal_hu",
                f"seat {seat} is a second winner of one discard, but 一炮多响 (multiple_hu) is off",
                seat,
                rule="multiple_hu",
            )
        context = open_tile.context
        counts = list(self.hands[seat])
        counts[event.tile] += 1
        result = self._legal_win(seat, counts, context, event.tile)
        if not open_tile.last_four and self._pass_blocks(seat, event.tile, result.fan):
            raise IllegalEvent(
                "illegal_hu",
                f"seat {seat} passed a win since its last draw and may not win on "
                f"{tile_name(event.tile)} until it draws again: 过水不胡 (pass_rule {self.rules.pass_rule})",
                seat,
                rule="pass_rule",
            )
        unit = self.base * multiplier(result.fan)
        transfers = [Transfer("win_discard", open_tile.seat, seat, unit, event.line)]
        if open_tile.after_kong and self.rules.kong_discard_transfer and self._last_kong is not None:
            kong = self._last_kong
            if kong.seat == open_tile.seat and kong.income:
                transfers.append(Transfer("kong_transfer", open_tile.seat, seat, kong.income, event.line))
                kong.handed_on += kong.income
        if open_tile.rob:
            self._rob_kong(open_tile)
            kind = "rob"
        else:
            kind = "kong_discard" if open_tile.after_kong else "discard"
            if not open_tile.winners:
                self.discards[open_tile.seat].pop()  # the tile goes to the winner
        if not open_tile.winners:
            self._move(seat, event.tile, 1)  # one tile, several winners: it goes to the first
        open_tile.winners.append(seat)
        self._record_win(event, result, kind, transfers)
        # 一炮多响 may add winners of this tile; the turn and the end are decided when it closes

    def _rob_kong(self, open_tile: _OpenTile) -> None:
        """抢杠胡: the added kong is void and earns nothing; its tile goes to the robber."""
        if self._pending_added is None:
            return  # a second robber of the same kong
        event, meld, _ = self._pending_added
        meld.kind = "pong"
        self.kongs.append(KongMade(event.seat, event.tile, "added", event.line, (0, 0, 0, 0), robbed=True))
        self._pending_added = None

    def _legal_win(self, seat: int, counts: list[int], context: WinContext, tile: int) -> FanResult:
        held = held_counts(counts, self.pongs(seat), self.kong_tiles(seat))
        if self._holds_void(seat, held):
            assert self.void[seat] is not None
            raise IllegalEvent(
                "illegal_hu",
                f"seat {seat} wins while holding tiles of its 定缺 void suit {SUITS[self.void[seat] or 0]}",
                seat,
                rule="void_declaration",
            )
        if suits_used(held) > 2:
            raise IllegalEvent(
                "illegal_hu", f"seat {seat} wins holding three suits: 缺一门 (two suits at most)", seat
            )
        result = score_win(counts, self.pongs(seat), self.kong_tiles(seat), self.rules, context)
        if result is None:
            raise IllegalEvent(
                "illegal_hu",
                f"seat {seat} claims a win on {tile_name(tile)}, but its tiles are no winning shape: "
                "胡 (a win) needs four sets and a pair, or 七对 (seven pairs)",
                seat,
            )
        return result

    def _record_win(self, event: Hu, result: FanResult, kind: str, transfers: list[Transfer]) -> None:
        self.ledger.extend(transfers)
        self.won[event.seat] = True
        self.wins.append(
            Win(
                event.seat,
                event.tile,
                event.from_seat,
                result,
                kind,
                event.line,
                len(self.wins) + 1,
                self.draws[event.seat],
                deltas(transfers),
                tuple(transfers),
            )
        )

    def _check_end_after_win(self) -> bool:
        if self.rules.end_condition == "first_hu":
            self._end("first_hu")
            return True
        if self.won.count(True) >= 3:
            self._end("three_won")
            return True
        return False

    # -- end
    def _end(self, reason: str) -> None:
        self.end_reason = reason
        self.phase = Phase.ENDED
        self._open = None

    def _cha_jiao(self, line: int) -> None:
        """查叫 at an empty wall: 查花猪, then 查大叫, then 退税 (docs/rules.md section 6); settled
        on the deal_end line, where the recorder claims it."""
        in_play = self.in_play
        pigs = {seat for seat in in_play if suits_used(self.held(seat)) == 3}
        ready = {}
        for seat in in_play:
            if seat in pigs:
                continue
            fan = self.ready_fan(seat)
            if fan is not None:
                ready[seat] = fan
        transfers = flower_pig_transfers(in_play, pigs, self.rules.flower_pig_points * self.base, line)
        transfers += no_ting_transfers(in_play, pigs, ready, self.base, line)
        not_ready = {seat for seat in in_play if seat not in ready}
        transfers += refund_transfers(self.kong_income, not_ready, line)
        self.settlement = transfers
        self._settled = True
        self.ledger.extend(transfers)
        self.ready_at_end = ready
        self.pigs = pigs

    def end_rule(self) -> str:
        """The end condition in words (docs/rules.md section 3, end_condition), for messages."""
        if self.rules.end_condition == "first_hu":
            return "普通场 (end_condition first_hu): the first win ends the deal"
        return "血战到底 (bloody): the deal ends when three seats have won or the wall is empty"

    def _on_deal_end(self, event: DealEnd) -> None:
        open_tile = self._open
        if self.phase in (Phase.CLAIM, Phase.ROB) and open_tile is not None:
            if open_tile.winners or (not open_tile.rob and self.wall_left == 0):
                self._close_claims()
            elif open_tile.rob:
                raise IllegalEvent(
                    "wrong_end",
                    "the deal ends on an added kong before its replacement draw: 杠后补牌 (a kong "
                    "draws a replacement tile)",
                )
        if self.phase is Phase.ACT and self.wall_left == 0 and self._last_draw is not None:
            # The last tile was drawn and not won: some recorders stop before its discard.
            # It counts as thrown, so 查叫 judges the drawer on its 13 tiles (docs/decisions.md).
            seat, tile = self.current, self._last_draw
            self._check_missed_self_draw(seat)
            self._move(seat, tile, -1)
            self.discards[seat].append(tile)
            self._last_draw = None
            self._end("wall_exhausted")
        if self.phase is not Phase.ENDED:
            raise IllegalEvent(
                "wrong_end",
                f"deal_end while the deal goes on: {self.wall_left} tiles left in the wall and "
                f"{len(self.in_play)} seats still in; {self.end_rule()}",
                expected="no deal_end yet",
                recorded=event.reason,
            )
        if self.end_reason == "wall_exhausted" and len(self.in_play) >= 2 and not self._settled:
            self._cha_jiao(event.line)


_HANDLERS: dict[str, Callable[[Deal, Any], None]] = {
    "exchange": Deal._on_exchange,
    "void": Deal._on_void,
    "draw": Deal._on_draw,
    "discard": Deal._on_discard,
    "pong": Deal._on_pong,
    "kong": Deal._on_kong,
    "hu": Deal._on_hu,
    "deal_end": Deal._on_deal_end,
}
