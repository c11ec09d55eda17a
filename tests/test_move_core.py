"""A knob that changes what is legal is read in one Python module, ``engine/moves.py``:
the explaining engine and the fast check ask it there, so a knob added (or changed) is
written once, plus the C moves' bits the differential holds to it (``engine/move_codes.py``,
``tests/test_fast_plan.py``). And both movers run one state and one set of moves on it:
neither side writes a move of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.move_codes import NO_BIT
from engine.table import TABLE_KNOBS

ROOT = Path(__file__).parent.parent
#: the knobs of legality: those the C moves read, and the pass rule's exception; the
#: table's knobs are read by engine/table.py, which the movers ask
LEGALITY = frozenset(NO_BIT) - frozenset(TABLE_KNOBS) | {"pass_rule_higher_fan_ok"}
#: the two movers, the state and moves of each
MOVERS = (
    "engine/state.py",
    "engine/claims.py",
    "engine/deal.py",
    "ingest/replay/fast_state.py",
    "ingest/replay/fast_check.py",
    "ingest/replay/fast_plan.py",
)


@pytest.mark.parametrize("path", MOVERS)
def test_a_mover_reads_no_knob_of_legality(path: str) -> None:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    read = sorted({node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)} & LEGALITY)
    assert not read, f"{path} reads {read}: ask engine/moves.py"
    table = sorted(
        {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)} & set(TABLE_KNOBS)
    )
    assert not table, f"{path} reads {table}: ask engine/table.py"


def test_the_table_module_reads_every_knob_of_the_table() -> None:
    tree = ast.parse((ROOT / "engine/table.py").read_text(encoding="utf-8"))
    read = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert set(TABLE_KNOBS) - {"two_suit_void"} <= read  # two_suit_void: checked by load_rules


def test_the_core_reads_every_knob_of_legality() -> None:
    tree = ast.parse((ROOT / "engine/moves.py").read_text(encoding="utf-8"))
    read = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert sorted(LEGALITY - read) == []


#: the moves that change a deal's state, written once on the one state (engine/state.py,
#: engine/claims.py, engine/deal.py's DealMoves)
STATE_MOVES = frozenset({
    "move", "exchange", "declare_void", "draw", "discard", "pong", "kong", "exposed_kong", "concealed_kong",
    "added_kong", "settle_added_kong", "pay_kong", "resolve_open", "close_claims", "end_deal", "hu",
    "self_draw_win", "claim_win", "price_self_draw", "price_discard_win", "rob_kong", "record_robbed",
    "record_win", "end_at", "judge_end",
})  # fmt: skip
#: the classes around the one state's moves: each mover's own side
SIDES = (
    ("engine/deal.py", "Deal"),
    ("ingest/replay/fast_state.py", "FastState"),
    ("ingest/replay/fast_check.py", "FastDeal"),
)


@pytest.mark.parametrize(("path", "name"), SIDES)
def test_a_side_writes_no_move_of_its_own(path: str, name: str) -> None:
    """The explaining replay and the fast check run the same moves on the same state: the
    explaining side adds its melds and findings, the fast side its hand-offs, around them."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    (cls,) = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == name]
    written = {node.name for node in cls.body if isinstance(node, ast.FunctionDef)}
    assert not written & STATE_MOVES, (
        f"{name} writes {sorted(written & STATE_MOVES)}: engine/claims.py, engine/deal.py"
    )


def test_both_sides_run_the_one_state() -> None:
    from engine.deal import Deal, DealMoves
    from ingest.replay.fast_check import FastDeal

    assert issubclass(Deal, DealMoves) and issubclass(FastDeal, DealMoves)
    defined = {name for cls in DealMoves.__mro__ for name in vars(cls)}
    assert not STATE_MOVES - defined
