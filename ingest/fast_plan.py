"""The C half of the fast path (issue 14): a deal's moves played in C, its plan back.

``ingest/_moves.c`` (built by ``make compile``) plays a fast-read deal's records on C
arrays, with the same checks in the same order as :class:`ingest.fast_check._FastDeal`,
and returns its *plan*: the kongs and wins in the order they are priced, each with the
seat's tiles and melds and the win's context, then the end reason and every seat's
tiles. :func:`ingest.fast_check.fast_replay` prices the plan with the engine's fan
scorer and settlement core. ``None`` means "not here": an illegal move, 换三张, a record
it does not take, or a win that might have been passed or missed (the pass rule and 最后
四张 need a fan, which only Python scores); the deal then takes the Python moves of
:mod:`ingest.fast_check`, and the engine after that. Without the C module (not built, or
``CHUANMA_PURE=1``) every deal takes the Python moves.
"""

from __future__ import annotations

from typing import Any, Final

from engine import shapes
from engine.events import DealStart
from engine.fan import DISCARD_WIN, WinContext
from engine.mypyc_build import c_extension
from engine.rules import Rules
from ingest.records import DiscardRec, DrawRec, HuRec, KongRec, PlayRecord, PongRec, VoidRec

# the plan's steps (ingest/_moves.c)
STEP_KONG: Final = 0
STEP_ROBBED: Final = 1
STEP_SELF_DRAW: Final = 2
STEP_DISCARD_WIN: Final = 3
END_REASONS: Final = ("three_won", "wall_exhausted", "first_hu")
# a win's context bits
CTX_AFTER_KONG: Final = 1
CTX_ROB: Final = 2
CTX_LAST_TILE: Final = 4
CTX_FIRST_TURN: Final = 8
CTX_DEALER: Final = 16
_DISCARD_WIN: Final = DISCARD_WIN

#: a seat as the plan gives it: (counts, pongs, kongs, draws, void suit or -1, its three
#: base-5 suit keys, its tile count)
SeatState = tuple[list[int], list[int], list[int], int, int, tuple[int, int, int], int]


def _moves_module() -> Any:
    moves = c_extension("ingest._moves")
    if moves is not None:
        record_types = (DrawRec, DiscardRec, PongRec, KongRec, HuRec, VoidRec)
        moves.set_tables(shapes.SHAPE_FLAGS.keys(), shapes.EVEN_KEYS, record_types)
    return moves


_MOVES: Final[Any] = _moves_module()
COMPILED: Final = _MOVES is not None


def rule_flags(rules: Rules) -> int:
    """The knobs the moves read, as the bits ``_moves.c`` takes."""
    return (
        (rules.void_declaration == "required")
        | (rules.void_discard_first << 1)
        | (rules.last_four_must_hu << 2)
        | (rules.multiple_hu << 3)
        | ((rules.end_condition == "first_hu") << 4)
        | (rules.added_kong_same_turn_only << 5)
        | (rules.exchange_three << 6)
        | ((rules.pass_rule == "any") << 7)
        | ((rules.pass_rule == "same_tile") << 8)
    )


def plan_moves(
    start: DealStart, records: list[PlayRecord], rules: Rules
) -> tuple[list[Any], int, Any] | None:
    """``(steps, end reason index, four SeatState)``, or None: not here (see the module docstring)."""
    if _MOVES is None:
        return None
    plan: tuple[list[Any], int, Any] | None = _MOVES.replay_moves(
        records, start.line + 1, start.dealer, start.hands, start.wall, rule_flags(rules)
    )
    return plan


def self_draw_context(bits: int) -> WinContext:
    return WinContext(
        self_draw=True,
        after_kong=bool(bits & CTX_AFTER_KONG),
        last_tile=bool(bits & CTX_LAST_TILE),
        first_turn=bool(bits & CTX_FIRST_TURN),
        dealer=bool(bits & CTX_DEALER),
    )


def discard_context(after_kong: bool, rob: bool, last_tile: bool) -> WinContext:
    """A win on a discard or a robbed kong (engine.claims: the open tile's context)."""
    if after_kong or rob or last_tile:
        return WinContext(after_kong=after_kong, robbing_kong=rob, last_tile=last_tile)
    return _DISCARD_WIN
