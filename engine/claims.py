"""Claims on a deal's tiles: draws, discards, pongs and kongs, the pass rule (过水不胡)
and the last four (最后四张); wins are :mod:`engine.deal`'s. These moves change the one
integer-form state (:class:`engine.state.DealState`) for both movers, the explaining replay
and the fast check; the rules and checks of each move are :mod:`engine.moves` and
:mod:`engine.move_checks`. A move the rules forbid raises; a breach that leaves the deal
playable goes to :meth:`engine.state.DealState.note`. A mixin-free base class so mypyc
compiles it (one native base: :class:`engine.state.DealState`)."""

from __future__ import annotations

from typing import Final

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
    check_wild_meld,
    discard_breaches,
    empty_wall,
    fixed_breach,
    fixed_kong,
    kong_of_undrawn,
    kong_waits,
    no_wall_kong,
    wild_claim,
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
    ACT,
    CLAIM,
    DRAW,
    ENDED,
    EXCHANGE,
    LAST_FOUR,
    NO_TILE,
    REPLACEMENT,
    ROB,
    STEP_OF,
    SUIT_OF,
    VOID,
    DealState,
    HandOff,
    KongMade,
)
from engine.tiles import COPIES, NUM_KINDS, WILD, tile_name

# module-level copies: mypyc reads a Final of its own module as a C static
_SUIT: Final = SUIT_OF
_STEP: Final = STEP_OF
#: the suited kinds: a tile id at or past it is a 红中 (engine/tiles.py ``WILD``)
_KINDS: Final = NUM_KINDS
#: the out-of-turn message's expectation in each phase (by code)
_WAIT_KEYS: tuple[str, ...] = (
    "wait_exchange", "wait_void", "wait_act", "wait_draw", "wait_replacement", "wait_claim", "wait_rob",
    "wait_end",
)  # fmt: skip


class DealClaims(DealState):
    """The tile moves that open or take a claim."""

    def pass_blocks(self, seat: int, fan: int) -> bool:
        """Does the pass rule (过水不胡) bar ``seat`` from winning the open tile for ``fan``?"""
        return self.passes.blocks(seat, fan, self.win_on)

    def out_of_turn(self, seat: int, what: str) -> IllegalEvent:
        key = _WAIT_KEYS[self.stage]
        if self.stage == CLAIM:
            claim_open = self.next_drawer() is not None or not self.open or not self.open.winners
            key = "wait_claim" if claim_open else "wait_end_rule"
        expected = play(key, current=self.current, rule=end_rule(self.rules))
        return IllegalEvent(
            "out_of_turn", play("out_of_turn", seat=seat, what=doing(what), expected=expected), seat
        )

    # -- draws
    def draw(self, seat: int, tile: int) -> None:
        """A draw from the wall (a kong's replacement from its back); it closes an open tile."""
        stage = self.stage
        if stage in (VOID, EXCHANGE):
            self.check_voids_declared()
        if not 0 <= seat < self.players or self.left[seat]:
            self.expect_seat(seat, "draw")
        if stage in (CLAIM, ROB):
            self.resolve_open()
            stage = self.stage
        if stage != DRAW and stage != REPLACEMENT:
            if stage == ENDED and self.wall_left == 0:
                raise empty_wall(seat)
            raise self.out_of_turn(seat, "draw")
        if seat != self.current:
            raise self.out_of_turn(seat, "draw")
        replacement = stage == REPLACEMENT
        if self.wall_left == 0:
            raise empty_wall(seat)
        if tile >= _KINDS:
            self.draw_wild(seat, tile, replacement)
            return
        out_of_wall = self.out_of_wall
        if out_of_wall[tile] >= COPIES and not self.kinds[tile]:
            raise IllegalEvent(
                "tile_count",
                play("tile_off_table", tile=tile_name(tile), suits=self.rules_suits()),
                seat,
                expected=0,
                recorded=1,
            )
        check_draw(seat, tile, self.wall, self.front, self.back, replacement, out_of_wall[tile])
        self.wall_left -= 1
        out_of_wall[tile] += 1
        if replacement:
            self.back += 1
        else:
            self.front += 1
            self.after_kong = False
        self.hands[seat][tile] += 1  # (self.move, written out on the hottest move)
        self.sizes[seat] += 1
        self.keys[seat * 3 + _SUIT[tile]] += _STEP[tile]
        self.draws[seat] += 1
        self.drawn = tile
        self.passes.drew(seat)  # 过水不胡 lasts until the seat's own next draw
        self.stage = ACT

    def draw_wild(self, seat: int, tile: int, replacement: bool) -> None:
        """A 红中 drawn: held beside the seat's 27 counts; never more than the set's."""
        if not self.wild_table:
            raise self.off_table(tile, 1, seat)
        check_draw(seat, tile, self.wall, self.front, self.back, replacement, 0)
        if self.wilds_out >= self.wild_copies:
            raise IllegalEvent(
                "tile_count", play("wild_extra", seat=seat, expected=self.wild_copies), seat,
                expected=self.wild_copies, recorded=self.wilds_out + 1,
            )  # fmt: skip
        self.wall_left -= 1
        self.wilds_out += 1
        if replacement:
            self.back += 1
        else:
            self.front += 1
            self.after_kong = False
        self.wilds[seat] += 1
        self.draws[seat] += 1
        self.drawn = tile
        self.passes.drew(seat)
        self.stage = ACT

    # -- discards
    def discard(self, seat: int, tile: int, line: int) -> None:
        """A discard: it opens the tile for claims."""
        stage = self.stage
        if stage in (VOID, EXCHANGE):
            self.check_voids_declared()
        if not 0 <= seat < self.players or self.left[seat]:
            self.expect_seat(seat, "discard")
        if stage != ACT or seat != self.current:
            if stage == ROB and seat == self.current:
                raise self.out_of_turn(seat, "discard before drawing the kong's replacement")
            raise self.out_of_turn(seat, "discard")
        if tile >= _KINDS:
            self.discard_wild(seat, tile, line)
            return
        hand = self.hands[seat]
        check_discard(seat, tile, hand[tile])
        drawn = self.drawn
        last = None if drawn == NO_TILE else drawn
        breaches = discard_breaches(
            self.rules, seat, tile, hand, last, self.hand_fixed(seat), self.void[seat]
        )
        for breach in breaches:
            self.note(breach)
        wall_left = self.wall_left
        if wall_left < LAST_FOUR:
            self.check_missed_self_draw(seat)
        hand[tile] -= 1  # (self.move, written out on the hottest move)
        self.sizes[seat] -= 1
        self.keys[seat * 3 + _SUIT[tile]] -= _STEP[tile]
        self.discards[seat].append(tile)
        self.any_discard = True
        open_tile = opened_discard(
            seat, tile, line, self.after_kong, wall_left, drawn != NO_TILE or self.haidi_any
        )
        self.open = open_tile
        self.passes.open(open_tile)
        self.drawn = NO_TILE
        self.stage = CLAIM

    def discard_wild(self, seat: int, tile: int, line: int) -> None:
        """A 红中 discarded: it is dead (docs/decisions.md, "红中"). It opens for no claim
        (any pong, kong or win of it is refused), is no pass (过水) and no forced win of
        the last four, but it is the seat's discard: the turn moves on when it closes."""
        if not self.wild_table:
            raise self.off_table(tile, 1, seat)
        check_discard(seat, tile, self.wilds[seat])
        drawn = self.drawn
        last = None if drawn == NO_TILE else drawn
        hand = self.hands[seat]
        for breach in discard_breaches(
            self.rules, seat, tile, hand, last, self.hand_fixed(seat), self.void[seat]
        ):
            self.note(breach)
        wall_left = self.wall_left
        if wall_left < LAST_FOUR:
            self.check_missed_self_draw(seat)
        self.wilds[seat] -= 1
        self.discards[seat].append(tile)
        self.any_discard = True
        open_tile = opened_discard(
            seat, tile, line, self.after_kong, wall_left, drawn != NO_TILE or self.haidi_any
        )
        open_tile.last_four = False  # nobody may win it, so nobody must
        self.open = open_tile
        self.drawn = NO_TILE
        self.stage = CLAIM

    def in_last_four(self) -> bool:
        """最后四张 begins with the draw of the wall's fourth-last tile: from then on every
        tile drawn or discarded is one of the last four (docs/decisions.md)."""
        return self.wall_left < LAST_FOUR

    def check_missed_self_draw(self, seat: int) -> None:
        """最后四张: a seat that drew one of the last four tiles and could win must win."""
        drawn = self.drawn
        if drawn == NO_TILE or not must_win_draw(self.rules, self.wall_left, True):
            return
        if not self.shape_with(seat, NO_TILE):
            return
        context = WinContext(self_draw=True, after_kong=self.after_kong, last_tile=self.wall_left == 0)
        if self.win_counts(seat, self.hands[seat], context) is not None:
            self.note(
                IllegalEvent(
                    "missed_forced_hu",
                    play("missed_draw", seat=seat, tile=tile_name(drawn)),
                    seat,
                    rule="last_four_must_hu",
                )
            )

    def resolve_open(self) -> None:
        """Before any event but a win on it, an open discard or added kong closes."""
        if self.stage == ROB:
            if self.open is not None and self.open.winners:
                self.close_claims()
            else:
                self.settle_added_kong()
        elif self.stage == CLAIM:
            self.close_claims()

    def check_missed_discard(self, open_tile: OpenTile) -> None:
        """最后四张: every seat that could have won one of the last four tiles as it
        closes and did not has missed a forced win (a pass of any other tile is worked out
        when it matters, :class:`engine.moves.PassRecord`)."""
        if not open_tile.last_four:
            return  # (missed_forced asks no seat then)
        for seat in missed_forced(self.rules, open_tile, self.left, self.win_on, self.players):
            self.note(
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
        open_tile = self.open
        assert open_tile is not None
        if open_tile.last_four:
            self.check_missed_discard(open_tile)
        self.open = None
        if open_tile.rob and not open_tile.winners:
            return  # the added kong stands; the caller pays it
        reason = end_on_close(self.rules, open_tile, self.stays, self.won, self.wall_left, self.players)
        if reason is not None:
            self.end_deal(reason)
            return
        following = next_after(self.rules, open_tile, self.left, self.players)
        if following is None:
            raise HandOff  # (never: a seat is still in while the deal goes on)
        self.current = following
        self.stage = DRAW

    def next_drawer(self) -> int | None:
        """Who draws next if nobody (else) claims the open discard; ``None`` at an empty wall."""
        if self.open is None:
            return self.current if self.stage == DRAW or self.stage == REPLACEMENT else None
        if self.open.rob and not self.open.winners:
            return self.open.seat  # the konger's replacement draw
        if (
            end_on_close(self.rules, self.open, self.stays, self.won, self.wall_left, self.players)
            is not None
        ):
            return None
        return next_after(self.rules, self.open, self.left, self.players)

    def open_discard(self, seat: int, action: str, verb: str) -> OpenTile:
        """The discard a pong or an exposed kong claims: open, not a robbable kong, and not
        already won on (hu beats pong and kong)."""
        open_tile = self.open
        if self.stage != CLAIM or open_tile is None or open_tile.rob:
            raise self.out_of_turn(seat, action)
        if open_tile.winners:
            raise IllegalEvent("out_of_turn", play("claim_won_discard", seat=seat, verb=play(verb)), seat)
        return open_tile

    # -- pongs and kongs
    def pong(self, seat: int, tile: int) -> None:
        """A pong of the open discard."""
        self.check_voids_declared()
        self.expect_seat(seat, "pong")
        open_tile = self.open_discard(seat, "pong", "pongs")
        if tile >= _KINDS or self.wild_table:
            self.check_wild_claim(seat, tile, open_tile.tile, 2, "pongs", "illegal_pong")
        check_pong(self.rules, seat, tile, open_tile, self.hands[seat][tile], self.void[seat])
        if self.hand_fixed(seat):
            self.note(fixed_breach(play("fixed_pong", seat=seat, tile=tile_name(tile)), seat))
        self.check_missed_discard(open_tile)
        self.passes.carry(seat, self.win_on)  # a pong instead of a possible win is a pass
        self.open = None
        self.discards[open_tile.seat].pop()
        self.move(seat, tile, -2)
        self.ponged[seat].append(tile)
        self.melded(seat, "pong", tile, open_tile.seat)
        self.any_claim = True
        self.current = seat
        self.drawn = NO_TILE
        self.after_kong = False
        self.stage = ACT

    def kong(
        self, seat: int, tile: int, kind: str, line: int, recorded: tuple[int, ...] | None = None
    ) -> None:
        """An exposed, concealed or added kong (an added one is open for 抢杠胡 first);
        ``recorded``: the payment the record claims, checked by the fast check only."""
        self.check_voids_declared()
        self.expect_seat(seat, "kong")
        if self.stage == ROB:
            self.resolve_open()
        if tile >= _KINDS or self.wild_table:
            self.check_wild_kong(seat, tile, kind)
        fixed = self.hand_fixed(seat)
        drawn = self.last_drawn()
        if fixed and kong_of_undrawn(kind, tile, drawn):
            self.note(fixed_kong(seat, tile, "fixed_kong_undrawn"))
            fixed = False  # one finding for the kong
        waits = 0
        if fixed:
            waits = self.fixed_waits(seat, kind, drawn)
        if kind == "exposed":
            self.exposed_kong(seat, tile, line, recorded)
        elif kind == "added" or kind == "concealed":
            if self.stage != ACT or seat != self.current:
                raise self.out_of_turn(seat, f"make {'a' if kind == 'concealed' else 'an'} {kind} kong")
            if self.wall_left == 0:
                raise no_wall_kong(seat)
            self.check_missed_self_draw(seat)  # a kong instead of a forced win of the last four
            if kind == "concealed":
                self.concealed_kong(seat, tile, line, recorded)
            else:
                self.added_kong(seat, tile, line, recorded)
        else:
            raise IllegalEvent("bad_record", play("kong_kind", kind=kind), seat)
        if fixed and self.waits_of(seat, self.hands[seat]) != waits:
            self.note(fixed_kong(seat, tile, "fixed_kong_waits"))

    def fixed_waits(self, seat: int, kind: str, drawn: int | None) -> int:
        """:func:`engine.move_checks.kong_waits` on the seat's melds (and its 红中)."""
        if not self.wild_table:
            return kong_waits(self.hands[seat], self.ponged[seat], self.konged[seat], kind, drawn)
        counts = list(self.hands[seat])
        wilds = self.wilds[seat]
        if kind != "exposed" and drawn is not None:
            if drawn == WILD:
                wilds -= 1
            else:
                counts[drawn] -= 1
        return wait_mask(counts, self.ponged[seat], self.konged[seat], wilds, self.rules)

    def check_wild_claim(
        self, seat: int, tile: int, open_tile: int, needed: int, verb: str, code: str
    ) -> None:
        """A pong or exposed kong of a discarded 红中, or one a 红中 would help make
        (红中不能辅助其他牌来碰和杠); a 红中 at a table without them is no tile of its set."""
        if open_tile == WILD:
            raise wild_claim(seat, verb, code)
        if tile >= _KINDS and not self.wild_table:
            raise self.off_table(tile, 1, seat)
        if open_tile >= 0 and tile != open_tile and tile < _KINDS:
            return  # a claim of another tile than the open one: the move's own check says so
        held = self.hands[seat][tile] if tile < _KINDS else 0
        check_wild_meld(seat, tile, held, needed, self.wilds[seat], verb, code)

    def check_wild_kong(self, seat: int, tile: int, kind: str) -> None:
        """:meth:`check_wild_claim` of a kong: of the open discard, of four in hand, or of
        the fourth tile added to a pong."""
        if kind == "exposed":
            open_tile = self.open
            if self.stage == CLAIM and open_tile is not None and not open_tile.rob:
                self.check_wild_claim(seat, tile, open_tile.tile, 3, "kongs", "illegal_kong")
            elif tile >= _KINDS:
                self.check_wild_claim(seat, tile, -1, 3, "kongs", "illegal_kong")
        elif kind == "concealed" or (kind == "added" and (tile >= _KINDS or tile in self.ponged[seat])):
            self.check_wild_claim(seat, tile, -1, 4 if kind == "concealed" else 1, "kongs", "illegal_kong")

    def exposed_kong(self, seat: int, tile: int, line: int, recorded: tuple[int, ...] | None) -> None:
        open_tile = self.open_discard(seat, "make an exposed kong", "kongs")
        held = self.hands[seat][tile]
        check_exposed_kong(self.rules, seat, tile, open_tile, held, self.wall_left, self.void[seat])
        self.check_missed_discard(open_tile)
        self.open = None
        self.discards[open_tile.seat].pop()
        self.move(seat, tile, -3)
        self.konged[seat].append(tile)
        self.melded(seat, "exposed", tile, open_tile.seat)
        self.any_claim = True
        self.pay_kong(seat, "exposed", tile, line, open_tile.seat, True, recorded)

    def concealed_kong(self, seat: int, tile: int, line: int, recorded: tuple[int, ...] | None) -> None:
        check_concealed_kong(seat, tile, self.hands[seat][tile])
        self.move(seat, tile, -4)
        self.konged[seat].append(tile)
        self.hidden[seat] += 1
        self.melded(seat, "concealed", tile, None)
        self.any_claim = True
        self.pay_kong(seat, "concealed", tile, line, -1, True, recorded)

    def added_kong(self, seat: int, tile: int, line: int, recorded: tuple[int, ...] | None) -> None:
        """The seat's pong becomes a kong, open for 抢杠胡 until the next event."""
        pongs = self.ponged[seat]
        check_added_kong(seat, tile, tile in pongs, self.hands[seat][tile])
        self.move(seat, tile, -1)
        pongs.remove(tile)
        self.konged[seat].append(tile)
        self.melded(seat, "added", tile, None)
        self.any_claim = True
        self.pending_seat = seat
        self.pending_tile = tile
        self.pending_line = line
        self.pending_drawn = self.drawn == tile
        self.pending_deltas = recorded
        open_tile = opened_kong(seat, tile, line)
        self.open = open_tile
        self.passes.open(open_tile)
        self.stage = ROB

    def settle_added_kong(self) -> None:
        """Nobody robbed the added kong: record passes, pay it, the konger draws."""
        seat = self.pending_seat
        if seat < 0:
            raise HandOff  # (never: an added kong is open)
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
        recorded: tuple[int, ...] | None,
    ) -> None:
        """The settlement core pays the kong (刮风下雨; ``feeder`` -1: none); the konger
        draws its replacement. A recorded payment that differs gives the fast check up."""
        transfers = self.settler.kong(seat, kind, tile, line, feeder if feeder >= 0 else None, earns)
        paid = deltas(transfers)
        if recorded is not None and tuple(recorded) != paid:
            raise HandOff  # payment_mismatch: the explaining replay's finding
        self.made.append(KongMade(seat, tile, kind, line, paid))
        self.current = seat
        self.after_kong = True
        self.drawn = NO_TILE
        self.stage = REPLACEMENT
