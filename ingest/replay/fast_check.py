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
move; where the engine raises or notes a breach, this path gives up. The rules both
share are :mod:`engine.moves`'s and :mod:`engine.move_checks`'s: every knob of legality,
each move's checks (a breach they raise is a hand-off here), the open tile, the pass rule
(过水不胡, worked out only when a seat wins on a discard), 最后四张, the end and 查叫. The state and its queries are
:mod:`ingest.replay.fast_state`; the moves, wins and end are here.
``tests/test_fast_check.py`` and ``bench/fast_check.py`` run both paths on simulated and
tampered deals and require the same answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from engine.events import DealEnd, DealStart
from engine.fan import FanResult, WinContext, score_win
from engine.hand import held_counts, ready_value, wait_mask
from engine.move_checks import (
    check_added_kong,
    check_claim_win,
    check_concealed_kong,
    check_draw,
    check_exposed_kong,
    check_pong,
    check_self_draw,
    check_void,
    discard_breaches,
    kong_of_undrawn,
    kong_waits,
    legal_win,
)
from engine.moves import (
    IllegalEvent,
    OpenTile,
    bloom_rules,
    cha_jiao_due,
    closes_at_end,
    discard_context,
    end_after_win,
    end_on_close,
    flower_pig,
    judge_at_wall,
    kong_earns,
    next_after,
    opened_discard,
    opened_kong,
    phase_after_exchange,
    ready_waits,
)
from engine.report import DealReport
from engine.rules import Rules
from engine.settlement import Transfer, deltas
from engine.state import EXCHANGE_STEP, KongMade, Win
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
from ingest.replay.fast_plan import (
    CTX_AFTER_KONG,
    CTX_LAST_TILE,
    CTX_ROB,
    END_REASONS,
    STEP_DISCARD_WIN,
    STEP_KONG,
    STEP_SELF_DRAW,
    passed_tiles,
    plan_moves,
    self_draw_context,
)
from ingest.replay.fast_state import (
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
    FastState,
    HandOff,
)

_SUIT_IDS: Final = {"m": 0, "p": 1, "s": 2}
# A module-level copy: mypyc reads a Final of its own module as a C static.
_TILES: Final[dict[str, int]] = dict(TILE_IDS)


class FastDeal(FastState):
    """The moves, claims, wins and end of a deal on the fast path (engine.claims, engine.deal)."""

    def close_claims(self) -> None:
        open_tile = self.open
        assert open_tile is not None
        self.check_missed_discard(open_tile)
        self.open = None
        if open_tile.rob and not open_tile.winners:
            return
        reason = end_on_close(self.rules, open_tile, self.stays, self.won, self.wall_left)
        if reason is not None:
            self.end(reason)
            return
        following = next_after(self.rules, open_tile, self.left)
        if following is None:
            raise HandOff
        self.current = following
        self.phase = DRAW

    def resolve_open(self) -> None:
        if self.phase == ROB:
            if self.open is not None and self.open.winners:
                self.close_claims()
            else:
                self.settle_added_kong()
        elif self.phase == CLAIM:
            self.close_claims()

    def open_discard(self, seat: int) -> OpenTile:
        open_tile = self.open
        if self.phase != CLAIM or open_tile is None or open_tile.rob or open_tile.winners:
            raise HandOff
        return open_tile

    # ------------------------------------------------------------------ moves
    def exchange(self, direction: str, given: Sequence[TileList]) -> None:
        """换三张 (engine.state.DealState.on_exchange); an illegal one is the engine's."""
        passed = passed_tiles(self.hands, given) if self.phase == EXCHANGE else None
        if passed is None:
            raise HandOff
        step = EXCHANGE_STEP[direction]
        for seat, three in enumerate(passed):
            for tile in three:
                self.move(seat, tile, -1)
                self.move((seat + step) % 4, tile, 1)
        self.phase = phase_after_exchange(self.rules)

    def void_declared(self, seat: int, suit: int) -> None:
        self.still_in(seat)
        phase = self.phase
        try:
            check_void(self.rules, seat, self.void[seat] >= 0, phase == VOID, phase == EXCHANGE)
        except IllegalEvent:
            raise HandOff from None
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
        try:
            check_draw(seat, tile, self.wall, self.front, self.back, replacement, self.out_of_wall[tile])
        except IllegalEvent:
            raise HandOff from None
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
        self.passes.drew(seat)
        self.phase = ACT

    def discard(self, seat: int, tile: int, line: int) -> None:
        self.no_void_phase()
        self.still_in(seat)
        if self.phase != ACT or seat != self.current:
            raise HandOff
        hand = self.hands[seat]
        if hand[tile] == 0:
            raise HandOff  # not_in_hand (engine.move_checks.check_discard)
        drawn = None if self.last_draw == NO_TILE else self.last_draw
        if discard_breaches(self.rules, seat, tile, hand, drawn, self.hand_fixed(seat), self.void[seat]):
            raise HandOff  # a fixed hand's other tile (fixed_hand), a 定缺 breach (void_rule)
        if self.wall_left < LAST_FOUR:
            self.check_missed_self_draw(seat)
        self.move(seat, tile, -1)
        self.any_discard = True
        open_tile = opened_discard(seat, tile, line, self.after_kong, self.wall_left, drawn is not None)
        self.open = open_tile
        self.passes.open(open_tile)
        self.last_draw = NO_TILE
        self.phase = CLAIM

    def pong(self, seat: int, tile: int) -> None:
        self.no_void_phase()
        self.still_in(seat)
        open_tile = self.open_discard(seat)
        try:
            check_pong(self.rules, seat, tile, open_tile, self.hands[seat][tile], self.void[seat])
        except IllegalEvent:
            raise HandOff from None
        if self.hand_fixed(seat):
            raise HandOff  # a fixed hand may not pong (fixed_hand)
        self.check_missed_discard(open_tile)
        self.passes.carry(seat, self.win_on)
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
        drawn = None if self.last_draw == NO_TILE else self.last_draw
        if kong_of_undrawn(kind, tile, drawn):
            raise HandOff  # a kong of a tile held before the draw (fixed_hand)
        waits = kong_waits(self.hands[seat], self.pongs[seat], self.kongs[seat], kind, drawn)
        self.make_kong(seat, tile, kind, line, recorded)
        if wait_mask(self.hands[seat], self.pongs[seat], self.kongs[seat]) != waits:
            raise HandOff  # the kong changed a fixed hand's waits (fixed_hand)

    def make_kong(
        self, seat: int, tile: int, kind: str, line: int, recorded: tuple[int, int, int, int] | None
    ) -> None:
        """An exposed, concealed or added kong (engine.claims.DealClaims.on_kong)."""
        if kind == "exposed":
            open_tile = self.open_discard(seat)
            held = self.hands[seat][tile]
            try:
                check_exposed_kong(self.rules, seat, tile, open_tile, held, self.wall_left, self.void[seat])
            except IllegalEvent:
                raise HandOff from None
            self.check_missed_discard(open_tile)
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
            try:
                check_concealed_kong(seat, tile, self.hands[seat][tile])
            except IllegalEvent:
                raise HandOff from None
            self.move(seat, tile, -4)
            self.kongs[seat].append(tile)
            self.any_claim = True
            self.pay_kong(seat, kind, tile, line, -1, True, recorded)
            return
        # added: the pong becomes a kong, open for 抢杠胡 until the next event
        pongs = self.pongs[seat]
        try:
            check_added_kong(seat, tile, tile in pongs, self.hands[seat][tile])
        except IllegalEvent:
            raise HandOff from None
        self.move(seat, tile, -1)
        pongs.remove(tile)
        self.kongs[seat].append(tile)
        self.any_claim = True
        self.pending_seat = seat
        self.pending_tile = tile
        self.pending_line = line
        self.pending_drawn = self.last_draw == tile
        self.pending_deltas = recorded
        open_tile = opened_kong(seat, tile, line)
        self.open = open_tile
        self.passes.open(open_tile)
        self.phase = ROB

    def settle_added_kong(self) -> None:
        seat = self.pending_seat
        if seat < 0:
            raise HandOff
        self.close_claims()
        earns = kong_earns(self.rules, self.pending_drawn)
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
        """engine.move_checks.legal_win, with no 暗杠 (:meth:`check_kongs_known`)."""
        self.check_kongs_known(seat)
        try:
            return legal_win(
                self.rules,
                seat,
                counts,
                self.pongs[seat],
                self.kongs[seat],
                0,
                self.void[seat],
                context,
                tile,
            )
        except IllegalEvent:
            raise HandOff from None

    def self_draw_win(self, rec: HuRec, tile: int, line: int) -> None:
        seat = rec.seat
        if self.phase != ACT or seat != self.current:
            raise HandOff
        drawn = None if self.last_draw == NO_TILE else self.last_draw
        try:
            check_self_draw(seat, tile, self.hands[seat][tile], drawn, self.heavenly(seat))
        except IllegalEvent:
            raise HandOff from None
        self.price_self_draw(rec, seat, tile, line, self.self_draw_context(seat))
        if self.stays:
            self.move(seat, tile, -1)  # 血流成河: the winning tile is laid aside
        reason = end_after_win(self.rules, self.stays, self.won, self.wall_left)
        if reason is not None:
            self.end(reason)
            return
        self.current = self.next_seat(seat)
        self.last_draw = NO_TILE
        self.phase = DRAW

    def price_self_draw(self, rec: HuRec, seat: int, tile: int, line: int, context: WinContext) -> None:
        """Score and pay a win on the seat's own draw (its hand as held: ``hands[seat]``)."""
        hand = self.hands[seat]
        fed_by = self.settler.bloom_feeder(seat) if context.after_kong else None
        result = self.legal_win(seat, hand, context, tile)
        plain = bloom_rules(self.rules, fed_by is not None)
        if plain is not None:
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
        check_passes: bool,
    ) -> None:
        """Score and pay a win on a discard or a robbed kong (``counts``: the seat's tiles
        with it); ``check_passes``: first the pass rule over the tiles opened before it."""
        result = self.legal_win(seat, counts, context, tile)
        if check_passes and self.pass_blocks(seat, result.fan):
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
        try:
            check_claim_win(self.rules, seat, from_seat, tile, open_tile)
        except IllegalEvent:
            raise HandOff from None
        counts = list(self.hands[seat])
        counts[tile] += 1
        self.price_discard_win(rec, seat, from_seat, tile, line, counts, open_tile.context, True)
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
            if closes_at_end(open_tile, self.wall_left):
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
        if cha_jiao_due(self.end_reason, len(in_play), self.stays) and not self.settled:
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
        """查花猪, 查大叫, 退税 (engine.deal.Deal.cha_jiao, :func:`engine.moves.judge_at_wall`);
        the fans only when they are paid or the rows need them."""
        if not self.rules.dead_wait_counts:
            raise HandOff  # 死叫不算叫 needs the unseen tiles: the engine's
        pigs, ready = judge_at_wall(
            in_play, self.flower_pig, self.ready_waits, self.ready_fan, self.keep_facts
        )
        self.settler.cha_jiao(pigs, ready, line)
        self.settled = True
        self.ready_at_end = ready
        self.pigs = pigs

    def flower_pig(self, seat: int) -> bool:
        return flower_pig(
            held_counts(self.hands[seat], self.pongs[seat], self.kongs[seat]), self.void[seat], self.rules
        )

    def ready_waits(self, seat: int) -> int:
        """The seat's waits at 查叫; the suit keys first rule most hands out (:meth:`may_be_ready`)."""
        if not self.may_be_ready(seat):
            return 0
        return ready_waits(self.hands[seat], self.pongs[seat], self.kongs[seat], self.void[seat], self.rules)

    def ready_fan(self, seat: int, waits: int) -> int:
        """A ready seat's 查大叫 fan; a wait no pattern scores is the engine's to explain."""
        self.check_kongs_known(seat)
        fan = ready_value(self.hands[seat], self.pongs[seat], self.kongs[seat], self.rules, waits)
        if fan is None:
            raise HandOff
        return fan

    # ------------------------------------------------------------------ the loop
    def run(self, records: list[PlayRecord], first_line: int) -> None:
        line = first_line
        for rec in records:
            if self.phase == ENDED:
                raise HandOff
            if isinstance(rec, int):  # a plain play line (ingest.logs.play_lines)
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


def _price_plan(deal: FastDeal, plan: tuple[list[Any], int, Any], end: DealEnd) -> None:
    """Price the plan of the deal's moves played in C (:mod:`ingest.replay.fast_plan`) on ``deal``,
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
            deal.price_discard_win(rec, seat, from_seat, tile, line, state[0], context, False)
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
    :mod:`ingest.logs.play_lines`; any other line decoded by :data:`ingest.logs.line_parser.DECODER`),
    in file order with no other line among them: record ``i`` is on line
    ``start.line + 1 + i``, the end on the line after.
    ``keep_facts`` adds what the warehouse rows need (:class:`engine.report.DealFacts`).
    The moves are played in C where built (:mod:`ingest.replay.fast_plan`); ``c_moves=False``
    plays them in Python (the tests compare the two)."""
    if end is None or start.record != "tiles" or end.line != start.line + len(records) + 1:
        return None
    listed = records if isinstance(records, list) else list(records)
    try:
        plan = plan_moves(start, listed, rules) if c_moves else None
        deal = FastDeal(start, rules, base, keep_facts, deal_in=plan is None)
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
