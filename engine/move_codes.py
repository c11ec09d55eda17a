"""The integers a deal's moves are played with, written once: the table (tile kinds,
copies, wall, the last four), the phases, the pass rules, the ends, the fast plan's steps,
a win's context bits and the rule bits.

The one deal state both Python movers run (``engine/state.py``), the fast path
(``ingest/replay/fast_check.py``, ``fast_plan.py``) and the C moves (``ingest/replay/_moves.c``) read them here;
the C reads them through the header ``make compile`` writes from this module
(``python -m engine.move_codes > build/move_codes.h``), so C and Python cannot drift.

The knob values the rule bits name are ``engine.rules``' own (the value of a knob that
sets none of its bits is derived from ``knob_values``). A rule set the C moves do not know
is handed to Python, never guessed:
:func:`rule_flags` gives None for a knob it neither maps to bits (:data:`RULE_BITS`), takes
as the table (:data:`TABLE_ARGS`) nor names as one the moves need not read
(:data:`MOVES_IGNORE`), and for a value its bits do not name.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, Final

from engine.rules import knob_values
from engine.table import FOUR_SEAT_TABLE
from engine.tiles import COPIES, NUM_KINDS

DEALT: Final = FOUR_SEAT_TABLE.dealt  # thirteen tiles each, the dealer one more: 53
WALL_SIZE: Final = FOUR_SEAT_TABLE.wall_size  # 108 - 53 = 55
LAST_FOUR: Final = 4  # 最后四张: the wall's last four draws

#: the phases of a deal in code order (``engine.state.Phase`` values)
PHASES: Final = ("exchange", "void", "act", "draw", "replacement", "claim", "rob", "ended")
EXCHANGE: Final = 0
VOID: Final = 1
ACT: Final = 2
DRAW: Final = 3
REPLACEMENT: Final = 4
CLAIM: Final = 5
ROB: Final = 6
ENDED: Final = 7

#: ``pass_rule`` values in code order
PASS_RULES: Final = ("off", "any", "same_tile")
PASS_OFF: Final = 0
PASS_ANY: Final = 1
PASS_SAME_TILE: Final = 2

#: a deal's end reasons in the order the C moves number them
END_REASONS: Final = ("three_won", "wall_exhausted", "first_hu")

#: the fast plan's steps (``ingest/replay/fast_plan.py``)
STEPS: Final = ("kong", "robbed", "self_draw", "discard_win")
STEP_KONG: Final = 0
STEP_ROBBED: Final = 1
STEP_SELF_DRAW: Final = 2
STEP_DISCARD_WIN: Final = 3

#: a win's context bits, bit i for the i-th name
CONTEXT_BITS: Final = ("after_kong", "rob", "last_tile", "first_turn", "dealer")
CTX_AFTER_KONG: Final = 1
CTX_ROB: Final = 2
CTX_LAST_TILE: Final = 4
CTX_FIRST_TURN: Final = 8
CTX_DEALER: Final = 16

#: the knobs the C moves read, as (C name, knob, value): bit i is set when the knob has
#: the value; each knob's other known value sets no bit (:data:`NO_BIT`)
RULE_BITS: Final[tuple[tuple[str, str, Any], ...]] = (
    ("R_VOID_REQUIRED", "void_declaration", "required"),
    ("R_VOID_DISCARD_FIRST", "void_discard_first", True),
    ("R_LAST_FOUR", "last_four_must_hu", True),
    ("R_MULTIPLE_HU", "multiple_hu", True),
    ("R_FIRST_HU", "end_condition", "first_hu"),
    ("R_ADDED_SAME_TURN", "added_kong_same_turn_only", True),
    ("R_EXCHANGE", "exchange_three", True),
    ("R_PASS_ANY", "pass_rule", "any"),
    ("R_PASS_SAME", "pass_rule", "same_tile"),
    ("R_BLOODY_FLOW", "end_condition", "bloody_flow"),
)
#: knob values the C moves do not play: :func:`rule_flags` gives None for them (no bit
#: names them), so their deals are played by the Python fast path or the engine
HANDED_TO_PYTHON: Final[Mapping[str, tuple[Any, ...]]] = {
    "next_after_discard_win": ("discarder",),  # another seat draws after a discard win
    "wild_tiles": (4, 8),  # 红中: the explaining engine's (the fast check plays none)
    "haidi_any_discard": (True,),  # 海底 on a discard after a claim at the empty wall
}
#: knobs the C moves read without a bit: they play one value of it (who draws after a win
#: on a discard: the next seat, ingest/replay/fast_check.py plays both; no 红中)
READ_WITHOUT_BITS: Final = ("next_after_discard_win", "wild_tiles", "haidi_any_discard")
#: the table's knobs the C moves take as arguments, every value: the seats that play, the
#: suits (the kinds in the set) and the tiles dealt, as engine/table.py works them out
#: (``ingest/replay/fast_plan.py`` passes them)
TABLE_ARGS: Final = ("seats", "suits", "hand_size")


def _no_bit() -> dict[str, Any]:
    """Each knob the C moves read, with its one value (of ``engine.rules.knob_values``)
    that sets none of its bits and is not handed to Python: ``void_declaration: "none"``,
    a boolean's False, ``pass_rule: "off"``, ..."""
    values = knob_values()
    out: dict[str, Any] = {}
    for knob in [*(k for _, k, _ in RULE_BITS), *READ_WITHOUT_BITS]:
        named = [v for _, k, v in RULE_BITS if k == knob] + list(HANDED_TO_PYTHON.get(knob, ()))
        (out[knob],) = [value for value in values[knob] if value not in named]
    return out


#: the value of each knob the C moves read that sets none of its bits
NO_BIT: Final[Mapping[str, Any]] = _no_bit()
#: knobs that change no move the C moves take, and why
MOVES_IGNORE: Final[Mapping[str, str]] = {
    "pass_rule_higher_fan_ok": "a seat that may have passed a win gives the deal up (the pass rule needs a fan)",
    "max_fan": "pricing (Python prices every plan)",
    "self_draw_bonus": "pricing",
    "kong_bloom_after_exposed": "pricing (杠上花 after an exposed kong)",
    "kong_discard_transfer": "pricing (呼叫转移, or the refund)",
    "exposed_kong_discarder": "pricing",
    "exposed_kong_others": "pricing",
    "added_kong_each": "pricing",
    "concealed_kong_each": "pricing",
    "flower_pig_payment": "查叫 (Python)",
    "no_ting_pays": "查叫 (Python)",
    "tax_refund": "查叫 (Python)",
    "flower_pig_pays": "查叫 (Python)",
    "dead_wait_counts": "查叫 (Python)",
    "haidi": "fan (海底)",
    "ready_value_kong_roots": "查叫 (Python)",
    "flower_pig": "查叫 (Python)",
    "fan_combination": "fan (Python scores every win: engine.score.score_win)",
    "jingoudiao_needs_four_melds": "fan (Python scores every win: engine.score.score_win)",
    "two_suit_void": "the suits a win or a 花猪 may hold (Python scores every win and 查叫)",
}


def rule_flags(knobs: Mapping[str, Any]) -> int | None:
    """The bits of a rule set's knobs (``Rules.knobs()``) as the C moves take them, or None
    when they do not know a knob or a value of one: the deal is then Python's."""
    bits = 0
    for index, (_, knob, value) in enumerate(RULE_BITS):
        if knobs.get(knob) == value:
            bits |= 1 << index
    for knob, value in knobs.items():
        if knob in ("name", "fan") or knob in MOVES_IGNORE or knob in TABLE_ARGS:
            continue
        if knob not in NO_BIT:
            return None  # a knob the C moves do not know: never guessed
        if value != NO_BIT[knob] and not any(k == knob and v == value for _, k, v in RULE_BITS):
            return None
    return bits


def header() -> str:
    """The C header of these codes (``build/move_codes.h``, included by ``ingest/replay/_moves.c``)."""
    lines = [
        "/* Generated by `python -m engine.move_codes` from engine/move_codes.py: do not edit. */",
        "#ifndef CHUANMA_MOVE_CODES_H",
        "#define CHUANMA_MOVE_CODES_H",
        f"#define KINDS {NUM_KINDS}",
        f"#define COPIES {COPIES}",
        f"#define WALL_SIZE {WALL_SIZE}",
        f"#define LAST_FOUR {LAST_FOUR}",
    ]

    def enum(names: list[str], values: list[int]) -> str:
        return "enum { " + ", ".join(f"{n} = {v}" for n, v in zip(names, values, strict=True)) + " };"

    phase_names = ["EXCHANGE_PHASE", "VOID_PHASE", "ACT", "DRAW", "REPLACEMENT", "CLAIM", "ROB", "ENDED"]
    lines.append(enum(phase_names, list(range(len(PHASES)))))
    lines.append(enum([f"PASS_{r.upper()}" for r in PASS_RULES], list(range(len(PASS_RULES)))))
    ends = {"three_won": "END_THREE_WON", "wall_exhausted": "END_WALL", "first_hu": "END_FIRST_HU"}
    lines.append(enum([ends[e] for e in END_REASONS], list(range(len(END_REASONS)))))
    lines.append(enum([f"STEP_{s.upper()}" for s in STEPS], list(range(len(STEPS)))))
    lines.append(enum([f"C_{c.upper()}" for c in CONTEXT_BITS], [1 << i for i in range(len(CONTEXT_BITS))]))
    lines.append(enum([name for name, _, _ in RULE_BITS], [1 << i for i in range(len(RULE_BITS))]))
    lines.append("#endif")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(header())
