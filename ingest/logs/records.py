"""The wire schema of log format v1 (docs/log-format.md) as msgspec Structs.

msgspec checks types, ranges and enum values while it decodes, in C, so the reader's
fast path is one ``decode`` per line. Tiles stay text here (compact strings or lists of
names); ``ingest.logs.reader`` turns them into tile ids with a cache. ``forbid_unknown_fields``
makes a line with an unknown field fail the fast path, so the reader can report it
(msgspec would otherwise drop it silently) and then decode the rest on a slow path.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

import msgspec
from msgspec import Meta

Seat = Annotated[int, Meta(ge=0, le=3)]
TileName = str
TileList = str | list[str]  # "1123m456p" or ["1m", "1m", ...]
#: points as the warehouse stores them (int32): a larger number is a ``bad_record`` at the
#: reader, so ``validate`` and ``ingest`` agree and no value overflows a column
Points = Annotated[int, Meta(ge=-(2**31), le=2**31 - 1)]
Four = tuple[Points, Points, Points, Points]
#: one entry per seat of the rule set's table (``seats``: 4, 3 or 2): a session's players,
#: a sheet deal's points and the session's totals; the replay holds the count to ``seats``
PerSeat = Annotated[tuple[Points, ...], Meta(min_length=2, max_length=4)]
Players = Annotated[tuple[str, ...], Meta(min_length=2, max_length=4)]
#: a deal's hands, one a seat of the rule set's table (the replay holds the count to ``seats``)
SeatTileLists = Annotated[tuple[TileList, ...], Meta(min_length=2, max_length=4)]
NonEmpty = Annotated[str, Meta(min_length=1)]


class Record(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="type", gc=False):
    """Fields every event may carry; ``t`` (a time) is accepted in any form and ignored.

    Records are transient (decoded, converted, dropped) and hold no cycles, hence ``gc=False``.
    """

    t: Any = None


class SessionRec(Record, tag="session"):
    session_id: NonEmpty
    players: Players
    rules: str | dict[str, Any] | None = None
    base: Annotated[int, Meta(ge=1, le=2**31 - 1)] = 1
    club: str | None = None
    table: str | None = None
    started_at: str | None = None


class DealRec(Record, tag="deal"):
    deal_id: NonEmpty
    dealer: Seat
    hands: SeatTileLists
    wall: TileList | None = None
    dice: list[int] | int | None = None
    revision: Annotated[int, Meta(ge=1)] = 1  # a correction of a deal stored before


class ExchangeRec(Record, tag="exchange"):
    direction: Literal["clockwise", "counterclockwise", "across"]
    tiles: SeatTileLists  # what each seat gives, one list a seat


class VoidRec(Record, tag="void"):
    seat: Seat
    suit: Literal["m", "p", "s"]


class DrawRec(Record, tag="draw"):
    seat: Seat
    tile: TileName


class DiscardRec(Record, tag="discard"):
    seat: Seat
    tile: TileName


class PongRec(Record, tag="pong"):
    seat: Seat
    tile: TileName


class KongRec(Record, tag="kong"):
    seat: Seat
    tile: TileName
    kind: Literal["exposed", "added", "concealed"]
    deltas: PerSeat | None = None


class HuRec(Record, tag="hu"):
    seat: Seat
    tile: TileName
    from_: Seat | None = msgspec.field(name="from")
    fan: Annotated[int, Meta(ge=0)] | None = None
    patterns: list[str] | None = None
    deltas: PerSeat | None = None


class DealEndRec(Record, tag="deal_end"):
    reason: str
    settlement: PerSeat | None = None
    scores: PerSeat | None = None


class SessionEndRec(Record, tag="session_end"):
    totals: PerSeat | None = None


# --- score sheets (docs/log-format.md, "Score sheets"): deals recorded without tiles ---
ReadyFan = Annotated[int, Meta(ge=0)] | None
ReadyFans = Annotated[tuple[ReadyFan, ...], Meta(min_length=2, max_length=4)]


class SheetDealRec(Record, tag="deal"):
    deal_id: NonEmpty
    record: Literal["sheet"]
    dealer: Seat = 0
    revision: Annotated[int, Meta(ge=1)] = 1


class SheetKongRec(Record, tag="kong"):
    seat: Seat
    kind: Literal["exposed", "added", "concealed"]
    from_: Seat | None = msgspec.field(default=None, name="from")
    tile: TileName | None = None
    deltas: PerSeat | None = None
    same_turn: bool = True


class SheetHuRec(Record, tag="hu"):
    seat: Seat
    from_: Seat | None = msgspec.field(name="from")
    patterns: list[str]
    tile: TileName | None = None
    fan: Annotated[int, Meta(ge=0)] | None = None
    deltas: PerSeat | None = None


class SheetDealEndRec(Record, tag="deal_end"):
    reason: str
    ready: ReadyFans | None = None
    flower_pigs: list[Seat] | None = None
    settlement: PerSeat | None = None
    scores: PerSeat | None = None


AnyRecord = (
    SessionRec
    | DealRec
    | ExchangeRec
    | VoidRec
    | DrawRec
    | DiscardRec
    | PongRec
    | KongRec
    | HuRec
    | DealEndRec
    | SessionEndRec
)

RECORD_TYPES: Final[dict[str, type[Record]]] = {
    "session": SessionRec,
    "deal": DealRec,
    "exchange": ExchangeRec,
    "void": VoidRec,
    "draw": DrawRec,
    "discard": DiscardRec,
    "pong": PongRec,
    "kong": KongRec,
    "hu": HuRec,
    "deal_end": DealEndRec,
    "session_end": SessionEndRec,
}


#: inside a sheet deal: its kong, hu and deal_end lines take the sheet's fields
SheetRecord = (
    SessionRec
    | DealRec
    | ExchangeRec
    | VoidRec
    | DrawRec
    | DiscardRec
    | PongRec
    | SheetKongRec
    | SheetHuRec
    | SheetDealEndRec
    | SessionEndRec
)
SHEET_RECORD_TYPES: Final[dict[str, type[Record]]] = {
    **RECORD_TYPES,
    "kong": SheetKongRec,
    "hu": SheetHuRec,
    "deal_end": SheetDealEndRec,
}


def _wire_names(cls: type[Record]) -> frozenset[str]:
    info = msgspec.structs.fields(cls)
    return frozenset({"type", *(f.encode_name for f in info)})


_ALL_TYPES: Final[list[type[Record]]] = [*RECORD_TYPES.values(), *SHEET_RECORD_TYPES.values(), SheetDealRec]
KNOWN_BY_CLASS: Final[dict[type[Record], frozenset[str]]] = {cls: _wire_names(cls) for cls in _ALL_TYPES}

#: what each field must hold, in plain words, for findings ("'seat' must be ..."),
#: (中文, English)
FIELD_MEANINGS: Final[dict[str, tuple[str, str]]] = {
    "type": ("以下之一：" + "、".join(RECORD_TYPES), "one of " + ", ".join(RECORD_TYPES)),
    "session_id": ("非空字符串", "a non-empty string"),
    "deal_id": ("非空字符串", "a non-empty string"),
    "players": (
        "玩家名字（字符串）的列表，每个座位一个（2 到 4 个，按规则的 seats）",
        "a list of player names (strings), one per seat (2 to 4, as the rules' seats say)",
    ),
    "rules": (
        '预设名（如 "standard"）或规则选项的对象',
        'a preset name such as "standard", or an object of rule knobs',
    ),
    "base": ("至少为 1 的整数", "a whole number of at least 1"),
    "club": ("字符串", "a string"),
    "table": ("字符串", "a string"),
    "started_at": ("字符串（ISO-8601 时间）", "a string (ISO-8601 time)"),
    "dealer": ("座位号 0-3", "a seat number 0-3"),
    "hands": (
        '每个座位一手牌的列表（2 到 4 手，紧凑写法 "1123m456p" 或牌名列表）',
        'a list of tile lists, one a seat (2 to 4; compact "1123m456p" or lists of tile names)',
    ),
    "wall": (
        '牌的列表（紧凑写法 "1123m456p" 或牌名列表）',
        'a tile list (compact "1123m456p" or a list of tile names)',
    ),
    "dice": ("整数列表", "a list of whole numbers"),
    "direction": ("clockwise、counterclockwise、across 之一", "one of clockwise, counterclockwise, across"),
    "tiles": (
        '每个座位一组牌的列表（2 到 4 组，紧凑写法 "123m" 或牌名列表）',
        'a list of tile lists, one a seat (2 to 4; compact "123m" or lists of tile names)',
    ),
    "seat": ("座位号 0-3", "a seat number 0-3"),
    "suit": ("m、p、s 之一", "one of m, p, s"),
    "tile": ("牌名，如 '5p'", "a tile name such as '5p'"),
    "kind": ("exposed、added、concealed 之一", "one of exposed, added, concealed"),
    "deltas": (
        "整数的列表，每家一个（四人桌 4 个）",
        "a list of whole numbers, one per seat (4 at a four-seat table)",
    ),
    "from": ("座位号 0-3，自摸为 null", "a seat number 0-3, or null for a self-draw"),
    "fan": ("至少为 0 的整数", "a whole number of at least 0"),
    "patterns": ("番型 id（字符串）的列表", "a list of pattern ids (strings)"),
    "reason": ("字符串，如 three_won 或 wall_exhausted", "a string such as three_won or wall_exhausted"),
    "settlement": (
        "整数的列表，每家一个（四人桌 4 个）",
        "a list of whole numbers, one per seat (4 at a four-seat table)",
    ),
    "scores": (
        "整数的列表，每家一个（四人桌 4 个）",
        "a list of whole numbers, one per seat (4 at a four-seat table)",
    ),
    "totals": (
        "整数的列表，每家一个（四人桌 4 个）",
        "a list of whole numbers, one per seat (4 at a four-seat table)",
    ),
    "record": (
        '"sheet" 表示记分表牌局（没有手牌和牌墙）',
        '"sheet" for a score-sheet deal (no hands or wall)',
    ),
    "ready": (
        "每家一项的列表，每项为听牌番数或 null（未听牌或已胡）",
        "a list of one entry per seat, each a whole number of fan or null (not ready, or won)",
    ),
    "flower_pigs": ("座位号 0-3 的列表", "a list of seat numbers 0-3"),
    "same_turn": (
        "true 或 false（本轮摸到的牌开的弯杠）",
        "true or false (an added kong of a tile drawn this turn)",
    ),
    "revision": (
        "至少为 1 的整数（对已存牌局的更正）",
        "a whole number of at least 1 (a correction of a deal stored before)",
    ),
}


#: a line of a fast-read deal (``ingest.logs.builder.DealLog.records``): a plain draw, discard
#: or pong as its play code (:mod:`ingest.logs.play_lines`), any other line as its record
PlayRecord = int | Record
