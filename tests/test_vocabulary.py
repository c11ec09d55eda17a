"""One vocabulary: every term of the game once, in 中文 and English, in that order, and
every bilingual table of the product in the same order (zh, en)."""

from __future__ import annotations

import re
from pathlib import Path

from dashboard.i18n import LABELS
from engine.fan import HAND_EXTRAS, PATTERNS
from engine.messages import TEMPLATES, render
from engine.vocabulary import (
    ACTIONS,
    BASE_PATTERNS,
    EXTRAS,
    FINDING_CODES,
    KONG_KINDS,
    SUITS,
    VOCABULARY,
)
from engine.vocabulary import PATTERNS as PATTERN_TERMS

CJK = re.compile(r"[\u3400-\u9fff]")
ROOT = Path(__file__).resolve().parent.parent


def _cjk_share(text: str) -> float:
    letters = [c for c in re.sub(r"\{[^}]*\}", "", text) if c.isalpha()]
    return sum(1 for c in letters if CJK.match(c)) / len(letters) if letters else 0.0


def test_every_term_has_its_chinese_then_its_english() -> None:
    for name, table in VOCABULARY.items():
        assert table, name
        for key, (zh, en) in table.items():
            assert CJK.search(zh), (name, key, zh)
            assert re.search("[A-Za-z]{2}", en), (name, key, en)
            assert _cjk_share(zh) > _cjk_share(en), (name, key)


def test_the_engine_scores_the_patterns_the_vocabulary_names() -> None:
    assert [p.id for p in PATTERNS] == list(BASE_PATTERNS)
    assert all((p.zh, p.en) == PATTERN_TERMS[p.id] for p in (*PATTERNS, *HAND_EXTRAS))
    assert {p.id for p in HAND_EXTRAS} <= set(EXTRAS)
    assert PATTERN_TERMS == BASE_PATTERNS | EXTRAS


def test_an_action_is_stored_by_its_english() -> None:
    assert all(en == key for key, (_, en) in ACTIONS.items())
    assert render("action", {"action": {"action": "make an added kong"}}, "zh") == "弯杠"
    assert set(KONG_KINDS) == {"exposed", "added", "concealed"} and list(SUITS) == ["m", "p", "s"]


def test_every_template_and_label_is_chinese_first() -> None:
    """A pair whose two sides differ has more Chinese in its first (a swapped pair fails)."""
    for table in (TEMPLATES, LABELS):
        for key, (zh, en) in table.items():
            if zh != en and (CJK.search(zh) or CJK.search(en)):
                assert _cjk_share(zh) > _cjk_share(en), key


def test_every_finding_code_of_the_report_has_a_name() -> None:
    report = (ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    codes = report.split("\n## Finding codes", 1)[1].split("\n## ", 1)[0]
    headings = re.findall(r"^### ([^:(]*)", codes, re.M)  # "### `illegal_pong`, `illegal_kong`: ..."
    documented = set(re.findall(r"`([a-z_]+)`", "\n".join(headings)))
    assert len(documented) > 20 and documented <= set(FINDING_CODES), documented - set(FINDING_CODES)


def test_no_other_module_spells_a_table_of_terms() -> None:
    """The tables that were spelled twice (the code names, the reasons, the suits, the kong
    kinds, the win kinds) live only in engine/vocabulary.py."""
    spelled = re.compile(r'"(?:kong_exposed|self_draw|fan_mismatch|exposed)": \(?"(?:直杠|自摸|番数不符)')
    for folder in ("engine", "ingest", "dashboard"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name != "vocabulary.py":
                assert not spelled.search(path.read_text(encoding="utf-8")), path
