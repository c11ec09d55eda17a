"""The C half of the fast path: a deal's moves played in C, its plan back.

``ingest/replay/_moves.c`` (built by ``make compile``) plays a fast-read deal's records on C
arrays, with the same checks in the same order as :class:`ingest.replay.fast_check.FastDeal`,
and returns its *plan*: the kongs and wins in the order they are priced, each with the
seat's tiles and melds and the win's context, then the end reason and every seat's
tiles. :func:`ingest.replay.fast_check.fast_replay` prices the plan with the engine's fan
scorer and settlement core. 换三张 is exchanged here, in Python, and the moves after it
played in C. ``None`` means "not here": an illegal move or exchange, a record it does not
take, a win that might have been passed or missed (the pass rule and 最后四张 need a fan,
which only Python scores), or a kong or pong of a fixed hand (血流成河); the deal then
takes the Python moves of :mod:`ingest.replay.fast_check`, and the engine after that. The C
moves play every table the fast check plays (four, three or two seats, any suits and hand
size, no 红中): :func:`table_args` gives them the table :mod:`engine.table` works out. Without
the C module (not built, or ``CHUANMA_PURE=1``) every deal takes the Python moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from engine import move_codes, shapes
from engine.compiled import c_extension
from engine.events import DealStart
from engine.fan import DISCARD_WIN, WinContext
from engine.move_checks import check_exchange
from engine.rules import Rules
from engine.state import EXCHANGE_STEP
from engine.table import table_of
from engine.tiles import NUM_KINDS, parse_tiles
from ingest.logs.records import (
    DiscardRec,
    DrawRec,
    ExchangeRec,
    HuRec,
    KongRec,
    PlayRecord,
    PongRec,
    TileList,
    VoidRec,
)

# the plan's steps, the end reasons and a win's context bits (one list: engine/move_codes.py)
STEP_KONG: Final = move_codes.STEP_KONG
STEP_ROBBED: Final = move_codes.STEP_ROBBED
STEP_SELF_DRAW: Final = move_codes.STEP_SELF_DRAW
STEP_DISCARD_WIN: Final = move_codes.STEP_DISCARD_WIN
END_REASONS: Final = move_codes.END_REASONS
CTX_AFTER_KONG: Final = move_codes.CTX_AFTER_KONG
CTX_ROB: Final = move_codes.CTX_ROB
CTX_LAST_TILE: Final = move_codes.CTX_LAST_TILE
CTX_FIRST_TURN: Final = move_codes.CTX_FIRST_TURN
CTX_DEALER: Final = move_codes.CTX_DEALER
_DISCARD_WIN: Final = DISCARD_WIN

#: a seat as the plan gives it: (counts, pongs, kongs, draws, void suit or -1, its three
#: base-5 suit keys, its tile count)
SeatState = tuple[list[int], list[int], list[int], int, int, tuple[int, int, int], int]


def _moves_module() -> Any:
    moves = c_extension("ingest.replay._moves")
    if moves is not None:
        record_types = (DrawRec, DiscardRec, PongRec, KongRec, HuRec, VoidRec)
        moves.set_tables(shapes.SHAPE_FLAGS.keys(), shapes.EVEN_KEYS, record_types)
    return moves


_MOVES: Final[Any] = _moves_module()
COMPILED: Final = _MOVES is not None


#: rule bits by rule set name (a name says every knob; a str keeps its hash, a Rules does not)
_FLAGS: Final[dict[str, int | None]] = {}


def rule_flags(rules: Rules) -> int | None:
    """The knobs the moves read, as the bits ``_moves.c`` takes (None: a knob or value the
    C moves do not know, so the deal takes the Python moves; ``engine/move_codes.py``)."""
    name = rules.name
    if name not in _FLAGS:
        _FLAGS[name] = move_codes.rule_flags(rules.knobs())
    return _FLAGS[name]


def plan_moves(
    start: DealStart, records: list[PlayRecord], rules: Rules
) -> tuple[list[Any], int, Any] | None:
    """``(steps, end reason index, a SeatState a seat of the table)``, or None: not here
    (see the module docstring)."""
    flags = rule_flags(rules)
    if _MOVES is None or flags is None:
        return None
    hands, first_line = start.hands, start.line + 1
    if flags & _R_EXCHANGE:  # 换三张 is done here, the moves after it in C
        if not records or not isinstance(records[0], ExchangeRec):
            return None
        exchanged = _exchanged(hands, records[0])
        if exchanged is None:
            return None
        hands, records, first_line, flags = exchanged, records[1:], first_line + 1, flags & ~_R_EXCHANGE
    players, hand, wall_size, kinds = table_args(rules)
    plan: tuple[list[Any], int, Any] | None = _MOVES.replay_moves(
        records, first_line, start.dealer, hands, start.wall, flags, players, hand, wall_size, kinds
    )
    return plan


#: the table's arguments of the C moves by rule set name
_TABLE_ARGS: Final[dict[str, tuple[int, int, int, int]]] = {}


def table_args(rules: Rules) -> tuple[int, int, int, int]:
    """The table the C moves play (:mod:`engine.table`): the seats, a non-dealer's tiles, the
    wall's size and the kinds in the set as bits (bit ``t``: kind ``t``)."""
    found = _TABLE_ARGS.get(rules.name)
    if found is None:
        table = table_of(rules)
        found = _TABLE_ARGS[rules.name] = (table.players, table.hand, table.wall_size, table.kinds_mask)
    return found


_R_EXCHANGE: Final = 1 << [name for name, _, _ in move_codes.RULE_BITS].index("R_EXCHANGE")


def _exchanged(hands: Sequence[Sequence[int]], rec: ExchangeRec) -> tuple[tuple[int, ...], ...] | None:
    """The hands (tile ids, one a seat) after a legal 换三张, or None: "across" only at four
    seats (``engine/state.py``'s exchange)."""
    players = len(hands)
    if rec.direction == "across" and players != 4:
        return None
    counts = [[0] * NUM_KINDS for _ in range(players)]
    for seat, hand in enumerate(hands):
        for tile in hand:
            counts[seat][tile] += 1
    passed = passed_tiles(counts, rec.tiles)
    if passed is None:
        return None
    step = EXCHANGE_STEP[rec.direction]
    after = [list(hand) for hand in hands]
    for seat, three in enumerate(passed):
        for tile in three:
            after[seat].remove(tile)
            after[(seat + step) % players].append(tile)
    return tuple(tuple(hand) for hand in after)


def self_draw_context(bits: int) -> WinContext:
    return WinContext(
        self_draw=True,
        after_kong=bool(bits & CTX_AFTER_KONG),
        last_tile=bool(bits & CTX_LAST_TILE),
        first_turn=bool(bits & CTX_FIRST_TURN),
        dealer=bool(bits & CTX_DEALER),
    )


def passed_tiles(hands: Sequence[Sequence[int]], given: Sequence[TileList]) -> list[list[int]] | None:
    """The tiles of a 换三张 record as ids, or None when it is not a legal exchange from these
    hands (counts per kind, one a seat): :func:`engine.move_checks.check_exchange`."""
    if len(given) != len(hands):
        return None
    try:
        passed = [parse_tiles(names) for names in given]
        check_exchange(passed, hands, len(hands))
    except ValueError:  # a tile name it cannot read, or an illegal exchange (IllegalEvent)
        return None
    return passed
