"""One seat's tiles: the concealed part plus pongs and kongs; waits, wins and 查大叫 value.

The text form used by ``chuanma hand`` is the concealed tiles in compact form, then
optional space-separated melds of three (pong) or four (kong) identical tiles:
``"12345678999p 1111m"``. A meld counts as three tiles toward a hand's 13 or 14 (the rule
set's ``hand_size`` and one more). At a table with 红中 the concealed tiles may hold them
(``7z`` or ``中``: ``"123456789m1p7z 555s"``); a meld never does (a 红中 cannot be ponged or
konged). Count vectors stay the 27 suited kinds; the 红中 are counted beside them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.fan import DISCARD_WIN, FanResult, WinContext
from engine.rules import Rules
from engine.score import score_win
from engine.shapes import concealed_wait_mask, is_seven_pairs, regular_win_flags, wild_wait_mask, wild_win
from engine.table import table_of
from engine.tiles import (
    COPIES,
    NUM_KINDS,
    SUITS,
    WILD,
    TileCountError,
    TileError,
    parse_tiles,
    tile_name,
    to_counts,
)


class HandError(ValueError):
    """A hand whose text or size cannot be analysed (finding code ``tile_count``)."""

    code = "tile_count"


@dataclass(frozen=True)
class Hand:
    concealed: tuple[int, ...]  # in the order written, the 红中 left out (see ``wilds``)
    pongs: tuple[int, ...] = ()
    kongs: tuple[int, ...] = ()
    concealed_kongs: int = 0  # how many of the kongs are 暗杠 (written in brackets)
    wilds: int = 0  # 红中 among the concealed tiles

    @property
    def meld_count(self) -> int:
        return len(self.pongs) + len(self.kongs)

    @property
    def size(self) -> int:
        """Tiles toward 13/14: every meld, a kong too, counts three; a 红中 counts one."""
        return len(self.concealed) + self.wilds + 3 * self.meld_count

    def counts(self) -> list[int]:
        return to_counts(self.concealed, check=False)

    def held(self) -> list[int]:
        """Copies of each kind the seat holds, melds included (a kong is four)."""
        return held_counts(self.counts(), self.pongs, self.kongs)


def held_counts(concealed: Sequence[int], pongs: Sequence[int], kongs: Sequence[int]) -> list[int]:
    held = list(concealed)
    for tile in pongs:
        held[tile] += 3
    for tile in kongs:
        held[tile] += 4
    return held


def parse_hand(text: str, rules: Rules | None = None) -> Hand:
    """Read ``"1123m456p 555s 7777m [9999p]"`` (a kong in brackets is 暗杠, concealed, which
    keeps 门清); raises :class:`TileError`, :class:`TileCountError` or :class:`HandError`
    with a message that says what is wrong. ``rules`` (default: today's table) says the
    hand's size, the suits that exist and whether 红中 (``7z``, ``中``) do."""
    tokens = text.split()
    if not tokens:
        raise HandError("empty hand: give the concealed tiles, e.g. '1123456789m99p'")
    hand_size = 13 if rules is None else rules.hand_size
    wild_tiles = 0 if rules is None else rules.wild_tiles
    read = parse_tiles(tokens[0], wild=True)
    if WILD in read and not wild_tiles:
        raise HandError(
            f"{text!r} holds a 红中 (7z, 中): this rule set has none (wild_tiles 0); "
            'give --rules a table with them, e.g. {"preset": "standard", "wild_tiles": 4}'
        )
    wilds = read.count(WILD)
    concealed = tuple(tile for tile in read if tile != WILD)
    pongs: list[int] = []
    kongs: list[int] = []
    concealed_kongs = 0
    for token in tokens[1:]:
        hidden = token.startswith("[") and token.endswith("]")
        meld = parse_tiles(token[1:-1] if hidden else token, wild=True)
        if WILD in meld:
            raise HandError(f"meld {token!r}: a 红中 cannot be ponged or konged (红中不能辅助其他牌来碰和杠)")
        if len(meld) not in (3, 4) or len(set(meld)) != 1 or (hidden and len(meld) != 4):
            raise HandError(
                f"meld {token!r} must be three (pong) or four (kong) identical tiles, a 暗杠 four in brackets"
            )
        (kongs if len(meld) == 4 else pongs).append(meld[0])
        concealed_kongs += hidden
    hand = Hand(concealed, tuple(pongs), tuple(kongs), concealed_kongs, wilds)
    held = hand.held()
    for tile in range(NUM_KINDS):
        if held[tile] > COPIES:
            raise TileCountError(
                f"{text!r} holds {held[tile]} copies of {tile_name(tile)}; the set has only {COPIES}"
            )
    if wilds > wild_tiles:
        raise TileCountError(f"{text!r} holds {wilds} 红中; the rule set's wall has {wild_tiles}")
    if rules is not None and rules.suits != SUITS:
        for tile in range(NUM_KINDS):
            if held[tile] and SUITS[tile // 9] not in rules.suits:
                raise HandError(
                    f"{text!r} holds {tile_name(tile)}: the rule set's wall has the suits {rules.suits!r} only"
                )
    if hand.size not in (hand_size, hand_size + 1):
        raise HandError(
            f"{text!r} counts {hand.size} tiles (melds count three each): a hand has {hand_size} tiles, "
            f"or {hand_size + 1} with its winning tile"
        )
    return hand


def wait_mask(
    concealed: Sequence[int],
    pongs: Sequence[int] = (),
    kongs: Sequence[int] = (),
    wilds: int = 0,
    rules: Rules | None = None,
) -> int:
    """27-bit mask of the tiles that complete a 13-tile hand into a win.

    Never a tile whose four copies the seat already holds, and none for a hand that
    holds three suits (缺一门). With ``wilds`` 红中 beside the counts or a ``rules`` whose
    table is another (:func:`table_wait_mask`), every tile of the table's suits that
    completes the hand, 红中 standing for any tile.
    """
    if wilds or rules is not None:
        return table_wait_mask(concealed, pongs, kongs, wilds, rules)
    melded = (*pongs, *kongs)
    mask = concealed_wait_mask(concealed, seven_pairs=not melded)
    if not mask:
        return 0
    suits = {tile // 9 for tile in melded}
    for suit in range(3):
        if any(concealed[suit * 9 : suit * 9 + 9]):
            suits.add(suit)
    if len(suits) > 2:
        return 0
    # A concealed fifth copy never completes a shape; only melded tiles can be exhausted.
    for tile in pongs:
        if concealed[tile]:
            mask &= ~(1 << tile)
    for tile in kongs:
        mask &= ~(1 << tile)
    return mask


def table_wait_mask(
    concealed: Sequence[int],
    pongs: Sequence[int],
    kongs: Sequence[int],
    wilds: int,
    rules: Rules | None,
) -> int:
    """:func:`wait_mask` at any table: a hand of ``hand_size`` tiles (melds count three, a
    红中 one), seven pairs only where hands are of 13, waits only in the table's suits, and
    缺一门 where the table plays it (``engine.wilds.suit_limit``): a wait that would bring
    a suit too many is none."""
    from engine.wilds import held_suits, suit_count, suit_limit

    hand_size = 13 if rules is None else rules.hand_size
    melds = len(pongs) + len(kongs)
    seven = hand_size == 13 and not melds
    kinds = (1 << NUM_KINDS) - 1 if rules is None else table_of(rules).kinds_mask
    limit = 2 if rules is None else suit_limit(rules)
    if wilds:
        mask = wild_wait_mask(concealed, wilds, seven, kinds)
    else:
        mask = concealed_wait_mask(concealed, seven_pairs=seven) & kinds
    if not mask:
        return 0
    suits = held_suits(concealed, pongs, kongs)
    if suit_count(suits) > limit:
        return 0
    for suit in range(3):
        if suit_count(suits | 1 << suit) > limit:
            mask &= ~(0x1FF << (9 * suit))
    # no tile the seat holds four of (a 红中 may make a fifth copy, a drawn tile cannot)
    held = held_counts(concealed, pongs, kongs)
    for tile in range(NUM_KINDS):
        if held[tile] >= COPIES:
            mask &= ~(1 << tile)
    return mask


def is_win(
    concealed: Sequence[int],
    pongs: Sequence[int] = (),
    kongs: Sequence[int] = (),
    wilds: int = 0,
    rules: Rules | None = None,
) -> bool:
    """Whether the concealed counts, ``wilds`` 红中 and the melds form a win at the rule set's
    table (default: today's): ``(hand_size - 1) / 3`` sets and a pair over the concealed
    tiles and the melds, or (13-tile hands, no meld) seven pairs, a 红中 standing for any
    tile; 缺一门 where the table plays it. Fan aside: :func:`engine.score.score_win` prices it."""
    from engine.wilds import held_suits, suit_count, suit_limit

    hand_size = 13 if rules is None else rules.hand_size
    melds = len(pongs) + len(kongs)
    if sum(concealed) + wilds + 3 * melds != hand_size + 1:
        return False
    seven = hand_size == 13 and not melds
    if wilds:
        shape = wild_win(concealed, wilds, seven)
    else:
        shape = regular_win_flags(concealed) is not None or (seven and is_seven_pairs(concealed))
    limit = 2 if rules is None else suit_limit(rules)
    return shape and suit_count(held_suits(concealed, pongs, kongs)) <= limit


def mask_tiles(mask: int) -> list[int]:
    return [tile for tile in range(NUM_KINDS) if mask >> tile & 1]


def waits(
    concealed: Sequence[int],
    pongs: Sequence[int] = (),
    kongs: Sequence[int] = (),
    wilds: int = 0,
    rules: Rules | None = None,
) -> list[int]:
    """Tiles that complete the hand, in tile order (m, p, s, then rank); a drawn 红中
    completes every ready hand too, and is not listed here."""
    return mask_tiles(wait_mask(concealed, pongs, kongs, wilds, rules))


def ready_value(
    concealed: Sequence[int],
    pongs: Sequence[int],
    kongs: Sequence[int],
    rules: Rules,
    mask: int = -1,
    concealed_kongs: int = 0,
    wilds: int = 0,
) -> int | None:
    """查大叫 value of a ready hand: its highest or lowest fan over its waits, as
    ``no_ting_pays`` says, with roots and the cap but no situational extra;
    ``None`` when the hand has no wait. ``mask`` (27 bits) limits the waits valued, for a
    caller that has worked them out or counts only some (死叫); by default all of them.
    ``ready_value_kong_roots`` false leaves out the 根 of the declared kongs (each kong is
    one root of the hand's 根 extras), before the cap. ``concealed_kongs`` of the kongs
    are 暗杠 (门清). A hand holding ``wilds`` 红中 is valued over the suited tiles that
    complete it, each win at its 红中's best reading; a drawn 红中 is no wait of its own
    here (docs/decisions.md, "红中")."""
    if mask < 0:
        if wilds or rules.suits != "mps" or rules.hand_size != 13:
            mask = wait_mask(concealed, pongs, kongs, wilds, rules)
        else:
            mask = wait_mask(concealed, pongs, kongs)
    highest = rules.no_ting_pays != "min"  # a flat 查大叫 (a number) records the highest
    value = -1
    with_tile = list(concealed)
    for tile in range(NUM_KINDS):
        if not mask >> tile & 1:
            continue
        with_tile[tile] += 1
        result = score_win(with_tile, pongs, kongs, rules, DISCARD_WIN, tile, concealed_kongs, wilds)
        with_tile[tile] -= 1
        if result is None:
            continue
        fan = (
            result.fan
            if rules.ready_value_kong_roots or not kongs
            else _without_kong_roots(result, len(kongs), rules)
        )
        if value < 0 or (fan > value if highest else fan < value):
            value = fan
    return value if value >= 0 else None


def _without_kong_roots(result: FanResult, kongs: int, rules: Rules) -> int:
    """A win's fan less the 根 its ``kongs`` declared kongs give (at most the roots the
    reading counts), capped again: the hand is scored as it is, only those extras drop."""
    gen_fan = rules.pattern_fan("gen") or 0  # the 根 row of the fan table
    uncapped = result.uncapped - gen_fan * min(kongs, result.extras.count("gen"))
    return uncapped if rules.max_fan is None else min(uncapped, rules.max_fan)


@dataclass(frozen=True)
class HandReport:
    """What ``chuanma hand`` answers for one hand."""

    hand: str
    is_win: bool
    fan: int | None
    patterns: tuple[str, ...]
    waits: tuple[int, ...]
    ready_fan: int | None
    hand_size: int
    result: FanResult | None = None


def analyse_hand(
    text: str, rules: Rules, context: WinContext = DISCARD_WIN, win_tile: int | None = None
) -> HandReport:
    """A hand of ``hand_size`` + 1 tiles (14 at today's table): is it a win and its fan; a
    hand of ``hand_size``: its waits and 查大叫 value. At a table with 红中 the waits end
    with the 红中 (27) when there are any (a drawn 红中 completes every ready hand), and
    four 红中 with ``first_turn`` win at once where 起手4红中 is scored."""
    hand = parse_hand(text, rules)
    counts = hand.counts()
    size = rules.hand_size
    four_wilds = context.first_turn and hand.wilds >= 4 and rules.pattern_fan("sihongzhong") is not None
    if hand.size == size and not four_wilds:
        if win_tile is not None:
            raise HandError(f"--win-tile applies to a {size + 1}-tile hand only")
        hand_waits = tuple(waits(counts, hand.pongs, hand.kongs, hand.wilds, rules))
        value = (
            ready_value(
                counts, hand.pongs, hand.kongs, rules, concealed_kongs=hand.concealed_kongs, wilds=hand.wilds
            )
            if hand_waits
            else None
        )
        if hand_waits and rules.wild_tiles:
            hand_waits = (*hand_waits, WILD)
        return HandReport(text, False, None, (), hand_waits, value, size)
    if win_tile is not None and win_tile not in hand.concealed and not (win_tile == WILD and hand.wilds):
        raise HandError(
            f"the winning tile {tile_name(win_tile)} is not among the concealed tiles of {text!r}"
        )
    tile = -1 if win_tile is None else win_tile
    result = score_win(counts, hand.pongs, hand.kongs, rules, context, tile, hand.concealed_kongs, hand.wilds)
    if result is None:
        return HandReport(text, False, None, (), (), None, hand.size)
    return HandReport(text, True, result.fan, result.patterns, (), None, hand.size, result)


__all__ = [
    "Hand",
    "HandError",
    "HandReport",
    "TileCountError",
    "TileError",
    "analyse_hand",
    "is_win",
    "parse_hand",
    "ready_value",
    "table_wait_mask",
    "wait_mask",
    "waits",
]
