"""Claims on a deal's tiles: draws, discards, pongs and kongs, the pass rule (过水不胡)
and the last four (最后四张); wins are :mod:`engine.deal`'s. A mixin-free base class so
mypyc compiles it (one native base: :class:`engine.state.DealState`)."""

from __future__ import annotations

from engine.events import Discard, Draw, Kong, Pong
from engine.fan import WinContext
from engine.settlement import deltas
from engine.state import (
    LAST_FOUR,
    SEATS,
    WALL_SIZE,
    DealState,
    IllegalEvent,
    KongMade,
    Meld,
    Phase,
    _OpenTile,
    next_seat,
)
from engine.tiles import COPIES, SUITS, tile_name


class DealClaims(DealState):
    """The tile moves that open or take a claim."""

    def _pass_blocks(self, seat: int, tile: int, fan: int) -> bool:
        passed = self._passed[seat]
        rule = self.rules.pass_rule
        if passed is None or rule == "off":
            return False
        relevant = passed.values() if rule == "any" else [passed[tile]] if tile in passed else []
        if not relevant:
            return False
        return not (self.rules.pass_rule_higher_fan_ok and fan > max(relevant))

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
        self._pay_kong(seat, event, feeder=open_tile.seat)

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
        self._pay_kong(seat, event, feeder=None)

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
        self._pending_added = None
        self._pay_kong(event.seat, event, feeder=None, earns=earns)

    def _pay_kong(self, seat: int, event: Kong, feeder: int | None, earns: bool = True) -> None:
        """The settlement core pays the kong (刮风下雨); the konger draws its replacement."""
        transfers = self.settler.kong(seat, event.kind, event.tile, event.line, feeder, earns)
        self.kongs.append(KongMade(seat, event.tile, event.kind, event.line, deltas(transfers)))
        self.current = seat
        self._after_kong = True
        self._last_draw = None
        self.phase = Phase.REPLACEMENT
