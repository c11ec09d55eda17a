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


#: template key -> (中文, English)
TEMPLATES: dict[str, tuple[str, str]] = {
    "action": ("{action}", "{action}"),
    # the deal
    "dealer_seat": ("庄家须是 0-3 号位，记录为 {got}", "dealer must be a seat 0-3, got {got}"),
    "four_hands": ("一局有四手牌，记录了 {count} 手", "a deal has four hands, got {count}"),
    "dealt_size": ("{seat}发了 {count} 张牌；{role}", "{seat} is dealt {count} tiles; {role}"),
    "role_dealer": ("庄家 14 张", "the dealer (庄) holds 14"),
    "role_other": ("闲家 13 张", "a non-dealer holds 13"),
    "wall_size": (
        "记录的牌墙有 {count} 张；发牌后应剩 55 张（108 张，发出 53 张）",
        "the recorded wall (牌墙) holds {count} tiles; 55 stay after the deal (108 tiles, 53 dealt)",
    ),
    "table_dealer_seat": ("庄家须是 0-{top} 号位，记录为 {got}", "dealer must be a seat 0-{top}, got {got}"),
    "table_hands": (
        "本桌一局有 {seats} 手牌，记录了 {count} 手",
        "a deal at this table has {seats} hands, got {count}",
    ),
    "table_role_dealer": ("本桌庄家 {size} 张", "the dealer (庄) holds {size} at this table"),
    "table_role_other": ("本桌闲家 {size} 张", "a non-dealer holds {size} at this table"),
    "table_wall_size": (
        "记录的牌墙有 {count} 张；本桌发牌后应剩 {expected} 张",
        "the recorded wall (牌墙) holds {count} tiles; {expected} stay after the deal at this table",
    ),
    "tile_off_table": (
        "{tile} 不在本桌的牌里（只有 {suits} 的牌）",
        "{tile} is not in this table's set (only the suits {suits})",
    ),
    "table_seat_range": ("座位须是 0-{top}，记录为 {got}", "seat must be 0-{top}, got {got}"),
    "void_off_table": (
        "{seat}定缺 {suit}，但本桌没有这门牌（只有 {suits}）",
        "{seat} declares the void suit {suit}, which this table does not play (only {suits})",
    ),
    "copies_dealt": (
        "发出了 {count} 张 {tile}；一副牌（108 张）每种只有四张",
        "{count} copies of {tile} dealt; the set (108 张) has four of each tile",
    ),
    "wild_copies": (
        "发出了 {count} 张红中；本桌的牌只有 {expected} 张红中（wild_tiles）",
        "{count} 红中 dealt; this table's set has {expected} (wild_tiles)",
    ),
    # 换三张 and 定缺
    "exchange_here": ("此处出现换三张：{why}", "an exchange (换三张) here: {why}"),
    "exchange_off": ("本规则不换三张", "换三张 is off under these rules"),
    "exchange_not_now": ("现在不能换", "not now"),
    "exchange_three": (
        "换三张：每家须换出同一花色的三张牌",
        "换三张 (exchange three): each seat passes exactly three tiles of one suit",
    ),
    "exchange_across": (
        "换三张：{seats}人桌没有对家，只能顺时针或逆时针换",
        "换三张 (exchange three): a table of {seats} has no seat across; pass clockwise or counterclockwise",
    ),
    "exchange_suit": (
        "换三张：{seat}须换出同一花色的三张牌",
        "换三张 (exchange three): {seat} must pass three tiles of one suit",
    ),
    "exchange_held": (
        "换三张：{seat}换出的牌不在手中",
        "换三张 (exchange three): {seat} does not hold the tiles it passes",
    ),
    "void_twice": (
        "{seat}定缺两次：每家只定缺一门",
        "{seat} declares 定缺 (void suit) twice: each seat declares one void suit",
    ),
    "void_when": (
        "{seat}{when}定缺：定缺在换三张之后、庄家第一次行动之前",
        "{seat} declares 定缺 (void suit) {when}: the void suit is declared after 换三张 "
        "(exchange three) and before the dealer's first action",
    ),
    "void_before_exchange": ("在换三张之前", "before the 换三张 exchange"),
    "void_after_play": ("在开始行牌之后", "after play began"),
    "void_missing": (
        "{missing}在行牌前未定缺",
        "{missing} have not declared 定缺 (void suit) before play",
    ),
    "play_before_exchange": ("换三张之前就开始行牌", "play began before the 换三张 exchange"),
    # turn order
    "event_in_deal": ("局内出现 {kind!r} 事件", "a {kind!r} event inside a deal"),
    "after_end": (
        "本局已结束（{reason}）后又有 {kind}：{rule}",
        "{kind} after the deal has ended ({reason}): {rule}",
    ),
    "seat_range": ("座位须是 0-3，记录为 {got}", "seat must be 0-3, got {got}"),
    "fixed_discard": (
        "{seat}已胡牌，打出 {tile} 而不是摸到的 {drawn}：血流成河，胡后不改牌（摸到的牌只能胡、杠或立即打出）",
        "{seat} has won and discards {tile}, not the {drawn} it drew: 血流成河, 胡后不改牌 (after a win the"
        " hand is fixed: a drawn tile is won on, konged or thrown at once)",
    ),
    "fixed_pong": (
        "{seat}已胡牌，又碰 {tile}：血流成河，胡后不改牌（胡牌后不能碰）",
        "{seat} has won and pongs {tile}: 血流成河, 胡后不改牌 (after a win a seat makes no pong)",
    ),
    "fixed_kong": (
        "{seat}已胡牌，杠 {tile}，{why}：血流成河，胡后不改牌（胡牌后的杠须用摸到的牌或别人打出的牌，且不改变听牌）",
        "{seat} has won and konged {tile}, {why}: 血流成河, 胡后不改牌 (a kong after a win uses the drawn"
        " tile, or the discard, and leaves the waits as they were)",
    ),
    "fixed_kong_undrawn": ("不是摸到的牌", "not the tile it drew"),
    "fixed_kong_waits": ("改变了听牌", "which changes its waits"),
    "won_already": (
        "{seat}已经胡牌，不能再{what}：血战到底，胡牌者离场",
        "{seat} has already won and may not {what}: 血战到底 (bloody), a seat that has won leaves the deal",
    ),
    "out_of_turn": (
        "{seat}现在不能{what}：应等{expected}（轮流：一家出牌后轮到下一位未胡的家）",
        "{seat} may not {what} now: waiting for {expected} (轮流, turn order: after a seat plays, the "
        "next seat still in)",
    ),
    "wait_exchange": ("换三张", "the 换三张 exchange"),
    "wait_void": ("定缺", "the 定缺 declarations"),
    "wait_act": ("{current}打牌、开杠或胡牌", "{current} to discard, kong or win"),
    "wait_draw": ("{current}摸牌", "{current} to draw"),
    "wait_replacement": ("{current}杠后补牌", "{current} to draw its kong's replacement tile"),
    "wait_claim": ("对打出的牌叫牌，或下一次摸牌", "a claim on the discard or the next draw"),
    "wait_end_rule": ("本局结束：{rule}", "the end of the deal: {rule}"),
    "wait_rob": ("抢杠，或杠家补牌", "a rob of the added kong or the konger's replacement draw"),
    "wait_end": ("本局结束", "the end of the deal"),
    # draws and discards
    "empty_wall": (
        "{seat}从空牌墙摸牌：发牌后牌墙有 55 张，摸完即流局",
        "{seat} draws from an empty wall: the wall (牌墙) holds 55 tiles after the deal, and when they "
        "are drawn the deal ends (流局, wall exhausted)",
    ),
    "wall_next": (
        "{seat}摸到 {tile}，但记录的牌墙{where}的下一张是 {next_tile}",
        "{seat} draws {tile} but the recorded wall's next tile from {where} is {next_tile}",
    ),
    "wall_back": ("尾部（补牌）", "the back (replacement draw)"),
    "wall_front": ("头部", "the front"),
    "fifth_tile": (
        "{seat}摸到第五张 {tile}：四张都已不在牌墙中（108 张，每种四张）",
        "{seat} draws a fifth {tile}: all four are already out of the wall (108 张: four of each tile)",
    ),
    "wild_extra": (
        "{seat}摸到的红中多于本桌的 {expected} 张（wild_tiles）",
        "{seat} draws a 红中 beyond the {expected} of this table's set (wild_tiles)",
    ),
    "discard_not_held": (
        "{seat}打出 {tile}，但手中没有这张牌",
        "{seat} discards {tile}, which it does not hold",
    ),
    "void_first": (
        "{seat}手中还有定缺的 {suit}，却打出 {tile}：须先打完定缺的牌（void_discard_first）",
        "{seat} discards {tile} while holding tiles of its void suit {suit}: 定缺 tiles must go first "
        "(void_discard_first)",
    ),
    "missed_draw": (
        "{seat}摸到最后四张之一的 {tile}，能胡却没胡：最后四张必须胡（last_four_must_hu）",
        "{seat} drew {tile}, one of the wall's last four tiles, and could win on it: 最后四张 must be won "
        "(last_four_must_hu)",
    ),
    "missed_discard": (
        "{seat}能胡最后四张之一的 {tile} 却没胡：最后四张必须胡（last_four_must_hu）",
        "{seat} did not win on {tile}, one of the wall's last four tiles, though it could: 最后四张 must be "
        "won (last_four_must_hu)",
    ),
    # pongs and kongs
    "claim_won_discard": (
        "{seat}{verb}了已被胡的牌：胡优先于碰和杠",
        "{seat} {verb} a discard that has been won: 胡 beats 碰 and 杠 (a win takes the discard before "
        "any pong or kong)",
    ),
    "pongs": ("碰", "pongs"),
    "kongs": ("杠", "kongs"),
    "pong_own": (
        "{seat}碰自己打出的牌：碰只能碰别家打出的牌",
        "{seat} pongs its own discard: 碰 (pong) takes another seat's discard",
    ),
    "pong_tile": (
        "{seat}碰 {tile}，但最后打出的是 {last}：碰只能碰最后打出的牌",
        "{seat} pongs {tile} but the last discard is {last}: 碰 (pong) takes the last discard",
    ),
    "pong_pair": (
        "{seat}手中没有一对 {tile} 却碰：碰是手中一对加别家打出的一张",
        "{seat} pongs {tile} without a pair of it: 碰 (pong) is two in hand + another seat's discard",
    ),
    "void_claim": (
        "{seat}以{what}取定缺花色的 {tile}",
        "{seat} claims {tile} by {what}, a tile of its 定缺 void suit",
    ),
    "no_wall_kong": (
        "{seat}在牌墙已空时开杠：杠后要补牌，牌墙无牌不能杠",
        "{seat} konged with no tile left in the wall: 杠后补牌 (a kong draws a replacement tile), so no "
        "kong without a tile left",
    ),
    "kong_kind": ("未知的杠类型 {kind!r}", "unknown kong kind {kind!r}"),
    "exposed_tile": (
        "{seat}直杠 {tile}，但最后打出的是 {by}的 {last}：直杠只能杠别家最后打出的牌",
        "{seat} makes an exposed kong of {tile}; the last discard is {last} by {by}: 直杠 (exposed "
        "kong) takes another seat's last discard",
    ),
    "exposed_three": (
        "{seat}手中没有三张 {tile} 却直杠：直杠是手中三张加别家打出的一张",
        "{seat} kongs {tile} without three of it: 直杠 (exposed kong) is three in hand + another seat's "
        "discard",
    ),
    "concealed_four": (
        "{seat}手中没有四张 {tile} 却暗杠：暗杠是手中四张",
        "{seat} makes a concealed kong of {tile} without four: 暗杠 (concealed kong) is four in hand",
    ),
    "added_no_pong": (
        "{seat}没有 {tile} 的碰却弯杠：弯杠是在自己的碰上加第四张",
        "{seat} adds to a pong of {tile} it does not have: 弯杠 (added kong) adds the fourth tile to the "
        "seat's own pong",
    ),
    "added_not_held": (
        "{seat}手中没有 {tile} 却弯杠：弯杠是自己的碰加第四张",
        "{seat} adds {tile} to its pong without holding it: 弯杠 (added kong) is the seat's own pong + "
        "the fourth tile",
    ),
    "wild_claim": (
        "{seat}{verb}打出的红中：打出的红中是死牌，谁都不能碰、杠或胡（wild_tiles）",
        "{seat} {verb} a discarded 红中: a discarded 红中 is dead, nobody pongs, kongs or wins on it "
        "(wild_tiles)",
    ),
    "wins_on": ("胡", "wins on"),
    "wild_meld": (
        "{seat}{verb} {tile} 要用红中凑数：红中不能辅助其他牌来碰和杠（wild_tiles）",
        "{seat} {verb} {tile} with a 红中 standing in: 红中不能辅助其他牌来碰和杠 (a 红中 never helps to pong "
        "or kong; wild_tiles)",
    ),
    # wins
    "four_wilds_short": (
        "{seat}记起手4红中，但起手只有 {count} 张红中：起手胡须起手就有四张红中（sihongzhong）",
        "{seat} claims 起手4红中 holding {count} 红中: the win at once needs four 红中 in the starting hand "
        "(sihongzhong)",
    ),
    "four_wilds_late": (
        "{seat}在行牌开始后才记起手4红中：起手胡在庄家第一次出牌、任何碰杠和该家第一次摸牌之前（sihongzhong）",
        "{seat} claims 起手4红中 after play began: the win at once comes before the dealer's first discard, "
        "any pong or kong, and the seat's first draw (sihongzhong)",
    ),
    "four_wilds_off": (
        "{seat}记起手4红中，但本规则不计起手4红中（sihongzhong 为 none）",
        "{seat} claims 起手4红中, which these rules do not score (sihongzhong is none)",
    ),
    "self_draw_undrawn": (
        "{seat}没摸牌却记自摸：自摸是胡自己刚摸到的牌",
        "{seat} claims a self-drawn win without having drawn: 自摸 (self-draw) wins on the tile the seat "
        "just drew",
    ),
    "self_draw_tile": (
        "{seat}记自摸 {tile}，但摸到的是 {drawn}：自摸是胡自己刚摸到的牌",
        "{seat} claims a self-drawn win on {tile} but drew {drawn}: 自摸 (self-draw) wins on the tile the "
        "seat just drew",
    ),
    "nothing": ("无", "nothing"),
    "claim_wrong": (
        "{seat}记胡 {source}的 {tile}，但可胡的{kind}是 {by}的 {open}：{rule}",
        "{seat} claims a win on {tile} from {source}, but the open {kind} is {open} from {by}: {rule}",
    ),
    "open_rob": ("被抢的杠", "robbed kong"),
    "open_discard": ("打出的牌", "discard"),
    "rule_rob": ("抢杠胡是胡弯杠的那张牌", "抢杠胡 (robbing a kong) wins the tile of the added kong"),
    "rule_discard": ("点炮是胡刚打出的牌", "点炮 (discard win) wins the open discard"),
    "own_discard": (
        "{seat}记胡自己打出的牌：点炮是胡别家打出的牌",
        "{seat} claims a win on its own discard: 点炮 (discard win) is on another seat's discard",
    ),
    "won_twice": ("{seat}两次胡同一张牌", "{seat} wins the same tile twice"),
    "second_winner": (
        "{seat}是同一张牌的第二个胡家，但本规则不一炮多响（multiple_hu）",
        "{seat} is a second winner of one discard, but 一炮多响 (multiple_hu) is off",
    ),
    "pass_rule": (
        "{seat}自上次摸牌后放过胡，摸牌前不能胡 {tile}：过水不胡（pass_rule {rule}）",
        "{seat} passed a win since its last draw and may not win on {tile} until it draws again: 过水不胡 "
        "(pass_rule {rule})",
    ),
    "void_win": (
        "{seat}手中还有定缺的 {suit} 却胡牌",
        "{seat} wins while holding tiles of its 定缺 void suit {suit}",
    ),
    "three_suits": (
        "{seat}三门牌胡牌：须缺一门",
        "{seat} wins holding three suits: 缺一门 (two suits at most)",
    ),
    "no_shape": (
        "{seat}记胡 {tile}，但牌型不成胡：胡牌须四组加一对，或七对",
        "{seat} claims a win on {tile}, but its tiles are no winning shape: 胡 (a win) needs four sets and "
        "a pair, or 七对 (seven pairs)",
    ),
    # the same at a table of shorter hands (rules.hand_size 10 or 7: no 七对 there); stored
    # findings of "no_shape" keep rendering as written
    "no_shape_short": (
        "{seat}记胡 {tile}，但牌型不成胡：{size} 张的牌桌胡牌须{sets}组加一对",
        "{seat} claims a win on {tile}, but its tiles are no winning shape: at a {size}-tile table 胡 "
        "(a win) needs {sets} sets and a pair",
    ),
    # the end
    "end_before_replacement": (
        "本局在弯杠补牌之前就结束：杠后要补牌",
        "the deal ends on an added kong before its replacement draw: 杠后补牌 (a kong draws a replacement tile)",
    ),
    "end_early": (
        "本局尚未结束就记了 deal_end：牌墙还剩 {left} 张，{seats} 家未胡；{rule}",
        "deal_end while the deal goes on: {left} tiles left in the wall and {seats} seats still in; {rule}",
    ),
}


#: the templates of the kongs', wins', the end's and the score sheets' findings
TEMPLATES.update(
    {
        # kongs
        "kong_robbed": (
            "{kind}被抢杠胡：被抢的杠不收分（刮风下雨无效）",
            "{kind} robbed by 抢杠胡: a robbed kong earns nothing (刮风下雨无效)",
        ),
        "kong_rule": ("{kind}：{how}（规则 {rules}）", "{kind}: {how} under {rules}"),
        "kong_exposed": ("放杠者付 {pays} 底", "the discarder pays {pays}"),
        "kong_exposed_others": (
            "放杠者付 {pays} 底，其余未胡的每家付 {others} 底（家家有）",
            "the discarder pays {pays} and each other seat still in pays {others} (家家有)",
        ),
        "kong_each": ("其余未胡的每家付 {pays} 底", "each other seat still in pays {pays}"),
        "kong_added_same_turn": (
            "其余未胡的每家付 {pays} 底，仅限本轮摸到的牌（added_kong_same_turn_only）",
            "each other seat still in pays {pays}, only for a tile drawn this turn (added_kong_same_turn_only)",
        ),
        "kong_payment": (
            "{seat}的杠 {tile}：{rule}；应为 {expected}，记录为 {recorded}",
            "{seat}'s kong of {tile}: {rule}; expected {expected}, recorded {recorded}",
        ),
        # wins
        "payer_rob": ("被抢杠者", "the robbed konger"),
        "payer_discard": ("点炮者", "the discarder"),
        "win_discard": (
            "点炮：{payer}付 2^({fan}-1) = {unit}",
            "点炮 (discard win): {payer} pays 2^({fan}-1) = {unit}",
        ),
        "win_discard_transfer": (
            "点炮：{payer}付 2^({fan}-1) = {unit}，并转交刚才杠的所得（杠上炮 呼叫转移）",
            "点炮 (discard win): {payer} pays 2^({fan}-1) = {unit} and hands on what the kong just earned "
            "(杠上炮 呼叫转移)",
        ),
        "win_discard_refund": (
            "点炮：{payer}付 2^({fan}-1) = {unit}，刚才杠的所得退还给付钱的各家（杠上炮退杠）",
            "点炮 (discard win): {payer} pays 2^({fan}-1) = {unit}, and what the kong just earned goes "
            "back to the seats that paid it (杠上炮退杠, kong_discard_transfer: refund)",
        ),
        "win_fed_alone": (
            "直杠后的杠上花此处算点炮：放杠者独付 {unit}",
            "杠上花 after an exposed kong counts as a discard win here: the seat that fed the kong pays {unit}",
        ),
        "win_self_draw": (
            "自摸：未胡的每家付 2^({fan}-1) = {unit}",
            "自摸 (self-draw): each seat still in pays 2^({fan}-1) = {unit}",
        ),
        "win_self_draw_bonus": (
            "自摸：未胡的每家付 2^({fan}-1) = {unit} 再加一底（自摸加底）",
            "自摸 (self-draw): each seat still in pays 2^({fan}-1) = {unit} plus one base (自摸加底)",
        ),
        "fans": ("{patterns} = {fan} 番", "{patterns} = {fan} fan"),
        "fans_capped": (
            "{patterns} = {fan} 番（封顶 {max_fan} 番）",
            "{patterns} = {fan} fan (封顶, capped at max_fan {max_fan})",
        ),
        "win_fan": (
            "{seat}胡 {tile} 为 {fans}（规则 {rules}）；记录为 {recorded} 番",
            "{seat}'s win on {tile} is {fans} under {rules}; recorded {recorded} fan",
        ),
        "win_patterns": (
            "{seat}胡 {tile} 计 {fans}（规则 {rules}，只取最大的一个基本番型再加番）；记录的番型为 {recorded}",
            "{seat}'s win on {tile} scores {fans} under {rules} (one base pattern, the highest, plus extras); "
            "recorded patterns {recorded}",
        ),
        "win_payment": (
            "{seat}的胡（{fans}）：{rule}（规则 {rules}）；应为 {expected}，记录为 {recorded}",
            "{seat}'s win ({fans}): {rule} under {rules}; expected {expected}, recorded {recorded}",
        ),
        # the end
        "settle_move": ("{payer}付 {payee} {amount}", "{payer} pays {payee} {amount}"),
        "settle_part": ("{reason}：{moves}", "{reason}: {moves}"),
        "settle_parts": ("{parts}", "{parts}"),
        "nothing_to_settle": ("无需结算", "nothing to settle"),
        "end_first_hu": (
            "普通场：第一个胡牌即结束本局",
            "普通场 (end_condition first_hu): the first win ends the deal",
        ),
        "end_bloody": (
            "血战到底：三家胡牌或牌墙摸完时本局结束",
            "血战到底 (bloody): the deal ends when three seats have won or the wall is empty",
        ),
        "end_bloody_flow": (
            "血流成河：胡牌者不离场，牌墙摸完时本局结束",
            "血流成河 (bloody_flow): a seat that wins stays in; the deal ends when the wall is empty",
        ),
        "wrong_reason": (
            "本局应以 {computed} 结束（{rule}）；记录的原因为 {recorded!r}",
            "the deal ends by {computed} ({rule}); recorded reason {recorded!r}",
        ),
        "settlement_mismatch": (
            "流局查叫（规则 {rules}，先查花猪，再查大叫，后退税）：{text}；应为 {expected}，记录为 {recorded}",
            "查叫 at the empty wall under {rules} (查花猪, then 查大叫, then 退税): {text}; expected {expected}, "
            "recorded {recorded}",
        ),
        "scores_mismatch": (
            "本局各家净得分（刮风下雨 + 胡牌 + 查叫，规则 {rules}）应为 {expected}；记录为 {recorded}",
            "the deal's net per seat (刮风下雨 kongs + 胡 wins + 查叫 settlement) under {rules} is {expected}; "
            "recorded {recorded}",
        ),
        "totals_mismatch": (
            "本场总分是各局净得分之和（规则 {rules}）：应为 {expected}；记录为 {recorded}",
            "the session's totals are the sum of its deals' nets under {rules}: {expected}; recorded {recorded}",
        ),
        "rules_unusable": (
            "本场规则无法使用：{error}；本场各局未回放（未核对）",
            "the session's rules cannot be used: {error}; its deals are not replayed",
        ),
        "no_deal_end": (
            "本局没有 deal_end 行：记录在本局结束前中断或开始了新的一局",
            "the deal has no deal_end line: the log stops or a new deal begins before it ends",
        ),
        # score sheets
        "sheet_after_end": (
            "本局已结束（{reason}）后又记了 {kind}：{rule}",
            "{kind} after the deal has ended ({reason}): {rule}",
        ),
        "sheet_from_won": (
            "{seat}记录的放炮/放杠者 {source}已经胡牌，不会再打牌",
            "{seat}'s claim names {source} as the discarder, but {source} has won and discards no more",
        ),
        "sheet_from_self": (
            "{seat}的点炮或直杠来自自己：点炮和直杠都取别家打出的牌",
            "{seat} {what} from itself: 点炮 and 直杠 take another seat's discard",
        ),
        "exposed_needs_from": (
            "记分表上的直杠须写明放杠者（from）",
            "an exposed kong (直杠) on a score sheet names the discarder it took the tile from ('from')",
        ),
        "sheet_from_not_exposed": (
            "{kind} 杠不取别家的牌，不应写 from（只有直杠写放杠者）",
            "{a} {kind} kong takes no other seat's discard, so it names no 'from' (only an exposed kong 直杠 does)",
        ),
        "sheet_unknown_pattern": (
            "未知番型 {pattern!r}：番型须是规则第 4 节的基本番型或加番",
            "unknown pattern {pattern!r}: a pattern is a base pattern or an extra of rules.md section 4",
        ),
        "sheet_base_count": (
            "一个胡牌只有一个基本番型（取最大，不叠加），记录了 {count} 个（规则 {rules}）",
            "a win has exactly one base pattern (the highest; patterns are not added together), "
            "recorded {count} under {rules}",
        ),
        "sheet_bases_apart": (
            "规则 {rules}（番型叠加）下 {names} 不能相加：相加的基本番型不共用特征，且属同一读法（规则第 4 节）",
            "{names} do not add up under {rules} (fan_combination sum): base patterns that add "
            "need no feature twice and are of one reading (rules.md 4, Adding up)",
        ),
        "sheet_not_scored": (
            "规则 {rules} 不计 {name}（{pattern}）",
            "{name} ({pattern}) is not scored under {rules}",
        ),
        "sheet_seven_pairs_kong": (
            "{seat}开过 {kongs} 个杠，不能胡七对：七对不能有碰或杠",
            "{seat} made {kongs} kong(s) and cannot win with seven pairs: 七对 needs no pong or kong",
        ),
        "sheet_rob_nothing": (
            "{seat}记抢杠胡，但 {source}上一步不是弯杠：只有弯杠能被抢",
            "{seat} claims 抢杠胡 (robbing a kong) from {source}, but {source}'s last move on the sheet is no "
            "added kong: only an added kong (弯杠) can be robbed",
        ),
        "sheet_play_event": (
            "记分表的局里出现 {kind} 事件：记分表只记杠、胡和 deal_end；已略过",
            "{a} {kind} event in a score-sheet deal: a sheet deal holds only kong, hu and deal_end events; skipped",
        ),
        "sheet_seat_off_table": (
            "{field} 写的是{seat}，但本桌（规则 {rules}）只有 {table_seats} 个座位",
            "'{field}' names {seat}, but the table of {rules} has {table_seats} seats",
        ),
        "sheet_width": (
            "'{field}' 有 {count} 项，但本桌（规则 {rules}）有 {table_seats} 个座位：每个座位写一项；本项未核对",
            "'{field}' has {count} entries, but the table of {rules} has {table_seats} seats: one entry a seat; "
            "not checked",
        ),
        "table_players": (
            "本场列出 {count} 个玩家，但规则 {rules} 的牌桌有 {table_seats} 个座位（seats）：每个座位一个玩家；本场各局未核对",
            "the session names {count} players, but the rules {rules} play at a table of {table_seats} seats "
            "(seats): one player a seat; its deals are not checked",
        ),
        "tile_table_refused": (
            "本局是带牌的记录，无法回放：{why}；记分表（record: sheet）的牌局照常核对",
            "this deal is recorded with tiles and cannot be replayed: {why}; score-sheet deals "
            "(record: sheet) at this table are audited",
        ),
        "sheet_ready_missing": (
            "流局时有两家以上未胡，但 deal_end 没有 ready：无法查叫（查花猪、查大叫、退税），本局得分无法确定",
            "the wall ran out with two or more seats still in, but the sheet's deal_end has no 'ready': "
            "查叫 (查花猪, 查大叫, 退税) cannot be priced, so the deal's net is not known",
        ),
        "sheet_ready_not_in": (
            "{what} 写了 {seat}，但该家在流局时并不在场：听牌番数和花猪只记流局时未胡的家",
            "'{what}' names {seat}, which is not still in at the wall's end: ready values and 花猪 "
            "are for seats that have not won, at an empty wall",
        ),
        "sheet_pig_impossible": (
            "{seat}记为花猪，但规则 {rules} 只打 {suits}、不缺一门：没有手牌会多出一门，这张桌上没有花猪，不查花猪",
            "{seat} is recorded as a 花猪, but {rules} plays only {suits} with no 缺一门: no hand holds a suit "
            "too many, so there is no 花猪 (查花猪) at this table",
        ),
        "sheet_pig_none": (
            "{seat}记为花猪，但规则 {rules} 不查花猪（flower_pig: none）：没听牌的家只按未听牌查叫",
            "{seat} is recorded as a 花猪, but {rules} has no 查花猪 (flower_pig: none): a hand that is not "
            "ready pays as not ready",
        ),
        "sheet_pig_ready": (
            "{seat}既记为花猪又记为听牌：三门牌不可能听牌",
            "{seat} is recorded both as a 花猪 (three suits) and as ready: a hand of three suits is never ready",
        ),
        "sheet_ready_fan": (
            "{seat}的查大叫番数 {fan} 超过封顶 {max_fan}（规则 {rules}）",
            "{seat}'s 查大叫 value is {fan} fan, above max_fan {max_fan} under {rules}: the cap applies",
        ),
        "sheet_ready_low": (
            "{seat}的查大叫番数为 {fan}，听牌至少 1 番",
            "{seat}'s 查大叫 value is {fan} fan; a ready hand is worth at least 1",
        ),
        "sheet_cha_jiao_not_due": (
            "本局以 {reason} 结束，却记了 ready 或 flower_pigs：只有流局且两家以上未胡时才查叫",
            "'ready' or 'flower_pigs' on a deal that ends by {reason}: 查叫 is only at an empty wall with two or "
            "more seats still in",
        ),
        # a situational pattern (天胡, 地胡, 杠上花, 杠上炮) the sheet's own facts rule out
        "impossible_pattern": (
            "{seat}记{pattern}，但{fault}：{rule}",
            "{seat} claims {pattern}, but {fault}: {rule}",
        ),
        # why the pattern cannot be, by what the sheet shows (impossible_pattern)
        "rule_tianhu": (
            "天胡是庄家起手十四张自摸，在任何其他动作之前",
            "天胡 is the dealer's self-drawn win on its first 14 tiles, before any other move",
        ),
        "rule_sihongzhong": (
            "起手4红中是起手就有四张红中、立即自摸胡牌，在行牌开始之前（之前没有杠，也没有其他胡牌）",
            "起手4红中 is a self-drawn win at once on four 红中 dealt, before play begins (no kong and no "
            "other win before it)",
        ),
        "rule_dihu": (
            "地胡是闲家第一次摸牌自摸，之前本局没有杠",
            "地胡 is a non-dealer's self-drawn win on its first draw, with no kong in the deal before",
        ),
        "rule_gangshanghua": (
            "杠上花是自己开杠后紧接着自摸",
            "杠上花 is a self-drawn win right after the winner's own kong",
        ),
        "rule_menqing": (
            "门清是没有碰、没有直杠或弯杠的胡牌（暗杠不影响）",
            "门清 is a win with no pong and no exposed or added kong (a 暗杠 keeps it)",
        ),
        "rule_zhongzhang": (
            "中张是手牌和副露中都没有幺九的胡牌",
            "中张 is a win with no 1 or 9 in the hand or any meld",
        ),
        "rule_gangshangpao": (
            "杠上炮是放炮者开杠后紧接着打出的牌被胡",
            "杠上炮 is a win on a discard right after the discarder's kong",
        ),
        # what the sheet shows instead, by the fault found
        "fault_not_dealer": (" {seat}不是庄家（庄家是 {dealer}）", "{seat} is not the dealer ({dealer})"),
        "fault_dealer": (" {seat}是庄家", "{seat} is the dealer"),
        "fault_on_discard": ("记的是 {source}点炮", "it is written on {source}'s discard"),
        "fault_self_drawn": ("记的是自摸", "it is written as a self-draw"),
        "fault_not_first": ("记分表上此前已有 {moves} 个动作", "the sheet has {moves} move(s) before it"),
        "fault_after_kong": ("本局此前已有杠", "the deal has a kong before it"),
        "fault_open_kong": (
            "记分表上有 {seat}的直杠或弯杠",
            "the sheet has an exposed or added kong of {seat}",
        ),
        "fault_terminal_kong": ("记分表上有 {seat}的幺九杠", "the sheet has a kong of 1 or 9 by {seat}"),
        "fault_won_before": ("{seat}此前已胡牌（血流成河）", "{seat} has won before (血流成河)"),
        "fault_not_own_kong": ("记分表上一步不是 {seat}的杠", "the sheet's last move is no kong of {seat}"),
        "fault_not_source_kong": (
            "记分表上一步不是 {source}的杠",
            "the sheet's last move is no kong of {source}",
        ),
    }
)

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


TEMPLATES.update(READ_TEMPLATES)  # the reading layer's (engine.read_templates)

NO_DEAL_END = say("no_deal_end")
EXPOSED_NEEDS_FROM = say("exposed_needs_from")
