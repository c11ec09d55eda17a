"""The rules of play both movers share: the explaining engine (:mod:`engine.claims`,
:mod:`engine.deal`) and the fast check (:mod:`ingest.fast_check`) call these, so a rule
of play is written once.

- A tile open for claims (:class:`OpenTile`) and how a win on it counts.
- The pass rule (过水不胡, :class:`PassRecord`): which wins a seat passed since its last
  draw, and whether they bar the win it claims now.
- 最后四张 on a discard (:func:`missed_forced`): the seats that could win one of the last
  four tiles and did not.

Everything here is integers and the open tiles; a seat's fan comes from the caller's
``win_on`` (the state that holds the tiles), so neither mover's state is known here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine import move_codes
from engine.fan import DISCARD_WIN, FanResult, WinContext
from engine.rules import Rules

PASS_OFF: Final = move_codes.PASS_OFF
PASS_ANY: Final = move_codes.PASS_ANY
#: ``pass_rule`` values to their codes
PASS_CODES: Final[dict[str, int]] = {rule: code for code, rule in enumerate(move_codes.PASS_RULES)}
# A module-level copy: mypyc reads a Final of its own module as a C static.
_DISCARD_WIN: Final = DISCARD_WIN

#: ``win_on(seat, tile, context)``: the fan of ``seat`` winning ``tile`` now, or None
WinOn = Callable[[int, int, WinContext], FanResult | None]


def discard_context(after_kong: bool, rob: bool, last_tile: bool) -> WinContext:
    """How a win on a discard or a robbed kong counts (杠上炮, 抢杠胡, 海底)."""
    if after_kong or rob or last_tile:
        return WinContext(after_kong=after_kong, robbing_kong=rob, last_tile=last_tile)
    return _DISCARD_WIN


class OpenTile:
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
        self.context = discard_context(after_kong, rob, last_tile)  # how a win on it counts


def missed_forced(open_tile: OpenTile, left: list[bool], multiple_hu: bool, win_on: WinOn) -> list[int]:
    """The seats, in seat order, that could have won ``open_tile`` as it closes and did
    not (on one of the last four tiles that is ``missed_forced_hu``)."""
    if open_tile.winners and not multiple_hu:
        return []  # nobody else could win it
    missed = []
    for seat in range(4):
        if left[seat] or seat == open_tile.seat or seat in open_tile.winners:
            continue
        if win_on(seat, open_tile.tile, open_tile.context) is not None:
            missed.append(seat)
    return missed


class PassRecord:
    """过水不胡: a seat that could have won an open tile and did not (a pong or kong of it
    instead is a pass too) may not win, until its own next draw, a tile the rule bars.

    The passes are worked out when they matter, when a seat claims a win: from the tiles
    opened since its last draw, with the hand it holds then, which has not changed since
    (a pong of its own in between: the passes before it are worked out at the pong, with
    the hand before it, :meth:`carry`). Only the highest fan passed (per tile for
    ``same_tile``) decides, so a pass the rule itself barred changes nothing.
    """

    def __init__(self, rules: Rules) -> None:
        self.rule = PASS_CODES[rules.pass_rule]
        self.higher_fan_ok = rules.pass_rule_higher_fan_ok
        self.multiple_hu = rules.multiple_hu
        self.opened: list[OpenTile] = []  # every tile opened for claims, in order
        self.since: list[int] = [0, 0, 0, 0]  # index into opened at the seat's last draw
        # passes worked out before the seat's hand changed by a pong since its last draw
        self.carried: list[dict[int, int] | None] = [None, None, None, None]

    def open(self, open_tile: OpenTile) -> None:
        """A discard or an added kong is open for claims."""
        self.opened.append(open_tile)

    def drew(self, seat: int) -> None:
        """The seat drew: its passes lapse."""
        self.since[seat] = len(self.opened)
        self.carried[seat] = None

    def passes(self, seat: int, upto: int, win_on: WinOn) -> dict[int, int]:
        """tile -> highest fan of the wins ``seat`` passed since its last draw, over the
        opened tiles before index ``upto``."""
        carried = self.carried[seat]
        passed: dict[int, int] = dict(carried) if carried is not None else {}
        multiple = self.multiple_hu
        opened = self.opened
        for index in range(self.since[seat], upto):
            open_tile = opened[index]
            if open_tile.last_four or open_tile.seat == seat or seat in open_tile.winners:
                continue  # the pass rule does not apply to the last four
            if open_tile.winners and not multiple:
                continue
            result = win_on(seat, open_tile.tile, open_tile.context)
            if result is not None:
                before = passed.get(open_tile.tile)
                if before is None or result.fan > before:
                    passed[open_tile.tile] = result.fan
        return passed

    def carry(self, seat: int, win_on: WinOn) -> None:
        """Before a pong changes ``seat``'s hand: its passes so far, the ponged tile's too."""
        if self.rule == PASS_OFF:
            return
        upto = len(self.opened)
        self.carried[seat] = self.passes(seat, upto, win_on)
        self.since[seat] = upto

    def blocks(self, seat: int, tile: int, fan: int, win_on: WinOn) -> bool:
        """Does the rule bar ``seat`` from winning ``tile`` (the tile open now, the last
        opened) for ``fan``? ``pass_rule_higher_fan_ok`` lets a higher fan (after the cap)
        than the highest passed through."""
        if self.rule == PASS_OFF:
            return False
        passed = self.passes(seat, len(self.opened) - 1, win_on)
        if not passed:
            return False
        if self.rule == PASS_ANY:
            highest = max(passed.values())
        elif tile in passed:
            highest = passed[tile]
        else:
            return False
        return not (self.higher_fan_ok and fan > highest)
