"""The events of log format v1 (docs/log-format.md) as typed, immutable records.

Tiles are ids (``engine.tiles``); ``line`` is the event's line in its file (0 when the
event did not come from a file). ``ingest`` builds these from JSON; the simulator builds
them directly; the deal state machine consumes them.

They are msgspec Structs, not dataclasses: a replay makes one per line of a log, and a
Struct is built much faster than a (mypyc-compiled) frozen dataclass; with
``gc=False`` the collector never walks them (they hold ints, strings, tuples and at most
a session's rules object, none of which can point back at an event: no cycles).
``type`` is a class attribute, the event's ``type`` in the log format. Use
:func:`replace` for an altered copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeVar

import msgspec

from engine.vocabulary import FINDING_CODES


class _Event(msgspec.Struct, frozen=True, gc=False):
    """Immutable, hashable, compared by value, never tracked by the garbage collector."""


KongKind = Literal["exposed", "added", "concealed"]
Direction = Literal["clockwise", "counterclockwise", "across"]
EndReason = Literal["three_won", "wall_exhausted", "first_hu"]


class SessionStart(_Event, frozen=True):
    session_id: str
    players: tuple[str, ...]  # one a seat: as many as the rules' ``seats`` (4, 3 or 2)
    rules: str | dict[str, Any] | None = None
    base: int = 1
    club: str | None = None
    table: str | None = None
    started_at: str | None = None
    line: int = 0
    type: ClassVar[Literal["session"]] = "session"


class DealStart(_Event, frozen=True):
    deal_id: str
    dealer: int
    hands: tuple[tuple[int, ...], ...]  # one list a seat, in the order recorded
    wall: tuple[int, ...] | None = None  # drawing order; replacement draws from the back
    dice: tuple[int, ...] | None = None
    line: int = 0
    record: Literal["tiles", "sheet"] = "tiles"  # "sheet": a score-sheet deal, no hands or wall
    type: ClassVar[Literal["deal"]] = "deal"


class Exchange(_Event, frozen=True):
    direction: Direction
    tiles: tuple[tuple[int, ...], ...]  # what each seat gives, one list of three a seat
    line: int = 0
    type: ClassVar[Literal["exchange"]] = "exchange"


class Void(_Event, frozen=True):
    seat: int
    suit: int  # 0 m, 1 p, 2 s
    line: int = 0
    type: ClassVar[Literal["void"]] = "void"


class Draw(_Event, frozen=True):
    seat: int
    tile: int
    line: int = 0
    type: ClassVar[Literal["draw"]] = "draw"


class Discard(_Event, frozen=True):
    seat: int
    tile: int
    line: int = 0
    type: ClassVar[Literal["discard"]] = "discard"


class Pong(_Event, frozen=True):
    seat: int
    tile: int
    line: int = 0
    type: ClassVar[Literal["pong"]] = "pong"


class Kong(_Event, frozen=True):
    seat: int
    tile: int
    kind: KongKind
    deltas: tuple[int, ...] | None = None  # one a seat
    line: int = 0
    type: ClassVar[Literal["kong"]] = "kong"


class Hu(_Event, frozen=True):
    seat: int
    tile: int
    from_seat: int | None  # JSON "from"; None for a self-draw
    fan: int | None = None
    patterns: tuple[str, ...] | None = None
    deltas: tuple[int, ...] | None = None  # one a seat
    line: int = 0
    type: ClassVar[Literal["hu"]] = "hu"


class SheetKong(_Event, frozen=True):
    """A kong as a score sheet records it: who, what kind, from whom (exposed only)."""

    seat: int
    kind: KongKind
    from_seat: int | None = None  # JSON "from": the discarder of an exposed kong
    tile: int | None = None
    deltas: tuple[int, ...] | None = None  # one a seat
    same_turn: bool = True  # an added kong of a tile drawn this turn (added_kong_same_turn_only)
    line: int = 0
    type: ClassVar[Literal["kong"]] = "kong"


class SheetHu(_Event, frozen=True):
    """A win as a score sheet records it: who, from whom (``None``: 自摸), which patterns."""

    seat: int
    from_seat: int | None
    patterns: tuple[str, ...]
    tile: int | None = None
    fan: int | None = None
    deltas: tuple[int, ...] | None = None  # one a seat
    line: int = 0
    type: ClassVar[Literal["hu"]] = "hu"


SheetEvent = SheetKong | SheetHu


class DealEnd(_Event, frozen=True):
    reason: str  # a known EndReason, or what the recorder wrote (checked by the replay)
    settlement: tuple[int, ...] | None = None  # one a seat (a tile deal: four)
    scores: tuple[int, ...] | None = None
    line: int = 0
    # score sheets only: each seat's 查大叫 fan (None: not ready, or won) and the 花猪
    ready: tuple[int | None, ...] | None = None
    flower_pigs: tuple[int, ...] | None = None
    type: ClassVar[Literal["deal_end"]] = "deal_end"


class SessionEnd(_Event, frozen=True):
    totals: tuple[int, ...] | None = None  # one a seat
    line: int = 0
    type: ClassVar[Literal["session_end"]] = "session_end"


E = TypeVar("E", bound=_Event)


def replace(event: E, **changes: Any) -> E:
    """A copy of ``event`` with some fields changed (``dataclasses.replace`` for events)."""
    return msgspec.structs.replace(event, **changes)


PlayEvent = Exchange | Void | Draw | Discard | Pong | Kong | Hu
Event = SessionStart | DealStart | PlayEvent | DealEnd | SessionEnd


@dataclass(frozen=True, slots=True)
class Finding:
    """One disagreement between a log and the rules (docs/report.md, finding codes).

    ``severity`` is ``error`` for the finding codes and ``warning`` for what the format
    says to keep but report (an unknown field); only errors change a deal's status.
    """

    code: str
    line: int | None
    seat: int | None
    message: str
    expected: Any = None
    recorded: Any = None
    severity: Literal["error", "warning"] = "error"
    rule: str | None = None  # the knob or docs/rules.md section that decides it
    file: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    message_zh: str = ""  # the same in Chinese (engine.messages); see __post_init__
    #: the message's template (engine.messages.TEMPLATES) and its values (JSON): a page
    #: renders them again in the user's language with the players' names; "" when the
    #: message is written out (no template)
    message_key: str = ""
    message_values: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        """Every finding has a Chinese message: where none is written for it, its code's
        Chinese name before the English details (names, values and lines read the same)."""
        if not self.message_zh:
            object.__setattr__(self, "message_zh", fallback_zh(self.code, self.message))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "line": self.line,
            "seat": self.seat,
            "message": self.message,
            "message_zh": self.message_zh,
            "expected": self.expected,
            "recorded": self.recorded,
        }
        if self.rule is not None:
            out["rule"] = self.rule
        if self.message_key:
            out["message_key"] = self.message_key
            out["message_values"] = self.message_values
        if self.severity != "error":
            out["severity"] = self.severity
        return out


def fallback_zh(code: str, message: str) -> str:
    """A finding's Chinese message where none is written: ``名称（code）：details``."""
    return f"{FINDING_CODES[code][0] if code in FINDING_CODES else code}（{code}）：{message}"
