"""Claims on a deal's tiles: draws, discards, pongs and kongs, the pass rule (过水不胡)
and the last four (最后四张), both :mod:`engine.moves`'s; wins are :mod:`engine.deal`'s. A mixin-free base class so
mypyc compiles it (one native base: :class:`engine.state.DealState`)."""

from __future__ import annotations

from engine.events import Discard, Draw, Kong, Pong
from engine.fan import WinContext
from engine.hand import wait_mask
from engine.messages import Said, doing, end_rule, play
from engine.moves import (
    IllegalEvent,
    OpenTile,
    claim_breaks_void,
    discard_breaks_void,
    kong_earns,
    missed_forced,
    must_win_draw,
    next_after,
)
from engine.settlement import deltas
from engine.state import (
    LAST_FOUR,
    WALL_SIZE,
    DealState,
    KongMade,
    Meld,
    Phase,
)
from engine.tiles import COPIES, SUITS, tile_name


class DealClaims(DealState):
    """The tile moves that open or take a claim."""

    def pass_blocks(self, seat: int, tile: int, fan: int) -> bool:
        """Does the pass rule (过水不胡) bar ``seat`` from winning the open ``tile`` for ``fan``?"""
        return self.passes.blocks(seat, tile, fan, self.win_on)

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
    @staticmethod
    def _empty_wall(seat: int) -> Said:
        return play("empty_wall", seat=seat)

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
            raise IllegalEvent("wall_mismatch", self._empty_wall(seat), seat)
        if self.phase not in (Phase.DRAW, Phase.REPLACEMENT) or seat != self.current:
            raise self.out_of_turn(seat, "draw")
        replacement = self.phase is Phase.REPLACEMENT
        if self.wall_left == 0:
            raise IllegalEvent("wall_mismatch", self._empty_wall(seat), seat)
        if self.wall is not None:
            index = WALL_SIZE - 1 - self.back if replacement else self.front
            expected = self.wall[index]
            if tile != expected:
                where = play("wall_back" if replacement else "wall_front")
                raise IllegalEvent(
                    "wall_mismatch",
                    play(
                        "wall_next",
                        seat=seat,
                        tile=tile_name(tile),
                        where=where,
                        next_tile=tile_name(expected),
                    ),
                    seat,
                    expected=tile_name(expected),
                    recorded=tile_name(tile),
                )
        if self.out_of_wall[tile] >= COPIES:
            raise IllegalEvent(
                "tile_count",
                play("fifth_tile", seat=seat, tile=tile_name(tile)),
                seat,
            )
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
        if self.hands[seat][tile] == 0:
            raise IllegalEvent("not_in_hand", play("discard_not_held", seat=seat, tile=tile_name(tile)), seat)
        if self.hand_fixed(seat) and self.last_draw is not None and tile != self.last_draw:
            # (after a fixed hand's pong there is no drawn tile: the pong was the finding)
            drawn = tile_name(self.last_draw)
            self.fixed_breach(
                play("fixed_discard", seat=seat, tile=tile_name(tile), drawn=drawn),
                seat, expected=drawn, recorded=tile_name(tile),
            )  # fmt: skip
        suit = self.void[seat]
        if suit is not None and discard_breaks_void(self.rules, suit, tile, self.hands[seat]):
            self.breaches.append(
                IllegalEvent(
                    "void_rule",
                    play("void_first", seat=seat, tile=tile_name(tile), suit=SUITS[suit]),
                    seat,
                    rule="void_discard_first",
                )
            )
        if self.wall_left < LAST_FOUR:
            self.check_missed_self_draw(seat)
        self.move(seat, tile, -1)
        self.discards[seat].append(tile)
        self.any_discard = True
        self.opened = OpenTile(
            seat,
            tile,
            event.line,
            self.after_kong,
            # 海底: the discard of the seat that drew the wall's last tile; after a pong
            # of that discard, the ponger's discard is no tile of the wall
            self.wall_left == 0 and self.last_draw is not None,
            self.wall_left < LAST_FOUR,
            False,
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
        if open_tile.winners and self.check_end_after_win():
            return
        if self.wall_left == 0:
            self.end_deal("wall_exhausted")
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
        ends = self.opened.winners and self.wins_end_deal() is not None
        if self.wall_left == 0 or ends:
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
        if seat == open_tile.seat:
            raise IllegalEvent(
                "illegal_pong",
                play("pong_own", seat=seat),
                seat,
            )
        if event.tile != open_tile.tile:
            raise IllegalEvent(
                "illegal_pong",
                play("pong_tile", seat=seat, tile=tile_name(event.tile), last=tile_name(open_tile.tile)),
                seat,
                expected=tile_name(open_tile.tile),
                recorded=tile_name(event.tile),
            )
        if self.hands[seat][event.tile] < 2:
            raise IllegalEvent(
                "not_in_hand",
                play("pong_pair", seat=seat, tile=tile_name(event.tile)),
                seat,
            )
        self._check_void_claim(seat, event.tile, "pong")
        if self.hand_fixed(seat):
            self.fixed_breach(play("fixed_pong", seat=seat, tile=tile_name(event.tile)), seat)
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

    def _check_void_claim(self, seat: int, tile: int, what: str) -> None:
        if claim_breaks_void(self.rules, self.void[seat], tile):
            raise IllegalEvent(
                "void_rule",
                play("void_claim", seat=seat, tile=tile_name(tile), what=doing(what)),
                seat,
                rule="void_declaration",
            )

    @staticmethod
    def _no_wall_kong(seat: int) -> Said:
        return play("no_wall_kong", seat=seat)

    def on_kong(self, event: Kong) -> None:
        """An exposed, concealed or added kong (an added one is open for 抢杠胡 first)."""
        self.check_voids_declared()
        seat = event.seat
        self.expect_seat(seat, "kong")
        if self.phase is Phase.ROB:
            self._resolve_open()
        fixed = self.hand_fixed(seat)
        if fixed and event.kind != "exposed" and event.tile != self.last_draw:
            self.fixed_breach(
                play("fixed_kong", seat=seat, tile=tile_name(event.tile), why=play("fixed_kong_undrawn")),
                seat,
            )
            fixed = False  # one finding for the kong
        waits = self.fixed_waits(seat, event.kind) if fixed else 0
        if event.kind == "exposed":
            self._exposed_kong(event)
        elif event.kind in ("added", "concealed"):
            if self.phase is not Phase.ACT or seat != self.current:
                raise self.out_of_turn(
                    seat, f"make {'a' if event.kind == 'concealed' else 'an'} {event.kind} kong"
                )
            if self.wall_left == 0:
                raise IllegalEvent("illegal_kong", self._no_wall_kong(seat), seat)
            self.check_missed_self_draw(seat)  # a kong instead of a forced win of the last four
            if event.kind == "concealed":
                self._concealed_kong(event)
            else:
                self._added_kong(event)
        else:
            raise IllegalEvent("bad_record", play("kong_kind", kind=event.kind), seat)
        if fixed and wait_mask(self.hands[seat], self.pongs(seat), self.kong_tiles(seat)) != waits:
            self.fixed_breach(
                play("fixed_kong", seat=seat, tile=tile_name(event.tile), why=play("fixed_kong_waits")), seat
            )

    def fixed_waits(self, seat: int, kind: str) -> int:
        """The waits of a fixed hand before a kong: its tiles without the drawn one (a kong
        of a discard: the hand as it is)."""
        counts = list(self.hands[seat])
        if kind != "exposed" and self.last_draw is not None:
            counts[self.last_draw] -= 1
        return wait_mask(counts, self.pongs(seat), self.kong_tiles(seat))

    def fixed_breach(
        self, text: Said, seat: int, *, expected: object = None, recorded: object = None
    ) -> None:
        """A move a fixed hand may not make (胡后不改牌): noted, and the replay goes on."""
        self.breaches.append(
            IllegalEvent("fixed_hand", text, seat, rule="end_condition", expected=expected, recorded=recorded)
        )

    def _exposed_kong(self, event: Kong) -> None:
        seat = event.seat
        open_tile = self._open_discard(seat, "make an exposed kong", "kongs")
        if seat == open_tile.seat or event.tile != open_tile.tile:
            raise IllegalEvent(
                "illegal_kong",
                play(
                    "exposed_tile",
                    seat=seat,
                    tile=tile_name(event.tile),
                    last=tile_name(open_tile.tile),
                    by=open_tile.seat,
                ),
                seat,
            )
        if self.hands[seat][event.tile] < 3:
            raise IllegalEvent(
                "not_in_hand",
                play("exposed_three", seat=seat, tile=tile_name(event.tile)),
                seat,
            )
        if self.wall_left == 0:
            raise IllegalEvent("illegal_kong", self._no_wall_kong(seat), seat)
        self._check_void_claim(seat, event.tile, "kong")
        self.check_missed_discard(open_tile)
        self.opened = None
        self.discards[open_tile.seat].pop()
        self.move(seat, event.tile, -3)
        self.melds[seat].append(Meld("exposed", event.tile, open_tile.seat))
        self.any_claim = True
        self._pay_kong(seat, event, feeder=open_tile.seat)

    def _concealed_kong(self, event: Kong) -> None:
        seat = event.seat
        if self.hands[seat][event.tile] < 4:
            raise IllegalEvent(
                "not_in_hand",
                play("concealed_four", seat=seat, tile=tile_name(event.tile)),
                seat,
            )
        self.move(seat, event.tile, -4)
        self.melds[seat].append(Meld("concealed", event.tile, None))
        self.any_claim = True
        self._pay_kong(seat, event, feeder=None)

    def _added_kong(self, event: Kong) -> None:
        seat = event.seat
        meld = next((m for m in self.melds[seat] if m.kind == "pong" and m.tile == event.tile), None)
        if meld is None:
            raise IllegalEvent(
                "illegal_kong",
                play("added_no_pong", seat=seat, tile=tile_name(event.tile)),
                seat,
            )
        if self.hands[seat][event.tile] < 1:
            raise IllegalEvent(
                "not_in_hand",
                play("added_not_held", seat=seat, tile=tile_name(event.tile)),
                seat,
            )
        self.move(seat, event.tile, -1)
        meld.kind = "added"
        self.any_claim = True
        self.pending_added = (event, meld, self.last_draw == event.tile)
        self.opened = OpenTile(
            seat, event.tile, event.line, after_kong=False, last_tile=False, last_four=False, rob=True
        )
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
