"""A knob that changes what is legal is read in one Python module, ``engine/moves.py``:
the explaining engine and the fast check ask it there, so a knob added (or changed) is
written once, plus the C moves' bits the differential holds to it (``engine/move_codes.py``,
``tests/test_fast_plan.py``)."""

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
