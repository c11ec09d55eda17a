"""Tiles: ids 0-26, names such as ``"5p"``, the compact form ``"1123m456p"``, count vectors.

A tile id is ``suit * 9 + rank - 1`` with suits in the order 万 ``m``, 筒 ``p``, 条 ``s``
(docs/rules.md section 1), so ``0`` is ``1m`` and ``26`` is ``9s``. The 红中 wild tile of
a table with ``wild_tiles`` is id 27 (:data:`WILD`), written ``7z`` as in riichi notation
or ``中``; count vectors stay 27 long (the suited kinds) and a hand counts its 红中 beside
them, so only the readers that opt in (``wild=True``) accept it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

SUITS = "mps"
NUM_KINDS: Final = 27
COPIES: Final = 4
ALL_TILES: tuple[int, ...] = tuple(range(NUM_KINDS))
#: the 红中 wild tile (癞子): no suit, never in a count vector
WILD: Final = 27
#: the 红中's names: the riichi notation ``7z`` (written by :func:`tile_name`) and ``中``
WILD_NAMES: Final = ("7z", "中")


class TileError(ValueError):
    """A tile or list of tiles that cannot be read (finding code ``bad_tile``); ``key`` and
    ``values`` name its template (``engine/read_templates.py``), so the finding that
    quotes it reads in either language (this module imports no messages: it is below them)."""

    code = "bad_tile"

    def __init__(self, message: str, key: str = "", values: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.values = values or {}


class TileCountError(ValueError):
    """A fifth copy of a tile, or a hand of the wrong size (finding code ``tile_count``)."""

    code = "tile_count"


_NAMES: tuple[str, ...] = (*(f"{rank}{suit}" for suit in SUITS for rank in range(1, 10)), WILD_NAMES[0])
_IDS: dict[str, int] = {name: tile for tile, name in enumerate(_NAMES[:NUM_KINDS])}


def tile_name(tile: int) -> str:
    """``4`` -> ``"5m"``; :data:`WILD` -> ``"7z"``."""
    return _NAMES[tile]


def parse_tile(name: str, *, wild: bool = False) -> int:
    """``"5p"`` -> ``13``; raises :class:`TileError` for anything that is not one of the 27
    (with ``wild``, ``"7z"`` and ``"中"`` are :data:`WILD` too)."""
    if wild and name in WILD_NAMES:
        return WILD
    try:
        return _IDS[name]
    except (KeyError, TypeError):
        raise TileError(
            f"{name!r} is not a tile: write a rank 1-9 then m, p or s, e.g. '5p'",
            "tile_not_a_tile",
            {"name": name},
        ) from None


def suit_of(tile: int) -> int:
    return tile // 9


def rank_of(tile: int) -> int:
    """1-9."""
    return tile % 9 + 1


def parse_tiles(text: str | Sequence[str], *, wild: bool = False) -> list[int]:
    """Read ``"1123m456p"`` (digits, then their suit letter) or a list of names.

    Spaces are not allowed inside the compact form; an empty string is an empty list. With
    ``wild``, ``7z`` (the digit 7 alone before ``z``) and ``中`` are the 红中 :data:`WILD`:
    ``"123m7z"``, ``"123m中中"``, ``"77z"`` (two of them).
    """
    if not isinstance(text, str):
        return [parse_tile(name, wild=wild) for name in text]
    tiles: list[int] = []
    pending: list[int] = []
    for position, char in enumerate(text):
        if char in "123456789":
            pending.append(int(char))
        elif wild and char == "中" and not pending:
            tiles.append(WILD)
        elif wild and char == "z" and pending and all(rank == 7 for rank in pending):
            tiles.extend([WILD] * len(pending))
            pending = []
        elif char in SUITS:
            if not pending:
                raise TileError(
                    f"{text!r}: suit letter {char!r} at position {position} has no digits before it",
                    "tile_suit_alone",
                    {"text": text, "char": char, "position": position},
                )
            base = SUITS.index(char) * 9
            tiles.extend(base + rank - 1 for rank in pending)
            pending = []
        else:
            raise TileError(
                f"{text!r}: unexpected {char!r} at position {position}; "
                "write digits 1-9 followed by their suit m, p or s, e.g. '1123m456p'",
                "tile_unexpected",
                {"text": text, "char": char, "position": position},
            )
    if pending:
        raise TileError(
            f"{text!r}: digits at the end have no suit letter (m, p or s)", "tile_no_suit", {"text": text}
        )
    return tiles


_RANK_OF: Final = tuple(str(tile % 9 + 1) for tile in range(NUM_KINDS))
_SUIT_OF: Final = tuple(tile // 9 for tile in range(NUM_KINDS))


def format_tiles(tiles: Iterable[int]) -> str:
    """Sorted compact form: ``[13, 0, 0]`` -> ``"11m5p"`` (every stored deal row writes five,
    so it walks the sorted tiles once instead of counting all 27 kinds); 红中 last, as
    ``7z`` (``[0, 27, 27]`` -> ``"1m77z"``)."""
    parts: list[str] = []
    suit = -1
    ordered = sorted(tiles)
    wilds = 0
    while ordered and ordered[-1] == WILD:  # the highest id: off the end, no test a tile
        ordered.pop()
        wilds += 1
    for tile in ordered:
        tile_suit = _SUIT_OF[tile]
        if tile_suit != suit:
            if suit >= 0:
                parts.append(SUITS[suit])
            suit = tile_suit
        parts.append(_RANK_OF[tile])
    if suit >= 0:
        parts.append(SUITS[suit])
    if wilds:
        parts.append("7" * wilds + "z")
    return "".join(parts)


def to_counts(tiles: Iterable[int], *, check: bool = True) -> list[int]:
    """A 27-long count vector; with ``check``, a fifth copy raises :class:`TileCountError`."""
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile] += 1
    if check:
        check_copies(counts)
    return counts


def check_copies(counts: Sequence[int]) -> None:
    for tile, count in enumerate(counts):
        if count > COPIES:
            raise TileCountError(f"{count} copies of {tile_name(tile)}: the set has only {COPIES}")


def suits_used(counts: Sequence[int]) -> int:
    """How many of the three suits appear in a count vector."""
    used = 0
    for start in (0, 9, 18):  # a loop, not any() over slices: this runs on every win
        for tile in range(start, start + 9):
            if counts[tile]:
                used += 1
                break
    return used
