"""One deal as a state machine: ``Deal(start, rules).apply(event)`` for every event.

The state and the tile moves are :class:`engine.state.DealState`, the claims
:class:`engine.claims.DealClaims`; this class adds the wins and the end. ``apply`` raises
:class:`IllegalEvent` (carrying the finding code of docs/log-format.md) for a move the
rules forbid; the state is then not to be trusted and the replay of the deal stops.
Breaches that leave the deal playable (定缺 discard order, a missed forced win) are
collected in ``breaches`` instead. Payments are priced by the settlement core
(:class:`engine.settle.Settler`) from the facts the tiles give; comparing them with what
the recorder claimed is :mod:`engine.replay`'s job.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.claims import DealClaims
from engine.events import DealEnd, Hu, PlayEvent
from engine.fan import FanResult, WinContext, score_win
from engine.messages import end_rule, play
from engine.move_checks import check_claim_win, check_self_draw, legal_win
from engine.moves import (
    IllegalEvent,
    OpenTile,
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
from engine.settlement import Transfer, deltas
from engine.state import (
    EXCHANGE_STEP,
    LAST_FOUR,
    SEATS,
    WALL_SIZE,
    KongMade,
    Meld,
    Phase,
    Win,
)

__all__ = [
    "EXCHANGE_STEP", "LAST_FOUR", "SEATS", "WALL_SIZE", "Deal", "IllegalEvent", "KongMade", "Meld", "Phase", "Win",
    "next_seat",
]  # fmt: skip


class Deal(DealClaims):
    """The state of one deal under one rule set; see the module docstring."""

    def apply(self, event: PlayEvent | DealEnd) -> None:
        """Apply one event; raises :class:`IllegalEvent` when the rules forbid it."""
        kind = event.type
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise IllegalEvent("out_of_turn", play("event_in_deal", kind=kind))
        if self.phase is Phase.ENDED and kind != "deal_end":
            raise IllegalEvent(
                "out_of_turn",
                play("after_end", kind=kind, reason=self.end_reason, rule=end_rule(self.rules)),
                getattr(event, "seat", None),
            )
        handler(self, event)

    # -- wins
    def on_hu(self, event: Hu) -> None:
        """A win: by self-draw, or on the open discard or added kong."""
        self.check_voids_declared()
        seat = event.seat
        self.expect_seat(seat, "win")
        if event.from_seat is None:
            self._self_draw_win(event)
        else:
            self._claim_win(event)

    def self_draw_option(self) -> FanResult | None:
        """What the seat to act would score by declaring 自摸 now; ``None``: no legal win."""
        seat = self.current
        if self.phase is not Phase.ACT or (self.last_draw is None and not self.heavenly(seat)):
            return None
        if not self.shape_with(seat, None):
            return None
        return self.win_counts(seat, self.hands[seat], self.self_draw_context(seat))

    def claim_option(self, seat: int) -> FanResult | None:
        """What ``seat`` would score by winning the open discard or added kong now, the
        pass rule and 一炮多响 included; ``None``: it may not."""
        open_tile = self.opened
        if self.phase not in (Phase.CLAIM, Phase.ROB) or open_tile is None:
            return None
        if seat == open_tile.seat or self.left[seat] or seat in open_tile.winners:
            return None
        if won_alone(self.rules, open_tile):
            return None
        result = self.win_on(seat, open_tile.tile, open_tile.context)
        if result is None or self.pass_blocks(seat, result.fan):
            return None
        return result

    def _self_draw_win(self, event: Hu) -> None:
        seat = event.seat
        if self.phase is Phase.ROB:
            raise self.out_of_turn(seat, "win by self-draw")
        if self.phase is not Phase.ACT or seat != self.current:
            raise self.out_of_turn(seat, "win by self-draw")
        heavenly = self.heavenly(seat)
        check_self_draw(seat, event.tile, self.hands[seat][event.tile], self.last_draw, heavenly)
        fed_by = self.settler.bloom_feeder(seat) if self.after_kong else None
        context = self.self_draw_context(seat)
        result = self._legal_win(seat, self.hands[seat], context, event.tile)
        plain = bloom_rules(self.rules, fed_by is not None)
        if plain is not None:
            # it counts as a discard win (放炮): no 自摸 bonus, neither 自摸加底 nor 自摸加番
            rescored = score_win(
                self.hands[seat], self.pongs(seat), self.kong_tiles(seat), plain, context, event.tile,
                self.concealed_kongs(seat),
            )  # fmt: skip
            assert rescored is not None
            result = rescored
        transfers = self.settler.win_self_draw(seat, result.fan, event.line, fed_by)
        kind = "kong_bloom" if self.after_kong else "self_draw"
        self._record_win(event, result, kind, transfers)
        if self.stays:
            self.move(seat, event.tile, -1)
            self.lay_aside(seat, event.tile)
        reason = end_after_win(self.rules, self.stays, self.won, self.wall_left)
        if reason is not None:
            self.end_deal(reason)
            return
        following = next_seat(seat, self.left)
        assert following is not None
        self.current = following
        self.last_draw = None
        self.phase = Phase.DRAW

    def _claim_win(self, event: Hu) -> None:
        seat = event.seat
        open_tile = self.opened
        if self.phase not in (Phase.CLAIM, Phase.ROB) or open_tile is None:
            raise self.out_of_turn(seat, "win on a discard")
        check_claim_win(self.rules, seat, event.from_seat, event.tile, open_tile)
        context = open_tile.context
        counts = list(self.hands[seat])
        counts[event.tile] += 1
        result = self._legal_win(seat, counts, context, event.tile)
        if self.pass_blocks(seat, result.fan):
            raise pass_breach(self.rules, seat, event.tile)
        transfers = self.settler.win_discard(
            seat, open_tile.seat, result.fan, event.line, open_tile.after_kong
        )
        if open_tile.rob:
            self._rob_kong(open_tile)
            kind = "rob"
        else:
            kind = "kong_discard" if open_tile.after_kong else "discard"
            if not open_tile.winners:
                self.discards[open_tile.seat].pop()  # the tile goes to the winner
        if not open_tile.winners:  # one tile, several winners: it goes to the first
            if self.stays:
                self.lay_aside(seat, event.tile)
            else:
                self.move(seat, event.tile, 1)
        open_tile.winners.append(seat)
        self._record_win(event, result, kind, transfers)
        # 一炮多响 may add winners of this tile; the turn and the end are decided when it closes

    def _rob_kong(self, open_tile: OpenTile) -> None:
        """抢杠胡: the added kong is void and earns nothing; its tile goes to the robber."""
        if self.pending_added is None:
            return  # a second robber of the same kong
        event, meld, _ = self.pending_added
        meld.kind = "pong"
        self.kongs.append(KongMade(event.seat, event.tile, "added", event.line, (0, 0, 0, 0), robbed=True))
        self.pending_added = None

    def _legal_win(self, seat: int, counts: list[int], context: WinContext, tile: int) -> FanResult:
        pongs, kongs, hidden = self.pongs(seat), self.kong_tiles(seat), self.concealed_kongs(seat)
        return legal_win(self.rules, seat, counts, pongs, kongs, hidden, self.void[seat], context, tile)

    def _record_win(self, event: Hu, result: FanResult, kind: str, transfers: list[Transfer]) -> None:
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

    def cha_jiao(self, line: int) -> None:
        """查叫 at an empty wall: 查花猪, then 查大叫, then 退税 (rules.md section 6); settled
        on the deal_end line, where the recorder claims it."""
        pigs, ready = judge_at_wall(self.never_won, self.flower_pig, self.ready_waits, self.ready_fan, True)
        self.settler.cha_jiao(pigs, ready, line)
        self.settled = True
        self.ready_at_end = ready
        self.pigs = pigs

    def flower_pig(self, seat: int) -> bool:
        """花猪 at the wall's end (:func:`engine.moves.flower_pig`)."""
        return flower_pig(self.held(seat), self.void[seat], self.rules)

    def on_deal_end(self, event: DealEnd) -> None:
        """The deal_end line: the deal must have ended here; 查叫 is settled on it."""
        open_tile = self.opened
        if self.phase in (Phase.CLAIM, Phase.ROB) and open_tile is not None:
            if closes_at_end(open_tile, self.wall_left):
                self.close_claims()
            elif open_tile.rob:
                raise IllegalEvent(
                    "wrong_end",
                    play("end_before_replacement"),
                )
        if self.phase is Phase.ACT and self.wall_left == 0 and self.last_draw is not None:
            # The last tile was drawn and not won: some recorders stop before its discard.
            # It counts as thrown, so 查叫 judges the drawer on its 13 tiles (docs/decisions.md).
            seat, tile = self.current, self.last_draw
            self.check_missed_self_draw(seat)
            self.move(seat, tile, -1)
            self.discards[seat].append(tile)
            self.last_draw = None
            self.end_deal("wall_exhausted")
        if self.phase is not Phase.ENDED:
            raise IllegalEvent(
                "wrong_end",
                play(
                    "end_early",
                    left=self.wall_left,
                    seats=len(self.in_play),
                    rule=end_rule(self.rules),
                ),
                expected="no deal_end yet",
                recorded=event.reason,
            )
        if cha_jiao_due(self.end_reason, len(self.never_won), self.stays) and not self.settled:
            self.cha_jiao(event.line)


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
