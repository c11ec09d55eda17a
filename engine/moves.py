"""The rules of play both movers share: the explaining engine (:mod:`engine.claims`,
:mod:`engine.deal`) and the fast check (:mod:`ingest.replay.fast_check`) call these, so a rule
of play is written once, and a knob that changes what is legal is read here only (and in
the C moves' bits, :mod:`engine.move_codes`; ``tests/test_move_core.py`` holds both
movers to it).

- A breach: :class:`IllegalEvent`, a finding code and its message's key and values, put
  in words outside the moves (:mod:`engine.messages`); each move's checks that raise one
  are :mod:`engine.move_checks`.
- The knobs of legality (:func:`opening_phase`, :func:`void_binds`,
  :func:`claim_breaks_void`, :func:`discard_breaks_void`, :func:`must_win_draw`,
  :func:`must_win_discard`, :func:`won_alone`, :func:`next_after`) and of a kong's and a
  kong bloom's price (:func:`kong_earns`, :func:`bloom_rules`).
- A tile open for claims (:class:`OpenTile`) and how a win on it counts.
- The pass rule (过水不胡, :class:`PassRecord`): which wins a seat passed since its last
  draw, and whether they bar the win it claims now.
- 最后四张 on a discard (:func:`missed_forced`): the seats that could win one of the last
  four tiles and did not.
- The end: when the wins or the wall end a deal (:func:`wins_end`, :func:`end_after_win`,
  :func:`end_on_close`, :func:`closes_at_end`), when 查叫 is due
  (:func:`cha_jiao_due`), and 查叫 itself (:func:`judge_at_wall`: 花猪, then who is ready
  and for how much, from :func:`flower_pig` and :func:`ready_waits`).

Everything here takes integers, the rule set and the open tiles; a seat's fan comes from
the caller's ``win_on`` (the state that holds the tiles), so neither mover's state is
known here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

from engine import move_codes
from engine.fan import DISCARD_WIN, FanResult, WinContext
from engine.hand import held_counts, wait_mask
from engine.messages import Said, Text, play, said_text
from engine.rules import Rules
from engine.table import table_of
from engine.tiles import NUM_KINDS, suits_used, tile_name
from engine.wilds import suit_limit

LAST_FOUR: Final = move_codes.LAST_FOUR
EXCHANGE: Final = move_codes.EXCHANGE
VOID: Final = move_codes.VOID
ACT: Final = move_codes.ACT
PASS_OFF: Final = move_codes.PASS_OFF
PASS_ANY: Final = move_codes.PASS_ANY
#: ``pass_rule`` values to their codes
PASS_CODES: Final[dict[str, int]] = {rule: code for code, rule in enumerate(move_codes.PASS_RULES)}
# A module-level copy: mypyc reads a Final of its own module as a C static.
_DISCARD_WIN: Final = DISCARD_WIN

#: ``win_on(seat, tile, context)``: the fan of ``seat`` winning ``tile`` now, or None
WinOn = Callable[[int, int, WinContext], FanResult | None]


class IllegalEvent(ValueError):
    """An event the rules forbid: ``code`` is the finding code of the spec, ``said`` its
    message as a template key and values, put in words only when asked (:attr:`text`,
    by :mod:`engine.messages`), so the moves write no prose."""

    def __init__(
        self,
        code: str,
        said: Said,
        seat: int | None = None,
        *,
        rule: str | None = None,
        expected: object = None,
        recorded: object = None,
        line: int | None = None,
    ) -> None:
        super().__init__(code)
        self.line = line  # where it happened, when not the event being applied
        self.code = code
        self.said = said
        self.seat = seat
        self.rule = rule
        self.expected = expected
        self.recorded = recorded

    @property
    def text(self) -> Text:
        """The message in English and Chinese, with its template key and values."""
        return said_text(self.said)

    @property
    def message(self) -> str:
        return self.text.en

    def __str__(self) -> str:
        return self.message


# ----------------------------------------------------------------- the knobs of legality
def opening_phase(rules: Rules) -> int:
    """The phase a deal opens in (``engine/move_codes.py``): 换三张, else 定缺 where it
    binds, else play."""
    return EXCHANGE if rules.exchange_three else phase_after_exchange(rules)


def phase_after_exchange(rules: Rules) -> int:
    return VOID if void_binds(rules) else ACT


def exchanges(rules: Rules) -> bool:
    """换三张 (``exchange_three``) is played."""
    return rules.exchange_three


def void_binds(rules: Rules) -> bool:
    """定缺 is required (``void_declaration``): every seat declares before play, may not
    claim a tile of its void suit, and cannot win holding one."""
    return rules.void_declaration == "required"


def claim_breaks_void(rules: Rules, suit: int | None, tile: int) -> bool:
    """A pong or exposed kong of a tile of the seat's void suit (``suit``; None or -1:
    none declared)."""
    return void_binds(rules) and suit == tile // 9


def discard_breaks_void(rules: Rules, suit: int | None, tile: int, hand: list[int]) -> bool:
    """``void_discard_first``: a discard of another suit while the seat holds its void suit."""
    return (
        suit is not None
        and suit >= 0
        and rules.void_discard_first
        and tile // 9 != suit
        and any(hand[suit * 9 : suit * 9 + 9])
    )


def must_win_draw(rules: Rules, wall_left: int, drew: bool) -> bool:
    """最后四张 (``last_four_must_hu``): a seat that drew one of the last four tiles must win
    on it if it can (the stretch begins with the draw of the wall's fourth-last tile)."""
    return rules.last_four_must_hu and wall_left < LAST_FOUR and drew


def must_win_discard(rules: Rules, open_tile: OpenTile) -> bool:
    """最后四张: a seat that can win a discard of the last four must."""
    return open_tile.last_four and rules.last_four_must_hu


def won_alone(rules: Rules, open_tile: OpenTile) -> bool:
    """The open tile has a winner and 一炮多响 (``multiple_hu``) is off: nobody else may win it."""
    return bool(open_tile.winners) and not rules.multiple_hu


def next_after(rules: Rules, open_tile: OpenTile, left: list[bool], seats: int = 4) -> int | None:
    """Who draws after the open tile closes: the first seat still in after the discarder,
    or, when it was won, after the winner furthest from the discarder in turn order
    (``next_after_discard_win: winner``; ``discarder``: after the discarder, won or not)."""
    if not open_tile.winners or rules.next_after_discard_win == "discarder":
        return next_seat(open_tile.seat, left, seats)
    after = max(open_tile.winners, key=lambda w: (w - open_tile.seat) % seats)
    return next_seat(after, left, seats)


def next_seat(seat: int, left: list[bool], seats: int = 4) -> int | None:
    """The first seat after ``seat`` in turn order that is still in the deal (of a table
    of ``seats`` seats)."""
    if seats == 4:
        for step in (1, 2, 3):
            candidate = (seat + step) % 4
            if not left[candidate]:
                return candidate
        return None
    for step in range(1, seats):
        candidate = (seat + step) % seats
        if not left[candidate]:
            return candidate
    return None


def pass_breach(rules: Rules, seat: int, tile: int) -> IllegalEvent:
    """The win on ``tile`` the pass rule bars (:class:`PassRecord`)."""
    return IllegalEvent(
        "illegal_hu",
        play("pass_rule", seat=seat, tile=tile_name(tile), rule=rules.pass_rule),
        seat,
        rule="pass_rule",
    )


# ----------------------------------------------------------------- the knobs of a price
def kong_earns(rules: Rules, drawn_this_turn: bool) -> bool:
    """An added kong earns its payment (``added_kong_same_turn_only``: only of a tile drawn
    this turn)."""
    return drawn_this_turn or not rules.added_kong_same_turn_only


def bloom_rules(rules: Rules, fed: bool) -> Rules | None:
    """The rules a 杠上花 fed by an exposed kong's discarder is scored under when they differ
    (``self_draw_bonus: add_fan``): it counts as a discard win, so no 自摸 bonus; None: as is."""
    if fed and rules.self_draw_bonus == "add_fan":
        return replace(rules, self_draw_bonus="none")
    return None


def haidi_on_any_discard(rules: Rules) -> bool:
    """海底 on any discard win once the wall is empty (``haidi_any_discard``), not only on
    the discard right after the wall's last draw."""
    return rules.haidi_any_discard


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
        # how a win on it counts (a plain discard's, shared, without the call)
        self.context = (
            discard_context(after_kong, rob, last_tile) if after_kong or rob or last_tile else _DISCARD_WIN
        )


def opened_discard(seat: int, tile: int, line: int, after_kong: bool, wall_left: int, drew: bool) -> OpenTile:
    """A discard open for claims: 杠上炮 right after the discarder's kong; 海底 when it
    follows the wall's last draw (``drew``: after a pong of that discard, the ponger's
    discard is no tile of the wall); one of the last four from the draw of the wall's
    fourth-last tile."""
    return OpenTile(seat, tile, line, after_kong, wall_left == 0 and drew, wall_left < LAST_FOUR, False)


def opened_kong(seat: int, tile: int, line: int) -> OpenTile:
    """An added kong open for 抢杠胡: never 海底 nor one of the last four (a robbed tile is
    neither drawn nor discarded)."""
    return OpenTile(seat, tile, line, False, False, False, True)


def missed_forced(
    rules: Rules, open_tile: OpenTile, left: list[bool], win_on: WinOn, seats: int = 4
) -> list[int]:
    """The seats, in seat order, that had to win ``open_tile``, one of the last four tiles,
    as it closes and did not (``missed_forced_hu``)."""
    if not must_win_discard(rules, open_tile) or won_alone(rules, open_tile):
        return []  # nobody else could win it
    missed = []
    for seat in range(seats):
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

    def blocks(self, seat: int, fan: int, win_on: WinOn) -> bool:
        """Does the rule bar ``seat`` from winning the tile open now (the last opened) for
        ``fan``? Never one of the last four (最后四张); ``pass_rule_higher_fan_ok`` lets a
        higher fan (after the cap) than the highest passed through."""
        open_tile = self.opened[-1]
        if self.rule == PASS_OFF or open_tile.last_four:
            return False
        tile = open_tile.tile
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


def wins_end(rules: Rules, stays: bool, won: list[bool], seats: int = 4) -> str | None:
    """The end reason the wins so far give, or None: play on (``first_hu``: the first win
    ends the deal; under 血流成河, ``stays``, only the wall does; else when all but one of
    the ``seats`` have won, ``three_won`` at any table, as the sheet audit names it)."""
    if rules.end_condition == "first_hu":
        return "first_hu"
    if not stays and won.count(True) >= seats - 1:
        return "three_won"
    return None


def end_after_win(rules: Rules, stays: bool, won: list[bool], wall_left: int, seats: int = 4) -> str | None:
    """After a win is settled: the end the wins give, else the empty wall's; None: play on."""
    reason = wins_end(rules, stays, won, seats)
    if reason is None and wall_left == 0:
        return "wall_exhausted"
    return reason


def end_on_close(
    rules: Rules, open_tile: OpenTile, stays: bool, won: list[bool], wall_left: int, seats: int = 4
) -> str | None:
    """When an open tile closes (won, or passed by all): the end its winners give, else the
    empty wall's; None: play on."""
    if open_tile.winners:
        return end_after_win(rules, stays, won, wall_left, seats)
    return "wall_exhausted" if wall_left == 0 else None


def closes_at_end(open_tile: OpenTile, wall_left: int) -> bool:
    """A deal_end line closes the open tile when it was won, or when it is the discard after
    the wall's last draw (an added kong waiting for its replacement does not end a deal)."""
    return bool(open_tile.winners) or (not open_tile.rob and wall_left == 0)


def cha_jiao_due(end_reason: str | None, never_won: int, stays: bool) -> bool:
    """查叫 settles a deal the wall ended while two seats (血流成河: one) never won."""
    return end_reason == "wall_exhausted" and never_won >= (1 if stays else 2)


def holds_void(held: Sequence[int], suit: int | None, rules: Rules) -> bool:
    """Does a seat hold a tile of its declared void suit (``suit``; None or -1: none
    declared)? Only ``void_declaration: required`` binds a seat to it."""
    if suit is None or suit < 0 or not void_binds(rules):
        return False
    return any(held[suit * 9 : suit * 9 + 9])


def flower_pig(held: Sequence[int], suit: int | None, rules: Rules) -> bool:
    """花猪 at the wall's end: three suits held, or (``flower_pig: holds_void``) a tile of
    the declared void still held, which three suits always are when a void is declared.
    At a two-suit table a 花猪 holds a suit too many only where it plays 缺一门
    (``two_suit_void``: both suits held). ``flower_pig: none``: no seat is one (no 查花猪;
    such a hand is not ready, so it pays 查大叫 and refunds its kongs like any other)."""
    if rules.flower_pig == "none":
        return False
    if suits_used(held) > suit_limit(rules):
        return True
    return rules.flower_pig == "holds_void" and holds_void(held, suit, rules)


def flower_pigs_possible(rules: Rules) -> bool:
    """Whether a seat can be a 花猪 at all at this table: a 花猪 holds a suit more than a
    win may (three suits where three are played, both where a two-suit table plays 缺一门),
    so a two-suit table without ``two_suit_void`` (三人两房) has none, nor ``flower_pig:
    none``. The Record page offers no 花猪 there and the sheet audit refuses one."""
    return rules.flower_pig != "none" and suit_limit(rules) < len(rules.suits)


def ready_waits(
    hand: list[int], pongs: list[int], kongs: list[int], suit: int | None, rules: Rules, wilds: int = 0
) -> int:
    """The waits (27-bit mask) that make a seat ready at 查叫; none while it holds its void;
    at another table than today's, waits of its suits and its 缺一门 only; a hand holding
    ``wilds`` 红中 waits on every tile that completes it (a drawn 红中 is no wait of its
    own, docs/decisions.md "红中")."""
    if holds_void(held_counts(hand, pongs, kongs), suit, rules):
        return 0
    if not table_of(rules).today:
        return wait_mask(hand, pongs, kongs, wilds, rules)
    return wait_mask(hand, pongs, kongs)


def live_waits(waits: int, unseen: Sequence[int]) -> int:
    """死叫不算叫 (``dead_wait_counts: false``): only the waits with a copy the seat cannot
    see; a dead wait neither makes the seat ready nor sets its value."""
    return sum(1 << tile for tile in range(NUM_KINDS) if waits >> tile & 1 and unseen[tile] > 0)


def judge_at_wall(
    seats: list[int],
    pig: Callable[[int], bool],
    waits: Callable[[int], int],
    value: Callable[[int, int], int | None],
    fans: bool,
) -> tuple[set[int], dict[int, int]]:
    """查叫 of ``seats`` (those that never won): the 花猪, and each ready seat's 查大叫 fan
    (``value(seat, waits)``; None: not ready after all), 花猪 first.

    A ready seat's fan is paid only by a seat that is neither ready nor a 花猪; when none
    is left and ``fans`` is false, the fans change no payment and are not worked out (0)."""
    pigs = {seat for seat in seats if pig(seat)}
    waiting: list[tuple[int, int]] = []
    for seat in seats:
        if seat not in pigs:
            mask = waits(seat)
            if mask:
                waiting.append((seat, mask))
    valued = fans or len(waiting) + len(pigs) < len(seats)
    ready: dict[int, int] = {}
    for seat, mask in waiting:
        if valued:
            fan = value(seat, mask)
            if fan is not None:
                ready[seat] = fan
        else:
            ready[seat] = 0
    return pigs, ready
