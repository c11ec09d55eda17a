"""The prose of the audit's findings, in English and Chinese, kept out of the logic.

Every function returns a :class:`Text` (``en``, ``zh``); the English is the
``message`` of a finding (a contract: its wording is kept), the Chinese its
``message_zh``. Rules are named by their knob or rules.md section in both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from engine.fan import NAMES
from engine.rules import Rules
from engine.settlement import REASONS, Transfer, multiplier


class Text(NamedTuple):
    en: str
    zh: str


def pattern_text(patterns: Sequence[str]) -> str:
    """Patterns as 中文 English, a repeated one with its count (根 root ×2)."""
    counts = Counter(patterns)
    parts = []
    for pattern in dict.fromkeys(patterns):
        zh, en = NAMES.get(pattern, (pattern, pattern))
        parts.append(f"{zh} {en}" + (f" ×{counts[pattern]}" if counts[pattern] > 1 else ""))
    return " + ".join(parts)


def pattern_text_zh(patterns: Sequence[str]) -> str:
    counts = Counter(patterns)
    return " + ".join(
        NAMES.get(p, (p, p))[0] + (f"×{counts[p]}" if counts[p] > 1 else "") for p in dict.fromkeys(patterns)
    )


# ------------------------------------------------------------------- kongs
def kong_rule(kind: str, rules: Rules, robbed: bool) -> Text:
    """How a kong is paid under ``rules`` (rules.md 5, 刮风下雨)."""
    zh, en = REASONS["kong_" + kind]
    if robbed:
        return Text(
            f"{zh} ({en}) robbed by 抢杠胡: a robbed kong earns nothing (刮风下雨无效)",
            f"{zh}被抢杠胡：被抢的杠不收分（刮风下雨无效）",
        )
    if kind == "exposed":
        text = f"the discarder pays {rules.exposed_kong_discarder}"
        text_zh = f"放杠者付 {rules.exposed_kong_discarder} 底"
        if rules.exposed_kong_others:
            text += f" and each other seat still in pays {rules.exposed_kong_others} (家家有)"
            text_zh += f"，其余未胡的每家付 {rules.exposed_kong_others} 底（家家有）"
    elif kind == "added":
        text = f"each other seat still in pays {rules.added_kong_each}"
        text_zh = f"其余未胡的每家付 {rules.added_kong_each} 底"
        if rules.added_kong_same_turn_only:
            text += ", only for a tile drawn this turn (added_kong_same_turn_only)"
            text_zh += "，仅限本轮摸到的牌（added_kong_same_turn_only）"
    else:
        text = f"each other seat still in pays {rules.concealed_kong_each}"
        text_zh = f"其余未胡的每家付 {rules.concealed_kong_each} 底"
    return Text(f"{zh} ({en}): {text} under {rules.name}", f"{zh}：{text_zh}（规则 {rules.name}）")


def kong_payment(seat: int, tile: str, rule: Text, expected: list[int], recorded: list[int]) -> Text:
    return Text(
        f"seat {seat}'s kong of {tile}: {rule.en}; expected {expected}, recorded {recorded}",
        f"{seat} 号位的杠 {tile}：{rule.zh}；应为 {expected}，记录为 {recorded}",
    )


# ------------------------------------------------------------------- wins
def win_rule(fan: int, kind: str, fed_alone: bool, rules: Rules) -> Text:
    """How a win is paid (rules.md 5): 点炮, 杠上炮 transfer, 自摸 and 自摸加底."""
    unit = multiplier(fan)
    if kind in ("discard", "rob", "kong_discard"):
        payer = "the robbed konger" if kind == "rob" else "the discarder"
        payer_zh = "被抢杠者" if kind == "rob" else "点炮者"
        text = f"点炮 (discard win): {payer} pays 2^({fan}-1) = {unit}"
        text_zh = f"点炮：{payer_zh}付 2^({fan}-1) = {unit}"
        if kind == "kong_discard" and rules.kong_discard_transfer:
            text += " and hands on what the kong just earned (杠上炮 呼叫转移)"
            text_zh += "，并转交刚才杠的所得（杠上炮 呼叫转移）"
        return Text(text, text_zh)
    if fed_alone:
        return Text(
            f"杠上花 after an exposed kong counts as a discard win here: the seat that fed the kong pays {unit}",
            f"直杠后的杠上花此处算点炮：放杠者独付 {unit}",
        )
    text = f"自摸 (self-draw): each seat still in pays 2^({fan}-1) = {unit}"
    text_zh = f"自摸：未胡的每家付 2^({fan}-1) = {unit}"
    if rules.self_draw_bonus == "add_base":
        text += " plus one base (自摸加底)"
        text_zh += " 再加一底（自摸加底）"
    return Text(text, text_zh)


def fan_text(patterns: Sequence[str], fan: int, uncapped: int, rules: Rules) -> Text:
    en = f"{pattern_text(patterns)} = {fan} fan"
    zh = f"{pattern_text_zh(patterns)} = {fan} 番"
    if uncapped != fan:
        en += f" (封顶, capped at max_fan {rules.max_fan})"
        zh += f"（封顶 {rules.max_fan} 番）"
    return Text(en, zh)


def win_fan(seat: int, tile: str, fans: Text, rules: Rules, recorded: int) -> Text:
    return Text(
        f"seat {seat}'s win on {tile} is {fans.en} under {rules.name}; recorded {recorded} fan",
        f"{seat} 号位胡 {tile} 为 {fans.zh}（规则 {rules.name}）；记录为 {recorded} 番",
    )


def win_patterns(seat: int, tile: str, fans: Text, rules: Rules, recorded: list[str]) -> Text:
    return Text(
        f"seat {seat}'s win on {tile} scores {fans.en} under {rules.name} "
        f"(one base pattern, the highest, plus extras); recorded patterns {recorded}",
        f"{seat} 号位胡 {tile} 计 {fans.zh}（规则 {rules.name}，只取最大的一个基本番型再加番）；记录的番型为 {recorded}",
    )


def win_payment(
    seat: int, fans: Text, rule: Text, rules: Rules, expected: list[int], recorded: list[int]
) -> Text:
    return Text(
        f"seat {seat}'s win ({fans.en}): {rule.en} under {rules.name}; expected {expected}, recorded {recorded}",
        f"{seat} 号位的胡（{fans.zh}）：{rule.zh}（规则 {rules.name}）；应为 {expected}，记录为 {recorded}",
    )


# ------------------------------------------------------------------- the end
def settlement_text(settlement: Sequence[Transfer]) -> Text:
    parts, parts_zh = [], []
    for reason in ("flower_pig", "no_ting", "tax_refund"):
        moves = [t for t in settlement if t.reason == reason]
        if moves:
            zh, en = REASONS[reason]
            parts.append(
                f"{zh} ({en}): " + ", ".join(f"seat {t.payer} pays seat {t.payee} {t.amount}" for t in moves)
            )
            parts_zh.append(
                f"{zh}：" + "，".join(f"{t.payer} 号位付 {t.payee} 号位 {t.amount}" for t in moves)
            )
    if not parts:
        return Text("nothing to settle", "无需结算")
    return Text("; ".join(parts), "；".join(parts_zh))


def end_rule(end_condition: str) -> Text:
    """The end condition in words (rules.md 3, end_condition)."""
    if end_condition == "first_hu":
        return Text(
            "普通场 (end_condition first_hu): the first win ends the deal", "普通场：第一个胡牌即结束本局"
        )
    return Text(
        "血战到底 (bloody): the deal ends when three seats have won or the wall is empty",
        "血战到底：三家胡牌或牌墙摸完时本局结束",
    )


def wrong_reason(computed: str | None, rule: Text, recorded: str) -> Text:
    return Text(
        f"the deal ends by {computed} ({rule.en}); recorded reason {recorded!r}",
        f"本局应以 {computed} 结束（{rule.zh}）；记录的原因为 {recorded!r}",
    )


def settlement_mismatch(rules: Rules, text: Text, expected: list[int], recorded: list[int]) -> Text:
    return Text(
        f"查叫 at the empty wall under {rules.name} (查花猪, then 查大叫, then 退税): "
        f"{text.en}; expected {expected}, recorded {recorded}",
        f"流局查叫（规则 {rules.name}，先查花猪，再查大叫，后退税）：{text.zh}；应为 {expected}，记录为 {recorded}",
    )


def scores_mismatch(rules: Rules, expected: list[int], recorded: list[int]) -> Text:
    return Text(
        f"the deal's net per seat (刮风下雨 kongs + 胡 wins + 查叫 settlement) under {rules.name} is "
        f"{expected}; recorded {recorded}",
        f"本局各家净得分（刮风下雨 + 胡牌 + 查叫，规则 {rules.name}）应为 {expected}；记录为 {recorded}",
    )


def totals_mismatch(rules: str, expected: list[int], recorded: list[int]) -> Text:
    return Text(
        f"the session's totals are the sum of its deals' nets under {rules}: {expected}; recorded {recorded}",
        f"本场总分是各局净得分之和（规则 {rules}）：应为 {expected}；记录为 {recorded}",
    )


def rules_unusable(error: str) -> Text:
    """A session whose rule set cannot be used: none of its deals is replayed."""
    return Text(
        f"the session's rules cannot be used: {error}; its deals are not replayed",
        f"本场规则无法使用：{error}；本场各局未回放（未核对）",
    )


NO_DEAL_END = Text(
    "the deal has no deal_end line: the log stops or a new deal begins before it ends",
    "本局没有 deal_end 行：记录在本局结束前中断或开始了新的一局",
)


# ------------------------------------------------------------------- score sheets
def sheet_won_already(seat: int, what: str, what_zh: str) -> Text:
    return Text(
        f"seat {seat} has already won and may not {what}: 血战到底 (bloody), a seat that has won leaves the deal",
        f"{seat} 号位已经胡牌，不能再{what_zh}：血战到底，胡牌者离场",
    )


def sheet_after_end(kind: str, reason: str, rule: Text) -> Text:
    return Text(
        f"{kind} after the deal has ended ({reason}): {rule.en}",
        f"本局已结束（{reason}）后又记了 {kind}：{rule.zh}",
    )


def sheet_from_won(seat: int, source: int) -> Text:
    return Text(
        f"seat {seat}'s claim names seat {source} as the discarder, but seat {source} has won and discards no more",
        f"{seat} 号位记录的放炮/放杠者 {source} 号位已经胡牌，不会再打牌",
    )


def sheet_from_self(seat: int, what: str) -> Text:
    return Text(
        f"seat {seat} {what} from itself: 点炮 and 直杠 take another seat's discard",
        f"{seat} 号位的点炮或直杠来自自己：点炮和直杠都取别家打出的牌",
    )


EXPOSED_NEEDS_FROM = Text(
    "an exposed kong (直杠) on a score sheet names the discarder it took the tile from ('from')",
    "记分表上的直杠须写明放杠者（from）",
)


def sheet_from_not_exposed(kind: str) -> Text:
    return Text(
        f"a {kind} kong takes no other seat's discard, so it names no 'from' (only an exposed kong 直杠 does)",
        f"{kind} 杠不取别家的牌，不应写 from（只有直杠写放杠者）",
    )


def sheet_unknown_pattern(pattern: str) -> Text:
    return Text(
        f"unknown pattern {pattern!r}: a pattern is a base pattern or an extra of rules.md section 4",
        f"未知番型 {pattern!r}：番型须是规则第 4 节的基本番型或加番",
    )


def sheet_base_count(count: int, rules: Rules) -> Text:
    return Text(
        f"a win has exactly one base pattern (the highest; patterns are not added together), "
        f"recorded {count} under {rules.name}",
        f"一个胡牌只有一个基本番型（取最大，不叠加），记录了 {count} 个（规则 {rules.name}）",
    )


def sheet_not_scored(pattern: str, rules: Rules) -> Text:
    zh, en = NAMES.get(pattern, (pattern, pattern))
    return Text(
        f"{zh} {en} ({pattern}) is not scored under {rules.name}", f"规则 {rules.name} 不计 {zh}（{pattern}）"
    )


def sheet_seven_pairs_kong(seat: int, kongs: int) -> Text:
    return Text(
        f"seat {seat} made {kongs} kong(s) and cannot win with seven pairs: 七对 needs no pong or kong",
        f"{seat} 号位开过 {kongs} 个杠，不能胡七对：七对不能有碰或杠",
    )


def sheet_patterns(seat: int, reason: str, reason_zh: str, expected: list[str], recorded: list[str]) -> Text:
    return Text(
        f"seat {seat}'s win: {reason}; expected patterns {expected}, recorded {recorded}",
        f"{seat} 号位的胡：{reason_zh}；番型应为 {expected}，记录为 {recorded}",
    )


def sheet_rob_nothing(seat: int, source: int) -> Text:
    return Text(
        f"seat {seat} claims 抢杠胡 (robbing a kong) from seat {source}, but seat {source}'s last move on the "
        "sheet is no added kong: only an added kong (弯杠) can be robbed",
        f"{seat} 号位记抢杠胡，但 {source} 号位上一步不是弯杠：只有弯杠能被抢",
    )


def sheet_play_event(kind: str) -> Text:
    return Text(
        f"a {kind} event in a score-sheet deal: a sheet deal holds only kong, hu and deal_end events; skipped",
        f"记分表的局里出现 {kind} 事件：记分表只记杠、胡和 deal_end；已略过",
    )


def sheet_ready_missing() -> Text:
    return Text(
        "the wall ran out with two or more seats still in, but the sheet's deal_end has no 'ready': "
        "查叫 (查花猪, 查大叫, 退税) cannot be priced, so the deal's net is not known",
        "流局时有两家以上未胡，但 deal_end 没有 ready：无法查叫（查花猪、查大叫、退税），本局得分无法确定",
    )


def sheet_ready_not_in(seat: int, what: str) -> Text:
    return Text(
        f"'{what}' names seat {seat}, which is not still in at the wall's end: ready values and 花猪 "
        "are for seats that have not won, at an empty wall",
        f"{what} 写了 {seat} 号位，但该家在流局时并不在场：听牌番数和花猪只记流局时未胡的家",
    )


def sheet_pig_ready(seat: int) -> Text:
    return Text(
        f"seat {seat} is recorded both as a 花猪 (three suits) and as ready: a hand of three suits is never ready",
        f"{seat} 号位既记为花猪又记为听牌：三门牌不可能听牌",
    )


def sheet_ready_fan(seat: int, fan: int, rules: Rules) -> Text:
    return Text(
        f"seat {seat}'s 查大叫 value is {fan} fan, above max_fan {rules.max_fan} under {rules.name}: the cap applies",
        f"{seat} 号位的查大叫番数 {fan} 超过封顶 {rules.max_fan}（规则 {rules.name}）",
    )


def sheet_ready_low(seat: int, fan: int) -> Text:
    return Text(
        f"seat {seat}'s 查大叫 value is {fan} fan; a ready hand is worth at least 1",
        f"{seat} 号位的查大叫番数为 {fan}，听牌至少 1 番",
    )


def sheet_cha_jiao_not_due(reason: str) -> Text:
    return Text(
        f"'ready' or 'flower_pigs' on a deal that ends by {reason}: 查叫 is only at an empty wall with two or "
        "more seats still in",
        f"本局以 {reason} 结束，却记了 ready 或 flower_pigs：只有流局且两家以上未胡时才查叫",
    )


# ------------------------------------------------------------------- tile moves
def _pick(value: object, zh: bool) -> object:
    return (value.zh if zh else value.en) if isinstance(value, Text) else value


def play(key: str, **values: object) -> Text:
    """The message of a move the rules forbid (:class:`engine.state.IllegalEvent`), from
    the ``PLAY`` table; a value that is a :class:`Text` fills each language with its own."""
    en, zh = PLAY[key]
    return Text(
        en.format(**{k: _pick(v, False) for k, v in values.items()}),
        zh.format(**{k: _pick(v, True) for k, v in values.items()}),
    )


def doing(what: str) -> Text:
    """An action as the messages name it ("draw", "make an exposed kong"), in both languages."""
    return Text(what, ACTIONS.get(what, what))


ACTIONS: dict[str, str] = {
    "draw": "摸牌",
    "discard": "打牌",
    "pong": "碰",
    "kong": "杠",
    "win": "胡牌",
    "declare a void suit": "定缺",
    "win by self-draw": "自摸",
    "win on a discard": "胡别家打出的牌",
    "discard before drawing the kong's replacement": "在杠后补牌之前打牌",
    "make an exposed kong": "直杠",
    "make a added kong": "弯杠",
    "make a concealed kong": "暗杠",
}

#: key -> (English, 中文) templates of the tile moves' findings
PLAY: dict[str, tuple[str, str]] = {
    # the deal
    "dealer_seat": ("dealer must be a seat 0-3, got {dealer}", "庄家须是 0-3 号位，记录为 {dealer}"),
    "four_hands": ("a deal has four hands, got {count}", "一局有四手牌，记录了 {count} 手"),
    "dealt_size": ("seat {seat} is dealt {count} tiles; {role}", "{seat} 号位发了 {count} 张牌；{role}"),
    "role_dealer": ("the dealer (庄) holds 14", "庄家 14 张"),
    "role_other": ("a non-dealer holds 13", "闲家 13 张"),
    "wall_size": (
        "the recorded wall (牌墙) holds {count} tiles; 55 stay after the deal (108 tiles, 53 dealt)",
        "记录的牌墙有 {count} 张；发牌后应剩 55 张（108 张，发出 53 张）",
    ),
    "copies_dealt": (
        "{count} copies of {tile} dealt; the set (108 张) has four of each tile",
        "发出了 {count} 张 {tile}；一副牌（108 张）每种只有四张",
    ),
    # 换三张 and 定缺
    "exchange_here": ("an exchange (换三张) here: {why}", "此处出现换三张：{why}"),
    "exchange_off": ("换三张 is off under these rules", "本规则不换三张"),
    "exchange_not_now": ("not now", "现在不能换"),
    "exchange_three": (
        "换三张 (exchange three): each seat passes exactly three tiles of one suit",
        "换三张：每家须换出同一花色的三张牌",
    ),
    "exchange_suit": (
        "换三张 (exchange three): seat {seat} must pass three tiles of one suit",
        "换三张：{seat} 号位须换出同一花色的三张牌",
    ),
    "exchange_held": (
        "换三张 (exchange three): seat {seat} does not hold the tiles it passes",
        "换三张：{seat} 号位换出的牌不在手中",
    ),
    "void_twice": (
        "seat {seat} declares 定缺 (void suit) twice: each seat declares one void suit",
        "{seat} 号位定缺两次：每家只定缺一门",
    ),
    "void_when": (
        "seat {seat} declares 定缺 (void suit) {when}: the void suit is declared after 换三张 "
        "(exchange three) and before the dealer's first action",
        "{seat} 号位{when}定缺：定缺在换三张之后、庄家第一次行动之前",
    ),
    "void_before_exchange": ("before the 换三张 exchange", "在换三张之前"),
    "void_after_play": ("after play began", "在开始行牌之后"),
    "void_missing": (
        "seats {missing} have not declared 定缺 (void suit) before play",
        "{missing} 号位在行牌前未定缺",
    ),
    "play_before_exchange": ("play began before the 换三张 exchange", "换三张之前就开始行牌"),
    # turn order
    "event_in_deal": ("a {kind!r} event inside a deal", "局内出现 {kind!r} 事件"),
    "after_end": (
        "{kind} after the deal has ended ({reason}): {rule}",
        "本局已结束（{reason}）后又有 {kind}：{rule}",
    ),
    "seat_range": ("seat must be 0-3, got {seat}", "座位须是 0-3，记录为 {seat}"),
    "won_already": (
        "seat {seat} has already won and may not {what}: 血战到底 (bloody), a seat that has won leaves the deal",
        "{seat} 号位已经胡牌，不能再{what}：血战到底，胡牌者离场",
    ),
    "out_of_turn": (
        "seat {seat} may not {what} now: waiting for {expected} (轮流, turn order: after a seat plays, the "
        "next seat still in)",
        "{seat} 号位现在不能{what}：应等{expected}（轮流：一家出牌后轮到下一位未胡的家）",
    ),
    "wait_exchange": ("the 换三张 exchange", "换三张"),
    "wait_void": ("the 定缺 declarations", "定缺"),
    "wait_act": ("seat {current} to discard, kong or win", "{current} 号位打牌、开杠或胡牌"),
    "wait_draw": ("seat {current} to draw", "{current} 号位摸牌"),
    "wait_replacement": ("seat {current} to draw its kong's replacement tile", "{current} 号位杠后补牌"),
    "wait_claim": ("a claim on the discard or the next draw", "对打出的牌叫牌，或下一次摸牌"),
    "wait_end_rule": ("the end of the deal: {rule}", "本局结束：{rule}"),
    "wait_rob": ("a rob of the added kong or the konger's replacement draw", "抢杠，或杠家补牌"),
    "wait_end": ("the end of the deal", "本局结束"),
    # draws and discards
    "empty_wall": (
        "seat {seat} draws from an empty wall: the wall (牌墙) holds 55 tiles after the deal, and when they "
        "are drawn the deal ends (流局, wall exhausted)",
        "{seat} 号位从空牌墙摸牌：发牌后牌墙有 55 张，摸完即流局",
    ),
    "wall_next": (
        "seat {seat} draws {tile} but the recorded wall's next tile from {where} is {expected}",
        "{seat} 号位摸到 {tile}，但记录的牌墙{where}的下一张是 {expected}",
    ),
    "wall_back": ("the back (replacement draw)", "尾部（补牌）"),
    "wall_front": ("the front", "头部"),
    "fifth_tile": (
        "seat {seat} draws a fifth {tile}: all four are already out of the wall (108 张: four of each tile)",
        "{seat} 号位摸到第五张 {tile}：四张都已不在牌墙中（108 张，每种四张）",
    ),
    "discard_not_held": (
        "seat {seat} discards {tile}, which it does not hold",
        "{seat} 号位打出 {tile}，但手中没有这张牌",
    ),
    "void_first": (
        "seat {seat} discards {tile} while holding tiles of its void suit {suit}: 定缺 tiles must go first "
        "(void_discard_first)",
        "{seat} 号位手中还有定缺的 {suit}，却打出 {tile}：须先打完定缺的牌（void_discard_first）",
    ),
    "missed_draw": (
        "seat {seat} drew {tile}, one of the wall's last four tiles, and could win on it: 最后四张 must be won "
        "(last_four_must_hu)",
        "{seat} 号位摸到最后四张之一的 {tile}，能胡却没胡：最后四张必须胡（last_four_must_hu）",
    ),
    "missed_discard": (
        "seat {seat} did not win on {tile}, one of the wall's last four tiles, though it could: 最后四张 must be "
        "won (last_four_must_hu)",
        "{seat} 号位能胡最后四张之一的 {tile} 却没胡：最后四张必须胡（last_four_must_hu）",
    ),
    # pongs and kongs
    "claim_won_discard": (
        "seat {seat} {verb} a discard that has been won: 胡 beats 碰 and 杠 (a win takes the discard before "
        "any pong or kong)",
        "{seat} 号位{verb}了已被胡的牌：胡优先于碰和杠",
    ),
    "pongs": ("pongs", "碰"),
    "kongs": ("kongs", "杠"),
    "pong_own": (
        "seat {seat} pongs its own discard: 碰 (pong) takes another seat's discard",
        "{seat} 号位碰自己打出的牌：碰只能碰别家打出的牌",
    ),
    "pong_tile": (
        "seat {seat} pongs {tile} but the last discard is {last}: 碰 (pong) takes the last discard",
        "{seat} 号位碰 {tile}，但最后打出的是 {last}：碰只能碰最后打出的牌",
    ),
    "pong_pair": (
        "seat {seat} pongs {tile} without a pair of it: 碰 (pong) is two in hand + another seat's discard",
        "{seat} 号位手中没有一对 {tile} 却碰：碰是手中一对加别家打出的一张",
    ),
    "void_claim": (
        "seat {seat} claims {tile} by {what}, a tile of its 定缺 void suit",
        "{seat} 号位以{what}取定缺花色的 {tile}",
    ),
    "no_wall_kong": (
        "seat {seat} konged with no tile left in the wall: 杠后补牌 (a kong draws a replacement tile), so no "
        "kong without a tile left",
        "{seat} 号位在牌墙已空时开杠：杠后要补牌，牌墙无牌不能杠",
    ),
    "kong_kind": ("unknown kong kind {kind!r}", "未知的杠类型 {kind!r}"),
    "exposed_tile": (
        "seat {seat} makes an exposed kong of {tile}; the last discard is {last} by seat {by}: 直杠 (exposed "
        "kong) takes another seat's last discard",
        "{seat} 号位直杠 {tile}，但最后打出的是 {by} 号位的 {last}：直杠只能杠别家最后打出的牌",
    ),
    "exposed_three": (
        "seat {seat} kongs {tile} without three of it: 直杠 (exposed kong) is three in hand + another seat's "
        "discard",
        "{seat} 号位手中没有三张 {tile} 却直杠：直杠是手中三张加别家打出的一张",
    ),
    "concealed_four": (
        "seat {seat} makes a concealed kong of {tile} without four: 暗杠 (concealed kong) is four in hand",
        "{seat} 号位手中没有四张 {tile} 却暗杠：暗杠是手中四张",
    ),
    "added_no_pong": (
        "seat {seat} adds to a pong of {tile} it does not have: 弯杠 (added kong) adds the fourth tile to the "
        "seat's own pong",
        "{seat} 号位没有 {tile} 的碰却弯杠：弯杠是在自己的碰上加第四张",
    ),
    "added_not_held": (
        "seat {seat} adds {tile} to its pong without holding it: 弯杠 (added kong) is the seat's own pong + "
        "the fourth tile",
        "{seat} 号位手中没有 {tile} 却弯杠：弯杠是自己的碰加第四张",
    ),
    # wins
    "self_draw_undrawn": (
        "seat {seat} claims a self-drawn win without having drawn: 自摸 (self-draw) wins on the tile the seat "
        "just drew",
        "{seat} 号位没摸牌却记自摸：自摸是胡自己刚摸到的牌",
    ),
    "self_draw_tile": (
        "seat {seat} claims a self-drawn win on {tile} but drew {drawn}: 自摸 (self-draw) wins on the tile the "
        "seat just drew",
        "{seat} 号位记自摸 {tile}，但摸到的是 {drawn}：自摸是胡自己刚摸到的牌",
    ),
    "nothing": ("nothing", "无"),
    "claim_wrong": (
        "seat {seat} claims a win on {tile} from seat {source}, but the open {kind} is {open} from seat {by}: "
        "{rule}",
        "{seat} 号位记胡 {source} 号位的 {tile}，但可胡的{kind}是 {by} 号位的 {open}：{rule}",
    ),
    "open_rob": ("robbed kong", "被抢的杠"),
    "open_discard": ("discard", "打出的牌"),
    "rule_rob": ("抢杠胡 (robbing a kong) wins the tile of the added kong", "抢杠胡是胡弯杠的那张牌"),
    "rule_discard": ("点炮 (discard win) wins the open discard", "点炮是胡刚打出的牌"),
    "own_discard": (
        "seat {seat} claims a win on its own discard: 点炮 (discard win) is on another seat's discard",
        "{seat} 号位记胡自己打出的牌：点炮是胡别家打出的牌",
    ),
    "won_twice": ("seat {seat} wins the same tile twice", "{seat} 号位两次胡同一张牌"),
    "second_winner": (
        "seat {seat} is a second winner of one discard, but 一炮多响 (multiple_hu) is off",
        "{seat} 号位是同一张牌的第二个胡家，但本规则不一炮多响（multiple_hu）",
    ),
    "pass_rule": (
        "seat {seat} passed a win since its last draw and may not win on {tile} until it draws again: 过水不胡 "
        "(pass_rule {rule})",
        "{seat} 号位自上次摸牌后放过胡，摸牌前不能胡 {tile}：过水不胡（pass_rule {rule}）",
    ),
    "void_win": (
        "seat {seat} wins while holding tiles of its 定缺 void suit {suit}",
        "{seat} 号位手中还有定缺的 {suit} 却胡牌",
    ),
    "three_suits": (
        "seat {seat} wins holding three suits: 缺一门 (two suits at most)",
        "{seat} 号位三门牌胡牌：须缺一门",
    ),
    "no_shape": (
        "seat {seat} claims a win on {tile}, but its tiles are no winning shape: 胡 (a win) needs four sets and "
        "a pair, or 七对 (seven pairs)",
        "{seat} 号位记胡 {tile}，但牌型不成胡：胡牌须四组加一对，或七对",
    ),
    # the end
    "end_before_replacement": (
        "the deal ends on an added kong before its replacement draw: 杠后补牌 (a kong draws a replacement tile)",
        "本局在弯杠补牌之前就结束：杠后要补牌",
    ),
    "end_early": (
        "deal_end while the deal goes on: {left} tiles left in the wall and {seats} seats still in; {rule}",
        "本局尚未结束就记了 deal_end：牌墙还剩 {left} 张，{seats} 家未胡；{rule}",
    ),
}


#: why a situational pattern cannot be, by what the sheet shows (impossible_pattern)
_PATTERN_RULES: dict[str, Text] = {
    "tianhu": Text(
        "天胡 is the dealer's self-drawn win on its first 14 tiles, before any other move",
        "天胡是庄家起手十四张自摸，在任何其他动作之前",
    ),
    "dihu": Text(
        "地胡 is a non-dealer's self-drawn win on its first draw, with no kong in the deal before",
        "地胡是闲家第一次摸牌自摸，之前本局没有杠",
    ),
    "gangshanghua": Text(
        "杠上花 is a self-drawn win right after the winner's own kong",
        "杠上花是自己开杠后紧接着自摸",
    ),
    "gangshangpao": Text(
        "杠上炮 is a win on a discard right after the discarder's kong",
        "杠上炮是放炮者开杠后紧接着打出的牌被胡",
    ),
}

#: what the sheet shows instead, by the fault found
_PATTERN_FAULTS: dict[str, tuple[str, str]] = {
    "not_dealer": (
        "seat {seat} is not the dealer (seat {dealer})",
        " {seat} 号位不是庄家（庄家是 {dealer} 号位）",
    ),
    "dealer": ("seat {seat} is the dealer", " {seat} 号位是庄家"),
    "on_discard": ("it is written on seat {source}'s discard", "记的是 {source} 号位点炮"),
    "self_drawn": ("it is written as a self-draw", "记的是自摸"),
    "not_first": ("the sheet has {moves} move(s) before it", "记分表上此前已有 {moves} 个动作"),
    "after_kong": ("the deal has a kong before it", "本局此前已有杠"),
    "not_own_kong": ("the sheet's last move is no kong of seat {seat}", "记分表上一步不是 {seat} 号位的杠"),
    "not_source_kong": (
        "the sheet's last move is no kong of seat {source}",
        "记分表上一步不是 {source} 号位的杠",
    ),
}


def sheet_impossible_pattern(pattern: str, fault: str, **values: object) -> Text:
    """A situational pattern (天胡, 地胡, 杠上花, 杠上炮) the sheet's own facts rule out."""
    zh, en = NAMES[pattern]
    rule = _PATTERN_RULES[pattern]
    fault_en, fault_zh = _PATTERN_FAULTS[fault]
    seat = values.get("seat")
    return Text(
        f"seat {seat} claims {zh} ({en}), but {fault_en.format(**values)}: {rule.en}",
        f"{seat} 号位记{zh}，但{fault_zh.format(**values)}：{rule.zh}",
    )
