"""The checks of each move on a deal's tiles, written once for both movers: the explaining
engine raises the :class:`engine.moves.IllegalEvent` a check raises (or notes a breach it
returns), the fast check (:mod:`ingest.replay.fast_check`) hands the deal to the engine.

Each check takes the few integers it needs from the mover's state (a seat's count of the
tile, the open tile, the wall), so it knows neither state; whose turn it is and the phase
are the movers' own. A breach is a finding code and its message's key and values
(:func:`engine.messages.play`), put in words outside the moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.fan import FanResult, WinContext
from engine.hand import held_counts, wait_mask
from engine.messages import Said, doing, play, words
from engine.moves import (
    IllegalEvent,
    OpenTile,
    claim_breaks_void,
    discard_breaks_void,
    holds_void,
    void_binds,
    won_alone,
)
from engine.rules import Rules
from engine.score import score_win
from engine.tiles import COPIES, NUM_KINDS, SUITS, WILD, suits_used, tile_name


def heavenly(seat: int, dealer: int, draws: int, any_discard: bool, any_claim: bool) -> bool:
    """天胡: the dealer's first 14 tiles, before any discard or claim."""
    return seat == dealer and draws == 0 and not any_discard and not any_claim


def self_draw_context(
    seat: int, dealer: int, draws: int, any_claim: bool, drew: bool, won: bool, first: bool, after_kong: bool,
    wall_left: int,
) -> WinContext:  # fmt: skip
    """How a win on the seat's own draw counts; ``first``: it is 天胡 (:func:`heavenly`)."""
    earthly = (  # 地胡: a non-dealer's first draw, no pong or kong before it, its first win
        seat != dealer and draws == 1 and not any_claim and drew and not won
    )
    return WinContext(
        self_draw=True,
        after_kong=after_kong,
        last_tile=wall_left == 0,
        first_turn=first or earthly,
        dealer=first,
    )


def check_exchange(given: Sequence[Sequence[int]], hands: Sequence[Sequence[int]], players: int = 4) -> None:
    """换三张: three tiles of one suit from each of the ``players`` seats, each seat's own."""
    if len(given) != players or any(len(three) != 3 for three in given):
        raise IllegalEvent("illegal_exchange", play("exchange_three"))
    for seat, three in enumerate(given):
        first, second, third = three
        if not first // 9 == second // 9 == third // 9 or first >= NUM_KINDS:  # (a 红中 has no suit)
            raise IllegalEvent("illegal_exchange", play("exchange_suit", seat=seat), seat)
        held = hands[seat]
        if any(three.count(tile) > held[tile] for tile in three):
            raise IllegalEvent("not_in_hand", play("exchange_held", seat=seat), seat)


def check_void(rules: Rules, seat: int, declared: bool, void_phase: bool, exchange_phase: bool) -> None:
    """定缺: a seat declares once, and where it binds (``void_declaration``) only after the
    exchange and before play."""
    if declared:
        raise IllegalEvent("void_rule", play("void_twice", seat=seat), seat, rule="void_declaration")
    if not void_phase and void_binds(rules):
        when = play("void_before_exchange" if exchange_phase else "void_after_play")
        raise IllegalEvent(
            "void_rule", play("void_when", seat=seat, when=when), seat, rule="void_declaration"
        )


def check_draw(
    seat: int,
    tile: int,
    wall: Sequence[int] | None,
    front: int,
    back: int,
    replacement: bool,
    drawn_copies: int,
) -> None:
    """A draw takes the wall's next tile (a kong's replacement from its back), never a fifth
    copy; the wall is not empty (the caller has checked)."""
    if wall is not None:
        expected = wall[len(wall) - 1 - back] if replacement else wall[front]
        if tile != expected:
            where = play("wall_back" if replacement else "wall_front")
            raise IllegalEvent(
                "wall_mismatch",
                play(
                    "wall_next", seat=seat, tile=tile_name(tile), where=where, next_tile=tile_name(expected)
                ),
                seat,
                expected=tile_name(expected),
                recorded=tile_name(tile),
            )
    if drawn_copies >= COPIES:
        raise IllegalEvent("tile_count", play("fifth_tile", seat=seat, tile=tile_name(tile)), seat)


def empty_wall(seat: int) -> IllegalEvent:
    """A draw from the empty wall."""
    return IllegalEvent("wall_mismatch", play("empty_wall", seat=seat), seat)


def check_discard(seat: int, tile: int, held: int) -> None:
    if held == 0:
        raise IllegalEvent("not_in_hand", play("discard_not_held", seat=seat, tile=tile_name(tile)), seat)


def discard_breaches(
    rules: Rules, seat: int, tile: int, hand: list[int], drawn: int | None, fixed: bool, suit: int | None
) -> list[IllegalEvent]:
    """The breaches of a legal discard that leave the deal playable: a fixed hand (胡后不改牌)
    that throws another tile than the one it drew, and a 定缺 discard of another suit while
    the seat still holds its void suit (``void_discard_first``)."""
    breaches = []
    if fixed and drawn is not None and tile != drawn:
        # (after a fixed hand's pong there is no drawn tile: the pong was the finding)
        name = tile_name(drawn)
        text = play("fixed_discard", seat=seat, tile=tile_name(tile), drawn=name)
        breaches.append(fixed_breach(text, seat, expected=name, recorded=tile_name(tile)))
    if suit is not None and discard_breaks_void(rules, suit, tile, hand):
        text = play("void_first", seat=seat, tile=tile_name(tile), suit=SUITS[suit])
        breaches.append(IllegalEvent("void_rule", text, seat, rule="void_discard_first"))
    return breaches


def fixed_breach(text: Said, seat: int, *, expected: object = None, recorded: object = None) -> IllegalEvent:
    """A move a fixed hand may not make (血流成河's 胡后不改牌)."""
    return IllegalEvent("fixed_hand", text, seat, rule="end_condition", expected=expected, recorded=recorded)


def kong_of_undrawn(kind: str, tile: int, drawn: int | None) -> bool:
    """A fixed hand's concealed or added kong of a tile it did not just draw (胡后不改牌)."""
    return kind != "exposed" and tile != drawn


def kong_waits(hand: list[int], pongs: list[int], kongs: list[int], kind: str, drawn: int | None) -> int:
    """The waits a fixed hand's kong must keep: those of its tiles without the drawn one (a
    kong of a discard: the hand as it is)."""
    counts = list(hand)
    if kind != "exposed" and drawn is not None:
        counts[drawn] -= 1
    return wait_mask(counts, pongs, kongs)


def fixed_kong(seat: int, tile: int, why: str) -> IllegalEvent:
    """A fixed hand's kong of a tile it did not draw (``fixed_kong_undrawn``) or one that
    changes its waits (``fixed_kong_waits``)."""
    return fixed_breach(play("fixed_kong", seat=seat, tile=tile_name(tile), why=play(why)), seat)


def check_void_claim(rules: Rules, seat: int, suit: int | None, tile: int, what: str) -> None:
    """No pong or exposed kong of a tile of the seat's void suit (``void_declaration``)."""
    if claim_breaks_void(rules, suit, tile):
        raise IllegalEvent(
            "void_rule",
            play("void_claim", seat=seat, tile=tile_name(tile), what=doing(what)),
            seat,
            rule="void_declaration",
        )


def check_pong(rules: Rules, seat: int, tile: int, open_tile: OpenTile, held: int, suit: int | None) -> None:
    """A pong of the open discard: another seat's, that tile, a pair of it held, not the
    seat's void suit."""
    if seat == open_tile.seat:
        raise IllegalEvent("illegal_pong", play("pong_own", seat=seat), seat)
    if tile != open_tile.tile:
        raise IllegalEvent(
            "illegal_pong",
            play("pong_tile", seat=seat, tile=tile_name(tile), last=tile_name(open_tile.tile)),
            seat,
            expected=tile_name(open_tile.tile),
            recorded=tile_name(tile),
        )
    if held < 2:
        raise IllegalEvent("not_in_hand", play("pong_pair", seat=seat, tile=tile_name(tile)), seat)
    check_void_claim(rules, seat, suit, tile, "pong")


def no_wall_kong(seat: int) -> IllegalEvent:
    """A kong with no tile left in the wall for its replacement."""
    return IllegalEvent("illegal_kong", play("no_wall_kong", seat=seat), seat)


def check_exposed_kong(
    rules: Rules, seat: int, tile: int, open_tile: OpenTile, held: int, wall_left: int, suit: int | None
) -> None:
    """An exposed kong of the open discard: another seat's, that tile, three held, a wall
    tile left for the replacement, not the seat's void suit."""
    if seat == open_tile.seat or tile != open_tile.tile:
        raise IllegalEvent(
            "illegal_kong",
            play(
                "exposed_tile",
                seat=seat,
                tile=tile_name(tile),
                last=tile_name(open_tile.tile),
                by=open_tile.seat,
            ),
            seat,
        )
    if held < 3:
        raise IllegalEvent("not_in_hand", play("exposed_three", seat=seat, tile=tile_name(tile)), seat)
    if wall_left == 0:
        raise no_wall_kong(seat)
    check_void_claim(rules, seat, suit, tile, "kong")


def check_concealed_kong(seat: int, tile: int, held: int) -> None:
    if held < 4:
        raise IllegalEvent("not_in_hand", play("concealed_four", seat=seat, tile=tile_name(tile)), seat)


def check_added_kong(seat: int, tile: int, ponged: bool, held: int) -> None:
    """An added kong: the seat's own pong of the tile, and the fourth copy held."""
    if not ponged:
        raise IllegalEvent("illegal_kong", play("added_no_pong", seat=seat, tile=tile_name(tile)), seat)
    if held < 1:
        raise IllegalEvent("not_in_hand", play("added_not_held", seat=seat, tile=tile_name(tile)), seat)


def check_self_draw(seat: int, tile: int, held: int, drawn: int | None, first: bool) -> None:
    """A win by self-draw is on the tile just drawn (天胡, ``first``: on any tile held)."""
    if drawn is None and not first:
        raise IllegalEvent("illegal_hu", play("self_draw_undrawn", seat=seat), seat)
    if held == 0 or (not first and tile != drawn):
        name = tile_name(drawn) if drawn is not None else "nothing"
        said = play(
            "self_draw_tile",
            seat=seat,
            tile=tile_name(tile),
            drawn=name if drawn is not None else play("nothing"),
        )
        raise IllegalEvent("illegal_hu", said, seat, expected=name, recorded=tile_name(tile))


def check_claim_win(rules: Rules, seat: int, source: int | None, tile: int, open_tile: OpenTile) -> None:
    """A win on the open discard or added kong: that tile from that seat, not one's own, not
    twice, and a second winner only under 一炮多响 (``multiple_hu``)."""
    if source != open_tile.seat or tile != open_tile.tile:
        kind = play("open_rob" if open_tile.rob else "open_discard")
        rule = play("rule_rob" if open_tile.rob else "rule_discard")
        said = play(
            "claim_wrong", seat=seat, tile=tile_name(tile), source=source, kind=kind,
            open=tile_name(open_tile.tile), by=open_tile.seat, rule=rule,
        )  # fmt: skip
        raise IllegalEvent("illegal_hu", said, seat)
    if seat == open_tile.seat:
        raise IllegalEvent("illegal_hu", play("own_discard", seat=seat), seat)
    if seat in open_tile.winners:
        raise IllegalEvent("illegal_hu", play("won_twice", seat=seat), seat)
    if won_alone(rules, open_tile):
        raise IllegalEvent("illegal_hu", play("second_winner", seat=seat), seat, rule="multiple_hu")


#: the sets a win needs beside its pair at a table of shorter hands, in both languages
SETS_NEEDED: Final[dict[int, tuple[str, str]]] = {10: ("三", "three"), 7: ("两", "two")}


def legal_win(
    rules: Rules, seat: int, counts: list[int], pongs: list[int], kongs: list[int], concealed_kongs: int,
    suit: int | None, context: WinContext, tile: int, wilds: int = 0,
) -> FanResult:  # fmt: skip
    """The fan of a win the seat declares with ``counts`` (the winning tile among them) and
    ``wilds`` 红中: never holding its void suit, never three suits, and a winning shape."""
    held = held_counts(counts, pongs, kongs)
    if holds_void(held, suit, rules):
        raise IllegalEvent(
            "illegal_hu",
            play("void_win", seat=seat, suit=SUITS[suit or 0]),
            seat,
            rule="void_declaration",
        )
    if suits_used(held) > 2:
        raise IllegalEvent("illegal_hu", play("three_suits", seat=seat), seat)
    result = score_win(counts, pongs, kongs, rules, context, tile, concealed_kongs, wilds)
    if result is None:
        name = tile_name(tile)
        if rules.hand_size == 13:
            raise IllegalEvent("illegal_hu", play("no_shape", seat=seat, tile=name), seat)
        sets = words(*SETS_NEEDED[rules.hand_size])
        said = play("no_shape_short", seat=seat, tile=name, size=rules.hand_size, sets=sets)
        raise IllegalEvent("illegal_hu", said, seat)
    return result


# ----------------------------------------------------------------- 红中 (docs/decisions.md, "红中")
def wild_claim(seat: int, verb: str, code: str) -> IllegalEvent:
    """A pong, kong or win of a discarded 红中: it is dead, nobody claims it."""
    return IllegalEvent(code, play("wild_claim", seat=seat, verb=play(verb)), seat, rule="wild_tiles")


def check_wild_meld(seat: int, tile: int, held: int, needed: int, wilds: int, verb: str, code: str) -> None:
    """A pong or kong of ``tile`` needs ``needed`` real copies in hand; one short of them
    that the seat's 红中 would make up is refused in the rule's words
    (红中不能辅助其他牌来碰和杠), a kong of the 红中 themselves too."""
    if tile == WILD or (held < needed <= held + wilds):
        name = tile_name(tile)
        raise IllegalEvent(
            code, play("wild_meld", seat=seat, tile=name, verb=play(verb)), seat, rule="wild_tiles"
        )


def check_four_wilds(seat: int, wilds: int, opening: bool, scored: bool) -> None:
    """起手4红中 (``sihongzhong``): four 红中 in the seat's starting hand, claimed before
    play began (``opening``: no discard, claim or draw of the seat's yet), where the rule
    set scores the pattern."""
    if not scored:
        raise IllegalEvent("illegal_hu", play("four_wilds_off", seat=seat), seat, rule="sihongzhong")
    if not opening:
        raise IllegalEvent("illegal_hu", play("four_wilds_late", seat=seat), seat, rule="sihongzhong")
    if wilds < 4:
        raise IllegalEvent(
            "illegal_hu", play("four_wilds_short", seat=seat, count=wilds), seat, rule="sihongzhong",
            expected=4, recorded=wilds,
        )  # fmt: skip
