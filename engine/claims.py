"""Claims on a deal's tiles: draws, discards, pongs and kongs, the pass rule (过水不胡)
and the last four (最后四张); wins are :mod:`engine.deal`'s. The rules and checks of each
move are :mod:`engine.moves` and :mod:`engine.move_checks`, shared with the fast check;
here they change the explaining state. A mixin-free base class so mypyc compiles it (one
native base: :class:`engine.state.DealState`)."""

from __future__ import annotations

from engine.events import Discard, Draw, Kong, Pong
from engine.fan import WinContext
from engine.hand import wait_mask
from engine.messages import doing, end_rule, play
from engine.move_checks import (
    check_added_kong,
    check_concealed_kong,
    check_discard,
    check_draw,
    check_exposed_kong,
    check_pong,
    discard_breaches,
    empty_wall,
    fixed_breach,
    fixed_kong,
    kong_of_undrawn,
    kong_waits,
    no_wall_kong,
)
from engine.moves import (
    IllegalEvent,
    OpenTile,
    end_on_close,
    kong_earns,
    missed_forced,
    must_win_draw,
    next_after,
    opened_discard,
    opened_kong,
)
from engine.settlement import deltas
from engine.state import (
    LAST_FOUR,
    DealState,
    KongMade,
    Meld,
    Phase,
)
from engine.tiles import tile_name


class DealClaims(DealState):
    """The tile moves that open or take a claim."""

    def pass_blocks(self, seat: int, fan: int) -> bool:
        """Does the pass rule (过水不胡) bar ``seat`` from winning the open tile for ``fan``?"""
        return self.passes.blocks(seat, fan, self.win_on)

    def out_of_turn(self, seat: int, what: str) -> IllegalEvent:
        claim_open = self.next_drawer() is not None or not self.opened or not self.opened.winners
        key = {
            Phase.EXCHANGE: "wait_exchange",
            Phase.VOID: "wait_void",
            Phase.ACT: "wait_act",
            Phase.DRAW: "wait_draw",
            Phase.REPLACEMENT: "wait_replacement",
            Phase.CLAIM: "wait_claim" if claim_open else "wait_end_rule",
            Phase.ROB: "wait_rob",
            Phase.ENDED: "wait_end",
        }[self.phase]
        expected = play(key, current=self.current, rule=end_rule(self.rules))
        return IllegalEvent(
            "out_of_turn", play("out_of_turn", seat=seat, what=doing(what), expected=expected), seat
        )

    # -- draws
    def on_draw(self, event: Draw) -> None:
        """A draw from the wall (a kong's replacement from its back); it closes an open tile."""
        phase = self.phase
        if phase is Phase.VOID or phase is Phase.EXCHANGE:
            self.check_voids_declared()
        seat, tile = event.seat, event.tile
        self.expect_seat(seat, "draw")
        if phase is Phase.CLAIM or phase is Phase.ROB:
            self._resolve_open()
        if self.phase is Phase.ENDED and self.wall_left == 0:
            raise empty_wall(seat)
        if self.phase not in (Phase.DRAW, Phase.REPLACEMENT) or seat != self.current:
            raise self.out_of_turn(seat, "draw")
        replacement = self.phase is Phase.REPLACEMENT
        if self.wall_left == 0:
            raise empty_wall(seat)
        check_draw(seat, tile, self.wall, self.front, self.back, replacement, self.out_of_wall[tile])
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
        self.passes.drew(seat)  # 过水不胡 lasts until the seat's own next draw
        self.phase = Phase.ACT

    # -- discards
    def on_discard(self, event: Discard) -> None:
        """A discard: it opens the tile for claims."""
        if self.phase is Phase.VOID or self.phase is Phase.EXCHANGE:
            self.check_voids_declared()
        seat, tile = event.seat, event.tile
        self.expect_seat(seat, "discard")
        if self.phase is Phase.ROB and seat == self.current:
            raise self.out_of_turn(seat, "discard before drawing the kong's replacement")
        if self.phase is not Phase.ACT or seat != self.current:
            raise self.out_of_turn(seat, "discard")
        hand = self.hands[seat]
        check_discard(seat, tile, hand[tile])
        fixed = self.hand_fixed(seat)
        breaches = discard_breaches(self.rules, seat, tile, hand, self.last_draw, fixed, self.void[seat])
        self.breaches.extend(breaches)
        if self.wall_left < LAST_FOUR:
            self.check_missed_self_draw(seat)
        self.move(seat, tile, -1)
        self.discards[seat].append(tile)
        self.any_discard = True
        self.opened = opened_discard(
            seat, tile, event.line, self.after_kong, self.wall_left, self.last_draw is not None
        )
        self.passes.open(self.opened)
        self.last_draw = None
        self.phase = Phase.CLAIM

    def in_last_four(self) -> bool:
        """最后四张 begins with the draw of the wall's fourth-last tile: from then on every
        tile drawn or discarded is one of the last four (docs/decisions.md)."""
        return self.wall_left < LAST_FOUR

    def check_missed_self_draw(self, seat: int) -> None:
        """最后四张: a seat that drew one of the last four tiles and could win must win."""
        drawn = self.last_draw
        if drawn is None or not must_win_draw(self.rules, self.wall_left, True):
            return
        context = WinContext(self_draw=True, after_kong=self.after_kong, last_tile=self.wall_left == 0)
        if self.win_counts(seat, self.hands[seat], context) is not None:
            self.breaches.append(
                IllegalEvent(
                    "missed_forced_hu",
                    play("missed_draw", seat=seat, tile=tile_name(drawn)),
                    seat,
                    rule="last_four_must_hu",
                )
            )

    def _resolve_open(self) -> None:
        """Before any event but a win on it, an open discard or added kong closes."""
        if self.phase is Phase.ROB:
            if self.opened is not None and self.opened.winners:
                self.close_claims()
            else:
                self._settle_added_kong()
        elif self.phase is Phase.CLAIM:
            self.close_claims()

    def check_missed_discard(self, open_tile: OpenTile) -> None:
        """最后四张: every seat that could have won one of the last four tiles as it
        closes and did not has missed a forced win (a pass of any other tile is worked out
        when it matters, :class:`engine.moves.PassRecord`)."""
        for seat in missed_forced(self.rules, open_tile, self.left, self.win_on):
            self.breaches.append(
                IllegalEvent(
                    "missed_forced_hu",
                    play("missed_discard", seat=seat, tile=tile_name(open_tile.tile)),
                    seat,
                    rule="last_four_must_hu",
                    line=open_tile.line,
                )
            )

    def close_claims(self) -> None:
        """The open discard or kong closes without a (further) claim: passes are recorded
        and the turn moves on, after the winners if there were any."""
        open_tile = self.opened
        assert open_tile is not None
        self.check_missed_discard(open_tile)
        self.opened = None
        if open_tile.rob and not open_tile.winners:
            return  # the added kong stands; the caller pays it
        reason = end_on_close(self.rules, open_tile, self.stays, self.won, self.wall_left)
        if reason is not None:
            self.end_deal(reason)
            return
        following = next_after(self.rules, open_tile, self.left)
        assert following is not None
        self.current = following
        self.phase = Phase.DRAW

    def next_drawer(self) -> int | None:
        """Who draws next if nobody (else) claims the open discard; ``None`` at an empty wall."""
        if self.opened is None:
            return self.current if self.phase in (Phase.DRAW, Phase.REPLACEMENT) else None
        if self.opened.rob and not self.opened.winners:
            return self.opened.seat  # the konger's replacement draw
        if end_on_close(self.rules, self.opened, self.stays, self.won, self.wall_left) is not None:
            return None
        return next_after(self.rules, self.opened, self.left)

    def _open_discard(self, seat: int, action: str, verb: str) -> OpenTile:
        """The discard a pong or an exposed kong claims: open, not a robbable kong, and not
        already won on (hu beats pong and kong)."""
        open_tile = self.opened
        if self.phase is not Phase.CLAIM or open_tile is None or open_tile.rob:
            raise self.out_of_turn(seat, action)
        if open_tile.winners:
            raise IllegalEvent("out_of_turn", play("claim_won_discard", seat=seat, verb=play(verb)), seat)
        return open_tile

    # -- pongs and kongs
    def on_pong(self, event: Pong) -> None:
        """A pong of the open discard."""
        self.check_voids_declared()
        seat = event.seat
        self.expect_seat(seat, "pong")
        open_tile = self._open_discard(seat, "pong", "pongs")
        check_pong(self.rules, seat, event.tile, open_tile, self.hands[seat][event.tile], self.void[seat])
        if self.hand_fixed(seat):
            self.breaches.append(
                fixed_breach(play("fixed_pong", seat=seat, tile=tile_name(event.tile)), seat)
            )
        self.check_missed_discard(open_tile)
        self.passes.carry(seat, self.win_on)  # a pong instead of a possible win is a pass
        self.opened = None
        self.discards[open_tile.seat].pop()
        self.move(seat, event.tile, -2)
        self.melds[seat].append(Meld("pong", event.tile, open_tile.seat))
        self.any_claim = True
        self.current = seat
        self.last_draw = None
        self.after_kong = False
        self.phase = Phase.ACT

    def on_kong(self, event: Kong) -> None:
        """An exposed, concealed or added kong (an added one is open for 抢杠胡 first)."""
        self.check_voids_declared()
        seat = event.seat
        self.expect_seat(seat, "kong")
        if self.phase is Phase.ROB:
            self._resolve_open()
        fixed = self.hand_fixed(seat)
        if fixed and kong_of_undrawn(event.kind, event.tile, self.last_draw):
            self.breaches.append(fixed_kong(seat, event.tile, "fixed_kong_undrawn"))
            fixed = False  # one finding for the kong
        waits = 0
        if fixed:
            waits = kong_waits(
                self.hands[seat], self.pongs(seat), self.kong_tiles(seat), event.kind, self.last_draw
            )
        if event.kind == "exposed":
            self._exposed_kong(event)
        elif event.kind in ("added", "concealed"):
            if self.phase is not Phase.ACT or seat != self.current:
                raise self.out_of_turn(
                    seat, f"make {'a' if event.kind == 'concealed' else 'an'} {event.kind} kong"
                )
            if self.wall_left == 0:
                raise no_wall_kong(seat)
            self.check_missed_self_draw(seat)  # a kong instead of a forced win of the last four
            if event.kind == "concealed":
                self._concealed_kong(event)
            else:
                self._added_kong(event)
        else:
            raise IllegalEvent("bad_record", play("kong_kind", kind=event.kind), seat)
        if fixed and wait_mask(self.hands[seat], self.pongs(seat), self.kong_tiles(seat)) != waits:
            self.breaches.append(fixed_kong(seat, event.tile, "fixed_kong_waits"))

    def _exposed_kong(self, event: Kong) -> None:
        seat = event.seat
        open_tile = self._open_discard(seat, "make an exposed kong", "kongs")
        held = self.hands[seat][event.tile]
        check_exposed_kong(self.rules, seat, event.tile, open_tile, held, self.wall_left, self.void[seat])
        self.check_missed_discard(open_tile)
        self.opened = None
        self.discards[open_tile.seat].pop()
        self.move(seat, event.tile, -3)
        self.melds[seat].append(Meld("exposed", event.tile, open_tile.seat))
        self.any_claim = True
        self._pay_kong(seat, event, feeder=open_tile.seat)

    def _concealed_kong(self, event: Kong) -> None:
        seat = event.seat
        check_concealed_kong(seat, event.tile, self.hands[seat][event.tile])
        self.move(seat, event.tile, -4)
        self.melds[seat].append(Meld("concealed", event.tile, None))
        self.any_claim = True
        self._pay_kong(seat, event, feeder=None)

    def _added_kong(self, event: Kong) -> None:
        seat = event.seat
        meld = next((m for m in self.melds[seat] if m.kind == "pong" and m.tile == event.tile), None)
        check_added_kong(seat, event.tile, meld is not None, self.hands[seat][event.tile])
        assert meld is not None
        self.move(seat, event.tile, -1)
        meld.kind = "added"
        self.any_claim = True
        self.pending_added = (event, meld, self.last_draw == event.tile)
        self.opened = opened_kong(seat, event.tile, event.line)
        self.passes.open(self.opened)
        self.phase = Phase.ROB

    def _settle_added_kong(self) -> None:
        """Nobody robbed the added kong: record passes, pay it, the konger draws."""
        assert self.pending_added is not None
        event, _, drawn_this_turn = self.pending_added
        self.close_claims()
        earns = kong_earns(self.rules, drawn_this_turn)
        self.pending_added = None
        self._pay_kong(event.seat, event, feeder=None, earns=earns)

    def _pay_kong(self, seat: int, event: Kong, feeder: int | None, earns: bool = True) -> None:
        """The settlement core pays the kong (刮风下雨); the konger draws its replacement."""
        transfers = self.settler.kong(seat, event.kind, event.tile, event.line, feeder, earns)
        self.kongs.append(KongMade(seat, event.tile, event.kind, event.line, deltas(transfers)))
        self.current = seat
        self.after_kong = True
        self.last_draw = None
        self.phase = Phase.REPLACEMENT
