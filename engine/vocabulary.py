"""Every term of the game once, in 中文 and in English: the base patterns and extras, the
payment reasons, the win kinds, the end reasons, the suits, the kong kinds, the actions a
finding names, the finding codes, the rules a finding names and the presets.

A term is ``(中文, English)``, the one order of every bilingual table of the product (the
findings' templates of :mod:`engine.messages`, the dashboard's labels). The engine's
messages, the reader, the CLI and the pages all read their words here, so a term is
spelled the same wherever it is shown. Data only: nothing here imports the engine.
"""

from __future__ import annotations

from typing import Final

#: a term: (中文, English)
Term = tuple[str, str]

#: the base patterns of docs/rules.md section 4, in its order (engine.fan scores them)
BASE_PATTERNS: Final[dict[str, Term]] = {
    "pinghu": ("平胡", "plain win"),
    "duiduihu": ("对对胡", "all triplets"),
    "qingyise": ("清一色", "pure suit"),
    "daiyaojiu": ("带幺九", "terminals in every set"),
    "qidui": ("七对", "seven pairs"),
    "qingdui": ("清对", "pure all triplets"),
    "jiangdui": ("将对", "2-5-8 triplets"),
    "jingoudiao": ("金钩钓", "golden hook (single wait, all melded)"),
    "jiangjingoudiao": ("将金钩钓", "2-5-8 golden hook"),
    "qingjingoudiao": ("清金钩钓", "pure golden hook"),
    "shibaluohan": ("十八罗汉", "eighteen arhats (four kongs and a pair)"),
    "qingshibaluohan": ("清十八罗汉", "pure eighteen arhats"),
    "qingdaiyao": ("清幺九", "pure terminals"),
    "longqidui": ("龙七对", "dragon seven pairs"),
    "qingqidui": ("清七对", "pure seven pairs"),
    "qinglongqidui": ("清龙七对", "pure dragon seven pairs"),
    "tianhu": ("天胡", "heavenly win"),
    "dihu": ("地胡", "earthly win"),
    "sihongzhong": ("起手4红中", "four 红中 in the starting hand"),
}

#: the extras, in the order they are listed after the base pattern (门清, 中张 and 无红中
#: are the ones the hand's tiles decide)
EXTRAS: Final[dict[str, Term]] = {
    "gen": ("根", "root"),
    "menqing": ("门清", "concealed hand (no pong, no exposed kong)"),
    "zhongzhang": ("中张", "no 1 or 9 (断幺九)"),
    "wuhongzhong": ("无红中", "no 红中 (a win without a wild tile)"),
    "gangshanghua": ("杠上花", "bloom after a kong"),
    "gangshangpao": ("杠上炮", "win on a discard after a kong"),
    "qiangganghu": ("抢杠胡", "robbing a kong"),
    "haidi": ("海底", "last tile"),
    "zimo": ("自摸加番", "self-draw bonus fan"),
}

#: every pattern a win can list: the base patterns, then the extras
PATTERNS: Final[dict[str, Term]] = BASE_PATTERNS | EXTRAS

#: why a payment moves (a ledger transfer's reason; docs/rules.md sections 5 and 6)
PAYMENT_REASONS: Final[dict[str, Term]] = {
    "kong_exposed": ("直杠", "exposed kong"),
    "kong_added": ("弯杠", "added kong"),
    "kong_concealed": ("暗杠", "concealed kong"),
    "win_discard": ("点炮", "discard win"),
    "win_self_draw": ("自摸", "self-draw win"),
    "self_draw_bonus": ("自摸加底", "self-draw bonus base"),
    "kong_transfer": ("呼叫转移", "杠上炮 kong transfer"),
    "kong_refund": ("杠上炮退杠", "杠上炮 kong refunded to its payers"),
    "flower_pig": ("查花猪", "flower pig"),
    "no_ting": ("查大叫", "not ready pays ready"),
    "tax_refund": ("退税", "kong income returned"),
}

#: how a win was made (the warehouse's win kind)
WIN_KINDS: Final[dict[str, Term]] = {
    "self_draw": ("自摸", "self-draw"),
    "discard": ("点炮", "on a discard"),
    "rob": ("抢杠", "robbing a kong"),
    "kong_bloom": ("杠上花", "bloom after a kong"),
    "kong_discard": ("杠上炮", "discard after a kong"),
}

#: why a deal ended (deal_end.reason; ``deleted``: a revision that deletes its deal)
END_REASONS: Final[dict[str, Term]] = {
    "three_won": ("三家已胡", "three players have won"),
    "wall_exhausted": ("牌墙摸完（流局）", "the wall is exhausted"),
    "first_hu": ("一胡即结束", "the first win ends it"),
    "deleted": ("已删除", "deleted"),
}

#: the suits by their letter, in tile order (m, p, s)
SUITS: Final[dict[str, Term]] = {
    "m": ("万", "characters"),
    "p": ("筒", "dots"),
    "s": ("条", "bamboo"),
}

#: the kong kinds of docs/rules.md section 2
KONG_KINDS: Final[dict[str, Term]] = {
    "exposed": ("直杠", "exposed kong"),
    "added": ("弯杠", "added kong"),
    "concealed": ("暗杠", "concealed kong"),
}

#: what a seat does, as a finding names it ("{seat} may not {action} now"); the key is
#: the English a finding's values store
ACTIONS: Final[dict[str, Term]] = {
    "draw": ("摸牌", "draw"),
    "discard": ("打牌", "discard"),
    "pong": ("碰", "pong"),
    "kong": ("杠", "kong"),
    "win": ("胡牌", "win"),
    "declare a void suit": ("定缺", "declare a void suit"),
    "win by self-draw": ("自摸", "win by self-draw"),
    "win on a discard": ("胡别家打出的牌", "win on a discard"),
    "discard before drawing the kong's replacement": (
        "在杠后补牌之前打牌",
        "discard before drawing the kong's replacement",
    ),
    "make an exposed kong": ("直杠", "make an exposed kong"),
    "make an added kong": ("弯杠", "make an added kong"),
    "make a concealed kong": ("暗杠", "make a concealed kong"),
    "make a kong": ("开杠", "make a kong"),
}

#: every finding code (docs/report.md) and the warehouse's own, by name
FINDING_CODES: Final[dict[str, Term]] = {
    "bad_record": ("无法读取的行", "unreadable line"),
    "bad_tile": ("不存在的牌", "no such tile"),
    "bad_session": ("场次信息有误", "bad session line"),
    "tile_count": ("牌数不对", "wrong tile count"),
    "out_of_turn": ("不该行动", "out of turn"),
    "not_in_hand": ("手里没有这张牌", "tile not in hand"),
    "illegal_pong": ("不合规的碰", "illegal pong"),
    "illegal_kong": ("不合规的杠", "illegal kong"),
    "illegal_hu": ("不合规的胡", "illegal win"),
    "missed_forced_hu": ("漏胡（最后四张必胡）", "missed forced win"),
    "fixed_hand": ("胡后改牌（血流成河）", "hand changed after a win"),
    "void_rule": ("违反定缺", "void rule broken"),
    "illegal_exchange": ("不合规的换三张", "illegal exchange"),
    "wall_mismatch": ("牌墙不符", "wall mismatch"),
    "wrong_end": ("结束不对", "wrong end"),
    "fan_mismatch": ("番数不符", "fan mismatch"),
    "payment_mismatch": ("付分不符", "payment mismatch"),
    "score_mismatch": ("得分不符", "score mismatch"),
    "unknown_field": ("未知字段", "unknown field"),
    "net_only": ("只记净分的记分表", "net-only sheet"),
    "conflicting_duplicate": ("重复牌局编号但内容不同", "conflicting duplicate"),
    "impossible_pattern": ("与牌局顺序不符的番型", "impossible pattern"),
    "platform_inferred": ("平台牌谱未记，由行牌推断", "inferred from the moves"),
    "platform_rule": ("平台规则 chuanma 无法表达", "a platform rule chuanma cannot express"),
    "platform_defect": ("平台违反自身规则", "the platform broke its own rules"),
}

#: the rule a finding names (its ``rule``: a knob of engine/rules.py or a part of the rules)
RULE_NAMES: Final[dict[str, Term]] = {
    "void_declaration": ("定缺", "void declaration"),
    "void_discard_first": ("先打缺门", "void suit discarded first"),
    "multiple_hu": ("一炮多响", "several wins on one discard"),
    "pass_rule": ("过水不胡", "the pass rule"),
    "pass_rule_higher_fan_ok": ("过水后番大可胡", "a bigger win after a pass"),
    "last_four_must_hu": ("最后四张必胡", "the last four must win"),
    "end_condition": ("结束条件", "when a deal ends"),
    "max_fan": ("封顶", "the fan cap"),
    "self_draw_bonus": ("自摸加底/加番", "the self-draw bonus"),
    "kong_bloom_after_exposed": ("点杠花", "bloom after an exposed kong"),
    "kong_discard_transfer": ("呼叫转移", "kong income passed on"),
    "exposed_kong_discarder": ("直杠（点杠者付）", "exposed kong, the discarder pays"),
    "exposed_kong_others": ("直杠（其他人付）", "exposed kong, the others pay"),
    "added_kong_each": ("弯杠", "added kong"),
    "concealed_kong_each": ("暗杠", "concealed kong"),
    "added_kong_same_turn_only": ("弯杠须当巡", "added kong in its own turn only"),
    "flower_pig_payment": ("查花猪", "the flower-pig payment"),
    "no_ting_pays": ("查大叫", "paying the ready seats"),
    "dead_wait_counts": ("绝张叫", "a dead wait counts"),
    "haidi": ("海底", "the last tile"),
    "haidi_any_discard": ("海底炮不限摸牌人", "海底 on any discard at the empty wall"),
    "exchange_three": ("换三张", "exchange of three"),
    "tax_refund": ("退税", "kong income returned"),
    "flower_pig_pays": ("花猪赔谁", "whom a flower pig pays"),
    "ready_value_kong_roots": ("查叫算杠根", "kong roots in the ready value"),
    "flower_pig": ("花猪认定", "who is a flower pig"),
    "next_after_discard_win": ("胡后谁摸牌", "who draws after a discard win"),
    "fan_combination": ("番型叠加", "how base patterns add up"),
    "jingoudiao_needs_four_melds": ("金钩钓须四副", "golden hook needs four melds"),
    "seats": ("座位数（几人桌）", "the table's seats"),
    "suits": ("花色（几房）", "the suits in the wall"),
    "hand_size": ("手牌张数", "tiles in a hand"),
    "wild_tiles": ("红中（癞子）", "红中 wild tiles"),
    "two_suit_void": ("两房缺一门", "a void at a two-suit table"),
    "sihongzhong": ("起手4红中", "four 红中 dealt win at once"),
    "platforms": ("外部平台记录", "records from other platforms (docs/platforms.md)"),
    "fan": ("番数", "fan"),
    "payments": ("付分", "payments"),
    "cha_jiao": ("查叫", "the wall's-end settlement"),
    "kong": ("杠", "kongs"),
    "rules": ("规则设置", "the rule set"),
    "record": ("记录格式", "the record's format"),
    "revisions": ("修订", "revisions"),
    "score sheet": ("记分表", "score sheets"),
    "zero sum": ("得失相抵（总和为零）", "points sum to zero"),
}

#: the presets of engine/presets by name (docs/presets.md)
PRESET_NAMES: Final[dict[str, Term]] = {
    "standard": ("标准川麻", "standard Sichuan"),
    "chengdu": ("成都麻将", "Chengdu"),
    "online": ("手机版规则", "phone-app rules"),
    "novikov": ("四川血战规则 (Novikov)", "Sichuan Bloody Rules (Novikov)"),
    "hongzhong": ("红中血战", "红中 wild tiles"),
    "sanren": ("三人两房", "three players, two suits"),
    "duangouka": ("十张牌", "ten tiles, three players"),
}

#: every table of terms by what it names (the tests hold each to both languages)
VOCABULARY: Final[dict[str, dict[str, Term]]] = {
    "patterns": PATTERNS,
    "payment_reasons": PAYMENT_REASONS,
    "win_kinds": WIN_KINDS,
    "end_reasons": END_REASONS,
    "suits": SUITS,
    "kong_kinds": KONG_KINDS,
    "actions": ACTIONS,
    "finding_codes": FINDING_CODES,
    "rule_names": RULE_NAMES,
    "preset_names": PRESET_NAMES,
}


def term(table: dict[str, Term], key: str, lang: str) -> str:
    """``key``'s word in ``lang`` ("zh" or "en"); a key the table lacks as it is."""
    pair = table.get(key)
    if pair is None:
        return key
    return pair[0] if lang == "zh" else pair[1]
