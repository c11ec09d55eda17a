"""The codes of the moves (``engine/move_codes.py``), written once for the engine, the
fast path and the C moves' generated header; a rule set the C moves do not know goes to
Python."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import move_codes, state
from engine.rules import knob_values, load_rules
from engine.state import Phase
from ingest.replay import fast_plan

ROOT = Path(__file__).parent.parent


def test_the_codes_are_their_lists() -> None:
    assert [p.value for p in Phase] == list(move_codes.PHASES)
    for index, phase in enumerate(move_codes.PHASES):
        assert getattr(move_codes, phase.upper()) == index
        assert getattr(state, phase.upper()) == index  # the one state's codes, both movers'
    for index, rule in enumerate(move_codes.PASS_RULES):
        assert getattr(move_codes, f"PASS_{rule.upper()}") == index
    for index, step in enumerate(move_codes.STEPS):
        assert getattr(fast_plan, f"STEP_{step.upper()}") == index
    for index, bit in enumerate(move_codes.CONTEXT_BITS):
        assert getattr(fast_plan, f"CTX_{bit.upper()}") == 1 << index
    assert move_codes.WALL_SIZE == 55 and state.WALL_SIZE == 55


def test_every_knob_is_read_or_ignored_by_the_c_moves() -> None:
    """Every knob has its place (a bit, the table's arguments, or none needed), so every
    value of every one reaches the C moves, but for the values handed to Python
    (``HANDED_TO_PYTHON``), which never do."""
    knobs = set(knob_values())
    table = set(move_codes.TABLE_ARGS)
    assert knobs == set(move_codes.NO_BIT) | set(move_codes.MOVES_IGNORE) | table
    assert not set(move_codes.NO_BIT) & set(move_codes.MOVES_IGNORE)
    assert not table & (set(move_codes.NO_BIT) | set(move_codes.MOVES_IGNORE))
    for knob, values in knob_values().items():
        for value in values:
            try:
                rules = load_rules({"preset": "chengdu", knob: value})
            except ValueError:
                continue
            if value in move_codes.HANDED_TO_PYTHON.get(knob, ()):
                assert fast_plan.rule_flags(rules) is None, (knob, value)  # Python plays it
            else:
                assert fast_plan.rule_flags(rules) is not None, (knob, value)


def test_the_bits_name_the_rules_own_values() -> None:
    """The values the rule bits and the pass rules name are the knobs' own
    (``engine.rules``); the value that sets no bit is derived from them."""
    values = knob_values()
    for _, knob, value in move_codes.RULE_BITS:
        assert value in values[knob], (knob, value)
    assert set(move_codes.PASS_RULES) == set(values["pass_rule"])
    assert dict(move_codes.NO_BIT) == {
        "void_declaration": "none", "void_discard_first": False, "last_four_must_hu": False,
        "multiple_hu": False, "end_condition": "bloody", "added_kong_same_turn_only": False,
        "exchange_three": False, "pass_rule": "off", "next_after_discard_win": "winner",
        "wild_tiles": 0, "haidi_any_discard": False,
    }  # fmt: skip


def test_the_bits_of_a_preset() -> None:
    rules = load_rules({"preset": "standard", "pass_rule": "same_tile", "multiple_hu": True})
    names = [name for name, _, _ in move_codes.RULE_BITS]
    bits = fast_plan.rule_flags(rules)
    assert bits is not None
    assert bits & (1 << names.index("R_PASS_SAME")) and bits & (1 << names.index("R_MULTIPLE_HU"))
    assert not bits & (1 << names.index("R_PASS_ANY")) and not bits & (1 << names.index("R_FIRST_HU"))


@pytest.mark.parametrize(
    "change",
    [{"blood_flow_winners_stay": True}, {"pass_rule": "after_draw"}, {"void_declaration": "optional"}],
)
def test_a_knob_or_value_the_c_moves_do_not_know_goes_to_python(change: dict[str, object]) -> None:
    """A knob added to the rules after the C moves were written (or a new value of one they
    read) is never guessed: no bits, so the deal takes the Python moves."""
    knobs = {**load_rules("standard").knobs(), **change}
    assert move_codes.rule_flags(knobs) is None


def test_the_c_moves_take_their_codes_from_the_generated_header() -> None:
    header = move_codes.header()
    names = re.findall(r"#define (\w+) ", header) + re.findall(r"(\w+) = \d+", header)
    assert len(names) == len(set(names)) and "R_PASS_SAME" in names and "WALL_SIZE" in names
    source = (ROOT / "ingest" / "replay" / "_moves.c").read_text(encoding="utf-8")
    assert '#include "move_codes.h"' in source
    for name in names:  # defined once, in the header: never again in the C source
        assert not re.search(rf"#define {name}\b|\b{name} = ", source), name
    assert f"#define WALL_SIZE {move_codes.WALL_SIZE}" in header
    assert f"R_PASS_SAME = {1 << 8}" in header


def test_the_four_seat_tables_sizes_are_written_once() -> None:
    """The wall and the deal of the four-seat table come from ``engine/table.py``: the C
    moves' codes and the platforms' readers derive them, none writes 52, 53 or 55 again."""
    from engine.table import FOUR_SEAT_TABLE
    from ingest.platforms import dcmshi, open_mahjong

    assert (
        (move_codes.DEALT, move_codes.WALL_SIZE)
        == (FOUR_SEAT_TABLE.dealt, FOUR_SEAT_TABLE.wall_size)
        == (53, 55)
    )
    assert FOUR_SEAT_TABLE.dealt - 1 == dcmshi.DEALT and FOUR_SEAT_TABLE.wall_size == open_mahjong.WALL
    for path in ("engine/move_codes.py", "ingest/platforms/dcmshi.py", "ingest/platforms/open_mahjong.py"):
        source = (ROOT / path).read_text(encoding="utf-8")
        assert not re.search(r"^\w+: Final = (52|53|55)\b", source, flags=re.MULTILINE), path
