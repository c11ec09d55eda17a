"""The fast path of validation (issue 14): a deal's decoded records replayed on integer
state, with no event object and no message, ending in one of two answers.

- The deal is clean: every move legal, every recorded fan, pattern and payment what the
  rules give. :func:`fast_replay` returns the same :class:`engine.report.DealReport` the
  engine's replay would (wins, kongs, ledger and settlement priced by the engine's own
  settlement core and fan scorer, :mod:`engine.settle` and :mod:`engine.fan`).
- Anything else, or anything this path does not implement (换三张, a rule it does not
  know, a dead-wait 查叫, a win on a discard after a pong in the same go-round...):
  ``None``, and the caller hands the deal to the engine, which explains every finding.

It mirrors :mod:`engine.state`, :mod:`engine.claims` and :mod:`engine.deal` move for
move; where the engine raises or notes a breach, this path gives up. One thing is done
differently, for speed: the pass rule (过水不胡). The engine checks every seat for a win
it passes at every discard; here a seat's passes are only worked out when it wins on a
discard, from the tiles opened since its last draw, during which its concealed hand has
not changed (a pong in between: hand off). The result is the same, because a pass is
recorded at the pass-blocking maximum either way (see :meth:`_FastDeal.pass_blocks`).
``tests/test_fast_check.py`` and ``bench/fast_check.py`` run both paths on simulated and
tampered deals and require the same answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from engine import shapes
from engine.events import DealEnd, DealStart
from engine.fan import DISCARD_WIN, FanResult, WinContext, score_win
from engine.hand import held_counts, ready_value, wait_mask
from engine.report import DealFacts, DealReport
from engine.rules import Rules
from engine.settle import Settler
from engine.settlement import Transfer, deltas
from engine.shapes import is_win_shape_keys
from engine.state import KongMade, Win
from engine.tiles import COPIES, NUM_KINDS, suits_used
from ingest.line_parser import TILE_IDS
from ingest.records import DiscardRec, DrawRec, HuRec, KongRec, PongRec, Record, VoidRec

WALL_SIZE: Final = 55
LAST_FOUR: Final = 4
END_REASONS: Final = ("three_won", "wall_exhausted", "first_hu")

# phases (engine.state.Phase)
EXCHANGE: Final = 0
VOID: Final = 1
ACT: Final = 2
DRAW: Final = 3
REPLACEMENT: Final = 4
CLAIM: Final = 5
ROB: Final = 6
ENDED: Final = 7

PASS_OFF: Final = 0
PASS_ANY: Final = 1
PASS_SAME_TILE: Final = 2
_PASS_RULES: Final = {"off": PASS_OFF, "any": PASS_ANY, "same_tile": PASS_SAME_TILE}
_SUIT_IDS: Final = {"m": 0, "p": 1, "s": 2}
NO_TILE: Final = -1
# Module-level copies: mypyc reads a Final of its own module as a C static, another
# module's through that module's dict on every use.
_TILES: Final[dict[str, int]] = dict(TILE_IDS)
_SUIT: Final[tuple[int, ...]] = tuple(tile // 9 for tile in range(NUM_KINDS))
_STEP: Final[tuple[int, ...]] = tuple(
    shapes.POW5[tile % 9] for tile in range(NUM_KINDS)
)  # a tile's weight in its suit key
_SHAPE_FLAGS: Final[dict[int, int]] = shapes.SHAPE_FLAGS
_WAIT_MASK: Final[dict[int, int]] = shapes.WAIT_MASK
_DISCARD_WIN: Final = DISCARD_WIN


class HandOff(Exception):
    """The deal leaves the fast path: the engine replays it."""


class _Open:
    """A discard or an added kong open for claims (engine.state._OpenTile)."""

    def __init__(
        self, seat: int, tile: int, line: int, after_kong: bool, last_tile: bool, last_four: bool, rob: bool
    ) -> None:
        self.seat = seat
        self.tile = tile
        self.line = line
        self.after_kong = after_kong
        self.last_tile = last_tile
        self.last_four = last_four
        self.rob = rob
        self.winners: list[int] = []

    def context(self) -> WinContext:
        if self.after_kong or self.rob or self.last_tile:
            return WinContext(after_kong=self.after_kong, robbing_kong=self.rob, last_tile=self.last_tile)
        return _DISCARD_WIN


class _FastDeal:
    """One deal's state as plain integers and lists (see the module docstring)."""

    def __init__(self, start: DealStart, rules: Rules, base: int, keep_facts: bool) -> None:
        self.rules = rules
        self.keep_facts = keep_facts  # the rows need every ready seat's fan (DealFacts)
        self.pass_rule = _PASS_RULES[rules.pass_rule]
        self.void_required = rules.void_declaration == "required"
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
        self.wins: list[Win] = []
        self.made: list[KongMade] = []
        self.wall_left = WALL_SIZE
        self.front = 0
        self.back = 0
        self.current = start.dealer
        self.open: _Open | None = None
        self.opened: list[_Open] = []  # every tile opened for claims, in order
        self.pass_from: list[int] = [0, 0, 0, 0]  # opened index at the seat's last draw
        # passes worked out before the seat's hand changed by a pong since its last draw
        self.carried: list[dict[int, int] | None] = [None, None, None, None]
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
        self.settlement = (0, 0, 0, 0)  # the 查叫 transfers' deltas, then the deal's net
        self.scores = (0, 0, 0, 0)
        self.settled = False
        self.ready_at_end: dict[int, int] = {}
        self.pigs: set[int] = set()
        self.phase = ACT
        self._deal_in(start)

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
        if self.rules.exchange_three:
            raise HandOff  # 换三张 is the engine's
        self.phase = VOID if self.void_required else ACT

    # ------------------------------------------------------------------ helpers
    def move(self, seat: int, tile: int, count: int) -> None:
        self.hands[seat][tile] += count
        self.sizes[seat] += count
        index = seat * 3 + _SUIT[tile]
        self.keys[index] += count * _STEP[tile]

    def shape_with(self, seat: int, tile: int) -> bool:
        """engine.state.DealState._shape_with: sets and a pair (or seven pairs) with ``tile``
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
        suit = self.void[seat]
        if suit < 0 or not self.void_required:
            return False
        return any(held[suit * 9 : suit * 9 + 9])

    def win_counts(self, seat: int, counts: list[int], context: WinContext) -> FanResult | None:
        pongs = self.pongs[seat]
        kongs = self.kongs[seat]
        if self.holds_void(seat, held_counts(counts, pongs, kongs)):
            return None
        return score_win(counts, pongs, kongs, self.rules, context)

    def win_on(self, seat: int, tile: int, context: WinContext) -> FanResult | None:
        if not self.shape_with(seat, tile):
            return None
        counts = list(self.hands[seat])
        counts[tile] += 1
        return self.win_counts(seat, counts, context)

    def heavenly(self, seat: int) -> bool:
        return seat == self.dealer and self.draws[seat] == 0 and not self.any_discard and not self.any_claim

    def self_draw_context(self, seat: int) -> WinContext:
        heavenly = self.heavenly(seat)
        earthly = (
            seat != self.dealer and self.draws[seat] == 1 and not self.any_claim and self.last_draw != NO_TILE
        )
        return WinContext(
            self_draw=True,
            after_kong=self.after_kong,
            last_tile=self.wall_left == 0,
            first_turn=heavenly or earthly,
            dealer=heavenly,
        )

    def next_seat(self, seat: int) -> int:
        won = self.won
        candidate = (seat + 1) % 4
        if not won[candidate]:
            return candidate
        candidate = (seat + 2) % 4
        if not won[candidate]:
            return candidate
        candidate = (seat + 3) % 4
        if not won[candidate]:
            return candidate
        raise HandOff

    def still_in(self, seat: int) -> None:
        if self.won[seat]:
            raise HandOff

    def no_void_phase(self) -> None:
        if self.phase == VOID or self.phase == EXCHANGE:
            raise HandOff

    def check_missed_self_draw(self, seat: int) -> None:
        """最后四张: a seat that drew one of the last four tiles and could win must win."""
        if not (self.rules.last_four_must_hu and self.wall_left < LAST_FOUR and self.last_draw != NO_TILE):
            return
        if not self.shape_with(seat, NO_TILE):
            return
        context = WinContext(self_draw=True, after_kong=self.after_kong, last_tile=self.wall_left == 0)
        if self.win_counts(seat, self.hands[seat], context) is not None:
            raise HandOff

    # ------------------------------------------------------------------ claims
    def record_passes(self, open_tile: _Open) -> None:
        """engine.claims._record_passes, except that a pass outside the last four is
        worked out later, by :meth:`passes` (the module docstring says why)."""
        if not open_tile.last_four or not self.rules.last_four_must_hu:
            return
        if open_tile.winners and not self.rules.multiple_hu:
            return
        context = open_tile.context()
        for seat in range(4):
            if self.won[seat] or seat == open_tile.seat or seat in open_tile.winners:
                continue
            if self.win_on(seat, open_tile.tile, context) is not None:
                raise HandOff  # a missed forced win (missed_forced_hu)

    def passes(self, seat: int, upto: int) -> dict[int, int]:
        """tile -> highest fan of the wins ``seat`` passed since its last draw, up to the
        opened tile ``upto``: those before a pong of its own were worked out at the pong
        (:meth:`carry_passes`); since then its concealed hand has not changed."""
        carried = self.carried[seat]
        passed: dict[int, int] = dict(carried) if carried is not None else {}
        multiple = self.rules.multiple_hu
        for index in range(self.pass_from[seat], upto):
            open_tile = self.opened[index]
            if open_tile.last_four or open_tile.seat == seat or seat in open_tile.winners:
                continue
            if open_tile.winners and not multiple:
                continue
            result = self.win_on(seat, open_tile.tile, open_tile.context())
            if result is not None:
                before = passed.get(open_tile.tile)
                if before is None or result.fan > before:
                    passed[open_tile.tile] = result.fan
        return passed

    def carry_passes(self, seat: int) -> None:
        """Before a pong changes ``seat``'s hand: its passes so far, the ponged tile's too."""
        if self.pass_rule == PASS_OFF:
            return
        upto = len(self.opened)
        self.carried[seat] = self.passes(seat, upto)
        self.pass_from[seat] = upto

    def pass_blocks(self, seat: int, tile: int, fan: int, upto: int) -> bool:
        """engine.claims._pass_blocks over :meth:`passes`: the engine keeps, per tile (or
        over all tiles), the highest fan passed that was not itself blocked, and a blocked
        pass is one no higher than one kept, so the maximum is the same."""
        if self.pass_rule == PASS_OFF:
            return False
        passed = self.passes(seat, upto)
        if not passed:
            return False
        if self.pass_rule == PASS_ANY:
            highest = max(passed.values())
        elif tile in passed:
            highest = passed[tile]
        else:
            return False
        return not (self.rules.pass_rule_higher_fan_ok and fan > highest)

    def close_claims(self) -> None:
        open_tile = self.open
        assert open_tile is not None
        self.record_passes(open_tile)
        self.open = None
        if open_tile.rob and not open_tile.winners:
            return
        if open_tile.winners and self.end_after_win():
            return
        if self.wall_left == 0:
            self.end("wall_exhausted")
            return
        if open_tile.winners:
            seat = open_tile.seat
            after = open_tile.winners[0]
            for winner in open_tile.winners:
                if (winner - seat) % 4 > (after - seat) % 4:
                    after = winner
            self.current = self.next_seat(after)
        else:
            self.current = self.next_seat(open_tile.seat)
        self.phase = DRAW

    def resolve_open(self) -> None:
        if self.phase == ROB:
            if self.open is not None and self.open.winners:
                self.close_claims()
            else:
                self.settle_added_kong()
        elif self.phase == CLAIM:
            self.close_claims()

    def open_discard(self, seat: int) -> _Open:
        open_tile = self.open
        if self.phase != CLAIM or open_tile is None or open_tile.rob or open_tile.winners:
            raise HandOff
        return open_tile

    def check_void_claim(self, seat: int, tile: int) -> None:
        if self.void_required and self.void[seat] == tile // 9:
            raise HandOff

    # ------------------------------------------------------------------ moves
    def void_declared(self, seat: int, suit: int) -> None:
        self.still_in(seat)
        if self.void[seat] >= 0:
            raise HandOff
        if self.phase != VOID and self.void_required:
            raise HandOff
        self.void[seat] = suit
        if self.phase == VOID and min(self.void) >= 0:
            self.phase = ACT

    def draw(self, seat: int, tile: int) -> None:
        self.no_void_phase()
        self.still_in(seat)
        if self.phase == CLAIM or self.phase == ROB:
            self.resolve_open()
        phase = self.phase
        if (phase != DRAW and phase != REPLACEMENT) or seat != self.current or self.wall_left == 0:
            raise HandOff
        replacement = phase == REPLACEMENT
        wall = self.wall
        if wall is not None:
            expected = wall[WALL_SIZE - 1 - self.back] if replacement else wall[self.front]
            if tile != expected:
                raise HandOff
        if self.out_of_wall[tile] >= COPIES:
            raise HandOff
        self.wall_left -= 1
        self.out_of_wall[tile] += 1
        if replacement:
            self.back += 1
        else:
            self.front += 1
            self.after_kong = False
        self.move(seat, tile, 1)
        self.draws[seat] += 1
        self.last_draw = tile
        self.pass_from[seat] = len(self.opened)
        self.carried[seat] = None
        self.phase = ACT

    def discard(self, seat: int, tile: int, line: int) -> None:
        self.no_void_phase()
        self.still_in(seat)
        if self.phase != ACT or seat != self.current:
            raise HandOff
        hand = self.hands[seat]
        if hand[tile] == 0:
            raise HandOff
        suit = self.void[seat]
        if (
            suit >= 0
            and self.rules.void_discard_first
            and tile // 9 != suit
            and any(hand[suit * 9 : suit * 9 + 9])
        ):
            raise HandOff  # a 定缺 breach (void_rule)
        if self.wall_left < LAST_FOUR:
            self.check_missed_self_draw(seat)
        self.move(seat, tile, -1)
        self.any_discard = True
        open_tile = _Open(
            seat,
            tile,
            line,
            self.after_kong,
            self.wall_left == 0 and self.last_draw != NO_TILE,
            self.wall_left < LAST_FOUR,
            False,
        )
        self.open = open_tile
        self.opened.append(open_tile)
        self.last_draw = NO_TILE
        self.phase = CLAIM

    def pong(self, seat: int, tile: int) -> None:
        self.no_void_phase()
        self.still_in(seat)
        open_tile = self.open_discard(seat)
        if seat == open_tile.seat or tile != open_tile.tile or self.hands[seat][tile] < 2:
            raise HandOff
        self.check_void_claim(seat, tile)
        self.record_passes(open_tile)
        self.carry_passes(seat)
        self.open = None
        self.move(seat, tile, -2)
        self.pongs[seat].append(tile)
        self.any_claim = True
        self.current = seat
        self.last_draw = NO_TILE
        self.after_kong = False
        self.phase = ACT

    def kong(
        self, seat: int, tile: int, kind: str, line: int, recorded: tuple[int, int, int, int] | None
    ) -> None:
        self.no_void_phase()
        self.still_in(seat)
        if self.phase == ROB:
            self.resolve_open()
        if kind == "exposed":
            open_tile = self.open_discard(seat)
            if seat == open_tile.seat or tile != open_tile.tile or self.hands[seat][tile] < 3:
                raise HandOff
            if self.wall_left == 0:
                raise HandOff
            self.check_void_claim(seat, tile)
            self.record_passes(open_tile)
            self.open = None
            self.move(seat, tile, -3)
            self.kongs[seat].append(tile)
            self.any_claim = True
            self.pay_kong(seat, kind, tile, line, open_tile.seat, True, recorded)
            return
        if self.phase != ACT or seat != self.current or self.wall_left == 0:
            raise HandOff
        self.check_missed_self_draw(seat)
        if kind == "concealed":
            if self.hands[seat][tile] < 4:
                raise HandOff
            self.move(seat, tile, -4)
            self.kongs[seat].append(tile)
            self.any_claim = True
            self.pay_kong(seat, kind, tile, line, -1, True, recorded)
            return
        # added: the pong becomes a kong, open for 抢杠胡 until the next event
        pongs = self.pongs[seat]
        if tile not in pongs or self.hands[seat][tile] < 1:
            raise HandOff
        self.move(seat, tile, -1)
        pongs.remove(tile)
        self.kongs[seat].append(tile)
        self.any_claim = True
        self.pending_seat = seat
        self.pending_tile = tile
        self.pending_line = line
        self.pending_drawn = self.last_draw == tile
        self.pending_deltas = recorded
        open_tile = _Open(seat, tile, line, False, False, False, True)
        self.open = open_tile
        self.opened.append(open_tile)
        self.phase = ROB

    def settle_added_kong(self) -> None:
        seat = self.pending_seat
        if seat < 0:
            raise HandOff
        self.close_claims()
        earns = self.pending_drawn or not self.rules.added_kong_same_turn_only
        self.pending_seat = -1
        self.pay_kong(seat, "added", self.pending_tile, self.pending_line, -1, earns, self.pending_deltas)

    def pay_kong(
        self,
        seat: int,
        kind: str,
        tile: int,
        line: int,
        feeder: int,
        earns: bool,
        recorded: tuple[int, int, int, int] | None,
    ) -> None:
        transfers = self.settler.kong(seat, kind, tile, line, feeder if feeder >= 0 else None, earns)
        paid = deltas(transfers)
        if recorded is not None and tuple(recorded) != paid:
            raise HandOff  # payment_mismatch
        self.made.append(KongMade(seat, tile, kind, line, paid))
        self.current = seat
        self.after_kong = True
        self.last_draw = NO_TILE
        self.phase = REPLACEMENT

    # ------------------------------------------------------------------ wins
    def hu(self, rec: HuRec, tile: int, line: int) -> None:
        self.no_void_phase()
        seat = rec.seat
        self.still_in(seat)
        if rec.from_ is None:
            self.self_draw_win(rec, tile, line)
        else:
            self.claim_win(rec, rec.from_, tile, line)

    def legal_win(self, seat: int, counts: list[int], context: WinContext) -> FanResult:
        pongs = self.pongs[seat]
        kongs = self.kongs[seat]
        held = held_counts(counts, pongs, kongs)
        if self.holds_void(seat, held) or suits_used(held) > 2:
            raise HandOff
        result = score_win(counts, pongs, kongs, self.rules, context)
        if result is None:
            raise HandOff
        return result

    def self_draw_win(self, rec: HuRec, tile: int, line: int) -> None:
        seat = rec.seat
        if self.phase != ACT or seat != self.current:
            raise HandOff
        heavenly = self.heavenly(seat)
        if self.last_draw == NO_TILE and not heavenly:
            raise HandOff
        hand = self.hands[seat]
        if hand[tile] == 0 or (not heavenly and tile != self.last_draw):
            raise HandOff
        fed_by = self.settler.bloom_feeder(seat) if self.after_kong else None
        context = self.self_draw_context(seat)
        result = self.legal_win(seat, hand, context)
        if fed_by is not None and self.rules.self_draw_bonus == "add_fan":
            plain = replace(self.rules, self_draw_bonus="none")
            rescored = score_win(hand, self.pongs[seat], self.kongs[seat], plain, context)
            if rescored is None:
                raise HandOff
            result = rescored
        transfers = self.settler.win_self_draw(seat, result.fan, line, fed_by)
        self.record_win(
            rec, seat, tile, None, result, "kong_bloom" if self.after_kong else "self_draw", line, transfers
        )
        if self.end_after_win():
            return
        if self.wall_left == 0:
            self.end("wall_exhausted")
            return
        self.current = self.next_seat(seat)
        self.last_draw = NO_TILE
        self.phase = DRAW

    def claim_win(self, rec: HuRec, from_seat: int, tile: int, line: int) -> None:
        seat = rec.seat
        open_tile = self.open
        if (self.phase != CLAIM and self.phase != ROB) or open_tile is None:
            raise HandOff
        if from_seat != open_tile.seat or tile != open_tile.tile or seat == open_tile.seat:
            raise HandOff
        if seat in open_tile.winners or (open_tile.winners and not self.rules.multiple_hu):
            raise HandOff
        context = open_tile.context()
        counts = list(self.hands[seat])
        counts[tile] += 1
        result = self.legal_win(seat, counts, context)
        if not open_tile.last_four and self.pass_blocks(seat, tile, result.fan, len(self.opened) - 1):
            raise HandOff
        transfers = self.settler.win_discard(seat, open_tile.seat, result.fan, line, open_tile.after_kong)
        if open_tile.rob:
            if self.pending_seat >= 0:  # 抢杠胡: the added kong is void and earns nothing
                pending = self.pending_seat
                self.kongs[pending].remove(self.pending_tile)
                self.pongs[pending].append(self.pending_tile)
                robbed = (0, 0, 0, 0)
                if self.pending_deltas is not None and tuple(self.pending_deltas) != robbed:
                    raise HandOff
                self.made.append(
                    KongMade(pending, self.pending_tile, "added", self.pending_line, robbed, robbed=True)
                )
                self.pending_seat = -1
            kind = "rob"
        else:
            kind = "kong_discard" if open_tile.after_kong else "discard"
        if not open_tile.winners:
            self.move(seat, tile, 1)
        open_tile.winners.append(seat)
        self.record_win(rec, seat, tile, from_seat, result, kind, line, transfers)

    def record_win(
        self,
        rec: HuRec,
        seat: int,
        tile: int,
        from_seat: int | None,
        result: FanResult,
        kind: str,
        line: int,
        transfers: list[Transfer],
    ) -> None:
        """Keep the win, and give up unless its recorded fan, patterns and payment are right."""
        paid = deltas(transfers)
        if rec.fan is not None and rec.fan != result.fan:
            raise HandOff
        if rec.patterns is not None and sorted(rec.patterns) != sorted(result.patterns):
            raise HandOff
        if rec.deltas is not None and tuple(rec.deltas) != paid:
            raise HandOff
        self.wins.append(
            Win(
                seat,
                tile,
                from_seat,
                result,
                kind,
                line,
                len(self.wins) + 1,
                self.draws[seat],
                paid,
                tuple(transfers),
            )
        )

    def end_after_win(self) -> bool:
        if self.rules.end_condition == "first_hu":
            self.end("first_hu")
            return True
        if self.won.count(True) >= 3:
            self.end("three_won")
            return True
        return False

    def end(self, reason: str) -> None:
        self.end_reason = reason
        self.phase = ENDED
        self.open = None

    # ------------------------------------------------------------------ the end
    def deal_end(self, end: DealEnd) -> None:
        open_tile = self.open
        if (self.phase == CLAIM or self.phase == ROB) and open_tile is not None:
            if open_tile.winners or (not open_tile.rob and self.wall_left == 0):
                self.close_claims()
            elif open_tile.rob:
                raise HandOff
        if self.phase == ACT and self.wall_left == 0 and self.last_draw != NO_TILE:
            seat = self.current
            self.check_missed_self_draw(seat)
            self.move(seat, self.last_draw, -1)
            self.last_draw = NO_TILE
            self.end("wall_exhausted")
        if self.phase != ENDED:
            raise HandOff
        in_play = [seat for seat in range(4) if not self.won[seat]]
        if self.end_reason == "wall_exhausted" and len(in_play) >= 2 and not self.settled:
            self.cha_jiao(in_play, end.line)
        if end.reason not in END_REASONS or end.reason != self.end_reason:
            raise HandOff
        self.settlement = deltas(self.settler.settlement)
        self.scores = deltas(self.settler.ledger)
        if end.settlement is not None and tuple(end.settlement) != self.settlement:
            raise HandOff
        if end.scores is not None and tuple(end.scores) != self.scores:
            raise HandOff

    def cha_jiao(self, in_play: list[int], line: int) -> None:
        """查花猪, 查大叫, 退税 (engine.deal.Deal._cha_jiao)."""
        if not self.rules.dead_wait_counts:
            raise HandOff  # 死叫不算叫 needs the unseen tiles: the engine's
        pigs: set[int] = set()
        waiting: list[int] = []
        for seat in in_play:
            pongs = self.pongs[seat]
            kongs = self.kongs[seat]
            held = held_counts(self.hands[seat], pongs, kongs)
            if suits_used(held) == 3:
                pigs.add(seat)
            elif (
                not self.holds_void(seat, held)
                and self.may_be_ready(seat)
                and wait_mask(self.hands[seat], pongs, kongs)
            ):
                waiting.append(seat)
        # A ready hand's fan is paid only by a seat that is neither ready nor a 花猪: when
        # none is left, the fans change no payment and are worked out only for the rows.
        pays = len(waiting) + len(pigs) < len(in_play)
        ready: dict[int, int] = {}
        for seat in waiting:
            if pays or self.keep_facts:
                fan = ready_value(self.hands[seat], self.pongs[seat], self.kongs[seat], self.rules)
                if fan is None:
                    raise HandOff  # a wait no pattern scores: the engine's to explain
                ready[seat] = fan
            else:
                ready[seat] = 0
        self.settler.cha_jiao(pigs, ready, line)
        self.settled = True
        self.ready_at_end = ready
        self.pigs = pigs

    def may_be_ready(self, seat: int) -> bool:
        """False when no tile can complete the seat's concealed tiles (the suit-key test of
        engine.shapes.concealed_wait_mask), so :func:`engine.hand.ready_value` can be
        skipped; True sends the hand to it."""
        total = self.sizes[seat]
        if total % 3 != 1:
            return False
        if total == 13 and not self.pongs[seat] and not self.kongs[seat]:
            return True  # seven pairs may wait too
        base = seat * 3
        k0 = self.keys[base]
        k1 = self.keys[base + 1]
        k2 = self.keys[base + 2]
        c0 = k0 in _SHAPE_FLAGS
        c1 = k1 in _SHAPE_FLAGS
        c2 = k2 in _SHAPE_FLAGS
        return bool(
            (c1 and c2 and _WAIT_MASK.get(k0, 0))
            or (c0 and c2 and _WAIT_MASK.get(k1, 0))
            or (c0 and c1 and _WAIT_MASK.get(k2, 0))
        )

    def facts(self) -> DealFacts:
        void = tuple([suit if suit >= 0 else None for suit in self.void])
        still_in = self.won.count(False)
        return DealFacts(
            self.dealer,
            void,
            tuple(self.settler.settlement),
            frozenset(self.pigs),
            self.ready_at_end,
            still_in,
        )

    # ------------------------------------------------------------------ the loop
    def run(self, records: list[Record], first_line: int) -> None:
        line = first_line
        for rec in records:
            if self.phase == ENDED:
                raise HandOff
            if isinstance(rec, DrawRec):
                self.draw(rec.seat, _tile(rec.tile))
            elif isinstance(rec, DiscardRec):
                self.discard(rec.seat, _tile(rec.tile), line)
            elif isinstance(rec, PongRec):
                self.pong(rec.seat, _tile(rec.tile))
            elif isinstance(rec, KongRec):
                self.kong(rec.seat, _tile(rec.tile), rec.kind, line, rec.deltas)
            elif isinstance(rec, HuRec):
                self.hu(rec, _tile(rec.tile), line)
            elif isinstance(rec, VoidRec):
                self.void_declared(rec.seat, _SUIT_IDS[rec.suit])
            else:
                raise HandOff  # 换三张 and anything unexpected: the engine's
            line += 1


def _tile(name: str) -> int:
    tile = _TILES.get(name)
    if tile is None:
        raise HandOff  # a name the reader's slow path parses: the engine's
    return tile


def fast_replay(
    start: DealStart,
    records: Sequence[Record],
    end: DealEnd | None,
    rules: Rules,
    *,
    base: int = 1,
    session_id: str | None = None,
    file: str | None = None,
    keep_facts: bool = False,
) -> DealReport | None:
    """The report of a clean deal, equal to :func:`engine.replay.replay_deal`'s, or
    ``None``: the deal goes to the engine, which explains every finding.

    ``records`` are the deal's lines strictly between its ``deal`` and ``deal_end`` lines,
    decoded (:data:`ingest.line_parser.DECODER`), in file order with no other line among
    them: record ``i`` is on line ``start.line + 1 + i``, the end on the line after.
    ``keep_facts`` adds what the warehouse rows need (:class:`engine.report.DealFacts`)."""
    if end is None or start.record != "tiles" or end.line != start.line + len(records) + 1:
        return None
    try:
        deal = _FastDeal(start, rules, base, keep_facts)
        deal.run(records if isinstance(records, list) else list(records), start.line + 1)
        deal.deal_end(end)
    except HandOff:
        return None
    settler = deal.settler
    return DealReport(
        deal_id=start.deal_id,
        session_id=session_id,
        file=file,
        line=start.line,
        rules=rules.name,
        findings=[],
        warnings=[],
        scores=deal.scores,
        wins=deal.wins,
        kongs=deal.made,
        ledger=settler.ledger,
        settlement=deal.settlement,
        end_reason=deal.end_reason,
        complete=True,
        facts=deal.facts() if keep_facts else None,
    )
