"""The fast path of validation: a deal's decoded records replayed on integer
state, with no event object and no message, ending in one of two answers.

- The deal is clean: every move legal, every recorded fan, pattern and payment what the
  rules give. :func:`fast_replay` returns the same :class:`engine.report.DealReport` the
  engine's replay would (wins, kongs, ledger and settlement priced by the engine's own
  settlement core and fan scorer, :mod:`engine.settle` and :mod:`engine.fan`).
- Anything else, or anything this path does not implement (a rule it does not know, a
  dead-wait 查叫, a win on a discard after a pong in the same go-round...): ``None``, and
  the caller hands the deal to the engine, which explains every finding.

血流成河 (``end_condition: bloody_flow``): a winner stays in and pays and draws like any
seat, its winning tile laid aside; its hand is fixed (胡后不改牌), so a discard of another
tile than the one drawn, a pong, or a kong that is not of the drawn tile (or the discard)
or changes its waits gives the deal up (the engine's ``fixed_hand``); only the wall ends
the deal, and 查叫 judges the seats that never won. The C moves play it too, but leave a
fixed hand's kong or pong to these moves.

It mirrors :mod:`engine.state`, :mod:`engine.claims` and :mod:`engine.deal` move for
move; where the engine raises or notes a breach, this path gives up. One thing is done
differently, for speed: the pass rule (过水不胡). The engine checks every seat for a win
it passes at every discard; here a seat's passes are only worked out when it wins on a
discard, from the tiles opened since its last draw, with the hand it held then (a pong
of its own in between: the passes before it were worked out at the pong). The result is
the same, because the rule looks only at the highest fan passed, which both keep (see
:meth:`ingest.fast_state.FastState.pass_blocks`). The state and its queries are
:mod:`ingest.fast_state`; the moves, wins and end are here.
``tests/test_fast_check.py`` and ``bench/fast_check.py`` run both paths on simulated and
tampered deals and require the same answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final

from engine.events import DealEnd, DealStart
from engine.fan import FanResult, WinContext, score_win
from engine.hand import held_counts, ready_value, wait_mask
from engine.report import DealReport
from engine.rules import Rules
from engine.settlement import Transfer, deltas
from engine.state import EXCHANGE_STEP, KongMade, Win
from engine.tiles import COPIES, suits_used
from ingest.fast_plan import (
    CTX_AFTER_KONG,
    CTX_LAST_TILE,
    CTX_ROB,
    END_REASONS,
    STEP_DISCARD_WIN,
    STEP_KONG,
    STEP_SELF_DRAW,
    discard_context,
    passed_tiles,
    plan_moves,
    self_draw_context,
)
from ingest.fast_state import (
    ACT,
    CLAIM,
    DRAW,
    ENDED,
    EXCHANGE,
    LAST_FOUR,
    NO_TILE,
    REPLACEMENT,
    ROB,
    VOID,
    WALL_SIZE,
    FastOpen,
    FastState,
    HandOff,
)
from ingest.logs.line_parser import TILE_IDS
from ingest.logs.play_lines import KIND_DISCARD, KIND_DRAW, code_kind, code_seat, code_tile
from ingest.logs.records import (
    DiscardRec,
    DrawRec,
    ExchangeRec,
    HuRec,
    KongRec,
    PlayRecord,
    PongRec,
    TileList,
    VoidRec,
)

_SUIT_IDS: Final = {"m": 0, "p": 1, "s": 2}
# A module-level copy: mypyc reads a Final of its own module as a C static.
_TILES: Final[dict[str, int]] = dict(TILE_IDS)


class _FastDeal(FastState):
    """The moves, claims, wins and end of a deal on the fast path (engine.claims, engine.deal)."""

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
        if open_tile.winners and self.rules.next_after_discard_win == "winner":
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

    def open_discard(self, seat: int) -> FastOpen:
        open_tile = self.open
        if self.phase != CLAIM or open_tile is None or open_tile.rob or open_tile.winners:
            raise HandOff
        return open_tile

    def check_void_claim(self, seat: int, tile: int) -> None:
        if self.void_required and self.void[seat] == tile // 9:
            raise HandOff

    # ------------------------------------------------------------------ moves
    def exchange(self, direction: str, given: Sequence[TileList]) -> None:
        """换三张 (engine.state.DealState._on_exchange); an illegal one is the engine's."""
        passed = passed_tiles(self.hands, given) if self.phase == EXCHANGE else None
        if passed is None:
            raise HandOff
        step = EXCHANGE_STEP[direction]
        for seat, three in enumerate(passed):
            for tile in three:
                self.move(seat, tile, -1)
                self.move((seat + step) % 4, tile, 1)
        self.phase = VOID if self.void_required else ACT

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
        if tile != self.last_draw and self.last_draw != NO_TILE and self.hand_fixed(seat):
            raise HandOff  # 胡后不改牌: a fixed hand throws the tile it drew (fixed_hand)
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
        open_tile = FastOpen(
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
        if self.hand_fixed(seat):
            raise HandOff  # a fixed hand may not pong (fixed_hand)
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
        if not self.hand_fixed(seat):
            self.make_kong(seat, tile, kind, line, recorded)
            return
        waits = self.fixed_waits(seat, tile, kind)
        self.make_kong(seat, tile, kind, line, recorded)
        if wait_mask(self.hands[seat], self.pongs[seat], self.kongs[seat]) != waits:
            raise HandOff  # the kong changed a fixed hand's waits (fixed_hand)

    def fixed_waits(self, seat: int, tile: int, kind: str) -> int:
        """The waits a fixed hand's kong must keep (engine.claims.DealClaims.fixed_waits):
        those of its tiles without the drawn one, which a concealed or added kong must use."""
        counts = self.hands[seat]
        if kind != "exposed":
            if tile != self.last_draw:
                raise HandOff  # a kong of a tile held before the draw (fixed_hand)
            counts = list(counts)
            counts[tile] -= 1
        return wait_mask(counts, self.pongs[seat], self.kongs[seat])

    def make_kong(
        self, seat: int, tile: int, kind: str, line: int, recorded: tuple[int, int, int, int] | None
    ) -> None:
        """An exposed, concealed or added kong (engine.claims.DealClaims._on_kong)."""
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
        open_tile = FastOpen(seat, tile, line, False, False, False, True)
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

    def legal_win(self, seat: int, counts: list[int], context: WinContext, tile: int) -> FanResult:
        pongs = self.pongs[seat]
        kongs = self.kongs[seat]
        held = held_counts(counts, pongs, kongs)
        if self.holds_void(seat, held) or suits_used(held) > 2:
            raise HandOff
        self.check_kongs_known(seat)
        result = score_win(counts, pongs, kongs, self.rules, context, tile)
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
        self.price_self_draw(rec, seat, tile, line, self.self_draw_context(seat))
        if self.stays:
            self.move(seat, tile, -1)  # 血流成河: the winning tile is laid aside
        if self.end_after_win():
            return
        if self.wall_left == 0:
            self.end("wall_exhausted")
            return
        self.current = self.next_seat(seat)
        self.last_draw = NO_TILE
        self.phase = DRAW

    def price_self_draw(self, rec: HuRec, seat: int, tile: int, line: int, context: WinContext) -> None:
        """Score and pay a win on the seat's own draw (its hand as held: ``hands[seat]``)."""
        hand = self.hands[seat]
        fed_by = self.settler.bloom_feeder(seat) if context.after_kong else None
        result = self.legal_win(seat, hand, context, tile)
        if fed_by is not None and self.rules.self_draw_bonus == "add_fan":
            plain = replace(self.rules, self_draw_bonus="none")
            rescored = score_win(hand, self.pongs[seat], self.kongs[seat], plain, context, tile)
            if rescored is None:
                raise HandOff
            result = rescored
        transfers = self.settler.win_self_draw(seat, result.fan, line, fed_by)
        kind = "kong_bloom" if context.after_kong else "self_draw"
        self.record_win(rec, seat, tile, None, result, kind, line, transfers)

    def price_discard_win(
        self,
        rec: HuRec,
        seat: int,
        from_seat: int,
        tile: int,
        line: int,
        counts: list[int],
        context: WinContext,
        passes_upto: int,
    ) -> None:
        """Score and pay a win on a discard or a robbed kong (``counts``: the seat's tiles
        with it); ``passes_upto`` >= 0: first the pass rule over the tiles opened before it."""
        result = self.legal_win(seat, counts, context, tile)
        if passes_upto >= 0 and self.pass_blocks(seat, tile, result.fan, passes_upto):
            raise HandOff
        transfers = self.settler.win_discard(seat, from_seat, result.fan, line, context.after_kong)
        kind = "rob" if context.robbing_kong else "kong_discard" if context.after_kong else "discard"
        self.record_win(rec, seat, tile, from_seat, result, kind, line, transfers)

    def record_robbed(
        self, seat: int, tile: int, line: int, recorded: tuple[int, int, int, int] | None
    ) -> None:
        """抢杠胡: the robbed added kong earns nothing (and must be recorded so)."""
        robbed = (0, 0, 0, 0)
        if recorded is not None and tuple(recorded) != robbed:
            raise HandOff
        self.made.append(KongMade(seat, tile, "added", line, robbed, robbed=True))

    def claim_win(self, rec: HuRec, from_seat: int, tile: int, line: int) -> None:
        seat = rec.seat
        open_tile = self.open
        if (self.phase != CLAIM and self.phase != ROB) or open_tile is None:
            raise HandOff
        if from_seat != open_tile.seat or tile != open_tile.tile or seat == open_tile.seat:
            raise HandOff
        if seat in open_tile.winners or (open_tile.winners and not self.rules.multiple_hu):
            raise HandOff
        counts = list(self.hands[seat])
        counts[tile] += 1
        upto = -1 if open_tile.last_four else len(self.opened) - 1
        self.price_discard_win(rec, seat, from_seat, tile, line, counts, open_tile.context(), upto)
        if open_tile.rob and self.pending_seat >= 0:  # 抢杠胡: the added kong is void
            pending = self.pending_seat
            self.kongs[pending].remove(self.pending_tile)
            self.pongs[pending].append(self.pending_tile)
            self.record_robbed(pending, self.pending_tile, self.pending_line, self.pending_deltas)
            self.pending_seat = -1
        if not open_tile.winners and not self.stays:  # 血流成河: laid aside, the hand stays
            self.move(seat, tile, 1)
        open_tile.winners.append(seat)

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
        self.settle_end(end)

    def settle_end(self, end: DealEnd) -> None:
        """The deal has ended (``end_reason``): 查叫, and the recorded end checked."""
        in_play = [seat for seat in range(4) if not self.won[seat]]  # 查叫 judges the never-won
        enough = 1 if self.stays else 2  # engine.deal.Deal._on_deal_end
        if self.end_reason == "wall_exhausted" and len(in_play) >= enough and not self.settled:
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
        waiting: list[tuple[int, int]] = []  # (seat, its waits)
        for seat in in_play:
            pongs = self.pongs[seat]
            kongs = self.kongs[seat]
            held = held_counts(self.hands[seat], pongs, kongs)
            void_held = self.holds_void(seat, held)
            if suits_used(held) == 3 or (void_held and self.rules.flower_pig == "holds_void"):
                pigs.add(seat)  # engine.deal.Deal.flower_pig
            elif not void_held and self.may_be_ready(seat):
                mask = wait_mask(self.hands[seat], pongs, kongs)
                if mask:
                    waiting.append((seat, mask))
        # A ready hand's fan is paid only by a seat that is neither ready nor a 花猪: when
        # none is left, the fans change no payment and are worked out only for the rows.
        pays = len(waiting) + len(pigs) < len(in_play)
        ready: dict[int, int] = {}
        for seat, mask in waiting:
            if pays or self.keep_facts:
                self.check_kongs_known(seat)
                fan = ready_value(self.hands[seat], self.pongs[seat], self.kongs[seat], self.rules, mask)
                if fan is None:
                    raise HandOff  # a wait no pattern scores: the engine's to explain
                ready[seat] = fan
            else:
                ready[seat] = 0
        self.settler.cha_jiao(pigs, ready, line)
        self.settled = True
        self.ready_at_end = ready
        self.pigs = pigs

    # ------------------------------------------------------------------ the loop
    def run(self, records: list[PlayRecord], first_line: int) -> None:
        line = first_line
        for rec in records:
            if self.phase == ENDED:
                raise HandOff
            if isinstance(rec, int):  # a plain play line (ingest.play_lines)
                kind, seat, tile = code_kind(rec), code_seat(rec), code_tile(rec)
                if kind == KIND_DRAW:
                    self.draw(seat, tile)
                elif kind == KIND_DISCARD:
                    self.discard(seat, tile, line)
                else:
                    self.pong(seat, tile)
            elif isinstance(rec, DrawRec):
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
            elif isinstance(rec, ExchangeRec):
                self.exchange(rec.direction, rec.tiles)
            else:
                raise HandOff  # anything unexpected: the engine's
            line += 1


def _price_plan(deal: _FastDeal, plan: tuple[list[Any], int, Any], end: DealEnd) -> None:
    """Price the plan of the deal's moves played in C (:mod:`ingest.fast_plan`) on ``deal``,
    as its Python moves would: :class:`HandOff` at a step that does not price."""
    steps, end_reason, finals = plan
    for step in steps:
        kind = step[0]
        if kind == STEP_KONG:
            _, seat, tile, kong_kind, line, feeder, earns, rec = step
            deal.pay_kong(seat, kong_kind, tile, line, feeder, bool(earns), rec.deltas)
        elif kind == STEP_SELF_DRAW:
            _, seat, tile, line, rec, bits, state = step
            deal.load_seat(seat, state)
            deal.price_self_draw(rec, seat, tile, line, self_draw_context(bits))
        elif kind == STEP_DISCARD_WIN:
            _, seat, from_seat, tile, line, rec, bits, state = step
            deal.load_seat(seat, state)
            after_kong, rob, last_tile = (
                bool(bits & CTX_AFTER_KONG),
                bool(bits & CTX_ROB),
                bool(bits & CTX_LAST_TILE),
            )
            context = discard_context(after_kong, rob, last_tile)
            deal.price_discard_win(rec, seat, from_seat, tile, line, state[0], context, -1)
        else:
            _, seat, tile, line, rec = step
            deal.record_robbed(seat, tile, line, rec.deltas)
    for seat in range(4):
        deal.load_seat(seat, finals[seat])
    deal.end_reason = END_REASONS[end_reason]
    deal.settle_end(end)


def _tile(name: str) -> int:
    tile = _TILES.get(name)
    if tile is None:
        raise HandOff  # a name the reader's slow path parses: the engine's
    return tile


def fast_replay(
    start: DealStart,
    records: Sequence[PlayRecord],
    end: DealEnd | None,
    rules: Rules,
    *,
    base: int = 1,
    session_id: str | None = None,
    file: str | None = None,
    keep_facts: bool = False,
    c_moves: bool = True,
) -> DealReport | None:
    """The report of a clean deal, equal to :func:`engine.replay.replay_deal`'s, or
    ``None``: the deal goes to the engine, which explains every finding.

    ``records`` are the deal's lines strictly between its ``deal`` and ``deal_end`` lines,
    as the reader keeps them (a plain draw, discard or pong as its play code,
    :mod:`ingest.play_lines`; any other line decoded by :data:`ingest.line_parser.DECODER`),
    in file order with no other line among them: record ``i`` is on line
    ``start.line + 1 + i``, the end on the line after.
    ``keep_facts`` adds what the warehouse rows need (:class:`engine.report.DealFacts`).
    The moves are played in C where built (:mod:`ingest.fast_plan`); ``c_moves=False``
    plays them in Python (the tests compare the two)."""
    if end is None or start.record != "tiles" or end.line != start.line + len(records) + 1:
        return None
    listed = records if isinstance(records, list) else list(records)
    try:
        plan = plan_moves(start, listed, rules) if c_moves else None
        deal = _FastDeal(start, rules, base, keep_facts, deal_in=plan is None)
        if plan is not None:
            # The C moves played it as the Python moves would, so a step that does not
            # price would not price there either: the deal is the engine's.
            _price_plan(deal, plan, end)
        else:
            deal.run(listed, start.line + 1)
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
