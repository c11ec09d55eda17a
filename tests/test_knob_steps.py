"""Every knob has taken every step of docs/contributing.md, "Add a knob": a knob is a field
of ``Rules`` (the one list), and this test names each step a new one still lacks, so the
recipe and the code cannot drift apart."""

from __future__ import annotations

import re
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from engine import move_codes
from engine.rules import Rules
from engine.vocabulary import RULE_NAMES

ROOT = Path(__file__).parent.parent
PRESETS = sorted((ROOT / "engine" / "presets").glob("*.toml"))
KNOBS = [f.name for f in fields(Rules) if f.name not in ("name", "fan")]


def _doc_rows(name: str) -> set[str]:
    """The knobs a docs/ file gives a table row of its own (``| `knob` |``)."""
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    return set(re.findall(r"^\| `(\w+)` \|", text, flags=re.MULTILINE))


def missing_steps(knob: str) -> list[str]:
    """The steps of "Add a knob" that ``knob`` has not taken, each naming its file."""
    missing = [
        f"{path.relative_to(ROOT)}: a value for it (every preset gives every knob)"
        for path in PRESETS
        if knob not in tomllib.loads(path.read_text(encoding="utf-8"))
    ]
    if knob not in _doc_rows("knobs.md"):
        missing.append("docs/knobs.md: a row in the table of knobs (values, meaning, source, applied in)")
    if knob not in _doc_rows("presets.md"):
        missing.append("docs/presets.md: a row in the table of knobs (each preset's value)")
    if knob not in RULE_NAMES:
        missing.append("engine/vocabulary.py: RULE_NAMES, its name in 中文 and English")
    bits = (
        {k for _, k, _ in move_codes.RULE_BITS}
        | set(move_codes.READ_WITHOUT_BITS)
        | set(move_codes.TABLE_ARGS)
    )
    handed = set(move_codes.MOVES_IGNORE) | set(move_codes.HANDED_TO_PYTHON)
    if knob not in bits | handed:
        missing.append(
            "engine/move_codes.py: the C moves' rule bits (RULE_BITS, READ_WITHOUT_BITS or TABLE_ARGS) "
            "or their hand-off to Python (MOVES_IGNORE, saying why; HANDED_TO_PYTHON for values they do not play)"
        )
    return missing


def test_there_are_presets_and_knobs() -> None:
    assert len(PRESETS) >= 7 and len(KNOBS) >= 34


@pytest.mark.parametrize("knob", KNOBS)
def test_every_knob_has_taken_every_step(knob: str) -> None:
    missing = missing_steps(knob)
    assert not missing, f"knob {knob!r} lacks steps of docs/contributing.md, 'Add a knob':\n- " + "\n- ".join(
        missing
    )


def test_a_knob_that_took_no_step_is_named_with_each() -> None:
    """A name that is no knob lacks every step: one line per preset file, and the rest."""
    missing = missing_steps("not_a_knob")
    assert len(missing) == len(PRESETS) + 4
    assert any("engine/move_codes.py" in step for step in missing)
