"""One seat's tiles: the concealed part plus pongs and kongs; waits, wins and 查大叫 value.

The text form used by ``chuanma hand`` is the concealed tiles in compact form, then
optional space-separated melds of three (pong) or four (kong) identical tiles:
``"12345678999p 1111m"``. A meld counts as three tiles toward a hand's 13 or 14.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.fan import DISCARD_WIN, FanResult, WinContext, score_win
from engine.rules import Rules
from engine.shapes import concealed_wait_mask
from engine.tiles import (
    COPIES,
    NUM_KINDS,
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
    concealed: tuple[int, ...]  # in the order written
    pongs: tuple[int, ...] = ()
    kongs: tuple[int, ...] = ()
    concealed_kongs: int = 0  # how many of the kongs are 暗杠 (written in brackets)

    @property
    def meld_count(self) -> int:
        return len(self.pongs) + len(self.kongs)

    @property
    def size(self) -> int:
        """Tiles toward 13/14: every meld, a kong too, counts three."""
        return len(self.concealed) + 3 * self.meld_count

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


def parse_hand(text: str) -> Hand:
    """Read ``"1123m456p 555s 7777m [9999p]"`` (a kong in brackets is 暗杠, concealed, which
    keeps 门清); raises :class:`TileError`, :class:`TileCountError` or :class:`HandError`
    with a message that says what is wrong."""
    tokens = text.split()
    if not tokens:
        raise HandError("empty hand: give the concealed tiles, e.g. '1123456789m99p'")
    concealed = tuple(parse_tiles(tokens[0]))
    pongs: list[int] = []
    kongs: list[int] = []
    concealed_kongs = 0
    for token in tokens[1:]:
        hidden = token.startswith("[") and token.endswith("]")
        meld = parse_tiles(token[1:-1] if hidden else token)
        if len(meld) not in (3, 4) or len(set(meld)) != 1 or (hidden and len(meld) != 4):
            raise HandError(
                f"meld {token!r} must be three (pong) or four (kong) identical tiles, a 暗杠 four in brackets"
            )
        (kongs if len(meld) == 4 else pongs).append(meld[0])
        concealed_kongs += hidden
    hand = Hand(concealed, tuple(pongs), tuple(kongs), concealed_kongs)
    held = hand.held()
    for tile in range(NUM_KINDS):
        if held[tile] > COPIES:
            raise TileCountError(
                f"{text!r} holds {held[tile]} copies of {tile_name(tile)}; the set has only {COPIES}"
            )
    if hand.size not in (13, 14):
        raise HandError(
            f"{text!r} counts {hand.size} tiles (melds count three each): a hand has 13 tiles, or 14 with its winning tile"
        )
    return hand


def wait_mask(concealed: Sequence[int], pongs: Sequence[int] = (), kongs: Sequence[int] = ()) -> int:
    """27-bit mask of the tiles that complete a 13-tile hand into a win.

    Never a tile whose four copies the seat already holds, and none for a hand that
    holds three suits (缺一门).
    """
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


def mask_tiles(mask: int) -> list[int]:
    return [tile for tile in range(NUM_KINDS) if mask >> tile & 1]


def waits(concealed: Sequence[int], pongs: Sequence[int] = (), kongs: Sequence[int] = ()) -> list[int]:
    """Tiles that complete the hand, in tile order (m, p, s, then rank)."""
    return mask_tiles(wait_mask(concealed, pongs, kongs))


def ready_value(
    concealed: Sequence[int],
    pongs: Sequence[int],
    kongs: Sequence[int],
    rules: Rules,
    mask: int = -1,
    concealed_kongs: int = 0,
) -> int | None:
    """查大叫 value of a ready hand: its highest or lowest fan over its waits, as
    ``no_ting_pays`` says, with roots and the cap but no situational extra;
    ``None`` when the hand has no wait. ``mask`` (27 bits) limits the waits valued, for a
    caller that has worked them out or counts only some (死叫); by default all of them.
    ``ready_value_kong_roots`` false leaves out the 根 of the declared kongs (each kong is
    one root of the hand's 根 extras), before the cap. ``concealed_kongs`` of the kongs
    are 暗杠 (门清)."""
    if mask < 0:
        mask = wait_mask(concealed, pongs, kongs)
    highest = rules.no_ting_pays != "min"  # a flat 查大叫 (a number) records the highest
    value = -1
    with_tile = list(concealed)
    for tile in range(NUM_KINDS):
        if not mask >> tile & 1:
            continue
        with_tile[tile] += 1
        result = score_win(with_tile, pongs, kongs, rules, DISCARD_WIN, tile, concealed_kongs)
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
    """A 14-tile hand: is it a win and its fan; a 13-tile hand: its waits and 查大叫 value."""
    hand = parse_hand(text)
    counts = hand.counts()
    if hand.size == 13:
        if win_tile is not None:
            raise HandError("--win-tile applies to a 14-tile hand only")
        hand_waits = tuple(waits(counts, hand.pongs, hand.kongs))
        value = (
            ready_value(counts, hand.pongs, hand.kongs, rules, concealed_kongs=hand.concealed_kongs)
            if hand_waits
            else None
        )
        return HandReport(text, False, None, (), hand_waits, value, 13)
    if win_tile is not None and win_tile not in hand.concealed:
        raise HandError(
            f"the winning tile {tile_name(win_tile)} is not among the concealed tiles of {text!r}"
        )
    tile = -1 if win_tile is None else win_tile
    result = score_win(counts, hand.pongs, hand.kongs, rules, context, tile, hand.concealed_kongs)
    if result is None:
        return HandReport(text, False, None, (), (), None, 14)
    return HandReport(text, True, result.fan, result.patterns, (), None, 14, result)


__all__ = [
    "Hand",
    "HandError",
    "HandReport",
    "TileCountError",
    "TileError",
    "analyse_hand",
    "parse_hand",
    "ready_value",
    "wait_mask",
    "waits",
]
