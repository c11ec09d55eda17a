"""One deal as a state machine: ``Deal(start, rules).apply(event)`` for every event.

The state is :class:`engine.state.DealState`, in integer form, and the moves are written
once for both movers: the claims (:class:`engine.claims.DealClaims`) and, here, the wins and
the end (:class:`DealMoves`); the explaining replay (:class:`Deal`) and the fast check
(:class:`ingest.replay.fast_check.FastDeal`) each run them. ``apply`` raises
:class:`IllegalEvent` (carrying the finding code of docs/log-format.md) for a move the
rules forbid; the state is then not to be trusted and the replay of the deal stops.
Breaches that leave the deal playable (定缺 discard order, a missed forced win) are
collected in ``breaches`` instead. Payments are priced by the settlement core
(:class:`engine.settle.Settler`) from the facts the tiles give; comparing them with what
the recorder claimed is :mod:`engine.replay`'s job (the fast check's own: it gives up).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.claims import DealClaims
from engine.events import DealEnd, DealStart, Discard, Draw, Exchange, Hu, Kong, PlayEvent, Pong, Void
from engine.fan import FanResult, WinContext
from engine.messages import end_rule, play
from engine.move_checks import check_claim_win, check_four_wilds, check_self_draw, legal_win, wild_claim
from engine.moves import (
    IllegalEvent,
    bloom_rules,
    cha_jiao_due,
    closes_at_end,
    end_after_win,
    flower_pig,
    judge_at_wall,
    next_seat,
    pass_breach,
    won_alone,
)
from engine.rules import Rules
from engine.score import score_win
from engine.settlement import Transfer, deltas
from engine.state import (
    ACT,
    CLAIM,
    DRAW,
    ENDED,
    EXCHANGE_STEP,
    LAST_FOUR,
    NO_TILE,
    PHASES,
    ROB,
    SEATS,
    WALL_SIZE,
    HandOff,
    KongMade,
    Meld,
    Phase,
    Win,
)
from engine.tiles import NUM_KINDS, WILD

__all__ = [
    "EXCHANGE_STEP", "LAST_FOUR", "SEATS", "WALL_SIZE", "Deal", "DealMoves", "IllegalEvent", "KongMade", "Meld",
    "Phase", "Win", "next_seat",
]  # fmt: skip


class DealMoves(DealClaims):
    """The wins and the end of a deal, on the shared state (both movers run them)."""

    # -- wins
    def hu(self, seat: int, tile: int, from_seat: int | None, line: int) -> None:
        """A win: by self-draw (``from_seat`` None), or on the open discard or added kong."""
        self.check_voids_declared()
        self.expect_seat(seat, "win")
        if from_seat is None:
            if self.wild_table and tile == WILD:
                if seat != self.current or self.stage != ACT or self.opening_four(seat):
                    # 起手4红中: a non-dealer's (the turn aside), or the dealer's first move
                    self.four_wilds_win(seat, line)
                    return
                held = self.wilds[seat] - (self.drawn == WILD)
                if held >= 4 and self.self_draw_option() is None:
                    # four 红中 held before this draw and no win on the seat's own turn:
                    # 起手4红中 claimed late (a fourth 红中 drawn now is a plain 自摸's tile)
                    scored = self.rules.pattern_fan("sihongzhong") is not None
                    check_four_wilds(seat, self.wilds[seat], False, scored)
            self.self_draw_win(seat, tile, line)
        else:
            self.claim_win(seat, from_seat, tile, line)

    def self_draw_option(self) -> FanResult | None:
        """What the seat to act would score by declaring 自摸 now; ``None``: no legal win."""
        seat = self.current
        if self.stage != ACT or (self.drawn == NO_TILE and not self.heavenly(seat)):
            return None
        if self.wild_table and self.opening_four(seat):
            # 起手4红中 (the dealer's), whatever its other tiles are
            return score_win(
                self.hands[seat], [], [], self.rules, self.self_draw_context(seat), WILD, 0, self.wilds[seat]
            )
        if not self.shape_with(seat, NO_TILE):
            return None
        return self.win_counts(seat, self.hands[seat], self.self_draw_context(seat))

    def claim_option(self, seat: int) -> FanResult | None:
        """What ``seat`` would score by winning the open discard or added kong now, the
        pass rule and 一炮多响 included; ``None``: it may not."""
        open_tile = self.open
        if (self.stage != CLAIM and self.stage != ROB) or open_tile is None:
            return None
        if seat == open_tile.seat or self.left[seat] or seat in open_tile.winners:
            return None
        if won_alone(self.rules, open_tile) or open_tile.tile >= NUM_KINDS:
            return None  # (a discarded 红中 is dead)
        result = self.win_on(seat, open_tile.tile, open_tile.context)
        if result is None or self.pass_blocks(seat, result.fan):
            return None
        return result

    def self_draw_win(self, seat: int, tile: int, line: int) -> None:
        if self.stage != ACT or seat != self.current:
            raise self.out_of_turn(seat, "win by self-draw")
        held = self.hands[seat][tile] if tile < NUM_KINDS else self.wilds[seat] if self.wild_table else 0
        check_self_draw(seat, tile, held, self.last_drawn(), self.heavenly(seat))
        self.price_self_draw(seat, tile, line, self.self_draw_context(seat))
        if self.stays:
            if tile >= NUM_KINDS:
                self.wilds[seat] -= 1
            else:
                self.move(seat, tile, -1)
            self.lay_aside(seat, tile)
        self.end_or_pass(seat)

    def end_or_pass(self, seat: int, pass_turn: bool = True) -> None:
        """After a self-drawn win: the deal ends where the rules say, else (``pass_turn``)
        the seat after the winner draws."""
        reason = end_after_win(self.rules, self.stays, self.won, self.wall_left, self.players)
        if reason is not None:
            self.end_deal(reason)
            return
        if pass_turn:
            following = next_seat(seat, self.left, self.players)
            if following is None:
                raise HandOff  # (never: a seat is still in while the deal goes on)
            self.current = following
            self.drawn = NO_TILE
            self.stage = DRAW

    def price_self_draw(self, seat: int, tile: int, line: int, context: WinContext) -> None:
        """Score and pay a win on the seat's own draw (its hand as held: ``hands[seat]``)."""
        hand = self.hands[seat]
        fed_by = self.settler.bloom_feeder(seat) if context.after_kong else None
        result = self.legal_win(seat, hand, context, tile)
        plain = bloom_rules(self.rules, fed_by is not None)
        if plain is not None:
            # it counts as a discard win (放炮): no 自摸 bonus, neither 自摸加底 nor 自摸加番
            wilds = self.wilds[seat] if self.wild_table else 0
            rescored = score_win(
                hand, self.ponged[seat], self.konged[seat], plain, context, tile, self.hidden[seat], wilds
            )
            if rescored is None:
                raise HandOff  # (never: the same tiles scored a win)
            result = rescored
        transfers = self.settler.win_self_draw(seat, result.fan, line, fed_by)
        kind = "kong_bloom" if context.after_kong else "self_draw"
        self.record_win(seat, tile, None, result, kind, line, transfers)

    def opening_four(self, seat: int) -> bool:
        """The seat to act is the dealer at its first move holding four 红中, where the rule
        set scores 起手4红中 (else its win is a plain 天胡)."""
        return (
            self.stage == ACT
            and self.heavenly(seat)
            and self.wilds[seat] >= 4
            and self.rules.pattern_fan("sihongzhong") is not None
        )

    def four_wilds_win(self, seat: int, line: int) -> None:
        """起手4红中 (``sihongzhong``): four 红中 dealt win at once, whatever the other tiles
        are, recorded as a ``hu`` with ``from`` null and the tile ``7z`` before play begins:
        a non-dealer's right after the deal (and 定缺), the dealer's as its first move (its
        天胡 move). It is paid as a self-draw. A non-dealer keeps its thirteen tiles
        (血流成河: fixed) and the turn stays where it was; the dealer lays a 红中 aside
        under 血流成河 and the next seat draws, as after 天胡 (docs/log-format.md,
        docs/decisions.md "起手4红中")."""
        dealer_move = seat == self.current and self.stage == ACT
        opening = not self.any_discard and not self.any_claim and not self.draws[seat] and not self.won[seat]
        scored = self.rules.pattern_fan("sihongzhong") is not None
        check_four_wilds(seat, self.wilds[seat], opening, scored)
        context = self.self_draw_context(seat) if dealer_move else WinContext(self_draw=True, first_turn=True)
        self.check_kongs_known(seat)
        result = score_win(self.hands[seat], [], [], self.rules, context, WILD, 0, self.wilds[seat])
        if result is None:
            raise HandOff  # (never: four 红中 on the first turn are a win where the row is scored)
        transfers = self.settler.win_self_draw(seat, result.fan, line, None)
        self.record_win(seat, WILD, None, result, "self_draw", line, transfers)
        if dealer_move and self.stays:
            self.wilds[seat] -= 1
            self.lay_aside(seat, WILD)
        self.end_or_pass(seat, pass_turn=dealer_move)

    def four_wilds_seats(self) -> list[int]:
        """The non-dealers that may declare 起手4红中 now (the simulator's bots do)."""
        if not self.wild_table or self.any_discard or self.any_claim:
            return []
        if self.rules.pattern_fan("sihongzhong") is None:
            return []
        return [
            seat for seat in self.order
            if seat != self.dealer and self.wilds[seat] >= 4 and not self.draws[seat] and not self.won[seat]
        ]  # fmt: skip

    def claim_win(self, seat: int, from_seat: int, tile: int, line: int) -> None:
        open_tile = self.open
        if (self.stage != CLAIM and self.stage != ROB) or open_tile is None:
            raise self.out_of_turn(seat, "win on a discard")
        if open_tile.tile >= NUM_KINDS and tile == open_tile.tile and from_seat == open_tile.seat:
            raise wild_claim(seat, "wins_on", "illegal_hu")
        check_claim_win(self.rules, seat, from_seat, tile, open_tile)
        counts = list(self.hands[seat])
        counts[tile] += 1
        self.price_discard_win(seat, from_seat, tile, line, counts, open_tile.context, True)
        if open_tile.rob:
            self.rob_kong()
        elif not open_tile.winners:
            self.discards[open_tile.seat].pop()  # the tile goes to the winner
        if not open_tile.winners:  # one tile, several winners: it goes to the first
            if self.stays:
                self.lay_aside(seat, tile)
            else:
                self.move(seat, tile, 1)
        open_tile.winners.append(seat)
        # 一炮多响 may add winners of this tile; the turn and the end are decided when it closes

    def price_discard_win(
        self,
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
            raise pass_breach(self.rules, seat, tile)
        transfers = self.settler.win_discard(seat, from_seat, result.fan, line, context.after_kong)
        kind = "rob" if context.robbing_kong else "kong_discard" if context.after_kong else "discard"
        self.record_win(seat, tile, from_seat, result, kind, line, transfers)

    def rob_kong(self) -> None:
        """抢杠胡: the added kong is void and earns nothing; its tile goes to the robber."""
        seat = self.pending_seat
        if seat < 0:
            return  # a second robber of the same kong
        tile = self.pending_tile
        self.konged[seat].remove(tile)
        self.ponged[seat].append(tile)
        self.melded(seat, "robbed", tile, None)
        self.record_robbed(seat, tile, self.pending_line, self.pending_deltas)
        self.pending_seat = -1

    def record_robbed(self, seat: int, tile: int, line: int, recorded: tuple[int, ...] | None) -> None:
        """抢杠胡: the robbed added kong earns nothing (a recorded payment that is not nothing
        gives the fast check up)."""
        robbed = (0, 0, 0, 0)
        if recorded is not None and tuple(recorded) != robbed:
            raise HandOff
        self.made.append(KongMade(seat, tile, "added", line, robbed, robbed=True))

    def legal_win(self, seat: int, counts: list[int], context: WinContext, tile: int) -> FanResult:
        """:func:`engine.move_checks.legal_win` on the seat's melds."""
        self.check_kongs_known(seat)
        wilds = self.wilds[seat] if self.wild_table else 0
        return legal_win(
            self.rules, seat, counts, self.ponged[seat], self.konged[seat], self.hidden[seat], self.void[seat],
            context, tile, wilds,
        )  # fmt: skip

    def record_win(
        self,
        seat: int,
        tile: int,
        from_seat: int | None,
        result: FanResult,
        kind: str,
        line: int,
        transfers: list[Transfer],
    ) -> None:
        win = Win(
            seat,
            tile,
            from_seat,
            result,
            kind,
            line,
            len(self.wins) + 1,
            self.draws[seat],
            deltas(transfers),
            tuple(transfers),
        )
        self.keep_win(win)

    def keep_win(self, win: Win) -> None:
        """A win priced (the fast check first holds it to the record)."""
        self.wins.append(win)

    # -- the end
    def end_at(self, reason: str) -> None:
        """The deal_end line (its recorded ``reason``): the open tile closes, a last tile
        drawn and not won counts as thrown; the deal must have ended here."""
        open_tile = self.open
        if (self.stage == CLAIM or self.stage == ROB) and open_tile is not None:
            if closes_at_end(open_tile, self.wall_left):
                self.close_claims()
            elif open_tile.rob:
                raise IllegalEvent(
                    "wrong_end",
                    play("end_before_replacement"),
                )
        if self.stage == ACT and self.wall_left == 0 and self.drawn != NO_TILE:
            # The last tile was drawn and not won: some recorders stop before its discard.
            # It counts as thrown, so 查叫 judges the drawer on its 13 tiles (docs/decisions.md).
            seat, tile = self.current, self.drawn
            self.check_missed_self_draw(seat)
            if tile >= NUM_KINDS:
                self.wilds[seat] -= 1
            else:
                self.move(seat, tile, -1)
            self.discards[seat].append(tile)
            self.drawn = NO_TILE
            self.end_deal("wall_exhausted")
        if self.stage != ENDED:
            raise IllegalEvent(
                "wrong_end",
                play(
                    "end_early",
                    left=self.wall_left,
                    seats=len(self.in_play),
                    rule=end_rule(self.rules),
                ),
                expected="no deal_end yet",
                recorded=reason,
            )

    def judge_end(self, line: int) -> None:
        """查叫 where it is due, settled on the deal_end line, where the recorder claims it."""
        if cha_jiao_due(self.end_reason, len(self.never_won), self.stays) and not self.settled:
            self.cha_jiao(line)

    def cha_jiao(self, line: int) -> None:
        """查叫 at an empty wall: 查花猪, then 查大叫, then 退税 (rules.md section 6), of the
        seats that never won; the fans only when they are paid or ``all_fans``."""
        pigs, ready = judge_at_wall(
            self.never_won, self.flower_pig, self.ready_waits, self.ready_fan, self.all_fans
        )
        self.settler.cha_jiao(pigs, ready, line)
        self.settled = True
        self.ready_at_end = ready
        self.pigs = pigs

    def flower_pig(self, seat: int) -> bool:
        """花猪 at the wall's end (:func:`engine.moves.flower_pig`)."""
        return flower_pig(self.held(seat), self.void[seat], self.rules)


class Deal(DealMoves):
    """The explaining replay of one deal under one rule set; see the module docstring.
    Beside the shared state it keeps each seat's melds as :class:`engine.state.Meld`."""

    def __init__(self, start: DealStart, rules: Rules, base: int = 1) -> None:
        self.melds: list[list[Meld]] = [[] for _ in SEATS]
        self.pending_meld: Meld | None = None  # the meld of an added kong open for 抢杠胡
        super().__init__(start, rules, base)

    @property
    def phase(self) -> Phase:
        return PHASES[self.stage]

    @property
    def last_draw(self) -> int | None:
        return self.last_drawn()

    @property
    def kongs(self) -> list[KongMade]:
        """The kongs made, in order (robbed ones too)."""
        return self.made

    def melded(self, seat: int, kind: str, tile: int, from_seat: int | None) -> None:
        melds = self.melds[seat]
        if kind == "added":
            meld = next(m for m in melds if m.kind == "pong" and m.tile == tile)
            meld.kind = "added"
            self.pending_meld = meld
        elif kind == "robbed":
            if self.pending_meld is not None:
                self.pending_meld.kind = "pong"
                self.pending_meld = None
        else:
            melds.append(Meld(kind, tile, from_seat))

    def apply(self, event: PlayEvent | DealEnd) -> None:
        """Apply one event; raises :class:`IllegalEvent` when the rules forbid it."""
        kind = event.type
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise IllegalEvent("out_of_turn", play("event_in_deal", kind=kind))
        if self.stage == ENDED and kind != "deal_end":
            raise IllegalEvent(
                "out_of_turn",
                play("after_end", kind=kind, reason=self.end_reason, rule=end_rule(self.rules)),
                getattr(event, "seat", None),
            )
        handler(self, event)

    def on_exchange(self, event: Exchange) -> None:
        self.exchange(event.direction, event.tiles)

    def on_void(self, event: Void) -> None:
        self.declare_void(event.seat, event.suit)

    def on_draw(self, event: Draw) -> None:
        self.draw(event.seat, event.tile)

    def on_discard(self, event: Discard) -> None:
        self.discard(event.seat, event.tile, event.line)

    def on_pong(self, event: Pong) -> None:
        self.pong(event.seat, event.tile)

    def on_kong(self, event: Kong) -> None:
        self.kong(event.seat, event.tile, event.kind, event.line)

    def on_hu(self, event: Hu) -> None:
        self.hu(event.seat, event.tile, event.from_seat, event.line)

    def on_deal_end(self, event: DealEnd) -> None:
        """The deal_end line: the deal must have ended here; 查叫 is settled on it."""
        self.end_at(event.reason)
        self.judge_end(event.line)


# the handler of each event type (public: each is defined where the state it changes is)
_HANDLERS: dict[str, Callable[[Deal, Any], None]] = {
    "exchange": Deal.on_exchange,
    "void": Deal.on_void,
    "draw": Deal.on_draw,
    "discard": Deal.on_discard,
    "pong": Deal.on_pong,
    "kong": Deal.on_kong,
    "hu": Deal.on_hu,
    "deal_end": Deal.on_deal_end,
}
