"""The words a club writes on a 记分 sheet, as data: column headers, events, kong kinds,
pattern names (Chinese or ids), seats and rule-set names.

Everything is looked up after :func:`norm` (lower case, no spaces, ``_`` or ``-``), so
"Player 1", "player_1" and "PLAYER1" are one header. Pattern names come from
``engine.vocabulary`` (ids and Chinese names) plus the other names clubs use for them.
"""

from __future__ import annotations

import re
from typing import Final

from engine.fan import PATTERNS
from engine.vocabulary import KONG_KINDS as KONG_TERMS
from engine.vocabulary import PATTERNS as PATTERN_TERMS


def norm(text: str) -> str:
    """The lookup key of a header or a term: case, spaces, ``_`` and ``-`` do not matter."""
    return re.sub(r"[\s_\-.:：]+", "", text).lower()


def _table(rows: dict[str, tuple[str, ...]]) -> dict[str, str]:
    return {norm(alias): key for key, aliases in rows.items() for alias in (key, *aliases)}


#: column key -> header names (Chinese, English); the template writes "中文 / english"
COLUMN_ALIASES: Final[dict[str, tuple[str, ...]]] = {
    "session": ("场次", "session", "session_id", "sessionid"),
    "date": ("日期", "date", "started_at", "时间"),
    "club": ("俱乐部", "茶馆", "club"),
    "table": ("桌号", "桌", "table"),
    "rules": ("规则", "玩法", "rules", "rule set", "preset"),
    "base": ("底分", "底", "base"),
    "players": ("玩家", "players", "牌友"),
    **{f"player{i}": (f"玩家{i}", f"player{i}", f"{i}号玩家", f"座位{i}玩家") for i in range(1, 5)},
    "deal": ("局号", "局", "盘", "deal", "dealno", "deal number", "hand"),
    "dealer": ("庄家", "庄", "dealer"),
    "event": ("事件", "项目", "event", "type"),
    "seat": ("座位", "谁", "胡/杠", "seat", "who", "player"),
    "kind": ("杠型", "类型", "方式", "kind"),
    "from": ("来自", "点炮", "放炮", "点杠", "from", "discarder"),
    "patterns": ("番型", "牌型", "patterns", "pattern"),
    "fan": ("番数", "番", "fan"),
    "tile": ("牌", "tile"),
    **{f"points{i}": (f"得分{i}", f"分{i}", f"points{i}", f"score{i}") for i in range(1, 5)},
    "ready": ("听牌", "有叫", "叫", "ready"),
    "flower_pigs": ("花猪", "flower_pigs", "flower pigs", "flowerpig"),
    "same_turn": ("当巡", "当巡摸到", "本轮摸到", "same_turn", "same turn", "drawn this turn"),
    "note": ("备注", "说明", "note", "notes", "comment"),
}
COLUMNS: Final[dict[str, str]] = _table(COLUMN_ALIASES)


#: what a row records; ``end`` is the 查叫 step (its points are the settlement), ``net``
#: the deal's net per seat, ``total`` the session's totals
EVENTS: Final[dict[str, str]] = _table(
    {
        "kong": ("杠", "杠牌", "gang", "刮风下雨"),
        "hu": ("胡", "胡牌", "和", "win"),
        "end": ("查叫", "结束", "流局", "荒庄", "deal_end", "settlement"),
        "net": ("本局", "净分", "局分", "本局得分", "scores", "score"),
        "total": ("总分", "总计", "totals", "session_end"),
    }
)

#: a yes or a no in a cell (the ``same_turn`` column of an added kong)
YES_NO: Final[dict[str, bool]] = {
    **{norm(w): True for w in ("是", "对", "当巡", "y", "yes", "true", "1", "✓", "√")},
    **{norm(w): False for w in ("否", "不是", "晚", "n", "no", "false", "0", "✗", "×")},
}

#: the other names clubs write for the kong kinds of rules.md section 2
_KONG_ALIASES: Final[dict[str, tuple[str, ...]]] = {
    "exposed": ("明杠", "点杠", "大明杠", "刮风"),
    "added": ("巴杠", "面下杠", "补杠", "加杠", "续杠"),
    "concealed": ("下雨",),
}
#: kong kind name (Chinese, other names, id) -> kong kind
KONG_KINDS: Final[dict[str, str]] = _table(
    {kind: (zh, *_KONG_ALIASES[kind]) for kind, (zh, _) in KONG_TERMS.items()}
)

#: words in the ``from`` or ``kind`` column (or among the patterns) that mean a self-draw
SELF_DRAW: Final[frozenset[str]] = frozenset(norm(w) for w in ("自摸", "zimo", "self", "self-draw", "tsumo"))

#: deal_end reasons a club may write in the ``kind`` column of an ``end`` row
END_REASONS: Final[dict[str, str]] = _table(
    {
        "wall_exhausted": ("流局", "荒庄", "查叫"),
        "three_won": ("三家胡", "胡三家"),
        "first_hu": ("一胡结束",),
    }
)

_PATTERN_ALIASES: Final[dict[str, tuple[str, ...]]] = {
    "pinghu": ("平胡", "屁胡", "鸡胡"),
    "duiduihu": ("对对胡", "大对子", "碰碰胡", "对对和", "大对"),
    "qingyise": ("清一色", "清"),
    "daiyaojiu": ("带幺九", "全带幺", "带幺", "幺九"),
    "qidui": ("七对", "暗七对", "小七对", "七小对"),
    "qingdui": ("清对", "清大对", "清碰"),
    "jiangdui": ("将对", "将大对"),
    "jingoudiao": ("金钩钓", "金钩胡", "金钩"),
    "jiangjingoudiao": ("将金钩钓", "将金钩"),
    "qingjingoudiao": ("清金钩钓", "清金钩"),
    "shibaluohan": ("十八罗汉",),
    "qingshibaluohan": ("清十八罗汉",),
    "qingdaiyao": ("清幺九", "清带幺"),
    "longqidui": ("龙七对", "豪华七对", "龙七"),
    "qingqidui": ("清七对",),
    "qinglongqidui": ("清龙七对",),
    "tianhu": ("天胡",),
    "dihu": ("地胡",),
    "gen": ("根", "root"),
    "menqing": ("门清", "门前清"),
    "zhongzhang": ("中张", "断幺九", "断幺"),
    "gangshanghua": ("杠上花", "杠开"),
    "gangshangpao": ("杠上炮",),
    "qiangganghu": ("抢杠胡", "抢杠"),
    "haidi": ("海底", "海底捞月", "海底炮"),
    "zimo": ("自摸加番",),
}
#: pattern name (Chinese, other names, id) -> pattern id of engine.fan
PATTERN_NAMES: Final[dict[str, str]] = _table(
    {pid: (zh, *_PATTERN_ALIASES.get(pid, ())) for pid, (zh, _) in PATTERN_TERMS.items()}
)
BASE_IDS: Final[frozenset[str]] = frozenset(p.id for p in PATTERNS)

#: two base patterns written side by side that name one (清一色 + 对对胡 = 清对)
COMBINED_BASES: Final[dict[frozenset[str], str]] = {
    frozenset({"qingyise", "duiduihu"}): "qingdui",
    frozenset({"qingyise", "qidui"}): "qingqidui",
    frozenset({"qingyise", "longqidui"}): "qinglongqidui",
    frozenset({"qingyise", "daiyaojiu"}): "qingdaiyao",
}

#: wind names for seats 1-4 (东 is the first player listed)
SEAT_WORDS: Final[dict[str, int]] = {"东": 0, "南": 1, "西": 2, "北": 3}

#: Chinese names of the presets
RULES_NAMES: Final[dict[str, str]] = _table(
    {"standard": ("标准", "血战到底"), "chengdu": ("成都",), "online": ("线上", "网络", "在线")}
)
