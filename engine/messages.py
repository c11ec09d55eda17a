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
