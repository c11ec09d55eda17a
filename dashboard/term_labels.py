"""How a page or a CLI report names a term of the game: a pattern, a payment reason, a
win kind, an end reason, a finding code, a rule or a rule set.

The words are :mod:`engine.vocabulary`'s; this module only says how they are shown in
each language (in English the 中文 name beside the English one, so players learn the
names the table uses; a code or a knob stays visible, since it is what people search).
"""

from __future__ import annotations

from collections.abc import Mapping

from dashboard.i18n import Lang
from engine.vocabulary import (
    END_REASONS,
    FINDING_CODES,
    PATTERNS,
    PAYMENT_REASONS,
    PRESET_NAMES,
    RULE_NAMES,
    WIN_KINDS,
    Term,
    term,
)


def _both(table: dict[str, Term], key: str, lang: Lang) -> str:
    """``中文`` in Chinese, ``中文 English`` in English; a key not in the table as it is."""
    zh, en = table.get(key, (key, key))
    return zh if lang == "zh" else f"{zh} {en}"


def reason_label(reason: str, lang: Lang) -> str:
    """A ledger reason (``kong_exposed``...) as players name it."""
    return _both(PAYMENT_REASONS, reason, lang)


def pattern_label(pattern: str | None, lang: Lang) -> str:
    """A fan pattern id (``pinghu``...) as players name it."""
    return "-" if pattern is None else _both(PATTERNS, pattern, lang)


def win_kind_label(kind: str | None, lang: Lang) -> str:
    return "-" if kind is None else _both(WIN_KINDS, kind, lang)


def rules_label(name: str | None, lang: Lang) -> str:
    """A rule set's name as a page shows it: in 中文 the preset's Chinese name before the
    name itself (``成都麻将 chengdu+{"max_fan":4}``); in English the name as stored."""
    if not name:
        return "?"
    preset = name.split("+", 1)[0]
    if lang == "zh" and preset in PRESET_NAMES:
        return f"{PRESET_NAMES[preset][0]} {name}"
    return name


def rule_set_name(name: str, lang: Lang) -> str:
    """A rule set by its name alone, as a sentence says it: ``成都麻将`` / ``Chengdu``, a
    changed preset ``成都麻将（有改动）``; a name that is no preset (a club's own) as it is."""
    preset, _, changes = name.partition("+")
    if preset not in PRESET_NAMES:
        return name
    zh, en = PRESET_NAMES[preset]
    if not changes:
        return zh if lang == "zh" else en
    return f"{zh}（有改动）" if lang == "zh" else f"{en} (changed)"


def sentence_rules(name: str, lang: Lang) -> str:
    """A rule set inside a sentence: its 中文 name on a 中文 page (``规则 标准川麻``, never the
    id alone in Chinese); on an English page the name as stored (``under standard``)."""
    return rule_set_name(name, lang) if lang == "zh" else name


def _id_with_name(names: Mapping[str, tuple[str, str]], key: str, lang: Lang) -> str:
    """``key`` with its name from ``names``: ``中文 key`` / ``key (English)``; the id itself
    stays visible (it is the contract, and what people search); one not in the table as is."""
    if key not in names:
        return key
    zh, en = names[key]
    return f"{zh} {key}" if lang == "zh" else f"{key} ({en})"


def rule_label(rule: str | None, lang: Lang) -> str:
    """A finding's rule with its name: ``定缺 void_declaration`` / ``void_declaration (void
    declaration)``."""
    return _id_with_name(RULE_NAMES, rule, lang) if rule else "-"


def code_label(code: str | None, lang: Lang) -> str:
    """A finding code with its name: ``付分不符 payment_mismatch`` / ``payment_mismatch (payment
    mismatch)``."""
    return "-" if code is None else _id_with_name(FINDING_CODES, code, lang)


def end_reason_label(reason: str | None, lang: Lang) -> str:
    return "-" if reason is None else term(END_REASONS, reason, lang)
