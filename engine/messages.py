"""The prose of the audit's findings, in English and Chinese, kept out of the logic.

A message is a template key of :data:`TEMPLATES` and its values (:func:`say`): a
:class:`Text` carries both and the two languages rendered in the default voice; the
English is the ``message`` of a finding (a contract: its wording is kept), the Chinese
its ``message_zh``. The values are JSON: a plain value (a number, a word, a list) or one
of the kinds :func:`render` and a voice (:mod:`engine.voice`) say: a seat, seats, a tile,
per-seat amounts, patterns, a pattern, a payment reason, an action, words in both
languages, a nested text and a joined list of texts. A page renders the same key and
values with the players' names (:class:`engine.voice.NamedVoice`). Rules are named by
their knob or rules.md section in both. A template is ``(中文, English)``, the order of
every bilingual table; the terms it names (patterns, payment reasons, actions) are
:mod:`engine.vocabulary`'s. The moves report a breach as a :class:`Said`, the key and
values alone (:func:`play`), put in words by :func:`said_text` when the finding is
written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from engine.read_templates import READ_TEMPLATES, ROW_TWINS
from engine.replay_templates import REPLAY_TEMPLATES
from engine.rules import Rules
from engine.settlement import Transfer, multiplier
from engine.vocabulary import ACTIONS, PATTERNS, PAYMENT_REASONS, SUITS
from engine.voice import DEFAULT, Lang, Voice

Values = dict[str, Any]


class Text(NamedTuple):
    en: str
    zh: str
    key: str = ""  # the template of TEMPLATES; "" for a text written out (no template)
    values: Values | None = None  # JSON, the template's values (see render)


class Said(NamedTuple):
    """A message not yet put in words: its template key and its values (JSON). The moves
    report a breach so (:class:`engine.state.IllegalEvent`); :func:`said_text` renders it
    when a finding is written, and a value that is one nests as its key and values."""

    key: str
    values: Values


def said_text(said: Said) -> Text:
    """A :class:`Said` in both languages (the default voice), as :func:`say` gives it."""
    return Text(
        render(said.key, said.values, "en"), render(said.key, said.values, "zh"), said.key, said.values
    )


def pattern_text(patterns: Sequence[str]) -> str:
    """Patterns as 中文 English, a repeated one with its count (根 root ×2)."""
    counts = Counter(patterns)
    parts = []
    for pattern in dict.fromkeys(patterns):
        zh, en = PATTERNS.get(pattern, (pattern, pattern))
        parts.append(f"{zh} {en}" + (f" ×{counts[pattern]}" if counts[pattern] > 1 else ""))
    return " + ".join(parts)


def pattern_text_zh(patterns: Sequence[str]) -> str:
    counts = Counter(patterns)
    return " + ".join(
        PATTERNS.get(p, (p, p))[0] + (f"×{counts[p]}" if counts[p] > 1 else "")
        for p in dict.fromkeys(patterns)
    )


# ------------------------------------------------------------------- values and rendering
def seat(number: int) -> Values:
    return {"seat": number}


def seats(numbers: Sequence[int]) -> Values:
    return {"seats": list(numbers)}


def tile(name: str) -> Values:
    return {"tile": name}


def amounts(values: Sequence[int]) -> Values:
    """One amount per seat (a payment's or a deal's deltas)."""
    return {"amounts": list(values)}


def patterns_value(patterns: Sequence[str]) -> Values:
    return {"patterns": list(patterns)}


def words(zh: str, en: str) -> Values:
    """Words written out in both languages (stored as ``{"en": ..., "zh": ...}``)."""
    return {"en": en, "zh": zh}


def joined(texts: Sequence[Text], sep_zh: str, sep_en: str) -> Values:
    """Texts joined by a separator in each language (stored as ``"sep": [en, zh]``)."""
    return {"join": [_value(t) for t in texts], "sep": [sep_en, sep_zh]}


#: the value names of the tile moves' templates (play) that are a seat or a tile
_SEAT_NAMES = frozenset({"seat", "source", "by", "current", "dealer"})
_TILE_NAMES = frozenset({"tile", "last", "drawn", "next_tile"})


def _value(value: object, name: str = "", named: bool = False) -> object:
    """A value as JSON: a Text nested (its key and values, or its words), a tuple a list;
    ``named``: an int named as a seat, a str named as a tile becomes that kind."""
    if isinstance(value, Said):
        return {"text": {"key": value.key, "values": value.values}}
    if isinstance(value, Text):
        if value.key:
            return {"text": {"key": value.key, "values": value.values or {}}}
        return words(value.zh, value.en)
    if isinstance(value, tuple):
        return [_value(v) for v in value]
    if named and isinstance(value, int) and not isinstance(value, bool) and name in _SEAT_NAMES:
        return seat(value)
    if named and isinstance(value, str) and name in _TILE_NAMES:
        return tile(value)
    if named and isinstance(value, list) and name == "missing":
        return seats(value)
    return value


def say(key: str, **values: object) -> Text:
    """The message ``key`` with its values (a :class:`Text` nests in each language)."""
    stored: Values = {k: _value(v) for k, v in values.items()}
    return Text(render(key, stored, "en"), render(key, stored, "zh"), key, stored)


def in_rows(text: Text) -> Text:
    """``text`` saying "row N" where it says "line N", nested texts too: a score sheet's
    lines are its rows (:data:`engine.read_templates.ROW_TWINS`; 第 N 行 reads the same)."""
    key = ROW_TWINS.get(text.key, text.key)
    values = _rows_of(text.values)
    if key == text.key and values == text.values:
        return text
    return Text(render(key, values, "en"), render(key, values, "zh"), key, values)


def _rows_of(values: Any) -> Any:
    """A template's values with every nested text's template swapped for its row twin."""
    return {k: _row_value(v) for k, v in values.items()} if isinstance(values, dict) else values


def _row_value(value: Any) -> Any:
    if isinstance(value, dict):
        nested = value.get("text")
        if isinstance(nested, dict):
            key = nested.get("key", "")
            return {"text": {"key": ROW_TWINS.get(key, key), "values": _rows_of(nested.get("values"))}}
        return {k: _row_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_row_value(v) for v in value]
    return value


def render(key: str, values: Mapping[str, Any] | None, lang: Lang, voice: Voice = DEFAULT) -> str:
    """The message ``key`` filled from ``values`` in ``lang``, seats, tiles and the rule set
    (``rules``) in ``voice``."""
    zh, en = TEMPLATES[key]
    filled = {
        k: voice.rules(v, lang) if k == "rules" and isinstance(v, str) else _say(v, lang, voice)
        for k, v in (values or {}).items()
    }
    return (zh if lang == "zh" else en).format(**filled)


def _say(value: Any, lang: Lang, voice: Voice) -> Any:
    """One value in words; a plain value as it is (a template may format it with !r)."""
    if not isinstance(value, dict):
        return value
    if "seat" in value:
        return voice.seat(value["seat"], lang)
    if "seats" in value:
        return voice.seats(value["seats"], lang)
    if "tile" in value:
        return voice.tile(value["tile"], lang)
    if "amounts" in value:
        return voice.amounts(value["amounts"], lang)
    if "patterns" in value:
        return pattern_text_zh(value["patterns"]) if lang == "zh" else pattern_text(value["patterns"])
    if "pattern" in value:
        zh, en = PATTERNS.get(value["pattern"], (value["pattern"], value["pattern"]))
        return zh if lang == "zh" else f"{zh} ({en})"
    if "reason" in value:
        zh, en = PAYMENT_REASONS[value["reason"]]
        return zh if lang == "zh" else f"{zh} ({en})"
    if "action" in value:
        zh, en = ACTIONS.get(value["action"], (value["action"], value["action"]))
        return zh if lang == "zh" else en
    if "text" in value:
        return render(value["text"]["key"], value["text"]["values"], lang, voice)
    if "join" in value:
        sep = value["sep"][1] if lang == "zh" else value["sep"][0]
        return sep.join(str(_say(v, lang, voice)) for v in value["join"])
    if "en" in value:
        return value["zh"] if lang == "zh" else value["en"]
    return value


# ------------------------------------------------------------------- kongs
def kong_rule(kind: str, rules: Rules, robbed: bool) -> Text:
    """How a kong is paid under ``rules`` (rules.md 5, 刮风下雨)."""
    reason = {"reason": "kong_" + kind}
    if robbed:
        return say("kong_robbed", kind=reason)
    if kind == "exposed":
        if rules.exposed_kong_others:
            how = say(
                "kong_exposed_others", pays=rules.exposed_kong_discarder, others=rules.exposed_kong_others
            )
        else:
            how = say("kong_exposed", pays=rules.exposed_kong_discarder)
    elif kind == "added":
        key = "kong_added_same_turn" if rules.added_kong_same_turn_only else "kong_each"
        how = say(key, pays=rules.added_kong_each)
    else:
        how = say("kong_each", pays=rules.concealed_kong_each)
    return say("kong_rule", kind=reason, how=how, rules=rules.name)


def kong_payment(seat_: int, tile_: str, rule: Text, expected: list[int], recorded: list[int]) -> Text:
    return say(
        "kong_payment", seat=seat(seat_), tile=tile(tile_), rule=rule,
        expected=amounts(expected), recorded=amounts(recorded),
    )  # fmt: skip


# ------------------------------------------------------------------- wins
def win_rule(fan: int, kind: str, fed_alone: bool, rules: Rules) -> Text:
    """How a win is paid (rules.md 5): 点炮, 杠上炮 transfer, 自摸 and 自摸加底."""
    unit = multiplier(fan)
    if kind in ("discard", "rob", "kong_discard"):
        payer = say("payer_rob" if kind == "rob" else "payer_discard")
        key = "win_discard"
        if kind == "kong_discard" and rules.kong_discard_transfer is True:
            key = "win_discard_transfer"
        elif kind == "kong_discard" and rules.kong_discard_transfer == "refund":
            key = "win_discard_refund"
        return say(key, payer=payer, fan=fan, unit=unit)
    if fed_alone:
        return say("win_fed_alone", unit=unit)
    bonus = rules.self_draw_bonus == "add_base"
    return say("win_self_draw_bonus" if bonus else "win_self_draw", fan=fan, unit=unit)


def fan_text(patterns: Sequence[str], fan: int, uncapped: int, rules: Rules) -> Text:
    if uncapped != fan:
        return say("fans_capped", patterns=patterns_value(patterns), fan=fan, max_fan=rules.max_fan)
    return say("fans", patterns=patterns_value(patterns), fan=fan)


def win_fan(seat_: int, tile_: str, fans: Text, rules: Rules, recorded: int) -> Text:
    return say("win_fan", seat=seat(seat_), tile=tile(tile_), fans=fans, rules=rules.name, recorded=recorded)


def win_patterns(seat_: int, tile_: str, fans: Text, rules: Rules, recorded: list[str]) -> Text:
    return say(
        "win_patterns", seat=seat(seat_), tile=tile(tile_), fans=fans, rules=rules.name, recorded=recorded
    )


def win_payment(
    seat_: int, fans: Text, rule: Text, rules: Rules, expected: list[int], recorded: list[int]
) -> Text:
    return say(
        "win_payment", seat=seat(seat_), fans=fans, rule=rule, rules=rules.name,
        expected=amounts(expected), recorded=amounts(recorded),
    )  # fmt: skip


# ------------------------------------------------------------------- the end
def settlement_text(settlement: Sequence[Transfer]) -> Text:
    parts = []
    for reason in ("flower_pig", "no_ting", "tax_refund"):
        moves = [
            say("settle_move", payer=seat(t.payer), payee=seat(t.payee), amount=t.amount)
            for t in settlement
            if t.reason == reason
        ]
        if moves:
            parts.append(say("settle_part", reason={"reason": reason}, moves=joined(moves, "，", ", ")))
    if not parts:
        return say("nothing_to_settle")
    return say("settle_parts", parts=joined(parts, "；", "; "))


def end_rule(rules: Rules) -> Said:
    """The rule set's end condition in words (rules.md 3, end_condition)."""
    key = {"first_hu": "end_first_hu", "bloody_flow": "end_bloody_flow"}.get(
        rules.end_condition, "end_bloody"
    )
    return Said(key, {})


def wrong_reason(computed: str | None, rule: Said, recorded: str) -> Text:
    return say("wrong_reason", computed=computed, rule=rule, recorded=recorded)


def settlement_mismatch(rules: Rules, text: Text, expected: list[int], recorded: list[int]) -> Text:
    return say(
        "settlement_mismatch",
        rules=rules.name,
        text=text,
        expected=amounts(expected),
        recorded=amounts(recorded),
    )


def scores_mismatch(rules: Rules, expected: list[int], recorded: list[int]) -> Text:
    return say("scores_mismatch", rules=rules.name, expected=amounts(expected), recorded=amounts(recorded))


def totals_mismatch(rules: str, expected: list[int], recorded: list[int]) -> Text:
    return say("totals_mismatch", rules=rules, expected=amounts(expected), recorded=amounts(recorded))


def rules_unusable(error: str) -> Text:
    """A session whose rule set cannot be used: none of its deals is replayed."""
    return say("rules_unusable", error=error)


# ------------------------------------------------------------------- score sheets
def sheet_won_already(seat_: int, action: str) -> Text:
    """The action named in both languages as written out words (how the sheet audit stores it)."""
    zh, en = ACTIONS[action]
    return say("won_already", seat=seat(seat_), what=words(zh, en))


def sheet_after_end(kind: str, reason: str, rule: Said) -> Text:
    return say("sheet_after_end", kind=kind, reason=reason, rule=rule)


def sheet_from_won(seat_: int, source: int) -> Text:
    return say("sheet_from_won", seat=seat(seat_), source=seat(source))


def sheet_from_self(seat_: int, what: str) -> Text:
    return say("sheet_from_self", seat=seat(seat_), what=what)


def article(word: str) -> str:
    """The English article before ``word``: an added kong, an exchange event."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def sheet_from_not_exposed(kind: str) -> Text:
    return say("sheet_from_not_exposed", a=article(kind), kind=kind)


def sheet_unknown_pattern(pattern: str) -> Text:
    return say("sheet_unknown_pattern", pattern=pattern)


def sheet_base_count(count: int, rules: Rules) -> Text:
    return say("sheet_base_count", count=count, rules=rules.name)


def sheet_bases_apart(bases: list[str], rules: Rules) -> Text:
    return say("sheet_bases_apart", names=patterns_value(bases), rules=rules.name)


def sheet_not_scored(pattern: str, rules: Rules) -> Text:
    return say("sheet_not_scored", name=patterns_value([pattern]), pattern=pattern, rules=rules.name)


def sheet_seven_pairs_kong(seat_: int, kongs: int) -> Text:
    return say("sheet_seven_pairs_kong", seat=seat(seat_), kongs=kongs)


def sheet_rob_nothing(seat_: int, source: int) -> Text:
    return say("sheet_rob_nothing", seat=seat(seat_), source=seat(source))


def sheet_play_event(kind: str) -> Text:
    return say("sheet_play_event", a=article(kind), kind=kind)


def sheet_seat_off_table(seat_: int, field: str, seats: int, rules: Rules) -> Text:
    """A seat the table does not have (seat 4 at a three-seat table)."""
    return say("sheet_seat_off_table", seat=seat(seat_), field=field, table_seats=seats, rules=rules.name)


def sheet_width(field: str, count: int, seats: int, rules: Rules) -> Text:
    """A list of points (or ready values) with another count than the table's seats."""
    return say("sheet_width", field=field, count=count, table_seats=seats, rules=rules.name)


def table_players(count: int, seats: int, rules: str) -> Text:
    """A session naming another count of players than its rule set's seats."""
    return say("table_players", count=count, table_seats=seats, rules=rules)


def tile_table_refused(why: str) -> Text:
    """A tile deal at a table the tile replay does not play yet (a sheet deal is audited)."""
    return say("tile_table_refused", why=why)


def sheet_ready_missing() -> Text:
    return say("sheet_ready_missing")


def sheet_ready_not_in(seat_: int, what: str) -> Text:
    return say("sheet_ready_not_in", seat=seat(seat_), what=what)


def sheet_pig_ready(seat_: int) -> Text:
    return say("sheet_pig_ready", seat=seat(seat_))


def sheet_ready_fan(seat_: int, fan: int, rules: Rules) -> Text:
    return say("sheet_ready_fan", seat=seat(seat_), fan=fan, max_fan=rules.max_fan, rules=rules.name)


def sheet_ready_low(seat_: int, fan: int) -> Text:
    return say("sheet_ready_low", seat=seat(seat_), fan=fan)


def sheet_pig_impossible(seat_: int, rules: Rules) -> Text:
    """A 花猪 written where no hand can be one: the suits (三人两房) or ``flower_pig: none``."""
    if rules.flower_pig == "none":
        return say("sheet_pig_none", seat=seat(seat_), rules=rules.name)
    suits = "".join(
        SUITS[s][0] if s in SUITS else s for s in str(rules.suits)
    )  # 筒条: mypyc iterates a str, not a Literal
    return say("sheet_pig_impossible", seat=seat(seat_), suits=suits, rules=rules.name)


def sheet_cha_jiao_not_due(reason: str) -> Text:
    return say("sheet_cha_jiao_not_due", reason=reason)


# ------------------------------------------------------------------- tile moves
def play(key: str, **values: object) -> Said:
    """The message of a move the rules forbid (:class:`engine.state.IllegalEvent`), from
    the ``TEMPLATES`` table, not yet in words; a value that is a :class:`Text` or a
    :class:`Said` fills each language with its own; a value named ``seat``, ``source``,
    ``by``, ``current`` or ``dealer`` is a seat, one named ``tile``, ``last``, ``drawn`` or
    ``next_tile`` a tile, ``missing`` seats."""
    return Said(key, {k: _value(v, k, named=True) for k, v in values.items()})


def doing(what: str) -> Said:
    """An action as the messages name it ("draw", "make an exposed kong"), in both languages."""
    return Said("action", {"action": {"action": what}})


#: template key -> (中文, English): the replay's and the audit's (engine.replay_templates),
#: then the reading layer's (engine.read_templates)
TEMPLATES: dict[str, tuple[str, str]] = {**REPLAY_TEMPLATES, **READ_TEMPLATES}

#: the seat values of a fault's template, the others plain
_FAULT_SEATS = frozenset({"seat", "dealer", "source"})


def sheet_impossible_pattern(pattern: str, fault: str, **values: object) -> Text:
    """A situational pattern (天胡, 地胡, 杠上花, 杠上炮) the sheet's own facts rule out."""
    fault_values = {k: seat(v) if k in _FAULT_SEATS and isinstance(v, int) else v for k, v in values.items()}
    return say(
        "impossible_pattern",
        seat=fault_values.get("seat"),
        pattern={"pattern": pattern},
        fault=say("fault_" + fault, **fault_values),
        rule=say("rule_" + pattern),
    )


NO_DEAL_END = say("no_deal_end")
EXPOSED_NEEDS_FROM = say("exposed_needs_from")
